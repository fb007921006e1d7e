//! The victim tag arrays of cache-conscious wavefront scheduling (CCWS; Rogers, O'Connor and
//! Aamodt, MICRO 2012, §4.1; the book's section 5.1.2 and Fig. 5.1): one small tag-only array
//! per hardware warp slot. When an L1D miss pushes a line out, the line's tag goes into the
//! array of the warp that brought the line in; when a warp misses in the L1D, its own array is
//! probed, and a hit means the warp lost intra-warp locality (it would have hit had it had the
//! cache more to itself).
//!
//! Shape, from the released CCWS simulator (`tgrogers/ccws-2012`, configuration
//! `QuadroFX5800-CCWS`, `-gpgpu_victim_cache:dl1 N,2:128:8:F:...`): 2 sets of 8 ways per warp
//! (16 tags), 128-byte blocks, FIFO replacement; a tag already present is not inserted again;
//! a probe does not remove the tag; a global store invalidates the block in every warp's array
//! (`high_locality_protected_cache::access`, "Evict writes from the VC as well").

/// Bytes of the block one victim tag names (the CCWS configuration's 128).
const BLOCK_BYTES: u64 = 128;

/// Every warp slot's victim tag array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VictimTags {
    sets: usize,
    ways: usize,
    /// Per warp slot, per set, per way: the block address held, if any.
    tags: Vec<Option<u64>>,
    /// Per warp slot, per set: the way the next insertion replaces (FIFO).
    next: Vec<usize>,
}

impl VictimTags {
    /// Arrays of `sets` x `ways` tags for `warps` warp slots.
    pub fn new(warps: u32, sets: u32, ways: u32) -> VictimTags {
        let (sets, ways) = (sets.max(1) as usize, ways.max(1) as usize);
        VictimTags {
            sets,
            ways,
            tags: vec![None; warps as usize * sets * ways],
            next: vec![0; warps as usize * sets],
        }
    }

    /// The index of `block`'s set in `warp`'s array.
    fn set_of(&self, warp: u32, block: u64) -> usize {
        warp as usize * self.sets + (block / BLOCK_BYTES) as usize % self.sets
    }

    fn ways_of(&self, set: usize) -> std::ops::Range<usize> {
        set * self.ways..(set + 1) * self.ways
    }

    /// Whether `warp`'s array holds `block` (a lost-locality detection when probed on a miss).
    pub fn probe(&self, warp: u32, block: u64) -> bool {
        let set = self.set_of(warp, block);
        self.tags
            .get(self.ways_of(set))
            .is_some_and(|ways| ways.contains(&Some(block)))
    }

    /// `block`, brought in by `warp`, was evicted: its tag enters `warp`'s array (FIFO).
    pub fn insert(&mut self, warp: u32, block: u64) {
        let set = self.set_of(warp, block);
        if set >= self.next.len() || self.probe(warp, block) {
            return;
        }
        let way = self.next[set];
        self.tags[set * self.ways + way] = Some(block);
        self.next[set] = (way + 1) % self.ways;
    }

    /// A store to `block`: no warp's array names it any more.
    pub fn invalidate(&mut self, block: u64) {
        for tag in self.tags.iter_mut().filter(|t| **t == Some(block)) {
            *tag = None;
        }
    }

    /// The warp in `warp` left: its array empties.
    pub fn clear(&mut self, warp: u32) {
        let per_warp = self.sets * self.ways;
        let start = warp as usize * per_warp;
        if let Some(tags) = self.tags.get_mut(start..start + per_warp) {
            tags.fill(None);
        }
        let start = warp as usize * self.sets;
        if let Some(next) = self.next.get_mut(start..start + self.sets) {
            next.fill(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warp_finds_only_its_own_victims() {
        let mut v = VictimTags::new(4, 2, 8);
        v.insert(1, 0x1000);
        assert!(v.probe(1, 0x1000));
        assert!(!v.probe(2, 0x1000));
        assert!(!v.probe(1, 0x1080));
    }

    #[test]
    fn each_set_replaces_its_oldest_tag() {
        // 2 sets of 2 ways: blocks 0x000, 0x100, 0x200 all map to set 0.
        let mut v = VictimTags::new(1, 2, 2);
        v.insert(0, 0x000);
        v.insert(0, 0x100);
        v.insert(0, 0x000); // already there: not inserted again
        v.insert(0, 0x080); // set 1
        v.insert(0, 0x200); // replaces 0x000, the first in
        assert!(!v.probe(0, 0x000));
        assert!(v.probe(0, 0x100));
        assert!(v.probe(0, 0x200));
        assert!(v.probe(0, 0x080));
    }

    #[test]
    fn stores_and_departures_remove_tags() {
        let mut v = VictimTags::new(2, 2, 8);
        v.insert(0, 0x400);
        v.insert(1, 0x400);
        v.insert(1, 0x480);
        v.invalidate(0x400);
        assert!(!v.probe(0, 0x400) && !v.probe(1, 0x400));
        assert!(v.probe(1, 0x480));
        v.clear(1);
        assert!(!v.probe(1, 0x480));
    }
}
