//! A data cache's counters (MODEL.md section 9; GPGPU-Sim's `cache_stats`): accepted accesses
//! by outcome, reservation failures by reason (MRPB section 2.1), the data array's 16-byte reads
//! and writes for the energy model (docs/energy.md), and the misses that pushed a valid line out
//! by whose line it was (MRPB §2.2, Fig. 4).

use super::{FailReason, Outcome};
use serde::Serialize;

/// Misses that pushed a valid line out, by who had brought that line in (MRPB §2.2, Fig. 4):
/// the same warp (intra-warp), another warp of the same CTA, or a warp of another CTA.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Contention {
    pub intra_warp: u64,
    pub cross_warp_intra_block: u64,
    pub cross_warp_cross_block: u64,
}

impl Contention {
    pub(super) fn count(&mut self, requester: u64, victim: u64) {
        if requester == 0 || victim == 0 {
            return;
        }
        if requester == victim {
            self.intra_warp += 1;
        } else if requester >> 8 == victim >> 8 {
            self.cross_warp_intra_block += 1;
        } else {
            self.cross_warp_cross_block += 1;
        }
    }

    pub fn add(&mut self, o: &Contention) {
        self.intra_warp += o.intra_warp;
        self.cross_warp_intra_block += o.cross_warp_intra_block;
        self.cross_warp_cross_block += o.cross_warp_cross_block;
    }
}

/// Access counters of a cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct CacheStats {
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    pub mshr_merges: u64,
    pub fail_assoc: u64,
    pub fail_mshr: u64,
    pub fail_miss_queue: u64,
    /// Misses that evicted a valid line, by the relation of the two warps.
    pub contention: Contention,
    /// 16-byte reads of the data array: a read hit's data (ceil(size / 16)) and a modified
    /// victim read out to be written back (the energy model's cache reads, docs/energy.md).
    pub data_reads: u64,
    /// 16-byte writes of the data array: fills (atom / 16), write hits kept in the line, and
    /// writes allocated in a line without a fetch (ceil(size / 16)).
    pub data_writes: u64,
}

/// 16-byte data-array rows that `bytes` bytes take.
pub(super) fn rows(bytes: u32) -> u64 {
    u64::from(bytes.div_ceil(16))
}

impl CacheStats {
    pub(super) fn count(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Hit => self.hits += 1,
            Outcome::Merged => self.mshr_merges += 1,
            Outcome::Miss => self.misses += 1,
            Outcome::Fail(FailReason::Assoc) => self.fail_assoc += 1,
            Outcome::Fail(FailReason::Mshr) => self.fail_mshr += 1,
            Outcome::Fail(FailReason::MissQueue) => self.fail_miss_queue += 1,
        }
        if !matches!(outcome, Outcome::Fail(_)) {
            self.accesses += 1;
        }
    }

    /// Adds another cache's counters.
    pub fn add(&mut self, o: &CacheStats) {
        self.accesses += o.accesses;
        self.hits += o.hits;
        self.misses += o.misses;
        self.mshr_merges += o.mshr_merges;
        self.fail_assoc += o.fail_assoc;
        self.fail_mshr += o.fail_mshr;
        self.fail_miss_queue += o.fail_miss_queue;
        self.contention.add(&o.contention);
        self.data_reads += o.data_reads;
        self.data_writes += o.data_writes;
    }
}
