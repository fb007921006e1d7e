//! The fingerprint of a fixed run (every issued instruction, the cycle count, the statistics)
//! equals the one in `tests/data/golden/determinism.txt`; the wasm test in `tests/web.rs`
//! checks the same file, so native and browser runs are proven identical (MODEL.md section 1).
//! After an intended timing change, re-bless with `WARPSTEP_BLESS=1 cargo test --test determinism`.

mod common;

use common::*;

/// The cases: (name, PTX under tests/data, launch flags).
pub const CASES: &[(&str, &str, &[&str])] = &[
    (
        "histogram_fermi",
        "kernels/histogram.sm_80.ptx",
        &[
            "--grid",
            "6",
            "--block",
            "128",
            "--arg",
            "u8[4000]=rand:9",
            "--arg",
            "4000",
            "--arg",
            "u32[64]=0",
        ],
    ),
    (
        "divergence_teaching",
        "kernels/divergence.sm_52.ptx",
        &[
            "--config",
            "teaching",
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
    ),
    (
        "transpose_tesla",
        "kernels/transpose.sm_52.ptx",
        &[
            "--config",
            "tesla-c2050-s",
            "--kernel",
            "transpose_naive",
            "--grid",
            "2,2",
            "--block",
            "32,32",
            "--arg",
            "f32[4096]=rand:5",
            "--arg",
            "f32[4096]=0",
            "--arg",
            "64",
            "--arg",
            "64",
        ],
    ),
];

fn fingerprints() -> String {
    let mut out = String::new();
    for (name, file, flags) in CASES {
        let mut sim = prepare_flags(&data(file), flags)
            .into_sim(&[])
            .expect("sim");
        let hash = warpstep::trace_hash::run_fingerprint(&mut sim, 10_000_000);
        out += &format!("{name} {hash:016x} {}\n", sim.cycle());
    }
    out
}

#[test]
fn runs_match_their_recorded_fingerprints() {
    let path = format!(
        "{}/tests/data/golden/determinism.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let now = fingerprints();
    if std::env::var("WARPSTEP_BLESS").is_ok() {
        std::fs::write(&path, &now).expect("write golden");
        return;
    }
    let golden = std::fs::read_to_string(&path).expect("golden file (bless with WARPSTEP_BLESS=1)");
    assert_eq!(
        now, golden,
        "the run changed; if intended, re-bless with WARPSTEP_BLESS=1"
    );
    // And twice in one process gives the same.
    assert_eq!(fingerprints(), now);
}
