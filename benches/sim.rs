//! Criterion benchmarks, the whole kernel per iteration, throughput per simulated cycle:
//! - `fermi`: the standard set (`warpstep::bench::STANDARD`) on one SM;
//! - `gtx480_15sm`: the GPGPU-Sim reference cases on the whole 15-SM GTX480
//!   (`warpstep::correlate`), where every cycle steps 15 SMs and the memory system.

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use std::time::{Duration, Instant};
use warpstep::bench::{simulation, STANDARD};
use warpstep::config::Config;
use warpstep::correlate::{self, reference};
use warpstep::sim::Sim;

/// Runs a simulation to the end without the views' per-warp classification; its cycles.
fn run_to_end(mut sim: Sim) -> u64 {
    sim.set_record_warp_states(false);
    sim.run(u64::MAX);
    sim.cycle()
}

fn standard_set(c: &mut Criterion) {
    let mut group = c.benchmark_group("fermi");
    group.sample_size(10);
    for case in STANDARD {
        let build = || simulation(case, "fermi", &[]).expect("benchmark case");
        group.throughput(Throughput::Elements(run_to_end(build())));
        group.bench_function(case.name, |b| b.iter(|| run_to_end(build())));
    }
    group.finish();
}

/// The 15-SM reference runs take up to seconds each: flat sampling, and a measurement time of
/// eight runs (criterion then runs one per sample, ten samples).
fn gtx480_15sm(c: &mut Criterion) {
    let base = Config::preset("fermi").expect("fermi preset");
    let mut group = c.benchmark_group("gtx480_15sm");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for case in reference().cases.iter().filter(|c| c.sms == 15) {
        let build = || correlate::simulation(case, &base, &[]).expect("reference case");
        let start = Instant::now();
        let cycles = run_to_end(build());
        let one_run = start.elapsed();
        group.throughput(Throughput::Elements(cycles));
        group.measurement_time((one_run * 8).max(Duration::from_secs(5)));
        group.bench_function(case.name.as_str(), |b| b.iter(|| run_to_end(build())));
    }
    group.finish();
}

criterion_group!(benches, standard_set, gtx480_15sm);
criterion_main!(benches);
