//! PTX integer and bit-manipulation instructions, one lane (PTX ISA "Integer Arithmetic
//! Instructions", "Logic and Shift Instructions", "Bit-Field" and `prmt`).
//!
//! Operands arrive as raw register bits zero-extended to 64; each function reads the bits of the
//! instruction type (sign-extending signed types) and returns exactly the destination type's bits.
//! Arithmetic wraps modulo 2^width unless `.sat` is given. No function panics on any input: shift
//! amounts are clamped, divisions by zero have a defined result.

use crate::ptx::ops::{MulPart, PrmtMode};
use crate::ptx::types::Type;

/// The low `bits` bits of `v`.
#[inline]
pub fn mask(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// The low `bits` bits of `v`, sign-extended.
#[inline]
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 || bits == 0 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

/// The value of an integer operand of type `ty`: sign-extended for `.sN`, zero-extended otherwise.
#[inline]
pub fn value(v: u64, ty: Type) -> i128 {
    if ty.is_signed() {
        i128::from(sext(v, ty.bits()))
    } else {
        i128::from(mask(v, ty.bits()))
    }
}

/// The value range of an integer type (`.bN` and `.pred` as unsigned).
#[inline]
pub fn int_range(ty: Type) -> (i128, i128) {
    let n = ty.bits();
    if ty.is_signed() {
        (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
    } else {
        (0, (1i128 << n) - 1)
    }
}

/// `.sat`: clamp to the type's range, "MININT..MAXINT (no overflow)" (PTX ISA `add`, `sub`,
/// `mad`; the ISA allows it on `.s32` only).
#[inline]
fn saturate(ty: Type, v: i128) -> u64 {
    let (lo, hi) = int_range(ty);
    mask(v.clamp(lo, hi) as u64, ty.bits())
}

/// `add{.sat}.type` (PTX ISA `add` (integer)).
#[inline]
pub fn add(ty: Type, a: u64, b: u64, sat: bool) -> u64 {
    if sat {
        return saturate(ty, value(a, ty) + value(b, ty));
    }
    mask(a.wrapping_add(b), ty.bits())
}

/// `sub{.sat}.type` (PTX ISA `sub` (integer)).
#[inline]
pub fn sub(ty: Type, a: u64, b: u64, sat: bool) -> u64 {
    if sat {
        return saturate(ty, value(a, ty) - value(b, ty));
    }
    mask(a.wrapping_sub(b), ty.bits())
}

/// The full-width (2n-bit) product of two n-bit operands of type `ty`, as a two's-complement
/// `u128` (only its low 2n bits matter).
#[inline]
fn full_product(ty: Type, a: u64, b: u64) -> u128 {
    if ty.is_signed() {
        // |s64 * s64| <= 2^126: no overflow.
        (value(a, ty) * value(b, ty)) as u128
    } else {
        u128::from(mask(a, ty.bits())) * u128::from(mask(b, ty.bits()))
    }
}

/// `mul.{lo,hi,wide}.type` (PTX ISA `mul` (integer)): `.lo` keeps the low n bits, `.hi` the high
/// n bits of the 2n-bit product, `.wide` all 2n bits.
#[inline]
pub fn mul(ty: Type, part: MulPart, a: u64, b: u64) -> u64 {
    let n = ty.bits();
    match part {
        MulPart::Lo => mask(a.wrapping_mul(b), n),
        MulPart::Hi => mask((full_product(ty, a, b) >> n) as u64, n),
        MulPart::Wide => mask(full_product(ty, a, b) as u64, 2 * n),
    }
}

/// `mad.{lo,hi,wide}{.sat}.type` (PTX ISA `mad` (integer)): the chosen part of `a * b`, plus `c`
/// (2n bits wide for `.wide`). `.sat` (only `.hi.s32`) clamps the sum to the `.s32` range.
#[inline]
pub fn mad(ty: Type, part: MulPart, sat: bool, a: u64, b: u64, c: u64) -> u64 {
    let n = ty.bits();
    match part {
        MulPart::Lo => mask(a.wrapping_mul(b).wrapping_add(c), n),
        MulPart::Hi if sat => {
            let hi = value((full_product(ty, a, b) >> n) as u64, ty);
            saturate(ty, hi + value(c, ty))
        }
        MulPart::Hi => mask(((full_product(ty, a, b) >> n) as u64).wrapping_add(c), n),
        MulPart::Wide => mask((full_product(ty, a, b) as u64).wrapping_add(c), 2 * n),
    }
}

/// The 48-bit product of the low 24 bits of `a` and `b` (sign-extended from bit 23 for `.s32`).
#[inline]
fn product24(ty: Type, a: u64, b: u64) -> i64 {
    let op = |v: u64| {
        if ty.is_signed() {
            sext(v, 24)
        } else {
            mask(v, 24) as i64
        }
    };
    op(a) * op(b)
}

/// `mul24.{lo,hi}.type` (PTX ISA `mul24`): `.lo` is bits 31..0 and `.hi` bits 47..16 of the
/// 48-bit product of two 24-bit operands (the upper 8 bits of each source are ignored).
#[inline]
pub fn mul24(ty: Type, hi: bool, a: u64, b: u64) -> u64 {
    let t = product24(ty, a, b);
    if hi {
        mask((t >> 16) as u64, 32)
    } else {
        mask(t as u64, 32)
    }
}

/// `mad24.{lo,hi}{.sat}.type` (PTX ISA `mad24`): the `mul24` part plus `c`; `.sat` (`.hi.s32`)
/// clamps the sum to the `.s32` range.
#[inline]
pub fn mad24(ty: Type, hi: bool, sat: bool, a: u64, b: u64, c: u64) -> u64 {
    if sat {
        let t32 = if ty.is_signed() { Type::S32 } else { Type::U32 };
        let part = value(mul24(ty, hi, a, b), t32);
        return saturate(t32, part + value(c, t32));
    }
    mask(mul24(ty, hi, a, b).wrapping_add(c), 32)
}

/// `div.type` (PTX ISA `div` (integer)). Division truncates toward zero; `MIN / -1` wraps to
/// `MIN`. The ISA leaves division by zero "unspecified, machine-specific": NVIDIA GPUs return all
/// ones, which warpstep follows.
#[inline]
pub fn div(ty: Type, a: u64, b: u64) -> u64 {
    let n = ty.bits();
    if mask(b, n) == 0 {
        return mask(u64::MAX, n);
    }
    if ty.is_signed() {
        mask(sext(a, n).wrapping_div(sext(b, n)) as u64, n)
    } else {
        mask(a, n) / mask(b, n)
    }
}

/// `rem.type` (PTX ISA `rem`): the remainder has the sign of the dividend (C semantics);
/// `MIN rem -1` is 0. By zero, all ones, as `div`.
#[inline]
pub fn rem(ty: Type, a: u64, b: u64) -> u64 {
    let n = ty.bits();
    if mask(b, n) == 0 {
        return mask(u64::MAX, n);
    }
    if ty.is_signed() {
        mask(sext(a, n).wrapping_rem(sext(b, n)) as u64, n)
    } else {
        mask(a, n) % mask(b, n)
    }
}

/// `abs.type` (PTX ISA `abs` (integer)): `abs(MIN)` is `MIN`.
#[inline]
pub fn abs(ty: Type, a: u64) -> u64 {
    mask(sext(a, ty.bits()).wrapping_abs() as u64, ty.bits())
}

/// `neg.type` (PTX ISA `neg` (integer)), wrapping.
#[inline]
pub fn neg(ty: Type, a: u64) -> u64 {
    mask(a.wrapping_neg(), ty.bits())
}

/// `min`/`max.type` (PTX ISA `min`, `max` (integer)): signed comparison for `.sN`.
#[inline]
pub fn min_max(ty: Type, a: u64, b: u64, max: bool) -> u64 {
    let n = ty.bits();
    let less = if ty.is_signed() {
        sext(a, n) < sext(b, n)
    } else {
        mask(a, n) < mask(b, n)
    };
    let r = if less != max { a } else { b };
    mask(r, ty.bits())
}

/// `shl.type` (PTX ISA `shl`): shift amounts of the width or more give 0 ("shift amounts greater
/// than the register width N are clamped to N").
#[inline]
pub fn shl(ty: Type, a: u64, b: u64) -> u64 {
    let n = ty.bits();
    let s = b as u32;
    if s >= n {
        0
    } else {
        mask(a << s, n)
    }
}

/// `shr.type` (PTX ISA `shr`): arithmetic for `.sN` (sign fill), logical otherwise; amounts of
/// the width or more are clamped to the width.
#[inline]
pub fn shr(ty: Type, a: u64, b: u64) -> u64 {
    let n = ty.bits();
    let s = (b as u32).min(n);
    if ty.is_signed() {
        mask((sext(a, n) >> s.min(63)) as u64, n)
    } else if s >= n {
        0
    } else {
        mask(a, n) >> s
    }
}

/// `popc.type` (PTX ISA `popc`): number of set bits, as `.u32`.
#[inline]
pub fn popc(ty: Type, a: u64) -> u64 {
    u64::from(mask(a, ty.bits()).count_ones())
}

/// `clz.type` (PTX ISA `clz`): leading zeros within the type width (`clz(0)` is the width).
#[inline]
pub fn clz(ty: Type, a: u64) -> u64 {
    let n = ty.bits();
    u64::from(mask(a, n).leading_zeros() - (64 - n))
}

/// `brev.type` (PTX ISA `brev`): bit reversal within the type width.
#[inline]
pub fn brev(ty: Type, a: u64) -> u64 {
    let n = ty.bits();
    mask(a, n).reverse_bits() >> (64 - n)
}

/// Number of field bits that lie inside an `n`-bit operand from `pos` on, at most `len`.
#[inline]
fn field_bits(n: u32, pos: u32, len: u32) -> u32 {
    if pos >= n {
        0
    } else {
        len.min(n - pos)
    }
}

/// `bfe.type` (PTX ISA `bfe`): extract `c & 0xff` bits from position `b & 0xff` of `a`,
/// zero-extended (`.uN`) or sign-extended from the field's top bit (`.sN`, the bit at
/// `min(pos + len - 1, msb)`); a zero length gives 0.
#[inline]
pub fn bfe(ty: Type, a: u64, b: u64, c: u64) -> u64 {
    let n = ty.bits();
    let (pos, len) = ((b & 0xff) as u32, (c & 0xff) as u32);
    if len == 0 {
        return 0;
    }
    let a = mask(a, n);
    let k = field_bits(n, pos, len);
    let field = if k == 0 { 0 } else { mask(a >> pos, k) };
    let top = (pos + len - 1).min(n - 1);
    let sbit = ty.is_signed() && (a >> top) & 1 == 1;
    if sbit {
        mask(field | !mask(u64::MAX, k), n)
    } else {
        field
    }
}

/// `bfi.type` (PTX ISA `bfi`): insert the low `d & 0xff` bits of `a` into `b` at position
/// `c & 0xff`; bits past the msb are dropped, a zero length or a position past the msb gives `b`.
#[inline]
pub fn bfi(ty: Type, a: u64, b: u64, c: u64, d: u64) -> u64 {
    let n = ty.bits();
    let (pos, len) = ((c & 0xff) as u32, (d & 0xff) as u32);
    let k = field_bits(n, pos, len);
    if k == 0 {
        return mask(b, n);
    }
    let m = mask(u64::MAX, k) << pos;
    mask((b & !m) | ((a << pos) & m), n)
}

/// The byte selectors of a `prmt` mode for selector value `c & 3`, for result bytes 0..3
/// (PTX ISA `prmt`, table of the special modes).
#[inline]
fn mode_selectors(mode: PrmtMode, c: u32) -> [u32; 4] {
    let s = c & 3;
    let mut out = [0; 4];
    for (byte, sel) in (0u32..).zip(out.iter_mut()) {
        *sel = match mode {
            PrmtMode::F4e => s + byte,
            PrmtMode::B4e => (s + 8 - byte) & 7,
            PrmtMode::Rc8 => s,
            PrmtMode::Ecl => byte.max(s),
            PrmtMode::Ecr => byte.min(s),
            PrmtMode::Rc16 => (s & 1) * 2 + (byte & 1),
        };
    }
    out
}

/// `prmt.b32{.mode}` (PTX ISA `prmt`): pick four bytes from the eight of `{b, a}`. In the generic
/// form each result byte has a 4-bit selector in `c`: bits 2..0 pick the byte, bit 3 replicates
/// that byte's sign bit instead of copying it.
#[inline]
pub fn prmt(mode: Option<PrmtMode>, a: u64, b: u64, c: u64) -> u64 {
    let src = (mask(b, 32) << 32) | mask(a, 32);
    let c = c as u32;
    let sel = match mode {
        None => [c & 0xf, (c >> 4) & 0xf, (c >> 8) & 0xf, (c >> 12) & 0xf],
        Some(m) => mode_selectors(m, c),
    };
    let mut d = 0u64;
    for (i, s) in (0u32..).zip(sel) {
        let byte = (src >> ((s & 7) * 8)) & 0xff;
        let byte = if s & 8 != 0 {
            if byte & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            byte
        };
        d |= byte << (8 * i);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sext_and_mask() {
        assert_eq!(sext(0x80, 8), -128);
        assert_eq!(sext(0x7f, 8), 127);
        assert_eq!(sext(u64::MAX, 64), -1);
        assert_eq!(mask(u64::MAX, 16), 0xffff);
        assert_eq!(value(0xffff_ffff, Type::S32), -1);
        assert_eq!(value(0xffff_ffff, Type::U32), 0xffff_ffff);
    }

    #[test]
    fn prmt_mode_tables() {
        // Rows of the ISA table for selector 1: d.b3 d.b2 d.b1 d.b0.
        let row = |m| {
            let s = mode_selectors(m, 1);
            [s[3], s[2], s[1], s[0]]
        };
        assert_eq!(row(PrmtMode::F4e), [4, 3, 2, 1]);
        assert_eq!(row(PrmtMode::B4e), [6, 7, 0, 1]);
        assert_eq!(row(PrmtMode::Rc8), [1, 1, 1, 1]);
        assert_eq!(row(PrmtMode::Ecl), [3, 2, 1, 1]);
        assert_eq!(row(PrmtMode::Ecr), [1, 1, 1, 0]);
        assert_eq!(row(PrmtMode::Rc16), [3, 2, 3, 2]);
    }
}
