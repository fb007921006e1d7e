//! The fingerprint of fixed runs (every issued instruction, the cycle count, the statistics)
//! equals `tests/data/golden/determinism.txt`; the wasm test in `tests/web.rs` checks the same
//! file, so native and browser runs are proven identical (MODEL.md section 1).
//! After an intended timing change, re-bless with `WARPSTEP_BLESS=1 cargo test --test determinism`.

use warpstep::trace_hash::determinism_fingerprints;

#[test]
fn runs_match_their_recorded_fingerprints() {
    let path = format!(
        "{}/tests/data/golden/determinism.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let now = determinism_fingerprints().expect("runs");
    if std::env::var("WARPSTEP_BLESS").is_ok() {
        std::fs::write(&path, &now).expect("write golden");
        return;
    }
    let golden = std::fs::read_to_string(&path).expect("golden file (bless with WARPSTEP_BLESS=1)");
    assert_eq!(
        now, golden,
        "the run changed; if intended, re-bless with WARPSTEP_BLESS=1"
    );
    assert_eq!(
        determinism_fingerprints().expect("runs"),
        now,
        "two runs differ"
    );
}
