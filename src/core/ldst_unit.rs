//! The LD/ST unit: its MEM0 stage and the memory instructions in flight behind it (MODEL.md
//! sections 1, 7 and 9; book section 4.1.1). What an instruction costs ([`MemoryCost`]: bank
//! passes, coalesced requests, latencies) is worked out by [`MemoryTiming`]
//! (`memory_timing.rs`); this unit holds the instruction in MEM0 for its passes, sends its
//! requests to the L1D one per cycle (through the MRPB when it is on), retries a refused one,
//! claims the unified pool's bank columns, and says when each instruction's data is ready.
//!
//! The requests go through a staging queue per instruction and leave MEM0 through the
//! [`L1Port`] (`l1_port.rs`), in which the MRPB (MODEL.md section 10) sits between the
//! coalescer and the L1D; the L1D's replies come back through the same port. The elastic
//! pipeline (section 8) adds its FIFOs around MEM0.

use super::l1_port::L1Port;
use super::register_banks::{BankActivity, PoolArbiter, PoolRefusal};
use super::request_log::{RequestJournal, RequestLog};
use crate::config::Config;
use crate::mem::mrpb::{Mrpb, MrpbRequest, Offer, Requester};
use crate::mem::{FailReason, L1Outcome, L1d};
use serde::Serialize;

pub use super::memory_timing::{MemoryCost, MemoryTiming, PoolColumns, SharedStats};

/// The ready cycle of an instruction still waiting for memory.
pub const WAITING: u64 = u64::MAX;

/// The instruction in MEM0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mem0 {
    pub tag: u64,
    /// The warp that issued it (MRPB's signatures need it).
    pub from: Requester,
    /// Cycles it still holds MEM0 (counting this one); global/local: requests left to send.
    pub cycles_left: u32,
    /// Its latency after MEM0 (global/local: after an L1D hit).
    pub latency: u32,
    /// Global/local: its staging slot.
    pub staged: Option<u32>,
    /// A shared-memory access (its bank passes are the cycles it holds MEM0).
    pub shared: bool,
    /// A shared access's bank-conflict passes (beyond one per sub-warp): the last this many
    /// cycles it holds MEM0 are the conflict's (a conflict-free access would have left).
    pub conflict_cycles: u32,
    /// Of its passes still to come, those during which its own later sub-warps wait at EXE
    /// ([`MemoryCost::held_subwarp_cycles`]), counted from its second pass.
    pub held_subwarp_cycles: u32,
    /// Passes done.
    pub passes_done: u32,
    /// A shared access's bank columns in a unified pool ([`MemoryCost::pool_columns`]).
    pub pool_columns: u32,
}

/// Which unified-pool access of MEM0 lost its bank column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PoolAccess {
    /// A shared-memory pass.
    Shared,
    /// A request to the cache part of the pool (the L1D, or the constant cache behind MEM0).
    Cache,
}

/// An arbitration loser (Unified MICRO'12 §4.3): a shared pass or cache request in MEM0 whose
/// bank column a register read or write had already taken this cycle (register accesses claim
/// the unified pool's banks first). The access waits a cycle and counts one arbitration
/// conflict ([`LdstUnit::arbitration_conflicts`]); [`LdstUnit::arbitration_losses`] lists the
/// cycle's losers for the views. It records what the arbiter saw and changes no timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ArbitrationLoss {
    /// The SM's tag of the instruction (the snapshot finds its PC by it).
    pub tag: u64,
    /// Its warp slot.
    pub warp: u32,
    pub kind: PoolAccess,
    /// The bank column it lost (k: bank k of every cluster; the first taken one it asked for).
    pub column: u32,
    /// What holds that column's register bank: the register read or write that won.
    pub holder: BankActivity,
}

/// MEM0's side of the unified pool's arbitration: conflicts so far, and this cycle's losers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct PoolLosses {
    /// Cycles a shared or cache access lost its unified-pool banks to register accesses
    /// (Unified §4.3's arbitration conflicts).
    conflicts: u64,
    /// This cycle's losers (cleared each cycle, the buffer reused; MEM0 claims once a cycle,
    /// so there is at most one).
    now: Vec<ArbitrationLoss>,
}

impl PoolLosses {
    /// MEM0's access `m` claims bank columns `columns` through `pool` (none: granted at once,
    /// the arbiter is not asked); a refusal is counted and recorded.
    fn claim(
        &mut self,
        pool: &mut dyn PoolArbiter,
        m: &Mem0,
        kind: PoolAccess,
        columns: u32,
    ) -> bool {
        if columns == 0 {
            return true;
        }
        let Err(PoolRefusal { column, holder }) = pool.claim_memory(columns, m.from.warp) else {
            return true;
        };
        self.conflicts += 1;
        self.now.push(ArbitrationLoss {
            tag: m.tag,
            warp: m.from.warp,
            kind,
            column,
            holder,
        });
        false
    }
}

/// A global/local instruction with reads in the memory system.
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

/// One LD/ST unit: MEM0, its port to the L1D (with the MRPB when `mrpb.enabled`), and the
/// accesses in flight.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LdstUnit {
    mem0: Option<Mem0>,
    /// (tag, first cycle its result may be written back, or [`WAITING`]), in order.
    in_flight: Vec<(u64, u64)>,
    outstanding: Vec<Outstanding>,
    /// MEM0's way to the L1D and back.
    port: L1Port,
    /// The shared access that left MEM0 this cycle (its bank passes done), if any.
    shared_done: Option<u64>,
    /// This cycle MEM0 replayed a conflict while the access's own later sub-warps waited.
    subwarps_held: bool,
    /// The last memory stage lost writeback this cycle: MEM1..MEM(M-1) stand still.
    mem_stages_frozen: bool,
    /// Unified-pool arbitration conflicts so far and this cycle's losers (Unified §4.3).
    pool_losses: PoolLosses,
    /// What happened to each global/local instruction's requests (the "why" chains).
    journal: RequestJournal,
}

impl LdstUnit {
    /// The LD/ST unit `config` describes (with its MRPB when `mrpb.enabled`).
    pub fn new(config: &Config) -> LdstUnit {
        LdstUnit {
            port: L1Port::new(config),
            ..LdstUnit::default()
        }
    }

    /// The shared access that finished its bank passes in MEM0 since the last call, if any.
    pub fn take_shared_done(&mut self) -> Option<u64> {
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
            conflict_cycles: cost.conflict_cycles,
            held_subwarp_cycles: cost.held_subwarp_cycles,
            passes_done: 0,
            pool_columns: cost.pool_columns,
        });
        if cost.staged.is_some() {
            self.journal.begin(tag, cost.requests);
            self.outstanding.push(Outstanding {
                tag,
                reads: 0,
                queued: 0,
                latency: cost.latency,
                ready_at: 0,
            });
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
        let frozen = std::mem::take(&mut self.mem_stages_frozen);
        self.subwarps_held = false;
        self.pool_losses.now.clear();
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
            self.drained(&r, outcome, now);
        }
    }

    /// A request that waited in the MRPB was taken: the hit's ready time or the read to wait
    /// for joins its instruction, which completes if that was all it waited for.
    fn drained(&mut self, r: &MrpbRequest, outcome: L1Outcome, now: u64) {
        let Some(i) = self.outstanding.iter().position(|o| o.tag == r.tag) else {
            return;
        };
        let o = &mut self.outstanding[i];
        o.queued = o.queued.saturating_sub(1);
        match outcome {
            L1Outcome::Hit => o.ready_at = o.ready_at.max(now + u64::from(o.latency) + 1),
            L1Outcome::Pending => o.reads += 1,
            L1Outcome::Stored | L1Outcome::Fail(_) | L1Outcome::Busy => {}
        }
        self.settle(i);
    }

    /// Completes outstanding instruction `i` once it has left MEM0 and waits for nothing.
    fn settle(&mut self, i: usize) {
        let o = self.outstanding[i];
        let in_mem0 = self.mem0.is_some_and(|m| m.tag == o.tag);
        if o.reads > 0 || o.queued > 0 || in_mem0 {
            return;
        }
        self.outstanding.swap_remove(i);
        if let Some(f) = self.in_flight.iter_mut().find(|(t, _)| *t == o.tag) {
            f.1 = o.ready_at;
        }
    }

    /// The last memory stage lost writeback in cycle `now` (the paper pipelines' MEM0..MEM(M-1)
    /// are latches, Elastic §3.1 and Fig. 6): the shared accesses in MEM1..MEM(M-1) (`is_shared`)
    /// stand still for the cycle, and MEM0 does not hand its access on. Call before
    /// [`LdstUnit::cycle`].
    pub fn freeze_mem_stages(&mut self, now: u64, is_shared: impl Fn(u64) -> bool) {
        let behind = |f: &&mut (u64, u64)| f.1 > now && f.1 != WAITING && is_shared(f.0);
        for f in self.in_flight.iter_mut().filter(behind) {
            f.1 += 1;
        }
        self.mem_stages_frozen = true;
    }

    /// A shared or constant instruction spends one cycle in MEM0.
    fn pass(&mut self, now: u64, mut m: Mem0) {
        m.cycles_left = m.cycles_left.saturating_sub(1);
        m.passes_done += 1;
        if m.passes_done >= 2 && m.held_subwarp_cycles > 0 {
            m.held_subwarp_cycles -= 1;
            self.subwarps_held = true;
        }
        if m.cycles_left == 0 {
            self.in_flight.push((m.tag, now + u64::from(m.latency) + 1));
            self.mem0 = None;
            if m.shared {
                self.shared_done = Some(m.tag);
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
        let hit_ready = now + u64::from(m.latency) + 1;
        let Some(i) = self.outstanding.iter().position(|o| o.tag == m.tag) else {
            self.finish(now, m.tag, slot, timing);
            return false;
        };
        let from = (m.tag, m.from);
        let offer = self.port.offer(access, from, now, &mut self.journal);
        match offer {
            Offer::Queued | Offer::Held => self.outstanding[i].queued += 1,
            Offer::Full | Offer::Flushing => return false,
            Offer::Direct => {
                let columns = timing.line_columns(&access);
                if !self.pool_losses.claim(pool, &m, PoolAccess::Cache, columns) {
                    return false;
                }
                let o = &mut self.outstanding[i];
                match self.port.access(l1d, &access, from, now, &mut self.journal) {
                    L1Outcome::Fail(_) => return true,
                    L1Outcome::Busy => return false,
                    L1Outcome::Hit => o.ready_at = o.ready_at.max(hit_ready),
                    L1Outcome::Pending => o.reads += 1,
                    L1Outcome::Stored => {}
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
        let Some(i) = self.outstanding.iter().position(|o| o.tag == tag) else {
            self.in_flight.push((tag, now + 1));
            return;
        };
        let o = &mut self.outstanding[i];
        o.ready_at = o.ready_at.max(now + 1);
        if o.reads == 0 && o.queued == 0 {
            self.in_flight.push((tag, o.ready_at));
            self.outstanding.swap_remove(i);
        } else {
            self.in_flight.push((tag, WAITING));
        }
    }

    /// A read of instruction `tag` came back in cycle `now`.
    fn returned(&mut self, tag: u64, now: u64) {
        self.journal.replied(tag, now);
        let Some(i) = self.outstanding.iter().position(|o| o.tag == tag) else {
            return;
        };
        let o = &mut self.outstanding[i];
        o.reads = o.reads.saturating_sub(1);
        o.ready_at = o.ready_at.max(now + 1);
        self.settle(i);
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
        self.in_flight.iter().any(|(t, _)| *t == tag)
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
        self.outstanding
            .iter()
            .find(|o| o.tag == tag)
            .map_or(0, |o| o.reads)
    }

    /// Accesses whose data is ready in cycle `now`, oldest first.
    pub fn ready(&self, now: u64) -> impl Iterator<Item = u64> + '_ {
        self.in_flight
            .iter()
            .filter(move |(_, at)| *at <= now)
            .map(|(t, _)| *t)
    }

    /// Accesses in flight behind MEM0: (tag, ready cycle or [`WAITING`]).
    pub fn in_flight(&self) -> &[(u64, u64)] {
        &self.in_flight
    }

    /// Removes a completed access.
    pub fn retire(&mut self, tag: u64) {
        self.in_flight.retain(|(t, _)| *t != tag);
        self.journal.retire(tag);
    }
}

#[cfg(test)]
#[path = "ldst_unit_tests.rs"]
mod tests;
