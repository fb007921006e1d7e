//! Tests that run inside headless Chromium through wasm-bindgen-test-runner
//! (`cargo test --target wasm32-unknown-unknown --test web`; `make test` sets CHROMEDRIVER).
#![cfg(target_arch = "wasm32")]

use warpstep::wasm;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn version_crosses_the_boundary() {
    assert_eq!(wasm::version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn presets_are_listed_with_descriptions() {
    let list: serde_json::Value = serde_json::from_str(&wasm::preset_list()).unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "fermi",
            "gtx480",
            "tesla-c2050-s",
            "tesla-c2050-l",
            "elastic-cf11",
            "unified-micro12",
            "teaching"
        ]
    );
}

#[wasm_bindgen_test]
fn config_json_applies_overrides_and_throws_named_errors() {
    let json = wasm::config_json("teaching", vec!["shmem.banks=16".into()]).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["shmem"]["banks"], 16);
    assert_eq!(value["core"]["warp_size"], 8);

    let err = wasm::config_json("teaching", vec!["core.warp_size=33".into()]).unwrap_err();
    let message = js_sys::Error::from(JsValue::from(err)).message();
    assert_eq!(
        String::from(message),
        "core.warp_size = 33: must be a power of two in 1..=64"
    );
    assert!(wasm::config_json("nope", vec![]).is_err());
}

// ----- the Session API (issue 6) ------------------------------------------------------------

const BOOK: &str = include_str!("data/book_fig3_2.ptx");
const BOOK_SETS: [&str; 4] = [
    "core.warp_size=4",
    "core.simd_width=4",
    "core.max_threads_per_sm=16",
    "core.max_threads_per_cta=16",
];

fn book() -> wasm::Session {
    let sets = BOOK_SETS.iter().map(|s| s.to_string()).collect();
    wasm::Session::new(BOOK, "", "teaching", sets).unwrap()
}

fn snap(s: &wasm::Session) -> serde_json::Value {
    serde_json::from_str(&s.snapshot(0)).unwrap()
}

fn error_of(v: JsValue) -> (String, JsValue, JsValue) {
    let kind = js_sys::Reflect::get(&v, &"kind".into()).unwrap();
    let line = js_sys::Reflect::get(&v, &"line".into()).unwrap();
    (String::from(js_sys::Error::from(v).message()), kind, line)
}

#[wasm_bindgen_test]
fn a_session_steps_and_snapshots() {
    let mut s = book();
    assert_eq!(s.cycle(), 0.0);
    assert_eq!(s.step(10), 10);
    assert_eq!(s.cycle(), 10.0);
    let v = snap(&s);
    assert_eq!(v["cycle"], 10);
    assert_eq!(v["warp_size"], 4);
    assert_eq!(v["kernel"], "book_fig3_2");
    assert!(!v["sm"]["warps"].as_array().unwrap().is_empty());
    assert_eq!(s.num_sms(), 1);
    let listing: serde_json::Value = serde_json::from_str(&s.listing()).unwrap();
    assert_eq!(listing["kernel"], "book_fig3_2");
    assert!(listing["lines"].as_array().unwrap().len() > 30);
    let launch: serde_json::Value = serde_json::from_str(&s.launch()).unwrap();
    assert_eq!(launch["block"], serde_json::json!([4, 1, 1]));
    assert!(s.config().contains("\"warp_size\": 4"));
}

#[wasm_bindgen_test]
fn runs_to_the_end_with_a_budget() {
    let mut s = book();
    let mut calls = 0;
    while s.run_for(50) == 0 {
        calls += 1;
        assert!(calls < 1000);
    }
    assert!(s.finished());
    assert_eq!(s.status(), "completed");
    assert!(
        calls > 0,
        "a budget of 50 cycles cannot finish the kernel in one call"
    );
    let report: serde_json::Value = serde_json::from_str(&s.report()).unwrap();
    assert_eq!(report["completed"], true);
    assert_eq!(report["cycles"].as_f64().unwrap(), s.cycle());
}

#[wasm_bindgen_test]
fn step_back_equals_a_straight_run() {
    let mut straight = book();
    straight.step(37);
    let expected = straight.snapshot(0);
    let expected_timeline = straight.timeline(0);

    let mut s = book();
    s.step(80);
    assert_eq!(s.step_back(43), 37.0);
    assert_eq!(s.snapshot(0), expected);
    assert_eq!(s.timeline(0), expected_timeline);
    // Forwards again from there, and back to the start.
    s.step(43);
    straight.step(43);
    assert_eq!(s.snapshot(0), straight.snapshot(0));
    s.reset();
    assert_eq!(s.cycle(), 0.0);
    assert_eq!(s.snapshot(0), book().snapshot(0));
}

#[wasm_bindgen_test]
fn run_until_goes_forwards_and_backwards() {
    let mut s = book();
    // Forwards in budgets of 7 cycles.
    let mut code = s.run_until(40.0, 7);
    while code == 0 {
        code = s.run_until(40.0, 7);
    }
    assert_eq!(code, 3);
    assert_eq!(s.cycle(), 40.0);
    assert_eq!(s.run_until(12.0, 7), 3);
    assert_eq!(s.cycle(), 12.0);
}

#[wasm_bindgen_test]
fn breakpoints_stop_where_the_line_issues() {
    let mut s = book();
    let listing: serde_json::Value = serde_json::from_str(&s.listing()).unwrap();
    let lines: Vec<u64> = listing["instr_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_u64().unwrap())
        .collect();
    let target = *lines.last().unwrap() as u32 - 2;
    let target = lines
        .iter()
        .map(|&l| l as u32)
        .filter(|&l| l <= target)
        .max()
        .unwrap();
    s.set_breakpoints(vec![target]);
    let mut code = s.run_for(10_000);
    while code == 0 {
        code = s.run_for(10_000);
    }
    assert_eq!(code, 1, "stops at the breakpoint");
    assert_eq!(s.break_line(), target);
    let v = snap(&s);
    let issued: Vec<u64> = v["sm"]["schedulers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|sch| sch["issued_instr"]["line"].as_u64())
        .collect();
    assert!(issued.contains(&(target as u64)), "{issued:?}");

    let mut t = book();
    assert_eq!(t.run_to_line(target, 100_000), 1);
    assert_eq!(t.cycle(), s.cycle());
}

#[wasm_bindgen_test]
fn a_cuda_kernel_shows_its_ptx_and_breaks_on_a_cuda_line() {
    let cuda = include_str!("data/kernels/vector_add.cu");
    let launch = "--grid 2 --block 64 --arg f32[128]=rand:1 --arg f32[128]=rand:2 --arg f32[128]=0 --arg 128";
    assert!(wasm::is_cuda(cuda));
    let mut s = wasm::Session::new(cuda, launch, "", vec![]).unwrap();
    let ptx = s.generated_ptx().expect("CUDA input has generated PTX");
    assert!(ptx.contains(".loc\t1 4"), "{ptx}");
    let listing: serde_json::Value = serde_json::from_str(&s.listing()).unwrap();
    assert_eq!(listing["generated"], true);
    assert_eq!(listing["source_file"], "kernel.cu");
    let by_line = listing["source_lines"].as_array().unwrap();
    let first_on_4 = by_line.iter().position(|l| l == 4).unwrap() as u32;
    assert_eq!(s.source_line(first_on_4), 4);
    s.set_source_breakpoints(vec![4]);
    let mut code = s.run_for(10_000);
    while code == 0 {
        code = s.run_for(10_000);
    }
    assert_eq!(code, 1, "stops at CUDA line 4");
    assert_eq!(s.source_line(s.break_line()), 4);
    // Clearing the PTX breakpoints keeps the CUDA ones; clearing both runs to the end.
    s.set_breakpoints(vec![]);
    assert_eq!(
        s.run_for(10_000),
        1,
        "the next warp on line 4 stops it again"
    );
    s.set_source_breakpoints(vec![]);
    let mut code = s.run_for(10_000);
    while code == 0 {
        code = s.run_for(10_000);
    }
    assert_eq!(code, 2, "no breakpoint left: runs to the end");
    assert!(book().generated_ptx().is_none());
}

#[wasm_bindgen_test]
fn ptx_errors_name_their_line() {
    let broken = BOOK.replacen("ld.param.u64", "ld.param.bogus64", 1);
    let line = BOOK
        .lines()
        .position(|l| l.contains("ld.param.u64"))
        .unwrap() as u32
        + 1;
    let err = wasm::Session::new(&broken, "", "teaching", vec![])
        .err()
        .unwrap();
    let (message, kind, at) = error_of(err);
    assert_eq!(kind, "ptx");
    assert_eq!(at.as_f64(), Some(line as f64), "{message}");
    assert!(message.starts_with(&format!("line {line}:")), "{message}");
}

#[wasm_bindgen_test]
fn launch_and_config_errors_use_the_cli_messages() {
    let err = wasm::Session::new(BOOK, "--grid 0", "", vec![])
        .err()
        .unwrap();
    let (message, kind, line) = error_of(err);
    assert_eq!(kind, "launch");
    assert!(line.is_undefined());
    assert!(message.starts_with("--grid 0:"), "{message}");

    let err = wasm::Session::new(BOOK, "", "teaching", vec!["core.warp_size=33".into()])
        .err()
        .unwrap();
    let (message, kind, _) = error_of(err);
    assert_eq!(kind, "config");
    assert_eq!(
        message,
        "core.warp_size = 33: must be a power of two in 1..=64"
    );
}

#[wasm_bindgen_test]
fn tables_export_the_warp_states() {
    let t: serde_json::Value = serde_json::from_str(&wasm::tables()).unwrap();
    let states = t["warp_states"].as_array().unwrap();
    assert_eq!(states.len(), warpstep::core::WarpCycle::ALL.len());
    assert_eq!(states[1]["name"], "issued");
    assert!(states[5]["description"]
        .as_str()
        .unwrap()
        .contains("global"));
    assert_eq!(t["stop_reasons"][1], "breakpoint");
    let cases: serde_json::Value = serde_json::from_str(&wasm::bench_cases()).unwrap();
    assert_eq!(cases[0]["name"], "vector_add");
}

#[wasm_bindgen_test]
fn the_timeline_is_one_byte_per_slot_per_cycle() {
    let mut s = book();
    s.step(30);
    let slots = s.warp_slots() as usize;
    let t = s.timeline(0);
    assert_eq!(t.len(), 30 * slots);
    assert_eq!(s.timeline_first(0), 0.0);
    assert!(t.contains(&1), "some warp issued");
}

#[wasm_bindgen_test]
fn a_fault_is_reported_with_its_line() {
    // Too small an output buffer: the store of thread 3 runs out of bounds.
    let mut s = wasm::Session::new(
        BOOK,
        "--arg u32[4]=list:1,1,1,0 --arg u32[4]=list:1,0,0,0 --arg u32[2]=0 --arg 1",
        "teaching",
        BOOK_SETS.iter().map(|s| s.to_string()).collect(),
    )
    .unwrap();
    while s.run_for(1000) == 0 {}
    assert_eq!(s.status(), "failed");
    assert!(s.error().unwrap().contains("out-of-bounds"));
    assert!(s.error_line() > 0);
}

#[wasm_bindgen_test]
fn step_back_across_checkpoints_equals_a_straight_run() {
    // A teaching-preset vector add that runs past two checkpoint intervals.
    let case = &warpstep::bench::STANDARD[0];
    let launch = format!("{} --grid 384 --block 32", case.flags.join(" "));
    let new = || wasm::Session::new(case.ptx, &launch, "teaching", vec![]).unwrap();
    let interval = wasm::CHECKPOINT_INTERVAL as u32;
    let target = 2 * interval + 345;

    let mut straight = new();
    straight.step(target);
    let mut s = new();
    s.step(target + 1200);
    assert!(!s.finished(), "the kernel must outlast the test");
    assert!(s.checkpoint_cycles().len() >= 3);
    assert_eq!(s.step_back(1200), target as f64);
    assert_eq!(s.snapshot(0), straight.snapshot(0));
    assert_eq!(s.timeline(0), straight.timeline(0));
    assert_eq!(s.step_back(1), target as f64 - 1.0);
    straight.step_back(1);
    assert_eq!(s.snapshot(0), straight.snapshot(0));
}

// ----- memory view, bank grids, address bits and searches (issues 6 and 7) -------------------

const TRANSPOSE: &str = include_str!("data/kernels/transpose.sm_52.ptx");
const TRANSPOSE_NAIVE: &str = "--kernel transpose_naive --grid 1,1 --block 32,32 \
     --arg f32[1024]=iota --arg f32[1024]=0 --arg 32 --arg 32";
const FOUND_HASH: &str = "bwxor:0^5,1^6,2^7,3^8,4^9";

fn transpose(sets: &[&str]) -> wasm::Session {
    let sets = sets.iter().map(|s| s.to_string()).collect();
    wasm::Session::new(TRANSPOSE, TRANSPOSE_NAIVE, "fermi", sets).unwrap()
}

fn message(e: JsValue) -> String {
    String::from(js_sys::Error::from(e).message())
}

#[wasm_bindgen_test]
fn l1_lines_follow_the_exported_layout() {
    let t: serde_json::Value = serde_json::from_str(&wasm::tables()).unwrap();
    let words = t["l1_line"]["words"].as_u64().unwrap() as usize;
    assert_eq!(t["line_states"][1], "reserved");
    let case = &warpstep::bench::STANDARD[0];
    let mut s = wasm::Session::new(case.ptx, &case.flags.join(" "), "fermi", vec![]).unwrap();
    let mut reserved = false;
    for _ in 0..300 {
        s.step(10);
        let v = snap(&s);
        let l1 = &v["sm"]["l1"];
        let (sets, ways) = (l1["sets"].as_u64().unwrap(), l1["ways"].as_u64().unwrap());
        let lines = s.l1_lines(0);
        assert_eq!(lines.len() as u64, sets * ways * words as u64);
        let reserved_now = lines.chunks(words).filter(|l| l[0] == 1).count();
        // Every reserved line waits for a fill that an MSHR tracks.
        assert!(reserved_now <= l1["mshrs"].as_array().unwrap().len());
        reserved |= reserved_now > 0;
    }
    assert!(reserved, "vector add allocates lines on its misses");
}

#[wasm_bindgen_test]
fn the_bank_grid_carries_the_mod_baseline_when_hashed() {
    let mut s = transpose(&[&format!("shmem.hash={FOUND_HASH}")]);
    let grid = loop {
        assert!(s.step(1) == 1, "the column read never came");
        let v = snap(&s);
        let g = v["sm"]["bank_grid"].clone();
        if g["baseline"]["degree"].as_u64().unwrap_or(0) == 32 {
            break g;
        }
    };
    assert_eq!(grid["hash"], FOUND_HASH);
    assert_eq!(grid["degree"], 1);
    assert_eq!(grid["hash_latency"], 1);
    assert_eq!(grid["baseline"]["hash"], "mod");
    assert_eq!(grid["baseline"]["extra_cycles"], 31);
    let mut plain = transpose(&[]);
    plain.step(5);
    assert!(snap(&plain)["sm"]["bank_grid"]["baseline"].is_null());
}

#[wasm_bindgen_test]
fn bank_function_exports_the_xor_sources_of_fig_5() {
    let f: serde_json::Value =
        serde_json::from_str(&wasm::bank_function("bvxor:2,8,7", 32, 48 * 1024, 4).unwrap())
            .unwrap();
    let sources: Vec<Vec<u64>> = f["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            s["word_bits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_u64().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(
        sources,
        vec![vec![2, 8], vec![3, 9], vec![4, 10], vec![5], vec![6]]
    );
    assert_eq!(f["configurable"], true);
    assert_eq!(f["rank"], 5);
    assert_eq!(f["addr_bits"], 14);
    let err = wasm::bank_function("bwxor:0,1^6", 32, 48 * 1024, 4).unwrap_err();
    assert!(message(err.into()).contains("log2(32) = 5"));
    assert!(wasm::bank_function("nope", 32, 48 * 1024, 4).is_err());
}

#[wasm_bindgen_test]
fn a_search_over_the_kernel_finds_the_hash_and_applying_it_saves_cycles() {
    let s = transpose(&[]);
    let v: serde_json::Value =
        serde_json::from_str(&s.search_hash("mih", "bwxor", 0).unwrap()).unwrap();
    assert_eq!(v["hash"], FOUND_HASH);
    assert_eq!(
        (v["cost_before"].as_u64(), v["cost_after"].as_u64()),
        (Some(992), Some(0))
    );
    assert_eq!(v["sets"], 64);
    assert_eq!(v["steps"].as_array().unwrap().len(), 5);
    assert_eq!(v["steps"][0]["kind"], "select");
    assert_eq!(s.cycle(), 0.0, "the session did not move");
    let err = s.search_hash("exhaustive", "bwxor", 0).unwrap_err();
    assert!(message(err.into()).contains("does not configure"));

    let before: serde_json::Value = serde_json::from_str(&s.report_at_end()).unwrap();
    let after = transpose(&[&format!("shmem.hash={}", v["hash"].as_str().unwrap())]);
    let after: serde_json::Value = serde_json::from_str(&after.report_at_end()).unwrap();
    assert_eq!(before["shared"]["bank_conflict_cycles"], 992);
    assert_eq!(after["shared"]["bank_conflict_cycles"], 0);
    assert!(after["cycles"].as_u64() < before["cycles"].as_u64());
    assert_eq!(s.cycle(), 0.0);
}

/// The same kernels, configurations and launches give bit-identical traces and statistics in
/// wasm as natively: the fingerprints must equal the golden file the native test checks.
#[wasm_bindgen_test]
fn determinism_fingerprints_match_native_golden_file() {
    let golden = include_str!("data/golden/determinism.txt");
    let wasm_side = warpstep::trace_hash::determinism_fingerprints().unwrap();
    assert_eq!(wasm_side, golden);
}

const SPINLOCK: &str = include_str!("data/kernels/spinlock.sm_52.ptx");

/// The app's stack / convergence-barriers comparison reads these: the issue trace (each issued
/// instruction's active mask) and the report with a buffer's final contents. The Fig. 3.5 spin
/// lock deadlocks under the stack (counter 0) and completes under barriers (counter 4).
#[wasm_bindgen_test]
fn issue_trace_and_report_buffers_for_the_divergence_comparison() {
    for (mode, status, counter) in [
        ("stack", "failed", 0),
        ("convergence_barriers", "completed", 4),
    ] {
        let sets = vec![format!("core.divergence={mode}")];
        let launch = "--grid 1 --block 4 --arg s32[1]=0 --arg s32[1]=0";
        let mut s = wasm::Session::new(SPINLOCK, launch, "teaching", sets).unwrap();
        s.set_tracing(true);
        let mut issues = Vec::new();
        while !s.finished() && s.cycle() < 20_000.0 {
            s.step(500);
            let v: serde_json::Value = serde_json::from_str(&s.take_issues()).unwrap();
            issues.extend(v.as_array().unwrap().iter().cloned());
        }
        assert_eq!(s.status(), status, "{mode}");
        assert!(!issues.is_empty());
        assert_eq!(issues[0]["mask"], "0x0000000f");
        assert_eq!(issues[0]["lanes"].as_array().unwrap().len(), 8);
        assert!(issues
            .windows(2)
            .all(|w| w[0]["cycle"].as_u64() <= w[1]["cycle"].as_u64()));
        assert_eq!(s.take_issues(), "[]");
        let r: serde_json::Value = serde_json::from_str(&s.report_with_buffers(vec![1])).unwrap();
        assert_eq!(r["buffers"]["1"], serde_json::json!([counter]), "{mode}");
    }
}

/// Session.why in wasm: the same chain as natively (the transpose's 32-way conflict holds
/// MEM0), and a missing warp slot or lane is a thrown error naming it.
#[wasm_bindgen_test]
fn why_chains_cross_the_boundary() {
    let mut s = transpose(&[]);
    let mut found = None;
    while found.is_none() && s.cycle() < 5_000.0 {
        s.step(1);
        let slots = s.warp_slots();
        found = (0..slots).find_map(|w| {
            let v: serde_json::Value = serde_json::from_str(&s.why(0, w, -1).ok()?).ok()?;
            (v["state"] == "bank_conflict").then_some(v)
        });
    }
    let why = found.expect("a warp in bank_conflict");
    let kinds: Vec<&str> = why["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["state", "mem0", "mem0"]);
    assert!(why["links"][2]["text"]
        .as_str()
        .unwrap()
        .contains("31 of its passes replay a bank conflict"));
    assert_eq!(
        message(s.why(0, 9_999, -1).unwrap_err().into()),
        "no warp slot 9999 in SM 0: it has 48 slots"
    );
    assert_eq!(
        message(s.why(0, 0, 40).unwrap_err().into()),
        "no lane 40: a warp has 32 lanes"
    );
}
