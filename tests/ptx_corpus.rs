//! Every file of the PTX conformance corpus (tests/data/ptx-corpus, copied from
//! ../shared/ptx-corpus with each file's `.src.txt` notice) parses and lowers, with the
//! expected kernels, instruction and branch counts, CFG and reconvergence points.
//!
//! Instruction and branch counts were checked against an independent count of `;`-terminated
//! statements and `bra` opcodes per function body, and agree with the `opcodes` lines of the
//! `.src.txt` files. Reconvergence points marked "by hand" were read off the listings.

use std::path::{Path, PathBuf};

use warpstep::ptx::{self, Function, Pc, Program, Reconvergence};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ptx-corpus")
}

fn load(name: &str) -> Program {
    let path = corpus_dir().join(name);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    ptx::load(&src).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// (function, is_entry, instructions, branches).
type Counts = (&'static str, bool, usize, usize);

/// Expected functions of each corpus file.
const EXPECTED: &[(&str, &[Counts])] = &[
    (
        "dice_block_sum.ptx",
        &[("_Z16block_sum_kernelPKiPii", true, 44, 6)],
    ),
    (
        "dice_copy2d_smem.ptx",
        &[("_Z18copy2d_smem_kernelPKiPiii", true, 39, 2)],
    ),
    (
        "dice_rodinia_backprop.ptx",
        &[
            ("_Z22bpnn_layerforward_CUDAPfS_S_S_ii", true, 106, 6),
            ("_Z24bpnn_adjust_weights_cudaPfiS_iS_S_", true, 80, 1),
        ],
    ),
    (
        "dice_rodinia_bfs.ptx",
        &[
            ("_Z6KernelP4NodePiPbS2_S2_S1_i", true, 59, 5),
            ("_Z7Kernel2PbS_S_S_i", true, 29, 2),
        ],
    ),
    (
        "dice_rodinia_gaussian.ptx",
        &[
            ("_Z4Fan1PfS_ii", true, 33, 1),
            ("_Z4Fan2PfS_S_iii", true, 58, 3),
        ],
    ),
    (
        "dice_rodinia_hotspot.ptx",
        &[("_Z14calculate_tempiPfS_S_iiiiffffff", true, 174, 8)],
    ),
    (
        "dice_rodinia_nn.ptx",
        &[("_Z6euclidP7latLongPfiff", true, 29, 1)],
    ),
    (
        "dice_rodinia_pathfinder.ptx",
        &[("_Z14dynproc_kerneliPiS_S_iiii", true, 103, 7)],
    ),
    (
        "ocelot_TestDivergence_nvvm41.ptx",
        &[("divergence", true, 18, 1), ("transpose", true, 57, 0)],
    ),
    (
        "ocelot_rodinia_backprop_cuda_kernel.ptx",
        &[
            ("_Z22bpnn_layerforward_CUDAPfS_S_S_ii", true, 99, 5),
            ("_Z24bpnn_adjust_weights_cudaPfiS_iS_S_ff", true, 78, 1),
        ],
    ),
    (
        "ocelot_rodinia_hotspot.ptx",
        &[("_Z14calculate_tempiPfS_S_iiiiffffff", true, 237, 19)],
    ),
    (
        "ocelot_rodinia_needle_kernel.ptx",
        &[
            ("_Z7maximumiii", false, 12, 0),
            ("_Z20needle_cuda_shared_1PiS_S_iiii", true, 268, 5),
            ("_Z20needle_cuda_shared_2PiS_S_iiii", true, 271, 5),
        ],
    ),
    (
        "ocelot_rodinia_srad_kernel.ptx",
        &[
            ("_Z11srad_cuda_1PfS_S_S_S_S_iif", true, 313, 28),
            ("_Z11srad_cuda_2PfS_S_S_S_S_iiff", true, 149, 10),
        ],
    ),
];

#[test]
fn corpus_is_complete_and_every_file_has_its_notice() {
    let mut ptx_files: Vec<String> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ptx"))
        .collect();
    ptx_files.sort();
    let expected: Vec<&str> = EXPECTED.iter().map(|(f, _)| *f).collect();
    assert_eq!(ptx_files, expected);
    for f in &ptx_files {
        let notice = corpus_dir().join(f.replace(".ptx", ".src.txt"));
        assert!(notice.exists(), "{f} has no .src.txt notice");
    }
}

#[test]
fn every_corpus_file_loads_with_expected_functions_and_counts() {
    for (file, funcs) in EXPECTED {
        let p = load(file);
        let got: Vec<(&str, bool, usize, usize)> = p
            .functions
            .iter()
            .filter(|f| f.defined)
            .map(|f| {
                (
                    f.name.as_str(),
                    f.is_entry(),
                    f.instrs.len(),
                    f.branch_count(),
                )
            })
            .collect();
        let want: Vec<(&str, bool, usize, usize)> = funcs.to_vec();
        assert_eq!(got, want, "{file}");
        for f in &p.functions {
            check_analysis(file, f);
        }
    }
}

/// Structural properties every function's analysis must have.
fn check_analysis(file: &str, f: &Function) {
    let cfg = &f.cfg;
    assert_eq!(f.texts.len(), f.instrs.len());
    assert_eq!(f.reconvergence.len(), f.instrs.len());
    let mut covered = 0;
    for (b, block) in cfg.blocks.iter().enumerate() {
        assert!(block.start < block.end, "{file} {}: empty block", f.name);
        covered += (block.end - block.start) as usize;
        for &s in &block.succs {
            assert!(s <= cfg.exit());
            if s < cfg.exit() {
                assert!(cfg.blocks[s as usize].preds.contains(&(b as u32)));
            }
        }
    }
    assert_eq!(covered, f.instrs.len());
    for (pc, ins) in f.instrs.iter().enumerate() {
        let rpc = f.reconvergence_of(pc as Pc);
        assert_eq!(rpc.is_some(), ins.is_branch(), "{file} {} pc {pc}", f.name);
        if let Some(Reconvergence::At(r)) = rpc {
            let b = cfg.block_of(pc as Pc).unwrap();
            let rb = cfg.block_of(r).unwrap();
            assert_eq!(cfg.blocks[rb as usize].start, r, "rpc is a block start");
            assert_ne!(rb, b);
            assert!(f.postdom.post_dominates(rb, b), "{file} {} pc {pc}", f.name);
        }
        if let Some(t) = ins.branch_target() {
            assert!((t as usize) < f.instrs.len());
        }
    }
    if f.defined {
        let last = f.instrs.last().unwrap();
        assert!(last.guard.is_none() && (last.is_exit() || last.is_branch()));
    }
}

/// Reconvergence of the branches of `f`, in Pc order, as label names ("EXIT" for the end
/// of the kernel).
fn branch_rpcs(f: &Function) -> Vec<(Pc, String)> {
    let label_at = |pc: Pc| -> String {
        f.labels
            .iter()
            .filter(|(_, &p)| p == pc)
            .map(|(n, _)| n.clone())
            .min()
            .unwrap_or_else(|| format!("pc{pc}"))
    };
    f.instrs
        .iter()
        .enumerate()
        .filter(|(_, i)| i.is_branch())
        .map(|(pc, _)| {
            let r = match f.reconvergence_of(pc as Pc).unwrap() {
                Reconvergence::At(r) => label_at(r),
                Reconvergence::Exit => "EXIT".to_string(),
            };
            (pc as Pc, r)
        })
        .collect()
}

#[test]
fn block_sum_reconvergence_by_hand() {
    let p = load("dice_block_sum.ptx");
    let f = p.kernel("_Z16block_sum_kernelPKiPii").unwrap();
    // pc 7: @%p1 bra $L__BB0_3 (skip the strided loop); pc 16: loop back-edge;
    // pc 24: @%p3 bra $L__BB0_8 (skip the tree); pc 26: @%p4 bra $L__BB0_7 (inactive half);
    // pc 37: tree back-edge; pc 39: @%p6 bra $L__BB0_10 (only thread 0 adds).
    let want = [
        (7, "$L__BB0_3"),
        (16, "$L__BB0_3"),
        (24, "$L__BB0_8"),
        (26, "$L__BB0_7"),
        (37, "$L__BB0_8"),
        (39, "$L__BB0_10"),
    ];
    let got = branch_rpcs(f);
    let want: Vec<(Pc, String)> = want.iter().map(|(p, l)| (*p, l.to_string())).collect();
    assert_eq!(got, want);
    assert_eq!(f.labels["$L__BB0_3"], 17);
    assert_eq!(f.cfg.blocks.len(), 10);
}

#[test]
fn divergence_kernel_reconverges_only_at_exit() {
    // Both sides of `@%p1 bra BB0_2` end in `ret`: the immediate post-dominator is the
    // virtual exit.
    let p = load("ocelot_TestDivergence_nvvm41.ptx");
    let f = p.kernel("divergence").unwrap();
    assert_eq!(branch_rpcs(f), vec![(7, "EXIT".to_string())]);
    let t = p.kernel("transpose").unwrap();
    assert_eq!(t.cfg.blocks.len(), 1);
    assert_eq!(t.shared.static_bytes, 80);
}

#[test]
fn old_nvcc_backprop_reconvergence_by_hand() {
    let p = load("ocelot_rodinia_backprop_cuda_kernel.ptx");
    let f = p.kernel("_Z22bpnn_layerforward_CUDAPfS_S_S_ii").unwrap();
    let got: Vec<String> = branch_rpcs(f).into_iter().map(|(_, l)| l).collect();
    // @!%p1 bra $Lt_0_3586; @!%p2 bra $Lt_0_4098 (skip loop); @%p3 bra $Lt_0_4866 (in loop);
    // @%p4 bra $Lt_0_4610 (back-edge, leaves to $Lt_0_4098); @!%p1 bra $Lt_0_5634.
    assert_eq!(
        got,
        [
            "$Lt_0_3586",
            "$Lt_0_4098",
            "$Lt_0_4866",
            "$Lt_0_4098",
            "$Lt_0_5634"
        ]
    );
    // The loop header $Lt_0_4610 is a block; its back-edge comes from the block ending at
    // the `@%p4 bra`.
    let header = f.cfg.block_of(f.labels["$Lt_0_4610"]).unwrap();
    assert!(f.cfg.blocks[header as usize].preds.len() == 2);
}

#[test]
fn old_nvcc_hotspot_bounds_checks_reconverge_together() {
    let p = load("ocelot_rodinia_hotspot.ptx");
    let f = p.kernel("_Z14calculate_tempiPfS_S_iiiiffffff").unwrap();
    let rpcs = branch_rpcs(f);
    // The first four branches are the `@%pN bra $Lt_0_15106` bounds checks; all skip to the
    // same label (which shares its Pc with `$L_0_10498`).
    assert_eq!(f.labels["$Lt_0_15106"], f.labels["$L_0_10498"]);
    for (_, l) in &rpcs[..4] {
        assert_eq!(l, "$L_0_10498");
    }
    // bra.uni is a branch like any other.
    let uni = f
        .instrs
        .iter()
        .filter(|i| matches!(i.op, ptx::Op::Bra { uni: true }))
        .count();
    assert_eq!(uni, 2);
}

#[test]
fn shared_layouts_and_params() {
    let p = load("dice_rodinia_hotspot.ptx");
    let f = p.kernel("_Z14calculate_tempiPfS_S_iiiiffffff").unwrap();
    let slots: Vec<(u32, u32)> = f.shared.slots.iter().map(|s| (s.offset, s.size)).collect();
    assert_eq!(slots, vec![(0, 1024), (1024, 1024), (2048, 1024)]);
    assert_eq!(f.params.len(), 14);
    let offsets: Vec<u32> = f.params.iter().map(|p| p.offset).collect();
    assert_eq!(
        offsets,
        vec![0, 8, 16, 24, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68]
    );
    assert_eq!(f.param_bytes, 72);
    let counts = f.reg_counts();
    assert_eq!(counts[&ptx::Type::Pred], 30);
    assert_eq!(counts[&ptx::Type::B16], 10);
    assert_eq!(counts[&ptx::Type::F64], 16);

    let needle = load("ocelot_rodinia_needle_kernel.ptx");
    let k = needle.kernel("_Z20needle_cuda_shared_1PiS_S_iiii").unwrap();
    assert_eq!(k.shared.static_bytes, 1156 + 1024);
    let max = needle
        .functions
        .iter()
        .find(|f| f.name == "_Z7maximumiii")
        .unwrap();
    assert_eq!(max.rets.len(), 1);
    assert_eq!(max.params.len(), 3);
    assert_eq!(needle.files[&1], "<command-line>");
}

#[test]
fn old_nvcc_loc_lines_are_kept() {
    let p = load("ocelot_rodinia_backprop_cuda_kernel.ptx");
    let f = p.kernel("_Z22bpnn_layerforward_CUDAPfS_S_S_ii").unwrap();
    let first = f.instrs[0];
    assert_eq!(first.loc.map(|l| (l.file, l.line)), Some((16, 18)));
    assert_eq!(p.files[&16], "backprop_cuda_kernel.cu");
    // `bar.sync 0` at PTX line 87 follows `.loc 16 35 0`.
    let pc = f.instrs.iter().position(|i| i.line == 87).unwrap();
    assert_eq!(f.instrs[pc].loc.unwrap().line, 35);
    assert_eq!(f.text(pc as Pc), "bar.sync 0;");
    assert_eq!(p.source_line(87).unwrap().trim(), "bar.sync \t0;");
}
