//! `cvt`, one lane (PTX ISA "Data Movement and Conversion Instructions: `cvt`").
//!
//! - Integer to integer: sign-extend (signed source) or zero-extend, or truncate; `.sat` clamps
//!   the source value (read with its own signedness) to the destination range.
//! - Integer to float: rounded in the `.rn .rz .rm .rp` direction (`.rn` when absent, the legacy
//!   default).
//! - Float to integer: rounded to an integer by `.rni .rzi .rmi .rpi` (`.rzi` when absent, C's
//!   conversion), then clamped to the destination range: "for float-to-integer conversions, the
//!   result is clamped to the destination range by default". A NaN gives 0 when the source is
//!   not `.f64` and the destination is not 64 bits wide, else `1 << (width - 1)` (MININT for
//!   signed, `(MAXINT >> 1) + 1` for unsigned), as the ISA's note on NaN inputs says.
//! - Float to float: `.f32 -> .f64` is exact; `.f64 -> .f32` rounds by `.rn .rz .rm .rp`
//!   (`.rn` when absent); an integer rounding modifier rounds to an integral value (for
//!   `.f32.f32`, `.f64.f64`, and to an integral value of the source before narrowing otherwise).
//! - `.ftz` flushes `.f32` subnormal inputs and results to sign-preserving zero; `.sat` on a float
//!   destination clamps to [0.0, 1.0] (NaN to +0.0).

use super::float::{canon32, canon64, ftz32, sat32, sat64};
use super::ieee::{self, Dir, Integral, F32, F64};
use super::int::{int_range, mask, sext, value};
use crate::ptx::ops::Rounding;
use crate::ptx::types::Type;

/// One lane of `cvt{.rnd}{.ftz}{.sat}.dtype.stype d, a`: `a` is the source register's bits, the
/// result has exactly `dty`'s bits.
#[inline]
pub fn cvt(dty: Type, sty: Type, round: Option<Rounding>, ftz: bool, sat: bool, a: u64) -> u64 {
    match (dty.is_float(), sty.is_float()) {
        (false, false) => int_to_int(dty, sty, sat, a),
        (true, false) => int_to_float(dty, sty, round, sat, a),
        (false, true) => float_to_int(dty, sty, round, ftz, a),
        (true, true) => float_to_float(dty, sty, round, ftz, sat, a),
    }
}

fn int_to_int(dty: Type, sty: Type, sat: bool, a: u64) -> u64 {
    let v = value(a, sty);
    let v = if sat {
        let (lo, hi) = int_range(dty);
        v.clamp(lo, hi)
    } else {
        v
    };
    mask(v as u64, dty.bits())
}

fn int_to_float(dty: Type, sty: Type, round: Option<Rounding>, sat: bool, a: u64) -> u64 {
    let dir = Dir::or_nearest(round);
    let signed = sty.is_signed();
    let bits = if dir == Dir::Nearest {
        // Rust's integer-to-float `as` rounds to nearest even.
        match (dty, signed) {
            (Type::F32, true) => u64::from((sext(a, sty.bits()) as f32).to_bits()),
            (Type::F32, false) => u64::from((mask(a, sty.bits()) as f32).to_bits()),
            (_, true) => (sext(a, sty.bits()) as f64).to_bits(),
            (_, false) => (mask(a, sty.bits()) as f64).to_bits(),
        }
    } else {
        let v = value(a, sty);
        let fmt = if dty == Type::F32 { F32 } else { F64 };
        ieee::from_int(fmt, v < 0, v.unsigned_abs(), dir)
    };
    match (dty, sat) {
        (Type::F32, true) => u64::from(sat32(bits as u32)),
        (_, true) => sat64(bits),
        _ => bits,
    }
}

/// A float source's bits and format, `.ftz` applied to an `.f32` source.
fn float_src(sty: Type, ftz: bool, a: u64) -> (ieee::Format, u64) {
    if sty == Type::F32 {
        let x = a as u32;
        (F32, u64::from(if ftz { ftz32(x) } else { x }))
    } else {
        (F64, a)
    }
}

fn float_to_int(dty: Type, sty: Type, round: Option<Rounding>, ftz: bool, a: u64) -> u64 {
    let (fmt, x) = float_src(sty, ftz, a);
    let dir = round.map_or(Dir::Zero, Dir::of);
    let n = dty.bits();
    let (lo, hi) = int_range(dty);
    if dir == Dir::Zero {
        // Fast path: Rust's float-to-int `as` truncates toward zero and saturates (NaN aside).
        let f = if sty == Type::F32 {
            f64::from(f32::from_bits(x as u32))
        } else {
            f64::from_bits(x)
        };
        let v = (!f.is_nan()).then(|| {
            if dty == Type::U64 {
                i128::from(f as u64)
            } else {
                i128::from(f as i64)
            }
        });
        if let Some(v) = v {
            return mask(v.clamp(lo, hi) as u64, n);
        }
    }
    match ieee::to_integer(fmt, x, dir) {
        Integral::Nan if sty == Type::F64 || n == 64 => 1u64 << (n - 1),
        Integral::Nan => 0,
        Integral::Value(v) => mask(v.clamp(lo, hi) as u64, n),
    }
}

fn float_to_float(
    dty: Type,
    sty: Type,
    round: Option<Rounding>,
    ftz: bool,
    sat: bool,
    a: u64,
) -> u64 {
    let (fmt, x) = float_src(sty, ftz, a);
    // An integer rounding modifier first rounds to an integral value of the source format.
    let (x, dir) = match round {
        Some(r) if r.is_integral() => (ieee::round_to_integral(fmt, x, Dir::of(r)), Dir::Nearest),
        r => (x, Dir::or_nearest(r)),
    };
    let bits = match (dty, sty) {
        (Type::F32, Type::F32) => u64::from(canon32(f32::from_bits(x as u32))),
        (Type::F64, Type::F64) => canon64(f64::from_bits(x)),
        (Type::F64, _) => canon64(f64::from(f32::from_bits(x as u32))),
        (_, _) if dir == Dir::Nearest => u64::from(canon32(f64::from_bits(x) as f32)),
        (_, _) => ieee::convert(F64, F32, x, dir),
    };
    if dty == Type::F32 {
        let r = bits as u32;
        let r = if ftz { ftz32(r) } else { r };
        u64::from(if sat { sat32(r) } else { r })
    } else if sat {
        sat64(bits)
    } else {
        bits
    }
}
