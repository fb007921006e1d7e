//! The L1 data cache of one SM (MODEL.md section 9; book section 4.1.1; MRPB section 2.1), as the
//! LD/ST unit's MEM0 stage and the interconnect see it, with the SM's other two L1 caches behind
//! the same port when they are modelled: the constant cache (`constant.model = cache`, for
//! constant and parameter loads, [`L1d::with_constant_cache`]) and the instruction cache
//! (`core.icache.model = cache`, for the fetch stage, [`L1d::with_instruction_cache`]). Their
//! misses leave first (they hold warps at their first instructions); their replies go back to
//! them by the fetch's space. Each counts on its own (`l1c`, `l1i`), the L1D's counters stay the
//! L1D's.
//!
//! The cache itself is a [`DataCache`] shaped by `l1d.config` (GPGPU-Sim's `l1_cache`, which is
//! its `data_cache`): reservation failures by reason, MSHR merging, write-evict for global and
//! write-back for local stores under the `L` policy. Around it:
//! * one request per cycle comes in from MEM0 ([`L1d::access`]); its tag is checked at once (as
//!   in GPGPU-Sim 3.x, which MRPB used): a hit's data is ready `l1d.latency` cycles later (the
//!   LD/ST unit times that), a miss waits in an MSHR, a failure leaves the request in MEM0;
//! * atomics bypass the L1D to the L2, where GPGPU-Sim performs them (its ROP); so does every
//!   request when `l1d.config` is `none` (GPGPU-Sim's `bypassL1D`). They share the miss queue and
//!   their replies go straight back to the LD/ST unit;
//! * one reply per cycle comes in from the interconnect ([`L1d::fill`], the fill port), and one
//!   finished request per cycle is posted to the LD/ST unit's port ([`L1d::post_reply`], from
//!   [`L1d::next_response`], GPGPU-Sim's `access_ready`/`next_access`), where the LD/ST unit
//!   takes it the same cycle ([`L1d::take_reply`]); the memory system does both per-cycle steps,
//!   so it is the L1D's one driver;
//! * a store written through to the L2 is acknowledged by the L2 (GPGPU-Sim's `WRITE_ACK`; one
//!   per 32-byte piece, joined here), and its warp cannot leave the SM before that (GPGPU-Sim's
//!   `stores_done`); a store kept in a write-back line is done when the L1D takes it;
//! * a reply the L2 sent in pieces (one per sector) counts once every piece has come.
//!
//! Departures from GPGPU-Sim 4 (the `fermi` reference): it checks the tags at the end of an
//! `l1d.latency`-cycle queue (`l1_latency_queue`), so a miss leaves 35 cycles later than here;
//! warpstep checks them when MEM0 sends the request, as GPGPU-Sim 3.x (MRPB's simulator) did.
//! The fill port and the LD/ST unit's response port take one reply each per cycle, as there.
//!
//! The reservation failures of the current cycle are kept for the views, each with the address of
//! the request that failed (so the memory view can mark the set, MSHR or miss queue it hit).

use super::coalescer::LocalMap;
use super::data_cache::{
    Allocation, CacheRequest, CacheStats, Contention, DataCache, FailReason, Outcome, Waiter,
};
use super::events::{AccessOutcome, L1dLog, MemEvent};
use super::mshr::MshrView;
use super::request::{Access, AccessKind, DataSpace, Fetch, FetchKind, NO_PARENT};
use super::tag_array::{LineView, SetLine};
use crate::config::CacheSpec;
use serde::Serialize;
use std::collections::VecDeque;

/// Entries of the outgoing queue when there is no L1D (GPGPU-Sim's default miss queue size).
const DIRECT_QUEUE: usize = 8;

/// What the L1D did with a request from MEM0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum L1Outcome {
    /// A read hit: the data is ready after the hit latency.
    Hit,
    /// A read or atomic sent on (or merged), or a store written through to the L2: its reply
    /// or acknowledgement comes through [`L1d::next_response`].
    Pending,
    /// A store kept in a write-back line: nothing comes back.
    Stored,
    /// Not taken this cycle.
    Fail(FailReason),
    /// The cache's data port is still busy with an earlier access (GPGPU-Sim's
    /// `DATA_PORT_STALL`): not taken this cycle, and not a reservation failure.
    Busy,
}

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

/// Which of the SM's caches an MSHR belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheName {
    L1d,
    Constant,
    Texture,
}

/// An MSHR entry an instruction waits in ([`L1d::mshrs_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MshrWait {
    pub cache: CacheName,
    /// Its index among the cache's entries (allocation order, as the memory view draws them).
    pub entry: u32,
    /// The address (block or sector) it waits for.
    pub addr: u64,
    /// The fill has arrived; the waiters leave one per cycle.
    pub filled: bool,
    /// The miss is still in the cache's miss queue, at this position (0: next to leave).
    pub queued: Option<u32>,
}

/// A queued request as the views show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FetchView {
    pub addr: u64,
    pub size: u32,
    pub kind: FetchKind,
}

impl From<&Fetch> for FetchView {
    fn from(f: &Fetch) -> FetchView {
        FetchView {
            addr: f.addr,
            size: f.size,
            kind: f.kind,
        }
    }
}

/// The L1D's state for the memory view (MODEL.md section 12: "L1 sets and ways (valid /
/// reserved / LRU order), MSHRs, miss queue").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct L1dView {
    /// `sets[set][way]`; empty when there is no L1D.
    pub sets: Vec<Vec<LineView>>,
    pub mshrs: Vec<MshrView>,
    pub miss_queue: Vec<FetchView>,
    /// Reservation failures this cycle, in order.
    pub fails: Vec<FailReason>,
    pub stats: L1dStats,
}

/// The counters of one of an SM's caches (zero when it has none), with `bypass_fails`
/// refusals of requests that bypass it.
fn counters(cache: Option<&DataCache<u64>>, bypass_fails: u64) -> L1dStats {
    let c = cache.map(|c| c.stats).unwrap_or_default();
    L1dStats::from_cache(&c, bypass_fails)
}

/// The L1D of one SM (see the module documentation).
#[derive(Debug, Clone)]
pub struct L1d {
    sm: u32,
    cache: Option<DataCache<u64>>,
    /// The SM's constant cache (`constant.model = cache`), beside the L1D behind the same port.
    constant: Option<DataCache<u64>>,
    /// The SM's texture cache (`l1d.texture_cache`) for read-only global loads, beside the L1D
    /// behind the same port.
    texture: Option<DataCache<u64>>,
    /// The SM's instruction cache (`core.icache.model = cache`), behind the same port; its
    /// waiters are warp slots.
    instruction: Option<DataCache<u64>>,
    /// Outgoing requests when there is no cache.
    direct: VecDeque<Fetch>,
    /// Replies of bypassing requests and stores' acknowledgements, for the LD/ST unit: (the
    /// instruction tag, the fetch's address).
    responses: VecDeque<(u64, u64)>,
    /// The reply posted to the LD/ST unit's port this cycle (its instruction tag), until the
    /// unit takes it.
    posted: Option<u64>,
    local_offset: u64,
    bypass_fails: u64,
    fails: Vec<Failure>,
    /// Replies answered in pieces, with the pieces come so far.
    partial: Vec<((u64, u64, FetchKind), u8)>,
    /// The line the last global or local access allocated in the data cache, if it took one
    /// ([`L1d::allocation`]).
    allocation: Option<Allocation>,
    /// The memory event log (`Sim::set_memory_events`); `None`, the usual case, records
    /// nothing.
    log: Option<Box<L1dLog>>,
}

impl L1d {
    /// The L1D of SM `sm` (`spec` `None`: no L1D).
    pub fn new(sm: u32, spec: Option<CacheSpec>, local: &LocalMap) -> L1d {
        L1d {
            sm,
            cache: spec.map(DataCache::new),
            constant: None,
            texture: None,
            instruction: None,
            direct: VecDeque::new(),
            responses: VecDeque::new(),
            posted: None,
            local_offset: local.sm_offset(sm),
            bypass_fails: 0,
            fails: Vec::new(),
            partial: Vec::new(),
            allocation: None,
            log: None,
        }
    }

    /// Turns the memory event log on or off (off drops what was not taken).
    pub fn set_event_log(&mut self, on: bool) {
        self.log = on.then(Box::default);
    }

    /// The events logged since the last call (none when the log is off).
    pub fn take_events(&mut self) -> Vec<MemEvent> {
        self.log.as_mut().map_or_else(Vec::new, |l| l.take())
    }

    /// Adds the SM's constant cache: constant and parameter reads (`DataSpace::Constant`) go to
    /// it instead of the L1D (GPGPU-Sim's `m_L1C`, a read-only cache shaped by
    /// `-gpgpu_const_cache:l1`); its misses leave through the same port to the interconnect.
    pub fn with_constant_cache(mut self, spec: CacheSpec) -> L1d {
        self.constant = Some(DataCache::new(spec));
        self
    }

    /// Adds the SM's texture cache: read-only global loads (`ld.global.nc`, CUDA's `__ldg`,
    /// `DataSpace::Texture`) go to it instead of the L1D (GPGPU-Sim's `m_L1T`, shaped by
    /// `-gpgpu_tex_cache:l1`, which serves texture fetches; since sm_35 `__ldg` takes the same
    /// path); its misses leave through the same port.
    pub fn with_texture_cache(mut self, spec: CacheSpec) -> L1d {
        self.texture = Some(DataCache::new(spec));
        self
    }

    /// Adds the SM's instruction cache (GPGPU-Sim's `m_L1I`, a read-only cache shaped by
    /// `-gpgpu_cache:il1`): the fetch stage asks it for each warp's instructions
    /// ([`L1d::fetch_instructions`]); its misses leave through the same port.
    pub fn with_instruction_cache(mut self, spec: CacheSpec) -> L1d {
        self.instruction = Some(DataCache::new(spec));
        self
    }

    /// The instruction cache's line size, if the SM fetches through one.
    pub fn instruction_line_bytes(&self) -> Option<u32> {
        self.instruction.as_ref().map(|c| c.spec().line_bytes)
    }

    /// The fetch stage reads `bytes` bytes of code at `addr` for warp slot `warp` (GPGPU-Sim's
    /// `shader_core_ctx::fetch`: 16 bytes, clipped at the line's end): `Hit`, `Pending` (a miss,
    /// or merged into one: the warp waits for [`L1d::next_instruction_fill`]), or `Fail` (try
    /// again next cycle). Without an instruction cache every fetch hits.
    pub fn fetch_instructions(&mut self, addr: u64, bytes: u32, warp: u32, now: u64) -> L1Outcome {
        let sm = self.sm;
        let Some(cache) = self.instruction.as_mut() else {
            return L1Outcome::Hit;
        };
        let req = CacheRequest {
            addr,
            size: bytes,
            kind: AccessKind::Read,
            space: DataSpace::Instruction,
            bytes: super::request::byte_mask((addr % 128) as u32, bytes),
            sm,
            token: u64::from(warp),
            owner: 0,
        };
        match cache.access(&req, u64::from(warp), now) {
            Outcome::Fail(r) => L1Outcome::Fail(r),
            Outcome::Hit => L1Outcome::Hit,
            _ => L1Outcome::Pending,
        }
    }

    /// The warp slot whose instruction line has come back, one per cycle.
    pub fn next_instruction_fill(&mut self) -> Option<u32> {
        let cache = self.instruction.as_mut()?;
        while let Some(w) = cache.next_ready() {
            if let Waiter::Reply(warp) = w {
                return Some(warp as u32);
            }
        }
        None
    }

    /// Forgets last cycle's reservation failures (the memory side calls it first each cycle).
    pub fn begin_cycle(&mut self) {
        self.fails.clear();
        let caches = [
            self.cache.as_mut(),
            self.constant.as_mut(),
            self.texture.as_mut(),
            self.instruction.as_mut(),
        ];
        for c in caches.into_iter().flatten() {
            c.skip_silent();
        }
    }

    /// The line the last global or local access (through [`L1d::access_as`]) allocated in the
    /// data cache, with the line it pushed out, if it took one (CCWS's victim tags learn from
    /// it, `crate::core::ccws`). Block addresses are the cache's (local data at its offset).
    pub fn allocation(&self) -> Option<Allocation> {
        self.allocation
    }

    /// One request from MEM0; `tag` names the instruction for its reply.
    pub fn access(&mut self, a: &Access, tag: u64, now: u64) -> L1Outcome {
        self.access_as(a, tag, 0, now)
    }

    /// [`L1d::access`] for the warp `owner` (the cache's `owner_id`), so that the lines it
    /// brings in and the misses it causes count in the contention breakdown.
    pub fn access_as(&mut self, a: &Access, tag: u64, owner: u64, now: u64) -> L1Outcome {
        let addr = match a.space {
            DataSpace::Local => a.addr + self.local_offset,
            DataSpace::Global
            | DataSpace::Constant
            | DataSpace::Texture
            | DataSpace::Instruction => a.addr,
        };
        let side_cache = match a.space {
            DataSpace::Constant => self.constant.is_some(),
            DataSpace::Texture => self.texture.is_some(),
            _ => false,
        };
        let bypass = !side_cache && (a.kind == AccessKind::Atomic || self.cache.is_none());
        self.allocation = None;
        let (outcome, raw) = if bypass {
            (self.bypass(a, addr, tag), None)
        } else {
            self.cached(a, addr, tag, owner, now)
        };
        if !bypass && matches!(a.space, DataSpace::Global | DataSpace::Local) {
            self.allocation = self.cache.as_ref().and_then(DataCache::allocation);
        }
        if let L1Outcome::Fail(reason) = outcome {
            self.fails.push(Failure { reason, addr });
        }
        if self.log.is_some() {
            self.log_access(a, addr, tag, outcome, raw, now);
        }
        outcome
    }

    /// Logs what became of a request (the log is on).
    fn log_access(
        &mut self,
        a: &Access,
        addr: u64,
        tag: u64,
        outcome: L1Outcome,
        raw: Option<Outcome>,
        now: u64,
    ) {
        let detail = match (outcome, raw) {
            (L1Outcome::Hit, _) => AccessOutcome::Hit,
            (L1Outcome::Stored, _) => AccessOutcome::Stored,
            (L1Outcome::Busy, _) => AccessOutcome::Busy,
            (L1Outcome::Fail(r), _) => AccessOutcome::Fail(r),
            (L1Outcome::Pending, _) if a.kind == AccessKind::Write && raw.is_some() => {
                AccessOutcome::WriteThrough
            }
            (L1Outcome::Pending, Some(Outcome::Merged)) => AccessOutcome::Merged,
            (L1Outcome::Pending, Some(_)) => AccessOutcome::Miss,
            (L1Outcome::Pending, None) => AccessOutcome::Bypass,
        };
        let key = self.cache.as_ref().map(|c| c.mshr_key(addr));
        let sm = self.sm;
        if let Some(log) = self.log.as_mut() {
            let request = (addr, a.size, a.space, a.kind);
            log.access(now, sm, request, tag, (detail, raw), key);
        }
    }

    /// The cache's answer, and the cache's own outcome when it looked the request up.
    fn cached(
        &mut self,
        a: &Access,
        addr: u64,
        tag: u64,
        owner: u64,
        now: u64,
    ) -> (L1Outcome, Option<Outcome>) {
        let sm = self.sm;
        let Some(cache) = self.cache_for(a.space) else {
            return (L1Outcome::Fail(FailReason::MissQueue), None);
        };
        let req = CacheRequest {
            addr,
            size: a.size,
            kind: a.kind,
            space: a.space,
            bytes: a.bytes,
            sm,
            token: tag,
            owner,
        };
        if !cache.data_port_free(now) {
            return (L1Outcome::Busy, None);
        }
        let writes_before = cache.writes_sent();
        let raw = cache.access(&req, tag, now);
        let outcome = match (raw, a.kind) {
            (Outcome::Fail(r), _) => L1Outcome::Fail(r),
            // A store written through waits for the L2's acknowledgement; one kept in a
            // write-back line is done.
            (_, AccessKind::Write) if cache.writes_sent() > writes_before => L1Outcome::Pending,
            (_, AccessKind::Write) => L1Outcome::Stored,
            (Outcome::Hit, _) => L1Outcome::Hit,
            _ => L1Outcome::Pending,
        };
        (outcome, Some(raw))
    }

    /// A global read the cache refused goes past it to the L2 (MRPB's bypass): its reply will
    /// fill only registers. Returns false when the miss queue has no room.
    pub fn bypass_read(&mut self, a: &Access, tag: u64, now: u64) -> bool {
        let outcome = self.bypass(a, a.addr, tag);
        if self.log.is_some() {
            self.log_access(a, a.addr, tag, outcome, None, now);
        }
        outcome == L1Outcome::Pending
    }

    fn bypass(&mut self, a: &Access, addr: u64, tag: u64) -> L1Outcome {
        let kind = match a.kind {
            AccessKind::Read => FetchKind::Read,
            AccessKind::Write => FetchKind::Write,
            AccessKind::Atomic => FetchKind::Atomic,
        };
        let fetch = Fetch {
            addr,
            size: a.size,
            kind,
            space: a.space,
            sm: self.sm,
            token: tag,
            bypass: true,
            bytes: a.bytes,
            parent: NO_PARENT,
            pieces: 1,
            stamp: 0,
        };
        let taken = match self.cache.as_mut() {
            Some(c) => c.push_bypass(fetch),
            None if self.direct.len() < DIRECT_QUEUE => {
                self.direct.push_back(fetch);
                true
            }
            None => false,
        };
        match (taken, a.kind) {
            (false, _) => {
                self.bypass_fails += 1;
                L1Outcome::Fail(FailReason::MissQueue)
            }
            (true, _) => L1Outcome::Pending,
        }
    }

    /// The instruction tag of the next request whose data came back (one per cycle).
    pub fn next_response(&mut self, now: u64) -> Option<u64> {
        if let Some((tag, addr)) = self.responses.pop_front() {
            if let Some(log) = self.log.as_mut() {
                log.direct_reply(now, self.sm, tag, addr);
            }
            return Some(tag);
        }
        let logging = self.log.is_some();
        let mut answered = None;
        let caches = [
            self.cache.as_mut(),
            self.constant.as_mut(),
            self.texture.as_mut(),
        ];
        'caches: for cache in caches.into_iter().flatten() {
            loop {
                let key = if logging { cache.ready_key() } else { None };
                let Some(w) = cache.next_ready() else { break };
                if let Waiter::Reply(tag) = w {
                    answered = Some((tag, key));
                    break 'caches;
                }
            }
        }
        let (tag, key) = answered?;
        if let (Some(log), Some(key)) = (self.log.as_mut(), key) {
            log.cache_reply(now, self.sm, tag, key);
        }
        Some(tag)
    }

    /// Posts the next finished request of cycle `now` to the LD/ST unit's port (the memory
    /// system calls it last in its cycle, for each SM whose LD/ST unit works this cycle); one
    /// already posted and not taken stays.
    pub fn post_reply(&mut self, now: u64) {
        if self.posted.is_none() {
            self.posted = self.next_response(now);
        }
    }

    /// The reply posted to the LD/ST unit's port (the instruction tag), taken.
    pub fn take_reply(&mut self) -> Option<u64> {
        self.posted.take()
    }

    /// Whether the reply can be taken in cycle `now`: a fill of the data or constant cache
    /// waits for its fill port (GPGPU-Sim's LD/ST unit checks `fill_port_free` for both; an
    /// instruction fill does not wait).
    pub fn can_take(&self, fetch: &Fetch, now: u64) -> bool {
        if fetch.bypass || fetch.kind.acknowledged() {
            return true;
        }
        let cache = match fetch.space {
            DataSpace::Constant => self.constant.as_ref(),
            DataSpace::Texture => self.texture.as_ref(),
            DataSpace::Instruction => None,
            DataSpace::Global | DataSpace::Local => self.cache.as_ref(),
        };
        cache.map_or(true, |c| c.fill_port_free(now))
    }

    /// A reply from the interconnect: data for the cache or the LD/ST unit, or a store's
    /// acknowledgement. A request the L2 answered in pieces counts once all have come.
    pub fn fill(&mut self, fetch: &Fetch, now: u64) {
        if fetch.pieces > 1 && !self.last_piece(fetch) {
            return;
        }
        if fetch.bypass || fetch.kind.acknowledged() {
            self.responses.push_back((fetch.token, fetch.addr));
        } else if let Some(c) = self.cache_for(fetch.space) {
            c.fill(fetch, now);
        }
    }

    /// Counts a piece of a reply; true when it is the last (GPGPU-Sim's sector MSHR waiting for
    /// every sector of the line: `pending_read`).
    fn last_piece(&mut self, fetch: &Fetch) -> bool {
        let key = (fetch.token, fetch.addr, fetch.kind);
        match self.partial.iter().position(|p| p.0 == key) {
            Some(i) => {
                self.partial[i].1 += 1;
                if self.partial[i].1 < fetch.pieces {
                    return false;
                }
                self.partial.swap_remove(i);
                true
            }
            None => {
                self.partial.push((key, 1));
                false
            }
        }
    }

    /// The oldest request for the interconnect: the instruction cache's first, then the
    /// constant cache's (their misses are few and hold warps at their first instructions), the
    /// texture cache's, then the L1D's.
    pub fn outgoing(&self) -> Option<&Fetch> {
        let first = [
            self.instruction.as_ref(),
            self.constant.as_ref(),
            self.texture.as_ref(),
        ];
        if let Some(f) = first.into_iter().flatten().find_map(DataCache::miss_front) {
            return Some(f);
        }
        match &self.cache {
            Some(c) => c.miss_front(),
            None => self.direct.front(),
        }
    }

    pub fn pop_outgoing(&mut self) -> Option<Fetch> {
        let first = [
            self.instruction.as_mut(),
            self.constant.as_mut(),
            self.texture.as_mut(),
        ];
        if let Some(f) = first.into_iter().flatten().find_map(DataCache::pop_miss) {
            return Some(f);
        }
        match self.cache.as_mut() {
            Some(c) => c.pop_miss(),
            None => self.direct.pop_front(),
        }
    }

    /// Nothing outstanding, queued or waiting for the LD/ST unit.
    pub fn is_idle(&self) -> bool {
        self.direct.is_empty()
            && self.responses.is_empty()
            && self.posted.is_none()
            && self.partial.is_empty()
            && self.cache.as_ref().map_or(true, |c| c.is_idle())
            && self.constant.as_ref().map_or(true, |c| c.is_idle())
            && self.texture.as_ref().map_or(true, |c| c.is_idle())
            && self.instruction.as_ref().map_or(true, |c| c.is_idle())
    }

    /// The instruction cache's counters (zero without one).
    pub fn instruction_stats(&self) -> L1dStats {
        counters(self.instruction.as_ref(), 0)
    }

    /// The constant cache's counters (zero without one).
    pub fn constant_stats(&self) -> L1dStats {
        counters(self.constant.as_ref(), 0)
    }

    /// The texture cache's counters (zero without one).
    pub fn texture_stats(&self) -> L1dStats {
        counters(self.texture.as_ref(), 0)
    }

    /// Reservation failures of the current cycle, with the failing requests' addresses.
    pub fn fails(&self) -> &[Failure] {
        &self.fails
    }

    /// The L1D's counters.
    pub fn stats(&self) -> L1dStats {
        counters(self.cache.as_ref(), self.bypass_fails)
    }

    /// The cache that holds data of `space`: the constant or instruction cache, or the L1D.
    fn cache_for(&mut self, space: DataSpace) -> Option<&mut DataCache<u64>> {
        match space {
            DataSpace::Constant => self.constant.as_mut(),
            DataSpace::Texture => self.texture.as_mut(),
            DataSpace::Instruction => self.instruction.as_mut(),
            DataSpace::Global | DataSpace::Local => self.cache.as_mut(),
        }
    }

    /// The L1D set a global or local request maps to (local addresses as the cache sees them),
    /// if there is an L1D.
    pub fn set_of(&self, a: &Access) -> Option<u32> {
        let addr = match a.space {
            DataSpace::Local => a.addr + self.local_offset,
            _ => a.addr,
        };
        self.cache.as_ref().map(|c| c.tags().set_index(addr))
    }

    /// The set a global or local request maps to and every way of it (state, block, who
    /// brought it in), if there is an L1D: what a request refused for associativity saw.
    pub fn set_lines(&self, a: &Access) -> Option<(u32, Vec<SetLine>)> {
        let set = self.set_of(a)?;
        let cache = self.cache.as_ref()?;
        Some((set, cache.tags().set_owners(set)))
    }

    /// The MSHR entries of the L1D (then of the constant cache) in which instruction `tag`
    /// waits for a fill.
    pub fn mshrs_of(&self, tag: u64) -> Vec<MshrWait> {
        let caches = [
            (CacheName::L1d, self.cache.as_ref()),
            (CacheName::Constant, self.constant.as_ref()),
            (CacheName::Texture, self.texture.as_ref()),
        ];
        let mut waits = Vec::new();
        for (cache, c) in caches {
            let Some(c) = c else { continue };
            waits.extend(c.mshrs_waiting(|&t| t == tag).into_iter().map(
                |(entry, addr, filled)| {
                    MshrWait {
                        cache,
                        entry: entry as u32,
                        addr,
                        filled,
                        queued: c
                            .miss_queue()
                            .iter()
                            .position(|f| !f.bypass && f.token == addr)
                            .map(|p| p as u32),
                    }
                },
            ));
        }
        waits
    }

    /// The instruction tags waiting in the L1D's MSHR entry for `addr`'s line, oldest first.
    pub fn line_waiters(&self, addr: u64) -> Vec<u64> {
        let Some(c) = self.cache.as_ref() else {
            return Vec::new();
        };
        c.mshr_waiters(c.mshr_key(addr)).copied().collect()
    }

    /// Where a bypassing request of instruction `tag` is: its position in the outgoing queue.
    pub fn bypass_position(&self, tag: u64) -> Option<u32> {
        let queue: Vec<&Fetch> = match &self.cache {
            Some(c) => c.miss_queue().iter().collect(),
            None => self.direct.iter().collect(),
        };
        queue
            .iter()
            .position(|f| f.bypass && f.token == tag)
            .map(|p| p as u32)
    }

    /// Requests in the miss queue (the L1D's, or the outgoing queue without one) and MSHR
    /// entries in use: the queue depths of the Perfetto trace's counters.
    pub fn queue_depths(&self) -> (usize, usize) {
        match &self.cache {
            Some(c) => (c.miss_queue().len(), c.mshrs_in_use()),
            None => (self.direct.len(), 0),
        }
    }

    /// The cache, if there is one.
    pub fn cache(&self) -> Option<&DataCache<u64>> {
        self.cache.as_ref()
    }

    /// Everything the memory view draws.
    pub fn view(&self) -> L1dView {
        let (sets, mshrs) = match &self.cache {
            Some(c) => (c.sets_view(), c.mshr_view()),
            None => (Vec::new(), Vec::new()),
        };
        let queue: Vec<FetchView> = match &self.cache {
            Some(c) => c.miss_queue().iter().map(FetchView::from).collect(),
            None => self.direct.iter().map(FetchView::from).collect(),
        };
        L1dView {
            sets,
            mshrs,
            miss_queue: queue,
            fails: self.fails.iter().map(|f| f.reason).collect(),
            stats: self.stats(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::request::byte_mask;

    fn l1(s: &str) -> L1d {
        let spec = crate::config::cache_string::parse_optional(s).unwrap();
        L1d::new(0, spec, &LocalMap::new(1536, 1))
    }

    fn access(addr: u64, kind: AccessKind) -> Access {
        Access {
            addr,
            size: 128,
            kind,
            space: DataSpace::Global,
            lanes: u32::MAX as u64,
            bytes: byte_mask(0, 128),
            sectors: 0b1111,
        }
    }

    #[test]
    fn two_warps_merge_into_one_pending_line() {
        let mut l = l1("N:32:128:4,L:L:m:N:L,A:32:8,8");
        let a = access(0x1_0000_0000, AccessKind::Read);
        assert_eq!(l.access(&a, 1, 0), L1Outcome::Pending);
        assert_eq!(l.access(&a, 2, 1), L1Outcome::Pending);
        assert_eq!(l.stats().mshr_merges, 1);
        let f = l.pop_outgoing().unwrap();
        assert!(l.pop_outgoing().is_none(), "one fetch for both");
        l.fill(&f, 10);
        assert_eq!(l.next_response(0), Some(1));
        assert_eq!(l.next_response(0), Some(2));
        assert_eq!(l.access(&a, 3, 12), L1Outcome::Hit);
        assert!(l.is_idle());
    }

    #[test]
    fn constant_reads_use_the_constant_cache_behind_the_same_port() {
        let spec = crate::config::cache_string::parse_optional("N:64:64:2,L:R:f:N:L,S:2:32,4");
        let mut l = l1("N:32:128:4,L:L:m:N:H,S:64:8,8").with_constant_cache(spec.unwrap().unwrap());
        let c = Access {
            size: 64,
            space: DataSpace::Constant,
            bytes: byte_mask(0, 4),
            ..access(0xF0_0000_0000, AccessKind::Read)
        };
        let g = access(0x1_0000_0000, AccessKind::Read);
        assert_eq!(l.access(&g, 1, 0), L1Outcome::Pending);
        assert_eq!(l.access(&c, 2, 0), L1Outcome::Pending);
        assert_eq!(l.access(&c, 3, 1), L1Outcome::Pending, "merged");
        // The L1D saw only the global read; the constant cache the other two.
        assert_eq!((l.stats().accesses, l.stats().misses), (1, 1));
        let k = l.constant_stats();
        assert_eq!((k.accesses, k.misses, k.mshr_merges), (2, 1, 1));
        // The constant miss leaves first: one 64-byte line.
        let f = l.pop_outgoing().unwrap();
        assert_eq!(
            (f.addr, f.size, f.space),
            (0xF0_0000_0000, 64, DataSpace::Constant)
        );
        assert_eq!(l.pop_outgoing().map(|f| f.space), Some(DataSpace::Global));
        l.fill(&f, 10);
        assert_eq!(l.next_response(0), Some(2));
        assert_eq!(l.next_response(0), Some(3));
        assert_eq!(l.access(&c, 4, 12), L1Outcome::Hit);
    }

    #[test]
    fn a_fetch_miss_waits_for_its_line_and_merged_warps_follow_one_per_cycle() {
        let spec = crate::config::cache_string::parse_optional("N:4:128:4,L:R:f:N:L,S:2:32,4");
        let mut l =
            l1("N:32:128:4,L:L:m:N:H,S:64:8,8").with_instruction_cache(spec.unwrap().unwrap());
        assert_eq!(l.instruction_line_bytes(), Some(128));
        let code = 0xD0_0000_0000;
        assert_eq!(l.fetch_instructions(code, 16, 3, 0), L1Outcome::Pending);
        assert_eq!(
            l.fetch_instructions(code + 16, 16, 4, 1),
            L1Outcome::Pending
        );
        assert_eq!(l.next_instruction_fill(), None);
        let f = l.pop_outgoing().unwrap();
        assert_eq!(
            (f.addr, f.size, f.space),
            (code, 128, DataSpace::Instruction)
        );
        l.fill(&f, 10);
        // Warp slots 3 and 4, one per cycle; the data side sees nothing.
        assert_eq!(l.next_instruction_fill(), Some(3));
        assert_eq!(l.next_instruction_fill(), Some(4));
        assert_eq!(l.next_response(0), None);
        assert_eq!(l.fetch_instructions(code + 32, 16, 5, 12), L1Outcome::Hit);
        let s = l.instruction_stats();
        assert_eq!((s.accesses, s.hits, s.misses, s.mshr_merges), (3, 1, 1, 1));
        assert_eq!(l.stats().accesses, 0);
    }

    #[test]
    fn atomics_bypass_and_reply_directly() {
        let mut l = l1("N:32:128:4,L:L:m:N:H,S:64:8,8");
        let a = access(0x1_0000_0000, AccessKind::Atomic);
        assert_eq!(l.access(&a, 5, 0), L1Outcome::Pending);
        let f = l.pop_outgoing().unwrap();
        assert!(f.bypass);
        assert_eq!(f.kind, FetchKind::Atomic);
        l.fill(&f, 3);
        assert_eq!(l.next_response(0), Some(5));
        assert_eq!(l.stats().accesses, 0);
    }

    #[test]
    fn a_written_through_store_completes_when_every_piece_is_acknowledged() {
        let mut l = l1("N:32:128:4,L:L:m:N:H,S:64:8,8");
        let a = access(0x1_0000_0000, AccessKind::Write);
        assert_eq!(l.access(&a, 5, 0), L1Outcome::Pending);
        let w = l.pop_outgoing().unwrap();
        assert_eq!((w.kind, w.token), (FetchKind::Write, 5));
        // The sectored L2 acknowledges each of the four 32-byte pieces.
        let ack = Fetch {
            size: 32,
            pieces: 4,
            ..w
        };
        for k in 0..4 {
            assert_eq!(l.next_response(0), None, "after {k} pieces");
            l.fill(&ack, 10 + k);
        }
        assert_eq!(l.next_response(0), Some(5));
        assert!(l.is_idle());
    }

    #[test]
    fn without_an_l1d_everything_goes_through() {
        let mut l = l1("none");
        let a = access(0x1_0000_0000, AccessKind::Read);
        for t in 0..8 {
            assert_eq!(l.access(&a, t, 0), L1Outcome::Pending);
        }
        assert_eq!(l.access(&a, 9, 0), L1Outcome::Fail(FailReason::MissQueue));
        assert_eq!(
            l.fails(),
            &[Failure {
                reason: FailReason::MissQueue,
                addr: 0x1_0000_0000
            }]
        );
        assert_eq!(l.stats().reservation_fails.miss_queue, 1);
        assert!(l.view().sets.is_empty());
    }

    #[test]
    fn local_addresses_move_by_the_sm_offset() {
        let spec =
            crate::config::cache_string::parse_optional("N:32:128:4,L:L:m:N:L,A:32:8,8").unwrap();
        let map = LocalMap::new(1536, 2);
        let mut l = L1d::new(1, spec, &map);
        let mut a = access(crate::mem::coalescer::LOCAL_BASE, AccessKind::Read);
        a.space = DataSpace::Local;
        l.access(&a, 0, 0);
        assert_eq!(
            l.pop_outgoing().map(|f| f.addr),
            Some(crate::mem::coalescer::LOCAL_BASE + 4 * 1536)
        );
    }
}
