//! Tests of the LD/ST unit and of its cost model (`memory_timing.rs`).

use super::*;
use crate::config::cache_string::parse_optional;
use crate::core::register_banks::{BankActivity, PoolRefusal};
use crate::exec::execute::AccessRecord;
use crate::mem::request::{CONST_BASE, PARAM_BASE};
use crate::mem::LocalMap;
use crate::mem::{DataSpace, FetchKind};
use crate::ptx::{MemAccess, Space};

// `..default()` keeps this building when `AccessRecord` gains fields.
#[allow(clippy::needless_update)]
fn record(space: Space, access: MemAccess, bytes: u32, addrs: Vec<u64>) -> AccessRecord {
    AccessRecord {
        valid: true,
        space: Some(space),
        access: Some(access),
        bytes,
        mask: (1u64 << addrs.len()) - 1,
        addrs,
        ..AccessRecord::default()
    }
}

const NOBODY: Requester = Requester {
    warp: 0,
    cta: 0,
    warp_in_cta: 0,
    block: 0,
};

fn timing() -> MemoryTiming {
    MemoryTiming::new(&Config::default()).unwrap()
}

fn l1d(config: &str) -> L1d {
    L1d::new(0, parse_optional(config).unwrap(), &LocalMap::new(1536, 1))
}

#[test]
fn coalescing_counts_requests() {
    let mut t = timing();
    let consecutive: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 4 * i).collect();
    let c = t.cost(&record(Space::Global, MemAccess::Load, 4, consecutive), 0);
    assert_eq!(c.requests, 1);
    let strided: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 128 * i).collect();
    let c2 = t.cost(&record(Space::Global, MemAccess::Load, 4, strided), 0);
    assert_eq!(c2.requests, 32);
    assert_ne!(c.staged, c2.staged);
    assert_eq!(t.staged(c2.staged.unwrap()).len(), 32);
}

/// The partitioned design: shared memory and cache have banks of their own.
struct SeparateBanks;

impl PoolArbiter for SeparateBanks {
    fn claim_memory(&mut self, _columns: u32, _warp: u32) -> Result<(), PoolRefusal> {
        Ok(())
    }
}

/// A shared access of degree 2 in one sub-warp: two passes, then 3 cycles.
const TWO_PASSES: MemoryCost = MemoryCost {
    occupancy: 2,
    latency: 3,
    shared: true,
    degree: 2,
    conflict_cycles: 1,
    held_subwarp_cycles: 0,
    requests: 0,
    staged: None,
    pool_columns: 0,
};

#[test]
fn mem0_holds_a_shared_access_for_its_passes_then_the_latency_runs() {
    let mut u = LdstUnit::default();
    let (mut t, mut l) = (timing(), l1d("none"));
    let cost = TWO_PASSES;
    u.accept(9, &cost, NOBODY);
    u.cycle(10, &mut t, &mut l, &mut SeparateBanks);
    assert!(!u.can_accept());
    u.cycle(11, &mut t, &mut l, &mut SeparateBanks);
    assert!(u.can_accept());
    assert_eq!(u.in_flight(), &[(9, 15)]);
    assert_eq!(u.ready(14).count(), 0);
    assert_eq!(u.ready(15).collect::<Vec<_>>(), vec![9]);
}

/// A pool arbiter whose register file holds the banks in the cycles listed.
struct BusyIn(Vec<u64>, u64);

/// What [`BusyIn`] says holds a bank: warp 3's register 7, read into collector unit 1.
const READ_BY_W3: BankActivity = BankActivity::Read {
    warp: 3,
    reg: 7,
    unit: 1,
};

impl PoolArbiter for BusyIn {
    /// Refused claims name the lowest column asked for as held by [`READ_BY_W3`].
    fn claim_memory(&mut self, columns: u32, _warp: u32) -> Result<(), PoolRefusal> {
        self.1 += 1;
        match self.0.contains(&(self.1 - 1)) {
            true => Err(PoolRefusal {
                column: columns.trailing_zeros(),
                holder: READ_BY_W3,
            }),
            false => Ok(()),
        }
    }
}

/// Unified §4.3: a shared pass whose bank column the register file holds waits a cycle
/// and counts an arbitration conflict; an access outside the pool never asks.
#[test]
fn a_shared_pass_waits_while_the_register_file_holds_its_bank() {
    let mut u = LdstUnit::default();
    let (mut t, mut l) = (timing(), l1d("none"));
    let cost = MemoryCost {
        pool_columns: 0b0100,
        ..TWO_PASSES
    };
    let w5 = Requester { warp: 5, ..NOBODY };
    u.accept(9, &cost, w5);
    // Claims are numbered 0, 1, 2...: the first (cycle 10) loses, then both passes go.
    let mut pool = BusyIn(vec![0], 0);
    u.cycle(10, &mut t, &mut l, &mut pool);
    // The cycle's loser: warp 5's shared pass lost column 2 to warp 3's register read.
    assert_eq!(
        u.arbitration_losses(),
        &[ArbitrationLoss {
            tag: 9,
            warp: 5,
            kind: PoolAccess::Shared,
            column: 2,
            holder: READ_BY_W3,
        }]
    );
    u.cycle(11, &mut t, &mut l, &mut pool);
    assert_eq!(u.arbitration_losses(), &[], "a cycle's losers only");
    assert!(!u.can_accept(), "one pass done");
    u.cycle(12, &mut t, &mut l, &mut pool);
    assert!(u.can_accept());
    assert_eq!(
        u.in_flight(),
        &[(9, 16)],
        "a cycle later than without the conflict"
    );
    assert_eq!(u.arbitration_conflicts(), 1);
    // Outside a pool (columns 0) the arbiter is never asked.
    u.accept(
        10,
        &MemoryCost {
            pool_columns: 0,
            ..cost
        },
        NOBODY,
    );
    let mut refuses = BusyIn(vec![0, 1, 2, 3], 0);
    u.cycle(20, &mut t, &mut l, &mut refuses);
    u.cycle(21, &mut t, &mut l, &mut refuses);
    assert!(u.can_accept());
    assert_eq!(refuses.1, 0);
}

/// Unified §4.3 for the cache part of the pool: a request to the L1D whose line's bank
/// column the register file holds waits in MEM0, and the cycle's loser names it.
#[test]
fn a_cache_request_that_loses_its_column_is_the_cycles_loser() {
    let config = Config::preset("unified-micro12")
        .unwrap()
        .with_overrides(&["unified.enabled=true"])
        .unwrap();
    let mut t = MemoryTiming::new(&config).unwrap();
    let mut l = l1d("N:32:128:4,L:L:m:N:L,A:32:8,8");
    let mut u = LdstUnit::default();
    // One 128-byte line, the fourth of its group of 4: bank column 3.
    let a: Vec<u64> = (0..32).map(|i| 0x1_0000_0180 + 4 * i).collect();
    let c = t.cost(&record(Space::Global, MemAccess::Load, 4, a), 6);
    assert_eq!(
        (c.requests, c.pool_columns),
        (1, 0),
        "a cache line, not shared"
    );
    u.accept(4, &c, Requester { warp: 6, ..NOBODY });
    let mut pool = BusyIn(vec![0], 0);
    u.cycle(30, &mut t, &mut l, &mut pool);
    assert_eq!(u.arbitration_conflicts(), 1);
    assert_eq!(
        u.arbitration_losses(),
        &[ArbitrationLoss {
            tag: 4,
            warp: 6,
            kind: PoolAccess::Cache,
            column: 3,
            holder: READ_BY_W3,
        }]
    );
    assert_eq!(u.outstanding_reads(4), 0, "the request waits in MEM0");
    u.cycle(31, &mut t, &mut l, &mut pool);
    assert_eq!(u.arbitration_losses(), &[]);
    assert_eq!(u.outstanding_reads(4), 1, "sent a cycle late");
}

/// The paper pipelines' memory stages are latches (Elastic §3.1): the last one losing
/// writeback holds the shared accesses behind it and MEM0's hand-over for a cycle.
#[test]
fn a_lost_writeback_holds_the_memory_stages_behind_it() {
    let mut u = LdstUnit::default();
    let (mut t, mut l) = (timing(), l1d("none"));
    let cost = |occupancy| MemoryCost {
        occupancy,
        latency: 3,
        shared: true,
        degree: 1,
        conflict_cycles: 0,
        held_subwarp_cycles: 0,
        requests: 0,
        staged: None,
        pool_columns: 0,
    };
    u.accept(1, &cost(1), NOBODY);
    u.cycle(10, &mut t, &mut l, &mut SeparateBanks); // 1 leaves MEM0: ready at 14
    u.accept(2, &cost(1), NOBODY);
    u.cycle(11, &mut t, &mut l, &mut SeparateBanks); // 2: ready at 15
    u.accept(3, &cost(1), NOBODY);
    // In cycle 14, 1 loses writeback: 2 (in MEM(M-2)) and 3 (about to leave MEM0) wait.
    u.behind.left_fixed(7, 16, 3); // a global access, ready at 20: not in the memory stages
    u.freeze_mem_stages(14, |tag| tag != 7);
    u.cycle(14, &mut t, &mut l, &mut SeparateBanks);
    assert!(!u.can_accept(), "MEM0 did not hand 3 on");
    assert_eq!(u.in_flight(), &[(1, 14), (2, 16), (7, 20)]);
    u.cycle(15, &mut t, &mut l, &mut SeparateBanks); // the path moves again
    assert_eq!(u.in_flight(), &[(1, 14), (2, 16), (7, 20), (3, 19)]);
}

#[test]
fn shared_counters_and_histogram() {
    let mut t = timing();
    // Stride 2 words over 32 banks: 2-way conflicts.
    let a: Vec<u64> = (0..32).map(|i| 8 * i).collect();
    let c = t.cost(&record(Space::Shared, MemAccess::Load, 4, a), 0);
    assert_eq!((c.occupancy, c.degree), (2, 2));
    let s = t.shared_stats();
    assert_eq!(
        (s.instructions, s.accesses, s.bank_conflict_cycles),
        (1, 1, 1)
    );
    assert_eq!(s.degree_histogram.get(&2), Some(&1));
    // Pass 0 serves lanes 0-15 (bytes 0..128: rows 0-7), pass 1 lanes 16-31 (rows 8-15).
    assert_eq!((s.row_reads, s.row_writes), (16, 0));
}

#[test]
fn shared_rows_per_pass() {
    let mut t = timing();
    // 32 consecutive words stored: one pass, 128 bytes, 8 rows.
    let a: Vec<u64> = (0..32).map(|i| 4 * i).collect();
    t.cost(&record(Space::Shared, MemAccess::Store, 4, a), 0);
    assert_eq!(
        (t.shared_stats().row_reads, t.shared_stats().row_writes),
        (0, 8)
    );
    // Every lane reads word 0 (a broadcast): one row.
    t.cost(&record(Space::Shared, MemAccess::Load, 4, vec![0; 32]), 0);
    assert_eq!(t.shared_stats().row_reads, 1);
    // 16 lanes of 8 bytes at 4, 12, 20, ...: one pass over bytes 4..132, rows 0-8 (every
    // other lane straddles two rows).
    let a: Vec<u64> = (0..16).map(|i| 4 + 8 * i).collect();
    let c = t.cost(&record(Space::Shared, MemAccess::Load, 8, a), 0);
    assert_eq!(c.degree, 1);
    assert_eq!(t.shared_stats().row_reads, 1 + 9);
    // An atomic on one word from 4 lanes: 4 passes of one row, each read and written.
    t.cost(&record(Space::Shared, MemAccess::Atomic, 4, vec![64; 4]), 0);
    assert_eq!(
        (t.shared_stats().row_reads, t.shared_stats().row_writes),
        (14, 12)
    );
}

#[test]
fn a_global_load_sends_one_request_per_cycle_and_waits_for_its_reads() {
    let (mut t, mut l) = (timing(), l1d("N:32:128:4,L:L:m:N:L,A:32:8,8"));
    let mut u = LdstUnit::default();
    let a: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 4096 * i).collect();
    let c = t.cost(&record(Space::Global, MemAccess::Load, 4, a), 0);
    u.accept(1, &c, NOBODY);
    // Four ways of one set: four misses, then associativity stalls.
    for now in 0..4 {
        u.cycle(now, &mut t, &mut l, &mut SeparateBanks);
        assert_eq!(u.stalled(), None);
    }
    assert_eq!(u.mem0().map(|m| m.cycles_left), Some(28));
    u.cycle(4, &mut t, &mut l, &mut SeparateBanks);
    assert_eq!(u.stalled(), Some(FailReason::Assoc));
    assert_eq!(u.outstanding_reads(1), 4);
    assert_eq!(l.stats().reservation_fails.assoc, 1);
}

#[test]
fn a_store_leaves_mem0_at_once_and_completes_with_its_acknowledgement() {
    let (mut t, mut l) = (timing(), l1d("N:32:128:4,L:L:m:N:H,S:64:8,8"));
    let mut u = LdstUnit::default();
    let a: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 4 * i).collect();
    let c = t.cost(&record(Space::Global, MemAccess::Store, 4, a), 0);
    u.accept(3, &c, NOBODY);
    u.cycle(7, &mut t, &mut l, &mut SeparateBanks);
    assert!(u.can_accept());
    assert_eq!(u.in_flight(), &[(3, WAITING)]);
    assert_eq!(u.outstanding_reads(3), 1);
    // The L2 acknowledges the written-through store (here in one piece).
    let write = l.pop_outgoing().unwrap();
    assert_eq!((write.kind, write.token), (FetchKind::Write, 3));
    l.fill(&write, 20);
    l.post_reply(20); // the memory system's part of the cycle
    u.cycle(20, &mut t, &mut l, &mut SeparateBanks);
    assert_eq!(u.in_flight(), &[(3, 21)]);
    // The slot is free for the next instruction.
    let b: Vec<u64> = (0..32).map(|i| 0x1_0000_1000 + 4 * i).collect();
    assert_eq!(
        t.cost(&record(Space::Global, MemAccess::Load, 4, b), 0)
            .staged,
        c.staged
    );
}

#[test]
fn a_hit_is_ready_after_the_l1d_latency() {
    let (mut t, mut l) = (timing(), l1d("N:32:128:4,L:L:m:N:L,A:32:8,8"));
    let mut u = LdstUnit::default();
    let a: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 4 * i).collect();
    // First load misses; its reply comes back through the L1D.
    let c = t.cost(&record(Space::Global, MemAccess::Load, 4, a.clone()), 0);
    u.accept(1, &c, NOBODY);
    u.cycle(0, &mut t, &mut l, &mut SeparateBanks);
    assert_eq!(u.in_flight(), &[(1, WAITING)]);
    let f = l.pop_outgoing().unwrap();
    l.fill(&f, 50);
    l.post_reply(50); // the memory system's part of the cycle
    u.cycle(50, &mut t, &mut l, &mut SeparateBanks);
    assert_eq!(u.in_flight(), &[(1, 51)]);
    u.retire(1);
    // Second load hits: ready 35 cycles after it is sent.
    let c = t.cost(&record(Space::Global, MemAccess::Load, 4, a), 0);
    u.accept(2, &c, NOBODY);
    u.cycle(60, &mut t, &mut l, &mut SeparateBanks);
    assert_eq!(u.in_flight(), &[(2, 60 + 35 + 1)]);
}

#[test]
fn a_sectored_l1d_gets_sector_requests() {
    let c = Config::default()
        .with_overrides(&["l1d.config=S:32:128:4,L:L:m:N:L,S:64:8,8"])
        .unwrap();
    let mut t = MemoryTiming::new(&c).unwrap();
    let a: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 4 * i).collect();
    assert_eq!(
        t.cost(&record(Space::Global, MemAccess::Load, 4, a), 0)
            .requests,
        4
    );
}

#[test]
fn constant_loads_take_the_fixed_latency() {
    let c = Config::default()
        .with_overrides(&["constant.model=fixed"])
        .unwrap();
    let mut t = MemoryTiming::new(&c).unwrap();
    let c = t.cost(&record(Space::Param, MemAccess::Load, 4, vec![0; 32]), 0);
    assert_eq!((c.occupancy, c.latency, c.staged), (1, 35, None));
}

#[test]
fn constant_loads_ask_the_constant_cache_once_per_64_byte_block() {
    // fermi: GPGPU-Sim's L1C, 64-byte lines. Every lane reading one parameter: one request.
    let mut t = timing();
    let c = t.cost(&record(Space::Param, MemAccess::Load, 4, vec![8; 32]), 0);
    assert_eq!((c.occupancy, c.latency, c.requests), (1, 35, 1));
    let slot = c.staged.expect("staged for MEM0");
    let r = t.staged(slot)[0];
    assert_eq!(
        (r.addr, r.size, r.space),
        (PARAM_BASE, 64, DataSpace::Constant)
    );
    assert_eq!((r.lanes, r.bytes), (u64::from(u32::MAX), 0xF << 8));
    // Lanes reading `.const` words 0..32 (128 bytes): two blocks, in the const bank's place.
    let words: Vec<u64> = (0..32).map(|i| 4 * i).collect();
    let c = t.cost(&record(Space::Const, MemAccess::Load, 4, words), 0);
    let blocks: Vec<u64> = t.staged(c.staged.unwrap()).iter().map(|a| a.addr).collect();
    assert_eq!(blocks, [CONST_BASE, CONST_BASE + 64]);
}
