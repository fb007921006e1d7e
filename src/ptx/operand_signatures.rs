//! The operand signature of each opcode: how many operands it takes when written with `n`,
//! and the shape and type expected at each position (`Slot`), as the syntax block of each
//! instruction gives them (PTX ISA "Instructions"). [`super::operands`] checks and lowers the
//! operands against it.

use super::ops::{BarKind, MatchMode, MulPart, Op, VoteMode};
use super::types::{Space, Type};

/// Shape and type expected at one operand position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Slot {
    /// Destination register of a type.
    Dst(Type),
    /// `ld`/`ldu` destination: a register, or a vector of `lanes` (sinks allowed).
    DstData(Type, usize),
    /// `p` or `p|q` (second always `.pred`).
    DstPair(Type),
    /// Register, immediate or special register of a type.
    Src(Type),
    /// `cvt` source: like `Src` but wider registers allowed.
    SrcWide(Type),
    /// `st` value: a register/immediate, or a vector of `lanes`.
    SrcData(Type, usize),
    /// `.pred` register, optionally `!p`.
    Pred,
    /// `mov` destination: register, or a vector to unpack into.
    MovDst(Type),
    /// `mov` source: register, immediate, special, variable address, or vector to pack.
    MovSrc(Type),
    /// `cvta` source: register or variable address.
    AddrOf(Type),
    /// Memory operand in a space.
    Mem(Space),
    /// Branch target.
    Label,
}

/// The operand slots of `op` when written with `n` operands, or an error message.
pub(super) fn signature(op: &Op, n: usize) -> Result<Vec<Slot>, String> {
    use Slot::*;
    let s = match *op {
        Op::Mov { ty } => vec![MovDst(ty), MovSrc(ty)],
        Op::Ld { space, ty, vec, .. } => vec![DstData(ty, vec.lanes()), Mem(space)],
        Op::Ldu { space, ty, vec } => vec![DstData(ty, vec.lanes()), Mem(space)],
        Op::St { space, ty, vec, .. } => vec![Mem(space), SrcData(ty, vec.lanes())],
        Op::Cvta { ty, .. } => vec![Dst(ty), AddrOf(ty)],
        Op::Add { ty, .. }
        | Op::Sub { ty, .. }
        | Op::Div { ty, .. }
        | Op::Rem { ty }
        | Op::Min { ty, .. }
        | Op::Max { ty, .. }
        | Op::And { ty }
        | Op::Or { ty }
        | Op::Xor { ty }
        | Op::Mul24 { ty, .. } => vec![Dst(ty), Src(ty), Src(ty)],
        Op::Mul { ty, part, .. } => vec![Dst(wide_if(ty, part)), Src(ty), Src(ty)],
        Op::Mad { ty, part, .. } => {
            let w = wide_if(ty, part);
            vec![Dst(w), Src(ty), Src(ty), Src(w)]
        }
        Op::Mad24 { ty, .. } | Op::Fma { ty, .. } => vec![Dst(ty), Src(ty), Src(ty), Src(ty)],
        Op::Abs { ty, .. }
        | Op::Neg { ty, .. }
        | Op::Not { ty }
        | Op::Cnot { ty }
        | Op::Brev { ty }
        | Op::Rcp { ty, .. }
        | Op::Sqrt { ty, .. }
        | Op::Rsqrt { ty, .. }
        | Op::Sin { ty, .. }
        | Op::Cos { ty, .. }
        | Op::Lg2 { ty, .. }
        | Op::Ex2 { ty, .. } => vec![Dst(ty), Src(ty)],
        Op::Popc { ty } | Op::Clz { ty } => vec![Dst(Type::U32), Src(ty)],
        Op::Shl { ty } | Op::Shr { ty } => vec![Dst(ty), Src(ty), Src(Type::U32)],
        Op::Bfe { ty } => vec![Dst(ty), Src(ty), Src(Type::U32), Src(Type::U32)],
        Op::Bfi { ty } => vec![Dst(ty), Src(ty), Src(ty), Src(Type::U32), Src(Type::U32)],
        Op::Prmt { .. } => vec![
            Dst(Type::B32),
            Src(Type::B32),
            Src(Type::B32),
            Src(Type::B32),
        ],
        Op::Setp { ty, combine, .. } => with_pred(
            vec![DstPair(Type::Pred), Src(ty), Src(ty)],
            combine.is_some(),
        ),
        Op::Set {
            dty, sty, combine, ..
        } => with_pred(vec![Dst(dty), Src(sty), Src(sty)], combine.is_some()),
        Op::Selp { ty } => vec![Dst(ty), Src(ty), Src(ty), Pred],
        Op::Slct { dty, sty, .. } => vec![Dst(dty), Src(dty), Src(dty), Src(sty)],
        Op::Cvt { dty, sty, .. } => vec![DstData(dty, 1), SrcWide(sty)],
        Op::Bra { .. } => vec![Label],
        Op::Ret { .. } | Op::Exit | Op::Membar { .. } | Op::Fence { .. } => vec![],
        Op::Call { .. } => return Err("internal: call has no fixed signature".into()),
        Op::Bar { kind, .. } => bar_signature(kind, n),
        Op::BarWarpSync => vec![Src(Type::B32)],
        Op::Atom { space, op, ty, .. } => {
            let mut s = vec![Dst(ty), Mem(space), Src(ty)];
            if op == super::ops::AtomOp::Cas {
                s.push(Src(ty));
            }
            s
        }
        Op::Red { space, ty, .. } => vec![Mem(space), Src(ty)],
        Op::Vote { mode, sync } => {
            let d = if mode == VoteMode::Ballot {
                Type::B32
            } else {
                Type::Pred
            };
            with_mask(vec![Dst(d), Pred], sync)
        }
        Op::Shfl { sync, .. } => with_mask(
            vec![
                DstPair(Type::B32),
                Src(Type::B32),
                Src(Type::B32),
                Src(Type::B32),
            ],
            sync,
        ),
        Op::Activemask => vec![Dst(Type::B32)],
        Op::Match { mode, ty } => {
            let d = if mode == MatchMode::All {
                DstPair(Type::B32)
            } else {
                Dst(Type::B32)
            };
            vec![d, Src(ty), Src(Type::B32)]
        }
    };
    Ok(s)
}

fn wide_if(ty: Type, part: Option<MulPart>) -> Type {
    match part {
        Some(MulPart::Wide) => ty.widened().unwrap_or(ty),
        _ => ty,
    }
}

fn with_pred(mut s: Vec<Slot>, yes: bool) -> Vec<Slot> {
    if yes {
        s.push(Slot::Pred);
    }
    s
}

fn with_mask(mut s: Vec<Slot>, yes: bool) -> Vec<Slot> {
    if yes {
        s.push(Slot::Src(Type::B32));
    }
    s
}

/// `bar.sync a{, b}`, `bar.arrive a, b`, `bar.red d, a{, b}, {!}c`.
fn bar_signature(kind: BarKind, n: usize) -> Vec<Slot> {
    use Slot::*;
    let u = Src(Type::U32);
    match kind {
        BarKind::Sync if n >= 2 => vec![u, u],
        BarKind::Sync => vec![u],
        BarKind::Arrive => vec![u, u],
        _ => {
            let d = if kind == BarKind::RedPopc {
                Dst(Type::U32)
            } else {
                Dst(Type::Pred)
            };
            if n >= 4 {
                vec![d, u, u, Pred]
            } else {
                vec![d, u, Pred]
            }
        }
    }
}
