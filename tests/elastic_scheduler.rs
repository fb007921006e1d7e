//! The bank-conflict-aware warp scheduler (issue 14; Elastic §4, MODEL.md section 8) over the
//! split pipeline: the history cache predicts each shared instruction's extra cycles from its
//! latest execution, issuing a shared warp masks memory warps for that many cycles, and an
//! over-cautious mask shows as `scheduling_fail`.

mod common;
use common::transpose_64;
use warpstep::sim::Sim;

/// The naive 32 x 32 tile transpose on `fermi`'s one SM (4 CTAs of 1,024 threads, one at a
/// time): per warp one conflict-free row write (1 cycle in MEM0: 0 extra) and one 32-way
/// column read (32 cycles: 31 extra), with `sets` added.
fn transpose(sets: &[&str]) -> Sim {
    transpose_64("transpose_naive", sets)
}

#[test]
fn the_history_learns_each_shared_instruction_and_never_overpredicts_a_regular_one() {
    let sim = transpose(&["core.scheduler=bank_conflict_aware"]);
    let stats = sim.stats();
    let h = stats.conflict_history.expect("history counters");
    // Every shared warp instruction (128 row writes, 128 column reads) looked up once and
    // resolved once.
    assert_eq!(h.lookups, 256);
    assert_eq!(h.exact + h.under + h.over, 256);
    // The row write is predicted 0 (a miss's default, then its own 0): always exact. The
    // column read is predicted 0 until its first execution resolves, 31 after: under, then
    // exact; a regular pattern is never over-predicted. The SM keeps its history from CTA to
    // CTA, so only the first CTA's first column reads (those issued before the first one left
    // MEM0) miss.
    assert_eq!(h.over, 0);
    assert!(h.under >= 1 && h.under < 32, "{h:?}");
    assert_eq!(h.exact, 256 - h.under);
    // Misses: the under-predicted column reads and, likewise, the first CTA's row writes issued
    // before the first one left MEM0 (predicted 0 on the miss: exact). With GPGPU-Sim's three
    // cycles from issue to the LD/ST unit on `fermi` (`regfile.issue_latch`,
    // `regfile.dispatch_latency`) two row writes issue before the first resolves.
    let row_write_misses = h.lookups - h.hits - h.under;
    assert!((1..=2).contains(&row_write_misses), "{h:?}");
    // Memory warps held back while a column read holds MEM0, and nothing else to issue.
    let fails = stats.stalls.get("scheduling_fail").copied().unwrap_or(0);
    assert!(fails > 0, "{:?}", stats.stalls);
}

#[test]
fn round_robin_has_no_history_and_no_scheduling_fail() {
    let sim = transpose(&["core.scheduler=lrr"]);
    let stats = sim.stats();
    assert!(stats.conflict_history.is_none());
    assert_eq!(stats.stalls.get("scheduling_fail"), None);
}

#[test]
fn without_conflicts_the_mask_never_engages() {
    // The padded tile: every shared access conflict-free, so every prediction is 0 and no
    // memory warp is ever masked; the run takes round robin's cycles exactly.
    let run = |scheduler: &str| {
        let set = format!("core.scheduler={scheduler}");
        transpose_64("transpose_padded", &[&set])
    };
    let aware = run("bank_conflict_aware");
    let lrr = run("lrr");
    let h = aware.stats().conflict_history.expect("history");
    assert_eq!((h.lookups, h.exact, h.under, h.over), (256, 256, 0, 0));
    assert_eq!(aware.stats().stalls.get("scheduling_fail"), None);
    assert_eq!(aware.cycle(), lrr.cycle());
}

#[test]
fn the_baseline_counts_stalls_behind_a_conflicting_access_as_bank_conflict() {
    // Elastic Fig. 8's middle category: a memory instruction that cannot enter the memory pipe
    // because a shared access is replaying its conflicts in MEM0.
    let conflicts = |kernel: &str| {
        let stats = transpose_64(kernel, &[]).stats();
        stats.stalls.get("bank_conflict").copied().unwrap_or(0)
    };
    assert!(conflicts("transpose_naive") > 1000);
    assert_eq!(conflicts("transpose_padded"), 0);
}

/// The interleaved-addressing reduction of `elastic.cu` on `elastic-cf11`, 8 blocks, `sets`
/// added.
fn reduction(sets: &[&str]) -> Sim {
    let ptx = common::data("kernels/elastic.sm_52.ptx");
    let mut flags = vec![
        "--config",
        "elastic-cf11",
        "--kernel",
        "reduce_interleaved",
        "--grid",
        "8",
        "--block",
        "256",
        "--arg",
        "s32[2048]=rand:1",
        "--arg",
        "s32[8]=0",
        "--arg",
        "2048",
    ];
    for s in sets {
        flags.extend(["--set", s]);
    }
    common::assert_timing_matches_functional(&ptx, &flags)
}

#[test]
fn strict_barrel_processing_keeps_one_instruction_per_warp_in_flight() {
    // elastic-cf11 is Table 3's strict barrel processing.
    let strict = reduction(&[]);
    let barrel = strict.stats().stalls.get("barrel").copied().unwrap_or(0);
    assert!(barrel > 0, "{:?}", strict.stats().stalls);
    let relaxed = reduction(&["core.strict_barrel=false"]);
    assert_eq!(relaxed.stats().stalls.get("barrel"), None);
    assert_eq!(
        relaxed.stats().warp_instructions,
        strict.stats().warp_instructions
    );
    // On the decoupled back end, where issue is not the bottleneck (one warp instruction per
    // cycle rather than one sub-warp), relaxing it gains cycles.
    let decoupled = "elastic.baseline=decoupled";
    let strict = reduction(&[decoupled]);
    let relaxed = reduction(&[decoupled, "core.strict_barrel=false"]);
    assert!(relaxed.cycle() < strict.cycle());

    // Cycle by cycle: no warp ever has two instructions in flight.
    let ptx = common::data("kernels/elastic.sm_52.ptx");
    let flags = [
        "--config",
        "elastic-cf11",
        "--kernel",
        "reduce_interleaved",
        "--grid",
        "2",
        "--block",
        "256",
        "--arg",
        "s32[512]=rand:1",
        "--arg",
        "s32[2]=0",
        "--arg",
        "512",
    ];
    let mut sim = common::prepare_flags(&ptx, &flags)
        .into_sim(&[])
        .expect("sim");
    let mut most = 0;
    while sim.status() == &warpstep::sim::Status::Running {
        sim.step();
        for w in sim.sms()[0].warps().iter().flatten() {
            most = most.max(w.in_flight);
        }
    }
    assert_eq!(most, 1);
}
