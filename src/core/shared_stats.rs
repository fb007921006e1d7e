//! Shared-memory counters of one SM (`warpstep run --json`'s `shared`, the Stats view's
//! conflict degrees, the energy model's row reads and writes): counted in one place, when MEM0
//! takes a shared access and costs it ([`super::memory_timing::MemoryTiming::take`]).

use crate::mem::BankConflict;
use crate::ptx::MemAccess;
use serde::ser::{Serialize, SerializeMap, Serializer};

/// Shared-memory counters (`warpstep run --json`'s `shared`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SharedStats {
    /// Shared-memory instructions.
    pub instructions: u64,
    /// Sub-warp accesses (one per sub-warp with an active lane: `shmem.warp_parts` per
    /// instruction at most).
    pub accesses: u64,
    /// Extra cycles spent on bank conflicts (passes beyond one per sub-warp access).
    pub bank_conflict_cycles: u64,
    /// Of `bank_conflict_cycles`, the passes atomics took only because their lanes on one word
    /// never merge (MODEL.md section 7: atomics serialise per address): an atomic's passes
    /// beyond what the same lanes cost as a load. No bank index function can remove these.
    /// GPGPU-Sim merges an atomic's same-word lanes as a load's (its `atom` is a `LOAD_OP`
    /// through the shared bank model), so the XOR paper's bank conflicts (Fig. 8) do not count
    /// them and the XOR experiment leaves them out. Absent from the JSON while zero.
    #[serde(skip_serializing_if = "crate::energy::is_zero")]
    pub atomic_replay_cycles: u64,
    /// Sub-warp accesses by conflict degree (passes).
    pub degree_histogram: DegreeHistogram,
    /// 16-byte rows read: in each pass of each sub-warp, the distinct 16-byte-aligned rows the
    /// lanes served in it read (loads, and the read half of atomics); the energy model's shared
    /// reads (`crate::energy`, docs/energy.md).
    pub row_reads: u64,
    /// 16-byte rows written, counted the same way (stores, and the write half of atomics).
    pub row_writes: u64,
}

/// Sub-warp accesses by conflict degree: `counts[d]` accesses of degree `d` (a sub-warp's
/// passes through the banks, so at most the lanes of a warp). It serialises as the map of the
/// degrees that occurred, `{"1": n, "32": m}`, in ascending degree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DegreeHistogram {
    /// Indexed by degree; never ends in a zero, so equal histograms are equal vectors.
    counts: Vec<u64>,
}

impl DegreeHistogram {
    /// Counts `n` accesses of degree `degree` (nothing when `n` is 0).
    pub fn add(&mut self, degree: u32, n: u64) {
        if n == 0 {
            return;
        }
        let d = degree as usize;
        if d >= self.counts.len() {
            self.counts.resize(d + 1, 0);
        }
        self.counts[d] += n;
    }

    /// The accesses of degree `degree`, `None` when there were none (as a map's `get`).
    pub fn get(&self, degree: &u32) -> Option<&u64> {
        self.counts.get(*degree as usize).filter(|&&n| n > 0)
    }

    /// The degrees that occurred and their accesses, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &u64)> + '_ {
        let present = self.counts.iter().enumerate().filter(|(_, &n)| n > 0);
        present.map(|(d, n)| (d as u32, n))
    }

    /// True when no access was counted.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }
}

impl Serialize for DegreeHistogram {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.iter().count()))?;
        for (d, n) in self.iter() {
            map.serialize_entry(&d, n)?;
        }
        map.end()
    }
}

/// The distinct (pass, 16-byte row) pairs of one shared access, for the row counters. Lanes
/// usually arrive in ascending (pass, row) order (an access without conflicts walks the rows
/// upwards in one pass; a conflicted one takes its lanes pass by pass), so a repeat of the pair
/// before is dropped on the way in and only an access that steps back is sorted.
#[derive(Debug, Clone, Default)]
pub(super) struct RowSet {
    rows: Vec<(u32, u64)>,
    /// Some pair kept is below the one before it (the pairs need sorting).
    unsorted: bool,
}

impl RowSet {
    /// Empties the set for the next access.
    pub(super) fn clear(&mut self) {
        self.rows.clear();
        self.unsorted = false;
    }

    /// Adds row `row` read or written in pass `pass`.
    pub(super) fn push(&mut self, pass: u32, row: u64) {
        let pair = (pass, row);
        match self.rows.last() {
            Some(&last) if last == pair => return,
            Some(&last) => self.unsorted |= pair < last,
            None => {}
        }
        self.rows.push(pair);
    }

    /// The number of distinct pairs added since [`RowSet::clear`].
    fn distinct(&mut self) -> u64 {
        if self.unsorted {
            self.rows.sort_unstable();
            self.rows.dedup();
            self.unsorted = false;
        }
        self.rows.len() as u64
    }
}

impl SharedStats {
    /// Counts one costed access; `atomic_replays` of its extra cycles are an atomic's
    /// same-address passes.
    pub(super) fn count(&mut self, c: &BankConflict, atomic_replays: u32) {
        self.instructions += 1;
        self.bank_conflict_cycles += u64::from(c.extra_cycles);
        self.atomic_replay_cycles += u64::from(atomic_replays);
        for &passes in c.sub_warp_cycles.iter().filter(|&&p| p > 0) {
            self.accesses += 1;
            self.degree_histogram.add(passes, 1);
        }
    }

    /// The degree histogram as a list: `[d]` sub-warp accesses of degree `d` (index 0 unused).
    pub fn degree_counts(&self) -> Vec<u64> {
        match self.degree_histogram.is_empty() {
            true => vec![0],
            false => self.degree_histogram.counts.clone(),
        }
    }

    /// Counts the 16-byte rows of one access: `rows` holds a (pass, row) pair for every row each
    /// active lane's bytes touch.
    pub(super) fn count_rows(&mut self, rows: &mut RowSet, access: Option<MemAccess>) {
        let n = rows.distinct();
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
        self.atomic_replay_cycles += o.atomic_replay_cycles;
        self.row_reads += o.row_reads;
        self.row_writes += o.row_writes;
        for (d, &n) in o.degree_histogram.iter() {
            self.degree_histogram.add(d, n);
        }
    }
}
