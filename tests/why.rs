//! "Why?" chains (issue 17): the causal chain behind a stalled warp or an idle lane, read from
//! the model ([`warpstep::why`]), checked on the examples the app ships.

mod common;

use common::{data, prepare_flags, BOOK_WARP4};
use warpstep::sim::Sim;
use warpstep::why::{explain, Why};

fn sim(ptx: &str, flags: &[&str]) -> Sim {
    let mut sim = prepare_flags(ptx, flags).into_sim(&[]).expect("sim");
    sim.set_record_warp_states(true);
    sim
}

/// Steps `sim` until some warp of SM 0 is in `state`; returns its chain.
fn until_state(sim: &mut Sim, state: &str, max: u64) -> Why {
    while sim.cycle() < max && !sim.finished() {
        sim.step();
        let slots = sim.sms()[0].warps().len() as u32;
        for w in 0..slots {
            if let Ok(why) = explain(sim, 0, w, None) {
                if why.state == state {
                    return why;
                }
            }
        }
    }
    panic!("no warp in {state} by cycle {}", sim.cycle());
}

fn kinds(why: &Why) -> Vec<&'static str> {
    why.links.iter().map(|l| l.kind).collect()
}

fn flags(line: &str) -> Vec<&str> {
    line.split(' ').collect()
}

const ATAX: &str = "--kernel atax_1 --grid 1 --block 128 --arg f32[1048576]=rand:1 --arg f32[1024]=rand:2 --arg f32[1024]=0 --arg 1024 --config tesla-c2050-s";
const COLUMN_WALK: &str =
    "--config tesla-c2050-s --block 32 --arg f32[32768]=rand:1 --arg f32[32]=0 --arg 1024 --arg 16";
const TRANSPOSE: &str = "--kernel transpose_naive --grid 2,2 --block 32,32 --arg f32[4096]=iota --arg f32[4096]=0 --arg 64 --arg 64 --config fermi";

fn link<'a>(why: &'a Why, kind: &str) -> &'a warpstep::why::Link {
    why.links
        .iter()
        .find(|l| l.kind == kind)
        .unwrap_or_else(|| panic!("no {kind} link in {:#?}", why.links))
}

/// The MRPB paper's Fig. 2 pattern on one warp: a load of 32 lines of one set. The chain goes
/// from the stalled warp to the load, its refusals, the set's reserved ways and the fill the
/// set waits for, with values the model holds.
#[test]
fn a_long_scoreboard_stall_leads_to_the_reserved_set() {
    let mut s = sim(&data("mem/column_walk.ptx"), &flags(COLUMN_WALK));
    while s.cycle() < 1_500 {
        s.step();
    }
    let why = explain(&s, 0, 0, None).unwrap();
    assert_eq!(why.state, "long_scoreboard");
    assert_eq!(
        kinds(&why)[..6],
        [
            "state",
            "register",
            "instruction",
            "requests",
            "refusal",
            "set"
        ]
    );
    let reg = link(&why, "register");
    assert!(
        reg.text
            .contains("add.f32 (line 39), reads %f2, which ld.global.f32 (line 38)"),
        "{}",
        reg.text
    );
    let instr = link(&why, "instruction");
    // warpstep's own cycle on `fermi` (561 since the operand collector's pipeline registers,
    // `regfile.issue_latch` and `regfile.dispatch_latency`, and EX_WB, `units.result_latch`).
    assert_eq!((instr.line, instr.cycle), (Some(38), Some(561)));
    // Hand-written PTX has no `.loc` lines: no CUDA line is named.
    assert_eq!(instr.source_line, None);
    assert!(why.links.iter().all(|l| !l.text.contains("CUDA line")));
    // The request log agrees with the LD/ST unit's outstanding reads and the L1D's counters.
    let requests = link(&why, "requests");
    assert!(
        requests.text.starts_with("Its 32 requests: 16 misses."),
        "{}",
        requests.text
    );
    assert!(
        requests.text.contains("still in MEM0 with 16 of 32 sent"),
        "{}",
        requests.text
    );
    let refusal = link(&why, "refusal");
    assert!(
        refusal
            .text
            .starts_with("L1D set 0 had every way reserved (an associativity failure), this cycle"),
        "{}",
        refusal.text
    );
    let stats = s.memory().l1ds()[0].stats();
    assert!(stats.reservation_fails.assoc > 0);
    let set = link(&why, "set");
    assert_eq!(set.warps, vec![0]);
    // The ways named are the set's reserved lines now.
    let l1 = s.memory().l1ds()[0].view();
    for line in l1.sets[0].iter() {
        assert_eq!(line.state, warpstep::mem::LineState::Reserved);
        assert!(
            set.text.contains(&format!("{:#x}", line.block)),
            "{} lacks {:#x}",
            set.text,
            line.block
        );
    }
    assert_eq!(kinds(&why).get(6), Some(&"below"), "{:#?}", why.links);
}

/// A load past MEM0: its MSHR entry and where its miss is below the L1D.
#[test]
fn a_miss_is_followed_below_the_l1d() {
    let mut s = sim(&data("kernels/polybench.sm_52.ptx"), &flags(ATAX));
    let why = loop {
        let why = until_state(&mut s, "long_scoreboard", 30_000);
        if why.links.iter().any(|l| l.kind == "mshr") {
            break why;
        }
    };
    let mshr = link(&why, "mshr");
    let entry: u32 = mshr.text["It waits in L1D MSHR ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let view = s.memory().l1ds()[0].view();
    let addr = format!("{:#x}", view.mshrs[entry as usize].addr);
    assert!(
        mshr.text.contains(&addr),
        "{} names MSHR {entry} at {addr}",
        mshr.text
    );
    let after = &kinds(&why)[kinds(&why).iter().position(|k| *k == "mshr").unwrap() + 1..];
    assert!(
        after.contains(&"below") || after.contains(&"data"),
        "{:#?}",
        why.links
    );
}

/// Warps behind a load that MEM0 cannot send see lg_throttle; their chain names MEM0's
/// instruction, its warp and the refusal.
#[test]
fn lg_throttle_names_the_instruction_holding_mem0() {
    let mut s = sim(&data("kernels/polybench.sm_52.ptx"), &flags(ATAX));
    let why = loop {
        let why = until_state(&mut s, "lg_throttle", 60_000);
        if why.links.iter().any(|l| l.kind == "refusal") {
            break why;
        }
    };
    let mem0 = link(&why, "mem0");
    let m = s.sms()[0].ldst().mem0().expect("MEM0 holds an instruction");
    assert_eq!(mem0.warps, vec![m.from.warp]);
    assert!(mem0.text.contains(&format!("of warp {}", m.from.warp)));
    assert!(link(&why, "refusal").text.contains("every way reserved"));
    assert!(!link(&why, "set").warps.is_empty());
}

/// With MRPB on, a load's requests wait in its warp's queue: the chain says how many.
#[test]
fn requests_in_the_mrpb_are_named() {
    let mut f = flags(ATAX);
    f.extend(["--set", "mrpb.enabled=true"]);
    let mut s = sim(&data("kernels/polybench.sm_52.ptx"), &f);
    let why = loop {
        let why = until_state(&mut s, "long_scoreboard", 30_000);
        if why.links.iter().any(|l| l.kind == "mrpb") {
            break why;
        }
    };
    let text = &link(&why, "mrpb").text;
    let n: usize = text.split(' ').next().unwrap().parse().unwrap();
    let q: usize = text
        .split("MRPB queue ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let mrpb = s.sms()[0].ldst().mrpb().expect("MRPB on");
    // The queue named holds that many requests of this warp's load.
    let queue = &mrpb.queues()[q];
    assert!(
        queue.iter().filter(|r| r.from.warp == why.warp).count() >= n,
        "{text}"
    );
    assert!(n >= 1);
    assert!(link(&why, "requests")
        .text
        .contains("went through the MRPB"));
}

/// The transpose's column read: 32 passes in MEM0, 31 of them the conflict's.
#[test]
fn a_bank_conflict_stall_names_the_passes() {
    let mut s = sim(&data("kernels/transpose.sm_52.ptx"), &flags(TRANSPOSE));
    let why = until_state(&mut s, "bank_conflict", 30_000);
    let m = s.sms()[0].ldst().mem0().expect("MEM0 busy");
    assert_eq!(link(&why, "mem0").warps, vec![m.from.warp]);
    let passes = &why
        .links
        .iter()
        .filter(|l| l.kind == "mem0")
        .nth(1)
        .unwrap()
        .text;
    assert!(
        passes.contains(&format!(
            "{} passes done, {} to go; 31 of its passes replay a bank conflict",
            m.passes_done, m.cycles_left
        )),
        "{passes}"
    );
}

/// A warp at bar.sync: the warps still to arrive, which are not at the barrier.
#[test]
fn a_barrier_stall_names_the_warps_still_running() {
    let mut s = sim(&data("kernels/transpose.sm_52.ptx"), &flags(TRANSPOSE));
    let why = until_state(&mut s, "barrier", 30_000);
    let b = link(&why, "barrier");
    // nvcc -lineinfo: PTX line 59 is __syncthreads() on transpose.cu line 11.
    assert!(
        b.text.contains("bar.sync (line 59, CUDA line 11)"),
        "{}",
        b.text
    );
    assert_eq!((b.line, b.source_line), (Some(59), Some(11)));
    let warps = s.sms()[0].warps();
    assert!(!b.warps.is_empty());
    for &w in &b.warps {
        let slot = warps[w as usize].as_ref().unwrap();
        assert!(!slot.at_barrier, "warp {w} named but at the barrier");
    }
    let arrived = warps
        .iter()
        .flatten()
        .filter(|w| {
            w.at_barrier && w.cta_slot == warps[why.warp as usize].as_ref().unwrap().cta_slot
        })
        .count();
    assert!(
        b.text
            .contains(&format!(": {arrived} of 32 warps have arrived")),
        "{}",
        b.text
    );
}

/// A short-scoreboard stall names the ALU producer; not_selected names the warp that issued.
#[test]
fn short_scoreboard_and_not_selected() {
    let mut s = sim(&data("kernels/transpose.sm_52.ptx"), &flags(TRANSPOSE));
    let why = until_state(&mut s, "short_scoreboard", 30_000);
    // A short-latency producer: an ALU or SFU result, or a shared-memory load.
    let producer = &link(&why, "instruction").text;
    assert!(
        producer.contains("issued in cycle") && !producer.contains("ld.global"),
        "{producer}"
    );
    assert!(link(&why, "register").text.contains("(short scoreboard)"));
    let why = until_state(&mut s, "not_selected", 30_000);
    let sched = link(&why, "scheduler");
    assert_eq!(sched.warps.len(), 1);
    let other = explain(&s, 0, sched.warps[0], None).unwrap();
    assert_eq!(other.state, "issued");
    // Its link names the instruction it issued this cycle (the SM's cycle record).
    let issued = s.sms()[0].last_cycle().issued_from(sched.warps[0]).unwrap();
    let text = s.image().func().text(issued.pc).to_string();
    let op = text.split_whitespace().next().unwrap();
    assert!(other.links[0].text.contains(op), "{}", other.links[0].text);
}

/// A lane masked off by divergence (book Figs. 3.2-3.4): it waits in a SIMT stack entry.
#[test]
fn an_idle_lane_waits_in_the_simt_stack() {
    let mut f = BOOK_WARP4.to_vec();
    f.extend(["--set", "core.push_order=fallthrough_last"]);
    let mut s = sim(&data("book_fig3_2.ptx"), &f);
    let mut seen = None;
    while seen.is_none() && !s.finished() {
        s.step();
        for lane in 0..4 {
            let why = explain(&s, 0, 0, Some(lane)).unwrap();
            if why.links[0].kind == "stack" {
                seen = Some((lane, why));
                break;
            }
        }
    }
    let (lane, why) = seen.expect("a lane masked off");
    assert_eq!(why.links.len(), 1);
    let state = s.sms()[0].warp_state(0).unwrap();
    assert_eq!(state.reconvergence.active_mask() & (1 << lane), 0);
    assert!(
        why.links[0].text.starts_with(&format!(
            "Lane {lane} is masked off: it waits in SIMT stack entry"
        )),
        "{}",
        why.links[0].text
    );
    // An active lane's chain is the warp's, after one link.
    let active = (0..4)
        .find(|l| state.reconvergence.active_mask() & (1 << l) != 0)
        .unwrap();
    let why = explain(&s, 0, 0, Some(active)).unwrap();
    assert_eq!(why.links[0].kind, "lane");
    assert_eq!(why.links[1].kind, "state");
}

/// Under convergence barriers a lane outside the split that issues is in another split.
#[test]
fn an_idle_lane_under_convergence_barriers_is_in_another_split() {
    let mut f = BOOK_WARP4.to_vec();
    f.extend(["--set", "core.divergence=convergence_barriers"]);
    let mut s = sim(&data("book_fig3_2.ptx"), &f);
    let mut seen = None;
    while seen.is_none() && !s.finished() {
        s.step();
        seen = (0..4).find_map(|lane| {
            let why = explain(&s, 0, 0, Some(lane)).ok()?;
            (why.links[0].kind == "threads").then_some(why)
        });
    }
    let why = seen.expect("a lane outside the split");
    assert!(
        why.links[0].text.contains("in another warp split"),
        "{}",
        why.links[0].text
    );
    assert!(why.links[0].line.is_some());
}

/// What does not exist is named, never a panic.
#[test]
fn bad_requests_are_named() {
    let mut s = sim(&data("book_fig3_2.ptx"), &BOOK_WARP4);
    assert_eq!(
        explain(&s, 0, 0, None).unwrap_err(),
        "warp slot 0 of SM 0 holds no warp"
    );
    s.step();
    assert_eq!(
        explain(&s, 3, 0, None).unwrap_err(),
        "no SM 3: the machine has 1 SMs"
    );
    assert!(explain(&s, 0, 999, None)
        .unwrap_err()
        .starts_with("no warp slot 999"));
    assert_eq!(
        explain(&s, 0, 0, Some(4)).unwrap_err(),
        "no lane 4: a warp has 4 lanes"
    );
}

/// The scheduler-made states name their scheduler's state: the bank-conflict-aware mask's
/// countdown and prediction (Elastic §4.3), the two-level scheduler's active set, and strict
/// barrel processing's instruction still in flight.
#[test]
fn scheduler_states_name_the_scheduler() {
    let with = |set: &str| {
        let mut f = flags(TRANSPOSE);
        f.extend(["--set", set]);
        sim(&data("kernels/transpose.sm_52.ptx"), &f)
    };
    let mut s = with("core.scheduler=bank_conflict_aware");
    let why = until_state(&mut s, "scheduling_fail", 30_000);
    let mask = s.sms()[0].issue_stage().mask().expect("the mask");
    let text = &link(&why, "scheduler").text;
    assert!(
        text.contains(&format!("for {} more cycles", mask.countdown())),
        "{text}"
    );
    let l = mask.last_lookup().expect("a lookup");
    assert!(
        text.contains(&format!("was predicted {} extra cycles", l.predicted)),
        "{text}"
    );

    let mut s = with("core.scheduler=two_level");
    let why = until_state(&mut s, "inactive", 30_000);
    let set = &link(&why, "scheduler");
    let sched = &s.sms()[0].schedulers()[why.warp as usize % s.sms()[0].schedulers().len()];
    assert_eq!(set.warps, sched.active_set().to_vec());
    assert!(!set.warps.contains(&why.warp));

    let mut s = with("core.strict_barrel=true");
    let why = until_state(&mut s, "barrel", 30_000);
    let instr = link(&why, "instruction");
    let mine: Vec<_> = s.sms()[0]
        .in_flight()
        .iter()
        .filter(|f| f.warp == why.warp)
        .map(|f| f.issued)
        .collect();
    assert!(mine.contains(&instr.cycle.unwrap()), "{instr:?}");
}
