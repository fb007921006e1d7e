//! Kernels that go wrong stop cleanly with a report that says where and why (issue 3,
//! "Functional execution"; MODEL.md sections 2-3): out-of-bounds and misaligned accesses name
//! the kernel, CTA, thread, PC, PTX line, space and address; a barrier that can never complete
//! and the book's Fig. 3.5 SIMT spin lock list the live warps; unsupported input says what is
//! unsupported and where. Never a panic, never a hang.
//!
//! The kernels are small hand-written PTX files in tests/data/faults/ and the spin lock is CUDA
//! (tests/data/kernels/spinlock.cu, compiled by nvcc for sm_52 and sm_80).

mod common;

use common::*;
use warpstep::config::Config;
use warpstep::launch::LaunchFlags;
use warpstep::run::{prepare, InputError, Prepared};

fn fault_ptx(name: &str) -> String {
    data(&format!("faults/{name}.ptx"))
}

/// The 1-based line of `text` holding `needle` (exactly one line must hold it).
fn line_of(text: &str, needle: &str) -> u32 {
    let lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(lines.len(), 1, "`{needle}` should be on exactly one line");
    lines[0] as u32
}

/// Runs and returns the launch and the error message (the run must not complete).
fn run_error(ptx: &str, flags: &[&str]) -> (Prepared, String) {
    let (p, report) = run_report(ptx, flags);
    assert!(!report.completed, "the kernel should not complete");
    let error = report.error.clone().expect("an error message");
    (p, error)
}

fn assert_contains(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(
            message.contains(part),
            "`{part}` is missing from:\n{message}"
        );
    }
}

/// The device address of buffer argument `index`.
fn base(p: &Prepared, index: usize) -> u64 {
    p.image
        .buffers
        .iter()
        .find(|b| b.index == index)
        .expect("a buffer argument")
        .base
}

/// The input error `prepare` gives (the run never starts).
fn input_error(ptx: &str, flags: &[&str]) -> InputError {
    let flags = LaunchFlags::parse_tokens(flags).expect("flags");
    let config_for = |name: &str| Config::preset(name).map_err(|e| e.to_string());
    match prepare(ptx, flags, &config_for, &|_| Err("no files".into())) {
        Ok(_) => panic!("expected an input error"),
        Err(e) => e,
    }
}

#[test]
fn out_of_bounds_global_load_names_kernel_cta_thread_pc_line_and_address() {
    // 2 blocks of 64 threads read a 100-element buffer: global thread 100 (thread 36 of CTA 1)
    // is the first past its end, at byte 400.
    let ptx = fault_ptx("oob_load");
    let (p, error) = run_error(
        &ptx,
        &[
            "--grid",
            "2",
            "--block",
            "64",
            "--arg",
            "u32[100]=iota",
            "--arg",
            "u32[128]=0",
        ],
    );
    let line = line_of(&ptx, "ld.global.u32");
    assert_contains(
        &error,
        &[
            "out-of-bounds .global load of 4 bytes",
            &format!("at {:#x}", base(&p, 0) + 400),
            "thread (36,0,0)",
            "CTA (1,0,0)",
            "kernel `oob_load`",
            // The ninth instruction of the kernel.
            "PC 8 ",
            &format!("line {line}: `ld.global.u32 %r5, [%rd4];`"),
        ],
    );
}

#[test]
fn the_same_kernel_in_bounds_completes() {
    // The fault above is the kernel's, not the simulator's: with a large enough buffer the
    // copy completes.
    let p = run_ok(
        &fault_ptx("oob_load"),
        &[
            "--grid",
            "2",
            "--block",
            "64",
            "--arg",
            "u32[128]=iota",
            "--arg",
            "u32[128]=0",
        ],
    );
    assert_eq!(u32s(&p, 1), (0..128).collect::<Vec<u32>>());
}

#[test]
fn misaligned_global_load_is_a_fault() {
    // Thread t loads a word at byte 6*t: thread 1 is the first whose address is not a
    // multiple of 4.
    let ptx = fault_ptx("misaligned_load");
    let (p, error) = run_error(
        &ptx,
        &["--block", "8", "--arg", "u32[16]=iota", "--arg", "u32[8]=0"],
    );
    let line = line_of(&ptx, "ld.global.u32");
    assert_contains(
        &error,
        &[
            "misaligned .global load of 4 bytes",
            &format!("at {:#x}", base(&p, 0) + 6),
            "thread (1,0,0)",
            "CTA (0,0,0)",
            "kernel `misaligned_load`",
            "PC 5 ",
            &format!("line {line}: `ld.global.u32 %r2, [%rd4];`"),
        ],
    );
}

#[test]
fn shared_memory_out_of_bounds_store_is_a_fault() {
    // A 128-byte tile written by 64 threads: thread 32 stores at byte 128, one word past it.
    let ptx = fault_ptx("shared_oob_store");
    let (_, error) = run_error(&ptx, &["--block", "64", "--arg", "u32[64]=0"]);
    let line = line_of(&ptx, "st.shared.u32");
    assert_contains(
        &error,
        &[
            "out-of-bounds .shared store of 4 bytes at 0x80",
            "thread (32,0,0)",
            "CTA (0,0,0)",
            "kernel `shared_oob_store`",
            "PC 5 ",
            &format!("line {line}: `st.shared.u32 [%r4], %r1;`"),
        ],
    );
    // One warp fits the tile and completes.
    let p = run_ok(&ptx, &["--block", "32", "--arg", "u32[32]=0"]);
    assert_eq!(u32s(&p, 0), (0..32).collect::<Vec<u32>>());
}

#[test]
fn barrier_deadlock_lists_every_warp_at_its_barrier() {
    // Warp 0 waits at barrier 0, warps 1 and 2 at barrier 1; each barrier expects all 96
    // threads. The runner must see that no barrier can complete (long before --max-cycles).
    let ptx = fault_ptx("barrier_deadlock");
    let (_, error) = run_error(
        &ptx,
        &[
            "--block",
            "96",
            "--arg",
            "u32[1]=0",
            "--max-cycles",
            "1000000",
        ],
    );
    let (line0, line1) = (line_of(&ptx, "bar.sync \t0"), line_of(&ptx, "bar.sync \t1"));
    assert_contains(
        &error,
        &[
            "a barrier can never complete",
            // Instructions: mov, setp, bra, bar.sync 1 (PC 3), bra.uni, bar.sync 0 (PC 5), ret.
            &format!(
                "CTA (0,0,0) warp 0 at PC 5 (line {line0}: `bar.sync 0;`), lanes 0xffffffff, SIMT stack [6 0xffffffff], waiting at barrier 0"
            ),
            &format!(
                "CTA (0,0,0) warp 1 at PC 3 (line {line1}: `bar.sync 1;`), lanes 0xffffffff, SIMT stack [4 0xffffffff], waiting at barrier 1"
            ),
            &format!(
                "CTA (0,0,0) warp 2 at PC 3 (line {line1}: `bar.sync 1;`), lanes 0xffffffff, SIMT stack [4 0xffffffff], waiting at barrier 1"
            ),
        ],
    );
    assert!(!error.contains("--max-cycles"), "{error}");
}

#[test]
fn a_single_warp_at_either_barrier_completes() {
    // With one warp only one barrier is used, and it completes.
    let (_, report) = run_report(
        &fault_ptx("barrier_deadlock"),
        &["--block", "32", "--arg", "u32[1]=0"],
    );
    assert!(report.completed, "{:?}", report.error);
}

const ARCHS: [&str; 2] = ["sm_52", "sm_80"];

fn spinlock(arch: &str) -> String {
    data(&format!("kernels/spinlock.{arch}.ptx"))
}

#[test]
fn simt_spin_lock_stops_at_max_cycles_with_the_live_warps() {
    // Book Fig. 3.5: the lane that wins the atomicCAS waits at the loop's reconvergence point
    // for the lanes still spinning, which wait for it to release the lock: in lock-step SIMT
    // nobody makes progress. With two warps, lane 0 of warp 0 holds the lock (atomics run
    // in lane order), the other 31 lanes of warp 0 and all of warp 1 spin.
    for arch in ARCHS {
        let ptx = spinlock(arch);
        let (p, error) = run_error(
            &ptx,
            &[
                "--block",
                "64",
                "--arg",
                "s32[1]=0",
                "--arg",
                "s32[1]=0",
                "--max-cycles",
                "20000",
            ],
        );
        assert_contains(
            &error,
            &[
                "did not finish within 20000 warp instructions (--max-cycles)",
                "CTA (0,0,0) warp 0 at PC ",
                "lanes 0xfffffffe, SIMT stack [9 0xffffffff, 6->9 0xfffffffe]",
                "CTA (0,0,0) warp 1 at PC ",
                "lanes 0xffffffff",
            ],
        );
        // Both warps are inside the spin loop (between its label and its back branch).
        let (first, last) = (line_of(&ptx, "$L__BB0_1:") + 1, line_of(&ptx, "@%p1 bra"));
        let listed: Vec<u32> = error
            .lines()
            .skip(1)
            .map(|l| {
                let after = l.split("(line ").nth(1).expect("a line number");
                after[..after.find(':').unwrap()].parse().unwrap()
            })
            .collect();
        assert_eq!(listed.len(), 2, "{arch}: {error}");
        assert!(
            listed.iter().all(|l| (first..=last).contains(l)),
            "{arch}: {listed:?} not in {first}..={last}"
        );
        // The lock is held and the critical section never ran.
        assert_eq!((i32s(&p, 0), i32s(&p, 1)), (vec![1], vec![0]), "{arch}");
    }
}

#[test]
fn spin_lock_with_one_thread_per_block_completes() {
    // Without contention inside a warp the lock works: each of 3 single-thread blocks takes
    // it, increments, releases.
    for arch in ARCHS {
        let p = run_ok(
            &spinlock(arch),
            &[
                "--grid", "3", "--block", "1", "--arg", "s32[1]=0", "--arg", "s32[1]=0",
            ],
        );
        assert_eq!((i32s(&p, 0), i32s(&p, 1)), (vec![0], vec![3]), "{arch}");
    }
}

#[test]
fn call_with_parameters_is_not_supported_yet_and_names_the_line() {
    let ptx = fault_ptx("call_func");
    let (_, error) = run_error(
        &ptx,
        &["--kernel", "call_func", "--block", "4", "--arg", "u32[4]=0"],
    );
    let line = line_of(&ptx, "st.param.b32 \t[param0]");
    assert_contains(
        &error,
        &[
            "device function (`call`) is not supported yet",
            "thread (0,0,0)",
            "kernel `call_func`",
            &format!("line {line}: `st.param.b32 [param0], %r1;`"),
        ],
    );
}

#[test]
fn bare_call_is_not_supported_yet_and_names_the_line() {
    let ptx = fault_ptx("call_func");
    let (_, error) = run_error(
        &ptx,
        &["--kernel", "call_void", "--block", "4", "--arg", "u32[4]=0"],
    );
    let line = line_of(&ptx, "call.uni \tnothing");
    assert_contains(
        &error,
        &[
            "`call` (device functions) is not supported yet",
            "kernel `call_void`",
            &format!("line {line}: `call.uni nothing;`"),
        ],
    );
}

#[test]
fn ptx_syntax_error_names_the_line() {
    let ptx = fault_ptx("syntax_error");
    let e = input_error(&ptx, &["--block", "4", "--arg", "u32[4]=0"]);
    let line = line_of(&ptx, "st.global.u32");
    let shown = e.to_string();
    assert!(matches!(e, InputError::Ptx(_)), "{shown}");
    assert!(shown.starts_with(&format!("line {line}:")), "{shown}");
    assert!(shown.contains("expected `]`"), "{shown}");
}

#[test]
fn unsupported_instruction_is_an_input_error_naming_the_line() {
    // Texture fetches are outside the PTX subset: loading fails before anything runs.
    let ptx = fault_ptx("oob_load").replace(
        "ld.global.u32 \t%r5, [%rd4];",
        "tex.1d.v4.u32.s32 {%r5, %r1, %r2, %r3}, [t, {%r4}];",
    );
    let shown = input_error(&ptx, &["--block", "4"]).to_string();
    let line = line_of(&ptx, "tex.1d");
    assert!(shown.starts_with(&format!("line {line}:")), "{shown}");
    assert!(
        shown.contains("unsupported instruction `tex.1d.v4.u32.s32`"),
        "{shown}"
    );
}

#[test]
fn fault_in_a_2d_launch_names_2d_thread_and_cta_indices() {
    // Rodinia-style copy2d (tests/data/ptx-corpus) given an input one element short: the last
    // element (x 39, y 23) is read by thread (7,7,0) of CTA (2,1,0), at byte 4 * 959.
    let ptx = data("ptx-corpus/dice_copy2d_smem.ptx");
    let (p, error) = run_error(
        &ptx,
        &[
            "--grid",
            "3,2",
            "--block",
            "16,16",
            "--arg",
            "s32[959]=1",
            "--arg",
            "s32[960]=0",
            "--arg",
            "40",
            "--arg",
            "24",
        ],
    );
    assert_contains(
        &error,
        &[
            "out-of-bounds .global load of 4 bytes",
            &format!("at {:#x}", base(&p, 0) + 4 * 959),
            "thread (7,7,0) of CTA (2,1,0)",
            "kernel `_Z18copy2d_smem_kernelPKiPiii`",
            &format!("line {}:", line_of(&ptx, "ld.global.u32")),
        ],
    );
}
