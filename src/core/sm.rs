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
pub use sm_ctas::CtaSlot;

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

#[path = "sm_ctas.rs"]
mod sm_ctas;
#[path = "sm_issue.rs"]
mod sm_issue;
#[path = "sm_view.rs"]
mod sm_view;

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
}
