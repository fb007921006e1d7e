//! An optional log of the global memory path's events (issue 17, "Exports": the Perfetto
//! trace's memory tracks): what the L1D of each SM answered each global or local request from
//! MEM0 (or from the MRPB), when the L1D handed the request's reply back to the LD/ST unit, and
//! where every fetch below the L1Ds went: into the interconnect, into and out of an L2 slice,
//! into and out of a DRAM channel, and back into its SM's L1D.
//!
//! The log is off unless a recorder turns it on ([`crate::sim::Sim::set_memory_events`]); off,
//! each place that would record checks one `Option` and does nothing else, and nothing about
//! the timing changes either way. The L1D pairs each request that waits for a reply with the
//! reply that answers it (an MSHR fill for a miss or a merge, the L2's acknowledgement for a
//! store written through, the reply of a request that bypassed the cache) and gives both events
//! the same `id`, so a viewer can draw the request's life as one span.

use super::data_cache::{FailReason, Outcome};
use super::request::{AccessKind, DataSpace, Fetch, FetchKind};
use serde::Serialize;

/// What the L1D did with one request from MEM0 (a finer split of [`super::L1Outcome`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "outcome", content = "reason")]
pub enum AccessOutcome {
    /// A read hit: the data is ready after `l1d.latency` (the LD/ST unit times it).
    Hit,
    /// A new miss: an MSHR entry and a fetch in the miss queue; a reply follows.
    Miss,
    /// Merged into the MSHR entry of a miss to the same block; a reply follows.
    Merged,
    /// A store written through to the L2; its acknowledgement follows.
    WriteThrough,
    /// A store kept in a write-back line: nothing follows.
    Stored,
    /// Past the cache to the L2 (an atomic, no L1D, or MRPB's bypass); a reply follows.
    Bypass,
    /// A reservation failure: MEM0 (or the MRPB) retries next cycle.
    Fail(FailReason),
    /// The data port was still busy with an earlier access: retried next cycle.
    Busy,
}

impl AccessOutcome {
    /// Whether a reply (an [`MemEventKind::Reply`] with the same id) follows.
    pub fn expects_reply(self) -> bool {
        matches!(
            self,
            AccessOutcome::Miss
                | AccessOutcome::Merged
                | AccessOutcome::WriteThrough
                | AccessOutcome::Bypass
        )
    }

    /// A short name for views and traces.
    pub fn name(self) -> &'static str {
        match self {
            AccessOutcome::Hit => "hit",
            AccessOutcome::Miss => "miss",
            AccessOutcome::Merged => "MSHR merge",
            AccessOutcome::WriteThrough => "write-through",
            AccessOutcome::Stored => "stored",
            AccessOutcome::Bypass => "bypass",
            AccessOutcome::Fail(FailReason::Assoc) => "reservation fail: assoc",
            AccessOutcome::Fail(FailReason::Mshr) => "reservation fail: mshr",
            AccessOutcome::Fail(FailReason::MissQueue) => "reservation fail: miss_queue",
            AccessOutcome::Busy => "data port busy",
        }
    }
}

/// Where a fetch (a request below the L1D, or its reply) was seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "point")]
pub enum FetchPoint {
    /// The L1D's miss queue handed it to the interconnect, towards `slice`.
    ToIcnt { slice: u32 },
    /// L2 slice `slice` took it from the interconnect (into its ROP delay queue).
    L2In { slice: u32 },
    /// L2 slice `slice` handed a reply (or an acknowledgement) to the interconnect; the
    /// fetch's `pieces` say how many replies answer the request.
    L2Out { slice: u32 },
    /// DRAM channel `channel` took it from slice `slice`.
    DramIn { channel: u32, slice: u32 },
    /// DRAM channel `channel` returned the finished read to slice `slice`.
    DramOut { channel: u32, slice: u32 },
    /// The SM's L1D took the reply from the interconnect (its fill port).
    SmIn,
}

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum MemEventKind {
    /// A global or local request of instruction `tag` at the L1D. `id` names the request
    /// (unique per SM); a reply with the same `id` follows when
    /// [`AccessOutcome::expects_reply`].
    Access {
        tag: u64,
        kind: AccessKind,
        #[serde(flatten)]
        outcome: AccessOutcome,
        /// The tag lookup's own result, as the L1D's counters count it (`hits`, `misses`,
        /// `mshr_merges`, reservation failures; a store counts as a hit or a miss too);
        /// `None` when the request did not reach the tags (a bypass, a busy data port).
        lookup: Option<Outcome>,
        id: u64,
    },
    /// The L1D handed the reply of request `id` (instruction `tag`) to the LD/ST unit.
    Reply { tag: u64, id: u64 },
    /// A fetch at a point of its way (every space: constant and instruction misses too).
    Fetch {
        kind: FetchKind,
        /// The requester's key (an L1D MSHR key, or an instruction tag).
        token: u64,
        /// Replies that answer the request (on an [`FetchPoint::L2Out`] or later).
        pieces: u8,
        #[serde(flatten)]
        at: FetchPoint,
    },
}

/// One event of the memory path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MemEvent {
    /// The core cycle it happened in.
    pub cycle: u64,
    /// The SM the request belongs to.
    pub sm: u32,
    /// The address as the cache sees it (local addresses moved by the SM's offset).
    pub addr: u64,
    pub size: u32,
    pub space: DataSpace,
    #[serde(flatten)]
    pub what: MemEventKind,
}

impl MemEvent {
    /// The event of `fetch` reaching `at` in cycle `cycle`.
    pub fn fetch(cycle: u64, f: &Fetch, at: FetchPoint) -> MemEvent {
        MemEvent {
            cycle,
            sm: f.sm,
            addr: f.addr,
            size: f.size,
            space: f.space,
            what: MemEventKind::Fetch {
                kind: f.kind,
                token: f.token,
                pieces: f.pieces,
                at,
            },
        }
    }
}

/// How the L1D will recognise a waiting request's reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Via {
    /// Through the cache: the MSHR entry's key.
    Cache(u64),
    /// Past the cache (a bypass, or a store's acknowledgement): the fetch's address.
    Direct(u64),
}

/// A request waiting for its reply.
#[derive(Debug, Clone, Copy)]
struct Open {
    id: u64,
    tag: u64,
    via: Via,
    addr: u64,
    size: u32,
    space: DataSpace,
}

/// One L1D's log: its events and the requests still waiting for a reply.
#[derive(Debug, Clone, Default)]
pub struct L1dLog {
    events: Vec<MemEvent>,
    next_id: u64,
    open: Vec<Open>,
}

impl L1dLog {
    /// Records what the L1D of `sm` did with a request (its address, size, space and kind) of
    /// instruction `tag`: the outcome and the tag lookup's own result, and `key`, its MSHR key
    /// when it waits in the cache. Constant and instruction requests are not logged here.
    pub fn access(
        &mut self,
        cycle: u64,
        sm: u32,
        (addr, size, space, kind): (u64, u32, DataSpace, AccessKind),
        tag: u64,
        (outcome, lookup): (AccessOutcome, Option<Outcome>),
        key: Option<u64>,
    ) {
        if !matches!(space, DataSpace::Global | DataSpace::Local) {
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        if outcome.expects_reply() {
            let via = match (outcome, key) {
                (AccessOutcome::Miss | AccessOutcome::Merged, Some(k)) => Via::Cache(k),
                _ => Via::Direct(addr),
            };
            self.open.push(Open {
                id,
                tag,
                via,
                addr,
                size,
                space,
            });
        }
        self.events.push(MemEvent {
            cycle,
            sm,
            addr,
            size,
            space,
            what: MemEventKind::Access {
                tag,
                kind,
                outcome,
                lookup,
                id,
            },
        });
    }

    /// The reply of instruction `tag` through the cache's MSHR entry `key` went to the LD/ST
    /// unit.
    pub fn cache_reply(&mut self, cycle: u64, sm: u32, tag: u64, key: u64) {
        self.reply(cycle, sm, tag, Via::Cache(key));
    }

    /// The reply of instruction `tag`'s request at `addr` that went past the cache (or a
    /// store's acknowledgement) went to the LD/ST unit.
    pub fn direct_reply(&mut self, cycle: u64, sm: u32, tag: u64, addr: u64) {
        self.reply(cycle, sm, tag, Via::Direct(addr));
    }

    fn reply(&mut self, cycle: u64, sm: u32, tag: u64, via: Via) {
        let Some(i) = self.open.iter().position(|o| o.tag == tag && o.via == via) else {
            return;
        };
        let o = self.open.remove(i);
        self.events.push(MemEvent {
            cycle,
            sm,
            addr: o.addr,
            size: o.size,
            space: o.space,
            what: MemEventKind::Reply { tag, id: o.id },
        });
    }

    /// Takes the events recorded so far.
    pub fn take(&mut self) -> Vec<MemEvent> {
        std::mem::take(&mut self.events)
    }

    /// Requests still waiting for their replies.
    pub fn waiting(&self) -> usize {
        self.open.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_closes_the_request_it_answers() {
        let mut log = L1dLog::default();
        let g = (0x100, 128, DataSpace::Global, AccessKind::Read);
        let miss = (AccessOutcome::Miss, Some(Outcome::Miss));
        log.access(1, 0, g, 7, miss, Some(0x100));
        let merged = (AccessOutcome::Merged, Some(Outcome::Merged));
        log.access(2, 0, g, 8, merged, Some(0x100));
        let hit = (AccessOutcome::Hit, Some(Outcome::Hit));
        log.access(3, 0, g, 9, hit, Some(0x100));
        let c = (0xF0_0000_0000, 64, DataSpace::Constant, AccessKind::Read);
        log.access(3, 0, c, 9, miss, Some(0));
        assert_eq!(log.waiting(), 2);
        log.cache_reply(10, 0, 8, 0x100);
        log.cache_reply(11, 0, 7, 0x100);
        log.direct_reply(12, 0, 7, 0x100);
        let ev = log.take();
        assert_eq!(
            ev.len(),
            5,
            "the constant request and the unknown reply are not logged"
        );
        assert_eq!(ev[3].what, MemEventKind::Reply { tag: 8, id: 1 });
        assert_eq!(ev[4].what, MemEventKind::Reply { tag: 7, id: 0 });
        assert_eq!(log.waiting(), 0);
        let json = serde_json::to_value(ev[0]).unwrap();
        assert_eq!(json["event"], "access");
        assert_eq!(json["outcome"], "miss");
        assert_eq!(json["lookup"], "miss");
        let fail = AccessOutcome::Fail(FailReason::Mshr);
        let json = serde_json::to_value(fail).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"outcome": "fail", "reason": "mshr"})
        );
    }
}
