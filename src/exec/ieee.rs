//! IEEE 754 binary32/binary64 arithmetic in any rounding direction, exactly.
//!
//! Rust's float operators round to nearest even only. PTX's `.rz .rm .rp` (PTX ISA
//! "Floating-Point Instructions": rounding modifiers; "Rounding Modifiers" of `cvt`) need the
//! other three IEEE directions, so this module computes each operation's exact result as an
//! integer significand and a power of two (with a sticky bit where the exact value has more bits
//! than kept) and rounds it once. Everything is integer arithmetic, so it is bit-identical on
//! every target. The executor takes the hardware fast path for `.rn` and calls this module for the
//! directed modes ([`super::float`]).
//!
//! Values are passed as raw bits (`f32` bits in the low 32 bits of a `u64`). A NaN result is
//! PTX's canonical NaN of the format ([`Format::nan`]).

use crate::ptx::ops::Rounding;

/// An IEEE rounding direction (IEEE 754-2008 §4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// To nearest, ties to even (`.rn`, `.rni`).
    Nearest,
    /// Toward zero (`.rz`, `.rzi`).
    Zero,
    /// Toward minus infinity (`.rm`, `.rmi`).
    Down,
    /// Toward plus infinity (`.rp`, `.rpi`).
    Up,
}

impl Dir {
    /// The direction of a PTX rounding modifier (`.rn` and `.rni` are both [`Dir::Nearest`]).
    #[inline]
    pub fn of(r: Rounding) -> Dir {
        match r {
            Rounding::Rn | Rounding::Rni => Dir::Nearest,
            Rounding::Rz | Rounding::Rzi => Dir::Zero,
            Rounding::Rm | Rounding::Rmi => Dir::Down,
            Rounding::Rp | Rounding::Rpi => Dir::Up,
        }
    }

    /// The direction of an optional modifier, `.rn` when absent.
    #[inline]
    pub fn or_nearest(r: Option<Rounding>) -> Dir {
        r.map_or(Dir::Nearest, Dir::of)
    }
}

/// A binary interchange format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    /// Significand precision in bits, hidden bit included (24 or 53).
    prec: u32,
    /// Exponent of the least significant bit of the subnormals (-149 or -1074).
    lsb_min: i32,
    /// Largest unbiased exponent of a finite value (127 or 1023).
    emax: i32,
    /// Width of the encoding in bits.
    width: u32,
    /// PTX's canonical NaN of this format.
    nan: u64,
}

/// IEEE binary32 (`.f32`).
pub const F32: Format = Format {
    prec: 24,
    lsb_min: -149,
    emax: 127,
    width: 32,
    nan: 0x7FFF_FFFF,
};

/// IEEE binary64 (`.f64`).
pub const F64: Format = Format {
    prec: 53,
    lsb_min: -1074,
    emax: 1023,
    width: 64,
    nan: 0xFFF8_0000_0000_0000,
};

impl Format {
    /// The canonical NaN that every NaN-producing operation returns: `0x7FFFFFFF` for `.f32`
    /// (the PTX ISA's canonical NaN; CUDA's `CUDART_NAN_F`) and `0xFFF8000000000000` for
    /// `.f64` (CUDA's `CUDART_NAN`). One fixed pattern also makes results deterministic where
    /// hardware NaN payloads differ between x86_64 and wasm32.
    #[inline]
    pub fn nan(self) -> u64 {
        self.nan
    }

    fn sign_bit(self) -> u64 {
        1 << (self.width - 1)
    }

    fn frac_bits(self) -> u32 {
        self.prec - 1
    }

    fn exp_field_max(self) -> u64 {
        (1u64 << (self.width - self.prec)) - 1
    }

    fn inf(self, neg: bool) -> u64 {
        (self.exp_field_max() << self.frac_bits()) | self.sign_if(neg)
    }

    fn max_finite(self, neg: bool) -> u64 {
        ((self.exp_field_max() << self.frac_bits()) - 1) | self.sign_if(neg)
    }

    fn zero(self, neg: bool) -> u64 {
        self.sign_if(neg)
    }

    fn sign_if(self, neg: bool) -> u64 {
        if neg {
            self.sign_bit()
        } else {
            0
        }
    }

    /// Whether `bits` (this format) is a NaN.
    #[inline]
    pub fn is_nan(self, bits: u64) -> bool {
        let abs = bits & (self.sign_bit() - 1);
        abs > self.inf(false)
    }

    /// Whether `bits` (this format) is a subnormal (nonzero, exponent field 0).
    #[inline]
    pub fn is_subnormal(self, bits: u64) -> bool {
        let abs = bits & (self.sign_bit() - 1);
        abs != 0 && abs >> self.frac_bits() == 0
    }
}

/// A decoded operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val {
    Nan,
    Inf(bool),
    Zero(bool),
    /// `(-1)^neg * mant * 2^exp`, `mant > 0`.
    Finite {
        neg: bool,
        mant: u128,
        exp: i32,
    },
}

fn unpack(f: Format, bits: u64) -> Val {
    let neg = bits & f.sign_bit() != 0;
    let field = (bits >> f.frac_bits()) & f.exp_field_max();
    let frac = bits & ((1u64 << f.frac_bits()) - 1);
    if field == f.exp_field_max() {
        return if frac == 0 { Val::Inf(neg) } else { Val::Nan };
    }
    if field == 0 {
        if frac == 0 {
            return Val::Zero(neg);
        }
        return Val::Finite {
            neg,
            mant: u128::from(frac),
            exp: f.lsb_min,
        };
    }
    Val::Finite {
        neg,
        mant: u128::from(frac | (1u64 << f.frac_bits())),
        // field is at most 2046, so the cast is exact.
        exp: field as i32 - 1 + f.lsb_min,
    }
}

/// Bit length of a nonzero `m`.
fn bit_len(m: u128) -> i32 {
    128 - m.leading_zeros() as i32
}

/// Round `(-1)^neg * (mant + e) * 2^exp` to format `f`, where `e` is 0 when `!sticky` and lies
/// strictly between 0 and 1 otherwise. With `sticky`, `mant` must carry at least two bits more
/// than `f` keeps at that magnitude (every caller keeps 55 or more), so the guard bit is exact.
fn round(f: Format, neg: bool, mant: u128, exp: i32, sticky: bool, dir: Dir) -> u64 {
    if mant == 0 && !sticky {
        return f.zero(neg);
    }
    let prec = f.prec as i32;
    // The exact value's leading bit weight; a pure sticky value lies below 2^exp.
    let top = if mant == 0 {
        exp - 1
    } else {
        exp + bit_len(mant) - 1
    };
    let mut lsb = (top - (prec - 1)).max(f.lsb_min);
    let shift = lsb - exp;
    let (q, half, rest) = if shift <= 0 {
        // Every bit of mant is kept (mant has at most prec bits at this lsb).
        (mant << (-shift) as u32, false, sticky)
    } else if shift > 128 {
        // mant < 2^128 <= 2^(shift-1): below half an ulp.
        (0, false, true)
    } else {
        let s = shift as u32;
        let q = mant.checked_shr(s).unwrap_or(0);
        let half = (mant >> (s - 1)) & 1 == 1;
        let below = mant & ((1u128 << (s - 1)) - 1);
        (q, half, below != 0 || sticky)
    };
    let inexact = half || rest;
    let up = match dir {
        Dir::Nearest => half && (rest || q & 1 == 1),
        Dir::Zero => false,
        Dir::Up => !neg && inexact,
        Dir::Down => neg && inexact,
    };
    // q < 2^prec <= 2^53 here, so the cast is exact.
    let mut q = q as u64 + u64::from(up);
    if q >> f.prec != 0 {
        q >>= 1;
        lsb += 1;
    }
    if lsb + prec - 1 > f.emax {
        return overflow(f, neg, dir);
    }
    // Normal: field (lsb - lsb_min + 1) above the fraction; subnormal: lsb == lsb_min, q < 2^(prec-1).
    let mag = ((lsb - f.lsb_min) as u64) << f.frac_bits();
    (mag + q) | f.sign_if(neg)
}

/// The result of a finite value too large for the format (IEEE 754-2008 §7.4).
fn overflow(f: Format, neg: bool, dir: Dir) -> u64 {
    let to_inf = match dir {
        Dir::Nearest => true,
        Dir::Zero => false,
        Dir::Up => !neg,
        Dir::Down => neg,
    };
    if to_inf {
        f.inf(neg)
    } else {
        f.max_finite(neg)
    }
}

/// An exact zero from a sum of opposite-signed values: `+0`, or `-0` when rounding down
/// (IEEE 754-2008 §6.3).
fn exact_zero_sum(f: Format, dir: Dir) -> u64 {
    f.zero(dir == Dir::Down)
}

/// Exact sum of two finite nonzero values as (neg, mant, exp, sticky), `None` if exactly zero.
fn add_finite(a: (bool, u128, i32), b: (bool, u128, i32)) -> Option<(bool, u128, i32, bool)> {
    // Normalise both so the leading bit is bit 125: sums stay below 2^127.
    let norm = |(neg, m, e): (bool, u128, i32)| {
        let s = 126 - bit_len(m);
        (neg, m << s as u32, e - s)
    };
    let (mut x, mut y) = (norm(a), norm(b));
    if y.2 > x.2 || (y.2 == x.2 && y.1 > x.1) {
        std::mem::swap(&mut x, &mut y);
    }
    let d = x.2 - y.2;
    let (ym, sticky) = if d >= 128 {
        (0, true)
    } else {
        let d = d as u32;
        let kept = y.1.checked_shr(d).unwrap_or(0);
        (kept, d > 0 && y.1 & ((1u128 << d) - 1) != 0)
    };
    if x.0 == y.0 {
        return Some((x.0, x.1 + ym, x.2, sticky));
    }
    // x - (ym + e) = (x - ym - 1) + (1 - e) when e is a sticky fraction.
    let diff = x.1 - ym - u128::from(sticky);
    if diff == 0 && !sticky {
        return None;
    }
    Some((x.0, diff, x.2, sticky))
}

/// `a + b`, rounded once in direction `dir`.
pub fn add(f: Format, a: u64, b: u64, dir: Dir) -> u64 {
    match (unpack(f, a), unpack(f, b)) {
        (Val::Nan, _) | (_, Val::Nan) => f.nan,
        (Val::Inf(x), Val::Inf(y)) if x != y => f.nan,
        (Val::Inf(x), _) | (_, Val::Inf(x)) => f.inf(x),
        (Val::Zero(x), Val::Zero(y)) if x == y => f.zero(x),
        (Val::Zero(_), Val::Zero(_)) => exact_zero_sum(f, dir),
        (Val::Zero(_), Val::Finite { .. }) => b,
        (Val::Finite { .. }, Val::Zero(_)) => a,
        (
            Val::Finite {
                neg: na,
                mant: ma,
                exp: ea,
            },
            Val::Finite {
                neg: nb,
                mant: mb,
                exp: eb,
            },
        ) => match add_finite((na, ma, ea), (nb, mb, eb)) {
            Some((neg, m, e, st)) => round(f, neg, m, e, st, dir),
            None => exact_zero_sum(f, dir),
        },
    }
}

/// `a - b`, rounded once in direction `dir`.
pub fn sub(f: Format, a: u64, b: u64, dir: Dir) -> u64 {
    add(f, a, b ^ f.sign_bit(), dir)
}

/// `a * b`, rounded once in direction `dir`.
pub fn mul(f: Format, a: u64, b: u64, dir: Dir) -> u64 {
    let neg = (a ^ b) & f.sign_bit() != 0;
    match (unpack(f, a), unpack(f, b)) {
        (Val::Nan, _) | (_, Val::Nan) => f.nan,
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_)) => f.nan,
        (Val::Inf(_), _) | (_, Val::Inf(_)) => f.inf(neg),
        (Val::Zero(_), _) | (_, Val::Zero(_)) => f.zero(neg),
        (
            Val::Finite {
                mant: ma, exp: ea, ..
            },
            Val::Finite {
                mant: mb, exp: eb, ..
            },
        ) => round(f, neg, ma * mb, ea + eb, false, dir),
    }
}

/// `a * b + c` computed exactly and rounded once in direction `dir` (PTX ISA `fma`).
pub fn fma(f: Format, a: u64, b: u64, c: u64, dir: Dir) -> u64 {
    let pneg = (a ^ b) & f.sign_bit() != 0;
    let (ua, ub, uc) = (unpack(f, a), unpack(f, b), unpack(f, c));
    let product = match (ua, ub) {
        (Val::Nan, _) | (_, Val::Nan) => return f.nan,
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_)) => return f.nan,
        (Val::Inf(_), _) | (_, Val::Inf(_)) => Val::Inf(pneg),
        (Val::Zero(_), _) | (_, Val::Zero(_)) => Val::Zero(pneg),
        (
            Val::Finite {
                mant: ma, exp: ea, ..
            },
            Val::Finite {
                mant: mb, exp: eb, ..
            },
        ) => Val::Finite {
            neg: pneg,
            mant: ma * mb,
            exp: ea + eb,
        },
    };
    match (product, uc) {
        (_, Val::Nan) | (Val::Nan, _) => f.nan,
        (Val::Inf(x), Val::Inf(y)) if x != y => f.nan,
        (Val::Inf(x), _) | (_, Val::Inf(x)) => f.inf(x),
        (Val::Zero(x), Val::Zero(y)) if x == y => f.zero(x),
        (Val::Zero(_), Val::Zero(_)) => exact_zero_sum(f, dir),
        (Val::Zero(_), _) => c,
        (Val::Finite { neg, mant, exp }, Val::Zero(_)) => round(f, neg, mant, exp, false, dir),
        (
            Val::Finite { neg, mant, exp },
            Val::Finite {
                neg: nc,
                mant: mc,
                exp: ec,
            },
        ) => match add_finite((neg, mant, exp), (nc, mc, ec)) {
            Some((n, m, e, st)) => round(f, n, m, e, st, dir),
            None => exact_zero_sum(f, dir),
        },
    }
}

/// Shift a nonzero significand so its leading bit is bit 52.
fn normalise53(m: u128, e: i32) -> (u128, i32) {
    let s = 53 - bit_len(m);
    if s >= 0 {
        (m << s as u32, e - s)
    } else {
        (m >> (-s) as u32, e - s)
    }
}

/// `a / b`, rounded once in direction `dir`.
pub fn div(f: Format, a: u64, b: u64, dir: Dir) -> u64 {
    let neg = (a ^ b) & f.sign_bit() != 0;
    match (unpack(f, a), unpack(f, b)) {
        (Val::Nan, _) | (_, Val::Nan) => f.nan,
        (Val::Inf(_), Val::Inf(_)) | (Val::Zero(_), Val::Zero(_)) => f.nan,
        (Val::Inf(_), _) | (_, Val::Zero(_)) => f.inf(neg),
        (_, Val::Inf(_)) | (Val::Zero(_), _) => f.zero(neg),
        (
            Val::Finite {
                mant: ma, exp: ea, ..
            },
            Val::Finite {
                mant: mb, exp: eb, ..
            },
        ) => {
            // Both significands have 53 bits, so ma << 75 < 2^128 and the quotient has 75 or
            // 76 bits: far more than the 55 rounding needs.
            let (ma, ea) = normalise53(ma, ea);
            let (mb, eb) = normalise53(mb, eb);
            let num = ma << 75;
            let (q, r) = (num / mb, num % mb);
            round(f, neg, q, ea - eb - 75, r != 0, dir)
        }
    }
}

/// Integer square root: the largest `r` with `r * r <= n`, for `n < 2^120`.
fn isqrt(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    // A hardware estimate (correctly rounded, so deterministic), one Newton step, then exact fix-up.
    let mut r = (n as f64).sqrt() as u128;
    if r == 0 {
        r = 1;
    }
    r = (r + n / r) / 2;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

/// `sqrt(a)`, rounded once in direction `dir`. `sqrt(-0) = -0`; negative operands give NaN.
pub fn sqrt(f: Format, a: u64, dir: Dir) -> u64 {
    match unpack(f, a) {
        Val::Nan => f.nan,
        Val::Zero(neg) => f.zero(neg),
        Val::Inf(false) => f.inf(false),
        Val::Inf(true) | Val::Finite { neg: true, .. } => f.nan,
        Val::Finite { mant, exp, .. } => {
            let (m, e) = normalise53(mant, exp);
            // Radicand m * 2^s with e - s even and 117 or 118 bits: the root has 59 bits.
            let s = if (e - 64) % 2 == 0 { 64 } else { 65 };
            let n = m << s as u32;
            let r = isqrt(n);
            round(f, false, r, (e - s) / 2, r * r != n, dir)
        }
    }
}

/// Convert `a` from format `from` to format `to`, rounding in direction `dir` (exact when
/// widening).
pub fn convert(from: Format, to: Format, a: u64, dir: Dir) -> u64 {
    match unpack(from, a) {
        Val::Nan => to.nan,
        Val::Inf(neg) => to.inf(neg),
        Val::Zero(neg) => to.zero(neg),
        Val::Finite { neg, mant, exp } => round(to, neg, mant, exp, false, dir),
    }
}

/// The integer `(-1)^neg * mag` in format `to`, rounded in direction `dir` (`+0` for zero).
pub fn from_int(to: Format, neg: bool, mag: u128, dir: Dir) -> u64 {
    if mag == 0 {
        return to.zero(false);
    }
    round(to, neg, mag, 0, false, dir)
}

/// A float rounded to an integer (PTX ISA `cvt`, integer rounding modifiers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Integral {
    /// The operand was a NaN.
    Nan,
    /// The rounded value, saturated to the `i128` range (infinities become the extremes).
    Value(i128),
}

/// Round `a` to an integer in direction `dir` (ties to even for [`Dir::Nearest`]).
pub fn to_integer(f: Format, a: u64, dir: Dir) -> Integral {
    let (neg, mant, exp) = match unpack(f, a) {
        Val::Nan => return Integral::Nan,
        Val::Inf(neg) => return Integral::Value(if neg { i128::MIN } else { i128::MAX }),
        Val::Zero(_) => return Integral::Value(0),
        Val::Finite { neg, mant, exp } => (neg, mant, exp),
    };
    let mag = if exp >= 0 {
        if bit_len(mant) + exp > 126 {
            i128::MAX as u128
        } else {
            mant << exp as u32
        }
    } else {
        let s = (-exp) as u32;
        let q = mant.checked_shr(s).unwrap_or(0);
        let half = s <= 128 && (mant >> (s - 1)) & 1 == 1;
        let below = if s > 128 {
            mant
        } else {
            mant & ((1u128 << (s - 1)) - 1)
        };
        let inexact = half || below != 0;
        let up = match dir {
            Dir::Nearest => half && (below != 0 || q & 1 == 1),
            Dir::Zero => false,
            Dir::Up => !neg && inexact,
            Dir::Down => neg && inexact,
        };
        q + u128::from(up)
    };
    // mag <= 2^127 - 1 here, so the cast and the negation cannot overflow.
    let v = mag.min(i128::MAX as u128) as i128;
    Integral::Value(if neg { -v } else { v })
}

/// Round `a` to an integral value in the same format (PTX ISA `cvt` with `.rni .rzi .rmi .rpi`
/// and a float destination); the sign of a zero result is the sign of `a` (IEEE
/// `roundToIntegral`).
pub fn round_to_integral(f: Format, a: u64, dir: Dir) -> u64 {
    match unpack(f, a) {
        Val::Nan => f.nan,
        Val::Inf(_) | Val::Zero(_) => a,
        // 2^(prec-1) and above are already integers.
        Val::Finite { exp, .. } if exp >= 0 => a,
        Val::Finite { neg, .. } => match to_integer(f, a, dir) {
            Integral::Value(0) => f.zero(neg),
            Integral::Value(v) => from_int(f, v < 0, v.unsigned_abs(), Dir::Nearest),
            Integral::Nan => f.nan,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIRS: [Dir; 4] = [Dir::Nearest, Dir::Zero, Dir::Down, Dir::Up];

    fn b32(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    #[test]
    fn decode_round_trips_every_class() {
        for bits in [
            0u64,
            1,
            0x007F_FFFF,
            0x0080_0000,
            0x3F80_0000,
            0x7F7F_FFFF,
            0x8000_0001,
        ] {
            for dir in DIRS {
                assert_eq!(convert(F32, F32, bits, dir), bits, "{bits:#x}");
            }
        }
        assert_eq!(convert(F32, F32, 0x7F80_0001, Dir::Zero), F32.nan());
        assert_eq!(convert(F32, F32, 0xFF80_0000, Dir::Zero), 0xFF80_0000);
    }

    #[test]
    fn add_directed_brackets_a_half_ulp() {
        // 1 + 2^-24 lies halfway between 1 and 1 + 2^-23.
        let (one, tiny) = (b32(1.0), b32(f32::from_bits(0x3380_0000)));
        assert_eq!(add(F32, one, tiny, Dir::Nearest), one);
        assert_eq!(add(F32, one, tiny, Dir::Zero), one);
        assert_eq!(add(F32, one, tiny, Dir::Down), one);
        assert_eq!(add(F32, one, tiny, Dir::Up), 0x3F80_0001);
    }

    #[test]
    fn exact_zero_sums_follow_the_rounding_direction() {
        let (one, mone) = (b32(1.0), b32(-1.0));
        assert_eq!(add(F32, one, mone, Dir::Nearest), 0);
        assert_eq!(add(F32, one, mone, Dir::Down), 0x8000_0000);
        assert_eq!(add(F32, 0x8000_0000, 0x8000_0000, Dir::Up), 0x8000_0000);
        assert_eq!(add(F32, 0, 0x8000_0000, Dir::Down), 0x8000_0000);
    }

    #[test]
    fn overflow_by_direction() {
        let max = b32(f32::MAX);
        assert_eq!(add(F32, max, max, Dir::Nearest), 0x7F80_0000);
        assert_eq!(add(F32, max, max, Dir::Zero), max);
        assert_eq!(add(F32, max, max, Dir::Down), max);
        assert_eq!(mul(F32, max | 1 << 31, max, Dir::Up), max | 1 << 31);
        assert_eq!(mul(F32, max | 1 << 31, max, Dir::Down), 0xFF80_0000);
    }

    #[test]
    fn isqrt_is_exact() {
        for n in [
            0u128,
            1,
            2,
            3,
            4,
            15,
            16,
            17,
            (1 << 116) + 12345,
            (1 << 118) - 1,
        ] {
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "{n}");
        }
    }

    #[test]
    fn to_integer_rounds_each_way() {
        let x = b32(-2.5);
        assert_eq!(to_integer(F32, x, Dir::Nearest), Integral::Value(-2));
        assert_eq!(to_integer(F32, x, Dir::Zero), Integral::Value(-2));
        assert_eq!(to_integer(F32, x, Dir::Down), Integral::Value(-3));
        assert_eq!(to_integer(F32, x, Dir::Up), Integral::Value(-2));
        assert_eq!(to_integer(F32, 1, Dir::Up), Integral::Value(1));
        assert_eq!(
            to_integer(F64, 0x7FEF_FFFF_FFFF_FFFF, Dir::Zero),
            Integral::Value(i128::MAX)
        );
    }
}

#[cfg(test)]
mod cross_check {
    //! The integer core against the hardware for round-to-nearest, where both must be IEEE.
    use super::*;

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        /// Bits with exponents spread over subnormal, ordinary and extreme ranges.
        fn bits(&mut self, f: Format) -> u64 {
            let r = self.next();
            let fb = f.frac_bits();
            let emax_field = f.exp_field_max() - 1;
            let e = match r % 6 {
                0 => 0,
                1 => r >> 8 & 3,
                2 => emax_field - (r >> 8 & 3),
                _ => (r >> 8) % emax_field,
            };
            let frac = self.next() & ((1 << fb) - 1);
            (r >> 63 << (f.width - 1)) | (e << fb) | frac
        }
    }

    fn c32(x: f32) -> u64 {
        if x.is_nan() {
            F32.nan()
        } else {
            u64::from(x.to_bits())
        }
    }

    fn c64(x: f64) -> u64 {
        if x.is_nan() {
            F64.nan()
        } else {
            x.to_bits()
        }
    }

    #[test]
    fn nearest_matches_hardware_f32() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let n = Dir::Nearest;
        for _ in 0..50_000 {
            let (a, b, c) = (rng.bits(F32), rng.bits(F32), rng.bits(F32));
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            assert_eq!(add(F32, a, b, n), c32(x + y), "add {a:#x} {b:#x}");
            assert_eq!(sub(F32, a, b, n), c32(x - y), "sub {a:#x} {b:#x}");
            assert_eq!(mul(F32, a, b, n), c32(x * y), "mul {a:#x} {b:#x}");
            assert_eq!(div(F32, a, b, n), c32(x / y), "div {a:#x} {b:#x}");
            assert_eq!(sqrt(F32, a, n), c32(x.sqrt()), "sqrt {a:#x}");
            // The executor's round-to-odd fast path for fma.rn.f32 against the integer core.
            let mods = crate::ptx::ops::Mods {
                round: Some(crate::ptx::ops::Rounding::Rn),
                ..Default::default()
            };
            let fast = crate::exec::float::fma(crate::ptx::types::Type::F32, a, b, c, mods);
            assert_eq!(fast, fma(F32, a, b, c, n), "fma {a:#x} {b:#x} {c:#x}");
            // Cancellation: c close to -a*b.
            let c2 = c32(-(x * y));
            let fast = crate::exec::float::fma(crate::ptx::types::Type::F32, a, b, c2, mods);
            assert_eq!(fast, fma(F32, a, b, c2, n), "fma-cancel {a:#x} {b:#x}");
        }
    }

    #[test]
    fn nearest_matches_hardware_f64() {
        let mut rng = Rng(0x0fed_cba9_8765_4321);
        let n = Dir::Nearest;
        for _ in 0..50_000 {
            let (a, b, c) = (rng.bits(F64), rng.bits(F64), rng.bits(F64));
            let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
            assert_eq!(add(F64, a, b, n), c64(x + y), "add {a:#x} {b:#x}");
            assert_eq!(mul(F64, a, b, n), c64(x * y), "mul {a:#x} {b:#x}");
            assert_eq!(div(F64, a, b, n), c64(x / y), "div {a:#x} {b:#x}");
            assert_eq!(sqrt(F64, a, n), c64(x.sqrt()), "sqrt {a:#x}");
            assert_eq!(
                fma(F64, a, b, c, n),
                c64(x.mul_add(y, z)),
                "fma {a:#x} {b:#x} {c:#x}"
            );
            assert_eq!(convert(F64, F32, a, n), c32(x as f32), "f64->f32 {a:#x}");
            // Products near 1 so the fma's addend matters.
            let c2 = c64(-(x * y));
            assert_eq!(
                fma(F64, a, b, c2, n),
                c64(x.mul_add(y, f64::from_bits(c2))),
                "fma-cancel {a:#x} {b:#x}"
            );
        }
    }
}
