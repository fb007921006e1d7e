//! The XOR bank-hashing paper's benchmark experiment (van den Braak, Gómez-Luna, Corporaal,
//! González-Linares and Guil, "Configurable XOR Hash Functions for Banked Scratchpad Memories
//! in GPUs", IEEE TC; `/work/shared/seeds/001_ff45f9595f785201.txt`), §6-7.1: each kernel's
//! shared-memory trace on a training input ([`train`], §6's trace method) configures every hash
//! family with its search (§5: exhaustive bit-vector XOR, Givargis and Minimum Imbalance for
//! the bitwise permutation and bitwise XOR), and each chosen function then runs the kernel's
//! full launch on the `fermi` preset (GPGPU-Sim's GTX 480, the paper's machine, one SM) beside
//! the `mod` baseline and the fixed bit-vector XOR of its ref. [17]. The report gives the bank
//! conflict cycles removed (Fig. 8, averaged as Table 6) and the speedup in cycles (Fig. 9,
//! geometric mean), ours beside the paper's, and every run's output checked against the host
//! (`xor_reference.rs`).
//!
//! [`plan`] trains and lists the runs; the caller runs each ([`XorRun::execute`], timing it) and
//! hands the results to [`Report::new`].

use super::{geomean, Machine, Size};
use crate::bench;
use crate::config::Config;
use crate::launch::LaunchFlags;
use crate::mem::bank_search::{search, Family, Method, SearchSpace};
use crate::mem::BankHash;
use crate::run::{prepare, DEFAULT_MAX_CYCLES};
use crate::sim::{SimStats, Status};
use serde::{Deserialize, Serialize};

pub use super::xor_kernels::{select, Kernel, KERNELS};

/// Every run is on the paper's GPU (GPGPU-Sim 3.2's GTX 480, §7): this preset's SM, and
/// [`PAPER_SMS`] of them on the paper's machine (`--one-sm`: one, an ablation).
pub const PRESET: &str = "fermi";

/// The GTX 480's 15 SMs (the `gtx480` preset), the machine §7 simulates.
pub const PAPER_SMS: u32 = 15;

/// The most dynamic shared accesses a training trace keeps.
pub const TRAINING_ACCESS_LIMIT: usize = 50_000;

/// A bank index function as the paper compares them (Table 6's rows and heuristics).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scheme {
    /// The baseline GPU: bank = word address mod 32 ("no hash function").
    Mod,
    /// Ref. [17]'s fixed bit-vector XOR, `addr[0..4] ^ addr[5..9]` (§7.1), no extra cycle.
    FixedXor,
    /// Bit-vector XOR configured by the exhaustive search (§4.2, §5.1).
    BvXor,
    /// Bitwise permutation by the Givargis heuristic (§4.3, §5.2.1).
    BwPermGh,
    /// Bitwise permutation by the Minimum Imbalance Heuristic (§4.3, §5.2.2).
    BwPermMih,
    /// Bitwise XOR by the Givargis heuristic (§4.4, §5.2.1).
    BwXorGh,
    /// Bitwise XOR by the Minimum Imbalance Heuristic (§4.4, §5.2.2).
    BwXorMih,
}

/// Table 6's average and Fig. 9's geometric mean for one scheme.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PaperCell {
    /// Bank conflicts removed, the average over the 22 benchmarks (Table 6).
    pub removed: f64,
    /// Speedup over the baseline, the geometric mean (§7.1, Fig. 9).
    pub speedup: f64,
}

impl Scheme {
    /// The baseline first, then Table 6's rows in its order.
    pub const ALL: [Scheme; 7] = [
        Scheme::Mod,
        Scheme::FixedXor,
        Scheme::BvXor,
        Scheme::BwPermGh,
        Scheme::BwPermMih,
        Scheme::BwXorGh,
        Scheme::BwXorMih,
    ];

    /// The column heading.
    pub fn label(self) -> &'static str {
        match self {
            Scheme::Mod => "mod (baseline)",
            Scheme::FixedXor => "fixed bit-vector XOR",
            Scheme::BvXor => "bit-vector XOR (exhaustive)",
            Scheme::BwPermGh => "bitwise perm. (GH)",
            Scheme::BwPermMih => "bitwise perm. (MIH)",
            Scheme::BwXorGh => "bitwise XOR (GH)",
            Scheme::BwXorMih => "bitwise XOR (MIH)",
        }
    }

    /// A short heading for wide tables.
    pub fn short(self) -> &'static str {
        match self {
            Scheme::Mod => "mod",
            Scheme::FixedXor => "fixed",
            Scheme::BvXor => "bvxor",
            Scheme::BwPermGh => "bwperm GH",
            Scheme::BwPermMih => "bwperm MIH",
            Scheme::BwXorGh => "bwxor GH",
            Scheme::BwXorMih => "bwxor MIH",
        }
    }

    /// The search that configures it, if it is configurable.
    pub fn search(self) -> Option<(Method, Family)> {
        match self {
            Scheme::Mod | Scheme::FixedXor => None,
            Scheme::BvXor => Some((Method::Exhaustive, Family::BvXor)),
            Scheme::BwPermGh => Some((Method::Givargis, Family::BwPerm)),
            Scheme::BwPermMih => Some((Method::MinImbalance, Family::BwPerm)),
            Scheme::BwXorGh => Some((Method::Givargis, Family::BwXor)),
            Scheme::BwXorMih => Some((Method::MinImbalance, Family::BwXor)),
        }
    }

    /// The paper's numbers (§7.1, Table 6); none for the baseline.
    pub fn paper(self) -> Option<PaperCell> {
        let cell = |removed, speedup| Some(PaperCell { removed, speedup });
        match self {
            Scheme::Mod => None,
            Scheme::FixedXor => cell(0.86, 1.21),
            Scheme::BvXor => cell(0.96, 1.24),
            Scheme::BwPermGh => cell(0.49, 1.14),
            Scheme::BwPermMih => cell(0.47, 1.10),
            Scheme::BwXorGh => cell(0.88, 1.18),
            Scheme::BwXorMih => cell(0.97, 1.24),
        }
    }
}

/// The function a scheme chose on a kernel's training trace, and what it did to that trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trained {
    pub scheme: Scheme,
    pub hash: BankHash,
    /// Conflict cycles of the training trace under `mod` and under `hash` (full broadcast, as
    /// the searches count them).
    pub cost_before: u64,
    pub cost_after: u64,
}

/// One kernel's training: its trace's size and every scheme's function, in [`Scheme::ALL`] order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Training {
    pub kernel: &'static str,
    /// Dynamic shared warp accesses in the training trace (the searches' access sets).
    pub access_sets: usize,
    pub schemes: Vec<Trained>,
}

impl Training {
    /// The function `scheme` chose.
    pub fn hash(&self, scheme: Scheme) -> Option<&BankHash> {
        self.schemes
            .iter()
            .find(|t| t.scheme == scheme)
            .map(|t| &t.hash)
    }
}

/// The search space of `config`'s shared memory: its banks and the word-address bits of its
/// size (48 KB of 4-byte words: 14, the paper's Fermi example).
pub fn space_of(config: &Config) -> SearchSpace {
    let words = (config.shmem.size_bytes / config.shmem.bank_width).max(2);
    SearchSpace {
        banks: config.shmem.banks,
        addr_bits: 32 - (words - 1).leading_zeros(),
    }
}

/// Runs `kernel`'s training launch functionally, takes its shared access trace and configures
/// every scheme on it.
pub fn train(kernel: &Kernel) -> Result<Training, String> {
    let case = kernel.training_case();
    let config = Config::preset(PRESET).map_err(|e| e.to_string())?;
    let flags = LaunchFlags::parse_tokens(case.launch.flags).map_err(|e| e.to_string())?;
    let no_files = |p: &str| Err(format!("no file {p} in a benchmark"));
    let mut prepared = prepare(case.launch.ptx, flags, &|_| Ok(config.clone()), &no_files)
        .map_err(|e| format!("{} (training): {e}", kernel.name))?;
    let sets: Vec<_> = prepared
        .shared_access_sets(TRAINING_ACCESS_LIMIT)
        .map_err(|e| format!("{} (training): {e}", kernel.name))?
        .into_iter()
        .map(|(_, set)| set)
        .collect();
    let space = space_of(&config);
    let mut schemes = Vec::new();
    for scheme in Scheme::ALL {
        let fixed = |hash: BankHash| {
            let f = hash.compile(space.banks).map_err(|e| e.to_string())?;
            let cost = crate::mem::bank_search::conflict_cost(&sets, &f);
            Ok::<_, String>((hash, cost))
        };
        let (_, before) = fixed(BankHash::Mod)?;
        let (hash, after) = match scheme.search() {
            None if scheme == Scheme::Mod => fixed(BankHash::Mod)?,
            None => fixed(BankHash::FixedXor)?,
            Some((method, family)) => {
                let r = search(method, family, &sets, space)
                    .map_err(|e| format!("{} ({}): {e}", kernel.name, scheme.label()))?;
                (r.hash, r.cost_after)
            }
        };
        schemes.push(Trained {
            scheme,
            hash,
            cost_before: before,
            cost_after: after,
        });
    }
    Ok(Training {
        kernel: kernel.name,
        access_sets: sets.len(),
        schemes,
    })
}

/// One simulation: a kernel's launch with one scheme's function.
#[derive(Debug, Clone)]
pub struct XorRun {
    pub kernel: Kernel,
    pub scheme: Scheme,
    pub hash: BankHash,
    pub size: Size,
    pub machine: Machine,
}

/// The counters the report reads from one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    pub cycles: u64,
    pub warp_instructions: u64,
    /// Shared-memory warp instructions.
    pub shared_instructions: u64,
    /// Sub-warp shared accesses with an active lane.
    pub shared_accesses: u64,
    /// Passes beyond one per shared access, as the simulator spends them.
    pub bank_conflict_cycles: u64,
    /// Of those, the passes atomics took on lanes of one word, which no bank function removes
    /// ([`crate::core::ldst_unit::SharedStats::atomic_replay_cycles`]; absent in parts written
    /// before it was counted).
    #[serde(default)]
    pub atomic_replay_cycles: u64,
}

impl Counters {
    pub fn of(s: &SimStats) -> Counters {
        Counters {
            cycles: s.cycles,
            warp_instructions: s.warp_instructions,
            shared_instructions: s.shared.instructions,
            shared_accesses: s.shared.accesses,
            bank_conflict_cycles: s.shared.bank_conflict_cycles,
            atomic_replay_cycles: s.shared.atomic_replay_cycles,
        }
    }

    /// The bank conflict cycles Fig. 8 counts: passes beyond one per access, without an
    /// atomic's same-address replays (GPGPU-Sim, the paper's simulator, merges an atomic's
    /// same-word lanes as a load's).
    pub fn bank_conflicts(&self) -> u64 {
        self.bank_conflict_cycles - self.atomic_replay_cycles
    }
}

/// What a run gave (also a shard's record of the run, [`super::shard`]): `error` is set when
/// it faulted, deadlocked, or its output differs from the host reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    pub counters: Counters,
    pub error: Option<String>,
    pub wall_seconds: f64,
}

impl XorRun {
    /// The `--set`s on top of [`PRESET`].
    pub fn sets(&self) -> Vec<String> {
        vec![
            self.machine.set(PAPER_SMS),
            format!("shmem.hash={}", self.hash),
        ]
    }

    /// "transpose16 with bvxor:0,4,14 (bit-vector XOR (exhaustive))": the run key, which names
    /// the function so that parts trained differently do not merge.
    pub fn title(&self) -> String {
        format!(
            "{} with {} ({})",
            self.kernel.name,
            self.hash,
            self.scheme.label()
        )
    }

    /// Runs the launch to the end and checks its output; the wall time is the caller's to
    /// measure.
    pub fn execute(&self) -> Measured {
        let case = self.kernel.case(self.size, self.machine);
        let mut sim = match bench::simulation(&case.launch, PRESET, &self.sets()) {
            Ok(sim) => sim,
            Err(e) => {
                return Measured {
                    counters: Counters::default(),
                    error: Some(e.to_string()),
                    wall_seconds: 0.0,
                }
            }
        };
        sim.set_record_warp_states(false);
        sim.run(DEFAULT_MAX_CYCLES);
        let error = match sim.status() {
            Status::Completed => (self.kernel.check)(&sim)
                .err()
                .map(|e| format!("wrong output: {e}")),
            Status::Failed(e) => Some(e.to_string()),
            Status::Running => Some("the simulation has not finished".to_string()),
        };
        Measured {
            counters: Counters::of(&sim.stats()),
            error,
            wall_seconds: 0.0,
        }
    }
}

/// The trainings and the runs on `machine`: each kernel trained, then run with every scheme's
/// function in [`Scheme::ALL`] order. Errors name a kernel whose training cannot run.
pub fn plan(
    kernels: &[Kernel],
    size: Size,
    machine: Machine,
) -> Result<(Vec<Training>, Vec<XorRun>), String> {
    let mut trainings = Vec::new();
    let mut runs = Vec::new();
    for kernel in kernels {
        let training = train(kernel)?;
        for t in &training.schemes {
            runs.push(XorRun {
                kernel: *kernel,
                scheme: t.scheme,
                hash: t.hash.clone(),
                size,
                machine,
            });
        }
        trainings.push(training);
    }
    Ok((trainings, runs))
}

/// One scheme's result on one kernel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SchemeResult {
    pub scheme: Scheme,
    pub hash: String,
    pub counters: Counters,
    /// Share of the baseline's bank conflict cycles removed (Fig. 8); `None` when the baseline
    /// has none. Negative when the function adds conflicts.
    pub removed: Option<f64>,
    /// Baseline cycles over these (Fig. 9).
    pub speedup: Option<f64>,
    pub completed: bool,
}

/// A kernel's row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelReport {
    pub kernel: &'static str,
    pub about: &'static str,
    pub paper_kind: &'static str,
    /// Of one of Table 5's kinds, so in the Table 6 averages ([`Kernel::of_table5`]).
    pub table5: bool,
    pub training: Training,
    /// Every scheme, the baseline first.
    pub schemes: Vec<SchemeResult>,
}

impl KernelReport {
    pub fn result(&self, scheme: Scheme) -> Option<&SchemeResult> {
        self.schemes.iter().find(|r| r.scheme == scheme)
    }
}

/// One scheme over every kernel, beside the paper's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Average {
    pub scheme: Scheme,
    /// The mean of `removed` over the kernels of Table 5's kinds whose baseline has conflicts
    /// (Table 6's average).
    pub removed: Option<f64>,
    /// The geometric mean of their speedups (Fig. 9).
    pub speedup: Option<f64>,
    /// `removed` and `speedup` over every kernel, those beyond Table 5 (AES) too.
    pub removed_all: Option<f64>,
    pub speedup_all: Option<f64>,
    pub paper: Option<PaperCell>,
}

/// The experiment's results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub preset: &'static str,
    pub size: Size,
    /// The paper's 15 SMs or the one-SM ablation, and how the report names it.
    pub machine: Machine,
    pub machine_label: String,
    pub kernels: Vec<KernelReport>,
    /// Every hashed scheme, in [`Scheme::ALL`] order.
    pub averages: Vec<Average>,
    /// The hashed schemes by conflicts removed, most first: ours and Table 6's.
    pub ranking: Vec<Scheme>,
    pub paper_ranking: Vec<Scheme>,
    /// Runs whose output matched the host reference, of all runs.
    pub checked: usize,
    pub runs: usize,
    pub wall_seconds: f64,
    pub incomplete: Vec<String>,
}

/// `schemes` by `key`, highest first (ties keep Table 6's order).
fn ranked(averages: &[Average], key: impl Fn(&Average) -> Option<f64>) -> Vec<Scheme> {
    let mut order: Vec<&Average> = averages.iter().filter(|a| key(a).is_some()).collect();
    order.sort_by(|a, b| {
        key(b)
            .partial_cmp(&key(a))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    order.into_iter().map(|a| a.scheme).collect()
}

impl Report {
    /// The report of `runs` (as [`plan`] listed them) from their `measured` results.
    pub fn new(
        trainings: &[Training],
        size: Size,
        runs: &[XorRun],
        measured: &[Measured],
    ) -> Result<Report, String> {
        if runs.len() != measured.len() || runs.len() != trainings.len() * Scheme::ALL.len() {
            return Err(format!(
                "{} runs, {} results and {} kernels trained do not match",
                runs.len(),
                measured.len(),
                trainings.len()
            ));
        }
        let mut kernels = Vec::new();
        for (training, chunk) in trainings.iter().zip(
            runs.chunks(Scheme::ALL.len())
                .zip(measured.chunks(Scheme::ALL.len())),
        ) {
            let (runs, results) = chunk;
            let base = &results[0];
            let base_ok = base.error.is_none();
            let schemes = runs
                .iter()
                .zip(results)
                .map(|(run, m)| {
                    let ok = m.error.is_none();
                    let (b, c) = (&base.counters, &m.counters);
                    let removed = (ok && base_ok && b.bank_conflicts() > 0)
                        .then(|| 1.0 - c.bank_conflicts() as f64 / b.bank_conflicts() as f64);
                    let speedup =
                        (ok && base_ok && c.cycles > 0).then(|| b.cycles as f64 / c.cycles as f64);
                    SchemeResult {
                        scheme: run.scheme,
                        hash: run.hash.to_string(),
                        counters: *c,
                        removed,
                        speedup,
                        completed: ok,
                    }
                })
                .collect();
            let kernel = runs[0].kernel;
            kernels.push(KernelReport {
                kernel: kernel.name,
                about: kernel.about,
                paper_kind: kernel.paper_kind,
                table5: kernel.of_table5(),
                training: training.clone(),
                schemes,
            });
        }
        let averages: Vec<Average> = Scheme::ALL[1..]
            .iter()
            .map(|&scheme| {
                let of = |all: bool, f: fn(&SchemeResult) -> Option<f64>| -> Vec<f64> {
                    kernels
                        .iter()
                        .filter(|k| all || k.table5)
                        .filter_map(|k| k.result(scheme).and_then(f))
                        .collect()
                };
                let mean =
                    |v: Vec<f64>| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
                Average {
                    scheme,
                    removed: mean(of(false, |r| r.removed)),
                    speedup: geomean(&of(false, |r| r.speedup)),
                    removed_all: mean(of(true, |r| r.removed)),
                    speedup_all: geomean(&of(true, |r| r.speedup)),
                    paper: scheme.paper(),
                }
            })
            .collect();
        let ranking = ranked(&averages, |a| a.removed);
        let paper_ranking = ranked(&averages, |a| a.paper.map(|p| p.removed));
        let incomplete = runs
            .iter()
            .zip(measured)
            .filter_map(|(r, m)| m.error.as_ref().map(|e| format!("{}: {e}", r.title())))
            .collect();
        let machine = runs.first().map_or(Machine::Paper, |r| r.machine);
        Ok(Report {
            preset: PRESET,
            size,
            machine,
            machine_label: machine.label(PAPER_SMS),
            kernels,
            averages,
            ranking,
            paper_ranking,
            checked: measured.iter().filter(|m| m.error.is_none()).count(),
            runs: measured.len(),
            wall_seconds: measured.iter().map(|m| m.wall_seconds).sum(),
            incomplete,
        })
    }

    /// The average of `scheme`.
    pub fn average(&self, scheme: Scheme) -> Option<&Average> {
        self.averages.iter().find(|a| a.scheme == scheme)
    }
}
