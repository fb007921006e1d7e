//! Per-lane semantics of lane-wise PTX instructions (`warpstep::exec::eval`, `atomic`).
//!
//! Expected values come from outside warpstep's code: the IEEE vectors from
//! `tests/data/alu/gen_ieee_vectors.py` (exact rational arithmetic in Python), the tables below
//! from the PTX ISA's definitions, worked by hand (each non-obvious value has its derivation).

use warpstep::exec::{atomic, eval, LaneOut};
use warpstep::ptx::ops::{AtomOp, BoolOp, Cmp, Mods, MulPart, Op, Precision, PrmtMode, Rounding};
use warpstep::ptx::types::Type;

const VECTORS: &str = include_str!("data/alu/ieee_vectors.txt");

fn d(op: Op, srcs: [u64; 4]) -> u64 {
    eval(&op, srcs).expect("lane-wise").d
}

fn rnd(r: Option<Rounding>) -> Mods {
    Mods {
        round: r,
        ..Mods::default()
    }
}

fn ftz_mods(r: Option<Rounding>) -> Mods {
    Mods {
        round: r,
        ftz: true,
        ..Mods::default()
    }
}

fn f32b(x: f32) -> u64 {
    u64::from(x.to_bits())
}

fn f64b(x: f64) -> u64 {
    x.to_bits()
}

fn rounding(name: &str) -> Rounding {
    Rounding::from_name(name).expect("rounding")
}

fn ty(name: &str) -> Type {
    Type::from_name(name).expect("type")
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s, 16).expect("hex")
}

/// The `Op` a vector line describes.
fn vector_op(op: &str, t: Type, r: Rounding, ftz: bool) -> Op {
    let mods = Mods {
        round: Some(r),
        ftz,
        sat: false,
        precision: Precision::Ieee,
    };
    match op {
        "add" => Op::Add { ty: t, mods },
        "sub" => Op::Sub { ty: t, mods },
        "mul" => Op::Mul {
            ty: t,
            part: None,
            mods,
        },
        "fma" => Op::Fma { ty: t, mods },
        "div" => Op::Div { ty: t, mods },
        "sqrt" => Op::Sqrt { ty: t, mods },
        "rcp" => Op::Rcp { ty: t, mods },
        cvt => {
            let mut parts = cvt.split('.').skip(1);
            let dty = ty(parts.next().expect("dtype"));
            Op::Cvt {
                dty,
                sty: t,
                round: Some(r),
                ftz,
                sat: false,
            }
        }
    }
}

#[test]
fn ieee_vectors_match_exact_rounding() {
    let mut failures = Vec::new();
    let mut count = 0;
    for line in VECTORS.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 8, "bad line {line}");
        let op = vector_op(f[0], ty(f[1]), rounding(f[2]), f[3] == "1");
        let src = |s: &str| if s == "-" { 0 } else { hex(s) };
        let got = d(op, [src(f[4]), src(f[5]), src(f[6]), 0]);
        count += 1;
        if got != hex(f[7]) {
            failures.push(format!("{line}  -> got {got:x}"));
        }
    }
    assert!(count > 8000, "only {count} vectors");
    assert!(
        failures.is_empty(),
        "{} of {count} vectors differ:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}

// ---------------------------------------------------------------- integer arithmetic

#[test]
fn add_sub_wrap_and_saturate() {
    let add = |t, sat, a, b| {
        d(
            Op::Add {
                ty: t,
                mods: Mods {
                    sat,
                    ..Mods::default()
                },
            },
            [a, b, 0, 0],
        )
    };
    let sub = |t, sat, a, b| {
        d(
            Op::Sub {
                ty: t,
                mods: Mods {
                    sat,
                    ..Mods::default()
                },
            },
            [a, b, 0, 0],
        )
    };
    let table: &[(Type, bool, u64, u64, u64)] = &[
        (Type::S32, false, 0x7fff_ffff, 1, 0x8000_0000), // signed overflow wraps
        (Type::U32, false, 0xffff_ffff, 2, 1),
        (Type::S32, true, 0x7fff_ffff, 1, 0x7fff_ffff), // .sat clamps to MAXINT
        (Type::S32, true, 0x8000_0000, 0xffff_ffff, 0x8000_0000), // MININT + -1
        (Type::U16, false, 0xffff, 1, 0),
        (Type::S16, false, 0x1_7fff, 1, 0x8000), // only the low 16 bits are read
        (Type::U64, false, u64::MAX, 1, 0),
        (Type::S64, false, i64::MAX as u64, 1, 1 << 63),
    ];
    for &(t, sat, a, b, want) in table {
        assert_eq!(add(t, sat, a, b), want, "add {t} sat={sat} {a:#x} {b:#x}");
    }
    assert_eq!(sub(Type::S32, false, 0x8000_0000, 1), 0x7fff_ffff);
    assert_eq!(sub(Type::S32, true, 0x8000_0000, 1), 0x8000_0000);
    assert_eq!(sub(Type::S32, true, 0x7fff_ffff, 0xffff_ffff), 0x7fff_ffff);
    assert_eq!(sub(Type::U32, false, 0, 1), 0xffff_ffff);
}

#[test]
fn mul_lo_hi_wide() {
    let mul = |t, p, a, b| {
        d(
            Op::Mul {
                ty: t,
                part: Some(p),
                mods: Mods::default(),
            },
            [a, b, 0, 0],
        )
    };
    let m1 = 0xffff_ffffu64; // -1 as s32
    let table: &[(Type, MulPart, u64, u64, u64)] = &[
        (Type::S32, MulPart::Lo, m1, 3, 0xffff_fffd),
        (Type::S32, MulPart::Hi, m1, 3, 0xffff_ffff), // -3 = 0xffffffff_fffffffd
        (Type::U32, MulPart::Hi, m1, 3, 2),           // 0x2_fffffffd
        (
            Type::S32,
            MulPart::Hi,
            0x8000_0000,
            0x8000_0000,
            0x4000_0000,
        ), // 2^62
        (Type::S32, MulPart::Wide, m1, 3, 0xffff_ffff_ffff_fffd),
        (Type::U32, MulPart::Wide, m1, m1, 0xffff_fffe_0000_0001),
        (
            Type::S32,
            MulPart::Wide,
            0x8000_0000,
            0x8000_0000,
            0x4000_0000_0000_0000,
        ),
        (Type::S16, MulPart::Wide, 0xffff, 0x7fff, 0xffff_8001), // -32767
        (Type::U16, MulPart::Hi, 0xffff, 0xffff, 0xfffe),
        (Type::S64, MulPart::Hi, u64::MAX, 5, u64::MAX), // -5: high word all ones
        (Type::S64, MulPart::Hi, 1 << 63, 1 << 63, 1 << 62),
        (Type::U64, MulPart::Hi, u64::MAX, u64::MAX, u64::MAX - 1),
        (Type::U64, MulPart::Lo, u64::MAX, u64::MAX, 1),
        (
            Type::S64,
            MulPart::Hi,
            0xffff_ffff_ffff_fffe,
            0x4000_0000_0000_0000,
            u64::MAX,
        ), // -2*2^62 = -2^63
    ];
    for &(t, p, a, b, want) in table {
        assert_eq!(mul(t, p, a, b), want, "mul.{p:?}.{t} {a:#x} {b:#x}");
    }
}

#[test]
fn mad_and_24_bit_forms() {
    let mad = |t, p, sat, a, b, c| {
        d(
            Op::Mad {
                ty: t,
                part: Some(p),
                mods: Mods {
                    sat,
                    ..Mods::default()
                },
            },
            [a, b, c, 0],
        )
    };
    assert_eq!(mad(Type::S32, MulPart::Lo, false, 7, 6, 0xffff_ffff), 41);
    // hi(-1 * 3) = -1, + 5 = 4
    assert_eq!(mad(Type::S32, MulPart::Hi, false, 0xffff_ffff, 3, 5), 4);
    // hi(2^31 * 2^31 as s32: (-2^31)^2 = 2^62) = 2^30; + 2^31-1 saturates
    assert_eq!(
        mad(
            Type::S32,
            MulPart::Hi,
            true,
            0x8000_0000,
            0x8000_0000,
            0x7fff_ffff
        ),
        0x7fff_ffff
    );
    assert_eq!(
        mad(
            Type::S32,
            MulPart::Hi,
            true,
            0x8000_0000,
            0x7fff_ffff,
            0x8000_0000
        ),
        0x8000_0000
    );
    assert_eq!(mad(Type::S32, MulPart::Wide, false, 0xffff_ffff, 2, 10), 8);
    assert_eq!(
        mad(
            Type::U32,
            MulPart::Wide,
            false,
            0xffff_ffff,
            0xffff_ffff,
            u64::MAX
        ),
        0xffff_fffe_0000_0000
    );
    assert_eq!(mad(Type::S64, MulPart::Lo, false, 3, 4, 5), 17);

    let m24 = |t, hi, a, b| d(Op::Mul24 { ty: t, hi }, [a, b, 0, 0]);
    // Only the low 24 bits of each operand count.
    assert_eq!(m24(Type::U32, false, 0xff00_0002, 0xab00_0003), 6);
    // s32: 0x800000 is -2^23; (-2^23)^2 = 2^46; .hi is bits 47..16 = 2^30.
    assert_eq!(m24(Type::S32, true, 0x0080_0000, 0x0080_0000), 0x4000_0000);
    // u32: 0xffffff^2 = 0xfffffe000001; bits 47..16 = 0xfffffe00, bits 31..0 = 0xfe000001.
    assert_eq!(m24(Type::U32, true, 0xff_ffff, 0xff_ffff), 0xffff_fe00);
    assert_eq!(m24(Type::U32, false, 0xff_ffff, 0xff_ffff), 0xfe00_0001);
    // s32 lo: -1 * 5 = -5
    assert_eq!(m24(Type::S32, false, 0xff_ffff, 5), 0xffff_fffb);
    let mad24 = |t, hi, sat, a, b, c| d(Op::Mad24 { ty: t, hi, sat }, [a, b, c, 0]);
    assert_eq!(
        mad24(Type::U32, false, false, 3, 4, 0xffff_fff0),
        0xffff_fffc
    );
    assert_eq!(
        mad24(Type::S32, true, true, 0x0080_0000, 0x0080_0000, 0x7fff_ffff),
        0x7fff_ffff
    );
    assert_eq!(
        mad24(Type::S32, true, false, 0x0080_0000, 0x0080_0000, 1),
        0x4000_0001
    );
}

#[test]
fn div_rem_including_zero_and_overflow() {
    let div = |t, a, b| {
        d(
            Op::Div {
                ty: t,
                mods: Mods::default(),
            },
            [a, b, 0, 0],
        )
    };
    let rem = |t, a, b| d(Op::Rem { ty: t }, [a, b, 0, 0]);
    assert_eq!(div(Type::S32, 0xffff_fff9, 2), 0xffff_fffd); // -7/2 = -3 (toward zero)
    assert_eq!(rem(Type::S32, 0xffff_fff9, 2), 0xffff_ffff); // -7%2 = -1
    assert_eq!(rem(Type::S32, 7, 0xffff_fffe), 1); // 7 % -2 = 1
    assert_eq!(div(Type::U32, 0xffff_fff9, 2), 0x7fff_fffc);
    assert_eq!(div(Type::S32, 0x8000_0000, 0xffff_ffff), 0x8000_0000); // MIN / -1 wraps
    assert_eq!(rem(Type::S32, 0x8000_0000, 0xffff_ffff), 0);
    assert_eq!(div(Type::S64, 1 << 63, u64::MAX), 1 << 63);
    assert_eq!(rem(Type::S64, 1 << 63, u64::MAX), 0);
    // Division by zero: all ones, as NVIDIA hardware returns.
    assert_eq!(div(Type::U32, 5, 0), 0xffff_ffff);
    assert_eq!(div(Type::S32, 0xffff_fffb, 0), 0xffff_ffff);
    assert_eq!(div(Type::U16, 5, 0x1_0000), 0xffff); // b's low 16 bits are zero
    assert_eq!(rem(Type::U64, 5, 0), u64::MAX);
    assert_eq!(div(Type::S16, 0xfff9, 2), 0xfffd);
}

#[test]
fn abs_neg_min_max_integers() {
    assert_eq!(
        d(
            Op::Abs {
                ty: Type::S32,
                ftz: false
            },
            [0x8000_0000, 0, 0, 0]
        ),
        0x8000_0000
    );
    assert_eq!(
        d(
            Op::Abs {
                ty: Type::S32,
                ftz: false
            },
            [0xffff_fffb, 0, 0, 0]
        ),
        5
    );
    assert_eq!(
        d(
            Op::Abs {
                ty: Type::S16,
                ftz: false
            },
            [0xffff, 0, 0, 0]
        ),
        1
    );
    assert_eq!(
        d(
            Op::Neg {
                ty: Type::S32,
                ftz: false
            },
            [1, 0, 0, 0]
        ),
        0xffff_ffff
    );
    assert_eq!(
        d(
            Op::Neg {
                ty: Type::S64,
                ftz: false
            },
            [1 << 63, 0, 0, 0]
        ),
        1 << 63
    );
    let min = |t, a, b| {
        d(
            Op::Min {
                ty: t,
                ftz: false,
                nan: false,
            },
            [a, b, 0, 0],
        )
    };
    let max = |t, a, b| {
        d(
            Op::Max {
                ty: t,
                ftz: false,
                nan: false,
            },
            [a, b, 0, 0],
        )
    };
    assert_eq!(min(Type::S32, 0xffff_ffff, 1), 0xffff_ffff);
    assert_eq!(min(Type::U32, 0xffff_ffff, 1), 1);
    assert_eq!(max(Type::S32, 0xffff_ffff, 1), 1);
    assert_eq!(max(Type::U32, 0xffff_ffff, 1), 0xffff_ffff);
    assert_eq!(max(Type::S16, 0x8000, 0x7fff), 0x7fff);
    assert_eq!(min(Type::S64, 1 << 63, 0), 1 << 63);
}

// ---------------------------------------------------------------- logic, shifts, bits

#[test]
fn logic_including_predicates() {
    assert_eq!(
        d(
            Op::And { ty: Type::B32 },
            [0xf0f0_ffff_ffff, 0xff00_ff00, 0, 0]
        ),
        0xff00_ff00
    );
    assert_eq!(d(Op::Or { ty: Type::B16 }, [0x1_0001, 0x2, 0, 0]), 3);
    assert_eq!(
        d(Op::Xor { ty: Type::B64 }, [u64::MAX, 1, 0, 0]),
        u64::MAX - 1
    );
    assert_eq!(d(Op::Not { ty: Type::B32 }, [0, 0, 0, 0]), 0xffff_ffff);
    assert_eq!(d(Op::Not { ty: Type::Pred }, [1, 0, 0, 0]), 0);
    assert_eq!(d(Op::Not { ty: Type::Pred }, [0, 0, 0, 0]), 1);
    assert_eq!(d(Op::And { ty: Type::Pred }, [1, 1, 0, 0]), 1);
    assert_eq!(d(Op::Xor { ty: Type::Pred }, [1, 1, 0, 0]), 0);
    assert_eq!(d(Op::Or { ty: Type::Pred }, [0, 1, 0, 0]), 1);
    assert_eq!(d(Op::Cnot { ty: Type::B32 }, [0, 0, 0, 0]), 1);
    assert_eq!(d(Op::Cnot { ty: Type::B32 }, [7, 0, 0, 0]), 0);
    assert_eq!(d(Op::Cnot { ty: Type::B16 }, [0x1_0000, 0, 0, 0]), 1);
    assert_eq!(d(Op::Mov { ty: Type::B16 }, [0x12_3456, 0, 0, 0]), 0x3456);
    assert_eq!(
        d(Op::Mov { ty: Type::F64 }, [0x7ff4_0000_0000_0001, 0, 0, 0]),
        0x7ff4_0000_0000_0001
    );
}

#[test]
fn shifts_clamp_at_the_width() {
    let shl = |t, a, b| d(Op::Shl { ty: t }, [a, b, 0, 0]);
    let shr = |t, a, b| d(Op::Shr { ty: t }, [a, b, 0, 0]);
    assert_eq!(shl(Type::B32, 1, 31), 0x8000_0000);
    assert_eq!(shl(Type::B32, 1, 32), 0);
    assert_eq!(shl(Type::B32, 1, 0xffff_ffff), 0);
    assert_eq!(shl(Type::B16, 0xffff, 8), 0xff00);
    assert_eq!(shl(Type::B16, 1, 16), 0);
    assert_eq!(shl(Type::B64, 1, 63), 1 << 63);
    assert_eq!(shl(Type::B64, 1, 64), 0);
    assert_eq!(shr(Type::S32, 0x8000_0000, 4), 0xf800_0000);
    assert_eq!(shr(Type::S32, 0x8000_0000, 32), 0xffff_ffff);
    assert_eq!(shr(Type::S32, 0x8000_0000, 1000), 0xffff_ffff);
    assert_eq!(shr(Type::S32, 0x7fff_ffff, 40), 0);
    assert_eq!(shr(Type::U32, 0x8000_0000, 4), 0x0800_0000);
    assert_eq!(shr(Type::B32, 0x8000_0000, 32), 0);
    assert_eq!(shr(Type::S16, 0x8000, 15), 0xffff);
    assert_eq!(shr(Type::S16, 0x8000, 16), 0xffff);
    assert_eq!(shr(Type::S64, 1 << 63, 64), u64::MAX);
    assert_eq!(shr(Type::U64, u64::MAX, 64), 0);
    // b is read as .u32: bit 32 and up are ignored.
    assert_eq!(shr(Type::U32, 0x10, 0x1_0000_0002), 4);
}

#[test]
fn popc_clz_brev_of_zero_and_all_ones() {
    let un = |op: Op, a| d(op, [a, 0, 0, 0]);
    assert_eq!(un(Op::Popc { ty: Type::B32 }, 0), 0);
    assert_eq!(un(Op::Popc { ty: Type::B32 }, u64::MAX), 32);
    assert_eq!(un(Op::Popc { ty: Type::B64 }, u64::MAX), 64);
    assert_eq!(un(Op::Popc { ty: Type::B64 }, 0x8000_0000_0000_0001), 2);
    assert_eq!(un(Op::Clz { ty: Type::B32 }, 0), 32);
    assert_eq!(un(Op::Clz { ty: Type::B32 }, 0xffff_ffff), 0);
    assert_eq!(un(Op::Clz { ty: Type::B32 }, 1), 31);
    assert_eq!(un(Op::Clz { ty: Type::B32 }, 0x1_0000_0000), 32);
    assert_eq!(un(Op::Clz { ty: Type::B64 }, 0), 64);
    assert_eq!(un(Op::Clz { ty: Type::B64 }, u64::MAX), 0);
    assert_eq!(un(Op::Clz { ty: Type::B64 }, 1), 63);
    assert_eq!(un(Op::Brev { ty: Type::B32 }, 0), 0);
    assert_eq!(un(Op::Brev { ty: Type::B32 }, 0xffff_ffff), 0xffff_ffff);
    assert_eq!(un(Op::Brev { ty: Type::B32 }, 1), 0x8000_0000);
    assert_eq!(un(Op::Brev { ty: Type::B32 }, 0x1234_5678), 0x1e6a_2c48);
    assert_eq!(un(Op::Brev { ty: Type::B64 }, 1), 1 << 63);
    assert_eq!(un(Op::Brev { ty: Type::B64 }, u64::MAX), u64::MAX);
}

#[test]
fn bfe_extracts_and_sign_extends() {
    let bfe = |t, a, pos, len| d(Op::Bfe { ty: t }, [a, pos, len, 0]);
    assert_eq!(bfe(Type::U32, 0x1234_5678, 8, 8), 0x56);
    assert_eq!(bfe(Type::S32, 0x0000_f000, 12, 4), 0xffff_ffff); // field 0xf, sign bit set
    assert_eq!(bfe(Type::S32, 0x0000_7000, 12, 4), 7);
    assert_eq!(bfe(Type::U32, 0x1234_5678, 8, 0), 0); // zero length
    assert_eq!(bfe(Type::S32, 0x8000_0000, 8, 0), 0);
    // Field runs past the msb: bits 28..31 of 0xf0000000, sign from bit 31.
    assert_eq!(bfe(Type::S32, 0xf000_0000, 28, 8), 0xffff_ffff);
    assert_eq!(bfe(Type::U32, 0xf000_0000, 28, 8), 0xf);
    // Position beyond the msb: replicated sign bit of bit 31 (s32) or 0 (u32).
    assert_eq!(bfe(Type::S32, 0x8000_0000, 40, 4), 0xffff_ffff);
    assert_eq!(bfe(Type::S32, 0x7fff_ffff, 40, 4), 0);
    assert_eq!(bfe(Type::U32, 0xffff_ffff, 40, 4), 0);
    // Only the low 8 bits of pos and len are read: pos 0x108 = 8, len 0x204 = 4.
    assert_eq!(bfe(Type::U32, 0x1234_5678, 0x108, 0x204), 0x6);
    assert_eq!(
        bfe(Type::S64, 0x8000_0000_0000_0000, 60, 4),
        0xffff_ffff_ffff_fff8
    ); // field 0b1000
    assert_eq!(bfe(Type::U64, 0xabcd_0000_0000_0000, 48, 16), 0xabcd);
    assert_eq!(
        bfe(Type::S64, 0x0000_0000_0000_0080, 0, 8),
        0xffff_ffff_ffff_ff80
    );
}

#[test]
fn bfi_inserts() {
    let bfi = |t, a, b, pos, len| d(Op::Bfi { ty: t }, [a, b, pos, len]);
    assert_eq!(bfi(Type::B32, 0xab, 0x1234_5678, 8, 8), 0x1234_ab78);
    assert_eq!(bfi(Type::B32, 0xffff, 0, 28, 8), 0xf000_0000); // bits past the msb dropped
    assert_eq!(bfi(Type::B32, 0xffff, 0x55, 32, 8), 0x55); // position past the msb: b
    assert_eq!(bfi(Type::B32, 0xffff, 0x55, 4, 0), 0x55); // zero length: b
    assert_eq!(bfi(Type::B64, 1, 0, 63, 1), 1 << 63);
    assert_eq!(bfi(Type::B32, 0xf, 0, 0x104, 0x102), 0x30); // pos 4, len 2
}

#[test]
fn prmt_generic_and_modes() {
    let (a, b) = (0x4433_2211u64, 0x8877_6655u64);
    let prmt = |mode, c| d(Op::Prmt { mode }, [a, b, c, 0]);
    // Generic: one selector nibble per result byte, bytes {b, a} numbered 7..0.
    assert_eq!(prmt(None, 0x3210), a);
    assert_eq!(prmt(None, 0x7654), b);
    assert_eq!(prmt(None, 0x0123), 0x1122_3344);
    assert_eq!(prmt(None, 0x4567), 0x5566_7788);
    // Selector msb replicates the byte's sign: 0xf = sign of byte 7 (0x88) -> 0xff,
    // 0x8 = sign of byte 0 (0x11) -> 0x00; 0x0 copies byte 0.
    assert_eq!(prmt(None, 0x8f0f), 0x00ff_11ff);
    // Only bits 15..0 of c are selectors.
    assert_eq!(prmt(None, 0xffff_3210), a);
    // Modes use c[1:0]; the result bytes per the ISA table (d.b3 d.b2 d.b1 d.b0):
    assert_eq!(prmt(Some(PrmtMode::F4e), 0), a); // 3 2 1 0
    assert_eq!(prmt(Some(PrmtMode::F4e), 1), 0x5544_3322); // 4 3 2 1
    assert_eq!(prmt(Some(PrmtMode::F4e), 3), 0x7766_5544); // 6 5 4 3
    assert_eq!(prmt(Some(PrmtMode::B4e), 0), 0x6677_8811); // 5 6 7 0
    assert_eq!(prmt(Some(PrmtMode::B4e), 3), 0x1122_3344); // 0 1 2 3
    assert_eq!(prmt(Some(PrmtMode::Rc8), 2), 0x3333_3333); // 2 2 2 2
    assert_eq!(prmt(Some(PrmtMode::Ecl), 1), 0x4433_2222); // 3 2 1 1
    assert_eq!(prmt(Some(PrmtMode::Ecl), 2), 0x4433_3333); // 3 2 2 2
    assert_eq!(prmt(Some(PrmtMode::Ecr), 1), 0x2222_2211); // 1 1 1 0
    assert_eq!(prmt(Some(PrmtMode::Ecr), 2), 0x3333_2211); // 2 2 1 0
    assert_eq!(prmt(Some(PrmtMode::Rc16), 0), 0x2211_2211); // 1 0 1 0
    assert_eq!(prmt(Some(PrmtMode::Rc16), 1), 0x4433_4433); // 3 2 3 2
    assert_eq!(prmt(Some(PrmtMode::Rc16), 0x7), 0x4433_4433); // only c[1:0]
}

// ---------------------------------------------------------------- compare and select

const ALL_CMPS: [Cmp; 18] = [
    Cmp::Eq,
    Cmp::Ne,
    Cmp::Lt,
    Cmp::Le,
    Cmp::Gt,
    Cmp::Ge,
    Cmp::Lo,
    Cmp::Ls,
    Cmp::Hi,
    Cmp::Hs,
    Cmp::Equ,
    Cmp::Neu,
    Cmp::Ltu,
    Cmp::Leu,
    Cmp::Gtu,
    Cmp::Geu,
    Cmp::Num,
    Cmp::Nan,
];

fn setp(cmp: Cmp, t: Type, a: u64, b: u64) -> (u64, u64) {
    let out = eval(
        &Op::Setp {
            cmp,
            combine: None,
            ty: t,
            ftz: false,
        },
        [a, b, 0, 0],
    )
    .expect("setp");
    (out.d, out.q)
}

#[test]
fn setp_float_every_comparison_with_and_without_nan() {
    let (one, two, nan) = (f32b(1.0), f32b(2.0), f32b(f32::NAN));
    // Expected p for (1,2), (2,1), (1,1), (1,NaN), (NaN,NaN).
    let table: [(Cmp, [u64; 5]); 16] = [
        (Cmp::Eq, [0, 0, 1, 0, 0]),
        (Cmp::Ne, [1, 1, 0, 0, 0]),
        (Cmp::Lt, [1, 0, 0, 0, 0]),
        (Cmp::Le, [1, 0, 1, 0, 0]),
        (Cmp::Gt, [0, 1, 0, 0, 0]),
        (Cmp::Ge, [0, 1, 1, 0, 0]),
        (Cmp::Equ, [0, 0, 1, 1, 1]),
        (Cmp::Neu, [1, 1, 0, 1, 1]),
        (Cmp::Ltu, [1, 0, 0, 1, 1]),
        (Cmp::Leu, [1, 0, 1, 1, 1]),
        (Cmp::Gtu, [0, 1, 0, 1, 1]),
        (Cmp::Geu, [0, 1, 1, 1, 1]),
        (Cmp::Num, [1, 1, 1, 0, 0]),
        (Cmp::Nan, [0, 0, 0, 1, 1]),
        // Not defined on floats by the ISA (the decoder rejects them); they act as lt/ge.
        (Cmp::Lo, [1, 0, 0, 0, 0]),
        (Cmp::Hs, [0, 1, 1, 0, 0]),
    ];
    let pairs = [(one, two), (two, one), (one, one), (one, nan), (nan, nan)];
    for (cmp, want) in table {
        for (&(a, b), &w) in pairs.iter().zip(want.iter()) {
            for (t, a, b) in [
                (Type::F32, a, b),
                (
                    Type::F64,
                    f64b(f64::from(f32::from_bits(a as u32))),
                    f64b(f64::from(f32::from_bits(b as u32))),
                ),
            ] {
                let (p, q) = setp(cmp, t, a, b);
                assert_eq!((p, q), (w, 1 - w), "setp.{cmp:?}.{t} {a:#x} {b:#x}");
            }
        }
    }
    // Signed zeros are equal.
    assert_eq!(setp(Cmp::Eq, Type::F32, f32b(-0.0), f32b(0.0)).0, 1);
    assert_eq!(setp(Cmp::Lt, Type::F32, f32b(-0.0), f32b(0.0)).0, 0);
}

#[test]
fn setp_integers_signed_unsigned_bits() {
    let m1 = 0xffff_ffffu64;
    for cmp in ALL_CMPS {
        let s = setp(cmp, Type::S32, m1, 1).0;
        let u = setp(cmp, Type::U32, m1, 1).0;
        let want_s = match cmp {
            Cmp::Ne | Cmp::Lt | Cmp::Le | Cmp::Neu | Cmp::Ltu | Cmp::Leu | Cmp::Num => 1,
            // lo/ls/hi/hs compare unsigned even on .s32: 0xffffffff > 1.
            Cmp::Hi | Cmp::Hs => 1,
            _ => 0,
        };
        let want_u = match cmp {
            Cmp::Ne
            | Cmp::Gt
            | Cmp::Ge
            | Cmp::Hi
            | Cmp::Hs
            | Cmp::Neu
            | Cmp::Gtu
            | Cmp::Geu
            | Cmp::Num => 1,
            _ => 0,
        };
        assert_eq!(s, want_s, "setp.{cmp:?}.s32 -1, 1");
        assert_eq!(u, want_u, "setp.{cmp:?}.u32 0xffffffff, 1");
    }
    assert_eq!(setp(Cmp::Lt, Type::B32, m1, 1).0, 0); // .b32 compares unsigned
    assert_eq!(setp(Cmp::Eq, Type::B16, 0x1_0005, 5).0, 1); // low 16 bits only
    assert_eq!(setp(Cmp::Lt, Type::S64, 1 << 63, 0).0, 1);
    assert_eq!(setp(Cmp::Lt, Type::S16, 0x8000, 0x7fff).0, 1);
}

#[test]
fn setp_combine_and_set_encodings() {
    let run = |combine, c| {
        eval(
            &Op::Setp {
                cmp: Cmp::Lt,
                combine: Some(combine),
                ty: Type::S32,
                ftz: false,
            },
            [1, 2, c, 0],
        )
        .expect("setp")
    };
    // t = (1 < 2) = true; p = t op c, q = !t op c.
    assert_eq!(run(BoolOp::And, 0), LaneOut { d: 0, q: 0 });
    assert_eq!(run(BoolOp::And, 1), LaneOut { d: 1, q: 0 });
    assert_eq!(run(BoolOp::Or, 0), LaneOut { d: 1, q: 0 });
    assert_eq!(run(BoolOp::Or, 1), LaneOut { d: 1, q: 1 });
    assert_eq!(run(BoolOp::Xor, 1), LaneOut { d: 0, q: 1 });
    assert_eq!(run(BoolOp::Xor, 0), LaneOut { d: 1, q: 0 });
    let set = |dty, cmp, a, b| {
        d(
            Op::Set {
                cmp,
                combine: None,
                dty,
                sty: Type::F32,
                ftz: false,
            },
            [a, b, 0, 0],
        )
    };
    assert_eq!(set(Type::U32, Cmp::Lt, f32b(1.0), f32b(2.0)), 0xffff_ffff);
    assert_eq!(set(Type::S32, Cmp::Gt, f32b(1.0), f32b(2.0)), 0);
    assert_eq!(set(Type::F32, Cmp::Lt, f32b(1.0), f32b(2.0)), 0x3f80_0000);
    assert_eq!(
        set(Type::F32, Cmp::Equ, f32b(f32::NAN), f32b(2.0)),
        0x3f80_0000
    );
    assert_eq!(set(Type::F32, Cmp::Eq, f32b(f32::NAN), f32b(2.0)), 0);
    let set_and = d(
        Op::Set {
            cmp: Cmp::Eq,
            combine: Some(BoolOp::And),
            dty: Type::U32,
            sty: Type::S32,
            ftz: false,
        },
        [3, 3, 0, 0],
    );
    assert_eq!(set_and, 0);
}

#[test]
fn setp_ftz_flushes_subnormal_operands() {
    let sub = 1u64; // smallest positive subnormal
    let op = |ftz| Op::Setp {
        cmp: Cmp::Gt,
        combine: None,
        ty: Type::F32,
        ftz,
    };
    assert_eq!(d(op(false), [sub, 0, 0, 0]), 1);
    assert_eq!(d(op(true), [sub, 0, 0, 0]), 0);
}

#[test]
fn selp_and_slct() {
    let selp = |c| d(Op::Selp { ty: Type::U32 }, [0x1_0000_0007, 9, c, 0]);
    assert_eq!(selp(1), 7);
    assert_eq!(selp(0), 9);
    let slct = |sty, ftz, c| {
        d(
            Op::Slct {
                dty: Type::B32,
                sty,
                ftz,
            },
            [11, 22, c, 0],
        )
    };
    assert_eq!(slct(Type::S32, false, 0), 11);
    assert_eq!(slct(Type::S32, false, 0xffff_ffff), 22);
    assert_eq!(slct(Type::S32, false, 0x7fff_ffff), 11);
    assert_eq!(slct(Type::F32, false, f32b(-0.0)), 11); // -0.0 >= 0
    assert_eq!(slct(Type::F32, false, f32b(-1.0)), 22);
    assert_eq!(slct(Type::F32, false, f32b(f32::NAN)), 22);
    assert_eq!(slct(Type::F32, false, 0x8000_0001), 22); // -subnormal < 0
    assert_eq!(slct(Type::F32, true, 0x8000_0001), 11); // flushed to -0.0
}

// ---------------------------------------------------------------- cvt

fn cvt(dty: Type, sty: Type, round: Option<Rounding>, sat: bool, a: u64) -> u64 {
    d(
        Op::Cvt {
            dty,
            sty,
            round,
            ftz: false,
            sat,
        },
        [a, 0, 0, 0],
    )
}

#[test]
fn cvt_integer_widths() {
    assert_eq!(
        cvt(Type::S64, Type::S32, None, false, 0xffff_fffe),
        0xffff_ffff_ffff_fffe
    );
    assert_eq!(
        cvt(Type::U64, Type::U32, None, false, 0xffff_fffe),
        0xffff_fffe
    );
    assert_eq!(cvt(Type::S32, Type::S8, None, false, 0x80), 0xffff_ff80);
    assert_eq!(cvt(Type::U32, Type::S8, None, false, 0x80), 0xffff_ff80);
    assert_eq!(cvt(Type::S32, Type::U8, None, false, 0x1ff), 0xff);
    assert_eq!(cvt(Type::U8, Type::S32, None, false, 300), 44); // truncated: 300 & 0xff
    assert_eq!(cvt(Type::U16, Type::U64, None, false, 0x1234_5678), 0x5678);
    // .sat clamps the source value to the destination range.
    assert_eq!(cvt(Type::U8, Type::S32, None, true, 300), 255);
    assert_eq!(
        cvt(Type::U8, Type::S32, None, true, (-5i32) as u32 as u64),
        0
    );
    assert_eq!(
        cvt(Type::S8, Type::S32, None, true, (-300i32) as u32 as u64),
        0x80
    );
    assert_eq!(
        cvt(Type::S32, Type::U32, None, true, 0xffff_ffff),
        0x7fff_ffff
    );
    assert_eq!(cvt(Type::U32, Type::S32, None, true, 0xffff_ffff), 0);
    assert_eq!(cvt(Type::U64, Type::S64, None, true, 1 << 63), 0);
    assert_eq!(
        cvt(Type::S64, Type::U64, None, true, u64::MAX),
        i64::MAX as u64
    );
}

#[test]
fn cvt_float_to_int() {
    let rzi = Some(Rounding::Rzi);
    let s32 = |r, x: f32| cvt(Type::S32, Type::F32, r, false, f32b(x));
    assert_eq!(s32(rzi, 2.5), 2);
    assert_eq!(s32(rzi, -2.5), (-2i32) as u32 as u64);
    assert_eq!(s32(None, -2.7), (-2i32) as u32 as u64); // no modifier: toward zero
                                                        // .rni rounds ties to even.
    for (x, want) in [
        (0.5, 0),
        (1.5, 2),
        (2.5, 2),
        (3.5, 4),
        (-0.5, 0),
        (-1.5, -2),
        (-2.5, -2),
    ] {
        assert_eq!(s32(Some(Rounding::Rni), x), want as u32 as u64, "rni {x}");
    }
    assert_eq!(s32(Some(Rounding::Rmi), -2.5), (-3i32) as u32 as u64);
    assert_eq!(s32(Some(Rounding::Rpi), 2.1), 3);
    // Clamped to the destination range by default.
    assert_eq!(s32(rzi, 3e9), 0x7fff_ffff);
    assert_eq!(s32(rzi, f32::NEG_INFINITY), 0x8000_0000);
    assert_eq!(cvt(Type::U32, Type::F32, rzi, false, f32b(-5.0)), 0);
    assert_eq!(cvt(Type::U8, Type::F32, rzi, false, f32b(300.0)), 255);
    assert_eq!(cvt(Type::U64, Type::F64, rzi, false, f64b(1e30)), u64::MAX);
    // NaN: 0 unless the source is .f64 or the destination 64 bits wide.
    let nan32 = f32b(f32::NAN);
    let nan64 = f64b(f64::NAN);
    assert_eq!(cvt(Type::S32, Type::F32, rzi, false, nan32), 0);
    assert_eq!(cvt(Type::U16, Type::F32, rzi, false, nan32), 0);
    assert_eq!(cvt(Type::S64, Type::F32, rzi, false, nan32), 1 << 63);
    assert_eq!(cvt(Type::U64, Type::F32, rzi, false, nan32), 1 << 63);
    assert_eq!(cvt(Type::S32, Type::F64, rzi, false, nan64), 0x8000_0000);
    assert_eq!(cvt(Type::U8, Type::F64, rzi, false, nan64), 0x80);
    // .ftz flushes an f32 subnormal source before rounding up.
    let sub = 1u64;
    assert_eq!(
        cvt(Type::S32, Type::F32, Some(Rounding::Rpi), false, sub),
        1
    );
    let ftz = d(
        Op::Cvt {
            dty: Type::S32,
            sty: Type::F32,
            round: Some(Rounding::Rpi),
            ftz: true,
            sat: false,
        },
        [sub, 0, 0, 0],
    );
    assert_eq!(ftz, 0);
}

#[test]
fn cvt_int_to_float_by_mode() {
    // 16777217 = 2^24 + 1 lies halfway between two f32 values.
    for (r, want) in [
        (Rounding::Rn, 0x4b80_0000u64),
        (Rounding::Rz, 0x4b80_0000),
        (Rounding::Rm, 0x4b80_0000),
        (Rounding::Rp, 0x4b80_0001),
    ] {
        assert_eq!(
            cvt(Type::F32, Type::S32, Some(r), false, 16_777_217),
            want,
            "{r:?}"
        );
    }
    // -16777219 = -(2^24 + 3): halfway between -(2^24+2) and -(2^24+4); ties to even -> +4.
    let m = (-16_777_219i32) as u32 as u64;
    assert_eq!(
        cvt(Type::F32, Type::S32, Some(Rounding::Rn), false, m),
        0xcb80_0002
    );
    assert_eq!(
        cvt(Type::F32, Type::S32, Some(Rounding::Rz), false, m),
        0xcb80_0001
    );
    assert_eq!(
        cvt(Type::F32, Type::S32, Some(Rounding::Rm), false, m),
        0xcb80_0002
    );
    assert_eq!(
        cvt(Type::F32, Type::U32, None, false, 0xffff_ffff),
        0x4f80_0000
    );
    assert_eq!(
        cvt(Type::F64, Type::U64, Some(Rounding::Rz), false, u64::MAX),
        0x43ef_ffff_ffff_ffff
    );
    assert_eq!(cvt(Type::F64, Type::S8, None, false, 0xff), f64b(-1.0));
    // .sat on a float destination clamps to [0, 1].
    assert_eq!(
        cvt(Type::F32, Type::S32, Some(Rounding::Rn), true, 5),
        f32b(1.0)
    );
    assert_eq!(
        cvt(Type::F32, Type::S32, Some(Rounding::Rn), true, 0xffff_ffff),
        0
    );
}

#[test]
fn cvt_float_to_float() {
    // f64 -> f32 overflow by mode: rz and the direction away from the sign give MAX.
    let big = f64b(1e39);
    let nbig = f64b(-1e39);
    let f = |r, x| cvt(Type::F32, Type::F64, Some(r), false, x);
    assert_eq!(f(Rounding::Rn, big), 0x7f80_0000);
    assert_eq!(f(Rounding::Rz, big), 0x7f7f_ffff);
    assert_eq!(f(Rounding::Rm, big), 0x7f7f_ffff);
    assert_eq!(f(Rounding::Rp, big), 0x7f80_0000);
    assert_eq!(f(Rounding::Rz, nbig), 0xff7f_ffff);
    assert_eq!(f(Rounding::Rm, nbig), 0xff80_0000);
    assert_eq!(f(Rounding::Rp, nbig), 0xff7f_ffff);
    assert_eq!(cvt(Type::F32, Type::F64, None, false, f64b(0.1)), f32b(0.1));
    assert_eq!(
        cvt(Type::F64, Type::F32, None, false, f32b(0.1)),
        f64b(f64::from(0.1f32))
    );
    assert_eq!(
        cvt(Type::F32, Type::F64, None, false, f64b(f64::NAN)),
        0x7fff_ffff
    );
    assert_eq!(
        cvt(Type::F64, Type::F32, None, false, f32b(f32::NAN)),
        0xfff8_0000_0000_0000
    );
    // Integral rounding in the same type; zero keeps its sign.
    let ri = |r, x: f32| cvt(Type::F32, Type::F32, Some(r), false, f32b(x));
    assert_eq!(ri(Rounding::Rni, 2.5), f32b(2.0));
    assert_eq!(ri(Rounding::Rni, 3.5), f32b(4.0));
    assert_eq!(ri(Rounding::Rzi, -2.7), f32b(-2.0));
    assert_eq!(ri(Rounding::Rmi, -0.2), f32b(-1.0));
    assert_eq!(ri(Rounding::Rpi, -0.2), f32b(-0.0));
    assert_eq!(ri(Rounding::Rni, 0.4), f32b(0.0));
    assert_eq!(ri(Rounding::Rpi, 1e30), f32b(1e30));
    // .sat clamps floats to [0, 1], NaN to +0.
    let sat = |x: f32| cvt(Type::F32, Type::F32, None, true, f32b(x));
    assert_eq!(sat(1.5), f32b(1.0));
    assert_eq!(sat(-1.5), 0);
    assert_eq!(sat(0.25), f32b(0.25));
    assert_eq!(sat(f32::NAN), 0);
    // .ftz flushes an f32 subnormal result of f64 -> f32.
    let tiny = f64b(1e-40);
    assert_eq!(
        cvt(Type::F32, Type::F64, Some(Rounding::Rn), false, tiny),
        0x0001_16c2
    );
    let flushed = d(
        Op::Cvt {
            dty: Type::F32,
            sty: Type::F64,
            round: Some(Rounding::Rn),
            ftz: true,
            sat: false,
        },
        [tiny, 0, 0, 0],
    );
    assert_eq!(flushed, 0);
}

// ---------------------------------------------------------------- floating point

fn f32_op(op: Op, a: f32, b: f32) -> u64 {
    d(op, [f32b(a), f32b(b), 0, 0])
}

#[test]
fn add_directed_between_two_floats() {
    // 1 + 1.5 * 2^-24 = 1 + 0.75 ulp (exact sum between 1 and 1 + 2^-23).
    let b = f32::from_bits(0x33c0_0000);
    let add = |r| {
        f32_op(
            Op::Add {
                ty: Type::F32,
                mods: rnd(Some(r)),
            },
            1.0,
            b,
        )
    };
    assert_eq!(add(Rounding::Rn), 0x3f80_0001);
    assert_eq!(add(Rounding::Rz), 0x3f80_0000);
    assert_eq!(add(Rounding::Rm), 0x3f80_0000);
    assert_eq!(add(Rounding::Rp), 0x3f80_0001);
    let sub = |r| {
        f32_op(
            Op::Sub {
                ty: Type::F32,
                mods: rnd(Some(r)),
            },
            -1.0,
            b,
        )
    };
    assert_eq!(sub(Rounding::Rz), 0xbf80_0000);
    assert_eq!(sub(Rounding::Rm), 0xbf80_0001);
    assert_eq!(sub(Rounding::Rp), 0xbf80_0000);
    // No modifier is .rn; x - x is +0, except -0 under .rm.
    assert_eq!(
        f32_op(
            Op::Add {
                ty: Type::F32,
                mods: rnd(None)
            },
            1.0,
            b
        ),
        0x3f80_0001
    );
    assert_eq!(
        f32_op(
            Op::Sub {
                ty: Type::F32,
                mods: rnd(Some(Rounding::Rm))
            },
            3.0,
            3.0
        ),
        0x8000_0000
    );
    assert_eq!(
        f32_op(
            Op::Sub {
                ty: Type::F32,
                mods: rnd(Some(Rounding::Rp))
            },
            3.0,
            3.0
        ),
        0
    );
}

#[test]
fn fma_rounds_once() {
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 is an f32 midpoint; + 2^-68 is below f64 precision at 1.
    // Rounding the sum to f64 first would land on the midpoint and round to even (0x3f801000);
    // the single rounding of the exact value goes up.
    let a = 0x3f80_0800u64;
    let fma = |r, c| {
        d(
            Op::Fma {
                ty: Type::F32,
                mods: rnd(Some(r)),
            },
            [a, a, c, 0],
        )
    };
    assert_eq!(fma(Rounding::Rn, 0x1d80_0000), 0x3f80_1001);
    assert_eq!(fma(Rounding::Rn, 0x9d80_0000), 0x3f80_1000);
    assert_eq!(fma(Rounding::Rz, 0x1d80_0000), 0x3f80_1000);
    assert_eq!(fma(Rounding::Rp, 0x9d80_0000), 0x3f80_1001);
    // Product exact: no intermediate rounding of a * b.
    let (x, y) = (f32b(1.0 + f32::EPSILON), f32b(1.0 - f32::EPSILON));
    let got = d(
        Op::Fma {
            ty: Type::F32,
            mods: rnd(Some(Rounding::Rn)),
        },
        [x, y, f32b(-1.0), 0],
    );
    assert_eq!(got, f32b(-f32::EPSILON * f32::EPSILON)); // (1+e)(1-e) - 1 = -e^2
                                                         // mad.f32 without a modifier runs as fma.rn.ftz.f32 (ISA, sm_20+): a subnormal c is flushed.
    let mad = d(
        Op::Mad {
            ty: Type::F32,
            part: None,
            mods: Mods::default(),
        },
        [f32b(0.0), f32b(0.0), 1, 0],
    );
    assert_eq!(mad, 0);
}

#[test]
fn div_rn_f64_exact_rationals() {
    let div = |r, a: f64, b: f64| {
        d(
            Op::Div {
                ty: Type::F64,
                mods: rnd(Some(r)),
            },
            [f64b(a), f64b(b), 0, 0],
        )
    };
    assert_eq!(div(Rounding::Rn, 1.0, 3.0), 0x3fd5_5555_5555_5555);
    assert_eq!(div(Rounding::Rp, 1.0, 3.0), 0x3fd5_5555_5555_5556);
    assert_eq!(div(Rounding::Rn, -2.0, 3.0), 0xbfe5_5555_5555_5555);
    assert_eq!(div(Rounding::Rm, -2.0, 3.0), 0xbfe5_5555_5555_5556);
    assert_eq!(div(Rounding::Rn, 10.0, 7.0), 0x3ff6_db6d_b6db_6db7);
    assert_eq!(div(Rounding::Rz, 10.0, 7.0), 0x3ff6_db6d_b6db_6db6);
    assert_eq!(div(Rounding::Rn, 1.0, 0.0), f64b(f64::INFINITY));
    assert_eq!(div(Rounding::Rz, 0.0, 0.0), 0xfff8_0000_0000_0000);
}

#[test]
fn sqrt_rz_f32() {
    let sqrt = |r, x: f32| {
        d(
            Op::Sqrt {
                ty: Type::F32,
                mods: rnd(Some(r)),
            },
            [f32b(x), 0, 0, 0],
        )
    };
    // sqrt(2) = 1.41421356..., between 0x3fb504f3 (1.41421354) and 0x3fb504f4 (1.41421366).
    assert_eq!(sqrt(Rounding::Rz, 2.0), 0x3fb5_04f3);
    assert_eq!(sqrt(Rounding::Rp, 2.0), 0x3fb5_04f4);
    assert_eq!(sqrt(Rounding::Rz, 4.0), f32b(2.0));
    assert_eq!(sqrt(Rounding::Rz, -0.0), 0x8000_0000);
    assert_eq!(sqrt(Rounding::Rz, -1.0), 0x7fff_ffff);
}

#[test]
fn subnormals_with_and_without_ftz() {
    let min_normal = 0x0080_0000u64;
    let half = f32b(0.5);
    let mul = |mods| {
        d(
            Op::Mul {
                ty: Type::F32,
                part: None,
                mods,
            },
            [min_normal, half, 0, 0],
        )
    };
    assert_eq!(mul(rnd(None)), 0x0040_0000); // subnormal result kept
    assert_eq!(mul(ftz_mods(None)), 0); // flushed
    let neg = d(
        Op::Mul {
            ty: Type::F32,
            part: None,
            mods: ftz_mods(None),
        },
        [min_normal | 1 << 31, half, 0, 0],
    );
    assert_eq!(neg, 0x8000_0000); // sign-preserving
                                  // Subnormal inputs: 2^-149 + 2^-149 = 2^-148 without ftz, 0 with.
    let add = |mods| {
        d(
            Op::Add {
                ty: Type::F32,
                mods,
            },
            [1, 1, 0, 0],
        )
    };
    assert_eq!(add(rnd(None)), 2);
    assert_eq!(add(ftz_mods(None)), 0);
    // .rp of a tiny positive result rounds up to the smallest subnormal, which .ftz flushes.
    let tiny = |mods| {
        d(
            Op::Mul {
                ty: Type::F32,
                part: None,
                mods,
            },
            [1, half, 0, 0],
        )
    };
    assert_eq!(tiny(rnd(Some(Rounding::Rp))), 1);
    assert_eq!(tiny(rnd(Some(Rounding::Rn))), 0); // 2^-150 ties to even (0)
    assert_eq!(tiny(ftz_mods(Some(Rounding::Rp))), 0);
    // f64 keeps subnormals (no .ftz there).
    let sub64 = d(
        Op::Mul {
            ty: Type::F64,
            part: None,
            mods: rnd(None),
        },
        [0x0010_0000_0000_0000, f64b(0.5), 0, 0],
    );
    assert_eq!(sub64, 0x0008_0000_0000_0000);
}

#[test]
fn sat_clamps_to_unit_interval() {
    let sat = Mods {
        sat: true,
        ..Mods::default()
    };
    let add = |a: f32, b: f32| {
        f32_op(
            Op::Add {
                ty: Type::F32,
                mods: sat,
            },
            a,
            b,
        )
    };
    assert_eq!(add(0.75, 0.75), f32b(1.0));
    assert_eq!(add(-0.75, 0.25), 0);
    assert_eq!(add(0.25, 0.25), f32b(0.5));
    assert_eq!(add(f32::INFINITY, f32::NEG_INFINITY), 0); // NaN -> +0
    assert_eq!(add(-0.0, -0.0), 0); // -0 -> +0
}

#[test]
fn nan_results_are_canonical() {
    let snan = 0x7f80_0001u64;
    let neg_nan = 0xffc0_1234u64;
    let add = d(
        Op::Add {
            ty: Type::F32,
            mods: rnd(None),
        },
        [snan, f32b(1.0), 0, 0],
    );
    assert_eq!(add, 0x7fff_ffff);
    let mul = d(
        Op::Mul {
            ty: Type::F32,
            part: None,
            mods: rnd(Some(Rounding::Rz)),
        },
        [neg_nan, f32b(1.0), 0, 0],
    );
    assert_eq!(mul, 0x7fff_ffff);
    let inf_minus_inf = d(
        Op::Sub {
            ty: Type::F64,
            mods: rnd(None),
        },
        [f64b(f64::INFINITY), f64b(f64::INFINITY), 0, 0],
    );
    assert_eq!(inf_minus_inf, 0xfff8_0000_0000_0000);
    assert_eq!(
        d(
            Op::Neg {
                ty: Type::F32,
                ftz: false
            },
            [neg_nan, 0, 0, 0]
        ),
        0x7fff_ffff
    );
    assert_eq!(
        d(
            Op::Abs {
                ty: Type::F64,
                ftz: false
            },
            [0x7ff0_0000_0000_0001, 0, 0, 0]
        ),
        0xfff8_0000_0000_0000
    );
}

#[test]
fn abs_neg_float() {
    assert_eq!(
        d(
            Op::Abs {
                ty: Type::F32,
                ftz: false
            },
            [f32b(-2.0), 0, 0, 0]
        ),
        f32b(2.0)
    );
    assert_eq!(
        d(
            Op::Neg {
                ty: Type::F32,
                ftz: false
            },
            [f32b(0.0), 0, 0, 0]
        ),
        0x8000_0000
    );
    assert_eq!(
        d(
            Op::Neg {
                ty: Type::F64,
                ftz: false
            },
            [f64b(1.5), 0, 0, 0]
        ),
        f64b(-1.5)
    );
    assert_eq!(
        d(
            Op::Abs {
                ty: Type::F32,
                ftz: true
            },
            [0x8000_0001, 0, 0, 0]
        ),
        0
    );
    assert_eq!(
        d(
            Op::Abs {
                ty: Type::F32,
                ftz: false
            },
            [0x8000_0001, 0, 0, 0]
        ),
        1
    );
}

#[test]
fn min_max_float_nan_and_signed_zero() {
    let op = |max: bool, t, nan: bool, a, b| {
        let o = if max {
            Op::Max {
                ty: t,
                ftz: false,
                nan,
            }
        } else {
            Op::Min {
                ty: t,
                ftz: false,
                nan,
            }
        };
        d(o, [a, b, 0, 0])
    };
    let (one, nan, pz, nz) = (f32b(1.0), f32b(f32::NAN), f32b(0.0), f32b(-0.0));
    assert_eq!(op(false, Type::F32, false, one, nan), one); // NaN ignored
    assert_eq!(op(true, Type::F32, false, nan, one), one);
    assert_eq!(op(false, Type::F32, false, nan, nan), 0x7fff_ffff);
    assert_eq!(op(false, Type::F32, true, one, nan), 0x7fff_ffff); // .NaN propagates
    assert_eq!(op(true, Type::F32, true, nan, one), 0x7fff_ffff);
    assert_eq!(op(false, Type::F32, false, pz, nz), nz);
    assert_eq!(op(false, Type::F32, false, nz, pz), nz);
    assert_eq!(op(true, Type::F32, false, nz, pz), pz);
    assert_eq!(op(true, Type::F32, false, pz, nz), pz);
    assert_eq!(op(false, Type::F32, false, f32b(-3.0), one), f32b(-3.0));
    let (a, b) = (f64b(2.0), f64b(-7.5));
    assert_eq!(op(true, Type::F64, false, a, b), a);
    assert_eq!(op(false, Type::F64, false, a, b), b);
    assert_eq!(
        op(false, Type::F64, true, a, f64b(f64::NAN)),
        0xfff8_0000_0000_0000
    );
    // .ftz: a subnormal input is flushed before comparing.
    let m = d(
        Op::Min {
            ty: Type::F32,
            ftz: true,
            nan: false,
        },
        [0x8000_0001, pz, 0, 0],
    );
    assert_eq!(m, nz);
}

#[test]
fn approximate_forms() {
    let approx = Mods {
        precision: Precision::Approx,
        ..Mods::default()
    };
    let un = |op: Op, a| d(op, [a, 0, 0, 0]);
    let tr = |op: fn(Type, Mods) -> Op, x: f32| un(op(Type::F32, approx), f32b(x));
    let sin = |t, mods| Op::Sin { ty: t, mods };
    let cos = |t, mods| Op::Cos { ty: t, mods };
    let lg2 = |t, mods| Op::Lg2 { ty: t, mods };
    let ex2 = |t, mods| Op::Ex2 { ty: t, mods };
    assert_eq!(tr(sin, 0.0), 0);
    assert_eq!(tr(sin, -0.0), 0x8000_0000);
    assert_eq!(tr(cos, 0.0), f32b(1.0));
    assert_eq!(tr(lg2, 8.0), f32b(3.0));
    assert_eq!(tr(lg2, 0.0), f32b(f32::NEG_INFINITY));
    assert_eq!(tr(lg2, -1.0), 0x7fff_ffff);
    assert_eq!(tr(ex2, 10.0), f32b(1024.0));
    assert_eq!(tr(ex2, f32::NEG_INFINITY), 0);
    assert_eq!(tr(ex2, -0.5), f32b(std::f32::consts::FRAC_1_SQRT_2));
    assert_eq!(tr(sin, f32::INFINITY), 0x7fff_ffff);
    // sin(1) = 0.8414709848..., f32 nearest 0x3f576aa4.
    assert_eq!(tr(sin, 1.0), 0x3f57_6aa4);
    // ex2.approx.ftz: 2^-130 is subnormal and flushed.
    let ftz_approx = Mods {
        ftz: true,
        ..approx
    };
    assert_eq!(un(ex2(Type::F32, ftz_approx), f32b(-130.0)), 0);
    assert_eq!(un(ex2(Type::F32, approx), f32b(-130.0)), 0x0008_0000);
    // rcp/sqrt/rsqrt .approx.f32: correctly rounded values.
    assert_eq!(
        un(
            Op::Rcp {
                ty: Type::F32,
                mods: approx
            },
            f32b(4.0)
        ),
        f32b(0.25)
    );
    assert_eq!(
        un(
            Op::Sqrt {
                ty: Type::F32,
                mods: approx
            },
            f32b(2.0)
        ),
        0x3fb5_04f3
    );
    assert_eq!(
        un(
            Op::Rsqrt {
                ty: Type::F32,
                mods: approx
            },
            f32b(4.0)
        ),
        f32b(0.5)
    );
    assert_eq!(
        un(
            Op::Rsqrt {
                ty: Type::F32,
                mods: approx
            },
            f32b(0.0)
        ),
        f32b(f32::INFINITY)
    );
    assert_eq!(
        un(
            Op::Rsqrt {
                ty: Type::F64,
                mods: approx
            },
            f64b(0.25)
        ),
        f64b(2.0)
    );
    // rcp.approx.ftz.f64: result's low 32 bits are zero. 1/3 = 0x3fd5555555555555 -> 0x3fd55555_00000000.
    let rcp64 = un(
        Op::Rcp {
            ty: Type::F64,
            mods: ftz_approx,
        },
        f64b(3.0),
    );
    assert_eq!(rcp64, 0x3fd5_5555_0000_0000);
    // div.approx.f32 = a * (1/b); zero for |b| in [2^126, 2^128].
    let div = |a: f32, b: f32| {
        f32_op(
            Op::Div {
                ty: Type::F32,
                mods: approx,
            },
            a,
            b,
        )
    };
    assert_eq!(div(1.0, 4.0), f32b(0.25));
    assert_eq!(div(1e30, 2e38), 0);
    assert_eq!(div(6.0, 3.0), f32b(6.0 * (1.0 / 3.0)));
    let full = Mods {
        precision: Precision::Full,
        ..Mods::default()
    };
    assert_eq!(
        f32_op(
            Op::Div {
                ty: Type::F32,
                mods: full
            },
            1.0,
            3.0
        ),
        f32b(1.0 / 3.0)
    );
}

#[test]
fn rcp_ieee_directed() {
    let rcp = |r, x: f32| {
        d(
            Op::Rcp {
                ty: Type::F32,
                mods: rnd(Some(r)),
            },
            [f32b(x), 0, 0, 0],
        )
    };
    // 1/3 = 0.0101..b: 0x3eaaaaab (rn, rounds up), 0x3eaaaaaa (rz, rm).
    assert_eq!(rcp(Rounding::Rn, 3.0), 0x3eaa_aaab);
    assert_eq!(rcp(Rounding::Rz, 3.0), 0x3eaa_aaaa);
    assert_eq!(rcp(Rounding::Rm, -3.0), 0xbeaa_aaab);
    assert_eq!(rcp(Rounding::Rz, 0.0), 0x7f80_0000);
}

// ---------------------------------------------------------------- atomics

#[test]
fn atomic_updates() {
    let t: &[(AtomOp, Type, u64, u64, u64, u64)] = &[
        (AtomOp::Add, Type::U32, 0xffff_ffff, 2, 0, 1),
        (AtomOp::Add, Type::U64, u64::MAX, 2, 0, 1),
        (AtomOp::Add, Type::F32, f32b(1.5), f32b(2.25), 0, f32b(3.75)),
        (AtomOp::Add, Type::F32, 1, 1, 0, 0), // subnormals flushed
        (
            AtomOp::Add,
            Type::F64,
            f64b(0.1),
            f64b(0.2),
            0,
            f64b(0.1 + 0.2),
        ),
        (AtomOp::Min, Type::S32, 0xffff_ffff, 1, 0, 0xffff_ffff),
        (AtomOp::Min, Type::U32, 0xffff_ffff, 1, 0, 1),
        (AtomOp::Max, Type::S32, 0xffff_ffff, 1, 0, 1),
        (AtomOp::Max, Type::U64, 5, u64::MAX, 0, u64::MAX),
        (AtomOp::Max, Type::S64, 5, u64::MAX, 0, 5),
        (AtomOp::Inc, Type::U32, 4, 5, 0, 5),
        (AtomOp::Inc, Type::U32, 5, 5, 0, 0),
        (AtomOp::Inc, Type::U32, 9, 5, 0, 0),
        (AtomOp::Dec, Type::U32, 0, 5, 0, 5),
        (AtomOp::Dec, Type::U32, 9, 5, 0, 5),
        (AtomOp::Dec, Type::U32, 3, 5, 0, 2),
        (AtomOp::And, Type::B32, 0xff, 0x0f, 0, 0x0f),
        (AtomOp::Or, Type::B32, 0xf0, 0x0f, 0, 0xff),
        (AtomOp::Xor, Type::B64, u64::MAX, 1, 0, u64::MAX - 1),
        (AtomOp::Exch, Type::B32, 7, 0x1_0000_0009, 0, 9),
        (AtomOp::Cas, Type::B32, 7, 7, 11, 11),
        (AtomOp::Cas, Type::B32, 7, 8, 11, 7),
        (AtomOp::Cas, Type::B64, u64::MAX, u64::MAX, 3, 3),
    ];
    for &(op, ty, old, b, c, want) in t {
        assert_eq!(
            atomic(op, ty, old, b, c),
            want,
            "atom.{op:?}.{ty} {old:#x} {b:#x} {c:#x}"
        );
    }
}

#[test]
fn memory_control_and_warp_instructions_are_not_lane_wise() {
    assert_eq!(eval(&Op::Exit, [0; 4]), None);
    assert_eq!(eval(&Op::Activemask, [0; 4]), None);
    assert_eq!(eval(&Op::Bra { uni: false }, [0; 4]), None);
}

// ---------------------------------------------------------------- properties

/// A small xorshift64* generator: reproducible, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Float bits with exponents concentrated where rounding is interesting.
    fn float(&mut self, t: Type) -> u64 {
        let r = self.next();
        let (fb, eb) = if t == Type::F32 { (23, 8) } else { (52, 11) };
        let bias = (1u64 << (eb - 1)) - 1;
        let e = match r % 8 {
            0 => 0,
            1 => 1 + (r >> 8) % 3,
            2 => (r >> 8) % ((1 << eb) - 1),
            _ => bias - 30 + (r >> 8) % 60,
        };
        let sign = (r >> 63) << (fb + eb);
        let frac = self.next() & ((1u64 << fb) - 1);
        sign | (e << fb) | frac
    }
}

fn value(t: Type, bits: u64) -> f64 {
    if t == Type::F32 {
        f64::from(f32::from_bits(bits as u32))
    } else {
        f64::from_bits(bits)
    }
}

#[test]
fn directed_roundings_bracket_round_to_nearest() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let r = |x| Some(x);
    for i in 0..40_000 {
        let t = if i % 2 == 0 { Type::F32 } else { Type::F64 };
        let (a, b, c) = (rng.float(t), rng.float(t), rng.float(t));
        let which = i % 6;
        let run = |round| {
            let mods = rnd(round);
            let op = match which {
                0 => Op::Add { ty: t, mods },
                1 => Op::Mul {
                    ty: t,
                    part: None,
                    mods,
                },
                2 => Op::Div { ty: t, mods },
                3 => Op::Fma { ty: t, mods },
                4 => Op::Sqrt { ty: t, mods },
                _ => Op::Sub { ty: t, mods },
            };
            value(t, d(op, [a, b, c, 0]))
        };
        let (rn, rz, rm, rp) = (
            run(r(Rounding::Rn)),
            run(r(Rounding::Rz)),
            run(r(Rounding::Rm)),
            run(r(Rounding::Rp)),
        );
        if rn.is_nan() {
            assert!(
                rz.is_nan() && rm.is_nan() && rp.is_nan(),
                "op {which} {t} {a:#x} {b:#x} {c:#x}"
            );
            continue;
        }
        let ctx =
            format!("op {which} {t} {a:#x} {b:#x} {c:#x}: rn {rn:e} rz {rz:e} rm {rm:e} rp {rp:e}");
        assert!(rm <= rn && rn <= rp, "{ctx}");
        assert!(rz.abs() <= rn.abs(), "{ctx}");
        // rz is rm for a non-negative exact value, rp for a non-positive one.
        if rm >= 0.0 {
            assert_eq!(rz, rm, "{ctx}");
        } else if rp <= 0.0 {
            assert_eq!(rz, rp, "{ctx}");
        }
        // rm and rp are equal (exact) or neighbours.
        if rm != rp {
            let (lo, hi) = (d_bits(t, rm), d_bits(t, rp));
            let step = if rm >= 0.0 {
                hi.wrapping_sub(lo)
            } else {
                lo.wrapping_sub(hi)
            };
            assert_eq!(step, 1, "{ctx}");
        }
    }
}

fn d_bits(t: Type, x: f64) -> u64 {
    if t == Type::F32 {
        u64::from((x as f32).to_bits())
    } else {
        x.to_bits()
    }
}

#[test]
fn no_panic_on_arbitrary_bits() {
    use warpstep::ptx::ops::{Precision as P, Rounding as R};
    let mut rng = Rng(12345);
    let types = Type::ALL;
    let rounds = [
        None,
        Some(R::Rn),
        Some(R::Rz),
        Some(R::Rm),
        Some(R::Rp),
        Some(R::Rni),
        Some(R::Rzi),
        Some(R::Rmi),
        Some(R::Rpi),
    ];
    for i in 0..60_000u64 {
        let t = types[(rng.next() % types.len() as u64) as usize];
        let t2 = types[(rng.next() % types.len() as u64) as usize];
        let round = rounds[(rng.next() % rounds.len() as u64) as usize];
        let mods = Mods {
            round,
            ftz: rng.next() & 1 == 1,
            sat: rng.next() & 1 == 1,
            precision: [P::Ieee, P::Approx, P::Full][(rng.next() % 3) as usize],
        };
        let flag = rng.next() & 1 == 1;
        let part = [
            None,
            Some(MulPart::Lo),
            Some(MulPart::Hi),
            Some(MulPart::Wide),
        ][(rng.next() % 4) as usize];
        let ops = [
            Op::Add { ty: t, mods },
            Op::Sub { ty: t, mods },
            Op::Mul { ty: t, part, mods },
            Op::Mad { ty: t, part, mods },
            Op::Mul24 { ty: t, hi: flag },
            Op::Mad24 {
                ty: t,
                hi: flag,
                sat: mods.sat,
            },
            Op::Fma { ty: t, mods },
            Op::Div { ty: t, mods },
            Op::Rem { ty: t },
            Op::Abs { ty: t, ftz: flag },
            Op::Neg { ty: t, ftz: flag },
            Op::Min {
                ty: t,
                ftz: flag,
                nan: mods.sat,
            },
            Op::Max {
                ty: t,
                ftz: flag,
                nan: mods.sat,
            },
            Op::Shl { ty: t },
            Op::Shr { ty: t },
            Op::Popc { ty: t },
            Op::Clz { ty: t },
            Op::Brev { ty: t },
            Op::Bfe { ty: t },
            Op::Bfi { ty: t },
            Op::Prmt { mode: None },
            Op::Cvt {
                dty: t,
                sty: t2,
                round,
                ftz: flag,
                sat: mods.sat,
            },
            Op::Setp {
                cmp: ALL_CMPS[(i % 18) as usize],
                combine: Some(BoolOp::Xor),
                ty: t,
                ftz: flag,
            },
            Op::Set {
                cmp: ALL_CMPS[(i % 18) as usize],
                combine: None,
                dty: t2,
                sty: t,
                ftz: flag,
            },
            Op::Slct {
                dty: t,
                sty: t2,
                ftz: flag,
            },
            Op::Rcp { ty: t, mods },
            Op::Sqrt { ty: t, mods },
            Op::Rsqrt { ty: t, mods },
            Op::Sin { ty: t, mods },
            Op::Ex2 { ty: t, mods },
        ];
        let op = ops[(rng.next() % ops.len() as u64) as usize];
        let srcs = [
            rng.next(),
            rng.next() >> (rng.next() % 64),
            rng.next() % 300,
            rng.next(),
        ];
        let out = eval(&op, srcs).expect("lane-wise");
        // The destination never has bits above its width.
        let width = match op {
            Op::Setp { .. } => 1,
            Op::Set { .. } => 32,
            Op::Cvt { dty, .. } => dty.bits(),
            Op::Popc { .. } | Op::Clz { .. } => 32,
            Op::Mul {
                part: Some(MulPart::Wide),
                ty,
                ..
            }
            | Op::Mad {
                part: Some(MulPart::Wide),
                ty,
                ..
            } if !ty.is_float() => (2 * ty.bits()).min(64),
            Op::Mul24 { .. } | Op::Mad24 { .. } | Op::Prmt { .. } => 32,
            Op::Slct { dty, .. } => dty.bits(),
            // Float-only instructions: any type but .f64 is read as .f32.
            Op::Fma { .. }
            | Op::Rcp { .. }
            | Op::Sqrt { .. }
            | Op::Rsqrt { .. }
            | Op::Sin { .. }
            | Op::Ex2 { .. } => {
                if t == Type::F64 {
                    64
                } else {
                    32
                }
            }
            _ => t.bits(),
        };
        if width < 64 {
            assert_eq!(out.d >> width, 0, "{op:?} {srcs:x?} -> {:#x}", out.d);
        }
        let _ = atomic(AtomOp::Dec, t, srcs[0], srcs[1], srcs[2]);
    }
}
