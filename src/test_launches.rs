//! Launches shared by the library's unit tests (test builds only): a kernel's PTX with the
//! `warpstep run` flags that launch it, and one way to prepare them.

use crate::config::Config;
use crate::launch::LaunchFlags;
use crate::run::Prepared;

/// The naive 32x32 shared-memory transpose, one CTA of 32x32 threads (column reads 32-way).
pub const TRANSPOSE_NAIVE: (&str, &[&str]) = (
    include_str!("../tests/data/kernels/transpose.sm_52.ptx"),
    &[
        "--kernel",
        "transpose_naive",
        "--grid",
        "1,1",
        "--block",
        "32,32",
        "--arg",
        "f32[1024]=iota",
        "--arg",
        "f32[1024]=0",
        "--arg",
        "32",
        "--arg",
        "32",
    ],
);

/// Vector add of 32 floats by one warp (no shared memory).
pub const VECTOR_ADD_32: (&str, &[&str]) = (
    include_str!("../tests/data/kernels/vector_add.sm_52.ptx"),
    &[
        "--grid",
        "1",
        "--block",
        "32",
        "--arg",
        "f32[32]=1",
        "--arg",
        "f32[32]=2",
        "--arg",
        "f32[32]=0",
        "--arg",
        "32",
    ],
);

/// `launch` prepared under its own configuration (`fermi` unless its flags say otherwise),
/// with `sets` as extra `--set` overrides.
pub fn prepare(launch: (&str, &[&str]), sets: &[&str]) -> Prepared {
    let (ptx, flags) = launch;
    let mut flags = LaunchFlags::parse_tokens(flags).unwrap();
    flags.sets.extend(sets.iter().map(|s| s.to_string()));
    let config_for = |name: &str| Config::preset(name).map_err(|e| e.to_string());
    let no_files = |p: &str| Err(format!("{p}: no files"));
    crate::run::prepare(ptx, flags, &config_for, &no_files).unwrap()
}
