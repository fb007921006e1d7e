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

/// Misses that pushed a valid line out, by who had brought that line in (MRPB §2.2, Fig. 4):
/// the same warp (intra-warp), another warp of the same CTA, or a warp of another CTA.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Contention {
    pub intra_warp: u64,
    pub cross_warp_intra_block: u64,
    pub cross_warp_cross_block: u64,
}

impl Contention {
    fn count(&mut self, requester: u64, victim: u64) {
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
fn rows(bytes: u32) -> u64 {
    u64::from(bytes.div_ceil(16))
}

impl CacheStats {
    fn count(&mut self, outcome: Outcome) {
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

    fn send_write(&mut self, req: &CacheRequest) {
        self.writes_sent += 1;
        self.miss_queue.push_back(Fetch {
            addr: req.addr,
            size: req.size,
            kind: FetchKind::Write,
            space: req.space,
            sm: req.sm,
            token: req.token,
            bypass: false,
            bytes: req.bytes,
            parent: NO_PARENT,
            pieces: 1,
            stamp: 0,
        });
    }

    fn write(&mut self, req: &CacheRequest, probe: Probe, now: u64) -> Outcome {
        match probe {
            Probe::Hit(i) => self.write_hit(req, i, now),
            Probe::ReservationFail
                if self.spec.write_alloc != WriteAllocPolicy::NoWriteAllocate =>
            {
                Outcome::Fail(FailReason::Assoc)
            }
            _ => self.write_miss(req, probe, now),
        }
    }

    fn whole(&self, req: &CacheRequest) -> bool {
        let atom = self.atom_mask(req.addr);
        req.bytes & atom == atom
    }

    fn write_hit(&mut self, req: &CacheRequest, i: usize, now: u64) -> Outcome {
        let policy = match (self.spec.write, req.space) {
            (WritePolicy::LocalWbGlobalWt, DataSpace::Local) => WritePolicy::WriteBack,
            (
                WritePolicy::LocalWbGlobalWt,
                DataSpace::Global
                | DataSpace::Constant
                | DataSpace::Texture
                | DataSpace::Instruction,
            ) => WritePolicy::WriteEvict,
            (p, _) => p,
        };
        let whole = self.whole(req);
        match policy {
            WritePolicy::WriteBack => {
                self.tags.mark_modified(i, req.addr, whole, now);
                self.stats.data_writes += rows(req.size);
                Outcome::Hit
            }
            _ if self.mq_full(0) => Outcome::Fail(FailReason::MissQueue),
            WritePolicy::WriteThrough => {
                self.tags.mark_modified(i, req.addr, whole, now);
                self.stats.data_writes += rows(req.size);
                self.send_write(req);
                Outcome::Hit
            }
            _ => {
                self.send_write(req);
                self.tags.invalidate(i);
                Outcome::Hit
            }
        }
    }

    fn write_miss(&mut self, req: &CacheRequest, probe: Probe, now: u64) -> Outcome {
        let whole = self.whole(req);
        match self.spec.write_alloc {
            WriteAllocPolicy::NoWriteAllocate => {
                if self.mq_full(0) {
                    return Outcome::Fail(FailReason::MissQueue);
                }
                self.send_write(req);
                Outcome::Miss
            }
            WriteAllocPolicy::WriteAllocate => self.write_and_read(req, probe, 2, true, now),
            WriteAllocPolicy::FetchOnWrite if !whole => {
                self.write_and_read(req, probe, 1, false, now)
            }
            WriteAllocPolicy::FetchOnWrite | WriteAllocPolicy::LazyFetchOnRead => {
                let through = self.spec.write == WritePolicy::WriteThrough;
                let need = usize::from(through);
                if self.mq_full(need) {
                    return Outcome::Fail(FailReason::MissQueue);
                }
                if through {
                    self.send_write(req);
                }
                let evicted = self.write_line(probe, req, whole, now);
                self.write_back(evicted, req);
                Outcome::Miss
            }
        }
    }

    /// `W` (naive: send the write and read the line) or partial `F` (read the line and modify
    /// it on fill).
    fn write_and_read(
        &mut self,
        req: &CacheRequest,
        probe: Probe,
        queue: usize,
        send: bool,
        now: u64,
    ) -> Outcome {
        if self.mq_full(queue) {
            return Outcome::Fail(FailReason::MissQueue);
        }
        if let Err(reason) = self.mshr_check(req.addr) {
            return Outcome::Fail(reason);
        }
        if send {
            self.send_write(req);
        }
        let read = CacheRequest {
            kind: AccessKind::Read,
            ..*req
        };
        self.send_read(&read, probe, Waiter::Silent, FetchKind::AllocRead, now);
        if !send {
            if let Probe::Miss(i) | Probe::SectorMiss(i) | Probe::HitReserved(i) =
                self.tags.probe(req.addr, true)
            {
                self.tags.mark_modified(i, req.addr, false, now);
            }
        }
        Outcome::Miss
    }

    /// Allocates (or takes) the line of a write that needs no fetch and marks it modified.
    fn write_line(
        &mut self,
        probe: Probe,
        req: &CacheRequest,
        whole: bool,
        now: u64,
    ) -> Option<Evicted> {
        let addr = req.addr;
        match probe {
            Probe::Miss(i) => {
                self.note_allocation(i, req);
                let evicted = self.tags.allocate_modified(i, addr, whole, now);
                self.tags.set_owner(i, req.owner);
                self.stats.data_writes += rows(req.size);
                evicted
            }
            Probe::Hit(i) | Probe::HitReserved(i) | Probe::SectorMiss(i) => {
                self.tags.mark_modified(i, addr, whole, now);
                self.stats.data_writes += rows(req.size);
                None
            }
            Probe::ReservationFail => None,
        }
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
mod tests {
    use super::*;

    fn cache(s: &str) -> DataCache<u32> {
        DataCache::new(CacheSpec::parse(s).unwrap())
    }

    fn req(addr: u64, kind: AccessKind, space: DataSpace) -> CacheRequest {
        CacheRequest {
            addr,
            size: 128,
            kind,
            space,
            bytes: u128::MAX,
            sm: 0,
            token: 0,
            owner: 0,
        }
    }

    fn read(addr: u64) -> CacheRequest {
        req(addr, AccessKind::Read, DataSpace::Global)
    }

    const TESLA: &str = "N:32:128:4,L:L:m:N:L,A:32:8,8";

    #[test]
    fn miss_then_fill_then_hit() {
        let mut c = cache(TESLA);
        assert_eq!(c.access(&read(0x1000), 7, 0), Outcome::Miss);
        let f = c.pop_miss().unwrap();
        assert_eq!(
            (f.addr, f.size, f.kind, f.token),
            (0x1000, 128, FetchKind::Read, 0x1000)
        );
        assert_eq!(c.access(&read(0x1000), 8, 1), Outcome::Merged);
        c.fill(&f, 5);
        assert_eq!(c.next_ready(), Some(Waiter::Reply(7)));
        assert_eq!(c.next_ready(), Some(Waiter::Reply(8)));
        assert_eq!(c.next_ready(), None);
        assert_eq!(c.access(&read(0x1000), 9, 6), Outcome::Hit);
        assert!(c.is_idle());
        let s = c.stats;
        assert_eq!((s.accesses, s.hits, s.misses, s.mshr_merges), (3, 1, 1, 1));
        // The fill wrote the 128-byte line (8 rows); the hit read its 128 bytes back.
        assert_eq!((s.data_reads, s.data_writes), (8, 8));
    }

    #[test]
    fn four_kb_column_walk_fails_on_associativity() {
        let mut c = cache(TESLA);
        for k in 0..4 {
            assert_eq!(c.access(&read(4096 * k), 0, 0), Outcome::Miss);
        }
        assert_eq!(
            c.access(&read(4096 * 4), 0, 0),
            Outcome::Fail(FailReason::Assoc)
        );
        assert_eq!(c.stats.fail_assoc, 1);
    }

    #[test]
    fn mshr_merge_limit_and_entries() {
        let mut c = cache("N:32:128:4,L:L:m:N:L,A:2:2,8");
        assert_eq!(c.access(&read(0), 1, 0), Outcome::Miss);
        assert_eq!(c.access(&read(0), 2, 0), Outcome::Merged);
        assert_eq!(c.access(&read(0), 3, 0), Outcome::Fail(FailReason::Mshr));
        assert_eq!(c.access(&read(128), 4, 0), Outcome::Miss);
        assert_eq!(c.access(&read(256), 5, 0), Outcome::Fail(FailReason::Mshr));
    }

    #[test]
    fn miss_queue_needs_room_for_two() {
        let mut c = cache("N:32:128:4,L:L:m:N:L,A:32:8,3");
        assert_eq!(c.access(&read(0), 0, 0), Outcome::Miss);
        assert_eq!(c.access(&read(128), 0, 0), Outcome::Miss);
        assert_eq!(
            c.access(&read(256), 0, 0),
            Outcome::Fail(FailReason::MissQueue)
        );
    }

    #[test]
    fn global_stores_write_evict_and_local_stores_write_back() {
        let mut c = cache("N:32:128:4,L:L:m:N:H,S:64:8,8");
        c.access(&read(0), 0, 0);
        let f = c.pop_miss().unwrap();
        c.fill(&f, 1);
        c.next_ready();
        assert_eq!(c.access(&read(0), 0, 2), Outcome::Hit);
        // A global store hit sends the write and evicts the line.
        let st = req(0, AccessKind::Write, DataSpace::Global);
        assert_eq!(c.access(&st, 0, 3), Outcome::Hit);
        assert_eq!(c.pop_miss().map(|f| f.kind), Some(FetchKind::Write));
        assert_eq!(c.access(&read(0), 0, 4), Outcome::Miss);
        // A global store miss does not allocate.
        let st2 = req(0x8000, AccessKind::Write, DataSpace::Global);
        assert_eq!(c.access(&st2, 0, 5), Outcome::Miss);
        assert!(c
            .tags()
            .set_view(c.tags().set_index(0x8000))
            .iter()
            .all(|l| l.block != 0x8000));
        // A local store hit marks the line modified and sends nothing.
        let mut c = cache("N:32:128:4,L:L:m:N:H,S:64:8,8");
        c.access(&read(0x100), 0, 0);
        let f = c.pop_miss().unwrap();
        c.fill(&f, 1);
        c.next_ready();
        let lst = req(0x100, AccessKind::Write, DataSpace::Local);
        assert_eq!(c.access(&lst, 0, 2), Outcome::Hit);
        assert!(c.miss_front().is_none());
        let set = c.tags().set_index(0x100);
        assert!(c
            .tags()
            .set_view(set)
            .iter()
            .any(|l| l.block == 0x100 && l.state == super::super::tag_array::LineState::Modified));
    }

    #[test]
    fn write_back_l2_with_lazy_fetch_on_read() {
        let mut c = cache("S:64:128:8,L:B:m:L:L,A:256:4,4:0,32");
        let mut st = req(0x40, AccessKind::Write, DataSpace::Global);
        st.bytes = byte_mask(0x40, 32);
        assert_eq!(c.access(&st, 0, 0), Outcome::Miss);
        assert!(
            c.miss_front().is_none(),
            "no fetch for a whole-sector write"
        );
        assert_eq!(c.access(&read(0x40), 0, 1), Outcome::Hit);
        // A partial write to another sector of the line (a sector miss) leaves that sector
        // unreadable: a read fetches it.
        let mut part = req(0x60, AccessKind::Write, DataSpace::Global);
        part.bytes = byte_mask(0x60, 4);
        assert_eq!(c.access(&part, 0, 2), Outcome::Miss);
        assert!(c.miss_front().is_none());
        assert_eq!(c.access(&read(0x60), 5, 3), Outcome::Miss);
        let f = c.pop_miss().unwrap();
        assert_eq!((f.addr, f.size), (0x60, 32));
        c.fill(&f, 4);
        assert_eq!(c.next_ready(), Some(Waiter::Reply(5)));
        assert_eq!(c.access(&read(0x60), 0, 5), Outcome::Hit);
        // Data-array rows: the two writes kept in lines (128-byte requests: 8 rows each) and the
        // 32-byte fill (2) written; the two 128-byte hits read (8 each).
        assert_eq!((c.stats.data_reads, c.stats.data_writes), (16, 18));
    }

    #[test]
    fn ports_are_held_as_gpgpu_sims_bandwidth_management_holds_them() {
        // The GTX480's L2 string with one set and one way: 32-byte data port.
        let mut c = cache("S:1:128:1,L:B:m:L:L,A:256:4,4:0,32");
        for (t, sector) in (0..4u64).zip([0x00, 0x20, 0x40, 0x60]) {
            let mut st = req(sector, AccessKind::Write, DataSpace::Global);
            st.bytes = byte_mask(sector as u32, 32);
            assert!(c.data_port_free(t));
            assert_eq!(
                c.access(&st, 0, t),
                Outcome::Miss,
                "no victim: the port stays free"
            );
        }
        assert!(c.data_port_free(4));
        // A 32-byte hit holds the port for one cycle; a 128-byte one for four.
        let sector = CacheRequest {
            size: 32,
            ..read(0x20)
        };
        assert_eq!(c.access(&sector, 0, 4), Outcome::Hit);
        assert!(!c.data_port_free(4) && c.data_port_free(5));
        assert_eq!(c.access(&read(0x00), 0, 5), Outcome::Hit);
        assert!(!c.data_port_free(8) && c.data_port_free(9));
        // A write miss whose victim has 128 modified bytes reads them out: 128 / 32 cycles.
        let mut st = req(0x80, AccessKind::Write, DataSpace::Global);
        st.bytes = byte_mask(0, 32);
        assert_eq!(c.access(&st, 0, 9), Outcome::Miss);
        assert!(!c.data_port_free(12) && c.data_port_free(13));
        let wb = c.pop_miss().unwrap();
        assert_eq!((wb.kind, wb.addr, wb.size), (FetchKind::WriteBack, 0, 128));
        // Reads: the 32- and 128-byte hits (2 + 8 rows) and the victim read out (8).
        assert_eq!(c.stats.data_reads, 18);
        // A fill holds the fill port for atom / width cycles: 32 / 32.
        assert_eq!(c.access(&read(0x100), 7, 13), Outcome::Miss);
        let f = c.pop_miss().unwrap();
        assert!(c.fill_port_free(20));
        c.fill(&f, 20);
        assert!(!c.fill_port_free(20) && c.fill_port_free(21));
        // A 128-byte line through a 32-byte port: a fill holds it for four cycles.
        let mut l1 = cache("N:4:128:4,L:L:m:N:L,S:64:8,8,32");
        assert_eq!(l1.access(&read(0), 1, 0), Outcome::Miss);
        let f = l1.pop_miss().unwrap();
        l1.fill(&f, 10);
        assert!(!l1.fill_port_free(13) && l1.fill_port_free(14));
        // Without a width the port is the line: any hit holds it one cycle.
        let mut wide = cache("N:4:128:4,L:L:m:N:L,S:64:8,8");
        assert_eq!(wide.access(&read(0), 1, 0), Outcome::Miss);
        let f = wide.pop_miss().unwrap();
        wide.fill(&f, 1);
        assert_eq!(wide.access(&read(0), 2, 2), Outcome::Hit);
        assert!(!wide.data_port_free(2) && wide.data_port_free(3));
    }

    #[test]
    fn evictions_are_counted_by_whose_line_went() {
        // One set, one way: every miss after the first pushes the previous line out.
        let mut c = cache("N:1:128:1,L:L:m:N:L,A:8:8,8");
        let w0 = owner_id(3, 0);
        assert_eq!(owner_parts(w0), Some((3, 0)));
        assert_eq!(owner_parts(owner_id(0, 7)), Some((0, 7)));
        assert_eq!(owner_parts(0), None);
        let w1 = owner_id(3, 1);
        let other_block = owner_id(4, 0);
        for (t, (addr, owner)) in [
            (0x000, w0),
            (0x080, w0),
            (0x100, w1),
            (0x180, other_block),
            (0x200, 0),
        ]
        .into_iter()
        .enumerate()
        {
            let r = CacheRequest {
                owner,
                ..read(addr)
            };
            assert_eq!(c.access(&r, 0, 2 * t as u64), Outcome::Miss);
            let f = c.pop_miss().unwrap();
            c.fill(&f, 2 * t as u64 + 1);
            while c.next_ready().is_some() {}
        }
        // The first miss found the way empty; an unknown requester is not counted.
        let k = c.stats.contention;
        assert_eq!(
            (
                k.intra_warp,
                k.cross_warp_intra_block,
                k.cross_warp_cross_block
            ),
            (1, 1, 1)
        );
    }

    #[test]
    fn naive_write_allocate_writes_and_reads() {
        let mut c = cache("64:128:16,L:B:m:W,A:32:4,4");
        let st = req(0x80, AccessKind::Write, DataSpace::Global);
        assert_eq!(c.access(&st, 0, 0), Outcome::Miss);
        let w = c.pop_miss().unwrap();
        let r = c.pop_miss().unwrap();
        assert_eq!((w.kind, r.kind), (FetchKind::Write, FetchKind::AllocRead));
        c.fill(&r, 3);
        c.skip_silent();
        assert!(c.is_idle());
        assert_eq!(c.access(&read(0x80), 0, 4), Outcome::Hit);
    }

    #[test]
    fn dirty_victims_are_written_back() {
        let mut c = cache("N:1:128:1,L:B:m:F:L,A:4:4,4");
        let st = req(0, AccessKind::Write, DataSpace::Global);
        assert_eq!(c.access(&st, 0, 0), Outcome::Miss);
        assert!(c.miss_front().is_none());
        assert_eq!(c.access(&read(128), 1, 1), Outcome::Miss);
        let fetch = c.pop_miss().unwrap();
        let wb = c.pop_miss().unwrap();
        assert_eq!(fetch.kind, FetchKind::Read);
        assert_eq!((wb.kind, wb.addr, wb.size), (FetchKind::WriteBack, 0, 128));
    }

    #[test]
    fn allocate_on_fill_holds_no_way_while_missing() {
        let mut c = cache("N:1:128:1,L:L:f:N:L,A:4:4,4");
        assert_eq!(c.access(&read(0), 1, 0), Outcome::Miss);
        assert_eq!(c.access(&read(128), 2, 0), Outcome::Miss);
        let a = c.pop_miss().unwrap();
        c.fill(&a, 1);
        assert_eq!(c.access(&read(0), 3, 2), Outcome::Hit);
    }

    #[test]
    fn atomics_at_a_write_back_cache_dirty_the_line() {
        let mut c = cache("64:128:16,L:B:m:W,A:32:4,4");
        let at = CacheRequest {
            kind: AccessKind::Atomic,
            ..read(0)
        };
        assert_eq!(c.access(&at, 1, 0), Outcome::Miss);
        let f = c.pop_miss().unwrap();
        c.fill(&f, 1);
        let set = c.tags().set_index(0);
        assert_eq!(
            c.tags()
                .set_view(set)
                .iter()
                .find(|l| l.state != super::super::tag_array::LineState::Invalid)
                .map(|l| l.state),
            Some(super::super::tag_array::LineState::Modified)
        );
    }
}
