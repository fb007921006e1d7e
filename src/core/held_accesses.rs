//! The addresses each issued memory instruction carries to MEM0 (book section 4.1.1: the
//! address operands an LD/ST instruction brings from the operand collector to the address
//! generation and coalescing stage). warpstep executes an instruction functionally at issue
//! (MODEL.md section 1, as GPGPU-Sim), so its per-lane addresses are known then; they wait here
//! until MEM0 takes the instruction and costs them ([`super::memory_timing::MemoryTiming::take`]):
//! the bank passes and coalesced requests MEM0 spends are worked out from the access it holds,
//! not from the one that issued last.

use crate::exec::execute::AccessRecord;
use crate::ptx::{MemAccess, Space};
use serde::Serialize;

/// The path a memory instruction takes through the LD/ST unit, known at issue from its space
/// (the stall names and the MRPB's ordering need it before MEM0 costs the access).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemPath {
    /// Shared memory: bank passes in MEM0, then the MEM stages (the MIO pipe).
    Shared,
    /// Requests to the L1D or the constant cache, sent one per cycle from MEM0 (the LG pipe).
    Requests,
    /// A fixed latency after one MEM0 cycle: a fence, an access with no active lane, or a
    /// constant load when there is no constant cache.
    Fixed,
}

impl MemPath {
    /// The path of the access `record` describes; `constant_cache`: constant and parameter loads
    /// go to a constant cache (`constant.model = cache`).
    pub fn of(record: &AccessRecord, constant_cache: bool) -> MemPath {
        if record.access == Some(MemAccess::Fence) || record.mask == 0 {
            return MemPath::Fixed;
        }
        match record.space.unwrap_or(Space::Global) {
            Space::Shared => MemPath::Shared,
            Space::Const | Space::Param if !constant_cache => MemPath::Fixed,
            _ => MemPath::Requests,
        }
    }
}

/// One issued memory instruction's access, waiting for MEM0.
#[derive(Debug, Clone, Default)]
pub struct Held {
    tag: u64,
    /// The warp slot that issued it (local memory is laid out per warp slot).
    pub warp_slot: u32,
    pub record: AccessRecord,
}

/// The accesses of the issued memory instructions MEM0 has not taken yet, by tag. The records'
/// buffers are reused: no allocation per access once warm.
#[derive(Debug, Clone, Default)]
pub struct HeldAccesses {
    held: Vec<Held>,
    spare: Vec<Held>,
}

impl HeldAccesses {
    /// Instruction `tag` of warp slot `warp_slot` issued with access `record`.
    pub fn hold(&mut self, tag: u64, warp_slot: u32, record: &AccessRecord) {
        let mut h = self.spare.pop().unwrap_or_default();
        h.tag = tag;
        h.warp_slot = warp_slot;
        h.record.clone_from(record);
        self.held.push(h);
    }

    /// Runs `f` on instruction `tag`'s access (its record and warp slot) and lets it go; `None`
    /// when nothing is held for `tag`.
    #[cfg(test)]
    pub fn release<T>(&mut self, tag: u64, f: impl FnOnce(&AccessRecord, u32) -> T) -> Option<T> {
        let h = self.take(tag)?;
        let out = f(&h.record, h.warp_slot);
        self.recycle(h);
        Some(out)
    }

    /// Takes instruction `tag`'s access out; give it back with [`HeldAccesses::recycle`] once
    /// used, so its buffers serve a later access.
    pub fn take(&mut self, tag: u64) -> Option<Held> {
        let i = self.held.iter().position(|h| h.tag == tag)?;
        Some(self.held.swap_remove(i))
    }

    /// An access [`HeldAccesses::take`] gave out, done with.
    pub fn recycle(&mut self, h: Held) {
        self.spare.push(h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(space: Space, access: MemAccess, mask: u64) -> AccessRecord {
        AccessRecord {
            valid: true,
            space: Some(space),
            access: Some(access),
            bytes: 4,
            read_only: false,
            mask,
            addrs: (0..32).map(|l| l * 4).collect(),
            changed: false,
        }
    }

    #[test]
    fn the_path_follows_the_space() {
        let load = MemAccess::Load;
        assert_eq!(
            MemPath::of(&record(Space::Shared, load, 1), false),
            MemPath::Shared
        );
        assert_eq!(
            MemPath::of(&record(Space::Global, load, 1), false),
            MemPath::Requests
        );
        assert_eq!(
            MemPath::of(&record(Space::Local, load, 1), false),
            MemPath::Requests
        );
        assert_eq!(
            MemPath::of(&record(Space::Const, load, 1), false),
            MemPath::Fixed
        );
        assert_eq!(
            MemPath::of(&record(Space::Param, load, 1), true),
            MemPath::Requests
        );
        assert_eq!(
            MemPath::of(&record(Space::Shared, load, 0), false),
            MemPath::Fixed
        );
        let fence = record(Space::Global, MemAccess::Fence, 1);
        assert_eq!(MemPath::of(&fence, false), MemPath::Fixed);
    }

    #[test]
    fn each_access_is_released_once_by_its_tag() {
        let mut h = HeldAccesses::default();
        h.hold(7, 2, &record(Space::Shared, MemAccess::Load, 0b11));
        h.hold(8, 3, &record(Space::Global, MemAccess::Store, 0b1));
        let got = h.release(8, |r, slot| (r.mask, r.access, slot));
        assert_eq!(got, Some((0b1, Some(MemAccess::Store), 3)));
        assert_eq!(h.release(8, |_, _| ()), None);
        assert_eq!(h.release(7, |r, slot| (r.mask, slot)), Some((0b11, 2)));
        assert_eq!(h.release(7, |_, _| ()), None, "nothing is held any more");
    }
}
