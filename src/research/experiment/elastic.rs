//! The elastic pipeline paper's experiment (Gou and Gaydadjiev, "Elastic pipeline: addressing
//! GPU on-chip shared memory bank conflicts", CF'11; `/work/shared/seeds/000_c7838771cbb2ca52.txt`)
//! on our kernels (`tests/data/kernels/elastic.cu`, `docs/elastic-kernels.md`), all on the
//! `elastic-cf11` preset with Table 3's 16 cores (or one, the `--one-sm` ablation): Table 4's intensity, degree and theoretic bound
//! measured on the baseline, Fig. 8's stall breakdown (§5.1), Fig. 9's speedups (§5.2) and
//! Fig. 10's unpadded kernels on the enhanced GPU against the padded (hand-optimised) ones on
//! the baseline.
//!
//! [`plan`] lists the runs (each un-padded kernel in every [`Setup`], each padded one on the
//! baseline); the caller runs them and hands them to [`Report::new`].

use super::{geomean, Case, FromStats, Machine, Measured, Run, Suite};
use crate::core::conflict_history::HistoryStats;
use crate::sim::SimStats;
use serde::{Deserialize, Serialize};

pub use super::elastic_kernels::{select, Kernel, Launches, PaperRow, Size, KERNELS};

/// Every run is on Table 3's configuration.
pub const PRESET: &str = "elastic-cf11";

/// Table 3's "Number of Cores": the paper's machine (the preset has one core).
pub const PAPER_CORES: u32 = 16;

/// The paper's headline (abstract, §5.1-5.2): averages over its eight kernels (Table 4; we
/// run the same eight).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Headline {
    /// Pure elastic pipeline (round robin) over the baseline, average (§5.2, Fig. 9).
    pub elastic_average: f64,
    /// Elastic pipeline with bank-conflict-aware scheduling, average and best (§5.2, Fig. 9).
    pub elastic_scheduler_average: f64,
    pub elastic_scheduler_max: f64,
    /// Fig. 8's stall reduction by the enhanced GPU, average and best (§5.1, abstract).
    pub stall_reduction_average: f64,
    pub stall_reduction_max: f64,
}

pub const PAPER: Headline = Headline {
    elastic_average: 1.032,
    elastic_scheduler_average: 1.133,
    elastic_scheduler_max: 1.207,
    stall_reduction_average: 0.423,
    stall_reduction_max: 0.640,
};

/// A configuration of the core (Table 3's two columns and the steps between them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Setup {
    /// The baseline GPU: split pipeline (Fig. 4(b)), round robin.
    Baseline,
    /// The in-order pipeline of Fig. 4(a), round robin: a second baseline.
    InOrder,
    /// Bank-conflict-aware scheduling on the split pipeline (§4.3: alone it cannot help).
    Scheduler,
    /// The pure elastic pipeline (Fig. 6), round robin (§5.2's "default warp scheduling").
    Elastic,
    /// The enhanced GPU: elastic pipeline and bank-conflict-aware scheduling (§5).
    ElasticScheduler,
}

impl Setup {
    /// Every setup, the baseline first.
    pub const ALL: [Setup; 5] = [
        Setup::Baseline,
        Setup::InOrder,
        Setup::Scheduler,
        Setup::Elastic,
        Setup::ElasticScheduler,
    ];

    /// The `--set`s on top of [`PRESET`] (the baseline's restate the preset's own values).
    pub fn sets(self) -> &'static [&'static str] {
        match self {
            Setup::Baseline => &["elastic.baseline=split", "core.scheduler=lrr"],
            Setup::InOrder => &["elastic.baseline=in_order", "core.scheduler=lrr"],
            Setup::Scheduler => &[
                "elastic.baseline=split",
                "core.scheduler=bank_conflict_aware",
            ],
            Setup::Elastic => &["elastic.enabled=true", "core.scheduler=lrr"],
            Setup::ElasticScheduler => {
                &["elastic.enabled=true", "core.scheduler=bank_conflict_aware"]
            }
        }
    }

    /// The column heading.
    pub fn label(self) -> &'static str {
        match self {
            Setup::Baseline => "baseline",
            Setup::InOrder => "in-order",
            Setup::Scheduler => "scheduler alone",
            Setup::Elastic => "pure elastic",
            Setup::ElasticScheduler => "elastic + scheduler",
        }
    }

    fn index(self) -> usize {
        Setup::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }
}

/// The run of `case` in `setup` on `machine`.
fn run_of(case: Case, setup: Setup, machine: Machine) -> Run {
    let mut sets = vec![machine.set(PAPER_CORES)];
    sets.extend(setup.sets().iter().map(|s| s.to_string()));
    Run {
        case,
        preset: PRESET,
        sets,
        sample: None,
    }
}

/// Every simulation the experiment needs: each of `kernels` in every [`Setup`] (§5.1-5.2), then
/// each padded version on the baseline (Fig. 10), all on `machine`. Errors name a run whose
/// `--set`s do not apply.
pub fn plan(kernels: &[Kernel], size: Size, machine: Machine) -> Result<Vec<Run>, String> {
    let mut runs: Vec<Run> = kernels
        .iter()
        .flat_map(|k| Setup::ALL.map(|s| run_of(k.case(size), s, machine)))
        .collect();
    runs.extend(
        kernels
            .iter()
            .filter_map(|k| k.padded_case(size))
            .map(|c| run_of(c, Setup::Baseline, machine)),
    );
    for run in &runs {
        run.config()?;
    }
    Ok(runs)
}

/// Fig. 8's three kinds of pipeline stall (§5.1), scheduler-cycles from the run's `stalls`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stalls {
    /// Warp scheduling fails: no warp could issue for any other reason, none being ready
    /// (`barrel`, scoreboard, barrier, throttles...) or the bank-conflict-aware scheduler
    /// having masked the ready ones (`scheduling_fail`, counted apart in `masked`).
    pub scheduling_fail: u64,
    /// Of those, the cycles the mask caused.
    pub masked: u64,
    /// A memory instruction waited behind a shared access replaying conflicts (`bank_conflict`).
    pub bank_conflict: u64,
    /// "Other": a result waited for writeback (`writeback_conflict`).
    pub other: u64,
}

impl Stalls {
    pub fn of(s: &SimStats) -> Stalls {
        let count = |name: &str| s.stalls.get(name).copied().unwrap_or(0);
        let (bank_conflict, other) = (count("bank_conflict"), count("writeback_conflict"));
        let all: u64 = s.stalls.values().sum();
        Stalls {
            scheduling_fail: all - bank_conflict - other,
            masked: count("scheduling_fail"),
            bank_conflict,
            other,
        }
    }

    pub fn total(&self) -> u64 {
        self.scheduling_fail + self.bank_conflict + self.other
    }
}

/// The counters the experiment reads from one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Counters {
    pub cycles: u64,
    pub warp_instructions: u64,
    /// Shared-memory warp instructions.
    pub shared_instructions: u64,
    /// Sub-warp (SIMD) shared accesses with an active lane.
    pub shared_accesses: u64,
    /// Passes beyond one per sub-warp access.
    pub bank_conflict_cycles: u64,
    pub stalls: Stalls,
    /// The history cache's predictions (bank-conflict-aware scheduler only).
    #[serde(default, deserialize_with = "super::shard_serde::history")]
    pub history: Option<HistoryStats>,
}

impl FromStats for Counters {
    fn of(s: &SimStats) -> Counters {
        Counters {
            cycles: s.cycles,
            warp_instructions: s.warp_instructions,
            shared_instructions: s.shared.instructions,
            shared_accesses: s.shared.accesses,
            bank_conflict_cycles: s.shared.bank_conflict_cycles,
            stalls: Stalls::of(s),
            history: s.conflict_history,
        }
    }
}

impl Counters {
    /// Table 4's average bank conflict degree: passes per sub-warp access
    /// (docs/elastic-kernels.md, "Measuring Table 4's columns").
    pub fn degree(&self) -> Option<f64> {
        let a = self.shared_accesses;
        (a > 0).then(|| (a + self.bank_conflict_cycles) as f64 / a as f64)
    }

    /// Table 4's shared memory intensity, in warp instructions.
    pub fn intensity(&self) -> Option<f64> {
        let w = self.warp_instructions;
        (w > 0).then(|| self.shared_instructions as f64 / w as f64)
    }

    /// Table 4's theoretic speedup, 1 + intensity x (degree - 1).
    pub fn theoretic_speedup(&self) -> Option<f64> {
        Some(1.0 + self.intensity()? * (self.degree()? - 1.0))
    }
}

/// One run's result.
pub type Outcome = super::Outcome<Counters>;

/// `base`'s cycles over `value`'s, when both completed.
pub fn speedup(value: &Outcome, base: &Outcome) -> Option<f64> {
    let (v, b) = (value.counters.cycles, base.counters.cycles);
    (value.completed() && base.completed() && v > 0).then(|| b as f64 / v as f64)
}

/// How the history cache's predictions turned out (§4.2, §5.1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Accuracy {
    pub exact: u64,
    pub under: u64,
    pub over: u64,
    /// exact / (exact + under + over).
    pub exact_fraction: Option<f64>,
}

impl Accuracy {
    pub fn of(h: &HistoryStats) -> Accuracy {
        let scored = h.exact + h.under + h.over;
        Accuracy {
            exact: h.exact,
            under: h.under,
            over: h.over,
            exact_fraction: (scored > 0).then(|| h.exact as f64 / scored as f64),
        }
    }
}

/// Table 4's measured columns on the baseline beside the paper's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table4 {
    pub intensity: Option<f64>,
    pub degree: Option<f64>,
    pub theoretic_speedup: Option<f64>,
    pub paper_intensity: f64,
    pub paper_degree: f64,
    pub paper_theoretic_speedup: f64,
}

/// One kernel in one setup (a bar of Fig. 9).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SetupRun {
    pub setup: Setup,
    pub outcome: Outcome,
    /// Baseline cycles / this setup's cycles (1 for the baseline).
    pub speedup: Option<f64>,
}

/// One un-padded kernel in every setup.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelReport {
    pub kernel: &'static str,
    /// Table 4's name.
    pub paper_name: &'static str,
    pub source: Suite,
    /// One per [`Setup::ALL`], in that order.
    pub setups: Vec<SetupRun>,
    pub table4: Table4,
    /// Fig. 8: the baseline and the enhanced GPU.
    pub stalls_baseline: Stalls,
    pub stalls_elastic_scheduler: Stalls,
    /// 1 - enhanced total / baseline total.
    pub stall_reduction: Option<f64>,
    /// The history cache in the scheduler-alone and the enhanced runs.
    pub history_scheduler: Option<Accuracy>,
    pub history_elastic_scheduler: Option<Accuracy>,
}

impl KernelReport {
    pub fn outcome(&self, setup: Setup) -> &Outcome {
        &self.setups[setup.index()].outcome
    }

    pub fn speedup(&self, setup: Setup) -> Option<f64> {
        self.setups[setup.index()].speedup
    }

    /// The report of `kernel` from its outcomes in the order of [`Setup::ALL`].
    fn new(kernel: &Kernel, outcomes: Vec<Outcome>) -> KernelReport {
        let base = outcomes[Setup::Baseline.index()].clone();
        let setups: Vec<SetupRun> = Setup::ALL
            .iter()
            .zip(outcomes)
            .map(|(&setup, outcome)| SetupRun {
                setup,
                speedup: speedup(&outcome, &base),
                outcome,
            })
            .collect();
        let counters = |s: Setup| &setups[s.index()].outcome.counters;
        let history = |s: Setup| counters(s).history.as_ref().map(Accuracy::of);
        let (b, e) = (
            base.counters.stalls,
            counters(Setup::ElasticScheduler).stalls,
        );
        KernelReport {
            kernel: kernel.name,
            paper_name: kernel.paper.name,
            source: kernel.source,
            table4: Table4 {
                intensity: base.counters.intensity(),
                degree: base.counters.degree(),
                theoretic_speedup: base.counters.theoretic_speedup(),
                paper_intensity: kernel.paper.intensity,
                paper_degree: kernel.paper.degree,
                paper_theoretic_speedup: kernel.paper.theoretic_speedup,
            },
            stall_reduction: reduction(b.total(), e.total()),
            stalls_baseline: b,
            stalls_elastic_scheduler: e,
            history_scheduler: history(Setup::Scheduler),
            history_elastic_scheduler: history(Setup::ElasticScheduler),
            setups,
        }
    }
}

/// 1 - after / before, when there was something before.
fn reduction(before: u64, after: u64) -> Option<f64> {
    (before > 0).then(|| 1.0 - after as f64 / before as f64)
}

/// Fig. 10: the padded (hand-optimised) kernel on the baseline against the un-padded one on
/// the enhanced GPU, both over the un-padded kernel on the baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HandOptimised {
    pub kernel: &'static str,
    pub padded_kernel: &'static str,
    pub padded: Outcome,
    /// The padded kernel's degree on the baseline (1 when the padding removed every conflict).
    pub padded_degree: Option<f64>,
    /// Un-padded baseline cycles / padded baseline cycles.
    pub padded_speedup: Option<f64>,
    /// Un-padded baseline cycles / un-padded enhanced cycles.
    pub elastic_scheduler_speedup: Option<f64>,
    /// Padded baseline cycles / un-padded enhanced cycles (above 1: the elastic pipeline wins).
    pub elastic_over_padded: Option<f64>,
}

/// A speedup (or reduction) over the kernels: our mean and best beside the paper's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Average {
    pub what: &'static str,
    pub kernels: usize,
    /// The paper's "average": the arithmetic mean.
    pub arithmetic: Option<f64>,
    pub geometric: Option<f64>,
    pub max: Option<f64>,
    pub paper_average: Option<f64>,
    pub paper_max: Option<f64>,
}

impl Average {
    fn of(what: &'static str, values: &[Option<f64>], paper: (Option<f64>, Option<f64>)) -> Self {
        let all: Option<Vec<f64>> = values.iter().copied().collect();
        let all = all.filter(|v| !v.is_empty());
        Average {
            what,
            kernels: values.len(),
            arithmetic: all.as_ref().map(|v| v.iter().sum::<f64>() / v.len() as f64),
            geometric: all.as_ref().and_then(|v| geomean(v)),
            max: all
                .as_ref()
                .map(|v| v.iter().copied().fold(f64::MIN, f64::max)),
            paper_average: paper.0,
            paper_max: paper.1,
        }
    }
}

/// A setup and its `--set`s, as the report lists them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SetupSets {
    pub setup: Setup,
    pub sets: &'static [&'static str],
}

/// The whole experiment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub warpstep_version: &'static str,
    pub paper: &'static str,
    pub preset: &'static str,
    /// Table 3's 16 cores, or the one-core ablation.
    pub machine: Machine,
    /// The cores simulated.
    pub cores: u32,
    /// `--quick`: smaller grids (the tests').
    pub quick: bool,
    /// Each setup's `--set`s.
    pub setups: Vec<SetupSets>,
    pub kernels: Vec<KernelReport>,
    /// Speedups per setup and the stall reduction, over the kernels.
    pub averages: Vec<Average>,
    pub paper_headline: Headline,
    /// Fig. 10, for the kernels with a padded version.
    pub hand_optimised: Vec<HandOptimised>,
    /// Simulations run.
    pub runs: usize,
    /// Runs that did not complete, with why.
    pub incomplete: Vec<String>,
}

impl Report {
    /// The report of `kernels` from the runs of [`plan`]`(kernels, size, machine)` and their
    /// measurements, in the same order. An error names a run the report needs that is missing.
    pub fn new(
        kernels: &[Kernel],
        size: Size,
        machine: Machine,
        runs: &[Run],
        measured: &[Measured],
    ) -> Result<Report, String> {
        let outcomes: Vec<Outcome> = measured.iter().map(Outcome::of).collect();
        Report::of_outcomes(kernels, size, machine, runs, &outcomes)
    }

    /// The report from each run's [`Outcome`] (what a shard records), as [`Report::new`].
    pub fn of_outcomes(
        kernels: &[Kernel],
        size: Size,
        machine: Machine,
        runs: &[Run],
        outcomes: &[Outcome],
    ) -> Result<Report, String> {
        let find = |case: Case, setup: Setup| -> Result<Outcome, String> {
            let want = run_of(case, setup, machine);
            runs.iter()
                .zip(outcomes)
                .find(|(r, _)| r.case.name() == case.name() && r.sets == want.sets)
                .map(|(_, o)| o.clone())
                .ok_or_else(|| format!("no result for {}", want.title()))
        };
        let mut reports = Vec::new();
        let mut hand = Vec::new();
        for k in kernels {
            let outcomes = Setup::ALL
                .iter()
                .map(|&s| find(k.case(size), s))
                .collect::<Result<Vec<_>, String>>()?;
            let report = KernelReport::new(k, outcomes);
            if let Some(padded) = k.padded_case(size) {
                hand.push(hand_optimised(
                    &report,
                    padded,
                    find(padded, Setup::Baseline)?,
                ));
            }
            reports.push(report);
        }
        let incomplete = super::incomplete(
            runs.iter()
                .zip(outcomes)
                .map(|(r, o)| (r.title(), o.error.as_ref())),
        );
        Ok(Report {
            warpstep_version: crate::VERSION,
            paper:
                "Elastic pipeline (Gou, Gaydadjiev, CF'11), Sections 5.1-5.2, Table 4, Figs. 8-10",
            preset: PRESET,
            machine,
            cores: machine.sms(PAPER_CORES),
            quick: size == Size::Quick,
            setups: Setup::ALL
                .iter()
                .map(|&setup| SetupSets {
                    setup,
                    sets: setup.sets(),
                })
                .collect(),
            averages: averages(&reports),
            kernels: reports,
            paper_headline: PAPER,
            hand_optimised: hand,
            runs: runs.len(),
            incomplete,
        })
    }

    /// The kernel named `name`.
    pub fn kernel(&self, name: &str) -> Option<&KernelReport> {
        self.kernels.iter().find(|k| k.kernel == name)
    }
}

fn hand_optimised(report: &KernelReport, padded: Case, outcome: Outcome) -> HandOptimised {
    let base = report.outcome(Setup::Baseline);
    let enhanced = report.outcome(Setup::ElasticScheduler);
    HandOptimised {
        kernel: report.kernel,
        padded_kernel: padded.name(),
        padded_degree: outcome.counters.degree(),
        padded_speedup: speedup(&outcome, base),
        elastic_scheduler_speedup: speedup(enhanced, base),
        elastic_over_padded: speedup(enhanced, &outcome),
        padded: outcome,
    }
}

/// The mean speedup of every setup but the baseline, the theoretic bound's, and the mean stall
/// reduction (only the arithmetic mean means anything for a reduction).
fn averages(kernels: &[KernelReport]) -> Vec<Average> {
    let paper = |s: Setup| match s {
        Setup::Elastic => (Some(PAPER.elastic_average), None),
        Setup::ElasticScheduler => (
            Some(PAPER.elastic_scheduler_average),
            Some(PAPER.elastic_scheduler_max),
        ),
        _ => (None, None),
    };
    let mut out: Vec<Average> = Setup::ALL[1..]
        .iter()
        .map(|&s| {
            let values: Vec<Option<f64>> = kernels.iter().map(|k| k.speedup(s)).collect();
            Average::of(s.label(), &values, paper(s))
        })
        .collect();
    let bounds: Vec<Option<f64>> = kernels.iter().map(|k| k.table4.theoretic_speedup).collect();
    out.push(Average::of("theoretic bound", &bounds, (None, None)));
    let reductions: Vec<Option<f64>> = kernels.iter().map(|k| k.stall_reduction).collect();
    let mut stalls = Average::of(
        "stall reduction (Fig. 8)",
        &reductions,
        (
            Some(PAPER.stall_reduction_average),
            Some(PAPER.stall_reduction_max),
        ),
    );
    stalls.geometric = None;
    out.push(stalls);
    out
}
