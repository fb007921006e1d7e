//! Decoders of the memory instructions: `ld`, `ldu`, `st` with their cache operators and
//! ordering, `cvta`, and the atomics `atom`/`red` (PTX ISA "Data Movement and Conversion
//! Instructions", "Parallel Synchronization and Communication Instructions: atom, red").

use super::decode_modifiers::{invalid, ModList, Res, MEM_TYPES};
use super::ops::{AtomOp, AtomSem, CacheOp, CvtaDir, MemSem, Op, Scope};
use super::types::{Space, Type};

pub(super) fn decode_ld(m: &mut ModList) -> Res<Op> {
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

pub(super) fn decode_ldu(m: &mut ModList) -> Res<Op> {
    let space = m.space();
    if !matches!(space, Space::Global | Space::Generic) {
        return invalid("`ldu` reads `.global` memory only");
    }
    let vec = m.vec();
    let ty = m.one_type(MEM_TYPES)?;
    Ok(Op::Ldu { space, ty, vec })
}

pub(super) fn decode_st(m: &mut ModList) -> Res<Op> {
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

pub(super) fn decode_cvta(m: &mut ModList) -> Res<Op> {
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

pub(super) fn decode_atom(mnemonic: &str, m: &mut ModList) -> Res<Op> {
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
