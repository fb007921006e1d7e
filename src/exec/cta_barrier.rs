//! CTA barriers (`bar.sync`, `bar.arrive`, `bar.red`; book section 3.3 / PTX ISA "bar"): per
//! CTA, sixteen named barriers, each counting the warps that have arrived. A barrier completes
//! when the warps that arrived cover the expected thread count: the `b` operand when given,
//! else every warp of the CTA that has not exited (exited warps are no longer waited for, as
//! in GPGPU-Sim). `bar.red` contributions are summed as warps arrive and handed back with
//! the release.

use super::lane_io::{BarrierArrival, BarrierReduction};

/// Barriers per CTA (PTX ISA: 0..15).
pub const BARRIERS: usize = 16;

/// One named barrier.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Barrier {
    /// Warps (index within the CTA) that arrived and wait.
    waiting: Vec<u32>,
    /// Warps that arrived, waiting or not (`bar.arrive`).
    arrived: u32,
    /// Threads the barrier expects, if the instruction said.
    threads: Option<u32>,
    /// `bar.red`: pending results, true predicates and participating lanes so far.
    reductions: Vec<(u32, BarrierReduction)>,
    true_count: u64,
    lane_count: u64,
}

/// A completed barrier: the warps to wake and the `bar.red` results to write.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Release {
    pub id: u32,
    pub warps: Vec<u32>,
    pub reductions: Vec<(u32, BarrierReduction)>,
    /// Over the whole CTA: lanes whose predicate was true, and lanes that took part.
    pub true_count: u64,
    pub lane_count: u64,
}

/// The barriers of one CTA.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CtaBarriers {
    barriers: Vec<Barrier>,
    /// Bit i set while barrier i has arrivals (so an idle CTA costs nothing per cycle).
    pending: u16,
}

impl CtaBarriers {
    /// No warp waiting anywhere.
    pub fn new() -> Self {
        CtaBarriers {
            barriers: vec![Barrier::default(); BARRIERS],
            pending: 0,
        }
    }

    /// Warp `warp` arrives.
    pub fn arrive(&mut self, warp: u32, arrival: &BarrierArrival) {
        let Some(b) = self.barriers.get_mut(arrival.id as usize) else {
            return;
        };
        b.arrived += 1;
        self.pending |= 1 << arrival.id;
        if arrival.threads.is_some() {
            b.threads = arrival.threads;
        }
        if arrival.wait {
            b.waiting.push(warp);
        }
        if let Some(red) = arrival.reduction {
            b.true_count += red.true_lanes.count_ones() as u64;
            b.lane_count += red.lanes.count_ones() as u64;
            b.reductions.push((warp, red));
        }
    }

    /// Whether any warp has arrived at a barrier that has not completed.
    pub fn has_arrivals(&self) -> bool {
        self.pending != 0
    }

    /// Which barrier `warp` waits at, if any.
    pub fn waiting_at(&self, warp: u32) -> Option<u32> {
        self.barriers
            .iter()
            .position(|b| b.waiting.contains(&warp))
            .map(|i| i as u32)
    }

    /// Completes every barrier whose arrivals cover what it expects. `live_warps` is the
    /// number of the CTA's warps that have not exited; `warp_size` converts a thread count.
    pub fn release_ready(&mut self, live_warps: u32, warp_size: u32) -> Vec<Release> {
        let mut out = Vec::new();
        let n = self.release_ready_into(live_warps, warp_size, &mut out);
        out.truncate(n);
        out
    }

    /// [`Self::release_ready`] into `out[..n]`, returning n: the entries of `out` and the
    /// barriers trade their lists, so a caller that keeps `out` allocates nothing once warm.
    pub fn release_ready_into(
        &mut self,
        live_warps: u32,
        warp_size: u32,
        out: &mut Vec<Release>,
    ) -> usize {
        let mut n = 0;
        if self.pending == 0 {
            return n;
        }
        for (id, b) in self.barriers.iter_mut().enumerate() {
            if b.arrived == 0 {
                continue;
            }
            let expected = match b.threads {
                Some(t) => t.div_ceil(warp_size.max(1)).min(live_warps),
                None => live_warps,
            };
            if b.arrived >= expected {
                self.pending &= !(1 << id);
                if out.len() == n {
                    out.push(Release::default());
                }
                let r = &mut out[n];
                r.id = id as u32;
                r.true_count = b.true_count;
                r.lane_count = b.lane_count;
                r.warps.clear();
                r.reductions.clear();
                std::mem::swap(&mut r.warps, &mut b.waiting);
                std::mem::swap(&mut r.reductions, &mut b.reductions);
                b.arrived = 0;
                b.threads = None;
                b.true_count = 0;
                b.lane_count = 0;
                n += 1;
            }
        }
        n
    }

    /// Warps waiting at some barrier, with the barrier number, for deadlock reports.
    pub fn waiting(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for (id, b) in self.barriers.iter().enumerate() {
            out.extend(b.waiting.iter().map(|&w| (w, id as u32)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sync(id: u32) -> BarrierArrival {
        BarrierArrival {
            id,
            threads: None,
            wait: true,
            reduction: None,
        }
    }

    #[test]
    fn completes_when_every_live_warp_arrived() {
        let mut b = CtaBarriers::new();
        b.arrive(0, &sync(0));
        assert!(b.release_ready(3, 32).is_empty());
        assert_eq!(b.waiting_at(0), Some(0));
        b.arrive(2, &sync(0));
        // Warp 1 exited: two live warps, both arrived.
        let released = b.release_ready(2, 32);
        assert_eq!(released.len(), 1);
        assert_eq!(released[0].warps, vec![0, 2]);
        assert_eq!(b.waiting_at(0), None);
    }

    #[test]
    fn a_thread_count_and_arrive_without_waiting() {
        let mut b = CtaBarriers::new();
        let arrive = BarrierArrival {
            id: 1,
            threads: Some(64),
            wait: false,
            reduction: None,
        };
        b.arrive(0, &arrive);
        assert!(b.release_ready(4, 32).is_empty());
        b.arrive(
            3,
            &BarrierArrival {
                wait: true,
                ..arrive
            },
        );
        let released = b.release_ready(4, 32);
        assert_eq!(released[0].warps, vec![3]);
    }
}
