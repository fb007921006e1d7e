//! The MRPB experiment's Rodinia NW and LUD kernels (the corpus's needle, our LUD and the /U
//! versions) at small sizes, checked against their host references on Base-S, and a launch
//! checked against another kernel's reference, which must fail.

use super::mrpb::CASES;
use super::mrpb_reference as r;
use super::tests::{checked, measure_on_base_s, only_the_last_is_wrong};
use super::Case;

const NEEDLE: &str =
    include_str!("../../../tests/data/ptx-corpus/ocelot_rodinia_needle_kernel.ptx");

const UNSHARED: &str = include_str!("../../../tests/data/kernels/rodinia_unshared.sm_52.ptx");

const LUD: &str = include_str!("../../../tests/data/kernels/rodinia_lud.sm_52.ptx");

/// A LUD launch on a 64 x 64 matrix at offset `$offset`.
macro_rules! lud64 {
    ($kernel:literal, $offset:literal, $grid:literal, $block:literal) => {
        &[
            "--kernel",
            $kernel,
            "--grid",
            $grid,
            "--block",
            $block,
            "--arg",
            "f32[4096]=rand:1:0.5:1.5",
            "--arg",
            "64",
            "--arg",
            $offset,
        ]
    };
}

/// A needle launch on a 64 x 64 alignment (4 x 4 tiles) at anti-diagonal `$i`.
macro_rules! needle64 {
    ($kernel:literal, $i:literal) => {
        &[
            "--kernel",
            $kernel,
            "--grid",
            $i,
            "--block",
            "16",
            "--arg",
            "s32[4225]=rand:1:-4:11",
            "--arg",
            "s32[4225]=rand:2:-300:0",
            "--arg",
            "s32[1]=0",
            "--arg",
            "65",
            "--arg",
            "10",
            "--arg",
            $i,
            "--arg",
            "4",
        ]
    };
}

/// NW's kernels on 64 x 64: the longest diagonal of each and a shorter one.
#[rustfmt::skip]
fn tiny_nw() -> Vec<Case> {
    vec![
        checked(NEEDLE, "nw_1", r::nw_upper, needle64!("_Z20needle_cuda_shared_1PiS_S_iiii", "4")),
        checked(NEEDLE, "nw_1", r::nw_upper, needle64!("_Z20needle_cuda_shared_1PiS_S_iiii", "2")),
        checked(NEEDLE, "nw_2", r::nw_lower, needle64!("_Z20needle_cuda_shared_2PiS_S_iiii", "3")),
        checked(NEEDLE, "nw_2", r::nw_lower, needle64!("_Z20needle_cuda_shared_2PiS_S_iiii", "1")),
    ]
}

/// NW/U's kernels on 64 x 64, as [`tiny_nw`].
#[rustfmt::skip]
fn tiny_nw_u() -> Vec<Case> {
    vec![
        checked(UNSHARED, "nw_u_1", r::nw_upper, needle64!("nw_u_1", "4")),
        checked(UNSHARED, "nw_u_1", r::nw_upper, needle64!("nw_u_1", "2")),
        checked(UNSHARED, "nw_u_2", r::nw_lower, needle64!("nw_u_2", "3")),
        checked(UNSHARED, "nw_u_2", r::nw_lower, needle64!("nw_u_2", "1")),
    ]
}

/// Runs `cases` then `wrong` (a launch checked against another kernel's reference) on Base-S:
/// every case must match its reference, `wrong` must not; its error is returned.
fn all_match_but(mut cases: Vec<Case>, wrong: Case) -> String {
    cases.push(wrong);
    let measured = measure_on_base_s(&cases);
    only_the_last_is_wrong(&cases, &measured)
}

#[test]
fn mrpb_nw_computes_what_its_host_reference_does() {
    // The second kernel's launch checked as the first's: the tiles it scores are others.
    let wrong = checked(
        NEEDLE,
        "nw_2_as_1",
        r::nw_upper,
        needle64!("_Z20needle_cuda_shared_2PiS_S_iiii", "3"),
    );
    let error = all_match_but(tiny_nw(), wrong);
    assert!(error.starts_with("wrong output: score: element"), "{error}");
    for name in ["nw_1", "nw_2"] {
        assert!(
            CASES.iter().any(|c| c.name() == name && c.check.is_some()),
            "{name}"
        );
    }
}

#[test]
fn mrpb_nw_u_computes_what_its_host_reference_does() {
    // The first kernel's launch checked as the second's.
    let wrong = checked(
        UNSHARED,
        "nw_u_1_as_2",
        r::nw_lower,
        needle64!("nw_u_1", "3"),
    );
    let error = all_match_but(tiny_nw_u(), wrong);
    assert!(error.starts_with("wrong output:"), "{error}");
    for name in ["nw_u_1", "nw_u_2"] {
        assert!(
            CASES.iter().any(|c| c.name() == name && c.check.is_some()),
            "{name}"
        );
    }
}

/// LUD's kernels on 64 x 64: each at offset 16 (the perimeter's and internal kernel's whole
/// grids, 2 and 2 x 2 blocks) and at offset 0 on part of its grid (the rest must be left).
#[rustfmt::skip]
fn tiny_lud() -> Vec<Case> {
    vec![
        checked(LUD, "lud_1", r::lud_diagonal, lud64!("lud_diagonal", "16", "1", "16")),
        checked(LUD, "lud_1", r::lud_diagonal, lud64!("lud_diagonal", "48", "1", "16")),
        checked(LUD, "lud_2", r::lud_perimeter, lud64!("lud_perimeter", "16", "2", "32")),
        checked(LUD, "lud_2", r::lud_perimeter, lud64!("lud_perimeter", "0", "2", "32")),
        checked(LUD, "lud_3", r::lud_internal, lud64!("lud_internal", "16", "2,2", "16,16")),
        checked(LUD, "lud_3", r::lud_internal, lud64!("lud_internal", "0", "3,2", "16,16")),
    ]
}

#[test]
fn mrpb_lud_computes_what_its_host_reference_does_bit_for_bit() {
    // The internal kernel's launch checked as the perimeter's.
    let wrong = checked(
        LUD,
        "lud_3_as_2",
        r::lud_perimeter,
        lud64!("lud_internal", "16", "2,2", "16,16"),
    );
    let error = all_match_but(tiny_lud(), wrong);
    assert!(error.starts_with("wrong output: m: element"), "{error}");
    for name in ["lud_1", "lud_2", "lud_3"] {
        assert!(
            CASES.iter().any(|c| c.name() == name && c.check.is_some()),
            "{name}"
        );
    }
}

/// LUD/U's kernels on [`tiny_lud`]'s launches.
#[rustfmt::skip]
fn tiny_lud_u() -> Vec<Case> {
    vec![
        checked(UNSHARED, "lud_u_1", r::lud_diagonal, lud64!("lud_u_diagonal", "16", "1", "16")),
        checked(UNSHARED, "lud_u_1", r::lud_diagonal, lud64!("lud_u_diagonal", "48", "1", "16")),
        checked(UNSHARED, "lud_u_2", r::lud_perimeter, lud64!("lud_u_perimeter", "16", "2", "32")),
        checked(UNSHARED, "lud_u_2", r::lud_perimeter, lud64!("lud_u_perimeter", "0", "2", "32")),
        checked(UNSHARED, "lud_u_3", r::lud_internal, lud64!("lud_u_internal", "16", "2,2", "16,16")),
        checked(UNSHARED, "lud_u_3", r::lud_internal, lud64!("lud_u_internal", "0", "3,2", "16,16")),
    ]
}

#[test]
fn mrpb_lud_u_computes_what_its_host_reference_does_bit_for_bit() {
    // The diagonal kernel's launch checked as the internal kernel's.
    let wrong = checked(
        UNSHARED,
        "lud_u_1_as_3",
        r::lud_internal,
        lud64!("lud_u_diagonal", "16", "1", "16"),
    );
    let error = all_match_but(tiny_lud_u(), wrong);
    assert!(error.starts_with("wrong output: m: element"), "{error}");
    for name in ["lud_u_1", "lud_u_2", "lud_u_3"] {
        assert!(
            CASES.iter().any(|c| c.name() == name && c.check.is_some()),
            "{name}"
        );
    }
}
