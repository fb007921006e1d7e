//! The texture cache (issue 33; GPGPU-Sim's `m_L1T`, `-gpgpu_tex_cache:l1`): read-only global
//! loads (`ld.global.nc`, CUDA's `__ldg`) go through it when `l1d.texture_cache` names one, and
//! through the L1D (or straight to memory without one) otherwise
//! (`tests/data/mem/read_only.ptx`).

mod common;

use common::*;

/// 4 blocks of 64 threads summing an 8-word table on `elastic-cf11` (no L1D or L2: GT200's
/// texture cache is the only cache on its data path), with the texture cache set by `sets`.
fn sum_table(sets: &[&str]) -> warpstep::sim::Sim {
    let ptx = data("mem/read_only.ptx");
    let mut flags = vec![
        "--config",
        "elastic-cf11",
        "--kernel",
        "sum_table",
        "--grid",
        "4",
        "--block",
        "64",
        "--arg",
        "u32[256]=0",
        "--arg",
        "u32[8]=list:1,2,3,4,5,6,7,8",
    ];
    for s in sets {
        flags.extend(["--set", s]);
    }
    let sim = assert_timing_matches_functional(&ptx, &flags);
    let out = warpstep::run::buffer_bytes(sim.image(), sim.global(), 0).unwrap();
    let sums: Vec<u32> = out
        .chunks(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(sums, vec![36; 256]);
    sim
}

#[test]
fn read_only_loads_hit_the_texture_cache_after_the_first_miss() {
    let sim = sum_table(&[]);
    let s = sim.stats();
    // 8 warps x 8 loads x 4 sub-warps (the 8-wide SIMD coalesces per sub-warp), one 128-byte
    // block each: one miss, the rest merge into it or hit.
    assert_eq!(s.l1t.accesses, 256);
    assert_eq!(s.l1t.misses, 1);
    assert_eq!(s.l1t.hits + s.l1t.mshr_merges, 255);
    assert_eq!(s.l1d.accesses, 0, "elastic-cf11 has no L1D");
    // DRAM serves the one line once; without the cache, every sub-warp's load.
    assert_eq!(s.dram.reads, 1);
    let without = sum_table(&["l1d.texture_cache=none"]);
    let w = without.stats();
    assert!(w.l1t.is_unused());
    assert!(
        s.dram.reads * 8 < w.dram.reads,
        "with {} DRAM reads, without {}",
        s.dram.reads,
        w.dram.reads
    );
    assert!(sim.cycle() < without.cycle());
}

#[test]
fn plain_global_loads_do_not_use_the_texture_cache() {
    let ptx = data("mem/read_only.ptx").replace("ld.global.nc.u32", "ld.global.u32");
    let flags = [
        "--config",
        "elastic-cf11",
        "--kernel",
        "sum_table",
        "--block",
        "32",
        "--arg",
        "u32[32]=0",
        "--arg",
        "u32[8]=list:1,2,3,4,5,6,7,8",
    ];
    let sim = assert_timing_matches_functional(&ptx, &flags);
    assert!(sim.stats().l1t.is_unused());
    assert!(sim.stats().dram.reads >= 8);
}
