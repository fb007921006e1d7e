//! The SIMT reconvergence stack of one warp (book section 3.1.1, Figs. 3.2-3.4; MODEL.md section 3):
//! the payload of [`Reconvergence::Stack`](super::reconvergence::Reconvergence::Stack).
//!
//! Each entry is (next PC, reconvergence PC, active mask). The top entry's next PC is the warp's PC
//! and its mask the execution mask. A divergent branch sets the top entry's next PC to the
//! reconvergence PC (the branch's immediate post-dominator) and pushes one entry per path; a path
//! whose target is the reconvergence PC is not pushed, because its lanes simply wait in the entry
//! below. The top entry is popped when its next PC reaches its reconvergence PC. Lanes that exit
//! leave every entry.
//!
//! One case MODEL.md leaves open follows GPGPU-Sim (`simt_stack::update` in
//! abstract_hardware_model.cc): when a divergent branch reconverges at the same PC as the top
//! entry, the top entry is replaced by the new paths instead of being kept below them. Its lanes
//! are exactly the lanes being split and they would reconverge at the same place anyway; without
//! this, a loop whose exit branch diverges on every iteration would grow the stack by one dead
//! entry per iteration.

pub use super::lanes::{BranchOutcome, LaneMask, EXIT_PC};
pub use crate::config::PushOrder;
pub use crate::ptx::Pc;
use serde::Serialize;

/// One stack entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SimtEntry {
    /// Next PC to execute for these lanes.
    pub pc: Pc,
    /// Where these lanes rejoin the entry below; `None` for the bottom entry.
    pub rpc: Option<Pc>,
    /// The lanes of this entry.
    pub mask: LaneMask,
}

/// The stack of one warp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimtStack {
    entries: Vec<SimtEntry>,
    max_depth: usize,
}

impl SimtStack {
    /// A warp starting at `start` with the lanes in `mask` (threads that exist in its CTA).
    pub fn new(start: Pc, mask: LaneMask) -> Self {
        let entries = if mask == 0 {
            Vec::new()
        } else {
            vec![SimtEntry {
                pc: start,
                rpc: None,
                mask,
            }]
        };
        Self {
            max_depth: entries.len(),
            entries,
        }
    }

    /// Entries, bottom first.
    pub fn entries(&self) -> &[SimtEntry] {
        &self.entries
    }

    /// The deepest the stack has been.
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// The warp's PC, or `None` once every lane has exited.
    pub fn pc(&self) -> Option<Pc> {
        self.entries.last().map(|e| e.pc)
    }

    /// The execution mask (0 once finished).
    pub fn active_mask(&self) -> LaneMask {
        self.entries.last().map_or(0, |e| e.mask)
    }

    /// True once every lane has exited.
    pub fn is_finished(&self) -> bool {
        self.entries.is_empty()
    }

    /// After a non-branch instruction: the active lanes continue at `next`.
    pub fn advance(&mut self, next: Pc) {
        if let Some(top) = self.entries.last_mut() {
            top.pc = next;
        }
        self.reconverge();
    }

    /// After a branch: `taken` are the active lanes that jump to `target`; the others continue at
    /// `fallthrough`. `reconvergence` is the branch's immediate post-dominator ([`EXIT_PC`] when
    /// the paths only meet at the kernel's end).
    pub fn branch(
        &mut self,
        taken: LaneMask,
        target: Pc,
        fallthrough: Pc,
        reconvergence: Pc,
        order: PushOrder,
    ) -> BranchOutcome {
        let active = self.active_mask();
        let taken = taken & active;
        let not_taken = active & !taken;
        if taken == 0 || not_taken == 0 {
            self.advance(if taken != 0 { target } else { fallthrough });
            return BranchOutcome::Uniform;
        }
        let Some(top) = self.entries.last_mut() else {
            return BranchOutcome::Uniform;
        };
        if top.rpc == Some(reconvergence) {
            self.entries.pop();
        } else {
            top.pc = reconvergence;
        }
        let taken_path = (target, taken);
        let fall_path = (fallthrough, not_taken);
        let (first, second) = match order {
            PushOrder::TakenLast => (fall_path, taken_path),
            PushOrder::FallthroughLast => (taken_path, fall_path),
            PushOrder::SmallerLast if taken.count_ones() < not_taken.count_ones() => {
                (fall_path, taken_path)
            }
            PushOrder::SmallerLast => (taken_path, fall_path),
        };
        for (pc, mask) in [first, second] {
            if pc != reconvergence {
                self.entries.push(SimtEntry {
                    pc,
                    rpc: Some(reconvergence),
                    mask,
                });
            }
        }
        self.max_depth = self.max_depth.max(self.entries.len());
        self.reconverge();
        BranchOutcome::Divergent
    }

    /// The lanes in `lanes` exit: they leave every entry. The survivors continue at `next`.
    pub fn exit_lanes(&mut self, lanes: LaneMask, next: Pc) {
        for e in &mut self.entries {
            e.mask &= !lanes;
        }
        if let Some(top) = self.entries.last_mut() {
            top.pc = next;
        }
        self.reconverge();
    }

    /// Pops entries that reached their reconvergence point or have no lanes left.
    fn reconverge(&mut self) {
        while let Some(top) = self.entries.last() {
            if top.mask == 0 || Some(top.pc) == top.rpc {
                self.entries.pop();
            } else {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(pc: Pc, rpc: Option<Pc>, mask: LaneMask) -> SimtEntry {
        SimtEntry { pc, rpc, mask }
    }

    // The book's Fig. 3.2-3.4 example, with blocks A..G at PCs 0..6 (each block one instruction
    // here; the PTX version of this example lives in the golden tests). Lanes are bits: the book
    // writes masks with thread 0 on the left, so its 1110 (threads 0-2) is 0b0111 here.
    const A: Pc = 0;
    const B: Pc = 1;
    const C: Pc = 2;
    const D: Pc = 3;
    const E: Pc = 4;
    const F: Pc = 5;
    const G: Pc = 6;

    #[test]
    fn book_fig_3_4_fallthrough_last() {
        let mut s = SimtStack::new(A, 0b1111);
        // A: threads 0-2 go to B (fall-through), thread 3 to F (taken); reconverge at G.
        let out = s.branch(0b1000, F, B, G, PushOrder::FallthroughLast);
        assert_eq!(out, BranchOutcome::Divergent);
        assert_eq!(
            s.entries(),
            &[
                e(G, None, 0b1111),
                e(F, Some(G), 0b1000),
                e(B, Some(G), 0b0111)
            ]
        );
        // B: thread 0 to C (fall-through), threads 1-2 to D (taken); reconverge at E.
        s.branch(0b0110, D, C, E, PushOrder::FallthroughLast);
        assert_eq!(
            s.entries(),
            &[
                e(G, None, 0b1111),
                e(F, Some(G), 0b1000),
                e(E, Some(G), 0b0111),
                e(D, Some(E), 0b0110),
                e(C, Some(E), 0b0001)
            ]
        );
        let mut order = vec![A, B];
        // C jumps to E: pops to D.
        order.push(s.pc().unwrap());
        s.branch(0b0001, E, D, E, PushOrder::FallthroughLast);
        order.push(s.pc().unwrap());
        s.advance(E);
        order.push(s.pc().unwrap());
        assert_eq!(s.active_mask(), 0b0111);
        s.branch(0b0111, G, F, G, PushOrder::FallthroughLast);
        order.push(s.pc().unwrap());
        assert_eq!(s.active_mask(), 0b1000);
        s.advance(G);
        order.push(s.pc().unwrap());
        assert_eq!(order, vec![A, B, C, D, E, F, G]);
        assert_eq!(s.entries(), &[e(G, None, 0b1111)]);
        assert_eq!(s.max_depth(), 5);
    }

    #[test]
    fn taken_last_runs_the_taken_path_first() {
        let mut s = SimtStack::new(A, 0b1111);
        s.branch(0b1000, F, B, G, PushOrder::TakenLast);
        assert_eq!(s.pc(), Some(F));
        assert_eq!(s.active_mask(), 0b1000);
    }

    #[test]
    fn smaller_last_puts_fewer_lanes_on_top() {
        let mut s = SimtStack::new(A, 0b1111);
        s.branch(0b0111, F, B, G, PushOrder::SmallerLast);
        assert_eq!((s.pc(), s.active_mask()), (Some(B), 0b1000));
        let mut s = SimtStack::new(A, 0b1111);
        s.branch(0b0001, F, B, G, PushOrder::SmallerLast);
        assert_eq!((s.pc(), s.active_mask()), (Some(F), 0b0001));
    }

    #[test]
    fn a_path_that_targets_the_reconvergence_point_is_not_pushed() {
        // if (x) { B } ; G : the taken branch skips straight to G.
        let mut s = SimtStack::new(A, 0b1111);
        s.branch(0b0011, G, B, G, PushOrder::TakenLast);
        assert_eq!(s.entries(), &[e(G, None, 0b1111), e(B, Some(G), 0b1100)]);
        s.advance(G);
        assert_eq!(s.entries(), &[e(G, None, 0b1111)]);
    }

    #[test]
    fn a_divergent_loop_does_not_grow_the_stack() {
        // L(0): body; 1: @p bra L; 2: after. Lane i stays for i+1 iterations.
        let mut s = SimtStack::new(0, 0b1111);
        for iteration in 0..4u32 {
            s.advance(1);
            let staying = 0b1111u64 & !((1u64 << (iteration + 1)) - 1);
            s.branch(staying, 0, 2, 2, PushOrder::TakenLast);
            assert!(s.entries().len() <= 2, "{:?}", s.entries());
        }
        assert_eq!(s.entries(), &[e(2, None, 0b1111)]);
    }

    #[test]
    fn exited_lanes_leave_every_entry() {
        let mut s = SimtStack::new(A, 0b1111);
        s.branch(0b1000, F, B, G, PushOrder::FallthroughLast);
        // Threads 0-2 exit on path B: the stack pops to F, and G keeps only thread 3.
        s.exit_lanes(0b0111, B + 1);
        assert_eq!(s.entries(), &[e(G, None, 0b1000), e(F, Some(G), 0b1000)]);
        s.advance(G);
        s.exit_lanes(0b1000, G + 1);
        assert!(s.is_finished());
        assert_eq!(s.active_mask(), 0);
    }
}
