//! Instructions whose lanes exchange data or synchronise: `vote`, `shfl`, `activemask`,
//! `match`, and the arrival part of `bar` (PTX ISA "Parallel Synchronization and
//! Communication Instructions", "Data Movement and Conversion Instructions: shfl.sync").
//! All inputs are read before any destination is written, so a lane may name the same
//! register as source and destination.

use super::lane_io::{low_bits, pad, read, set, write, BarrierArrival, BarrierReduction, Env};
use super::reconvergence::LaneMask;
use super::warp::{lanes, WarpState};
use crate::ptx::ops::{BarKind, MatchMode, ShflMode, VoteMode};
use crate::ptx::{Instr, Op, Operand};

/// Most lanes a warp has.
const MAX_LANES: usize = 64;

/// The lanes taking part: the executing lanes that are in `membermask` (the `.sync` forms'
/// last operand; the old forms have none).
fn members(env: &Env, warp: &WarpState, exec: LaneMask, mask_op: Option<&Operand>) -> LaneMask {
    match mask_op {
        Some(op) if exec != 0 => {
            let lane = exec.trailing_zeros();
            exec & read(env, warp, op, lane)
        }
        _ => exec,
    }
}

/// The member mask of a warp-synchronous instruction (`bar.warp.sync`, `vote`/`shfl`/`match`
/// `.sync`), read in the first executing lane and limited to the warp's lanes; `None` for
/// other instructions or when no lane executes.
pub(super) fn sync_members(
    env: &Env,
    warp: &WarpState,
    instr: &Instr,
    exec: LaneMask,
) -> Option<LaneMask> {
    let index = match instr.op {
        Op::BarWarpSync => 0,
        Op::Vote { sync: true, .. } | Op::Match { .. } => 2,
        Op::Shfl { sync: true, .. } => 4,
        _ => return None,
    };
    if exec == 0 {
        return None;
    }
    let op = instr.operands().get(index)?;
    Some(read(env, warp, op, exec.trailing_zeros()) & low_bits(warp.warp_size))
}

fn is_sync(instr: &Instr) -> bool {
    match instr.op {
        Op::Vote { sync, .. } | Op::Shfl { sync, .. } => sync,
        Op::Match { .. } => true,
        _ => false,
    }
}

/// `vote{.sync}.mode d, {!}a{, membermask}`.
pub(super) fn vote(env: &Env, warp: &mut WarpState, instr: &Instr, exec: LaneMask, mode: VoteMode) {
    let ops = pad(instr.operands());
    let (dst, pred) = (ops[0], ops[1]);
    let members = members(env, warp, exec, is_sync(instr).then_some(&ops[2]));
    let mut ballot: LaneMask = 0;
    for lane in lanes(members) {
        if read(env, warp, &pred, lane) != 0 {
            ballot |= 1 << lane;
        }
    }
    let result = match mode {
        VoteMode::Ballot => ballot,
        VoteMode::Any => (ballot != 0) as u64,
        VoteMode::All => (ballot == members) as u64,
        VoteMode::Uni => (ballot == 0 || ballot == members) as u64,
    };
    for lane in lanes(members) {
        write(env, warp, &dst, lane, result, 0);
    }
}

/// `shfl{.sync}.mode.b32 d[|p], a, b, c{, membermask}`, following the ISA's pseudocode with
/// lane numbers in 5 bits; a computed source lane outside the warp (warps narrower than 32)
/// counts as out of range.
pub(super) fn shfl(env: &Env, warp: &mut WarpState, instr: &Instr, exec: LaneMask, mode: ShflMode) {
    let ops = pad(instr.operands());
    let (dst, a, b, c) = (ops[0], ops[1], ops[2], ops[3]);
    let members = members(env, warp, exec, is_sync(instr).then_some(&ops[4]));
    let width = warp.warp_size.min(MAX_LANES as u32);
    let mut source = [0u64; MAX_LANES];
    for lane in 0..width {
        source[lane as usize] = read(env, warp, &a, lane);
    }
    let mut results = [(0u64, 0u64); MAX_LANES];
    for lane in lanes(members) {
        let bval = (read(env, warp, &b, lane) & 0x1f) as i64;
        let cv = read(env, warp, &c, lane);
        let cval = (cv & 0x1f) as i64;
        let segmask = ((cv >> 8) & 0x1f) as i64;
        let l = (lane & 0x1f) as i64;
        let max_lane = (l & segmask) | (cval & !segmask);
        let min_lane = l & segmask;
        let (j, in_range) = match mode {
            ShflMode::Up => (l - bval, l - bval >= max_lane),
            ShflMode::Down => (l + bval, l + bval <= max_lane),
            ShflMode::Bfly => (l ^ bval, (l ^ bval) <= max_lane),
            ShflMode::Idx => {
                let j = min_lane | (bval & !segmask);
                (j, j <= max_lane)
            }
        };
        let valid = in_range && (0..width as i64).contains(&j);
        let from = if valid { j as usize } else { lane as usize };
        results[lane as usize] = (source[from], valid as u64);
    }
    for lane in lanes(members) {
        let (d, p) = results[lane as usize];
        write(env, warp, &dst, lane, d, p);
    }
}

/// `activemask.b32 d`: the lanes executing it.
pub(super) fn activemask(env: &Env, warp: &mut WarpState, instr: &Instr, exec: LaneMask) {
    let dst = pad(instr.operands())[0];
    for lane in lanes(exec) {
        write(env, warp, &dst, lane, exec, 0);
    }
}

/// `match.any.sync.type d, a, membermask` / `match.all.sync.type d[|p], a, membermask`.
pub(super) fn match_sync(
    env: &Env,
    warp: &mut WarpState,
    instr: &Instr,
    exec: LaneMask,
    mode: MatchMode,
) {
    let ops = pad(instr.operands());
    let (dst, a) = (ops[0], ops[1]);
    let members = members(env, warp, exec, Some(&ops[2]));
    let mut values = [0u64; MAX_LANES];
    for lane in lanes(members) {
        values[lane as usize] = read(env, warp, &a, lane);
    }
    let same = |lane: u32| -> LaneMask {
        lanes(members)
            .filter(|&o| values[o as usize] == values[lane as usize])
            .fold(0, |m, o| m | 1 << o)
    };
    let all_equal = lanes(members).all(|l| values[l as usize] == values[first(members)]);
    for lane in lanes(members) {
        let (d, p) = match mode {
            MatchMode::Any => (same(lane), 0),
            MatchMode::All if all_equal => (members, 1),
            MatchMode::All => (0, 0),
        };
        write(env, warp, &dst, lane, d, p);
    }
}

fn first(mask: LaneMask) -> usize {
    if mask == 0 {
        0
    } else {
        mask.trailing_zeros() as usize
    }
}

/// Reads a `bar` instruction's operands: `bar.sync a{, b}`, `bar.arrive a, b`,
/// `bar.red.op d, a{, b}, {!}c`. The barrier number and thread count come from the first
/// executing lane (the ISA requires them to be warp-uniform).
pub(super) fn barrier(
    env: &Env,
    warp: &WarpState,
    instr: &Instr,
    kind: BarKind,
    exec: LaneMask,
) -> Result<BarrierArrival, String> {
    let ops = instr.operands();
    let lane = exec.trailing_zeros();
    let value = |op: &Operand| read(env, warp, op, lane);
    let is_red = !matches!(kind, BarKind::Sync | BarKind::Arrive);
    let (args, reduction) = if is_red {
        let dst = match ops.first() {
            Some(Operand::Reg(r)) => Some(*r),
            _ => None,
        };
        let pred = ops.last().copied().unwrap_or(Operand::None);
        let mut true_lanes = 0;
        for l in lanes(exec) {
            if read(env, warp, &pred, l) != 0 {
                true_lanes |= 1 << l;
            }
        }
        let args = &ops[1.min(ops.len())..ops.len().saturating_sub(1)];
        let reduction = dst.map(|dst| BarrierReduction {
            kind,
            dst,
            lanes: exec,
            true_lanes,
        });
        (args, reduction)
    } else {
        (ops, None)
    };
    let id = args.first().map_or(0, value);
    if id >= super::cta_barrier::BARRIERS as u64 {
        return Err(format!("barrier number {id} (the ISA allows 0..15)"));
    }
    Ok(BarrierArrival {
        id: id as u32,
        threads: args.get(1).map(|op| value(op) as u32),
        wait: kind != BarKind::Arrive,
        reduction,
    })
}

/// Writes a completed `bar.red`'s result into one warp: `popc` the count of true predicates
/// over the CTA, `and`/`or` whether all/any were true.
pub fn finish_reduction(
    env: &Env,
    warp: &mut WarpState,
    red: &BarrierReduction,
    total_true: u64,
    total_lanes: u64,
) {
    let result = match red.kind {
        BarKind::RedPopc => total_true,
        BarKind::RedAnd => (total_true == total_lanes) as u64,
        BarKind::RedOr => (total_true != 0) as u64,
        BarKind::Sync | BarKind::Arrive => 0,
    };
    for lane in lanes(red.lanes) {
        set(env, warp, red.dst, lane, result);
    }
}
