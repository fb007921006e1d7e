//! The `bank` and `hash-search` subcommands, run as a user would (std::process::Command).

use std::process::{Command, Output};

fn warpstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpstep"))
        .args(args)
        .output()
        .expect("run warpstep")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn bank_stride_2_json() {
    let o = warpstep(&["bank", "--stride", "2", "--json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    // Word stride 2 over 32 4-byte banks: 2-way (gcd(2, 32)); even banks get lanes t and t+16.
    assert_eq!(v["degree"], 2);
    assert_eq!(v["cycles"], 2);
    let banks = v["banks"].as_array().unwrap();
    assert_eq!(banks.len(), 32);
    assert_eq!(banks[0], serde_json::json!([0, 16]));
    assert_eq!(banks[1], serde_json::json!([]));
    assert_eq!(banks[30], serde_json::json!([15, 31]));
    assert!(stdout(&o).starts_with("{\"degree\":2,\"cycles\":2,\"banks\":[[0,16],[],"));
}

#[test]
fn bank_options_change_the_result() {
    let json = |args: &[&str]| -> serde_json::Value {
        let o = warpstep(args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        serde_json::from_str(stdout(&o).trim()).unwrap()
    };
    // 8-byte banks: byte addresses at stride 8 are conflict-free.
    let v = json(&[
        "bank",
        "--addrs",
        "0,8,16,24,32,40,48,56",
        "--bank-width",
        "8",
        "--json",
    ]);
    assert_eq!(v["degree"], 1);
    // Word addresses and a hash: transpose TILE_DIM 16 store under Table 5's bvxor.
    let store: Vec<String> = (0..32)
        .map(|l| (16 * (l % 16) + l / 16).to_string())
        .collect();
    let store = store.join(",");
    let v = json(&["bank", "--addrs", &store, "--word-addrs", "--json"]);
    assert_eq!(v["degree"], 8);
    let v = json(&[
        "bank",
        "--addrs",
        &store,
        "--word-addrs",
        "--hash",
        "bvxor:0,4,14",
        "--json",
    ]);
    assert_eq!(v["degree"], 1);
    // Limited broadcast (GPGPU-Sim): half the warp on word 0, half on word 1.
    let halves: Vec<String> = (0..32).map(|l| (l / 16).to_string()).collect();
    let halves = halves.join(",");
    let v = json(&[
        "bank",
        "--addrs",
        &halves,
        "--word-addrs",
        "--broadcast",
        "limited",
        "--json",
    ]);
    assert_eq!(v["cycles"], 16);
    let v = json(&["bank", "--addrs", &halves, "--word-addrs", "--json"]);
    assert_eq!(v["cycles"], 1);
    // --base (bytes) and --lanes.
    let v = json(&[
        "bank", "--stride", "32", "--base", "0x40", "--lanes", "4", "--json",
    ]);
    assert_eq!(v["degree"], 4);
    assert_eq!(v["banks"][16], serde_json::json!([0, 1, 2, 3]));
}

#[test]
fn bank_text_has_a_grid() {
    let o = warpstep(&["bank", "--stride", "2"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(text.contains("degree 2, cycles 2 (1 extra)"), "{text}");
    assert!(text.contains("pass 0"));
    assert!(text.contains("pass 1"));
}

#[test]
fn hash_search_gh_bwperm_strides_8_and_45_json() {
    let o = warpstep(&[
        "hash-search",
        "--method",
        "gh",
        "--family",
        "bwperm",
        "--stride",
        "8",
        "--stride",
        "45",
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = stdout(&o);
    assert!(text.starts_with("{\"hash\":\"bwperm:3,4,5,6,7\",\"candidates\":14,\"cost_before\":7,"));
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    // XOR section 5.2.1: {A3, A4, A5, A6, A7}.
    assert_eq!(v["hash"], "bwperm:3,4,5,6,7");
    assert_eq!(v["candidates"], 14);
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 5);
    assert_eq!(steps[0]["kind"], "givargis");
    assert_eq!(steps[0]["chosen"], "3");
    assert_eq!(steps[4]["chosen"], "7");
    assert!(steps[0]["correlation"].is_array());
}

#[test]
fn hash_search_other_methods() {
    let o = warpstep(&[
        "hash-search",
        "--method",
        "exhaustive",
        "--family",
        "bvxor",
        "--stride",
        "4",
        "--stride",
        "6",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["candidates"], 188);
    // Fig. 6 through the CLI: word addresses, 8 banks, 5 address bits.
    let o = warpstep(&[
        "hash-search",
        "--method",
        "mih",
        "--family",
        "bwperm",
        "--addrs",
        "27,12,6,19,11,4,28,3",
        "--word-addrs",
        "--banks",
        "8",
        "--addr-bits",
        "5",
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["hash"], "bwperm:0,3,4");
    assert_eq!(
        v["steps"][1]["candidates"][2]["histograms"][0],
        serde_json::json!([2, 2, 2, 2])
    );
    // Text output.
    let o = warpstep(&[
        "hash-search",
        "--method",
        "gh",
        "--family",
        "bwperm",
        "--stride",
        "8",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("hash: bwperm:3,4,5,6,7"));
}

#[test]
fn set_order_follows_the_command_line() {
    let run = |args: &[&str]| -> serde_json::Value {
        let o = warpstep(args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        serde_json::from_str(stdout(&o).trim()).unwrap()
    };
    let base = [
        "hash-search",
        "--method",
        "gh",
        "--family",
        "bwperm",
        "--word-addrs",
        "--json",
    ];
    let a = run(&[&base[..], &["--addrs", "0,1,2,3", "--stride", "8"]].concat());
    // per_set[0] is the --addrs set (bit 0 balanced), per_set[1] the stride-8 set (bit 0 is 0).
    assert_eq!(
        a["steps"][0]["quality"][0]["per_set"],
        serde_json::json!([1.0, 0.0])
    );
    let b = run(&[&base[..], &["--stride", "8", "--addrs", "0,1,2,3"]].concat());
    assert_eq!(
        b["steps"][0]["quality"][0]["per_set"],
        serde_json::json!([0.0, 1.0])
    );
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["bank", "--stride", "2", "--hash", "bvxor:1,2"][..],
        &["bank", "--stride", "2", "--hash", "bwperm:0,1"],
        &["bank", "--stride", "2", "--banks", "24"],
        &["bank", "--stride", "2", "--bank-width", "2"],
        &["bank", "--stride", "2", "--broadcast", "some"],
        &["bank", "--addrs", "1,x"],
        &["bank", "--addrs", "1,2", "--lanes", "4"],
        &["bank", "--stride", "1", "--lanes", "65"],
        &["bank"],
        &[
            "hash-search",
            "--method",
            "gh",
            "--family",
            "bvxor",
            "--stride",
            "8",
        ],
        &["hash-search", "--method", "gh", "--family", "bwperm"],
        &[
            "hash-search",
            "--method",
            "magic",
            "--family",
            "bwperm",
            "--stride",
            "8",
        ],
        &[
            "hash-search",
            "--method",
            "gh",
            "--family",
            "bwperm",
            "--stride",
            "1000",
        ],
        &[
            "hash-search",
            "--method",
            "gh",
            "--family",
            "bwperm",
            "--kernel-run",
            "k.ptx",
            "--x",
        ],
    ] {
        let o = warpstep(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let o = warpstep(&["bank", "--stride", "2", "--hash", "bvxor:1,2"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("K1,K2,MASK"));
    let o = warpstep(&[
        "hash-search",
        "--method",
        "gh",
        "--family",
        "bwperm",
        "--kernel-run",
        "k.ptx",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read `k.ptx`"));
}

#[test]
fn hash_search_over_a_kernel_run_removes_the_naive_transpose_conflicts() {
    // The paper's trace-based method: every dynamic shared access of the naive 32x32 transpose
    // (32 conflict-free row stores, 32 column loads of degree 32) is an access set.
    let ptx = format!(
        "{}/tests/data/kernels/transpose.sm_52.ptx",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = warpstep(&[
        "hash-search",
        "--method",
        "mih",
        "--family",
        "bwxor",
        "--json",
        "--kernel-run",
        &ptx,
        "--kernel",
        "transpose_naive",
        "--block",
        "32,32",
        "--arg",
        "f32[1024]=iota",
        "--arg",
        "f32[1024]=0",
        "--arg",
        "32",
        "--arg",
        "32",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = stdout(&o);
    let json = text.lines().last().unwrap();
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    // 32 column loads x 31 extra cycles each under mod.
    assert_eq!(v["cost_before"], 32 * 31);
    assert_eq!(v["cost_after"], 0);
}
