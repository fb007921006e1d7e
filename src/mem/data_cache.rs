//! The data cache shared by the L1D and the L2 slices: tag array, MSHRs and miss queue driven by
//! the policies of a GPGPU-Sim cache string (MODEL.md section 9; book section 4.1.1; MRPB
//! section 2.1). It follows GPGPU-Sim's `data_cache` (`src/gpgpu-sim/gpu-cache.cc`), which both
//! of its L1 and L2 caches use:
//!
//! * **Read** (`process_tag_probe`, `rd_hit_base`, `rd_miss_base`, `send_read_request`): a hit
//!   updates the recency (an atomic also marks the line modified). A miss needs room for two
//!   entries in the miss queue (the fetch and a possible write-back), else it fails with
//!   `miss_queue`; if a miss to the same MSHR key is outstanding and its merge list has room, the
//!   request merges (`mshr_merges`); otherwise it needs a free MSHR (else `mshr`), takes a line
//!   (alloc-on-miss: the victim way becomes RESERVED; a modified victim is written back) and
//!   sends one fetch of the cache's atom (the line, or a 32-byte sector in a sector cache). When
//!   every way of the set is reserved the access fails with `assoc`.
//! * **Write hit** by write policy: `B` write-back marks the line modified; `T` write-through
//!   marks it and sends the write; `E` write-evict sends the write and invalidates the line; `L`
//!   is write-back for local and write-evict for global data (`wr_hit_global_we_local_wb`).
//! * **Write miss** by write-allocate policy: `N` sends the write only; `W` sends the write and
//!   reads the line in (`wr_miss_wa_naive`); `F` allocates a modified line without reading when
//!   the write covers the atom, else reads it in and modifies it on fill
//!   (`wr_miss_wa_fetch_on_write`); `L` allocates a modified line without reading, readable only
//!   if the write covered the sector (`wr_miss_wa_lazy_fetch_on_read`).
//! * **Fill**: alloc-on-miss fills the reserved line; alloc-on-fill takes a way now. The MSHR
//!   entry becomes ready and its requests leave one at a time.
//!
//! The MSHR key is the block address, or the 32-byte sector for a sector MSHR (`S`, GPGPU-Sim
//! `cache_config::mshr_addr`) and, warpstep's choice, for every sector cache, so a merged request
//! always waits for its own sector.
//!
//! * **Ports** (GPGPU-Sim's `bandwidth_management`): the data array reads or writes
//!   `data_port_width` bytes per cycle (the cache string's last field; the line size when it is
//!   absent). A hit holds the data port for ceil(size / width) cycles, a miss that writes back a
//!   modified victim for its modified bytes / width cycles (the victim is read out of the data
//!   array), any other outcome not at all; a fill holds the fill port for atom / width cycles.
//!   The owner asks [`DataCache::data_port_free`] before an access and
//!   [`DataCache::fill_port_free`] before a fill, as GPGPU-Sim's L2 sub-partition and LD/ST unit
//!   do; a busy port is a stall, not a reservation failure.
//!
//! Counting: `accesses` = `hits` + `misses` + `mshr_merges` (accepted accesses; GPGPU-Sim counts
//! a merge as an `MSHR_HIT`); each reservation failure counts once per attempt, by reason.

use super::mshr::{MshrTable, MshrView};
use super::request::{byte_mask, AccessKind, DataSpace, Fetch, FetchKind, NO_PARENT};
use super::tag_array::{Evicted, LineView, Probe, TagArray};
use crate::config::cache_string::{
    AllocPolicy, CacheSpec, MshrKind, WriteAllocPolicy, WritePolicy,
};
use serde::Serialize;
use std::collections::VecDeque;

#[path = "data_cache_stats.rs"]
mod stats;
#[path = "data_cache_write.rs"]
mod write;

use stats::rows;
pub use stats::{CacheStats, Contention};

/// Why a cache could not take a request this cycle (MODEL.md section 9; MRPB section 2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailReason {
    /// Every way of the set is reserved (GPGPU-Sim `LINE_ALLOC_FAIL`).
    Assoc,
    /// No MSHR entry, or the entry's merge list is full (`MSHR_ENRTY_FAIL`, `MSHR_MERGE_ENRTY_FAIL`).
    Mshr,
    /// The miss queue is full (`MISS_QUEUE_FULL`).
    MissQueue,
}

impl FailReason {
    /// The name in statistics and views.
    pub fn name(self) -> &'static str {
        match self {
            FailReason::Assoc => "assoc",
            FailReason::Mshr => "mshr",
            FailReason::MissQueue => "miss_queue",
        }
    }
}

/// What a cache did with a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The data is here (or, for a write, the write was handled).
    Hit,
    /// Merged into a pending miss to the same block.
    Merged,
    /// A new miss (or a write sent on).
    Miss,
    /// Not taken; try again next cycle.
    Fail(FailReason),
}

/// A request waiting in an MSHR: one the owner must answer, or the cache's own write-allocate
/// read, answered by nobody.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiter<W> {
    Reply(W),
    Silent,
}

/// One request as a cache sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheRequest {
    pub addr: u64,
    pub size: u32,
    pub kind: AccessKind,
    pub space: DataSpace,
    /// Bytes touched, over the 128-byte block holding `addr`.
    pub bytes: u128,
    /// The SM the request came from.
    pub sm: u32,
    /// The requester's key, carried by a write the cache sends down so that its
    /// acknowledgement finds the instruction.
    pub token: u64,
    /// The warp asking, as [`owner_id`] encodes it (0: nobody in particular), for the
    /// contention counts.
    pub owner: u64,
}

/// A warp as a cache line's owner: its CTA's launch index and its place in the CTA (never 0).
pub fn owner_id(block: u64, warp_in_cta: u32) -> u64 {
    ((block + 1) << 8) | u64::from(warp_in_cta & 0xff)
}

/// The CTA launch index and warp-in-CTA an [`owner_id`] encodes (`None` for 0: nobody).
pub fn owner_parts(owner: u64) -> Option<(u64, u32)> {
    let block = (owner >> 8).checked_sub(1)?;
    Some((block, (owner & 0xff) as u32))
}

/// The cache (see the module documentation). `W` is what the owner keeps per waiting request.
#[derive(Debug, Clone)]
pub struct DataCache<W> {
    spec: CacheSpec,
    tags: TagArray,
    mshrs: MshrTable<Waiter<W>>,
    miss_queue: VecDeque<Fetch>,
    /// Writes sent down so far (a store learns from it whether to wait for an acknowledgement).
    writes_sent: u64,
    /// Bytes of the data array one port moves per cycle.
    port_width: u32,
    /// First cycle the data port is free again.
    data_port_free_at: u64,
    /// First cycle the fill port is free again.
    fill_port_free_at: u64,
    /// Modified bytes of the victim the current access wrote back.
    written_back: u32,
    /// The line the current access allocated, if it took one ([`DataCache::allocation`]).
    allocation: Option<Allocation>,
    pub stats: CacheStats,
}

/// A line an access allocated (a miss taking a way): its block, and the valid line it pushed
/// out, as (block, owner), if any. CCWS's victim tag arrays learn from these
/// (`crate::core::ccws`; MICRO 2012 §4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allocation {
    pub block: u64,
    pub victim: Option<(u64, u64)>,
}

impl<W: Copy> DataCache<W> {
    /// An empty cache shaped by `spec`.
    pub fn new(spec: CacheSpec) -> DataCache<W> {
        DataCache {
            tags: TagArray::new(&spec),
            mshrs: MshrTable::new(spec.mshr_entries, spec.mshr_max_merge),
            miss_queue: VecDeque::with_capacity(spec.miss_queue as usize + 2),
            port_width: spec.data_port_width.unwrap_or(spec.line_bytes).max(1),
            spec,
            writes_sent: 0,
            data_port_free_at: 0,
            fill_port_free_at: 0,
            written_back: 0,
            allocation: None,
            stats: CacheStats::default(),
        }
    }

    /// Index sets with the partition address (L2 slices; see `TagArray::with_partition`).
    pub fn with_partition(mut self, interleave: u64, parts: u64) -> DataCache<W> {
        self.tags = self.tags.with_partition(interleave, parts);
        self
    }

    pub fn spec(&self) -> &CacheSpec {
        &self.spec
    }

    /// Bytes one miss fetches: the line, or a 32-byte sector.
    pub fn atom_bytes(&self) -> u32 {
        if self.tags.sectored() {
            32
        } else {
            self.spec.line_bytes
        }
    }

    fn atom_addr(&self, addr: u64) -> u64 {
        addr & !(u64::from(self.atom_bytes()) - 1)
    }

    /// The bytes of `addr`'s atom over its 128-byte block.
    fn atom_mask(&self, addr: u64) -> u128 {
        let atom = self.atom_bytes().min(128);
        byte_mask(((addr % 128) as u32) & !(atom - 1), atom)
    }

    /// The MSHR key of `addr`.
    pub fn mshr_key(&self, addr: u64) -> u64 {
        if self.spec.mshr == MshrKind::SectorAssoc || self.tags.sectored() {
            addr & !31
        } else {
            self.tags.block(addr)
        }
    }

    fn on_miss(&self) -> bool {
        self.spec.alloc == AllocPolicy::OnMiss
    }

    /// GPGPU-Sim `miss_queue_full(n)`: fewer than `n + 1` free entries.
    fn mq_full(&self, n: usize) -> bool {
        self.miss_queue.len() + n >= self.spec.miss_queue as usize
    }

    /// Whether the data array can take an access in cycle `now`.
    pub fn data_port_free(&self, now: u64) -> bool {
        now >= self.data_port_free_at
    }

    /// Whether the data array can take a fill in cycle `now`.
    pub fn fill_port_free(&self, now: u64) -> bool {
        now >= self.fill_port_free_at
    }

    /// Takes `req` if it can (see the module documentation).
    pub fn access(&mut self, req: &CacheRequest, waiter: W, now: u64) -> Outcome {
        let write = req.kind == AccessKind::Write;
        let probe = self.tags.probe(req.addr, write);
        self.written_back = 0;
        self.allocation = None;
        let outcome = if write {
            self.write(req, probe, now)
        } else {
            self.read(req, probe, waiter, now)
        };
        self.use_data_port(outcome, req.size, now);
        self.stats.count(outcome);
        outcome
    }

    /// GPGPU-Sim `use_data_port`: a hit moves its data; a miss reads out the victim it writes
    /// back.
    fn use_data_port(&mut self, outcome: Outcome, size: u32, now: u64) {
        let cycles = match outcome {
            Outcome::Hit => size.div_ceil(self.port_width),
            Outcome::Miss | Outcome::Merged => self.written_back / self.port_width,
            Outcome::Fail(_) => 0,
        };
        self.data_port_free_at = now + u64::from(cycles);
    }

    fn read(&mut self, req: &CacheRequest, probe: Probe, waiter: W, now: u64) -> Outcome {
        match probe {
            Probe::Hit(i) => {
                self.tags.touch(i, now);
                if req.kind == AccessKind::Atomic {
                    self.tags.mark_modified(i, req.addr, true, now);
                }
                self.stats.data_reads += rows(req.size);
                Outcome::Hit
            }
            Probe::ReservationFail => Outcome::Fail(FailReason::Assoc),
            _ if self.mq_full(1) => Outcome::Fail(FailReason::MissQueue),
            _ => self.send_read(req, probe, Waiter::Reply(waiter), FetchKind::Read, now),
        }
    }

    /// Whether a read miss to `addr` can get an MSHR (merge or new entry with queue room).
    fn mshr_check(&self, addr: u64) -> Result<(), FailReason> {
        let key = self.mshr_key(addr);
        let hit = self.mshrs.probe(key);
        if self.mshrs.full(key) {
            return Err(FailReason::Mshr);
        }
        if !hit && self.miss_queue.len() >= self.spec.miss_queue as usize {
            return Err(FailReason::MissQueue);
        }
        Ok(())
    }

    /// GPGPU-Sim `send_read_request`: merge into a pending miss or start a new one.
    fn send_read(
        &mut self,
        req: &CacheRequest,
        probe: Probe,
        waiter: Waiter<W>,
        kind: FetchKind,
        now: u64,
    ) -> Outcome {
        if let Err(reason) = self.mshr_check(req.addr) {
            return Outcome::Fail(reason);
        }
        let key = self.mshr_key(req.addr);
        let atomic = req.kind == AccessKind::Atomic;
        let merged = self.mshrs.probe(key);
        let evicted = self.take_line(probe, req, now);
        self.mshrs.add(key, waiter, atomic);
        if !merged {
            let addr = self.atom_addr(req.addr);
            self.miss_queue.push_back(Fetch {
                addr,
                size: self.atom_bytes(),
                kind,
                space: req.space,
                sm: req.sm,
                token: key,
                bypass: false,
                bytes: self.atom_mask(addr),
                parent: NO_PARENT,
                pieces: 1,
                stamp: 0,
            });
        }
        self.write_back(evicted, req);
        if merged {
            Outcome::Merged
        } else {
            Outcome::Miss
        }
    }

    /// GPGPU-Sim `tag_array::access` after a probe: recency on a hit, a way on a miss.
    fn take_line(&mut self, probe: Probe, req: &CacheRequest, now: u64) -> Option<Evicted> {
        let addr = req.addr;
        match probe {
            Probe::Hit(i) | Probe::HitReserved(i) => {
                self.tags.touch(i, now);
                None
            }
            Probe::Miss(i) if self.on_miss() => self.allocate(i, req, now),
            Probe::SectorMiss(i) if self.on_miss() => {
                self.tags.allocate_sector(i, addr, now);
                None
            }
            _ => None,
        }
    }

    /// The line the last access allocated, and the line it pushed out (`None`: it allocated
    /// nothing: a hit, a merge, a failure, or a write that did not allocate).
    pub fn allocation(&self) -> Option<Allocation> {
        self.allocation
    }

    /// Notes that way `i` is taken for `req` and counts whose valid line it pushes out.
    fn note_allocation(&mut self, i: usize, req: &CacheRequest) {
        let victim = self.tags.valid_line(i);
        if let Some((_, owner)) = victim {
            self.stats.contention.count(req.owner, owner);
        }
        self.allocation = Some(Allocation {
            block: self.tags.block(req.addr),
            victim,
        });
    }

    /// Takes way `i` for `req`, counting whose valid line it pushes out.
    fn allocate(&mut self, i: usize, req: &CacheRequest, now: u64) -> Option<Evicted> {
        self.note_allocation(i, req);
        let evicted = self.tags.allocate(i, req.addr, now);
        self.tags.set_owner(i, req.owner);
        evicted
    }

    /// Sends a modified victim down (a write-through cache already wrote it).
    fn write_back(&mut self, evicted: Option<Evicted>, req: &CacheRequest) {
        let Some(ev) = evicted else { return };
        if self.spec.write == WritePolicy::WriteThrough {
            return;
        }
        self.written_back += ev.bytes;
        self.stats.data_reads += rows(ev.bytes);
        self.miss_queue.push_back(Fetch {
            addr: ev.block,
            size: ev.bytes,
            kind: FetchKind::WriteBack,
            space: req.space,
            sm: req.sm,
            token: 0,
            bypass: false,
            bytes: byte_mask((ev.block % 128) as u32, ev.bytes),
            parent: NO_PARENT,
            pieces: 1,
            stamp: 0,
        });
    }

    /// A 32-byte sector the host copied into device memory before the launch fills the cache
    /// (see `TagArray::fill_copied`); the cache is idle then, so nothing is written back.
    pub fn fill_copied(&mut self, addr: u64, order: u64) {
        let _ = self.tags.fill_copied(addr, order);
    }

    /// Writes sent down so far.
    pub fn writes_sent(&self) -> u64 {
        self.writes_sent
    }

    /// A reply from the level below fills the cache; its MSHR entry becomes ready. The fill
    /// holds the fill port for atom / width cycles (GPGPU-Sim `use_fill_port`).
    pub fn fill(&mut self, fetch: &Fetch, now: u64) {
        self.fill_port_free_at = now + u64::from(self.atom_bytes() / self.port_width);
        self.stats.data_writes += rows(self.atom_bytes());
        if self.on_miss() {
            self.tags.fill_reserved(fetch.addr, now);
        } else if let Some(ev) = self.tags.fill_on_fill(fetch.addr, now) {
            let req = CacheRequest {
                addr: fetch.addr,
                size: fetch.size,
                kind: AccessKind::Write,
                space: fetch.space,
                bytes: fetch.bytes,
                sm: fetch.sm,
                token: 0,
                owner: 0,
            };
            self.write_back(Some(ev), &req);
        }
        if self.mshrs.mark_ready(fetch.token) == Some(true) {
            if let Probe::Hit(i) = self.tags.probe(fetch.addr, true) {
                self.tags.mark_modified(i, fetch.addr, true, now);
            }
        }
    }

    /// The next request whose fill has arrived.
    pub fn next_ready(&mut self) -> Option<Waiter<W>> {
        self.mshrs.next_ready()
    }

    /// The MSHR key of the entry whose request [`DataCache::next_ready`] returns next.
    pub fn ready_key(&self) -> Option<u64> {
        self.mshrs.ready_key()
    }

    /// MSHR entries in use.
    pub fn mshrs_in_use(&self) -> usize {
        self.mshrs.len()
    }

    /// Drops the cache's own write-allocate reads from the front of the ready requests (nobody
    /// waits for them), so they never hold an MSHR after their fill.
    pub fn skip_silent(&mut self) {
        while matches!(self.mshrs.peek_ready(), Some(Waiter::Silent)) {
            self.mshrs.next_ready();
        }
    }

    /// Whether a filled request waits to leave.
    pub fn has_ready(&self) -> bool {
        self.mshrs.has_ready()
    }

    /// The oldest fetch for the level below.
    pub fn miss_front(&self) -> Option<&Fetch> {
        self.miss_queue.front()
    }

    pub fn pop_miss(&mut self) -> Option<Fetch> {
        self.miss_queue.pop_front()
    }

    /// Queues a request that bypasses the cache (an atomic at the L1D), if the miss queue has
    /// room.
    pub fn push_bypass(&mut self, fetch: Fetch) -> bool {
        if self.mq_full(0) {
            return false;
        }
        self.miss_queue.push_back(fetch);
        true
    }

    /// No miss outstanding and nothing to send.
    pub fn is_idle(&self) -> bool {
        self.mshrs.is_empty() && self.miss_queue.is_empty()
    }

    pub fn tags(&self) -> &TagArray {
        &self.tags
    }

    /// Every set's lines, in set and way order.
    pub fn sets_view(&self) -> Vec<Vec<LineView>> {
        (0..self.tags.sets())
            .map(|s| self.tags.set_view(s))
            .collect()
    }

    /// The MSHR entries a request `wants` waits in: (entry, address, fill arrived).
    pub fn mshrs_waiting(&self, wants: impl Fn(&W) -> bool) -> Vec<(usize, u64, bool)> {
        self.mshrs.entries_waiting(|w| match w {
            Waiter::Reply(r) => wants(r),
            Waiter::Silent => false,
        })
    }

    /// The waiters of the MSHR entry whose key is `key`, oldest first.
    pub fn mshr_waiters(&self, key: u64) -> impl Iterator<Item = &W> {
        self.mshrs.waiters(key).filter_map(|w| match w {
            Waiter::Reply(r) => Some(r),
            Waiter::Silent => None,
        })
    }

    pub fn mshr_view(&self) -> Vec<MshrView> {
        self.mshrs.view()
    }

    pub fn miss_queue(&self) -> &VecDeque<Fetch> {
        &self.miss_queue
    }
}

#[cfg(test)]
#[path = "data_cache_tests.rs"]
mod tests;
