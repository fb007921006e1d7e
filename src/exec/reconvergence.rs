//! How one warp's lanes split at divergent branches and meet again: the hardware that gives the
//! warp its PC and its execution mask each cycle. The functional model ([`super::execute`]) drives
//! it at issue; the timing model (`core::sm`) and the views (snapshot, trace, stuck-warp
//! reports) only read it. Everything outside this module talks to [`Reconvergence`], never to a
//! mechanism directly, so a second mechanism is a second variant.

use super::independent_threads::{IndependentThreads, SplitStats};
use super::simt_stack::{SimtEntry, SimtStack};
use crate::config::{Divergence, DivergenceMode, PushOrder};
use crate::ptx::convergence_barriers::BarrierPlan;
use crate::ptx::Pc;

pub use super::lanes::{BranchOutcome, LaneMask, EXIT_PC};

/// The reconvergence state of one warp.
///
/// - [`Reconvergence::Stack`] models the pre-Volta SIMT stack (Aamodt, Fung & Rogers,
///   "General-Purpose Graphics Processor Architectures", section 3.1.1, Figs. 3.2-3.4; MODEL.md
///   section 3): a divergent branch pushes one entry per path, tagged with the branch's immediate
///   post-dominator, and the warp runs the top entry's path until it reaches that point. The
///   paths of a warp are serialised, which can deadlock a spin lock between its lanes.
/// - [`Reconvergence::Barriers`] models the convergence barriers of independent thread
///   scheduling (book section 3.1.2, "SIMT Deadlock and Stackless SIMT Architectures"): a PC per
///   lane and barrier registers that lanes join and wait at, so the scheduler may interleave the
///   paths of one warp ([`IndependentThreads`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reconvergence {
    /// The SIMT reconvergence stack (book section 3.1.1).
    Stack(SimtStack),
    /// Convergence barriers and warp splits (book section 3.1.2).
    Barriers(Box<IndependentThreads>),
}

/// What a warp-synchronous instruction (`bar.warp.sync`, `vote`/`shfl`/`match` `.sync`) may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarpSyncOutcome {
    /// These threads execute it now.
    Execute(LaneMask),
    /// The split waits for the other members (convergence barriers only).
    Wait,
    /// Under the SIMT stack, these live member lanes are not executing it and cannot arrive
    /// (PTX ISA: for sm_6x and below every thread of the member mask executes it together).
    Unreachable(LaneMask),
}

impl Reconvergence {
    /// The reconvergence state `setup.mode` asks for, for a warp of `warp_size` lanes starting
    /// at `start` with the threads in `mask`; `plan` is the kernel's convergence-barrier
    /// placement (used by `convergence_barriers`).
    pub fn new(
        setup: Divergence,
        warp_size: u32,
        start: Pc,
        mask: LaneMask,
        plan: &BarrierPlan,
    ) -> Self {
        match setup.mode {
            DivergenceMode::Stack => Self::stack(start, mask),
            DivergenceMode::ConvergenceBarriers => Reconvergence::Barriers(Box::new(
                IndependentThreads::new(warp_size, start, mask, setup, plan),
            )),
        }
    }

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
            Reconvergence::Barriers(b) => b.pc(),
        }
    }

    /// The lanes that execute the instruction at [`Self::pc`] (0 once finished).
    #[inline]
    pub fn active_mask(&self) -> LaneMask {
        match self {
            Reconvergence::Stack(s) => s.active_mask(),
            Reconvergence::Barriers(b) => b.active_mask(),
        }
    }

    /// True once every lane has exited.
    #[inline]
    pub fn is_finished(&self) -> bool {
        match self {
            Reconvergence::Stack(s) => s.is_finished(),
            Reconvergence::Barriers(b) => b.is_finished(),
        }
    }

    /// After a non-branch instruction: the active lanes continue at `next` (reconverging if that
    /// is where they meet other lanes).
    #[inline]
    pub fn advance(&mut self, next: Pc) {
        match self {
            Reconvergence::Stack(s) => s.advance(next),
            Reconvergence::Barriers(b) => b.advance(next),
        }
    }

    /// After a branch: `taken` are the active lanes that jump to `target`; the others continue at
    /// `fallthrough`. `reconvergence` is the branch's immediate post-dominator ([`EXIT_PC`] when
    /// the paths only meet at the kernel's end); `order` says which path runs first (both for
    /// the stack only: convergence barriers meet at their WAITs and pick splits by policy).
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
            Reconvergence::Barriers(b) => b.branch(taken, target, fallthrough),
        }
    }

    /// The lanes in `lanes` exit (`exit`, `ret`); the other active lanes continue at `next`.
    #[inline]
    pub fn exit_lanes(&mut self, lanes: LaneMask, next: Pc) {
        match self {
            Reconvergence::Stack(s) => s.exit_lanes(lanes, next),
            Reconvergence::Barriers(b) => b.exit_lanes(lanes, next),
        }
    }

    /// The deepest the stack has been (entries), for `SimtStats::max_stack_depth`; 0 under
    /// convergence barriers.
    #[inline]
    pub fn max_depth(&self) -> usize {
        match self {
            Reconvergence::Stack(s) => s.max_depth(),
            Reconvergence::Barriers(_) => 0,
        }
    }

    /// For stuck-warp reports: the stack's depth, or the number of groups the threads stand
    /// in (state and rPC) under convergence barriers.
    pub fn depth(&self) -> usize {
        match self {
            Reconvergence::Stack(s) => s.entries().len(),
            Reconvergence::Barriers(b) => b.groups().len(),
        }
    }

    /// The SIMT stack's entries, bottom first, each (next PC, reconvergence PC, lanes); empty
    /// under convergence barriers (see [`Self::independent`]).
    pub fn stack_entries(&self) -> &[SimtEntry] {
        match self {
            Reconvergence::Stack(s) => s.entries(),
            Reconvergence::Barriers(_) => &[],
        }
    }

    /// The convergence-barrier state, under `convergence_barriers`.
    pub fn independent(&self) -> Option<&IndependentThreads> {
        match self {
            Reconvergence::Stack(_) => None,
            Reconvergence::Barriers(b) => Some(b),
        }
    }

    /// What the issue trace shows: the stack's entries, bottom first, as (next PC,
    /// reconvergence PC, lanes); under convergence barriers the live threads grouped by
    /// (state, rPC), with no reconvergence PC.
    pub fn view_entries(&self) -> Vec<(Pc, Option<Pc>, LaneMask)> {
        match self {
            Reconvergence::Stack(s) => s.entries().iter().map(|e| (e.pc, e.rpc, e.mask)).collect(),
            Reconvergence::Barriers(b) => b
                .groups()
                .into_iter()
                .map(|(_, pc, mask)| (pc, None, mask))
                .collect(),
        }
    }

    /// A one-line description for stuck-warp reports: `pc->rpc mask` stack entries, or the
    /// thread groups (`ready 4:0xe, blocked B0 9:0x1`).
    pub fn describe(&self) -> String {
        match self {
            Reconvergence::Stack(s) => s
                .entries()
                .iter()
                .map(|e| match e.rpc {
                    Some(r) if r == EXIT_PC => format!("{}->exit {:#x}", e.pc, e.mask),
                    Some(r) => format!("{}->{} {:#x}", e.pc, r, e.mask),
                    None => format!("{} {:#x}", e.pc, e.mask),
                })
                .collect::<Vec<_>>()
                .join(", "),
            Reconvergence::Barriers(b) => b.describe(),
        }
    }

    /// Lanes whose threads have not exited.
    pub fn live_mask(&self) -> LaneMask {
        match self {
            Reconvergence::Stack(s) => s.entries().iter().fold(0, |m, e| m | e.mask),
            Reconvergence::Barriers(b) => b.state().live_mask(),
        }
    }

    /// A warp-synchronous instruction at `pc` executed by `exec` with member mask `members`
    /// (PTX ISA "bar.warp.sync", "vote", "shfl.sync", "match"): under the stack, every live
    /// member must be executing it; under convergence barriers the split waits for the others
    /// (see [`IndependentThreads::warp_sync`]).
    pub fn warp_sync(&mut self, pc: Pc, exec: LaneMask, members: LaneMask) -> WarpSyncOutcome {
        match self {
            Reconvergence::Stack(_) => {
                let missing = members & self.live_mask() & !exec;
                if missing == 0 {
                    WarpSyncOutcome::Execute(exec)
                } else {
                    WarpSyncOutcome::Unreachable(missing)
                }
            }
            Reconvergence::Barriers(b) => match b.warp_sync(pc, exec, members) {
                0 => WarpSyncOutcome::Wait,
                lanes => WarpSyncOutcome::Execute(lanes),
            },
        }
    }

    /// Ends an instruction (see [`IndependentThreads::finish_instruction`]); nothing for the
    /// stack. An error when the warp can never go on.
    #[inline]
    pub fn finish_instruction(
        &mut self,
        plan: &BarrierPlan,
        progress: bool,
        now: u64,
    ) -> Result<(), String> {
        match self {
            Reconvergence::Stack(_) => Ok(()),
            Reconvergence::Barriers(b) => b.finish_instruction(plan, progress, now),
        }
    }

    /// The split statistics accumulated since the last call (zero for the stack).
    #[inline]
    pub fn drain_stats(&mut self) -> SplitStats {
        match self {
            Reconvergence::Stack(_) => SplitStats::default(),
            Reconvergence::Barriers(b) => b.drain_stats(),
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
        assert_eq!(r.stack_entries(), s.entries());
        assert_eq!(r.max_depth(), 3);
        r.exit_lanes(0b1000, 7);
        assert!(r.is_finished());
        assert_eq!((r.pc(), r.active_mask()), (None, 0));
    }
}
