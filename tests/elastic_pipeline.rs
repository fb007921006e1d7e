//! The micro-timelines of Elastic (Gou & Gaydadjiev, CF'11) section 3, on the SM itself:
//! Fig. 4(a) (the in-order pipeline: a bank conflict in MEM0 stalls issue, then a writeback
//! bubble), Fig. 4(b) (the split pipeline: the stall moves to writeback, where the delayed
//! shared access collides with the next warp's result) and Fig. 5 (the elastic pipeline: no
//! stall, and W_i+1 commits before W_i).
//!
//! `tests/data/kernels/elastic_timeline.ptx` has three 8-thread warps reach W_i (warp 0, a
//! shared load of conflict degree 2), W_i+1 and W_i+2 (warps 1 and 2, an add) in consecutive
//! issue cycles. The `teaching` preset is one 8-wide SIMD pass per warp (the paper's one lane);
//! with 2 memory stages, a 1-cycle add and a 2-cycle shared latency, an add and a conflict-free
//! shared access reach writeback in the same number of cycles after register read, as the
//! paper's stages do: 1 cycle each.

mod common;

use std::collections::BTreeMap;
use warpstep::core::WarpCycle;
use warpstep::sim::{Sim, Status};

const LOAD: u32 = 11; // ld.shared.u32 (W_i, warp 0)
const ADD: u32 = 13; // add.u32 (W_i+1, W_i+2: warps 1 and 2)

/// What one run shows, cycle by cycle.
#[derive(Debug, Default)]
struct Timeline {
    /// Issue cycle of W_i, W_i+1, W_i+2.
    issued: [u64; 3],
    /// Writeback cycle of each.
    committed: [u64; 3],
    /// Cycles in which W_i held MEM0.
    in_mem0: Vec<u64>,
    /// Cycles in which no warp could issue because an instruction could not leave EXE, and why.
    exe_stalls: BTreeMap<u64, WarpCycle>,
}

fn run(mode: &str) -> Timeline {
    run_with(mode, &[])
}

/// [`run`] with more `--set` overrides after the figure's own.
fn run_with(mode: &str, extra: &[&str]) -> Timeline {
    let ptx = common::data("kernels/elastic_timeline.ptx");
    let flags = [
        "--config",
        "teaching",
        "--kernel",
        "fig4",
        "--grid",
        "1",
        "--block",
        "24",
        "--arg",
        "u32[24]=0",
        "--set",
        mode,
        "--set",
        "elastic.mem_stages=2",
        "--set",
        "units.int.add.latency=1",
        "--set",
        "core.strict_barrel=true",
    ];
    let mut flags: Vec<&str> = flags.to_vec();
    for set in extra {
        flags.extend(["--set", set]);
    }
    let mut sim: Sim = common::prepare_flags(&ptx, &flags)
        .into_sim(&[])
        .expect("sim");
    sim.set_tracing(true);
    let mut t = Timeline::default();
    while sim.status() == &Status::Running && sim.cycle() < 1000 {
        let now = sim.cycle();
        sim.step();
        let sm = &sim.sms()[0];
        if let Some(m) = sm.ldst().mem0() {
            let warp = sm
                .in_flight()
                .iter()
                .find(|f| f.tag == m.tag)
                .map(|f| f.warp);
            if warp == Some(0) && m.shared {
                // Latched at the end of this cycle: MEM0 works on it in the next.
                t.in_mem0.push(now + 1);
            }
        }
        if let Some(r) = sm.exe_stall() {
            t.exe_stalls.insert(now, r);
        }
    }
    assert_eq!(sim.status(), &Status::Completed);
    for ev in sim.take_trace() {
        if let Some(i) = which(ev.warp, ev.pc) {
            t.issued[i] = ev.cycle;
        }
    }
    for ev in sim.take_commits() {
        if let Some(i) = which(ev.warp, ev.pc) {
            t.committed[i] = ev.cycle;
        }
    }
    t
}

/// 0, 1, 2 for W_i, W_i+1, W_i+2.
fn which(warp: u32, pc: u32) -> Option<usize> {
    match (warp, pc) {
        (0, LOAD) => Some(0),
        (1 | 2, ADD) => Some(warp as usize),
        _ => None,
    }
}

/// The EXE stalls from W_i's issue to the last of the three writebacks, relative to W_i's issue
/// (the kernel's prologue and epilogue have stalls of their own).
fn stalls_around(t: &Timeline) -> Vec<(i64, WarpCycle)> {
    let (from, to) = (t.issued[0], *t.committed.iter().max().unwrap());
    t.exe_stalls
        .range(from..=to)
        .map(|(&c, &r)| (c as i64 - from as i64, r))
        .collect()
}

/// The cycles relative to W_i's issue.
fn relative(t: &Timeline, cycles: &[u64]) -> Vec<i64> {
    cycles
        .iter()
        .map(|&c| c as i64 - t.issued[0] as i64)
        .collect()
}

#[test]
fn fig_4a_in_order_a_conflict_in_mem0_stalls_issue_for_a_cycle() {
    let t = run("elastic.baseline=in_order");
    // W_i is read at +1 and holds MEM0 for its two passes (+2, +3).
    assert_eq!(relative(&t, &t.in_mem0), [2, 3]);
    // W_i+1 cannot follow it into MEM0 at +2: nothing issues that cycle, so W_i+2 issues at +3.
    assert_eq!(relative(&t, &t.issued), [0, 1, 3]);
    assert_eq!(stalls_around(&t), [(2, WarpCycle::BankConflict)]);
    // Writeback in order, after a bubble at +5 where a conflict-free W_i would have been.
    assert_eq!(relative(&t, &t.committed), [6, 7, 8]);
}

#[test]
fn fig_4b_split_the_stall_moves_to_a_writeback_conflict() {
    let t = run("elastic.baseline=split");
    assert_eq!(relative(&t, &t.in_mem0), [2, 3]);
    // W_i+1 takes the NONMEM path while W_i waits in MEM0: no stall at issue.
    assert_eq!(relative(&t, &t.issued), [0, 1, 2]);
    // The delayed W_i and W_i+1 reach writeback together at +6; W_i wins, W_i+1's NONMEM path
    // stands still for a cycle and so does issue: a stall caused by the bank conflict.
    assert_eq!(stalls_around(&t), [(6, WarpCycle::BankConflict)]);
    assert_eq!(relative(&t, &t.committed), [6, 7, 8]);
}

#[test]
fn fig_5_elastic_no_stall_and_the_next_warps_commit_first() {
    let t = run("elastic.enabled=true");
    assert_eq!(relative(&t, &t.in_mem0), [2, 3]);
    assert_eq!(relative(&t, &t.issued), [0, 1, 2]);
    assert_eq!(stalls_around(&t), []);
    // The adds are forwarded to writeback as soon as they are done: out of order across warps.
    assert_eq!(relative(&t, &t.committed), [6, 4, 5]);
}

/// The pipeline view's data (`snapshot().sm.back_end`) follows the same run: in the split
/// pipeline the cycle after W_i entered MEM0 shows it replaying its conflict there, and at
/// +6 the writeback mux chose W_i while W_i+1 waits.
/// Cycles from W_i's last cycle in MEM0 to its writeback.
fn after_mem0(t: &Timeline) -> u64 {
    t.committed[0] - t.in_mem0.last().expect("W_i passed MEM0")
}

#[test]
fn a_shared_access_passes_mem_stages_latches_in_the_paper_pipelines() {
    for mode in ["elastic.baseline=split", "elastic.enabled=true"] {
        let two = after_mem0(&run(mode));
        let three = after_mem0(&run_with(mode, &["elastic.mem_stages=3"]));
        assert_eq!(
            three,
            two + 1,
            "{mode}: one more memory stage, one more cycle"
        );
        // shmem.latency is the decoupled back end's figure: not read here.
        let slow = after_mem0(&run_with(mode, &["shmem.latency=9"]));
        assert_eq!(slow, two, "{mode}");
    }
    // The decoupled back end reads shmem.latency and not elastic.mem_stages.
    let decoupled = "elastic.baseline=decoupled";
    let two = after_mem0(&run(decoupled));
    assert_eq!(
        after_mem0(&run_with(decoupled, &["elastic.mem_stages=3"])),
        two
    );
    assert_eq!(
        after_mem0(&run_with(decoupled, &["shmem.latency=9"])),
        two + 7
    );
}

#[test]
fn the_back_end_view_shows_mem0_replaying_and_the_writeback_winner() {
    let t = run("elastic.baseline=split");
    let ptx = common::data("kernels/elastic_timeline.ptx");
    let flags = [
        "--config",
        "teaching",
        "--kernel",
        "fig4",
        "--grid",
        "1",
        "--block",
        "24",
        "--arg",
        "u32[24]=0",
        "--set",
        "elastic.baseline=split",
        "--set",
        "elastic.mem_stages=2",
        "--set",
        "units.int.add.latency=1",
        "--set",
        "core.strict_barrel=true",
    ];
    let mut sim = common::prepare_flags(&ptx, &flags)
        .into_sim(&[])
        .expect("sim");
    // After cycle +2 (W_i's first pass), MEM0 holds only conflict passes.
    while sim.cycle() <= t.issued[0] + 2 {
        sim.step();
    }
    let b = warpstep::snapshot::snapshot(&sim, 0).sm.back_end;
    assert_eq!((b.mode, b.mem_stages), ("split", 2));
    let m0 = b.mem0.expect("W_i in MEM0");
    assert_eq!((m0.warp, m0.instr.pc, m0.cycles_left), (0, LOAD, 1));
    assert!(m0.shared && m0.replaying_conflict);
    assert_eq!(b.premem_depth, 0);
    assert_eq!(b.nonmem_capacity, Some(0));
    while sim.cycle() <= t.issued[0] + 6 {
        sim.step();
    }
    let b = warpstep::snapshot::snapshot(&sim, 0).sm.back_end;
    let winners: Vec<_> = b.committed.iter().map(|(w, i)| (*w, i.pc)).collect();
    assert_eq!(winners, [(0, LOAD)]);
    let waiting: Vec<_> = b
        .nonmem_waiting
        .iter()
        .map(|u| (u.warp, u.instr.pc))
        .collect();
    assert_eq!(waiting, [(1, ADD)]);
    assert_eq!(b.exe_stall, Some("bank_conflict"));
}

/// `elastic_stride.ptx` on `elastic-cf11` (32 warps, a shared load of degree gcd(stride, 8) in
/// a loop) with `sets`.
fn stride_flags(stride: &str, sets: &[&'static str]) -> Vec<String> {
    let mut flags: Vec<String> = [
        "--config",
        "elastic-cf11",
        "--kernel",
        "stride_loop",
        "--grid",
        "4",
        "--block",
        "256",
        "--arg",
        "u32[1024]=0",
        "--arg",
        stride,
    ]
    .map(String::from)
    .to_vec();
    for s in sets {
        flags.extend(["--set".to_string(), s.to_string()]);
    }
    flags
}

/// What [`stride_loop`] measures.
struct StrideRun {
    cycles: u64,
    /// `bank_conflict` scheduler stall cycles over the whole run.
    stalls: u64,
    /// Cycles in which an instruction could not leave EXE for a bank conflict, from the first
    /// time a warp came round the loop to the load again (every warp had executed it once).
    exe_stalls_after_first_lap: u64,
    /// The history cache's under-predictions.
    under: u64,
}

/// Line of the loop's `ld.shared` in `elastic_stride.ptx`.
const STRIDE_LOAD_LINE: u32 = 29;

fn stride_loop(stride: u32, sets: &[&'static str]) -> StrideRun {
    let ptx = common::data("kernels/elastic_stride.ptx");
    let flags = stride_flags(&stride.to_string(), sets);
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    common::assert_timing_matches_functional(&ptx, &flags);
    let mut sim = common::prepare_flags(&ptx, &flags)
        .into_sim(&[])
        .expect("sim");
    sim.set_tracing(true);
    let mut exe_stalls = Vec::new();
    while sim.status() == &Status::Running && sim.cycle() < 1_000_000 {
        let now = sim.cycle();
        sim.step();
        let stalled = sim.sms().iter().filter_map(|sm| sm.exe_stall());
        exe_stalls.extend(
            stalled
                .filter(|r| *r == WarpCycle::BankConflict)
                .map(|_| now),
        );
    }
    assert_eq!(sim.status(), &Status::Completed);
    let mut loads_seen = std::collections::BTreeSet::new();
    let second_lap = sim
        .take_trace()
        .into_iter()
        .filter(|ev| ev.line == STRIDE_LOAD_LINE)
        .find(|ev| !loads_seen.insert((ev.sm, ev.warp)))
        .expect("the loop runs twice")
        .cycle;
    let stats = sim.stats();
    StrideRun {
        cycles: sim.cycle(),
        stalls: stats.stalls.get("bank_conflict").copied().unwrap_or(0),
        exe_stalls_after_first_lap: exe_stalls.iter().filter(|&&c| c >= second_lap).count() as u64,
        under: stats.conflict_history.map_or(0, |h| h.under),
    }
}

/// §3.2.1: with the safe distance kept, the elastic pipeline absorbs a conflict of any degree.
/// The distance is kept from issue. The warps that issue the load before the history cache
/// knows it (cold misses, under-predicted) queue behind each other in PREMEM and MEM0, and the
/// warps after them wait in that queue during the first lap; from the first warp's second lap
/// on, every prediction is right and there is no bank-conflict stall at all, at any degree.
#[test]
fn elastic_with_the_scheduler_absorbs_conflicts_of_any_degree() {
    let baseline = ["elastic.baseline=split", "core.scheduler=lrr"];
    let enhanced = ["elastic.enabled=true", "core.scheduler=bank_conflict_aware"];
    for (stride, degree) in [(1, 1), (2, 2), (4, 4), (8, 8)] {
        let base = stride_loop(stride, &baseline);
        let run = stride_loop(stride, &enhanced);
        assert_eq!(run.exe_stalls_after_first_lap, 0, "degree {degree}");
        if degree == 1 {
            assert_eq!((base.stalls, run.stalls, run.under), (0, 0, 0));
            assert_eq!(run.cycles, base.cycles);
            continue;
        }
        // Split: each warp's extra passes, 4 x (degree - 1), mostly stall issue, on every lap.
        assert!(
            base.stalls >= 512 * 3 * (degree - 1),
            "degree {degree}: {}",
            base.stalls
        );
        assert!(base.exe_stalls_after_first_lap > 0, "degree {degree}");
        // Elastic + scheduler: only the first lap's queue, a few percent of split's.
        assert!(
            run.stalls * 100 <= base.stalls * 6,
            "degree {degree}: {} of {}",
            run.stalls,
            base.stalls
        );
        assert!(
            run.under <= 3,
            "degree {degree}: {} under-predictions",
            run.under
        );
        assert!(run.cycles < base.cycles, "degree {degree}");
    }
}

/// The variant §5.2 set aside (footnote 10, `elastic.relaxed_mask`): when the mask leaves no
/// warp to issue, a masked memory warp goes anyway. It trades scheduling fails for bank-conflict
/// stalls: none of the first are left, and more of the second appear.
#[test]
fn the_relaxed_mask_trades_scheduling_fails_for_bank_conflicts() {
    let strict = ["elastic.enabled=true", "core.scheduler=bank_conflict_aware"];
    let relaxed = [strict[0], strict[1], "elastic.relaxed_mask=true"];
    let fails = |sets: &[&'static str]| {
        let ptx = common::data("kernels/elastic_stride.ptx");
        let flags = stride_flags("8", sets);
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let stalls = common::assert_timing_matches_functional(&ptx, &flags)
            .stats()
            .stalls;
        let get = |k: &str| stalls.get(k).copied().unwrap_or(0);
        (get("scheduling_fail"), get("bank_conflict"))
    };
    let (strict_fails, strict_conflicts) = fails(&strict);
    let (relaxed_fails, relaxed_conflicts) = fails(&relaxed);
    assert!(strict_fails > 0);
    assert_eq!(relaxed_fails, 0);
    assert!(relaxed_conflicts > strict_conflicts);
}
