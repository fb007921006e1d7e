//! Operand forms the PTX ISA allows and nvcc writes (issue 12, "Real PTX that is rejected
//! today"): predicate constants (`mov.pred %p6, 0;`, PTX ISA "Predicate Constants": an integer
//! constant is a predicate, zero false, non-zero true), and our own kernels with boolean flags,
//! `bool` parameters and arrays and loops with early exits (tests/data/kernels/flags.cu), built
//! by nvcc 11.8 for sm_52 and sm_80 and, as a student builds to step through a kernel, with
//! `-G` (where nvcc writes `mov.pred %p, 0;`). Every run is checked against a host computation,
//! functionally and in the timing model.

mod common;

use common::*;
use warpstep::launch::LaunchFlags;
use warpstep::run::{prepare, Prepared};

/// Predicate constants in every predicate operand position: `mov`, `and`/`or`/`xor`/`not`,
/// `selp`'s selector.
const PREDICATE_CONSTANTS: &str = r#"
.version 7.8
.target sm_52
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<8>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mov.pred %p1, 0;
	mov.pred %p2, 1;
	mov.pred %p3, 7;
	and.pred %p4, %p2, 1;
	or.pred %p5, %p1, 0;
	xor.pred %p6, %p2, %p3;
	not.pred %p7, 0;
	selp.u32 %r2, 1, 0, %p2;
	selp.u32 %r3, 2, 0, 1;
	selp.u32 %r4, 4, 0, %p4;
	selp.u32 %r5, 8, 0, %p5;
	selp.u32 %r6, 16, 0, %p6;
	selp.u32 %r7, 32, 0, %p7;
	add.u32 %r2, %r2, %r3;
	add.u32 %r2, %r2, %r4;
	add.u32 %r2, %r2, %r5;
	add.u32 %r2, %r2, %r6;
	add.u32 %r2, %r2, %r7;
	@%p3 add.u32 %r2, %r2, 64;
	@%p1 add.u32 %r2, %r2, 128;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd3, %rd2, %rd3;
	st.global.u32 [%rd3], %r2;
	ret;
}
"#;

#[test]
fn integer_constants_are_predicates_in_every_predicate_operand() {
    let p = run_ok(
        PREDICATE_CONSTANTS,
        &["--block", "32", "--arg", "u32[32]=0"],
    );
    // %p2 (1) + selp on 1 (2) + %p2 and 1 (4) + 0 or 0 (0) + 1 xor 7 = false (0) + not 0 (32),
    // + 64 under @%p3 (7 is true), not + 128 under @%p1 (0 is false).
    assert_eq!(u32s(&p, 0), vec![103; 32]);
}

#[test]
fn a_float_is_not_a_predicate_constant_and_the_error_names_its_line() {
    let ptx = PREDICATE_CONSTANTS.replace("mov.pred %p2, 1;", "mov.pred %p2, 1.0;");
    let flags = LaunchFlags::parse_tokens(&["--block", "32", "--arg", "u32[32]=0"]).unwrap();
    let config_for = |p: &str| warpstep::config::Config::preset(p).map_err(|e| e.to_string());
    let no_files = |p: &str| Err(format!("no file {p}"));
    let Err(e) = prepare(&ptx, flags, &config_for, &no_files) else {
        panic!("a float predicate constant was accepted");
    };
    let e = e.to_string();
    assert!(e.contains("line 14"), "{e}");
    assert!(e.contains("a predicate constant must be an integer"), "{e}");
}

/// The three nvcc builds of flags.cu.
const BUILDS: [&str; 3] = ["sm_52", "sm_80", "sm_52.debug"];

fn flags_ptx(build: &str) -> String {
    data(&format!("kernels/flags.{build}.ptx"))
}

#[test]
fn the_debug_build_holds_predicate_constants() {
    let ptx = flags_ptx("sm_52.debug");
    let constants = ptx
        .lines()
        .filter(|l| {
            let l = l.trim();
            l.starts_with("mov.pred") && (l.ends_with(", 0;") || l.ends_with(", 1;"))
        })
        .count();
    assert!(
        constants >= 2,
        "nvcc -G writes `mov.pred %p, 0;`: {constants}"
    );
}

fn u8_list(v: &[bool]) -> String {
    list(&v.iter().map(|&b| u8::from(b)).collect::<Vec<_>>())
}

#[test]
fn first_match_with_a_bool_parameter_and_early_exits() {
    let (rows, n, key) = (64usize, 12usize, 5i32);
    let mut rng = Rng::new(7);
    let data: Vec<i32> = (0..rows * n).map(|_| rng.below(14) as i32 - 2).collect();
    for wrap in [false, true] {
        let want: Vec<(i32, bool)> = (0..rows)
            .map(|r| {
                for i in 0..n {
                    let v = data[r * n + i];
                    if v == key {
                        return (i as i32, true);
                    }
                    if v < 0 && !wrap {
                        break;
                    }
                }
                (-1, false)
            })
            .collect();
        for build in BUILDS {
            let d = format!("s32[{}]={}", rows * n, list(&data));
            let flags = [
                "--kernel",
                "first_match",
                "--grid",
                "2",
                "--block",
                "40",
                "--arg",
                &d,
                "--arg",
                "12",
                "--arg",
                "64",
                "--arg",
                "5",
                "--arg",
                if wrap { "1" } else { "0" },
                "--arg",
                "s32[64]=7",
                "--arg",
                "u8[64]=9",
            ];
            let p = run_ok(&flags_ptx(build), &flags);
            let at = i32s(&p, 5);
            let found = u8s(&p, 6);
            for r in 0..rows {
                assert_eq!(at[r], want[r].0, "{build} wrap={wrap} row {r}");
                assert_eq!(found[r], u8::from(want[r].1), "{build} wrap={wrap} row {r}");
            }
        }
    }
}

#[test]
fn all_positive_with_bool_arrays_and_block_votes() {
    let (blocks, threads) = (2usize, 64usize);
    let n = 512usize;
    let mut rng = Rng::new(11);
    let x: Vec<f32> = (0..n)
        .map(|_| (rng.below(200) as f32 - 3.0) / 7.0)
        .collect();
    let skip: Vec<bool> = (0..n).map(|_| rng.below(5) == 0).collect();
    for strict in [false, true] {
        let total = blocks * threads;
        let ok: Vec<bool> = (0..total)
            .map(|t| {
                (t..n)
                    .step_by(total)
                    .all(|i| skip[i] || if strict { x[i] > 0.0 } else { x[i] >= 0.0 })
            })
            .collect();
        // nvcc -G keeps atomicAdd and __syncthreads_and/or as device-function calls with
        // parameters, which warpstep does not run yet (see the last test).
        for build in ["sm_52", "sm_80"] {
            let xs = format!("f32[{n}]={}", list(&x));
            let sk = format!("u8[{n}]={}", u8_list(&skip));
            let flags = [
                "--kernel",
                "all_positive",
                "--grid",
                "2",
                "--block",
                "64",
                "--arg",
                &xs,
                "--arg",
                "512",
                "--arg",
                if strict { "1" } else { "0" },
                "--arg",
                &sk,
                "--arg",
                "u8[128]=0",
                "--arg",
                "s32[1]=0",
                "--arg",
                "s32[2]=-1",
                "--arg",
                "s32[2]=-1",
            ];
            let p = run_ok(&flags_ptx(build), &flags);
            let got: Vec<bool> = u8s(&p, 4).iter().map(|&b| b != 0).collect();
            assert_eq!(got, ok, "{build} strict={strict}");
            let passed = ok.iter().filter(|&&b| b).count() as i32;
            assert_eq!(i32s(&p, 5), vec![passed], "{build} strict={strict}");
            for b in 0..blocks {
                let mine = &ok[b * threads..(b + 1) * threads];
                let all = mine.iter().all(|&v| v);
                let any_bad = mine.iter().any(|&v| !v);
                assert_eq!(i32s(&p, 6)[b], i32::from(all), "{build} block {b} and");
                assert_eq!(i32s(&p, 7)[b], i32::from(any_bad), "{build} block {b} or");
            }
        }
    }
}

#[test]
fn sort_rows_until_a_pass_changes_nothing() {
    let (threads, len) = (32usize, 8usize);
    let mut rng = Rng::new(3);
    let rows: Vec<i32> = (0..threads * len)
        .map(|_| rng.below(50) as i32 - 20)
        .collect();
    let mut sorted = rows.clone();
    let mut passes = vec![0i32; threads];
    for t in 0..threads {
        let r = &mut sorted[t * len..(t + 1) * len];
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..len - 1 {
                if r[i] > r[i + 1] {
                    r.swap(i, i + 1);
                    changed = true;
                }
            }
            passes[t] += 1;
        }
    }
    for build in BUILDS {
        let d = format!("s32[{}]={}", threads * len, list(&rows));
        let flags = [
            "--kernel",
            "sort_rows",
            "--block",
            "32",
            "--arg",
            &d,
            "--arg",
            "8",
            "--arg",
            "s32[32]=0",
        ];
        let p = run_ok(&flags_ptx(build), &flags);
        assert_eq!(i32s(&p, 0), sorted, "{build}");
        assert_eq!(i32s(&p, 2), passes, "{build}");
    }
}

#[test]
fn search_around_with_a_short_circuit_loop_condition() {
    let n = 40usize;
    let mut rng = Rng::new(5);
    let x: Vec<i32> = (0..n).map(|_| rng.below(25) as i32).collect();
    let key = 7;
    let want: Vec<i32> = (0..64)
        .map(|t| {
            (0..n)
                .find(|&i| x[(t + i) % n] == key)
                .map_or(-1, |i| i as i32)
        })
        .collect();
    for build in BUILDS {
        let xs = format!("s32[{n}]={}", list(&x));
        let flags = [
            "--kernel",
            "search_around",
            "--grid",
            "2",
            "--block",
            "32",
            "--arg",
            &xs,
            "--arg",
            "40",
            "--arg",
            "7",
            "--arg",
            "s32[64]=0",
        ];
        let p: Prepared = run_ok(&flags_ptx(build), &flags);
        assert_eq!(i32s(&p, 3), want, "{build}");
    }
}

#[test]
fn a_call_with_parameters_is_reported_by_line_not_run() {
    // The -G build of all_positive calls atomicAdd's wrapper with parameters: not supported yet,
    // and said so with the thread, PC and line rather than run wrongly.
    let flags = [
        "--kernel",
        "all_positive",
        "--block",
        "32",
        "--arg",
        "f32[32]=1",
        "--arg",
        "32",
        "--arg",
        "0",
        "--arg",
        "u8[32]=0",
        "--arg",
        "u8[32]=0",
        "--arg",
        "s32[1]=0",
        "--arg",
        "s32[1]=0",
        "--arg",
        "s32[1]=0",
    ];
    let (_, report) = run_report(&flags_ptx("sm_52.debug"), &flags);
    let e = report.error.expect("refused");
    assert!(
        e.contains("`call`") && e.contains("not supported yet"),
        "{e}"
    );
    assert!(e.contains("line "), "{e}");
}

#[test]
fn immediates_in_every_source_position_the_isa_allows() {
    let p = run_ok(
        &data("ptx-subset/immediate_forms.ptx"),
        &["--block", "32", "--arg", "u32[32]=0"],
    );
    let want: Vec<u32> = (0..32i64)
        .map(|t| {
            let sub = 100 - t; // sub.s32 %r2, 100, %r1
            let min = t.min(5); // min.s32 %r3, 5, %r1
            let max = t.max(0x10); // max.u32 %r4, 0x10, %r1
            let mad = 3 * t + 7; // mad.lo.s32 %r5, 3, %r1, 7
            let selp = if 4 < t { 0b101 } else { 0o17 }; // selp.b32 ..., 0b101, 017, (4 < t)
            let shl = t << 2;
            let bfe = (t >> 1) & 0b111; // bfe.u32 %r8, %r1, 1, 3
            let bfi = (t & !0b11_0000) | (1 << 4); // bfi.b32 %r9, 1, %r1, 4, 2
            let prmt = t; // prmt.b32 with selector 0x3210: the first operand's bytes
            let fma = 2.0 * (1.0 + 2.5) - 1.0; // 0f3F800000 = 1.0, then 2.5, 0f40000000 = 2.0
            let sum = sub - 7 + min + max + mad + selp + shl + bfe + bfi + prmt + fma as i64;
            sum as u32
        })
        .collect();
    assert_eq!(u32s(&p, 0), want);
}
