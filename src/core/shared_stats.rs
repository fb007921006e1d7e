//! Shared-memory counters of one SM (`warpstep run --json`'s `shared`, the Stats view's
//! conflict degrees, the energy model's row reads and writes): counted in one place, when MEM0
//! takes a shared access and costs it ([`super::memory_timing::MemoryTiming::take`]).

use crate::mem::BankConflict;
use crate::ptx::MemAccess;
use serde::Serialize;
use std::collections::BTreeMap;

/// Shared-memory counters (`warpstep run --json`'s `shared`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SharedStats {
    /// Shared-memory instructions.
    pub instructions: u64,
    /// Sub-warp accesses (one per sub-warp with an active lane: `shmem.warp_parts` per
    /// instruction at most).
    pub accesses: u64,
    /// Extra cycles spent on bank conflicts (passes beyond one per sub-warp access).
    pub bank_conflict_cycles: u64,
    /// Sub-warp accesses by conflict degree (passes).
    pub degree_histogram: BTreeMap<u32, u64>,
    /// 16-byte rows read: in each pass of each sub-warp, the distinct 16-byte-aligned rows the
    /// lanes served in it read (loads, and the read half of atomics); the energy model's shared
    /// reads (`crate::energy`, docs/energy.md).
    pub row_reads: u64,
    /// 16-byte rows written, counted the same way (stores, and the write half of atomics).
    pub row_writes: u64,
}

impl SharedStats {
    pub(super) fn count(&mut self, c: &BankConflict) {
        self.instructions += 1;
        self.bank_conflict_cycles += u64::from(c.extra_cycles);
        for &passes in c.sub_warp_cycles.iter().filter(|&&p| p > 0) {
            self.accesses += 1;
            *self.degree_histogram.entry(passes).or_insert(0) += 1;
        }
    }

    /// The degree histogram as a list: `[d]` sub-warp accesses of degree `d` (index 0 unused).
    pub fn degree_counts(&self) -> Vec<u64> {
        let top = self
            .degree_histogram
            .keys()
            .last()
            .map_or(0, |&d| d as usize);
        let mut counts = vec![0; top + 1];
        for (&d, &n) in &self.degree_histogram {
            counts[d as usize] = n;
        }
        counts
    }

    /// Counts the 16-byte rows of one access: `rows` holds a (pass, row) pair for every row each
    /// active lane's bytes touch, in any order and with repeats.
    pub(super) fn count_rows(&mut self, rows: &mut Vec<(u32, u64)>, access: Option<MemAccess>) {
        rows.sort_unstable();
        rows.dedup();
        let n = rows.len() as u64;
        match access {
            Some(MemAccess::Store) => self.row_writes += n,
            Some(MemAccess::Atomic) => {
                self.row_reads += n;
                self.row_writes += n;
            }
            _ => self.row_reads += n,
        }
    }

    /// Adds another SM's counters.
    pub fn add(&mut self, o: &SharedStats) {
        self.instructions += o.instructions;
        self.accesses += o.accesses;
        self.bank_conflict_cycles += o.bank_conflict_cycles;
        self.row_reads += o.row_reads;
        self.row_writes += o.row_writes;
        for (d, n) in &o.degree_histogram {
            *self.degree_histogram.entry(*d).or_insert(0) += n;
        }
    }
}
