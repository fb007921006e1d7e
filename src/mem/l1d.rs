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
use super::data_cache::{Allocation, CacheRequest, DataCache, FailReason, Outcome, Waiter};
use super::events::{AccessOutcome, L1dLog, MemEvent};
use super::mshr::MshrView;
use super::request::{Access, AccessKind, DataSpace, Fetch, FetchKind, NO_PARENT};
use super::tag_array::{LineView, SetLine};
use crate::config::CacheSpec;
use serde::Serialize;
use std::collections::VecDeque;

#[path = "l1d_stats.rs"]
mod stats;
#[path = "l1d_view.rs"]
mod view;

use stats::counters;
pub use stats::{Failure, L1dStats, ReservationFails};
pub use view::{CacheName, FetchView, L1dView, MshrWait};

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
}

#[cfg(test)]
#[path = "l1d_tests.rs"]
mod tests;
