//! The elastic pipeline paper's DCT_short and IDCT_short (CF'11 Table 4: the CUDA SDK dct8x8's
//! 16-bit kernels, CTA (8,4,4), 40 shared instructions a thread, average bank conflict degree
//! 2.75), written for warpstep in tests/data/kernels/elastic.cu as `dct_short` / `idct_short`
//! and their padded twins. Each runs on `elastic-cf11` (8 banks of 4 bytes, 4 sub-warps of 8
//! lanes) on a 64 x 64 image; its output is checked against a CPU model of the kernel's own
//! fixed-point arithmetic (bit-exact), and its shared-memory counters against its access pattern.

mod common;

use common::*;
use std::collections::BTreeMap;
use warpstep::sim::Sim;

const PTX: &str = "kernels/elastic.sm_52.ptx";
const SIDE: usize = 64;

/// The kernel's constants: cos(j pi / 16) / 2 (and 1 / sqrt 8 for C0) times 2^14, rounded.
const C0: i32 = 5793;
const H: [i32; 8] = [0, 8035, 7568, 6811, 0, 4551, 3135, 1598];

/// `(x + 2^13) >> 14` kept in a short, as the kernel's `ds_round`.
fn round(x: i32) -> i32 {
    i32::from(((x + (1 << 13)) >> 14) as i16)
}

/// One 8-point transform in the kernel's fixed point: the even/odd DCT-II, or its inverse.
fn dct8(v: [i32; 8], inverse: bool) -> [i32; 8] {
    let [h1, h2, h3, h5, h6, h7] = [H[1], H[2], H[3], H[5], H[6], H[7]];
    if !inverse {
        let a: [i32; 4] = std::array::from_fn(|n| v[n] + v[7 - n]);
        let b: [i32; 4] = std::array::from_fn(|n| v[n] - v[7 - n]);
        let (e0, e1, d0, d1) = (a[0] + a[3], a[1] + a[2], a[0] - a[3], a[1] - a[2]);
        [
            round(C0 * (e0 + e1)),
            round(h1 * b[0] + h3 * b[1] + h5 * b[2] + h7 * b[3]),
            round(h2 * d0 + h6 * d1),
            round(h3 * b[0] - h7 * b[1] - h1 * b[2] - h5 * b[3]),
            round(C0 * (e0 - e1)),
            round(h5 * b[0] - h1 * b[1] + h7 * b[2] + h3 * b[3]),
            round(h6 * d0 - h2 * d1),
            round(h7 * b[0] - h5 * b[1] + h3 * b[2] - h1 * b[3]),
        ]
    } else {
        let (s, t) = (C0 * (v[0] + v[4]), C0 * (v[0] - v[4]));
        let (u, w) = (h2 * v[2] + h6 * v[6], h6 * v[2] - h2 * v[6]);
        let e = [s + u, t + w, t - w, s - u];
        let o = [
            h1 * v[1] + h3 * v[3] + h5 * v[5] + h7 * v[7],
            h3 * v[1] - h7 * v[3] - h1 * v[5] - h5 * v[7],
            h5 * v[1] - h1 * v[3] + h7 * v[5] + h3 * v[7],
            h7 * v[1] - h5 * v[3] + h3 * v[5] - h1 * v[7],
        ];
        std::array::from_fn(|n| {
            if n < 4 {
                round(e[n] + o[n])
            } else {
                round(e[7 - n] - o[7 - n])
            }
        })
    }
}

/// The image after the kernel: each 8 x 8 block's columns transformed, then its rows.
fn reference(img: &[i16], inverse: bool) -> Vec<i16> {
    let mut out: Vec<i32> = img.iter().map(|&v| i32::from(v)).collect();
    let at = |r: usize, c: usize| r * SIDE + c;
    for by in (0..SIDE).step_by(8) {
        for c in 0..SIDE {
            let col = dct8(std::array::from_fn(|k| out[at(by + k, c)]), inverse);
            (0..8).for_each(|k| out[at(by + k, c)] = col[k]);
        }
    }
    for r in 0..SIDE {
        for bx in (0..SIDE).step_by(8) {
            let row = dct8(std::array::from_fn(|k| out[at(r, bx + k)]), inverse);
            (0..8).for_each(|k| out[at(r, bx + k)] = row[k]);
        }
    }
    out.into_iter().map(|v| v as i16).collect()
}

/// `kernel` over a 64 x 64 image (grid 2 x 2 of 32 x 32 tiles, CTA (8,4,4)): pixels 0-255 for
/// the forward transform, coefficients -256..255 for the inverse; the output must equal the
/// reference exactly.
fn run(kernel: &str) -> Sim {
    let inverse = kernel.starts_with("idct");
    let mut rng = Rng::new(33);
    let img: Vec<i16> = (0..SIDE * SIDE)
        .map(|_| {
            let v = rng.below(if inverse { 512 } else { 256 }) as i16;
            if inverse {
                v - 256
            } else {
                v
            }
        })
        .collect();
    let arg = format!("s16[{}]={}", SIDE * SIDE, list(&img));
    let pitch = SIDE.to_string();
    let flags = [
        "--config",
        "elastic-cf11",
        "--kernel",
        kernel,
        "--grid",
        "2,2",
        "--block",
        "8,4,4",
        "--arg",
        &arg,
        "--arg",
        &pitch,
    ];
    let sim = assert_timing_matches_functional(&data(PTX), &flags);
    let got: Vec<i16> = warpstep::run::buffer_bytes(sim.image(), sim.global(), 0)
        .expect("buffer argument")
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    let want = reference(&img, inverse);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(
            g,
            w,
            "{kernel} pixel {i} (row {}, column {})",
            i / SIDE,
            i % SIDE
        );
    }
    sim
}

/// Unpadded: a warp is one threadIdx.z (band), a sub-warp one threadIdx.y. Per warp: the copy
/// in and out (16 word accesses, lanes 0-15: 2 active sub-warps each) and the column pass (16
/// short accesses, 4 sub-warps) touch 8 different words a sub-warp, 1 pass; the row pass (8
/// word accesses, 4 sub-warps) touches words 16 apart, one bank, 8 passes. Average
/// (32 + 64 + 256) / (32 + 64 + 32) = 2.75, Table 4's degree. Padded (17-word rows): 1 pass.
fn check_counts(sim: &Sim, padded: bool) {
    let img = sim.image();
    let warps = img.grid.count() * u64::from(img.threads_per_cta() / 32);
    assert_eq!(warps, 4 * 4);
    let s = sim.stats().shared;
    assert_eq!(s.instructions, 40 * warps);
    assert_eq!(s.accesses, (2 * 16 + 4 * 16 + 4 * 8) * warps);
    let one_pass = (2 * 16 + 4 * 16) * warps;
    let row_pass = 4 * 8 * warps;
    let want: BTreeMap<String, u64> = if padded {
        [("1".to_string(), one_pass + row_pass)].into()
    } else {
        [("1".to_string(), one_pass), ("8".to_string(), row_pass)].into()
    };
    assert_eq!(s.degree_histogram, want);
    let degree = (s.accesses + s.bank_conflict_cycles) as f64 / s.accesses as f64;
    assert_eq!(degree, if padded { 1.0 } else { 2.75 });
}

#[test]
fn dct_short_matches_its_fixed_point_reference_and_averages_table_4s_degree_2_75() {
    check_counts(&run("dct_short"), false);
}

#[test]
fn idct_short_matches_its_fixed_point_reference_and_averages_degree_2_75() {
    check_counts(&run("idct_short"), false);
}

#[test]
fn padded_short_dct_and_idct_are_correct_and_conflict_free() {
    check_counts(&run("dct_short_padded"), true);
    check_counts(&run("idct_short_padded"), true);
}

#[test]
fn the_fixed_point_pair_inverts_a_block_within_two_units() {
    // The reference itself: the forward then the inverse transform returns each pixel within
    // the rounding of four passes, so it is a DCT pair and not some other integer map.
    let mut rng = Rng::new(5);
    let img: Vec<i16> = (0..SIDE * SIDE).map(|_| rng.below(256) as i16).collect();
    let back = reference(&reference(&img, false), true);
    let worst = img
        .iter()
        .zip(&back)
        .map(|(a, b)| (a - b).abs())
        .max()
        .unwrap();
    assert!(worst <= 2, "worst round trip error {worst}");
}

#[test]
fn five_short_dct_ctas_fit_a_core_its_registers_bind() {
    // 2 KB of shared memory and 128 threads a CTA would let 8 in; GT200's 16,384 registers let
    // 5 (the kernel keeps more than 21 registers live a thread, 6 CTAs would need at most 21).
    // Table 4: 7, from the SDK kernel's CUDA 2.2 build.
    let flags = [
        "--config",
        "elastic-cf11",
        "--kernel",
        "dct_short",
        "--grid",
        "16,16",
        "--block",
        "8,4,4",
        "--arg",
        "s16[262144]=0",
        "--arg",
        "512",
    ];
    assert_eq!(most_resident_ctas(&data(PTX), &flags), 5);
}
