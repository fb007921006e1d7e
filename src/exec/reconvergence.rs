//! How one warp's lanes split at divergent branches and meet again: the hardware that gives the
//! warp its PC and its execution mask each cycle. The functional model ([`super::execute`]) drives
//! it at issue; the timing model (`core::sm`) and the views (snapshot, trace, stuck-warp
//! reports) only read it. Everything outside this module talks to [`Reconvergence`], never to a
//! mechanism directly, so a second mechanism is a second variant.

use super::simt_stack::{SimtEntry, SimtStack};
use crate::config::PushOrder;
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

/// The reconvergence state of one warp.
///
/// - [`Reconvergence::Stack`] models the pre-Volta SIMT stack (Aamodt, Fung & Rogers,
///   "General-Purpose Graphics Processor Architectures", section 3.1.1, Figs. 3.2-3.4; MODEL.md
///   section 3): a divergent branch pushes one entry per path, tagged with the branch's immediate
///   post-dominator, and the warp runs the top entry's path until it reaches that point. The
///   paths of a warp are serialised, which can deadlock a spin lock between its lanes.
/// - The coming second variant (issue 15) models the convergence barriers of independent thread
///   scheduling (book section 3.1.2, "SIMT Deadlock and Stackless SIMT Architectures"): a PC per
///   lane and barrier registers that lanes join and wait at, so the scheduler may interleave the
///   paths of one warp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reconvergence {
    /// The SIMT reconvergence stack (book section 3.1.1).
    Stack(SimtStack),
}

impl Reconvergence {
    /// A warp reconverging on a SIMT stack, starting at `start` with the lanes in `mask` (the
    /// threads that exist in its CTA).
    pub fn stack(start: Pc, mask: LaneMask) -> Self {
        Reconvergence::Stack(SimtStack::new(start, mask))
    }

    /// The warp's PC (the next instruction it issues), or `None` once every lane has exited.
    #[inline]
    pub fn pc(&self) -> Option<Pc> {
        match self {
            Reconvergence::Stack(s) => s.pc(),
        }
    }

    /// The lanes that execute the instruction at [`Self::pc`] (0 once finished).
    #[inline]
    pub fn active_mask(&self) -> LaneMask {
        match self {
            Reconvergence::Stack(s) => s.active_mask(),
        }
    }

    /// True once every lane has exited.
    #[inline]
    pub fn is_finished(&self) -> bool {
        match self {
            Reconvergence::Stack(s) => s.is_finished(),
        }
    }

    /// After a non-branch instruction: the active lanes continue at `next` (reconverging if that
    /// is where they meet other lanes).
    #[inline]
    pub fn advance(&mut self, next: Pc) {
        match self {
            Reconvergence::Stack(s) => s.advance(next),
        }
    }

    /// After a branch: `taken` are the active lanes that jump to `target`; the others continue at
    /// `fallthrough`. `reconvergence` is the branch's immediate post-dominator ([`EXIT_PC`] when
    /// the paths only meet at the kernel's end); `order` says which path runs first.
    #[inline]
    pub fn branch(
        &mut self,
        taken: LaneMask,
        target: Pc,
        fallthrough: Pc,
        reconvergence: Pc,
        order: PushOrder,
    ) -> BranchOutcome {
        match self {
            Reconvergence::Stack(s) => s.branch(taken, target, fallthrough, reconvergence, order),
        }
    }

    /// The lanes in `lanes` exit (`exit`, `ret`); the other active lanes continue at `next`.
    #[inline]
    pub fn exit_lanes(&mut self, lanes: LaneMask, next: Pc) {
        match self {
            Reconvergence::Stack(s) => s.exit_lanes(lanes, next),
        }
    }

    /// The deepest the state has been (stack entries), for `SimtStats::max_stack_depth`.
    #[inline]
    pub fn max_depth(&self) -> usize {
        match self {
            Reconvergence::Stack(s) => s.max_depth(),
        }
    }

    /// The current depth (stack entries), for stuck-warp reports.
    pub fn depth(&self) -> usize {
        self.entries().len()
    }

    /// What the views show (snapshot, issue trace, stuck-warp reports): the stack's entries,
    /// bottom first, each (next PC, reconvergence PC, lanes).
    pub fn entries(&self) -> &[SimtEntry] {
        match self {
            Reconvergence::Stack(s) => s.entries(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stack_variant_forwards_to_its_stack() {
        // Fig. 3.4's first branch: thread 3 to F(5), threads 0-2 to B(1); reconverge at G(6).
        let mut r = Reconvergence::stack(0, 0b1111);
        let mut s = SimtStack::new(0, 0b1111);
        assert_eq!(
            r.branch(0b1000, 5, 1, 6, PushOrder::FallthroughLast),
            s.branch(0b1000, 5, 1, 6, PushOrder::FallthroughLast)
        );
        assert_eq!((r.pc(), r.active_mask(), r.depth()), (Some(1), 0b0111, 3));
        r.exit_lanes(0b0111, 2);
        s.exit_lanes(0b0111, 2);
        r.advance(6);
        s.advance(6);
        assert_eq!(r, Reconvergence::Stack(s.clone()));
        assert_eq!(r.entries(), s.entries());
        assert_eq!(r.max_depth(), 3);
        r.exit_lanes(0b1000, 7);
        assert!(r.is_finished());
        assert_eq!((r.pc(), r.active_mask()), (None, 0));
    }
}
