//! The back end as the pipeline view draws it (issue 14; Elastic Figs. 4-7): which of the
//! paper's pipelines the SM has, MEM0 and the memory stages after it, the PREMEM and NONMEM
//! FIFOs, this cycle's writeback winners and waiting results, the stall that stopped issue, and
//! the bank-conflict-aware scheduler's history cache, countdown and masked warps. Read from the
//! model; nothing here is recomputed timing.

use crate::core::held_accesses::MemPath;
use crate::core::issue::Lookup;
use crate::core::sm::Sm;
use crate::core::WarpCycle;
use crate::instr_view::{instr_view, InUnitView, InstrView};
use crate::ptx::Function;
use crate::sim::Sim;
use serde::Serialize;

/// The instruction in MEM0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mem0View {
    pub warp: u32,
    pub instr: InstrView,
    /// Cycles it still holds MEM0 (counting the next).
    pub cycles_left: u32,
    pub shared: bool,
    /// Its bank-conflict passes in all.
    pub conflict_cycles: u32,
    /// Whether what is left is only conflict passes (a conflict-free access would be gone).
    pub replaying_conflict: bool,
}

/// The scheduler's memory-warp mask (Elastic §4, Fig. 7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MaskView {
    /// Cycles memory warps stay masked.
    pub countdown: u32,
    /// Warps that were ready but masked last cycle.
    pub masked: Vec<u32>,
    /// The latest history-cache lookup.
    pub lookup: Option<LookupView>,
    pub lookups: u64,
    pub hits: u64,
    pub exact: u64,
    pub under: u64,
    pub over: u64,
}

/// A history-cache lookup with its instruction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LookupView {
    pub instr: InstrView,
    pub predicted: u32,
    pub hit: bool,
}

/// The back end of one SM.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BackEndView {
    /// `decoupled`, `in_order`, `split` or `elastic`.
    pub mode: &'static str,
    /// M (`elastic.mem_stages`).
    pub mem_stages: u32,
    pub mem0: Option<Mem0View>,
    /// MEM1..MEM(M-1): the shared or fixed-latency access in each, if any.
    pub mem_latches: Vec<Option<InUnitView>>,
    /// The PREMEM FIFO's warp instructions, oldest first, and its size.
    pub premem: Vec<InUnitView>,
    pub premem_depth: usize,
    /// The paper's N: its sub-warp entries.
    pub premem_subwarps: u32,
    /// Non-memory results that lost writeback last cycle (the NONMEM FIFO's entries when
    /// elastic), oldest first, and how many may wait (`None`: any number).
    pub nonmem_waiting: Vec<InUnitView>,
    pub nonmem_capacity: Option<u32>,
    /// The instructions that wrote back last cycle, in priority order: (warp, instruction).
    pub committed: Vec<(u32, InstrView)>,
    /// Why issue stood still last cycle behind an instruction that could not leave EXE.
    pub exe_stall: Option<&'static str>,
    /// With `core.scheduler = bank_conflict_aware`.
    pub mask: Option<MaskView>,
}

/// The back end of `sm`.
pub fn back_end_view(sim: &Sim, sm: &Sm) -> BackEndView {
    let func = sim.image().func();
    let config = sim.config();
    let mode = sm.pipeline_mode();
    let m = config.elastic.mem_stages;
    let next = sim.cycle();
    let in_unit = |tag: u64, ready_at: Option<u64>| in_unit_view(func, sm, tag, ready_at);
    BackEndView {
        mode: mode.name(),
        mem_stages: m,
        mem0: sm.ldst().mem0().and_then(|m0| {
            let f = sm.in_flight().iter().find(|f| f.tag == m0.tag)?;
            Some(Mem0View {
                warp: f.warp,
                instr: instr_view(func, f.pc),
                cycles_left: m0.cycles_left,
                shared: m0.shared,
                conflict_cycles: m0.conflict_cycles,
                replaying_conflict: sm.ldst().conflict_in_mem0(),
            })
        }),
        mem_latches: mem_latches(sm, m, next, config.shmem.latency, &in_unit),
        premem: sm
            .premem()
            .entries()
            .filter_map(|t| in_unit(t, None))
            .collect(),
        premem_depth: sm.premem().depth(),
        premem_subwarps: (config.core.warp_size / config.core.simd_width.max(1)).max(1) - 1,
        nonmem_waiting: sm
            .nonmem_waiting()
            .iter()
            .filter_map(|&t| in_unit(t, None))
            .collect(),
        nonmem_capacity: match mode.nonmem_capacity(m) {
            usize::MAX => None,
            n => Some(n as u32),
        },
        committed: sm
            .last_cycle()
            .writeback
            .iter()
            .map(|&(w, pc)| (w, instr_view(func, pc)))
            .collect(),
        exe_stall: sm.exe_stall().map(WarpCycle::name),
        mask: mask_view(func, sm),
    }
}

fn in_unit_view(func: &Function, sm: &Sm, tag: u64, ready_at: Option<u64>) -> Option<InUnitView> {
    let f = sm.in_flight().iter().find(|f| f.tag == tag)?;
    Some(InUnitView {
        warp: f.warp,
        instr: instr_view(func, f.pc),
        ready_at,
    })
}

/// MEM1..MEM(M-1): an access that left MEM0 with `latency` cycles to go is in MEM1, and moves
/// one latch a cycle (the last latch holds it until its data is ready).
fn mem_latches(
    sm: &Sm,
    m: u32,
    next: u64,
    latency: u32,
    in_unit: &dyn Fn(u64, Option<u64>) -> Option<InUnitView>,
) -> Vec<Option<InUnitView>> {
    let mut latches = vec![None; m.saturating_sub(1) as usize];
    for &(tag, ready_at) in sm.ldst().in_flight() {
        let fixed = sm
            .in_flight()
            .iter()
            .find(|f| f.tag == tag)
            .and_then(|f| f.memory)
            .is_some_and(|p| p != MemPath::Requests);
        if !fixed || ready_at < next || latches.is_empty() {
            continue;
        }
        let left = (ready_at - next) as u32;
        let stage = latency.saturating_sub(left) as usize;
        let i = stage.min(latches.len() - 1);
        if latches[i].is_none() {
            latches[i] = in_unit(tag, Some(ready_at));
        }
    }
    latches
}

fn mask_view(func: &Function, sm: &Sm) -> Option<MaskView> {
    let mask = sm.issue_stage().mask()?;
    let stats = mask.stats();
    let masked = sm
        .warps()
        .iter()
        .enumerate()
        .filter(|(_, w)| {
            w.as_ref()
                .is_some_and(|w| w.state == WarpCycle::SchedulingFail)
        })
        .map(|(slot, _)| slot as u32)
        .collect();
    Some(MaskView {
        countdown: mask.countdown(),
        masked,
        lookup: mask.last_lookup().map(|l: Lookup| LookupView {
            instr: instr_view(func, l.pc),
            predicted: l.predicted,
            hit: l.hit,
        }),
        lookups: stats.lookups,
        hits: stats.hits,
        exact: stats.exact,
        under: stats.under,
        over: stats.over,
    })
}
