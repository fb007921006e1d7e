//! Tests of the L1D (`l1d.rs`): MSHR merging, the constant and instruction caches behind the
//! same port, atomics and the no-L1D configuration bypassing it, write-through acknowledgements
//! joined piece by piece, local addresses moved by the SM's offset.

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
    let mut l = l1("N:32:128:4,L:L:m:N:H,S:64:8,8").with_instruction_cache(spec.unwrap().unwrap());
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
