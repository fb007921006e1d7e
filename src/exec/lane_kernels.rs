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

/// Where a source operand's value comes from, resolved once per warp instruction (the general
/// loop in `execute` reads every kind; the loops here take registers and uniform values).
#[derive(Clone, Copy)]
pub(super) enum Source {
    /// A register: the start of its row in `WarpState::regs`.
    Row(usize),
    /// `!p`: the negation of a predicate register's row.
    NotRow(usize),
    /// An immediate or address: the same in every lane (0 for an absent operand).
    Uniform(u64),
    /// A special register (`%tid`, `%laneid`...): read per lane.
    PerLane,
}

/// Where the results go: a register's row and its width mask.
#[derive(Clone, Copy)]
pub(super) struct Dst {
    pub row: usize,
    pub mask: u64,
}

/// Runs `op` in the lanes of `exec` if it has a specialized loop here; false (and nothing done)
/// if not, or if a source is a negated predicate or a special register. `srcs` are the first
/// three sources in PTX order.
#[inline]
pub(super) fn run(
    op: &Op,
    warp: &mut WarpState,
    srcs: [Source; 3],
    dst: Dst,
    exec: LaneMask,
) -> bool {
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
    (warp, srcs, dst, exec): (&mut WarpState, [Source; 3], Dst, LaneMask),
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
            Source::Row(r) => match regs.get(r..r + ws) {
                Some(cells) => Lane::Row(cells),
                None => return false,
            },
            Source::Uniform(v) => Lane::Value(v),
            Source::NotRow(_) | Source::PerLane => return false,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Divergence;
    use crate::exec::alu::eval;
    use crate::launch::Dim3;
    use crate::ptx::convergence_barriers::BarrierPlan;
    use crate::ptx::ops::{Mods, Rounding};
    use crate::ptx::types::Type::{self, *};

    /// The instructions this module specializes, over their types and modifiers.
    fn specialized() -> Vec<Op> {
        let plain = Mods::default();
        let round = |r| Mods {
            round: Some(r),
            ..Mods::default()
        };
        let ftz = Mods {
            ftz: true,
            ..Mods::default()
        };
        let mut ops = Vec::new();
        for ty in [U32, B64, F32, S16] {
            ops.push(Op::Mov { ty });
        }
        for ty in [S32, U32, U64, S64, U16, F32, F64] {
            for mods in [plain, round(Rounding::Rz), ftz] {
                ops.push(Op::Add { ty, mods });
                ops.push(Op::Sub { ty, mods });
                let part = (!ty.is_float()).then_some(MulPart::Lo);
                ops.push(Op::Mul { ty, part, mods });
                ops.push(Op::Mad { ty, part, mods });
            }
            for part in [MulPart::Hi, MulPart::Wide] {
                let wide_64 = part == MulPart::Wide && ty.bits() == 64;
                if !ty.is_float() && !wide_64 {
                    ops.push(Op::Mul {
                        ty,
                        part: Some(part),
                        mods: plain,
                    });
                    ops.push(Op::Mad {
                        ty,
                        part: Some(part),
                        mods: plain,
                    });
                }
            }
        }
        ops.push(Op::Fma {
            ty: F64,
            mods: round(Rounding::Rn),
        });
        ops.push(Op::Fma {
            ty: F32,
            mods: round(Rounding::Rm),
        });
        for ty in [S16, S32, S64, U32, U64, B32] {
            ops.push(Op::Neg { ty, ftz: false });
            ops.push(Op::Min {
                ty,
                ftz: false,
                nan: false,
            });
            ops.push(Op::Max {
                ty,
                ftz: false,
                nan: false,
            });
        }
        for ty in [B32, B64, Pred, B16, U32, S32, S64] {
            ops.extend([
                Op::And { ty },
                Op::Or { ty },
                Op::Xor { ty },
                Op::Not { ty },
            ]);
            ops.extend([Op::Shl { ty }, Op::Shr { ty }, Op::Selp { ty }]);
        }
        for ty in [S32, U32, S64, U16, B32, F32, F64] {
            for cmp in [
                Cmp::Eq,
                Cmp::Ne,
                Cmp::Lt,
                Cmp::Le,
                Cmp::Gt,
                Cmp::Ge,
                Cmp::Lo,
            ]
            .into_iter()
            .chain([
                Cmp::Ls,
                Cmp::Hi,
                Cmp::Hs,
                Cmp::Equ,
                Cmp::Ltu,
                Cmp::Nan,
                Cmp::Num,
            ]) {
                for ftz in [false, true] {
                    ops.push(Op::Setp {
                        cmp,
                        combine: None,
                        ty,
                        ftz,
                    });
                }
            }
        }
        let cvts: [(Type, Type, Option<Rounding>); 9] = [
            (F32, S32, Some(Rounding::Rn)),
            (S32, F32, Some(Rounding::Rzi)),
            (U64, U32, None),
            (S64, S32, None),
            (F64, F32, None),
            (F32, F64, Some(Rounding::Rn)),
            (U16, U32, None),
            (S32, S8, None),
            (U32, F64, Some(Rounding::Rni)),
        ];
        for (dty, sty, round) in cvts {
            for sat in [false, true] {
                ops.push(Op::Cvt {
                    dty,
                    sty,
                    round,
                    ftz: false,
                    sat,
                });
            }
        }
        ops
    }

    /// Register values that reach the edge cases: zero, all ones, sign bits, small integers,
    /// f32 and f64 NaNs, infinities, subnormals and ordinary numbers, and random bits.
    fn value(x: u64) -> u64 {
        match x % 12 {
            0 => 0,
            1 => u64::MAX,
            2 => 0x8000_0000,
            3 => x >> 60,
            4 => 0x7fc0_0000,
            5 => 0x7f80_0000,
            6 => 0x0000_0001,
            7 => u64::from(1.5f32.to_bits()),
            8 => (-2.75f64).to_bits(),
            9 => f64::NAN.to_bits(),
            10 => 0x8000_0000_0000_0000,
            _ => x,
        }
    }

    #[test]
    fn every_specialized_loop_computes_what_the_general_one_does() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let block = Dim3 { x: 32, y: 1, z: 1 };
        let mut covered = std::collections::BTreeSet::new();
        for op in specialized() {
            for round in 0..12u64 {
                let plan = BarrierPlan::default();
                let mut warp = WarpState::new(32, 0, block, (4, 0), Divergence::default(), &plan);
                for r in warp.regs.iter_mut() {
                    *r = value(next());
                }
                let before = warp.regs.clone();
                // Full and partial warps; a register or a value shared by the lanes as the
                // second source; the destination apart from the sources or one of them.
                let exec = match round % 3 {
                    0 => low_bits(32),
                    _ => next() & low_bits(32),
                };
                let second = match round % 2 {
                    0 => Source::Row(64),
                    _ => Source::Uniform(value(next())),
                };
                let srcs = [Source::Row(32), second, Source::Row(96)];
                let row = if round % 4 == 3 { 32 } else { 0 };
                let mask = if round % 5 == 4 {
                    0xffff_ffff
                } else {
                    u64::MAX
                };
                let dst = Dst { row, mask };
                if !run(&op, &mut warp, srcs, dst, exec) {
                    // Not specialized (e.g. `mad.hi`): nothing done, the general loop runs.
                    assert_eq!(warp.regs, before, "{op:?} left to the general loop");
                    continue;
                }
                covered.insert(op.to_string());
                let mut expected = before.clone();
                for lane in lanes(exec) {
                    let l = lane as usize;
                    let read = |s: Source| match s {
                        Source::Row(r) => before[r + l],
                        Source::Uniform(v) => v,
                        Source::NotRow(_) | Source::PerLane => unreachable!("not generated"),
                    };
                    let values = [read(srcs[0]), read(srcs[1]), read(srcs[2]), 0];
                    let out = eval(&op, values).expect("lane-wise");
                    expected[row + l] = out.d & mask;
                }
                assert_eq!(warp.regs, expected, "{op:?}, round {round}");
                assert_eq!(warp.changed, warp.regs != before, "{op:?}: changed");
            }
        }
        // A negated predicate or a special register as a source is the general loop's.
        let plan = BarrierPlan::default();
        let mut warp = WarpState::new(32, 0, block, (4, 0), Divergence::default(), &plan);
        warp.regs.iter_mut().for_each(|r| *r = value(next()));
        let before = warp.regs.clone();
        let add = Op::Add {
            ty: S32,
            mods: Mods::default(),
        };
        for other in [Source::NotRow(64), Source::PerLane] {
            let srcs = [Source::Row(32), other, Source::Row(96)];
            let dst = Dst {
                row: 0,
                mask: u64::MAX,
            };
            assert!(!run(&add, &mut warp, srcs, dst, low_bits(32)));
            assert_eq!(warp.regs, before, "nothing written");
        }
        let names = "add and cvt fma mad max min mov mul neg not or selp setp shl shr sub xor";
        assert_eq!(covered.into_iter().collect::<Vec<_>>().join(" "), names);
    }
}
