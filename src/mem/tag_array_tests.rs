//! Tests of the tag array (`tag_array.rs`): set indexing (modulo, linear, Fermi's hash,
//! partitioned), reservation failures, LRU and FIFO victims, write-backs of modified lines,
//! sectors filled separately, write-evict, copied sectors' recency.

use super::*;

fn tags(s: &str) -> TagArray {
    TagArray::new(&CacheSpec::parse(s).unwrap())
}

const LINEAR: &str = "N:32:128:4,L:L:m:N:L,A:32:8,8";
const HASHED: &str = "N:32:128:4,L:L:m:N:H,S:64:8,8";

#[test]
fn modulo_index_takes_any_set_count() {
    // The unified memory's 47.9 KB cache for needle: 95 sets of 4 x 128 B (MODEL.md s. 11).
    let t = tags("N:95:128:4,L:L:m:N:M,A:32:8,8");
    assert_eq!(t.set_index(94 * 128), 94);
    assert_eq!(t.set_index(95 * 128), 0);
    assert_eq!(t.set_index(200 * 128 + 5), 10);
    // With a power of two it is the linear index.
    let (m, l) = (tags("N:32:128:4,L:L:m:N:M,A:32:8,8"), tags(LINEAR));
    for a in [0u64, 128, 4096, 123_456_789] {
        assert_eq!(m.set_index(a), l.set_index(a));
    }
    assert!(CacheSpec::parse("N:95:128:4,L:L:m:N:L,A:32:8,8").is_err());
}

#[test]
fn copied_sectors_take_their_copy_rank_as_last_use() {
    // One 2-way set (GPGPU-Sim's force_tag_access): copies stamped 5 and 6 fill it.
    let mut t = tags("S:1:128:2,L:B:m:L:L,A:8:4,4:0,32");
    let (a, b, c) = (0x1000, 0x2000, 0x3000);
    t.fill_copied(a, 5);
    t.fill_copied(b, 6);
    assert!(matches!(t.probe(a, false), Probe::Hit(_)));
    assert!(matches!(t.probe(a + 32, false), Probe::SectorMiss(_)));
    // A kernel access in cycle 3 misses and evicts the older copy, a.
    let Probe::Miss(victim) = t.probe(c, false) else {
        panic!("c misses")
    };
    t.allocate(victim, c, 3);
    assert!(matches!(t.probe(a, false), Probe::Miss(_)));
    assert!(matches!(t.probe(b, false), Probe::Hit(_)));
    t.fill_reserved(c, 3);
    let Probe::Miss(victim) = t.probe(a, false) else {
        panic!("a misses")
    };
    // The kernel's line from cycle 3 is older than the copy ranked 6: it goes next.
    t.allocate(victim, a, 10);
    assert!(matches!(t.probe(c, false), Probe::Miss(_)));
    assert!(matches!(t.probe(b, false), Probe::Hit(_)));
}

#[test]
fn linear_index_puts_4kb_strides_in_one_set() {
    let t = tags(LINEAR);
    let sets: Vec<u32> = (0..32)
        .map(|k| t.set_index(0x1_0000_0000 + 4096 * k))
        .collect();
    assert!(sets.iter().all(|&s| s == sets[0]));
    assert_eq!(t.set_index(128), 1);
    assert_eq!(t.set_index(32 * 128), 0);
}

#[test]
fn fermi_hash_spreads_4kb_strides() {
    let t = tags(HASHED);
    let mut sets: Vec<u32> = (0..32)
        .map(|k| t.set_index(0x1_0000_0000 + 4096 * k))
        .collect();
    sets.sort_unstable();
    sets.dedup();
    // Bits 13-15 of the row number pick 8 sets: 4 lines each, no set over-full.
    assert_eq!(sets.len(), 8, "{sets:?}");
    // Low addresses: the hash is the linear index while bits 13.. are zero.
    assert_eq!(t.set_index(5 * 128), 5);
    // Bit 13 flips bit 0 of the set.
    assert_eq!(t.set_index(0x2000 + 5 * 128), 4);
}

#[test]
fn reservation_fail_when_every_way_is_reserved() {
    let mut t = tags(LINEAR);
    for k in 0..4u64 {
        let a = 4096 * k;
        let Probe::Miss(idx) = t.probe(a, false) else {
            panic!("miss expected")
        };
        t.allocate(idx, a, k);
    }
    assert_eq!(t.probe(4096 * 4, false), Probe::ReservationFail);
    assert!(matches!(t.probe(0, false), Probe::HitReserved(_)));
    t.fill_reserved(0, 10);
    assert!(matches!(t.probe(0, false), Probe::Hit(_)));
    // Now way of address 0 is valid and the victim of the next miss.
    assert!(matches!(t.probe(4096 * 4, false), Probe::Miss(_)));
}

#[test]
fn lru_victim_is_least_recently_used_and_invalid_ways_go_first() {
    let mut t = tags(LINEAR);
    // The first miss takes the last invalid way (GPGPU-Sim keeps the last one it saw).
    let Probe::Miss(first) = t.probe(0, false) else {
        panic!()
    };
    assert_eq!(first, 3);
    let mut idx = Vec::new();
    for k in 0..4u64 {
        let a = 4096 * k;
        let Probe::Miss(i) = t.probe(a, false) else {
            panic!()
        };
        t.allocate(i, a, k);
        t.fill_reserved(a, k);
        idx.push(i);
    }
    assert_eq!(idx, vec![3, 2, 1, 0]);
    // Touch address 0 so 4096 becomes the LRU line.
    let Probe::Hit(i0) = t.probe(0, false) else {
        panic!()
    };
    t.touch(i0, 100);
    assert_eq!(t.probe(4096 * 7, false), Probe::Miss(idx[1]));
    let view = t.set_view(0);
    assert_eq!(view[i0].rank, 0);
    assert!(view.iter().all(|l| l.state == LineState::Valid));
}

#[test]
fn fifo_ignores_hits() {
    let mut t = tags("N:32:128:2,F:L:m:N:L,A:32:8,8");
    for (k, a) in [0u64, 4096].into_iter().enumerate() {
        let Probe::Miss(i) = t.probe(a, false) else {
            panic!()
        };
        t.allocate(i, a, k as u64);
        t.fill_reserved(a, 0);
    }
    let Probe::Hit(i0) = t.probe(0, false) else {
        panic!()
    };
    t.touch(i0, 50);
    // Address 0 was allocated first: FIFO evicts it despite the recent hit.
    assert_eq!(t.probe(8192, false), Probe::Miss(i0));
}

#[test]
fn modified_lines_are_written_back_when_evicted() {
    let mut t = tags("N:1:128:1,L:B:m:W:L,A:4:4,4");
    let Probe::Miss(i) = t.probe(0, true) else {
        panic!()
    };
    assert_eq!(t.allocate(i, 0, 0), None);
    t.fill_reserved(0, 1);
    t.mark_modified(i, 0, true, 2);
    assert_eq!(t.set_view(0)[0].state, LineState::Modified);
    assert_eq!(
        t.allocate(i, 128, 3),
        Some(Evicted {
            block: 0,
            bytes: 128
        })
    );
}

#[test]
fn sectors_fill_separately() {
    let mut t = tags("S:4:128:2,L:B:m:L:L,A:16:4,4");
    let Probe::Miss(i) = t.probe(0, false) else {
        panic!()
    };
    t.allocate(i, 0, 0);
    assert_eq!(t.probe(32, false), Probe::SectorMiss(i));
    t.allocate_sector(i, 32, 1);
    assert_eq!(t.probe(32, false), Probe::HitReserved(i));
    t.fill_reserved(0, 2);
    assert_eq!(t.probe(0, false), Probe::Hit(i));
    assert_eq!(t.probe(32, false), Probe::HitReserved(i));
    // A partial write to an invalid sector is not readable; a full one is.
    t.mark_modified(i, 64, false, 3);
    assert_eq!(t.probe(64, false), Probe::SectorMiss(i));
    assert_eq!(t.probe(64, true), Probe::Hit(i));
    t.mark_modified(i, 96, true, 3);
    assert_eq!(t.probe(96, false), Probe::Hit(i));
    let v = &t.set_view(0)[i % 2];
    assert_eq!(v.sectors.len(), 4);
    assert_eq!(v.state, LineState::Reserved);
}

#[test]
fn write_evict_invalidates() {
    let mut t = tags(LINEAR);
    let Probe::Miss(i) = t.probe(0, false) else {
        panic!()
    };
    t.allocate(i, 0, 0);
    t.fill_reserved(0, 1);
    t.invalidate(i);
    assert!(matches!(t.probe(0, false), Probe::Miss(_)));
}

#[test]
fn partitioned_index_removes_slice_bits() {
    let t = tags("N:64:128:8,L:B:m:W:L,A:32:4,4").with_partition(256, 12);
    // Addresses 12 x 256 apart are consecutive in one slice: sets 0,1 then 2,3.
    assert_eq!(t.set_index(0), 0);
    assert_eq!(t.set_index(128), 1);
    assert_eq!(t.set_index(12 * 256), 2);
}
