//! Shared helpers for tests that run kernels: load a PTX file from tests/data, launch it with
//! CLI-style flags on a preset, run it, and read buffers back as typed values.
#![allow(dead_code)]

use warpstep::config::Config;
use warpstep::launch::LaunchFlags;
use warpstep::run::{prepare, Prepared, Report};

/// The book's one warp of 4 threads (Figs. 3.2-3.8) on the teaching preset.
pub const BOOK_WARP4: [&str; 10] = [
    "--config",
    "teaching",
    "--set",
    "core.warp_size=4",
    "--set",
    "core.simd_width=4",
    "--set",
    "core.max_threads_per_sm=16",
    "--set",
    "core.max_threads_per_cta=16",
];

/// The text of `tests/data/<path>`.
pub fn data(path: &str) -> String {
    let full = format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// Prepares `ptx` with `flags` (e.g. `["--kernel", "k", "--grid", "4", "--arg", "u32[8]=0"]`).
pub fn prepare_flags(ptx: &str, flags: &[&str]) -> Prepared {
    let flags = LaunchFlags::parse_tokens(flags).expect("flags");
    let config_for = |name: &str| Config::preset(name).map_err(|e| e.to_string());
    let no_files = |p: &str| Err(format!("no file {p} in tests"));
    prepare(ptx, flags, &config_for, &no_files).unwrap_or_else(|e| panic!("prepare: {e}"))
}

/// Runs functionally, then in the timing model, and checks every buffer argument ends the same
/// in both (issue 4: every kernel completes in timing mode with the functional results); panics
/// unless both completed. Unless the flags choose `core.divergence`, also runs functionally
/// under convergence barriers with round-robin splits and checks the buffers equal the SIMT
/// stack's (issue 15: both modes give identical results on the test suite's kernels). Returns
/// the functional run.
pub fn run_ok(ptx: &str, flags: &[&str]) -> Prepared {
    let p = run_functional_ok(ptx, flags);
    if !flags.iter().any(|f| f.contains("core.divergence")) {
        let mut barrier_flags = flags.to_vec();
        barrier_flags.extend([
            "--set",
            "core.divergence=convergence_barriers",
            "--set",
            "core.split_policy=round_robin",
        ]);
        let b = run_functional_ok(ptx, &barrier_flags);
        assert_same_buffers(&p, &b, "the SIMT stack", "convergence barriers");
    }
    let mut sim = prepare_flags(ptx, flags)
        .into_sim(&[])
        .unwrap_or_else(|e| panic!("sim: {e}"));
    sim.set_record_warp_states(false);
    sim.run(50_000_000);
    assert_eq!(
        sim.status(),
        &warpstep::sim::Status::Completed,
        "timing run did not complete"
    );
    for b in &p.image.buffers {
        let f = p.buffer_bytes(b.index).expect("functional buffer");
        let t =
            warpstep::run::buffer_bytes(sim.image(), sim.global(), b.index).expect("timing buffer");
        assert!(
            f == t,
            "buffer argument {} differs between functional and timing runs",
            b.index
        );
    }
    p
}

/// Panics unless every buffer argument of `a` and `b` holds the same bytes.
pub fn assert_same_buffers(a: &Prepared, b: &Prepared, a_name: &str, b_name: &str) {
    for buf in &a.image.buffers {
        assert!(
            a.buffer_bytes(buf.index) == b.buffer_bytes(buf.index),
            "buffer argument {} differs between {a_name} and {b_name}",
            buf.index
        );
    }
}

/// Runs functionally only; panics unless the kernel completed.
pub fn run_functional_ok(ptx: &str, flags: &[&str]) -> Prepared {
    let mut p = prepare_flags(ptx, flags);
    let report = p.run_functional(&[]).expect("run");
    assert!(
        report.completed,
        "kernel did not complete: {:?}",
        report.error
    );
    p
}

/// Runs functionally and returns the report (completed or not).
pub fn run_report(ptx: &str, flags: &[&str]) -> (Prepared, Report) {
    let mut p = prepare_flags(ptx, flags);
    let report = p.run_functional(&[]).expect("run");
    (p, report)
}

fn words<const N: usize>(p: &Prepared, index: usize) -> Vec<[u8; N]> {
    let bytes = p.buffer_bytes(index).expect("buffer argument");
    bytes
        .chunks_exact(N)
        .map(|c| c.try_into().expect("chunk"))
        .collect()
}

pub fn u32s(p: &Prepared, index: usize) -> Vec<u32> {
    words::<4>(p, index)
        .into_iter()
        .map(u32::from_le_bytes)
        .collect()
}

pub fn i32s(p: &Prepared, index: usize) -> Vec<i32> {
    words::<4>(p, index)
        .into_iter()
        .map(i32::from_le_bytes)
        .collect()
}

pub fn f32s(p: &Prepared, index: usize) -> Vec<f32> {
    words::<4>(p, index)
        .into_iter()
        .map(f32::from_le_bytes)
        .collect()
}

pub fn f64s(p: &Prepared, index: usize) -> Vec<f64> {
    words::<8>(p, index)
        .into_iter()
        .map(f64::from_le_bytes)
        .collect()
}

pub fn u8s(p: &Prepared, index: usize) -> Vec<u8> {
    p.buffer_bytes(index).expect("buffer argument")
}

/// A `list:` initialiser for `values`.
pub fn list<T: ToString>(values: &[T]) -> String {
    let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("list:{}", items.join(","))
}

/// Deterministic test data (xorshift64*), independent of warpstep's own generator.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [0, n).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A float with a few significant bits (sums of them are exact in f32).
    pub fn small_float(&mut self) -> f32 {
        (self.below(2048) as f32 - 1024.0) / 8.0
    }
}

/// Runs the timing model to completion (panics on failure) and returns the simulation.
pub fn run_timing(ptx: &str, flags: &[&str]) -> warpstep::sim::Sim {
    let p = prepare_flags(ptx, flags);
    let mut sim = p.into_sim(&[]).unwrap_or_else(|e| panic!("sim: {e}"));
    sim.run(50_000_000);
    assert_eq!(
        sim.status(),
        &warpstep::sim::Status::Completed,
        "timing run did not complete"
    );
    sim
}

/// Every buffer argument's bytes after a functional run and after a timing run of the same
/// launch, which must be equal.
pub fn assert_timing_matches_functional(ptx: &str, flags: &[&str]) -> warpstep::sim::Sim {
    let functional = run_functional_ok(ptx, flags);
    let sim = run_timing(ptx, flags);
    for b in &functional.image.buffers {
        let f = functional.buffer_bytes(b.index).expect("functional buffer");
        let t =
            warpstep::run::buffer_bytes(sim.image(), sim.global(), b.index).expect("timing buffer");
        assert!(
            f == t,
            "buffer argument {} differs between functional and timing runs",
            b.index
        );
    }
    sim
}

/// The 64 x 64 tile transpose of `kernels/transpose.cu` (`transpose_naive` or
/// `transpose_padded`: 4 CTAs of 32 x 32 threads) with `sets`, run in the timing model and
/// checked against the functional run.
pub fn transpose_64(kernel: &str, sets: &[&str]) -> warpstep::sim::Sim {
    let ptx = data("kernels/transpose.sm_52.ptx");
    let mut flags = transpose_64_flags(kernel);
    for s in sets {
        flags.extend(["--set", s]);
    }
    assert_timing_matches_functional(&ptx, &flags)
}

/// The launch flags of [`transpose_64`]'s kernel (`kernels/transpose.sm_52.ptx`).
pub fn transpose_64_flags(kernel: &str) -> Vec<&str> {
    vec![
        "--kernel",
        kernel,
        "--grid",
        "2,2",
        "--block",
        "32,32",
        "--arg",
        "f32[4096]=iota",
        "--arg",
        "f32[4096]=0",
        "--arg",
        "64",
        "--arg",
        "64",
    ]
}

/// The distance in units in the last place between two doubles of the same sign (NaNs
/// equal; `u64::MAX` across signs).
pub fn ulps(a: f64, b: f64) -> u64 {
    if a == b || (a.is_nan() && b.is_nan()) {
        return 0;
    }
    if a.is_sign_negative() != b.is_sign_negative() {
        return u64::MAX;
    }
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
}

/// The most CTAs resident at once on SM 0 during the first 200 cycles of the launch `flags`
/// give `ptx` (a grid long enough to fill it).
pub fn most_resident_ctas(ptx: &str, flags: &[&str]) -> usize {
    let mut sim = prepare_flags(ptx, flags).into_sim(&[]).expect("sim");
    let mut most = 0;
    for _ in 0..200 {
        sim.step();
        most = most.max(sim.sms()[0].ctas().iter().filter(|c| c.is_some()).count());
    }
    most
}
