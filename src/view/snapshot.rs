//! Read-only projections of a [`Sim`] into plain, serialisable view structs (STYLE.md,
//! "Snapshots to the renderer"; MODEL.md section 12). The browser draws these, the CLI can dump
//! them, and golden tests compare them; none of them recomputes hardware behaviour, they only
//! copy what the model holds. A snapshot is of one SM (the selected one) and describes the state
//! after the last simulated cycle.

use crate::config::Config;
use crate::core::ldst_unit::{PoolAccess, WAITING};
use crate::core::register_banks::{BankActivity, RegisterBanks};
use crate::core::sm::Sm;
use crate::core::WarpCycle;
use crate::exec::{SimtEntry, EXIT_PC};
use crate::instr_view::instr_view;
pub use crate::instr_view::{InUnitView, InstrView};
use crate::ptx::{Function, Pc};
use crate::sim::{Sim, SimStats, Status};
use crate::trace::mask_text;
use crate::view::memory_views::{bank_grid_view, l1_view, mrpb_view};
pub use crate::view::memory_views::{
    l1_lines, recost, state_code, BankGridView, BankSideView, FailView, L1View, MrpbEntryView,
    MrpbView, L1_LINE_WORDS, LINE_STATES,
};
use serde::Serialize;

/// Everything the views draw for one cycle of one SM.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Snapshot {
    /// Cycles simulated so far.
    pub cycle: u64,
    /// `running`, `completed` or `failed`.
    pub status: &'static str,
    /// The fault or deadlock report when failed.
    pub error: Option<String>,
    pub kernel: String,
    pub warp_size: u32,
    pub sm: SmView,
    pub stats: SimStats,
}

/// One SIMT stack entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StackEntryView {
    pub pc: Pc,
    /// PTX line of `pc` (0 past the end).
    pub line: u32,
    /// Reconvergence PC: `None` for the bottom entry, `Some(u32::MAX)` for "kernel end".
    pub rpc: Option<Pc>,
    pub rpc_line: Option<u32>,
    /// Lanes as hex.
    pub mask: String,
    /// Lanes as booleans, lane 0 first.
    pub lanes: Vec<bool>,
}

/// One warp slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WarpView {
    pub slot: u32,
    pub cta: [u32; 3],
    pub warp_in_cta: u32,
    /// Next PC, `None` once every thread exited.
    pub pc: Option<Pc>,
    pub line: u32,
    pub active_mask: String,
    /// What the warp did last cycle (a [`WarpCycle`] name) and its code.
    pub state: &'static str,
    pub state_code: u8,
    pub ibuffer: Vec<InstrView>,
    /// Registers waiting for a result: (name, long-latency).
    pub scoreboard: Vec<(String, bool)>,
    pub stack: Vec<StackEntryView>,
    /// Under `core.divergence = convergence_barriers`, the warp's splits and convergence
    /// barriers instead of a stack (book §3.1.2, Fig. 3.6); absent under the stack.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub splits: Option<SplitsView>,
    pub at_barrier: bool,
    pub branch_pending: bool,
    pub finished: bool,
    pub in_flight: u32,
}

/// A warp under independent thread scheduling (book §3.1.2, Fig. 3.6): per thread its state
/// and rPC, the barrier registers' participation and arrival masks, and the warp splits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SplitsView {
    /// `core.split_policy`.
    pub policy: crate::config::SplitPolicy,
    /// Lane 0 first.
    pub threads: Vec<ThreadView>,
    /// Barrier registers B0, B1, ... (as many as the kernel's placement needs).
    pub barriers: Vec<BarrierView>,
    /// The split that issues next (the warp's PC and active mask), `None` once finished.
    pub selected: Option<SplitView>,
    /// Every ready split (threads with a common rPC), ascending PC.
    pub ready: Vec<SplitView>,
    /// The live threads grouped by state (and barrier) and rPC, ascending rPC.
    pub groups: Vec<GroupView>,
    /// Instructions since the last forward progress, and the YIELD threshold
    /// (`core.yield_after`, 0: never).
    pub without_progress: u32,
    pub yield_after: u32,
}

/// One thread's Fig. 3.6 fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThreadView {
    /// `ready`, `blocked` (at `barrier`), `yielded`, `warp_sync` or `exited`.
    pub state: &'static str,
    pub barrier: Option<u32>,
    /// Where the thread resumes, and its PTX line.
    pub rpc: Pc,
    pub line: u32,
}

/// One convergence barrier register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BarrierView {
    pub id: u32,
    /// Barrier participation mask, as hex and per lane.
    pub participation: String,
    pub participants: Vec<bool>,
    /// Barrier state: the participants that arrived at its WAIT.
    pub arrived: String,
    pub arrivals: Vec<bool>,
}

/// Threads in one state at one rPC.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupView {
    /// As [`ThreadView::state`].
    pub state: &'static str,
    pub barrier: Option<u32>,
    pub rpc: Pc,
    pub line: u32,
    pub mask: String,
    pub lanes: Vec<bool>,
}

/// A warp split: threads at one PC.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SplitView {
    pub pc: Pc,
    pub line: u32,
    pub mask: String,
    pub lanes: Vec<bool>,
}

/// One scheduler's last cycle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SchedulerView {
    pub id: u32,
    pub warps: Vec<u32>,
    pub issued: Option<u32>,
    pub issued_instr: Option<InstrView>,
    pub stall: &'static str,
    /// The two-level active set (empty for other policies).
    pub active_set: Vec<u32>,
}

/// One collector unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CollectorView {
    pub kind: &'static str,
    /// (warp slot, instruction) when occupied.
    pub warp: Option<u32>,
    pub instr: Option<InstrView>,
    /// (register name, bank, read yet).
    pub operands: Vec<(String, u32, bool)>,
}

/// What one register bank did last cycle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BankView {
    /// `idle`, `read`, `write`, or `memory` (a shared or cache access in a unified pool).
    pub kind: &'static str,
    pub warp: Option<u32>,
    pub reg: Option<String>,
}

/// A shared or cache access that lost its unified-pool bank column to the register file in the
/// last cycle (Unified MICRO'12 §4.3; [`crate::core::ldst_unit::ArbitrationLoss`]): it waits a
/// cycle in MEM0 and counts one arbitration conflict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArbitrationLossView {
    /// The loser's warp slot and instruction.
    pub warp: u32,
    pub instr: Option<InstrView>,
    /// `shared` (a shared-memory pass) or `cache` (a request to the pool's cache).
    pub kind: PoolAccess,
    /// The bank column it lost (k: bank k of every cluster).
    pub column: u32,
    /// The register bank that column is (`column` mod the register file's banks).
    pub register_bank: u32,
    /// What held it: the register `read` or `write` (with its warp and register) that won.
    pub held_by: BankView,
}

/// One execution pipeline (SP, SFU, DP, LD/ST).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitView {
    pub kind: &'static str,
    pub in_flight: Vec<InUnitView>,
    /// LD/ST only: the instruction in MEM0 and the cycles it still holds it.
    pub mem0: Option<(InUnitView, u32)>,
}

/// One SM.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SmView {
    pub id: u32,
    /// The instruction fetched last cycle (decoded this cycle).
    pub fetch: Option<(u32, InstrView)>,
    pub warps: Vec<Option<WarpView>>,
    pub schedulers: Vec<SchedulerView>,
    pub collectors: Vec<CollectorView>,
    pub register_banks: Vec<BankView>,
    /// This cycle's unified-pool arbitration losers (empty without a unified pool).
    pub arbitration_losers: Vec<ArbitrationLossView>,
    /// What each bank column of the unified pool's clusters did this cycle (column k holds
    /// register bank [`RegisterBanks::pool_column_bank`]`(k)`; empty without a unified pool).
    pub pool_columns: Vec<BankView>,
    pub units: Vec<UnitView>,
    pub bank_grid: BankGridView,
    /// `None` when the configuration has no L1D (`l1d.config` `none`).
    pub l1: Option<L1View>,
    /// `None` when MRPB is off.
    pub mrpb: Option<MrpbView>,
    /// The back end's pipeline (Elastic Figs. 4-7): MEM stages, FIFOs, writeback, mask.
    pub back_end: crate::back_end_view::BackEndView,
    pub stats: crate::core::sm::SmStats,
}

/// The snapshot of SM `sm` (clamped to the SMs that exist).
pub fn snapshot(sim: &Sim, sm: usize) -> Snapshot {
    let (status, error) = status_of(sim);
    let sm = sm_at(sim, sm);
    Snapshot {
        cycle: sim.cycle(),
        status,
        error,
        kernel: sim.image().func().name.clone(),
        warp_size: sim.config().core.warp_size,
        sm: sm_view(sim, sm),
        stats: sim.stats(),
    }
}

/// The run's status as the snapshot names it, and the fault or deadlock report.
pub(crate) fn status_of(sim: &Sim) -> (&'static str, Option<String>) {
    match sim.status() {
        Status::Running => ("running", None),
        Status::Completed => ("completed", None),
        Status::Failed(e) => ("failed", Some(e.to_string())),
    }
}

/// SM `sm`, clamped to the SMs that exist.
pub(crate) fn sm_at(sim: &Sim, sm: usize) -> &Sm {
    &sim.sms()[sm.min(sim.sms().len().saturating_sub(1))]
}

fn reg_name(func: &Function, reg: u32) -> String {
    func.regs
        .get(reg as usize)
        .map_or_else(|| format!("r{reg}"), |r| r.name.clone())
}

fn sm_view(sim: &Sim, sm: &Sm) -> SmView {
    SmView {
        id: sm.id,
        fetch: fetch_view(sim, sm),
        warps: (0..sm.warps().len() as u32)
            .map(|slot| warp_view(sim, sm, slot))
            .collect(),
        schedulers: scheduler_views(sim, sm),
        collectors: collector_views(sim, sm),
        register_banks: register_bank_views(sim, sm),
        arbitration_losers: arbitration_loser_views(sim, sm),
        pool_columns: pool_column_views(sim.config(), sim.image().func(), sm.register_banks()),
        units: unit_views(sim, sm),
        bank_grid: bank_grid_part(sim, sm),
        l1: l1_part(sim, sm),
        mrpb: mrpb_part(sim, sm),
        back_end: crate::back_end_view::back_end_view(sim, sm),
        stats: sm.stats(),
    }
}

// The snapshot's fields one by one: the full snapshot takes them all, the browser's partial one
// (`snapshot_parts`) the ones its views on screen draw.

/// The warp and PC of the instruction in flight with `tag`.
fn tag_instr(sm: &Sm, tag: u64) -> Option<(u32, Pc)> {
    sm.in_flight()
        .iter()
        .find(|f| f.tag == tag)
        .map(|f| (f.warp, f.pc))
}

pub(crate) fn fetch_view(sim: &Sim, sm: &Sm) -> Option<(u32, InstrView)> {
    sm.fetch_latch()
        .map(|l| (l.warp, instr_view(sim.image().func(), l.pc)))
}

pub(crate) fn scheduler_views(sim: &Sim, sm: &Sm) -> Vec<SchedulerView> {
    let func = sim.image().func();
    let last = sm.last_cycle();
    sm.schedulers()
        .iter()
        .zip(&last.schedulers)
        .map(|(s, c)| SchedulerView {
            id: s.id,
            warps: s.slots().to_vec(),
            issued: c.issued,
            issued_instr: c
                .issued
                .and_then(|_| last.last_issued.get(s.id as usize).copied().flatten())
                .map(|i| instr_view(func, i.pc)),
            stall: c.stall.name(),
            active_set: s.active_set().to_vec(),
        })
        .collect()
}

pub(crate) fn collector_views(sim: &Sim, sm: &Sm) -> Vec<CollectorView> {
    let func = sim.image().func();
    sm.collector()
        .units()
        .iter()
        .map(|u| CollectorView {
            kind: u.kind().name(),
            warp: u.occupant().map(|(w, _)| w),
            instr: u
                .occupant()
                .and_then(|(_, tag)| tag_instr(sm, tag))
                .map(|(_, pc)| instr_view(func, pc)),
            operands: u
                .operands()
                .iter()
                .map(|o| (reg_name(func, o.reg), o.bank, o.read))
                .collect(),
        })
        .collect()
}

pub(crate) fn register_bank_views(sim: &Sim, sm: &Sm) -> Vec<BankView> {
    let func = sim.image().func();
    sm.register_banks()
        .cells()
        .iter()
        .map(|b| bank_view(func, b))
        .collect()
}

pub(crate) fn arbitration_loser_views(sim: &Sim, sm: &Sm) -> Vec<ArbitrationLossView> {
    let func = sim.image().func();
    let banks = sm.register_banks();
    sm.ldst()
        .arbitration_losses()
        .iter()
        .map(|l| ArbitrationLossView {
            warp: l.warp,
            instr: tag_instr(sm, l.tag).map(|(_, pc)| instr_view(func, pc)),
            kind: l.kind,
            column: l.column,
            register_bank: banks.pool_column_bank(l.column),
            held_by: bank_view(func, &l.holder),
        })
        .collect()
}

pub(crate) fn bank_grid_part(sim: &Sim, sm: &Sm) -> BankGridView {
    bank_grid_view(
        sim.config(),
        sm.memory().served_shared(),
        sm.ldst().mem0().is_some_and(|m| m.shared),
        sm.memory()
            .served_tag()
            .and_then(|t| tag_instr(sm, t))
            .map(|(warp, pc)| (warp, instr_view(sim.image().func(), pc))),
    )
}

pub(crate) fn l1_part(sim: &Sim, sm: &Sm) -> Option<L1View> {
    sim.memory()
        .l1ds()
        .get(sm.id as usize)
        .and_then(|l| l1_view(sim.config(), l))
}

pub(crate) fn mrpb_part(sim: &Sim, sm: &Sm) -> Option<MrpbView> {
    sm.ldst()
        .mrpb()
        .map(|b| mrpb_view(b, sim.memory().l1ds().get(sm.id as usize), sim.cycle()))
}

/// Each unified-pool bank column's activity this cycle: the register bank it holds.
pub(crate) fn pool_column_views(
    config: &Config,
    func: &Function,
    banks: &RegisterBanks,
) -> Vec<BankView> {
    let u = &config.unified;
    if !(u.enabled && u.mode == crate::config::UnifiedMode::Full) {
        return Vec::new();
    }
    (0..u.banks_per_cluster)
        .map(|k| bank_view(func, &banks.cells()[banks.pool_column_bank(k) as usize]))
        .collect()
}

fn bank_view(func: &Function, b: &BankActivity) -> BankView {
    match *b {
        BankActivity::Idle => BankView {
            kind: "idle",
            warp: None,
            reg: None,
        },
        BankActivity::Read { warp, reg, .. } => BankView {
            kind: "read",
            warp: Some(warp),
            reg: Some(reg_name(func, reg)),
        },
        BankActivity::Write { warp, reg } => BankView {
            kind: "write",
            warp: Some(warp),
            reg: Some(reg_name(func, reg)),
        },
        BankActivity::Memory { warp } => BankView {
            kind: "memory",
            warp: Some(warp),
            reg: None,
        },
    }
}

pub(crate) fn unit_views(sim: &Sim, sm: &Sm) -> Vec<UnitView> {
    let func = sim.image().func();
    let view = |tag: u64, ready_at: Option<u64>| {
        sm.in_flight()
            .iter()
            .find(|f| f.tag == tag)
            .map(|f| InUnitView {
                warp: f.warp,
                instr: instr_view(func, f.pc),
                ready_at,
            })
    };
    let mut out: Vec<UnitView> = sm
        .pipelines()
        .iter()
        .map(|p| UnitView {
            kind: p.kind.name(),
            in_flight: p
                .in_flight()
                .iter()
                .filter_map(|i| view(i.tag, Some(i.ready_at)))
                .collect(),
            mem0: None,
        })
        .collect();
    out.push(UnitView {
        kind: crate::core::UnitKind::Mem.name(),
        in_flight: sm
            .ldst()
            .in_flight()
            .iter()
            .filter_map(|&(t, at)| view(t, (at != WAITING).then_some(at)))
            .collect(),
        mem0: sm
            .ldst()
            .mem0()
            .and_then(|m| view(m.tag, None).map(|v| (v, m.cycles_left))),
    });
    out
}

fn stack_view(func: &Function, entries: &[SimtEntry], warp_size: u32) -> Vec<StackEntryView> {
    let line = |pc: Pc| func.instr(pc).map_or(0, |i| i.line);
    entries
        .iter()
        .map(|e| StackEntryView {
            pc: e.pc,
            line: line(e.pc),
            rpc: e.rpc,
            rpc_line: e.rpc.filter(|&r| r != EXIT_PC).map(line),
            mask: mask_text(e.mask, warp_size),
            lanes: (0..warp_size).map(|l| e.mask >> l & 1 == 1).collect(),
        })
        .collect()
}

fn lane_bools(mask: u64, warp_size: u32) -> Vec<bool> {
    (0..warp_size).map(|l| mask >> l & 1 == 1).collect()
}

fn splits_view(
    func: &Function,
    its: &crate::exec::independent_threads::IndependentThreads,
    warp_size: u32,
    yield_after: u32,
) -> SplitsView {
    use crate::exec::convergence_state::ThreadState;
    let line = |pc: Pc| func.instr(pc).map_or(0, |i| i.line);
    let s = its.state();
    let split = |pc: Pc, mask: u64| SplitView {
        pc,
        line: line(pc),
        mask: mask_text(mask, warp_size),
        lanes: lane_bools(mask, warp_size),
    };
    let named = |t: ThreadState| match t {
        ThreadState::Ready => ("ready", None),
        ThreadState::Blocked(b) => ("blocked", Some(b)),
        ThreadState::Yielded => ("yielded", None),
        ThreadState::WarpSync => ("warp_sync", None),
        ThreadState::Exited => ("exited", None),
    };
    SplitsView {
        policy: its.policy(),
        threads: s
            .thread_states()
            .iter()
            .zip(s.rpcs())
            .map(|(&t, &rpc)| {
                let (state, barrier) = named(t);
                ThreadView {
                    state,
                    barrier,
                    rpc,
                    line: line(rpc),
                }
            })
            .collect(),
        groups: its
            .groups()
            .into_iter()
            .map(|(t, rpc, mask)| {
                let (state, barrier) = named(t);
                GroupView {
                    state,
                    barrier,
                    rpc,
                    line: line(rpc),
                    mask: mask_text(mask, warp_size),
                    lanes: lane_bools(mask, warp_size),
                }
            })
            .collect(),
        barriers: (0..s.barriers())
            .map(|b| BarrierView {
                id: b,
                participation: mask_text(s.participation(b), warp_size),
                participants: lane_bools(s.participation(b), warp_size),
                arrived: mask_text(s.arrived(b), warp_size),
                arrivals: lane_bools(s.arrived(b), warp_size),
            })
            .collect(),
        selected: its.pc().map(|pc| split(pc, s.active_mask())),
        ready: s.splits().into_iter().map(|(pc, m)| split(pc, m)).collect(),
        without_progress: its.without_progress(),
        yield_after,
    }
}

pub(crate) fn warp_view(sim: &Sim, sm: &Sm, slot: u32) -> Option<WarpView> {
    let func = sim.image().func();
    let w = sm.warps().get(slot as usize)?.as_ref()?;
    let state = sm.warp_state(slot)?;
    let warp_size = sim.config().core.warp_size;
    let cta = sm.ctas().get(w.cta_slot as usize)?.as_ref()?;
    let pc = state.reconvergence.pc();
    let shown = if w.finished { WarpCycle::Idle } else { w.state };
    Some(WarpView {
        slot,
        cta: cta.cta.ctaid,
        warp_in_cta: w.warp_in_cta,
        pc,
        line: pc.and_then(|p| func.instr(p)).map_or(0, |i| i.line),
        active_mask: mask_text(state.reconvergence.active_mask(), warp_size),
        state: shown.name(),
        state_code: shown as u8,
        ibuffer: w.ibuffer.iter().map(|&pc| instr_view(func, pc)).collect(),
        scoreboard: w
            .scoreboard
            .pending()
            .iter()
            .map(|p| (reg_name(func, p.reg), p.long))
            .collect(),
        stack: stack_view(func, state.reconvergence.stack_entries(), warp_size),
        splits: state
            .reconvergence
            .independent()
            .map(|its| splits_view(func, its, warp_size, sim.config().core.yield_after)),
        at_barrier: w.at_barrier,
        branch_pending: w.branch_pending.is_some(),
        finished: w.finished,
        in_flight: w.in_flight,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::LineState;
    use crate::test_launches::{prepare, TRANSPOSE_NAIVE, VECTOR_ADD_32};

    fn sim(launch: (&str, &[&str]), sets: &[&str]) -> Sim {
        prepare(launch, sets).into_sim(&[]).unwrap()
    }

    /// Steps until `found` accepts a snapshot's bank grid.
    fn first_grid(s: &mut Sim, found: impl Fn(&BankGridView) -> bool) -> BankGridView {
        while !s.finished() {
            s.step();
            let g = snapshot(s, 0).sm.bank_grid;
            if found(&g) {
                return g;
            }
        }
        panic!("no such access");
    }

    #[test]
    fn a_load_waiting_for_memory_has_no_ready_cycle_yet() {
        // Issue 17: the pipeline view printed u64::MAX (18446744073709552000 in JavaScript) as
        // the ready cycle of a load whose reads were still out.
        let mut s = sim(VECTOR_ADD_32, &[]);
        let (mut waiting, mut timed) = (0, 0);
        while !s.finished() {
            s.step();
            let snap = snapshot(&s, 0);
            let ldst = snap.sm.units.iter().find(|u| u.kind == "LD/ST").unwrap();
            if let Some((m, _)) = &ldst.mem0 {
                assert_eq!(m.ready_at, None);
            }
            for f in &ldst.in_flight {
                match f.ready_at {
                    None => waiting += 1,
                    Some(at) => {
                        assert!(at < s.cycle() + 10_000, "{at}");
                        timed += 1;
                    }
                }
            }
            let json = serde_json::to_string(&snap.sm.units).unwrap();
            assert!(!json.contains(&u64::MAX.to_string()), "{json}");
        }
        assert!(waiting > 100, "the loads wait for DRAM: {waiting}");
        assert!(timed > 0, "then their data is ready at a known cycle");
    }

    #[test]
    fn the_bank_grid_shows_the_mod_baseline_next_to_the_hash() {
        let hash = "shmem.hash=bwxor:0^5,1^6,2^7,3^8,4^9";
        let mut s = sim(TRANSPOSE_NAIVE, &[hash]);
        // The column read: 32-way under mod (XOR section 3.1), conflict free under the hash.
        let g = first_grid(&mut s, |g| {
            g.baseline.as_ref().is_some_and(|b| b.degree > 1)
        });
        let b = g.baseline.unwrap();
        let g = g.configured;
        assert_eq!((b.hash.as_str(), b.degree, b.extra_cycles), ("mod", 32, 31));
        assert_eq!(
            (g.hash.as_str(), g.degree, g.extra_cycles),
            ("bwxor:0^5,1^6,2^7,3^8,4^9", 1, 0)
        );
        assert_eq!((g.hash_latency, b.hash_latency), (1, 0));
        assert_eq!(b.lanes.len(), 32);
        assert!(b.lanes.iter().all(|l| l.bank == b.lanes[0].bank));
        assert_eq!(
            b.lanes.iter().map(|l| l.word).collect::<Vec<_>>(),
            g.lanes.iter().map(|l| l.word).collect::<Vec<_>>(),
            "the same access"
        );
    }

    #[test]
    fn under_mod_there_is_no_baseline() {
        let mut s = sim(TRANSPOSE_NAIVE, &[]);
        let g = first_grid(&mut s, |g| g.configured.degree == 32);
        assert!(g.baseline.is_none());
        let g = g.configured;
        assert_eq!((g.hash.as_str(), g.hash_latency), ("mod", 0));
    }

    #[test]
    fn recosting_under_the_same_function_gives_the_same_grid() {
        let mut s = sim(TRANSPOSE_NAIVE, &["shmem.hash=fixed-xor"]);
        first_grid(&mut s, |g| !g.configured.lanes.is_empty());
        let last = s.sms()[0].memory().served_shared().clone();
        assert_eq!(recost(s.config(), &last, &s.config().shmem.hash), last);
    }

    /// Unified §4.3 in the snapshot: each cycle's arbitration losers are the cycles' conflicts,
    /// and each names the register access the bank column's cell shows.
    #[test]
    fn the_snapshot_names_each_cycles_arbitration_losers() {
        let flags: Vec<&str> = ["--config", "unified-micro12"]
            .into_iter()
            .chain(TRANSPOSE_NAIVE.1.iter().copied())
            .collect();
        let mut s = sim((TRANSPOSE_NAIVE.0, &flags[..]), &["unified.enabled=true"]);
        let (mut losers, mut shown) = (0, [0; 2]);
        while !s.finished() {
            s.step();
            let lost = s.sms()[0].ldst().arbitration_losses().len();
            assert!(lost <= 1, "MEM0 claims once a cycle");
            losers += lost as u64;
            if lost == 0 || shown.iter().all(|&n| n >= 10) {
                continue;
            }
            let sm = snapshot(&s, 0).sm;
            let [l] = sm.arbitration_losers.as_slice() else {
                panic!("one loser: {:?}", sm.arbitration_losers);
            };
            // transpose_naive's pool accesses: its shared stores and loads, its global load
            // and store (cache requests).
            let (kind, space) = match l.kind {
                PoolAccess::Shared => (0, ".shared"),
                PoolAccess::Cache => (1, ".global"),
            };
            shown[kind] += 1;
            assert!(l.instr.as_ref().unwrap().op.contains(space), "{l:?}");
            assert_eq!(l.register_bank, l.column % sm.register_banks.len() as u32);
            assert!(["read", "write"].contains(&l.held_by.kind), "{l:?}");
            assert_eq!(sm.register_banks[l.register_bank as usize], l.held_by);
            // The pool's columns: 4 a cluster, column k showing register bank k of 4.
            assert_eq!(sm.pool_columns.len(), 4);
            assert_eq!(sm.pool_columns[l.column as usize], l.held_by);
            assert_eq!(sm.pool_columns, sm.register_banks);
            assert_eq!(
                sm.units.last().unwrap().mem0.as_ref().unwrap().0.warp,
                l.warp,
                "the loser waits in MEM0"
            );
        }
        assert!(
            shown.iter().all(|&n| n > 0),
            "shared and cache losers: {shown:?}"
        );
        assert_eq!(losers, s.stats().unified.unwrap().arbitration_conflicts);
        assert!(snapshot(&s, 0).sm.arbitration_losers.is_empty());
    }

    #[test]
    fn l1_view_and_lines_describe_the_fermi_l1d() {
        let ptx = include_str!("../../tests/data/kernels/vector_add.sm_52.ptx");
        let flags = [
            "--grid",
            "4",
            "--block",
            "128",
            "--arg",
            "f32[512]=1",
            "--arg",
            "f32[512]=2",
            "--arg",
            "f32[512]=0",
            "--arg",
            "512",
        ];
        let mut s = sim((ptx, &flags), &[]);
        let mut saw_reserved = false;
        let mut saw_mshr = false;
        let mut lines = Vec::new();
        while !s.finished() {
            s.step();
            let l1 = snapshot(&s, 0).sm.l1.unwrap();
            assert_eq!(
                (l1.sets, l1.ways, l1.line_bytes, l1.sectors),
                (32, 4, 128, 1)
            );
            assert_eq!(
                (l1.mshr_entries, l1.mshr_max_merge, l1.miss_queue_entries),
                (64, 8, 8)
            );
            l1_lines(&s, 0, &mut lines);
            assert_eq!(lines.len(), 32 * 4 * L1_LINE_WORDS);
            let states: Vec<u32> = lines.chunks(L1_LINE_WORDS).map(|l| l[0]).collect();
            saw_reserved |= states.contains(&state_code(LineState::Reserved));
            saw_mshr |= !l1.mshrs.is_empty();
            for set in lines.chunks(4 * L1_LINE_WORDS) {
                let mut ranks: Vec<u32> = set.chunks(L1_LINE_WORDS).map(|l| l[1]).collect();
                ranks.sort_unstable();
                assert_eq!(ranks, [0, 1, 2, 3], "LRU ranks are a permutation");
            }
        }
        assert!(saw_reserved && saw_mshr);
        let l1 = snapshot(&s, 0).sm.l1.unwrap();
        assert!(l1.stats.accesses > 0);
        assert!(states_named_as_serde());
    }

    fn states_named_as_serde() -> bool {
        [
            LineState::Invalid,
            LineState::Reserved,
            LineState::Valid,
            LineState::Modified,
        ]
        .iter()
        .all(|&st| serde_json::to_value(st).unwrap() == LINE_STATES[state_code(st) as usize])
    }

    #[test]
    fn without_an_l1d_there_is_no_l1_view() {
        let mut s = sim(VECTOR_ADD_32, &["l1d.config=none"]);
        s.step();
        assert!(snapshot(&s, 0).sm.l1.is_none());
        let mut lines = vec![7];
        l1_lines(&s, 0, &mut lines);
        assert!(lines.is_empty());
    }
}
