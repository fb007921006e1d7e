//! The unified memory experiment (issue 16; `warpstep experiment unified`,
//! `warpstep::experiment::unified`): its plan, its host programs (several launches with the
//! buffers carried between them, each checked against a Rust reference) and its report's
//! arithmetic (normalisation to the partitioned run, SM dynamic energy at the partitioned run's
//! time, MICRO'12 §5.2), on the tests' small inputs.

use warpstep::config::Config;
use warpstep::experiment::host::{Arg, Device};
use warpstep::experiment::unified::{
    plan, select, Design, Measured, Report, Size, UnifiedRun, Workload, PRESET,
};
use warpstep::launch::Dim3;

#[test]
fn the_plan_runs_every_workload_in_every_design_on_valid_configurations() {
    let runs = plan(&Workload::ALL, Size::Quick);
    assert_eq!(runs.len(), Workload::ALL.len() * Design::ALL.len());
    for run in &runs {
        let config = Config::preset(PRESET)
            .and_then(|c| c.with_overrides(&run.design.sets()))
            .unwrap_or_else(|e| panic!("{}: {e}", run.title()));
        config.check_supported().unwrap();
        let pooled = run.design != run.design.baseline();
        assert_eq!(config.unified.enabled, pooled, "{}", run.title());
        assert_eq!(
            config.regfile.hierarchy,
            run.design.hierarchy(),
            "{}",
            run.title()
        );
    }
    let sets = Design::Unified256.sets();
    assert!(sets.contains(&"unified.capacity_bytes=262144".to_string()));
    assert!(Design::Unified384NoArbitration
        .sets()
        .contains(&"unified.arbitration=false".to_string()));
    assert_eq!(select(&["bfs".to_string()]).unwrap(), vec![Workload::Bfs]);
    let err = select(&["lud".to_string()]).unwrap_err();
    assert!(err.contains("lud") && err.contains("needle16"), "{err}");
}

fn execute(workload: Workload, design: Design) -> Measured {
    let m = UnifiedRun {
        workload,
        design,
        size: Size::Quick,
    }
    .execute();
    assert_eq!(m.error, None, "{} in {}", workload.name(), design.label());
    m
}

#[test]
fn needle_runs_its_launch_sequence_in_table_1s_partition() {
    // Length 128 in 32 x 32 tiles: 4 growing diagonals, 3 shrinking ones. The answer is checked
    // inside the run (an error otherwise).
    let partitioned = execute(Workload::Needle, Design::Partitioned);
    assert_eq!(partitioned.totals.launches, 7);
    assert_eq!(partitioned.totals.partition, None);
    let unified = execute(Workload::Needle, Design::Unified384);
    assert_eq!(unified.totals.launches, 7);
    let p = unified.totals.partition.as_ref().unwrap();
    // Table 1: 18 registers and 264.1 shared bytes a thread -> 1024 threads, RF 72 KB.
    assert_eq!((p.threads, p.registers_kb), (1024, 72.0));
    assert!((p.shared_kb - 264.1).abs() < 0.05, "{}", p.shared_kb);
    assert!(unified.totals.arbitration_conflicts > 0);
    // Same work, same instructions, whatever the storage.
    assert_eq!(
        unified.totals.warp_instructions,
        partitioned.totals.warp_instructions
    );

    // The padded ablation scores the same matrix (checked inside the run) with fewer conflicts.
    let padded = execute(Workload::NeedlePadded, Design::Partitioned);
    assert_eq!(padded.totals.launches, 7);
    assert!(padded.totals.cycles < partitioned.totals.cycles);

    let runs = [Design::Partitioned, Design::Unified384].map(|design| UnifiedRun {
        workload: Workload::Needle,
        design,
        size: Size::Quick,
    });
    let report = Report::new(
        &[Workload::Needle],
        Size::Quick,
        &runs,
        &[partitioned.clone(), unified.clone()],
    );
    // Every design must be there.
    assert!(report.unwrap_err().contains("unified 128 KB"));
}

#[test]
fn the_report_normalises_to_the_partitioned_run_and_prices_sm_dynamic_energy_at_its_time() {
    let designs = Design::ALL;
    let runs: Vec<UnifiedRun> = designs
        .iter()
        .map(|&design| UnifiedRun {
            workload: Workload::Dgemm,
            design,
            size: Size::Quick,
        })
        .collect();
    let measured: Vec<Measured> = runs.iter().map(|r| execute(r.workload, r.design)).collect();
    let report = Report::new(&[Workload::Dgemm], Size::Quick, &runs, &measured).unwrap();
    assert!(report.incomplete.is_empty());
    let w = &report.workloads[0];
    let base = w.result(Design::Partitioned).unwrap();
    assert_eq!(base.performance, 1.0);
    assert_eq!(base.energy_ratio, 1.0);
    for r in &w.designs {
        // Each design over the partitioned one with the same register file.
        let base = w.result(r.design.baseline()).unwrap();
        let want = base.totals.cycles as f64 / r.totals.cycles as f64;
        assert!((r.performance - want).abs() < 1e-12, "{:?}", r.design);
        // §5.2: the SM's dynamic energy is the partitioned run's in every design.
        assert_eq!(r.energy.sm_dynamic_pj, base.energy.sm_dynamic_pj);
        let parts: f64 = r.energy.parts().iter().map(|(_, v)| v).sum();
        assert!((parts - r.energy.total_pj).abs() < 1e-6 * parts);
    }
    // 1.9 W for the partitioned run's cycles at 1 GHz.
    let want = 1.9 * base.totals.cycles as f64 * 1000.0;
    assert!((base.energy.sm_dynamic_pj - want).abs() < 1e-6 * want);
    // dgemm's 72 registers: 256 KB of registers hold 14 CTAs of 64 threads; 384 KB unified
    // holds 16 (1024 threads, 288 KB of registers), 128 KB only 6.
    let threads = |d: Design| {
        w.result(d)
            .unwrap()
            .totals
            .partition
            .as_ref()
            .unwrap()
            .threads
    };
    assert_eq!(threads(Design::Unified384), 1024);
    assert_eq!(threads(Design::Unified128), 384);
    let off = w.result(Design::Unified384NoArbitration).unwrap();
    assert_eq!(off.totals.arbitration_conflicts, 0);
    // The register file hierarchy: fewer MRF reads, ORF and LRF reads priced, fewer conflicts.
    let rfh = w.result(Design::Unified384Hierarchy).unwrap();
    let plain = w.result(Design::Unified384).unwrap();
    assert!(rfh.totals.energy_counts.rf_reads < plain.totals.energy_counts.rf_reads);
    assert!(rfh.energy.register_hierarchy_pj > 0.0);
    assert_eq!(plain.energy.register_hierarchy_pj, 0.0);
    assert!(rfh.totals.arbitration_conflicts < plain.totals.arbitration_conflicts);
    assert!(
        w.result(Design::Unified384)
            .unwrap()
            .totals
            .arbitration_conflicts
            > 0
    );
}

#[test]
fn bfs_runs_until_a_level_finds_nothing_new() {
    let m = execute(Workload::Bfs, Design::Unified256);
    // Two kernels a level; the answer (each node's distance) is checked inside the run.
    assert_eq!(m.totals.launches % 2, 0);
    assert!(m.totals.launches >= 8, "{}", m.totals.launches);
    let p = m.totals.partition.unwrap();
    // Table 1's 9 registers: 1024 threads, 36 KB of registers, the rest (220 KB) cache.
    assert_eq!((p.threads, p.registers_kb, p.cache_kb), (1024, 36.0, 220.0));
}

#[test]
fn a_launch_that_cannot_run_is_an_error_naming_the_kernel() {
    let ptx = include_str!("data/kernels/unified.sm_52.ptx");
    let mut device = Device::new(ptx, PRESET, &[], None);
    device.upload_i32("out", &[0; 256]);
    let err = device
        .launch(
            "no_such_kernel",
            Dim3::linear(1),
            256,
            &[Arg::Buffer("out")],
        )
        .unwrap_err();
    assert!(err.contains("no_such_kernel"), "{err}");
    let err = device
        .launch(
            "cache_gather",
            Dim3::linear(1),
            256,
            &[Arg::Buffer("missing")],
        )
        .unwrap_err();
    assert!(err.contains("no device buffer missing"), "{err}");
    assert_eq!(device.totals().launches, 0);
}
