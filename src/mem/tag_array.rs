//! A cache's tag array: sets x ways of lines with states and replacement order (MODEL.md
//! section 9; book section 4.1.1; GPGPU-Sim's `tag_array` in `src/gpgpu-sim/gpu-cache.cc`).
//!
//! A line is INVALID, RESERVED (allocated on a miss, waiting for its fill), VALID or MODIFIED. A
//! sector cache (cache-string type `S`) keeps one state per 32-byte sector of its 128-byte lines;
//! a normal cache has one state per line. Following GPGPU-Sim's `tag_array::probe`:
//! * a tag match returns HIT (valid or modified sector; a modified sector that was written only
//!   in part is not readable and reads as a SECTOR_MISS), HIT_RESERVED (sector waiting for its
//!   fill) or SECTOR_MISS (line present, sector invalid);
//! * otherwise the victim is a way holding no reserved sector: the invalid way found last in way
//!   order, else the least recently used (`L`) or first allocated (`F`) way, the lowest way on a
//!   tie; when every way holds a reserved sector the access is a RESERVATION_FAIL (an
//!   associativity stall, MRPB section 2.1).
//!
//! The set index is linear (`L`: the bits above the line offset) or Fermi's hash (`H`, GPGPU-Sim
//! `cache_config::hash_function`, `FERMI_HASH_SET_FUNCTION`, from Nugteren et al., HPCA 2014:
//! address bits 7-11 XOR bits 13, 14, 15, 17 and 19, and bit 12 on top for 64 sets). An L2 slice
//! indexes with its partition address (the slice-select bits removed), as GPGPU-Sim's
//! `l2_cache_config::set_index` does "to reduce set camping".

use crate::config::cache_string::{CacheKind, CacheSpec, Replacement, SetIndex};
use serde::Serialize;

/// The state of a line, or of one sector of a sector cache's line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineState {
    #[default]
    Invalid,
    /// Allocated on a miss; the fill has not come back.
    Reserved,
    Valid,
    /// Written and not yet written back (write-back caches).
    Modified,
}

/// What a probe found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// The data is here (line index).
    Hit(usize),
    /// The line is allocated and waiting for its fill.
    HitReserved(usize),
    /// The line is here but not this sector (or the sector is not readable).
    SectorMiss(usize),
    /// Not here; the victim way to use.
    Miss(usize),
    /// Not here, and every way of the set is reserved.
    ReservationFail,
}

/// A modified line pushed out by an allocation: it must be written back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evicted {
    /// Block address of the line.
    pub block: u64,
    /// Modified bytes (whole sectors).
    pub bytes: u32,
}

/// One line of the tag array.
#[derive(Debug, Clone, Copy, Default)]
struct Line {
    /// Block address (line-aligned).
    block: u64,
    /// State of each sector (only sector 0 in a normal cache).
    state: [LineState; 4],
    /// Sectors whose data is whole (filled, or written in full).
    readable: u8,
    /// Sectors that must become MODIFIED, not VALID, when their fill arrives.
    modified_on_fill: u8,
    last_access: u64,
    alloc_time: u64,
    /// Who brought the line in (the cache's `owner_id`; 0: unknown).
    owner: u64,
}

impl Line {
    fn any(&self, n: usize, s: LineState) -> bool {
        self.state[..n].contains(&s)
    }

    fn all_invalid(&self, n: usize) -> bool {
        self.state[..n].iter().all(|&s| s == LineState::Invalid)
    }
}

/// One way of a set: its state, the block it holds and the warp that brought it in (the
/// cache's `owner_id`; 0: unknown).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SetLine {
    pub state: LineState,
    pub block: u64,
    pub owner: u64,
}

/// One line as the views show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineView {
    /// The line's state (a sector cache: RESERVED if any sector is, else MODIFIED, else VALID).
    pub state: LineState,
    /// Block address (meaningless when invalid).
    pub block: u64,
    /// Per-sector states (one entry for a normal cache).
    pub sectors: Vec<LineState>,
    /// Recency rank in its set: 0 = most recently used (FIFO: most recently allocated).
    pub rank: u32,
}

/// The tag array (see the module documentation).
#[derive(Debug, Clone)]
pub struct TagArray {
    sets: u32,
    assoc: u32,
    line_bytes: u32,
    line_shift: u32,
    sectors: usize,
    index: SetIndex,
    replacement: Replacement,
    /// `(interleave, parts)`: index with the partition address (L2 slices).
    partition: Option<(u64, u64)>,
    lines: Vec<Line>,
}

impl TagArray {
    /// An empty tag array shaped by `spec` (its set index must be `L` or `H`; others index
    /// linearly).
    pub fn new(spec: &CacheSpec) -> TagArray {
        let sectors = if spec.kind == CacheKind::Sector { 4 } else { 1 };
        let n = spec.sets as usize * spec.assoc as usize;
        TagArray {
            sets: spec.sets.max(1),
            assoc: spec.assoc.max(1),
            line_bytes: spec.line_bytes.max(1),
            line_shift: spec.line_bytes.max(1).trailing_zeros(),
            sectors,
            index: spec.set_index,
            replacement: spec.replacement,
            partition: None,
            lines: vec![Line::default(); n],
        }
    }

    /// Index sets with the address inside one of `parts` partitions interleaved every
    /// `interleave` bytes (GPGPU-Sim `l2_cache_config::set_index`).
    pub fn with_partition(mut self, interleave: u64, parts: u64) -> TagArray {
        if parts > 1 && interleave > 0 {
            self.partition = Some((interleave, parts));
        }
        self
    }

    pub fn sets(&self) -> u32 {
        self.sets
    }

    pub fn assoc(&self) -> u32 {
        self.assoc
    }

    pub fn line_bytes(&self) -> u32 {
        self.line_bytes
    }

    /// Whether lines hold four separately valid sectors.
    pub fn sectored(&self) -> bool {
        self.sectors > 1
    }

    /// The line-aligned block address of `addr`.
    pub fn block(&self, addr: u64) -> u64 {
        addr & !(u64::from(self.line_bytes) - 1)
    }

    /// The sector of `addr` within its line (0 in a normal cache).
    pub fn sector(&self, addr: u64) -> usize {
        if self.sectored() {
            ((addr % u64::from(self.line_bytes)) / 32) as usize & 3
        } else {
            0
        }
    }

    /// The set `addr` maps to.
    pub fn set_index(&self, addr: u64) -> u32 {
        let addr = match self.partition {
            Some((step, parts)) => (addr / step / parts) * step + addr % step,
            None => addr,
        };
        let linear = ((addr >> self.line_shift) & u64::from(self.sets - 1)) as u32;
        match self.index {
            SetIndex::FermiHash if matches!(self.sets, 32 | 64) => fermi_hash(addr, self),
            SetIndex::Modulo => ((addr >> self.line_shift) % u64::from(self.sets)) as u32,
            _ => linear,
        }
    }

    /// GPGPU-Sim's `tag_array::probe` (see the module documentation).
    pub fn probe(&self, addr: u64, is_write: bool) -> Probe {
        let set = self.set_index(addr) as usize;
        let block = self.block(addr);
        let s = self.sector(addr);
        let n = self.sectors;
        let mut all_reserved = true;
        let mut invalid = None;
        let mut victim = None;
        let mut oldest = u64::MAX;
        for way in 0..self.assoc as usize {
            let idx = set * self.assoc as usize + way;
            let line = &self.lines[idx];
            if line.block == block && !line.all_invalid(n) {
                return match line.state[s] {
                    LineState::Reserved => Probe::HitReserved(idx),
                    LineState::Valid => Probe::Hit(idx),
                    LineState::Modified if is_write || line.readable >> s & 1 == 1 => {
                        Probe::Hit(idx)
                    }
                    LineState::Modified | LineState::Invalid => Probe::SectorMiss(idx),
                };
            }
            if line.any(n, LineState::Reserved) {
                continue;
            }
            all_reserved = false;
            if line.all_invalid(n) {
                invalid = Some(idx);
            } else {
                let t = match self.replacement {
                    Replacement::Lru => line.last_access,
                    Replacement::Fifo => line.alloc_time,
                };
                if t < oldest {
                    oldest = t;
                    victim = Some(idx);
                }
            }
        }
        if all_reserved {
            return Probe::ReservationFail;
        }
        match invalid.or(victim) {
            Some(idx) => Probe::Miss(idx),
            None => Probe::ReservationFail,
        }
    }

    /// A hit (or a hit on a reserved line): updates the recency.
    pub fn touch(&mut self, idx: usize, now: u64) {
        if let Some(l) = self.lines.get_mut(idx) {
            l.last_access = now;
        }
    }

    /// Allocates way `idx` to `addr` (alloc-on-miss: its sector becomes RESERVED). Returns the
    /// modified line it pushed out, if any.
    pub fn allocate(&mut self, idx: usize, addr: u64, now: u64) -> Option<Evicted> {
        let evicted = self.evict(idx);
        let (block, s) = (self.block(addr), self.sector(addr));
        if let Some(l) = self.lines.get_mut(idx) {
            *l = Line {
                block,
                last_access: now,
                alloc_time: now,
                ..Line::default()
            };
            l.state[s] = LineState::Reserved;
        }
        evicted
    }

    /// Allocates way `idx` to a write that needs no fetch: its sector is MODIFIED at once
    /// (readable only if `whole`). Returns the modified line it pushed out, if any.
    pub fn allocate_modified(
        &mut self,
        idx: usize,
        addr: u64,
        whole: bool,
        now: u64,
    ) -> Option<Evicted> {
        let evicted = self.allocate(idx, addr, now);
        let s = self.sector(addr);
        if let Some(l) = self.lines.get_mut(idx) {
            l.state[s] = LineState::Modified;
            l.readable = if whole { 1 << s } else { 0 };
        }
        evicted
    }

    /// A sector miss on a present line: the sector becomes RESERVED (a lazily written,
    /// unreadable sector keeps its modification for the fill).
    pub fn allocate_sector(&mut self, idx: usize, addr: u64, now: u64) {
        let s = self.sector(addr);
        if let Some(l) = self.lines.get_mut(idx) {
            if l.state[s] == LineState::Modified {
                l.modified_on_fill |= 1 << s;
            }
            l.state[s] = LineState::Reserved;
            l.last_access = now;
        }
    }

    /// The block and owner of way `idx` if it holds a line (any sector not invalid): the line an
    /// allocation there pushes out.
    pub fn valid_line(&self, idx: usize) -> Option<(u64, u64)> {
        let l = self.lines.get(idx)?;
        (!l.all_invalid(self.sectors)).then_some((l.block, l.owner))
    }

    /// Records who brought way `idx`'s line in.
    pub fn set_owner(&mut self, idx: usize, owner: u64) {
        if let Some(l) = self.lines.get_mut(idx) {
            l.owner = owner;
        }
    }

    fn evict(&mut self, idx: usize) -> Option<Evicted> {
        let n = self.sectors;
        let sector_bytes = self.line_bytes / n as u32;
        let l = self.lines.get(idx)?;
        let dirty = l.state[..n]
            .iter()
            .filter(|&&s| s == LineState::Modified)
            .count() as u32;
        (dirty > 0).then_some(Evicted {
            block: l.block,
            bytes: dirty * sector_bytes,
        })
    }

    /// The fill of a line allocated on miss: its reserved sector becomes VALID (MODIFIED if it
    /// was written meanwhile) and readable. Does nothing if no such reserved line is present.
    pub fn fill_reserved(&mut self, addr: u64, now: u64) {
        let _ = now;
        if let Probe::HitReserved(idx) | Probe::Hit(idx) | Probe::SectorMiss(idx) =
            self.probe(addr, false)
        {
            self.fill_sector(idx, addr);
        }
    }

    /// The fill of an allocate-on-fill cache: takes a way now (returning the modified line it
    /// pushes out) and makes the sector VALID.
    pub fn fill_on_fill(&mut self, addr: u64, now: u64) -> Option<Evicted> {
        match self.probe(addr, false) {
            Probe::Miss(idx) => {
                let ev = self.allocate(idx, addr, now);
                self.fill_sector(idx, addr);
                ev
            }
            Probe::SectorMiss(idx) | Probe::HitReserved(idx) => {
                self.fill_sector(idx, addr);
                None
            }
            Probe::Hit(_) | Probe::ReservationFail => None,
        }
    }

    /// A sector the host copied into device memory lands in the cache, valid and clean, most
    /// recently used (GPGPU-Sim's `force_tag_access` under `-gpgpu_perf_sim_memcpy`). Returns the
    /// modified line it pushes out, if any.
    pub fn fill_copied(&mut self, addr: u64, now: u64) -> Option<Evicted> {
        match self.probe(addr, false) {
            Probe::Miss(idx) => {
                let evicted = self.allocate(idx, addr, now);
                self.fill_sector(idx, addr);
                evicted
            }
            Probe::SectorMiss(idx) => {
                self.allocate_sector(idx, addr, now);
                self.fill_sector(idx, addr);
                None
            }
            Probe::Hit(idx) | Probe::HitReserved(idx) => {
                self.touch(idx, now);
                None
            }
            Probe::ReservationFail => None,
        }
    }

    fn fill_sector(&mut self, idx: usize, addr: u64) {
        let s = self.sector(addr);
        if let Some(l) = self.lines.get_mut(idx) {
            let keep_modified =
                l.state[s] == LineState::Modified || l.modified_on_fill >> s & 1 == 1;
            if l.state[s] == LineState::Reserved || keep_modified {
                l.state[s] = if keep_modified {
                    LineState::Modified
                } else {
                    LineState::Valid
                };
                l.readable |= 1 << s;
                l.modified_on_fill &= !(1 << s);
            }
        }
    }

    /// A write: the sector of `addr` in line `idx` becomes MODIFIED; `whole` says whether the
    /// write covered the sector (else it stays unreadable until filled, unless it was valid).
    pub fn mark_modified(&mut self, idx: usize, addr: u64, whole: bool, now: u64) {
        let s = self.sector(addr);
        if let Some(l) = self.lines.get_mut(idx) {
            let was_readable = matches!(l.state[s], LineState::Valid | LineState::Modified)
                && l.readable >> s & 1 == 1;
            if l.state[s] == LineState::Reserved {
                l.modified_on_fill |= 1 << s;
            } else {
                l.state[s] = LineState::Modified;
                if whole || was_readable {
                    l.readable |= 1 << s;
                } else {
                    l.readable &= !(1 << s);
                }
            }
            l.last_access = now;
        }
    }

    /// Write-evict: the line is invalidated.
    pub fn invalidate(&mut self, idx: usize) {
        if let Some(l) = self.lines.get_mut(idx) {
            l.state = [LineState::Invalid; 4];
            l.readable = 0;
            l.modified_on_fill = 0;
        }
    }

    /// Whether any line is reserved (a fill is outstanding).
    pub fn any_reserved(&self) -> bool {
        let n = self.sectors;
        self.lines.iter().any(|l| l.any(n, LineState::Reserved))
    }

    /// Every way of set `set`: its state, block and owner (the cache's `owner_id`, 0 when
    /// unknown), in way order ([`crate::why`] names who holds a set that refused a request).
    pub fn set_owners(&self, set: u32) -> Vec<SetLine> {
        let a = self.assoc as usize;
        let start = set as usize * a;
        self.lines
            .get(start..start + a)
            .unwrap_or(&[])
            .iter()
            .map(|l| SetLine {
                state: self.summary(l),
                block: l.block,
                owner: l.owner,
            })
            .collect()
    }

    /// The lines of set `set` in way order, for the views.
    pub fn set_view(&self, set: u32) -> Vec<LineView> {
        let a = self.assoc as usize;
        let start = set as usize * a;
        let Some(lines) = self.lines.get(start..start + a) else {
            return Vec::new();
        };
        let key = |l: &Line| match self.replacement {
            Replacement::Lru => l.last_access,
            Replacement::Fifo => l.alloc_time,
        };
        lines
            .iter()
            .enumerate()
            .map(|(w, l)| {
                let newer = lines
                    .iter()
                    .enumerate()
                    .filter(|&(v, o)| key(o) > key(l) || (key(o) == key(l) && v > w))
                    .count() as u32;
                LineView {
                    state: self.summary(l),
                    block: l.block,
                    sectors: l.state[..self.sectors].to_vec(),
                    rank: newer,
                }
            })
            .collect()
    }

    fn summary(&self, l: &Line) -> LineState {
        let n = self.sectors;
        if l.any(n, LineState::Reserved) {
            LineState::Reserved
        } else if l.any(n, LineState::Modified) {
            LineState::Modified
        } else if l.any(n, LineState::Valid) {
            LineState::Valid
        } else {
            LineState::Invalid
        }
    }
}

/// GPGPU-Sim's `FERMI_HASH_SET_FUNCTION` for 32 or 64 sets.
fn fermi_hash(addr: u64, tags: &TagArray) -> u32 {
    let lower = ((addr >> tags.line_shift) & 0x1F) as u32;
    let mut upper = ((addr & 0xE000) >> 13) as u32; // bits 13, 14, 15
    upper |= ((addr & 0x2_0000) >> 14) as u32; // bit 17
    upper |= ((addr & 0x8_0000) >> 15) as u32; // bit 19
    let mut set = lower ^ upper;
    if tags.sets == 64 {
        set |= ((addr & 0x1000) >> 7) as u32; // bit 12
    }
    set
}

#[cfg(test)]
#[path = "tag_array_tests.rs"]
mod tests;
