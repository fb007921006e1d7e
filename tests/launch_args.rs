//! Launch arguments against real kernel signatures.

mod common;

use common::*;

#[test]
fn a_negative_int_passes_to_a_u32_parameter_as_twos_complement() {
    // nvcc declares `int n` as `.param .u32`; n = -1 means "no element is below n".
    let ptx = data("kernels/vector_add.sm_52.ptx");
    let p = run_ok(
        &ptx,
        &[
            "--block",
            "32",
            "--arg",
            "f32[32]=1",
            "--arg",
            "f32[32]=2",
            "--arg",
            "f32[32]=7",
            "--arg",
            "-1",
        ],
    );
    assert!(f32s(&p, 2).iter().all(|&v| v == 7.0));
    let p = run_ok(
        &ptx,
        &[
            "--block",
            "32",
            "--arg",
            "f32[32]=1",
            "--arg",
            "f32[32]=2",
            "--arg",
            "f32[32]=7",
            "--arg",
            "5",
        ],
    );
    assert_eq!(&f32s(&p, 2)[..6], &[3.0, 3.0, 3.0, 3.0, 3.0, 7.0]);
}

#[test]
fn a_barrier_number_past_15_is_a_fault_naming_the_line() {
    let ptx = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry k()\n{\n\tbar.sync 17;\n\tret;\n}\n";
    let (_, report) = run_report(ptx, &["--block", "32"]);
    let error = report.error.expect("a fault");
    assert!(
        error.contains("invalid barrier number 17 (the ISA allows 0..15)"),
        "{error}"
    );
    assert!(error.contains("line 6"), "{error}");
}
