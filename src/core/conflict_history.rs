//! The bank-conflict history cache of the bank-conflict-aware warp scheduler (Elastic §4.2,
//! Fig. 7, Table 2; MODEL.md section 8): per SM, set-associative (256 sets x 2 ways), tagged by
//! the shared-memory instruction's PC, holding `warp_bkconf_degree - subwarps` (Eq. 4 less the
//! sub-warp count, footnote 9) of that instruction's latest execution: 0 for a conflict-free
//! access. Replacement is LRU. A new SM (a new kernel launch) starts with it empty.

use crate::ptx::Pc;
use serde::Serialize;

/// One way of one set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Entry {
    valid: bool,
    pc: Pc,
    /// Extra cycles of the latest execution (`warp_bkconf_degree - subwarps`).
    extra: u32,
    last_use: u64,
}

/// Lookups and how the predictions they made turned out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct HistoryStats {
    pub lookups: u64,
    pub hits: u64,
    /// Predictions (a hit's value, or 0 on a miss) equal to the access's extra cycles.
    pub exact: u64,
    /// Predictions below them: memory warps may issue too early (`bank_conflict` stalls).
    pub under: u64,
    /// Predictions above them: memory warps are held too long (`scheduling_fail`).
    pub over: u64,
}

impl HistoryStats {
    /// Adds another SM's counters.
    pub fn add(&mut self, o: &HistoryStats) {
        self.lookups += o.lookups;
        self.hits += o.hits;
        self.exact += o.exact;
        self.under += o.under;
        self.over += o.over;
    }
}

/// The per-SM bank-conflict history cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConflictHistory {
    sets: u32,
    ways: u32,
    entries: Vec<Entry>,
    clock: u64,
    stats: HistoryStats,
}

impl ConflictHistory {
    pub fn new(sets: u32, ways: u32) -> ConflictHistory {
        let (sets, ways) = (sets.max(1), ways.max(1));
        ConflictHistory {
            sets,
            ways,
            entries: vec![Entry::default(); (sets * ways) as usize],
            clock: 0,
            stats: HistoryStats::default(),
        }
    }

    fn set(&self, pc: Pc) -> std::ops::Range<usize> {
        let first = (pc % self.sets * self.ways) as usize;
        first..first + self.ways as usize
    }

    /// The predicted extra cycles of the shared instruction at `pc` (its latest execution's;
    /// 0 on a miss, the paper's default).
    pub fn predict(&mut self, pc: Pc) -> u32 {
        self.clock += 1;
        self.stats.lookups += 1;
        let clock = self.clock;
        let range = self.set(pc);
        match self.entries[range]
            .iter_mut()
            .find(|e| e.valid && e.pc == pc)
        {
            Some(e) => {
                e.last_use = clock;
                self.stats.hits += 1;
                e.extra
            }
            None => 0,
        }
    }

    /// The shared instruction at `pc` resolved with `extra` cycles beyond its sub-warps, after
    /// `predicted` was used for it: the cache learns the value (replacing the set's least
    /// recently used way on a miss) and the prediction is scored.
    pub fn resolve(&mut self, pc: Pc, extra: u32, predicted: u32) {
        match predicted.cmp(&extra) {
            std::cmp::Ordering::Equal => self.stats.exact += 1,
            std::cmp::Ordering::Less => self.stats.under += 1,
            std::cmp::Ordering::Greater => self.stats.over += 1,
        }
        self.clock += 1;
        let clock = self.clock;
        let range = self.set(pc);
        let ways = &mut self.entries[range];
        let slot = match ways.iter().position(|e| e.valid && e.pc == pc) {
            Some(i) => i,
            None => ways
                .iter()
                .enumerate()
                .min_by_key(|(_, e)| (e.valid, e.last_use))
                .map_or(0, |(i, _)| i),
        };
        ways[slot] = Entry {
            valid: true,
            pc,
            extra,
            last_use: clock,
        };
    }

    pub fn stats(&self) -> HistoryStats {
        self.stats
    }

    /// The cache's storage in bits (Elastic §4.4, Table 2): per way, a tag of the PC's bits
    /// above the set index and a `log2(warp_size)`-bit value.
    pub fn size_bits(sets: u32, ways: u32, pc_bits: u32, warp_size: u32) -> u32 {
        let tag = pc_bits.saturating_sub(sets.max(1).ilog2());
        let value = warp_size.max(1).ilog2();
        sets * ways * (tag + value)
    }
}

/// Extra cycles of a warp's shared access beyond one per sub-warp: Eq. 5's
/// `warp_safe_mem_dist` (the sub-warps' conflict degrees summed, over the ports, rounded up)
/// less the sub-warp count (footnote 9), so a conflict-free access has 0.
pub fn extra_cycles(subwarp_degrees: &[u32], ports: u32) -> u32 {
    let total: u32 = subwarp_degrees.iter().sum();
    total
        .div_ceil(ports.max(1))
        .saturating_sub(subwarp_degrees.len() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_papers_cache_is_704_bytes() {
        // §4.4: 14-bit PCs, 256 sets x 2 ways, warp size 32: 6-bit tags, 5-bit values.
        assert_eq!(ConflictHistory::size_bits(256, 2, 14, 32), 704 * 8);
    }

    #[test]
    fn eq_4_and_5_with_footnote_9() {
        // Four conflict-free sub-warps: no extra cycle.
        assert_eq!(extra_cycles(&[1, 1, 1, 1], 1), 0);
        // Degrees 2, 3, 1, 4 on one port: 10 cycles, 6 beyond the 4 sub-warps.
        assert_eq!(extra_cycles(&[2, 3, 1, 4], 1), 6);
        // Two ports: ceil(10 / 2) = 5 cycles, 1 extra.
        assert_eq!(extra_cycles(&[2, 3, 1, 4], 2), 1);
        // Fig. 4's one-lane example: degree 2, one sub-warp, one port: 1 extra cycle.
        assert_eq!(extra_cycles(&[2], 1), 1);
    }

    #[test]
    fn it_predicts_the_latest_execution_and_misses_predict_zero() {
        let mut h = ConflictHistory::new(256, 2);
        assert_eq!(h.predict(7), 0);
        h.resolve(7, 3, 0);
        assert_eq!(h.predict(7), 3);
        h.resolve(7, 1, 3);
        assert_eq!(h.predict(7), 1);
        h.resolve(7, 1, 1);
        let s = h.stats();
        assert_eq!((s.lookups, s.hits), (3, 2));
        assert_eq!((s.exact, s.under, s.over), (1, 1, 1));
    }

    #[test]
    fn a_set_keeps_its_two_most_recently_used_pcs() {
        let mut h = ConflictHistory::new(4, 2);
        // PCs 1, 5 and 9 share set 1.
        h.resolve(1, 1, 0);
        h.resolve(5, 2, 0);
        assert_eq!(h.predict(1), 1); // 1 is now more recent than 5
        h.resolve(9, 3, 0); // evicts 5
        assert_eq!(h.predict(5), 0);
        assert_eq!(h.predict(1), 1);
        assert_eq!(h.predict(9), 3);
        // Another set is untouched.
        h.resolve(2, 4, 0);
        assert_eq!(h.predict(9), 3);
    }
}
