//! Executes one warp instruction, per lane, at issue (MODEL.md section 2: execute-at-issue, as
//! GPGPU-Sim does): reads the operands of the active lanes, computes, writes registers and
//! memory, and updates the warp's [`Reconvergence`](super::Reconvergence) state. Timing code never looks at values; it gets what it
//! needs from the returned [`Executed`] (the lanes that ran, control flow, and the lanes'
//! memory addresses in an [`AccessRecord`]).

use super::alu;
use super::fault::{Fault, FaultKind};
use super::lane_io::{fault, first_lane, low_bits, pad, read, set, unsupported, write};
pub use super::lane_io::{AccessRecord, BarrierArrival, BarrierReduction, Env, Memories};
use super::lane_kernels::{self, Dst, Source};
use super::memory_ops;
use super::reconvergence::{BranchOutcome, LaneMask, WarpSyncOutcome, EXIT_PC};
use super::space;
use super::warp::{lanes, WarpState};
use super::warp_ops;
use crate::ptx::ops::CvtaDir;
use crate::ptx::{Instr, Op, Operand, Pc, Space};

/// How control continues after the instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// The next instruction (also for a warp whose guard failed everywhere).
    Next,
    /// A branch; the warp's reconvergence state says where each lane went.
    Branch(BranchOutcome),
    /// Some or all lanes exited.
    Exit,
    /// The warp arrived at a CTA barrier.
    Barrier(BarrierArrival),
}

/// The result of executing one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Executed {
    pub pc: Pc,
    /// The SIMT active mask the instruction issued with.
    pub active: LaneMask,
    /// Active lanes whose guard predicate held: the lanes that did the work.
    pub exec: LaneMask,
    pub flow: Flow,
}

/// Executes the instruction at the warp's PC.
pub fn execute(
    env: &Env,
    mem: &mut Memories,
    warp: &mut WarpState,
    record: &mut AccessRecord,
) -> Result<Executed, Box<Fault>> {
    record.valid = false;
    let pc = warp.reconvergence.pc().unwrap_or(EXIT_PC);
    let Some(instr) = env.func.instr(pc) else {
        return Err(unsupported(
            env,
            warp,
            pc,
            0,
            "running past the end of the kernel",
        ));
    };
    let mut active = warp.reconvergence.active_mask();
    let mut exec = match instr.guard {
        Some(g) => {
            let mut m = 0;
            for lane in lanes(active) {
                if (warp.reg(g.reg.index(), lane) != 0) != g.negate {
                    m |= 1 << lane;
                }
            }
            m
        }
        None => active,
    };
    let changed_before = std::mem::take(&mut warp.changed);
    if let Some(members) = warp_ops::sync_members(env, warp, instr, exec) {
        match warp.reconvergence.warp_sync(pc, exec, members) {
            WarpSyncOutcome::Execute(lanes) => {
                active |= lanes;
                exec = lanes;
            }
            WarpSyncOutcome::Wait => {
                finish(env, warp, pc, exec, false)?;
                warp.changed |= changed_before;
                return Ok(Executed {
                    pc,
                    active,
                    exec: 0,
                    flow: Flow::Next,
                });
            }
            WarpSyncOutcome::Unreachable(missing) => {
                let what = format!(
                    "member mask {members:#x} of `{}`: lanes {missing:#x} are live but not executing it here; under the SIMT stack (core.divergence = stack) they cannot arrive, and the PTX ISA requires every thread of the member mask to execute it in convergence before sm_70 (core.divergence = convergence_barriers lets them arrive later)",
                    instr.op.mnemonic()
                );
                return Err(fault(
                    env,
                    warp,
                    pc,
                    first_lane(exec),
                    FaultKind::Invalid { what },
                ));
            }
        }
    }
    let flow = run(env, mem, warp, instr, pc, exec, record)?;
    let progress = warp.changed || (record.valid && record.changed) || flow == Flow::Exit;
    warp.changed |= changed_before;
    finish(env, warp, pc, exec, progress)?;
    Ok(Executed {
        pc,
        active,
        exec,
        flow,
    })
}

/// Ends the instruction for the warp's reconvergence state: under convergence barriers, a
/// YIELD if due and the next split (an error if no thread can ever run again).
fn finish(
    env: &Env,
    warp: &mut WarpState,
    pc: Pc,
    exec: LaneMask,
    progress: bool,
) -> Result<(), Box<Fault>> {
    warp.reconvergence
        .finish_instruction(&env.func.convergence_barriers, progress, env.clock)
        .map_err(|what| {
            fault(
                env,
                warp,
                pc,
                first_lane(exec),
                FaultKind::Deadlock { what },
            )
        })
}

fn run(
    env: &Env,
    mem: &mut Memories,
    warp: &mut WarpState,
    instr: &Instr,
    pc: Pc,
    exec: LaneMask,
    record: &mut AccessRecord,
) -> Result<Flow, Box<Fault>> {
    let next = pc + 1;
    match instr.op {
        Op::Bra { .. } => {
            let target = instr.branch_target().unwrap_or(next);
            let rpc = match env.func.reconvergence_of(pc) {
                Some(crate::ptx::Reconvergence::At(p)) => p,
                Some(crate::ptx::Reconvergence::Exit) | None => EXIT_PC,
            };
            let outcome = warp
                .reconvergence
                .branch(exec, target, next, rpc, env.push_order);
            return Ok(Flow::Branch(outcome));
        }
        Op::Exit | Op::Ret { .. } => {
            warp.reconvergence.exit_lanes(exec, next);
            return Ok(Flow::Exit);
        }
        Op::Call { .. } => {
            return Err(unsupported(
                env,
                warp,
                pc,
                exec,
                "`call` (device functions)",
            ));
        }
        Op::Bar { kind, .. } if exec != 0 => {
            let arrival = warp_ops::barrier(env, warp, instr, kind, exec).map_err(|what| {
                fault(env, warp, pc, first_lane(exec), FaultKind::Invalid { what })
            })?;
            warp.reconvergence.advance(next);
            return Ok(Flow::Barrier(arrival));
        }
        Op::Bar { .. } | Op::BarWarpSync | Op::Membar { .. } | Op::Fence { .. } => {}
        Op::Ld { space, ty, vec, .. } | Op::Ldu { space, ty, vec } => {
            memory_ops::load(
                env,
                mem,
                warp,
                instr,
                pc,
                exec,
                (space, ty, vec.lanes()),
                record,
            )?;
            record.read_only = matches!(instr.op, Op::Ld { nc: true, .. });
        }
        Op::St { space, ty, vec, .. } => memory_ops::store(
            env,
            mem,
            warp,
            instr,
            pc,
            exec,
            (space, ty, vec.lanes()),
            record,
        )?,
        Op::Atom { space, op, ty, .. } | Op::Red { space, op, ty, .. } => {
            memory_ops::atomic(env, mem, warp, instr, pc, exec, (space, op, ty), record)?
        }
        Op::Cvta { space, dir, .. } => cvta(env, warp, instr, exec, space, dir),
        Op::Vote { mode, .. } => warp_ops::vote(env, warp, instr, exec, mode),
        Op::Shfl { mode, .. } => warp_ops::shfl(env, warp, instr, exec, mode),
        Op::Activemask => warp_ops::activemask(env, warp, instr, exec),
        Op::Match { mode, .. } => warp_ops::match_sync(env, warp, instr, exec, mode),
        Op::Mov { .. } if has_vector(instr) => mov_vector(env, warp, instr, exec),
        _ => lane_wise(env, warp, instr, pc, exec)?,
    }
    warp.reconvergence.advance(next);
    Ok(Flow::Next)
}

/// Every ordinary instruction: the same computation in each executing lane.
fn lane_wise(
    env: &Env,
    warp: &mut WarpState,
    instr: &Instr,
    pc: Pc,
    exec: LaneMask,
) -> Result<(), Box<Fault>> {
    let ops = instr.operands();
    let (dst, srcs) = match ops.split_first() {
        Some(split) => split,
        None => return Ok(()),
    };
    // Resolve each source once for the warp: a register row, a negated predicate row, or a
    // value that is the same in every lane; only special registers stay per lane.
    let ws = warp.warp_size as usize;
    let mut plan = [Source::Uniform(0); 4];
    for (p, op) in plan.iter_mut().zip(srcs) {
        *p = match *op {
            Operand::Reg(r) => Source::Row(r.index() * ws),
            Operand::NotPred(r) => Source::NotRow(r.index() * ws),
            Operand::Special(_) => Source::PerLane,
            _ => Source::Uniform(read(env, warp, op, 0)),
        };
    }
    let (dst_row, dst_mask) = match *dst {
        Operand::Reg(r) if !r.is_sink() => (
            Some(r.index() * ws),
            env.reg_masks.get(r.index()).copied().unwrap_or(0),
        ),
        _ => (None, 0),
    };
    if let (Some(row), true) = (dst_row, srcs.len() <= 3) {
        let dst = Dst {
            row,
            mask: dst_mask,
        };
        let first = [plan[0], plan[1], plan[2]];
        if lane_kernels::run(&instr.op, warp, first, dst, exec) {
            return Ok(());
        }
    }
    let used = srcs.len().min(plan.len());
    for lane in lanes(exec) {
        let l = lane as usize;
        let mut values = [0u64; 4];
        for k in 0..used {
            values[k] = match plan[k] {
                Source::Row(row) => warp.regs[row + l],
                Source::NotRow(row) => (warp.regs[row + l] == 0) as u64,
                Source::Uniform(value) => value,
                Source::PerLane => read(env, warp, &srcs[k], lane),
            };
        }
        let Some(out) = alu::eval(&instr.op, values) else {
            return Err(unsupported(env, warp, pc, exec, &format!("`{}`", instr.op)));
        };
        match dst_row {
            Some(row) => {
                let value = out.d & dst_mask;
                let slot = &mut warp.regs[row + l];
                warp.changed |= *slot != value;
                *slot = value;
            }
            None => write(env, warp, dst, lane, out.d, out.q),
        }
    }
    Ok(())
}

/// `cvta.space d, a` / `cvta.to.space d, a` (PTX ISA "cvta").
fn cvta(
    env: &Env,
    warp: &mut WarpState,
    instr: &Instr,
    exec: LaneMask,
    space: Space,
    dir: CvtaDir,
) {
    let [dst, src, ..] = pad(instr.operands());
    for lane in lanes(exec) {
        let a = read(env, warp, &src, lane);
        let d = match dir {
            CvtaDir::ToGeneric => space::to_generic(space, a),
            CvtaDir::FromGeneric => space::from_generic(space, a),
        };
        write(env, warp, &dst, lane, d, 0);
    }
}

fn has_vector(instr: &Instr) -> bool {
    instr
        .operands()
        .iter()
        .any(|o| matches!(o, Operand::Vector(_)))
}

/// `mov.b64 d, {a, b}` packs; `mov.b64 {a, b}, d` unpacks (PTX ISA "mov").
fn mov_vector(env: &Env, warp: &mut WarpState, instr: &Instr, exec: LaneMask) {
    let [dst, src, ..] = pad(instr.operands());
    let bits = match instr.op {
        Op::Mov { ty } => ty.bits(),
        _ => 64,
    };
    for lane in lanes(exec) {
        match (dst, src) {
            (Operand::Vector(parts), src) => {
                let whole = read(env, warp, &src, lane);
                let width = bits / parts.as_slice().len() as u32;
                for (i, r) in parts.as_slice().iter().enumerate() {
                    let piece = whole.checked_shr(width * i as u32).unwrap_or(0);
                    set(env, warp, *r, lane, piece & low_bits(width));
                }
            }
            (dst, Operand::Vector(parts)) => {
                let width = bits / parts.as_slice().len() as u32;
                let mut whole = 0u64;
                for (i, r) in parts.as_slice().iter().enumerate() {
                    let piece = if r.is_sink() {
                        0
                    } else {
                        warp.reg(r.index(), lane)
                    };
                    whole |= (piece & low_bits(width))
                        .checked_shl(width * i as u32)
                        .unwrap_or(0);
                }
                write(env, warp, &dst, lane, whole, 0);
            }
            _ => {}
        }
    }
}
