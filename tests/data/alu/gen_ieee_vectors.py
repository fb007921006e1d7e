#!/usr/bin/env python3
"""Generate expected results for warpstep's IEEE rounding tests (tests/exec_alu.rs).

Independent of warpstep's Rust code: every result is the exact rational value (Python's
`fractions`, an integer square root for sqrt) rounded once to binary32/binary64 in the requested
direction, following IEEE 754-2008 (sections 4.3, 6.3, 7.4) and the PTX ISA rules warpstep
implements on top of it (canonical NaN, .ftz flushing, cvt clamping and NaN-to-integer values).

Output: ieee_vectors.txt, one case per line:

    OP TYPE MODE FTZ A B C EXPECTED

OP is add sub mul fma div sqrt rcp, or cvt.DTYPE.STYPE; TYPE the operand type (the source type
for cvt); MODE rn rz rm rp (or rni rzi rmi rpi for cvt); FTZ 0/1; A B C the operand bits in hex
('-' when absent); EXPECTED the destination bits in hex.

Run: python3 tests/data/alu/gen_ieee_vectors.py  (deterministic: fixed seed).
"""

import os
import random
import struct
from fractions import Fraction as Q

FMT = {  # precision, exponent of the smallest subnormal's lsb, emax, width
    "f32": (24, -149, 127, 32),
    "f64": (53, -1074, 1023, 64),
}
NAN = {"f32": 0x7FFFFFFF, "f64": 0xFFF8000000000000}
INT = {  # signed, width
    "s8": (True, 8), "s16": (True, 16), "s32": (True, 32), "s64": (True, 64),
    "u8": (False, 8), "u16": (False, 16), "u32": (False, 32), "u64": (False, 64),
}


def fields(t):
    prec, lsb_min, emax, width = FMT[t]
    return prec - 1, width - prec  # fraction bits, exponent bits


def decode(t, bits):
    """('nan',), ('inf', neg), ('zero', neg) or ('num', Fraction)."""
    fb, eb = fields(t)
    width = FMT[t][3]
    neg = (bits >> (width - 1)) & 1 == 1
    e = (bits >> fb) & ((1 << eb) - 1)
    f = bits & ((1 << fb) - 1)
    if e == (1 << eb) - 1:
        return ("nan",) if f else ("inf", neg)
    if e == 0 and f == 0:
        return ("zero", neg)
    lsb_min = FMT[t][1]
    if e == 0:
        v = Q(f) * Q(2) ** lsb_min
    else:
        v = Q(f + (1 << fb)) * Q(2) ** (e - 1 + lsb_min)
    return ("num", -v if neg else v)


def sign_bit(t, neg):
    return (1 << (FMT[t][3] - 1)) if neg else 0


def inf(t, neg):
    fb, eb = fields(t)
    return sign_bit(t, neg) | (((1 << eb) - 1) << fb)


def maxf(t, neg):
    return inf(t, neg) - 1


def zero(t, neg):
    return sign_bit(t, neg)


def floor_log2(m):
    e = m.numerator.bit_length() - m.denominator.bit_length()
    while Q(2) ** e > m:
        e -= 1
    while Q(2) ** (e + 1) <= m:
        e += 1
    return e


def round_value(t, x, mode):
    """Round a nonzero Fraction to format t in direction mode."""
    prec, lsb_min, emax, width = FMT[t]
    neg = x < 0
    m = -x if neg else x
    lsb = max(floor_log2(m) - (prec - 1), lsb_min)
    scaled = m / Q(2) ** lsb
    q = scaled.numerator // scaled.denominator
    r = scaled - q
    if r != 0:
        if mode == "rn":
            if r > Q(1, 2) or (r == Q(1, 2) and q % 2 == 1):
                q += 1
        elif mode == "rp":
            q += 0 if neg else 1
        elif mode == "rm":
            q += 1 if neg else 0
    if q == 1 << prec:
        q >>= 1
        lsb += 1
    if lsb + prec - 1 > emax:
        to_inf = {"rn": True, "rz": False, "rp": not neg, "rm": neg}[mode]
        return inf(t, neg) if to_inf else maxf(t, neg)
    if q < 1 << (prec - 1):
        assert lsb == lsb_min
        mag = q
    else:
        mag = ((lsb - lsb_min + 1) << (prec - 1)) | (q - (1 << (prec - 1)))
    return sign_bit(t, neg) | mag


def flush(t, bits, ftz):
    """PTX .ftz on an f32 operand or result: subnormal -> sign-preserving zero."""
    if not ftz or t != "f32":
        return bits
    if (bits >> 23) & 0xFF == 0:
        return bits & 0x80000000
    return bits


def zero_sum(t, mode, na, nb):
    """Sign of an exact zero sum of terms with signs na, nb (IEEE 754 6.3)."""
    if na == nb:
        return zero(t, na)
    return zero(t, mode == "rm")


def sum_result(t, mode, va, vb):
    """va + vb, each ('inf',neg) / ('zero',neg) / ('num',v)."""
    if va[0] == "inf" and vb[0] == "inf":
        return NAN[t] if va[1] != vb[1] else inf(t, va[1])
    if va[0] == "inf":
        return inf(t, va[1])
    if vb[0] == "inf":
        return inf(t, vb[1])
    if va[0] == "zero" and vb[0] == "zero":
        return zero_sum(t, mode, va[1], vb[1])
    x = (va[1] if va[0] == "num" else 0) + (vb[1] if vb[0] == "num" else 0)
    if x == 0:
        return zero(t, mode == "rm")
    return round_value(t, x, mode)


def product(va, vb):
    """The exact product as ('nan',), ('inf',neg), ('zero',neg) or ('num',v)."""
    def neg_of(v):
        return v[1] if v[0] in ("inf", "zero") else v[1] < 0
    neg = neg_of(va) != neg_of(vb)
    kinds = {va[0], vb[0]}
    if "nan" in kinds or kinds == {"inf", "zero"}:
        return ("nan",)
    if "inf" in kinds:
        return ("inf", neg)
    if "zero" in kinds:
        return ("zero", neg)
    return ("num", va[1] * vb[1])


def isqrt(n):
    if n == 0:
        return 0
    x = 1 << ((n.bit_length() + 1) // 2)
    while True:
        y = (x + n // x) // 2
        if y >= x:
            return x
        x = y


def op_result(op, t, mode, a, b, c):
    """Expected bits of a binary/ternary/unary IEEE operation (inputs already flushed)."""
    va, vb, vc = (decode(t, x) if x is not None else None for x in (a, b, c))
    if any(v is not None and v[0] == "nan" for v in (va, vb, vc)):
        return NAN[t]
    if op in ("add", "sub"):
        if op == "sub":
            vb = ("num", -vb[1]) if vb[0] == "num" else (vb[0], not vb[1])
        return sum_result(t, mode, va, vb)
    if op == "mul":
        p = product(va, vb)
        if p[0] == "nan":
            return NAN[t]
        if p[0] in ("inf", "zero"):
            return (inf if p[0] == "inf" else zero)(t, p[1])
        return round_value(t, p[1], mode)
    if op == "fma":
        p = product(va, vb)
        if p[0] == "nan":
            return NAN[t]
        return sum_result(t, mode, p, vc)
    if op in ("div", "rcp"):
        if op == "rcp":
            va, vb = ("num", Q(1)), va
        na = va[1] if va[0] != "num" else va[1] < 0
        nb = vb[1] if vb[0] != "num" else vb[1] < 0
        neg = na != nb
        if va[0] == vb[0] and va[0] in ("inf", "zero"):
            return NAN[t]
        if va[0] == "inf" or vb[0] == "zero":
            return inf(t, neg)
        if vb[0] == "inf" or va[0] == "zero":
            return zero(t, neg)
        return round_value(t, va[1] / vb[1], mode)
    if op == "sqrt":
        if va[0] == "zero":
            return zero(t, va[1])
        if va[0] == "inf":
            return NAN[t] if va[1] else inf(t, False)
        if va[1] < 0:
            return NAN[t]
        n = va[1] * Q(2) ** 2600
        assert n.denominator == 1
        n = n.numerator
        r = isqrt(n)
        if r * r == n:
            return round_value(t, Q(r, 2 ** 1300), mode)
        # Strictly between r and r+1 (units of 2^-1300); no rounding boundary lies there.
        return round_value(t, Q(2 * r + 1, 2 ** 1301), mode)
    raise ValueError(op)


# ---- cvt ----

def round_integer(v, mode):
    """Round a Fraction to an integer (rni ties to even)."""
    fl = v.numerator // v.denominator
    r = v - fl
    if r == 0:
        return fl
    if mode == "rzi":
        return fl if v > 0 else fl + 1
    if mode == "rmi":
        return fl
    if mode == "rpi":
        return fl + 1
    if r > Q(1, 2) or (r == Q(1, 2) and fl % 2 == 1):
        return fl + 1
    return fl


def cvt_result(dty, sty, mode, ftz, a):
    if sty in FMT:
        a = flush(sty, a, ftz)
        v = decode(sty, a)
    if dty in INT:
        signed, width = INT[dty]
        lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
        if v[0] == "nan":
            return (1 << (width - 1)) if (sty == "f64" or width == 64) else 0
        if v[0] == "inf":
            n = lo if v[1] else hi
        elif v[0] == "zero":
            n = 0
        else:
            n = max(lo, min(hi, round_integer(v[1], mode)))
        return n & ((1 << width) - 1)
    if sty in INT:
        signed, width = INT[sty]
        n = a & ((1 << width) - 1)
        if signed and n >> (width - 1):
            n -= 1 << width
        return zero(dty, False) if n == 0 else round_value(dty, Q(n), mode)
    # float -> float
    if v[0] == "nan":
        return NAN[dty]
    if v[0] in ("inf", "zero"):
        r = (inf if v[0] == "inf" else zero)(dty, v[1])
    elif mode in ("rni", "rzi", "rmi", "rpi"):
        n = round_integer(v[1], mode)
        r = zero(dty, v[1] < 0) if n == 0 else round_value(dty, Q(n), "rn")
    else:
        r = round_value(dty, v[1], mode)
    return flush(dty, r, ftz)


# ---- inputs ----

def special_pool(t):
    prec, lsb_min, emax, width = FMT[t]
    fb, eb = fields(t)
    one = ((1 << (eb - 1)) - 1) << fb
    s = sign_bit(t, True)
    pool = [0, s, 1, s | 1, (1 << fb) - 1, 1 << fb, one, s | one, one + 1, one - 1,
            maxf(t, False), maxf(t, True), inf(t, False), inf(t, True),
            inf(t, False) | (1 << (fb - 1)), s | inf(t, False) | 5,
            one + (1 << fb), (one + (1 << fb)) | s, one - (3 << fb)]
    return pool


def rand_float(t, rng, near=None):
    prec, lsb_min, emax, width = FMT[t]
    fb, eb = fields(t)
    bias = (1 << (eb - 1)) - 1
    k = rng.random()
    if k < 0.08:
        return rng.choice(special_pool(t))
    if near is not None and k < 0.6:
        e = (near >> fb) & ((1 << eb) - 1)
        e = min(max(e - rng.randrange(-2, prec + 4), 0), (1 << eb) - 2)
    elif k < 0.7:
        e = 0 if rng.random() < 0.5 else rng.randrange(1, 4)
    elif k < 0.8:
        e = rng.randrange(1, (1 << eb) - 1)
    else:
        e = bias + rng.randrange(-24, 25)
    f = rng.getrandbits(fb)
    if rng.random() < 0.3:
        f &= ~((1 << rng.randrange(fb)) - 1)  # few significant bits: exact and tie cases
    return sign_bit(t, rng.random() < 0.5) | (e << fb) | f


def fma_double_rounding_cases(t):
    """a*b is an exact f32 midpoint and c is tiny: rounding a*b+c in f64 first gives a tie."""
    if t != "f32":
        return []
    a = 0x3F800000 | (1 << 11)            # 1 + 2^-12
    cases = []
    for c in (0x1D800000, 0x9D800000):    # +-2^-68
        cases.append((a, a, c))
    b = 0x3F800000 | (1 << 11) | 1        # 1 + 2^-12 + 2^-23
    cases.append((a, b, 0x9D800000))
    return cases


def main():
    rng = random.Random(20250607)
    out = []
    modes = ["rn", "rz", "rm", "rp"]
    for t in ("f32", "f64"):
        ftzs = (0, 1) if t == "f32" else (0,)
        for op in ("add", "sub", "mul", "fma", "div", "sqrt", "rcp"):
            arity = {"fma": 3, "sqrt": 1, "rcp": 1}.get(op, 2)
            cases = []
            pool = special_pool(t)
            for _ in range(20):
                cases.append(tuple(rng.choice(pool) for _ in range(arity)))
            for _ in range(45):
                a = rand_float(t, rng)
                b = rand_float(t, rng, near=a)
                c = rand_float(t, rng, near=a)
                cases.append((a, b, c)[:arity])
            if op == "fma":
                cases += fma_double_rounding_cases(t)
            for mode in modes:
                for ftz in ftzs:
                    for case in cases:
                        ins = [flush(t, x, ftz) for x in case] + [None] * (3 - arity)
                        r = flush(t, op_result(op, t, mode, *ins), ftz)
                        cols = [format(x, "x") for x in case] + ["-"] * (3 - arity)
                        out.append(f"{op} {t} {mode} {ftz} {' '.join(cols)} {r:x}")
    # cvt: float -> float
    for mode in modes:
        for _ in range(50):
            a = rand_float("f64", rng)
            if rng.random() < 0.5:  # land near the f32 range and its subnormals
                a = (a & ~(0x7FF << 52)) | ((1023 + rng.randrange(-160, 140)) << 52)
            out.append(f"cvt.f32.f64 f64 {mode} 0 {a:x} - - {cvt_result('f32', 'f64', mode, 0, a):x}")
        for a in (0x47EFFFFFF0000000, 0x47EFFFFFE0000000, 0xC7EFFFFFF0000000, 0x4810000000000000,
                  0x3690000000000000, 0xB690000000000000, 0x36A0000000000001):
            out.append(f"cvt.f32.f64 f64 {mode} 0 {a:x} - - {cvt_result('f32', 'f64', mode, 0, a):x}")
            out.append(f"cvt.f32.f64 f64 {mode} 1 {a:x} - - {cvt_result('f32', 'f64', mode, 1, a):x}")
    # cvt: int -> float
    for mode in modes:
        for sty in ("s32", "u32", "s64", "u64", "s16", "u8"):
            signed, width = INT[sty]
            vals = [0, 1, (1 << width) - 1, 1 << (width - 1), 16777217 & ((1 << width) - 1),
                    (-16777217) & ((1 << width) - 1), ((1 << 53) + 1) & ((1 << width) - 1)]
            vals += [rng.getrandbits(width) for _ in range(10)]
            for dty in ("f32", "f64"):
                for a in vals:
                    out.append(f"cvt.{dty}.{sty} {sty} {mode} 0 {a:x} - - {cvt_result(dty, sty, mode, 0, a):x}")
    # cvt: float -> int and float -> integral float
    for mode in ("rni", "rzi", "rmi", "rpi"):
        for sty in ("f32", "f64"):
            vals = [rand_float(sty, rng) for _ in range(12)]
            halves = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4, -2.6, 300.0, -5.0, 1e10, -1e10, 4294967295.5]
            for h in halves:
                vals.append(struct.unpack("<Q", struct.pack("<d", h))[0] if sty == "f64"
                            else struct.unpack("<I", struct.pack("<f", h))[0])
            vals += special_pool(sty)
            for dty in ("s32", "u32", "s64", "u64", "s8", "u16"):
                for a in vals:
                    out.append(f"cvt.{dty}.{sty} {sty} {mode} 0 {a:x} - - {cvt_result(dty, sty, mode, 0, a):x}")
            for a in vals:
                out.append(f"cvt.{sty}.{sty} {sty} {mode} 0 {a:x} - - {cvt_result(sty, sty, mode, 0, a):x}")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ieee_vectors.txt")
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")
    print(f"{len(out)} cases -> {path}")


if __name__ == "__main__":
    main()
