//! The coalescer of the LD/ST unit (MODEL.md section 9; book section 4.1.1, "Cache Read
//! Operations": the load/store unit "applies the coalescing rules to break a warp's memory access
//! into individual coalesced accesses").
//!
//! GPGPU-Sim's Fermi rules (`warp_inst_t::memory_coalescing_arch` in
//! `src/abstract_hardware_model.cc`, `-gpgpu_coalesce_arch 20`):
//! * The warp is split into `warp_parts` sub-warps of consecutive lanes (GPGPU-Sim uses the
//!   same `-gpgpu_shmem_warp_parts` value for shared and global accesses); each sub-warp is
//!   coalesced on its own.
//! * Per sub-warp, one transaction per distinct segment: 128 bytes for 4-, 8- and 16-byte
//!   accesses, 64 bytes for 2-byte and 32 bytes for 1-byte accesses; 32-byte sectors for every
//!   size in sector mode ([`Coalescing::Sector`]). An access that straddles a segment boundary
//!   touches both segments.
//! * Each transaction is then shrunk (`memory_coalescing_arch_reduce_and_send`): a 128-byte
//!   segment whose lanes use only one 64-byte half becomes that half, and a 64-byte segment
//!   using only one 32-byte half becomes that half.
//! * Atomics (`memory_coalescing_arch_atomic`) are serialised per address: a lane whose bytes
//!   overlap an earlier lane's bytes in the same transaction starts a new transaction.
//! * Transactions leave in ascending segment order within a sub-warp, sub-warps in order
//!   (GPGPU-Sim walks its `std::map` in key order). The LD/ST unit sends them from the back, as
//!   GPGPU-Sim's `ldst_unit` takes `accessq_back()`.
//!
//! Local memory is per thread in the functional model; the timing model places it as GPGPU-Sim's
//! legacy `translate_local_memaddr` does (`-gpgpu_local_mem_map 0`): word w of hardware thread t
//! of SM s is at `LOCAL_BASE + 4 * (w * N + T * s + t)` (N = threads of all SMs, T = thread
//! slots per SM), so the same local word of consecutive threads is contiguous and coalesces. Local
//! accesses of 4 bytes or more are split into 4-byte pieces, as GPGPU-Sim does. [`LocalMap`]
//! gives addresses for SM 0; the L1D adds its SM's offset ([`LocalMap::sm_offset`]).

use super::request::{byte_mask, Access, AccessKind, DataSpace};
use crate::config::Coalescing;

/// Where local memory starts in the timing model's address space: far above every global
/// allocation (those start at 4 GiB and grow), so local and global lines never alias.
pub const LOCAL_BASE: u64 = 1 << 48;

/// The placement of per-thread local memory in one shared address range (see the module
/// documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalMap {
    /// Hardware thread slots per SM, rounded up to a multiple of 32 so every SM's part of a word
    /// row starts on a 128-byte boundary.
    pub threads_per_sm: u64,
    /// Thread slots of all SMs together (N).
    pub threads: u64,
}

impl LocalMap {
    /// The map for `sms` SMs of `threads_per_sm` thread slots each.
    pub fn new(threads_per_sm: u32, sms: u32) -> LocalMap {
        let per_sm = u64::from(threads_per_sm.max(1)).next_multiple_of(32);
        LocalMap {
            threads_per_sm: per_sm,
            threads: per_sm * u64::from(sms.max(1)),
        }
    }

    /// The map of `config`: `core.max_warps_per_sm` x `core.warp_size` thread slots per SM.
    pub fn for_config(config: &crate::config::Config) -> LocalMap {
        let k = &config.core;
        LocalMap::new(k.max_warps_per_sm * k.warp_size, config.num_sms)
    }

    /// Address of byte `offset` of hardware thread `thread`'s local memory on SM 0.
    pub fn address(&self, offset: u64, thread: u64) -> u64 {
        let word = offset / 4;
        LOCAL_BASE + 4 * (word * self.threads + thread) + offset % 4
    }

    /// What SM `sm` adds to SM 0's local addresses.
    pub fn sm_offset(&self, sm: u32) -> u64 {
        4 * self.threads_per_sm * u64::from(sm)
    }
}

/// One warp instruction's part, as the functional executor recorded it.
#[derive(Debug, Clone, Copy)]
pub struct WarpAccess<'a> {
    /// Per-lane addresses (global addresses, or local offsets).
    pub addrs: &'a [u64],
    /// Lanes that accessed memory.
    pub mask: u64,
    /// Bytes per lane.
    pub bytes: u32,
    pub kind: AccessKind,
    pub space: DataSpace,
    /// The warp's hardware slot (local memory placement).
    pub warp_slot: u32,
}

/// One transaction being collected: a segment and what the sub-warp's lanes touch in it.
#[derive(Debug, Clone, Copy)]
struct Txn {
    block: u64,
    chunks: u8,
    lanes: u64,
    bytes: u128,
}

/// The coalescer (see the module documentation).
#[derive(Debug, Clone)]
pub struct Coalescer {
    mode: Coalescing,
    warp_size: u32,
    warp_parts: u32,
    local: LocalMap,
    /// The current sub-warp's transactions, in the order their segments were first touched.
    txns: Vec<Txn>,
    /// Whether `txns` is in ascending block order (lanes usually walk memory upwards): a new
    /// block above the last one is then known to be new without a search, and the final sort
    /// has nothing to do.
    ascending: bool,
}

impl Coalescer {
    /// A coalescer for warps of `warp_size` lanes cut into `warp_parts` sub-warps.
    pub fn new(mode: Coalescing, warp_size: u32, warp_parts: u32, local: LocalMap) -> Coalescer {
        Coalescer {
            mode,
            warp_size: warp_size.clamp(1, 64),
            warp_parts: warp_parts.clamp(1, 64),
            local,
            txns: Vec::with_capacity(64),
            ascending: true,
        }
    }

    /// Segment size for `bytes`-byte accesses.
    pub fn segment_bytes(&self, bytes: u32) -> u64 {
        match (self.mode, bytes) {
            (Coalescing::Sector, _) | (_, 1) => 32,
            (_, 2) => 64,
            _ => 128,
        }
    }

    /// Appends the requests of one warp access to `out` (see the module documentation).
    pub fn coalesce(&mut self, w: &WarpAccess, out: &mut Vec<Access>) {
        let segment = self.segment_bytes(w.bytes);
        let lanes = (w.addrs.len() as u32).min(self.warp_size);
        let part = self.warp_size.div_ceil(self.warp_parts).max(1);
        // A global lane's bytes as a mask at offset 0, shifted into place per lane.
        let ones = byte_mask(0, w.bytes.max(1));
        let mut first = 0;
        while first < lanes {
            let end = (first + part).min(lanes);
            self.txns.clear();
            self.ascending = true;
            let mut left = w.mask & lane_range(first, end);
            while left != 0 {
                self.add_lane(w, left.trailing_zeros(), segment, ones);
                left &= left - 1;
            }
            if !self.ascending {
                // Stable: atomics' transactions of one block keep their order.
                self.txns.sort_by_key(|t| t.block);
            }
            for t in &self.txns {
                out.push(reduce(t, segment, w.kind, w.space));
            }
            first = end;
        }
    }

    /// Adds lane `lane`'s bytes (`ones`: `w.bytes` bytes as a mask at offset 0).
    fn add_lane(&mut self, w: &WarpAccess, lane: u32, segment: u64, ones: u128) {
        let addr = w.addrs[lane as usize];
        match w.space {
            DataSpace::Global
            | DataSpace::Constant
            | DataSpace::Texture
            | DataSpace::Instruction => {
                self.add_piece(lane, addr, w.bytes.max(1), ones, segment, w.kind)
            }
            DataSpace::Local => {
                let thread = u64::from(w.warp_slot) * u64::from(self.warp_size) + u64::from(lane);
                let (pieces, len) = if w.bytes >= 4 {
                    (w.bytes / 4, 4)
                } else {
                    (1, w.bytes.max(1))
                };
                let ones = byte_mask(0, len);
                for i in 0..u64::from(pieces) {
                    let a = self.local.address(addr + 4 * i, thread);
                    self.add_piece(lane, a, len, ones, segment, w.kind);
                }
            }
        }
    }

    /// Adds `len` bytes at `addr` of `lane` (`ones`: `len` bytes as a mask at offset 0), split
    /// at segment boundaries.
    fn add_piece(
        &mut self,
        lane: u32,
        addr: u64,
        len: u32,
        ones: u128,
        segment: u64,
        kind: AccessKind,
    ) {
        // Segments are 32, 64 or 128 bytes: a mask, not a division.
        let block = addr & !(segment - 1);
        let end = addr.checked_add(u64::from(len));
        if len > 0 && end.is_some_and(|end| end <= block.saturating_add(segment)) {
            // Inside one segment (the usual case): one piece, whose bytes end within the
            // 128-byte block, so `byte_mask(offset, len)` is `ones` moved up by `offset`.
            let offset = (addr % 128) as u32;
            self.merge(lane, block, offset / 32, ones << offset, kind);
            return;
        }
        let mut at = addr;
        let end = addr.saturating_add(u64::from(len));
        while at < end {
            // Segments are 32, 64 or 128 bytes: a mask, not a division.
            let block = at & !(segment - 1);
            let stop = end.min(block.saturating_add(segment));
            let offset = (at % 128) as u32;
            let bytes = byte_mask(offset, (stop - at) as u32);
            self.merge(lane, block, offset / 32, bytes, kind);
            if stop <= at {
                break;
            }
            at = stop;
        }
    }

    /// Adds a piece to the first transaction of `block` it may join (an atomic joins only one
    /// whose bytes it does not overlap), or to a new one.
    fn merge(&mut self, lane: u32, block: u64, chunk: u32, bytes: u128, kind: AccessKind) {
        let i = match self.find(block, bytes, kind == AccessKind::Atomic) {
            Some(i) => i,
            None => {
                let last = self.txns.last().map(|t| t.block);
                self.ascending &= last.map_or(true, |b| b <= block);
                self.txns.push(Txn {
                    block,
                    chunks: 0,
                    lanes: 0,
                    bytes: 0,
                });
                self.txns.len() - 1
            }
        };
        let t = &mut self.txns[i];
        t.chunks |= 1 << chunk.min(3);
        t.lanes |= 1 << lane;
        t.bytes |= bytes;
    }

    /// The first transaction of `block` a piece of `bytes` may join. Without atomics each
    /// block has one transaction, so the last one (the lane before's) is checked first, and
    /// while the blocks ascend one above the last is new.
    fn find(&self, block: u64, bytes: u128, atomic: bool) -> Option<usize> {
        let last = self.txns.last()?;
        if self.ascending && block > last.block {
            return None;
        }
        if !atomic && last.block == block {
            return Some(self.txns.len() - 1);
        }
        self.txns
            .iter()
            .position(|t| t.block == block && !(atomic && t.bytes & bytes != 0))
    }
}

/// The lanes `first..end` (at most 64) as a mask.
fn lane_range(first: u32, end: u32) -> u64 {
    let below = |n: u32| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    below(end) & !below(first)
}

/// GPGPU-Sim's `memory_coalescing_arch_reduce_and_send`: shrink a 128-byte segment to the one
/// 64-byte half it uses, and a 64-byte one to the 32-byte half it uses.
fn reduce(t: &Txn, segment: u64, kind: AccessKind, space: DataSpace) -> Access {
    let q = t.chunks;
    let mut addr = t.block;
    let mut size = segment as u32;
    // The two 32-byte chunks a 64-byte segment (or the used half of a 128-byte one) spans.
    let mut halves = 0u8;
    if segment == 128 {
        let lower = q & 0b0011 != 0;
        let upper = q & 0b1100 != 0;
        if lower != upper {
            size = 64;
            if upper {
                addr += 64;
                halves = q >> 2 & 0b11;
            } else {
                halves = q & 0b11;
            }
        }
    } else if segment == 64 {
        halves = if addr % 128 == 0 {
            q & 0b11
        } else {
            q >> 2 & 0b11
        };
    }
    if size == 64 && halves.count_ones() == 1 {
        size = 32;
        if halves == 0b10 {
            addr += 32;
        }
    }
    Access {
        addr,
        size,
        kind,
        space,
        lanes: t.lanes,
        bytes: t.bytes,
        sectors: t.chunks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(
        mode: Coalescing,
        parts: u32,
        bytes: u32,
        kind: AccessKind,
        addrs: &[u64],
    ) -> Vec<Access> {
        let mut c = Coalescer::new(mode, 32, parts, LocalMap::new(1536, 1));
        let mut out = Vec::new();
        let mask = if addrs.len() == 64 {
            u64::MAX
        } else {
            (1u64 << addrs.len()) - 1
        };
        let w = WarpAccess {
            addrs,
            mask,
            bytes,
            kind,
            space: DataSpace::Global,
            warp_slot: 0,
        };
        c.coalesce(&w, &mut out);
        out
    }

    fn seg(bytes: u32, addrs: &[u64]) -> Vec<Access> {
        run(Coalescing::Segment, 1, bytes, AccessKind::Read, addrs)
    }

    const BASE: u64 = 0x1_0000_0000;

    #[test]
    fn consecutive_words_are_one_request() {
        let a: Vec<u64> = (0..32).map(|i| BASE + 4 * i).collect();
        let r = seg(4, &a);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].addr, r[0].size), (BASE, 128));
        assert_eq!(r[0].lanes, u32::MAX as u64);
        assert_eq!(r[0].bytes, u128::MAX);
        assert_eq!(r[0].sectors, 0b1111);
    }

    #[test]
    fn stride_32_floats_is_32_requests_of_32_bytes() {
        let a: Vec<u64> = (0..32).map(|i| BASE + 128 * i).collect();
        let r = seg(4, &a);
        assert_eq!(r.len(), 32);
        assert!(r.iter().all(|x| x.size == 32));
        assert_eq!(r[5].addr, BASE + 5 * 128);
        assert_eq!(r[5].lanes, 1 << 5);
    }

    #[test]
    fn bytes_and_halves_use_smaller_segments() {
        // 32 consecutive bytes: one 32-byte segment.
        let b: Vec<u64> = (0..32).map(|i| BASE + i).collect();
        let r = seg(1, &b);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].size, 32);
        // Bytes at stride 2 span 64 bytes: two 32-byte segments (a 4-byte access would be one).
        let b2: Vec<u64> = (0..32).map(|i| BASE + 2 * i).collect();
        assert_eq!(seg(1, &b2).len(), 2);
        // 32 consecutive halves: 64 bytes, one 64-byte segment.
        let h: Vec<u64> = (0..32).map(|i| BASE + 2 * i).collect();
        let r = seg(2, &h);
        assert_eq!((r.len(), r[0].size), (1, 64));
        // Halves at stride 2 span 128 bytes: two 64-byte segments.
        let h2: Vec<u64> = (0..32).map(|i| BASE + 4 * i).collect();
        assert_eq!(seg(2, &h2).len(), 2);
    }

    #[test]
    fn misaligned_words_touch_two_segments() {
        let a: Vec<u64> = (0..32).map(|i| BASE + 4 + 4 * i).collect();
        let r = seg(4, &a);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].addr, r[0].size), (BASE, 128));
        // The second segment holds one word at byte 128: reduced to 32 bytes.
        assert_eq!((r[1].addr, r[1].size), (BASE + 128, 32));
    }

    #[test]
    fn halves_of_a_segment_reduce() {
        // Lanes 0..16 read the upper 64 bytes of a segment.
        let a: Vec<u64> = (0..16).map(|i| BASE + 64 + 4 * i).collect();
        let r = seg(4, &a);
        assert_eq!((r[0].addr, r[0].size), (BASE + 64, 64));
        // Lanes reading only chunk 1.
        let a: Vec<u64> = (0..8).map(|i| BASE + 32 + 4 * i).collect();
        let r = seg(4, &a);
        assert_eq!((r[0].addr, r[0].size), (BASE + 32, 32));
    }

    #[test]
    fn a_straddling_lane_touches_both_segments() {
        let r = seg(8, &[BASE + 124]);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].bytes, 0xFu128 << 124);
        assert_eq!(r[1].bytes, 0xF);
    }

    #[test]
    fn sector_mode_uses_32_byte_sectors() {
        let a: Vec<u64> = (0..32).map(|i| BASE + 4 * i).collect();
        let r = run(Coalescing::Sector, 1, 4, AccessKind::Read, &a);
        assert_eq!(r.len(), 4);
        assert!(r.iter().all(|x| x.size == 32));
        assert_eq!(r[3].addr, BASE + 96);
    }

    #[test]
    fn sub_warps_coalesce_separately() {
        let a: Vec<u64> = (0..32).map(|i| BASE + 4 * i).collect();
        let r = run(Coalescing::Segment, 2, 4, AccessKind::Read, &a);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].addr, r[0].size, r[0].lanes), (BASE, 64, 0xFFFF));
        assert_eq!((r[1].addr, r[1].size), (BASE + 64, 64));
    }

    #[test]
    fn atomics_to_one_address_serialise() {
        let a = [BASE; 4];
        let r = run(Coalescing::Segment, 1, 4, AccessKind::Atomic, &a);
        assert_eq!(r.len(), 4);
        assert!(r.iter().enumerate().all(|(i, x)| x.lanes == 1 << i));
        // Distinct words of one segment share a transaction.
        let b: Vec<u64> = (0..4).map(|i| BASE + 4 * i).collect();
        assert_eq!(
            run(Coalescing::Segment, 1, 4, AccessKind::Atomic, &b).len(),
            1
        );
    }

    #[test]
    fn inactive_lanes_take_no_part() {
        let a: Vec<u64> = (0..32).map(|i| BASE + 128 * i).collect();
        let mut c = Coalescer::new(Coalescing::Segment, 32, 1, LocalMap::new(1536, 1));
        let mut out = Vec::new();
        let w = WarpAccess {
            addrs: &a,
            mask: 0b1010,
            bytes: 4,
            kind: AccessKind::Read,
            space: DataSpace::Global,
            warp_slot: 0,
        };
        c.coalesce(&w, &mut out);
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn local_words_of_consecutive_threads_coalesce() {
        let map = LocalMap::new(1536, 1);
        let mut c = Coalescer::new(Coalescing::Segment, 32, 1, map);
        let offsets = [8u64; 32];
        let mut out = Vec::new();
        let w = WarpAccess {
            addrs: &offsets,
            mask: u32::MAX as u64,
            bytes: 4,
            kind: AccessKind::Write,
            space: DataSpace::Local,
            warp_slot: 1,
        };
        c.coalesce(&w, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].addr, LOCAL_BASE + 4 * (2 * 1536 + 32));
        assert_eq!(out[0].space, DataSpace::Local);
        // 8-byte local accesses split into two 4-byte pieces: two word rows.
        let w8 = WarpAccess { bytes: 8, ..w };
        out.clear();
        c.coalesce(&w8, &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(map.sm_offset(2), 4 * 1536 * 2);
    }
}
