//! Every kernel runs to completion in the timing model with exactly the results of the
//! functional model (issue 4, "Golden and property tests"), on several configurations, and the
//! same run twice gives byte-identical traces (MODEL.md section 1, determinism).

mod common;

use common::*;
use warpstep::sim::Sim;

const PRESETS: [&str; 3] = ["fermi", "teaching", "tesla-c2050-s"];

fn with_preset<'a>(flags: &[&'a str], preset: &'a str) -> Vec<&'a str> {
    let mut v = flags.to_vec();
    v.extend(["--config", preset]);
    v
}

/// (kernel file, flags) pairs small enough for every preset (teaching allows 32 threads per CTA).
fn small_launches() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for arch in ["sm_52", "sm_80"] {
        out.push((
            format!("kernels/vector_add.{arch}.ptx"),
            vec![
                "--grid",
                "5",
                "--block",
                "32",
                "--arg",
                "f32[150]=rand:1",
                "--arg",
                "f32[150]=rand:2",
                "--arg",
                "f32[160]=0",
                "--arg",
                "150",
            ],
        ));
        out.push((
            format!("kernels/divergence.{arch}.ptx"),
            vec![
                "--block",
                "16",
                "--arg",
                "u32[64]=rand:3:0:1",
                "--arg",
                "u32[64]=rand:4:0:1",
                "--arg",
                "4",
                "--arg",
                "u32[16]=0",
                "--arg",
                "u32[16]=0",
                "--arg",
                "u32[16]=0",
            ],
        ));
        out.push((
            format!("kernels/histogram.{arch}.ptx"),
            vec![
                "--grid",
                "3",
                "--block",
                "32",
                "--arg",
                "u8[700]=rand:5",
                "--arg",
                "700",
                "--arg",
                "u32[64]=0",
            ],
        ));
        out.push((
            format!("kernels/reduction.{arch}.ptx"),
            vec![
                "--grid",
                "4",
                "--block",
                "32",
                "--arg",
                "s32[128]=rand:6:-100:100",
                "--arg",
                "s32[4]=0",
                "--arg",
                "128",
            ],
        ));
        out.push((
            format!("kernels/vote.{arch}.ptx"),
            vec![
                "--block",
                "32",
                "--arg",
                "s32[32]=rand:7:0:99",
                "--arg",
                "50",
                "--arg",
                "29",
                "--arg",
                "u32[1]=0",
                "--arg",
                "s32[1]=0",
                "--arg",
                "s32[1]=0",
                "--arg",
                "s32[32]=-7",
            ],
        ));
        out.push((
            format!("kernels/shuffle_reduce.{arch}.ptx"),
            vec![
                "--kernel",
                "warp_sum",
                "--grid",
                "2",
                "--block",
                "32",
                "--arg",
                "f32[64]=rand:8",
                "--arg",
                "f32[2]=0",
            ],
        ));
    }
    out.into_iter()
        .map(|(f, v)| (f, v.into_iter().map(String::from).collect()))
        .collect()
}

#[test]
fn own_kernels_give_functional_results_on_every_preset() {
    for (file, flags) in small_launches() {
        let ptx = data(&file);
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        for preset in PRESETS {
            let sim = assert_timing_matches_functional(&ptx, &with_preset(&flags, preset));
            assert!(sim.cycle() > 0, "{file} on {preset}");
        }
    }
}

#[test]
fn big_blocks_on_fermi_match_functional() {
    for kernel in ["transpose_naive", "transpose_padded"] {
        transpose_64(kernel, &[]);
    }
    let book = data("book_fig3_2.ptx");
    assert_timing_matches_functional(&book, &[]);
}

fn trace_of(ptx: &str, flags: &[&str]) -> Vec<String> {
    let p = prepare_flags(ptx, flags);
    let mut sim: Sim = p.into_sim(&[]).expect("sim");
    sim.set_tracing(true);
    sim.run(10_000_000);
    let func = sim.image().func().clone();
    let ws = sim.config().core.warp_size;
    sim.take_trace()
        .iter()
        .map(|e| warpstep::trace::issue_line(&func, ws, e))
        .collect()
}

#[test]
fn the_same_run_twice_gives_the_same_trace() {
    let ptx = data("kernels/histogram.sm_80.ptx");
    let flags = [
        "--grid",
        "6",
        "--block",
        "64",
        "--arg",
        "u8[3000]=rand:9",
        "--arg",
        "3000",
        "--arg",
        "u32[64]=0",
    ];
    let a = trace_of(&ptx, &flags);
    let b = trace_of(&ptx, &flags);
    assert!(a.len() > 1000, "trace has {} events", a.len());
    assert!(a == b, "traces differ");
}

#[test]
fn every_scheduler_and_push_order_completes_with_functional_results() {
    for (file, flags) in small_launches() {
        let ptx = data(&file);
        for policy in ["lrr", "gto", "two_level"] {
            for order in ["taken_last", "fallthrough_last", "smaller_last"] {
                let mut f: Vec<String> = flags.clone();
                f.extend([
                    "--set".into(),
                    format!("core.scheduler={policy}"),
                    "--set".into(),
                    format!("core.push_order={order}"),
                ]);
                f.extend(["--set".into(), "core.active_warps=2".into()]);
                let f: Vec<&str> = f.iter().map(String::as_str).collect();
                assert_timing_matches_functional(&ptx, &f);
            }
        }
    }
}

#[test]
fn recording_warp_states_does_not_change_timing() {
    for policy in ["lrr", "gto", "two_level"] {
        let ptx = data("kernels/reduction.sm_80.ptx");
        let set = format!("core.scheduler={policy}");
        let flags = [
            "--grid",
            "8",
            "--block",
            "128",
            "--arg",
            "s32[1024]=rand:1:-9:9",
            "--arg",
            "s32[8]=0",
            "--arg",
            "1024",
            "--set",
            &set,
        ];
        let run = |record: bool| {
            let mut sim = prepare_flags(&ptx, &flags).into_sim(&[]).unwrap();
            sim.set_record_warp_states(record);
            sim.set_tracing(true);
            sim.run(10_000_000);
            (sim.cycle(), sim.take_trace(), sim.stats().stalls)
        };
        assert_eq!(run(true), run(false), "{policy}");
    }
}
