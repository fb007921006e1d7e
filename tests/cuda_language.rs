//! Issue 29: language features of warpstep's CUDA compiler checked by running compiled
//! kernels: `warpSize` from the machine, locals in `.local` memory, `struct` values, 64-bit
//! shuffles and the `double` math functions.

mod common;

use common::run_ok;
use warpstep::cuda::compile;

fn tokens(flags: &str) -> Vec<&str> {
    flags.split_whitespace().collect()
}

#[test]
fn warp_size_follows_the_machine() {
    let src = "extern \"C\" __global__ void k(int *out) {
  int i = threadIdx.x;
  out[i] = warpSize * 100 + i % warpSize + (i / warpSize) * 10;
}
";
    let c = compile(src, "ws.cu").expect("compiles");
    assert!(c.ptx.contains(", WARP_SZ;"), "{}", c.ptx);
    // The book's warp of 4 on the teaching preset, the preset's own 8, and fermi's 32.
    let mut book = common::BOOK_WARP4.to_vec();
    book.extend(tokens("--block 8 --arg s32[8]=0"));
    let four = run_ok(src, &book);
    assert_eq!(
        common::i32s(&four, 0),
        vec![400, 401, 402, 403, 410, 411, 412, 413]
    );
    let teaching = run_ok(src, &tokens("--config teaching --block 10 --arg s32[10]=0"));
    assert_eq!(
        common::i32s(&teaching, 0),
        vec![800, 801, 802, 803, 804, 805, 806, 807, 810, 811]
    );
    let fermi = run_ok(src, &tokens("--config fermi --block 40 --arg s32[40]=0"));
    let want: Vec<i32> = (0..40).map(|i| 3200 + i % 32 + (i / 32) * 10).collect();
    assert_eq!(common::i32s(&fermi, 0), want);
}
