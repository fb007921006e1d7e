//! `warpstep run ... --break-line N` and `--until-cycle C` (issue 31 §3, run control in the
//! model): the run stops at the first warp to issue an instruction on line N (a CUDA line for
//! a `.cu` file, a PTX line for a `.ptx` file) or at cycle C, says which warp and line, and
//! exits 0; a line with no instruction is bad input (exit 2).

use serde_json::Value;
use std::process::{Command, Output};

fn data(path: &str) -> String {
    format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn warpstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpstep"))
        .args(args)
        .output()
        .expect("run warpstep")
}

const VECTOR_ADD: [&str; 10] = [
    "--grid",
    "2",
    "--block",
    "64",
    "--arg",
    "f32[128]=rand:1",
    "--arg",
    "f32[128]=rand:2",
    "--arg",
    "f32[128]=0",
];

fn run(file: &str, extra: &[&str]) -> Output {
    let file = data(file);
    let mut args = vec!["run", file.as_str()];
    args.extend_from_slice(&VECTOR_ADD);
    args.extend_from_slice(&["--arg", "128"]);
    args.extend_from_slice(extra);
    warpstep(&args)
}

fn json(o: &Output) -> Value {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

#[test]
fn a_cuda_line_stops_the_first_warp_that_reaches_it() {
    let o = run("kernels/vector_add.cu", &["--break-line", "4"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("stopped at cycle ")
            && first
                .contains("warp slot 0 of SM 0, CTA (0,0,0) warp 0 issued CUDA line 4 (PTX line"),
        "{first}"
    );
    let v = json(&run(
        "kernels/vector_add.cu",
        &["--break-line", "4", "--json"],
    ));
    let stop = &v["stopped"];
    assert_eq!(stop["reason"], "breakpoint");
    assert_eq!(stop["line"], 4);
    assert_eq!(stop["cta"], serde_json::json!([0, 0, 0]));
    assert_eq!(v["completed"], false);
    assert_eq!(
        v["cycles"].as_u64().unwrap(),
        stop["cycle"].as_u64().unwrap() + 1,
        "the counters are those of the cycle it issued in"
    );
}

#[test]
fn a_ptx_line_stops_there_and_until_cycle_stops_on_the_clock() {
    let ptx = "kernels/vector_add.sm_52.ptx";
    let text = std::fs::read_to_string(data(ptx)).unwrap();
    let store = text
        .lines()
        .position(|l| l.trim_start().starts_with("st.global"))
        .unwrap() as u64
        + 1;
    let v = json(&run(ptx, &["--break-line", &store.to_string(), "--json"]));
    assert_eq!(v["stopped"]["ptx_line"], store);
    assert!(v["stopped"]["instruction"]
        .as_str()
        .unwrap()
        .starts_with("st.global"));
    let v = json(&run(ptx, &["--until-cycle", "300", "--json"]));
    assert_eq!(v["stopped"]["reason"], "cycle");
    assert_eq!(v["cycles"], 300);
}

#[test]
fn a_line_without_instructions_is_bad_input() {
    let o = run("kernels/vector_add.cu", &["--break-line", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("--break-line 1: no instruction of kernel vector_add comes from CUDA line 1"));
    let o = run(
        "kernels/vector_add.cu",
        &["--break-line", "4", "--functional"],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_stop_never_reached_runs_to_the_end_and_reports_as_usual() {
    let v = json(&run(
        "kernels/vector_add.cu",
        &["--until-cycle", "100000000", "--json"],
    ));
    assert_eq!(v["completed"], true);
    assert!(v.get("stopped").is_none());
}
