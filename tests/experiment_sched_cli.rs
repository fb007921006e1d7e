//! `warpstep experiment mrpb-sched` as a user runs it: a limit the presets cannot hold is bad
//! input naming `--limits` (exit 2), before any simulation runs.

use std::process::Command;

#[test]
fn a_limit_past_the_warp_slots_is_refused_naming_the_flag() {
    let out = Command::new(env!("CARGO_BIN_EXE_warpstep"))
        .args(["experiment", "mrpb-sched", "--case", "pathfinder"])
        .args(["--limits", "4,49"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--limits"), "{err}");
    assert!(err.contains("core.ccws.swl_warps"), "{err}");
    assert!(out.stdout.is_empty());
}
