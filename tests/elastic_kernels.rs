//! The elastic pipeline paper's kernels (issue 14; Gou & Gaydadjiev, CF'11, Table 4), written
//! for warpstep in tests/data/kernels/elastic.cu: each runs on `elastic-cf11` (Table 3: 8 banks
//! of 4 bytes, an 8-wide SIMD, so `shmem.warp_parts` = 4 sub-warps of 8 lanes, GPGPU-Sim's
//! limited broadcast) with a small grid, its output is checked against a CPU reference, and its
//! shared-memory counters against what its access pattern implies. The paper's "average bank
//! conflict degree" is cycles per SIMD (8-lane) access: here `(accesses + bank_conflict_cycles)
//! / accesses` of the `shared` statistics, whose `accesses` are sub-warp accesses.
//! docs/elastic-kernels.md has the full-size runs and Table 4 beside them.

mod common;

use common::*;
use std::collections::BTreeMap;
use warpstep::sim::{SharedMemStats, Sim};

const PTX: &str = "kernels/elastic.sm_52.ptx";

/// Runs `kernel` on `elastic-cf11` (functional and timing, which must agree) and returns the
/// timing simulation.
fn run(kernel: &str, grid: &str, block: &str, args: &[String]) -> Sim {
    run_ptx(PTX, kernel, grid, block, args)
}

/// The flags of a launch of `kernel` on `elastic-cf11`.
fn launch_flags<'a>(
    kernel: &'a str,
    grid: &'a str,
    block: &'a str,
    args: &[&'a str],
) -> Vec<&'a str> {
    let mut flags = vec![
        "--config",
        "elastic-cf11",
        "--kernel",
        kernel,
        "--grid",
        grid,
        "--block",
        block,
    ];
    for a in args {
        flags.extend(["--arg", *a]);
    }
    flags
}

fn run_ptx(ptx: &str, kernel: &str, grid: &str, block: &str, args: &[String]) -> Sim {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let flags = launch_flags(kernel, grid, block, &args);
    assert_timing_matches_functional(&data(ptx), &flags)
}

fn bytes(sim: &Sim, index: usize) -> Vec<u8> {
    warpstep::run::buffer_bytes(sim.image(), sim.global(), index).expect("buffer argument")
}

fn f32_buffer(sim: &Sim, index: usize) -> Vec<f32> {
    bytes(sim, index)
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn u32_buffer(sim: &Sim, index: usize) -> Vec<u32> {
    bytes(sim, index)
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn histogram(pairs: &[(u32, u64)]) -> BTreeMap<String, u64> {
    pairs
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(d, n)| (d.to_string(), *n))
        .collect()
}

/// The paper's average conflict degree: cycles per sub-warp (SIMD) access.
fn degree(s: &SharedMemStats) -> f64 {
    (s.accesses + s.bank_conflict_cycles) as f64 / s.accesses as f64
}

/// Warps in the grid (every CTA here is a whole number of full warps).
fn warps(sim: &Sim) -> u64 {
    let img = sim.image();
    img.grid.count() * u64::from(img.threads_per_cta().div_ceil(32))
}

// ---------------------------------------------------------------------------------------------
// Transpose

/// A `height` x `width` matrix through transpose16 or transpose16_padded (16 x 16 tiles, one
/// thread per element); returns the simulation after checking out = in^T.
fn transpose(kernel: &str, width: usize, height: usize) -> Sim {
    let mut rng = Rng::new(14);
    let input: Vec<f32> = (0..width * height).map(|_| rng.small_float()).collect();
    let n = width * height;
    let grid = format!("{},{}", width / 16, height / 16);
    let sim = run(
        kernel,
        &grid,
        "16,16",
        &[
            format!("f32[{n}]=0"),
            format!("f32[{n}]={}", list(&input)),
            width.to_string(),
            height.to_string(),
        ],
    );
    let out = f32_buffer(&sim, 0);
    for r in 0..height {
        for c in 0..width {
            assert_eq!(out[c * height + r], input[r * width + c], "({r}, {c})");
        }
    }
    sim
}

#[test]
fn transpose16_without_padding_is_correct_and_its_column_read_is_8_way() {
    // A warp is threadIdx.y = 2w, 2w + 1 with threadIdx.x 0-15; a sub-warp is one threadIdx.y
    // and 8 consecutive threadIdx.x. Row write tile[ty][tx] = word 16 ty + tx: 8 consecutive
    // words, 8 banks, 1 pass. Column read tile[tx][ty] = word 16 tx + ty: words 16 apart, all
    // in bank ty % 8, 8 passes. Per warp: 2 instructions, 8 sub-warp accesses, 4 of degree 1
    // and 4 of degree 8: average (1 + 8) / 2 = 4.5, Table 4's 4.50 exactly.
    let sim = transpose("transpose16", 48, 32);
    let w = warps(&sim);
    assert_eq!(w, 6 * 8);
    let s = sim.stats().shared;
    assert_eq!(s.instructions, 2 * w);
    assert_eq!(s.accesses, 8 * w);
    assert_eq!(s.degree_histogram, histogram(&[(1, 4 * w), (8, 4 * w)]));
    assert_eq!(s.bank_conflict_cycles, 4 * w * 7);
    assert_eq!(degree(&s), 4.5);
    // The stats view's per-SM histogram is the same count (one SM on elastic-cf11).
    let sm = sim.sms()[0].stats();
    let (n, d1, d8) = (
        sm.conflict_degrees.len(),
        sm.conflict_degrees[1],
        sm.conflict_degrees[8],
    );
    assert_eq!((n, d1, d8), (9, 4 * w, 4 * w));
    assert_eq!(
        (sm.shared_instructions, sm.bank_conflict_cycles),
        (2 * w, 4 * w * 7)
    );
}

#[test]
fn transpose16_padded_is_correct_and_conflict_free() {
    // Rows of 17 words: the column read's words 17 tx + ty are 17 = 1 (mod 8) apart, 8 banks.
    let sim = transpose("transpose16_padded", 48, 32);
    let w = warps(&sim);
    let s = sim.stats().shared;
    assert_eq!(s.instructions, 2 * w);
    assert_eq!(s.degree_histogram, histogram(&[(1, 8 * w)]));
    assert_eq!(s.bank_conflict_cycles, 0);
    assert_eq!(degree(&s), 1.0);
}

// ---------------------------------------------------------------------------------------------
// Reduction

#[test]
fn reduce_interleaved_sums_each_block_and_averages_414_cycles_over_135_accesses() {
    let blocks = 4usize;
    let n = blocks * 256 - 24; // the last block is partly padded with zeros
    let mut rng = Rng::new(7);
    let input: Vec<i64> = (0..n).map(|_| rng.below(2001) as i64 - 1000).collect();
    let sim = run(
        "reduce_interleaved",
        &blocks.to_string(),
        "256",
        &[
            format!("s32[{n}]={}", list(&input)),
            format!("s32[{blocks}]=0"),
            n.to_string(),
        ],
    );
    let out: Vec<i32> = u32_buffer(&sim, 1).into_iter().map(|v| v as i32).collect();
    for (b, &got) in out.iter().enumerate() {
        let want: i64 = input[b * 256..n.min((b + 1) * 256)].iter().sum();
        assert_eq!(i64::from(got), want, "block {b}");
    }
    // Per block of 256 threads (8 warps, 32 sub-warps of 8 threads): sdata[tid] = ... is 8
    // instructions, 32 sub-warp accesses of 1 pass. In step s (1, 2, ..., 128) the threads
    // tid < 128 / s are active (index = 2 s tid < 256), each making 3 accesses (two loads, a
    // store) to words 2 s apart: a full sub-warp of 8 lanes covers 8 / gcd(2 s, 8) banks with
    // gcd(2 s, 8) lanes each, and a partial one (s >= 32) has all its lanes in bank 0:
    //   s = 1: 16 sub-warps (4 warps) of degree 2;  s = 2: 8 (2 warps) of degree 4;
    //   s = 4, 8, 16: 4, 2, 1 sub-warps (1 warp) of degree 8;
    //   s = 32, 64, 128: 1 sub-warp of 4, 2, 1 lanes: degree 4, 2, 1.
    // Thread 0 then reads sdata[0]: 1 instruction, 1 access of degree 1.
    // Accesses: 32 + 3 (16 + 8 + 4 + 2 + 1 + 1 + 1 + 1) + 1 = 135 a block; cycles
    // 32 + 3 (32 + 32 + 32 + 16 + 8 + 4 + 2 + 1) + 1 = 414: 414 / 135 = 3.07, Table 4's degree.
    let b = blocks as u64;
    let s = sim.stats().shared;
    assert_eq!(
        s.instructions,
        b * (8 + 3 * (4 + 2 + 1 + 1 + 1 + 1 + 1 + 1) + 1)
    );
    assert_eq!(s.accesses, 135 * b);
    assert_eq!(
        s.degree_histogram,
        histogram(&[
            (1, b * (32 + 3 + 1)),
            (2, b * 3 * (16 + 1)),
            (4, b * 3 * (8 + 1)),
            (8, b * 3 * (4 + 2 + 1)),
        ])
    );
    assert_eq!(s.bank_conflict_cycles, (414 - 135) * b);
    assert!((degree(&s) - 3.0667).abs() < 1e-4, "{}", degree(&s));
}

// ---------------------------------------------------------------------------------------------
// 8 x 8 DCT / IDCT

/// The orthonormal 8-point DCT-II matrix: C[k][n] = c(k) cos((2n + 1) k pi / 16).
fn dct_matrix() -> [[f64; 8]; 8] {
    let mut c = [[0.0; 8]; 8];
    for (k, row) in c.iter_mut().enumerate() {
        let scale = if k == 0 { (1.0f64 / 8.0).sqrt() } else { 0.5 };
        for (n, v) in row.iter_mut().enumerate() {
            *v = scale * ((2 * n + 1) as f64 * k as f64 * std::f64::consts::PI / 16.0).cos();
        }
    }
    c
}

/// Each 8 x 8 block of a `w`-wide image: C X C^T (DCT) or C^T X C (IDCT), in f64.
fn dct2_reference(img: &[f32], w: usize, inverse: bool) -> Vec<f64> {
    let c = dct_matrix();
    let m = |k: usize, n: usize| if inverse { c[n][k] } else { c[k][n] };
    let h = img.len() / w;
    let mut out = vec![0.0; img.len()];
    for by in (0..h).step_by(8) {
        for bx in (0..w).step_by(8) {
            let x = |i: usize, j: usize| f64::from(img[(by + i) * w + bx + j]);
            for k in 0..8 {
                for l in 0..8 {
                    let mut sum = 0.0;
                    for i in 0..8 {
                        for j in 0..8 {
                            sum += m(k, i) * x(i, j) * m(l, j);
                        }
                    }
                    out[(by + k) * w + bx + l] = sum;
                }
            }
        }
    }
    out
}

/// A 64 x 32 image (grid 2 x 2 of 32 x 16 tiles, CTA (8,4,2)) through `kernel`.
fn dct(kernel: &str) -> Sim {
    let (w, h) = (64usize, 32usize);
    let mut rng = Rng::new(8);
    let img: Vec<f32> = (0..w * h)
        .map(|_| rng.below(1 << 16) as f32 / 65536.0)
        .collect();
    let sim = run(
        kernel,
        "2,2",
        "8,4,2",
        &[
            format!("f32[{}]=0", w * h),
            format!("f32[{}]={}", w * h, list(&img)),
            w.to_string(),
        ],
    );
    let want = dct2_reference(&img, w, kernel.starts_with("idct"));
    let got = f32_buffer(&sim, 0);
    for (i, (&g, &r)) in got.iter().zip(&want).enumerate() {
        assert!(
            (f64::from(g) - r).abs() < 1e-5,
            "{kernel} [{i}]: {g} vs {r}"
        );
    }
    sim
}

/// Unpadded: a warp is one threadIdx.z (its 8 x 8 blocks' rows), a sub-warp one threadIdx.y
/// (one block, threadIdx.x 0-7). Of a thread's 48 shared accesses, the column copy-in (8
/// stores), the column pass (8 loads, 8 stores) and the copy-out (8 loads) touch word
/// 32 (8 z + k) + 8 y + x: 8 consecutive words, 1 pass. The row pass (8 loads, 8 stores) touches
/// word 32 (8 z + x) + 8 y + k: 8 words 32 apart, one bank, 8 passes. Average
/// (32 x 1 + 16 x 8) / 48 = 10 / 3 = 3.33, Table 4's degree. Padded (33-word rows): the row
/// pass's words are 33 = 1 (mod 8) apart, 1 pass everywhere.
fn check_dct_counts(sim: &Sim, padded: bool) {
    let w = warps(sim);
    assert_eq!(w, 4 * 2);
    let s = sim.stats().shared;
    assert_eq!(s.instructions, 48 * w);
    assert_eq!(s.accesses, 4 * 48 * w);
    if padded {
        assert_eq!(s.degree_histogram, histogram(&[(1, 4 * 48 * w)]));
        assert_eq!(degree(&s), 1.0);
    } else {
        assert_eq!(
            s.degree_histogram,
            histogram(&[(1, 4 * 32 * w), (8, 4 * 16 * w)])
        );
        assert_eq!(s.bank_conflict_cycles, 4 * 16 * w * 7);
        assert!((degree(&s) - 10.0 / 3.0).abs() < 1e-12);
    }
}

#[test]
fn dct8x8_matches_the_orthonormal_2d_dct_and_its_row_pass_is_8_way() {
    check_dct_counts(&dct("dct8x8"), false);
}

#[test]
fn idct8x8_matches_the_inverse_2d_dct_and_its_row_pass_is_8_way() {
    check_dct_counts(&dct("idct8x8"), false);
}

#[test]
fn padded_dct_and_idct_are_correct_and_conflict_free() {
    check_dct_counts(&dct("dct8x8_padded"), true);
    check_dct_counts(&dct("idct8x8_padded"), true);
}

// ---------------------------------------------------------------------------------------------
// AES-128

fn xtime(b: u8) -> u8 {
    (b << 1) ^ if b & 0x80 != 0 { 0x1b } else { 0 }
}

fn gmul(mut a: u8, mut b: u8) -> u8 {
    let mut r = 0;
    while b != 0 {
        if b & 1 != 0 {
            r ^= a;
        }
        a = xtime(a);
        b >>= 1;
    }
    r
}

/// The S-box from its definition (GF(2^8) inverse, then the affine map), and its inverse.
fn sboxes() -> ([u8; 256], [u8; 256]) {
    let mut s = [0u8; 256];
    for (x, out) in s.iter_mut().enumerate() {
        let inv = (1..256usize)
            .find(|&y| gmul(x as u8, y as u8) == 1)
            .unwrap_or(0) as u8;
        *out = inv
            ^ inv.rotate_left(1)
            ^ inv.rotate_left(2)
            ^ inv.rotate_left(3)
            ^ inv.rotate_left(4)
            ^ 0x63;
    }
    let mut inv = [0u8; 256];
    for (x, &v) in s.iter().enumerate() {
        inv[v as usize] = x as u8;
    }
    (s, inv)
}

type State = [[u8; 4]; 4]; // [column][row]

struct Aes {
    sbox: [u8; 256],
    inv_sbox: [u8; 256],
    /// Encryption round keys, 44 words as [byte; 4].
    ek: Vec<[u8; 4]>,
    /// The equivalent inverse cipher's: round r uses ek[40 - 4r ..], InvMixColumns for 1-9.
    dk: Vec<[u8; 4]>,
}

fn mix(col: [u8; 4], m: [u8; 4]) -> [u8; 4] {
    // Row r of the circulant matrix with first row m.
    std::array::from_fn(|r| (0..4).fold(0, |acc, i| acc ^ gmul(m[(i + 4 - r) % 4], col[i])))
}

impl Aes {
    fn new(key: [u8; 16]) -> Aes {
        let (sbox, inv_sbox) = sboxes();
        let mut ek: Vec<[u8; 4]> = (0..4)
            .map(|i| key[4 * i..4 * i + 4].try_into().unwrap())
            .collect();
        let mut rcon = 1u8;
        for i in 4..44 {
            let mut t = ek[i - 1];
            if i % 4 == 0 {
                t = [t[1], t[2], t[3], t[0]].map(|b| sbox[b as usize]);
                t[0] ^= rcon;
                rcon = xtime(rcon);
            }
            ek.push(std::array::from_fn(|j| ek[i - 4][j] ^ t[j]));
        }
        let mut dk = Vec::new();
        for round in 0..11 {
            for c in 0..4 {
                let w = ek[4 * (10 - round) + c];
                dk.push(if round == 0 || round == 10 {
                    w
                } else {
                    mix(w, [14, 11, 13, 9])
                });
            }
        }
        Aes {
            sbox,
            inv_sbox,
            ek,
            dk,
        }
    }

    /// Encrypts (or decrypts, by the equivalent inverse cipher) one block; returns the result
    /// and the state entering each of rounds 1-10 (the kernel's table-lookup indices).
    fn run(&self, block: [u8; 16], decrypt: bool) -> ([u8; 16], Vec<State>) {
        let keys = if decrypt { &self.dk } else { &self.ek };
        let (table, shift, m) = if decrypt {
            (&self.inv_sbox, 3, [14, 11, 13, 9])
        } else {
            (&self.sbox, 1, [2, 3, 1, 1])
        };
        let mut s: State =
            std::array::from_fn(|c| std::array::from_fn(|r| block[4 * c + r] ^ keys[c][r]));
        let mut inputs = Vec::new();
        for round in 1..=10 {
            inputs.push(s);
            let mut t: State = std::array::from_fn(|c| {
                std::array::from_fn(|r| table[s[(c + shift * r) % 4][r] as usize])
            });
            if round < 10 {
                t = t.map(|col| mix(col, m));
            }
            s = std::array::from_fn(|c| std::array::from_fn(|r| t[c][r] ^ keys[4 * round + c][r]));
        }
        (std::array::from_fn(|i| s[i / 4][i % 4]), inputs)
    }

    fn key_words(&self, decrypt: bool) -> Vec<u32> {
        let keys = if decrypt { &self.dk } else { &self.ek };
        keys.iter().map(|w| u32::from_le_bytes(*w)).collect()
    }
}

/// Passes one sub-warp needs for `words` (one word per active lane) on 8 banks under
/// GPGPU-Sim's limited broadcast: only the first word (ascending bank, then word) read by more
/// than one lane is served to its lanes at once; every other lane takes its own pass.
fn limited_broadcast_passes(words: &[u32]) -> u32 {
    let mut banks: BTreeMap<u32, BTreeMap<u32, u32>> = BTreeMap::new();
    for &w in words {
        *banks.entry(w % 8).or_default().entry(w).or_default() += 1;
    }
    let broadcast = banks
        .iter()
        .find_map(|(&b, ws)| ws.iter().find(|(_, &n)| n > 1).map(|(_, &n)| (b, n)));
    banks
        .iter()
        .map(|(&b, ws)| {
            let lanes: u32 = ws.values().sum();
            match broadcast {
                Some((bb, n)) if bb == b => lanes - (n - 1),
                _ => lanes,
            }
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn limited_broadcast_passes_counts_as_documented() {
    assert_eq!(limited_broadcast_passes(&[0, 1, 2, 3, 4, 5, 6, 7]), 1);
    assert_eq!(limited_broadcast_passes(&[0, 8, 16, 24, 32, 40, 48, 56]), 8);
    // Two words read twice each in bank 0: one is merged, the other's two lanes are not.
    assert_eq!(limited_broadcast_passes(&[0, 0, 8, 8, 1, 2, 3, 4]), 3);
}

/// `blocks` thread blocks of aes_encrypt or aes_decrypt (64 AES blocks each, block 0 FIPS-197
/// Appendix B's); checks every output block against the CPU, and the shared counters against
/// the lookups the CPU's round states imply.
fn aes(decrypt: bool, blocks: usize) {
    let fips_key = [
        0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f,
        0x3c,
    ];
    let fips_pt = [
        0x32, 0x43, 0xf6, 0xa8, 0x88, 0x5a, 0x30, 0x8d, 0x31, 0x31, 0x98, 0xa2, 0xe0, 0x37, 0x07,
        0x34,
    ];
    let fips_ct = [
        0x39, 0x25, 0x84, 0x1d, 0x02, 0xdc, 0x09, 0xfb, 0xdc, 0x11, 0x85, 0x97, 0x19, 0x6a, 0x0b,
        0x32,
    ];
    let aes = Aes::new(fips_key);
    assert_eq!(aes.run(fips_pt, false).0, fips_ct);
    assert_eq!(aes.run(fips_ct, true).0, fips_pt);

    let n_aes = blocks * 64;
    let mut rng = Rng::new(if decrypt { 21 } else { 12 });
    let mut input: Vec<[u8; 16]> = (0..n_aes)
        .map(|_| std::array::from_fn(|_| rng.below(256) as u8))
        .collect();
    input[0] = if decrypt { fips_ct } else { fips_pt };
    let words: Vec<u32> = input
        .iter()
        .flat_map(|b| {
            b.chunks_exact(4)
                .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        })
        .collect();
    let kernel = if decrypt {
        "aes_decrypt"
    } else {
        "aes_encrypt"
    };
    let sim = run(
        kernel,
        &blocks.to_string(),
        "256",
        &[
            format!("u32[{}]=0", words.len()),
            format!("u32[{}]={}", words.len(), list(&words)),
            format!("u32[44]={}", list(&aes.key_words(decrypt))),
        ],
    );
    let out = bytes(&sim, 0);
    let mut traces = Vec::new();
    for (i, block) in input.iter().enumerate() {
        let (want, rounds) = aes.run(*block, decrypt);
        assert_eq!(out[16 * i..16 * i + 16], want, "AES block {i}");
        traces.push(rounds);
    }
    assert_eq!(out[..16], if decrypt { fips_pt } else { fips_ct });

    // Shared accesses per thread: the stage word and 4 table entries stored (decrypt: and the
    // inverse S-box entry), AddRoundKey's load and store, 9 rounds of 4 byte loads, 4 table
    // loads and a store, round 10's 4 byte loads, 4 table loads and 4 byte stores, and the
    // result load: 101 (102). Only the table loads conflict: the byte loads of a sub-warp (two
    // AES blocks) read its 8 state words, one per bank, the stores write word tx. A table load
    // of row r in a round reads word state[(c +- r) % 4][r] of a 256-word table for each lane
    // (column c of AES block tx / 4), which the CPU's round states give.
    let per_thread = if decrypt { 102u64 } else { 101 };
    let w = warps(&sim);
    let s = sim.stats().shared;
    assert_eq!(s.instructions, per_thread * w);
    assert_eq!(s.accesses, 4 * per_thread * w);
    let shift = if decrypt { 3 } else { 1 };
    let mut hist: BTreeMap<u32, u64> = BTreeMap::new();
    // A sub-warp is two AES blocks: lanes 0-3 columns 0-3 of the first, lanes 4-7 the second's.
    for pair in traces.chunks_exact(2) {
        for (first, second) in pair[0].iter().zip(&pair[1]) {
            for r in 0..4 {
                let lanes: Vec<u32> = [first, second]
                    .iter()
                    .flat_map(|state| (0..4).map(move |c| u32::from(state[(c + shift * r) % 4][r])))
                    .collect();
                *hist.entry(limited_broadcast_passes(&lanes)).or_default() += 1;
            }
        }
    }
    let lookups: u64 = hist.values().sum();
    assert_eq!(lookups, 40 * 4 * w);
    *hist.entry(1).or_default() += s.accesses - lookups;
    let want: BTreeMap<String, u64> = hist.iter().map(|(d, n)| (d.to_string(), *n)).collect();
    assert_eq!(s.degree_histogram, want);
    let extra: u64 = hist.iter().map(|(d, n)| u64::from(d - 1) * n).sum();
    assert_eq!(s.bank_conflict_cycles, extra);
    // Random lookups average about 2.55 passes (8 uniform lanes on 8 banks, limited
    // broadcast), so about (61 + 40 x 2.55) / 101 = 1.61 overall (the full grid: 1.61).
    let d = degree(&s);
    assert!(d > 1.5 && d < 1.75, "average degree {d}");
}

#[test]
fn aes_encrypt_matches_fips_197_and_its_table_lookups_conflict_as_the_states_imply() {
    aes(false, 4);
}

#[test]
fn aes_decrypt_inverts_it_and_its_table_lookups_conflict_as_the_states_imply() {
    aes(true, 4);
}

// ---------------------------------------------------------------------------------------------
// CTAs per core (Table 4's column)

/// The most CTAs resident at once on the one SM during the first cycles of a long grid.
fn resident_ctas(kernel: &str, grid: &str, block: &str, args: &[&str]) -> usize {
    most_resident_ctas(&data(PTX), &launch_flags(kernel, grid, block, args))
}

#[test]
fn ctas_per_core_follow_threads_and_shared_memory() {
    // 1,024 threads an SM: 4 CTAs of 256 (Table 4: transpose 4, reduction 4).
    let t = ["f32[65536]=0", "f32[65536]=0", "256", "256"];
    assert_eq!(resident_ctas("transpose16", "16,16", "16,16", &t), 4);
    let r = ["s32[65536]=0", "s32[256]=0", "65536"];
    assert_eq!(resident_ctas("reduce_interleaved", "256", "256", &r), 4);
    // AES: 6 KB of shared memory a CTA (7 KB decrypting) in 16 KB: 2 (Table 4: 2).
    let a = ["u32[16384]=0", "u32[16384]=0", "u32[44]=0"];
    assert_eq!(resident_ctas("aes_encrypt", "64", "256", &a), 2);
    assert_eq!(resident_ctas("aes_decrypt", "64", "256", &a), 2);
    // DCT: 2 KB a CTA, 64 threads: the 8 CTA slots and the 16 KB bind (Table 4: 7, from the
    // CUDA 2.2 build's registers or the kernel parameters sm_1x keeps in shared memory).
    let d = ["f32[262144]=0", "f32[262144]=0", "512"];
    assert_eq!(resident_ctas("dct8x8", "16,32", "8,4,2", &d), 8);
}

// ---------------------------------------------------------------------------------------------
// The sm_80 build

#[test]
fn the_sm_80_build_makes_the_same_shared_accesses() {
    // Same kernels, other target: nvcc emits the same shared loads and stores, so every
    // shared counter equals the sm_52 build's (and the outputs, checked bit for bit).
    let cases: [(&str, &str, &str, Vec<String>); 5] = [
        (
            "transpose16",
            "3,2",
            "16,16",
            vec![
                "f32[1536]=0".into(),
                "f32[1536]=rand:5".into(),
                "48".into(),
                "32".into(),
            ],
        ),
        (
            "reduce_interleaved",
            "3",
            "256",
            vec![
                "s32[700]=rand:5:0:99".into(),
                "s32[3]=0".into(),
                "700".into(),
            ],
        ),
        (
            "dct8x8",
            "2,2",
            "8,4,2",
            vec!["f32[2048]=0".into(), "f32[2048]=rand:5".into(), "64".into()],
        ),
        (
            "idct8x8_padded",
            "2,2",
            "8,4,2",
            vec!["f32[2048]=0".into(), "f32[2048]=rand:5".into(), "64".into()],
        ),
        (
            "aes_encrypt",
            "2",
            "256",
            vec![
                "u32[512]=0".into(),
                "u32[512]=rand:5".into(),
                "u32[44]=rand:6".into(),
            ],
        ),
    ];
    for (kernel, grid, block, args) in &cases {
        let a = run_ptx(PTX, kernel, grid, block, args);
        let b = run_ptx("kernels/elastic.sm_80.ptx", kernel, grid, block, args);
        assert_eq!(a.stats().shared, b.stats().shared, "{kernel}");
        assert!(a.stats().shared.instructions > 0, "{kernel}");
        assert_eq!(bytes(&a, 0), bytes(&b, 0), "{kernel}");
        assert_eq!(bytes(&a, 1), bytes(&b, 1), "{kernel}");
    }
}
