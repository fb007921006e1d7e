//! The LD/ST unit (MODEL.md sections 1, 7 and 9; book section 4.1.1), stage by stage:
//!
//! | stage | module | what it does |
//! |---|---|---|
//! | PREMEM (elastic only) | [`super::premem`] | memory instructions that left EXE while MEM0 was busy |
//! | MEM0 | [`super::mem0`], this module | costs the access it takes ([`MemoryTiming::take`]: bank passes, coalesced requests), holds a shared access for its passes, sends requests one per cycle |
//! | port | [`super::l1_port`] | MEM0's way to the L1D and back, with the MRPB (section 10) inside it |
//! | MEM1..MEM(M-1), memory wait | [`super::mem_stages`] | the latency after MEM0, or the reads still out |
//!
//! This module drives them each cycle: it takes the L1D's reply from the port, lets MEM0 work
//! one cycle (a pass, or a request through the port, retried when refused), claims the
//! unified pool's bank columns, and says when each instruction's data is ready.

use super::cycle_record::Mem0Cycle;
use super::l1_port::L1Port;
use super::mem_stages::MemStages;
use super::register_banks::PoolArbiter;
use super::request_log::{RequestJournal, RequestLog};
use crate::config::Config;
use crate::mem::mrpb::{Mrpb, MrpbRequest, Offer, Requester};
use crate::mem::{FailReason, L1Outcome, L1d};

use super::mem0::PoolLosses;
pub use super::mem0::{ArbitrationLoss, Mem0, PoolAccess};
pub use super::mem_stages::WAITING;
pub use super::memory_timing::{MemoryCost, MemoryTiming, PoolColumns, SharedStats};

/// One LD/ST unit: MEM0, its port to the L1D (with the MRPB when `mrpb.enabled`), and the
/// accesses in flight.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LdstUnit {
    mem0: Option<Mem0>,
    /// MEM1..MEM(M-1) and the accesses waiting for memory.
    behind: MemStages,
    /// MEM0's way to the L1D and back.
    port: L1Port,
    /// The shared access that left MEM0 this cycle (its bank passes done), if any, and its
    /// conflict cycles.
    shared_done: Option<(u64, u32)>,
    /// This cycle MEM0 replayed a conflict while the access's own later sub-warps waited.
    subwarps_held: bool,
    /// Unified-pool arbitration conflicts so far and this cycle's losers (Unified §4.3).
    pool_losses: PoolLosses,
    /// What happened to each global/local instruction's requests (the "why" chains).
    journal: RequestJournal,
    /// What MEM0 and its port did this cycle (the SM's cycle record takes it).
    now: Mem0Cycle,
}

impl LdstUnit {
    /// The LD/ST unit `config` describes (with its MRPB when `mrpb.enabled`).
    pub fn new(config: &Config) -> LdstUnit {
        LdstUnit {
            port: L1Port::new(config),
            ..LdstUnit::default()
        }
    }

    /// Hands the L1D's events of this cycle's global and local accesses to `observe` (CCWS's
    /// victim tags, `core.ccws.dynamic`; nothing otherwise).
    pub fn drain_locality(&mut self, observe: impl FnMut(super::ccws::LocalityEvent)) {
        self.port.drain_locality(observe);
    }

    /// The shared access that finished its bank passes in MEM0 since the last call, if any, and
    /// its bank-conflict cycles (its passes beyond one per sub-warp).
    pub fn take_shared_done(&mut self) -> Option<(u64, u32)> {
        self.shared_done.take()
    }

    /// Whether MEM0 holds a shared access replaying bank conflicts: one that would have left
    /// MEM0 by now without them (its remaining cycles are all conflict passes).
    pub fn conflict_in_mem0(&self) -> bool {
        self.mem0
            .is_some_and(|m| m.conflict_cycles > 0 && m.cycles_left <= m.conflict_cycles)
    }

    /// Whether MEM0 replayed a conflict this cycle while the same access's later sub-warps
    /// were still arriving (they wait at EXE unless a PREMEM FIFO takes them, §3.2.3).
    pub fn subwarps_held(&self) -> bool {
        self.subwarps_held
    }

    /// Cycles of work the instruction in MEM0 has left (0 when MEM0 is empty).
    pub fn mem0_cycles_left(&self) -> u32 {
        self.mem0.map_or(0, |m| m.cycles_left)
    }

    /// Whether MEM0 can take an instruction this cycle.
    pub fn can_accept(&self) -> bool {
        self.mem0.is_none()
    }

    /// A memory instruction of warp `from` enters MEM0.
    pub fn accept(&mut self, tag: u64, cost: &MemoryCost, from: Requester) {
        self.mem0 = Some(Mem0 {
            tag,
            from,
            cycles_left: cost.occupancy.max(1),
            latency: cost.latency,
            staged: cost.staged,
            shared: cost.shared,
            degree: cost.degree,
            conflict_cycles: cost.conflict_cycles,
            held_subwarp_cycles: cost.held_subwarp_cycles,
            passes_done: 0,
            pool_columns: cost.pool_columns,
        });
        let requests = if cost.shared { 0 } else { cost.requests };
        self.now.took = Some((tag, requests));
        if cost.staged.is_some() {
            self.journal.begin(tag, cost.requests);
            self.behind.begin(tag, cost.latency);
        }
    }

    /// The execute stage of cycle `now`: one reply from the L1D is taken from the port, then
    /// MEM0 works one cycle (a shared/constant pass, or one request through the port to `l1d`);
    /// an instruction that is done with MEM0 moves on.
    ///
    /// With an MRPB, MEM0 offers its request to the buffer instead (the enqueue half of the
    /// cycle) and the buffer then sends one request to the L1D (the dequeue half, at the end of
    /// the port's cycle), unless MEM0 used the L1D itself (a constant load). A write (flush on)
    /// is the buffer's too: it waits in the buffer's write register, unqueued (MRPB §3.3), not
    /// in MEM0.
    ///
    /// In a unified pool a shared pass or a cache access first claims its banks through `pool`,
    /// after the register file's accesses of the cycle; when one is taken it waits a cycle.
    pub fn cycle(
        &mut self,
        now: u64,
        timing: &mut MemoryTiming,
        l1d: &mut L1d,
        pool: &mut dyn PoolArbiter,
    ) {
        let frozen = self.behind.take_frozen();
        self.subwarps_held = false;
        self.pool_losses.now.clear();
        self.now = Mem0Cycle::default();
        self.port.begin_cycle();
        if let Some(tag) = self.port.take_reply(l1d) {
            self.returned(tag, now);
        }
        let mut l1_used = false;
        if let Some(m) = self.mem0 {
            l1_used = match m.staged {
                // MEM1 cannot take the access that would leave MEM0: MEM0 stands still too.
                None if frozen && m.shared && m.cycles_left <= 1 => false,
                None if !self
                    .pool_losses
                    .claim(pool, &m, PoolAccess::Shared, m.pool_columns) =>
                {
                    false
                }
                None => {
                    self.pass(now, m);
                    false
                }
                Some(slot) => self.send(now, m, slot, (timing, pool), l1d),
            };
        }
        if let Some((r, outcome)) = self.port.end_cycle(now, l1_used, l1d, &mut self.journal) {
            self.now.mrpb_sent = Some((r.tag, outcome));
            self.drained(&r, outcome, now);
        }
    }

    /// A request that waited in the MRPB was taken: the hit's ready time or the read to wait
    /// for joins its instruction, which completes if that was all it waited for.
    fn drained(&mut self, r: &MrpbRequest, outcome: L1Outcome, now: u64) {
        let in_mem0 = self.mem0.map(|m| m.tag);
        self.behind.drained(r.tag, outcome, now, in_mem0);
    }

    /// The last memory stage lost writeback in cycle `now` (the paper pipelines' MEM0..MEM(M-1)
    /// are latches, Elastic §3.1 and Fig. 6): the shared accesses in MEM1..MEM(M-1) (`is_shared`)
    /// stand still for the cycle, and MEM0 does not hand its access on. Call before
    /// [`LdstUnit::cycle`].
    pub fn freeze_mem_stages(&mut self, now: u64, is_shared: impl Fn(u64) -> bool) {
        self.behind.freeze(now, is_shared);
    }

    /// A shared or constant instruction spends one cycle in MEM0.
    fn pass(&mut self, now: u64, mut m: Mem0) {
        m.cycles_left = m.cycles_left.saturating_sub(1);
        m.passes_done += 1;
        self.now.pass = Some((m.tag, m.passes_done));
        if m.passes_done >= 2 && m.held_subwarp_cycles > 0 {
            m.held_subwarp_cycles -= 1;
            self.subwarps_held = true;
        }
        if m.cycles_left == 0 {
            self.behind.left_fixed(m.tag, now, m.latency);
            self.mem0 = None;
            if m.shared {
                self.shared_done = Some((m.tag, m.conflict_cycles));
            }
        } else {
            self.mem0 = Some(m);
        }
    }

    /// MEM0 sends the next request of a global/local instruction through the port: to the
    /// MRPB when it takes it, else to the L1D. Returns whether it used the L1D this cycle.
    fn send(
        &mut self,
        now: u64,
        mut m: Mem0,
        slot: u32,
        (timing, pool): (&mut MemoryTiming, &mut dyn PoolArbiter),
        l1d: &mut L1d,
    ) -> bool {
        let Some(access) = timing.next_request(slot) else {
            self.finish(now, m.tag, slot, timing);
            return false;
        };
        if !self.behind.expects(m.tag) {
            self.finish(now, m.tag, slot, timing);
            return false;
        }
        let from = (m.tag, m.from);
        let offer = self.port.offer(access, from, now, &mut self.journal);
        match offer {
            Offer::Queued | Offer::Held => self.behind.sent(m.tag, None, now),
            Offer::Full | Offer::Flushing => return false,
            Offer::Direct => {
                let columns = timing.line_columns(&access);
                if !self.pool_losses.claim(pool, &m, PoolAccess::Cache, columns) {
                    return false;
                }
                let outcome = self.port.access(l1d, &access, from, now, &mut self.journal);
                self.now.l1d = Some((m.tag, outcome));
                match outcome {
                    L1Outcome::Fail(_) => return true,
                    L1Outcome::Busy => return false,
                    outcome => self.behind.sent(m.tag, Some(outcome), now),
                }
            }
        }
        let used = offer == Offer::Direct;
        let left = timing.pop_request(slot);
        m.cycles_left = left as u32;
        if left == 0 {
            self.finish(now, m.tag, slot, timing);
        } else {
            self.mem0 = Some(m);
        }
        used
    }

    /// A global/local instruction's last request was taken: it leaves MEM0.
    fn finish(&mut self, now: u64, tag: u64, slot: u32, timing: &mut MemoryTiming) {
        timing.release(slot);
        self.mem0 = None;
        self.journal.left_mem0(tag, now);
        self.behind.left_requests(tag, now);
    }

    /// A read of instruction `tag` came back in cycle `now`.
    fn returned(&mut self, tag: u64, now: u64) {
        self.journal.replied(tag, now);
        let in_mem0 = self.mem0.map(|m| m.tag);
        self.behind.returned(tag, now, in_mem0);
    }

    /// Cycles a shared or cache access lost its unified-pool banks to the register file.
    pub fn arbitration_conflicts(&self) -> u64 {
        self.pool_losses.conflicts
    }

    /// The shared or cache accesses that lost their unified-pool bank column to the register
    /// file this cycle (the last [`LdstUnit::cycle`]), each counted in
    /// [`LdstUnit::arbitration_conflicts`].
    pub fn arbitration_losses(&self) -> &[ArbitrationLoss] {
        &self.pool_losses.now
    }

    /// What MEM0 and its port did in the last cycle.
    pub fn cycle_record(&self) -> &Mem0Cycle {
        &self.now
    }

    /// The MRPB, when there is one.
    pub fn mrpb(&self) -> Option<&Mrpb> {
        self.port.mrpb()
    }

    /// MEM0's port to the L1D.
    pub fn port(&self) -> &L1Port {
        &self.port
    }

    /// Whether MEM0 waited for the MRPB this cycle: a full queue (`mrpb_full`) or a write
    /// flushing its queue.
    pub fn mrpb_wait(&self) -> Option<Offer> {
        self.port.mrpb_wait()
    }

    /// Whether instruction `tag` has left MEM0 (its requests are in the MRPB or past it).
    pub fn left_mem0(&self, tag: u64) -> bool {
        self.behind.has_left_mem0(tag)
    }

    /// Whether the MRPB still holds a request of warp slot `warp`.
    pub fn mrpb_holds(&self, warp: u32) -> bool {
        self.port.holds_requests_of(warp)
    }

    /// The instruction in MEM0, if any.
    pub fn mem0(&self) -> Option<&Mem0> {
        self.mem0.as_ref()
    }

    /// Why MEM0 could not send its request this cycle, if it could not (a reservation failure
    /// at the L1D: the warps behind it see `lg_throttle`).
    pub fn stalled(&self) -> Option<FailReason> {
        self.port.refused()
    }

    /// What happened so far to the requests of global/local instruction `tag`.
    pub fn request_log(&self, tag: u64) -> Option<&RequestLog> {
        self.journal.get(tag)
    }

    /// Reads of instruction `tag` still in the memory system.
    pub fn outstanding_reads(&self, tag: u64) -> u32 {
        self.behind.outstanding_reads(tag)
    }

    /// Accesses whose data is ready in cycle `now`, oldest first.
    pub fn ready(&self, now: u64) -> impl Iterator<Item = u64> + '_ {
        self.behind.ready(now)
    }

    /// Accesses in flight behind MEM0: (tag, ready cycle or [`WAITING`]).
    pub fn in_flight(&self) -> &[(u64, u64)] {
        self.behind.in_flight()
    }

    /// Removes a completed access.
    pub fn retire(&mut self, tag: u64) {
        self.behind.retire(tag);
        self.journal.retire(tag);
    }
}

#[cfg(test)]
#[path = "ldst_unit_tests.rs"]
mod tests;
