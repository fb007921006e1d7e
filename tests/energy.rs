//! The energy model on a hand-counted kernel (issue 16, "Energy"; Unified §5.2, Tables 3-4;
//! docs/energy.md): tests/data/kernels/energy_count.ptx, one warp of 32 threads on the
//! `unified-micro12` preset (Unified Table 2's 256/64/64 KB partitioned SM), whose comments count
//! its register, shared-memory, L1D and DRAM accesses. The model must count the same, price them
//! by Table 4, and `warpstep run` must print them.

mod common;

use common::{data, prepare_flags};
use serde_json::Value;
use std::process::Command;
use warpstep::energy::{price, EnergyCounts};
use warpstep::sim::{Sim, Status};

const KERNEL: &str = "kernels/energy_count.ptx";

/// The counts the kernel's comments add up: 18 register reads and 14 writes of 8 bank
/// accesses; 8 shared rows stored and 8 loaded; an L1D fill (8 rows) and a hit (8 rows);
/// 128 bytes read from DRAM and 128 written.
const COUNTS: EnergyCounts = EnergyCounts {
    rf_reads: 144,
    rf_writes: 112,
    shared_reads: 8,
    shared_writes: 8,
    l1d_reads: 8,
    l1d_writes: 8,
    dram_bytes: 256,
    orf_reads: 0,
    orf_writes: 0,
    lrf_reads: 0,
    lrf_writes: 0,
};

/// Equal to within a part in 10^12.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

macro_rules! assert_close {
    ($a:expr, $b:expr) => {
        assert!(close($a, $b), "{} = {} != {}", stringify!($a), $a, $b)
    };
}

/// The kernel, prepared with its own `// warpstep:` line (and `flags` on top).
fn sim(flags: &[&str]) -> Sim {
    let mut sim = prepare_flags(&data(KERNEL), flags)
        .into_sim(&[])
        .expect("sim");
    sim.set_record_warp_states(false);
    sim
}

fn finished(flags: &[&str]) -> Sim {
    let mut s = sim(flags);
    s.run(1_000_000);
    assert_eq!(s.status(), &Status::Completed);
    s
}

#[test]
fn the_model_counts_what_the_kernel_does() {
    let s = finished(&[]);
    assert_eq!(s.energy_counts(), COUNTS);
    let out = warpstep::run::buffer_values(s.image(), s.global(), 1);
    let want: Vec<Value> = (0..32).map(|t| Value::from(2 * t + 1)).collect();
    assert_eq!(out, want, "out[t] = 2 in[t] + 1");
}

#[test]
fn partitioned_energy_by_table_4() {
    let s = finished(&[]);
    let e = s.energy();
    let cycles = s.cycle() as f64;
    assert!(!e.unified);
    // 144 x 9.8 + 112 x 11.8 = 1411.2 + 1321.6.
    assert_close!(e.register_file_pj, 2732.8);
    // 8 x 3.9 + 8 x 5.1, for shared memory and for the L1D alike.
    assert_close!(e.shared_memory_pj, 72.0);
    assert_close!(e.l1d_pj, 72.0);
    // 256 bytes x 8 bits x 40 pJ.
    assert_close!(e.dram_pj, 81_920.0);
    // 1 GHz: a cycle is a nanosecond. 384 KB x 2.37 mW, 1.9 W and 0.7 W, per ns.
    assert_close!(e.time_ns, cycles);
    assert_close!(e.sram_kb_per_sm, 384.0);
    assert_close!(e.sram_leakage_pj, 910.08 * cycles);
    assert_close!(e.sm_dynamic_pj, 1900.0 * cycles);
    assert_close!(e.core_leakage_pj, 700.0 * cycles);
    let total = 2732.8 + 72.0 + 72.0 + 81_920.0 + (910.08 + 1900.0 + 700.0) * cycles;
    assert_close!(e.total_pj, total);
    assert_eq!(
        s.stats().energy,
        Some(e),
        "the statistics carry the same report"
    );
}

#[test]
fn the_same_counts_priced_unified() {
    // Pricing reads only the configuration: price the partitioned run's counts as the 384 KB
    // unified design (a unified run would also change the counts: tests/unified_memory.rs).
    let s = finished(&[]);
    let mut config = s.config().clone();
    config.unified.enabled = true;
    let e = price(&config, &s.energy_counts(), s.cycle());
    assert!(e.unified);
    // 144 x 12.1 + 112 x 14.9 = 1742.4 + 1668.8.
    assert_close!(e.register_file_pj, 3411.2);
    // (8 x 12.1 + 8 x 14.9) x 1.1 = 216 x 1.1.
    assert_close!(e.shared_memory_pj, 237.6);
    assert_close!(e.l1d_pj, 237.6);
    assert_close!(e.dram_pj, 81_920.0);
    // Equal capacity (384 KB): the same leakage as partitioned.
    assert_close!(e.sram_leakage_pj, s.energy().sram_leakage_pj);
}

#[test]
fn energy_grows_every_cycle_from_zero() {
    let mut s = sim(&[]);
    let mut last = s.energy();
    assert_eq!(last.total_pj, 0.0);
    while !s.finished() {
        s.step();
        let now = s.energy();
        for ((name, before), (_, after)) in last.parts().iter().zip(now.parts()) {
            assert!(after >= *before, "{name} fell at cycle {}", s.cycle());
        }
        assert!(now.total_pj > last.total_pj, "cycle {}", s.cycle());
        last = now;
    }
    assert_eq!(last.counts, COUNTS);
}

#[test]
fn energy_keys_set_on_the_command_line_are_read() {
    let s = finished(&[
        "--set",
        "energy.dram_pj_per_bit=20",
        "--set",
        "energy.rf_read_pj=1",
        "--set",
        "energy.frequency_ghz=2",
    ]);
    let e = s.energy();
    assert_close!(e.dram_pj, 40_960.0);
    assert_close!(e.register_file_pj, 144.0 + 1321.6);
    assert_close!(e.time_ns, s.cycle() as f64 / 2.0);
    assert_close!(e.sm_dynamic_pj, 950.0 * s.cycle() as f64);
}

fn warpstep(args: &[&str]) -> std::process::Output {
    let o = Command::new(env!("CARGO_BIN_EXE_warpstep"))
        .args(args)
        .output()
        .expect("run warpstep");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

#[test]
fn run_json_has_the_energy_object() {
    let file = format!("{}/tests/data/{KERNEL}", env!("CARGO_MANIFEST_DIR"));
    let o = warpstep(&["run", &file, "--json"]);
    let report: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let e = &report["energy"];
    let cycles = report["cycles"].as_f64().expect("cycles");
    let parts = [
        ("register_file_pj", 2732.8),
        ("shared_memory_pj", 72.0),
        ("l1d_pj", 72.0),
        ("dram_pj", 81_920.0),
        ("sram_leakage_pj", 910.08 * cycles),
        ("sm_dynamic_pj", 1900.0 * cycles),
        ("core_leakage_pj", 700.0 * cycles),
    ];
    let mut sum = 0.0;
    for (name, want) in parts {
        let got = e[name]
            .as_f64()
            .unwrap_or_else(|| panic!("energy.{name}: {e}"));
        assert!(close(got, want), "energy.{name} = {got}, want {want}");
        sum += want;
    }
    assert!(close(e["total_pj"].as_f64().expect("total_pj"), sum));
    assert_eq!(
        e["counts"],
        serde_json::to_value(COUNTS).expect("counts"),
        "{e}"
    );
    assert_eq!(e["unified"], Value::Bool(false));
    assert_eq!(e["sram_kb_per_sm"].as_f64(), Some(384.0));

    // The text summary: one line with the total and every part.
    let o = warpstep(&["run", &file]);
    let text = String::from_utf8_lossy(&o.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("energy "))
        .unwrap_or_else(|| panic!("no energy line in:\n{text}"));
    for part in [
        "register file 2.7 nJ",
        "shared memory 0.1 nJ",
        "L1D 0.1 nJ",
        "DRAM 81.9 nJ",
        "SRAM leakage",
        "SM dynamic",
        "core leakage",
        "(partitioned)",
    ] {
        assert!(line.contains(part), "{part:?} not in {line:?}");
    }

    // A functional run has no timing, so no energy.
    let o = warpstep(&["run", &file, "--functional", "--json"]);
    let report: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert!(report.get("energy").is_none());
}
