//! Decoders of the synchronisation and warp-wide instructions: `bar`/`barrier`, `membar`,
//! `fence`, `vote`, `shfl` and `match` (PTX ISA "Parallel Synchronization and Communication
//! Instructions").

use super::decode_modifiers::{invalid, ModList, Res};
use super::ops::{BarKind, FenceSem, MatchMode, Op, Scope, ShflMode, VoteMode};
use super::types::Type;

pub(super) fn decode_bar(mnemonic: &str, m: &mut ModList) -> Res<Op> {
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

pub(super) fn decode_membar(m: &mut ModList) -> Res<Op> {
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

pub(super) fn decode_fence(m: &mut ModList) -> Res<Op> {
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

pub(super) fn decode_vote(m: &mut ModList) -> Res<Op> {
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

pub(super) fn decode_shfl(m: &mut ModList) -> Res<Op> {
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

pub(super) fn decode_match(m: &mut ModList) -> Res<Op> {
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
