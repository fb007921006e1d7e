//! The robustness sweep (issue 28, deliverable 4): kernels the tests run (our own CUDA, the
//! paper kernels, the third-party corpus) under each switch of the five mechanisms and under
//! pairs of them, each run in the timing model to the end with the buffers a functional run
//! gives; no panic, and where a combination is refused, an error that says why.
//!
//! Switches: MRPB; the elastic pipeline with the bank-conflict-aware scheduler; the in-order
//! and split baselines; convergence barriers; the unified memory (on `unified-micro12`); an
//! XOR bank hash; the register file hierarchy; each warp scheduler. Every switch runs on every
//! launch; pairs of switches that set different things are sampled with a fixed seed, a few per
//! launch, so that every pair runs at least twice over the sweep. The base machine is
//! `tesla-c2050-s`.

mod common;

use common::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use warpstep::config::Config;
use warpstep::launch::LaunchFlags;
use warpstep::run::{prepare, Prepared};
use warpstep::sim::Status;

const BASE: &str = "tesla-c2050-s";
/// Pairs of switches sampled for each launch.
const PAIRS_PER_LAUNCH: usize = 4;
/// Test functions the launches are spread over (they run in parallel).
const PARTS: usize = 4;

/// A mechanism's switch: the overrides that turn it on, a preset it needs, and what it sets
/// (two switches that set the same thing are not paired).
struct Switch {
    name: &'static str,
    preset: Option<&'static str>,
    sets: &'static [&'static str],
    sets_what: &'static [&'static str],
}

const fn switch(
    name: &'static str,
    sets: &'static [&'static str],
    sets_what: &'static [&'static str],
) -> Switch {
    Switch {
        name,
        preset: None,
        sets,
        sets_what,
    }
}

const SWITCHES: &[Switch] = &[
    switch("mrpb", &["mrpb.enabled=true"], &["mrpb"]),
    switch(
        "elastic + bank_conflict_aware",
        &["elastic.enabled=true", "core.scheduler=bank_conflict_aware"],
        &["pipeline", "scheduler"],
    ),
    switch("in_order", &["elastic.baseline=in_order"], &["pipeline"]),
    switch("split", &["elastic.baseline=split"], &["pipeline"]),
    switch(
        "convergence_barriers",
        &["core.divergence=convergence_barriers"],
        &["divergence"],
    ),
    Switch {
        name: "unified",
        preset: Some("unified-micro12"),
        sets: &["unified.enabled=true"],
        sets_what: &["preset"],
    },
    switch("xor hash", &["shmem.hash=fixed-xor"], &["hash"]),
    switch(
        "register hierarchy",
        &["regfile.hierarchy=true"],
        &["register file"],
    ),
    switch("lrr", &["core.scheduler=lrr"], &["scheduler"]),
    switch("gto", &["core.scheduler=gto"], &["scheduler"]),
    switch("two_level", &["core.scheduler=two_level"], &["scheduler"]),
    switch(
        "bank_conflict_aware",
        &["core.scheduler=bank_conflict_aware"],
        &["scheduler"],
    ),
];

/// (file under tests/data, launch flags): small launches of the kernels the tests run.
const LAUNCHES: &[(&str, &str)] = &[
    ("kernels/vector_add.sm_52.ptx", "--grid 3 --block 64 --arg f32[150]=rand:1 --arg f32[150]=rand:2 --arg f32[192]=0 --arg 150"),
    ("kernels/divergence.sm_52.ptx", "--block 16 --arg u32[64]=rand:3:0:1 --arg u32[64]=rand:4:0:1 --arg 4 --arg u32[16]=0 --arg u32[16]=0 --arg u32[16]=0"),
    ("kernels/histogram.sm_52.ptx", "--grid 3 --block 32 --arg u8[700]=rand:5 --arg 700 --arg u32[64]=0"),
    ("kernels/reduction.sm_52.ptx", "--grid 4 --block 32 --arg s32[128]=rand:6:-100:100 --arg s32[4]=0 --arg 128"),
    ("kernels/vote.sm_52.ptx", "--block 32 --arg s32[32]=rand:7:0:99 --arg 50 --arg 29 --arg u32[1]=0 --arg s32[1]=0 --arg s32[1]=0 --arg s32[32]=-7"),
    ("kernels/shuffle_reduce.sm_52.ptx", "--kernel warp_sum --grid 2 --block 32 --arg f32[64]=rand:8 --arg f32[2]=0"),
    ("kernels/transpose.sm_52.ptx", "--kernel transpose_naive --grid 2,2 --block 32,8 --arg f32[4096]=iota --arg f32[4096]=0 --arg 64 --arg 64"),
    ("kernels/transpose.sm_52.ptx", "--kernel transpose_padded --grid 2,2 --block 32,8 --arg f32[4096]=iota --arg f32[4096]=0 --arg 64 --arg 64"),
    ("kernels/spinlock.sm_52.ptx", "--grid 4 --block 1 --arg s32[1]=0 --arg s32[1]=0"),
    ("kernels/polybench.sm_52.ptx", "--kernel atax_1 --grid 1 --block 64 --arg f32[4096]=rand:9 --arg f32[64]=rand:10 --arg f32[64]=0 --arg 64"),
    ("kernels/polybench.sm_52.ptx", "--kernel syrk --grid 2,8 --block 32,8 --arg 1.5 --arg 0.5 --arg f32[4096]=rand:11 --arg f32[4096]=rand:12 --arg 64 --arg 64"),
    ("kernels/polybench.sm_52.ptx", "--kernel gemm --grid 2,8 --block 32,8 --arg 1.5 --arg 0.5 --arg f32[4096]=rand:13 --arg f32[4096]=rand:14 --arg f32[4096]=rand:15 --arg 64 --arg 64 --arg 64"),
    ("kernels/polybench.sm_52.ptx", "--kernel conv2d --grid 2,8 --block 32,8 --arg f32[4096]=rand:16 --arg f32[4096]=0 --arg 64 --arg 64"),
    ("kernels/elastic.sm_52.ptx", "--kernel transpose16 --grid 2,2 --block 16,16 --arg f32[1024]=iota --arg f32[1024]=0 --arg 32 --arg 32"),
    ("kernels/elastic.sm_52.ptx", "--kernel reduce_interleaved --grid 2 --block 128 --arg f32[256]=rand:17 --arg f32[2]=0 --arg 256"),
    ("kernels/elastic.sm_52.ptx", "--kernel dct8x8 --grid 2,1 --block 8,4,2 --arg f32[1024]=0 --arg f32[1024]=rand:18 --arg 64"),
    ("kernels/unified.sm_52.ptx", "--kernel cache_gather --grid 2 --block 64 --arg u32[128]=0 --arg u32[512]=rand:19 --arg 512 --arg 4"),
    ("kernels/nw_tiles.sm_52.ptx", "--kernel nw_upper --grid 2 --block 16 --arg s32[1089]=rand:20:-4:11 --arg s32[1089]=0 --arg 33 --arg 10 --arg 2"),
    ("mem/address_wrap.ptx", "--block 8 --arg s32[8]=0 --arg s32[8]=0"),
    ("mem/column_walk.ptx", "--block 32 --arg f32[8192]=rand:21 --arg f32[32]=0 --arg 256 --arg 4"),
    ("mem/shared_banks.ptx", "--kernel shared_stride --block 32 --arg u32[32]=0 --arg 3"),
    ("mem/global_access.ptx", "--kernel local_reload --block 32 --arg u32[32]=0"),
    ("ptx-corpus/dice_block_sum.ptx", "--grid 2 --block 64 --arg s32[128]=rand:22:-50:50 --arg s32[2]=0 --arg 128"),
    ("ptx-corpus/dice_copy2d_smem.ptx", "--grid 2,2 --block 16,16 --arg s32[1024]=iota --arg s32[1024]=0 --arg 32 --arg 32"),
    ("ptx-corpus/ocelot_TestDivergence_nvvm41.ptx", "--kernel divergence --block 64 --arg s32[64]=0"),
    ("ptx-corpus/dice_rodinia_nn.ptx", "--grid 2 --block 64 --arg f32[256]=rand:23 --arg f32[128]=-1 --arg 128 --arg 30.0 --arg 90.0"),
    ("ptx-corpus/dice_rodinia_gaussian.ptx", "--kernel _Z4Fan1PfS_ii --grid 1 --block 64 --arg f32[256]=0 --arg f32[256]=rand:24:1:2 --arg 16 --arg 0"),
    ("ptx-corpus/dice_rodinia_backprop.ptx", "--kernel _Z22bpnn_layerforward_CUDAPfS_S_S_ii --grid 1,2 --block 16,16 --arg f32[33]=rand:25 --arg f32[17]=0 --arg f32[561]=rand:26 --arg f32[32]=0 --arg 32 --arg 16"),
    ("ptx-corpus/dice_rodinia_pathfinder.ptx", "--grid 1 --block 256 --arg 0 --arg s32[1024]=rand:27:0:9 --arg s32[256]=rand:28:0:9 --arg s32[256]=-1 --arg 256 --arg 4 --arg 0 --arg 1"),
    ("ptx-corpus/ocelot_rodinia_hotspot.ptx", "--grid 2,2 --block 16,16 --arg 1 --arg f32[1024]=rand:29 --arg f32[1024]=rand:30 --arg f32[1024]=0 --arg 32 --arg 32 --arg 1 --arg 1 --arg 0.5 --arg 1.0 --arg 1.0 --arg 2.0 --arg 0.001 --arg 0.001"),
    ("ptx-corpus/ocelot_rodinia_srad_kernel.ptx", "--kernel _Z11srad_cuda_1PfS_S_S_S_S_iif --grid 2,2 --block 16,16 --arg f32[1024]=0 --arg f32[1024]=0 --arg f32[1024]=0 --arg f32[1024]=0 --arg f32[1024]=rand:31:1:2 --arg f32[1024]=0 --arg 32 --arg 32 --arg 0.5"),
];

/// Every pair of switches that set different things, in a fixed-seed shuffled order.
fn shuffled_pairs() -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for (a, sa) in SWITCHES.iter().enumerate() {
        for (b, sb) in SWITCHES.iter().enumerate().skip(a + 1) {
            if !sa.sets_what.iter().any(|w| sb.sets_what.contains(w)) {
                pairs.push((a, b));
            }
        }
    }
    let mut rng = Rng::new(28);
    for i in (1..pairs.len()).rev() {
        pairs.swap(i, rng.below(i as u64 + 1) as usize);
    }
    pairs
}

/// The switch combinations launch `index` runs under: every switch, then its sampled pairs
/// (consecutive pairs of the shuffled list, wrapping round).
fn combinations(index: usize) -> Vec<Vec<usize>> {
    let pairs = shuffled_pairs();
    let mut out: Vec<Vec<usize>> = (0..SWITCHES.len()).map(|s| vec![s]).collect();
    for k in 0..PAIRS_PER_LAUNCH {
        let (a, b) = pairs[(index * PAIRS_PER_LAUNCH + k) % pairs.len()];
        out.push(vec![a, b]);
    }
    out
}

fn prepared(file: &str, flags: &str, preset: &str, sets: &[&str]) -> Result<Prepared, String> {
    let mut tokens: Vec<String> = flags.split_whitespace().map(String::from).collect();
    tokens.extend(["--config".into(), preset.into()]);
    for s in sets {
        tokens.extend(["--set".into(), s.to_string()]);
    }
    let flags = LaunchFlags::parse_tokens(&tokens).map_err(|e| e.to_string())?;
    let config_for = |name: &str| Config::preset(name).map_err(|e| e.to_string());
    let no_files = |p: &str| Err(format!("no file {p} in tests"));
    prepare(&data(file), flags, &config_for, &no_files).map_err(|e| e.to_string())
}

/// Runs one combination in the timing model; `Err` says what went wrong.
fn run_combination(file: &str, flags: &str, combo: &[usize], want: &[Vec<u8>]) -> Outcome {
    let preset = combo
        .iter()
        .find_map(|&s| SWITCHES[s].preset)
        .unwrap_or(BASE);
    let sets: Vec<&str> = combo
        .iter()
        .flat_map(|&s| SWITCHES[s].sets)
        .copied()
        .collect();
    let p = match prepared(file, flags, preset, &sets) {
        Ok(p) => p,
        Err(why) => return Outcome::Refused(why),
    };
    let buffers: Vec<usize> = p.image.buffers.iter().map(|b| b.index).collect();
    let mut sim = match p.into_sim(&[]) {
        Ok(sim) => sim,
        Err(e) => return Outcome::Refused(e.to_string()),
    };
    sim.set_record_warp_states(false);
    sim.run(5_000_000);
    match sim.status() {
        Status::Completed => {}
        other => return Outcome::Failed(format!("ended {other:?}")),
    }
    for (i, index) in buffers.iter().enumerate() {
        let got = warpstep::run::buffer_bytes(sim.image(), sim.global(), *index);
        if got.as_deref() != Some(&want[i][..]) {
            return Outcome::Failed(format!("buffer argument {index} differs from functional"));
        }
    }
    Outcome::Same
}

enum Outcome {
    Same,
    Refused(String),
    Failed(String),
}

/// Runs every launch `i` with `i % PARTS == part`; panics listing every failure.
fn sweep(part: usize) {
    let mut failures = Vec::new();
    let mut runs = 0;
    for (index, (file, flags)) in LAUNCHES.iter().enumerate() {
        if index % PARTS != part {
            continue;
        }
        let mut reference = prepared(file, flags, BASE, &[]).expect("the launch prepares");
        let report = reference.run_functional(&[]).expect("functional run");
        assert!(report.completed, "{file} {flags}: {:?}", report.error);
        let want: Vec<Vec<u8>> = reference
            .image
            .buffers
            .iter()
            .map(|b| reference.buffer_bytes(b.index).expect("a buffer"))
            .collect();
        for combo in combinations(index) {
            let names: Vec<&str> = combo.iter().map(|&s| SWITCHES[s].name).collect();
            let what = format!("{file} [{flags}] under {}", names.join(" + "));
            runs += 1;
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                run_combination(file, flags, &combo, &want)
            }));
            match outcome {
                Ok(Outcome::Same) => {}
                Ok(Outcome::Refused(why)) => {
                    eprintln!("refused: {what}: {why}");
                    if why.trim().is_empty() {
                        failures.push(format!("{what}: refused without a reason"));
                    }
                }
                Ok(Outcome::Failed(why)) => failures.push(format!("{what}: {why}")),
                Err(_) => failures.push(format!("{what}: panicked")),
            }
        }
    }
    eprintln!("part {part}: {runs} runs, {} failures", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_pair_of_switches_runs_at_least_twice() {
    let pairs = shuffled_pairs();
    let mut seen = vec![0usize; pairs.len()];
    for index in 0..LAUNCHES.len() {
        for combo in combinations(index).iter().filter(|c| c.len() == 2) {
            let at = pairs.iter().position(|p| *p == (combo[0], combo[1]));
            seen[at.expect("a known pair")] += 1;
        }
    }
    assert!(pairs.len() > 30, "{} pairs", pairs.len());
    assert!(seen.iter().all(|&n| n >= 2), "{seen:?}");
}

#[test]
fn sweep_part_0() {
    sweep(0);
}

#[test]
fn sweep_part_1() {
    sweep(1);
}

#[test]
fn sweep_part_2() {
    sweep(2);
}

#[test]
fn sweep_part_3() {
    sweep(3);
}

#[test]
fn a_refused_combination_names_the_key_or_the_limit() {
    let (file, flags) = LAUNCHES
        .iter()
        .find(|(_, f)| f.contains("transpose_naive"))
        .expect("the naive transpose");
    let cases: [(&str, &[&str], &str); 3] = [
        (
            BASE,
            &["mrpb.enabled=true", "mrpb.queue_depth=0"],
            "mrpb.queue_depth = 0: must be in 1..=256",
        ),
        (
            "unified-micro12",
            &["unified.enabled=true", "unified.capacity_bytes=4096"],
            "a CTA of 256 threads needs 16384 bytes of the 4096-byte unified memory",
        ),
        (
            "teaching",
            &["elastic.enabled=true"],
            "core.max_threads_per_cta = 32",
        ),
    ];
    for (preset, sets, says) in cases {
        let refused = prepared(file, flags, preset, sets)
            .and_then(|p| p.into_sim(&[]).map_err(|e| e.to_string()));
        match refused {
            Ok(_) => panic!("{preset} {sets:?} should be refused"),
            Err(why) => assert!(why.contains(says), "{preset} {sets:?}: {why}"),
        }
    }
}
