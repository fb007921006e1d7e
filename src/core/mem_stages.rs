//! The memory pipeline behind MEM0 (MODEL.md sections 7-9; Elastic §3.1 and Fig. 6): the
//! stages MEM1..MEM(M-1) a shared or fixed-latency access passes after MEM0, and the
//! global/local accesses waiting for their reads to come back from the memory system.
//!
//! Each access that left MEM0 carries the first cycle writeback may take it. The MEM latches of
//! the paper's pipelines move together: when the last one loses writeback
//! ([`MemStages::freeze`]), every shared access still on its way stands still for that cycle
//! (its ready cycle moves one later) and MEM0 does not hand its access on, which is what a
//! column of latches sharing one stall signal does. A global/local access is ready when its last
//! read has returned and its last L1D hit's latency has run ([`MemStages::returned`],
//! [`MemStages::drained`]).

use crate::mem::L1Outcome;

/// The ready cycle of an instruction still waiting for memory.
pub const WAITING: u64 = u64::MAX;

/// A global/local instruction with requests in the memory system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Outstanding {
    tag: u64,
    /// Reads sent and not yet returned.
    reads: u32,
    /// Requests waiting in the MRPB.
    queued: u32,
    /// Cycles from an L1D hit to writeback.
    latency: u32,
    /// Earliest writeback cycle so far.
    ready_at: u64,
}

/// The accesses behind MEM0, in the order they left it, and those still sending requests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemStages {
    /// (tag, first cycle its result may be written back, or [`WAITING`]), in order.
    left_mem0: Vec<(u64, u64)>,
    outstanding: Vec<Outstanding>,
    /// The last memory stage lost writeback this cycle: MEM1..MEM(M-1) stand still.
    frozen: bool,
}

impl MemStages {
    /// A global/local instruction `tag` entered MEM0; an L1D hit's data is ready `latency`
    /// cycles after the hit.
    pub fn begin(&mut self, tag: u64, latency: u32) {
        self.outstanding.push(Outstanding {
            tag,
            reads: 0,
            queued: 0,
            latency,
            ready_at: 0,
        });
    }

    /// Whether global/local instruction `tag` still expects its requests' outcomes.
    pub fn expects(&self, tag: u64) -> bool {
        self.outstanding.iter().any(|o| o.tag == tag)
    }

    /// A request of `tag` was sent in cycle `now` with outcome `outcome` (the L1D's), or was
    /// queued in the MRPB (`None`).
    pub fn sent(&mut self, tag: u64, outcome: Option<L1Outcome>, now: u64) {
        let Some(o) = self.outstanding.iter_mut().find(|o| o.tag == tag) else {
            return;
        };
        match outcome {
            None => o.queued += 1,
            Some(L1Outcome::Hit) => o.ready_at = o.ready_at.max(now + u64::from(o.latency) + 1),
            Some(L1Outcome::Pending) => o.reads += 1,
            Some(_) => {}
        }
    }

    /// A shared or fixed-latency access left MEM0 in cycle `now`; its data takes `latency`
    /// cycles more.
    pub fn left_fixed(&mut self, tag: u64, now: u64, latency: u32) {
        self.left_mem0.push((tag, now + u64::from(latency) + 1));
    }

    /// A global/local instruction's last request was taken in cycle `now`: it leaves MEM0 and
    /// waits for what it sent.
    pub fn left_requests(&mut self, tag: u64, now: u64) {
        let Some(i) = self.outstanding.iter().position(|o| o.tag == tag) else {
            self.left_mem0.push((tag, now + 1));
            return;
        };
        let o = &mut self.outstanding[i];
        o.ready_at = o.ready_at.max(now + 1);
        if o.reads == 0 && o.queued == 0 {
            self.left_mem0.push((tag, o.ready_at));
            self.outstanding.swap_remove(i);
        } else {
            self.left_mem0.push((tag, WAITING));
        }
    }

    /// A read of instruction `tag` came back in cycle `now`; `in_mem0` is the instruction MEM0
    /// holds (it is not complete while it still sends requests).
    pub fn returned(&mut self, tag: u64, now: u64, in_mem0: Option<u64>) {
        let Some(i) = self.outstanding.iter().position(|o| o.tag == tag) else {
            return;
        };
        let o = &mut self.outstanding[i];
        o.reads = o.reads.saturating_sub(1);
        o.ready_at = o.ready_at.max(now + 1);
        self.settle(i, in_mem0);
    }

    /// A request of `tag` that waited in the MRPB was taken in cycle `now` with `outcome`: the
    /// hit's ready time or the read to wait for joins its instruction.
    pub fn drained(&mut self, tag: u64, outcome: L1Outcome, now: u64, in_mem0: Option<u64>) {
        let Some(i) = self.outstanding.iter().position(|o| o.tag == tag) else {
            return;
        };
        let o = &mut self.outstanding[i];
        o.queued = o.queued.saturating_sub(1);
        match outcome {
            L1Outcome::Hit => o.ready_at = o.ready_at.max(now + u64::from(o.latency) + 1),
            L1Outcome::Pending => o.reads += 1,
            L1Outcome::Stored | L1Outcome::Fail(_) | L1Outcome::Busy => {}
        }
        self.settle(i, in_mem0);
    }

    /// Completes outstanding instruction `i` once it has left MEM0 and waits for nothing.
    fn settle(&mut self, i: usize, in_mem0: Option<u64>) {
        let o = self.outstanding[i];
        if o.reads > 0 || o.queued > 0 || in_mem0 == Some(o.tag) {
            return;
        }
        self.outstanding.swap_remove(i);
        if let Some(f) = self.left_mem0.iter_mut().find(|(t, _)| *t == o.tag) {
            f.1 = o.ready_at;
        }
    }

    /// The last memory stage lost writeback in cycle `now`: the shared accesses (`is_shared`)
    /// in MEM1..MEM(M-1) stand still for the cycle, and MEM0 does not hand its access on.
    pub fn freeze(&mut self, now: u64, is_shared: impl Fn(u64) -> bool) {
        let behind = |f: &&mut (u64, u64)| f.1 > now && f.1 != WAITING && is_shared(f.0);
        for f in self.left_mem0.iter_mut().filter(behind) {
            f.1 += 1;
        }
        self.frozen = true;
    }

    /// Whether the stages stand still this cycle; clears it for the next.
    pub fn take_frozen(&mut self) -> bool {
        std::mem::take(&mut self.frozen)
    }

    /// Whether instruction `tag` has left MEM0.
    pub fn has_left_mem0(&self, tag: u64) -> bool {
        self.left_mem0.iter().any(|(t, _)| *t == tag)
    }

    /// Reads of instruction `tag` still in the memory system.
    pub fn outstanding_reads(&self, tag: u64) -> u32 {
        self.outstanding
            .iter()
            .find(|o| o.tag == tag)
            .map_or(0, |o| o.reads)
    }

    /// Accesses whose data is ready in cycle `now`, oldest first.
    pub fn ready(&self, now: u64) -> impl Iterator<Item = u64> + '_ {
        self.left_mem0
            .iter()
            .filter(move |(_, at)| *at <= now)
            .map(|(t, _)| *t)
    }

    /// Accesses behind MEM0: (tag, ready cycle or [`WAITING`]).
    pub fn in_flight(&self) -> &[(u64, u64)] {
        &self.left_mem0
    }

    /// Removes a completed access.
    pub fn retire(&mut self, tag: u64) {
        self.left_mem0.retain(|(t, _)| *t != tag);
    }
}
