//! The paper's EXE stage (Elastic §3; MODEL.md section 8): an instruction whose operands are
//! all read leaves its collector unit for its execution unit, MEM0, or the elastic pipeline's
//! PREMEM FIFO. In a rigid pipeline ([`PipelineMode::rigid`]) one that cannot leave stops issue
//! for every warp this cycle, and so do a rigid NONMEM path standing still behind a result that
//! lost writeback and a conflicting shared access whose own later sub-warps cannot follow it
//! into MEM0. [`DispatchStage::exe_stall`] says why.
//!
//! With `regfile.dispatch_latency` = L > 0 (GPGPU-Sim: 2) an instruction whose last operand
//! was read in cycle t leaves its collector unit at once and reaches its unit in cycle t + L:
//! GPGPU-Sim's `opndcoll_rfu_t::dispatch_ready_cu` moves it into the OC_EX_* register a step
//! after the read, and `shader_core_ctx::execute` into the unit's `m_dispatch_reg` a cycle
//! later. On the way it holds one of L places per execution unit of its kind; a collector unit
//! whose kind has no place left keeps its instruction (GPGPU-Sim's `collector_unit_t::ready`
//! wants a free OC_EX slot). One that arrives while its unit cannot take it waits there, and
//! in a rigid pipeline stops issue as one in EXE does. `units.result_latch` adds GPGPU-Sim's
//! EX_WB register after the SP, SFU and DP pipelines.
//!
//! Within a cycle the SM calls [`DispatchStage::begin_cycle`], then (after writeback)
//! [`DispatchStage::hold_nonmem`], (after the LD/ST unit's cycle) [`DispatchStage::hold_subwarps`],
//! then [`DispatchStage::cycle`]; the issue stage reads the stall.

use super::decode::Decoded;
use super::held_accesses::MemPath;
use super::in_flight::{InFlight, InFlightTable};
use super::ldst_unit::{LdstUnit, MemoryTiming};
use super::operand_collector::OperandCollector;
use super::pipeline_mode::PipelineMode;
use super::premem::Premem;
use super::stall::WarpCycle;
use super::units::{pipe_index, Pipeline, UnitKind};
use super::writeback::Writeback;
use crate::config::Config;
use crate::mem::mrpb::Requester;
use serde::Serialize;

/// An instruction between its collector unit and its execution unit
/// (`regfile.dispatch_latency`; GPGPU-Sim's OC_EX register and the unit's `m_dispatch_reg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OnTheWay {
    /// The SM's tag for the instruction.
    pub tag: u64,
    /// The execution unit it goes to.
    pub kind: UnitKind,
    /// The first cycle its unit may take it.
    pub at: u64,
}

/// The parts of the back end an instruction leaving EXE can go to.
pub struct BackEnd<'a> {
    pub collector: &'a mut OperandCollector,
    pub in_flight: &'a InFlightTable,
    /// MEM0's costing: it costs the access of the instruction it takes.
    pub timing: &'a mut MemoryTiming,
    pub ldst: &'a mut LdstUnit,
    /// SP, SFU, DP (indexed by [`pipe_index`]).
    pub pipelines: &'a mut [Pipeline],
}

/// The dispatch (EXE) stage of one SM.
#[derive(Debug, Clone)]
pub struct DispatchStage {
    mode: PipelineMode,
    /// M (`elastic.mem_stages`): the NONMEM path's length and FIFO depth.
    mem_stages: u32,
    /// warp_size / simd_width.
    passes: u32,
    premem: Premem,
    /// Why no warp may issue this cycle, if an instruction cannot leave EXE.
    exe_stall: Option<WarpCycle>,
    /// Reused each cycle: collector units ready to dispatch (unit, tag).
    ready: Vec<(usize, u64)>,
    /// `regfile.dispatch_latency`: cycles from the last operand read to the execution unit.
    latency: u32,
    /// Places on the way per unit kind (indexed by [`UnitKind::index`]): the latency times the
    /// units of the kind.
    places: [usize; 4],
    /// Instructions on their way from a collector unit to their execution unit, oldest first.
    on_the_way: Vec<OnTheWay>,
    /// `units.result_latch`: registers an ALU result passes before writeback.
    result_latch: u32,
}

impl DispatchStage {
    pub fn new(config: &Config) -> DispatchStage {
        let mode = PipelineMode::of(config);
        let passes = (config.core.warp_size / config.core.simd_width.max(1)).max(1);
        let latency = config.regfile.dispatch_latency;
        let u = &config.units;
        let units = [u.sp_units, u.sfu_units, u.dp_units, u.ldst_units];
        DispatchStage {
            mode,
            mem_stages: config.elastic.mem_stages,
            passes,
            premem: Premem::new(mode.premem_depth(passes), passes - 1),
            exe_stall: None,
            ready: Vec::new(),
            latency,
            places: units.map(|n| (latency * n) as usize),
            on_the_way: Vec::new(),
            result_latch: config.units.result_latch,
        }
    }

    /// A new cycle: nothing holds issue yet.
    pub fn begin_cycle(&mut self) {
        self.exe_stall = None;
    }

    /// Non-memory results that lost writeback beyond what the NONMEM path can hold (none in a
    /// rigid path, M in the elastic FIFO) stop their units, and a rigid pipeline stops issue
    /// behind them: a bank conflict's stall when a shared access took the port (Elastic Fig.
    /// 4(b), cycle i+6), a writeback conflict otherwise (Fig. 8's "other").
    pub fn hold_nonmem(
        &mut self,
        now: u64,
        writeback: &Writeback,
        in_flight: &InFlightTable,
        pipelines: &mut [Pipeline],
    ) {
        let capacity = self.mode.nonmem_capacity(self.mem_stages);
        let waiting = writeback.waiting();
        if waiting.len() <= capacity {
            return;
        }
        for &tag in &waiting[capacity..] {
            if let Some(f) = in_flight.get(tag) {
                pipelines[pipe_index(f.unit)].freeze(now);
            }
        }
        self.exe_stall = Some(if writeback.shared_won() {
            WarpCycle::BankConflict
        } else {
            WarpCycle::WritebackConflict
        });
    }

    /// In the paper's pipelines the memory stages are latches: when the last one loses
    /// writeback, the shared accesses behind it and MEM0's hand-over wait a cycle. The decoupled
    /// back end keeps its results in a writeback queue instead.
    pub fn hold_mem_stages(
        &self,
        now: u64,
        writeback: &Writeback,
        in_flight: &InFlightTable,
        ldst: &mut LdstUnit,
    ) {
        if !self.mode.rigid() || !writeback.shared_lost() {
            return;
        }
        let is_shared = |tag| {
            in_flight
                .get(tag)
                .is_some_and(|f| f.memory == Some(MemPath::Shared))
        };
        ldst.freeze_mem_stages(now, is_shared);
    }

    /// A rigid pipeline without a PREMEM FIFO stops issue while a conflicting shared access's
    /// own later sub-warps cannot follow it into MEM0 (Elastic §3.2.3: "W_i+1 being blocked at
    /// EXE and all upstream pipeline stages being blocked").
    pub fn hold_subwarps(&mut self, ldst: &LdstUnit) {
        if self.mode.rigid() && self.premem.depth() == 0 && ldst.subwarps_held() {
            self.exe_stall.get_or_insert(WarpCycle::BankConflict);
        }
    }

    /// The cycle: PREMEM's oldest enters a free MEM0, then every instruction whose operands are
    /// read tries to leave its collector unit. `requester` names a warp slot for the MRPB.
    pub fn cycle(
        &mut self,
        now: u64,
        back: BackEnd<'_>,
        decoded: &[Decoded],
        requester: impl Fn(u32) -> Requester,
    ) {
        let BackEnd {
            collector,
            in_flight,
            timing,
            ldst,
            pipelines,
        } = back;
        if ldst.can_accept() {
            if let Some(tag) = self.premem.pop() {
                enter_mem0((&mut *ldst, &mut *timing), in_flight, tag, &requester);
            }
        }
        if self.latency > 0 {
            self.arrive(
                now,
                (&mut *ldst, &mut *timing, &mut *pipelines),
                in_flight,
                decoded,
                &requester,
            );
        }
        let mut ready = std::mem::take(&mut self.ready);
        ready.clear();
        ready.extend(collector.ready().map(|r| (r.unit, r.tag)));
        for &(unit, tag) in &ready {
            if self.latency > 0 {
                self.leave_collector(now, collector, in_flight, unit, tag);
                continue;
            }
            let Some(f) = in_flight.get(tag) else {
                collector.release(unit);
                continue;
            };
            let to = (&mut *ldst, &mut *timing, &mut *pipelines);
            match self.dispatch(now, &f, to, in_flight, decoded, &requester) {
                Ok(()) => collector.release(unit),
                Err(reason) if self.mode.rigid() => {
                    self.exe_stall.get_or_insert(reason);
                }
                Err(_) => {}
            }
        }
        self.ready = ready;
    }

    /// Instructions on the way whose time has come enter their units, oldest first; one whose
    /// unit cannot take it waits (and stops a rigid pipeline's issue).
    fn arrive(
        &mut self,
        now: u64,
        (ldst, timing, pipelines): (&mut LdstUnit, &mut MemoryTiming, &mut [Pipeline]),
        in_flight: &InFlightTable,
        decoded: &[Decoded],
        requester: &impl Fn(u32) -> Requester,
    ) {
        // Those that stay are compacted in place, in order (no shifting per one that leaves).
        let mut ways = std::mem::take(&mut self.on_the_way);
        let mut kept = 0;
        for i in 0..ways.len() {
            let w = ways[i];
            let stays = w.at > now
                || in_flight.get(w.tag).is_some_and(|f| {
                    let to = (&mut *ldst, &mut *timing, &mut *pipelines);
                    match self.dispatch(now, &f, to, in_flight, decoded, requester) {
                        Ok(()) => false,
                        Err(reason) => {
                            if self.mode.rigid() {
                                self.exe_stall.get_or_insert(reason);
                            }
                            true
                        }
                    }
                });
            if stays {
                ways[kept] = w;
                kept += 1;
            }
        }
        ways.truncate(kept);
        self.on_the_way = ways;
    }

    /// The instruction in collector unit `unit`, all its operands read this cycle or earlier,
    /// leaves it for its execution unit if a place on the way is free.
    fn leave_collector(
        &mut self,
        now: u64,
        collector: &mut OperandCollector,
        in_flight: &InFlightTable,
        unit: usize,
        tag: u64,
    ) {
        let Some(f) = in_flight.get(tag) else {
            collector.release(unit);
            return;
        };
        let taken = self.on_the_way.iter().filter(|w| w.kind == f.unit).count();
        if taken < self.places[f.unit.index()] {
            self.on_the_way.push(OnTheWay {
                tag,
                kind: f.unit,
                at: now + u64::from(self.latency),
            });
            collector.release(unit);
        }
    }

    /// Instructions between their collector unit and their execution unit, oldest first.
    pub fn on_the_way(&self) -> &[OnTheWay] {
        &self.on_the_way
    }

    /// Sends instruction `f` on from EXE, or says why it must stay.
    fn dispatch(
        &mut self,
        now: u64,
        f: &InFlight,
        (ldst, timing, pipelines): (&mut LdstUnit, &mut MemoryTiming, &mut [Pipeline]),
        in_flight: &InFlightTable,
        decoded: &[Decoded],
        requester: &impl Fn(u32) -> Requester,
    ) -> Result<(), WarpCycle> {
        let conflict = ldst.conflict_in_mem0();
        match f.unit {
            UnitKind::Mem if self.premem.is_empty() && ldst.can_accept() => {
                enter_mem0((ldst, timing), in_flight, f.tag, requester);
                Ok(())
            }
            UnitKind::Mem if self.premem.push(f.tag, ldst.mem0_cycles_left()) => Ok(()),
            UnitKind::Mem if conflict => Err(WarpCycle::BankConflict),
            UnitKind::Mem if f.memory == Some(MemPath::Shared) => Err(WarpCycle::MioThrottle),
            UnitKind::Mem => Err(WarpCycle::LgThrottle),
            _ if conflict && self.mode.unified_mem_stages() => Err(WarpCycle::BankConflict),
            kind => {
                let pipe = &mut pipelines[pipe_index(kind)];
                if pipe.is_frozen(now) {
                    return Err(self.exe_stall.unwrap_or(WarpCycle::WritebackConflict));
                }
                let timing = decoded[f.pc as usize].timing;
                let path = self.mode.nonmem_stages(self.mem_stages) + self.result_latch;
                match pipe.accept(now, f.tag, timing, self.passes, path) {
                    true => Ok(()),
                    false => Err(WarpCycle::MathPipeThrottle),
                }
            }
        }
    }

    /// Why no warp may issue this cycle, if an instruction cannot leave EXE.
    pub fn exe_stall(&self) -> Option<WarpCycle> {
        self.exe_stall
    }

    pub fn mode(&self) -> PipelineMode {
        self.mode
    }

    /// The elastic pipeline's PREMEM FIFO (no entries in the other modes).
    pub fn premem(&self) -> &Premem {
        &self.premem
    }
}

/// Memory instruction `tag` enters MEM0, which costs the access it carried from issue.
fn enter_mem0(
    (ldst, timing): (&mut LdstUnit, &mut MemoryTiming),
    in_flight: &InFlightTable,
    tag: u64,
    requester: &impl Fn(u32) -> Requester,
) {
    if let Some(f) = in_flight.get(tag) {
        ldst.accept(tag, &timing.take(tag), requester(f.warp));
    }
}
