//! One streaming multiprocessor (book chapter 3; MODEL.md sections 1, 3-6), stepped one cycle at
//! a time. [`Sm::cycle`] runs the stages in reverse pipeline order, so a value moves one stage
//! per cycle without double buffering (GPGPU-Sim's order):
//!
//! 1. writeback: finished results take the writeback ports (memory first, then the oldest ALU
//!    result), release the scoreboard and occupy their register bank for the cycle;
//! 2. execute: the LD/ST unit's MEM0 stage works (the ALU pipelines are timed by their
//!    latencies);
//! 3. operand read: the operand collector reads register banks; instructions with every operand
//!    dispatch to their unit when it accepts;
//! 4. issue: each scheduler issues at most one instruction from one of its warps (the instruction
//!    executes functionally at issue, as in GPGPU-Sim); CTA barriers release;
//! 5. decode: last cycle's fetch enters its warp's I-buffer;
//! 6. fetch: `core.fetch_width` instructions for the next warp (round-robin) with I-buffer
//!    space; with an instruction cache (`core.icache.model = cache`) they are read from it, and
//!    a warp whose line misses waits until the line is back (GPGPU-Sim's `imiss_pending`).

use super::cycle_record::{CycleRecord, IssueRecord};
use super::decode::Decoded;
use super::dispatch::{BackEnd, DispatchStage};
use super::fetch::{FetchLatch, FrontEnd};
use super::held_accesses::MemPath;
use super::in_flight::{InFlight, InFlightTable};
use super::issue::{IssuePort, IssueStage, Issued};
use super::ldst_unit::{LdstUnit, MemoryTiming};
use super::operand_collector::OperandCollector;
use super::pipeline_mode::PipelineMode;
use super::premem::Premem;
use super::register_banks::RegisterBanks;
use super::scheduler::Scheduler;
use super::scoreboard::Hazard;
use super::stall::WarpCycle;
use super::units::{pipe_index, Pipeline, UnitKind};
use super::warp_slot::WarpSlot;
use super::writeback::Writeback;
use crate::config::Config;
use crate::exec::cta::CtaState;
use crate::exec::execute::{execute, AccessRecord, Env, Flow, Memories};
use crate::exec::warp_ops::finish_reduction;
use crate::exec::{BranchOutcome, Fault, GlobalMemory, KernelImage, LaneMask};
use crate::mem::mrpb::{Offer, Requester};
use crate::ptx::Pc;
use serde::Serialize;

pub use super::sm_stats::SmStats;

/// What an SM needs from outside for one cycle (global memory is not part of it: the
/// instructions that reach it execute in [`Sm::execute_deferred`]).
pub struct SmContext<'a> {
    /// The kernel and the GPU, as executing an instruction reads them.
    pub exec: ExecContext<'a>,
    /// Issue events are appended here when tracing.
    pub trace: Option<&'a mut Vec<IssueEvent>>,
    /// This SM's L1 data cache, the LD/ST unit's way into the memory system (issue 5).
    pub l1d: &'a mut crate::mem::L1d,
}

/// What executing an instruction reads of the kernel and the GPU (immutable during a launch).
#[derive(Clone, Copy)]
pub struct ExecContext<'a> {
    pub image: &'a KernelImage,
    pub decoded: &'a [Decoded],
    pub reg_masks: &'a [u64],
    pub sms: u32,
}

/// One issued instruction, for `--trace` and the views.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IssueEvent {
    pub cycle: u64,
    pub sm: u32,
    /// Warp slot.
    pub warp: u32,
    pub pc: Pc,
    /// PTX line.
    pub line: u32,
    /// Active mask at issue.
    pub mask: LaneMask,
    /// The SIMT stack after the instruction: (pc, rpc, mask), bottom first.
    pub stack: Vec<(Pc, Option<Pc>, LaneMask)>,
    /// The SM's tag for the instruction, which its memory requests carry
    /// (`crate::mem::events`); not part of the `--trace` line.
    #[serde(skip)]
    pub tag: u64,
}

/// One instruction that wrote back, for `--trace` (Elastic §3.2.2: commit is out of order
/// across warps in the elastic pipeline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CommitEvent {
    pub cycle: u64,
    pub sm: u32,
    /// Warp slot.
    pub warp: u32,
    pub pc: Pc,
}

/// A resident CTA: its functional state and the warp slots its warps occupy.
#[derive(Debug, Clone)]
pub struct CtaSlot {
    pub cta: CtaState,
    /// Warp slot of each warp of the CTA.
    pub warp_slots: Vec<u32>,
    /// Launch order of the CTA in the grid.
    pub index: u64,
    /// Resources it holds.
    pub threads: u32,
    pub registers: u32,
    pub shared_bytes: u32,
    /// A warp of the CTA arrived at a barrier or exited since its barriers were last checked:
    /// only then can one complete ([`Sm`]'s barrier release skips the CTA otherwise).
    pub barriers_changed: bool,
}

/// Limits and timing the SM reads every cycle, taken from the configuration once.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Params {
    warp_size: u32,
    /// Warp schedulers (warp slot w belongs to scheduler w mod this).
    schedulers: u32,
    passes: u32,
    scoreboard_limit: Option<u32>,
    strict_barrel: bool,
    push_order: crate::config::PushOrder,
    max_threads: u32,
    max_ctas: u32,
    registers: u32,
    shared_bytes: u32,
}

/// One SM.
#[derive(Debug, Clone)]
pub struct Sm {
    pub id: u32,
    params: Params,
    warps: Vec<Option<WarpSlot>>,
    ctas: Vec<Option<CtaSlot>>,
    issue: IssueStage,
    collector: OperandCollector,
    register_banks: RegisterBanks,
    /// SP, SFU, DP pipelines (indexed by `pipe_index`).
    pipelines: Vec<Pipeline>,
    ldst: LdstUnit,
    /// The paper's EXE: operands read, instructions leave for their unit, MEM0 or PREMEM.
    dispatch: DispatchStage,
    memory: MemoryTiming,
    in_flight: InFlightTable,
    front: FrontEnd,
    next_tag: u64,
    used_threads: u32,
    used_registers: u32,
    used_shared: u32,
    resident_ctas: u32,
    resident_warps: u32,
    /// Set when a warp may have finished and drained this cycle (so CTA retirement is checked).
    maybe_drained: bool,
    /// Bit w set while warp slot w holds a warp with threads still running (the schedulers'
    /// candidates), so ordering warps touches no warp state.
    live: u128,
    /// Record every warp's state every cycle (for the warp timeline and the views); off, only
    /// what timing and the statistics need is computed.
    record_warp_states: bool,
    /// Every warp slot's state in recent cycles (recorded with `record_warp_states`).
    timeline: super::timeline::WarpTimeline,
    /// The last cycle this SM made forward progress (a register or memory value changed, a warp exited, a
    /// barrier released or a CTA completed), for deadlock detection.
    last_progress: u64,
    /// Counters, except the stall reasons (see [`Sm::stats`]).
    stats: SmStats,
    fault: Option<Box<Fault>>,
    writeback: Writeback,
    /// The access the last instruction executed made (the functional executor's record).
    access: AccessRecord,
    /// What this SM did in the last cycle.
    record: CycleRecord,
    /// Completed CTA barriers of the cycle (the buffers reused).
    releases: Vec<crate::exec::cta_barrier::Release>,
    /// Instructions issued this cycle whose functional execution waits for global memory
    /// ([`Sm::execute_deferred`]), in issue order.
    deferred: Vec<sm_issue::DeferredIssue>,
    /// A generic access waits among them (the cycle's shared accesses wait behind it).
    deferred_generic: bool,
    /// Whether this cycle's issue stage made forward progress (its deferred executions
    /// included), between [`Sm::cycle_through_issue`] and [`Sm::cycle_after_issue`].
    issue_progress: bool,
}

/// Warp slot `warp` as MRPB's signatures see it.
fn requester(warps: &[Option<WarpSlot>], ctas: &[Option<CtaSlot>], warp: u32) -> Requester {
    let (cta, warp_in_cta) = warps[warp as usize]
        .as_ref()
        .map_or((0, 0), |w| (w.cta_slot, w.warp_in_cta));
    let block = ctas
        .get(cta as usize)
        .and_then(Option::as_ref)
        .map_or(0, |c| c.index);
    Requester {
        warp,
        cta,
        warp_in_cta,
        block,
    }
}

#[path = "sm_issue.rs"]
mod sm_issue;

/// Passes of a warp through the SIMD datapath: warp_size / simd_width.
fn params_passes(config: &Config) -> u32 {
    (config.core.warp_size / config.core.simd_width.max(1)).max(1)
}

impl Sm {
    /// SM `id` of a GPU configured by `config`.
    pub fn new(id: u32, config: &Config) -> Result<Self, String> {
        let core = &config.core;
        let params = Params {
            warp_size: core.warp_size,
            schedulers: core.schedulers_per_sm.max(1),
            passes: params_passes(config),
            scoreboard_limit: core.scoreboard_max_entries,
            strict_barrel: core.strict_barrel,
            push_order: core.push_order,
            max_threads: core.max_threads_per_sm,
            max_ctas: core.max_ctas_per_sm,
            registers: core.registers_per_sm,
            shared_bytes: config.shmem.size_bytes,
        };
        let units = &config.units;
        Ok(Sm {
            id,
            params,
            warps: vec![None; core.max_warps_per_sm as usize],
            ctas: vec![None; core.max_ctas_per_sm as usize],
            issue: IssueStage::new(config),
            collector: OperandCollector::new(&config.regfile),
            register_banks: RegisterBanks::new(&config.regfile),
            pipelines: vec![
                Pipeline::new(UnitKind::Sp, units.sp_units),
                Pipeline::new(UnitKind::Sfu, units.sfu_units),
                Pipeline::new(UnitKind::Dp, units.dp_units),
            ],
            ldst: LdstUnit::new(config),
            dispatch: DispatchStage::new(config),
            memory: MemoryTiming::new(config)?,
            in_flight: InFlightTable::default(),
            front: FrontEnd::new(core),
            next_tag: 0,
            used_threads: 0,
            used_registers: 0,
            used_shared: 0,
            resident_ctas: 0,
            resident_warps: 0,
            maybe_drained: false,
            live: 0,
            record_warp_states: true,
            timeline: super::timeline::WarpTimeline::new(core.max_warps_per_sm as usize),
            last_progress: 0,
            stats: SmStats::default(),
            fault: None,
            writeback: Writeback::new(config.regfile.writeback_width),
            access: AccessRecord::default(),
            record: CycleRecord::default(),
            releases: Vec::new(),
            deferred: Vec::new(),
            deferred_generic: false,
            issue_progress: false,
        })
    }

    // ----- CTA placement -----------------------------------------------------------------

    /// Whether a CTA of `threads` threads using `registers` registers and `shared` bytes fits.
    pub fn fits(&self, threads: u32, registers: u32, shared: u32) -> bool {
        let warps_needed = threads.div_ceil(self.params.warp_size);
        self.resident_ctas < self.ctas.len() as u32
            && self.resident_warps + warps_needed <= self.warps.len() as u32
            && self.used_threads + threads <= self.params.max_threads
            && self.used_registers + registers <= self.params.registers
            && self.used_shared + shared <= self.params.shared_bytes
    }

    /// Places a CTA; its warps take the lowest free warp slots. `age_base` numbers its warps for
    /// GTO's "oldest first".
    pub fn launch(
        &mut self,
        cta: CtaState,
        index: u64,
        registers: u32,
        shared_bytes: u32,
        age_base: u64,
    ) {
        let Some(cta_slot) = self.ctas.iter().position(Option::is_none) else {
            return;
        };
        let threads = cta.warps.iter().map(|w| w.valid.count_ones()).sum();
        let mut warp_slots = Vec::with_capacity(cta.warps.len());
        for (w, state) in cta.warps.iter().enumerate() {
            let Some(slot) = self.warps.iter().position(Option::is_none) else {
                break;
            };
            let warp = WarpSlot::new(
                cta_slot as u32,
                w as u32,
                age_base + w as u64,
                state.is_finished(),
            );
            let age = warp.age;
            if !warp.finished {
                self.live |= 1 << slot;
            }
            self.warps[slot] = Some(warp);
            self.issue.warp_arrived(slot as u32, age);
            self.front.wake();
            warp_slots.push(slot as u32);
        }
        self.used_threads += threads;
        self.used_registers += registers;
        self.used_shared += shared_bytes;
        self.resident_ctas += 1;
        self.resident_warps += warp_slots.len() as u32;
        self.ctas[cta_slot] = Some(CtaSlot {
            cta,
            warp_slots,
            index,
            threads,
            registers,
            shared_bytes,
            barriers_changed: true,
        });
    }

    /// CTAs resident now.
    pub fn resident_ctas(&self) -> u32 {
        self.resident_ctas
    }

    /// Whether any CTA is resident.
    pub fn is_busy(&self) -> bool {
        self.ctas.iter().any(Option::is_some)
    }

    // ----- the cycle ---------------------------------------------------------------------

    /// Whether the SM works this cycle (no fault stopped it, and it holds a CTA): then its
    /// LD/ST unit takes the reply its L1D posts ([`crate::mem::MemorySystem::cycle`]).
    pub fn works(&self) -> bool {
        self.fault.is_none() && self.is_busy()
    }

    /// One cycle. A fault stops the SM; [`Sm::take_fault`] returns it.
    pub fn cycle(&mut self, now: u64, ctx: &mut SmContext, global: &mut GlobalMemory) {
        if self.cycle_through_issue(now, ctx) {
            self.execute_deferred(now, &ctx.exec, global, ctx.trace.as_deref_mut());
            self.cycle_after_issue(now, ctx);
        }
    }

    /// The cycle's first part, which reads and writes only this SM and its L1D: writeback,
    /// the LD/ST unit, operand read and issue (the instructions that reach global memory wait
    /// for [`Sm::execute_deferred`]). Returns whether the SM works this cycle; if not, its
    /// cycle is over.
    pub fn cycle_through_issue(&mut self, now: u64, ctx: &mut SmContext) -> bool {
        let works = self.works();
        self.record.begin(now, works);
        if !works {
            self.writeback.idle();
            self.dispatch.begin_cycle();
            self.end_record(now);
            return false;
        }
        self.dispatch.begin_cycle();
        self.register_banks.begin_cycle();
        self.writeback(now, ctx);
        // Register reads claim their banks before a unified pool's memory access (§4.3).
        self.collector.read_cycle(&mut self.register_banks);
        self.ldst
            .cycle(now, &mut self.memory, ctx.l1d, &mut self.register_banks);
        let issue = &mut self.issue;
        self.ldst.drain_locality(|e| issue.observe_l1d(e));
        self.dispatch.hold_subwarps(&self.ldst);
        self.shared_resolved();
        self.operand_read(now, ctx.exec.decoded);
        self.issue_progress = self.issue(now, ctx);
        true
    }

    /// Whether the SM worked in the cycle it is in or last simulated.
    pub fn works_this_cycle(&self) -> bool {
        self.record.worked
    }

    /// The cycle's last part, after the deferred executions (again only this SM and its L1D):
    /// barriers, decode, fetch, retiring finished CTAs, the cycle's record.
    pub fn cycle_after_issue(&mut self, now: u64, ctx: &mut SmContext) {
        let progress = self.issue_progress | self.release_barriers(ctx);
        self.front.decode(&mut self.warps);
        if !self.record.issued.is_empty() || !self.writeback.done().is_empty() {
            self.front.wake();
        }
        let instrs = ctx.exec.decoded.len() as u32;
        self.front.fetch(now, &mut self.warps, instrs, ctx.l1d);
        if progress | self.retire_finished() {
            self.last_progress = now;
        }
        self.end_record(now);
    }

    /// Completes this cycle's record from the stages that keep their part (the schedulers,
    /// MEM0, writeback; every warp's state when the views ask), folds it into the counters and
    /// the warp timeline.
    fn end_record(&mut self, now: u64) {
        let r = &mut self.record;
        r.schedulers.clear();
        r.schedulers.extend_from_slice(self.issue.cycles());
        r.busy.clear();
        r.busy.extend(self.issue.busy_now());
        r.end_issue(r.schedulers.len());
        r.mem0 = match r.worked {
            true => *self.ldst.cycle_record(),
            false => Default::default(),
        };
        r.writeback.extend_from_slice(self.writeback.committed());
        if self.record_warp_states {
            let works = r.worked;
            let states = self.warps.iter().map(|w| match w {
                Some(w) if works => w.state,
                _ => WarpCycle::Idle,
            });
            r.warp_states.extend(states);
            let states = &r.warp_states;
            self.timeline.record(now, |slot| states[slot]);
        }
        self.stats.fold(&self.record);
    }

    /// What this SM did in the cycle it last simulated.
    pub fn last_cycle(&self) -> &CycleRecord {
        &self.record
    }

    /// This SM's counters so far.
    pub fn stats(&self) -> SmStats {
        let mut stats = self.stats.with_stalls();
        let shared = self.memory.shared_stats();
        stats.shared_instructions = shared.instructions;
        stats.bank_conflict_cycles = shared.bank_conflict_cycles;
        stats.conflict_degrees = shared.degree_counts();
        stats.register_bank_conflicts = self.collector.conflict_cycles();
        stats
    }

    /// Thread instructions issued so far (cheaper than [`Sm::stats`], which builds the stall map).
    pub fn thread_instructions(&self) -> u64 {
        self.stats.thread_instructions
    }

    /// What every warp slot did in recent cycles.
    pub fn timeline(&self) -> &super::timeline::WarpTimeline {
        &self.timeline
    }

    /// Whether every warp's state is classified every cycle (the views need it; timing and
    /// statistics do not: they read only each scheduler's choice and its best candidate).
    pub fn set_record_warp_states(&mut self, on: bool) {
        self.record_warp_states = on;
    }

    /// Whether every warp's state is classified every cycle (see `set_record_warp_states`).
    pub fn records_warp_states(&self) -> bool {
        self.record_warp_states
    }

    /// A fault raised this cycle, if any (the SM stops after one).
    pub fn take_fault(&mut self) -> Option<Box<Fault>> {
        self.fault.take()
    }

    /// The last cycle this SM made forward progress (a register or memory value changed, a warp exited, a
    /// barrier released or a CTA completed). A spin lock keeps issuing without progress.
    pub fn last_progress(&self) -> u64 {
        self.last_progress
    }

    /// A shared access that finished its bank passes tells the issue stage how many cycles
    /// beyond one per sub-warp it took (the bank-conflict history cache learns it).
    fn shared_resolved(&mut self) {
        // Footnote 9's warp_bkconf_degree less the sub-warps: the passes beyond one per
        // sub-warp (a sub-warp without an active lane takes no pass here).
        let Some((tag, extra)) = self.ldst.take_shared_done() else {
            return;
        };
        if let Some(f) = self.in_flight.get(tag) {
            self.issue.shared_resolved(tag, f.pc, extra);
        }
    }

    /// Writeback: the results chosen write their registers and leave the back end.
    fn writeback(&mut self, now: u64, ctx: &SmContext) {
        let n = self
            .writeback
            .cycle(
                now,
                ctx.exec.decoded,
                &self.in_flight,
                (&self.ldst, &self.pipelines),
                &mut self.register_banks,
                &mut self.warps,
            )
            .len();
        for i in 0..n {
            let tag = self.writeback.done()[i];
            self.retire(tag, ctx.exec.decoded);
        }
        let (wb, in_flight) = (&self.writeback, &self.in_flight);
        self.dispatch
            .hold_nonmem(now, wb, in_flight, &mut self.pipelines);
        self.dispatch
            .hold_mem_stages(now, wb, in_flight, &mut self.ldst);
    }

    /// Removes an instruction that completed: scoreboard, unit, warp bookkeeping.
    fn retire(&mut self, tag: u64, decoded: &[Decoded]) {
        let Some(f) = self.in_flight.remove(tag) else {
            return;
        };
        let dests = decoded[f.pc as usize].dests.as_slice();
        match f.unit {
            UnitKind::Mem => self.ldst.retire(f.tag),
            kind => self.pipelines[pipe_index(kind)].retire(f.tag),
        }
        if let Some(w) = self.warps[f.warp as usize].as_mut() {
            w.scoreboard.release(dests);
            w.blocked = None;
            w.in_flight = w.in_flight.saturating_sub(1);
            self.maybe_drained |= w.finished && w.in_flight == 0;
            if w.branch_pending == Some(f.tag) {
                w.branch_pending = None;
            }
        }
    }

    /// Dispatch (the paper's EXE, [`DispatchStage`]) of the instructions whose registers are read
    /// (the collector read its banks earlier in the cycle, before the LD/ST unit).
    fn operand_read(&mut self, now: u64, decoded: &[Decoded]) {
        let (warps, ctas) = (&self.warps, &self.ctas);
        let back = BackEnd {
            collector: &mut self.collector,
            in_flight: &self.in_flight,
            timing: &mut self.memory,
            ldst: &mut self.ldst,
            pipelines: &mut self.pipelines,
        };
        self.dispatch
            .cycle(now, back, decoded, |w| requester(warps, ctas, w));
    }

    /// Completes CTA barriers whose warps have all arrived; writes `bar.red` results. Returns
    /// whether any barrier completed.
    fn release_barriers(&mut self, ctx: &SmContext) -> bool {
        let mut any = false;
        for slot in self.ctas.iter_mut().flatten() {
            if !std::mem::take(&mut slot.barriers_changed) || !slot.cta.barriers.has_arrivals() {
                continue;
            }
            let live = slot.cta.live_warps();
            let releases = &mut self.releases;
            let n = slot
                .cta
                .barriers
                .release_ready_into(live, self.params.warp_size, releases);
            for release in &releases[..n] {
                any = true;
                for w in &release.warps {
                    if let Some(&ws) = slot.warp_slots.get(*w as usize) {
                        if let Some(warp) = self.warps[ws as usize].as_mut() {
                            warp.at_barrier = false;
                            warp.blocked = None;
                        }
                    }
                }
                for (w, red) in &release.reductions {
                    let env = Env {
                        image: ctx.exec.image,
                        func: ctx.exec.image.func(),
                        ctaid: slot.cta.ctaid,
                        warp_slot: slot.warp_slots.get(*w as usize).copied().unwrap_or(0),
                        warp_slots: self.warps.len() as u32,
                        sm: self.id,
                        sms: ctx.exec.sms,
                        clock: 0,
                        push_order: self.params.push_order,
                        reg_masks: ctx.exec.reg_masks,
                    };
                    if let Some(state) = slot.cta.warps.get_mut(*w as usize) {
                        finish_reduction(&env, state, red, release.true_count, release.lane_count);
                    }
                }
            }
        }
        any
    }

    /// Frees the slots of warps that finished and drained, and of CTAs whose warps all left.
    /// Returns whether a CTA completed.
    fn retire_finished(&mut self) -> bool {
        let mut any = false;
        if !std::mem::take(&mut self.maybe_drained) {
            return false;
        }
        for c in 0..self.ctas.len() {
            let Some(cta) = self.ctas[c].as_ref() else {
                continue;
            };
            let done = cta.warp_slots.iter().all(|&ws| {
                self.warps[ws as usize]
                    .as_ref()
                    .map_or(true, |w| w.finished && w.in_flight == 0)
            });
            if !done || !cta.cta.is_finished() {
                continue;
            }
            let Some(cta) = self.ctas[c].take() else {
                continue;
            };
            for &ws in &cta.warp_slots {
                self.warps[ws as usize] = None;
                self.live &= !(1 << ws);
                self.issue.warp_left(ws);
            }
            self.used_threads -= cta.threads;
            self.used_registers -= cta.registers;
            self.used_shared -= cta.shared_bytes;
            self.resident_ctas -= 1;
            self.resident_warps -= cta.warp_slots.len() as u32;
            self.stats.ctas_completed += 1;
            any = true;
        }
        any
    }

    // ----- views -------------------------------------------------------------------------

    /// The issue stage (schedulers, the bank-conflict-aware mask).
    pub fn issue_stage(&self) -> &IssueStage {
        &self.issue
    }

    /// The warp slots.
    pub fn warps(&self) -> &[Option<WarpSlot>] {
        &self.warps
    }

    /// The CTA slots.
    pub fn ctas(&self) -> &[Option<CtaSlot>] {
        &self.ctas
    }

    /// The schedulers.
    pub fn schedulers(&self) -> &[Scheduler] {
        self.issue.schedulers()
    }

    /// The operand collector.
    pub fn collector(&self) -> &OperandCollector {
        &self.collector
    }

    /// The register file's banks: this cycle's bank activity and the register accesses so far.
    pub fn register_banks(&self) -> &RegisterBanks {
        &self.register_banks
    }

    /// The back end's shape.
    pub fn pipeline_mode(&self) -> PipelineMode {
        self.dispatch.mode()
    }

    /// The elastic pipeline's PREMEM FIFO (no entries in the other modes).
    pub fn premem(&self) -> &Premem {
        self.dispatch.premem()
    }

    /// Non-memory results that finished and lost writeback in the latest cycle, oldest first
    /// (the elastic NONMEM FIFO's entries; in a rigid pipeline, the results its units hold).
    pub fn nonmem_waiting(&self) -> &[u64] {
        self.writeback.waiting()
    }

    /// Why no warp could issue in the latest cycle because an instruction could not leave
    /// EXE (rigid pipelines), if that happened.
    pub fn exe_stall(&self) -> Option<WarpCycle> {
        self.dispatch.exe_stall()
    }

    /// The SP, SFU and DP pipelines.
    pub fn pipelines(&self) -> &[Pipeline] {
        &self.pipelines
    }

    /// The LD/ST unit.
    pub fn ldst(&self) -> &LdstUnit {
        &self.ldst
    }

    /// The memory timing (and the latest shared access's bank grid).
    pub fn memory(&self) -> &MemoryTiming {
        &self.memory
    }

    /// Instructions in flight.
    pub fn in_flight(&self) -> &[InFlight] {
        self.in_flight.as_slice()
    }

    /// The in-flight instruction tagged `tag`, if it has not written back.
    pub fn in_flight_instr(&self, tag: u64) -> Option<InFlight> {
        self.in_flight.get(tag)
    }

    /// The fetch latch (instruction fetched last cycle, decoded this one).
    pub fn fetch_latch(&self) -> Option<FetchLatch> {
        self.front.latch()
    }

    /// The functional state of the warp in `slot`.
    pub fn warp_state(&self, slot: u32) -> Option<&crate::exec::warp::WarpState> {
        let w = self.warps.get(slot as usize)?.as_ref()?;
        let cta = self.ctas.get(w.cta_slot as usize)?.as_ref()?;
        cta.cta.warps.get(w.warp_in_cta as usize)
    }
}
