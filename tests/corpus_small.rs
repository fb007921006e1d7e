//! The small third-party kernels of the PTX corpus (tests/data/ptx-corpus, see each `.src.txt`
//! for origin, licence and the launch its host used) run unchanged, and every output element
//! equals a reference computed here in plain Rust (issue 3, "Done when").
//!
//! - `dice_block_sum`: strided accumulate, shared-memory tree reduction, `atom.global.add`;
//! - `dice_copy2d_smem`: a 2D copy through a 16x16 shared tile;
//! - `ocelot_TestDivergence_nvvm41`: `divergence` (if/else on tid & 1) and `transpose` (a 4x4
//!   shared tile padded to 4x5).

mod common;

use common::*;

fn corpus(name: &str) -> String {
    data(&format!("ptx-corpus/{name}.ptx"))
}

/// `TYPE[N]=list:...` holding exactly `values`.
fn buffer<T: ToString>(ty: &str, values: &[T]) -> String {
    format!("{ty}[{}]={}", values.len(), list(values))
}

/// `f32[N]=list:...` whose text reads back as exactly `values` (each printed as the f64 it
/// widens to, in shortest round-trip form, so no decimal double rounding can creep in).
fn f32_buffer(values: &[f32]) -> String {
    let items: Vec<String> = values.iter().map(|&v| format!("{:e}", v as f64)).collect();
    format!("f32[{}]=list:{}", values.len(), items.join(","))
}

#[test]
fn dice_block_sum() {
    // The host is not in the snapshot; the PTX fixes sdata[256] and a single-block loop with
    // stride ntid.x: block 256 (here also 64, with n below the block size), grid 1.
    let ptx = corpus("dice_block_sum");
    let mut rng = Rng::new(11);
    for (block, n, start) in [(256usize, 1000usize, 5i32), (64, 50, -3)] {
        let input: Vec<i32> = (0..n).map(|_| rng.below(2001) as i32 - 1000).collect();
        let p = run_ok(
            &ptx,
            &[
                "--block",
                &block.to_string(),
                "--arg",
                &buffer("s32", &input),
                "--arg",
                &format!("s32[1]={start}"),
                "--arg",
                &n.to_string(),
            ],
        );
        let sum: i32 = input.iter().sum();
        assert_eq!(i32s(&p, 1), vec![start + sum], "block {block}, n {n}");
        assert_eq!(i32s(&p, 0), input, "the input is read-only");
    }
}

#[test]
fn dice_block_sum_with_two_blocks_adds_twice() {
    // The kernel ignores %ctaid: every block sums the whole input and adds it atomically.
    let input: Vec<i32> = (1..=300).collect();
    let p = run_ok(
        &corpus("dice_block_sum"),
        &[
            "--grid",
            "2",
            "--block",
            "128",
            "--arg",
            &buffer("s32", &input),
            "--arg",
            "s32[1]=0",
            "--arg",
            "300",
        ],
    );
    assert_eq!(i32s(&p, 1), vec![2 * 300 * 301 / 2]);
}

#[test]
fn dice_copy2d_smem() {
    // Launch from the PTX: block (16,16), grid (ceil(W/16), ceil(H/16)); here W=40, H=24, so
    // the edge tiles are partial and their out-of-range threads must neither load nor store.
    let (w, h) = (40usize, 24usize);
    let mut rng = Rng::new(12);
    let input: Vec<i32> = (0..w * h).map(|_| rng.next() as i32).collect();
    let p = run_ok(
        &corpus("dice_copy2d_smem"),
        &[
            "--grid",
            "3,2",
            "--block",
            "16,16",
            "--arg",
            &buffer("s32", &input),
            "--arg",
            &format!("s32[{}]=0", w * h),
            "--arg",
            &w.to_string(),
            "--arg",
            &h.to_string(),
        ],
    );
    let expected: Vec<i32> = input.iter().map(|v| v.wrapping_add(1)).collect();
    assert_eq!(i32s(&p, 1), expected);
}

#[test]
fn ocelot_test_divergence() {
    // Host: divergence<<<1, 4>>>(A) with N=4; also 70 threads (three warps, the last
    // partial). Odd threads store 2*tid+1, even threads scale their element by 1.25.
    for n in [4usize, 70] {
        check_divergence(n);
    }
}

fn check_divergence(n: usize) {
    let mut rng = Rng::new(13);
    let input: Vec<f32> = (0..n).map(|_| rng.small_float()).collect();
    let p = run_ok(
        &corpus("ocelot_TestDivergence_nvvm41"),
        &[
            "--kernel",
            "divergence",
            "--block",
            &n.to_string(),
            "--arg",
            &f32_buffer(&input),
        ],
    );
    let expected: Vec<u32> = (0..n)
        .map(|t| {
            if t % 2 == 1 {
                (2.0 * t as f32 + 1.0).to_bits()
            } else {
                (input[t] * 1.25).to_bits()
            }
        })
        .collect();
    let got: Vec<u32> = f32s(&p, 0).iter().map(|v| v.to_bits()).collect();
    assert_eq!(got, expected, "{n} threads");
}

#[test]
fn ocelot_test_transpose() {
    // Host: transpose<<<(M/4, N/4), 4>>>(A, B, M, N) with M=N=4. The kernel reads B as M rows
    // of N columns (tile row = ctaid.y, tile column = ctaid.x) and writes A = B^T (N rows of M
    // columns). Also M=8, N=12: grid (3,2).
    for (m, n) in [(4usize, 4usize), (8, 12)] {
        check_transpose(m, n);
    }
}

fn check_transpose(m: usize, n: usize) {
    let b: Vec<f32> = (0..m * n).map(|i| i as f32 * 0.5 - 7.0).collect();
    let p = run_ok(
        &corpus("ocelot_TestDivergence_nvvm41"),
        &[
            "--kernel",
            "transpose",
            "--grid",
            &format!("{},{}", n / 4, m / 4),
            "--block",
            "4",
            "--arg",
            &format!("f32[{}]=-99", m * n),
            "--arg",
            &f32_buffer(&b),
            "--arg",
            &m.to_string(),
            "--arg",
            &n.to_string(),
        ],
    );
    let a = f32s(&p, 0);
    for r in 0..m {
        for c in 0..n {
            assert_eq!(a[c * m + r], b[r * n + c], "{m}x{n}: B[{r}][{c}]");
        }
    }
}
