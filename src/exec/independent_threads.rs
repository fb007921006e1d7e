//! Independent thread scheduling (issue 15; Aamodt, Fung & Rogers, "General-Purpose Graphics
//! Processor Architectures", §3.1.2 "SIMT deadlock and stackless SIMT architectures", Figs.
//! 3.6-3.11): the `convergence_barriers` variant of [`Reconvergence`](super::Reconvergence).
//!
//! It wraps a warp's Fig. 3.6 fields ([`ConvergenceState`]) with what issuing needs:
//! - the **ADD/WAIT pseudo-instructions** the compiler pass placed
//!   ([`crate::ptx::convergence_barriers`]) run when a split reaches the Pc they are placed
//!   before; each thread remembers how many of those at its rPC it has run, so a thread
//!   released from a WAIT goes on with the ADD after it, and a loop's ADD runs again on the
//!   next iteration;
//! - **split selection** after every instruction (the book: the scheduler selects a warp split
//!   each time it issues for the warp), by `core.split_policy`;
//! - **YIELD** (Fig. 3.11): after `core.yield_after` instructions without forward progress (no
//!   register or memory value changed, no lane exited, the measure the SM's deadlock detection
//!   uses, MODEL.md section 3) the split that issued last yields, if other threads of the warp
//!   wait; yielded threads run again when no split is ready;
//! - **statistics**: thread groups after each divergent branch, yields, thread-cycles blocked.
//!
//! Decisions:
//! - ADD and WAIT take no issue slot and no Pc. Volta's BSSY/BSYNC are instructions of their
//!   own, but PTX has none to run and warpstep keeps every Pc and listing line as written; the
//!   cost a split switch does have is the fetch redirect the timing model charges when the
//!   warp's PC is not the next instruction.
//! - When no thread is ready or yielded and some are not finished, the warp can never go on:
//!   [`IndependentThreads::finish_instruction`] says which lanes wait where, for whom.

use super::convergence_state::{ConvergenceState, SplitPolicy, ThreadState};
use super::lanes::{lanes, BranchOutcome, LaneMask};
use crate::config::Divergence;
use crate::ptx::convergence_barriers::{BarrierPlan, Placed};
use crate::ptx::Pc;
use serde::Serialize;

/// Counts a warp accumulates for `SimtStats`, drained by the SM after each issue.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SplitStats {
    /// Divergent branches executed.
    pub divergent_branches: u64,
    /// Sum over divergent branches of the warp's thread groups (distinct rPCs of live
    /// threads) right after the branch.
    pub groups_after_divergence: u64,
    /// YIELDs executed.
    pub yields: u64,
    /// Thread-cycles spent blocked at convergence barriers and warp-synchronous instructions
    /// (counted when a thread is released).
    pub blocked_thread_cycles: u64,
}

impl SplitStats {
    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &SplitStats) {
        self.divergent_branches += other.divergent_branches;
        self.groups_after_divergence += other.groups_after_divergence;
        self.yields += other.yields;
        self.blocked_thread_cycles += other.blocked_thread_cycles;
    }
}

/// One warp under independent thread scheduling (book §3.1.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndependentThreads {
    state: ConvergenceState,
    policy: SplitPolicy,
    yield_after: u32,
    /// Per lane: how many of the pseudo-instructions placed before its rPC it has run.
    placed_done: Vec<u8>,
    /// Instructions issued since the last forward progress.
    without_progress: u32,
    /// The selected split's PC; `None` when finished.
    pc: Option<Pc>,
    /// Per lane, the clock at which it last became blocked.
    blocked_since: Vec<u64>,
    /// Lanes blocked after the previous instruction.
    blocked_before: LaneMask,
    /// Counts not yet drained.
    pending: SplitStats,
}

impl IndependentThreads {
    /// A warp of `warp_size` lanes whose threads in `mask` start at `start`, with the barriers
    /// `plan` needs; the first split is selected (running any ADD placed before `start`).
    pub fn new(
        warp_size: u32,
        start: Pc,
        mask: LaneMask,
        setup: Divergence,
        plan: &BarrierPlan,
    ) -> Self {
        let mut warp = IndependentThreads {
            state: ConvergenceState::new(warp_size, plan.barriers, start, mask),
            policy: setup.split_policy,
            yield_after: setup.yield_after,
            placed_done: vec![0; warp_size as usize],
            without_progress: 0,
            pc: None,
            blocked_since: vec![0; warp_size as usize],
            blocked_before: 0,
            pending: SplitStats::default(),
        };
        // At the start no barrier has participants, so no WAIT can block and selection cannot
        // fail: every thread is ready at `start`.
        let _cannot_block = warp.select(plan);
        warp
    }

    /// The Fig. 3.6 fields.
    pub fn state(&self) -> &ConvergenceState {
        &self.state
    }

    /// The split policy.
    pub fn policy(&self) -> SplitPolicy {
        self.policy
    }

    /// The selected split's PC, `None` once every thread has exited.
    pub fn pc(&self) -> Option<Pc> {
        self.pc
    }

    /// The selected split's threads.
    pub fn active_mask(&self) -> LaneMask {
        self.state.active_mask()
    }

    /// True once every thread has exited.
    pub fn is_finished(&self) -> bool {
        self.state.is_finished()
    }

    /// Instructions issued since the last forward progress.
    pub fn without_progress(&self) -> u32 {
        self.without_progress
    }

    fn moved(&mut self, mask: LaneMask) {
        for l in lanes(mask) {
            self.placed_done[l as usize] = 0;
        }
    }

    /// After a non-branch instruction: the active threads continue at `next`.
    pub fn advance(&mut self, next: Pc) {
        self.moved(self.state.active_mask());
        self.state.advance(next);
    }

    /// After a branch: active threads in `taken` go to `target`, the others to `fallthrough`.
    pub fn branch(&mut self, taken: LaneMask, target: Pc, fallthrough: Pc) -> BranchOutcome {
        self.moved(self.state.active_mask());
        let outcome = self.state.branch(taken, target, fallthrough);
        if outcome == BranchOutcome::Divergent {
            self.pending.divergent_branches += 1;
            self.pending.groups_after_divergence += self.state.thread_groups() as u64;
        }
        outcome
    }

    /// The threads in `exiting` exit; the split's other threads continue at `next`.
    pub fn exit_lanes(&mut self, exiting: LaneMask, next: Pc) {
        self.state.exit(exiting);
        self.moved(self.state.active_mask());
        self.state.advance(next);
    }

    /// A warp-synchronous instruction at `pc` executed by `lanes` with member mask `members`:
    /// the threads that execute it now (0: the split waits). See
    /// [`ConvergenceState::warp_sync`].
    pub fn warp_sync(&mut self, pc: Pc, lanes: LaneMask, members: LaneMask) -> LaneMask {
        self.state.warp_sync(pc, lanes, members)
    }

    /// Ends an instruction: YIELD if the warp went `yield_after` instructions without
    /// `progress`, then select the next split. `now` is the clock (cycles in the timing model)
    /// for the blocked-time count. An error when no thread can ever run again.
    pub fn finish_instruction(
        &mut self,
        plan: &BarrierPlan,
        progress: bool,
        now: u64,
    ) -> Result<(), String> {
        self.without_progress = if progress {
            0
        } else {
            self.without_progress + 1
        };
        if self.yield_after > 0 && self.without_progress >= self.yield_after {
            self.without_progress = 0;
            let split = self.state.active_mask() & self.state.ready_mask();
            let others = self.state.live_mask() & !split;
            if split != 0 && others != 0 {
                self.state.yield_split(split);
                self.pending.yields += 1;
            }
        }
        let result = self.select(plan);
        self.account_blocked(now);
        result
    }

    fn account_blocked(&mut self, now: u64) {
        let blocked = self.state.blocked_mask();
        for l in lanes(blocked & !self.blocked_before) {
            self.blocked_since[l as usize] = now;
        }
        for l in lanes(self.blocked_before & !blocked) {
            self.pending.blocked_thread_cycles +=
                now.saturating_sub(self.blocked_since[l as usize]);
        }
        self.blocked_before = blocked;
    }

    /// Takes the counts accumulated since the last call.
    pub fn drain_stats(&mut self) -> SplitStats {
        std::mem::take(&mut self.pending)
    }

    /// Selects the next split and runs the pseudo-instructions placed before its PC that its
    /// threads have not run; a WAIT may block the whole split (select again) or release a
    /// barrier (select again, so released threads join their PC's split).
    fn select(&mut self, plan: &BarrierPlan) -> Result<(), String> {
        loop {
            let Some((pc, mask)) = self.state.select_split(self.policy) else {
                self.pc = None;
                return if self.state.is_finished() {
                    Ok(())
                } else {
                    Err(self.deadlock())
                };
            };
            match self.run_placed(plan, pc, mask) {
                Placement::Runs => {
                    self.pc = Some(pc);
                    return Ok(());
                }
                Placement::SelectAgain => {}
            }
        }
    }

    fn run_placed(&mut self, plan: &BarrierPlan, pc: Pc, mut split: LaneMask) -> Placement {
        for (k, op) in plan.placed(pc).iter().enumerate() {
            let todo = lanes(split)
                .filter(|&l| self.placed_done[l as usize] as usize <= k)
                .fold(0, |m: LaneMask, l| m | 1 << l);
            if todo == 0 {
                continue;
            }
            for l in lanes(todo) {
                self.placed_done[l as usize] = (k + 1) as u8;
            }
            match *op {
                Placed::Add(b) => self.state.add(b, todo),
                Placed::Wait(b) => {
                    let released = self.state.wait(b, todo);
                    split &= self.state.ready_mask();
                    if released || split == 0 {
                        return Placement::SelectAgain;
                    }
                }
            }
        }
        Placement::Runs
    }

    fn deadlock(&self) -> String {
        let s = &self.state;
        let live = s.live_mask();
        let mut parts = Vec::new();
        for b in 0..s.barriers() {
            let arrived = s.arrived(b);
            if arrived == 0 {
                continue;
            }
            let rpc = s.rpcs()[arrived.trailing_zeros() as usize];
            parts.push(format!(
                "lanes {arrived:#x} wait at WAIT B{b} before PC {rpc} for lanes {:#x}",
                s.participation(b) & !arrived & live
            ));
        }
        let waiting = s.warp_sync_mask();
        if waiting != 0 {
            let pc = s.rpcs()[waiting.trailing_zeros() as usize];
            parts.push(format!(
                "lanes {waiting:#x} wait at the warp-synchronous instruction at PC {pc} for member lanes that never arrive"
            ));
        }
        format!(
            "convergence-barrier deadlock: every live thread of the warp is blocked ({})",
            parts.join("; ")
        )
    }

    /// The warp's threads grouped by state and rPC, e.g. `ready 4:0xe, blocked B0 9:0x1`, for
    /// stuck-warp reports.
    pub fn describe(&self) -> String {
        self.groups()
            .iter()
            .map(|(state, pc, mask)| {
                let what = match state {
                    ThreadState::Ready => "ready".to_string(),
                    ThreadState::Blocked(b) => format!("blocked B{b}"),
                    ThreadState::Yielded => "yielded".to_string(),
                    ThreadState::WarpSync => "warp-sync".to_string(),
                    ThreadState::Exited => "exited".to_string(),
                };
                format!("{what} {pc}:{mask:#x}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The live threads grouped by (state, rPC), ascending rPC then state order.
    pub fn groups(&self) -> Vec<(ThreadState, Pc, LaneMask)> {
        let mut out: Vec<(ThreadState, Pc, LaneMask)> = Vec::new();
        let (states, rpcs) = (self.state.thread_states(), self.state.rpcs());
        for (l, (&st, &pc)) in states.iter().zip(rpcs).enumerate() {
            if st == ThreadState::Exited {
                continue;
            }
            match out.iter_mut().find(|(s, p, _)| *s == st && *p == pc) {
                Some(g) => g.2 |= 1 << l,
                None => out.push((st, pc, 1 << l)),
            }
        }
        out.sort_by_key(|&(_, pc, mask)| (pc, mask.trailing_zeros()));
        out
    }
}

enum Placement {
    Runs,
    SelectAgain,
}
