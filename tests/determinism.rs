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

/// The SMs of a cycle stepped on several threads (`--threads`, `crate::core::sm_array`) give
/// the sequential run's state at every point, not just the same end: the state digest (every
/// register, queue and counter) every 256 cycles, and the outputs. The multi-SM cases are the
/// ones that matter: 15 SMs with atomics from every SM into shared bins, 14 SMs transposing.
#[test]
fn parallel_sms_give_the_sequential_run_cycle_by_cycle() {
    use warpstep::trace_hash::{state_digest, DETERMINISM_CASES};
    let digests = |name: &str, ptx: &str, flags: &[&str], threads: usize| {
        let flags = warpstep::launch::LaunchFlags::parse_tokens(flags).expect("flags");
        let config_for = |p: &str| warpstep::config::Config::preset(p).map_err(|e| e.to_string());
        let no_files = |p: &str| Err(format!("no file {p}"));
        let prepared = warpstep::prepare::prepare(ptx, flags, &config_for, &no_files)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut sim = prepared.into_sim(&[]).expect("sim");
        sim.set_threads(threads);
        let mut seen = Vec::new();
        while !sim.finished() {
            sim.run_for(256);
            seen.push(state_digest(&sim));
        }
        let outputs: Vec<u8> = sim
            .global()
            .allocations()
            .iter()
            .flat_map(|a| {
                sim.global()
                    .read_bytes(a.base, a.size as usize)
                    .expect("readable")
            })
            .collect();
        (seen, outputs, sim.cycle())
    };
    let mut multi_sm = 0;
    for (name, ptx, flags) in DETERMINISM_CASES {
        let one = digests(name, ptx, flags, 1);
        for threads in [2, 3] {
            let many = digests(name, ptx, flags, threads);
            assert_eq!(one.2, many.2, "{name}: cycles on {threads} threads");
            assert_eq!(one.0, many.0, "{name}: state digests on {threads} threads");
            assert!(one.1 == many.1, "{name}: outputs on {threads} threads");
        }
        multi_sm += usize::from(flags.contains(&"gtx480") || flags.contains(&"tesla-c2050-s"));
    }
    assert_eq!(multi_sm, 2, "the multi-SM cases are among those compared");
}
