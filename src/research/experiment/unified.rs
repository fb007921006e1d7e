//! The unified memory paper's experiment (Gebhart, Keckler, Khailany, Krashinsky and Dally,
//! "Unifying Primary Cache, Scratch, and Register File Memories in a Throughput Processor",
//! MICRO'12; `/work/shared/seeds/002_1ecb85170502a793.txt`), §6.2-6.4: each program
//! ([`Workload`]) on the partitioned 256/64/64 KB SM of Table 2 (`unified-micro12`) and on the
//! unified design at 128, 256 and 384 KB (Table 6), and on the Fermi-like limited unification
//! of §6.3 (Fig. 10); performance, DRAM traffic and energy normalised to the partitioned run.
//! One more design is an ablation: 384 KB with the register file's accesses off the pool's
//! banks, the most the paper's register file hierarchy could give. And the paper's own
//! premise (§2.1, §4.3, ref. [9]): the partitioned and the three unified designs again with
//! the software-controlled register file hierarchy (`regfile.hierarchy`,
//! `crate::core::register_hierarchy`), each normalised to the partitioned design with it.
//!
//! Energy follows §5.2: each design's bank accesses, DRAM bits, SRAM and core leakage over its
//! own run time, and the SM's dynamic energy priced at the partitioned run's time for every
//! design ("We use the performance of the baseline 256/64/64 configuration to calculate SM
//! dynamic power for each benchmark").
//!
//! [`plan`] lists the runs; the caller runs each ([`UnifiedRun::execute`], timing it) and hands
//! the results to [`Report::new`].

use super::host::{Device, Totals};
use crate::config::Config;
use crate::energy::EnergyReport;
use serde::{Deserialize, Serialize};

pub use super::unified_workloads::{
    needle_reference, select, PaperRow, Size, Workload, PAPER_AVERAGE, PAPER_FIG7_AVERAGE,
};

/// Every run is on Table 2's SM.
pub const PRESET: &str = "unified-micro12";

/// One configuration of the SM's local memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Design {
    /// The baseline: 256 KB register file, 64 KB shared memory, 64 KB cache (§6.1).
    Partitioned,
    /// The unified pool at 128, 256 or 384 KB (Table 6).
    Unified128,
    Unified256,
    Unified384,
    /// The Fermi-like limited unification at equal capacity (§6.3, Fig. 10): a 256 KB register
    /// file beside 128 KB divided 96/32 or 32/96 between shared memory and cache.
    FermiLike,
    /// Unified 384 KB with register accesses kept off the pool's banks (`unified.arbitration
    /// = false`): what the paper's register file hierarchy, which warpstep does not model,
    /// would give at best (§6.1).
    Unified384NoArbitration,
    /// The designs above with the register file hierarchy of §2.1 ([9]: ORF and LRF in front
    /// of the MRF, `regfile.hierarchy = true`), as the paper evaluates both designs.
    PartitionedHierarchy,
    Unified128Hierarchy,
    Unified256Hierarchy,
    Unified384Hierarchy,
}

impl Design {
    /// Every design, the baseline first.
    pub const ALL: [Design; 10] = [
        Design::Partitioned,
        Design::Unified128,
        Design::Unified256,
        Design::Unified384,
        Design::FermiLike,
        Design::Unified384NoArbitration,
        Design::PartitionedHierarchy,
        Design::Unified128Hierarchy,
        Design::Unified256Hierarchy,
        Design::Unified384Hierarchy,
    ];

    /// Table 6's three capacities.
    pub const UNIFIED: [Design; 3] = [Design::Unified128, Design::Unified256, Design::Unified384];

    /// Table 6's three capacities with the register file hierarchy.
    pub const HIERARCHY: [Design; 3] = [
        Design::Unified128Hierarchy,
        Design::Unified256Hierarchy,
        Design::Unified384Hierarchy,
    ];

    /// True for the designs with the register file hierarchy.
    pub fn hierarchy(self) -> bool {
        matches!(
            self,
            Design::PartitionedHierarchy
                | Design::Unified128Hierarchy
                | Design::Unified256Hierarchy
                | Design::Unified384Hierarchy
        )
    }

    /// The partitioned design this one is normalised to: the one with the same register file.
    pub fn baseline(self) -> Design {
        if self.hierarchy() {
            Design::PartitionedHierarchy
        } else {
            Design::Partitioned
        }
    }

    /// The `--set`s on top of [`PRESET`].
    pub fn sets(self) -> Vec<String> {
        let unified = |kb: u32| {
            vec![
                "unified.enabled=true".to_string(),
                format!("unified.capacity_bytes={}", kb * 1024),
            ]
        };
        let hierarchy = |mut sets: Vec<String>| {
            sets.push("regfile.hierarchy=true".to_string());
            sets
        };
        match self {
            Design::Partitioned => Vec::new(),
            Design::PartitionedHierarchy => hierarchy(Vec::new()),
            Design::Unified128Hierarchy => hierarchy(unified(128)),
            Design::Unified256Hierarchy => hierarchy(unified(256)),
            Design::Unified384Hierarchy => hierarchy(unified(384)),
            Design::Unified128 => unified(128),
            Design::Unified256 => unified(256),
            Design::Unified384 => unified(384),
            Design::FermiLike => vec![
                "unified.enabled=true".to_string(),
                "unified.mode=fermi".to_string(),
                "unified.capacity_bytes=393216".to_string(),
            ],
            Design::Unified384NoArbitration => {
                let mut sets = unified(384);
                sets.push("unified.arbitration=false".to_string());
                sets
            }
        }
    }

    /// The column heading.
    pub fn label(self) -> &'static str {
        match self {
            Design::Partitioned => "partitioned 256/64/64",
            Design::Unified128 => "unified 128 KB",
            Design::Unified256 => "unified 256 KB",
            Design::Unified384 => "unified 384 KB",
            Design::FermiLike => "Fermi-like 384 KB",
            Design::Unified384NoArbitration => "384 KB, no arbitration",
            Design::PartitionedHierarchy => "partitioned + RF hierarchy",
            Design::Unified128Hierarchy => "unified 128 KB + RF hierarchy",
            Design::Unified256Hierarchy => "unified 256 KB + RF hierarchy",
            Design::Unified384Hierarchy => "unified 384 KB + RF hierarchy",
        }
    }
}

/// One simulation of the experiment: a workload's whole program in one design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnifiedRun {
    pub workload: Workload,
    pub design: Design,
    pub size: Size,
}

/// What a run gave: its totals and the configuration its last launch ran (for pricing), or
/// why it did not complete (also a shard's record of the run, [`super::shard`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Measured {
    pub totals: Totals,
    pub config: Option<Config>,
    pub error: Option<String>,
    pub wall_seconds: f64,
}

impl UnifiedRun {
    /// "needle in unified 384 KB": how progress lines name the run.
    pub fn title(&self) -> String {
        format!("{} in {}", self.workload.name(), self.design.label())
    }

    /// Runs the program to the end. The wall time is the caller's to measure (pass it in
    /// `wall_seconds` afterwards); a launch that faults, deadlocks or computes a wrong answer
    /// ends the program with `error` set.
    pub fn execute(&self) -> Measured {
        let sets = self.design.sets();
        let mut device = Device::new(
            self.workload.ptx(),
            PRESET,
            &sets,
            Some(self.workload.registers()),
        );
        let error = self.workload.run(self.size, &mut device).err();
        Measured {
            totals: device.totals().clone(),
            config: device.config().cloned(),
            error,
            wall_seconds: 0.0,
        }
    }
}

/// Every run the experiment needs: each workload in every design.
pub fn plan(workloads: &[Workload], size: Size) -> Vec<UnifiedRun> {
    workloads
        .iter()
        .flat_map(|&workload| {
            Design::ALL.map(|design| UnifiedRun {
                workload,
                design,
                size,
            })
        })
        .collect()
}

/// One design's result for a workload, normalised to the partitioned run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DesignResult {
    pub design: Design,
    pub totals: Totals,
    pub energy: EnergyReport,
    /// Partitioned cycles over these (higher is better).
    pub performance: f64,
    /// Energy over the partitioned run's (lower is better).
    pub energy_ratio: f64,
    /// DRAM bytes over the partitioned run's.
    pub dram_ratio: f64,
    pub wall_seconds: f64,
}

/// A workload's row: every design's result beside Table 6's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkloadReport {
    pub workload: Workload,
    pub about: String,
    pub registers: u32,
    pub designs: Vec<DesignResult>,
    pub paper: Option<PaperRow>,
}

impl WorkloadReport {
    /// The result in `design`.
    pub fn result(&self, design: Design) -> Option<&DesignResult> {
        self.designs.iter().find(|d| d.design == design)
    }
}

/// The experiment's report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub warpstep_version: &'static str,
    pub paper: &'static str,
    pub preset: &'static str,
    pub quick: bool,
    pub workloads: Vec<WorkloadReport>,
    /// Geometric means over the workloads Table 6 has that ran ([`Report::averaged`]; needle
    /// once, at Table 1's shape):
    /// performance and energy per unified capacity, beside the paper's average.
    pub average_performance: [Option<f64>; 3],
    pub average_energy: [Option<f64>; 3],
    /// The same means for 384 KB without arbitration (performance, energy).
    pub average_no_arbitration: [Option<f64>; 2],
    /// The same means with the register file hierarchy, over the partitioned design with it.
    pub average_hierarchy_performance: [Option<f64>; 3],
    pub average_hierarchy_energy: [Option<f64>; 3],
    pub paper_average: PaperRow,
    /// The programs the averages take (Table 6's that ran; needle once).
    pub averaged: Vec<&'static str>,
    /// Fig. 7's programs that ran (§6.1): geometric means of unified 384 KB over partitioned,
    /// performance and energy, without and with the register file hierarchy.
    pub fig7_averaged: Vec<&'static str>,
    pub fig7_average: [Option<f64>; 4],
    pub runs: usize,
    pub simulated_cycles: u64,
    /// Runs that did not complete, with why.
    pub incomplete: Vec<String>,
}

impl Report {
    /// The report of `workloads` from the runs of [`plan`] and their results, in plan order.
    pub fn new(
        workloads: &[Workload],
        size: Size,
        runs: &[UnifiedRun],
        measured: &[Measured],
    ) -> Result<Report, String> {
        if runs.len() != measured.len() {
            return Err(format!(
                "{} runs but {} results",
                runs.len(),
                measured.len()
            ));
        }
        let incomplete = super::incomplete(
            runs.iter()
                .zip(measured)
                .map(|(r, m)| (r.title(), m.error.as_ref())),
        );
        let mut reports = Vec::new();
        for &workload in workloads {
            let of = |design: Design| {
                runs.iter()
                    .zip(measured)
                    .find(|(r, _)| r.workload == workload && r.design == design)
                    .map(|(_, m)| m)
                    .ok_or_else(|| format!("no run of {} in {}", workload.name(), design.label()))
            };
            let designs = Design::ALL
                .iter()
                .map(|&d| Ok(normalise(d, of(d)?, of(d.baseline())?)))
                .collect::<Result<Vec<_>, String>>()?;
            reports.push(WorkloadReport {
                workload,
                about: workload.about(size),
                registers: workload.registers(),
                designs,
                paper: workload.paper(),
            });
        }
        let table6: Vec<&WorkloadReport> =
            reports.iter().filter(|r| r.workload.in_average()).collect();
        let mean = |design: Design, value: fn(&DesignResult) -> f64| {
            let values: Vec<f64> = table6
                .iter()
                .filter_map(|r| r.result(design))
                .map(value)
                .collect();
            (values.len() == table6.len())
                .then(|| super::geomean(&values))
                .flatten()
        };
        let fig7: Vec<&WorkloadReport> = reports.iter().filter(|r| r.workload.fig7()).collect();
        let fig7_mean = |design: Design, value: fn(&DesignResult) -> f64| {
            let values: Vec<f64> = fig7
                .iter()
                .filter_map(|r| r.result(design))
                .map(value)
                .collect();
            (values.len() == fig7.len())
                .then(|| super::geomean(&values))
                .flatten()
        };
        Ok(Report {
            averaged: table6.iter().map(|r| r.workload.name()).collect(),
            fig7_averaged: fig7.iter().map(|r| r.workload.name()).collect(),
            fig7_average: [
                fig7_mean(Design::Unified384, |r| r.performance),
                fig7_mean(Design::Unified384, |r| r.energy_ratio),
                fig7_mean(Design::Unified384Hierarchy, |r| r.performance),
                fig7_mean(Design::Unified384Hierarchy, |r| r.energy_ratio),
            ],
            warpstep_version: env!("CARGO_PKG_VERSION"),
            paper: "Gebhart et al., Unifying Primary Cache, Scratch, and Register File Memories in a Throughput Processor, MICRO'12, Table 6",
            preset: PRESET,
            quick: size == Size::Quick,
            average_performance: Design::UNIFIED.map(|d| mean(d, |r| r.performance)),
            average_energy: Design::UNIFIED.map(|d| mean(d, |r| r.energy_ratio)),
            average_no_arbitration: [
                mean(Design::Unified384NoArbitration, |r| r.performance),
                mean(Design::Unified384NoArbitration, |r| r.energy_ratio),
            ],
            average_hierarchy_performance: Design::HIERARCHY.map(|d| mean(d, |r| r.performance)),
            average_hierarchy_energy: Design::HIERARCHY.map(|d| mean(d, |r| r.energy_ratio)),
            paper_average: PAPER_AVERAGE,
            runs: runs.len(),
            simulated_cycles: measured.iter().map(|m| m.totals.cycles).sum(),
            incomplete,
            workloads: reports,
        })
    }
}

/// `m`'s result against the partitioned run `base` (with the same register file): SM dynamic
/// energy at the base's time.
fn normalise(design: Design, m: &Measured, base: &Measured) -> DesignResult {
    let price = |m: &Measured| {
        m.config
            .as_ref()
            .map(|c| m.totals.energy(c, base.totals.cycles))
            .unwrap_or_default()
    };
    let energy = price(m);
    let ratio = |a: f64, b: f64| if b > 0.0 && a > 0.0 { a / b } else { 0.0 };
    DesignResult {
        design,
        totals: m.totals.clone(),
        energy,
        performance: ratio(base.totals.cycles as f64, m.totals.cycles as f64),
        energy_ratio: ratio(energy.total_pj, price(base).total_pj),
        dram_ratio: ratio(m.totals.dram_bytes as f64, base.totals.dram_bytes as f64),
        wall_seconds: m.wall_seconds,
    }
}
