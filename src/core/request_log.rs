//! What happened to the requests of each global/local memory instruction the LD/ST unit holds
//! (issue 17, "Why?"): how many the L1D took as hits, misses and MSHR merges, how often MEM0 was
//! refused and why, and the set and its holders at the latest associativity failure. The unit
//! writes one [`RequestLog`] per instruction from the cycle it enters MEM0 until it writes back;
//! [`crate::why`] reads them to explain a stalled warp ("ld.global at line 41 <- L1 miss, MSHR
//! 3 <- set 7 had every way reserved, by warps 0-3").
//!
//! Recording costs a few counter updates per request; a refusal copies the set's ways (once per
//! refused attempt, into a reused buffer).

use crate::mem::tag_array::SetLine;
use crate::mem::FailReason;
use serde::Serialize;
use std::collections::VecDeque;

/// A refusal of the L1D, as MEM0 (or the MRPB's head) saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    pub cycle: u64,
    pub reason: FailReason,
    /// The request's address as the cache saw it.
    pub addr: u64,
    /// Its L1D set, when there is an L1D.
    pub set: Option<u32>,
    /// The set's ways at the refusal (state, block, owner), for an associativity failure.
    pub ways: Vec<SetLine>,
}

/// One memory instruction's requests so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequestLog {
    /// The instruction's tag.
    pub tag: u64,
    /// Coalesced requests it makes.
    pub requests: u32,
    /// The first cycle MEM0 tried to send one of them.
    pub first_try: Option<u64>,
    /// The cycle its last request was taken (it left MEM0).
    pub left_mem0: Option<u64>,
    pub hits: u32,
    /// Reads that allocated an MSHR entry and went on to the L2.
    pub misses: u32,
    /// Reads merged into another request's MSHR entry.
    pub merges: u32,
    /// Stores taken (written through, or kept in a write-back line).
    pub stores: u32,
    /// Requests put into the MRPB (taken from it later).
    pub queued: u32,
    /// Of those, the ones the MRPB has handed on (to the L1D, or past it).
    pub left_mrpb: u32,
    /// Requests the MRPB sent past the L1D to the L2 after a refusal.
    pub bypassed: u32,
    /// Refusals by reason: associativity, MSHR, miss queue (the `l1d.reservation_fails` order).
    pub refusals: [u32; 3],
    /// Attempts the cache's data port was busy.
    pub port_busy: u32,
    /// Cycles MEM0 waited for a full MRPB queue.
    pub mrpb_full: u32,
    /// Replies come back.
    pub replies: u32,
    /// The cycle of the last reply.
    pub last_reply: Option<u64>,
    /// The latest refusal.
    pub last_refusal: Option<Refusal>,
}

/// How an attempt to hand a request to the L1D ended, for the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    Hit,
    Miss,
    Merge,
    Store,
    Queued,
    Bypassed,
    PortBusy,
    MrpbFull,
}

impl RequestLog {
    fn new(tag: u64, requests: u32) -> RequestLog {
        RequestLog {
            tag,
            requests,
            first_try: None,
            left_mem0: None,
            hits: 0,
            misses: 0,
            merges: 0,
            stores: 0,
            queued: 0,
            left_mrpb: 0,
            bypassed: 0,
            refusals: [0; 3],
            port_busy: 0,
            mrpb_full: 0,
            replies: 0,
            last_reply: None,
            last_refusal: None,
        }
    }

    /// Requests waiting in the MRPB now.
    pub fn in_mrpb(&self) -> u32 {
        self.queued.saturating_sub(self.left_mrpb)
    }

    /// Refusals of every reason.
    pub fn refused(&self) -> u32 {
        self.refusals.iter().sum()
    }
}

/// The logs of the instructions the LD/ST unit holds, oldest first (a deque: the oldest
/// usually retires first, and taking it out must not move the rest).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestJournal {
    logs: VecDeque<RequestLog>,
}

/// The index of `reason` in [`RequestLog::refusals`].
fn reason_index(reason: FailReason) -> usize {
    match reason {
        FailReason::Assoc => 0,
        FailReason::Mshr => 1,
        FailReason::MissQueue => 2,
    }
}

impl RequestJournal {
    /// Instruction `tag`, making `requests` requests, entered MEM0.
    pub fn begin(&mut self, tag: u64, requests: u32) {
        self.logs.push_back(RequestLog::new(tag, requests));
    }

    fn log(&mut self, tag: u64) -> Option<&mut RequestLog> {
        self.logs.iter_mut().rev().find(|l| l.tag == tag)
    }

    /// MEM0 (or the MRPB) handed one of `tag`'s requests on in cycle `now`.
    pub fn attempt(&mut self, tag: u64, now: u64, how: Attempt) {
        let Some(l) = self.log(tag) else { return };
        l.first_try.get_or_insert(now);
        match how {
            Attempt::Hit => l.hits += 1,
            Attempt::Miss => l.misses += 1,
            Attempt::Merge => l.merges += 1,
            Attempt::Store => l.stores += 1,
            Attempt::Queued => l.queued += 1,
            Attempt::Bypassed => l.bypassed += 1,
            Attempt::PortBusy => l.port_busy += 1,
            Attempt::MrpbFull => l.mrpb_full += 1,
        }
    }

    /// The L1D refused one of `tag`'s requests in cycle `now`; `set` is its set and the set's
    /// ways, when there is an L1D.
    pub fn refused(
        &mut self,
        tag: u64,
        now: u64,
        (reason, addr): (FailReason, u64),
        set: Option<(u32, &[SetLine])>,
    ) {
        let Some(l) = self.log(tag) else { return };
        l.first_try.get_or_insert(now);
        l.refusals[reason_index(reason)] += 1;
        let mut refusal = l.last_refusal.take().unwrap_or(Refusal {
            cycle: now,
            reason,
            addr,
            set: None,
            ways: Vec::new(),
        });
        refusal.cycle = now;
        refusal.reason = reason;
        refusal.addr = addr;
        refusal.set = set.map(|(s, _)| s);
        refusal.ways.clear();
        if reason == FailReason::Assoc {
            if let Some((_, ways)) = set {
                refusal.ways.extend_from_slice(ways);
            }
        }
        l.last_refusal = Some(refusal);
    }

    /// The MRPB handed one of `tag`'s requests on.
    pub fn left_mrpb(&mut self, tag: u64) {
        if let Some(l) = self.log(tag) {
            l.left_mrpb += 1;
        }
    }

    /// `tag`'s last request was taken in cycle `now`.
    pub fn left_mem0(&mut self, tag: u64, now: u64) {
        if let Some(l) = self.log(tag) {
            l.left_mem0 = Some(now);
        }
    }

    /// A reply of `tag` came back in cycle `now`.
    pub fn replied(&mut self, tag: u64, now: u64) {
        if let Some(l) = self.log(tag) {
            l.replies += 1;
            l.last_reply = Some(now);
        }
    }

    /// `tag` wrote back: its log goes.
    pub fn retire(&mut self, tag: u64) {
        if let Some(i) = self.logs.iter().position(|l| l.tag == tag) {
            self.logs.remove(i);
        }
    }

    /// The log of `tag`, if it is still held.
    pub fn get(&self, tag: u64) -> Option<&RequestLog> {
        self.logs.iter().find(|l| l.tag == tag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::LineState;

    #[test]
    fn counts_outcomes_and_keeps_the_latest_refusal() {
        let mut j = RequestJournal::default();
        j.begin(5, 4);
        j.attempt(5, 10, Attempt::Hit);
        let ways = [SetLine {
            state: LineState::Reserved,
            block: 0x80,
            owner: 0x101,
        }];
        j.refused(5, 11, (FailReason::Assoc, 0x100), Some((3, &ways)));
        j.refused(5, 12, (FailReason::Mshr, 0x100), Some((3, &ways)));
        j.attempt(5, 13, Attempt::Miss);
        j.attempt(5, 14, Attempt::Merge);
        j.left_mem0(5, 14);
        j.attempt(5, 14, Attempt::Queued);
        assert_eq!(j.get(5).unwrap().in_mrpb(), 1);
        j.left_mrpb(5);
        assert_eq!(j.get(5).unwrap().in_mrpb(), 0);
        j.replied(5, 40);
        let l = j.get(5).unwrap();
        assert_eq!((l.first_try, l.left_mem0), (Some(10), Some(14)));
        assert_eq!((l.hits, l.misses, l.merges, l.refused()), (1, 1, 1, 2));
        assert_eq!(l.refusals, [1, 1, 0]);
        let r = l.last_refusal.as_ref().unwrap();
        assert_eq!((r.cycle, r.reason, r.set), (12, FailReason::Mshr, Some(3)));
        // Only an associativity failure keeps the set's ways.
        assert!(r.ways.is_empty());
        assert_eq!((l.replies, l.last_reply), (1, Some(40)));
        j.retire(5);
        assert!(j.get(5).is_none());
    }
}
