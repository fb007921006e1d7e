//! Sweeps past one machine (issue 32 §5), run as a user would (std::process::Command): an
//! experiment's plan split three ways with `--shard I/3 --out FILE`, the parts joined with
//! `warpstep experiment merge`, and the merged report byte for byte the single run's (text,
//! Markdown and the plot; the JSON with its measured `wall_seconds` zeroed), and merge refusing
//! parts that do not make one plan, naming the file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn warpstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpstep"))
        .args(args)
        .output()
        .expect("run warpstep")
}

/// Stdout of a run that must exit with `code`.
fn ok(args: &[&str], code: i32) -> String {
    let o = warpstep(args);
    assert_eq!(
        o.status.code(),
        Some(code),
        "warpstep {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// Stderr of a run that must fail with bad input (exit status 2).
fn refused(args: &[&str]) -> String {
    let o = warpstep(args);
    assert_eq!(o.status.code(), Some(2), "warpstep {}", args.join(" "));
    String::from_utf8(o.stderr).unwrap()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpstep-shard-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(dir: &Path, file: &str) -> String {
    dir.join(file).to_str().unwrap().to_string()
}

/// `value` with every `wall_seconds` set to 0 (the one thing two runs measure differently).
fn zero_wall(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                if k == "wall_seconds" {
                    *v = serde_json::json!(0.0);
                } else {
                    zero_wall(v);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(zero_wall),
        _ => {}
    }
}

fn json(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    zero_wall(&mut v);
    v
}

/// Shards `experiment` (with `options`) three ways into `dir` and returns the part files.
fn shard3(dir: &Path, experiment: &str, options: &[&str]) -> Vec<String> {
    (1..=3)
        .map(|i| {
            let out = path(dir, &format!("{experiment}-{i}.json"));
            let shard = format!("{i}/3");
            let mut args = vec!["experiment", experiment];
            args.extend_from_slice(options);
            args.extend_from_slice(&["--shard", &shard, "--out", &out, "--jobs", "1"]);
            assert_eq!(ok(&args, 0), "", "the part goes to --out");
            out
        })
        .collect()
}

#[test]
fn three_shards_of_the_elastic_experiment_merge_to_the_single_runs_report() {
    let dir = scratch("elastic");
    let options = ["--quick", "--kernel", "transpose16"];
    let single = |format: &[&str]| {
        let mut args = vec!["experiment", "elastic"];
        args.extend_from_slice(&options);
        args.extend_from_slice(format);
        ok(&args, 0)
    };
    let one_svg = path(&dir, "single.svg");
    let text = single(&["--plot", &one_svg]);
    let markdown = single(&["--markdown"]);
    let single_json = single(&["--json"]);
    let parts = shard3(&dir, "elastic", &options);
    // In another order than the shards': the runs go back in plan order.
    let merge = |format: &[&str]| {
        let mut args = vec!["experiment", "merge", &parts[2], &parts[0], &parts[1]];
        args.extend_from_slice(format);
        ok(&args, 0)
    };
    let merged_svg = path(&dir, "merged.svg");
    assert_eq!(merge(&["--plot", &merged_svg]), text);
    assert_eq!(merge(&["--markdown"]), markdown);
    assert_eq!(json(&merge(&["--json"])), json(&single_json));
    assert_eq!(
        std::fs::read(&merged_svg).unwrap(),
        std::fs::read(&one_svg).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn three_shards_of_the_unified_experiment_merge_to_the_single_runs_report() {
    let dir = scratch("unified");
    let options = ["--quick", "--workload", "bfs"];
    let mut args = vec!["experiment", "unified"];
    args.extend_from_slice(&options);
    let text = ok(&args, 0);
    args.push("--markdown");
    let markdown = ok(&args, 0);
    let parts = shard3(&dir, "unified", &options);
    let mut merge = vec!["experiment", "merge"];
    merge.extend(parts.iter().map(String::as_str));
    assert_eq!(ok(&merge, 0), text);
    merge.push("--markdown");
    assert_eq!(ok(&merge, 0), markdown);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn three_shards_of_a_sampled_mrpb_plan_on_14_sms_merge_to_the_single_runs_report() {
    // fdtd_2's whole launch takes about 14,500 cycles on the C2050's 14 SMs: a 5,000-cycle
    // sample stops every run, and the parts must carry the sample for merge to rebuild the plan.
    let dir = scratch("mrpb");
    let options = ["--case", "fdtd_2", "--sample", "5000"];
    let mut args = vec!["experiment", "mrpb"];
    args.extend_from_slice(&options);
    args.push("--json");
    let single_json = ok(&args, 0);
    let single = json(&single_json);
    assert_eq!(single["sample"], 5000);
    assert_eq!(single["machine"], "paper");
    let off = &single["cases"][0]["off"];
    assert_eq!(off["counters"]["cycles"], 5000, "{off}");
    assert!(off["sampled"].as_u64().unwrap() > 0, "{off}");
    args.pop();
    args.push("--markdown");
    let markdown = ok(&args, 0);
    assert!(
        markdown.contains("14 SMs (the paper's machine)"),
        "{markdown}"
    );
    let parts = shard3(&dir, "mrpb", &options);
    let mut merge = vec!["experiment", "merge"];
    merge.extend(parts.iter().map(String::as_str));
    merge.push("--markdown");
    assert_eq!(ok(&merge, 0), markdown);
    merge.pop();
    merge.push("--json");
    assert_eq!(json(&ok(&merge, 0)), single);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn three_shards_of_the_xor_experiment_merge_to_the_single_runs_report() {
    // Each shard trains the kernels again; the run keys name the functions they chose.
    let dir = scratch("xor");
    let options = ["--quick", "--kernel", "transpose16", "--kernel", "scan512"];
    let mut args = vec!["experiment", "xor"];
    args.extend_from_slice(&options);
    let text = ok(&args, 0);
    args.push("--markdown");
    let markdown = ok(&args, 0);
    args.pop();
    args.push("--json");
    let single_json = ok(&args, 0);
    let parts = shard3(&dir, "xor", &options);
    let mut merge = vec!["experiment", "merge"];
    merge.extend(parts.iter().map(String::as_str));
    assert_eq!(ok(&merge, 0), text);
    merge.push("--markdown");
    assert_eq!(ok(&merge, 0), markdown);
    merge.pop();
    merge.push("--json");
    assert_eq!(json(&ok(&merge, 0)), json(&single_json));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_parts_that_do_not_make_one_plan() {
    let dir = scratch("refuse");
    let a = shard3(&dir, "elastic", &["--quick", "--kernel", "transpose16"]);
    let other = path(&dir, "other.json");
    ok(
        &[
            "experiment",
            "elastic",
            "--quick",
            "--kernel",
            "dct8x8",
            "--shard",
            "2/3",
            "--out",
            &other,
        ],
        0,
    );
    let err = refused(&["experiment", "merge", &a[0], &other, &a[2]]);
    assert!(
        err.contains("other.json") && err.contains("dct8x8"),
        "{err}"
    );
    let err = refused(&["experiment", "merge", &a[0], &a[1], &a[1], &a[2]]);
    assert!(
        err.contains("elastic-2.json") && err.contains("also in"),
        "{err}"
    );
    let err = refused(&["experiment", "merge", &a[0], &a[2]]);
    assert!(err.contains("shard 2 of 3 is missing"), "{err}");
    let junk = path(&dir, "junk.json");
    std::fs::write(&junk, "{}").unwrap();
    let err = refused(&["experiment", "merge", &a[0], &junk]);
    assert!(err.contains("junk.json"), "{err}");
    let err = refused(&["experiment", "elastic", "--quick", "--shard", "4/3"]);
    assert!(err.contains("4/3"), "{err}");
    let err = refused(&[
        "experiment",
        "elastic",
        "--quick",
        "--shard",
        "1/3",
        "--markdown",
    ]);
    assert!(err.contains("merge"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
