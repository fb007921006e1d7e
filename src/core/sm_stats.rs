//! The counters of one SM (`warpstep run --json`'s `sms`, the Stats view), folded from its
//! [`CycleRecord`]s (issue 31 §2) and, for shared memory and the register banks, read from
//! the LD/ST unit's costing and the operand collector when asked.

use super::cycle_record::CycleRecord;
use super::stall::WarpCycle;
use crate::exec::independent_threads::SplitStats;
use serde::Serialize;
use std::collections::BTreeMap;

/// Counters of one SM.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SmStats {
    pub cycles: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    /// Scheduler-cycles without an issue, by the reason of the best candidate.
    pub stalls: BTreeMap<&'static str, u64>,
    pub divergent_branches: u64,
    pub max_stack_depth: usize,
    /// Warp-split counts under convergence barriers (zero under the stack).
    pub splits: SplitStats,
    pub ctas_completed: u64,
    pub shared_instructions: u64,
    /// Extra cycles shared accesses spent on bank conflicts.
    pub bank_conflict_cycles: u64,
    pub global_requests: u64,
    /// Operand-cycles lost to register bank conflicts: each cycle, every operand a collector
    /// unit could not read because its bank was busy (book section 3.3.1).
    pub register_bank_conflicts: u64,
    /// Sub-warp shared-memory accesses by conflict degree (passes): `conflict_degrees[d]`
    /// accesses of degree `d` (the stats view's histogram, MODEL.md section 12; the same count
    /// as the CLI's, both from the LD/ST unit's [`super::ldst_unit::SharedStats`]).
    pub conflict_degrees: Vec<u64>,
    /// Scheduler-cycles without an issue, indexed by `WarpCycle as usize` (folded each cycle;
    /// `stalls` is built from it when the counters are read).
    #[serde(skip)]
    stall_counts: [u64; WarpCycle::ALL.len()],
}

impl SmStats {
    /// Folds in what the SM did in one cycle: the one place its issue, stall and request
    /// counters are counted.
    pub fn fold(&mut self, r: &CycleRecord) {
        if !r.worked {
            return;
        }
        self.cycles += 1;
        for i in &r.issued {
            self.warp_instructions += 1;
            self.thread_instructions += u64::from(i.active_lanes);
            self.divergent_branches += u64::from(i.divergent);
            self.max_stack_depth = self.max_stack_depth.max(i.stack_depth as usize);
        }
        for (c, &busy) in r.schedulers.iter().zip(&r.busy) {
            if !busy && c.issued.is_none() && c.stall != WarpCycle::Idle {
                self.stall_counts[c.stall as usize] += 1;
            }
        }
        if let Some((_, requests)) = r.mem0.took {
            self.global_requests += u64::from(requests);
        }
    }

    /// These counters with `stalls` filled in from the folded stall counts.
    pub fn with_stalls(&self) -> SmStats {
        let mut stats = self.clone();
        for (reason, &count) in WarpCycle::ALL.iter().zip(&self.stall_counts) {
            if count > 0 {
                *stats.stalls.entry(reason.name()).or_insert(0) += count;
            }
        }
        stats
    }
}
