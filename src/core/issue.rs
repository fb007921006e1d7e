//! The issue stage (book section 3.2; MODEL.md section 4): each warp scheduler orders its warps
//! by its policy (`core.scheduler`) and issues the first whose next instruction can go; the
//! others learn why not (their stall state). A scheduler that issues nothing counts the reason
//! of its best candidate (the stall breakdown of `--json` and the stats view).
//!
//! What an instruction needs to issue (I-buffer, scoreboard, barrier, a collector unit, MRPB
//! ordering) and what issuing it does (execute, reserve, dispatch) belong to the rest of the SM,
//! which this stage reaches through [`IssuePort`].

use super::scheduler::{Order, Scheduler};
use super::stall::WarpCycle;
use crate::config::CoreConfig;
use serde::Serialize;

/// What one scheduler did in a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SchedulerCycle {
    /// The warp slot issued, if any.
    pub issued: Option<u32>,
    /// Why not, if nothing issued (`idle` when the scheduler has no warps).
    pub stall: WarpCycle,
}

impl SchedulerCycle {
    const IDLE: SchedulerCycle = SchedulerCycle {
        issued: None,
        stall: WarpCycle::Idle,
    };
}

/// The SM as the issue stage sees it, for one cycle.
pub trait IssuePort {
    /// Whether warp slot `slot` holds a warp a scheduler may consider (running, not waiting at
    /// a barrier).
    fn eligible(&self, slot: u32) -> bool;
    /// Whether the warp in `slot` can issue its next instruction, or why not (the warp takes
    /// the reason as its state).
    fn check(&mut self, slot: u32) -> Result<(), WarpCycle>;
    /// Issues the warp's next instruction; returns whether it made forward progress.
    fn issue(&mut self, slot: u32) -> bool;
    /// Sets the warp's state for this cycle.
    fn set_state(&mut self, slot: u32, state: WarpCycle);
    /// Whether every warp's state is recorded this cycle (else only what timing needs).
    fn records_states(&self) -> bool;
    /// After the scheduler's pass (when states are recorded): a finished warp drains or idles,
    /// and a running one that was not `tried` (outside the two-level scheduler's active set) is
    /// `inactive`.
    fn settle_state(&mut self, slot: u32, tried: bool);
    /// Bit w set for each warp slot whose warp has running threads.
    fn live(&self) -> u128;
}

/// The issue stage of one SM: its warp schedulers and what they did.
#[derive(Debug, Clone, Default)]
pub struct IssueStage {
    schedulers: Vec<Scheduler>,
    /// This cycle: what each scheduler did.
    cycles: Vec<SchedulerCycle>,
    /// Scheduler-cycles without an issue, indexed by `WarpCycle as usize` (a map keyed by name
    /// costs string compares per cycle).
    stall_counts: [u64; WarpCycle::ALL.len()],
}

impl IssueStage {
    pub fn new(core: &CoreConfig) -> IssueStage {
        let n = core.schedulers_per_sm;
        let schedulers = (0..n)
            .map(|i| {
                Scheduler::new(
                    i,
                    n,
                    core.max_warps_per_sm,
                    core.scheduler,
                    core.active_warps,
                )
            })
            .collect();
        IssueStage {
            schedulers,
            cycles: vec![SchedulerCycle::IDLE; n as usize],
            stall_counts: [0; WarpCycle::ALL.len()],
        }
    }

    pub fn schedulers(&self) -> &[Scheduler] {
        &self.schedulers
    }

    /// What each scheduler did this cycle.
    pub fn cycles(&self) -> &[SchedulerCycle] {
        &self.cycles
    }

    /// Scheduler-cycles without an issue, by reason.
    pub fn stall_counts(&self) -> impl Iterator<Item = (WarpCycle, u64)> + '_ {
        WarpCycle::ALL
            .iter()
            .copied()
            .zip(self.stall_counts.iter().copied())
    }

    /// A warp arrived in `slot` (its scheduler is `slot` mod the schedulers).
    pub fn warp_arrived(&mut self, slot: u32, age: u64) {
        let s = slot as usize % self.schedulers.len();
        self.schedulers[s].warp_arrived(slot, age);
    }

    /// The warp in `slot` left.
    pub fn warp_left(&mut self, slot: u32) {
        let s = slot as usize % self.schedulers.len();
        self.schedulers[s].warp_left(slot);
    }

    /// One cycle: every scheduler tries its warps in policy order and issues the first that
    /// can go. Returns whether an issued instruction made forward progress.
    pub fn cycle(&mut self, port: &mut impl IssuePort) -> bool {
        let mut progress = false;
        for s in 0..self.schedulers.len() {
            let result = self.schedule(s, port, &mut progress);
            self.cycles[s] = result;
            if result.issued.is_none() && result.stall != WarpCycle::Idle {
                self.stall_counts[result.stall as usize] += 1;
            }
        }
        progress
    }

    /// Scheduler `s`'s cycle.
    fn schedule(
        &mut self,
        s: usize,
        port: &mut impl IssuePort,
        progress: &mut bool,
    ) -> SchedulerCycle {
        let scheduler = &mut self.schedulers[s];
        scheduler.refill(|w| port.eligible(w));
        let order = scheduler.take_order(port.live());
        let mut result = SchedulerCycle::IDLE;
        // Once a warp issued, the rest only matter for the per-warp record (and for the
        // two-level scheduler, whose checks demote warps): stop when neither is wanted.
        let records = port.records_states();
        let stop_after_issue = !records && !scheduler.demotes();
        for slot in order.iter() {
            // `check` has set the state of a warp that cannot issue.
            let ready = match port.check(slot) {
                Ok(()) if result.issued.is_none() => {
                    *progress |= port.issue(slot);
                    scheduler.issued(slot);
                    result.issued = Some(slot);
                    Some(WarpCycle::Issued)
                }
                Ok(()) => Some(WarpCycle::NotSelected),
                Err(reason) => {
                    if reason == WarpCycle::LongScoreboard {
                        scheduler.demote(slot);
                    }
                    if result.issued.is_none() && result.stall == WarpCycle::Idle {
                        result.stall = reason;
                    }
                    None
                }
            };
            if let Some(state) = ready {
                port.set_state(slot, state);
            }
            if stop_after_issue && result.issued.is_some() {
                break;
            }
        }
        if records {
            record_untried(scheduler, &order, port);
            if result.issued.is_none() && result.stall == WarpCycle::Idle && !order.is_empty() {
                result.stall = WarpCycle::NoInstruction;
            }
        }
        scheduler.put_order(order);
        result
    }
}

/// Settles the state of `scheduler`'s warps after its pass over this cycle's `order`.
fn record_untried(scheduler: &Scheduler, order: &Order, port: &mut impl IssuePort) {
    let mut tried = [0u64; 2];
    for slot in order.iter() {
        tried[(slot / 64) as usize % 2] |= 1 << (slot % 64);
    }
    for &slot in scheduler.slots() {
        let was_tried = tried[(slot / 64) as usize % 2] >> (slot % 64) & 1 == 1;
        port.settle_state(slot, was_tried);
    }
}
