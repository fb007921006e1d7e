//! The CUDA line of each PTX line (issue 29, `ptx::SourceLines`) on the committed nvcc PTX:
//! every `tests/data/kernels/*.sm_52.ptx` is compiled with `-lineinfo` (build.sh), so its
//! `.loc` lines name its `.cu` file, and known instructions map to the lines that wrote them
//! (nvcc's `.loc 1 0` before an instruction it made up gives no line).
//! The book's divergence kernel points its `.loc` lines at Figure 3.2 (`book_fig3_2.cu`).

mod common;

use common::data;
use warpstep::ptx::{self, Program, SourceLines};

/// Every `.cu` in tests/data/kernels with a committed sm_52 PTX.
const KERNELS: &[&str] = &[
    "divergence",
    "elastic",
    "flags",
    "histogram",
    "nw_tiles",
    "polybench",
    "polybench_ci",
    "reduction",
    "shuffle_reduce",
    "spinlock",
    "transpose",
    "unified",
    "unified_programs",
    "vector_add",
    "vote",
];

fn load(path: &str) -> (Program, SourceLines) {
    let program = ptx::load(&data(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lines = SourceLines::of(&program);
    (program, lines)
}

/// The CUDA lines of kernel `kernel`'s instructions whose text starts with `op`, in order.
fn cuda_lines_of(program: &Program, lines: &SourceLines, kernel: &str, op: &str) -> Vec<u32> {
    let f = program.kernel(kernel).expect("kernel");
    f.instrs
        .iter()
        .filter(|i| {
            program
                .source_line(i.line)
                .is_some_and(|t| t.trim().starts_with(op))
        })
        .map(|i| lines.source_line(i.line))
        .collect()
}

#[test]
fn every_kernel_names_its_own_cu_file_and_lines_within_it() {
    for name in KERNELS {
        let (program, lines) = load(&format!("kernels/{name}.sm_52.ptx"));
        let cu = format!("{name}.cu");
        assert_eq!(lines.file_name.as_deref(), Some(cu.as_str()), "{name}");
        let cu_lines = data(&format!("kernels/{cu}")).lines().count() as u32;
        let (mut mapped, mut all) = (0, 0);
        for f in &program.functions {
            for i in &f.instrs {
                let l = lines.source_line(i.line);
                assert!(
                    l <= cu_lines,
                    "{name}: PTX line {} ({}) -> CUDA line {l} of {cu_lines}",
                    i.line,
                    program.source_line(i.line).unwrap_or("")
                );
                all += 1;
                mapped += usize::from(l > 0);
            }
        }
        // nvcc writes `.loc 1 0 col` before a few instructions it made up (no line): those
        // have no CUDA line; nearly every other instruction has one.
        assert!(mapped * 100 >= all * 90, "{name}: {mapped} of {all} mapped");
    }
}

#[test]
fn transpose_maps_its_shared_accesses_and_barrier_to_their_cu_lines() {
    let (program, lines) = load("kernels/transpose.sm_52.ptx");
    // transpose.cu: line 10 writes the tile, 11 is __syncthreads(), 14 reads it by columns;
    // 21, 22 and 25 in the padded kernel.
    for (kernel, write, sync, read) in [
        ("transpose_naive", 10, 11, 14),
        ("transpose_padded", 21, 22, 25),
    ] {
        assert_eq!(
            cuda_lines_of(&program, &lines, kernel, "st.shared"),
            [write]
        );
        assert_eq!(cuda_lines_of(&program, &lines, kernel, "bar.sync"), [sync]);
        assert_eq!(cuda_lines_of(&program, &lines, kernel, "ld.shared"), [read]);
    }
    // The naive column read is PTX line 69 (the lesson and docs/why.md cite it).
    assert_eq!(lines.source_line(69), 14);
    assert!(program.source_line(69).unwrap().contains("ld.shared.f32"));
}

#[test]
fn atomics_inlined_from_the_header_are_placed_at_their_call() {
    // nvcc places atomicAdd's body on device_atomic_functions.hpp with `inlined_at` the call.
    let (program, lines) = load("kernels/histogram.sm_52.ptx");
    let k = "histogram64";
    assert_eq!(cuda_lines_of(&program, &lines, k, "atom.shared"), [10]);
    assert_eq!(cuda_lines_of(&program, &lines, k, "atom.global"), [12]);
    let (program, lines) = load("kernels/spinlock.sm_52.ptx");
    // spinlock.cu line 7: while (atomicCAS(lock, 0, 1) != 0); line 12: atomicExch(lock, 0).
    assert_eq!(
        cuda_lines_of(&program, &lines, "spinlock", "atom.global.cas"),
        [7]
    );
    assert_eq!(
        cuda_lines_of(&program, &lines, "spinlock", "atom.global.exch"),
        [12]
    );
}

#[test]
fn the_book_kernel_names_figure_3_2_lines() {
    let (program, lines) = load("book_fig3_2.ptx");
    assert_eq!(lines.file_name.as_deref(), Some("book_fig3_2.cu"));
    let f = program.kernel("book_fig3_2").unwrap();
    let branches: Vec<u32> = f
        .instrs
        .iter()
        .filter(|i| i.is_branch())
        .map(|i| lines.source_line(i.line))
        .collect();
    // @%p1 bra F: the if on line 6; @%p2 bra D: the if on line 8; bra E: `} else {` on 10;
    // E's bra G: `} else {` on 13; @%p3 bra A: the while on 17 (Figure 3.2's numbering).
    assert_eq!(branches, [6, 8, 10, 13, 17]);
    let listing = data("book_fig3_2.cu");
    let fig: Vec<&str> = listing.lines().collect();
    assert!(fig[5].contains("if( t3 != t4 )") && fig[7].contains("if( t5 != t4 )"));
    assert!(fig[13].contains("z += 3") && fig[16].contains("while( i < N )"));
}
