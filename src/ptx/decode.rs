//! Opcode decoding: a mnemonic and its `.modifiers` to a typed [`Op`] (PTX ISA "Instructions").
//!
//! Modifiers are matched by name, in any order (compilers emit the ISA's order; accepting any
//! order costs nothing), each at most once. What a decoder does not consume is an error, so an
//! unsupported modifier (`add.cc`, `ld.global.L1::evict_last`) is reported, never ignored.
//! Type rules follow the ISA's syntax blocks for each instruction.
//!
//! This module holds the dispatch on the mnemonic; the decoders of each family of
//! instructions are in [`super::decode_memory`], [`super::decode_arith`] and
//! [`super::decode_sync`], and what they share in [`super::decode_modifiers`].

use super::decode_arith::{
    decode_24, decode_abs_neg, decode_add_sub, decode_bits, decode_compare, decode_cvt, decode_div,
    decode_fma, decode_logic, decode_math, decode_min_max, decode_mul_mad, decode_prmt,
    decode_shift, decode_slct,
};
use super::decode_memory::{decode_atom, decode_cvta, decode_ld, decode_ldu, decode_st};
pub use super::decode_modifiers::DecodeError;
use super::decode_modifiers::{ModList, Res, INT_TYPES, MOV_TYPES, SELP_TYPES};
use super::decode_sync::{
    decode_bar, decode_fence, decode_match, decode_membar, decode_shfl, decode_vote,
};
use super::ops::Op;
use super::types::Type;

/// Instructions PTX defines that warpstep does not run: named "unsupported" rather than
/// "unknown" in errors.
const KNOWN_UNSUPPORTED: [&str; 40] = [
    "addc",
    "subc",
    "mad.cc",
    "madc",
    "sad",
    "testp",
    "copysign",
    "tanh",
    "ex2.approx.f16",
    "tex",
    "tld4",
    "txq",
    "suld",
    "sust",
    "sured",
    "suq",
    "trap",
    "brkpt",
    "nanosleep",
    "pmevent",
    "prefetch",
    "prefetchu",
    "isspacep",
    "cvt.pack",
    "mma",
    "wmma",
    "ldmatrix",
    "stmatrix",
    "cp",
    "mbarrier",
    "redux",
    "elect",
    "griddepcontrol",
    "alloca",
    "stacksave",
    "stackrestore",
    "brx",
    "istypep",
    "dp4a",
    "dp2a",
];

/// Whether `mnemonic` is a PTX instruction that warpstep knows but does not run.
pub fn is_known_unsupported(mnemonic: &str) -> bool {
    KNOWN_UNSUPPORTED.contains(&mnemonic)
        || matches!(
            mnemonic,
            "nop" | "bmsk" | "szext" | "fns" | "shf" | "lop3" | "vadd" | "vmad" | "applypriority"
        )
}

/// Decode `mnemonic` (`"ld"`) with its modifiers without dots (`["global", "v2", "f32"]`).
pub fn decode(mnemonic: &str, modifiers: &[&str]) -> Res<Op> {
    let mut m = ModList::new(modifiers);
    let op = match mnemonic {
        "mov" => Op::Mov {
            ty: m.one_type(MOV_TYPES)?,
        },
        "ld" => decode_ld(&mut m)?,
        "ldu" => decode_ldu(&mut m)?,
        "st" => decode_st(&mut m)?,
        "cvta" => decode_cvta(&mut m)?,
        "add" | "sub" => decode_add_sub(mnemonic, &mut m)?,
        "mul" | "mad" => decode_mul_mad(mnemonic, &mut m)?,
        "mul24" | "mad24" => decode_24(mnemonic, &mut m)?,
        "fma" => decode_fma(&mut m)?,
        "div" => decode_div(&mut m)?,
        "rem" => Op::Rem {
            ty: m.one_type(INT_TYPES)?,
        },
        "abs" | "neg" => decode_abs_neg(mnemonic, &mut m)?,
        "min" | "max" => decode_min_max(mnemonic, &mut m)?,
        "and" | "or" | "xor" | "not" | "cnot" => decode_logic(mnemonic, &mut m)?,
        "shl" | "shr" => decode_shift(mnemonic, &mut m)?,
        "popc" | "clz" | "brev" | "bfi" => decode_bits(mnemonic, &mut m)?,
        "bfe" => Op::Bfe {
            ty: m.one_type(&[Type::U32, Type::U64, Type::S32, Type::S64])?,
        },
        "prmt" => decode_prmt(&mut m)?,
        "setp" | "set" => decode_compare(mnemonic, &mut m)?,
        "selp" => Op::Selp {
            ty: m.one_type(SELP_TYPES)?,
        },
        "slct" => decode_slct(&mut m)?,
        "cvt" => decode_cvt(&mut m)?,
        "rcp" | "sqrt" | "rsqrt" | "sin" | "cos" | "lg2" | "ex2" => decode_math(mnemonic, &mut m)?,
        "bra" => Op::Bra { uni: m.flag("uni") },
        "call" => Op::Call { uni: m.flag("uni") },
        "ret" => Op::Ret { uni: m.flag("uni") },
        "exit" => Op::Exit,
        "bar" | "barrier" => decode_bar(mnemonic, &mut m)?,
        "membar" => decode_membar(&mut m)?,
        "fence" => decode_fence(&mut m)?,
        "atom" | "red" => decode_atom(mnemonic, &mut m)?,
        "vote" => decode_vote(&mut m)?,
        "shfl" => decode_shfl(&mut m)?,
        "activemask" => {
            m.one_type(&[Type::B32])?;
            Op::Activemask
        }
        "match" => decode_match(&mut m)?,
        _ => return Err(DecodeError::UnsupportedInstruction),
    };
    m.finish()?;
    Ok(op)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::ops::{
        AtomOp, BarKind, BoolOp, CacheOp, Cmp, CvtaDir, MemSem, Mods, MulPart, Precision, Rounding,
        ShflMode, VecWidth,
    };
    use crate::ptx::types::Space;

    fn d(s: &str) -> Res<Op> {
        let mut parts = s.split('.');
        let mn = parts.next().unwrap_or_default();
        let mods: Vec<&str> = parts.collect();
        decode(mn, &mods)
    }

    #[test]
    fn decodes_memory_ops() {
        assert_eq!(
            d("ld.global.nc.v4.f32"),
            Ok(Op::Ld {
                space: Space::Global,
                ty: Type::F32,
                vec: VecWidth::V4,
                cache: CacheOp::Default,
                sem: MemSem::Weak,
                nc: true
            })
        );
        assert!(matches!(
            d("ld.volatile.shared.u32"),
            Ok(Op::Ld {
                sem: MemSem::Volatile,
                ..
            })
        ));
        assert!(matches!(
            d("cvta.to.global.u64"),
            Ok(Op::Cvta {
                dir: CvtaDir::FromGeneric,
                space: Space::Global,
                ..
            })
        ));
        assert!(d("ld.shared.nc.u32").is_err());
        assert!(d("st.const.u32").is_err());
    }

    #[test]
    fn decodes_arithmetic() {
        assert!(matches!(
            d("mul.wide.s32"),
            Ok(Op::Mul {
                part: Some(MulPart::Wide),
                ty: Type::S32,
                ..
            })
        ));
        assert!(d("mul.s32").is_err());
        assert!(d("mul.wide.s64").is_err());
        assert!(matches!(d("div.rn.f32"), Ok(Op::Div { .. })));
        assert!(matches!(
            d("div.f32"),
            Ok(Op::Div {
                mods: Mods {
                    precision: Precision::Approx,
                    ..
                },
                ..
            })
        ));
        assert!(d("fma.f32").is_err());
        assert!(d("add.cc.u32").is_err());
        assert!(matches!(
            d("cvt.rzi.s32.f32"),
            Ok(Op::Cvt {
                round: Some(Rounding::Rzi),
                ..
            })
        ));
        assert!(d("cvt.rzi.f32.s32").is_err());
    }

    #[test]
    fn decodes_compare_and_warp_ops() {
        assert!(matches!(
            d("setp.ltu.and.f32"),
            Ok(Op::Setp {
                cmp: Cmp::Ltu,
                combine: Some(BoolOp::And),
                ..
            })
        ));
        assert!(d("setp.ltu.s32").is_err());
        assert!(matches!(d("set.eq.u32.s32"), Ok(Op::Set { .. })));
        assert!(matches!(
            d("shfl.sync.bfly.b32"),
            Ok(Op::Shfl {
                mode: ShflMode::Bfly,
                sync: true
            })
        ));
        assert!(matches!(d("bar.warp.sync"), Ok(Op::BarWarpSync)));
        assert!(matches!(
            d("barrier.sync.aligned"),
            Ok(Op::Bar {
                kind: BarKind::Sync,
                aligned: true
            })
        ));
        assert!(matches!(
            d("atom.shared.cas.b32"),
            Ok(Op::Atom {
                op: AtomOp::Cas,
                ..
            })
        ));
        assert!(d("red.global.cas.b32").is_err());
        assert_eq!(
            d("tex.2d.v4.f32.f32"),
            Err(DecodeError::UnsupportedInstruction)
        );
    }
}
