//! The unified memory experiment's other Table 6 programs and Fig. 7's (issue 33; Gebhart et
//! al., MICRO'12, Table 1, Table 6, §6.1): lu, pcr, srad and GPU-mummer, nn, hotspot and
//! VectorAdd run their whole launch sequences on the tests' small inputs, each answer checked
//! against a Rust reference inside the run (a wrong answer is an error), in Table 1's
//! registers and shared bytes a thread.

use warpstep::experiment::unified::{Design, Measured, Size, UnifiedRun, Workload};

fn execute(workload: Workload, design: Design) -> Measured {
    let m = UnifiedRun {
        workload,
        design,
        size: Size::Quick,
    }
    .execute();
    assert_eq!(m.error, None, "{} in {}", workload.name(), design.label());
    m
}

/// (threads, registers KB, shared KB, cache KB) of the run's last launch.
fn partition(m: &Measured) -> (u32, f64, f64, f64) {
    let p = m.totals.partition.as_ref().expect("a unified run");
    (p.threads, p.registers_kb, p.shared_kb, p.cache_kb)
}

/// Runs `workload` partitioned and unified at 384 KB: both compute the answer (checked inside),
/// with the same instructions; the unified run's pool arbitrates. Returns the unified run.
fn both(workload: Workload, launches: u64) -> Measured {
    let partitioned = execute(workload, Design::Partitioned);
    let unified = execute(workload, Design::Unified384);
    assert_eq!(partitioned.totals.launches, launches, "{}", workload.name());
    assert_eq!(unified.totals.launches, launches, "{}", workload.name());
    assert_eq!(partitioned.totals.partition, None);
    assert_eq!(
        unified.totals.warp_instructions,
        partitioned.totals.warp_instructions,
        "{}",
        workload.name()
    );
    assert!(
        unified.totals.arbitration_conflicts > 0,
        "{}",
        workload.name()
    );
    unified
}

#[test]
fn lu_factors_in_rodinia_luds_three_kernels_per_diagonal_block() {
    // 64 x 64 in 16-wide blocks: three offsets of diagonal, perimeter and internal, then the
    // last diagonal block alone. The last launch is lu_diagonal: one CTA of 16 threads, 1 KB
    // of shared memory (64 bytes a thread), Table 1's 20 registers: 1024 threads hold 80 KB
    // of registers and 64 KB of shared memory, the rest of 384 KB is cache.
    let unified = both(Workload::Lu, 10);
    assert_eq!(partition(&unified), (1024, 80.0, 64.0, 240.0));
    assert!(Workload::Lu.in_average() && !Workload::Lu.fig7());
    assert_eq!(Workload::Lu.registers(), 20);
    assert_eq!(
        Workload::Lu.paper().unwrap().performance,
        [0.96, 1.07, 1.07]
    );
}

#[test]
fn pcr_solves_its_systems_in_table_1s_shape() {
    // Table 1's pcr: 33 registers and 20 shared bytes a thread (five floats of a 128-equation
    // system a thread): 1024 threads, 132 KB of registers, 20 KB shared, 232 KB cache.
    let unified = both(Workload::Pcr, 1);
    assert_eq!(partition(&unified), (1024, 132.0, 20.0, 232.0));
    // At 128 KB, 152 bytes a thread hold 6 CTAs of 128 threads (768).
    let small = execute(Workload::Pcr, Design::Unified128);
    assert_eq!(partition(&small), (768, 99.0, 15.0, 14.0));
    assert_eq!(Workload::Pcr.paper().unwrap().energy, [1.33, 0.92, 0.93]);
}

#[test]
fn srad_runs_the_corpus_kernels_two_a_step() {
    // Two iterations of srad_cuda_1 and srad_cuda_2 on 16 x 16 CTAs; the last launch is
    // srad_cuda_2 (five 16 x 16 float tiles: 20 bytes a thread; srad_cuda_1's six are Table 1's
    // 24), 18 registers.
    let unified = both(Workload::Srad, 4);
    assert_eq!(partition(&unified), (1024, 72.0, 20.0, 292.0));
}

#[test]
fn mummer_walks_its_trie_a_query_a_thread_without_shared_memory() {
    let unified = both(Workload::Mummer, 1);
    // Table 1's GPU-mummer: 21 registers, no shared memory.
    assert_eq!(partition(&unified), (1024, 84.0, 0.0, 300.0));
    assert_eq!(Workload::Mummer.paper().unwrap().name, "GPU-mummer");
}

#[test]
fn fig_7s_programs_run_and_take_no_part_in_table_6s_average() {
    // Shared KB are the last launch's: backprop's adjust_weights has none.
    for (workload, registers, shared_kb, launches) in [
        (Workload::Nn, 13, 0.0, 1),
        (Workload::Hotspot, 22, 12.0, 1),
        (Workload::VectorAdd, 9, 0.0, 1),
        (Workload::Backprop, 17, 0.0, 2),
        (Workload::Aes, 28, 24.0, 1),
        (Workload::Haar, 14, 8.0, 1),
    ] {
        let unified = both(workload, launches);
        let (threads, registers_kb, shared, _) = partition(&unified);
        assert_eq!(threads, 1024, "{}", workload.name());
        assert_eq!(registers_kb, 4.0 * registers as f64, "{}", workload.name());
        assert_eq!(shared, shared_kb, "{}", workload.name());
        assert!(workload.fig7() && !workload.in_average() && workload.paper().is_none());
    }
}

// The Rust references the programs are checked against, checked themselves on small cases
// worked another way.

use warpstep::experiment::unified_fig7::hotspot_step;
use warpstep::experiment::unified_programs::{
    check_close, lu_matrix, lu_reference, srad_step, suffix_trie, thomas, trie_match,
};

#[test]
fn lu_reference_factors_multiply_back_to_the_matrix() {
    let n = 32;
    let a = lu_matrix(n);
    let lu = lu_reference(&a, n);
    for i in 0..n {
        for j in 0..n {
            // (L U)[i][j] with L's unit diagonal.
            let product: f64 = (0..=i.min(j))
                .map(|k| {
                    let l = if k == i { 1.0 } else { lu[i * n + k] };
                    l * lu[k * n + j]
                })
                .sum();
            assert!((product - a[i * n + j] as f64).abs() < 1e-9, "({i}, {j})");
        }
    }
}

#[test]
fn thomas_solves_the_tridiagonal_system() {
    let a = [0.0, 1.0, -0.5, 0.25];
    let b = [4.0, 3.0, 5.0, 2.0];
    let c = [1.0, -1.0, 0.5, 0.0];
    let d = [1.0, 2.0, -3.0, 0.5];
    let x = thomas(&a, &b, &c, &d);
    for i in 0..4 {
        let left = if i > 0 { a[i] as f64 * x[i - 1] } else { 0.0 };
        let right = if i < 3 { c[i] as f64 * x[i + 1] } else { 0.0 };
        let residual = left + b[i] as f64 * x[i] + right - d[i] as f64;
        assert!(residual.abs() < 1e-12, "row {i}: {residual}");
    }
}

#[test]
fn the_suffix_trie_matches_the_longest_prefix_found_in_the_text() {
    let text = [0u8, 1, 2, 0, 1, 3, 2, 2, 0, 1, 2, 3];
    let trie = suffix_trie(&text, 6);
    // Worked by search: the longest prefix of the query that occurs in the text, at most 6.
    let naive = |q: &[u8]| {
        (0..=q.len().min(6))
            .rev()
            .find(|&l| text.windows(l.max(1)).any(|w| l == 0 || w == &q[..l]))
            .unwrap() as i32
    };
    for query in [
        vec![0, 1, 2, 3, 0, 0],
        vec![0, 1, 3, 2, 2, 0, 1],
        vec![3, 3],
        vec![2, 2, 0, 1, 2, 3, 1],
        vec![1, 0],
    ] {
        assert_eq!(trie_match(&trie, &query), naive(&query), "{query:?}");
    }
    assert_eq!(trie_match(&trie, &[0, 1, 2, 0]), 4);
    assert_eq!(trie_match(&trie, &[3, 3]), 1);
}

#[test]
fn a_flat_image_does_not_diffuse_and_a_flat_chip_cools_towards_80() {
    // SRAD: no gradients, no change.
    let mut j = vec![2.0f64; 16 * 16];
    srad_step(&mut j, 16, 16, 0.5, 0.5);
    assert!(j.iter().all(|&v| v == 2.0));
    // A single bright pixel spreads to its four neighbours and dims.
    let mut j = vec![1.0f64; 8 * 8];
    j[3 * 8 + 3] = 2.0;
    srad_step(&mut j, 8, 8, 0.5, 0.5);
    assert!(j[3 * 8 + 3] < 2.0 && j[2 * 8 + 3] > 1.0 && j[3 * 8 + 4] > 1.0);
    assert_eq!(j[0], 1.0);
    // hotspot: no power, uniform 90: every cell moves towards the ambient 80 by one amount.
    let t = vec![90.0f64; 4 * 4];
    let out = hotspot_step(&t, &[0.0; 16], 4, [1.0, 1.0, 1.0, 10.0, 0.5]);
    assert!(out
        .iter()
        .all(|&v| (v - (90.0 + 0.5 * (80.0 - 90.0) / 10.0)).abs() < 1e-12));
}

#[test]
fn check_close_names_the_worst_element() {
    assert!(check_close(&[1.0, 2.0], &[1.0, 2.0000001], 1e-6, 1.0, "x").is_ok());
    let err = check_close(&[1.0, 2.5], &[1.0, 2.0], 1e-3, 1.0, "x").unwrap_err();
    assert!(err.contains("element 1 is 2.5 against 2"), "{err}");
    assert!(check_close(&[f32::NAN], &[1.0], 1e-3, 1.0, "x").is_err());
    assert!(check_close(&[1.0], &[1.0, 2.0], 1e-3, 1.0, "x").is_err());
}
