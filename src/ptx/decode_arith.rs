//! Decoders of the arithmetic instructions: integer and floating-point arithmetic, logic and
//! shifts, bit manipulation, `prmt`, comparison and selection (`setp`, `set`, `slct`),
//! `cvt`, and the special functions (PTX ISA "Integer Arithmetic", "Floating-Point",
//! "Comparison and Selection", "Logic and Shift", "Data Movement and Conversion: cvt").

use super::decode_modifiers::{
    invalid, ModList, Res, CVT_TYPES, FLOAT_TYPES, INT_TYPES, SELP_TYPES,
};
use super::ops::{BoolOp, Cmp, Mods, MulPart, Op, Precision, PrmtMode, Rounding};
use super::types::Type;

/// Rounding, `.ftz`, `.sat`, checked against the type: integers take only `.sat` (on `.s32`,
/// when `sat_ok`), `.f64` takes only rounding.
fn arith_mods(m: &mut ModList, ty: Type, sat_ok: bool) -> Res<Mods> {
    let mods = Mods {
        round: m.round(),
        ftz: m.flag("ftz"),
        sat: m.flag("sat"),
        precision: Precision::Ieee,
    };
    if ty.is_int() {
        if mods.round.is_some() || mods.ftz {
            return invalid("rounding and `.ftz` apply to floating-point types only");
        }
        if mods.sat && !(sat_ok && ty == Type::S32) {
            return invalid("`.sat` on an integer needs `.s32`");
        }
    } else if ty == Type::F64 && (mods.ftz || mods.sat) {
        return invalid("`.ftz` and `.sat` apply to `.f32` only");
    }
    Ok(mods)
}

pub(super) fn decode_add_sub(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let ty = m.one_type(&[INT_TYPES, FLOAT_TYPES].concat())?;
    let mods = arith_mods(m, ty, true)?;
    Ok(if mnemonic == "add" {
        Op::Add { ty, mods }
    } else {
        Op::Sub { ty, mods }
    })
}

fn mul_part(m: &mut ModList) -> Option<MulPart> {
    m.take(|p| match p {
        "lo" => Some(MulPart::Lo),
        "hi" => Some(MulPart::Hi),
        "wide" => Some(MulPart::Wide),
        _ => None,
    })
}

pub(super) fn decode_mul_mad(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let part = mul_part(m);
    let ty = m.one_type(&[INT_TYPES, FLOAT_TYPES].concat())?;
    let is_mad = mnemonic == "mad";
    let mods = if ty.is_int() {
        let Some(p) = part else {
            return invalid(format!(
                "integer `{mnemonic}` needs `.lo`, `.hi` or `.wide`"
            ));
        };
        if p == MulPart::Wide && ty.widened().is_none() {
            return invalid("`.wide` needs a 16- or 32-bit type");
        }
        let mods = arith_mods(m, ty, is_mad)?;
        if mods.sat && p != MulPart::Hi {
            return invalid("`mad.sat` needs `.hi.s32`");
        }
        mods
    } else {
        if part.is_some() {
            return invalid("`.lo`/`.hi`/`.wide` apply to integer types only");
        }
        arith_mods(m, ty, false)?
    };
    Ok(if is_mad {
        Op::Mad { ty, part, mods }
    } else {
        Op::Mul { ty, part, mods }
    })
}

pub(super) fn decode_24(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let hi = match mul_part(m) {
        Some(MulPart::Lo) => false,
        Some(MulPart::Hi) => true,
        _ => return invalid(format!("`{mnemonic}` needs `.lo` or `.hi`")),
    };
    let sat = m.flag("sat");
    let ty = m.one_type(&[Type::U32, Type::S32])?;
    if mnemonic == "mul24" {
        if sat {
            return invalid("`mul24` has no `.sat`");
        }
        return Ok(Op::Mul24 { ty, hi });
    }
    if sat && !(hi && ty == Type::S32) {
        return invalid("`mad24.sat` needs `.hi.s32`");
    }
    Ok(Op::Mad24 { ty, hi, sat })
}

pub(super) fn decode_fma(m: &mut ModList) -> Res<Op> {
    let ty = m.one_type(FLOAT_TYPES)?;
    let mods = arith_mods(m, ty, false)?;
    if mods.round.is_none() {
        return invalid("`fma` needs a rounding modifier `.rn`, `.rz`, `.rm` or `.rp`");
    }
    Ok(Op::Fma { ty, mods })
}

/// `.approx` / `.full` for f32 divide and transcendentals.
fn precision(m: &mut ModList) -> Precision {
    if m.flag("approx") {
        Precision::Approx
    } else if m.flag("full") {
        Precision::Full
    } else {
        Precision::Ieee
    }
}

pub(super) fn decode_div(m: &mut ModList) -> Res<Op> {
    let prec = precision(m);
    let ty = m.one_type(&[INT_TYPES, FLOAT_TYPES].concat())?;
    if ty.is_int() {
        if prec != Precision::Ieee {
            return invalid("`.approx`/`.full` apply to `.f32` only");
        }
        return Ok(Op::Div {
            ty,
            mods: arith_mods(m, ty, false)?,
        });
    }
    let mut mods = arith_mods(m, ty, false)?;
    if mods.sat {
        return invalid("`div` has no `.sat`");
    }
    mods.precision = prec;
    legacy_float_default(ty, &mut mods, "div")?;
    Ok(Op::Div { ty, mods })
}

/// Check precision against rounding and fill the legacy defaults: PTX ISA 1.x allowed
/// `div.f32`/`rcp.f32`/`sqrt.f32` with no modifier, meaning `.approx` on f32, and `.f64` forms
/// without rounding meaning `.rn`.
fn legacy_float_default(ty: Type, mods: &mut Mods, mnemonic: &str) -> Res<()> {
    match (mods.precision, mods.round) {
        (Precision::Ieee, None) if ty == Type::F32 => mods.precision = Precision::Approx,
        (Precision::Ieee, None) => mods.round = Some(Rounding::Rn),
        (Precision::Ieee, Some(_)) => {}
        (_, Some(_)) => return invalid("`.approx`/`.full` exclude a rounding modifier"),
        (Precision::Full, None) if ty != Type::F32 || mnemonic != "div" => {
            return invalid("`.full` is only `div.full.f32`")
        }
        (Precision::Approx, None) if ty == Type::F64 && mnemonic == "div" => {
            return invalid("`div.approx` is `.f32` only")
        }
        _ => {}
    }
    Ok(())
}

pub(super) fn decode_abs_neg(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let ftz = m.flag("ftz");
    let ty = m.one_type(&[Type::S16, Type::S32, Type::S64, Type::F32, Type::F64])?;
    if ftz && ty != Type::F32 {
        return invalid("`.ftz` applies to `.f32` only");
    }
    Ok(if mnemonic == "abs" {
        Op::Abs { ty, ftz }
    } else {
        Op::Neg { ty, ftz }
    })
}

pub(super) fn decode_min_max(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let ftz = m.flag("ftz");
    let nan = m.flag("NaN");
    let ty = m.one_type(&[INT_TYPES, FLOAT_TYPES].concat())?;
    if (ftz && ty != Type::F32) || (nan && !ty.is_float()) {
        return invalid("`.ftz` applies to `.f32`, `.NaN` to floating-point types only");
    }
    Ok(if mnemonic == "min" {
        Op::Min { ty, ftz, nan }
    } else {
        Op::Max { ty, ftz, nan }
    })
}

pub(super) fn decode_logic(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let bits = [Type::B16, Type::B32, Type::B64];
    let ty = if mnemonic == "cnot" {
        m.one_type(&bits)?
    } else {
        m.one_type(&[&bits[..], &[Type::Pred]].concat())?
    };
    Ok(match mnemonic {
        "and" => Op::And { ty },
        "or" => Op::Or { ty },
        "xor" => Op::Xor { ty },
        "not" => Op::Not { ty },
        _ => Op::Cnot { ty },
    })
}

pub(super) fn decode_shift(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let bits = [Type::B16, Type::B32, Type::B64];
    Ok(if mnemonic == "shl" {
        Op::Shl {
            ty: m.one_type(&bits)?,
        }
    } else {
        Op::Shr {
            ty: m.one_type(&[&bits[..], INT_TYPES].concat())?,
        }
    })
}

pub(super) fn decode_bits(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let ty = m.one_type(&[Type::B32, Type::B64])?;
    Ok(match mnemonic {
        "popc" => Op::Popc { ty },
        "clz" => Op::Clz { ty },
        "brev" => Op::Brev { ty },
        _ => Op::Bfi { ty },
    })
}

pub(super) fn decode_prmt(m: &mut ModList) -> Res<Op> {
    let mode = m.take(|p| match p {
        "f4e" => Some(PrmtMode::F4e),
        "b4e" => Some(PrmtMode::B4e),
        "rc8" => Some(PrmtMode::Rc8),
        "ecl" => Some(PrmtMode::Ecl),
        "ecr" => Some(PrmtMode::Ecr),
        "rc16" => Some(PrmtMode::Rc16),
        _ => None,
    });
    m.one_type(&[Type::B32])?;
    Ok(Op::Prmt { mode })
}

pub(super) fn decode_compare(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let Some(cmp) = m.take(Cmp::from_name) else {
        return invalid(format!("`{mnemonic}` needs a comparison such as `.lt`"));
    };
    let combine = m.take(BoolOp::from_name);
    let ftz = m.flag("ftz");
    let types = m.types();
    let (dty, sty) = match (mnemonic, types.as_slice()) {
        ("setp", [t]) => (Type::Pred, *t),
        ("set", [d, s]) => (*d, *s),
        ("setp", _) => return invalid("`setp` needs exactly one type"),
        _ => return invalid("`set` needs a destination and a source type"),
    };
    if !SELP_TYPES.contains(&sty) {
        return invalid(format!("cannot compare `{sty}` values"));
    }
    if mnemonic == "set" && !matches!(dty, Type::U32 | Type::S32 | Type::F32) {
        return invalid("`set` destination type must be `.u32`, `.s32` or `.f32`");
    }
    if cmp.is_float_only() && !sty.is_float() {
        return invalid("unordered comparisons apply to floating-point types only");
    }
    if cmp.is_unsigned_only() && sty.is_float() {
        return invalid("`.lo/.ls/.hi/.hs` apply to integer types only");
    }
    if ftz && sty != Type::F32 {
        return invalid("`.ftz` applies to `.f32` only");
    }
    Ok(if mnemonic == "setp" {
        Op::Setp {
            cmp,
            combine,
            ty: sty,
            ftz,
        }
    } else {
        Op::Set {
            cmp,
            combine,
            dty,
            sty,
            ftz,
        }
    })
}

pub(super) fn decode_slct(m: &mut ModList) -> Res<Op> {
    let ftz = m.flag("ftz");
    let types = m.types();
    let [dty, sty] = types.as_slice() else {
        return invalid("`slct` needs a destination and a source type");
    };
    if !SELP_TYPES.contains(dty) || !matches!(sty, Type::S32 | Type::F32) {
        return invalid("`slct` types are `.dtype.s32` or `.dtype.f32`");
    }
    if ftz && *sty != Type::F32 {
        return invalid("`.ftz` needs `.f32` as the selector type");
    }
    Ok(Op::Slct {
        dty: *dty,
        sty: *sty,
        ftz,
    })
}

pub(super) fn decode_cvt(m: &mut ModList) -> Res<Op> {
    let round = m.take(Rounding::from_name);
    let ftz = m.flag("ftz");
    let sat = m.flag("sat");
    let types = m.types();
    let [dty, sty] = types.as_slice() else {
        return invalid("`cvt` needs a destination and a source type");
    };
    let (dty, sty) = (*dty, *sty);
    if !CVT_TYPES.contains(&dty) || !CVT_TYPES.contains(&sty) {
        return invalid(format!("cannot convert `{sty}` to `{dty}`"));
    }
    if let Some(r) = round {
        // `.rni`.. round a float to an integral value; `.rn`.. round to a float result.
        let ok = if r.is_integral() {
            sty.is_float()
        } else {
            dty.is_float()
        };
        if !ok {
            return invalid("this rounding modifier does not apply to this conversion");
        }
    }
    if ftz && !(dty == Type::F32 || sty == Type::F32) {
        return invalid("`.ftz` needs an `.f32` operand");
    }
    Ok(Op::Cvt {
        dty,
        sty,
        round,
        ftz,
        sat,
    })
}

pub(super) fn decode_math(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let prec = precision(m);
    let round = m.round();
    let ftz = m.flag("ftz");
    let ty = m.one_type(FLOAT_TYPES)?;
    let mut mods = Mods {
        round,
        ftz,
        sat: false,
        precision: prec,
    };
    if ftz && ty != Type::F32 && !(mods.precision == Precision::Approx && ty == Type::F64) {
        return invalid("`.ftz` applies to `.f32` (and `.approx.f64`) only");
    }
    match mnemonic {
        "rcp" | "sqrt" => legacy_float_default(ty, &mut mods, mnemonic)?,
        _ => {
            if round.is_some() || prec == Precision::Full {
                return invalid(format!("`{mnemonic}` is `.approx` only"));
            }
            if ty == Type::F64 && mnemonic != "rsqrt" {
                return invalid(format!("`{mnemonic}` is `.f32` only"));
            }
            mods.precision = Precision::Approx;
        }
    }
    Ok(match mnemonic {
        "rcp" => Op::Rcp { ty, mods },
        "sqrt" => Op::Sqrt { ty, mods },
        "rsqrt" => Op::Rsqrt { ty, mods },
        "sin" => Op::Sin { ty, mods },
        "cos" => Op::Cos { ty, mods },
        "lg2" => Op::Lg2 { ty, mods },
        _ => Op::Ex2 { ty, mods },
    })
}
