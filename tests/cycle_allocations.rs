//! Issue 32 item 2, "no allocation per cycle": once a kernel's structures are warm, stepping
//! the machine allocates nothing per cycle, per instruction or per barrier. A counting global
//! allocator (this test binary's only) counts the heap allocations made while the SMs and the
//! memory system step.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `cycles` steps of `sim` after `warm` steps.
fn allocations(sim: &mut warpstep::sim::Sim, warm: u64, cycles: u64) -> u64 {
    for _ in 0..warm {
        sim.step();
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..cycles {
        sim.step();
    }
    let made = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert!(!sim.finished(), "the window ends before the kernel does");
    made
}

#[test]
fn warm_cycles_allocate_nothing() {
    // Rodinia pathfinder on one Fermi SM: its 6 CTAs are resident from cycle 0, so no launch
    // (whose warps' state is new) falls in the window; shared and global accesses, barriers and
    // divergence do.
    let case = warpstep::bench::PATHFINDER;
    let mut flags = vec!["--config", "fermi"];
    flags.extend(case.flags);
    let mut sim = common::prepare_flags(case.ptx, &flags)
        .into_sim(&[])
        .unwrap();
    sim.set_record_warp_states(false);
    let issued = sim.stats().warp_instructions;
    let n = allocations(&mut sim, 10_000, 10_000);
    let stats = sim.stats();
    assert!(
        stats.warp_instructions > issued + 10_000,
        "the window is busy"
    );
    assert!(
        stats.shared.instructions > 0 && stats.l1d.accesses > 0,
        "with memory accesses"
    );
    // What is left is queues growing to a new longest (the interconnect's, the L2's, the
    // MSHRs' merge lists: 14 here, each a doubling), not work per cycle or per access. Before
    // issue 32 every barrier completion allocated (281 in this window) and so did every memory
    // instruction MEM0 took.
    assert!(n <= 20, "{n} allocations in 10,000 warm cycles");
}
