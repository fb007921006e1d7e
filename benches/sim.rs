//! Criterion benchmark of the standard set (`warpstep::bench::STANDARD`) on the fermi preset:
//! the whole kernel per iteration. Throughput is reported per simulated cycle.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use warpstep::bench::{simulation, STANDARD};

fn standard_set(c: &mut Criterion) {
    let mut group = c.benchmark_group("fermi");
    group.sample_size(10);
    for case in STANDARD {
        let cycles = {
            let mut sim = simulation(case, "fermi", &[]).expect("benchmark case");
            sim.set_record_warp_states(false);
            sim.run(u64::MAX);
            sim.cycle()
        };
        group.throughput(Throughput::Elements(cycles));
        group.bench_function(case.name, |b| {
            b.iter(|| {
                let mut sim = simulation(case, "fermi", &[]).expect("benchmark case");
                sim.set_record_warp_states(false);
                sim.run(u64::MAX);
                sim.cycle()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, standard_set);
criterion_main!(benches);
