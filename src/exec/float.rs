//! PTX floating-point instructions, one lane (PTX ISA "Floating-Point Instructions").
//!
//! Operands and results are raw bits: `.f32` in the low 32 bits, `.f64` in all 64. The rules
//! applied on top of IEEE arithmetic:
//!
//! - Rounding: `.rn` when no modifier is given (`add`, `sub`, `mul`: "the default is `.rn`").
//!   An instruction without a modifier may be contracted by the code generator; warpstep runs
//!   each instruction as written and never fuses. `.rn` uses the hardware operation (IEEE, the
//!   same on x86_64 and wasm32); `.rz .rm .rp` go through [`super::ieee`].
//! - `.ftz` (`.f32` only): subnormal inputs and results are flushed to sign-preserving zero
//!   (PTX ISA "Floating-Point Instructions", subnormal numbers, sm_20+).
//! - `.sat` (`.f32` only): the result is clamped to [0.0, 1.0]; NaN gives +0.0. A negative zero
//!   result also becomes +0.0 (warpstep's reading of "clamps to [0.0, 1.0]").
//! - NaN results are the canonical NaN ([`ieee::Format::nan`]): `0x7FFFFFFF` / `0xFFF8000000000000`.
//! - `.approx` transcendentals return the correctly rounded (or, for `sin cos lg2 ex2`, nearly
//!   correctly rounded) value, which is inside every error bound the ISA gives; they are computed
//!   in `f64` with the `libm` crate so native and wasm agree bit for bit.

use super::ieee::{self, Dir, F32, F64};
use crate::ptx::ops::{Mods, Precision};
use crate::ptx::types::Type;

/// PTX's canonical `.f32` NaN.
pub const NAN_F32: u32 = 0x7FFF_FFFF;
/// PTX's canonical `.f64` NaN.
pub const NAN_F64: u64 = 0xFFF8_0000_0000_0000;
const ONE_F32: u32 = 0x3F80_0000;
const ONE_F64: u64 = 0x3FF0_0000_0000_0000;

/// Flush a subnormal `.f32` to sign-preserving zero (`.ftz`).
#[inline]
pub fn ftz32(x: u32) -> u32 {
    if x & 0x7F80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

/// Flush a subnormal `.f64` to sign-preserving zero (`rcp.approx.ftz.f64`, `rsqrt.approx.ftz.f64`).
#[inline]
pub fn ftz64(x: u64) -> u64 {
    if x & 0x7FF0_0000_0000_0000 == 0 {
        x & 0x8000_0000_0000_0000
    } else {
        x
    }
}

/// The bits of an `f32` result, NaN made canonical.
#[inline]
pub fn canon32(x: f32) -> u32 {
    if x.is_nan() {
        NAN_F32
    } else {
        x.to_bits()
    }
}

/// The bits of an `f64` result, NaN made canonical.
#[inline]
pub fn canon64(x: f64) -> u64 {
    if x.is_nan() {
        NAN_F64
    } else {
        x.to_bits()
    }
}

/// `.sat` on `.f32` bits: clamp to [0.0, 1.0], NaN and negatives (including -0.0) to +0.0.
#[inline]
pub fn sat32(x: u32) -> u32 {
    if x & 0x8000_0000 != 0 || x > 0x7F80_0000 {
        0
    } else {
        x.min(ONE_F32)
    }
}

/// `.sat` on `.f64` bits (used by `cvt.sat.f64.*`).
#[inline]
pub fn sat64(x: u64) -> u64 {
    if x & 0x8000_0000_0000_0000 != 0 || x > 0x7FF0_0000_0000_0000 {
        0
    } else {
        x.min(ONE_F64)
    }
}

/// Apply `.ftz` to the inputs, run `op`, then `.ftz` and `.sat` on the result (`.f32`).
#[inline]
fn with_mods32<const N: usize>(
    srcs: [u64; N],
    ftz: bool,
    sat: bool,
    op: impl Fn([u32; N]) -> u32,
) -> u64 {
    let mut x = srcs.map(|v| v as u32);
    if ftz {
        x = x.map(ftz32);
    }
    let mut r = op(x);
    if ftz {
        r = ftz32(r);
    }
    if sat {
        r = sat32(r);
    }
    u64::from(r)
}

#[inline]
fn add32(a: u32, b: u32, dir: Dir) -> u32 {
    match dir {
        Dir::Nearest => canon32(f32::from_bits(a) + f32::from_bits(b)),
        _ => ieee::add(F32, a.into(), b.into(), dir) as u32,
    }
}

#[inline]
fn mul32(a: u32, b: u32, dir: Dir) -> u32 {
    match dir {
        Dir::Nearest => canon32(f32::from_bits(a) * f32::from_bits(b)),
        _ => ieee::mul(F32, a.into(), b.into(), dir) as u32,
    }
}

#[inline]
fn div32(a: u32, b: u32, dir: Dir) -> u32 {
    match dir {
        Dir::Nearest => canon32(f32::from_bits(a) / f32::from_bits(b)),
        _ => ieee::div(F32, a.into(), b.into(), dir) as u32,
    }
}

/// Fused `.f32` multiply-add. Round to nearest uses round-to-odd in `f64`: the product of two
/// `f32` is exact in `f64`, TwoSum gives the sum's exact error, and a sum rounded to odd with 29
/// spare bits rounds to the correctly rounded `f32` with no double-rounding error.
#[inline]
fn fma32(a: u32, b: u32, c: u32, dir: Dir) -> u32 {
    if dir != Dir::Nearest {
        return ieee::fma(F32, a.into(), b.into(), c.into(), dir) as u32;
    }
    let (a, b, c) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
    let p = f64::from(a) * f64::from(b);
    let c = f64::from(c);
    let s = p + c;
    if !s.is_finite() {
        return canon32(s as f32);
    }
    let bb = s - p;
    let err = (p - (s - bb)) + (c - bb);
    let mut bits = s.to_bits();
    if err != 0.0 && bits & 1 == 0 {
        // Move one ulp toward the exact value: away from zero when err has the sign of s.
        if (err > 0.0) == (s > 0.0) {
            bits += 1;
        } else {
            bits -= 1;
        }
    }
    canon32(f64::from_bits(bits) as f32)
}

#[inline]
fn add64(a: u64, b: u64, dir: Dir) -> u64 {
    match dir {
        Dir::Nearest => canon64(f64::from_bits(a) + f64::from_bits(b)),
        _ => ieee::add(F64, a, b, dir),
    }
}

#[inline]
fn mul64(a: u64, b: u64, dir: Dir) -> u64 {
    match dir {
        Dir::Nearest => canon64(f64::from_bits(a) * f64::from_bits(b)),
        _ => ieee::mul(F64, a, b, dir),
    }
}

#[inline]
fn div64(a: u64, b: u64, dir: Dir) -> u64 {
    match dir {
        Dir::Nearest => canon64(f64::from_bits(a) / f64::from_bits(b)),
        _ => ieee::div(F64, a, b, dir),
    }
}

/// Fused `.f64` multiply-add. `f64::mul_add` is IEEE `fusedMultiplyAdd` (correctly rounded on
/// every target), so round to nearest uses it.
#[inline]
fn fma64(a: u64, b: u64, c: u64, dir: Dir) -> u64 {
    match dir {
        Dir::Nearest => canon64(f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c))),
        _ => ieee::fma(F64, a, b, c, dir),
    }
}

#[inline]
fn sqrt32(a: u32, dir: Dir) -> u32 {
    match dir {
        Dir::Nearest => canon32(f32::from_bits(a).sqrt()),
        _ => ieee::sqrt(F32, a.into(), dir) as u32,
    }
}

#[inline]
fn sqrt64(a: u64, dir: Dir) -> u64 {
    match dir {
        Dir::Nearest => canon64(f64::from_bits(a).sqrt()),
        _ => ieee::sqrt(F64, a, dir),
    }
}

/// `add{.rnd}{.ftz}{.sat}.ftype` (PTX ISA `add` (floating point)).
#[inline]
pub fn add(ty: Type, a: u64, b: u64, mods: Mods) -> u64 {
    let dir = Dir::or_nearest(mods.round);
    if ty == Type::F64 {
        return add64(a, b, dir);
    }
    with_mods32([a, b], mods.ftz, mods.sat, |[x, y]| add32(x, y, dir))
}

/// `sub{.rnd}{.ftz}{.sat}.ftype` (PTX ISA `sub` (floating point)).
#[inline]
pub fn sub(ty: Type, a: u64, b: u64, mods: Mods) -> u64 {
    let dir = Dir::or_nearest(mods.round);
    if ty == Type::F64 {
        return add64(a, b ^ (1 << 63), dir);
    }
    with_mods32([a, b], mods.ftz, mods.sat, |[x, y]| {
        add32(x, y ^ 0x8000_0000, dir)
    })
}

/// `mul{.rnd}{.ftz}{.sat}.ftype` (PTX ISA `mul` (floating point)).
#[inline]
pub fn mul(ty: Type, a: u64, b: u64, mods: Mods) -> u64 {
    let dir = Dir::or_nearest(mods.round);
    if ty == Type::F64 {
        return mul64(a, b, dir);
    }
    with_mods32([a, b], mods.ftz, mods.sat, |[x, y]| mul32(x, y, dir))
}

/// `fma.rnd{.ftz}{.sat}.ftype` and float `mad` (PTX ISA `fma`, `mad` (floating point)).
///
/// `mad.f32` with no rounding modifier is the legacy sm_1x form; the ISA says that when
/// JIT-compiled for sm_20 and later it "is implemented as a fused multiply-add
/// (i.e., `fma.rn.ftz.f32`)", so that is what it runs as. `mad.f64` without a modifier maps to
/// `mad.rn.f64` (ISA notes on `mad`).
pub fn fma(ty: Type, a: u64, b: u64, c: u64, mods: Mods) -> u64 {
    let dir = Dir::or_nearest(mods.round);
    if ty == Type::F64 {
        return fma64(a, b, c, dir);
    }
    let ftz = mods.ftz || mods.round.is_none();
    with_mods32([a, b, c], ftz, mods.sat, |[x, y, z]| fma32(x, y, z, dir))
}

/// `div.approx.f32`: `a * (1/b)` as the ISA defines it, with the reciprocal rounded to nearest;
/// for `|b|` in `[2^126, 2^128]` the result is zero (the reciprocal flushes), as the ISA states.
fn div_approx32(a: u32, b: u32) -> u32 {
    let bf = f32::from_bits(b);
    let r = 1.0 / bf;
    let r = if r.is_subnormal() {
        0.0_f32.copysign(r)
    } else {
        r
    };
    canon32(f32::from_bits(a) * r)
}

/// `div{.approx,.full,.rnd}{.ftz}.ftype` (PTX ISA `div` (floating point)).
///
/// `.full.f32` is "a full-range approximation ... maximum ulp error 2": warpstep returns the
/// correctly rounded quotient (`.rn`), which is inside that bound.
pub fn div(ty: Type, a: u64, b: u64, mods: Mods) -> u64 {
    if ty == Type::F64 {
        return div64(a, b, Dir::or_nearest(mods.round));
    }
    let op = |[x, y]: [u32; 2]| match mods.precision {
        Precision::Approx => div_approx32(x, y),
        Precision::Full => div32(x, y, Dir::Nearest),
        Precision::Ieee => div32(x, y, Dir::or_nearest(mods.round)),
    };
    with_mods32([a, b], mods.ftz, false, op)
}

/// `rcp.approx.ftz.f64`: the ISA computes `1/a` from the upper word of `a` (sign, exponent and
/// 20 fraction bits) and returns a result whose lower 32 bits are zero; warpstep rounds the
/// reciprocal of that truncated operand to nearest, then truncates to 20 fraction bits.
fn rcp_approx64(a: u64) -> u64 {
    let x = f64::from_bits(ftz64(a & 0xFFFF_FFFF_0000_0000));
    let r = canon64(1.0 / x);
    ftz64(r & 0xFFFF_FFFF_0000_0000)
}

/// `rcp{.approx,.rnd}{.ftz}.ftype` (PTX ISA `rcp`). IEEE forms are `1/a` rounded once;
/// `rcp.approx.f32` returns the reciprocal rounded to nearest (within its 1 ulp bound).
pub fn rcp(ty: Type, a: u64, mods: Mods) -> u64 {
    if ty == Type::F64 {
        if mods.precision == Precision::Approx {
            return rcp_approx64(a);
        }
        return div64(ONE_F64, a, Dir::or_nearest(mods.round));
    }
    let dir = match mods.precision {
        Precision::Ieee => Dir::or_nearest(mods.round),
        _ => Dir::Nearest,
    };
    with_mods32([a], mods.ftz, false, |[x]| div32(ONE_F32, x, dir))
}

/// `sqrt{.approx,.rnd}{.ftz}.ftype` (PTX ISA `sqrt`). `sqrt.approx.f32` returns the correctly
/// rounded root (its bound is 2^-23 relative error).
pub fn sqrt(ty: Type, a: u64, mods: Mods) -> u64 {
    let dir = match mods.precision {
        Precision::Ieee => Dir::or_nearest(mods.round),
        _ => Dir::Nearest,
    };
    if ty == Type::F64 {
        return sqrt64(a, dir);
    }
    with_mods32([a], mods.ftz, false, |[x]| sqrt32(x, dir))
}

/// `rsqrt.approx{.ftz}.ftype` (PTX ISA `rsqrt`): `1/sqrt(a)`, computed in `f64`.
pub fn rsqrt(ty: Type, a: u64, mods: Mods) -> u64 {
    if ty == Type::F64 {
        let x = if mods.ftz { ftz64(a) } else { a };
        let r = canon64(1.0 / f64::from_bits(x).sqrt());
        return if mods.ftz { ftz64(r) } else { r };
    }
    with_mods32([a], mods.ftz, false, |[x]| {
        let r = 1.0 / f64::from(f32::from_bits(x)).sqrt();
        canon32(r as f32)
    })
}

/// Which transcendental of the SFU (PTX ISA `sin`, `cos`, `lg2`, `ex2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transcendental {
    /// `sin.approx.f32`.
    Sin,
    /// `cos.approx.f32`.
    Cos,
    /// `lg2.approx.f32`.
    Lg2,
    /// `ex2.approx.f32`.
    Ex2,
}

/// `sin/cos/lg2/ex2.approx{.ftz}.f32`: the `f64` function from the `libm` crate (a pure-Rust
/// port of musl, so native and wasm give the same bits), rounded to `f32`. The ISA allows
/// 2^-20.9 absolute error (`sin`, `cos`), 2^-22.6 (`lg2`) and 2 ulp (`ex2`); this is well within.
pub fn transcendental(f: Transcendental, a: u64, ftz: bool) -> u64 {
    with_mods32([a], ftz, false, |[x]| {
        let x = f64::from(f32::from_bits(x));
        let r = match f {
            Transcendental::Sin => libm::sin(x),
            Transcendental::Cos => libm::cos(x),
            Transcendental::Lg2 => libm::log2(x),
            Transcendental::Ex2 => libm::exp2(x),
        };
        canon32(r as f32)
    })
}

/// Sign-symmetric operations of `abs`/`neg` (PTX ISA `abs`, `neg` (floating point)): the sign
/// bit is cleared or flipped; a NaN operand gives the canonical NaN ("NaN inputs yield an
/// unspecified NaN").
pub fn abs_neg(ty: Type, a: u64, ftz: bool, neg: bool) -> u64 {
    if ty == Type::F64 {
        if F64.is_nan(a) {
            return NAN_F64;
        }
        return if neg { a ^ (1 << 63) } else { a & !(1 << 63) };
    }
    with_mods32([a], ftz, false, |[x]| {
        if F32.is_nan(x.into()) {
            NAN_F32
        } else if neg {
            x ^ 0x8000_0000
        } else {
            x & 0x7FFF_FFFF
        }
    })
}

/// `min`/`max{.ftz}{.NaN}.ftype` (PTX ISA `min`, `max` (floating point)): a NaN operand is
/// ignored unless both are NaN (or `.NaN` is given), which gives the canonical NaN; for equal
/// zeros, `-0.0 < +0.0`. The chosen operand's bits are returned unchanged.
pub fn min_max(ty: Type, a: u64, b: u64, ftz: bool, nan: bool, max: bool) -> u64 {
    if ty == Type::F64 {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        return pick(
            a,
            b,
            x.is_nan(),
            y.is_nan(),
            nan,
            max,
            x < y,
            NAN_F64,
            1 << 63,
        );
    }
    with_mods32([a, b], ftz, false, |[p, q]| {
        let (x, y) = (f32::from_bits(p), f32::from_bits(q));
        let r = pick(
            p.into(),
            q.into(),
            x.is_nan(),
            y.is_nan(),
            nan,
            max,
            x < y,
            NAN_F32.into(),
            1 << 31,
        );
        r as u32
    })
}

#[allow(clippy::too_many_arguments)]
#[inline]
fn pick(
    a: u64,
    b: u64,
    a_nan: bool,
    b_nan: bool,
    nan: bool,
    max: bool,
    lt: bool,
    qnan: u64,
    sign: u64,
) -> u64 {
    if (a_nan && b_nan) || (nan && (a_nan || b_nan)) {
        return qnan;
    }
    if a_nan {
        return b;
    }
    if b_nan {
        return a;
    }
    // Two zeros compare equal; the ISA orders -0.0 below +0.0.
    let both_zero = (a | b) & !sign == 0;
    let a_less = if both_zero { a & sign != 0 } else { lt };
    if a_less != max {
        a
    } else {
        b
    }
}

/// IEEE comparison of two operands of a float type, after `.ftz`: `(a < b, a == b, unordered)`.
#[inline]
pub fn compare(ty: Type, a: u64, b: u64, ftz: bool) -> (bool, bool, bool) {
    if ty == Type::F64 {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        return (x < y, x == y, x.is_nan() || y.is_nan());
    }
    let (mut p, mut q) = (a as u32, b as u32);
    if ftz {
        p = ftz32(p);
        q = ftz32(q);
    }
    let (x, y) = (f32::from_bits(p), f32::from_bits(q));
    (x < y, x == y, x.is_nan() || y.is_nan())
}

/// `slct.ftz.dtype.f32` selector test: `c >= 0` (after `.ftz`); `-0.0 >= 0`, NaN is false.
#[inline]
pub fn non_negative32(c: u64, ftz: bool) -> bool {
    let c = if ftz { ftz32(c as u32) } else { c as u32 };
    f32::from_bits(c) >= 0.0
}

/// `atom.add.f32` / `red.add.f32`: "rounds to nearest even and flushes subnormal inputs and
/// results to sign-preserving zero" (PTX ISA `atom`).
pub fn atomic_add32(old: u64, b: u64) -> u64 {
    with_mods32([old, b], true, false, |[x, y]| add32(x, y, Dir::Nearest))
}

/// `atom.add.f64`: rounds to nearest even.
pub fn atomic_add64(old: u64, b: u64) -> u64 {
    add64(old, b, Dir::Nearest)
}
