//! The common case of `ld` and `st` (PTX ISA "ld", "st"; MODEL.md section 2): one scalar
//! element, a `[reg+imm]` address, and lanes that land in `.shared` or `.global` memory
//! (directly or through generic addresses). The address form is matched once per warp
//! instruction, and each lane only computes, checks and moves its value.
//!
//! Every lane is checked before any register or memory changes: if any lane would fault, or
//! lands in another space, nothing has happened yet and the general lane-by-lane code in
//! `memory_ops` runs instead, faulting exactly as it always did. The computations are those of
//! `memory_ops` (`resolve`, `check_vector_alignment`, `read_mem`, `write_mem`), so the values,
//! addresses and records are identical.

use super::lane_io::{low_bits, AccessRecord, Env, Memories};
use super::lanes::{lanes, LaneMask};
use super::memory_ops::{bounds, load_bytes, space_width, store_bytes};
use super::space;
use super::warp::WarpState;
use crate::ptx::{AddrBase, Address, Operand, Space, Type};

/// A `[reg+imm]` address resolved once per warp instruction.
#[derive(Clone, Copy)]
struct RegAddr {
    /// The start of the register's row in `WarpState::regs`.
    row: usize,
    offset: u64,
    /// The register's width mask (`[reg+imm]` adds in the register's width).
    width: u64,
    /// The instruction's state space (`Generic`: each lane's address says).
    space: Space,
}

impl RegAddr {
    /// The address form of `op` in `space`, if it is `[reg+imm]` in a space handled here.
    fn of(env: &Env, warp: &WarpState, space: Space, op: &Operand) -> Option<RegAddr> {
        let Operand::Addr(Address {
            base: AddrBase::Reg(r),
            offset,
        }) = *op
        else {
            return None;
        };
        if !matches!(space, Space::Global | Space::Shared | Space::Generic) {
            return None;
        }
        Some(RegAddr {
            row: r.index() * warp.warp_size as usize,
            offset: offset as i64 as u64,
            width: env.reg_masks.get(r.index()).copied().unwrap_or(u64::MAX),
            space,
        })
    }

    /// Lane `l`'s space and address in it (`memory_ops::resolve` for a register base).
    #[inline(always)]
    fn target(&self, regs: &[u64], l: usize) -> (Space, u64) {
        let addr = regs[self.row + l].wrapping_add(self.offset) & self.width;
        if self.space == Space::Generic {
            space::decode_generic(addr)
        } else {
            (self.space, addr & space_width(self.space))
        }
    }

    /// [`Self::target`] of lane `l`, noted in the access record (its address; the first lane's
    /// space goes in `first`).
    #[inline(always)]
    fn note(
        &self,
        regs: &[u64],
        l: usize,
        record: &mut AccessRecord,
        first: &mut Option<Space>,
    ) -> (Space, u64) {
        let (space, addr) = self.target(regs, l);
        first.get_or_insert(space);
        if let Some(slot) = record.addrs.get_mut(l) {
            *slot = addr;
        }
        (space, addr)
    }
}

/// Whether a scalar access of `size` bytes at `addr` passes `check_vector_alignment`.
#[inline(always)]
fn aligned(addr: u64, size: u32) -> bool {
    !(size.is_power_of_two() && addr % size as u64 != 0)
}

/// `ld.{shared,global,}.ty d, [reg+imm]` into a register; false (and nothing changed but the
/// record's addresses) if the general code must run it.
#[allow(clippy::too_many_arguments)]
pub(super) fn load(
    env: &Env,
    mem: &Memories,
    warp: &mut WarpState,
    (space, ty): (Space, Type),
    dst: &Operand,
    addr_op: &Operand,
    exec: LaneMask,
    record: &mut AccessRecord,
) -> bool {
    let Operand::Reg(d) = *dst else {
        return false;
    };
    let Some(&dst_mask) = env.reg_masks.get(d.index()) else {
        return false;
    };
    let Some(at) = RegAddr::of(env, warp, space, addr_op) else {
        return false;
    };
    let size = ty.bytes();
    let sign_shift = (ty.is_signed() && ty.bits() < 64).then(|| 64 - ty.bits());
    let mut values = [0u64; 64];
    let mut first_space = None;
    let mut hint = 0;
    for lane in lanes(exec) {
        let l = lane as usize;
        let (space, addr) = at.note(&warp.regs, l, record, &mut first_space);
        if !aligned(addr, size) {
            return false;
        }
        let raw = match space {
            Space::Shared => load_bytes(mem.shared, addr, size),
            Space::Global => mem.global.load_near(&mut hint, addr, size),
            _ => return false,
        };
        let (Ok(raw), Some(slot)) = (raw, values.get_mut(l)) else {
            return false;
        };
        // `memory_ops::extend`, its type test done once above.
        *slot = match sign_shift {
            Some(s) => (((raw << s) as i64) >> s) as u64,
            None => raw,
        } & dst_mask;
    }
    record.space = first_space;
    let row = d.index() * warp.warp_size as usize;
    let mut changed = false;
    for lane in lanes(exec) {
        let l = lane as usize;
        let slot = &mut warp.regs[row + l];
        changed |= *slot != values[l];
        *slot = values[l];
    }
    warp.changed |= changed;
    true
}

/// `st.{shared,global,}.ty [reg+imm], b` of a register or an immediate; false (and nothing
/// changed but the record's addresses) if the general code must run it.
#[allow(clippy::too_many_arguments)]
pub(super) fn store(
    env: &Env,
    mem: &mut Memories,
    warp: &WarpState,
    (space, ty): (Space, Type),
    addr_op: &Operand,
    src: &Operand,
    exec: LaneMask,
    record: &mut AccessRecord,
) -> bool {
    let value = match *src {
        Operand::Reg(r) if env.reg_masks.get(r.index()).is_some() => {
            Value::Row(r.index() * warp.warp_size as usize)
        }
        Operand::Imm(v) => Value::Uniform(v),
        _ => return false,
    };
    let Some(at) = RegAddr::of(env, warp, space, addr_op) else {
        return false;
    };
    let size = ty.bytes();
    let mut first_space = None;
    let mut hint = 0;
    for lane in lanes(exec) {
        let l = lane as usize;
        let (space, addr) = at.note(&warp.regs, l, record, &mut first_space);
        let fits = aligned(addr, size)
            && match space {
                Space::Shared => bounds(mem.shared.len(), addr, size).is_ok(),
                Space::Global => mem.global.can_store_near(&mut hint, addr, size),
                _ => false,
            };
        if !fits {
            return false;
        }
    }
    record.space = first_space;
    let bits = low_bits(size * 8);
    for lane in lanes(exec) {
        let l = lane as usize;
        let (space, addr) = at.target(&warp.regs, l);
        let v = match value {
            Value::Row(row) => warp.regs[row + l],
            Value::Uniform(v) => v,
        } & bits;
        // Checked above: neither can fail.
        let _ = match space {
            Space::Shared => store_bytes(mem.shared, addr, size, v),
            _ => mem.global.store_near(&mut hint, addr, size, v),
        };
    }
    true
}

/// A stored value: a register's row or an immediate.
#[derive(Clone, Copy)]
enum Value {
    Row(usize),
    Uniform(u64),
}
