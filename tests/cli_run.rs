//! `warpstep run FILE --functional`, run as a user would (std::process::Command): the JSON
//! report and its documented keys, `// warpstep:` launch lines and command-line overrides,
//! `--dump`, `--dump-file`, `file:` buffers, and the exit status (0 completed, 1 kernel fault,
//! 2 bad input, with the error on stderr). Issue 3, "`warpstep run`".

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Command, Output};

/// tests/data/cli/scale.ptx: a[i] *= 3 for i < n; its `// warpstep:` line launches one block
/// of 40 threads on a = iota(40), n = 36.
fn scale() -> String {
    data("cli/scale.ptx")
}

fn data(path: &str) -> String {
    format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn warpstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpstep"))
        .args(args)
        .output()
        .expect("run warpstep")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `warpstep run FILE --functional --json ARGS...`, which must exit with `code`; its JSON.
fn run_json(file: &str, args: &[&str], code: i32) -> Value {
    let mut all = vec!["run", file, "--functional", "--json"];
    all.extend_from_slice(args);
    let o = warpstep(&all);
    assert_eq!(o.status.code(), Some(code), "{all:?}: {}", stderr(&o));
    serde_json::from_str(stdout(&o).trim())
        .unwrap_or_else(|e| panic!("{all:?}: not JSON ({e}): {}", stdout(&o)))
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_run_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// What scale computes: a[i] * 3 for i < n, the rest unchanged.
fn scaled(a: &[i64], n: usize) -> Vec<i64> {
    a.iter()
        .enumerate()
        .map(|(i, &v)| if i < n { v * 3 } else { v })
        .collect()
}

fn le_u32(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[test]
fn json_report_has_the_documented_keys_and_values() {
    let v = run_json(&scale(), &["--dump", "0"], 0);
    assert_eq!(v["kernel"], "scale");
    assert_eq!(v["grid"], json!([1, 1, 1]));
    assert_eq!(v["block"], json!([40, 1, 1]));
    assert_eq!(v["completed"], true);
    assert_eq!(v["error"], Value::Null);
    assert_eq!(v["cycles"], 0, "a functional run has no cycles");
    // The kernel has 11 instructions. Warp 0 (threads 0-31, all below n = 36) runs them all
    // with 32 lanes. Warp 1 (threads 32-39) runs the 4 up to the branch with 8 lanes, the 6 of
    // the if-body with the 4 lanes below 36, then `ret` with 8 lanes after reconverging.
    assert_eq!(v["warp_instructions"], 11 + (4 + 6 + 1));
    assert_eq!(v["thread_instructions"], 11 * 32 + (4 * 8 + 6 * 4 + 8));
    let iota: Vec<i64> = (0..40).collect();
    assert_eq!(v["buffers"], json!({ "0": scaled(&iota, 36) }));
}

#[test]
fn buffers_hold_only_what_dump_asks_for() {
    let v = run_json(&scale(), &[], 0);
    assert_eq!(v["buffers"], json!({}));
}

#[test]
fn command_line_flags_override_the_ptx_launch_lines() {
    // All arguments replaced, and the block.
    let v = run_json(
        &scale(),
        &[
            "--block",
            "64",
            "--arg",
            "s32[64]=-7",
            "--arg",
            "50",
            "--dump",
            "0",
        ],
        0,
    );
    assert_eq!(v["block"], json!([64, 1, 1]));
    assert_eq!(v["buffers"]["0"], json!(scaled(&[-7; 64], 50)));
    // Warp 1 (threads 32-63): 4 instructions with 32 lanes, 6 with the 18 below 50, `ret`.
    assert_eq!(v["thread_instructions"], 11 * 32 + (4 * 32 + 6 * 18 + 32));
    // Only the block replaced: the arguments still come from the PTX.
    let v = run_json(&scale(), &["--block", "64", "--dump", "0"], 0);
    assert_eq!(v["block"], json!([64, 1, 1]));
    let iota: Vec<i64> = (0..40).collect();
    assert_eq!(v["buffers"]["0"], json!(scaled(&iota, 36)));
    assert_eq!(v["thread_instructions"], 11 * 32 + (4 * 32 + 6 * 4 + 32));
    // Arguments replace the PTX's as a whole: one alone is too few.
    let o = warpstep(&["run", &scale(), "--functional", "--arg", "u32[40]=1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("takes 2 argument(s)"), "{}", stderr(&o));
}

#[test]
fn launch_lines_alone_give_a_runnable_file() {
    // A PTX text without any launch line needs the flags; with them in `// warpstep:` lines
    // (several lines add up) the same text runs with no flags at all.
    let dir = scratch("launch_lines");
    let text = std::fs::read_to_string(scale()).unwrap();
    let bare: String = text
        .lines()
        .filter(|l| !l.starts_with("// warpstep:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let bare_path = dir.join("bare.ptx");
    std::fs::write(&bare_path, &bare).unwrap();
    let o = warpstep(&["run", bare_path.to_str().unwrap(), "--functional"]);
    assert_eq!(o.status.code(), Some(2), "no arguments: {}", stdout(&o));
    let lines = "// warpstep: --kernel scale --grid 2 --block 8\n\
                 // warpstep: --arg u32[16]=list:5,6,7 --arg 0\n";
    let full_path = dir.join("full.ptx");
    std::fs::write(&full_path, format!("{lines}{bare}")).unwrap();
    let v = run_json(full_path.to_str().unwrap(), &["--dump", "0"], 0);
    assert_eq!(v["grid"], json!([2, 1, 1]));
    assert_eq!(v["block"], json!([8, 1, 1]));
    // n = 0: every thread branches straight to `ret` (5 instructions per warp, 2 warps).
    assert_eq!(v["warp_instructions"], 10);
    assert_eq!(v["thread_instructions"], 10 * 8);
    let mut want = vec![5i64, 6, 7];
    want.resize(16, 0);
    assert_eq!(v["buffers"]["0"], json!(want));
}

#[test]
fn dump_file_writes_raw_little_endian_bytes() {
    let dir = scratch("dump_file");
    let path = dir.join("a.bin");
    let spec = format!("0={}", path.display());
    let v = run_json(&scale(), &["--dump-file", &spec], 0);
    assert_eq!(v["buffers"], json!({}), "--dump-file alone does not print");
    let want: Vec<u32> = (0..40).map(|i| if i < 36 { i * 3 } else { i }).collect();
    assert_eq!(std::fs::read(&path).unwrap(), le_u32(&want));
    // Signed 16-bit elements, dumped both ways. The kernel works on 32-bit words: 3 * the
    // word holding elements 2k (low half) and 2k+1 (high half).
    let halves: Vec<i16> = (0..80).map(|i| (i as i16 - 40) * 100).collect();
    let list: Vec<String> = halves.iter().map(|h| h.to_string()).collect();
    let arg = format!("s16[80]=list:{}", list.join(","));
    let path16 = dir.join("h.bin");
    let spec16 = format!("0={}", path16.display());
    let v = run_json(
        &scale(),
        &[
            "--arg",
            &arg,
            "--arg",
            "36",
            "--dump",
            "0",
            "--dump-file",
            &spec16,
        ],
        0,
    );
    let mut want = Vec::new();
    for (k, pair) in halves.chunks(2).enumerate() {
        let word = (pair[0] as u16 as u32) | ((pair[1] as u16 as u32) << 16);
        let word = if k < 36 { word.wrapping_mul(3) } else { word };
        want.extend_from_slice(&word.to_le_bytes());
    }
    assert_eq!(std::fs::read(&path16).unwrap(), want);
    let shown: Vec<i64> = want
        .chunks(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]) as i64)
        .collect();
    assert_eq!(v["buffers"]["0"], json!(shown));
}

#[test]
fn file_buffers_read_raw_little_endian_bytes() {
    let dir = scratch("file_arg");
    let path = dir.join("in.bin");
    let input: Vec<u32> = (0..40).map(|i| 1000 + 7 * i).collect();
    std::fs::write(&path, le_u32(&input)).unwrap();
    let arg = format!("u32[40]=file:{}", path.display());
    let v = run_json(&scale(), &["--arg", &arg, "--arg", "20", "--dump", "0"], 0);
    let input: Vec<i64> = input.iter().map(|&x| x as i64).collect();
    assert_eq!(v["buffers"]["0"], json!(scaled(&input, 20)));
    // A file of the wrong size is bad input.
    let short = dir.join("short.bin");
    std::fs::write(&short, [0u8; 12]).unwrap();
    let arg = format!("u32[40]=file:{}", short.display());
    let o = warpstep(&["run", &scale(), "--functional", "--arg", &arg, "--arg", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds 12 bytes, the buffer needs 160"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn kernel_fault_exits_1_with_the_report() {
    let file = data("faults/oob_load.ptx");
    let args = [
        "--grid",
        "2",
        "--block",
        "64",
        "--arg",
        "u32[100]=iota",
        "--arg",
        "u32[128]=0",
    ];
    let v = run_json(&file, &args, 1);
    assert_eq!(v["completed"], false);
    let error = v["error"].as_str().expect("an error message");
    assert!(
        error.contains("out-of-bounds .global load") && error.contains("thread (36,0,0)"),
        "{error}"
    );
    // The summary says so too.
    let mut all = vec!["run", file.as_str(), "--functional"];
    all.extend_from_slice(&args);
    let o = warpstep(&all);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("did not complete: fault: out-of-bounds"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn max_cycles_exits_1_naming_the_live_warps() {
    let v = run_json(
        &data("kernels/spinlock.sm_80.ptx"),
        &[
            "--block",
            "32",
            "--arg",
            "s32[1]=0",
            "--arg",
            "s32[1]=0",
            "--max-cycles",
            "5000",
        ],
        1,
    );
    let error = v["error"].as_str().unwrap();
    assert!(
        error.contains("within 5000 warp instructions") && error.contains("warp 0 at PC"),
        "{error}"
    );
    // The counts say how far it got: 4 set-up instructions and one pass of the 5-instruction
    // loop with all 32 lanes, then lane 0 holds the lock and the other 31 spin.
    assert_eq!(v["warp_instructions"], 5000);
    assert_eq!(v["thread_instructions"], 4 * 32 + 5 * 32 + (5000 - 9) * 31);
}

/// Runs `args` (after `run FILE --functional`), expecting exit 2, nothing on stdout and an
/// error on stderr containing each of `parts`.
fn bad_input(file: &str, args: &[&str], parts: &[&str]) {
    let mut all = vec!["run", file, "--functional"];
    all.extend_from_slice(args);
    let o = warpstep(&all);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{all:?}: {err}");
    assert_eq!(stdout(&o), "", "{all:?}");
    assert!(err.starts_with("error: "), "{all:?}: {err}");
    for part in parts {
        assert!(err.contains(part), "{all:?}: `{part}` missing from {err}");
    }
}

#[test]
fn bad_input_exits_2_with_the_error_on_stderr() {
    let f = scale();
    bad_input(
        "/no/such/kernel.ptx",
        &[],
        &["cannot read `/no/such/kernel.ptx`"],
    );
    let syntax = data("faults/syntax_error.ptx");
    bad_input(
        &syntax,
        &["--arg", "u32[1]=0"],
        &["syntax_error.ptx: line 13:", "expected `]`"],
    );
    bad_input(
        &f,
        &["--arg", "u32[40]=0", "--arg", "1", "--arg", "2"],
        &["kernel `scale` takes 2 argument(s)", "but 3 --arg given"],
    );
    bad_input(
        &f,
        &["--arg", "u32[40]=0", "--arg", "2.5"],
        &["parameter `scale_n`", "2.5 is not an integer"],
    );
    bad_input(
        &f,
        &["--arg", "u32[40]=0", "--arg", "u32[4]=0"],
        &["parameter `scale_n`", "a buffer passes a 64-bit address"],
    );
    bad_input(
        &f,
        &["--arg", "u32[40]=0", "--arg", "4294967296"],
        &["parameter `scale_n`", "4294967296 does not fit u32"],
    );
    bad_input(&f, &["--config", "no-such-preset"], &["no-such-preset"]);
    bad_input(
        &f,
        &["--set", "no_such_key=1"],
        &["no_such_key", "unknown key"],
    );
    bad_input(&f, &["--set", "core.warp_size=abc"], &["core.warp_size"]);
    bad_input(&f, &["--set", "core.warp_size"], &["expected KEY=VALUE"]);
    bad_input(&f, &["--kernel", "nope"], &["no kernel `nope`", "scale"]);
    bad_input(&f, &["--grid", "0"], &["--grid 0"]);
    bad_input(
        &f,
        &["--dump", "1"],
        &["--dump 1", "not the index of a buffer"],
    );
    bad_input(&f, &["--dump-file", "0"], &["--dump-file 0", "I=PATH"]);
    bad_input(
        &f,
        &["--arg", "q32[4]=0", "--arg", "1"],
        &["unknown element type `q32`"],
    );
}

#[test]
fn perfetto_writes_a_chrome_trace_of_the_run() {
    let f = scale();
    let path = scratch("perfetto").join("scale.json");
    let path = path.to_str().unwrap();
    let o = warpstep(&["run", &f, "--perfetto", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let events = v["traceEvents"].as_array().unwrap();
    // Two warps (40 threads): named threads, each with warp-state spans and issued instructions.
    for slot in [0, 1] {
        assert!(events.iter().any(|e| e["ph"] == "M"
            && e["tid"] == slot
            && e["args"]["name"] == format!("warp slot {slot}")));
        assert!(events.iter().any(|e| e["ph"] == "X"
            && e["tid"] == slot
            && e["name"] == "issued"
            && e["dur"].as_u64() > Some(0)));
        assert!(events
            .iter()
            .any(|e| e["ph"] == "i" && e["tid"] == slot && e["name"] == "ret"));
    }
    let cycles = v["otherData"]["cycles"].as_u64().unwrap();
    assert!(events
        .iter()
        .filter_map(|e| e["ts"].as_u64())
        .all(|t| t <= cycles));
    // The memory requests and the unit and queue counters (issue 17): the SM's L1D track, the
    // memory system's process, a miss from its access to its reply.
    let mem = v["otherData"]["memory_pid"].as_u64().unwrap();
    let named = |pid: u64, name: &str| {
        events
            .iter()
            .any(|e| e["ph"] == "M" && e["pid"] == pid && e["args"]["name"] == name)
    };
    assert!(named(0, "L1D") && named(mem, "memory system") && named(mem, "L2 slice 0"));
    let miss = events
        .iter()
        .find(|e| e["ph"] == "b" && e["name"] == "L1D miss")
        .unwrap();
    let reply = events
        .iter()
        .find(|e| e["ph"] == "e" && e["id"] == miss["id"])
        .unwrap();
    assert!(reply["ts"].as_u64() > miss["ts"].as_u64());
    for counter in ["units busy", "L1D queues", "interconnect packets"] {
        assert!(events
            .iter()
            .any(|e| e["ph"] == "C" && e["name"] == counter));
    }
    // Functional runs have no timeline.
    bad_input(
        &f,
        &["--perfetto", path],
        &["--perfetto needs a timing run"],
    );
}

#[test]
fn compare_puts_two_configurations_side_by_side() {
    let dir = scratch("compare");
    let b = dir.join("barriers.json");
    let o = warpstep(&[
        "config",
        "show",
        "teaching",
        "--set",
        "core.divergence=convergence_barriers",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::write(&b, o.stdout).unwrap();
    let spin = data("kernels/spinlock.sm_52.ptx");
    let launch = ["--block", "4", "--arg", "s32[1]=0", "--arg", "s32[1]=0"];
    let mut all = vec!["compare", "teaching", b.to_str().unwrap(), &spin];
    all.extend(launch);
    all.push("--json");
    let o = warpstep(&all);
    // The stack deadlocks (exit 1); the barriers complete with every thread counted.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["a"]["completed"], false);
    assert!(v["a"]["error"].as_str().unwrap().starts_with("deadlock"));
    assert_eq!(v["b"]["completed"], true);
    assert_eq!(v["outputs_identical"], false);
    let counter = |key: &str| {
        v["counters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["key"] == key)
            .unwrap_or_else(|| panic!("{key} missing"))
            .clone()
    };
    assert_eq!(counter("cycles")["b"], 700.0);
    assert_eq!(counter("simt.splits.yields")["a"], Value::Null);
    assert_eq!(counter("simt.splits.yields")["b"], 3.0);
    // The same configuration twice: identical outputs, exit 0, only the headline counters.
    let f = scale();
    let o = warpstep(&["compare", "fermi", "fermi", &f]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("outputs: identical"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("cycles ") && l.ends_with("1.000")),
        "{text}"
    );
    // Flags compare cannot honour are refused.
    let o = warpstep(&["compare", "fermi", "fermi", &f, "--functional"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("compare does not take --functional"));
}

/// `warpstep why`: the chain of one warp at a cycle (the column walk's refused load), every
/// occupied slot by default, JSON with --json, and a slot that does not exist named (exit 2).
#[test]
fn why_prints_the_models_chain() {
    let file = data("mem/column_walk.ptx");
    let launch = [
        "--config",
        "tesla-c2050-s",
        "--block",
        "32",
        "--arg",
        "f32[32768]=rand:1",
        "--arg",
        "f32[32]=0",
        "--arg",
        "1024",
        "--arg",
        "16",
        "--cycle",
        "1500",
    ];
    let mut args = vec!["why", file.as_str()];
    args.extend(launch);
    let o = warpstep(&[&args[..], &["--warp", "0"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("cycle 1500 (running)\n\nSM 0 warp 0: long_scoreboard\n"),
        "{out}"
    );
    assert!(
        out.contains("<- refusal     L1D set 0 had every way reserved"),
        "{out}"
    );
    // Every occupied slot (one warp here), and the same chain as JSON.
    let all = stdout(&warpstep(&args));
    assert_eq!(all, out);
    let json: Value =
        serde_json::from_str(&stdout(&warpstep(&[&args[..], &["--json"]].concat()))).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 1);
    assert_eq!(json[0]["links"][4]["kind"], "refusal");
    let bad = warpstep(&[&args[..], &["--warp", "7"]].concat());
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("warp slot 7 of SM 0 holds no warp"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn a_reader_that_closes_the_pipe_early_ends_the_output_without_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    // About 800 KB of JSON, far more than a pipe holds, so most of it is written after the
    // reader has gone.
    let vector_add = data("kernels/vector_add.sm_52.ptx");
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpstep"))
        .args(["run", &vector_add, "--grid", "1", "--block", "32"])
        .args([
            "--arg",
            "f32[100000]=iota",
            "--arg",
            "f32[32]=0",
            "--arg",
            "f32[32]=0",
        ])
        .args(["--arg", "32", "--functional", "--dump", "0", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("warpstep starts");
    let mut first = [0u8; 1];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("one byte");
    // stdout is dropped here: the reader has gone, as `| head -c 1` does.
    let out = child.wait_with_output().expect("warpstep ends");
    assert_eq!(first[0], b'{');
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}
