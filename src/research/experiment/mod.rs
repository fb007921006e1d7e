//! Reproducible experiments: a paper's experiment rerun on our kernels, with its headline
//! numbers beside ours. [`mrpb`] is the MRPB paper's (Jia, Shaw and Martonosi, HPCA 2014),
//! Sections 4 and 5, and [`mrpb_sched`] its comparison with CCWS's static wavefront limit and
//! GTO (§5.5's Fig. 14 bars, §5.7's Fig. 16); [`elastic`] the elastic pipeline paper's (Gou and Gaydadjiev, CF'11),
//! Sections 5.1-5.2; [`unified`] the unified memory paper's (Gebhart et al., MICRO'12), §6.2-6.4,
//! whose programs launch several kernels on a [`host::Device`]; [`xor`] the XOR bank-hashing
//! paper's (van den Braak et al., IEEE TC), §6-7.1, whose functions are searched on a
//! training trace first.
//!
//! The library says what to run (a [`Run`]: a [`Case`] on a preset with `--set` overrides) and
//! what the results mean; the caller runs the simulations (the CLI in threads, timing each one:
//! the model has no clock and no threads) and hands back one [`Measured`] per run. Every report
//! takes one path out: [`table`] lays it out as text or Markdown from the sections its
//! experiment's table module says it has ([`mrpb_table`], [`elastic_table`], [`unified_table`],
//! [`xor_table`]), and the CLI draws its charts with one chart helper (`experiment_chart.rs`).
//! A plan can also run in shards on several machines: [`shard`] splits it, writes each shard's
//! per-run records (an [`Outcome`] per run, or the unified and XOR experiments' own `Measured`) and
//! joins the parts back in plan order for the same report (`Report::of_outcomes`).
//!
//! A fifth experiment writes only what is its paper's: a module with its cases, its `plan`
//! (the [`Run`]s) and its `Report` (the numbers, built from the [`Measured`] runs with
//! [`Outcome`], [`ipc_ratio`], [`geomean`] and [`incomplete`]); a `*_table.rs` that implements
//! [`table::PaperReport`] (its intro and its sections' rows, with [`table`]'s cells); and in
//! the CLI a subcommand calling `run_timed` and `Output::emit` with [`table::text`] and
//! [`table::markdown`], and a plot file that fills `experiment_chart`'s panels.

pub mod elastic;
mod elastic_kernels;
pub mod elastic_table;
pub mod host;
pub mod mrpb;
mod mrpb_cases;
mod mrpb_cases_rodinia;
mod mrpb_chip;
mod mrpb_reference;
pub mod mrpb_sched;
pub mod mrpb_sched_table;
pub mod mrpb_table;
mod mrpb_unshared;
pub mod shard;
mod shard_serde;
pub mod table;
pub mod unified;
pub mod unified_fig7;
pub mod unified_programs;
pub mod unified_table;
mod unified_workloads;
pub mod xor;
mod xor_kernels;
mod xor_reference;
mod xor_reference_more;
mod xor_reference_parboil;
mod xor_reference_suite;
pub mod xor_table;

use crate::bench::{self, BenchCase};
use crate::config::Config;
use crate::launch::LaunchFlags;
use crate::mem::data_cache::Contention;
use crate::run::InputError;
use crate::sim::{Sim, SimStats};
use serde::{Deserialize, Serialize};

pub use crate::correlate::Measured;

/// The benchmark suite a case stands for; the MRPB experiment's geometric means are taken per
/// suite. `CudaSdk` and `Manavski` are the elastic paper's sources (CF'11 Table 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Suite {
    PolyBench,
    /// PolyBench's cache-insensitive (CI) programs with their ports' launches (MRPB §5.5:
    /// "never degrades performance below baseline ... particularly for CI applications"),
    /// kept out of the PolyBench mean.
    PolyBenchCi,
    Rodinia,
    CudaSdk,
    Manavski,
    /// The XOR paper's FFT (its ref. [15], Gutiérrez et al.), not of a benchmark suite.
    Gutierrez,
    Parboil,
}

impl Suite {
    pub fn name(self) -> &'static str {
        match self {
            Suite::PolyBench => "PolyBench",
            Suite::PolyBenchCi => "PolyBench CI",
            Suite::Rodinia => "Rodinia",
            Suite::CudaSdk => "CUDA SDK",
            Suite::Manavski => "Manavski [17]",
            Suite::Gutierrez => "Gutiérrez et al. (XOR [15])",
            Suite::Parboil => "Parboil",
        }
    }
}

/// An experiment's size: the paper's (for one SM), or the tests' smaller inputs (`--quick`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    Full,
    Quick,
}

/// The machine an experiment simulates (issue 33): its paper's (the core count its
/// methodology gives, on the preset's memory system), or one SM with the same memory system,
/// kept as a labelled ablation (`--one-sm`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Machine {
    #[default]
    Paper,
    OneSm,
}

impl Machine {
    /// `--one-sm` given or not.
    pub fn of_flag(one_sm: bool) -> Machine {
        match one_sm {
            true => Machine::OneSm,
            false => Machine::Paper,
        }
    }

    /// The SMs it simulates, when the paper's machine has `paper_sms`.
    pub fn sms(self, paper_sms: u32) -> u32 {
        match self {
            Machine::Paper => paper_sms,
            Machine::OneSm => 1,
        }
    }

    /// The `--set` that gives a preset the machine's SM count.
    pub fn set(self, paper_sms: u32) -> String {
        format!("num_sms={}", self.sms(paper_sms))
    }

    /// How reports name it: "16 SMs (the paper's machine)" or "1 SM (ablation)".
    pub fn label(self, paper_sms: u32) -> String {
        match self {
            Machine::Paper => format!("{paper_sms} SMs (the paper's machine)"),
            Machine::OneSm => "1 SM (ablation: the paper's memory system behind one SM)".into(),
        }
    }
}

/// A host reference: given a finished simulation and the launch it ran, `Err` says where its
/// output differs from what the kernel must have computed.
pub type Check = fn(&Sim, &LaunchFlags) -> Result<(), String>;

/// One kernel and its launch (name, PTX and flags as a [`BenchCase`]), its suite, and the host
/// reference its output is checked against (`None`: the case is timed, not checked).
#[derive(Debug, Clone, Copy)]
pub struct Case {
    pub suite: Suite,
    pub launch: BenchCase,
    pub check: Option<Check>,
}

impl Case {
    pub fn name(&self) -> &'static str {
        self.launch.name
    }
}

/// One simulation to run: a case on a preset with `--set` overrides, to its end or sampled.
#[derive(Debug, Clone)]
pub struct Run {
    pub case: Case,
    pub preset: &'static str,
    pub sets: Vec<String>,
    /// `Some(w)`: stop after `w` cycles when the launch is longer, and estimate the whole launch
    /// from that window ([`Outcome::estimated_cycles`]); `None`: run to the end.
    pub sample: Option<u64>,
}

impl Run {
    /// A ready-to-run simulation of this run.
    pub fn simulation(&self) -> Result<Sim, InputError> {
        bench::simulation(&self.case.launch, self.preset, &self.sets)
    }

    /// "atax_1 on tesla-c2050-s --set mrpb.enabled=true": the run as progress lines name it.
    pub fn title(&self) -> String {
        let mut title = format!("{} on {}", self.case.name(), self.preset);
        for s in &self.sets {
            title.push_str(&format!(" --set {s}"));
        }
        if let Some(window) = self.sample {
            title.push_str(&format!(" (sampled: first {window} cycles)"));
        }
        title
    }

    /// Simulates `sim` (this run's [`simulation`](Run::simulation)) over the sample's window,
    /// or to its end within the CLI's cycle limit.
    pub fn advance(&self, sim: &mut Sim) {
        match self.sample {
            Some(window) => sim.run_for(window),
            None => sim.run(crate::run::DEFAULT_MAX_CYCLES),
        };
    }

    /// The measurement of this run's finished simulation: a run that completed but whose
    /// output differs from its case's host reference is an error ("wrong output: ..."), not a
    /// number.
    ///
    /// A sampled run that reached its window with the kernel still running is a measurement
    /// of that window, not an error; its whole launch's instructions are counted by the
    /// functional model, and its output (unfinished) is not checked.
    pub fn measured(&self, sim: &Sim, wall_seconds: f64) -> Measured {
        let mut m = Measured::of(sim, wall_seconds);
        if self.sample.is_some() && matches!(sim.status(), crate::sim::Status::Running) {
            match bench::thread_instructions(&self.case.launch, self.preset, &self.sets) {
                Ok(n) => {
                    m.error = None;
                    m.sampled = Some(n);
                }
                Err(e) => m.error = Some(format!("counting the sampled launch: {e}")),
            }
            return m;
        }
        if let (None, Some(check)) = (&m.error, self.case.check) {
            let checked = LaunchFlags::parse_tokens(self.case.launch.flags)
                .map_err(|e| e.to_string())
                .and_then(|flags| check(sim, &flags));
            m.error = checked.err().map(|e| format!("wrong output: {e}"));
        }
        m
    }

    /// The configuration this run simulates.
    pub fn config(&self) -> Result<Config, String> {
        Config::preset(self.preset)
            .and_then(|c| c.with_overrides(&self.sets))
            .map_err(|e| format!("{}: {e}", self.title()))
    }
}

/// Every run of `runs` to its end, untimed, on two threads (each builds its own simulations):
/// the tests' way to run a plan (the CLI times each run on its own pool). An error names the
/// first run that could not be built.
pub fn measure_untimed(runs: &[Run]) -> Result<Vec<Measured>, String> {
    let one = |run: &Run| -> Result<Measured, String> {
        let mut sim = run
            .simulation()
            .map_err(|e| format!("{}: {e}", run.title()))?;
        sim.set_record_warp_states(false);
        run.advance(&mut sim);
        Ok(run.measured(&sim, 0.0))
    };
    on_two_threads(runs, one).into_iter().collect()
}

/// `f` of every item, in order, worked out on two threads taking alternate items (so a slow
/// kernel's runs, which sit together in a plan, are shared out).
pub fn on_two_threads<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let f = &f;
    let mut halves: Vec<Vec<R>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|k| scope.spawn(move || items.iter().skip(k).step_by(2).map(f).collect()))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let odd = halves.pop().unwrap_or_default();
    let even = halves.pop().unwrap_or_default();
    let mut all = Vec::with_capacity(items.len());
    let mut odd = odd.into_iter();
    for e in even {
        all.push(e);
        all.extend(odd.next());
    }
    all
}

/// The counters the experiments compare, from one run's statistics.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Counters {
    pub cycles: u64,
    /// Thread instructions per cycle.
    pub ipc: f64,
    pub l1d_misses: u64,
    /// L1D reservation failures: associativity, MSHR and miss queue, summed.
    pub reservation_fails: u64,
    /// L1D misses that evicted a line by whose request had brought it in (MRPB §2.2, Fig. 4).
    #[serde(deserialize_with = "shard_serde::contention")]
    pub evictions_by: Contention,
    /// DRAM reads + writes.
    pub dram_accesses: u64,
    /// Interconnect packets, both ways (MRPB §5.5 counts L2-to-L1 traffic in packets).
    pub icnt_packets: u64,
    /// Reads the MRPB sent past the L1D (0 with MRPB off).
    pub bypassed: u64,
}

/// The counters an experiment's report reads from one run's statistics.
pub trait FromStats {
    fn of(s: &SimStats) -> Self;
}

impl FromStats for Counters {
    fn of(s: &SimStats) -> Counters {
        let fails = &s.l1d.reservation_fails;
        let bypassed = s.mrpb.as_ref().map_or(0, |m| {
            m.bypassed.assoc + m.bypassed.mshr + m.bypassed.miss_queue
        });
        Counters {
            cycles: s.cycles,
            ipc: s.ipc,
            l1d_misses: s.l1d.misses,
            reservation_fails: fails.assoc + fails.mshr + fails.miss_queue,
            evictions_by: s.l1d.evictions_by,
            dram_accesses: s.dram.reads + s.dram.writes,
            icnt_packets: s.icnt.packets,
            bypassed,
        }
    }
}

/// One run's result as a report shows it, with the counters `C` that report reads (a
/// shard's record of the run, [`shard`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome<C = Counters> {
    pub counters: C,
    /// The fault or deadlock, when the kernel did not complete.
    pub error: Option<String>,
    pub wall_seconds: f64,
    /// A sampled run's whole-launch thread instructions ([`Run::sample`]): the counters are
    /// its window's. `None`: they are the whole launch's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampled: Option<u64>,
}

impl<C: FromStats> Outcome<C> {
    pub fn of(m: &Measured) -> Outcome<C> {
        Outcome {
            counters: C::of(&m.stats),
            error: m.error.clone(),
            wall_seconds: m.wall_seconds,
            sampled: m.sampled,
        }
    }

    pub fn completed(&self) -> bool {
        self.error.is_none()
    }
}

impl Outcome {
    /// The whole launch's thread instructions: counted when sampled, else IPC x cycles.
    pub fn instructions(&self) -> f64 {
        self.sampled
            .map_or(self.counters.ipc * self.counters.cycles as f64, |n| {
                n as f64
            })
    }

    /// The whole launch's cycles: measured, or for a sampled run its instructions at the
    /// window's IPC (the launch's remaining warps assumed to run as the window's did).
    pub fn estimated_cycles(&self) -> f64 {
        match self.sampled {
            Some(n) if self.counters.ipc > 0.0 => n as f64 / self.counters.ipc,
            _ => self.counters.cycles as f64,
        }
    }
}

/// `value`'s IPC over `base`'s, when both runs completed and the base ran instructions.
pub fn ipc_ratio(value: &Outcome, base: &Outcome) -> Option<f64> {
    let (v, b) = (value.counters.ipc, base.counters.ipc);
    (value.completed() && base.completed() && b > 0.0).then(|| v / b)
}

/// The geometric mean (the paper's averages, MRPB §5); `None` when there are no values or one
/// is not positive.
pub fn geomean(values: &[f64]) -> Option<f64> {
    let positive: Vec<f64> = values.iter().copied().filter(|v| *v > 0.0).collect();
    (!positive.is_empty() && positive.len() == values.len())
        .then(|| (positive.iter().map(|v| v.ln()).sum::<f64>() / positive.len() as f64).exp())
}

/// The runs that did not complete, "title: why", in run order (each report lists them last).
pub fn incomplete<'a>(runs: impl IntoIterator<Item = (String, Option<&'a String>)>) -> Vec<String> {
    runs.into_iter()
        .filter_map(|(title, error)| error.map(|e| format!("{title}: {e}")))
        .collect()
}

#[cfg(test)]
mod elastic_tests;
#[cfg(test)]
mod mrpb_rodinia_tests;
#[cfg(test)]
mod tests;
