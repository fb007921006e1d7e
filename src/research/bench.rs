//! The standard benchmark set (issue 4, "Speed"): kernels that the native `warpstep bench`, the
//! criterion benchmark and the browser benchmark page all run, so their numbers are comparable.
//! Each case fills one `fermi` SM with 48 resident warps where its block shape allows.

use crate::config::Config;
use crate::launch::LaunchFlags;
use crate::run::{prepare, InputError, Prepared};
use crate::sim::Sim;

/// One benchmark kernel and its launch.
#[derive(Debug, Clone, Copy)]
pub struct BenchCase {
    pub name: &'static str,
    /// What it exercises.
    pub about: &'static str,
    pub ptx: &'static str,
    /// Launch flags, as on the command line.
    pub flags: &'static [&'static str],
}

/// The standard set.
pub const STANDARD: &[BenchCase] = &[
    BenchCase {
        name: "vector_add",
        about: "streaming global loads and stores, 48 warps",
        ptx: include_str!("../../tests/data/kernels/vector_add.sm_52.ptx"),
        flags: &[
            "--grid",
            "48",
            "--block",
            "256",
            "--arg",
            "f32[12288]=rand:1",
            "--arg",
            "f32[12288]=rand:2",
            "--arg",
            "f32[12288]=0",
            "--arg",
            "12288",
        ],
    },
    BenchCase {
        name: "transpose_naive",
        about: "shared-memory tile with 32-way bank conflicts, barriers, 32 warps",
        ptx: include_str!("../../tests/data/kernels/transpose.sm_52.ptx"),
        flags: &[
            "--kernel",
            "transpose_naive",
            "--grid",
            "4,4",
            "--block",
            "32,32",
            "--arg",
            "f32[16384]=iota",
            "--arg",
            "f32[16384]=0",
            "--arg",
            "128",
            "--arg",
            "128",
        ],
    },
    BenchCase {
        name: "reduction",
        about: "shared-memory tree reduction with divergence and barriers, 48 warps",
        ptx: include_str!("../../tests/data/kernels/reduction.sm_52.ptx"),
        flags: &[
            "--grid",
            "48",
            "--block",
            "256",
            "--arg",
            "s32[12288]=rand:3:-100:100",
            "--arg",
            "s32[48]=0",
            "--arg",
            "12288",
        ],
    },
    PATHFINDER,
];

/// Rodinia pathfinder, one launch of a 20-row pyramid (also a case of `warpstep experiment mrpb`).
pub const PATHFINDER: BenchCase = BenchCase {
    name: "pathfinder",
    about: "Rodinia pathfinder: dynamic programming with boundary divergence, 48 warps",
    ptx: include_str!("../../tests/data/ptx-corpus/dice_rodinia_pathfinder.ptx"),
    flags: &[
        "--grid",
        "6",
        "--block",
        "256",
        "--arg",
        "20",
        "--arg",
        "s32[25920]=rand:4:0:9",
        "--arg",
        "s32[1296]=rand:5:0:9",
        "--arg",
        "s32[1296]=0",
        "--arg",
        "1296",
        "--arg",
        "21",
        "--arg",
        "0",
        "--arg",
        "20",
    ],
};

/// A ready-to-run simulation of `case` on `preset` (with `sets` overrides).
pub fn simulation(case: &BenchCase, preset: &str, sets: &[String]) -> Result<Sim, InputError> {
    prepared(case, preset, sets)?.into_sim(&[])
}

/// The thread instructions `case` executes to its end on `preset`, counted by the functional
/// model (no timing): what a sampled timing run is scaled by.
pub fn thread_instructions(case: &BenchCase, preset: &str, sets: &[String]) -> Result<u64, String> {
    let mut prepared = prepared(case, preset, sets).map_err(|e| e.to_string())?;
    let report = prepared.run_functional(&[]).map_err(|e| e.to_string())?;
    match report.error {
        None => Ok(report.thread_instructions),
        Some(e) => Err(e),
    }
}

fn prepared(case: &BenchCase, preset: &str, sets: &[String]) -> Result<Prepared, InputError> {
    let mut flags = LaunchFlags::parse_tokens(case.flags).map_err(InputError::Launch)?;
    flags.sets.extend(sets.iter().cloned());
    let config_for = |name: &str| Config::preset(name).map_err(|e| e.to_string());
    let no_files = |p: &str| Err(format!("no file {p} in a benchmark"));
    prepare(case.ptx, flags, &|_| config_for(preset), &no_files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_completes_on_fermi() {
        for case in STANDARD {
            let mut sim = simulation(case, "fermi", &[]).unwrap();
            sim.run(20_000_000);
            assert_eq!(
                sim.status(),
                &crate::sim::Status::Completed,
                "{}",
                case.name
            );
        }
    }
}
