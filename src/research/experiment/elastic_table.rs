//! The elastic pipeline experiment's report (CF'11 §5.1-5.2) as text for the terminal or as
//! Markdown, in [`table`](super::table)'s layout: cycles and speedups per setup (Fig. 9), Table
//! 4 on the baseline, the stall breakdown (Fig. 8), the history cache's predictions, the
//! averages beside the paper's headline and the padded kernels (Fig. 10). Pure formatting: the
//! numbers come from [`Report`].

use super::elastic::{Accuracy, Average, KernelReport, Report, Setup, Stalls};
use super::table::{heading, Format, Table};
use crate::correlate::table::thousands;

/// The report for the terminal.
pub fn text(report: &Report) -> String {
    render(report, Format::Text)
}

/// The report as Markdown.
pub fn markdown(report: &Report) -> String {
    render(report, Format::Markdown)
}

fn render(report: &Report, f: Format) -> String {
    let mut out = intro(report);
    let sections: [(&str, Table); 6] = [
        (
            "Cycles and speedup over the baseline (§5.2, Fig. 9)",
            speedup_table(report),
        ),
        ("Table 4, measured on the baseline", table4(report)),
        (
            "Pipeline stalls, baseline / elastic + scheduler (§5.1, Fig. 8)",
            stall_table(report),
        ),
        (
            "Bank conflict history cache: predictions exact / under / over (§4.2, §5.1)",
            history_table(report),
        ),
        (
            "Averages over our kernels beside the paper's headline (abstract, §5.1-5.2)",
            average_table(report),
        ),
        (
            "Padded (hand-optimised) kernels on the baseline against un-padded ones on elastic + scheduler (§5.2, Fig. 10)",
            hand_table(report),
        ),
    ];
    for (title, table) in sections {
        out.push_str(&heading(f, title));
        out.push_str(&table.render(f));
    }
    out.push_str(&heading(f, "Notes"));
    out.push_str(NOTES);
    if !report.incomplete.is_empty() {
        out.push_str(&heading(f, "Runs that did not complete"));
        for line in &report.incomplete {
            out.push_str(&format!("- {line}\n"));
        }
    }
    out
}

fn intro(report: &Report) -> String {
    let setups: Vec<String> = report
        .setups
        .iter()
        .map(|s| format!("{} = {}", s.setup.label(), s.sets.join(" ")))
        .collect();
    format!(
        "warpstep {}: {}, on our kernels, preset {} (Table 3, one core){}. Setups (--set): {}. \
         {} simulations.\n",
        report.warpstep_version,
        report.paper,
        report.preset,
        if report.quick { ", --quick grids" } else { "" },
        setups.join("; "),
        report.runs
    )
}

const NOTES: &str = "\
- Speedup = baseline cycles / cycles (same instructions). The paper's averages are arithmetic \
means over its eight kernels (Table 4); ours over the kernels above (DCT_short and IDCT_short \
are not written); the geometric mean is beside it.
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
        (_, Some(r)) => format!("{cycles} (×{r:.3})"),
        (_, None) => format!("{cycles} (-)"),
    }
}

/// The cell's text, marked when its run did not complete.
fn status(cell: &str, k: &KernelReport, s: Setup) -> String {
    if k.outcome(s).completed() {
        cell.to_string()
    } else {
        format!("{cell} (did not complete)")
    }
}

/// "1.15 (1.13)": ours and the paper's.
fn beside(ours: Option<f64>, paper: f64, digits: usize) -> String {
    let ours = ours.map_or("-".to_string(), |v| format!("{v:.digits$}"));
    format!("{ours} ({paper:.digits$})")
}

fn percent(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |v| format!("{:.1}%", v * 100.0))
}

fn strings<const N: usize>(cells: [&str; N]) -> Vec<String> {
    cells.map(String::from).to_vec()
}

fn speedup_table(report: &Report) -> Table {
    let rows = report
        .kernels
        .iter()
        .map(|k| {
            let mut row = vec![k.kernel.to_string()];
            row.extend(Setup::ALL.iter().map(|&s| cycles_cell(k, s)));
            let t = &k.table4;
            row.push(beside(t.theoretic_speedup, t.paper_theoretic_speedup, 2));
            row
        })
        .collect();
    let mut header = vec!["kernel".to_string()];
    header.extend(Setup::ALL.iter().map(|s| format!("{} cycles", s.label())));
    header.push("theoretic bound (paper)".to_string());
    Table {
        header,
        rows,
        left: 1,
    }
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
                beside(t.degree, t.paper_degree, 2),
                beside(t.theoretic_speedup, t.paper_theoretic_speedup, 2),
            ]
        })
        .collect();
    Table {
        header: strings([
            "kernel (Table 4)",
            "source",
            "warp instructions",
            "shared warp instructions",
            "intensity (paper)",
            "degree (paper)",
            "theoretic speedup (paper)",
        ]),
        rows,
        left: 2,
    }
}

fn stall_table(report: &Report) -> Table {
    let pair = |k: &KernelReport, v: fn(&Stalls) -> u64| {
        format!(
            "{} / {}",
            thousands(v(&k.stalls_baseline)),
            thousands(v(&k.stalls_elastic_scheduler))
        )
    };
    let rows = report
        .kernels
        .iter()
        .map(|k| {
            vec![
                k.kernel.to_string(),
                pair(k, |s| s.scheduling_fail),
                pair(k, |s| s.masked),
                pair(k, |s| s.bank_conflict),
                pair(k, |s| s.other),
                pair(k, Stalls::total),
                percent(k.stall_reduction),
            ]
        })
        .collect();
    Table {
        header: strings([
            "kernel",
            "scheduling fail",
            "of which masked",
            "bank conflict",
            "other (writeback)",
            "total",
            "reduction",
        ]),
        rows,
        left: 1,
    }
}

/// "4,094 / 2 / 0 (99.9%)".
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
    Table {
        header: strings(["kernel", "scheduler alone", "elastic + scheduler"]),
        rows,
        left: 1,
    }
}

/// "×1.133 (+13.3%)" for a speedup; "42.3%" for the stall reduction.
fn average_cell(a: &Average, v: Option<f64>) -> String {
    match v {
        None => "-".to_string(),
        Some(v) if a.what.starts_with("stall") => format!("{:.1}%", v * 100.0),
        Some(v) => format!("×{v:.3} ({:+.1}%)", (v - 1.0) * 100.0),
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
    Table {
        header: strings([
            "measure",
            "kernels",
            "arithmetic mean",
            "geometric mean",
            "best",
            "paper average",
            "paper best",
        ]),
        rows,
        left: 1,
    }
}

fn hand_table(report: &Report) -> Table {
    let ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("×{r:.3}"));
    let rows = report
        .hand_optimised
        .iter()
        .filter_map(|h| {
            let k = report.kernel(h.kernel)?;
            Some(vec![
                h.kernel.to_string(),
                h.padded_degree
                    .map_or("-".to_string(), |d| format!("{d:.2}")),
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
    Table {
        header: strings([
            "kernel",
            "padded degree",
            "padded bank conflict stalls",
            "un-padded baseline cycles",
            "padded baseline cycles",
            "un-padded elastic + scheduler cycles",
            "padded speedup",
            "elastic + scheduler speedup",
            "elastic + scheduler / padded",
        ]),
        rows,
        left: 1,
    }
}
