//! Tests of the data cache (`data_cache.rs`): misses, fills and hits, reservation failures by
//! reason (associativity, MSHR, miss queue), the write and write-allocate policies, the data and
//! fill ports (GPGPU-Sim's `bandwidth_management`), contention counts (MRPB §2.2).

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
