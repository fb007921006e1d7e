//! The memory request prioritization buffer, MRPB (Jia, Shaw and Martonosi, HPCA 2014; MODEL.md
//! section 10): FIFO queues between the coalescer and the L1D that hold coalesced requests not
//! yet looked up, and release them into the cache in a more cache-friendly order.
//!
//! * **Signature** (MRPB §3.2): the queue a request enters. `warp`: one queue per hardware warp
//!   slot; `block`: one per CTA slot; `warp_in_block`: the i-th warp of every CTA shares queue i;
//!   `single`: one queue for everything (no reordering: with depth 1 and latency 0 it is the
//!   bypass-only slot of MRPB §5.4).
//! * **Enqueue and dequeue** (MRPB §6): the buffer works split-cycle, first one enqueue (from
//!   MEM0) then one dequeue (to the L1D); a request may leave only `latency` cycles after it
//!   entered (the buffer latency of MRPB §5.3), and the selector skips queues whose head is not
//!   that old (MODEL.md section 10).
//! * **Drain policy** (MRPB §3.3): `fixed` takes the lowest-numbered queue with a ready head,
//!   `round_robin` the next such queue after the last one served, `longest_first` the longest
//!   such queue (ties: the lower number), each re-decided after every request; the `greedy_*`
//!   variants keep serving the chosen queue while it has a ready head, and only then choose
//!   again. (A greedy queue whose next request is not old enough yet has been emptied of every
//!   request that was ready: warpstep then chooses again rather than idle.)
//! * **Flush** (MRPB §3.3, on in MRPB's final design): a read that meets a full queue makes
//!   that queue drain one request first (a full-queue drain); a write or atomic does not enter
//!   a queue ("letting the buffer store only read requests"): its queue is emptied first, one
//!   request per cycle ahead of every other queue, and then the controller "services the
//!   incoming write request, rather than enqueueing it". §3.3 gives the flush priority for
//!   emptying the write's queue and says nothing of the write against the other queues' reads.
//!   warpstep holds the write in one write register beside the queues (MEM0 is free for the
//!   next request; a write that meets a held write waits in MEM0) and sends it in its queue's
//!   turn under the drain policy (the write is its queue's next request: the same warp's later
//!   reads wait behind it), or in the first dequeue slot no queued read is ready for. So a write
//!   never overtakes the reads the drain policy ranks first and that already waited the buffer
//!   latency. (Sent ahead of them, as warpstep first did, writes took the L1D's miss queue from
//!   reads whose warps wait for them: gemm's port lost 20%, `docs/mrpb.md`.) A held write pays
//!   no buffer latency (it was never queued). With flush off a full queue stalls MEM0 and
//!   writes queue like reads.
//! * **Outbound slot** (MRPB §3.1, §6): the request chosen leaves its queue for the outbound
//!   slot, from which the L1D takes it; one the L1D refuses stays there and is retried every
//!   cycle (or bypasses the L1D, as the owner decides by [`Mrpb::bypasses`]), so nothing else
//!   leaves the buffer meanwhile.
//! * **Bypass** (MRPB §3.4): `assoc` lets a global read the L1D refuses on an associativity
//!   stall go straight to the L2, its reply filling only registers; `all` any reservation
//!   failure; `off` none. Writes and local reads never bypass (the L1D writes local data back,
//!   so the line there may be the only current copy).
//!
//! Requests of one warp always share a queue, and queues are FIFO, so one thread's requests
//! are never reordered; a warp waits at `bar.sync` and `membar` until none of its requests is
//! in the buffer ([`Mrpb::holds_requests_of`]), so no reordering crosses a barrier.

use super::data_cache::FailReason;
use super::request::{Access, AccessKind};
use crate::config::{Config, MrpbBypass, MrpbConfig, MrpbDrain, MrpbSignature};
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};

/// Who issued a request, as the signatures need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Requester {
    /// Hardware warp slot.
    pub warp: u32,
    /// CTA slot.
    pub cta: u32,
    /// The warp's position in its CTA.
    pub warp_in_cta: u32,
    /// Its CTA's launch index in the grid (tells CTAs apart that used the same slot).
    pub block: u64,
}

impl Requester {
    /// The warp as a cache line's owner (the contention counts).
    pub fn owner(&self) -> u64 {
        super::data_cache::owner_id(self.block, self.warp_in_cta)
    }
}

/// One coalesced request waiting in the buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MrpbRequest {
    pub access: Access,
    /// The instruction it belongs to.
    pub tag: u64,
    pub from: Requester,
    /// The cycle it entered the buffer.
    pub enqueued: u64,
}

/// What MEM0's offer of a request came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    /// In its queue.
    Queued,
    /// A write (flush on) whose queue is empty: the buffer holds it in its write register,
    /// unqueued (MRPB §3.3), and MEM0 is done with it.
    Held,
    /// Not the buffer's: MEM0 sends it to the L1D itself (no MRPB, or not a global or local
    /// access). [`Mrpb::offer`] never answers this.
    Direct,
    /// Its queue is full: MEM0 stalls (`mrpb_full`).
    Full,
    /// A write (flush on) waiting for its queue to empty, or for the write register.
    Flushing,
}

/// Why the buffer served the queue it served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// The drain policy chose it.
    Policy,
    /// A read met it full (flush on).
    FullQueue,
    /// A write waits for it to empty (flush on).
    Flush,
    /// The outbound request the L1D refused last cycle, tried again.
    Retry,
    /// The held write (flush on): no queued read was ready.
    Write,
}

/// Requests that bypassed the L1D, by the reservation failure that sent them on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Bypassed {
    pub assoc: u64,
    pub mshr: u64,
    pub miss_queue: u64,
}

/// MRPB counters (`warpstep run --json`'s `mrpb`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct MrpbStats {
    /// Requests that entered a queue.
    pub enqueued: u64,
    /// Requests the L1D took from the buffer, held writes included (bypassed ones not counted).
    pub drained: u64,
    pub bypassed: Bypassed,
    /// Writes (and atomics) that found their queue non-empty and flushed it.
    pub flushes: u64,
    /// Requests drained to empty a queue for a waiting write.
    pub flush_drains: u64,
    /// Requests drained because a read met their queue full.
    pub full_queue_drains: u64,
    /// Writes the buffer took unqueued into its write register (flush on).
    pub direct_writes: u64,
    /// Cycles the held write let a ready read of another queue go first.
    pub write_yields: u64,
    /// MEM0 cycles stalled on a full queue.
    pub full_stall_cycles: u64,
    /// MEM0 cycles a write waited for its queue to empty or for the write register.
    pub flush_stall_cycles: u64,
    /// Cycles the outbound request was refused by the L1D and stayed.
    pub refused_cycles: u64,
    /// Cycles by the number of requests in the buffer.
    pub occupancy: BTreeMap<u32, u64>,
}

impl MrpbStats {
    /// Adds another SM's counters.
    pub fn add(&mut self, o: &MrpbStats) {
        self.enqueued += o.enqueued;
        self.drained += o.drained;
        self.bypassed.assoc += o.bypassed.assoc;
        self.bypassed.mshr += o.bypassed.mshr;
        self.bypassed.miss_queue += o.bypassed.miss_queue;
        self.flushes += o.flushes;
        self.flush_drains += o.flush_drains;
        self.full_queue_drains += o.full_queue_drains;
        self.direct_writes += o.direct_writes;
        self.write_yields += o.write_yields;
        self.full_stall_cycles += o.full_stall_cycles;
        self.flush_stall_cycles += o.flush_stall_cycles;
        self.refused_cycles += o.refused_cycles;
        for (k, v) in &o.occupancy {
            *self.occupancy.entry(*k).or_insert(0) += v;
        }
    }
}

/// The buffer (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mrpb {
    config: MrpbConfig,
    queues: Vec<VecDeque<MrpbRequest>>,
    /// Requests in all queues.
    held: usize,
    /// Requests of each warp slot in the queues or the outbound slot.
    per_warp: Vec<u32>,
    /// The request chosen and not yet taken by the L1D.
    outbound: Option<(u32, MrpbRequest)>,
    /// The write register (flush on): a write whose queue was empty, and that queue.
    write: Option<(u32, MrpbRequest)>,
    /// The queue a write waits to see emptied.
    flushing: Option<u32>,
    /// The queue a read met full.
    full: Option<u32>,
    /// The queue a greedy policy is emptying.
    greedy: Option<u32>,
    /// Where round robin looks first.
    next_rr: u32,
    /// This cycle's choice, for the views.
    last: Option<(u32, Choice)>,
    /// The request that went past the L1D to the L2 this cycle, for the views.
    bypassed_now: Option<(FailReason, MrpbRequest)>,
    pub stats: MrpbStats,
}

impl Mrpb {
    /// The buffer `config.mrpb` describes, if it is enabled.
    pub fn new(config: &Config) -> Option<Mrpb> {
        if !config.mrpb.enabled {
            return None;
        }
        let queues = config.mrpb_queues().max(1) as usize;
        Some(Mrpb {
            config: config.mrpb.clone(),
            queues: vec![VecDeque::new(); queues],
            held: 0,
            per_warp: vec![0; config.core.max_warps_per_sm.max(1) as usize],
            outbound: None,
            write: None,
            flushing: None,
            full: None,
            greedy: None,
            next_rr: 0,
            last: None,
            bypassed_now: None,
            stats: MrpbStats::default(),
        })
    }

    /// The queue a request of `from` enters (the signature).
    pub fn queue_of(&self, from: Requester) -> u32 {
        let id = match self.config.signature {
            MrpbSignature::Warp => from.warp,
            MrpbSignature::Block => from.cta,
            MrpbSignature::WarpInBlock => from.warp_in_cta,
            MrpbSignature::Single => 0,
        };
        id % self.queues.len() as u32
    }

    fn depth(&self) -> usize {
        self.config.queue_depth.max(1) as usize
    }

    /// MEM0 offers a request in cycle `now` (the enqueue half of the cycle).
    pub fn offer(&mut self, access: Access, tag: u64, from: Requester, now: u64) -> Offer {
        let q = self.queue_of(from);
        let queue = &self.queues[q as usize];
        let write = access.kind != AccessKind::Read;
        if write && self.config.flush {
            let outbound_from_q = matches!(self.outbound, Some((oq, _)) if oq == q);
            if queue.is_empty() && !outbound_from_q && self.write.is_none() {
                self.flushing = None;
                let r = MrpbRequest {
                    access,
                    tag,
                    from,
                    enqueued: now,
                };
                self.write = Some((q, r));
                self.count_in(from);
                self.stats.direct_writes += 1;
                return Offer::Held;
            }
            if queue.is_empty() && !outbound_from_q {
                // Its queue is empty, but the write register is taken.
                self.stats.flush_stall_cycles += 1;
                return Offer::Flushing;
            }
            if self.flushing != Some(q) {
                self.stats.flushes += 1;
                self.flushing = Some(q);
            }
            self.stats.flush_stall_cycles += 1;
            return Offer::Flushing;
        }
        if queue.len() >= self.depth() {
            if self.config.flush {
                self.full = Some(q);
            }
            self.stats.full_stall_cycles += 1;
            return Offer::Full;
        }
        self.queues[q as usize].push_back(MrpbRequest {
            access,
            tag,
            from,
            enqueued: now,
        });
        self.held += 1;
        self.count_in(from);
        self.stats.enqueued += 1;
        Offer::Queued
    }

    fn count_in(&mut self, from: Requester) {
        if let Some(n) = self.per_warp.get_mut(from.warp as usize) {
            *n += 1;
        }
    }

    fn ready(&self, q: u32, now: u64) -> bool {
        self.queues[q as usize]
            .front()
            .is_some_and(|r| now >= r.enqueued + u64::from(self.config.latency))
    }

    /// The request the L1D should see in cycle `now` (the dequeue half), and why: the refused
    /// outbound request again, else the head of the queue the flush, a full queue or the drain
    /// policy picks, else the held write. It stays the buffer's until [`Mrpb::taken`].
    pub fn next(&mut self, now: u64) -> Option<MrpbRequest> {
        if let Some((q, r)) = self.outbound {
            self.last = Some((q, Choice::Retry));
            return Some(r);
        }
        let chosen = if self.held == 0 {
            None
        } else {
            self.choose(now)
        };
        let Some((q, why)) = chosen else {
            let (q, r) = self.write.take()?;
            self.outbound = Some((q, r));
            self.last = Some((q, Choice::Write));
            return Some(r);
        };
        if let Some((wq, w)) = self.write {
            if wq == q {
                // Its queue's turn: the write goes ahead of the reads that came after it.
                self.write = None;
                self.outbound = Some((q, w));
                self.last = Some((q, Choice::Write));
                return Some(w);
            }
            self.stats.write_yields += 1;
        }
        let r = self.queues[q as usize].pop_front()?;
        self.held -= 1;
        self.outbound = Some((q, r));
        self.last = Some((q, why));
        match why {
            Choice::Flush => self.stats.flush_drains += 1,
            Choice::FullQueue => {
                self.stats.full_queue_drains += 1;
                self.full = None;
            }
            Choice::Policy | Choice::Retry | Choice::Write => {}
        }
        Some(r)
    }

    fn choose(&mut self, now: u64) -> Option<(u32, Choice)> {
        if let Some(q) = self.flushing {
            // Nothing else leaves while a write waits for its queue.
            return self.ready(q, now).then_some((q, Choice::Flush));
        }
        if let Some(q) = self.full.filter(|&q| self.ready(q, now)) {
            return Some((q, Choice::FullQueue));
        }
        let greedy = matches!(
            self.config.drain,
            MrpbDrain::GreedyFixed | MrpbDrain::GreedyRoundRobin | MrpbDrain::GreedyLongestFirst
        );
        if greedy {
            if let Some(q) = self.greedy.filter(|&q| self.ready(q, now)) {
                return Some((q, Choice::Policy));
            }
        }
        let q = match self.config.drain {
            MrpbDrain::Fixed | MrpbDrain::GreedyFixed => self.lowest_ready(now),
            MrpbDrain::RoundRobin | MrpbDrain::GreedyRoundRobin => self.next_ready_rr(now),
            MrpbDrain::LongestFirst | MrpbDrain::GreedyLongestFirst => self.longest_ready(now),
        }?;
        self.greedy = greedy.then_some(q);
        Some((q, Choice::Policy))
    }

    fn lowest_ready(&self, now: u64) -> Option<u32> {
        (0..self.queues.len() as u32).find(|&q| self.ready(q, now))
    }

    fn next_ready_rr(&mut self, now: u64) -> Option<u32> {
        let n = self.queues.len() as u32;
        let q = (0..n)
            .map(|k| (self.next_rr + k) % n)
            .find(|&q| self.ready(q, now))?;
        self.next_rr = (q + 1) % n;
        Some(q)
    }

    fn longest_ready(&self, now: u64) -> Option<u32> {
        (0..self.queues.len() as u32)
            .filter(|&q| self.ready(q, now))
            .max_by_key(|&q| (self.queues[q as usize].len(), std::cmp::Reverse(q)))
    }

    /// The L1D took the outbound request (or it bypassed the L1D).
    pub fn taken(&mut self) {
        if let Some((_, r)) = self.outbound.take() {
            if let Some(n) = self.per_warp.get_mut(r.from.warp as usize) {
                *n = n.saturating_sub(1);
            }
        }
    }

    /// The L1D refused the outbound request; it stays for next cycle.
    pub fn refused(&mut self) {
        self.stats.refused_cycles += 1;
    }

    /// Whether a request the L1D refused for `reason` goes to the L2 instead.
    pub fn bypasses(&self, r: &MrpbRequest, reason: FailReason) -> bool {
        if r.access.kind != AccessKind::Read || r.access.space != super::DataSpace::Global {
            return false;
        }
        match self.config.bypass {
            MrpbBypass::Assoc => reason == FailReason::Assoc,
            MrpbBypass::All => true,
            MrpbBypass::Off => false,
        }
    }

    /// Start of a cycle: forgets last cycle's choice and bypass.
    pub fn begin_cycle(&mut self) {
        self.last = None;
        self.bypassed_now = None;
    }

    /// The outbound request went past the L1D, refused for `reason` (the owner sent it on).
    pub fn count_bypass(&mut self, reason: FailReason) {
        if let Some((_, r)) = self.outbound {
            self.bypassed_now = Some((reason, r));
        }
        let b = &mut self.stats.bypassed;
        match reason {
            FailReason::Assoc => b.assoc += 1,
            FailReason::Mshr => b.mshr += 1,
            FailReason::MissQueue => b.miss_queue += 1,
        }
    }

    /// Counts the L1D's acceptance of the outbound request.
    pub fn count_drained(&mut self) {
        self.stats.drained += 1;
    }

    /// End of cycle: the occupancy histogram.
    pub fn end_cycle(&mut self) {
        let n =
            self.held + usize::from(self.outbound.is_some()) + usize::from(self.write.is_some());
        let n = n as u32;
        *self.stats.occupancy.entry(n).or_insert(0) += 1;
    }

    /// Whether any request of warp slot `warp` is still in the buffer (a barrier or fence of
    /// that warp waits for it).
    pub fn holds_requests_of(&self, warp: u32) -> bool {
        self.per_warp.get(warp as usize).is_some_and(|&n| n > 0)
    }

    /// Nothing queued, held or outbound.
    pub fn is_empty(&self) -> bool {
        self.held == 0 && self.outbound.is_none() && self.write.is_none()
    }

    /// The queues, oldest request first.
    pub fn queues(&self) -> &[VecDeque<MrpbRequest>] {
        &self.queues
    }

    /// The outbound request and the queue it came from.
    pub fn outbound(&self) -> Option<(u32, &MrpbRequest)> {
        self.outbound.as_ref().map(|(q, r)| (*q, r))
    }

    /// The queue served this cycle and why.
    pub fn last_choice(&self) -> Option<(u32, Choice)> {
        self.last
    }

    /// The request that bypassed the L1D this cycle, and the failure that sent it.
    pub fn bypassed_now(&self) -> Option<(FailReason, &MrpbRequest)> {
        self.bypassed_now.as_ref().map(|(f, r)| (*f, r))
    }

    /// The held write (flush on) and its queue.
    pub fn held_write(&self) -> Option<(u32, &MrpbRequest)> {
        self.write.as_ref().map(|(q, r)| (*q, r))
    }

    /// The queue a write waits to see emptied, if any.
    pub fn flushing(&self) -> Option<u32> {
        self.flushing
    }

    pub fn config(&self) -> &MrpbConfig {
        &self.config
    }
}
