//! Independent thread scheduling (issue 15; Aamodt, Fung & Rogers §3.1.2, Figs. 3.5-3.11):
//! `core.divergence = convergence_barriers` against the SIMT stack, on the book's examples.
//!
//! - Fig. 3.5's spin lock deadlocks under the stack (tests/timing_faults.rs) and completes under
//!   convergence barriers, every thread taking the lock once; without YIELD it does not.
//! - Fig. 3.11: the lock holder's critical section runs between the waiters' spins.
//! - Figs. 3.9/3.10: A B then X Y under the stack and lowest-PC splits, interleaved under
//!   round-robin splits, one Z for the whole warp in every mode.
//! - Fig. 3.8: the barrier masks and thread states after each instruction, as values.
//! - Warp-synchronous instructions in divergent code: an error under the stack, the ISA's
//!   results under convergence barriers; a deadlock between a WAIT and a `bar.warp.sync`.
//! - Both modes give the same results and instruction counts on structured code (every
//!   `run_ok` in the suite also checks results under round-robin splits).

mod common;

use common::*;
use warpstep::config::SplitPolicy;
use warpstep::exec::convergence_state::ThreadState::{self, Blocked, Exited, Ready};
use warpstep::exec::cta::CtaState;
use warpstep::exec::execute::{execute, AccessRecord, Env, Memories};
use warpstep::exec::functional::register_masks;
use warpstep::exec::LaneMask;
use warpstep::ptx::Pc;
use warpstep::sim::{Sim, Status};

const BARRIERS: [&str; 2] = ["--set", "core.divergence=convergence_barriers"];
const ROUND_ROBIN: [&str; 2] = ["--set", "core.split_policy=round_robin"];

fn with(flags: &[&str], extra: &[&[&str]]) -> Vec<String> {
    let mut out: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
    for e in extra {
        out.extend(e.iter().map(|s| s.to_string()));
    }
    out
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// A traced timing run to its end (completed or not).
fn traced(ptx: &str, flags: &[String]) -> (Sim, Vec<(Pc, LaneMask)>) {
    let mut sim = prepare_flags(ptx, &refs(flags)).into_sim(&[]).expect("sim");
    sim.set_tracing(true);
    sim.run(2_000_000);
    let trace = sim.take_trace().iter().map(|e| (e.pc, e.mask)).collect();
    (sim, trace)
}

fn spin_flags(arch: &str, block: u32, config: &str) -> (String, Vec<String>) {
    let ptx = data(&format!("kernels/spinlock.{arch}.ptx"));
    let flags = vec![
        "--config".into(),
        config.into(),
        "--block".into(),
        block.to_string(),
        "--arg".into(),
        "s32[1]=0".into(),
        "--arg".into(),
        "s32[1]=0".into(),
    ];
    (ptx, flags)
}

#[test]
fn fig3_5_spin_lock_completes_under_convergence_barriers() {
    for arch in ["sm_52", "sm_80"] {
        for (block, config) in [(4, "teaching"), (32, "fermi"), (128, "fermi")] {
            for policy in [&[][..], &ROUND_ROBIN[..]] {
                let (ptx, flags) = spin_flags(arch, block, config);
                let flags = with(&refs(&flags), &[&BARRIERS, policy]);
                // Functional and timing runs agree (run_ok), and every thread added one.
                let p = run_ok(&ptx, &refs(&flags));
                assert_eq!(i32s(&p, 0), vec![0], "{arch} {block}: lock released");
                assert_eq!(i32s(&p, 1), vec![block as i32], "{arch} {block} {config}");
                let sim = run_timing(&ptx, &refs(&flags));
                let splits = sim.stats().simt.splits.expect("split statistics");
                // One YIELD per lock hand-over at least: the waiters spin until they yield.
                assert!(splits.yields >= (block / 32).max(1) as u64, "{splits:?}");
            }
        }
    }
}

#[test]
fn fig3_5_spin_lock_without_yield_never_completes() {
    let (ptx, flags) = spin_flags("sm_52", 32, "fermi");
    let flags = with(
        &refs(&flags),
        &[
            &BARRIERS,
            &[
                "--set",
                "core.yield_after=0",
                "--set",
                "core.deadlock_cycles=3000",
            ],
        ],
    );
    let (sim, _) = traced(&ptx, &flags);
    let Status::Failed(e) = sim.status() else {
        panic!("expected a deadlock, got {:?}", sim.status());
    };
    let report = e.to_string();
    assert!(
        report.starts_with("deadlock: no forward progress"),
        "{report}"
    );
    // The lock holder (lane 0) stands at the loop exit, Pc 9, never selected: the lowest-PC
    // split is always a waiter's.
    assert!(report.contains("warp splits ["), "{report}");
    assert!(report.contains("ready 9:0x1"), "{report}");
}

#[test]
fn fig3_11_lock_holders_run_between_the_waiters_spins() {
    let (ptx, flags) = spin_flags("sm_52", 4, "teaching");
    let flags = with(&refs(&flags), &[&BARRIERS]);
    let (sim, trace) = traced(&ptx, &flags);
    assert_eq!(sim.status(), &Status::Completed);
    // Pc 9 loads the counter (the critical section), Pc 4-8 is the spin loop.
    let holders: Vec<(usize, LaneMask)> = trace
        .iter()
        .enumerate()
        .filter(|(_, &(pc, _))| pc == 9)
        .map(|(i, &(_, m))| (i, m))
        .collect();
    assert_eq!(
        holders.iter().map(|&(_, m)| m).collect::<Vec<_>>(),
        vec![0b0001, 0b0010, 0b0100, 0b1000],
        "the lock is taken by one thread at a time, lowest lane first"
    );
    for pair in holders.windows(2) {
        let (from, to) = (pair[0].0, pair[1].0);
        let later = pair[1].1;
        let spins = trace[from..to]
            .iter()
            .filter(|&&(pc, m)| (4..=8).contains(&pc) && m & later != 0)
            .count();
        assert!(spins > 0, "the next holder spun between {from} and {to}");
    }
    // Every hand-over went through a YIELD of the waiters.
    let splits = sim.stats().simt.splits.unwrap();
    assert!(splits.yields >= 3, "{splits:?}");
}

/// The statements of book_fig3_9.ptx each issue executed, named, with the lanes.
fn fig3_9_statements(extra: &[&[&str]]) -> (Vec<(&'static str, LaneMask)>, Vec<u32>) {
    let ptx = data("book_fig3_9.ptx");
    let flags = with(&["--config", "teaching"], extra);
    let (sim, trace) = traced(&ptx, &flags);
    assert_eq!(sim.status(), &Status::Completed);
    let func = sim.image().func();
    let named = ["A", "B", "X", "Y", "Z"];
    let order = trace
        .iter()
        .filter_map(|&(pc, m)| {
            named
                .iter()
                .find(|n| func.labels[**n] == pc)
                .map(|n| (*n, m))
        })
        .collect();
    let out = warpstep::run::buffer_bytes(sim.image(), sim.global(), 0)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (order, out)
}

#[test]
fn fig3_9_and_fig3_10_paths_serialise_or_interleave() {
    let want = vec![3, 6, 9, 12, 520, 525, 530, 535];
    let (lo, hi) = (0x0f, 0xf0);
    // The stack runs the fall-through path (A B) first under the teaching preset's push order
    // (the book's), the taken path first under taken_last; both reconverge before Z.
    let (stack, out) = fig3_9_statements(&[]);
    assert_eq!(
        stack,
        vec![("A", lo), ("B", lo), ("X", hi), ("Y", hi), ("Z", 0xff)]
    );
    assert_eq!(out, want);
    let (stack, _) = fig3_9_statements(&[&["--set", "core.push_order=taken_last"]]);
    assert_eq!(
        stack,
        vec![("X", hi), ("Y", hi), ("A", lo), ("B", lo), ("Z", 0xff)]
    );
    // Lowest-PC splits serialise like Fig. 3.9.
    let (lowest, out) = fig3_9_statements(&[&BARRIERS]);
    assert_eq!(
        lowest,
        vec![("A", lo), ("B", lo), ("X", hi), ("Y", hi), ("Z", 0xff)]
    );
    assert_eq!(out, want);
    // Round-robin splits interleave like Fig. 3.10; the WAIT before Z joins them.
    let (rr, out) = fig3_9_statements(&[&BARRIERS, &ROUND_ROBIN]);
    assert_eq!(
        rr,
        vec![("X", hi), ("A", lo), ("Y", hi), ("B", lo), ("Z", 0xff)]
    );
    assert_eq!(out, want);
}

/// One warp of `ptx`'s launch stepped instruction by instruction under convergence barriers
/// with `policy`; after each instruction: (Pc executed, lanes, B0 participation and arrival,
/// B1 participation and arrival, thread states, rPCs).
type Step = (Pc, LaneMask, [LaneMask; 4], Vec<ThreadState>, Vec<Pc>);

fn step_warp(ptx: &str, warp_size: u32, policy: SplitPolicy) -> (Vec<Step>, Vec<u32>) {
    let mut p = prepare_flags(ptx, &[]);
    let mut divergence = p.config.core.divergence();
    divergence.mode = warpstep::config::DivergenceMode::ConvergenceBarriers;
    divergence.split_policy = policy;
    let image = p.image.clone();
    let masks = register_masks(&image);
    let mut cta = CtaState::new(&image, [0; 3], warp_size, divergence);
    let mut record = AccessRecord::default();
    let mut steps = Vec::new();
    for clock in 0..100 {
        let warp = &mut cta.warps[0];
        if warp.is_finished() {
            break;
        }
        let env = Env {
            image: &image,
            func: image.func(),
            ctaid: [0; 3],
            warp_slot: 0,
            warp_slots: 1,
            sm: 0,
            sms: 1,
            clock,
            push_order: p.config.core.push_order,
            reg_masks: &masks,
        };
        let mut mem = Memories {
            global: &mut p.global,
            shared: &mut cta.shared,
        };
        let done = execute(&env, &mut mem, warp, &mut record).expect("runs");
        let s = warp.reconvergence.independent().unwrap().state();
        let bars = [
            s.participation(0),
            s.arrived(0),
            s.participation(1),
            s.arrived(1),
        ];
        steps.push((
            done.pc,
            done.active,
            bars,
            s.thread_states().to_vec(),
            s.rpcs().to_vec(),
        ));
    }
    let out = warpstep::run::buffer_bytes(&p.image, &p.global, 0)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (steps, out)
}

#[test]
fn fig3_8_barrier_masks_and_thread_states_after_each_step() {
    let ptx = data("book_fig3_8.ptx");
    let (steps, out) = step_warp(&ptx, 4, SplitPolicy::RoundRobin);
    assert_eq!(out, vec![12, 11, 0, 0]);
    // What the pseudo-instructions placed before the next split's Pc did shows in the step
    // that selected it: ADD B0 (before Pc 5) after Pc 4, ADD B1 (before Pc 8) after Pc 7.
    let want: Vec<Step> = vec![
        (4, 0b1111, [0b1111, 0, 0, 0], vec![Ready; 4], vec![5; 4]),
        // BB510's `@%p1 bra BB518`: threads 2-3 to BB518 (Pc 11), 0-1 to BB512 (Pc 6). Round
        // robin picks threads 2-3 next (after lane 0): they WAIT at B0 and block.
        (
            5,
            0b1111,
            [0b1111, 0b1100, 0, 0],
            vec![Ready, Ready, Blocked(0), Blocked(0)],
            vec![6, 6, 11, 11],
        ),
        (
            6,
            0b0011,
            [0b1111, 0b1100, 0, 0],
            vec![Ready, Ready, Blocked(0), Blocked(0)],
            vec![7, 7, 11, 11],
        ),
        (
            7,
            0b0011,
            [0b1111, 0b1100, 0b0011, 0],
            vec![Ready, Ready, Blocked(0), Blocked(0)],
            vec![8, 8, 11, 11],
        ),
        // BB512's `@%p2 bra BB516`: thread 1 to BB516 (Pc 10), thread 0 to BB514 (Pc 9);
        // round robin picks thread 1, which blocks at WAIT B1.
        (
            8,
            0b0011,
            [0b1111, 0b1100, 0b0011, 0b0010],
            vec![Ready, Blocked(1), Blocked(0), Blocked(0)],
            vec![9, 10, 11, 11],
        ),
        // BB514 (thread 0), which then arrives at WAIT B1: B1 releases threads 0-1.
        (
            9,
            0b0001,
            [0b1111, 0b1100, 0, 0],
            vec![Ready, Ready, Blocked(0), Blocked(0)],
            vec![10, 10, 11, 11],
        ),
        // BB516, threads 0-1 together; then WAIT B0 releases the whole warp at BB518.
        (10, 0b0011, [0, 0, 0, 0], vec![Ready; 4], vec![11; 4]),
        (11, 0b1111, [0, 0, 0, 0], vec![Ready; 4], vec![12; 4]),
    ];
    assert_eq!(&steps[4..12], &want[..]);
    assert_eq!(steps.last().unwrap().3, vec![Exited; 4]);
}

#[test]
fn fig3_8_under_lowest_pc_splits_meet_without_blocking() {
    // Lowest PC runs the inner paths first; each WAIT is reached by all its participants at
    // once, so nobody blocks, and the stack's instruction sequence results.
    let ptx = data("book_fig3_8.ptx");
    let (steps, out) = step_warp(&ptx, 4, SplitPolicy::LowestPc);
    assert_eq!(out, vec![12, 11, 0, 0]);
    let pcs: Vec<(Pc, LaneMask)> = steps.iter().map(|s| (s.0, s.1)).collect();
    assert_eq!(
        &pcs[3..],
        &[
            (3, 0b1111),
            (4, 0b1111),
            (5, 0b1111),
            (6, 0b0011),
            (7, 0b0011),
            (8, 0b0011),
            (9, 0b0001),
            (10, 0b0011),
            (11, 0b1111),
            (12, 0b1111),
            (13, 0b1111),
            (14, 0b1111),
        ]
    );
    assert!(steps
        .iter()
        .all(|s| !s.3.iter().any(|t| matches!(t, Blocked(_)))));
}

fn its_flags(kernel: &str, args: &[&str]) -> Vec<String> {
    let mut f = vec![
        "--kernel".to_string(),
        kernel.into(),
        "--block".into(),
        "32".into(),
    ];
    for a in args {
        f.push("--arg".into());
        f.push(a.to_string());
    }
    f
}

#[test]
fn syncwarp_on_two_paths_is_an_error_under_the_stack_and_exchanges_under_barriers() {
    let ptx = data("kernels/its.sm_70.ptx");
    let flags = its_flags("syncwarp_paths", &["s32[32]=0"]);
    let (_, report) = run_report(&ptx, &refs(&flags));
    let error = report.error.expect("an error under the stack");
    assert!(
        error.contains("member mask 0xffffffff of `bar.warp.sync`: lanes 0xffff0000 are live but not executing it here"),
        "{error}"
    );
    assert!(
        error.contains("core.divergence = convergence_barriers"),
        "{error}"
    );
    for policy in [&[][..], &ROUND_ROBIN[..]] {
        let p = run_ok(&ptx, &refs(&with(&refs(&flags), &[&BARRIERS, policy])));
        let want: Vec<i32> = (0..32)
            .map(|l| if l < 16 { (l + 16) * 10 } else { l - 16 })
            .collect();
        assert_eq!(i32s(&p, 0), want);
    }
}

#[test]
fn shfl_sync_on_two_paths_reads_the_other_half() {
    let ptx = data("kernels/its.sm_70.ptx");
    let flags = its_flags("shfl_paths", &["s32[32]=iota", "s32[32]=0"]);
    let (_, report) = run_report(&ptx, &refs(&flags));
    assert!(report
        .error
        .unwrap()
        .contains("of `shfl`: lanes 0xffff0000"));
    let p = run_ok(&ptx, &refs(&with(&refs(&flags), &[&BARRIERS])));
    let want: Vec<i32> = (0..32)
        .map(|l| if l < 16 { l + 16 } else { l - 16 + 1000 })
        .collect();
    assert_eq!(i32s(&p, 1), want);
}

#[test]
fn ballot_over_the_active_lanes_is_the_same_in_both_modes() {
    let ptx = data("kernels/its.sm_70.ptx");
    let flags = its_flags("ballot_active", &["s32[32]=rand:3:-5:5", "u32[32]=0"]);
    // run_ok also runs it under round-robin convergence barriers and compares.
    let p = run_ok(&ptx, &refs(&flags));
    let input = i32s(&p, 0);
    let taken: u32 = (0..32).filter(|&l| input[l] > 0).fold(0, |m, l| m | 1 << l);
    let odd: u32 = (0..32)
        .filter(|&l| input[l] > 0 && input[l] & 1 != 0)
        .fold(0, |m, l| m | 1 << l);
    let want: Vec<u32> = (0..32)
        .map(|l| if taken >> l & 1 == 1 { odd } else { 0 })
        .collect();
    assert_eq!(u32s(&p, 1), want);
}

#[test]
fn a_wait_against_a_syncwarp_is_a_named_deadlock() {
    // Lanes 0-15 wait at bar.warp.sync for lanes 16-31, which wait at WAIT B0 for them.
    let ptx = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 16;
@%p1 bra LATE;
    bar.warp.sync -1;
    bra.uni JOIN;
LATE:
    add.u32 %r2, %r1, 1;
JOIN:
    ret;
}
"#;
    let flags = ["--block", "32", "--arg", "u32[1]=0"];
    let (_, report) = run_report(ptx, &flags);
    assert!(report.error.unwrap().contains("lanes 0xffff0000 are live"));
    let flags = with(&flags, &[&BARRIERS]);
    let (_, report) = run_report(ptx, &refs(&flags));
    let error = report.error.expect("a deadlock");
    assert!(
        error.contains("convergence-barrier deadlock: every live thread of the warp is blocked (lanes 0xffff0000 wait at WAIT B0 before PC 6 for lanes 0xffff; lanes 0xffff wait at the warp-synchronous instruction at PC 3"),
        "{error}"
    );
    // The timing model stops with the same fault.
    let (sim, _) = traced(ptx, &flags);
    let Status::Failed(e) = sim.status() else {
        panic!("{:?}", sim.status())
    };
    assert!(
        e.to_string().contains("convergence-barrier deadlock"),
        "{e}"
    );
}

#[test]
fn structured_kernels_issue_the_same_instructions_in_both_modes() {
    // On if/else and loops the WAITs sit where the stack pops, so lowest-PC splits issue the
    // same warp instructions with the same lanes as the stack (same lane histogram); round
    // robin issues the same multiset in another order. Convergence barriers only differ where
    // paths meet again without a barrier (an exit post-dominator) or synchronise inside a warp.
    // Thread groups after a divergent branch: 2 for an if/else; Fig. 3.8's inner branch
    // splits threads 0-1 while 2-3 wait at BB518, 3 groups, so (2 + 3) / 2.
    for (file, groups, flags) in [
        ("book_fig3_8.ptx", 2.5, vec!["--config", "teaching"]),
        ("book_fig3_9.ptx", 2.0, vec!["--config", "teaching"]),
        (
            "ptx-corpus/ocelot_TestDivergence_nvvm41.ptx",
            2.0,
            vec![
                "--kernel",
                "divergence",
                "--block",
                "64",
                "--arg",
                "f32[64]=iota",
            ],
        ),
    ] {
        let ptx = data(file);
        let flags: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        let sorted = |mut t: Vec<(Pc, LaneMask)>| {
            t.sort_unstable();
            t
        };
        let (stack_sim, stack) = traced(&ptx, &flags);
        let (lo_sim, lowest) = traced(&ptx, &with(&refs(&flags), &[&BARRIERS]));
        let (_, rr) = traced(&ptx, &with(&refs(&flags), &[&BARRIERS, &ROUND_ROBIN]));
        assert_eq!(sorted(stack.clone()), sorted(lowest), "{file}");
        assert_eq!(sorted(stack), sorted(rr), "{file}");
        let (s, l) = (stack_sim.stats().simt, lo_sim.stats().simt);
        assert_eq!(s.divergent_branches, l.divergent_branches, "{file}");
        assert_eq!(s.simd_efficiency, l.simd_efficiency, "{file}");
        assert!(s.splits.is_none());
        assert_eq!(
            l.splits.unwrap().groups_per_divergent_branch,
            groups,
            "{file}"
        );
    }
}

#[test]
fn the_snapshot_shows_splits_barriers_and_thread_states() {
    let ptx = data("book_fig3_8.ptx");
    let flags = BOOK_WARP4;
    let mut stack = prepare_flags(&ptx, &flags).into_sim(&[]).unwrap();
    stack.step();
    let view = warpstep::snapshot::snapshot(&stack, 0);
    let warp = view.sm.warps[0].as_ref().unwrap();
    assert!(warp.splits.is_none());
    assert!(!warp.stack.is_empty());
    let flags = with(&flags, &[&BARRIERS, &ROUND_ROBIN]);
    let mut sim = prepare_flags(&ptx, &refs(&flags)).into_sim(&[]).unwrap();
    // Step until threads 2-3 block at B0 (after BB510's branch, Fig. 3.8).
    let splits = loop {
        assert!(!sim.finished(), "threads 2-3 never blocked");
        sim.step();
        let view = warpstep::snapshot::snapshot(&sim, 0);
        let warp = view.sm.warps[0].clone().unwrap();
        assert!(warp.stack.is_empty());
        let splits = warp.splits.expect("a splits view");
        if splits.threads[2].state == "blocked" {
            break splits;
        }
    };
    let states: Vec<(&str, Option<u32>, Pc)> = splits
        .threads
        .iter()
        .map(|t| (t.state, t.barrier, t.rpc))
        .collect();
    assert_eq!(
        states,
        vec![
            ("ready", None, 6),
            ("ready", None, 6),
            ("blocked", Some(0), 11),
            ("blocked", Some(0), 11)
        ]
    );
    assert_eq!(splits.barriers.len(), 2);
    let b0 = &splits.barriers[0];
    assert_eq!(
        (b0.participation.as_str(), b0.arrived.as_str()),
        ("0x0000000f", "0x0000000c")
    );
    assert_eq!(b0.arrivals, vec![false, false, true, true]);
    let selected = splits.selected.as_ref().unwrap();
    assert_eq!(
        (selected.pc, selected.lanes.clone()),
        (6, vec![true, true, false, false])
    );
    assert_eq!(splits.ready.len(), 1);
    let groups: Vec<(&str, Option<u32>, Pc, &str)> = splits
        .groups
        .iter()
        .map(|g| (g.state, g.barrier, g.rpc, g.mask.as_str()))
        .collect();
    assert_eq!(
        groups,
        vec![
            ("ready", None, 6, "0x00000003"),
            ("blocked", Some(0), 11, "0x0000000c")
        ]
    );
    assert_eq!(splits.threads[2].line, sim.image().func().instrs[11].line);
    let json = serde_json::to_value(&splits).unwrap();
    assert_eq!(json["policy"], "round_robin");
    assert_eq!(json["yield_after"], 16);
}
