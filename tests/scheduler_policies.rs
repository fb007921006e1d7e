//! Warp scheduling policies observed cycle by cycle in the SM (MODEL.md section 4; issue 4):
//! GTO keeps issuing one warp until it stalls, LRR rotates, two-level never issues outside its
//! active set. Every cycle of a memory-bound kernel is checked through the snapshot.

mod common;

use common::*;
use warpstep::sim::Sim;
use warpstep::snapshot::{snapshot, Snapshot};

fn sim(policy: &str) -> Sim {
    let ptx = data("kernels/histogram.sm_52.ptx");
    let set = format!("core.scheduler={policy}");
    let flags = [
        "--grid",
        "2",
        "--block",
        "256",
        "--arg",
        "u8[6000]=rand:1",
        "--arg",
        "6000",
        "--arg",
        "u32[64]=0",
        "--set",
        &set,
        "--set",
        "core.schedulers_per_sm=2",
        "--set",
        "core.active_warps=3",
    ];
    prepare_flags(&ptx, &flags).into_sim(&[]).expect("sim")
}

/// Steps to the end, calling `check(previous, current)` for every cycle.
fn each_cycle(mut sim: Sim, mut check: impl FnMut(&Snapshot, &Snapshot)) -> u64 {
    let mut prev = snapshot(&sim, 0);
    let mut issues = 0;
    while !sim.finished() {
        sim.step();
        let cur = snapshot(&sim, 0);
        issues += cur
            .sm
            .schedulers
            .iter()
            .filter(|s| s.issued.is_some())
            .count() as u64;
        check(&prev, &cur);
        prev = cur;
    }
    assert_eq!(sim.status(), &warpstep::sim::Status::Completed);
    issues
}

fn state_of(s: &Snapshot, slot: u32) -> &'static str {
    s.sm.warps[slot as usize]
        .as_ref()
        .map_or("idle", |w| w.state)
}

#[test]
fn gto_stays_with_the_last_warp_until_it_stalls() {
    let mut last: Vec<Option<u32>> = vec![None; 2];
    let mut switches = 0;
    let issues = each_cycle(sim("gto"), |_, cur| {
        for (i, s) in cur.sm.schedulers.iter().enumerate() {
            if let (Some(w), Some(prev)) = (s.issued, last[i]) {
                if w != prev {
                    switches += 1;
                    let st = state_of(cur, prev);
                    assert!(
                        st != "not_selected",
                        "cycle {}: GTO left ready warp {prev} for {w}",
                        cur.cycle
                    );
                }
            }
            if s.issued.is_some() {
                last[i] = s.issued;
            }
        }
    });
    assert!(
        issues > 500 && switches > 10,
        "issues {issues}, switches {switches}"
    );
}

#[test]
fn lrr_takes_the_first_ready_warp_after_the_last_one() {
    let mut last: Vec<Option<u32>> = vec![None; 2];
    let mut checked = 0;
    each_cycle(sim("lrr"), |_, cur| {
        for (i, s) in cur.sm.schedulers.iter().enumerate() {
            let (Some(w), Some(prev)) = (s.issued, last[i]) else {
                if s.issued.is_some() {
                    last[i] = s.issued;
                }
                continue;
            };
            let slots = &s.warps;
            let start = slots.iter().position(|&x| x == prev).unwrap();
            for k in 1..slots.len() {
                let slot = slots[(start + k) % slots.len()];
                if slot == w {
                    break;
                }
                assert!(
                    state_of(cur, slot) != "not_selected",
                    "cycle {}: LRR skipped ready warp {slot} between {prev} and {w}",
                    cur.cycle
                );
            }
            checked += 1;
            last[i] = Some(w);
        }
    });
    assert!(checked > 500);
}

#[test]
fn two_level_issues_only_from_its_active_set() {
    let mut outside = 0;
    let mut checked = 0;
    each_cycle(sim("two_level"), |_, cur| {
        for s in &cur.sm.schedulers {
            assert!(s.active_set.len() <= 3);
            if let Some(w) = s.issued {
                checked += 1;
                assert!(
                    s.active_set.contains(&w),
                    "cycle {}: warp {w} issued outside {:?}",
                    cur.cycle,
                    s.active_set
                );
            }
            outside += s
                .warps
                .iter()
                .filter(|&&w| state_of(cur, w) == "inactive")
                .count();
        }
    });
    assert!(
        checked > 500 && outside > 0,
        "checked {checked}, inactive warp-cycles {outside}"
    );
}
