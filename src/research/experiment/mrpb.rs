//! The MRPB paper's experiment (Jia, Shaw and Martonosi, "MRPB: Memory Request Prioritization
//! for Massively Parallel Processors", HPCA 2014; `/work/shared/seeds/004_ebf0a7810a2331d2.txt`)
//! on our kernels: Section 4's two baselines (Table 1's Base-S and Base-L, presets
//! `tesla-c2050-s` and `tesla-c2050-l`, one SM), Section 5.5's final design against them
//! ([`CASES`], Fig. 14) and Sections 5.1-5.4's design space (Table 4, [`SWEEPS`]).
//!
//! [`plan`] lists the distinct runs; the caller runs them and hands them to [`Report::new`].

use super::{geomean, ipc_ratio, Case, Machine, Measured, Outcome, Run, Suite};
use crate::config::MrpbConfig;
use serde::Serialize;

pub use super::mrpb_cases::{select, CASES};
pub use super::mrpb_chip::{on_chip, PAPER_SMS};
pub use super::mrpb_unshared::{UnsharedGap, UnsharedRow, UNSHARED};

/// The paper's two baselines (MRPB §4, Table 1): preset and the paper's name.
pub const PRESETS: [(&str, &str); 2] = [("tesla-c2050-s", "Base-S"), ("tesla-c2050-l", "Base-L")];

/// The paper's final design (Table 4's bold values) is the `mrpb` defaults: this turns it on.
pub const ON: &str = "mrpb.enabled=true";

/// The paper's geometric-mean IPC gains of the final design (MRPB §5.5, Fig. 14).
pub const PAPER_GEOMEANS: [(Suite, &str, f64); 4] = [
    (Suite::PolyBench, "tesla-c2050-s", 2.65),
    (Suite::PolyBench, "tesla-c2050-l", 2.23),
    (Suite::Rodinia, "tesla-c2050-s", 1.27),
    (Suite::Rodinia, "tesla-c2050-l", 1.15),
];

/// The design space is explored on Base-S (MRPB §5: the -L results are "similar").
pub const DESIGN_PRESET: &str = "tesla-c2050-s";

/// The design space runs on an intra-warp case (atax_1's row walk, MRPB Fig. 2), the paper's
/// cross-warp PolyBench kernel (syrk: half its evictions cross-warp on Base-S), a
/// cache-insensitive one (gemm, where §5 expects little effect and §5.4 a loss from bypassing)
/// and the Rodinia case whose evictions are mostly cross-warp (hotspot: 73 k of its 76 k).
pub const DESIGN_CASES: [&str; 4] = ["atax_1", "syrk", "gemm", "hotspot"];

/// One point of a sweep: its label and the `--set`s (after [`ON`] and the sweep's base).
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    pub label: &'static str,
    pub sets: &'static [&'static str],
}

/// One key of Table 4 varied over its values, everything else fixed.
#[derive(Debug, Clone, Copy)]
pub struct Sweep {
    pub name: &'static str,
    /// Where the paper explores it.
    pub section: &'static str,
    /// What stays fixed, in words.
    pub setup: &'static str,
    /// `--set`s that stay fixed (after [`ON`]).
    pub base: &'static [&'static str],
    pub settings: &'static [Setting],
    /// What the paper found.
    pub paper: &'static str,
}

const fn setting(label: &'static str, sets: &'static [&'static str]) -> Setting {
    Setting { label, sets }
}

/// Section 5's exploration order: each sweep varies one key of Table 4 with the others as the
/// paper fixed them for its figure (§5.1-5.3 run without bypass, which §5.4 adds last).
const SECTION_5: [&str; 4] = [
    "mrpb.queue_depth=256",
    "mrpb.flush=false",
    "mrpb.bypass=off",
    "mrpb.latency=3",
];

/// The design space of Table 4, each sweep in the configuration of the paper's figure for it.
pub const SWEEPS: [Sweep; 5] = [
    Sweep {
        name: "signature",
        section: "§5.1, Fig. 8",
        setup: "fixed order, queue depth 256 (unlimited), flush off, bypass off, latency 3",
        base: &SECTION_5,
        settings: &[
            setting("warp", &["mrpb.signature=warp"]),
            setting("block", &["mrpb.signature=block"]),
            setting("warp_in_block", &["mrpb.signature=warp_in_block"]),
        ],
        paper: "warp ID best",
    },
    Sweep {
        name: "drain",
        section: "§5.2, Fig. 9",
        setup: "warp signature, queue depth 256 (unlimited), flush off, bypass off, latency 3",
        base: &SECTION_5,
        settings: &[
            setting("fixed", &["mrpb.drain=fixed"]),
            setting("round_robin", &["mrpb.drain=round_robin"]),
            setting("longest_first", &["mrpb.drain=longest_first"]),
            setting("greedy_fixed", &["mrpb.drain=greedy_fixed"]),
            setting("greedy_round_robin", &["mrpb.drain=greedy_round_robin"]),
            setting("greedy_longest_first", &["mrpb.drain=greedy_longest_first"]),
            setting("fixed, 8, flush", &FIXED_8_FLUSH),
            setting("longest_first, 8, flush", &LONGEST_8_FLUSH),
        ],
        paper: "fixed order best",
    },
    Sweep {
        name: "queue depth",
        section: "§5.3, Figs. 10-11",
        setup: "warp signature, fixed order, bypass off, latency 3; flush off (Fig. 10) or on (Fig. 11)",
        base: &["mrpb.bypass=off", "mrpb.latency=3"],
        settings: &[
            setting("4", &["mrpb.queue_depth=4", "mrpb.flush=false"]),
            setting("8", &["mrpb.queue_depth=8", "mrpb.flush=false"]),
            setting("16", &["mrpb.queue_depth=16", "mrpb.flush=false"]),
            setting("32", &["mrpb.queue_depth=32", "mrpb.flush=false"]),
            setting("256", &["mrpb.queue_depth=256", "mrpb.flush=false"]),
            setting("4, flush", &["mrpb.queue_depth=4", "mrpb.flush=true"]),
            setting("8, flush", &["mrpb.queue_depth=8", "mrpb.flush=true"]),
            setting("16, flush", &["mrpb.queue_depth=16", "mrpb.flush=true"]),
        ],
        paper: "short queues suffice; flush helps small queues; 8 chosen",
    },
    Sweep {
        name: "latency",
        section: "§5.3, Fig. 12",
        setup: "warp signature, fixed order, 8 entries, flush on, bypass off",
        base: &["mrpb.bypass=off"],
        settings: &[
            setting("3", &["mrpb.latency=3"]),
            setting("5", &["mrpb.latency=5"]),
            setting("10", &["mrpb.latency=10"]),
            setting("18", &["mrpb.latency=18"]),
        ],
        paper: "latency-insensitive from 3 to 18 cycles",
    },
    Sweep {
        name: "bypass",
        section: "§5.4, Fig. 13",
        setup: "final design; bypass only = one slot, no reordering",
        base: &[],
        settings: &[
            setting("off", &["mrpb.bypass=off"]),
            setting("assoc", &["mrpb.bypass=assoc"]),
            setting("all", &["mrpb.bypass=all"]),
            setting("only, assoc", &BYPASS_ONLY_ASSOC),
            setting("only, all", &BYPASS_ONLY_ALL),
        ],
        paper: "bypass on associativity stalls best",
    },
];

/// §5.2's remark on its own sweep: longest first's lead with unlimited queues "is diminished
/// when the buffer size takes a more realistic value" (8 entries, flush on, §5.3).
const FIXED_8_FLUSH: [&str; 3] = ["mrpb.drain=fixed", "mrpb.queue_depth=8", "mrpb.flush=true"];
const LONGEST_8_FLUSH: [&str; 3] = [
    "mrpb.drain=longest_first",
    "mrpb.queue_depth=8",
    "mrpb.flush=true",
];

/// MRPB §5.4's bypass-only slot: one queue of one entry, no buffer latency.
const BYPASS_ONLY_ASSOC: [&str; 4] = [
    "mrpb.signature=single",
    "mrpb.queue_depth=1",
    "mrpb.latency=0",
    "mrpb.bypass=assoc",
];
const BYPASS_ONLY_ALL: [&str; 4] = [
    "mrpb.signature=single",
    "mrpb.queue_depth=1",
    "mrpb.latency=0",
    "mrpb.bypass=all",
];

/// The `--set`s of MRPB off, MRPB on, and a sweep's setting, on `machine`.
fn off_sets(machine: Machine) -> Vec<String> {
    vec![machine.set(PAPER_SMS)]
}

fn on_sets(machine: Machine) -> Vec<String> {
    vec![machine.set(PAPER_SMS), ON.to_string()]
}

fn setting_sets(machine: Machine, sweep: &Sweep, s: &Setting) -> Vec<String> {
    let mut sets = on_sets(machine);
    sets.extend(sweep.base.iter().chain(s.sets).map(|s| s.to_string()));
    sets
}

/// The window a run on the paper's machine is sampled over (`--sample`): a million cycles, in
/// which every SM of a long launch is full of warps. On one SM, ratios from this window of
/// every case came within a few percent of the whole launches' (docs/mrpb.md).
pub const PAPER_SAMPLE: u64 = 1_000_000;

/// The default sampling on `machine`: [`PAPER_SAMPLE`] on the paper's, none on one SM.
pub fn default_sample(machine: Machine) -> Option<u64> {
    match machine {
        Machine::Paper => Some(PAPER_SAMPLE),
        Machine::OneSm => None,
    }
}

/// `case` as `machine` runs it: the whole launch on the paper's machine, one SM's share on one.
fn launched(case: &Case, machine: Machine) -> Case {
    match machine {
        Machine::Paper => on_chip(*case),
        Machine::OneSm => *case,
    }
}

/// Which runs of a plan are the same simulation: the case, the preset and the MRPB
/// configuration that the `--set`s resolve to (`None` when off).
type RunKey = (&'static str, &'static str, Option<MrpbConfig>);

fn key(run: &Run) -> Result<RunKey, String> {
    let mrpb = run.config()?.mrpb;
    Ok((run.case.name(), run.preset, mrpb.enabled.then_some(mrpb)))
}

/// Every simulation the experiment needs on `machine`, each once: every case off and on on both
/// presets (MRPB §5.5), and every sweep setting on [`DESIGN_PRESET`] for the cases among `cases`
/// named in [`DESIGN_CASES`] (§5.1-5.4). Errors name a run whose `--set`s do not apply.
///
/// `sample`: stop each run after that many cycles and estimate the rest ([`Run::sample`]).
/// The design space runs on one SM only: on the paper's machine it would add 108 runs of a
/// million cycles on 14 SMs.
pub fn plan(cases: &[Case], machine: Machine, sample: Option<u64>) -> Result<Vec<Run>, String> {
    let mut runs: Vec<Run> = Vec::new();
    let mut keys: Vec<RunKey> = Vec::new();
    let mut add = |run: Run| -> Result<(), String> {
        let k = key(&run)?;
        if !keys.contains(&k) {
            keys.push(k);
            runs.push(run);
        }
        Ok(())
    };
    for case in cases {
        for (preset, _) in PRESETS {
            for sets in [off_sets(machine), on_sets(machine)] {
                add(Run {
                    case: launched(case, machine),
                    preset,
                    sets,
                    sample,
                })?;
            }
        }
    }
    for case in design_cases(cases, machine) {
        for sweep in &SWEEPS {
            for s in sweep.settings {
                add(Run {
                    case: launched(&case, machine),
                    preset: DESIGN_PRESET,
                    sets: setting_sets(machine, sweep, s),
                    sample,
                })?;
            }
        }
    }
    Ok(runs)
}

/// The cases among `cases` that the design space runs on `machine` (none on the paper's).
fn design_cases(cases: &[Case], machine: Machine) -> Vec<Case> {
    cases
        .iter()
        .filter(|c| machine == Machine::OneSm && DESIGN_CASES.contains(&c.name()))
        .copied()
        .collect()
}

/// A case off and on, on one preset (a row of MRPB Fig. 14).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OnOff {
    pub case: &'static str,
    pub suite: Suite,
    pub preset: &'static str,
    /// The paper's name for the preset (Base-S, Base-L).
    pub baseline: &'static str,
    pub off: Outcome,
    pub on: Outcome,
    /// IPC on / IPC off.
    pub ipc_ratio: Option<f64>,
}

/// The geometric mean of the IPC ratios of one suite on one preset, beside the paper's, per
/// program as the paper averages (§5: "geometric mean IPC of PolyBench and Rodinia programs")
/// and per kernel launch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Geomean {
    pub suite: Suite,
    pub preset: &'static str,
    pub baseline: &'static str,
    pub cases: usize,
    /// Per kernel launch; `None` when a case did not complete.
    pub warpstep: Option<f64>,
    /// Programs: a program's launches run one after another, so its IPC ratio is its
    /// instructions over its cycles, on against off ([`program_of`]).
    pub programs: usize,
    /// Per program, the paper's averaging.
    pub per_program: Option<f64>,
    pub paper: f64,
}

/// The program a case launches a kernel of: `atax_1` and `atax_2` are atax's two kernels,
/// `fdtd_1` to `fdtd_3` fdtd's three.
pub fn program_of(case: &str) -> &str {
    match case.rsplit_once('_') {
        Some((program, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => program,
        _ => case,
    }
}

/// A program's IPC on over off, from its launches' instructions and cycles (a sampled
/// launch's estimated from its window, [`Outcome::estimated_cycles`]).
fn program_ratio(launches: &[&OnOff]) -> Option<f64> {
    let totals = |pick: fn(&OnOff) -> &Outcome| {
        launches.iter().try_fold((0.0, 0.0), |(i, c), r| {
            let o = pick(r);
            o.completed()
                .then(|| (i + o.instructions(), c + o.estimated_cycles()))
        })
    };
    let (on_i, on_c) = totals(|r| &r.on)?;
    let (off_i, off_c) = totals(|r| &r.off)?;
    (on_c > 0.0 && off_i > 0.0).then(|| (on_i / on_c) / (off_i / off_c))
}

/// The per-program IPC ratios of `rows` (one suite on one preset), in first-launch order.
fn program_ratios(rows: &[&OnOff]) -> Vec<Option<f64>> {
    let mut programs: Vec<&str> = Vec::new();
    for r in rows {
        if !programs.contains(&program_of(r.case)) {
            programs.push(program_of(r.case));
        }
    }
    programs
        .iter()
        .map(|p| {
            let launches: Vec<&OnOff> = rows
                .iter()
                .copied()
                .filter(|r| program_of(r.case) == *p)
                .collect();
            program_ratio(&launches)
        })
        .collect()
}

/// The geometric mean of `ratios`, `None` if one is missing.
fn geomean_of(ratios: &[Option<f64>]) -> Option<f64> {
    geomean(&ratios.iter().copied().collect::<Option<Vec<f64>>>()?)
}

/// One setting of a sweep on one case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DesignPoint {
    pub case: &'static str,
    pub setting: &'static str,
    pub outcome: Outcome,
    /// IPC / the case's IPC with MRPB off on [`DESIGN_PRESET`].
    pub normalised_ipc: Option<f64>,
}

/// A sweep of Table 4: its settings on each design case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepReport {
    pub name: &'static str,
    pub section: &'static str,
    pub setup: &'static str,
    pub paper: &'static str,
    pub settings: Vec<&'static str>,
    pub points: Vec<DesignPoint>,
}

impl SweepReport {
    /// `case`'s point at `setting`.
    pub fn point(&self, case: &str, setting: &str) -> Option<&DesignPoint> {
        self.points
            .iter()
            .find(|p| p.case == case && p.setting == setting)
    }

    /// `case`'s best and worst points by normalised IPC (the first listed of equals), when any
    /// completed.
    pub fn best_and_worst(&self, case: &str) -> Option<(&DesignPoint, &DesignPoint)> {
        let ranked = || {
            self.points
                .iter()
                .filter(|p| p.case == case)
                .filter_map(|p| p.normalised_ipc.map(|r| (p, r)))
        };
        let best = ranked().reduce(|a, b| if b.1 > a.1 { b } else { a })?;
        let worst = ranked().reduce(|a, b| if b.1 < a.1 { b } else { a })?;
        Some((best.0, worst.0))
    }
}

/// The whole experiment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub warpstep_version: &'static str,
    pub paper: &'static str,
    /// The machine the runs simulated, and how the report names it.
    pub machine: Machine,
    pub machine_label: String,
    /// The window each run was sampled over ([`Run::sample`]), if any.
    pub sample: Option<u64>,
    /// Every case off and on, case by case, Base-S before Base-L.
    pub cases: Vec<OnOff>,
    /// Per suite and preset.
    pub geomeans: Vec<Geomean>,
    /// Rodinia programs against their unshared versions (§5.6, Fig. 15), per baseline.
    pub unshared: Vec<UnsharedRow>,
    /// The unshared versions' time over the originals', per baseline (§5.6).
    pub unshared_gaps: Vec<UnsharedGap>,
    pub design_preset: &'static str,
    /// The cases the sweeps ran on.
    pub design_cases: Vec<&'static str>,
    pub sweeps: Vec<SweepReport>,
    /// Distinct simulations run.
    pub runs: usize,
    /// Runs that did not complete, with why.
    pub incomplete: Vec<String>,
}

impl Report {
    /// The report of `cases` from the runs of [`plan`]`(cases, machine)` and their
    /// measurements, in the same order. An error names a run the report needs that is missing.
    pub fn new(
        cases: &[Case],
        machine: Machine,
        sample: Option<u64>,
        runs: &[Run],
        measured: &[Measured],
    ) -> Result<Report, String> {
        let outcomes: Vec<Outcome> = measured.iter().map(Outcome::of).collect();
        Report::of_outcomes(cases, machine, sample, runs, &outcomes)
    }

    /// The report from each run's [`Outcome`] (what a shard records), as [`Report::new`].
    pub fn of_outcomes(
        cases: &[Case],
        machine: Machine,
        sample: Option<u64>,
        runs: &[Run],
        outcomes: &[Outcome],
    ) -> Result<Report, String> {
        let mut results: Vec<(RunKey, Outcome)> = Vec::with_capacity(runs.len());
        for (run, o) in runs.iter().zip(outcomes) {
            results.push((key(run)?, o.clone()));
        }
        let outcome = |case: &Case, preset: &'static str, sets: Vec<String>| {
            let run = Run {
                case: launched(case, machine),
                preset,
                sets,
                sample,
            };
            let k = key(&run)?;
            results
                .iter()
                .find(|(r, _)| *r == k)
                .map(|(_, o)| o.clone())
                .ok_or_else(|| format!("no result for {}", run.title()))
        };
        let mut on_off = Vec::new();
        for case in cases {
            for (preset, baseline) in PRESETS {
                let off = outcome(case, preset, off_sets(machine))?;
                let on = outcome(case, preset, on_sets(machine))?;
                on_off.push(OnOff {
                    case: case.name(),
                    suite: case.suite,
                    preset,
                    baseline,
                    ipc_ratio: ipc_ratio(&on, &off),
                    off,
                    on,
                });
            }
        }
        let designed = design_cases(cases, machine);
        let mut sweeps = Vec::new();
        for sweep in &SWEEPS {
            let mut points = Vec::new();
            for case in &designed {
                let off = outcome(case, DESIGN_PRESET, off_sets(machine))?;
                for s in sweep.settings {
                    let o = outcome(case, DESIGN_PRESET, setting_sets(machine, sweep, s))?;
                    points.push(DesignPoint {
                        case: case.name(),
                        setting: s.label,
                        normalised_ipc: ipc_ratio(&o, &off),
                        outcome: o,
                    });
                }
            }
            sweeps.push(SweepReport {
                name: sweep.name,
                section: sweep.section,
                setup: sweep.setup,
                paper: sweep.paper,
                settings: sweep.settings.iter().map(|s| s.label).collect(),
                points,
            });
        }
        let incomplete = super::incomplete(
            runs.iter()
                .zip(outcomes)
                .map(|(r, o)| (r.title(), o.error.as_ref())),
        );
        let unshared = super::mrpb_unshared::rows(&on_off);
        Ok(Report {
            warpstep_version: crate::VERSION,
            paper: "MRPB (Jia, Shaw, Martonosi, HPCA 2014), Sections 4-5",
            machine,
            machine_label: machine.label(PAPER_SMS),
            sample,
            geomeans: geomeans(&on_off),
            unshared_gaps: super::mrpb_unshared::gaps(&unshared),
            unshared,
            cases: on_off,
            design_preset: DESIGN_PRESET,
            design_cases: designed.iter().map(Case::name).collect(),
            sweeps,
            runs: runs.len(),
            incomplete,
        })
    }
}

/// The geometric mean of the IPC ratio per suite and preset, for the suites with cases.
fn geomeans(rows: &[OnOff]) -> Vec<Geomean> {
    PAPER_GEOMEANS
        .iter()
        .filter_map(|&(suite, preset, paper)| {
            let suite_rows: Vec<&OnOff> = rows
                .iter()
                .filter(|r| r.suite == suite && r.preset == preset)
                .collect();
            let ratios: Vec<Option<f64>> = suite_rows.iter().map(|r| r.ipc_ratio).collect();
            let programs = program_ratios(&suite_rows);
            let baseline = PRESETS.iter().find(|(p, _)| *p == preset)?.1;
            (!ratios.is_empty()).then(|| Geomean {
                suite,
                preset,
                baseline,
                cases: ratios.len(),
                warpstep: geomean_of(&ratios),
                programs: programs.len(),
                per_program: geomean_of(&programs),
                paper,
            })
        })
        .collect()
}

#[cfg(test)]
mod program_tests {
    use super::*;
    use crate::experiment::Counters;

    fn outcome(cycles: u64, instructions: f64) -> Outcome {
        Outcome {
            counters: Counters {
                cycles,
                ipc: instructions / cycles as f64,
                l1d_misses: 0,
                reservation_fails: 0,
                evictions_by: Default::default(),
                dram_accesses: 0,
                icnt_packets: 0,
                bypassed: 0,
            },
            error: None,
            wall_seconds: 0.0,
            sampled: None,
        }
    }

    fn row(case: &'static str, off: (u64, f64), on: (u64, f64)) -> OnOff {
        let (off, on) = (outcome(off.0, off.1), outcome(on.0, on.1));
        OnOff {
            case,
            suite: Suite::PolyBench,
            preset: "tesla-c2050-s",
            baseline: "Base-S",
            ipc_ratio: ipc_ratio(&on, &off),
            off,
            on,
        }
    }

    #[test]
    fn a_programs_launches_are_one_run() {
        assert_eq!(program_of("atax_1"), "atax");
        assert_eq!(program_of("atax_2"), "atax");
        assert_eq!(program_of("gemm_ci"), "gemm_ci");
        assert_eq!(program_of("syr2k"), "syr2k");
        // atax: a slow launch 10x faster on, a fast one a little slower: per program the
        // instructions over the cycles, (1000 + 1000) / (100 + 110) against
        // (1000 + 1000) / (1000 + 100).
        let rows = [
            row("atax_1", (1000, 1000.0), (100, 1000.0)),
            row("atax_2", (100, 1000.0), (110, 1000.0)),
            row("syrk", (400, 800.0), (200, 800.0)),
        ];
        let [g] = geomeans(&rows).try_into().unwrap();
        assert_eq!((g.cases, g.programs), (3, 2));
        let atax = (2000.0 / 210.0) / (2000.0 / 1100.0);
        let close = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() < 1e-12;
        assert!(close(g.per_program, (atax * 2.0_f64).sqrt()), "{g:?}");
        assert!(close(g.warpstep, (10.0_f64 * (100.0 / 110.0) * 2.0).cbrt()));
    }
}
