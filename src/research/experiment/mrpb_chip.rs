//! The MRPB experiment's cases on the paper's machine (MRPB §4, Table 1: a Tesla C2050 of 14
//! SMs sharing six L2 slices and DRAM channels): each case's launch as the paper ran it on the
//! whole chip, where [`CASES`](super::mrpb_cases::CASES) holds one SM's share of it.
//!
//! The sizes are Table 2's (PolyBench defaults scaled by its SF column) and Table 3's (Rodinia
//! defaults):
//! - atax, bicg and mvt: n = 2,048 (4,096 × 1/2), so 8 blocks of 256 threads: 8 of the 14 SMs
//!   run one block each, as §2.4 says these programs do; gesummv: n = 1,024 (4,096 × 1/4),
//!   4 blocks.
//! - syrk (n = 256), syr2k (n = 128) and gemm (n = 256): the whole grid of 32 × 8 blocks.
//! - 2mm and 3mm (n = 512): the whole grid, 1,024 blocks a launch.
//! - SRAD: the whole 1,024 × 1,024 image (4,096 blocks of 16 × 16) where one SM ran a band.
//! - pathfinder and PF/U: one launch of the paper's 100,000 columns (a 20-row pyramid, 463
//!   blocks).
//!
//! Every other case already is its program's whole launch (conv2d, 3dconv's plane, fdtd's
//! steps, the CI ports, backprop's 65,536 nodes, hotspot's 512 × 512, NW's longest
//! anti-diagonals of 2,048 × 2,048 and LUD's step of 512 × 512 and their /U versions) and
//! runs unchanged, its blocks spread over the 14 SMs.

use super::Case;

/// The SMs of the paper's Tesla C2050 (MRPB Table 1).
pub const PAPER_SMS: u32 = 14;

/// `case` as the paper's machine runs it: its whole launch where [`CASES`] holds one SM's
/// share, else the case itself.
///
/// [`CASES`]: super::mrpb_cases::CASES
pub fn on_chip(case: Case) -> Case {
    let mut chip = case;
    if let Some((_, flags)) = CHIP_LAUNCHES.iter().find(|(n, _)| *n == case.name()) {
        chip.launch.flags = flags;
    }
    chip
}

/// A row walk or column walk of ours at n = 2,048 (MRPB Table 2), 8 blocks.
macro_rules! walk_2048 {
    ($kernel:literal, $a:literal, $b:literal) => {
        &[
            "--kernel",
            $kernel,
            "--grid",
            "8",
            "--block",
            "256",
            "--arg",
            "f32[4194304]=rand:1",
            "--arg",
            $a,
            "--arg",
            $b,
            "--arg",
            "2048",
        ]
    };
}

/// The launches that differ on the chip, by case name.
#[rustfmt::skip]
const CHIP_LAUNCHES: &[(&str, &[&str])] = &[
    ("atax_1", walk_2048!("atax_1", "f32[2048]=rand:2", "f32[2048]=0")),
    ("atax_2", walk_2048!("atax_2", "f32[2048]=0", "f32[2048]=rand:3")),
    ("bicg_1", walk_2048!("bicg_1", "f32[2048]=rand:2", "f32[2048]=0")),
    ("bicg_2", walk_2048!("bicg_2", "f32[2048]=rand:3", "f32[2048]=0")),
    ("mvt_1", walk_2048!("mvt_1", "f32[2048]=0", "f32[2048]=rand:2")),
    ("mvt_2", walk_2048!("mvt_2", "f32[2048]=0", "f32[2048]=rand:3")),
    ("gesummv", &[
        "--kernel", "gesummv", "--grid", "4", "--block", "256",
        "--arg", "f32[1048576]=rand:1", "--arg", "f32[1048576]=rand:2",
        "--arg", "f32[1024]=rand:3", "--arg", "f32[1024]=0",
        "--arg", "f32[1024]=0", "--arg", "1.5", "--arg", "1.2", "--arg", "1024",
    ]),
    ("syrk", &[
        "--kernel", "syrk", "--grid", "8,32", "--block", "32,8",
        "--arg", "1.5", "--arg", "1.2", "--arg", "f32[65536]=rand:1",
        "--arg", "f32[65536]=rand:2", "--arg", "256", "--arg", "256",
    ]),
    ("syr2k", &[
        "--kernel", "syr2k", "--grid", "4,16", "--block", "32,8",
        "--arg", "1.5", "--arg", "1.2", "--arg", "f32[16384]=rand:1",
        "--arg", "f32[16384]=rand:2", "--arg", "f32[16384]=rand:3",
        "--arg", "128", "--arg", "128",
    ]),
    ("gemm", &[
        "--kernel", "gemm", "--grid", "8,32", "--block", "32,8",
        "--arg", "1.5", "--arg", "1.2", "--arg", "f32[65536]=rand:1",
        "--arg", "f32[65536]=rand:2", "--arg", "f32[65536]=rand:3",
        "--arg", "256", "--arg", "256", "--arg", "256",
    ]),
    ("2mm_1", &[
        "--kernel", "mm2_1", "--grid", "16,64", "--block", "32,8",
        "--arg", "1.5", "--arg", "f32[262144]=rand:1", "--arg", "f32[262144]=rand:2",
        "--arg", "f32[262144]=0", "--arg", "512", "--arg", "512", "--arg", "512",
    ]),
    ("2mm_2", &[
        "--kernel", "mm2_2", "--grid", "16,64", "--block", "32,8",
        "--arg", "1.2", "--arg", "f32[262144]=rand:3", "--arg", "f32[262144]=rand:4",
        "--arg", "f32[262144]=rand:5", "--arg", "512", "--arg", "512", "--arg", "512",
    ]),
    ("3mm_1", &[
        "--kernel", "mm3", "--grid", "16,64", "--block", "32,8",
        "--arg", "f32[262144]=rand:1", "--arg", "f32[262144]=rand:2",
        "--arg", "f32[262144]=0", "--arg", "512", "--arg", "512", "--arg", "512",
    ]),
    ("3mm_2", &[
        "--kernel", "mm3", "--grid", "16,64", "--block", "32,8",
        "--arg", "f32[262144]=rand:3", "--arg", "f32[262144]=rand:4",
        "--arg", "f32[262144]=0", "--arg", "512", "--arg", "512", "--arg", "512",
    ]),
    ("3mm_3", &[
        "--kernel", "mm3", "--grid", "16,64", "--block", "32,8",
        "--arg", "f32[262144]=rand:5", "--arg", "f32[262144]=rand:6",
        "--arg", "f32[262144]=0", "--arg", "512", "--arg", "512", "--arg", "512",
    ]),
    ("pathfinder", &[
        "--grid", "463", "--block", "256",
        "--arg", "20", "--arg", "s32[2000000]=rand:4:0:9", "--arg", "s32[100000]=rand:5:0:9",
        "--arg", "s32[100000]=0", "--arg", "100000", "--arg", "21", "--arg", "0", "--arg", "20",
    ]),
    ("pathfinder_u", &[
        "--kernel", "pathfinder_u", "--grid", "463", "--block", "256",
        "--arg", "20", "--arg", "s32[2000000]=rand:4:0:9", "--arg", "s32[100000]=rand:5:0:9",
        "--arg", "s32[100000]=0", "--arg", "100000", "--arg", "21", "--arg", "0", "--arg", "20",
        "--arg", "s32[118528]=0", "--arg", "s32[118528]=0",
    ]),
    ("srad_1", &[
        "--kernel", "_Z11srad_cuda_1PfS_S_S_S_S_iif", "--grid", "64,64", "--block", "16,16",
        "--arg", "f32[1048576]=0", "--arg", "f32[1048576]=0", "--arg", "f32[1048576]=0",
        "--arg", "f32[1048576]=0", "--arg", "f32[1048576]=rand:1:1:2.7",
        "--arg", "f32[1048576]=0", "--arg", "1024", "--arg", "1024", "--arg", "0.082",
    ]),
    ("srad_2", &[
        "--kernel", "_Z11srad_cuda_2PfS_S_S_S_S_iiff", "--grid", "64,64", "--block", "16,16",
        "--arg", "f32[1048576]=rand:2:-1:1", "--arg", "f32[1048576]=rand:3:-1:1",
        "--arg", "f32[1048576]=rand:4:-1:1", "--arg", "f32[1048576]=rand:5:-1:1",
        "--arg", "f32[1048576]=rand:1:1:2.7", "--arg", "f32[1048576]=rand:6",
        "--arg", "1024", "--arg", "1024", "--arg", "0.5", "--arg", "0.082",
    ]),
    ("srad_u_1", &[
        "--kernel", "srad_u_1", "--grid", "64,64", "--block", "16,16",
        "--arg", "f32[1048576]=0", "--arg", "f32[1048576]=0", "--arg", "f32[1048576]=0",
        "--arg", "f32[1048576]=0", "--arg", "f32[1048576]=rand:1:1:2.7",
        "--arg", "f32[1048576]=0", "--arg", "1024", "--arg", "1024", "--arg", "0.082",
    ]),
    ("srad_u_2", &[
        "--kernel", "srad_u_2", "--grid", "64,64", "--block", "16,16",
        "--arg", "f32[1048576]=rand:2:-1:1", "--arg", "f32[1048576]=rand:3:-1:1",
        "--arg", "f32[1048576]=rand:4:-1:1", "--arg", "f32[1048576]=rand:5:-1:1",
        "--arg", "f32[1048576]=rand:1:1:2.7", "--arg", "f32[1048576]=rand:6",
        "--arg", "1024", "--arg", "1024", "--arg", "0.5",
    ]),
];
