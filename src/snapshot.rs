//! Read-only projections of a [`Sim`] into plain, serialisable view structs (STYLE.md,
//! "Snapshots to the renderer"; MODEL.md section 12). The browser draws these, the CLI can dump
//! them, and golden tests compare them; none of them recomputes hardware behaviour, they only
//! copy what the model holds. A snapshot is of one SM (the selected one) and describes the state
//! after the last simulated cycle.

use crate::core::operand_collector::BankActivity;
use crate::core::sm::Sm;
use crate::core::{WarpCycle, EXIT_PC};
use crate::mem::LaneAccess;
use crate::ptx::{Function, Pc};
use crate::sim::{Sim, SimStats, Status};
use crate::trace::{mask_text, opcode_text};
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

/// An instruction as the views show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InstrView {
    pub pc: Pc,
    /// PTX line (1-based).
    pub line: u32,
    /// The opcode with modifiers (`ld.global.u32`).
    pub op: String,
    /// The whole instruction text.
    pub text: String,
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
    pub at_barrier: bool,
    pub branch_pending: bool,
    pub finished: bool,
    pub in_flight: u32,
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
    /// `idle`, `read` or `write`.
    pub kind: &'static str,
    pub warp: Option<u32>,
    pub reg: Option<String>,
}

/// An instruction inside an execution unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InUnitView {
    pub warp: u32,
    pub instr: InstrView,
    /// First cycle its result may be written back.
    pub ready_at: u64,
}

/// One execution pipeline (SP, SFU, DP, LD/ST).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitView {
    pub kind: &'static str,
    pub in_flight: Vec<InUnitView>,
    /// LD/ST only: the instruction in MEM0 and the cycles it still holds it.
    pub mem0: Option<(InUnitView, u32)>,
}

/// The latest shared-memory access's bank grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BankGridView {
    pub banks: u32,
    pub degree: u32,
    pub cycles: u32,
    pub extra_cycles: u32,
    pub lanes: Vec<LaneAccess>,
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
    pub units: Vec<UnitView>,
    pub bank_grid: BankGridView,
    pub stats: crate::core::sm::SmStats,
}

/// The snapshot of SM `sm` (clamped to the SMs that exist).
pub fn snapshot(sim: &Sim, sm: usize) -> Snapshot {
    let (status, error) = match sim.status() {
        Status::Running => ("running", None),
        Status::Completed => ("completed", None),
        Status::Failed(e) => ("failed", Some(e.to_string())),
    };
    let sm = &sim.sms()[sm.min(sim.sms().len().saturating_sub(1))];
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

fn instr_view(func: &Function, pc: Pc) -> InstrView {
    InstrView {
        pc,
        line: func.instr(pc).map_or(0, |i| i.line),
        op: opcode_text(func, pc).to_string(),
        text: func.text(pc).to_string(),
    }
}

fn reg_name(func: &Function, reg: u32) -> String {
    func.regs
        .get(reg as usize)
        .map_or_else(|| format!("r{reg}"), |r| r.name.clone())
}

fn sm_view(sim: &Sim, sm: &Sm) -> SmView {
    let func = sim.image().func();
    let tag_instr = |tag: u64| {
        sm.in_flight()
            .iter()
            .find(|f| f.tag == tag)
            .map(|f| (f.warp, f.pc))
    };
    SmView {
        id: sm.id,
        fetch: sm.fetch_latch().map(|l| (l.warp, instr_view(func, l.pc))),
        warps: (0..sm.warps().len() as u32)
            .map(|slot| warp_view(sim, sm, slot))
            .collect(),
        schedulers: sm
            .schedulers()
            .iter()
            .zip(sm.scheduler_cycles())
            .map(|(s, c)| SchedulerView {
                id: s.id,
                warps: s.slots().to_vec(),
                issued: c.issued,
                issued_instr: c.issued.and_then(|w| {
                    sm.in_flight()
                        .iter()
                        .filter(|f| f.warp == w)
                        .max_by_key(|f| f.tag)
                        .map(|f| instr_view(func, f.pc))
                }),
                stall: c.stall.name(),
                active_set: s.active_set().to_vec(),
            })
            .collect(),
        collectors: sm
            .collector()
            .units()
            .iter()
            .map(|u| CollectorView {
                kind: u.kind().name(),
                warp: u.occupant().map(|(w, _)| w),
                instr: u
                    .occupant()
                    .and_then(|(_, tag)| tag_instr(tag))
                    .map(|(_, pc)| instr_view(func, pc)),
                operands: u
                    .operands()
                    .iter()
                    .map(|o| (reg_name(func, o.reg), o.bank, o.read))
                    .collect(),
            })
            .collect(),
        register_banks: sm
            .collector()
            .banks()
            .iter()
            .map(|b| match *b {
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
            })
            .collect(),
        units: unit_views(sim, sm),
        bank_grid: {
            let last = sm.memory().last_shared();
            BankGridView {
                banks: sim.config().shmem.banks,
                degree: last.degree,
                cycles: last.cycles,
                extra_cycles: last.extra_cycles,
                lanes: last.lanes.clone(),
            }
        },
        stats: sm.stats.clone(),
    }
}

fn unit_views(sim: &Sim, sm: &Sm) -> Vec<UnitView> {
    let func = sim.image().func();
    let view = |tag: u64, ready_at: u64| {
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
                .filter_map(|i| view(i.tag, i.ready_at))
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
            .filter_map(|&(t, at)| view(t, at))
            .collect(),
        mem0: sm
            .ldst()
            .mem0()
            .and_then(|m| view(m.tag, 0).map(|v| (v, m.cycles_left))),
    });
    out
}

fn stack_view(
    func: &Function,
    entries: &[crate::core::SimtEntry],
    warp_size: u32,
) -> Vec<StackEntryView> {
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

fn warp_view(sim: &Sim, sm: &Sm, slot: u32) -> Option<WarpView> {
    let func = sim.image().func();
    let w = sm.warps().get(slot as usize)?.as_ref()?;
    let state = sm.warp_state(slot)?;
    let warp_size = sim.config().core.warp_size;
    let cta = sm.ctas().get(w.cta_slot as usize)?.as_ref()?;
    let pc = state.simt.pc();
    let shown = if w.finished { WarpCycle::Idle } else { w.state };
    Some(WarpView {
        slot,
        cta: cta.cta.ctaid,
        warp_in_cta: w.warp_in_cta,
        pc,
        line: pc.and_then(|p| func.instr(p)).map_or(0, |i| i.line),
        active_mask: mask_text(state.simt.active_mask(), warp_size),
        state: shown.name(),
        state_code: shown as u8,
        ibuffer: w.ibuffer.iter().map(|&pc| instr_view(func, pc)).collect(),
        scoreboard: w
            .scoreboard
            .pending()
            .iter()
            .map(|p| (reg_name(func, p.reg), p.long))
            .collect(),
        stack: stack_view(func, state.simt.entries(), warp_size),
        at_barrier: w.at_barrier,
        branch_pending: w.branch_pending.is_some(),
        finished: w.finished,
        in_flight: w.in_flight,
    })
}
