//! Per-SM statistics (issue 12): on a 2-SM GPU each SM's share of the instructions, CTAs, L1D
//! counters and bank-conflict cycles adds up to the totals, and `warpstep run` reports the shares
//! (`per_sm` in `--json`, a line per SM in the summary).

use serde_json::Value;
use std::process::Command;
use warpstep::bench::{simulation, STANDARD};
use warpstep::sim::{PerSmStats, SimStats, Status};

/// The statistics of standard benchmark case `name` run to the end on a 2-SM `fermi`.
fn two_sm_stats(name: &str) -> SimStats {
    let case = STANDARD
        .iter()
        .find(|c| c.name == name)
        .expect("a standard case");
    let mut sim = simulation(case, "fermi", &["num_sms=2".to_string()]).expect("prepares");
    sim.set_record_warp_states(false);
    sim.run(10_000_000);
    assert_eq!(sim.status(), &Status::Completed, "{name}");
    sim.stats()
}

fn sum(per_sm: &[PerSmStats], field: impl Fn(&PerSmStats) -> u64) -> u64 {
    per_sm.iter().map(field).sum()
}

fn assert_shares_add_up(name: &str, total: &SimStats, ctas: u64) {
    let per = &total.per_sm;
    assert_eq!(per.len(), 2, "{name}: one share per SM");
    assert_eq!(per[0].sm, 0);
    assert_eq!(per[1].sm, 1);
    assert!(per.iter().all(|s| s.ctas > 0), "{name}: both SMs ran CTAs");
    assert_eq!(sum(per, |s| s.ctas), ctas, "{name}: CTAs");
    assert_eq!(
        sum(per, |s| s.warp_instructions),
        total.warp_instructions,
        "{name}: warp instructions"
    );
    assert_eq!(
        sum(per, |s| s.thread_instructions),
        total.thread_instructions,
        "{name}: thread instructions"
    );
    let ipc: f64 = per.iter().map(|s| s.ipc).sum();
    assert!(
        (ipc - total.ipc).abs() < 1e-9,
        "{name}: IPC {ipc} vs {}",
        total.ipc
    );
    let mut l1d = warpstep::mem::L1dStats::default();
    for s in per {
        l1d.add(&s.l1d);
    }
    assert_eq!(l1d, total.l1d, "{name}: L1D counters");
    assert_eq!(
        sum(per, |s| s.bank_conflict_cycles),
        total.shared.bank_conflict_cycles,
        "{name}: bank-conflict cycles"
    );
}

#[test]
fn per_sm_shares_add_up_to_the_totals_on_two_sms() {
    // transpose_naive: 16 CTAs with 32-way bank conflicts; vector_add: 48 CTAs of streaming
    // global loads and stores through the L1D.
    let transpose = two_sm_stats("transpose_naive");
    assert!(transpose.shared.bank_conflict_cycles > 0);
    assert_shares_add_up("transpose_naive", &transpose, 16);
    let vector_add = two_sm_stats("vector_add");
    assert!(vector_add.l1d.accesses > 0);
    assert_shares_add_up("vector_add", &vector_add, 48);
}

/// `warpstep run` on the 16-CTA transpose of `tests/data/kernels` with `extra` flags.
fn run_transpose(extra: &[&str]) -> std::process::Output {
    let ptx = format!(
        "{}/tests/data/kernels/transpose.sm_52.ptx",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut args = vec![
        "run",
        ptx.as_str(),
        "--kernel",
        "transpose_naive",
        "--grid",
        "4,4",
        "--block",
        "32,32",
        "--arg",
        "f32[16384]=iota",
        "--arg",
        "f32[16384]=0",
        "--arg",
        "128",
        "--arg",
        "128",
    ];
    args.extend_from_slice(extra);
    let out = Command::new(env!("CARGO_BIN_EXE_warpstep"))
        .args(&args)
        .output()
        .expect("runs warpstep");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn run_reports_each_sm_in_json_and_in_the_summary() {
    let json = run_transpose(&["--set", "num_sms=2", "--json"]);
    let v: Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let per_sm = v["per_sm"].as_array().expect("per_sm array");
    assert_eq!(per_sm.len(), 2);
    let ctas: u64 = per_sm.iter().map(|s| s["ctas"].as_u64().unwrap()).sum();
    assert_eq!(ctas, 16);
    let accesses: u64 = per_sm
        .iter()
        .map(|s| s["l1d"]["accesses"].as_u64().unwrap())
        .sum();
    assert_eq!(accesses, v["l1d"]["accesses"].as_u64().unwrap());

    let two = String::from_utf8_lossy(&run_transpose(&["--set", "num_sms=2"]).stdout).into_owned();
    let header = two
        .lines()
        .position(|l| l.contains("CTAs") && l.contains("bank conflict"))
        .unwrap_or_else(|| panic!("a per-SM table in:\n{two}"));
    let rows: Vec<&str> = two.lines().skip(header + 1).take(2).collect();
    assert!(rows[0].trim_start().starts_with("0 "), "{two}");
    assert!(rows[1].trim_start().starts_with("1 "), "{two}");

    let one = String::from_utf8_lossy(&run_transpose(&[]).stdout).into_owned();
    assert!(!one.contains("CTAs"), "no per-SM table with one SM:\n{one}");
}

/// The CTA dispatcher visits every SM once per cycle, round-robin (MODEL.md section 1; GPGPU-Sim's
/// `issue_block2core`): a grid of two CTAs per SM on the 15-SM `gtx480` gives each SM two.
#[test]
fn ctas_spread_round_robin_over_fifteen_sms() {
    let case = STANDARD
        .iter()
        .find(|c| c.name == "vector_add")
        .expect("a standard case");
    let sets = ["num_sms=15".to_string()];
    let mut sim = simulation(case, "fermi", &sets).expect("prepares");
    sim.set_record_warp_states(false);
    sim.run(10_000_000);
    assert_eq!(sim.status(), &Status::Completed);
    let per: Vec<u64> = sim.stats().per_sm.iter().map(|s| s.ctas).collect();
    // vector_add's 48 CTAs: 3 per SM, and SMs 0-2 take the 3 left over (the first three places
    // of the first round).
    let want: Vec<u64> = (0..15).map(|i| if i < 3 { 4 } else { 3 }).collect();
    assert_eq!(per, want);
}

/// The operand collector's register bank conflicts reach the SM's statistics (book §3.3.1):
/// on reduction some operands find their bank busy, and fewer with more banks.
#[test]
fn register_bank_conflicts_are_counted() {
    let case = STANDARD
        .iter()
        .find(|c| c.name == "reduction")
        .expect("a standard case");
    let mut sim = simulation(case, "fermi", &["num_sms=1".to_string()]).expect("prepares");
    sim.run(10_000_000);
    assert_eq!(sim.status(), &Status::Completed);
    let conflicts = sim.sms()[0].stats().register_bank_conflicts;
    assert!(conflicts > 0, "{conflicts}");
    let none = simulation(
        case,
        "fermi",
        &["num_sms=1".into(), "regfile.reg_banks=64".into()],
    );
    let mut none = none.expect("prepares");
    none.run(10_000_000);
    assert!(none.sms()[0].stats().register_bank_conflicts < conflicts);
}
