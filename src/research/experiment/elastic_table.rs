//! The elastic pipeline experiment's report (CF'11 §5.1-5.2) in [`table`](super::table)'s
//! layout: cycles and speedups per setup (Fig. 9), Table 4 on the baseline, the stall breakdown
//! (Fig. 8), the history cache's predictions, the averages beside the paper's headline and the
//! padded kernels (Fig. 10). Pure formatting: the numbers come from [`Report`].

use super::elastic::{Accuracy, Average, KernelReport, Report, Setup, Stalls};
use super::table::{
    beside, completed_or_marked, fixed, pair, percent, times, Format, PaperReport, Section, Table,
};
use crate::correlate::table::thousands;

impl PaperReport for Report {
    fn intro(&self) -> String {
        let setups: Vec<String> = self
            .setups
            .iter()
            .map(|s| format!("{} = {}", s.setup.label(), s.sets.join(" ")))
            .collect();
        format!(
            "warpstep {}: {}, on our kernels, preset {} on {}{}. Setups (--set): {}. \
             {} simulations.\n",
            self.warpstep_version,
            self.paper,
            self.preset,
            self.machine.label(super::elastic::PAPER_CORES),
            if self.quick { ", --quick grids" } else { "" },
            setups.join("; "),
            self.runs
        )
    }

    fn sections(&self, _: Format) -> Vec<Section> {
        vec![
            Section::table(
                "Cycles and speedup over the baseline (§5.2, Fig. 9)",
                speedup_table(self),
            ),
            Section::table("Table 4, measured on the baseline", table4(self)),
            Section::table(
                "Pipeline stalls, baseline / elastic + scheduler (§5.1, Fig. 8)",
                stall_table(self),
            ),
            Section::table(
                "Bank conflict history cache: predictions exact / under / over (§4.2, §5.1)",
                history_table(self),
            ),
            Section::table(
                "Averages over our kernels beside the paper's headline (abstract, §5.1-5.2)",
                average_table(self),
            ),
            Section::table(
                "Padded (hand-optimised) kernels on the baseline against un-padded ones on elastic + scheduler (§5.2, Fig. 10)",
                hand_table(self),
            ),
            Section::text("Notes", NOTES),
        ]
    }

    fn incomplete(&self) -> &[String] {
        &self.incomplete
    }
}

const NOTES: &str = "\
- Speedup = baseline cycles / cycles (same instructions). The paper's averages are arithmetic \
means over its eight kernels (Table 4); ours over the same eight; the geometric mean is \
beside it.
- Intensity = shared warp instructions / warp instructions, degree = (sub-warp accesses + bank \
conflict cycles) / sub-warp accesses, bound = 1 + intensity x (degree - 1), all from the \
baseline run (docs/elastic-kernels.md); the paper's intensity counts lanes.
- Stalls are scheduler-cycles without issue (a sub-warp's issue slot is not one): bank conflict = \
`bank_conflict`, other = `writeback_conflict`, scheduling fail = every other reason (no warp \
ready: `barrel`, scoreboard, barrier, throttles; or the bank-conflict-aware scheduler masked \
the ready ones, `scheduling_fail`, shown apart as the masked column).
";

/// "1,234 (×1.050)": a setup's cycles and its speedup over the baseline.
fn cycles_cell(k: &KernelReport, s: Setup) -> String {
    let cycles = status(&thousands(k.outcome(s).counters.cycles), k, s);
    match (s, k.speedup(s)) {
        (Setup::Baseline, _) => cycles,
        (_, Some(r)) => format!("{cycles} ({})", times(r, 3)),
        (_, None) => format!("{cycles} (-)"),
    }
}

/// The cell's text, marked when its run did not complete.
fn status(cell: &str, k: &KernelReport, s: Setup) -> String {
    completed_or_marked(cell, k.outcome(s).completed())
}

fn speedup_table(report: &Report) -> Table {
    let rows = report
        .kernels
        .iter()
        .map(|k| {
            let mut row = vec![k.kernel.to_string()];
            row.extend(Setup::ALL.iter().map(|&s| cycles_cell(k, s)));
            let t = &k.table4;
            row.push(beside(
                t.theoretic_speedup,
                Some(t.paper_theoretic_speedup),
                2,
            ));
            row
        })
        .collect();
    let mut header = vec!["kernel".to_string()];
    header.extend(Setup::ALL.iter().map(|s| format!("{} cycles", s.label())));
    header.push("theoretic bound (paper)".to_string());
    Table::new(&header, rows, 1)
}

fn table4(report: &Report) -> Table {
    let rows = report
        .kernels
        .iter()
        .map(|k| {
            let (c, t) = (&k.outcome(Setup::Baseline).counters, &k.table4);
            vec![
                format!("{} ({})", k.kernel, k.paper_name),
                k.source.name().to_string(),
                thousands(c.warp_instructions),
                thousands(c.shared_instructions),
                format!(
                    "{} ({})",
                    percent(t.intensity),
                    percent(Some(t.paper_intensity))
                ),
                beside(t.degree, Some(t.paper_degree), 2),
                beside(t.theoretic_speedup, Some(t.paper_theoretic_speedup), 2),
            ]
        })
        .collect();
    Table::new(
        &[
            "kernel (Table 4)",
            "source",
            "warp instructions",
            "shared warp instructions",
            "intensity (paper)",
            "degree (paper)",
            "theoretic speedup (paper)",
        ],
        rows,
        2,
    )
}

fn stall_table(report: &Report) -> Table {
    let both = |k: &KernelReport, v: fn(&Stalls) -> u64| {
        pair(
            &thousands(v(&k.stalls_baseline)),
            &thousands(v(&k.stalls_elastic_scheduler)),
        )
    };
    let rows = report
        .kernels
        .iter()
        .map(|k| {
            vec![
                k.kernel.to_string(),
                both(k, |s| s.scheduling_fail),
                both(k, |s| s.masked),
                both(k, |s| s.bank_conflict),
                both(k, |s| s.other),
                both(k, Stalls::total),
                percent(k.stall_reduction),
            ]
        })
        .collect();
    Table::new(
        &[
            "kernel",
            "scheduling fail",
            "of which masked",
            "bank conflict",
            "other (writeback)",
            "total",
            "reduction",
        ],
        rows,
        1,
    )
}

/// "4,094 / 2 / 0 (99.9% exact)".
fn accuracy_cell(a: Option<Accuracy>) -> String {
    a.map_or("-".to_string(), |a| {
        format!(
            "{} / {} / {} ({} exact)",
            thousands(a.exact),
            thousands(a.under),
            thousands(a.over),
            percent(a.exact_fraction)
        )
    })
}

fn history_table(report: &Report) -> Table {
    let rows = report
        .kernels
        .iter()
        .map(|k| {
            vec![
                k.kernel.to_string(),
                accuracy_cell(k.history_scheduler),
                accuracy_cell(k.history_elastic_scheduler),
            ]
        })
        .collect();
    Table::new(
        &["kernel", "scheduler alone", "elastic + scheduler"],
        rows,
        1,
    )
}

/// "×1.133 (+13.3%)" for a speedup; "42.3%" for the stall reduction.
fn average_cell(a: &Average, v: Option<f64>) -> String {
    match v {
        None => "-".to_string(),
        Some(v) if a.what.starts_with("stall") => percent(Some(v)),
        Some(v) => format!("{} ({:+.1}%)", times(v, 3), (v - 1.0) * 100.0),
    }
}

fn average_table(report: &Report) -> Table {
    let rows = report
        .averages
        .iter()
        .map(|a| {
            vec![
                a.what.to_string(),
                a.kernels.to_string(),
                average_cell(a, a.arithmetic),
                average_cell(a, a.geometric),
                average_cell(a, a.max),
                average_cell(a, a.paper_average),
                average_cell(a, a.paper_max),
            ]
        })
        .collect();
    Table::new(
        &[
            "measure",
            "kernels",
            "arithmetic mean",
            "geometric mean",
            "best",
            "paper average",
            "paper best",
        ],
        rows,
        1,
    )
}

fn hand_table(report: &Report) -> Table {
    let ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| times(r, 3));
    let rows = report
        .hand_optimised
        .iter()
        .filter_map(|h| {
            let k = report.kernel(h.kernel)?;
            Some(vec![
                h.kernel.to_string(),
                fixed(h.padded_degree, 2),
                thousands(h.padded.counters.stalls.bank_conflict),
                thousands(k.outcome(Setup::Baseline).counters.cycles),
                thousands(h.padded.counters.cycles),
                thousands(k.outcome(Setup::ElasticScheduler).counters.cycles),
                ratio(h.padded_speedup),
                ratio(h.elastic_scheduler_speedup),
                ratio(h.elastic_over_padded),
            ])
        })
        .collect();
    Table::new(
        &[
            "kernel",
            "padded degree",
            "padded bank conflict stalls",
            "un-padded baseline cycles",
            "padded baseline cycles",
            "un-padded elastic + scheduler cycles",
            "padded speedup",
            "elastic + scheduler speedup",
            "elastic + scheduler / padded",
        ],
        rows,
        1,
    )
}
