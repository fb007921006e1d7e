//! Unified local memory on the SM (Gebhart et al., MICRO'12; MODEL.md section 11, issue 16):
//! a kernel launched with `unified.enabled` gets the partition `warpstep occupancy` computes,
//! shared memory banked one 16-byte bank per cluster, and its shared and cache accesses lose
//! banks to register reads (arbitration conflicts). The results are the functional run's.

mod common;

use warpstep::config::Config;
use warpstep::core::unified_partition::{Partition, PoolShape, StorageDemand};

/// The standard benchmark's `transpose_naive` (16 CTAs of 32x32 threads, a 4 KB tile) on
/// `unified-micro12` with `sets`.
fn transpose_flags(sets: &[&'static str]) -> Vec<&'static str> {
    let case = warpstep::bench::STANDARD
        .iter()
        .find(|c| c.name == "transpose_naive")
        .expect("a standard case");
    let mut flags = vec!["--config", "unified-micro12"];
    flags.extend_from_slice(case.flags);
    for s in sets {
        flags.extend(["--set", s]);
    }
    flags
}

#[test]
fn a_unified_launch_runs_in_its_partition() {
    let ptx = common::data("kernels/transpose.sm_52.ptx");
    let flags = transpose_flags(&["unified.enabled=true"]);
    let sim = common::assert_timing_matches_functional(&ptx, &flags);
    // 12 registers a thread and a 4,096-byte tile per 1,024-thread CTA: 52 bytes a thread.
    let want = Partition::divide(
        &PoolShape::of(&Config::preset("unified-micro12").unwrap()),
        &StorageDemand::for_launch(12, 4096, 1024),
    )
    .unwrap();
    assert_eq!(sim.partition(), Some(&want));
    assert_eq!(
        (want.threads, want.register_bytes, want.shared_bytes),
        (1024, 48 * 1024, 4096)
    );
    assert_eq!((want.cache_bytes, want.cache_sets), (332 * 1024, 664));
    let u = sim.stats().unified.expect("unified statistics");
    assert_eq!(
        (u.threads, u.registers_kb, u.shared_kb, u.cache_kb),
        (1024, 48.0, 4.0, 332.0)
    );
    // The column read's lanes are 512 bytes apart: every row in cluster 0, column 0, and
    // register reads of bank 0 take it first many times.
    assert!(
        u.arbitration_conflicts > 1000,
        "{}",
        u.arbitration_conflicts
    );
    // Shared memory: the row write is 8 rows of 16 bytes, one per cluster (1 pass); the column
    // read 32 rows in one cluster (32 passes): the same conflict cycles as 32 banks of 4 bytes.
    let shared = sim.stats().shared;
    assert_eq!(shared.instructions, 1024);
    assert_eq!(shared.bank_conflict_cycles, 512 * 31);
}

#[test]
fn the_partitioned_sm_has_no_unified_statistics() {
    let ptx = common::data("kernels/transpose.sm_52.ptx");
    let sim = common::run_timing(&ptx, &transpose_flags(&[]));
    assert_eq!(sim.partition(), None);
    assert!(sim.stats().unified.is_none());
}

#[test]
fn a_cta_too_big_for_the_pool_is_refused_with_the_numbers() {
    let ptx = common::data("kernels/transpose.sm_52.ptx");
    let flags = transpose_flags(&["unified.enabled=true", "unified.capacity_bytes=32768"]);
    let err = common::prepare_flags(&ptx, &flags)
        .into_sim(&[])
        .expect_err("does not fit");
    assert_eq!(
        err.to_string(),
        "unified memory: a CTA of 1024 threads needs 53248 bytes of the 32768-byte unified memory (12 registers a thread)"
    );
}

#[test]
fn regs_sets_the_registers_a_thread_is_given() {
    let ptx = common::data("kernels/transpose.sm_52.ptx");
    let mut flags = transpose_flags(&["unified.enabled=true"]);
    flags.extend(["--regs", "40"]);
    let sim = common::prepare_flags(&ptx, &flags)
        .into_sim(&[])
        .expect("sim");
    // 4 x 40 + 4 = 164 bytes a thread: 384 KB still holds a whole 1024-thread CTA, 2 do not.
    let p = sim.partition().expect("unified");
    assert_eq!((p.threads, p.register_bytes), (1024, 160 * 1024));
    // Fewer than the PTX keeps live (12) is what ptxas may allocate: it sets the partition
    // (4 x 8 + 4 = 36 bytes a thread), and the kernel still runs on its PTX registers.
    let mut few = transpose_flags(&["unified.enabled=true"]);
    few.extend(["--regs", "8"]);
    let sim = common::assert_timing_matches_functional(&ptx, &few);
    let p = sim.partition().expect("unified");
    assert_eq!((p.threads, p.register_bytes), (1024, 32 * 1024));
}
