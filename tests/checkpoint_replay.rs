//! Reverse stepping by checkpoints and replay (STYLE.md, Ripes' tst_reverse): going forward,
//! back, forward again in any pattern gives exactly the state of a straight run, and a restored
//! checkpoint re-runs the same trace.

mod common;

use common::*;
use warpstep::checkpoint::Timeline;
use warpstep::sim::Sim;
use warpstep::snapshot::snapshot;

fn sim() -> Sim {
    let ptx = data("kernels/histogram.sm_52.ptx");
    let p = prepare_flags(
        &ptx,
        &[
            "--grid",
            "4",
            "--block",
            "64",
            "--arg",
            "u8[1500]=rand:3",
            "--arg",
            "1500",
            "--arg",
            "u32[64]=0",
        ],
    );
    p.into_sim(&[]).expect("sim")
}

fn state(sim: &Sim) -> String {
    serde_json::to_string(&snapshot(sim, 0)).expect("json")
}

#[test]
fn forward_back_forward_equals_a_straight_run() {
    let mut straight = sim();
    let mut states = vec![state(&straight)];
    while !straight.finished() {
        straight.step();
        states.push(state(&straight));
    }
    assert!(states.len() > 200, "kernel ran {} cycles", states.len());

    let mut s = sim();
    let mut timeline = Timeline::new(&s, 16, 4);
    let pattern = [(50u64, 7u64), (90, 33), (120, 1), (200, 150), (75, 60)];
    for (forward, back) in pattern {
        for _ in 0..forward {
            s.step();
            timeline.observe(&s);
        }
        let target = s.cycle().saturating_sub(back);
        s = timeline.rewind(target);
        timeline.truncate_after(target);
        assert_eq!(s.cycle(), target);
        assert!(
            state(&s) == states[target as usize],
            "state differs at cycle {target}"
        );
    }
    while !s.finished() {
        s.step();
    }
    assert!(state(&s) == *states.last().unwrap(), "final state differs");
}

#[test]
fn a_restored_checkpoint_replays_the_same_trace() {
    let mut a = sim();
    a.set_tracing(true);
    for _ in 0..300 {
        a.step();
    }
    let mut b = a.clone();
    let mut c = a.clone();
    a.take_trace();
    b.take_trace();
    c.take_trace();
    b.run_for(400);
    c.run_for(400);
    let tb = b.take_trace();
    assert!(!tb.is_empty());
    assert_eq!(tb, c.take_trace());
}

#[test]
fn old_checkpoints_are_thinned() {
    let mut s = sim();
    let mut timeline = Timeline::new(&s, 4, 3);
    while !s.finished() {
        s.step();
        timeline.observe(&s);
    }
    let kept = timeline.cycles();
    let taken = s.cycle() / 4;
    assert!(
        kept.len() < taken as usize / 4,
        "kept {} of {taken}",
        kept.len()
    );
    assert_eq!(kept[0], 0);
}

/// The Stats view's IPC and hit-rate history is sampled by the model: it ends at the present,
/// agrees with the run's statistics, is the same however the run was stepped, and goes back
/// with a rewind.
#[test]
fn rate_history_is_sampled_by_the_model_and_rewinds() {
    let mut jump = sim();
    jump.run(u64::MAX);
    let points = jump.rate_history();
    let last = points.last().unwrap();
    assert_eq!(last.cycle, jump.cycle());
    let stats = jump.stats();
    assert!((last.ipc_total - stats.ipc).abs() < 1e-12);
    let hit = stats.l1d.hits as f64 / stats.l1d.accesses as f64;
    assert!((last.hit_total.unwrap() - hit).abs() < 1e-12);
    assert!(points.len() > 10, "{} points", points.len());
    // Interval rates weighted by interval length add up to the whole run's instructions.
    let total: f64 = points
        .windows(2)
        .map(|w| w[1].ipc_interval * (w[1].cycle - w[0].cycle) as f64)
        .sum();
    assert!((total - stats.thread_instructions as f64).abs() < 1e-6);

    let mut stepped = sim();
    let mut timeline = Timeline::new(&stepped, 16, 4);
    while !stepped.finished() {
        stepped.step();
        timeline.observe(&stepped);
    }
    assert_eq!(stepped.rate_history(), points);

    let middle = jump.cycle() / 2;
    let back = timeline.rewind(middle);
    let before: Vec<_> = points.iter().filter(|p| p.cycle < middle).collect();
    let rewound = back.rate_history();
    assert_eq!(rewound.last().unwrap().cycle, middle);
    assert_eq!(rewound.len(), before.len() + 1);
    assert!(rewound.iter().zip(&before).all(|(a, b)| a == *b));
}
