//! The MRPB experiment's cases (HPCA 2014, Tables 2 and 3): our PolyBench-like kernels, the
//! cache-insensitive ports and the Rodinia kernels of the PTX corpus, each with its launch, and
//! [`select`] to pick some by name. The experiment itself (baselines, sweeps, plan, report) is
//! in [`mrpb`](super::mrpb).

use super::mrpb_cases_rodinia as rodinia;
use super::mrpb_reference as reference;
use super::{Case, Check, Suite};
use crate::bench::{BenchCase, PATHFINDER};
const POLYBENCH_PTX: &str = include_str!("../../../tests/data/kernels/polybench.sm_52.ptx");

/// A PolyBench-like kernel of ours (`tests/data/kernels/polybench.cu`), checked against its
/// host reference.
const fn polybench(
    name: &'static str,
    about: &'static str,
    check: Check,
    flags: &'static [&'static str],
) -> Case {
    Case {
        suite: Suite::PolyBench,
        launch: BenchCase {
            name,
            about,
            ptx: POLYBENCH_PTX,
            flags,
        },
        check: Some(check),
    }
}

const POLYBENCH_CI_PTX: &str = include_str!("../../../tests/data/kernels/polybench_ci.sm_52.ptx");

/// A cache-insensitive kernel of ours with a PolyBench/GPU port's access pattern and launch
/// (`tests/data/kernels/polybench_ci.cu`, sizes fixed at 256 as the ports fix theirs),
/// checked against its host reference.
const fn polybench_ci(
    name: &'static str,
    about: &'static str,
    check: Check,
    flags: &'static [&'static str],
) -> Case {
    Case {
        suite: Suite::PolyBenchCi,
        launch: BenchCase {
            name,
            about,
            ptx: POLYBENCH_CI_PTX,
            flags,
        },
        check: Some(check),
    }
}

/// A Rodinia kernel checked against its host reference: the corpus's (`tests/data/ptx-corpus/`)
/// or our unshared version (`tests/data/kernels/rodinia_unshared.cu`, MRPB Table 3's "/U").
const fn rodinia_checked(launch: BenchCase, check: Check) -> Case {
    Case {
        suite: Suite::Rodinia,
        launch,
        check: Some(check),
    }
}

const SRAD_PTX: &str =
    include_str!("../../../tests/data/ptx-corpus/ocelot_rodinia_srad_kernel.ptx");
const UNSHARED_PTX: &str = include_str!("../../../tests/data/kernels/rodinia_unshared.sm_52.ptx");

const POLYBENCH_MULTI_PTX: &str =
    include_str!("../../../tests/data/kernels/polybench_multi.sm_52.ptx");

/// One launch of a multi-launch PolyBench program of ours (`tests/data/kernels/
/// polybench_multi.cu`: 2mm, 3mm, 3dconv, fdtd), checked against its host reference.
const fn polybench_multi(
    name: &'static str,
    about: &'static str,
    check: Check,
    flags: &'static [&'static str],
) -> Case {
    Case {
        suite: Suite::PolyBench,
        launch: BenchCase {
            name,
            about,
            ptx: POLYBENCH_MULTI_PTX,
            flags,
        },
        check: Some(check),
    }
}

/// Every case, PolyBench first (MRPB Tables 2 and 3).
///
/// PolyBench (n = 1024, arrays `rand:SEED`): the paper's IW kernels (atax, bicg, gesummv, mvt)
/// "cannot run more than one block concurrently on an SM due to input size limits" (§2.4), so
/// one SM of the paper's launch runs one 256-thread block at a time; each case here is one such
/// block (rows or columns 0-255). The paper scaled atax, bicg and mvt to n = 2048 and gesummv to
/// 1024 (Table 2, and Fig. 2's 8 KB rows); n = 1024 keeps the row walk's 32 lanes in one L1D
/// set (4 KB apart) and every baseline run under 12 s here. conv2d (the paper's 2dconv,
/// cache-insensitive) is a whole 256 x 256 launch. syrk, syr2k and gemm (32 x 8 blocks) run at
/// the paper's sizes (n = m = 256, 128; gemm 256), 16 blocks each, about one SM's share of
/// the paper's grid on 14 SMs, 6 blocks resident at once. Rodinia: pathfinder is `warpstep bench`'s
/// case (1,296 columns, a 20-row pyramid); backprop's layerforward runs the paper's 65,536 input
/// nodes (grid 1 x 4,096, random data); hotspot runs the paper's 512 x 512 grid, one launch of
/// its 2-step pyramid (random temperatures and power, the host's chip constants for 512 x 512).
///
/// Issue 33 item 3 added PolyBench's 2mm and 3mm (n = 512, 32 blocks of 32 x 8 per launch),
/// 3dconv (one plane's launch of a 256³ cube, all 256 blocks) and fdtd (one time step's three
/// launches on 256 x 256), Table 2's sizes; SRAD (both kernels on a 1,024 x 64 band of the
/// paper's 1,024 x 1,024 image, rows 4 KB apart as in Fig. 3, 256 blocks of 16 x 16) and the
/// unshared versions of SRAD, hotspot, pathfinder and backprop (§5.6, Table 3's /U), with the
/// originals' launches. NW (the corpus's needle kernels on a 2,048 x 2,048 alignment) and LUD
/// (ours, 512 x 512) and their unshared versions are one representative launch per kernel,
/// chosen and documented in [`mrpb_cases_rodinia`](super::mrpb_cases_rodinia). Every case,
/// the CI ports included, is checked against its host reference (`mrpb_reference.rs`,
/// `mrpb_reference_polybench.rs`, `mrpb_reference_ci.rs`, `mrpb_reference_rodinia.rs`).
#[rustfmt::skip]
pub const CASES: &[Case] = &[
    polybench(
        "atax_1",
        "tmp = A x: row walk, intra-warp contention (MRPB Fig. 2)",
        reference::atax_1,
        &[
            "--kernel", "atax_1", "--grid", "1", "--block", "256",
            "--arg", "f32[1048576]=rand:1", "--arg", "f32[1024]=rand:2",
            "--arg", "f32[1024]=0", "--arg", "1024",
        ],
    ),
    polybench(
        "atax_2",
        "y = A^T tmp: column walk, coalesced",
        reference::atax_2,
        &[
            "--kernel", "atax_2", "--grid", "1", "--block", "256",
            "--arg", "f32[1048576]=rand:1", "--arg", "f32[1024]=0",
            "--arg", "f32[1024]=rand:3", "--arg", "1024",
        ],
    ),
    polybench(
        "bicg_1",
        "s = A^T r: column walk, coalesced",
        reference::bicg_1,
        &[
            "--kernel", "bicg_1", "--grid", "1", "--block", "256",
            "--arg", "f32[1048576]=rand:1", "--arg", "f32[1024]=rand:2",
            "--arg", "f32[1024]=0", "--arg", "1024",
        ],
    ),
    polybench(
        "bicg_2",
        "q = A p: row walk",
        reference::bicg_2,
        &[
            "--kernel", "bicg_2", "--grid", "1", "--block", "256",
            "--arg", "f32[1048576]=rand:1", "--arg", "f32[1024]=rand:3",
            "--arg", "f32[1024]=0", "--arg", "1024",
        ],
    ),
    polybench(
        "mvt_1",
        "x1 += A y1: row walk",
        reference::mvt_1,
        &[
            "--kernel", "mvt_1", "--grid", "1", "--block", "256",
            "--arg", "f32[1048576]=rand:1", "--arg", "f32[1024]=0",
            "--arg", "f32[1024]=rand:2", "--arg", "1024",
        ],
    ),
    polybench(
        "mvt_2",
        "x2 += A^T y2: column walk, coalesced",
        reference::mvt_2,
        &[
            "--kernel", "mvt_2", "--grid", "1", "--block", "256",
            "--arg", "f32[1048576]=rand:1", "--arg", "f32[1024]=0",
            "--arg", "f32[1024]=rand:3", "--arg", "1024",
        ],
    ),
    polybench(
        "gesummv",
        "y = alpha A x + beta B x: two row walks",
        reference::gesummv,
        &[
            "--kernel", "gesummv", "--grid", "1", "--block", "256",
            "--arg", "f32[1048576]=rand:1", "--arg", "f32[1048576]=rand:2",
            "--arg", "f32[1024]=rand:3", "--arg", "f32[1024]=0",
            "--arg", "f32[1024]=0", "--arg", "1.5", "--arg", "1.2", "--arg", "1024",
        ],
    ),
    polybench(
        "conv2d",
        "3 x 3 stencil, 256 x 256: cache-insensitive",
        reference::conv2d,
        &[
            "--kernel", "conv2d", "--grid", "8,32", "--block", "32,8",
            "--arg", "f32[65536]=rand:1", "--arg", "f32[65536]=0",
            "--arg", "256", "--arg", "256",
        ],
    ),
    polybench(
        "syrk",
        "C = A A^T: 8 warps of a block walk the same 32 rows (XW)",
        reference::syrk,
        &[
            "--kernel", "syrk", "--grid", "8,2", "--block", "32,8",
            "--arg", "1.5", "--arg", "1.2", "--arg", "f32[65536]=rand:1",
            "--arg", "f32[65536]=rand:2", "--arg", "256", "--arg", "256",
        ],
    ),
    polybench(
        "syr2k",
        "C = A B^T + B A^T: syrk over two matrices (XW)",
        reference::syr2k,
        &[
            "--kernel", "syr2k", "--grid", "4,4", "--block", "32,8",
            "--arg", "1.5", "--arg", "1.2", "--arg", "f32[16384]=rand:1",
            "--arg", "f32[16384]=rand:2", "--arg", "f32[16384]=rand:3",
            "--arg", "128", "--arg", "128",
        ],
    ),
    polybench(
        "gemm",
        "C = A B: broadcast and coalesced reads (CI)",
        reference::gemm,
        &[
            "--kernel", "gemm", "--grid", "8,2", "--block", "32,8",
            "--arg", "1.5", "--arg", "1.2", "--arg", "f32[65536]=rand:1",
            "--arg", "f32[65536]=rand:2", "--arg", "f32[65536]=rand:3",
            "--arg", "256", "--arg", "256", "--arg", "256",
        ],
    ),
    polybench_multi(
        "2mm_1",
        "2mm's tmp = alpha A B, n = 512, 32 blocks: gemm's pattern (CI)",
        reference::mm2_1,
        &[
            "--kernel", "mm2_1", "--grid", "16,2", "--block", "32,8",
            "--arg", "1.5", "--arg", "f32[262144]=rand:1", "--arg", "f32[262144]=rand:2",
            "--arg", "f32[262144]=0", "--arg", "512", "--arg", "512", "--arg", "512",
        ],
    ),
    polybench_multi(
        "2mm_2",
        "2mm's D = beta D + tmp C, n = 512, 32 blocks (CI)",
        reference::mm2_2,
        &[
            "--kernel", "mm2_2", "--grid", "16,2", "--block", "32,8",
            "--arg", "1.2", "--arg", "f32[262144]=rand:3", "--arg", "f32[262144]=rand:4",
            "--arg", "f32[262144]=rand:5", "--arg", "512", "--arg", "512", "--arg", "512",
        ],
    ),
    polybench_multi(
        "3mm_1",
        "3mm's E = A B, n = 512, 32 blocks (CI)",
        reference::mm3,
        &[
            "--kernel", "mm3", "--grid", "16,2", "--block", "32,8",
            "--arg", "f32[262144]=rand:1", "--arg", "f32[262144]=rand:2",
            "--arg", "f32[262144]=0", "--arg", "512", "--arg", "512", "--arg", "512",
        ],
    ),
    polybench_multi(
        "3mm_2",
        "3mm's F = C D, n = 512, 32 blocks (CI)",
        reference::mm3,
        &[
            "--kernel", "mm3", "--grid", "16,2", "--block", "32,8",
            "--arg", "f32[262144]=rand:3", "--arg", "f32[262144]=rand:4",
            "--arg", "f32[262144]=0", "--arg", "512", "--arg", "512", "--arg", "512",
        ],
    ),
    polybench_multi(
        "3mm_3",
        "3mm's G = E F, n = 512, 32 blocks (CI)",
        reference::mm3,
        &[
            "--kernel", "mm3", "--grid", "16,2", "--block", "32,8",
            "--arg", "f32[262144]=rand:5", "--arg", "f32[262144]=rand:6",
            "--arg", "f32[262144]=0", "--arg", "512", "--arg", "512", "--arg", "512",
        ],
    ),
    polybench_multi(
        "conv3d",
        "3dconv: one plane's launch of a 256 x 256 x 256 stencil, 11 points on 3 planes (CI)",
        reference::conv3d,
        &[
            "--kernel", "conv3d", "--grid", "8,32", "--block", "32,8",
            "--arg", "f32[196608]=rand:1", "--arg", "f32[196608]=0",
            "--arg", "3", "--arg", "256", "--arg", "256", "--arg", "1",
        ],
    ),
    polybench_multi(
        "fdtd_1",
        "fdtd-2d's ey update from hz, 256 x 256, time step 0 (CI)",
        reference::fdtd_1,
        &[
            "--kernel", "fdtd_1", "--grid", "8,32", "--block", "32,8",
            "--arg", "f32[500]=rand:1", "--arg", "f32[65792]=rand:2",
            "--arg", "f32[65792]=rand:3", "--arg", "f32[65536]=rand:4",
            "--arg", "256", "--arg", "256", "--arg", "0",
        ],
    ),
    polybench_multi(
        "fdtd_2",
        "fdtd-2d's ex update from hz, 256 x 256 (CI)",
        reference::fdtd_2,
        &[
            "--kernel", "fdtd_2", "--grid", "8,32", "--block", "32,8",
            "--arg", "f32[65792]=rand:2", "--arg", "f32[65792]=rand:3",
            "--arg", "f32[65536]=rand:4", "--arg", "256", "--arg", "256",
        ],
    ),
    polybench_multi(
        "fdtd_3",
        "fdtd-2d's hz update from ex and ey, 256 x 256 (CI)",
        reference::fdtd_3,
        &[
            "--kernel", "fdtd_3", "--grid", "8,32", "--block", "32,8",
            "--arg", "f32[65792]=rand:2", "--arg", "f32[65792]=rand:3",
            "--arg", "f32[65536]=rand:4", "--arg", "256", "--arg", "256",
        ],
    ),
    polybench_ci(
        "gemm_ci",
        "gemm's port: 256 x 256, all 256 blocks of 32 x 8, a store per step (CI)",
        reference::ci_gemm,
        &[
            "--kernel", "ci_gemm", "--grid", "8,32", "--block", "32,8",
            "--arg", "1.5", "--arg", "1.2", "--arg", "f32[65536]=rand:1",
            "--arg", "f32[65536]=rand:2", "--arg", "f32[65536]=rand:3",
        ],
    ),
    polybench_ci(
        "corr_ci",
        "correlation's corr kernel: a thread per column, 32 stores 1 KB apart per step (CI)",
        reference::ci_corr,
        &[
            "--kernel", "ci_corr", "--grid", "1", "--block", "256",
            "--arg", "f32[65536]=0", "--arg", "f32[65536]=rand:1", "--arg", "32",
        ],
    ),
    polybench_ci(
        "covar_ci",
        "covariance's covar kernel: as corr_ci, j2 from j1 on (CI)",
        reference::ci_covar,
        &[
            "--kernel", "ci_covar", "--grid", "1", "--block", "256",
            "--arg", "f32[65536]=0", "--arg", "f32[65536]=rand:1", "--arg", "32",
        ],
    ),
    polybench_ci(
        "mean_ci",
        "correlation's and covariance's column means: coalesced walk, a store per step (CI)",
        reference::ci_mean,
        &[
            "--kernel", "ci_mean", "--grid", "1", "--block", "256",
            "--arg", "f32[256]=0", "--arg", "f32[65536]=rand:1", "--arg", "256",
        ],
    ),
    polybench_ci(
        "conv2d_ci",
        "2dconv's port: 3 x 3 stencil, 256 x 256, 32 x 8 blocks (CI)",
        reference::ci_conv2d,
        &[
            "--kernel", "ci_conv2d", "--grid", "8,32", "--block", "32,8",
            "--arg", "f32[65536]=rand:1", "--arg", "f32[65536]=0",
        ],
    ),
    rodinia_checked(PATHFINDER, reference::pathfinder),
    rodinia_checked(BenchCase {
        name: "pathfinder_u",
        about: "PF/U (ours): pathfinder's pyramid with its shared rows in global memory",
        ptx: UNSHARED_PTX,
        flags: &[
            "--kernel", "pathfinder_u", "--grid", "6", "--block", "256",
            "--arg", "20", "--arg", "s32[25920]=rand:4:0:9", "--arg", "s32[1296]=rand:5:0:9",
            "--arg", "s32[1296]=0", "--arg", "1296", "--arg", "21", "--arg", "0", "--arg", "20",
            "--arg", "s32[1536]=0", "--arg", "s32[1536]=0",
        ],
    }, reference::pathfinder),
    rodinia_checked(BenchCase {
        name: "backprop",
        about: "Rodinia backprop bpnn_layerforward_CUDA, 65,536 input nodes",
        ptx: include_str!("../../../tests/data/ptx-corpus/dice_rodinia_backprop.ptx"),
        flags: &[
            "--kernel", "_Z22bpnn_layerforward_CUDAPfS_S_S_ii",
            "--grid", "1,4096", "--block", "16,16",
            "--arg", "f32[65537]=rand:1", "--arg", "f32[17]=0",
            "--arg", "f32[1114129]=rand:2", "--arg", "f32[65536]=0",
            "--arg", "65536", "--arg", "16",
        ],
    }, reference::layerforward),
    rodinia_checked(BenchCase {
        name: "backprop_u",
        about: "BP/U (ours): layerforward with its shared node and weight tiles in global memory",
        ptx: UNSHARED_PTX,
        flags: &[
            "--kernel", "backprop_u", "--grid", "1,4096", "--block", "16,16",
            "--arg", "f32[65537]=rand:1", "--arg", "f32[17]=0",
            "--arg", "f32[1114129]=rand:2", "--arg", "f32[65536]=0",
            "--arg", "65536", "--arg", "16",
            "--arg", "f32[65536]=0", "--arg", "f32[1048576]=0",
        ],
    }, reference::layerforward),
    rodinia_checked(BenchCase {
        name: "hotspot",
        about: "Rodinia hotspot calculate_temp, 512 x 512, one 2-step pyramid",
        ptx: include_str!("../../../tests/data/ptx-corpus/dice_rodinia_hotspot.ptx"),
        flags: &[
            "--grid", "43,43", "--block", "16,16",
            "--arg", "2", "--arg", "f32[262144]=rand:1:0:0.001",
            "--arg", "f32[262144]=rand:2:323:333", "--arg", "f32[262144]=0",
            "--arg", "512", "--arg", "512", "--arg", "2", "--arg", "2",
            "--arg", "4.2724609375e-7", "--arg", "10", "--arg", "10",
            "--arg", "5120", "--arg", "1.4583333e-7", "--arg", "0.001",
        ],
    }, reference::hotspot),
    rodinia_checked(BenchCase {
        name: "hotspot_u",
        about: "HS/U (ours): hotspot's pyramid with its shared tiles in global memory, 512 x 512",
        ptx: UNSHARED_PTX,
        flags: &[
            "--kernel", "hotspot_u", "--grid", "43,43", "--block", "16,16",
            "--arg", "2", "--arg", "f32[262144]=rand:1:0:0.001",
            "--arg", "f32[262144]=rand:2:323:333", "--arg", "f32[262144]=0",
            "--arg", "512", "--arg", "512", "--arg", "2", "--arg", "2",
            "--arg", "4.2724609375e-7", "--arg", "10", "--arg", "10",
            "--arg", "5120", "--arg", "1.4583333e-7",
            "--arg", "f32[473344]=0", "--arg", "f32[473344]=0", "--arg", "f32[473344]=0",
        ],
    }, reference::hotspot),
    rodinia_checked(BenchCase {
        name: "srad_1",
        about: "Rodinia srad v2 srad_cuda_1 (16 x 16 shared tiles), a 1024 x 64 band",
        ptx: SRAD_PTX,
        flags: &[
            "--kernel", "_Z11srad_cuda_1PfS_S_S_S_S_iif", "--grid", "64,4", "--block", "16,16",
            "--arg", "f32[65536]=0", "--arg", "f32[65536]=0", "--arg", "f32[65536]=0",
            "--arg", "f32[65536]=0", "--arg", "f32[65536]=rand:1:1:2.7",
            "--arg", "f32[65536]=0", "--arg", "1024", "--arg", "64", "--arg", "0.082",
        ],
    }, reference::srad_1),
    rodinia_checked(BenchCase {
        name: "srad_2",
        about: "Rodinia srad v2 srad_cuda_2 (16 x 16 shared tiles), a 1024 x 64 band",
        ptx: SRAD_PTX,
        flags: &[
            "--kernel", "_Z11srad_cuda_2PfS_S_S_S_S_iiff", "--grid", "64,4", "--block", "16,16",
            "--arg", "f32[65536]=rand:2:-1:1", "--arg", "f32[65536]=rand:3:-1:1",
            "--arg", "f32[65536]=rand:4:-1:1", "--arg", "f32[65536]=rand:5:-1:1",
            "--arg", "f32[65536]=rand:1:1:2.7", "--arg", "f32[65536]=rand:6",
            "--arg", "1024", "--arg", "64", "--arg", "0.5", "--arg", "0.082",
        ],
    }, reference::srad_2),
    rodinia_checked(BenchCase {
        name: "srad_u_1",
        about: "SRAD/U's first kernel (ours): srad_cuda_1 reading global memory, no shared tiles",
        ptx: UNSHARED_PTX,
        flags: &[
            "--kernel", "srad_u_1", "--grid", "64,4", "--block", "16,16",
            "--arg", "f32[65536]=0", "--arg", "f32[65536]=0", "--arg", "f32[65536]=0",
            "--arg", "f32[65536]=0", "--arg", "f32[65536]=rand:1:1:2.7",
            "--arg", "f32[65536]=0", "--arg", "1024", "--arg", "64", "--arg", "0.082",
        ],
    }, reference::srad_1),
    rodinia_checked(BenchCase {
        name: "srad_u_2",
        about: "SRAD/U's second kernel (ours): srad_cuda_2 reading global memory",
        ptx: UNSHARED_PTX,
        flags: &[
            "--kernel", "srad_u_2", "--grid", "64,4", "--block", "16,16",
            "--arg", "f32[65536]=rand:2:-1:1", "--arg", "f32[65536]=rand:3:-1:1",
            "--arg", "f32[65536]=rand:4:-1:1", "--arg", "f32[65536]=rand:5:-1:1",
            "--arg", "f32[65536]=rand:1:1:2.7", "--arg", "f32[65536]=rand:6",
            "--arg", "1024", "--arg", "64", "--arg", "0.5",
        ],
    }, reference::srad_2),
    rodinia::NW_1,
    rodinia::NW_2,
    rodinia::NW_U_1,
    rodinia::NW_U_2,
    rodinia::LUD_1,
    rodinia::LUD_2,
    rodinia::LUD_3,
    rodinia::LUD_U_1,
    rodinia::LUD_U_2,
    rodinia::LUD_U_3,
];

/// The cases named `names` (all when empty), in [`CASES`] order; an error names a bad one.
pub fn select(names: &[String]) -> Result<Vec<Case>, String> {
    if let Some(bad) = names.iter().find(|n| !CASES.iter().any(|c| c.name() == *n)) {
        let known: Vec<&str> = CASES.iter().map(Case::name).collect();
        return Err(format!(
            "--case {bad}: no such case (one of: {})",
            known.join(", ")
        ));
    }
    Ok(CASES
        .iter()
        .filter(|c| names.is_empty() || names.iter().any(|n| n == c.name()))
        .copied()
        .collect())
}
