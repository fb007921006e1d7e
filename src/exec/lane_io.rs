//! One lane's view of an executing instruction, shared by the executor and the instruction
//! families it delegates to (memory, warp-wide and barrier operations): what does not change
//! while an instruction executes ([`Env`]), the memories it may write, its operand reads and
//! register writes per lane, the records it leaves (memory addresses, barrier arrivals) and the
//! faults it raises. Its own module so those families depend on it, not on `execute`, which
//! depends on them.

use super::fault::{Fault, FaultKind};
use super::global_memory::GlobalMemory;
use super::image::KernelImage;
pub use super::lanes::low_bits;
use super::lanes::LaneMask;
use super::warp::WarpState;
use crate::config::PushOrder;
use crate::ptx::ops::BarKind;
use crate::ptx::{Function, MemAccess, Operand, Pc, RegId, Space, SpecialReg};

/// What does not change while one instruction executes.
#[derive(Debug, Clone, Copy)]
pub struct Env<'a> {
    pub image: &'a KernelImage,
    pub func: &'a Function,
    /// `%ctaid`.
    pub ctaid: [u32; 3],
    /// `%warpid`: the warp's hardware slot in its SM.
    pub warp_slot: u32,
    /// `%nwarpid`.
    pub warp_slots: u32,
    /// `%smid`, `%nsmid`.
    pub sm: u32,
    pub sms: u32,
    /// `%clock64`: the simulated cycle (functional runs count issued warp instructions).
    pub clock: u64,
    pub push_order: PushOrder,
    /// Width mask of each register of `func` (all ones for 64-bit, 1 for predicates).
    pub reg_masks: &'a [u64],
}

/// The memories an instruction may write.
pub struct Memories<'a> {
    pub global: &'a mut GlobalMemory,
    /// The CTA's shared memory.
    pub shared: &'a mut [u8],
}

/// A warp's arrival at `bar.sync` / `bar.arrive` / `bar.red` (PTX ISA "bar, barrier").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BarrierArrival {
    /// Barrier number (0..15).
    pub id: u32,
    /// Threads expected (`b` operand), or `None` for all threads of the CTA.
    pub threads: Option<u32>,
    /// `bar.sync`/`bar.red` wait for the barrier; `bar.arrive` does not.
    pub wait: bool,
    /// For `bar.red`: the reduction, this warp's contribution and where the result goes.
    pub reduction: Option<BarrierReduction>,
}

/// One warp's part of a `bar.red` (PTX ISA "bar.red").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BarrierReduction {
    pub kind: BarKind,
    /// Destination register, written in `lanes` when the barrier completes.
    pub dst: RegId,
    pub lanes: LaneMask,
    /// Lanes whose predicate was true.
    pub true_lanes: LaneMask,
}

/// The lanes' memory addresses of a memory instruction (for the coalescer and bank model).
#[derive(Debug, Default)]
pub struct AccessRecord {
    /// Whether the last instruction accessed memory.
    pub valid: bool,
    /// The space accessed (generic accesses: the space each lane's address fell in; a warp
    /// whose lanes fall in different spaces records the first lane's).
    pub space: Option<Space>,
    pub access: Option<MemAccess>,
    /// Bytes per lane (vector accesses: all elements).
    pub bytes: u32,
    /// A read-only global load (`ld.global.nc`): the texture path when the SM has one.
    pub read_only: bool,
    /// Lanes that accessed memory.
    pub mask: LaneMask,
    /// Address (within `space`) per lane; only lanes in `mask` are meaningful.
    pub addrs: Vec<u64>,
    /// Whether the instruction changed a value in memory (a store, or an atomic whose new value
    /// differs from the old): the forward progress a spin lock never makes (MODEL.md section 3).
    pub changed: bool,
}

impl Clone for AccessRecord {
    fn clone(&self) -> Self {
        let mut copy = AccessRecord::default();
        copy.clone_from(self);
        copy
    }

    /// Reuses this record's address buffer (a derived `clone_from` would allocate a new one):
    /// the LD/ST unit keeps one record per issued memory instruction this way.
    fn clone_from(&mut self, from: &Self) {
        self.valid = from.valid;
        self.space = from.space;
        self.access = from.access;
        self.read_only = from.read_only;
        self.bytes = from.bytes;
        self.mask = from.mask;
        self.addrs.clone_from(&from.addrs);
        self.changed = from.changed;
    }
}

/// The value of a source operand in `lane`: registers zero-extended from their width,
/// immediates as bit patterns, special registers, variable addresses in their own space.
#[inline]
pub(super) fn read(env: &Env, warp: &WarpState, op: &Operand, lane: u32) -> u64 {
    match *op {
        Operand::Reg(r) => warp.reg(r.index(), lane),
        Operand::NotPred(r) => (warp.reg(r.index(), lane) == 0) as u64,
        Operand::Imm(v) => v,
        Operand::Special(s) => special(env, warp, s, lane),
        Operand::VarAddr(var, off) => env
            .image
            .var_address(var)
            .unwrap_or(0)
            .wrapping_add(off as i64 as u64),
        _ => 0,
    }
}

/// Writes a destination operand in `lane` (`q` is the second predicate of a `p|q` pair).
#[inline]
pub(super) fn write(env: &Env, warp: &mut WarpState, dst: &Operand, lane: u32, d: u64, q: u64) {
    match *dst {
        Operand::Reg(r) => set(env, warp, r, lane, d),
        Operand::PredPair(p, q_reg) => {
            set(env, warp, p, lane, d);
            set(env, warp, q_reg, lane, q);
        }
        _ => {}
    }
}

/// Sets register `r` (ignoring the `_` sink), truncated to the register's width.
#[inline]
pub(super) fn set(env: &Env, warp: &mut WarpState, r: RegId, lane: u32, value: u64) {
    if let Some(mask) = env.reg_masks.get(r.index()) {
        warp.set_reg(r.index(), lane, value & mask);
    }
}

fn special(env: &Env, warp: &WarpState, s: SpecialReg, lane: u32) -> u64 {
    let image = env.image;
    let dim = |d: [u32; 3], i: usize| d[i] as u64;
    match s {
        SpecialReg::Tid(d) => dim(warp.tids[lane as usize], d.index()),
        SpecialReg::Ntid(d) => dim([image.block.x, image.block.y, image.block.z], d.index()),
        SpecialReg::Ctaid(d) => dim(env.ctaid, d.index()),
        SpecialReg::Nctaid(d) => dim([image.grid.x, image.grid.y, image.grid.z], d.index()),
        SpecialReg::LaneId => lane as u64,
        SpecialReg::WarpId => env.warp_slot as u64,
        SpecialReg::NWarpId => env.warp_slots as u64,
        SpecialReg::SmId => env.sm as u64,
        SpecialReg::NSmId => env.sms as u64,
        SpecialReg::Clock => env.clock & 0xFFFF_FFFF,
        SpecialReg::Clock64 => env.clock,
        SpecialReg::LanemaskEq => 1 << lane,
        SpecialReg::LanemaskLe => (2u64 << lane).wrapping_sub(1),
        SpecialReg::LanemaskLt => (1u64 << lane) - 1,
        SpecialReg::LanemaskGe => !((1u64 << lane) - 1) & 0xFFFF_FFFF,
        SpecialReg::LanemaskGt => !((2u64 << lane).wrapping_sub(1)) & 0xFFFF_FFFF,
        SpecialReg::WarpSz => warp.warp_size as u64,
    }
}

/// The first five operands, padded with `Operand::None`.
pub(super) fn pad(ops: &[Operand]) -> [Operand; 5] {
    let mut out = [Operand::None; 5];
    for (o, i) in out.iter_mut().zip(ops) {
        *o = *i;
    }
    out
}

/// The lowest lane of `mask` (0 when empty).
pub(super) fn first_lane(mask: LaneMask) -> u32 {
    if mask == 0 {
        0
    } else {
        mask.trailing_zeros()
    }
}

/// A fault for something warpstep cannot run, blamed on the first executing lane.
pub(super) fn unsupported(
    env: &Env,
    warp: &WarpState,
    pc: Pc,
    exec: LaneMask,
    what: &str,
) -> Box<Fault> {
    fault(
        env,
        warp,
        pc,
        first_lane(exec),
        FaultKind::Unsupported {
            what: what.to_string(),
        },
    )
}

/// A fault at `pc` in `lane`.
pub(super) fn fault(env: &Env, warp: &WarpState, pc: Pc, lane: u32, kind: FaultKind) -> Box<Fault> {
    Box::new(Fault {
        kernel: env.func.name.clone(),
        cta: env.ctaid,
        thread: warp.tids.get(lane as usize).copied().unwrap_or([0; 3]),
        pc,
        line: env.func.instr(pc).map_or(0, |i| i.line),
        text: env.func.text(pc).to_string(),
        kind,
    })
}
