//! The unified memory's allocation at kernel launch (Gebhart et al., MICRO'12, §4.5), golden
//! from the paper: Table 1's register and shared-memory figures for the eight benchmarks of
//! Fig. 8, divided out of 384 KB (Fig. 8's partitions; the text gives bfs 36 KB of registers,
//! dgemm 228 KB, needle 264 KB of shared memory), and needle at 256 and 128 KB. Also
//! `warpstep occupancy`, the calculator on the command line.

use std::process::Command;
use warpstep::config::{Config, UnifiedMode};
use warpstep::core::unified_partition::{Partition, PoolShape, StorageDemand};

fn pool(capacity_kb: u32) -> PoolShape {
    let mut shape = PoolShape::of(&Config::preset("unified-micro12").expect("preset"));
    shape.capacity_bytes = capacity_kb * 1024;
    shape
}

/// KB to a tenth, as the paper prints them.
fn kb(bytes: u32) -> f64 {
    (f64::from(bytes) / 1024.0 * 10.0).round() / 10.0
}

/// (threads, registers KB, shared KB, cache KB) for Table 1's per-thread figures.
fn divide(capacity_kb: u32, registers: u32, shared_per_thread: f64) -> (u32, f64, f64, f64) {
    let demand = StorageDemand {
        registers_per_thread: registers,
        shared_bytes_per_thread: shared_per_thread,
        threads_per_cta: 1,
    };
    let p = Partition::divide(&pool(capacity_kb), &demand).expect("fits");
    (
        p.threads,
        kb(p.register_bytes),
        kb(p.shared_bytes),
        kb(p.cache_bytes),
    )
}

#[test]
fn figure_8_partitions_of_384_kb() {
    // Table 1: registers per thread (no spills), shared bytes per thread.
    let rows = [
        ("bfs", 9, 0.0, (1024, 36.0, 0.0, 348.0)),
        ("dgemm", 57, 66.5, (1024, 228.0, 66.5, 89.5)),
        ("needle", 18, 264.1, (1024, 72.0, 264.1, 47.9)),
        ("lu", 20, 96.0, (1024, 80.0, 96.0, 208.0)),
        ("GPU-mummer", 21, 0.0, (1024, 84.0, 0.0, 300.0)),
        ("pcr", 33, 20.0, (1024, 132.0, 20.0, 232.0)),
        ("ray", 42, 0.0, (1024, 168.0, 0.0, 216.0)),
        ("srad", 18, 24.0, (1024, 72.0, 24.0, 288.0)),
    ];
    for (name, regs, shared, want) in rows {
        assert_eq!(divide(384, regs, shared), want, "{name}");
        // Table 1, column 8: the register file at full occupancy.
        assert_eq!(want.1, f64::from(4 * regs), "{name}");
    }
}

#[test]
fn needle_runs_fewer_threads_in_smaller_pools() {
    // 336.1 bytes a thread: 262,144 / 336.1 = 779.9 and 131,072 / 336.1 = 390.0 (389.98).
    assert_eq!(divide(256, 18, 264.1).0, 779);
    assert_eq!(divide(128, 18, 264.1).0, 389);
    // In whole CTAs of 32 threads (needle with BLOCK_SIZE 32: 8,452 shared bytes a CTA, the
    // 264.1 a thread of Table 1): 24 and 12 CTAs.
    let cta = StorageDemand::for_launch(18, 8452, 32);
    let threads = |kb| Partition::divide(&pool(kb), &cta).expect("fits").threads;
    assert_eq!((threads(384), threads(256), threads(128)), (1024, 768, 384));
}

#[test]
fn the_fermi_like_design_keeps_256_kb_of_registers() {
    // §6.3: 384 KB as a 256 KB register file and 96/32 or 32/96 KB of shared memory and cache.
    let mut shape = pool(384);
    shape.mode = UnifiedMode::Fermi;
    let split = |regs, shared| {
        let d = StorageDemand {
            registers_per_thread: regs,
            shared_bytes_per_thread: shared,
            threads_per_cta: 1,
        };
        let p = Partition::divide(&shape, &d).expect("fits");
        (
            p.threads,
            kb(p.register_bytes),
            kb(p.shared_bytes),
            kb(p.cache_bytes),
        )
    };
    assert_eq!(
        split(9, 0.0),
        (1024, 256.0, 32.0, 96.0),
        "bfs: the larger cache"
    );
    assert_eq!(
        split(18, 24.0),
        (1024, 256.0, 32.0, 96.0),
        "srad: 24 KB of shared fits 32"
    );
    assert_eq!(
        split(20, 96.0),
        (1024, 256.0, 96.0, 32.0),
        "lu: 96 KB of shared"
    );
    // dgemm's 57 registers: a 256 KB file holds 1149 threads; 1024 run.
    assert_eq!(split(57, 66.5).0, 1024);
}

fn occupancy(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_warpstep"))
        .arg("occupancy")
        .args(args)
        .output()
        .expect("runs")
}

#[test]
fn the_occupancy_calculator_prints_the_partition_as_json() {
    let out = occupancy(&["--regs", "57", "--smem-per-thread", "66.5", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["threads"], 1024);
    assert_eq!(v["registers_kb"], 228.0);
    assert_eq!(v["shared_kb"], 66.5);
    assert_eq!(v["cache_kb"], 89.5);
    let out = occupancy(&[
        "--regs",
        "18",
        "--smem-per-cta",
        "8452",
        "--block",
        "32",
        "--capacity",
        "256K",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["threads"], 768);
}

#[test]
fn the_occupancy_calculator_names_bad_input() {
    let out = occupancy(&["--regs", "255", "--block", "1024", "--capacity", "128K"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a CTA of 1024 threads needs 1044480 bytes"),
        "{err}"
    );
    let out = occupancy(&["--regs", "9", "--capacity", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'lots' is not a capacity"));
}
