//! Shared-memory timing in whole runs (issue 5, "Tests: bank conflicts" and "transpose"): the
//! conflict degree of a warp's access becomes extra cycles of the run and shows in the `shared`
//! statistics. The lane-level arithmetic is tested in `xor_shared_banks.rs`; here the same cases
//! run as kernels (`tests/data/mem/shared_banks.ptx`).

mod common;

use common::*;
use std::collections::BTreeMap;
use warpstep::sim::Sim;

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// One warp reads shared word t x stride and stores it.
fn stride_run(stride: u32, sets: &[&str]) -> Sim {
    one_warp_run("shared_stride", stride, sets)
}

/// One warp adds 1 to shared word t x stride with an atomic.
fn atomic_stride_run(stride: u32) -> Sim {
    one_warp_run("shared_atomic_stride", stride, &[])
}

/// `kernel` of `tests/data/mem/shared_banks.ptx` on one warp, with its stride argument.
fn one_warp_run(kernel: &str, stride: u32, sets: &[&str]) -> Sim {
    let ptx = data("mem/shared_banks.ptx");
    let s = stride.to_string();
    let mut flags = vec![
        "--kernel",
        kernel,
        "--block",
        "32",
        "--arg",
        "u32[32]=0",
        "--arg",
        &s,
    ];
    for set in sets {
        flags.extend(["--set", set]);
    }
    assert_timing_matches_functional(&ptx, &flags)
}

#[test]
fn an_atomics_same_word_replays_are_counted_apart_from_its_bank_conflicts() {
    // (stride, extra passes, of which same-word replays): one word for every lane takes 32
    // passes, all replays; 32 words of one bank take 32 passes, all bank conflicts; two words of
    // bank 0, 16 lanes each, take 32 passes of which a load would need 2: 30 replays.
    for (stride, extra, replays) in [(1u32, 0u64, 0u64), (0, 31, 31), (32, 31, 0), (1024, 31, 30)] {
        let st = atomic_stride_run(stride).stats().shared;
        assert_eq!(st.bank_conflict_cycles, extra, "stride {stride}");
        assert_eq!(st.atomic_replay_cycles, replays, "stride {stride}");
    }
    // A load never replays.
    assert_eq!(stride_run(0, &[]).stats().shared.atomic_replay_cycles, 0);
}

fn histogram(pairs: &[(u32, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|(d, n)| (d.to_string(), *n)).collect()
}

#[test]
fn word_stride_s_has_degree_gcd_s_32_and_costs_that_many_cycles() {
    let base = stride_run(1, &[]).cycle();
    for s in [1u32, 2, 3, 4, 5, 6, 8, 12, 16, 17, 31, 32, 64] {
        let sim = stride_run(s, &[]);
        let degree = gcd(s, 32);
        let st = sim.stats().shared;
        assert_eq!(st.instructions, 1, "stride {s}");
        assert_eq!(st.accesses, 1, "stride {s}");
        assert_eq!(st.degree_histogram, histogram(&[(degree, 1)]), "stride {s}");
        assert_eq!(st.bank_conflict_cycles, u64::from(degree - 1), "stride {s}");
        // MEM0 is held one cycle per pass; nothing else in the run changes.
        assert_eq!(sim.cycle() - base, u64::from(degree - 1), "stride {s}");
    }
}

#[test]
fn all_lanes_on_one_word_is_a_full_broadcast() {
    let sim = stride_run(0, &[]);
    let st = sim.stats().shared;
    assert_eq!(st.degree_histogram, histogram(&[(1, 1)]));
    assert_eq!(st.bank_conflict_cycles, 0);
    assert_eq!(sim.cycle(), stride_run(1, &[]).cycle());
}

#[test]
fn eight_byte_banks_make_stride_two_conflict_free() {
    let four = stride_run(2, &[]).stats().shared;
    assert_eq!(four.degree_histogram, histogram(&[(2, 1)]));
    let eight = stride_run(2, &["shmem.bank_width=8"]);
    let st = eight.stats().shared;
    assert_eq!(st.degree_histogram, histogram(&[(1, 1)]));
    assert_eq!(st.bank_conflict_cycles, 0);
    // Stride 4 words (16 bytes) is 2-way over 8-byte banks.
    let st4 = stride_run(4, &["shmem.bank_width=8"]).stats().shared;
    assert_eq!(st4.degree_histogram, histogram(&[(2, 1)]));
}

#[test]
fn limited_broadcast_follows_gpgpu_sim() {
    // Lanes 0-15 read word 0, lanes 16-31 word 32: both in bank 0.
    let ptx = data("mem/shared_banks.ptx");
    let run = |sets: &[&str]| {
        let mut flags = vec![
            "--kernel",
            "shared_two_words",
            "--block",
            "32",
            "--arg",
            "u32[32]=0",
        ];
        for s in sets {
            flags.extend(["--set", s]);
        }
        assert_timing_matches_functional(&ptx, &flags)
    };
    let full = run(&[]);
    assert_eq!(full.stats().shared.degree_histogram, histogram(&[(2, 1)]));
    // GPGPU-Sim's limited broadcast merges only the first multiply-read word (word 0); the
    // other 16 lanes each take a pass: 1 + 16.
    let limited = run(&["shmem.broadcast=limited"]);
    let st = limited.stats().shared;
    assert_eq!(st.degree_histogram, histogram(&[(17, 1)]));
    assert_eq!(st.bank_conflict_cycles, 16);
    assert_eq!(limited.cycle() - full.cycle(), 15);
}

#[test]
fn sub_warps_are_separate_accesses() {
    // Two sub-warps of 16 lanes at stride 32: each is 16-way.
    let sim = stride_run(32, &["shmem.warp_parts=2"]);
    let st = sim.stats().shared;
    assert_eq!(st.accesses, 2);
    assert_eq!(st.degree_histogram, histogram(&[(16, 2)]));
    assert_eq!(st.bank_conflict_cycles, 30);
}

fn transpose(kernel: &str) -> Sim {
    transpose_64(kernel, &[])
}

#[test]
fn transpose_tile_column_reads_are_32_way_and_padding_removes_it() {
    // 4 CTAs x 32 warps: one row write (conflict-free) and one column read per warp.
    let naive = transpose("transpose_naive");
    let st = naive.stats().shared;
    assert_eq!(st.instructions, 256);
    assert_eq!(st.degree_histogram, histogram(&[(1, 128), (32, 128)]));
    assert_eq!(st.bank_conflict_cycles, 128 * 31);
    let padded = transpose("transpose_padded");
    let st = padded.stats().shared;
    assert_eq!(st.degree_histogram, histogram(&[(1, 256)]));
    assert_eq!(st.bank_conflict_cycles, 0);
    assert!(padded.cycle() < naive.cycle());
}
