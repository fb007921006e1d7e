//! Correlation with GPGPU-Sim (issue 12): the reference runs recorded in `reference/gpgpusim/`
//! (embedded here, so `warpstep correlate` works from any directory), how warpstep simulates each
//! one, and the report that sets warpstep's counters beside GPGPU-Sim's with their ratios.
//!
//! The model has no clock: the caller runs each [`simulation`], measures its wall time and hands
//! both to [`CaseReport::new`]. [`table`] renders a [`Report`] as text or Markdown.

pub mod table;

use crate::config::Config;
use crate::launch::LaunchFlags;
use crate::run::{prepare, InputError};
use crate::sim::{Sim, SimStats, Status};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

/// `reference/gpgpusim/cases.json`: GPGPU-Sim's numbers and the launches.
const CASES_JSON: &str = include_str!("../../../reference/gpgpusim/cases.json");

/// The PTX files the cases name, by file name.
const PTX_FILES: &[(&str, &str)] = &[
    (
        "saxpy.ptx",
        include_str!("../../../reference/gpgpusim/saxpy.ptx"),
    ),
    (
        "transpose.ptx",
        include_str!("../../../reference/gpgpusim/transpose.ptx"),
    ),
    (
        "stride.ptx",
        include_str!("../../../reference/gpgpusim/stride.ptx"),
    ),
];

/// A case is "within" when warpstep's cycles are within this fraction of GPGPU-Sim's (issue 28
/// tightened it from 10% to 5%).
pub const CYCLE_TOLERANCE: f64 = 0.05;

/// The SM counts the reference was run with.
pub const REFERENCE_SMS: [u32; 2] = [1, 15];

/// GPGPU-Sim's wall time for a run: one measurement, or the ends of a range.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WallSeconds {
    One(f64),
    Range([f64; 2]),
}

impl WallSeconds {
    /// The value to compute rates with: the measurement, or the middle of the range.
    pub fn middle(&self) -> f64 {
        match *self {
            WallSeconds::One(s) => s,
            WallSeconds::Range([low, high]) => (low + high) / 2.0,
        }
    }
}

/// What GPGPU-Sim counted for one run (`cases.json`'s `gpgpusim`). Warp instructions and the
/// L1D's counters are absent where the run's record does not include them (the stride loops).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpgpuSimNumbers {
    pub cycles: u64,
    pub thread_instructions: u64,
    #[serde(default)]
    pub warp_instructions: Option<u64>,
    #[serde(default)]
    pub l1d_accesses: Option<u64>,
    #[serde(default)]
    pub l1d_misses: Option<u64>,
    /// Sum over shared accesses of (conflict degree - 1).
    pub bank_conflict_cycles: u64,
    /// Wall time less start-up, where it was measured.
    #[serde(default)]
    pub wall_seconds: Option<WallSeconds>,
}

/// One reference run: a kernel of a PTX file, its launch, the SM count and GPGPU-Sim's numbers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceCase {
    /// The case's name, shared by its 1-SM and 15-SM runs.
    pub name: String,
    /// The CUDA source beside the PTX.
    pub source: String,
    /// The PTX file in `reference/gpgpusim/`.
    pub ptx: String,
    /// The (mangled) kernel to launch.
    pub kernel: String,
    /// Launch flags other than `--kernel`, as on the command line.
    pub flags: Vec<String>,
    pub sms: u32,
    pub gpgpusim: GpgpuSimNumbers,
}

/// The whole of `cases.json`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceSet {
    /// Where the numbers come from, in a sentence.
    pub about: String,
    /// The warpstep preset that models GPGPU-Sim's configuration (the default `--config`).
    pub preset: String,
    pub cases: Vec<ReferenceCase>,
}

/// The embedded reference: every run, in `cases.json` order.
pub fn reference() -> ReferenceSet {
    serde_json::from_str(CASES_JSON)
        .expect("reference/gpgpusim/cases.json is valid (a unit test parses it)")
}

impl ReferenceCase {
    /// The text of the case's PTX file.
    pub fn ptx_text(&self) -> Option<&'static str> {
        PTX_FILES
            .iter()
            .find(|(name, _)| *name == self.ptx)
            .map(|(_, text)| *text)
    }

    /// "saxpy, 15 SMs".
    pub fn title(&self) -> String {
        title(&self.name, self.sms)
    }
}

/// "saxpy, 15 SMs": a case and its SM count as a person names them.
pub fn title(name: &str, sms: u32) -> String {
    let plural = if sms == 1 { "" } else { "s" };
    format!("{name}, {sms} SM{plural}")
}

/// The distinct case names, in order.
pub fn case_names(cases: &[ReferenceCase]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for c in cases {
        if !names.contains(&c.name) {
            names.push(c.name.clone());
        }
    }
    names
}

/// The cases named in `names` (all when empty) run on `sms` SMs (both counts when `None`), in
/// reference order. Errors name the bad `--case` or `--sms`.
pub fn select(
    cases: &[ReferenceCase],
    names: &[String],
    sms: Option<u32>,
) -> Result<Vec<ReferenceCase>, String> {
    let known = case_names(cases);
    if let Some(bad) = names.iter().find(|n| !known.contains(n)) {
        return Err(format!(
            "--case {bad}: no such case (one of: {})",
            known.join(", ")
        ));
    }
    if let Some(n) = sms.filter(|n| !REFERENCE_SMS.contains(n)) {
        return Err(format!(
            "--sms {n}: GPGPU-Sim was run with 1 and 15 SMs only"
        ));
    }
    Ok(cases
        .iter()
        .filter(|c| names.is_empty() || names.contains(&c.name))
        .filter(|c| sms.map_or(true, |n| c.sms == n))
        .cloned()
        .collect())
}

/// `--set` overrides a user may add: any but `num_sms`, which each case sets.
pub fn check_user_sets(sets: &[String]) -> Result<(), String> {
    for s in sets {
        let key = s.split_once('=').map_or(s.as_str(), |(k, _)| k).trim();
        if key == "num_sms" {
            return Err(format!(
                "--set {s}: each reference case runs on its own SM count (1 or 15), so num_sms is not a setting here"
            ));
        }
    }
    Ok(())
}

/// A ready-to-run simulation of `case` on `base` with `num_sms` set to the case's SM count, then
/// the user's `sets`.
pub fn simulation(case: &ReferenceCase, base: &Config, sets: &[String]) -> Result<Sim, InputError> {
    let ptx = case.ptx_text().ok_or_else(|| {
        InputError::Config(format!(
            "case {}: no embedded PTX file {}",
            case.name, case.ptx
        ))
    })?;
    let mut tokens = vec!["--kernel".to_string(), case.kernel.clone()];
    tokens.extend(case.flags.iter().cloned());
    let mut flags = LaunchFlags::parse_tokens(&tokens).map_err(InputError::Launch)?;
    flags.sets.push(format!("num_sms={}", case.sms));
    flags.sets.extend(sets.iter().cloned());
    let config_for = |_: &str| Ok(base.clone());
    let no_files = |p: &str| Err(format!("no file {p} in a reference case"));
    prepare(ptx, flags, &config_for, &no_files)?.into_sim(&[])
}

/// What one warpstep run of a case gave: its statistics, how it ended, and its wall time (which
/// the caller measures).
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    pub stats: SimStats,
    /// `None` when the kernel completed.
    pub error: Option<String>,
    pub wall_seconds: f64,
    /// A sampled run (an experiment's plan may stop a long launch after a window of cycles and
    /// estimate the rest from it): the whole launch's thread instructions, counted by the
    /// functional model. `None`: the run went to its end.
    pub sampled: Option<u64>,
}

impl Measured {
    /// The measurement of a finished (or stopped) simulation.
    pub fn of(sim: &Sim, wall_seconds: f64) -> Measured {
        let error = match sim.status() {
            Status::Completed => None,
            Status::Failed(e) => Some(e.to_string()),
            Status::Running => Some("the simulation has not finished".to_string()),
        };
        Measured {
            stats: sim.stats(),
            error,
            wall_seconds,
            sampled: None,
        }
    }
}

/// A counter's value: a count, or a rate such as IPC.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Number {
    Count(u64),
    Rate(f64),
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Count(n) => n as f64,
            Number::Rate(r) => r,
        }
    }
}

/// One counter of one case: warpstep's value, GPGPU-Sim's where it was recorded, and their ratio.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metric {
    /// The JSON key (`l1d_accesses`).
    #[serde(skip)]
    pub key: &'static str,
    /// The name in the tables (`L1D accesses`).
    #[serde(skip)]
    pub label: &'static str,
    pub warpstep: Number,
    pub gpgpusim: Option<Number>,
    /// warpstep / GPGPU-Sim (see [`ratio`]).
    pub ratio: Option<f64>,
}

impl Metric {
    fn new(
        key: &'static str,
        label: &'static str,
        warpstep: Number,
        gpgpusim: Option<Number>,
    ) -> Metric {
        Metric {
            key,
            label,
            warpstep,
            gpgpusim,
            ratio: gpgpusim.and_then(|g| ratio(warpstep.as_f64(), g.as_f64())),
        }
    }

    /// Whether warpstep's value equals GPGPU-Sim's.
    pub fn identical(&self) -> bool {
        self.gpgpusim == Some(self.warpstep)
    }
}

/// warpstep / reference; 1 when both are 0; `None` when only the reference is 0.
pub fn ratio(warpstep: f64, reference: f64) -> Option<f64> {
    if reference != 0.0 {
        Some(warpstep / reference)
    } else if warpstep == 0.0 {
        Some(1.0)
    } else {
        None
    }
}

/// Whether a ratio is within `CYCLE_TOLERANCE` of 1.
pub fn within_tolerance(ratio: Option<f64>) -> bool {
    ratio.is_some_and(|r| (r - 1.0).abs() <= CYCLE_TOLERANCE + 1e-12)
}

/// A case's counters in table order; serialised as a map from key to values.
#[derive(Debug, Clone, PartialEq)]
pub struct Metrics(pub Vec<Metric>);

impl Serialize for Metrics {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for m in &self.0 {
            map.serialize_entry(m.key, m)?;
        }
        map.end()
    }
}

impl Metrics {
    /// The counter with JSON key `key`.
    pub fn get(&self, key: &str) -> Option<&Metric> {
        self.0.iter().find(|m| m.key == key)
    }

    /// warpstep's counters beside GPGPU-Sim's.
    fn compare(s: &SimStats, g: &GpgpuSimNumbers) -> Metrics {
        use Number::{Count, Rate};
        let ref_ipc = ratio(g.thread_instructions as f64, g.cycles as f64).unwrap_or(0.0);
        Metrics(vec![
            Metric::new("cycles", "cycles", Count(s.cycles), Some(Count(g.cycles))),
            Metric::new("ipc", "IPC", Rate(s.ipc), Some(Rate(ref_ipc))),
            Metric::new(
                "warp_instructions",
                "warp instructions",
                Count(s.warp_instructions),
                g.warp_instructions.map(Count),
            ),
            Metric::new(
                "thread_instructions",
                "thread instructions",
                Count(s.thread_instructions),
                Some(Count(g.thread_instructions)),
            ),
            Metric::new(
                "l1d_accesses",
                "L1D accesses",
                Count(s.l1d.accesses),
                g.l1d_accesses.map(Count),
            ),
            Metric::new(
                "l1d_misses",
                "L1D misses",
                Count(s.l1d.misses),
                g.l1d_misses.map(Count),
            ),
            Metric::new("l2_accesses", "L2 accesses", Count(s.l2.accesses), None),
            Metric::new("l2_misses", "L2 misses", Count(s.l2.misses), None),
            Metric::new("dram_reads", "DRAM reads", Count(s.dram.reads), None),
            Metric::new("dram_writes", "DRAM writes", Count(s.dram.writes), None),
            Metric::new(
                "bank_conflict_cycles",
                "bank-conflict cycles",
                Count(s.shared.bank_conflict_cycles),
                Some(Count(g.bank_conflict_cycles)),
            ),
        ])
    }
}

/// How fast each simulator ran the case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Speed {
    pub warpstep_seconds: f64,
    /// Simulated cycles per wall second.
    pub warpstep_cycles_per_second: f64,
    /// Warp instructions per wall second.
    pub warpstep_warp_instructions_per_second: f64,
    /// GPGPU-Sim's wall time, where it was measured.
    pub gpgpusim_seconds: Option<WallSeconds>,
    pub gpgpusim_cycles_per_second: Option<f64>,
    /// GPGPU-Sim's wall time / warpstep's.
    pub speedup: Option<f64>,
}

impl Speed {
    fn new(m: &Measured, g: &GpgpuSimNumbers) -> Speed {
        let per_second = |n: u64| ratio(n as f64, m.wall_seconds).unwrap_or(0.0);
        Speed {
            warpstep_seconds: m.wall_seconds,
            warpstep_cycles_per_second: per_second(m.stats.cycles),
            warpstep_warp_instructions_per_second: per_second(m.stats.warp_instructions),
            gpgpusim_seconds: g.wall_seconds,
            gpgpusim_cycles_per_second: g
                .wall_seconds
                .and_then(|w| ratio(g.cycles as f64, w.middle())),
            speedup: g
                .wall_seconds
                .and_then(|w| ratio(w.middle(), m.wall_seconds)),
        }
    }
}

/// One case of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseReport {
    pub name: String,
    pub sms: u32,
    pub kernel: String,
    pub ptx: String,
    pub completed: bool,
    /// The fault or deadlock, when the kernel did not complete.
    pub error: Option<String>,
    pub metrics: Metrics,
    pub speed: Speed,
}

impl CaseReport {
    /// warpstep's run of `case` set beside GPGPU-Sim's numbers.
    pub fn new(case: &ReferenceCase, measured: &Measured) -> CaseReport {
        CaseReport {
            name: case.name.clone(),
            sms: case.sms,
            kernel: case.kernel.clone(),
            ptx: case.ptx.clone(),
            completed: measured.error.is_none(),
            error: measured.error.clone(),
            metrics: Metrics::compare(&measured.stats, &case.gpgpusim),
            speed: Speed::new(measured, &case.gpgpusim),
        }
    }

    /// "saxpy, 15 SMs".
    pub fn title(&self) -> String {
        title(&self.name, self.sms)
    }

    /// warpstep's and GPGPU-Sim's cycles.
    pub fn cycles(&self) -> (u64, u64) {
        let m = self.metrics.get("cycles");
        let count = |n: Option<Number>| match n {
            Some(Number::Count(c)) => c,
            _ => 0,
        };
        (
            count(m.map(|m| m.warpstep)),
            count(m.and_then(|m| m.gpgpusim)),
        )
    }

    fn within_on_cycles(&self) -> bool {
        self.completed && within_tolerance(self.metrics.get("cycles").and_then(|m| m.ratio))
    }

    fn identical(&self, key: &str) -> bool {
        self.metrics.get(key).is_some_and(Metric::identical)
    }

    /// Whether GPGPU-Sim's record has counter `key` for this case.
    fn has_reference(&self, key: &str) -> bool {
        self.metrics.get(key).is_some_and(|m| m.gpgpusim.is_some())
    }
}

/// How many cases agree with GPGPU-Sim, and which do not.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub cases: usize,
    pub completed: usize,
    /// Cases whose cycles are within `tolerance` of GPGPU-Sim's.
    pub cycles_within_tolerance: usize,
    pub tolerance: f64,
    pub l1d_accesses_identical: usize,
    /// Cases whose GPGPU-Sim record has the L1D accesses (the identical ones are among them).
    pub l1d_accesses_compared: usize,
    pub bank_conflict_cycles_identical: usize,
    /// Cases whose GPGPU-Sim record has the bank-conflict cycles.
    pub bank_conflict_cycles_compared: usize,
    /// Titles of the cases whose L1D accesses differ.
    pub l1d_accesses_differ: Vec<String>,
    /// Titles of the cases whose bank-conflict cycles differ.
    pub bank_conflict_cycles_differ: Vec<String>,
}

impl Summary {
    /// The counts over `cases`.
    pub fn of(cases: &[CaseReport]) -> Summary {
        let differ = |key: &str| -> Vec<String> {
            cases
                .iter()
                .filter(|c| c.has_reference(key) && !c.identical(key))
                .map(CaseReport::title)
                .collect()
        };
        let compared = |key: &str| cases.iter().filter(|c| c.has_reference(key)).count();
        let l1d_accesses_differ = differ("l1d_accesses");
        let bank_conflict_cycles_differ = differ("bank_conflict_cycles");
        Summary {
            cases: cases.len(),
            completed: cases.iter().filter(|c| c.completed).count(),
            cycles_within_tolerance: cases.iter().filter(|c| c.within_on_cycles()).count(),
            tolerance: CYCLE_TOLERANCE,
            l1d_accesses_identical: compared("l1d_accesses") - l1d_accesses_differ.len(),
            l1d_accesses_compared: compared("l1d_accesses"),
            bank_conflict_cycles_identical: compared("bank_conflict_cycles")
                - bank_conflict_cycles_differ.len(),
            bank_conflict_cycles_compared: compared("bank_conflict_cycles"),
            l1d_accesses_differ,
            bank_conflict_cycles_differ,
        }
    }
}

/// The whole comparison: what was run and each case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub warpstep_version: &'static str,
    pub reference: &'static str,
    /// The `--config` preset or file the cases ran on.
    pub config: String,
    /// The user's `--set` overrides (after each case's `num_sms`).
    pub sets: Vec<String>,
    pub cases: Vec<CaseReport>,
    pub summary: Summary,
}

impl Report {
    pub fn new(config: &str, sets: &[String], cases: Vec<CaseReport>) -> Report {
        Report {
            warpstep_version: crate::VERSION,
            reference: "GPGPU-Sim 4.2.0 (dev), PTX mode, SM2_GTX480",
            config: config.to_string(),
            sets: sets.to_vec(),
            summary: Summary::of(&cases),
            cases,
        }
    }
}

#[cfg(test)]
mod tests;
