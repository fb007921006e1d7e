//! Opcode decoding: a mnemonic and its `.modifiers` to a typed [`Op`] (PTX ISA "Instructions").
//!
//! Modifiers are matched by name, in any order (compilers emit the ISA's order; accepting any
//! order costs nothing), each at most once. What a decoder does not consume is an error, so an
//! unsupported modifier (`add.cc`, `ld.global.L1::evict_last`) is reported, never ignored.
//! Type rules follow the ISA's syntax blocks for each instruction.

use super::ops::{
    AtomOp, AtomSem, BarKind, BoolOp, CacheOp, Cmp, CvtaDir, FenceSem, MatchMode, MemSem, Mods,
    MulPart, Op, Precision, PrmtMode, Rounding, Scope, ShflMode, VecWidth, VoteMode,
};
use super::types::{Space, Type};

/// Why decoding failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// The mnemonic is not an instruction warpstep runs.
    UnsupportedInstruction,
    /// The mnemonic is supported but this modifier/type combination is not (message says why).
    Invalid(String),
}

type Res<T> = Result<T, DecodeError>;

fn invalid<T>(msg: impl Into<String>) -> Res<T> {
    Err(DecodeError::Invalid(msg.into()))
}

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

const INT_TYPES: &[Type] = &[
    Type::U16,
    Type::U32,
    Type::U64,
    Type::S16,
    Type::S32,
    Type::S64,
];
const FLOAT_TYPES: &[Type] = &[Type::F32, Type::F64];
const MOV_TYPES: &[Type] = &[
    Type::Pred,
    Type::B16,
    Type::B32,
    Type::B64,
    Type::U16,
    Type::U32,
    Type::U64,
    Type::S16,
    Type::S32,
    Type::S64,
    Type::F32,
    Type::F64,
];
const SELP_TYPES: &[Type] = &[
    Type::B16,
    Type::B32,
    Type::B64,
    Type::U16,
    Type::U32,
    Type::U64,
    Type::S16,
    Type::S32,
    Type::S64,
    Type::F32,
    Type::F64,
];
const MEM_TYPES: &[Type] = &[
    Type::B8,
    Type::B16,
    Type::B32,
    Type::B64,
    Type::U8,
    Type::U16,
    Type::U32,
    Type::U64,
    Type::S8,
    Type::S16,
    Type::S32,
    Type::S64,
    Type::F32,
    Type::F64,
];
const CVT_TYPES: &[Type] = &[
    Type::U8,
    Type::U16,
    Type::U32,
    Type::U64,
    Type::S8,
    Type::S16,
    Type::S32,
    Type::S64,
    Type::F32,
    Type::F64,
];

/// The modifiers of one instruction, with a record of which have been consumed.
struct ModList<'a> {
    items: Vec<(&'a str, bool)>,
}

impl<'a> ModList<'a> {
    fn new(modifiers: &[&'a str]) -> ModList<'a> {
        ModList {
            items: modifiers.iter().map(|m| (*m, false)).collect(),
        }
    }

    /// Consume `name` if present.
    fn flag(&mut self, name: &str) -> bool {
        self.take(|m| (m == name).then_some(())).is_some()
    }

    /// Consume the first unconsumed modifier that `parse` accepts.
    fn take<T>(&mut self, parse: impl Fn(&str) -> Option<T>) -> Option<T> {
        for (m, used) in self.items.iter_mut() {
            if *used {
                continue;
            }
            if let Some(v) = parse(m) {
                *used = true;
                return Some(v);
            }
        }
        None
    }

    /// All unconsumed type modifiers, in order.
    fn types(&mut self) -> Vec<Type> {
        let mut out = Vec::new();
        while let Some(t) = self.take(Type::from_name) {
            out.push(t);
        }
        out
    }

    /// Exactly one type, from `allowed`.
    fn one_type(&mut self, allowed: &[Type]) -> Res<Type> {
        let types = self.types();
        match types.as_slice() {
            [t] if allowed.contains(t) => Ok(*t),
            [t] => invalid(format!("type `{t}` is not allowed here")),
            [] => invalid("missing type"),
            _ => invalid("more than one type"),
        }
    }

    fn round(&mut self) -> Option<Rounding> {
        self.take(|m| Rounding::from_name(m).filter(|r| !r.is_integral()))
    }

    fn space(&mut self) -> Space {
        self.take(Space::from_name).unwrap_or(Space::Generic)
    }

    fn vec(&mut self) -> VecWidth {
        self.take(|m| match m {
            "v2" => Some(VecWidth::V2),
            "v4" => Some(VecWidth::V4),
            _ => None,
        })
        .unwrap_or_default()
    }

    fn scope(&mut self) -> Option<Scope> {
        self.take(Scope::from_name)
    }

    /// Error on the first modifier nobody consumed.
    fn finish(&self) -> Res<()> {
        match self.items.iter().find(|(_, used)| !used) {
            Some((m, _)) => invalid(format!("modifier `.{m}` is not supported here")),
            None => Ok(()),
        }
    }
}

fn decode_ld(m: &mut ModList) -> Res<Op> {
    let sem = mem_sem(m, "acquire")?;
    let space = m.space();
    let cache = m
        .take(|c| match c {
            "ca" => Some(CacheOp::Ca),
            "cg" => Some(CacheOp::Cg),
            "cs" => Some(CacheOp::Cs),
            "lu" => Some(CacheOp::Lu),
            "cv" => Some(CacheOp::Cv),
            _ => None,
        })
        .unwrap_or_default();
    let nc = m.flag("nc");
    if nc && space != Space::Global {
        return invalid("`.nc` needs `.global`");
    }
    let vec = m.vec();
    let ty = m.one_type(MEM_TYPES)?;
    Ok(Op::Ld {
        space,
        ty,
        vec,
        cache,
        sem,
        nc,
    })
}

fn decode_ldu(m: &mut ModList) -> Res<Op> {
    let space = m.space();
    if !matches!(space, Space::Global | Space::Generic) {
        return invalid("`ldu` reads `.global` memory only");
    }
    let vec = m.vec();
    let ty = m.one_type(MEM_TYPES)?;
    Ok(Op::Ldu { space, ty, vec })
}

fn decode_st(m: &mut ModList) -> Res<Op> {
    let sem = mem_sem(m, "release")?;
    let space = m.space();
    if space == Space::Const {
        return invalid("`.const` memory cannot be stored to");
    }
    let cache = m
        .take(|c| match c {
            "wb" => Some(CacheOp::Wb),
            "cg" => Some(CacheOp::Cg),
            "cs" => Some(CacheOp::Cs),
            "wt" => Some(CacheOp::Wt),
            _ => None,
        })
        .unwrap_or_default();
    let vec = m.vec();
    let ty = m.one_type(MEM_TYPES)?;
    Ok(Op::St {
        space,
        ty,
        vec,
        cache,
        sem,
    })
}

/// `.weak`, `.volatile`, `.relaxed.scope` or `.{acquire,release}.scope` on `ld`/`st`.
fn mem_sem(m: &mut ModList, ordered: &str) -> Res<MemSem> {
    if m.flag("volatile") {
        return Ok(MemSem::Volatile);
    }
    let relaxed = m.flag("relaxed");
    let strong = m.flag(ordered);
    if !relaxed && !strong {
        m.flag("weak");
        return Ok(MemSem::Weak);
    }
    let Some(scope) = m.scope() else {
        return invalid("`.relaxed`/`.acquire`/`.release` need a scope `.cta`, `.gpu` or `.sys`");
    };
    Ok(match (relaxed, ordered) {
        (true, _) => MemSem::Relaxed(scope),
        (false, "acquire") => MemSem::Acquire(scope),
        _ => MemSem::Release(scope),
    })
}

fn decode_cvta(m: &mut ModList) -> Res<Op> {
    let dir = if m.flag("to") {
        CvtaDir::FromGeneric
    } else {
        CvtaDir::ToGeneric
    };
    let space = m.space();
    if matches!(space, Space::Generic) {
        return invalid("`cvta` needs a state space");
    }
    let ty = m.one_type(&[Type::U32, Type::U64])?;
    Ok(Op::Cvta { space, dir, ty })
}

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

fn decode_add_sub(mnemonic: &str, m: &mut ModList) -> Res<Op> {
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

fn decode_mul_mad(mnemonic: &str, m: &mut ModList) -> Res<Op> {
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

fn decode_24(mnemonic: &str, m: &mut ModList) -> Res<Op> {
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

fn decode_fma(m: &mut ModList) -> Res<Op> {
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

fn decode_div(m: &mut ModList) -> Res<Op> {
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

fn decode_abs_neg(mnemonic: &str, m: &mut ModList) -> Res<Op> {
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

fn decode_min_max(mnemonic: &str, m: &mut ModList) -> Res<Op> {
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

fn decode_logic(mnemonic: &str, m: &mut ModList) -> Res<Op> {
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

fn decode_shift(mnemonic: &str, m: &mut ModList) -> Res<Op> {
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

fn decode_bits(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let ty = m.one_type(&[Type::B32, Type::B64])?;
    Ok(match mnemonic {
        "popc" => Op::Popc { ty },
        "clz" => Op::Clz { ty },
        "brev" => Op::Brev { ty },
        _ => Op::Bfi { ty },
    })
}

fn decode_prmt(m: &mut ModList) -> Res<Op> {
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

fn decode_compare(mnemonic: &str, m: &mut ModList) -> Res<Op> {
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

fn decode_slct(m: &mut ModList) -> Res<Op> {
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

fn decode_cvt(m: &mut ModList) -> Res<Op> {
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

fn decode_math(mnemonic: &str, m: &mut ModList) -> Res<Op> {
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

fn decode_bar(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    m.flag("cta");
    if mnemonic == "bar" && m.flag("warp") {
        if !m.flag("sync") {
            return invalid("`bar.warp` needs `.sync`");
        }
        return Ok(Op::BarWarpSync);
    }
    let aligned = m.flag("aligned") || mnemonic == "bar";
    let kind = if m.flag("sync") {
        BarKind::Sync
    } else if m.flag("arrive") {
        BarKind::Arrive
    } else if m.flag("red") {
        bar_red_kind(m)?
    } else {
        return invalid(format!("`{mnemonic}` needs `.sync`, `.arrive` or `.red`"));
    };
    Ok(Op::Bar { kind, aligned })
}

fn bar_red_kind(m: &mut ModList) -> Res<BarKind> {
    let kind = match m.take(|k| match k {
        "popc" => Some(BarKind::RedPopc),
        "and" => Some(BarKind::RedAnd),
        "or" => Some(BarKind::RedOr),
        _ => None,
    }) {
        Some(k) => k,
        None => return invalid("`bar.red` needs `.popc`, `.and` or `.or`"),
    };
    let want = if kind == BarKind::RedPopc {
        Type::U32
    } else {
        Type::Pred
    };
    m.one_type(&[want])?;
    Ok(kind)
}

fn decode_membar(m: &mut ModList) -> Res<Op> {
    let scope = m.take(|s| match s {
        "cta" => Some(Scope::Cta),
        "gl" => Some(Scope::Gpu),
        "sys" => Some(Scope::Sys),
        _ => None,
    });
    match scope {
        Some(scope) => Ok(Op::Membar { scope }),
        None => invalid("`membar` needs `.cta`, `.gl` or `.sys`"),
    }
}

fn decode_fence(m: &mut ModList) -> Res<Op> {
    let sem = if m.flag("sc") {
        FenceSem::Sc
    } else {
        m.flag("acq_rel");
        FenceSem::AcqRel
    };
    match m.scope() {
        Some(scope) => Ok(Op::Fence { sem, scope }),
        None => invalid("`fence` needs a scope `.cta`, `.gpu` or `.sys`"),
    }
}

fn decode_atom(mnemonic: &str, m: &mut ModList) -> Res<Op> {
    let sem = m
        .take(|s| match s {
            "relaxed" => Some(AtomSem::Relaxed),
            "acquire" => Some(AtomSem::Acquire),
            "release" => Some(AtomSem::Release),
            "acq_rel" => Some(AtomSem::AcqRel),
            _ => None,
        })
        .unwrap_or_default();
    let scope = m.scope().unwrap_or(Scope::Gpu);
    let space = m.space();
    if !matches!(space, Space::Global | Space::Shared | Space::Generic) {
        return invalid(format!(
            "`{mnemonic}` works on `.global` or `.shared` memory only"
        ));
    }
    let Some(op) = m.take(AtomOp::from_name) else {
        return invalid(format!("`{mnemonic}` needs an operation such as `.add`"));
    };
    let ty = m.one_type(&[
        Type::B32,
        Type::B64,
        Type::U32,
        Type::U64,
        Type::S32,
        Type::S64,
        Type::F32,
        Type::F64,
    ])?;
    check_atom_type(op, ty)?;
    if mnemonic == "red" {
        if op == AtomOp::Cas {
            return invalid("`red` has no `.cas`");
        }
        return Ok(Op::Red {
            space,
            op,
            ty,
            sem,
            scope,
        });
    }
    Ok(Op::Atom {
        space,
        op,
        ty,
        sem,
        scope,
    })
}

fn check_atom_type(op: AtomOp, ty: Type) -> Res<()> {
    let ok = match op {
        AtomOp::And | AtomOp::Or | AtomOp::Xor | AtomOp::Exch | AtomOp::Cas => ty.is_bits(),
        AtomOp::Add => matches!(
            ty,
            Type::U32 | Type::U64 | Type::S32 | Type::F32 | Type::F64
        ),
        AtomOp::Min | AtomOp::Max => ty.is_int(),
        AtomOp::Inc | AtomOp::Dec => ty == Type::U32,
    };
    if ok {
        Ok(())
    } else {
        invalid(format!("atomic operation does not take type `{ty}`"))
    }
}

fn decode_vote(m: &mut ModList) -> Res<Op> {
    let sync = m.flag("sync");
    let mode = m.take(|v| match v {
        "all" => Some(VoteMode::All),
        "any" => Some(VoteMode::Any),
        "uni" => Some(VoteMode::Uni),
        "ballot" => Some(VoteMode::Ballot),
        _ => None,
    });
    let Some(mode) = mode else {
        return invalid("`vote` needs `.all`, `.any`, `.uni` or `.ballot`");
    };
    let want = if mode == VoteMode::Ballot {
        Type::B32
    } else {
        Type::Pred
    };
    m.one_type(&[want])?;
    Ok(Op::Vote { mode, sync })
}

fn decode_shfl(m: &mut ModList) -> Res<Op> {
    let sync = m.flag("sync");
    let mode = m.take(|s| match s {
        "up" => Some(ShflMode::Up),
        "down" => Some(ShflMode::Down),
        "bfly" => Some(ShflMode::Bfly),
        "idx" => Some(ShflMode::Idx),
        _ => None,
    });
    let Some(mode) = mode else {
        return invalid("`shfl` needs `.up`, `.down`, `.bfly` or `.idx`");
    };
    m.one_type(&[Type::B32])?;
    Ok(Op::Shfl { mode, sync })
}

fn decode_match(m: &mut ModList) -> Res<Op> {
    let mode = m.take(|s| match s {
        "any" => Some(MatchMode::Any),
        "all" => Some(MatchMode::All),
        _ => None,
    });
    let Some(mode) = mode else {
        return invalid("`match` needs `.any` or `.all`");
    };
    if !m.flag("sync") {
        return invalid("`match` needs `.sync`");
    }
    let ty = m.one_type(&[Type::B32, Type::B64])?;
    Ok(Op::Match { mode, ty })
}

#[cfg(test)]
mod tests {
    use super::*;

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
