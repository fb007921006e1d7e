//! `ld`, `ldu`, `st`, `atom` and `red` in every state space (PTX ISA "Data Movement and
//! Conversion Instructions", "Parallel Synchronization and Communication Instructions";
//! MODEL.md section 2). Each lane's address is resolved, checked (bounds and natural
//! alignment: a fault names the lane's thread), and recorded for the timing model. Atomics
//! run lane by lane in lane order, so their results are exact and deterministic.

use super::alu;
use super::fault::{Fault, FaultKind};
use super::global_memory::{le_value, put_le, AccessFault};
use super::lane_io::{fault, low_bits, pad, read, set, unsupported, AccessRecord, Env, Memories};
use super::memory_lanes;
use super::reconvergence::LaneMask;
use super::space;
use super::warp::{lanes, WarpState};
use crate::ptx::ops::AtomOp;
use crate::ptx::{AddrBase, Address, Instr, MemAccess, Operand, Pc, Space, Type, VarId};

/// Where a lane's access goes after generic addresses are resolved.
#[derive(Clone, Copy)]
struct Target {
    space: Space,
    addr: u64,
}

/// `ld d, [a]` (d may be a vector): loads each element, extends it to the register.
#[allow(clippy::too_many_arguments)]
pub(super) fn load(
    env: &Env,
    mem: &mut Memories,
    warp: &mut WarpState,
    instr: &Instr,
    pc: Pc,
    exec: LaneMask,
    (space, ty, elems): (Space, Type, usize),
    record: &mut AccessRecord,
) -> Result<(), Box<Fault>> {
    let [dst, addr_op, ..] = pad(instr.operands());
    if space == Space::Param && exec != 0 && is_call_parameter(&addr_op) {
        return Err(call_parameters_unsupported(env, warp, pc, exec));
    }
    let size = ty.bytes();
    begin_record(record, warp, MemAccess::Load, size * elems as u32, exec);
    if elems == 1 && memory_lanes::load(env, mem, warp, (space, ty), &dst, &addr_op, exec, record) {
        return Ok(());
    }
    // Without a register in the address every lane reads the same place, and outside local
    // memory the same values: the first lane's are reused (any fault is the first lane's).
    let mut uniform = is_lane_invariant(&addr_op) && elems <= 4;
    let mut first: Option<(Target, [u64; 4])> = None;
    for lane in lanes(exec) {
        let t = match &first {
            Some((t, _)) => *t,
            None => resolve(env, warp, space, &addr_op, lane),
        };
        note(record, lane, &t);
        check_vector_alignment(env, warp, pc, lane, &t, size * elems as u32, "load")?;
        uniform &= t.space != Space::Local;
        let mut loaded = [0u64; 4];
        for i in 0..elems {
            let value = match &first {
                Some((_, values)) => values[i],
                None => {
                    let a = t.addr.wrapping_add((i as u32 * size) as u64);
                    let raw = read_mem(env, mem, warp, t.space, a, size, lane).map_err(|why| {
                        access_fault(env, warp, pc, lane, why, t.space, a, size, "load")
                    })?;
                    extend(raw, ty)
                }
            };
            if let Some(slot) = loaded.get_mut(i) {
                *slot = value;
            }
            match dst {
                Operand::Vector(v) => {
                    if let Some(r) = v.as_slice().get(i) {
                        set(env, warp, *r, lane, value);
                    }
                }
                Operand::Reg(r) => set(env, warp, r, lane, value),
                _ => {}
            }
        }
        if uniform && first.is_none() {
            first = Some((t, loaded));
        }
    }
    Ok(())
}

/// Whether an address operand names the same address in every lane (no register base).
fn is_lane_invariant(op: &Operand) -> bool {
    matches!(
        op,
        Operand::Addr(Address {
            base: AddrBase::Absolute | AddrBase::Var(_),
            ..
        })
    )
}

/// `st [a], b` (b may be a vector): stores the low bytes of each element.
#[allow(clippy::too_many_arguments)]
pub(super) fn store(
    env: &Env,
    mem: &mut Memories,
    warp: &mut WarpState,
    instr: &Instr,
    pc: Pc,
    exec: LaneMask,
    (space, ty, elems): (Space, Type, usize),
    record: &mut AccessRecord,
) -> Result<(), Box<Fault>> {
    let [addr_op, src, ..] = pad(instr.operands());
    if space == Space::Param && exec != 0 && is_call_parameter(&addr_op) {
        return Err(call_parameters_unsupported(env, warp, pc, exec));
    }
    let size = ty.bytes();
    begin_record(record, warp, MemAccess::Store, size * elems as u32, exec);
    if elems == 1 && memory_lanes::store(env, mem, warp, (space, ty), &addr_op, &src, exec, record)
    {
        return Ok(());
    }
    for lane in lanes(exec) {
        let t = resolve(env, warp, space, &addr_op, lane);
        note(record, lane, &t);
        check_vector_alignment(env, warp, pc, lane, &t, size * elems as u32, "store")?;
        for i in 0..elems {
            let value = match src {
                Operand::Vector(v) => match v.as_slice().get(i) {
                    Some(r) if !r.is_sink() => warp.reg(r.index(), lane),
                    _ => 0,
                },
                other => read(env, warp, &other, lane),
            };
            let a = t.addr.wrapping_add((i as u32 * size) as u64);
            write_mem(
                env,
                mem,
                warp,
                t.space,
                a,
                size,
                value & low_bits(size * 8),
                lane,
            )
            .map_err(|why| access_fault(env, warp, pc, lane, why, t.space, a, size, "store"))?;
        }
    }
    Ok(())
}

/// `atom d, [a], b{, c}` and `red [a], b`: read-modify-write per lane, in lane order.
#[allow(clippy::too_many_arguments)]
pub(super) fn atomic(
    env: &Env,
    mem: &mut Memories,
    warp: &mut WarpState,
    instr: &Instr,
    pc: Pc,
    exec: LaneMask,
    (space, op, ty): (Space, AtomOp, Type),
    record: &mut AccessRecord,
) -> Result<(), Box<Fault>> {
    let ops = pad(instr.operands());
    let is_red = matches!(instr.op, crate::ptx::Op::Red { .. });
    let (dst, addr_op, b_op, c_op) = if is_red {
        (Operand::None, ops[0], ops[1], Operand::None)
    } else {
        (ops[0], ops[1], ops[2], ops[3])
    };
    let size = ty.bytes();
    begin_record(record, warp, MemAccess::Atomic, size, exec);
    for lane in lanes(exec) {
        let t = resolve(env, warp, space, &addr_op, lane);
        note(record, lane, &t);
        let fail = |why| access_fault(env, warp, pc, lane, why, t.space, t.addr, size, "atomic");
        let old = read_mem(env, mem, warp, t.space, t.addr, size, lane).map_err(fail)?;
        let b = read(env, warp, &b_op, lane);
        let c = read(env, warp, &c_op, lane);
        let new = alu::atomic(op, ty, old, b, c);
        record.changed |= new & low_bits(size * 8) != old;
        write_mem(
            env,
            mem,
            warp,
            t.space,
            t.addr,
            size,
            new & low_bits(size * 8),
            lane,
        )
        .map_err(|why| access_fault(env, warp, pc, lane, why, t.space, t.addr, size, "atomic"))?;
        if let Operand::Reg(r) = dst {
            set(env, warp, r, lane, old);
        }
    }
    Ok(())
}

/// True for `[param]` where `param` is a call parameter (a `.param` declared in the body, as
/// nvcc emits around a `call`), not one of the kernel's own parameters.
fn is_call_parameter(op: &Operand) -> bool {
    matches!(
        op,
        Operand::Addr(Address { base: AddrBase::Var(v), .. })
            if v.space == Space::Param && matches!(v.id, VarId::Local(_))
    )
}

/// The fault for the `st.param`/`ld.param` of a call sequence: calls are not supported yet.
fn call_parameters_unsupported(env: &Env, warp: &WarpState, pc: Pc, exec: LaneMask) -> Box<Fault> {
    unsupported(
        env,
        warp,
        pc,
        exec,
        "passing parameters to a device function (`call`)",
    )
}

/// The lane's address in `space`, with generic addresses resolved to their window's space.
///
/// Computed in the widths the PTX ISA gives ("Addresses as Operands"): `[reg+imm]` adds in the
/// register's width (a `.u32` register wraps at 2^32, as the hardware's 32-bit address adder
/// does: nvcc relies on it when it folds `temp - 64*tx` into one register and adds the row
/// offset as an immediate), and the result is truncated to the state space's address width
/// (32 bits for `.shared`, `.local`, `.const` and `.param`, whose windows are 32-bit; 64 bits
/// for global and generic addresses). A wrapped address that lands outside every allocation
/// is still a fault, reported with the wrapped address.
fn resolve(env: &Env, warp: &WarpState, space: Space, op: &Operand, lane: u32) -> Target {
    let Operand::Addr(Address { base, offset }) = *op else {
        return Target { space, addr: 0 };
    };
    let offset = offset as i64 as u64;
    let addr = match base {
        AddrBase::Reg(r) => {
            let width = env.reg_masks.get(r.index()).copied().unwrap_or(u64::MAX);
            warp.reg(r.index(), lane).wrapping_add(offset) & width
        }
        AddrBase::Absolute => offset,
        AddrBase::Var(var) => {
            let own = env.image.var_address(var).unwrap_or(0).wrapping_add(offset);
            if space == Space::Generic {
                space::to_generic(var.space, own & space_width(var.space))
            } else {
                own
            }
        }
    };
    if space == Space::Generic {
        let (space, addr) = space::decode_generic(addr);
        Target { space, addr }
    } else {
        Target {
            space,
            addr: addr & space_width(space),
        }
    }
}

/// The address width of a state space: 32 bits for the windowed spaces (PTX ISA "Addresses as
/// Operands": an address wider than its space's is truncated), 64 for global memory.
#[inline]
pub(super) fn space_width(space: Space) -> u64 {
    match space {
        Space::Shared | Space::Local | Space::Const | Space::Param => u64::from(u32::MAX),
        _ => u64::MAX,
    }
}

fn begin_record(
    record: &mut AccessRecord,
    warp: &WarpState,
    access: MemAccess,
    bytes: u32,
    exec: LaneMask,
) {
    record.valid = true;
    record.space = None;
    record.access = Some(access);
    record.read_only = false;
    record.bytes = bytes;
    record.mask = exec;
    record.changed = false;
    if record.addrs.len() != warp.warp_size as usize {
        record.addrs.clear();
        record.addrs.resize(warp.warp_size as usize, 0);
    }
}

fn note(record: &mut AccessRecord, lane: u32, t: &Target) {
    record.space.get_or_insert(t.space);
    if let Some(slot) = record.addrs.get_mut(lane as usize) {
        *slot = t.addr;
    }
}

/// A vector access must be aligned to its whole size (PTX ISA "ld": `.v2`/`.v4` alignment).
fn check_vector_alignment(
    env: &Env,
    warp: &WarpState,
    pc: Pc,
    lane: u32,
    t: &Target,
    bytes: u32,
    access: &'static str,
) -> Result<(), Box<Fault>> {
    if bytes.is_power_of_two() && t.addr % bytes as u64 != 0 {
        return Err(access_fault(
            env,
            warp,
            pc,
            lane,
            AccessFault::Misaligned,
            t.space,
            t.addr,
            bytes,
            access,
        ));
    }
    Ok(())
}

/// Reads `size` bytes (1, 2, 4, 8; naturally aligned) from a space.
fn read_mem(
    env: &Env,
    mem: &Memories,
    warp: &WarpState,
    space: Space,
    addr: u64,
    size: u32,
    lane: u32,
) -> Result<u64, AccessFault> {
    match space {
        Space::Global | Space::Generic => mem.global.load(addr, size),
        Space::Shared => load_bytes(mem.shared, addr, size),
        Space::Local => load_bytes(local_of(warp, lane), addr, size),
        Space::Const => load_bytes(&env.image.consts, addr, size),
        Space::Param => load_bytes(&env.image.params, addr, size),
    }
}

/// Writes the low `size` bytes of `value` to a space. `.const` and `.param` are read-only.
#[allow(clippy::too_many_arguments)]
fn write_mem(
    _env: &Env,
    mem: &mut Memories,
    warp: &mut WarpState,
    space: Space,
    addr: u64,
    size: u32,
    value: u64,
    lane: u32,
) -> Result<(), AccessFault> {
    match space {
        Space::Global | Space::Generic => mem.global.store(addr, size, value),
        Space::Shared => store_bytes(mem.shared, addr, size, value),
        Space::Local => {
            let lb = warp.local_bytes as usize;
            let start = lane as usize * lb;
            let slice = warp
                .local
                .get_mut(start..start + lb)
                .ok_or(AccessFault::OutOfBounds)?;
            store_bytes(slice, addr, size, value)
        }
        Space::Const | Space::Param => Err(AccessFault::OutOfBounds),
    }
}

fn local_of(warp: &WarpState, lane: u32) -> &[u8] {
    let lb = warp.local_bytes as usize;
    let start = lane as usize * lb;
    warp.local.get(start..start + lb).unwrap_or(&[])
}

#[inline]
pub(super) fn bounds(len: usize, addr: u64, size: u32) -> Result<usize, AccessFault> {
    if !matches!(size, 1 | 2 | 4 | 8) || addr % size as u64 != 0 {
        return Err(AccessFault::Misaligned);
    }
    let end = addr
        .checked_add(size as u64)
        .ok_or(AccessFault::OutOfBounds)?;
    if end > len as u64 {
        return Err(AccessFault::OutOfBounds);
    }
    Ok(addr as usize)
}

#[inline]
pub(super) fn load_bytes(bytes: &[u8], addr: u64, size: u32) -> Result<u64, AccessFault> {
    let at = bounds(bytes.len(), addr, size)?;
    Ok(le_value(&bytes[at..at + size as usize]))
}

#[inline]
pub(super) fn store_bytes(
    bytes: &mut [u8],
    addr: u64,
    size: u32,
    value: u64,
) -> Result<(), AccessFault> {
    let at = bounds(bytes.len(), addr, size)?;
    put_le(&mut bytes[at..at + size as usize], value);
    Ok(())
}

/// A loaded value of type `ty`, sign-extended to 64 bits for signed types (the register write
/// then truncates it to the register's width).
#[inline]
fn extend(raw: u64, ty: Type) -> u64 {
    let bits = ty.bits();
    if ty.is_signed() && bits < 64 {
        let shift = 64 - bits;
        (((raw << shift) as i64) >> shift) as u64
    } else {
        raw
    }
}

#[allow(clippy::too_many_arguments)]
fn access_fault(
    env: &Env,
    warp: &WarpState,
    pc: Pc,
    lane: u32,
    why: AccessFault,
    space: Space,
    address: u64,
    size: u32,
    access: &'static str,
) -> Box<Fault> {
    fault(
        env,
        warp,
        pc,
        lane,
        FaultKind::Access {
            why,
            space: space.name().to_string(),
            address,
            size,
            access,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::super::fault::RunError;
    use super::super::functional::{run_functional, FunctionalOptions};
    use super::*;
    use crate::config::{Config, PushOrder};
    use crate::launch::LaunchFlags;

    /// Runs kernel `k` of `ptx` on one warp of 4 threads and returns its fault.
    fn fault_of(ptx: &str) -> Fault {
        let flags = LaunchFlags::parse_tokens(&["--block", "4", "--arg", "u32[4]=0"]).unwrap();
        let config_for = |n: &str| Config::preset(n).map_err(|e| e.to_string());
        let mut p =
            crate::run::prepare(ptx, flags, &config_for, &|_| Err("none".into())).expect("prepare");
        let options = FunctionalOptions {
            warp_size: 32,
            push_order: PushOrder::TakenLast,
            divergence: Default::default(),
            max_steps: 1000,
        };
        match run_functional(&p.image, &mut p.global, options) {
            Err(RunError::Fault(f)) => *f,
            other => panic!("expected a fault, got {other:?}"),
        }
    }

    /// A module with `.func f` and kernel `k`, whose body (from line 11) is `body`.
    fn module(body: &str) -> String {
        format!(
            ".version 7.7\n.target sm_52\n.address_size 64\n\
             .func (.param .b32 r) f(.param .b32 x)\n{{\nret;\n}}\n\
             .visible .entry k(.param .u64 out)\n{{\n.reg .b32 %r<3>;\n{body}\nret;\n}}\n"
        )
    }

    fn unsupported_what(f: &Fault) -> &str {
        match &f.kind {
            FaultKind::Unsupported { what } => what,
            other => panic!("expected an unsupported fault, got {other:?}"),
        }
    }

    #[test]
    fn passing_call_parameters_is_unsupported_not_out_of_bounds() {
        let f = fault_of(&module(
            "mov.u32 %r1, 7;\n{\n.param .b32 p0;\nst.param.b32 [p0], %r1;\n\
             .param .b32 r0;\ncall.uni (r0), f, (p0);\nld.param.b32 %r2, [r0];\n}",
        ));
        assert!(unsupported_what(&f).contains("`call`"), "{f}");
        assert_eq!((f.pc, f.line), (1, 14), "{f}");
        assert_eq!(f.text, "st.param.b32 [p0], %r1;");
        assert!(f.to_string().contains("is not supported yet"), "{f}");
    }

    #[test]
    fn reading_a_call_parameter_is_unsupported_too() {
        let f = fault_of(&module("{\n.param .b32 r0;\nld.param.b32 %r2, [r0];\n}"));
        assert!(unsupported_what(&f).contains("`call`"), "{f}");
        assert_eq!(f.line, 13, "{f}");
    }

    #[test]
    fn reading_the_kernels_own_parameters_still_works() {
        let flags = LaunchFlags::parse_tokens(&["--block", "4", "--arg", "u32[4]=0"]).unwrap();
        let config_for = |n: &str| Config::preset(n).map_err(|e| e.to_string());
        let ptx = module(
            "{\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [out];\nmov.u32 %r1, 9;\n\
             st.global.u32 [%rd1], %r1;\n}",
        );
        let mut p = crate::run::prepare(&ptx, flags, &config_for, &|_| Err("none".into()))
            .expect("prepare");
        let options = FunctionalOptions {
            warp_size: 32,
            push_order: PushOrder::TakenLast,
            divergence: Default::default(),
            max_steps: 1000,
        };
        run_functional(&p.image, &mut p.global, options).expect("runs");
        assert_eq!(p.buffer_bytes(0).unwrap()[..4], 9u32.to_le_bytes());
    }
}
