//! One record of each cycle (MODEL.md section 12; issue 31 §2): what one SM did in the cycle
//! it has just simulated, in one structure. The SM's stages write their part as they work
//! (the schedulers their choices, MEM0 its pass or request and the L1D's answer, the MRPB the
//! request it sent, writeback its winners); the SM's statistics fold the record in one place
//! ([`super::sm_stats::SmStats::fold`]); the views (snapshot, Why?, the warp timeline, Perfetto,
//! `--trace`'s commits) read it instead of reaching into the stages.
//!
//! The record is rewritten every cycle into the same buffers: it allocates nothing once warm.

use super::issue::SchedulerCycle;
use super::stall::WarpCycle;
use crate::mem::L1Outcome;
use crate::ptx::Pc;
use serde::Serialize;

/// One instruction a scheduler issued (the functional result the counters need with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct IssueRecord {
    /// The scheduler that issued it.
    pub scheduler: u32,
    /// Warp slot.
    pub warp: u32,
    /// The SM's tag for the instruction.
    pub tag: u64,
    pub pc: Pc,
    /// Threads that executed it.
    pub active_lanes: u32,
    /// A branch whose threads went both ways.
    pub divergent: bool,
    /// The deepest the warp's SIMT stack has been.
    pub stack_depth: u32,
}

/// What MEM0 and its port did in the cycle (book section 4.1.1; MODEL.md sections 7 and 10).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Mem0Cycle {
    /// The instruction MEM0 took this cycle, and the requests its access costs (coalesced
    /// segments or constant-cache lines; 0 for a shared or fixed-latency access).
    pub took: Option<(u64, u32)>,
    /// A shared or fixed-latency access's pass: its tag and which pass (1 = the first).
    pub pass: Option<(u64, u32)>,
    /// A request MEM0 sent straight to the L1D, and the L1D's answer (a reservation failure
    /// is retried next cycle).
    pub l1d: Option<(u64, L1Outcome)>,
    /// The request the MRPB chose and sent to the L1D (MRPB §3.2's drain), and the answer.
    pub mrpb_sent: Option<(u64, L1Outcome)>,
}

/// What one SM did in one cycle.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CycleRecord {
    /// The cycle recorded.
    pub cycle: u64,
    /// Whether the SM worked (it held a CTA and no fault had stopped it).
    pub worked: bool,
    /// What each scheduler did (its issued warp, or the best candidate's stall); `busy[s]`:
    /// scheduler s spent the cycle issuing the sub-warps of its last instruction.
    pub schedulers: Vec<SchedulerCycle>,
    pub busy: Vec<bool>,
    /// The instructions issued, in scheduler order.
    pub issued: Vec<IssueRecord>,
    /// Per scheduler: the last instruction it issued, this cycle or before (a busy scheduler is
    /// still issuing its sub-warps).
    pub last_issued: Vec<Option<IssueRecord>>,
    /// MEM0's work.
    pub mem0: Mem0Cycle,
    /// The results written back: (warp slot, pc), in port order.
    pub writeback: Vec<(u32, Pc)>,
    /// Every warp slot's state (only while the views ask for it: `Sm::set_record_warp_states`).
    pub warp_states: Vec<WarpCycle>,
}

impl CycleRecord {
    /// Starts the record of cycle `cycle` (the buffers are kept).
    pub fn begin(&mut self, cycle: u64, worked: bool) {
        self.cycle = cycle;
        self.worked = worked;
        self.issued.clear();
        self.writeback.clear();
        self.mem0 = Mem0Cycle::default();
        self.warp_states.clear();
    }

    /// Ends the cycle's issue: each scheduler's last issued instruction follows.
    pub fn end_issue(&mut self, schedulers: usize) {
        self.last_issued.resize(schedulers, None);
        for i in &self.issued {
            if let Some(last) = self.last_issued.get_mut(i.scheduler as usize) {
                *last = Some(*i);
            }
        }
    }

    /// The instruction warp slot `warp` issued this cycle, if any.
    pub fn issued_from(&self, warp: u32) -> Option<&IssueRecord> {
        self.issued.iter().find(|i| i.warp == warp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_cycle_clears_the_last_ones_events() {
        let mut r = CycleRecord::default();
        r.begin(4, true);
        r.issued.push(IssueRecord {
            scheduler: 1,
            warp: 3,
            tag: 9,
            pc: 2,
            active_lanes: 32,
            divergent: false,
            stack_depth: 1,
        });
        r.writeback.push((3, 1));
        r.mem0.pass = Some((8, 1));
        assert_eq!(r.issued_from(3).map(|i| (i.tag, i.pc)), Some((9, 2)));
        assert!(r.issued_from(0).is_none());
        r.begin(5, false);
        assert_eq!((r.cycle, r.worked), (5, false));
        assert!(r.issued.is_empty() && r.writeback.is_empty());
        assert_eq!(r.mem0, Mem0Cycle::default());
    }
}
