//! Stepping backwards (STYLE.md, "Reverse stepping: full clones plus deterministic replay"): a
//! [`Timeline`] keeps whole copies of the [`Sim`] at intervals; to go back to cycle t it restores
//! the last checkpoint at or before t and re-runs forward. Runs are deterministic (MODEL.md
//! section 1), so the replay reproduces exactly the state the simulation had at t.
//!
//! Memory stays bounded: checkpoints in the most recent `dense` span are kept every `interval`
//! cycles; older ones are thinned so that at most one survives per power-of-two age bucket
//! (every 2^i-th), so a run of a million cycles keeps a few dozen copies. Global memory is paged
//! behind `Arc`, so a copy shares every page the run has not written since.

use crate::core::timeline::TIMELINE_CYCLES;
use crate::run_control::{self, StopAt};
use crate::sim::Sim;

/// Checkpoints of one simulation.
#[derive(Debug, Clone)]
pub struct Timeline {
    interval: u64,
    dense: usize,
    /// (cycle, simulation at that cycle), ascending by cycle. The first is the start.
    checkpoints: Vec<(u64, Sim)>,
}

impl Timeline {
    /// A timeline starting at `start` (its cycle becomes the first checkpoint), checkpointing
    /// every `interval` cycles and keeping the last `dense` checkpoints unthinned.
    pub fn new(start: &Sim, interval: u64, dense: usize) -> Self {
        Timeline {
            interval: interval.max(1),
            dense: dense.max(1),
            checkpoints: vec![(start.cycle(), start.clone())],
        }
    }

    /// The checkpoint interval in cycles.
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// Cycles of the checkpoints kept, ascending.
    pub fn cycles(&self) -> Vec<u64> {
        self.checkpoints.iter().map(|(c, _)| *c).collect()
    }

    /// Call after every step: keeps a copy when `sim` reaches a multiple of the interval.
    pub fn observe(&mut self, sim: &Sim) {
        let cycle = sim.cycle();
        let last = self.checkpoints.last().map_or(0, |(c, _)| *c);
        if cycle > last && cycle % self.interval == 0 {
            self.checkpoints.push((cycle, sim.clone()));
            self.thin(cycle);
        }
    }

    /// Drops old checkpoints so that, beyond the dense span, one is kept per age bucket
    /// [2^i, 2^(i+1)) intervals old; the first (the start) is always kept.
    fn thin(&mut self, now: u64) {
        let n = self.checkpoints.len();
        if n <= self.dense + 1 {
            return;
        }
        let old_end = n - self.dense;
        let mut kept: Vec<(u64, Sim)> = Vec::with_capacity(n);
        let mut last_bucket = None;
        for (i, cp) in std::mem::take(&mut self.checkpoints)
            .into_iter()
            .enumerate()
        {
            if i == 0 || i >= old_end {
                kept.push(cp);
                continue;
            }
            let age = (now - cp.0) / self.interval;
            let bucket = 64 - age.max(1).leading_zeros();
            if last_bucket != Some(bucket) {
                last_bucket = Some(bucket);
                kept.push(cp);
            }
        }
        self.checkpoints = kept;
    }

    /// Forgets checkpoints after `cycle` (the user went back and the future will be re-run).
    pub fn truncate_after(&mut self, cycle: u64) {
        self.checkpoints.retain(|(c, _)| *c <= cycle);
    }

    /// [`Self::rewind`] for the views: every warp's state classified in the last
    /// [`TIMELINE_CYCLES`] cycles before `target`, replayed from a checkpoint at least that far
    /// back (checkpoints taken while a run did not classify them may hold a gap).
    pub fn rewind_for_views(&self, target: u64) -> Sim {
        let mut sim = self.at_or_before(target.saturating_sub(TIMELINE_CYCLES as u64));
        sim.set_record_warp_states(true);
        let steps = target.saturating_sub(sim.cycle());
        run_control::run(&mut sim, steps, &StopAt::default(), &mut |_| ());
        sim
    }

    /// After a run the kernel's end cut short ([`crate::run_control::run`]): when the views ask
    /// for warp states and the last [`TIMELINE_CYCLES`] cycles were not all classified, `sim`
    /// is replaced by a replay that classifies them (the same machine: runs are deterministic).
    pub fn cover_warp_states(&self, sim: &mut Sim) {
        if sim.records_warp_states() && !sim.warp_states_cover(TIMELINE_CYCLES as u64) {
            *sim = self.rewind_for_views(sim.cycle());
        }
    }

    /// The simulation as it was at cycle `target` (or the earliest cycle kept, if `target` is
    /// before it): the last checkpoint at or before `target`, re-run forward.
    pub fn rewind(&self, target: u64) -> Sim {
        let mut sim = self.at_or_before(target);
        let steps = target.saturating_sub(sim.cycle());
        sim.run_for(steps);
        sim
    }

    /// A copy of the last checkpoint at or before `cycle` (the first one if none is).
    fn at_or_before(&self, cycle: u64) -> Sim {
        let (_, base) = self
            .checkpoints
            .iter()
            .rev()
            .find(|(c, _)| *c <= cycle)
            .unwrap_or(&self.checkpoints[0]);
        base.clone()
    }
}
