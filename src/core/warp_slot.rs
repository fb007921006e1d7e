//! The timing state of one hardware warp slot (book section 3.2; MODEL.md section 4): its
//! I-buffer, fetch PC, scoreboard, and whether it waits at a barrier or for a branch to resolve.
//! The warp's threads (registers, reconvergence state) are functional state and live in its CTA.

use super::scoreboard::Scoreboard;
use super::stall::WarpCycle;
use crate::ptx::Pc;
use std::collections::VecDeque;

/// One occupied warp slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarpSlot {
    /// The CTA slot of the SM the warp belongs to.
    pub cta_slot: u32,
    /// The warp's index within its CTA.
    pub warp_in_cta: u32,
    /// Launch order over the whole kernel (GTO's "oldest").
    pub age: u64,
    /// Decoded instructions waiting to issue, oldest first (PCs).
    pub ibuffer: VecDeque<Pc>,
    /// Next PC to fetch.
    pub fetch_pc: Pc,
    /// Bumped at every I-buffer flush; a fetch made before the flush is dropped at decode.
    pub epoch: u32,
    /// The tag of an issued branch that has not resolved yet.
    pub branch_pending: Option<u64>,
    /// Its last fetch missed in the instruction cache: it fetches again when the line is back
    /// (GPGPU-Sim's `imiss_pending`).
    pub imiss_pending: bool,
    pub scoreboard: Scoreboard,
    /// Waiting at a CTA barrier.
    pub at_barrier: bool,
    /// The PC of the barrier instruction it last arrived at (reports show where it waits).
    pub barrier_pc: Pc,
    /// Every thread has exited (the warp may still drain in-flight instructions).
    pub finished: bool,
    /// Instructions issued and not yet retired.
    pub in_flight: u32,
    /// What the warp did in the last cycle.
    pub state: WarpCycle,
    /// Why it cannot issue, remembered until something it depends on changes (its I-buffer,
    /// its scoreboard, a barrier or branch it waits for): the scheduler then skips re-checking
    /// a warp that is still blocked. `None`: check again.
    pub blocked: Option<WarpCycle>,
}

impl WarpSlot {
    /// A warp that starts at PC 0.
    pub fn new(cta_slot: u32, warp_in_cta: u32, age: u64, finished: bool) -> Self {
        WarpSlot {
            cta_slot,
            warp_in_cta,
            age,
            ibuffer: VecDeque::new(),
            fetch_pc: 0,
            epoch: 0,
            branch_pending: None,
            imiss_pending: false,
            scoreboard: Scoreboard::default(),
            at_barrier: false,
            barrier_pc: 0,
            finished,
            in_flight: 0,
            state: WarpCycle::NoInstruction,
            blocked: None,
        }
    }

    /// Empties the I-buffer and restarts fetch at `pc`.
    pub fn redirect(&mut self, pc: Pc) {
        self.blocked = None;
        self.ibuffer.clear();
        self.fetch_pc = pc;
        self.epoch = self.epoch.wrapping_add(1);
    }
}
