//! One L2 slice, the cache half of a memory sub-partition (MODEL.md section 9; book section
//! 4.3.1; GPGPU-Sim's `memory_sub_partition` in `src/gpgpu-sim/l2cache.cc`).
//!
//! Requests come from the interconnect into the ROP delay queue and reach the L2 `l2.latency`
//! cycles later (GPGPU-Sim's `m_rop` with `-rop_latency`/`-gpgpu_l2_rop_latency`). The slice has
//! GPGPU-Sim's four queues of `l2.queue_entries` each: icnt->L2, L2->DRAM, DRAM->L2 and
//! L2->icnt (`-gpgpu_dram_partition_queues`); the ROP delay queue before them is unbounded. Every cycle, in GPGPU-Sim's `cache_cycle` order:
//! 1. one request whose fill arrived leaves the cache towards the interconnect;
//! 2. the oldest DRAM reply fills the cache when its fill port is free (with no L2, it goes back
//!    to the interconnect);
//! 3. the cache's oldest miss moves to the L2->DRAM queue;
//! 4. the oldest request is looked up in the cache (when both outgoing queues have room and the
//!    data port is free): a read hit replies, a miss or merge waits for its fill, a reservation
//!    failure retries next cycle. The data port moves `data_port_width` bytes per cycle (the
//!    cache string's last field, 32 on the GTX480): a sector hit holds it one cycle, a miss that
//!    writes back a modified 128-byte victim four (GPGPU-Sim's `use_data_port`), which is what
//!    slows a write-heavy phase once the L2 holds dirty lines.
//!    With no L2 (`l2.config` `none`) requests pass straight to DRAM;
//! 5. one request whose ROP delay is over enters the icnt->L2 queue.
//!
//! The slice's cache is a [`DataCache`] with its own cache string, MSHRs and miss queue,
//! indexed by the address within the slice. A request larger than the cache's atom (an L1D's
//! 128-byte line read from a sectored L2) is split into one request per atom it touches, as
//! GPGPU-Sim's `memory_sub_partition::push` does for sector caches; each piece is answered on
//! its own (one 40-byte packet per 32-byte sector, as GPGPU-Sim), saying how many pieces answer
//! the request, and the SM's L1D fills once all have come. A store from an SM is acknowledged
//! (an 8-byte packet per piece) once the cache has taken it, hit or miss, as GPGPU-Sim's
//! `WRITE_ACK`; evictions are not. `misses` counts merged misses too, so accesses = hits +
//! misses.

use super::data_cache::{CacheRequest, DataCache, Outcome, Waiter};
use super::request::{byte_mask, AccessKind, Fetch, FetchKind, NO_PARENT};
use crate::config::CacheSpec;
use serde::Serialize;
use std::collections::VecDeque;

/// Pieces a request from an SM can split into: the 32-byte sectors of a 128-byte line.
const MAX_PIECES: usize = 4;

/// L2 counters summed over slices (`warpstep run --json`'s `l2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct L2Stats {
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
}

impl L2Stats {
    pub fn add(&mut self, o: &L2Stats) {
        self.accesses += o.accesses;
        self.hits += o.hits;
        self.misses += o.misses;
    }
}

/// A split request whose pieces are still being answered.
#[derive(Debug, Clone, Copy)]
struct Join {
    parent: Fetch,
    pieces: u32,
    remaining: u32,
}

/// Where a request is in an L2 slice ([`L2Slice::find`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum SlicePlace {
    /// In the ROP delay queue until cycle `until`.
    Rop { until: u64 },
    /// In the queue from the interconnect, at a position (0: next).
    Input { position: u32 },
    /// Missed in the L2: waits in MSHR `entry` for the DRAM's fill of `addr`.
    Miss { entry: u32, addr: u64, filled: bool },
    /// In the queue to DRAM.
    ToDram { position: u32 },
    /// Back from DRAM, waiting to fill the L2.
    FromDram { position: u32 },
    /// Its reply waits for the interconnect.
    Reply { position: u32 },
}

/// Queue lengths of a slice, for the views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SliceView {
    pub rop: usize,
    pub icnt_to_l2: usize,
    pub l2_to_dram: usize,
    pub dram_to_l2: usize,
    pub l2_to_icnt: usize,
    pub mshrs: usize,
}

/// One L2 slice (see the module documentation).
#[derive(Debug, Clone)]
pub struct L2Slice {
    cache: Option<DataCache<Fetch>>,
    latency: u64,
    cap: usize,
    rop: VecDeque<(u64, Fetch)>,
    icnt_l2: VecDeque<Fetch>,
    l2_dram: VecDeque<Fetch>,
    dram_l2: VecDeque<Fetch>,
    l2_icnt: VecDeque<Fetch>,
    joins: Vec<Option<Join>>,
    /// The head request failed in the cache and nothing it waits for (a fill, a freed MSHR, a
    /// drained miss queue) has changed since: retrying would fail again, so it is skipped.
    blocked: bool,
    /// Nothing can happen in the slice before this cycle unless something arrives from
    /// outside (a request, a DRAM reply, room in an outgoing queue), which wakes it.
    sleep_until: u64,
}

impl L2Slice {
    /// A slice with cache `spec` (`None`: no L2), `latency` ROP cycles and queues of
    /// `queue_entries`; the cache indexes with the address inside one of `slices` slices
    /// interleaved every `interleave` bytes.
    pub fn new(
        spec: Option<CacheSpec>,
        latency: u32,
        queue_entries: u32,
        interleave: u64,
        slices: u64,
    ) -> L2Slice {
        L2Slice {
            cache: spec.map(|s| DataCache::new(s).with_partition(interleave, slices)),
            latency: u64::from(latency),
            cap: queue_entries.max(1) as usize,
            rop: VecDeque::new(),
            icnt_l2: VecDeque::new(),
            l2_dram: VecDeque::new(),
            dram_l2: VecDeque::new(),
            l2_icnt: VecDeque::new(),
            joins: Vec::new(),
            blocked: false,
            sleep_until: 0,
        }
    }

    /// Bytes of one piece: the cache's atom (no split without a cache).
    fn atom(&self) -> u32 {
        self.cache.as_ref().map_or(u32::MAX, |c| c.atom_bytes())
    }

    /// Pieces `f` splits into.
    fn pieces(&self, f: &Fetch) -> u32 {
        let atom = self.atom();
        if f.size <= atom {
            return 1;
        }
        (0..f.size / atom)
            .filter(|k| self.piece_mask(f, *k) != 0)
            .count()
            .max(1) as u32
    }

    fn piece_mask(&self, f: &Fetch, k: u32) -> u128 {
        let atom = self.atom();
        let addr = f.addr + u64::from(k * atom);
        byte_mask((addr % 128) as u32, atom) & f.bytes
    }

    /// Whether a request from the interconnect fits: the icnt->L2 queue has room for the most
    /// pieces a request can split into, whatever this one needs (GPGPU-Sim's
    /// `memory_sub_partition::full(SECTOR_CHUNCK_SIZE)`; its ROP delay queue is unbounded).
    pub fn can_accept(&self) -> bool {
        self.icnt_l2.len() + MAX_PIECES.min(self.cap) <= self.cap
    }

    /// A request arrives from the interconnect in cycle `now`.
    pub fn push(&mut self, f: Fetch, now: u64) {
        self.sleep_until = 0;
        let ready = now + self.latency;
        if self.pieces(&f) == 1 {
            self.rop.push_back((ready, f));
            return;
        }
        let atom = self.atom();
        let parent = if f.kind.expects_reply() || f.kind.acknowledged() {
            self.new_join(f)
        } else {
            NO_PARENT
        };
        for k in 0..f.size / atom {
            let bytes = self.piece_mask(&f, k);
            if bytes == 0 {
                continue;
            }
            let piece = Fetch {
                addr: f.addr + u64::from(k * atom),
                size: atom,
                bytes,
                parent,
                ..f
            };
            if let Some(Some(j)) = self.joins.get_mut(parent as usize) {
                j.remaining += 1;
                j.pieces += 1;
            }
            self.rop.push_back((ready, piece));
        }
    }

    fn new_join(&mut self, parent: Fetch) -> u32 {
        let join = Some(Join {
            parent,
            pieces: 0,
            remaining: 0,
        });
        match self.joins.iter().position(Option::is_none) {
            Some(i) => {
                self.joins[i] = join;
                i as u32
            }
            None => {
                self.joins.push(join);
                (self.joins.len() - 1) as u32
            }
        }
    }

    /// Sends a reply or acknowledgement; a piece of a split request is answered on its own,
    /// as the parent request with the piece's size, saying how many pieces answer it.
    fn reply(&mut self, f: Fetch) {
        if f.parent == NO_PARENT {
            self.l2_icnt.push_back(f);
            return;
        }
        let Some(slot) = self.joins.get_mut(f.parent as usize) else {
            return;
        };
        let Some(j) = slot.as_mut() else { return };
        j.remaining = j.remaining.saturating_sub(1);
        let answer = Fetch {
            size: f.size,
            pieces: j.pieces.min(u32::from(u8::MAX)) as u8,
            ..j.parent
        };
        if j.remaining == 0 {
            *slot = None;
        }
        self.l2_icnt.push_back(answer);
    }

    /// One cycle (see the module documentation).
    pub fn cycle(&mut self, now: u64) {
        if now < self.sleep_until {
            return;
        }
        self.release_filled();
        self.take_dram_reply(now);
        if let Some(c) = self.cache.as_mut() {
            if c.miss_front().is_some() && self.l2_dram.len() < self.cap {
                if let Some(f) = c.pop_miss() {
                    self.l2_dram.push_back(f);
                    self.blocked = false;
                }
            }
        }
        if !self.blocked {
            self.access(now);
        }
        if let Some(&(ready, f)) = self.rop.front() {
            if ready <= now && self.icnt_l2.len() < self.cap {
                self.rop.pop_front();
                self.icnt_l2.push_back(f);
            }
        }
        self.sleep_until = self.next_wake(now);
    }

    /// The first cycle after `now` in which [`L2Slice::cycle`] can do something without a
    /// wake-up from outside: `now + 1` if any step could act, else the ROP head's ready cycle
    /// (or never).
    fn next_wake(&self, now: u64) -> u64 {
        let icnt_room = self.l2_icnt.len() < self.cap;
        let dram_room = self.l2_dram.len() < self.cap;
        let cache_busy = self.cache.as_ref().is_some_and(|c| {
            (c.has_ready() && icnt_room) || (c.miss_front().is_some() && dram_room)
        });
        let head = !self.icnt_l2.is_empty() && !self.blocked && dram_room && icnt_room;
        if cache_busy || head || !self.dram_l2.is_empty() {
            return now + 1;
        }
        match self.rop.front() {
            Some(&(ready, _)) if self.icnt_l2.len() < self.cap => ready.max(now + 1),
            _ => u64::MAX,
        }
    }

    fn release_filled(&mut self) {
        if self.l2_icnt.len() >= self.cap {
            return;
        }
        let Some(c) = self.cache.as_mut() else { return };
        if !c.has_ready() {
            return;
        }
        self.blocked = false;
        if let Some(Waiter::Reply(f)) = c.next_ready() {
            self.reply(f);
        }
    }

    fn take_dram_reply(&mut self, now: u64) {
        let Some(&f) = self.dram_l2.front() else {
            return;
        };
        match self.cache.as_mut() {
            Some(c) if !c.fill_port_free(now) => return,
            Some(c) => {
                c.fill(&f, now);
                self.blocked = false;
            }
            None if self.l2_icnt.len() < self.cap => self.reply(f),
            None => return,
        }
        self.dram_l2.pop_front();
    }

    fn access(&mut self, now: u64) {
        let Some(&f) = self.icnt_l2.front() else {
            return;
        };
        if self.l2_dram.len() >= self.cap {
            return;
        }
        if self.l2_icnt.len() >= self.cap {
            return;
        }
        let Some(c) = self.cache.as_mut() else {
            self.icnt_l2.pop_front();
            self.l2_dram.push_back(f);
            if f.kind.acknowledged() {
                self.reply(f);
            }
            return;
        };
        if !c.data_port_free(now) {
            return;
        }
        let kind = match f.kind {
            FetchKind::Read | FetchKind::AllocRead => AccessKind::Read,
            FetchKind::Atomic => AccessKind::Atomic,
            FetchKind::Write | FetchKind::WriteBack => AccessKind::Write,
        };
        let req = CacheRequest {
            addr: f.addr,
            size: f.size,
            kind,
            space: f.space,
            bytes: f.bytes,
            sm: f.sm,
            token: f.token,
            owner: 0,
        };
        match c.access(&req, f, now) {
            Outcome::Fail(_) => self.blocked = true,
            Outcome::Hit => {
                self.icnt_l2.pop_front();
                if f.kind.expects_reply() || f.kind.acknowledged() {
                    self.reply(f);
                }
            }
            Outcome::Merged | Outcome::Miss => {
                self.icnt_l2.pop_front();
                if f.kind.acknowledged() {
                    self.reply(f);
                }
            }
        }
    }

    /// A sector of a host-to-device copy made before the launch lands in this slice's cache
    /// (`order` ranks the copies for LRU).
    pub fn fill_copied(&mut self, addr: u64, order: u64) {
        if let Some(c) = self.cache.as_mut() {
            c.fill_copied(addr, order);
        }
    }

    /// The next reply for the interconnect.
    pub fn reply_front(&self) -> Option<&Fetch> {
        self.l2_icnt.front()
    }

    pub fn pop_reply(&mut self) -> Option<Fetch> {
        self.sleep_until = 0;
        self.l2_icnt.pop_front()
    }

    /// The next request for DRAM.
    pub fn dram_front(&self) -> Option<&Fetch> {
        self.l2_dram.front()
    }

    pub fn pop_dram(&mut self) -> Option<Fetch> {
        self.sleep_until = 0;
        self.l2_dram.pop_front()
    }

    /// Whether the DRAM->L2 queue has room.
    pub fn can_take_dram_reply(&self) -> bool {
        self.dram_l2.len() < self.cap
    }

    pub fn push_dram_reply(&mut self, f: Fetch) {
        self.sleep_until = 0;
        self.dram_l2.push_back(f);
    }

    pub fn is_idle(&self) -> bool {
        self.rop.is_empty()
            && self.icnt_l2.is_empty()
            && self.l2_dram.is_empty()
            && self.dram_l2.is_empty()
            && self.l2_icnt.is_empty()
            && self.cache.as_ref().map_or(true, |c| c.is_idle())
    }

    pub fn stats(&self) -> L2Stats {
        let Some(c) = &self.cache else {
            return L2Stats::default();
        };
        let s = c.stats;
        L2Stats {
            accesses: s.accesses,
            hits: s.hits,
            misses: s.misses + s.mshr_merges,
        }
    }

    /// Where the requests that `wants` are in this slice.
    pub fn find(&self, wants: impl Fn(&Fetch) -> bool) -> Vec<SlicePlace> {
        let position = |q: &VecDeque<Fetch>, place: fn(u32) -> SlicePlace| {
            q.iter()
                .enumerate()
                .filter(|(_, f)| wants(f))
                .map(|(i, _)| place(i as u32))
                .collect::<Vec<_>>()
        };
        let mut places: Vec<SlicePlace> = self
            .rop
            .iter()
            .filter(|(_, f)| wants(f))
            .map(|(at, _)| SlicePlace::Rop { until: *at })
            .collect();
        places.extend(position(&self.icnt_l2, |position| SlicePlace::Input {
            position,
        }));
        if let Some(c) = &self.cache {
            let misses = c.mshrs_waiting(|f| wants(f));
            places.extend(
                misses
                    .into_iter()
                    .map(|(entry, addr, filled)| SlicePlace::Miss {
                        entry: entry as u32,
                        addr,
                        filled,
                    }),
            );
        }
        places.extend(position(&self.l2_dram, |position| SlicePlace::ToDram {
            position,
        }));
        places.extend(position(&self.dram_l2, |position| SlicePlace::FromDram {
            position,
        }));
        places.extend(position(&self.l2_icnt, |position| SlicePlace::Reply {
            position,
        }));
        places
    }

    pub fn cache(&self) -> Option<&DataCache<Fetch>> {
        self.cache.as_ref()
    }

    pub fn view(&self) -> SliceView {
        SliceView {
            rop: self.rop.len(),
            icnt_to_l2: self.icnt_l2.len(),
            l2_to_dram: self.l2_dram.len(),
            dram_to_l2: self.dram_l2.len(),
            l2_to_icnt: self.l2_icnt.len(),
            mshrs: self.cache.as_ref().map_or(0, |c| c.mshrs_in_use()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice(s: &str, latency: u32) -> L2Slice {
        let spec = crate::config::cache_string::parse_optional(s).unwrap();
        L2Slice::new(spec, latency, 8, 256, 1)
    }

    fn read(addr: u64, token: u64) -> Fetch {
        Fetch::global_read(addr, 128, token)
    }

    /// Runs the slice with a DRAM that answers every read `dram` cycles later; returns the
    /// replies with their cycle and the fetches DRAM saw.
    fn run(s: &mut L2Slice, dram: u64, cycles: u64) -> (Vec<(u64, u64)>, Vec<Fetch>) {
        let mut replies = Vec::new();
        let mut seen = Vec::new();
        let mut pending: VecDeque<(u64, Fetch)> = VecDeque::new();
        for now in 0..cycles {
            if let Some(&(at, f)) = pending.front() {
                if at <= now && s.can_take_dram_reply() {
                    s.push_dram_reply(f);
                    pending.pop_front();
                }
            }
            s.cycle(now);
            if let Some(f) = s.pop_reply() {
                replies.push((now, f.token));
            }
            if let Some(f) = s.pop_dram() {
                seen.push(f);
                if f.kind.expects_reply() {
                    pending.push_back((now + dram, f));
                }
            }
        }
        (replies, seen)
    }

    #[test]
    fn miss_then_hit_after_the_rop_delay() {
        let mut s = slice("64:128:16,L:B:m:W,A:32:4,4", 10);
        s.push(read(0, 1), 0);
        let (r, seen) = run(&mut s, 50, 200);
        assert_eq!(seen.len(), 1);
        assert_eq!(r.len(), 1);
        assert!(r[0].0 > 60, "{r:?}");
        s.push(read(0, 2), 200);
        let mut hits = Vec::new();
        for now in 200..220 {
            s.cycle(now);
            if let Some(f) = s.pop_reply() {
                hits.push((now, f.token));
            }
        }
        assert_eq!(hits, vec![(211, 2)]);
        assert_eq!(
            s.stats(),
            L2Stats {
                accesses: 2,
                hits: 1,
                misses: 1
            }
        );
    }

    #[test]
    fn a_line_read_from_a_sector_cache_is_split_and_answered_per_piece() {
        let mut s = slice("S:64:128:8,L:B:m:L:L,A:256:4,4:0,32", 0);
        s.push(read(0x100, 7), 0);
        let (r, seen) = run(&mut s, 20, 300);
        assert_eq!(seen.len(), 4, "one DRAM read per sector");
        assert!(seen.iter().all(|f| f.size == 32));
        assert_eq!(r.len(), 4, "one 40-byte reply per sector, as GPGPU-Sim");
        assert!(r.iter().all(|&(_, token)| token == 7));
        assert!(s.is_idle());
    }

    #[test]
    fn without_an_l2_requests_pass_to_dram() {
        let mut s = slice("none", 3);
        s.push(read(0, 5), 0);
        let (r, seen) = run(&mut s, 10, 100);
        assert_eq!(seen.len(), 1);
        assert_eq!(r.len(), 1);
        assert_eq!(s.stats(), L2Stats::default());
    }

    #[test]
    fn writes_to_a_write_back_l2_stay_there() {
        let mut s = slice("S:64:128:8,L:B:m:L:L,A:256:4,4:0,32", 0);
        let w = Fetch {
            kind: FetchKind::Write,
            ..read(0, 0)
        };
        s.push(w, 0);
        let (r, seen) = run(&mut s, 10, 100);
        assert!(seen.is_empty(), "nothing goes to DRAM");
        assert_eq!(r.len(), 4, "each 32-byte piece is acknowledged");
        assert!(s.is_idle());
    }
}
