//! One record of each cycle (issue 31 §2): what an SM did in a cycle is in its `CycleRecord`,
//! the counters are folded from those records, and the record agrees with the independent
//! witnesses: `--trace`'s issue events (written by the functional side at issue), the LD/ST
//! unit's MEM0, the cache's counters and the run's totals.

mod common;

use warpstep::core::sm::Sm;
use warpstep::core::WarpCycle;
use warpstep::mem::L1Outcome;
use warpstep::sim::Sim;

/// Totals summed over every SM's record of every cycle.
#[derive(Debug, Default)]
struct Summed {
    cycles: u64,
    issued: u64,
    lanes: u64,
    written: u64,
    stalls: u64,
    requests: u64,
    passes: u64,
    l1d_answers: u64,
}

fn fold_by_hand(sim: &mut Sim, sum: &mut Summed) {
    let now = sim.cycle() - 1;
    let trace = sim.take_trace();
    for sm in sim.sms() {
        let r = sm.last_cycle();
        assert_eq!(r.cycle, now);
        check_against_trace(sm, &trace);
        if !r.worked {
            assert!(
                r.issued.is_empty() && r.writeback.is_empty(),
                "an idle SM did nothing"
            );
            continue;
        }
        sum.cycles += 1;
        sum.issued += r.issued.len() as u64;
        sum.lanes += r
            .issued
            .iter()
            .map(|i| u64::from(i.active_lanes))
            .sum::<u64>();
        sum.written += r.writeback.len() as u64;
        sum.stalls += r
            .schedulers
            .iter()
            .zip(&r.busy)
            .filter(|(c, &busy)| !busy && c.issued.is_none() && c.stall != WarpCycle::Idle)
            .count() as u64;
        sum.requests += r.mem0.took.map_or(0, |(_, n)| u64::from(n));
        if let Some((tag, pass)) = r.mem0.pass {
            assert!(pass >= 1);
            let held = sm.ldst().mem0().map(|m| m.tag);
            let left = sm.ldst().in_flight().iter().any(|&(t, _)| t == tag);
            assert!(
                held == Some(tag) || left,
                "the pass's instruction is in MEM0 or behind it"
            );
            sum.passes += 1;
        }
        let answers = [r.mem0.l1d, r.mem0.mrpb_sent];
        sum.l1d_answers += answers.iter().flatten().count() as u64;
    }
}

/// The record's issued instructions are the trace's issue events of that SM and cycle.
fn check_against_trace(sm: &Sm, trace: &[warpstep::core::sm::IssueEvent]) {
    let r = sm.last_cycle();
    let events: Vec<_> = trace.iter().filter(|e| e.sm == sm.id).collect();
    assert_eq!(events.len(), r.issued.len(), "cycle {}", r.cycle);
    for (e, i) in events.iter().zip(&r.issued) {
        assert_eq!(
            (e.cycle, e.warp, e.pc, e.tag),
            (r.cycle, i.warp, i.pc, i.tag)
        );
        assert_eq!(e.mask.count_ones(), i.active_lanes);
        assert_eq!(r.schedulers[i.scheduler as usize].issued, Some(i.warp));
    }
}

fn run(ptx: &str, flags: &[&str]) -> (Sim, Summed) {
    let mut sim = common::prepare_flags(ptx, flags).into_sim(&[]).unwrap();
    sim.set_tracing(true);
    let mut sum = Summed::default();
    while !sim.finished() {
        sim.step();
        fold_by_hand(&mut sim, &mut sum);
        sim.take_commits();
    }
    (sim, sum)
}

#[test]
fn the_counters_are_the_cycle_records_summed() {
    let ptx = common::data("kernels/transpose.sm_52.ptx");
    for preset in ["fermi", "elastic-cf11", "tesla-c2050-s"] {
        // The elastic preset's CTAs are of 512 threads at most: this one's 1,024 fit its SM.
        let mut flags = vec!["--config", preset, "--set", "core.max_threads_per_cta=1024"];
        flags.extend(common::transpose_64_flags("transpose_naive"));
        let (sim, sum) = run(&ptx, &flags);
        let stats = sim.stats();
        let per_sm: u64 = sim.sms().iter().map(|s| s.stats().cycles).sum();
        assert_eq!(sum.cycles, per_sm, "{preset}");
        assert_eq!(sum.issued, stats.warp_instructions, "{preset}");
        assert_eq!(sum.lanes, stats.thread_instructions, "{preset}");
        assert_eq!(
            sum.written, stats.warp_instructions,
            "{preset}: every one wrote back"
        );
        assert_eq!(sum.stalls, stats.stalls.values().sum::<u64>(), "{preset}");
        let requests: u64 = sim.sms().iter().map(|s| s.stats().global_requests).sum();
        assert_eq!(sum.requests, requests, "{preset}");
        // At least one MEM0 pass per shared instruction, and one more per bank-conflict cycle.
        let shared = &stats.shared;
        assert!(
            sum.passes >= shared.instructions + shared.bank_conflict_cycles,
            "{preset}: {} passes for {} shared instructions and {} conflict cycles",
            sum.passes,
            shared.instructions,
            shared.bank_conflict_cycles
        );
        assert!(
            sum.l1d_answers >= requests,
            "{preset}: every request got an answer"
        );
        assert!(
            sum.issued > 0 && sum.stalls > 0 && sum.passes > 0,
            "{preset}: {sum:?}"
        );
    }
}

#[test]
fn the_record_names_each_l1d_answer_of_mem0() {
    let ptx = common::data("kernels/transpose.sm_52.ptx");
    let flags = common::transpose_64_flags("transpose_naive");
    let mut sim = common::prepare_flags(&ptx, &flags).into_sim(&[]).unwrap();
    let (mut hits, mut misses) = (0, 0);
    while !sim.finished() {
        sim.step();
        for sm in sim.sms() {
            let Some((tag, outcome)) = sm.last_cycle().mem0.l1d else {
                continue;
            };
            let m = sm.ldst();
            let at_mem0 = m.mem0().is_some_and(|m| m.tag == tag);
            assert!(at_mem0 || m.left_mem0(tag), "tag {tag} came from MEM0");
            match outcome {
                L1Outcome::Hit => hits += 1,
                L1Outcome::Pending => misses += 1,
                _ => {}
            }
        }
    }
    // MEM0 sends global loads to the L1D and parameter loads to the constant cache.
    let s = sim.stats();
    let caches = s.l1d.accesses + s.l1c.accesses;
    assert!(misses > 0, "the loads miss the cold caches");
    assert!(hits + misses <= caches, "{hits} + {misses} of {caches}");
    assert_eq!(hits, s.l1d.hits + s.l1c.hits, "every hit was MEM0's");
}
