//! The global memory path in whole runs (issue 5, "Tests: coalescing" and "L1"): request counts
//! from the coalescer, associativity stalls of a column walk with and without Fermi's set-index
//! hash, MSHR merging, write-evict for global and write-back for local stores
//! (`tests/data/mem/global_access.ptx`, `tests/data/mem/column_walk.ptx`).

mod common;

use common::*;
use warpstep::mem::L1dStats;
use warpstep::sim::Sim;

/// The kernel parameters' traffic on the `fermi` preset, whose constant cache (GPGPU-Sim's
/// `L1C`, 64-byte lines) fetches the parameter buffer's one line once per SM: one request, two
/// 32-byte sector replies from the sectored L2, two DRAM reads (parameters are not copied into
/// the L2 by the host).
const PARAM_PACKETS: u64 = 1 + 2;
const PARAM_SECTORS: u64 = 2;
/// The kernel's code on the `fermi` preset, whose instruction cache (GPGPU-Sim's `L1I`, 128-byte
/// lines) fetches each line of the code once per SM: one request and four sector replies, four
/// DRAM reads per line.
const CODE_LINE_PACKETS: u64 = 1 + 4;
const CODE_LINE_SECTORS: u64 = 4;
/// vector_add's code (more than 16 instructions of 8 bytes) spans two lines.
const VECTOR_ADD_LINES: u64 = 2;

fn global(kernel: &str, flags: &[&str]) -> Sim {
    let ptx = data("mem/global_access.ptx");
    let mut f = vec!["--kernel", kernel];
    f.extend_from_slice(flags);
    assert_timing_matches_functional(&ptx, &f)
}

/// L1D requests of one warp loading with `stride` elements of `ty` and storing 32 words.
fn load_requests(kernel: &str, ty: &str, stride: u32) -> u64 {
    let input = format!("{ty}[2048]=iota");
    let s = stride.to_string();
    let sim = global(
        kernel,
        &[
            "--block",
            "32",
            "--arg",
            &input,
            "--arg",
            "u32[32]=0",
            "--arg",
            &s,
        ],
    );
    // Everything misses: the accesses are the load's requests plus one for the store.
    let l1 = sim.stats().l1d;
    assert_eq!(l1.hits, 0);
    l1.accesses - 1
}

#[test]
fn consecutive_words_are_one_request_and_stride_32_floats_is_32() {
    assert_eq!(load_requests("load_u32", "u32", 1), 1);
    assert_eq!(load_requests("load_u32", "u32", 2), 2);
    assert_eq!(load_requests("load_u32", "u32", 32), 32);
}

#[test]
fn bytes_and_halves_use_smaller_segments() {
    // 32 halves = 64 bytes: one 64-byte segment; at stride 2 they span two.
    assert_eq!(load_requests("load_u16", "u16", 1), 1);
    assert_eq!(load_requests("load_u16", "u16", 2), 2);
    // 32 bytes: one 32-byte segment; at stride 2 two, at stride 4 four (a 4-byte load
    // spanning 128 bytes would be one request).
    assert_eq!(load_requests("load_u8", "u8", 1), 1);
    assert_eq!(load_requests("load_u8", "u8", 2), 2);
    assert_eq!(load_requests("load_u8", "u8", 4), 4);
}

fn column_walk(preset: &str, warps: u32) -> Sim {
    let ptx = data("mem/column_walk.ptx");
    let block = (32 * warps).to_string();
    let out = format!("f32[{}]=0", 32 * warps);
    // Rows of 1024 floats: 4 KB apart.
    let a = format!("f32[{}]=rand:1", 1024 * 32 * warps);
    // A thrashing walk runs long stretches of loads with no store; its loop registers change, so
    // the forward-progress detector (default window) must not call it a deadlock.
    assert_timing_matches_functional(
        &ptx,
        &[
            "--config", preset, "--block", &block, "--arg", &a, "--arg", &out, "--arg", "1024",
            "--arg", "64",
        ],
    )
}

#[test]
fn a_4kb_column_walk_fails_on_associativity_and_the_fermi_hash_spreads_it() {
    // tesla-c2050-s: 32 sets x 4 ways, linear index: a warp's 32 rows share one set.
    let linear = column_walk("tesla-c2050-s", 1);
    let l1 = linear.stats().l1d;
    // 64 loads x 32 rows, every one a miss (the set thrashes), plus the store.
    assert_eq!((l1.accesses, l1.hits, l1.misses), (2049, 0, 2049));
    assert!(l1.reservation_fails.assoc > 10_000, "{l1:?}");
    assert_eq!(l1.reservation_fails.mshr, 0);
    // fermi: the same cache size with the Fermi hash puts the 32 rows in 8 sets of 4 ways:
    // no associativity stall, and each line is fetched once.
    let hashed = column_walk("fermi", 1);
    let h = hashed.stats().l1d;
    assert_eq!(h.reservation_fails.assoc, 0, "{h:?}");
    assert_eq!((h.misses, h.hits), (2 * 32 + 1, 2049 - 65));
    assert!(hashed.cycle() * 5 < linear.cycle());
    // Two warps: rows 32-63 go to 8 other sets.
    let two = column_walk("fermi", 2).stats().l1d;
    assert_eq!(two.reservation_fails.assoc, 0);
    let two_linear = column_walk("tesla-c2050-s", 2).stats().l1d;
    assert!(two_linear.reservation_fails.assoc > l1.reservation_fails.assoc);
}

#[test]
fn two_warps_reading_one_pending_line_merge_in_an_mshr() {
    for preset in ["fermi", "tesla-c2050-s"] {
        let sim = global(
            "same_word",
            &[
                "--config",
                preset,
                "--block",
                "64",
                "--arg",
                "u32[32]=iota",
                "--arg",
                "u32[64]=0",
            ],
        );
        let l1 = sim.stats().l1d;
        // Warp 0 misses, warp 1 merges into its MSHR; the two stores miss (no write-allocate).
        assert_eq!(
            (l1.accesses, l1.hits, l1.misses, l1.mshr_merges),
            (4, 0, 3, 1),
            "{preset}"
        );
        // One fetch of the line for both warps, answered per piece (four 32-byte sectors from
        // the GTX480's sectored L2, one line from the C2050's), and two stores, each
        // acknowledged per piece.
        let pieces = if preset == "fermi" { 4 } else { 1 };
        // The C2050's L2 is not sectored: the parameters' line comes back in one reply.
        // The kernel's code is one line.
        let front = if preset == "fermi" {
            PARAM_PACKETS + CODE_LINE_PACKETS
        } else {
            2 + 2
        };
        assert_eq!(
            sim.stats().icnt.packets,
            front + 1 + pieces + 2 * (1 + pieces),
            "{preset}"
        );
    }
}

fn reload(store: &str) -> L1dStats {
    global(
        "reload",
        &[
            "--block",
            "32",
            "--arg",
            "u32[32]=iota",
            "--arg",
            "u32[32]=0",
            "--arg",
            store,
        ],
    )
    .stats()
    .l1d
}

#[test]
fn a_global_store_evicts_its_line() {
    // Without the store the dependent second load hits.
    let keep = reload("0");
    assert_eq!((keep.accesses, keep.hits, keep.misses), (3, 1, 2));
    // A global store hit writes through and evicts the line (write-evict, counted as a hit), so
    // the second load misses again.
    let evict = reload("1");
    assert_eq!((evict.accesses, evict.hits, evict.misses), (4, 1, 3));
}

#[test]
fn a_local_store_writes_back() {
    let sim = global("local_reload", &["--block", "32", "--arg", "u32[32]=0"]);
    let l1 = sim.stats().l1d;
    // Load miss, store hit (the line becomes modified, nothing is sent), load hit, global
    // store miss.
    assert_eq!((l1.accesses, l1.hits, l1.misses), (4, 2, 2));
    // Besides the parameters, the L2 sees the local line's fetch (4 sectors) and the global
    // store (4 sectors) only: a request and four sector replies, a store and four
    // acknowledgements.
    let l2 = sim.stats().l2;
    // (The kernel's code is one line.)
    assert_eq!(l2.accesses, PARAM_SECTORS + CODE_LINE_SECTORS + 8);
    assert_eq!(
        sim.stats().icnt.packets,
        PARAM_PACKETS + CODE_LINE_PACKETS + 10
    );
}

#[test]
fn the_json_report_names_every_memory_counter() {
    let json = vector_add_report(false, "rand:1");
    let keys =
        |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    // (`atomic_replay_cycles` joins them when an atomic replayed: tests/mem_shared_timing.rs.)
    assert_eq!(
        keys(&json["shared"]),
        [
            "accesses",
            "bank_conflict_cycles",
            "degree_histogram",
            "instructions"
        ]
    );
    assert_eq!(
        keys(&json["l1d"]),
        [
            "accesses",
            "evictions_by",
            "hits",
            "misses",
            "mshr_merges",
            "reservation_fails"
        ]
    );
    assert_eq!(
        keys(&json["l1d"]["reservation_fails"]),
        ["assoc", "miss_queue", "mshr"]
    );
    assert_eq!(keys(&json["l2"]), ["accesses", "hits", "misses"]);
    assert_eq!(
        keys(&json["dram"]),
        [
            "activates",
            "bursts",
            "bus",
            "busy_cycles",
            "reads",
            "row_hits",
            "row_misses",
            "writes"
        ]
    );
    assert_eq!(
        keys(&json["dram"]["bus"]),
        [
            "ccdl",
            "column_blocked",
            "data",
            "rcd",
            "rcd_write",
            "row_blocked",
            "rtw",
            "wtr"
        ]
    );
    assert_eq!(
        keys(&json["icnt"]),
        [
            "packets",
            "replies",
            "reply_cycles",
            "reply_refusals",
            "request_cycles",
            "request_refusals",
            "requests"
        ]
    );
    // 48 warps: two loads and one store each, one request apiece, all missing.
    assert_eq!(json["l1d"]["accesses"], 144);
    assert_eq!(json["l1d"]["misses"], 144);
    // With a cold L2, each 128-byte line is four 32-byte DRAM reads through the sectored L2;
    // the stores stay in the write-back L2.
    assert_eq!(
        json["dram"]["reads"],
        PARAM_SECTORS + VECTOR_ADD_LINES * CODE_LINE_SECTORS + 384
    );
    assert_eq!(json["dram"]["writes"], 0);
    // 96 read requests answered by four sector replies each, 48 stores acknowledged per sector.
    assert_eq!(
        json["icnt"]["packets"],
        PARAM_PACKETS + VECTOR_ADD_LINES * CODE_LINE_PACKETS + 96 * (1 + 4) + 48 * (1 + 4)
    );
    // A functional run has none of them.
    let ptx = data("kernels/vector_add.sm_52.ptx");
    let mut p = prepare_flags(
        &ptx,
        &[
            "--grid",
            "1",
            "--block",
            "32",
            "--arg",
            "f32[32]=0",
            "--arg",
            "f32[32]=0",
            "--arg",
            "f32[32]=0",
            "--arg",
            "32",
        ],
    );
    let f = serde_json::to_value(p.run_functional(&[]).unwrap()).unwrap();
    for k in ["shared", "l1d", "l2", "dram", "icnt"] {
        assert!(f.get(k).is_none(), "{k}");
    }
}

#[test]
fn the_views_show_a_set_full_of_reserved_lines_when_mem0_stalls() {
    let ptx = data("mem/column_walk.ptx");
    let p = prepare_flags(
        &ptx,
        &[
            "--config",
            "tesla-c2050-s",
            "--block",
            "32",
            "--arg",
            "f32[32768]=rand:1",
            "--arg",
            "f32[32]=0",
            "--arg",
            "1024",
            "--arg",
            "4",
        ],
    );
    let mut sim = p.into_sim(&[]).unwrap();
    while sim.sms()[0].ldst().stalled().is_none() {
        assert!(sim.cycle() < 10_000, "no reservation failure");
        sim.step();
    }
    assert_eq!(
        sim.sms()[0].ldst().stalled(),
        Some(warpstep::mem::FailReason::Assoc)
    );
    let view = sim.memory().l1ds()[0].view();
    assert_eq!(view.fails, vec![warpstep::mem::FailReason::Assoc]);
    assert_eq!((view.sets.len(), view.sets[0].len()), (32, 4));
    // All 32 rows map to set 0: its four ways are reserved, in allocation order by rank.
    let set = &view.sets[0];
    assert!(set
        .iter()
        .all(|l| l.state == warpstep::mem::LineState::Reserved));
    let mut ranks: Vec<u32> = set.iter().map(|l| l.rank).collect();
    ranks.sort_unstable();
    assert_eq!(ranks, vec![0, 1, 2, 3]);
    assert_eq!(view.mshrs.len(), 4);
    assert!(view.sets[1..]
        .iter()
        .flatten()
        .all(|l| l.state == warpstep::mem::LineState::Invalid));
    // The views are plain data.
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["fails"][0], "assoc");
    assert_eq!(json["sets"][0][0]["state"], "reserved");
    // The snapshot places the failure in set 0, the set whose ways are all reserved.
    let l1 = warpstep::snapshot::snapshot(&sim, 0).sm.l1.unwrap();
    assert_eq!(l1.fails.len(), 1);
    assert_eq!(l1.fails[0].reason, warpstep::mem::FailReason::Assoc);
    assert_eq!(l1.fails[0].set, Some(0));
    assert_eq!(l1.fails[0].mshr, None, "the failing row has no MSHR yet");
}

#[test]
fn a_clone_mid_run_finishes_exactly_like_the_original() {
    let ptx = data("kernels/vector_add.sm_52.ptx");
    let p = prepare_flags(
        &ptx,
        &[
            "--grid",
            "12",
            "--block",
            "128",
            "--arg",
            "f32[1536]=rand:1",
            "--arg",
            "f32[1536]=rand:2",
            "--arg",
            "f32[1536]=0",
            "--arg",
            "1536",
        ],
    );
    let mut a = p.into_sim(&[]).unwrap();
    a.run_for(700);
    let mut b = a.clone();
    a.run(1_000_000);
    b.run(1_000_000);
    assert_eq!(a.status(), &warpstep::sim::Status::Completed);
    assert_eq!(a.cycle(), b.cycle());
    assert_eq!(a.stats(), b.stats());
}

/// The `--json` report of vector_add on 6 x 256 threads, with the host's copies kept in the L2
/// or not, and the first input initialised by `a_init`.
fn vector_add_report(fill_on_copy: bool, a_init: &str) -> serde_json::Value {
    let ptx = data("kernels/vector_add.sm_52.ptx");
    let set = format!("l2.fill_on_copy={fill_on_copy}");
    let a = format!("f32[1536]={a_init}");
    let flags = [
        "--grid",
        "6",
        "--block",
        "256",
        "--arg",
        &a,
        "--arg",
        "f32[1536]=rand:2",
        "--arg",
        "f32[1536]=0",
        "--arg",
        "1536",
        "--set",
        &set,
    ];
    let mut sim = prepare_flags(&ptx, &flags).into_sim(&[]).unwrap();
    sim.run(10_000_000);
    assert_eq!(sim.status(), &warpstep::sim::Status::Completed);
    serde_json::to_value(warpstep::run::timing_report(&sim, &[])).unwrap()
}

/// vector_add's L2 hits and misses and DRAM reads (see [`vector_add_report`]).
fn vector_add_memory(fill_on_copy: bool, a_init: &str) -> (u64, u64, u64) {
    let json = vector_add_report(fill_on_copy, a_init);
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    (
        n(&json["l2"]["hits"]),
        n(&json["l2"]["misses"]),
        n(&json["dram"]["reads"]),
    )
}

#[test]
fn host_copies_warm_the_l2_as_gpgpu_sims_perf_sim_memcpy() {
    // Cold: both inputs (2 x 1536 floats = 2 x 48 lines = 384 sectors) come from DRAM.
    let (_, cold_misses, cold_reads) = vector_add_memory(false, "rand:1");
    assert_eq!(
        cold_reads,
        PARAM_SECTORS + VECTOR_ADD_LINES * CODE_LINE_SECTORS + 384
    );
    assert!(cold_misses > 0);
    // Warm (GPGPU-Sim's `-gpgpu_perf_sim_memcpy 1`): the copies of both inputs sit in the
    // 768 KB L2, so no load reaches DRAM (only the parameters' and the code's lines).
    let (warm_hits, _, warm_reads) = vector_add_memory(true, "rand:1");
    assert_eq!(
        warm_reads,
        PARAM_SECTORS + VECTOR_ADD_LINES * CODE_LINE_SECTORS
    );
    assert!(warm_hits >= 2 * 48);
    // A zero fill stands for cudaMemset, not a copy: that input still comes from DRAM
    // (48 lines of 4 sectors).
    let (_, _, zero_reads) = vector_add_memory(true, "0");
    assert_eq!(
        zero_reads,
        PARAM_SECTORS + VECTOR_ADD_LINES * CODE_LINE_SECTORS + 192
    );
}

/// saxpy as GPGPU-Sim runs it (`reference/gpgpusim`: same PTX, launch and GTX480
/// configuration; local runs of `run-gpgpusim.sh saxpy 1` and `saxpy 15`). GPGPU-Sim's
/// read-only caches report a request merged into a pending line as a `MISS`, so its "misses"
/// are warpstep's misses plus MSHR merges.
/// * Constant cache (`L1C`, the kernel parameters), one SM: 8,192 accesses, 32 misses.
/// * Instruction cache (`L1I`, 16-byte fetches): one SM 20,480 accesses and 64 misses; 15 SMs
///   20,480 accesses and 960 misses (64 per SM).
#[test]
fn the_constant_and_instruction_caches_see_gpgpu_sims_counts_on_saxpy() {
    let path = format!(
        "{}/reference/gpgpusim/saxpy.ptx",
        env!("CARGO_MANIFEST_DIR")
    );
    let ptx = std::fs::read_to_string(path).unwrap();
    let flags = [
        "--kernel",
        "_Z5saxpyifPKfPf",
        "--grid",
        "256",
        "--block",
        "256",
        "--arg",
        "65536",
        "--arg",
        "3.0",
        "--arg",
        "f32[65536]=iota",
        "--arg",
        "f32[65536]=1",
    ];
    let run = |extra: &[&str]| {
        let mut sim = prepare_flags(&ptx, &[&flags[..], extra].concat())
            .into_sim(&[])
            .unwrap();
        sim.run(10_000_000);
        assert_eq!(sim.status(), &warpstep::sim::Status::Completed);
        sim.stats()
    };
    let s = run(&[]);
    assert_eq!(s.l1c.accesses, 8192);
    assert_eq!((s.l1c.misses, s.l1c.mshr_merges), (1, 31));
    assert_eq!((s.l1i.accesses, s.l1i.hits), (20_480, 20_416));
    assert_eq!((s.l1i.misses, s.l1i.mshr_merges), (2, 62));
    // The L1D sees neither: GPGPU-Sim's 6,144 global accesses.
    assert_eq!(s.l1d.accesses, 6144);
    let whole = run(&["--set", "num_sms=15"]);
    assert_eq!(whole.l1i.accesses, 20_480);
    assert_eq!(whole.l1i.misses + whole.l1i.mshr_merges, 960);
    // With the fixed latency and a perfect instruction cache there are neither.
    let ideal = run(&[
        "--set",
        "constant.model=fixed",
        "--set",
        "core.icache.model=perfect",
    ]);
    assert_eq!((ideal.l1c.accesses, ideal.l1i.accesses), (0, 0));
}
