//! The L1D port of the LD/ST unit: the one way MEM0's global, local and constant requests reach
//! the L1D, and the one way the L1D's replies reach the LD/ST unit (MODEL.md sections 9 and 10;
//! book section 4.1, Fig. 4.1's path from the coalescer to the L1 data cache).
//!
//! The hardware takes one request a cycle from MEM0 into the L1D (MODEL.md section 9). With
//! `mrpb.enabled` the memory request prioritization buffer sits in the port (MRPB, Jia, Shaw and
//! Martonosi, HPCA 2014, §3 and §6; MODEL.md section 10): MEM0 offers a global or local request
//! to the buffer instead of the L1D (the enqueue half of the cycle), and the buffer sends its
//! next request on to the L1D (the dequeue half) unless MEM0 used the L1D itself this cycle (a
//! constant load). Without an MRPB every request goes straight to the L1D.
//!
//! What each request met at the port (queued, refused, taken, bypassed) is written into the
//! LD/ST unit's request journal, which the Why? chains read ([`RequestJournal`]).
//!
//! The L1D's replies come back through the port too, one a cycle: the memory system, the L1D's
//! one driver, posts the cycle's reply ([`crate::mem::MemorySystem::cycle`],
//! [`L1d::post_reply`]) and the port takes it at the start of the LD/ST unit's cycle
//! ([`L1Port::take_reply`]).

use super::ccws::LocalityEvent;
use super::request_log::{Attempt, RequestJournal};
use crate::config::Config;
use crate::mem::mrpb::{Mrpb, MrpbRequest, Offer, Requester};
use crate::mem::{Access, AccessKind, DataSpace, FailReason, L1Outcome, L1d};

/// The port between MEM0 and the L1D, with the MRPB in it when `mrpb.enabled`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct L1Port {
    mrpb: Option<Mrpb>,
    /// Why the L1D refused the port's request this cycle (a reservation failure), if it did.
    refused: Option<FailReason>,
    /// MEM0 waits for the MRPB this cycle (a full queue, or a write's flush).
    mrpb_wait: Option<Offer>,
    /// With dynamic CCWS (`core.ccws.dynamic`): what the L1D did for this cycle's global and
    /// local accesses (allocations with their victims, stores), for the victim tag arrays.
    locality: Option<Vec<LocalityEvent>>,
}

/// What the L1D's answer to `access` of warp `from` tells CCWS's victim tag arrays, if anything:
/// a line allocated (with the line it pushed out), or a global store.
fn locality_event(l1d: &L1d, access: &Access, from: Requester) -> Option<LocalityEvent> {
    if let Some(a) = l1d.allocation() {
        return Some(LocalityEvent::Miss {
            warp: from.warp,
            owner: from.owner(),
            block: a.block,
            victim: a.victim,
            read: access.kind == AccessKind::Read,
        });
    }
    let line = u64::from(l1d.cache()?.spec().line_bytes.max(1));
    (access.kind == AccessKind::Write && access.space == DataSpace::Global).then_some(
        LocalityEvent::Store {
            block: access.addr / line * line,
        },
    )
}

/// MSHR merges the SM's L1D has made so far (0 without an L1D).
fn merges_so_far(l1d: &L1d) -> u64 {
    l1d.cache().map_or(0, |c| c.stats.mshr_merges)
}

/// The log's name for an access the L1D took (`merged`: a read that joined an MSHR entry).
fn attempt_of(outcome: L1Outcome, merged: bool) -> Attempt {
    match outcome {
        L1Outcome::Hit => Attempt::Hit,
        L1Outcome::Pending if merged => Attempt::Merge,
        L1Outcome::Pending => Attempt::Miss,
        L1Outcome::Stored => Attempt::Store,
        L1Outcome::Fail(_) | L1Outcome::Busy => Attempt::PortBusy,
    }
}

/// The log's name for the L1D's answer `taken` to `access` (`merged` as for [`attempt_of`]).
fn attempt_taken(taken: L1Outcome, access: &Access, merged: bool) -> Attempt {
    match (taken, access.kind) {
        (L1Outcome::Pending, AccessKind::Write) => Attempt::Store,
        _ => attempt_of(taken, merged),
    }
}

/// Logs that the L1D refused instruction `tag`'s request `access` for `reason`, with its set.
fn log_refusal(
    journal: &mut RequestJournal,
    l1d: &L1d,
    (tag, access): (u64, &Access),
    reason: FailReason,
    now: u64,
) {
    let lines = if reason == FailReason::Assoc {
        l1d.set_lines(access)
    } else {
        l1d.set_of(access).map(|s| (s, Vec::new()))
    };
    let set = lines.as_ref().map(|(s, ways)| (*s, ways.as_slice()));
    journal.refused(tag, now, (reason, access.addr), set);
}

impl L1Port {
    /// The port `config` describes (with its MRPB when `mrpb.enabled`).
    pub fn new(config: &Config) -> L1Port {
        L1Port {
            mrpb: Mrpb::new(config),
            locality: config.core.ccws.dynamic.then(Vec::new),
            ..L1Port::default()
        }
    }

    /// Starts a cycle: last cycle's refusal and MRPB wait are forgotten.
    pub fn begin_cycle(&mut self) {
        self.refused = None;
        self.mrpb_wait = None;
        if let Some(b) = self.mrpb.as_mut() {
            b.begin_cycle();
        }
    }

    /// The reply the L1D posted this cycle (the tag of the instruction whose read or store came
    /// back), if any; one a cycle.
    pub fn take_reply(&mut self, l1d: &mut L1d) -> Option<u64> {
        l1d.take_reply()
    }

    /// MEM0 offers its request `access` of instruction `tag` (warp `from`) to the MRPB: a
    /// global or local request when there is one. [`Offer::Direct`]: it goes to the L1D
    /// ([`L1Port::access`]).
    pub fn offer(
        &mut self,
        access: Access,
        (tag, from): (u64, Requester),
        now: u64,
        journal: &mut RequestJournal,
    ) -> Offer {
        let buffered = matches!(access.space, DataSpace::Global | DataSpace::Local);
        let offer = match self.mrpb.as_mut() {
            Some(b) if buffered => b.offer(access, tag, from, now),
            _ => Offer::Direct,
        };
        match offer {
            Offer::Queued | Offer::Held => journal.attempt(tag, now, Attempt::Queued),
            Offer::Full | Offer::Flushing => {
                self.mrpb_wait = Some(offer);
                journal.attempt(tag, now, Attempt::MrpbFull);
            }
            Offer::Direct => {}
        }
        offer
    }

    /// MEM0's request `access` of instruction `tag` (warp `from`) goes straight to the L1D;
    /// the L1D's answer. A refusal ([`L1Outcome::Fail`]) is remembered for the cycle
    /// ([`L1Port::refused`]).
    pub fn access(
        &mut self,
        l1d: &mut L1d,
        access: &Access,
        (tag, from): (u64, Requester),
        now: u64,
        journal: &mut RequestJournal,
    ) -> L1Outcome {
        let merges = merges_so_far(l1d);
        let outcome = l1d.access_as(access, tag, from.owner(), now);
        self.note_locality(l1d, access, from);
        match outcome {
            L1Outcome::Fail(reason) => {
                self.refused = Some(reason);
                log_refusal(journal, l1d, (tag, access), reason, now);
            }
            L1Outcome::Busy => journal.attempt(tag, now, Attempt::PortBusy),
            taken => {
                let merged = merges_so_far(l1d) > merges;
                journal.attempt(tag, now, attempt_taken(taken, access, merged));
            }
        }
        outcome
    }

    /// Ends the cycle: with an MRPB, its dequeue half, unless MEM0 used the L1D this cycle
    /// (`l1_used`). Returns the request that left the buffer and the L1D's answer to it
    /// ([`L1Outcome::Pending`] for one that bypassed the L1D).
    pub fn end_cycle(
        &mut self,
        now: u64,
        l1_used: bool,
        l1d: &mut L1d,
        journal: &mut RequestJournal,
    ) -> Option<(MrpbRequest, L1Outcome)> {
        self.mrpb.as_ref()?;
        let drained = if l1_used {
            None
        } else {
            self.drain(now, l1d, journal)
        };
        if let Some(b) = self.mrpb.as_mut() {
            b.end_cycle();
        }
        drained
    }

    /// The MRPB's dequeue half: its next request goes to the L1D (or, refused, past it to the
    /// L2 when the bypass policy says so).
    fn drain(
        &mut self,
        now: u64,
        l1d: &mut L1d,
        journal: &mut RequestJournal,
    ) -> Option<(MrpbRequest, L1Outcome)> {
        let b = self.mrpb.as_mut()?;
        let r = b.next(now)?;
        let merges = merges_so_far(l1d);
        let answer = l1d.access_as(&r.access, r.tag, r.from.owner(), now);
        self.note_locality(l1d, &r.access, r.from);
        let b = self.mrpb.as_mut()?;
        let outcome = match answer {
            L1Outcome::Fail(reason) if b.bypasses(&r, reason) => {
                if !l1d.bypass_read(&r.access, r.tag, now) {
                    b.refused();
                    return None;
                }
                b.count_bypass(reason);
                journal.attempt(r.tag, now, Attempt::Bypassed);
                journal.left_mrpb(r.tag);
                L1Outcome::Pending
            }
            L1Outcome::Fail(reason) => {
                b.refused();
                self.refused = Some(reason);
                log_refusal(journal, l1d, (r.tag, &r.access), reason, now);
                return None;
            }
            L1Outcome::Busy => return None,
            taken => {
                b.count_drained();
                let merged = merges_so_far(l1d) > merges;
                journal.attempt(r.tag, now, attempt_taken(taken, &r.access, merged));
                journal.left_mrpb(r.tag);
                taken
            }
        };
        b.taken();
        Some((r, outcome))
    }

    /// Keeps what the L1D's answer to `access` tells CCWS (with `core.ccws.dynamic`).
    fn note_locality(&mut self, l1d: &L1d, access: &Access, from: Requester) {
        if let Some(events) = self.locality.as_mut() {
            events.extend(locality_event(l1d, access, from));
        }
    }

    /// Hands this cycle's L1D events to `observe` (CCWS's victim tags) and forgets them.
    pub fn drain_locality(&mut self, mut observe: impl FnMut(LocalityEvent)) {
        if let Some(events) = self.locality.as_mut() {
            events.drain(..).for_each(&mut observe);
        }
    }

    /// The MRPB, when there is one.
    pub fn mrpb(&self) -> Option<&Mrpb> {
        self.mrpb.as_ref()
    }

    /// Whether MEM0 waited for the MRPB this cycle: a full queue or a write flushing its queue.
    pub fn mrpb_wait(&self) -> Option<Offer> {
        self.mrpb_wait
    }

    /// Why the L1D refused the port's request this cycle, if it did.
    pub fn refused(&self) -> Option<FailReason> {
        self.refused
    }

    /// Whether the MRPB still holds a request of warp slot `warp`.
    pub fn holds_requests_of(&self, warp: u32) -> bool {
        self.mrpb
            .as_ref()
            .is_some_and(|b| b.holds_requests_of(warp))
    }
}
