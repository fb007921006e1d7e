//! `warpstep correlate` run as a user would, on the fast case only (saxpy on one SM; the
//! transposes take seconds in release and much longer in debug): the JSON report's shape, the
//! L1D accesses equal to GPGPU-Sim's 6,144, the text, Markdown and SVG outputs, and exit status 2
//! with the bad flag named (issue 12).

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn warpstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpstep"))
        .args(args)
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .output()
        .expect("run warpstep")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The counters every case reports, in order.
const METRICS: [&str; 11] = [
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
    "bank_conflict_cycles",
];

#[test]
fn saxpy_on_one_sm_reports_every_counter_and_gpgpusims_l1d_accesses() {
    let plot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("correlate_saxpy.svg");
    let _ = std::fs::remove_file(&plot);
    let plot_arg = plot.to_string_lossy().into_owned();
    let o = warpstep(&[
        "correlate",
        "--case",
        "saxpy",
        "--sms",
        "1",
        "--json",
        "--plot",
        &plot_arg,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    assert_eq!(v["config"], "fermi");
    let cases = v["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 1);
    let saxpy = &cases[0];
    assert_eq!(saxpy["name"], "saxpy");
    assert_eq!(saxpy["sms"], 1);
    assert_eq!(saxpy["completed"], true);
    let metrics = saxpy["metrics"].as_object().expect("metrics");
    assert_eq!(metrics.keys().collect::<Vec<_>>().len(), METRICS.len());
    for key in METRICS {
        let m = &metrics[key];
        assert!(m["warpstep"].is_number(), "{key}: {m}");
        let has_reference = !key.starts_with("l2_") && !key.starts_with("dram_");
        assert_eq!(m["gpgpusim"].is_number(), has_reference, "{key}: {m}");
        assert_eq!(m["ratio"].is_number(), has_reference, "{key}: {m}");
    }
    assert_eq!(metrics["l1d_accesses"]["warpstep"], 6_144);
    assert_eq!(metrics["l1d_accesses"]["gpgpusim"], 6_144);
    assert_eq!(metrics["cycles"]["gpgpusim"], 27_283);
    assert_eq!(metrics["warp_instructions"]["warpstep"], 40_960);
    assert_eq!(metrics["bank_conflict_cycles"]["warpstep"], 0);
    let speed = &saxpy["speed"];
    assert!(speed["warpstep_seconds"].as_f64().unwrap() > 0.0);
    assert!(speed["warpstep_cycles_per_second"].as_f64().unwrap() > 0.0);
    assert_eq!(speed["gpgpusim_seconds"], 1.88);
    let summary = &v["summary"];
    assert_eq!(summary["cases"], 1);
    assert_eq!(summary["l1d_accesses_identical"], 1);
    assert_eq!(summary["bank_conflict_cycles_identical"], 1);

    let svg = std::fs::read_to_string(&plot).expect("the plot was written");
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
    assert!(svg.contains("GPGPU-Sim cycles") && svg.contains("saxpy"));
}

#[test]
fn the_text_and_markdown_reports_end_with_the_summary() {
    let text = warpstep(&["correlate", "--case", "saxpy", "--sms", "1"]);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    let out = stdout(&text);
    assert!(
        out.contains("\nsaxpy, 1 SM (_Z5saxpyifPKfPf in saxpy.ptx)\n"),
        "{out}"
    );
    let l1d = out
        .lines()
        .find(|l| l.trim_start().starts_with("L1D accesses"))
        .expect("an L1D accesses line");
    assert_eq!(
        l1d.split_whitespace().collect::<Vec<_>>(),
        ["L1D", "accesses", "6,144", "6,144", "1.00"]
    );
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("summary: "), "{out}");
    assert!(last.contains("L1D accesses identical in 1 of 1"), "{last}");

    let md = warpstep(&["correlate", "--case", "saxpy", "--sms", "1", "--markdown"]);
    assert_eq!(md.status.code(), Some(0), "{}", stderr(&md));
    let out = stdout(&md);
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("| saxpy | 1 |"))
        .collect();
    assert_eq!(rows.len(), 1, "{out}");
    assert!(rows[0].contains("| 6,144 / 6,144 (1.00) |"), "{}", rows[0]);
    assert!(out.contains("**Summary:**"), "{out}");
}

#[test]
fn bad_input_exits_2_naming_the_flag() {
    let cases: [(&[&str], &str); 5] = [
        (&["--case", "sgemm"], "--case sgemm"),
        (&["--sms", "4"], "--sms 4"),
        (&["--set", "num_sms=2"], "--set num_sms=2"),
        (&["--config", "no-such-preset"], "--config no-such-preset"),
        (&["--plot", "plot.png"], "--plot plot.png"),
    ];
    for (args, named) in cases {
        let mut all = vec!["correlate"];
        all.extend_from_slice(args);
        let o = warpstep(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        assert!(stderr(&o).contains(named), "{all:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{all:?}: nothing runs");
    }
}
