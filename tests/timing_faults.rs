//! Faults and deadlocks in the timing model (issue 4: deadlock detection): the book's Fig. 3.5
//! spin lock and a barrier deadlock end with a report naming each live warp's PC, line and
//! SIMT stack, not a hang; a memory fault stops the run with the same message as the functional
//! model.

mod common;

use common::*;
use warpstep::sim::{Sim, Status};

fn timing(ptx: &str, flags: &[&str]) -> Sim {
    let mut sim = prepare_flags(ptx, flags).into_sim(&[]).expect("sim");
    sim.run(10_000_000);
    sim
}

fn failure(sim: &Sim) -> String {
    match sim.status() {
        Status::Failed(e) => e.to_string(),
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn the_fig_3_5_spin_lock_is_reported_as_a_deadlock() {
    for arch in ["sm_52", "sm_80"] {
        let ptx = data(&format!("kernels/spinlock.{arch}.ptx"));
        let sim = timing(
            &ptx,
            &[
                "--block",
                "32",
                "--arg",
                "s32[1]=0",
                "--arg",
                "s32[1]=0",
                "--set",
                "core.deadlock_cycles=2000",
            ],
        );
        let report = failure(&sim);
        assert!(
            report.starts_with("deadlock: no forward progress for 2000 cycles"),
            "{report}"
        );
        // Lane 0 won the lock and waits at the reconvergence point; lanes 1-31 spin.
        assert!(report.contains("CTA (0,0,0) warp 0 at PC "), "{report}");
        assert!(
            report.contains("lanes 0xfffffffe, SIMT stack ["),
            "{report}"
        );
        // Stopped soon after the last progress, far before --max-cycles.
        assert!(sim.cycle() < 10_000, "{}", sim.cycle());
    }
}

#[test]
fn a_barrier_deadlock_is_reported_with_every_warp() {
    let ptx = data("faults/barrier_deadlock.ptx");
    let sim = timing(
        &ptx,
        &[
            "--block",
            "96",
            "--arg",
            "u32[1]=0",
            "--set",
            "core.deadlock_cycles=500",
        ],
    );
    let report = failure(&sim);
    assert!(report.starts_with("deadlock:"), "{report}");
    for w in 0..3 {
        assert!(
            report.contains(&format!("CTA (0,0,0) warp {w} at PC")),
            "{report}"
        );
    }
    assert!(report.contains("last cycle: barrier"), "{report}");
    // Each warp is shown at the bar.sync it waits at, not after it.
    assert_eq!(report.matches("`bar.sync 1;`").count(), 2, "{report}");
    assert_eq!(report.matches("`bar.sync 0;`").count(), 1, "{report}");
}

#[test]
fn a_memory_fault_stops_the_timing_run_with_the_functional_message() {
    // 2 blocks of 64 threads read a 100-element buffer: thread 36 of CTA 1 is the first past
    // its end (both models blame the lowest faulting lane).
    let ptx = data("faults/oob_load.ptx");
    let flags = [
        "--grid",
        "2",
        "--block",
        "64",
        "--arg",
        "u32[100]=iota",
        "--arg",
        "u32[128]=0",
    ];
    let (_, report) = run_report(&ptx, &flags);
    let functional = report.error.expect("functional fault");
    let sim = timing(&ptx, &flags);
    let timing_error = failure(&sim);
    assert_eq!(timing_error, functional);
    assert!(timing_error.contains("out-of-bounds"), "{timing_error}");
}
