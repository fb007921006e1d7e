//! One lane of a lane-wise PTX instruction: [`eval`], and the memory update of an atomic:
//! [`atomic`] (MODEL.md §2: execute-at-issue, per lane).
//!
//! The executor gathers each lane's source operands and calls [`eval`] once per active lane, so
//! this is the simulator's hot loop: one `match` on the opcode, no allocation, no panics on any
//! input bits. Instructions that touch memory, control flow or other lanes return `None`.

use super::convert::cvt;
use super::float::{self, Transcendental};
use super::int::{self, mask, sext, value};
use crate::ptx::ops::{AtomOp, BoolOp, Cmp, MulPart, Op};
use crate::ptx::types::Type;

/// The result of one lane of one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LaneOut {
    /// The destination's bit pattern: exactly the destination type's bits, zero-extended
    /// (twice the source width for `.wide`; 0 or 1 for a predicate).
    pub d: u64,
    /// The second destination of `setp p|q` (`!cmp`, combined with `c` like `p`), 0 or 1.
    /// 0 for every other instruction.
    pub q: u64,
}

impl LaneOut {
    #[inline]
    fn d(d: u64) -> Option<LaneOut> {
        Some(LaneOut { d, q: 0 })
    }
}

/// One lane of the lane-wise instruction `op`.
///
/// `srcs` are the source operands in PTX order after the destination (`mad d,a,b,c` ->
/// `[a, b, c, _]`; `bfi f,a,b,c,d` -> `[a, b, c, d]`; `selp d,a,b,c`, `slct d,a,b,c` and
/// `prmt d,a,b,c` -> `[a, b, c, _]`; `setp p|q,a,b,c` and `set d,a,b,c` -> `[a, b, c, _]` with
/// `c` the combine predicate as 0/1, already negated for `!c`; `cvt d,a`, `mov d,a` -> `[a, ..]`).
/// Each is the raw bits of the register (or an immediate's bit pattern for the operand type),
/// zero-extended to 64; `eval` reads them as the instruction's type says: the low bits of the
/// type's width, sign-extended for signed types, `.f32` from the low 32 bits. Shift amounts and
/// `bfe`/`bfi` positions and lengths are read as `.u32`. Predicate sources are 0 or 1 (only bit
/// 0 is read).
///
/// Returns `None` for instructions that are not lane-wise (`ld st ldu cvta atom red bra call ret
/// exit bar membar fence vote shfl activemask match`): the executor carries those out.
#[inline]
pub fn eval(op: &Op, srcs: [u64; 4]) -> Option<LaneOut> {
    let [a, b, c, d] = srcs;
    match *op {
        Op::Mov { ty } => LaneOut::d(mask(a, ty.bits())),
        Op::Add { ty, mods } if ty.is_float() => LaneOut::d(float::add(ty, a, b, mods)),
        Op::Add { ty, mods } => LaneOut::d(int::add(ty, a, b, mods.sat)),
        Op::Sub { ty, mods } if ty.is_float() => LaneOut::d(float::sub(ty, a, b, mods)),
        Op::Sub { ty, mods } => LaneOut::d(int::sub(ty, a, b, mods.sat)),
        Op::Mul { ty, part, mods } => LaneOut::d(match part {
            _ if ty.is_float() => float::mul(ty, a, b, mods),
            Some(p) => int::mul(ty, p, a, b),
            None => int::mul(ty, MulPart::Lo, a, b),
        }),
        Op::Mul24 { ty, hi } => LaneOut::d(int::mul24(ty, hi, a, b)),
        Op::Mad { ty, part, mods } => LaneOut::d(match part {
            _ if ty.is_float() => float::fma(ty, a, b, c, mods),
            Some(p) => int::mad(ty, p, mods.sat, a, b, c),
            None => int::mad(ty, MulPart::Lo, false, a, b, c),
        }),
        Op::Mad24 { ty, hi, sat } => LaneOut::d(int::mad24(ty, hi, sat, a, b, c)),
        Op::Fma { ty, mods } => LaneOut::d(float::fma(ty, a, b, c, mods)),
        Op::Div { ty, mods } if ty.is_float() => LaneOut::d(float::div(ty, a, b, mods)),
        Op::Div { ty, .. } => LaneOut::d(int::div(ty, a, b)),
        Op::Rem { ty } => LaneOut::d(int::rem(ty, a, b)),
        Op::Abs { ty, ftz } if ty.is_float() => LaneOut::d(float::abs_neg(ty, a, ftz, false)),
        Op::Abs { ty, .. } => LaneOut::d(int::abs(ty, a)),
        Op::Neg { ty, ftz } if ty.is_float() => LaneOut::d(float::abs_neg(ty, a, ftz, true)),
        Op::Neg { ty, .. } => LaneOut::d(int::neg(ty, a)),
        Op::Min { ty, ftz, nan } => LaneOut::d(min_max(ty, ftz, nan, false, a, b)),
        Op::Max { ty, ftz, nan } => LaneOut::d(min_max(ty, ftz, nan, true, a, b)),
        Op::And { ty } => LaneOut::d(mask(a & b, ty.bits())),
        Op::Or { ty } => LaneOut::d(mask(a | b, ty.bits())),
        Op::Xor { ty } => LaneOut::d(mask(a ^ b, ty.bits())),
        Op::Not { ty } => LaneOut::d(mask(!a, ty.bits())),
        Op::Cnot { ty } => LaneOut::d(u64::from(mask(a, ty.bits()) == 0)),
        Op::Shl { ty } => LaneOut::d(int::shl(ty, a, b)),
        Op::Shr { ty } => LaneOut::d(int::shr(ty, a, b)),
        Op::Popc { ty } => LaneOut::d(int::popc(ty, a)),
        Op::Clz { ty } => LaneOut::d(int::clz(ty, a)),
        Op::Brev { ty } => LaneOut::d(int::brev(ty, a)),
        Op::Bfe { ty } => LaneOut::d(int::bfe(ty, a, b, c)),
        Op::Bfi { ty } => LaneOut::d(int::bfi(ty, a, b, c, d)),
        Op::Prmt { mode } => LaneOut::d(int::prmt(mode, a, b, c)),
        Op::Setp {
            cmp,
            combine,
            ty,
            ftz,
        } => {
            let t = compare(cmp, ty, ftz, a, b);
            Some(LaneOut {
                d: u64::from(combine_with(combine, t, c)),
                q: u64::from(combine_with(combine, !t, c)),
            })
        }
        Op::Set {
            cmp,
            combine,
            dty,
            sty,
            ftz,
        } => LaneOut::d(set_result(
            dty,
            combine_with(combine, compare(cmp, sty, ftz, a, b), c),
        )),
        Op::Selp { ty } => LaneOut::d(mask(if c & 1 != 0 { a } else { b }, ty.bits())),
        Op::Slct { dty, sty, ftz } => LaneOut::d(mask(
            if slct_takes_a(sty, ftz, c) { a } else { b },
            dty.bits(),
        )),
        Op::Cvt {
            dty,
            sty,
            round,
            ftz,
            sat,
        } => LaneOut::d(cvt(dty, sty, round, ftz, sat, a)),
        Op::Rcp { ty, mods } => LaneOut::d(float::rcp(ty, a, mods)),
        Op::Sqrt { ty, mods } => LaneOut::d(float::sqrt(ty, a, mods)),
        Op::Rsqrt { ty, mods } => LaneOut::d(float::rsqrt(ty, a, mods)),
        Op::Sin { mods, .. } => LaneOut::d(float::transcendental(Transcendental::Sin, a, mods.ftz)),
        Op::Cos { mods, .. } => LaneOut::d(float::transcendental(Transcendental::Cos, a, mods.ftz)),
        Op::Lg2 { mods, .. } => LaneOut::d(float::transcendental(Transcendental::Lg2, a, mods.ftz)),
        Op::Ex2 { mods, .. } => LaneOut::d(float::transcendental(Transcendental::Ex2, a, mods.ftz)),
        Op::Ld { .. }
        | Op::Ldu { .. }
        | Op::St { .. }
        | Op::Cvta { .. }
        | Op::Bra { .. }
        | Op::Call { .. }
        | Op::Ret { .. }
        | Op::Exit
        | Op::Bar { .. }
        | Op::BarWarpSync
        | Op::Membar { .. }
        | Op::Fence { .. }
        | Op::Atom { .. }
        | Op::Red { .. }
        | Op::Vote { .. }
        | Op::Shfl { .. }
        | Op::Activemask
        | Op::Match { .. } => None,
    }
}

#[inline]
fn min_max(ty: Type, ftz: bool, nan: bool, max: bool, a: u64, b: u64) -> u64 {
    if ty.is_float() {
        float::min_max(ty, a, b, ftz, nan, max)
    } else {
        int::min_max(ty, a, b, max)
    }
}

/// The comparison `a cmp b` of `setp`/`set` (PTX ISA "Comparison and Selection Instructions",
/// tables of integer and floating-point comparison operators).
///
/// Floats: the ordered forms (`eq ne lt le gt ge`) are false when either operand is NaN, the
/// unordered forms (`equ neu ltu leu gtu geu`) true; `num`/`nan` test for NaN; `.ftz` flushes
/// `.f32` subnormal operands first. Integers: `lt le gt ge` compare signed for `.sN` and
/// unsigned for `.uN`/`.bN`; `lo ls hi hs` always compare unsigned. Comparisons the decoder
/// rejects for a type are still defined here: on floats `lo ls hi hs` act as `lt le gt ge`; on
/// integers the unordered forms act as the ordered ones, `num` is true and `nan` false.
#[inline]
pub fn compare(cmp: Cmp, ty: Type, ftz: bool, a: u64, b: u64) -> bool {
    let (lt, eq, unordered) = if ty.is_float() {
        float::compare(ty, a, b, ftz)
    } else if ty.is_signed() && !cmp.is_unsigned_only() {
        let (x, y) = (sext(a, ty.bits()), sext(b, ty.bits()));
        (x < y, x == y, false)
    } else {
        let (x, y) = (mask(a, ty.bits()), mask(b, ty.bits()));
        (x < y, x == y, false)
    };
    let gt = !lt && !eq && !unordered;
    match cmp {
        Cmp::Eq => eq,
        Cmp::Ne => !eq && !unordered,
        Cmp::Lt | Cmp::Lo => lt,
        Cmp::Le | Cmp::Ls => lt || eq,
        Cmp::Gt | Cmp::Hi => gt,
        Cmp::Ge | Cmp::Hs => gt || eq,
        Cmp::Equ => eq || unordered,
        Cmp::Neu => !eq,
        Cmp::Ltu => lt || unordered,
        Cmp::Leu => lt || eq || unordered,
        Cmp::Gtu => gt || unordered,
        Cmp::Geu => gt || eq || unordered,
        Cmp::Num => !unordered,
        Cmp::Nan => unordered,
    }
}

/// `BoolOp(t, c)` of `setp`/`set` (`c` only bit 0); `t` itself without a combine.
#[inline]
fn combine_with(combine: Option<BoolOp>, t: bool, c: u64) -> bool {
    let c = c & 1 != 0;
    match combine {
        None => t,
        Some(BoolOp::And) => t && c,
        Some(BoolOp::Or) => t || c,
        Some(BoolOp::Xor) => t != c,
    }
}

/// `set`'s destination encoding (PTX ISA `set`): `0xFFFFFFFF` for true with an integer
/// destination, `1.0f` (`0x3F800000`) with `.f32`; 0 for false.
#[inline]
fn set_result(dty: Type, t: bool) -> u64 {
    match (t, dty) {
        (false, _) => 0,
        (true, Type::F32) => 0x3F80_0000,
        (true, _) => 0xFFFF_FFFF,
    }
}

/// `slct`'s choice (PTX ISA `slct`): `a` when `c >= 0` (`.s32`, or `.f32` where `-0.0 >= 0`
/// and a NaN selects `b`).
#[inline]
fn slct_takes_a(sty: Type, ftz: bool, c: u64) -> bool {
    if sty == Type::F32 {
        float::non_negative32(c, ftz)
    } else {
        sext(c, sty.bits()) >= 0
    }
}

/// The new memory value of `atom`/`red` (PTX ISA `atom`, `red`): `old` is the value read from
/// memory, `b` (and `c` for `.cas`) the operands, all raw bits; the result has `ty`'s bits.
///
/// `.add` wraps for integers; `.add.f32` rounds to nearest and flushes subnormals, `.add.f64`
/// rounds to nearest. `.min`/`.max` compare signed for `.sN`, unsigned for `.uN`/`.bN`, and as
/// `min`/`max` for floats. `.inc` is `old >= b ? 0 : old + 1` and `.dec`
/// `(old == 0 || old > b) ? b : old - 1` (unsigned). `.cas` stores `c` when `old == b`.
#[inline]
pub fn atomic(op: AtomOp, ty: Type, old: u64, b: u64, c: u64) -> u64 {
    let n = ty.bits();
    let (o, b) = (mask(old, n), mask(b, n));
    let r = match op {
        AtomOp::Add => match ty {
            Type::F32 => float::atomic_add32(o, b),
            Type::F64 => float::atomic_add64(o, b),
            _ => o.wrapping_add(b),
        },
        AtomOp::Min | AtomOp::Max => {
            let max = op == AtomOp::Max;
            if ty.is_float() {
                float::min_max(ty, o, b, false, false, max)
            } else if value(o, ty) < value(b, ty) {
                if max {
                    b
                } else {
                    o
                }
            } else if max {
                o
            } else {
                b
            }
        }
        AtomOp::Inc => {
            if o >= b {
                0
            } else {
                o + 1
            }
        }
        AtomOp::Dec => {
            if o == 0 || o > b {
                b
            } else {
                o - 1
            }
        }
        AtomOp::And => o & b,
        AtomOp::Or => o | b,
        AtomOp::Xor => o ^ b,
        AtomOp::Exch => b,
        AtomOp::Cas => {
            if o == b {
                c
            } else {
                o
            }
        }
    };
    mask(r, n)
}
