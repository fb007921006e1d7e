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
