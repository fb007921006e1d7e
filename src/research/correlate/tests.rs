//! The reference data, case selection, ratios, summary and tables on fixed numbers (no
//! simulation: the integration test `tests/correlate_cli.rs` runs one).

use super::table::{markdown, number_text, rate_text, summary_line, text, thousands, wall_text};
use super::*;
use crate::mem::l2::L2Stats;

#[test]
fn the_embedded_reference_has_eight_runs_of_five_kernels() {
    let set = reference();
    assert_eq!(set.preset, "fermi");
    let cases = set.cases;
    assert_eq!(cases.len(), 8);
    assert_eq!(
        case_names(&cases),
        [
            "saxpy",
            "transpose_naive",
            "transpose_padded",
            "stride_loop_1",
            "stride_loop_32"
        ]
    );
    for name in case_names(&cases) {
        let sms: Vec<u32> = cases
            .iter()
            .filter(|c| c.name == name)
            .map(|c| c.sms)
            .collect();
        // The stride loops are one CTA: GPGPU-Sim gives the same numbers on 1 and 15 SMs.
        let expected: &[u32] = match name.starts_with("stride_loop") {
            true => &[1],
            false => &REFERENCE_SMS,
        };
        assert_eq!(sms, expected, "{name}");
    }
    for c in &cases {
        let ptx = c.ptx_text().unwrap_or_else(|| panic!("{}: PTX", c.title()));
        assert!(
            ptx.contains(&format!(".entry {}(", c.kernel)),
            "{}",
            c.title()
        );
        assert!(LaunchFlags::parse_tokens(&c.flags).is_ok(), "{}", c.title());
    }
    let saxpy = &cases[0];
    assert_eq!(saxpy.gpgpusim.cycles, 27_283);
    assert_eq!(saxpy.gpgpusim.l1d_accesses, Some(6_144));
    assert_eq!(saxpy.gpgpusim.wall_seconds, Some(WallSeconds::One(1.88)));
    assert_eq!(cases[1].gpgpusim.wall_seconds, None);
    assert_eq!(
        cases[4].gpgpusim.wall_seconds,
        Some(WallSeconds::Range([30.0, 31.5]))
    );
    // The stride loops' record has cycles, thread instructions and bank conflicts only.
    let stride = &cases[7].gpgpusim;
    assert_eq!((stride.cycles, stride.bank_conflict_cycles), (7_787, 4_030));
    assert_eq!(
        (stride.warp_instructions, stride.l1d_accesses),
        (None, None)
    );
}

#[test]
fn select_filters_by_name_and_sm_count_and_names_a_bad_flag() {
    let cases = reference().cases;
    let titles = |names: &[&str], sms| -> Vec<String> {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        select(&cases, &names, sms)
            .unwrap()
            .iter()
            .map(ReferenceCase::title)
            .collect()
    };
    assert_eq!(titles(&["saxpy"], Some(1)), ["saxpy, 1 SM"]);
    assert_eq!(
        titles(&[], Some(15)),
        [
            "saxpy, 15 SMs",
            "transpose_naive, 15 SMs",
            "transpose_padded, 15 SMs"
        ]
    );
    assert_eq!(titles(&["transpose_padded", "saxpy"], None).len(), 4);
    assert_eq!(titles(&[], None).len(), 8);
    assert_eq!(titles(&["stride_loop_32"], Some(15)).len(), 0);

    let bad_name = select(&cases, &["sgemm".to_string()], None).unwrap_err();
    assert!(bad_name.starts_with("--case sgemm:"), "{bad_name}");
    assert!(bad_name.contains("transpose_naive"), "{bad_name}");
    let bad_sms = select(&cases, &[], Some(4)).unwrap_err();
    assert!(bad_sms.starts_with("--sms 4:"), "{bad_sms}");
}

#[test]
fn user_sets_may_change_anything_but_num_sms() {
    assert!(check_user_sets(&["core.scheduler=lrr".to_string()]).is_ok());
    let e = check_user_sets(&["num_sms=4".to_string()]).unwrap_err();
    assert!(e.starts_with("--set num_sms=4:"), "{e}");
}

#[test]
fn ratio_is_warpstep_over_reference_and_one_when_both_are_zero() {
    assert_eq!(ratio(3.0, 2.0), Some(1.5));
    assert_eq!(ratio(0.0, 0.0), Some(1.0));
    assert_eq!(ratio(5.0, 0.0), None);
    assert!(within_tolerance(Some(1.05)));
    assert!(within_tolerance(Some(0.95)));
    assert!(!within_tolerance(Some(1.06)));
    assert!(!within_tolerance(Some(0.94)));
    assert!(!within_tolerance(None));
}

/// GPGPU-Sim's numbers: 1,000 cycles, 64,000 thread instructions (IPC 64), 100 L1D accesses.
fn gpgpusim(bank_conflict_cycles: u64, wall: Option<WallSeconds>) -> GpgpuSimNumbers {
    GpgpuSimNumbers {
        cycles: 1_000,
        thread_instructions: 64_000,
        warp_instructions: Some(2_000),
        l1d_accesses: Some(100),
        l1d_misses: Some(50),
        bank_conflict_cycles,
        wall_seconds: wall,
    }
}

fn case(name: &str, sms: u32, gpgpusim: GpgpuSimNumbers) -> ReferenceCase {
    ReferenceCase {
        name: name.to_string(),
        source: "k.cu".to_string(),
        ptx: "k.ptx".to_string(),
        kernel: "_Z1kv".to_string(),
        flags: Vec::new(),
        sms,
        gpgpusim,
    }
}

/// warpstep's statistics: `cycles` cycles, 64,000 thread instructions, `l1d` L1D accesses.
fn measured(cycles: u64, l1d: u64, bank_conflict_cycles: u64, wall_seconds: f64) -> Measured {
    let mut stats = SimStats {
        cycles,
        warp_instructions: 2_000,
        thread_instructions: 64_000,
        ipc: 64_000.0 / cycles as f64,
        ..SimStats::default()
    };
    stats.l1d.accesses = l1d;
    stats.l1d.misses = 50;
    stats.l2 = L2Stats {
        accesses: 200,
        hits: 150,
        misses: 50,
    };
    stats.dram.reads = 1_600;
    stats.dram.writes = 0;
    stats.shared.bank_conflict_cycles = bank_conflict_cycles;
    Measured {
        stats,
        error: None,
        wall_seconds,
        sampled: None,
    }
}

#[test]
fn a_case_sets_each_counter_beside_gpgpusims_with_its_ratio() {
    let c = case("k", 1, gpgpusim(0, Some(WallSeconds::One(2.0))));
    let r = CaseReport::new(&c, &measured(1_250, 100, 0, 0.5));
    let keys: Vec<&str> = r.metrics.0.iter().map(|m| m.key).collect();
    assert_eq!(
        keys,
        [
            "cycles",
            "ipc",
            "warp_instructions",
            "thread_instructions",
            "l1d_accesses",
            "l1d_misses",
            "l2_accesses",
            "l2_misses",
            "dram_reads",
            "dram_writes",
            "bank_conflict_cycles"
        ]
    );
    let m = |k: &str| r.metrics.get(k).unwrap().clone();
    assert_eq!(m("cycles").ratio, Some(1.25));
    assert_eq!(m("ipc").gpgpusim, Some(Number::Rate(64.0)));
    assert_eq!(m("ipc").ratio, Some(0.8));
    assert!(m("l1d_accesses").identical());
    assert_eq!(m("l2_accesses").gpgpusim, None);
    assert_eq!(m("l2_accesses").ratio, None);
    assert_eq!(m("bank_conflict_cycles").ratio, Some(1.0));
    assert_eq!(r.cycles(), (1_250, 1_000));
    assert_eq!(r.speed.warpstep_cycles_per_second, 2_500.0);
    assert_eq!(r.speed.warpstep_warp_instructions_per_second, 4_000.0);
    assert_eq!(r.speed.gpgpusim_cycles_per_second, Some(500.0));
    assert_eq!(r.speed.speedup, Some(4.0));
}

#[test]
fn the_json_keys_each_counter_by_name() {
    let c = case("k", 1, gpgpusim(0, None));
    let r = CaseReport::new(&c, &measured(1_000, 100, 0, 1.0));
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["metrics"]["cycles"]["warpstep"], 1_000);
    assert_eq!(v["metrics"]["cycles"]["gpgpusim"], 1_000);
    assert_eq!(v["metrics"]["cycles"]["ratio"], 1.0);
    assert_eq!(
        v["metrics"]["l2_accesses"]["gpgpusim"],
        serde_json::Value::Null
    );
    assert_eq!(v["speed"]["gpgpusim_seconds"], serde_json::Value::Null);
    let range = serde_json::to_value(WallSeconds::Range([30.0, 31.5])).unwrap();
    assert_eq!(range, serde_json::json!([30.0, 31.5]));
}

/// Three cases: cycles within 5% (1.05, on the line), outside (1.2), and a bank-conflict and L1D
/// mismatch.
fn three_case_report() -> Report {
    let within = CaseReport::new(
        &case("a", 1, gpgpusim(0, Some(WallSeconds::One(1.88)))),
        &measured(1_050, 100, 0, 0.047),
    );
    let outside = CaseReport::new(
        &case("a", 15, gpgpusim(0, None)),
        &measured(1_200, 100, 0, 0.25),
    );
    let differ = CaseReport::new(
        &case(
            "b",
            1,
            gpgpusim(960, Some(WallSeconds::Range([30.0, 31.5]))),
        ),
        &measured(950, 120, 992, 12.5),
    );
    Report::new("fermi", &[], vec![within, outside, differ])
}

#[test]
fn a_counter_gpgpusim_did_not_record_is_left_out_of_the_identical_counts() {
    let mut numbers = gpgpusim(0, None);
    numbers.l1d_accesses = None;
    let unrecorded = CaseReport::new(&case("c", 1, numbers), &measured(1_000, 7, 0, 0.01));
    let mut cases = three_case_report().cases;
    cases.push(unrecorded);
    let s = Summary::of(&cases);
    assert_eq!((s.l1d_accesses_identical, s.l1d_accesses_compared), (2, 3));
    assert_eq!(s.l1d_accesses_differ, ["b, 1 SM"]);
    assert_eq!(s.bank_conflict_cycles_compared, 4);
    assert!(
        summary_line(&s)
            .contains("L1D accesses identical in 2 of the 3 GPGPU-Sim counted (not b, 1 SM)"),
        "{}",
        summary_line(&s)
    );
}

#[test]
fn the_summary_counts_cases_within_tolerance_and_identical_counters() {
    let s = three_case_report().summary;
    assert_eq!(s.cases, 3);
    assert_eq!(s.completed, 3);
    assert_eq!(s.cycles_within_tolerance, 2);
    assert_eq!(s.l1d_accesses_identical, 2);
    assert_eq!(s.l1d_accesses_differ, ["b, 1 SM"]);
    assert_eq!(s.bank_conflict_cycles_identical, 2);
    assert_eq!(
        summary_line(&s),
        "2 of 3 cases within 5% of GPGPU-Sim's cycles; L1D accesses identical in 2 of 3 (not b, 1 SM); bank-conflict cycles identical in 2 of 3 (not b, 1 SM)"
    );
}

#[test]
fn a_case_that_did_not_complete_is_not_within_tolerance() {
    let mut m = measured(1_000, 100, 0, 1.0);
    m.error = Some("deadlock".to_string());
    let r = Report::new(
        "fermi",
        &[],
        vec![CaseReport::new(&case("a", 1, gpgpusim(0, None)), &m)],
    );
    assert_eq!(r.summary.cycles_within_tolerance, 0);
    assert!(summary_line(&r.summary).ends_with("; 1 of 1 did not complete"));
    assert!(text(&r).contains("  did not complete: deadlock\n"));
}

#[test]
fn the_text_shows_a_block_per_case_and_the_summary() {
    let t = text(&three_case_report());
    assert!(t.starts_with("warpstep "), "{t}");
    assert!(t.contains("\na, 1 SM (_Z1kv in k.ptx)\n"), "{t}");
    assert!(t.contains("\na, 15 SMs (_Z1kv in k.ptx)\n"), "{t}");
    let line = |label: &str, case: usize| -> String {
        t.split("\n\n")
            .nth(case + 1)
            .and_then(|block| block.lines().find(|l| l.trim_start().starts_with(label)))
            .unwrap_or_else(|| panic!("{label} in case {case}:\n{t}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(line("cycles", 0), "cycles 1,050 1,000 1.05");
    assert_eq!(line("IPC", 0), "IPC 60.95 64.00 0.95");
    assert_eq!(line("L2 accesses", 0), "L2 accesses 200 - -");
    assert_eq!(line("wall time", 0), "wall time 0.047 s 1.88 s 40x faster");
    assert_eq!(line("wall time", 1), "wall time 0.250 s - -");
    assert_eq!(
        line("wall time", 2),
        "wall time 12.5 s 30.0-31.5 s 2.5x faster"
    );
    assert_eq!(
        line("warpstep:", 0),
        "warpstep: 22.3 k cycles/s, 42.6 k warp instrs/s; GPGPU-Sim: 532 cycles/s"
    );
    assert!(t.ends_with(&format!(
        "summary: {}\n",
        summary_line(&three_case_report().summary)
    )));
}

#[test]
fn the_markdown_has_a_row_per_case() {
    let md = markdown(&three_case_report());
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| ")).collect();
    assert_eq!(rows.len(), 4, "header and three cases:\n{md}");
    assert!(md.contains("|---|--:|"), "{md}");
    assert_eq!(
        rows[1],
        "| a | 1 | 1,050 / 1,000 (1.05) | 60.95 / 64.00 (0.95) | 100 / 100 (1.00) | 50 / 50 (1.00) | 0 / 0 (1.00) | 200 / 50 | 1,600 / 0 | 0.047 s / 1.88 s | 22.3 k, 42.6 k |"
    );
    assert!(
        rows[2].ends_with("| 0.250 s / - | 4.8 k, 8.0 k |"),
        "{}",
        rows[2]
    );
    assert!(md.contains("\n**Summary:** 2 of 3 cases within 5%"), "{md}");
}

#[test]
fn numbers_read_as_people_write_them() {
    assert_eq!(thousands(0), "0");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1_000), "1,000");
    assert_eq!(thousands(1_355_980), "1,355,980");
    assert_eq!(number_text(Number::Rate(45.6398)), "45.64");
    assert_eq!(rate_text(950.0), "950");
    assert_eq!(rate_text(15_234.0), "15.2 k");
    assert_eq!(rate_text(1_930_000.0), "1.93 M");
    assert_eq!(wall_text(WallSeconds::One(64.8)), "64.8 s");
    assert_eq!(wall_text(WallSeconds::Range([30.0, 31.5])), "30.0-31.5 s");
}
