//! The L1D's counters (`warpstep run --json`'s `l1d`, and `l1c`, `l1i`, `l1t` for the SM's
//! other caches behind the same port): a [`DataCache`]'s counters with the refusals of requests
//! that bypass it, and the reservation failures (MRPB section 2.1) by reason and of the current
//! cycle.

use super::super::data_cache::{CacheStats, Contention, DataCache, FailReason};
use serde::Serialize;

/// Reservation failures by reason (`warpstep run --json`'s `l1d.reservation_fails`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ReservationFails {
    pub assoc: u64,
    pub mshr: u64,
    pub miss_queue: u64,
}

/// A reservation failure of the current cycle: why, and the request's address as the cache saw it
/// (local addresses already moved by the SM's offset), so a view can find its set and MSHR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Failure {
    pub reason: FailReason,
    pub addr: u64,
}

/// L1D counters (`warpstep run --json`'s `l1d`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct L1dStats {
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    pub mshr_merges: u64,
    pub reservation_fails: ReservationFails,
    /// Misses that pushed out a line another request had brought in, by whose request it was
    /// (MRPB §2.2, Fig. 4): the same warp, another warp of its CTA, or another CTA's warp.
    pub evictions_by: Contention,
}

impl L1dStats {
    /// No access reached the cache (a cache the configuration does not have).
    pub fn is_unused(&self) -> bool {
        *self == L1dStats::default()
    }

    fn from_cache(c: &CacheStats, bypass_fails: u64) -> L1dStats {
        L1dStats {
            accesses: c.accesses,
            hits: c.hits,
            misses: c.misses,
            mshr_merges: c.mshr_merges,
            reservation_fails: ReservationFails {
                assoc: c.fail_assoc,
                mshr: c.fail_mshr,
                miss_queue: c.fail_miss_queue + bypass_fails,
            },
            evictions_by: c.contention,
        }
    }

    /// Adds another SM's counters.
    pub fn add(&mut self, o: &L1dStats) {
        self.accesses += o.accesses;
        self.hits += o.hits;
        self.misses += o.misses;
        self.mshr_merges += o.mshr_merges;
        self.reservation_fails.assoc += o.reservation_fails.assoc;
        self.reservation_fails.mshr += o.reservation_fails.mshr;
        self.reservation_fails.miss_queue += o.reservation_fails.miss_queue;
        self.evictions_by.add(&o.evictions_by);
    }
}

/// The counters of one of an SM's caches (zero when it has none), with `bypass_fails`
/// refusals of requests that bypass it.
pub(super) fn counters(cache: Option<&DataCache<u64>>, bypass_fails: u64) -> L1dStats {
    let c = cache.map(|c| c.stats).unwrap_or_default();
    L1dStats::from_cache(&c, bypass_fails)
}
