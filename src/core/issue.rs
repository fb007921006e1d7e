//! The issue stage (book section 3.2; MODEL.md section 4): each warp scheduler orders its warps
//! by its policy (`core.scheduler`) and issues the first whose next instruction can go; the
//! others learn why not (their stall state). A scheduler that issues nothing counts the reason
//! of its best candidate (the stall breakdown of `--json` and the stats view).
//!
//! What an instruction needs to issue (I-buffer, scoreboard, barrier, a collector unit, MRPB
//! ordering) and what issuing it does (execute, reserve, dispatch) belong to the rest of the SM,
//! which this stage reaches through [`IssuePort`].

use super::ccws::{Ccws, LocalityEvent};
use super::conflict_history::{ConflictHistory, HistoryStats};
use super::pipeline_mode::PipelineMode;
use super::scheduler::{Order, Scheduler};
use super::stall::WarpCycle;
use crate::config::{Config, SchedulerPolicy};
use crate::ptx::Pc;
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

/// What issuing an instruction did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Issued {
    /// Its tag in the back end.
    pub tag: u64,
    /// Whether it made forward progress (changed a register or memory, or ended the warp).
    pub progress: bool,
}

/// The bank-conflict-aware scheduler's memory-warp mask (Elastic §4.3, Fig. 7;
/// `core.scheduler = bank_conflict_aware`): issuing a shared-memory warp loads a countdown with
/// its instruction's predicted extra cycles (the history cache's value, 0 on a miss); while it
/// is non-zero no memory warp issues; it counts down once a cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryWarpMask {
    history: ConflictHistory,
    /// Cycles memory warps stay masked.
    countdown: u32,
    /// Issued shared accesses not yet resolved: (tag, PC, predicted extra cycles).
    pending: Vec<(u64, Pc, u32)>,
    /// The latest history-cache lookup.
    last_lookup: Option<Lookup>,
    /// `elastic.relaxed_mask`: a masked memory warp issues when nothing else can.
    relaxed: bool,
}

/// One lookup of the conflict history cache (Elastic Fig. 7), for the views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Lookup {
    /// The shared instruction's PC (the tag).
    pub pc: Pc,
    /// The extra cycles predicted (0 on a miss).
    pub predicted: u32,
    pub hit: bool,
}

impl MemoryWarpMask {
    /// The latest history-cache lookup, if any.
    pub fn last_lookup(&self) -> Option<Lookup> {
        self.last_lookup
    }

    /// The countdown, for the views.
    pub fn countdown(&self) -> u32 {
        self.countdown
    }

    pub fn stats(&self) -> HistoryStats {
        self.history.stats()
    }
}

/// The SM as the issue stage sees it, for one cycle.
pub trait IssuePort {
    /// Whether warp slot `slot` holds a warp a scheduler may consider (running, not waiting at
    /// a barrier).
    fn eligible(&self, slot: u32) -> bool;
    /// Whether the warp in `slot` can issue its next instruction, or why not (the warp takes
    /// the reason as its state).
    fn check(&mut self, slot: u32) -> Result<(), WarpCycle>;
    /// Issues the warp's next instruction.
    fn issue(&mut self, slot: u32) -> Issued;
    /// The warp's next instruction, if it is a memory instruction: its PC and whether it
    /// accesses shared memory (Elastic §4.2's "warp_is_memory_access" and
    /// "warp_to_sched_is_shmem_access").
    fn next_memory(&self, slot: u32) -> Option<(Pc, bool)>;
    /// Whether the warp's next instruction is a global or local load through the L1D (what
    /// dynamic CCWS holds back, [`Ccws`]).
    fn next_loads_l1d(&self, slot: u32) -> bool;
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
    /// With `core.scheduler = bank_conflict_aware` (boxed: the stage moves in and out of the
    /// SM every cycle, and the mask is most of its size).
    mask: Option<Box<MemoryWarpMask>>,
    /// Cycles one warp instruction takes to issue: warp_size / simd_width in the paper's
    /// single-issue SIMD pipelines, where each sub-warp takes an issue slot (Elastic §3.2.3:
    /// "warp_size/simd_width free issue slots are needed for a warp to be completely
    /// issued"); 1 in the decoupled back end.
    issue_cycles: u32,
    /// Per scheduler: cycles it still spends issuing the sub-warps of its last instruction.
    busy: Vec<u32>,
    /// Per scheduler: whether it was busy so this cycle.
    busy_now: Vec<bool>,
    /// Cache-conscious wavefront scheduling, when `core.ccws` turns it on (boxed, as `mask`).
    ccws: Option<Box<Ccws>>,
}

impl IssueStage {
    pub fn new(config: &Config) -> IssueStage {
        let core = &config.core;
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
            issue_cycles: PipelineMode::of(config).issue_cycles(core.warp_size, core.simd_width),
            busy: vec![0; n as usize],
            busy_now: vec![false; n as usize],
            ccws: Ccws::new(&core.ccws, core.max_warps_per_sm).map(Box::new),
            mask: (core.scheduler == SchedulerPolicy::BankConflictAware).then(|| {
                Box::new(MemoryWarpMask {
                    history: ConflictHistory::new(
                        config.elastic.history_sets,
                        config.elastic.history_ways,
                    ),
                    countdown: 0,
                    pending: Vec::new(),
                    last_lookup: None,
                    relaxed: config.elastic.relaxed_mask,
                })
            }),
        }
    }

    /// The bank-conflict-aware scheduler's mask, if that is the policy.
    pub fn mask(&self) -> Option<&MemoryWarpMask> {
        self.mask.as_deref()
    }

    /// Cache-conscious wavefront scheduling's state, when it is on.
    pub fn ccws(&self) -> Option<&Ccws> {
        self.ccws.as_deref()
    }

    /// What the L1D did for one global or local access, for CCWS's victim tags.
    pub fn observe_l1d(&mut self, event: LocalityEvent) {
        if let Some(c) = self.ccws.as_mut() {
            c.observe(event);
        }
    }

    /// The shared access tagged `tag` (at `pc`) left MEM0 after `extra` cycles beyond its
    /// sub-warps: the history cache learns it (bank-conflict-aware scheduling only).
    pub fn shared_resolved(&mut self, tag: u64, pc: Pc, extra: u32) {
        let Some(m) = self.mask.as_mut() else {
            return;
        };
        if let Some(i) = m.pending.iter().position(|p| p.0 == tag) {
            let (_, _, predicted) = m.pending.swap_remove(i);
            m.history.resolve(pc, extra, predicted);
        }
    }

    pub fn schedulers(&self) -> &[Scheduler] {
        &self.schedulers
    }

    /// What each scheduler did this cycle.
    pub fn cycles(&self) -> &[SchedulerCycle] {
        &self.cycles
    }

    /// Per scheduler: whether it spent this cycle issuing the sub-warps of its last
    /// instruction (its [`SchedulerCycle`] is then the one of the cycle it issued).
    pub fn busy_now(&self) -> impl Iterator<Item = bool> + '_ {
        self.busy_now.iter().copied()
    }

    /// A warp arrived in `slot` (its scheduler is `slot` mod the schedulers).
    pub fn warp_arrived(&mut self, slot: u32, age: u64) {
        let s = slot as usize % self.schedulers.len();
        self.schedulers[s].warp_arrived(slot, age);
        if let Some(c) = self.ccws.as_mut() {
            c.warp_arrived(slot, age);
        }
    }

    /// The warp in `slot` left.
    pub fn warp_left(&mut self, slot: u32) {
        let s = slot as usize % self.schedulers.len();
        self.schedulers[s].warp_left(slot);
        if let Some(c) = self.ccws.as_mut() {
            c.warp_left(slot);
        }
    }

    /// One cycle: every scheduler tries its warps in policy order and issues the first that
    /// can go. Returns whether an issued instruction made forward progress.
    pub fn cycle(&mut self, port: &mut impl IssuePort) -> bool {
        let mut progress = false;
        let masking = self.mask.as_mut().is_some_and(|m| {
            let on = m.countdown > 0;
            m.countdown = m.countdown.saturating_sub(1);
            on
        });
        if let Some(c) = self.ccws.as_mut() {
            let live = port.live();
            c.begin_cycle(live, |w| !port.eligible(w));
        }
        for s in 0..self.schedulers.len() {
            self.busy_now[s] = self.busy[s] > 0;
            if self.busy[s] > 0 {
                // Still issuing the sub-warps of its last instruction: an issue slot used.
                self.busy[s] -= 1;
                continue;
            }
            let result = self.schedule(s, port, masking, &mut progress);
            if result.issued.is_some() {
                self.busy[s] = self.issue_cycles - 1;
            }
            // The stall counters fold this from the SM's cycle record.
            self.cycles[s] = result;
        }
        progress
    }

    /// Scheduler `s`'s cycle.
    fn schedule(
        &mut self,
        s: usize,
        port: &mut impl IssuePort,
        masking: bool,
        progress: &mut bool,
    ) -> SchedulerCycle {
        let mask = &mut self.mask;
        let mut ccws = self.ccws.as_deref_mut();
        let issue_cycles = self.issue_cycles;
        let scheduler = &mut self.schedulers[s];
        let mut masked_any = false;
        let mut first_masked = None;
        scheduler.refill(|w| port.eligible(w));
        let order = scheduler.take_order(port.live());
        let mut result = SchedulerCycle::IDLE;
        // Once a warp issued, the rest only matter for the per-warp record (and for the
        // two-level scheduler, whose checks demote warps): stop when neither is wanted.
        let records = port.records_states();
        let stop_after_issue = !records && !scheduler.demotes();
        for slot in order.iter() {
            // `check` has set the state of a warp that cannot issue.
            let verdict = match held_by_ccws(ccws.as_deref(), port, slot) {
                Some(reason) => Err(reason),
                None => port.check(slot),
            };
            let verdict = match verdict {
                Ok(()) if held_load(ccws.as_deref(), port, slot) => {
                    port.set_state(slot, WarpCycle::CcwsThrottle);
                    Err(WarpCycle::CcwsThrottle)
                }
                Ok(()) if masking && port.next_memory(slot).is_some() => {
                    masked_any = true;
                    first_masked.get_or_insert(slot);
                    port.set_state(slot, WarpCycle::SchedulingFail);
                    Err(WarpCycle::SchedulingFail)
                }
                other => other,
            };
            let ready = match verdict {
                Ok(()) if result.issued.is_none() => {
                    issue_warp(mask, issue_cycles, port, slot, progress);
                    scheduler.issued(slot);
                    if let Some(c) = ccws.as_deref_mut() {
                        c.issued(slot);
                    }
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
        let relaxed = mask.as_ref().is_some_and(|m| m.relaxed);
        match first_masked {
            // The rejected variant (§5.2, footnote 10): nothing else could issue, so the first
            // masked memory warp goes, safe distance or not.
            Some(slot) if relaxed && result.issued.is_none() => {
                issue_warp(mask, issue_cycles, port, slot, progress);
                scheduler.issued(slot);
                result.issued = Some(slot);
                port.set_state(slot, WarpCycle::Issued);
            }
            // Without the mask a warp would have issued: the scheduler failed (Elastic Fig. 8).
            _ if masked_any && result.issued.is_none() => result.stall = WarpCycle::SchedulingFail,
            _ => {}
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

/// Whether CCWS's static limit keeps warp `slot` from being scheduled at all this cycle
/// (its state is then `swl_limit`).
fn held_by_ccws(ccws: Option<&Ccws>, port: &mut impl IssuePort, slot: u32) -> Option<WarpCycle> {
    let held = ccws.is_some_and(|c| !c.schedulable(slot));
    held.then(|| {
        port.set_state(slot, WarpCycle::SwlLimit);
        WarpCycle::SwlLimit
    })
}

/// Whether dynamic CCWS keeps warp `slot`, ready, from issuing its next instruction, a load
/// through the L1D, this cycle.
fn held_load(ccws: Option<&Ccws>, port: &impl IssuePort, slot: u32) -> bool {
    ccws.is_some_and(|c| !c.may_load(slot)) && port.next_loads_l1d(slot)
}

/// Issues the warp in `slot`; a shared access looks its PC up in the history cache and loads
/// the countdown with the prediction, counted from the end of the warp's own sub-warp issue
/// slots (footnote 9 takes them out of the degree).
fn issue_warp(
    mask: &mut Option<Box<MemoryWarpMask>>,
    issue_cycles: u32,
    port: &mut impl IssuePort,
    slot: u32,
    progress: &mut bool,
) {
    // Only the bank-conflict-aware scheduler asks what the warp issues.
    let shared_pc = mask.as_ref().and_then(|_| {
        port.next_memory(slot)
            .and_then(|(pc, shared)| shared.then_some(pc))
    });
    let issued = port.issue(slot);
    *progress |= issued.progress;
    if let (Some(m), Some(pc)) = (mask.as_mut(), shared_pc) {
        let hits = m.history.stats().hits;
        let predicted = m.history.predict(pc);
        m.last_lookup = Some(Lookup {
            pc,
            predicted,
            hit: m.history.stats().hits > hits,
        });
        m.countdown = match predicted {
            0 => 0,
            p => p + issue_cycles - 1,
        };
        m.pending.push((issued.tag, pc, predicted));
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
