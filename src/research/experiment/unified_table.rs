//! The unified memory experiment's report (MICRO'12 §6.2-6.4) in [`table`](super::table)'s
//! layout: each program's partition, cycles and the
//! unified designs' performance and energy beside Table 6, DRAM traffic and the energy parts,
//! the averages. Pure formatting: the numbers come from [`Report`].

use super::table::{beside, pair, percent, times, Format, PaperReport, Section, Table};
use super::unified::{Design, DesignResult, Report, WorkloadReport, PAPER_FIG7_AVERAGE};
use crate::correlate::table::thousands;

impl PaperReport for Report {
    fn intro(&self) -> String {
        let mut out = format!(
            "{} on {}: each program partitioned (256 KB registers, 64 KB shared, 64 KB cache) and unified; SM dynamic energy at the partitioned run's time (§5.2). {} programs, {} simulated cycles.\n",
            self.paper,
            self.preset,
            self.runs,
            thousands(self.simulated_cycles)
        );
        for w in &self.workloads {
            out.push_str(&format!("- {}: {}\n", w.workload.name(), w.about));
        }
        out
    }

    fn sections(&self, _: Format) -> Vec<Section> {
        vec![
            Section::table(
                "Partition per design (threads / registers / shared / cache KB)",
                partition_table(self),
            ),
            Section::table("Cycles", cycles_table(self)),
            Section::table(
                "Performance and energy over partitioned, ours (Table 6)",
                table6(self),
            ),
            Section::table(
                "With the register file hierarchy, over partitioned with it (Table 6)",
                hierarchy_table(self),
            ),
            Section::table(
                "Fig. 7: programs that should not benefit, unified 384 KB over partitioned (paper: within 1%)",
                fig7_table(self),
            ),
            Section::table(
                "Register file and arbitration (384 KB; MRF reads in millions of warp registers)",
                counters_table(self),
            ),
            Section::table("DRAM traffic and L1D hit rate", dram_table(self)),
            Section::table(
                "Energy by part, µJ (partitioned / unified 384 KB)",
                energy_table(self, [Design::Partitioned, Design::Unified384]),
            ),
            Section::table(
                "Energy by part with the register file hierarchy, µJ (partitioned / unified 384 KB)",
                energy_table(self, [Design::PartitionedHierarchy, Design::Unified384Hierarchy]),
            ),
        ]
    }

    fn incomplete(&self) -> &[String] {
        &self.incomplete
    }

    fn incomplete_title(&self) -> &'static str {
        "Programs that did not complete"
    }
}

/// A Table 6 row's columns: the program, then performance and energy at 128 / 256 / 384 KB.
const CAPACITY_COLUMNS: [&str; 7] = [
    "program",
    "perf 128 KB",
    "perf 256 KB",
    "perf 384 KB",
    "energy 128 KB",
    "energy 256 KB",
    "energy 384 KB",
];
/// One row per program, one column per design of [`Design::ALL`]: `cell(program, design)`.
fn by_design(report: &Report, cell: impl Fn(&WorkloadReport, Design) -> String) -> Table {
    let mut header = vec!["program".to_string()];
    header.extend(Design::ALL.iter().map(|d| d.label().to_string()));
    let rows = report
        .workloads
        .iter()
        .map(|w| {
            std::iter::once(w.workload.name().to_string())
                .chain(Design::ALL.iter().map(|&d| cell(w, d)))
                .collect()
        })
        .collect();
    Table::new(&header, rows, 1)
}

fn partition_table(report: &Report) -> Table {
    let cell = |w: &WorkloadReport, d: Design| {
        let Some(r) = w.result(d) else {
            return "-".to_string();
        };
        match &r.totals.partition {
            Some(p) => format!(
                "{} / {:.1} / {:.1} / {:.1}",
                p.threads, p.registers_kb, p.shared_kb, p.cache_kb
            ),
            None => "fixed".to_string(),
        }
    };
    by_design(report, cell)
}

fn cycles_table(report: &Report) -> Table {
    let cell = |w: &WorkloadReport, d: Design| {
        w.result(d).map_or("-".to_string(), |r| {
            let cycles = thousands(r.totals.cycles);
            if d == d.baseline() {
                format!("{cycles} ({} launches)", r.totals.launches)
            } else {
                format!("{cycles} ({})", times(r.performance, 2))
            }
        })
    };
    by_design(report, cell)
}

fn table6(report: &Report) -> Table {
    let mut rows = Vec::new();
    for w in &report.workloads {
        let mut row = vec![w.workload.name().to_string()];
        for (i, &d) in Design::UNIFIED.iter().enumerate() {
            let paper = w.paper.map(|p| p.performance[i]);
            row.push(beside(w.result(d).map(|r| r.performance), paper, 2));
        }
        for (i, &d) in Design::UNIFIED.iter().enumerate() {
            let paper = w.paper.map(|p| p.energy[i]);
            row.push(beside(w.result(d).map(|r| r.energy_ratio), paper, 2));
        }
        for d in [Design::FermiLike, Design::Unified384NoArbitration] {
            let r = w.result(d);
            row.push(beside(r.map(|r| r.performance), None, 2));
            row.push(beside(r.map(|r| r.energy_ratio), None, 2));
        }
        rows.push(row);
    }
    let mut average = vec![average_label(report)];
    for i in 0..3 {
        average.push(beside(
            report.average_performance[i],
            Some(report.paper_average.performance[i]),
            2,
        ));
    }
    for i in 0..3 {
        average.push(beside(
            report.average_energy[i],
            Some(report.paper_average.energy[i]),
            2,
        ));
    }
    average.resize(average.len() + 2, String::new());
    average.extend(report.average_no_arbitration.map(|v| beside(v, None, 2)));
    rows.push(average);
    let mut header = CAPACITY_COLUMNS.to_vec();
    header.extend([
        "Fermi-like perf",
        "Fermi-like energy",
        "no-arbitration perf",
        "no-arbitration energy",
    ]);
    Table::new(&header, rows, 1)
}

/// "average of 7 (needle, bfs, ...)": the programs the report's means take.
fn average_label(report: &Report) -> String {
    format!(
        "average of {} ({})",
        report.averaged.len(),
        report.averaged.join(", ")
    )
}

/// §6.1's Fig. 7: unified 384 KB over partitioned for the programs that should not benefit,
/// without and with the register file hierarchy, and their geometric mean beside Table 6's
/// last row.
fn fig7_table(report: &Report) -> Table {
    let mut rows = Vec::new();
    for w in report.workloads.iter().filter(|w| w.workload.fig7()) {
        let mut row = vec![w.workload.name().to_string()];
        for d in [Design::Unified384, Design::Unified384Hierarchy] {
            let r = w.result(d);
            row.push(beside(r.map(|r| r.performance), Some(1.0), 3));
            row.push(beside(r.map(|r| r.energy_ratio), Some(1.0), 3));
        }
        rows.push(row);
    }
    let paper = PAPER_FIG7_AVERAGE;
    let mut average = vec![format!("average of {}", report.fig7_averaged.len())];
    for (i, v) in report.fig7_average.iter().enumerate() {
        let p = if i % 2 == 0 {
            paper.performance[2]
        } else {
            paper.energy[2]
        };
        average.push(beside(*v, Some(p), 3));
    }
    rows.push(average);
    let header = [
        "program",
        "perf 384 KB",
        "energy 384 KB",
        "perf 384 KB + RFH",
        "energy 384 KB + RFH",
    ];
    Table::new(&header, rows, 1)
}

fn hierarchy_table(report: &Report) -> Table {
    let mut rows = Vec::new();
    for w in &report.workloads {
        let mut row = vec![w.workload.name().to_string()];
        for (i, &d) in Design::HIERARCHY.iter().enumerate() {
            let paper = w.paper.map(|p| p.performance[i]);
            row.push(beside(w.result(d).map(|r| r.performance), paper, 2));
        }
        for (i, &d) in Design::HIERARCHY.iter().enumerate() {
            let paper = w.paper.map(|p| p.energy[i]);
            row.push(beside(w.result(d).map(|r| r.energy_ratio), paper, 2));
        }
        rows.push(row);
    }
    let mut average = vec![average_label(report)];
    for i in 0..3 {
        average.push(beside(
            report.average_hierarchy_performance[i],
            Some(report.paper_average.performance[i]),
            2,
        ));
    }
    for i in 0..3 {
        average.push(beside(
            report.average_hierarchy_energy[i],
            Some(report.paper_average.energy[i]),
            2,
        ));
    }
    rows.push(average);
    Table::new(&CAPACITY_COLUMNS, rows, 1)
}

/// MRF reads (the operand collector's bank reads, in warp registers) without and with the
/// hierarchy, and the unified 384 KB design's arbitration conflicts without and with it.
fn counters_table(report: &Report) -> Table {
    let per_register = crate::energy::register_accesses(32) as f64;
    let rows = report
        .workloads
        .iter()
        .map(|w| {
            let reads = |d: Design| {
                w.result(d)
                    .map(|r| r.totals.energy_counts.rf_reads as f64 / per_register)
            };
            let conflicts = |d: Design| {
                w.result(d).map_or("-".to_string(), |r| {
                    thousands(r.totals.arbitration_conflicts)
                })
            };
            let m = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{:.2}", v / 1e6));
            let (off, on) = (
                reads(Design::Unified384),
                reads(Design::Unified384Hierarchy),
            );
            let cut = match (off, on) {
                (Some(a), Some(b)) if a > 0.0 => format!("{:.0}%", 100.0 * (1.0 - b / a)),
                _ => "-".to_string(),
            };
            vec![
                w.workload.name().to_string(),
                m(reads(Design::Partitioned)),
                m(reads(Design::PartitionedHierarchy)),
                m(off),
                m(on),
                cut,
                conflicts(Design::Unified384),
                conflicts(Design::Unified384Hierarchy),
            ]
        })
        .collect();
    let header = [
        "program",
        "MRF reads, partitioned",
        "partitioned + RFH",
        "unified 384 KB",
        "unified 384 KB + RFH",
        "MRF reads cut",
        "arbitration conflicts, 384 KB",
        "384 KB + RFH",
    ];
    Table::new(&header, rows, 1)
}

fn dram_table(report: &Report) -> Table {
    let cell = |w: &WorkloadReport, d: Design| {
        w.result(d).map_or("-".to_string(), |r| {
            let kb = r.totals.dram_bytes as f64 / 1024.0;
            let hits = percent(Some(r.totals.l1d_hit_rate()));
            if d == d.baseline() {
                format!("{kb:.0} KB, {hits} hits")
            } else {
                format!("{}, {hits} hits", times(r.dram_ratio, 2))
            }
        })
    };
    by_design(report, cell)
}

fn energy_table(report: &Report, designs: [Design; 2]) -> Table {
    let parts = [
        "register_file_pj",
        "register_hierarchy_pj",
        "shared_memory_pj",
        "l1d_pj",
        "dram_pj",
        "sram_leakage_pj",
        "sm_dynamic_pj",
        "core_leakage_pj",
        "total_pj",
    ];
    let rows = report
        .workloads
        .iter()
        .map(|w| {
            let mut row = vec![w.workload.name().to_string()];
            let both = designs.map(|d| w.result(d));
            for (name, _) in both[0].map_or(Vec::new(), |r| r.energy.parts().to_vec()) {
                let value = |r: Option<&DesignResult>| {
                    r.and_then(|r| {
                        r.energy
                            .parts()
                            .iter()
                            .find(|(n, _)| *n == name)
                            .map(|(_, v)| *v)
                    })
                    .map_or("-".to_string(), |v| format!("{:.1}", v / 1e6))
                };
                row.push(pair(&value(both[0]), &value(both[1])));
            }
            if let (Some(a), Some(b)) = (both[0], both[1]) {
                row.push(format!(
                    "{:.1} / {:.1}",
                    a.energy.total_pj / 1e6,
                    b.energy.total_pj / 1e6
                ));
            }
            row
        })
        .collect();
    let mut header = vec!["program".to_string()];
    header.extend(
        parts
            .iter()
            .map(|p| p.trim_end_matches("_pj").replace('_', " ")),
    );
    Table::new(&header, rows, 1)
}
