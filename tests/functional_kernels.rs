//! Our own CUDA kernels (tests/data/kernels/*.cu, compiled by nvcc 11.8 for sm_52 and sm_80)
//! run functionally and give the results a host computation gives (issue 3, "Done when").

mod common;

use common::*;

const ARCHS: [&str; 2] = ["sm_52", "sm_80"];

fn kernel(name: &str, arch: &str) -> String {
    data(&format!("kernels/{name}.{arch}.ptx"))
}

#[test]
fn vector_add() {
    let n = 1000;
    let mut rng = Rng::new(1);
    let a: Vec<f32> = (0..n).map(|_| rng.small_float()).collect();
    let b: Vec<f32> = (0..n).map(|_| rng.small_float() * 0.37).collect();
    for arch in ARCHS {
        let (la, lb) = (
            format!("f32[{n}]={}", list(&a)),
            format!("f32[{n}]={}", list(&b)),
        );
        let p = run_ok(
            &kernel("vector_add", arch),
            &[
                "--grid",
                "4",
                "--block",
                "256",
                "--arg",
                &la,
                "--arg",
                &lb,
                "--arg",
                "f32[1024]=-1",
                "--arg",
                "1000",
            ],
        );
        let c = f32s(&p, 2);
        for i in 0..n {
            assert_eq!(c[i], a[i] + b[i], "{arch} element {i}");
        }
        assert!(c[n..].iter().all(|&v| v == -1.0), "{arch}: wrote past n");
    }
}

#[test]
fn book_fig_3_2_divergence_loop() {
    let (threads, n) = (8usize, 5usize);
    let mut rng = Rng::new(2);
    let d1: Vec<u32> = (0..threads * n).map(|_| rng.below(2) as u32).collect();
    let d2: Vec<u32> = (0..threads * n).map(|_| rng.below(2) as u32).collect();
    let (mut x, mut y, mut z) = (
        vec![0u32; threads],
        vec![0u32; threads],
        vec![0u32; threads],
    );
    for t in 0..threads {
        for i in 0..n {
            if d1[t * n + i] != 0 {
                if d2[t * n + i] != 0 {
                    x[t] += 1;
                } else {
                    y[t] += 2;
                }
            } else {
                z[t] += 3;
            }
        }
    }
    for arch in ARCHS {
        let (l1, l2) = (
            format!("u32[40]={}", list(&d1)),
            format!("u32[40]={}", list(&d2)),
        );
        let p = run_ok(
            &kernel("divergence", arch),
            &[
                "--block", "8", "--arg", &l1, "--arg", &l2, "--arg", "5", "--arg", "u32[8]=0",
                "--arg", "u32[8]=0", "--arg", "u32[8]=0",
            ],
        );
        assert_eq!(
            (u32s(&p, 3), u32s(&p, 4), u32s(&p, 5)),
            (x.clone(), y.clone(), z.clone()),
            "{arch}"
        );
    }
}

#[test]
fn shared_memory_transpose_naive_and_padded() {
    let (w, h) = (64usize, 96usize);
    let input: Vec<f32> = (0..w * h).map(|i| i as f32).collect();
    let arg = format!("f32[{}]={}", w * h, list(&input));
    for arch in ARCHS {
        for name in ["transpose_naive", "transpose_padded"] {
            let p = run_ok(
                &kernel("transpose", arch),
                &[
                    "--kernel",
                    name,
                    "--grid",
                    "2,3",
                    "--block",
                    "32,32",
                    "--arg",
                    &arg,
                    "--arg",
                    "f32[6144]=0",
                    "--arg",
                    "64",
                    "--arg",
                    "96",
                ],
            );
            let out = f32s(&p, 1);
            for y in 0..h {
                for x in 0..w {
                    assert_eq!(out[x * h + y], input[y * w + x], "{arch} {name} ({x},{y})");
                }
            }
        }
    }
}

#[test]
fn tree_reduction() {
    let n = 1000usize;
    let mut rng = Rng::new(3);
    let input: Vec<i32> = (0..n).map(|_| rng.below(2001) as i32 - 1000).collect();
    let expected: Vec<i32> = input.chunks(256).map(|c| c.iter().sum()).collect();
    for arch in ARCHS {
        let arg = format!("s32[{n}]={}", list(&input));
        let p = run_ok(
            &kernel("reduction", arch),
            &[
                "--grid", "4", "--block", "256", "--arg", &arg, "--arg", "s32[4]=0", "--arg",
                "1000",
            ],
        );
        assert_eq!(i32s(&p, 1), expected, "{arch}");
    }
}

#[test]
fn histogram_with_shared_atomics() {
    let n = 5000usize;
    let mut rng = Rng::new(4);
    let bytes: Vec<u8> = (0..n).map(|_| rng.below(256) as u8).collect();
    let mut expected = vec![0u32; 64];
    for &b in &bytes {
        expected[(b % 64) as usize] += 1;
    }
    for arch in ARCHS {
        let arg = format!("u8[{n}]={}", list(&bytes));
        let p = run_ok(
            &kernel("histogram", arch),
            &[
                "--grid",
                "4",
                "--block",
                "128",
                "--arg",
                &arg,
                "--arg",
                "5000",
                "--arg",
                "u32[64]=0",
            ],
        );
        assert_eq!(u32s(&p, 2), expected, "{arch}");
    }
}

#[test]
fn warp_shuffle_reduction_and_modes() {
    let mut rng = Rng::new(5);
    let input: Vec<f32> = (0..256).map(|_| rng.small_float()).collect();
    let sums: Vec<f32> = input.chunks(32).map(|c| c.iter().sum()).collect();
    let ints: Vec<i32> = (0..64).map(|i| i * 7 - 100).collect();
    for arch in ARCHS {
        let arg = format!("f32[256]={}", list(&input));
        let p = run_ok(
            &kernel("shuffle_reduce", arch),
            &[
                "--kernel", "warp_sum", "--grid", "2", "--block", "128", "--arg", &arg, "--arg",
                "f32[8]=0",
            ],
        );
        assert_eq!(f32s(&p, 1), sums, "{arch} warp_sum");

        let arg = format!("s32[64]={}", list(&ints));
        let p = run_ok(
            &kernel("shuffle_reduce", arch),
            &[
                "--kernel",
                "shuffle_modes",
                "--block",
                "64",
                "--arg",
                &arg,
                "--arg",
                "s32[64]=0",
                "--arg",
                "s32[64]=0",
                "--arg",
                "s32[64]=0",
            ],
        );
        let xor1: Vec<i32> = (0..64).map(|i| ints[i ^ 1]).collect();
        let up1: Vec<i32> = (0..64)
            .map(|i| if i % 32 == 0 { ints[i] } else { ints[i - 1] })
            .collect();
        let idx0: Vec<i32> = (0..64).map(|i| ints[i / 32 * 32]).collect();
        assert_eq!(
            (i32s(&p, 1), i32s(&p, 2), i32s(&p, 3)),
            (xor1, up1, idx0),
            "{arch} shuffle_modes"
        );
    }
}

#[test]
fn votes_and_ballots_with_a_partial_warp() {
    let n = 70usize;
    let mut rng = Rng::new(6);
    let input: Vec<i32> = (0..96).map(|_| rng.below(100) as i32).collect();
    let threshold = 50;
    let mut ballots = vec![0u32; 3];
    for i in 0..n {
        if input[i] > threshold {
            ballots[i / 32] |= 1 << (i % 32);
        }
    }
    let active = |w: usize| -> u32 {
        let lanes = (n - w * 32).min(32);
        if lanes == 32 {
            u32::MAX
        } else {
            (1u32 << lanes) - 1
        }
    };
    let any: Vec<i32> = (0..3).map(|w| (ballots[w] != 0) as i32).collect();
    let all: Vec<i32> = (0..3).map(|w| (ballots[w] == active(w)) as i32).collect();
    let rank: Vec<i32> = (0..96)
        .map(|i| {
            if i >= n {
                -7
            } else if input[i] > threshold {
                (ballots[i / 32] & ((1u32 << (i % 32)) - 1)).count_ones() as i32
            } else {
                -1
            }
        })
        .collect();
    for arch in ARCHS {
        let arg = format!("s32[96]={}", list(&input));
        let p = run_ok(
            &kernel("vote", arch),
            &[
                "--block",
                "96",
                "--arg",
                &arg,
                "--arg",
                "50",
                "--arg",
                "70",
                "--arg",
                "u32[3]=0",
                "--arg",
                "s32[3]=0",
                "--arg",
                "s32[3]=0",
                "--arg",
                "s32[96]=-7",
            ],
        );
        assert_eq!(u32s(&p, 3), ballots, "{arch} ballots");
        assert_eq!(
            (i32s(&p, 4), i32s(&p, 5)),
            (any.clone(), all.clone()),
            "{arch} any/all"
        );
        assert_eq!(i32s(&p, 6), rank, "{arch} rank");
    }
}
