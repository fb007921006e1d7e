//! The vocabulary of a warp's lanes that the SIMT stack, the convergence barriers and the
//! executor share: a lane mask, iterating its lanes, the kernel-end reconvergence PC and what a
//! branch did. A leaf module, so the mechanisms behind [`super::Reconvergence`] and the
//! interface over them depend on it rather than on each other.

use crate::ptx::Pc;
use serde::Serialize;

/// One bit per lane; lane 0 is bit 0. Warps of up to 64 lanes.
pub type LaneMask = u64;
/// The reconvergence PC of paths that only meet again at the kernel's end (the CFG's virtual exit).
pub const EXIT_PC: Pc = Pc::MAX;

/// What a branch did to the warp's lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BranchOutcome {
    /// Every active lane went the same way.
    Uniform,
    /// The lanes split; entries were pushed.
    Divergent,
}

/// The lanes set in `mask`, lowest first.
#[inline]
pub fn lanes(mut mask: LaneMask) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let lane = mask.trailing_zeros();
        mask &= mask - 1;
        Some(lane)
    })
}

/// A mask of the low `bits` bits.
#[inline]
pub fn low_bits(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}
