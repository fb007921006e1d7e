//! The lane-wise loop specialized per instruction for the most common opcodes (MODEL.md
//! section 2: execute-at-issue, per lane): the opcode, its type and its modifiers are matched
//! once per warp instruction, and each lane runs only the arithmetic. Every closure here
//! computes exactly the bits [`alu::eval`](super::alu::eval) computes for the same instruction
//! (the same `int`/`float`/`convert` functions, or their masking written out), so results do not
//! depend on which path ran; anything not listed, and any operand that is neither a register
//! nor a value shared by every lane, takes the general loop in `execute`.

use super::alu::compare;
use super::convert::cvt;
use super::float;
use super::int::{self, mask, sext};
use super::lanes::{lanes, low_bits, LaneMask};
use super::warp::WarpState;
use crate::ptx::ops::{Cmp, MulPart, Op};
use std::cell::Cell;

/// A source operand resolved once per warp instruction.
#[derive(Clone, Copy)]
pub(super) enum Src {
    /// A register: the start of its row in `WarpState::regs`.
    Row(usize),
    /// An immediate or address: the same in every lane (0 for an absent operand).
    Uniform(u64),
}

/// Where the results go: a register's row and its width mask.
#[derive(Clone, Copy)]
pub(super) struct Dst {
    pub row: usize,
    pub mask: u64,
}

/// Runs `op` in the lanes of `exec` if it has a specialized loop here; false (and nothing done)
/// if not. `srcs` are the first three sources in PTX order.
#[inline]
pub(super) fn run(op: &Op, warp: &mut WarpState, srcs: [Src; 3], dst: Dst, exec: LaneMask) -> bool {
    let w = (warp, srcs, dst, exec);
    match *op {
        Op::Mov { ty } => {
            let m = low_bits(ty.bits());
            each(w, move |a, _, _| a & m)
        }
        Op::Add { ty, mods } if ty.is_float() => each(w, move |a, b, _| float::add(ty, a, b, mods)),
        Op::Add { ty, mods } if !mods.sat => {
            let m = low_bits(ty.bits());
            each(w, move |a, b, _| a.wrapping_add(b) & m)
        }
        Op::Sub { ty, mods } if ty.is_float() => each(w, move |a, b, _| float::sub(ty, a, b, mods)),
        Op::Sub { ty, mods } if !mods.sat => {
            let m = low_bits(ty.bits());
            each(w, move |a, b, _| a.wrapping_sub(b) & m)
        }
        Op::Mul { ty, mods, .. } if ty.is_float() => {
            each(w, move |a, b, _| float::mul(ty, a, b, mods))
        }
        Op::Mul { ty, part, .. } => match part.unwrap_or(MulPart::Lo) {
            MulPart::Lo => {
                let m = low_bits(ty.bits());
                each(w, move |a, b, _| a.wrapping_mul(b) & m)
            }
            MulPart::Wide => {
                let (n, m) = (ty.bits(), low_bits(2 * ty.bits()));
                if ty.is_signed() {
                    each(w, move |a, b, _| wide_signed(a, b, n) & m)
                } else {
                    each(w, move |a, b, _| mask(a, n).wrapping_mul(mask(b, n)) & m)
                }
            }
            MulPart::Hi => each(w, move |a, b, _| int::mul(ty, MulPart::Hi, a, b)),
        },
        Op::Mad { ty, mods, .. } | Op::Fma { ty, mods } if ty.is_float() => {
            each(w, move |a, b, c| float::fma(ty, a, b, c, mods))
        }
        Op::Mad { ty, part, .. } => match part.unwrap_or(MulPart::Lo) {
            MulPart::Lo => {
                let m = low_bits(ty.bits());
                each(w, move |a, b, c| a.wrapping_mul(b).wrapping_add(c) & m)
            }
            MulPart::Wide => {
                let (n, m) = (ty.bits(), low_bits(2 * ty.bits()));
                if ty.is_signed() {
                    each(w, move |a, b, c| wide_signed(a, b, n).wrapping_add(c) & m)
                } else {
                    each(w, move |a, b, c| {
                        mask(a, n).wrapping_mul(mask(b, n)).wrapping_add(c) & m
                    })
                }
            }
            MulPart::Hi => false,
        },
        Op::Neg { ty, .. } if !ty.is_float() => {
            let m = low_bits(ty.bits());
            each(w, move |a, _, _| a.wrapping_neg() & m)
        }
        Op::Min { ty, .. } if !ty.is_float() => {
            each(w, move |a, b, _| int::min_max(ty, a, b, false))
        }
        Op::Max { ty, .. } if !ty.is_float() => {
            each(w, move |a, b, _| int::min_max(ty, a, b, true))
        }
        Op::And { ty } => {
            let m = low_bits(ty.bits());
            each(w, move |a, b, _| a & b & m)
        }
        Op::Or { ty } => {
            let m = low_bits(ty.bits());
            each(w, move |a, b, _| (a | b) & m)
        }
        Op::Xor { ty } => {
            let m = low_bits(ty.bits());
            each(w, move |a, b, _| (a ^ b) & m)
        }
        Op::Not { ty } => {
            let m = low_bits(ty.bits());
            each(w, move |a, _, _| !a & m)
        }
        Op::Shl { ty } => each(w, move |a, b, _| int::shl(ty, a, b)),
        Op::Shr { ty } => each(w, move |a, b, _| int::shr(ty, a, b)),
        Op::Selp { ty } => {
            let m = low_bits(ty.bits());
            each(w, move |a, b, c| (if c & 1 != 0 { a } else { b }) & m)
        }
        Op::Setp {
            cmp,
            combine: None,
            ty,
            ftz,
        } => {
            if ty.is_float() {
                return each(w, move |a, b, _| u64::from(compare(cmp, ty, ftz, a, b)));
            }
            // `alu::compare` on integers: signed unless the type is unsigned or the comparison
            // is one of the unsigned-only `lo ls hi hs`.
            let n = ty.bits();
            let signed = ty.is_signed() && !cmp.is_unsigned_only();
            let s = move |v: u64| sext(v, n);
            let u = move |v: u64| mask(v, n);
            let t = |x: bool| u64::from(x);
            match (cmp, signed) {
                (Cmp::Eq, _) => each(w, move |a, b, _| t(u(a) == u(b))),
                (Cmp::Ne, _) => each(w, move |a, b, _| t(u(a) != u(b))),
                (Cmp::Lt, true) => each(w, move |a, b, _| t(s(a) < s(b))),
                (Cmp::Le, true) => each(w, move |a, b, _| t(s(a) <= s(b))),
                (Cmp::Gt, true) => each(w, move |a, b, _| t(s(a) > s(b))),
                (Cmp::Ge, true) => each(w, move |a, b, _| t(s(a) >= s(b))),
                (Cmp::Lt | Cmp::Lo, false) => each(w, move |a, b, _| t(u(a) < u(b))),
                (Cmp::Le | Cmp::Ls, false) => each(w, move |a, b, _| t(u(a) <= u(b))),
                (Cmp::Gt | Cmp::Hi, false) => each(w, move |a, b, _| t(u(a) > u(b))),
                (Cmp::Ge | Cmp::Hs, false) => each(w, move |a, b, _| t(u(a) >= u(b))),
                _ => each(w, move |a, b, _| u64::from(compare(cmp, ty, ftz, a, b))),
            }
        }
        Op::Cvt {
            dty,
            sty,
            round,
            ftz,
            sat,
        } => each(w, move |a, _, _| cvt(dty, sty, round, ftz, sat, a)),
        _ => false,
    }
}

/// The low 64 bits of the product of the sign-extended low `n` bits of `a` and `b`: the low
/// bits of `int::full_product` for a signed type, without 128-bit arithmetic.
#[inline]
fn wide_signed(a: u64, b: u64, n: u32) -> u64 {
    sext(a, n).wrapping_mul(sext(b, n)) as u64
}

/// The loop: `f` of each lane's sources, truncated to the destination's width, into the
/// destination row; notes in `warp.changed` whether a value changed. False (nothing done) for a
/// lane outside the warp or a row outside the registers, which the general loop reports.
///
/// The rows are cells: the destination may be one of the sources (`add %r1, %r1, 1`), and each
/// lane reads its sources before it writes, as the general loop does. A full warp runs a dense
/// loop specialized to its sources' kinds, with no per-lane branches.
#[inline(always)]
fn each<F: Fn(u64, u64, u64) -> u64>(
    (warp, srcs, dst, exec): (&mut WarpState, [Src; 3], Dst, LaneMask),
    f: F,
) -> bool {
    let ws = warp.warp_size as usize;
    let full = low_bits(ws as u32);
    if exec & !full != 0 {
        return false;
    }
    let regs = Cell::from_mut(&mut warp.regs[..]).as_slice_of_cells();
    let mut rows = [Lane::Value(0); 3];
    for (row, s) in rows.iter_mut().zip(srcs) {
        *row = match s {
            Src::Row(r) => match regs.get(r..r + ws) {
                Some(cells) => Lane::Row(cells),
                None => return false,
            },
            Src::Uniform(v) => Lane::Value(v),
        };
    }
    let Some(d) = regs.get(dst.row..dst.row + ws) else {
        return false;
    };
    let m = dst.mask;
    let changed = if exec == full {
        use Lane::{Row as R, Value as V};
        match rows {
            [R(a), R(b), R(c)] => dense((a, b, c), d, m, &f),
            [R(a), R(b), V(c)] => dense((a, b, c), d, m, &f),
            [R(a), V(b), R(c)] => dense((a, b, c), d, m, &f),
            [R(a), V(b), V(c)] => dense((a, b, c), d, m, &f),
            [V(a), R(b), R(c)] => dense((a, b, c), d, m, &f),
            [V(a), R(b), V(c)] => dense((a, b, c), d, m, &f),
            [V(a), V(b), R(c)] => dense((a, b, c), d, m, &f),
            [V(a), V(b), V(c)] => dense((a, b, c), d, m, &f),
        }
    } else {
        let mut changed = false;
        for lane in lanes(exec) {
            let l = lane as usize;
            let [a, b, c] = rows.map(|r| r.at(l));
            let value = f(a, b, c) & m;
            changed |= d[l].get() != value;
            d[l].set(value);
        }
        changed
    };
    warp.changed |= changed;
    true
}

/// A source in every lane of the warp: a register's row, or one value for all lanes.
#[derive(Clone, Copy)]
enum Lane<'a> {
    Row(&'a [Cell<u64>]),
    Value(u64),
}

impl Lane<'_> {
    #[inline(always)]
    fn at(self, l: usize) -> u64 {
        match self {
            Lane::Row(cells) => cells[l].get(),
            Lane::Value(v) => v,
        }
    }
}

/// One source's value by lane, for [`dense`]: a row or a value, known at compile time.
trait Lanes: Copy {
    /// The first `n` lanes (a row cut to `n`, so indexing below `n` needs no checks).
    fn fit(self, n: usize) -> Self;
    fn at(self, l: usize) -> u64;
}

impl Lanes for &[Cell<u64>] {
    #[inline(always)]
    fn fit(self, n: usize) -> Self {
        &self[..n]
    }
    #[inline(always)]
    fn at(self, l: usize) -> u64 {
        self[l].get()
    }
}

impl Lanes for u64 {
    #[inline(always)]
    fn fit(self, _: usize) -> Self {
        self
    }
    #[inline(always)]
    fn at(self, _: usize) -> u64 {
        self
    }
}

/// Every lane of `d` (rows as long as `d`); returns whether a value changed.
#[inline(always)]
fn dense<A: Lanes, B: Lanes, C: Lanes, F: Fn(u64, u64, u64) -> u64>(
    (a, b, c): (A, B, C),
    d: &[Cell<u64>],
    m: u64,
    f: &F,
) -> bool {
    let n = d.len();
    let (a, b, c) = (a.fit(n), b.fit(n), c.fit(n));
    let mut changed = false;
    for (l, slot) in d.iter().enumerate() {
        let value = f(a.at(l), b.at(l), c.at(l)) & m;
        changed |= slot.get() != value;
        slot.set(value);
    }
    changed
}
