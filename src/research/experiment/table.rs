//! The MRPB experiment's report as text for the terminal or as Markdown: the same tables
//! (MRPB off and on per case, the geometric means beside the paper's, the design-space sweeps)
//! and the paper's findings beside ours. Pure formatting: the numbers come from [`Report`].
//! The [`Table`] and [`heading`] lay out the other experiments' reports too.

use super::mrpb::{Report, SweepReport};
use super::{Counters, Outcome};
use crate::correlate::table::thousands;

/// Text (aligned columns) or Markdown (pipe tables, best settings in bold).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
}

/// The report for the terminal.
pub fn text(report: &Report) -> String {
    render(report, Format::Text)
}

/// The report as Markdown.
pub fn markdown(report: &Report) -> String {
    render(report, Format::Markdown)
}

fn render(report: &Report, f: Format) -> String {
    let mut out = format!(
        "warpstep {}: {}, on our kernels. Base-S = tesla-c2050-s, Base-L = tesla-c2050-l (one SM); \
         MRPB on = Table 4's final design (warp-ID queues, fixed-order drain, flush, 8 entries, \
         5 cycles, bypass on associativity stalls). {} simulations.\n",
        report.warpstep_version, report.paper, report.runs
    );
    out.push_str(&heading(f, "MRPB off and on (§5.5, Fig. 14)"));
    out.push_str(&on_off_table(report).render(f));
    out.push_str(&heading(f, "Geometric mean of IPC on / off (§5.5)"));
    out.push_str(&geomean_table(report).render(f));
    if !report.design_cases.is_empty() {
        out.push_str(&heading(
            f,
            &format!(
                "Design space (Table 4, §5.1-5.4) on {}: IPC / IPC with MRPB off (IPC)",
                baseline_name(report.design_preset)
            ),
        ));
        out.push_str(&design_table(report, f).render(f));
        out.push_str(&heading(f, "The paper's findings and ours"));
        for sweep in &report.sweeps {
            out.push_str(&finding(sweep, &report.design_cases, f));
        }
    }
    if !report.incomplete.is_empty() {
        out.push_str(&heading(f, "Runs that did not complete"));
        for line in &report.incomplete {
            out.push_str(&format!("- {line}\n"));
        }
    }
    out
}

/// A section heading.
pub(super) fn heading(f: Format, title: &str) -> String {
    match f {
        Format::Text => format!("\n{title}\n\n"),
        Format::Markdown => format!("\n### {title}\n\n"),
    }
}

fn baseline_name(preset: &str) -> String {
    super::mrpb::PRESETS
        .iter()
        .find(|(p, _)| *p == preset)
        .map_or(preset.to_string(), |(_, b)| format!("{b} ({preset})"))
}

/// One row per case and preset: each counter off / on, and the IPC ratio.
fn on_off_table(report: &Report) -> Table {
    let pair = |off: &Outcome, on: &Outcome, value: fn(&Counters) -> String| {
        format!("{} / {}", value(&off.counters), value(&on.counters))
    };
    let rows = report
        .cases
        .iter()
        .map(|r| {
            let (off, on) = (&r.off, &r.on);
            vec![
                status_name(r.case, off, on),
                r.suite.name().to_string(),
                r.baseline.to_string(),
                pair(off, on, |c| thousands(c.cycles)),
                pair(off, on, |c| format!("{:.3}", c.ipc)),
                ratio_text(r.ipc_ratio),
                pair(off, on, |c| thousands(c.l1d_misses)),
                pair(off, on, |c| thousands(c.reservation_fails)),
                pair(off, on, |c| {
                    let e = &c.evictions_by;
                    format!(
                        "{}, {}, {}",
                        thousands(e.intra_warp),
                        thousands(e.cross_warp_intra_block),
                        thousands(e.cross_warp_cross_block)
                    )
                }),
                pair(off, on, |c| thousands(c.dram_accesses)),
                pair(off, on, |c| thousands(c.icnt_packets)),
                thousands(on.counters.bypassed),
            ]
        })
        .collect();
    Table {
        header: [
            "case",
            "suite",
            "config",
            "cycles off / on",
            "IPC off / on",
            "IPC on/off",
            "L1D misses off / on",
            "reservation fails off / on",
            "evictions intra-warp, cross-warp, cross-block: off / on",
            "DRAM reads+writes off / on",
            "icnt packets off / on",
            "bypassed",
        ]
        .map(String::from)
        .to_vec(),
        rows,
        left: 3,
    }
}

/// The case's name, marked when a run of it did not complete.
fn status_name(case: &str, off: &Outcome, on: &Outcome) -> String {
    if off.completed() && on.completed() {
        case.to_string()
    } else {
        format!("{case} (did not complete)")
    }
}

fn geomean_table(report: &Report) -> Table {
    let rows = report
        .geomeans
        .iter()
        .map(|g| {
            vec![
                g.suite.name().to_string(),
                g.baseline.to_string(),
                g.cases.to_string(),
                g.warpstep.map_or("-".to_string(), times),
                times(g.paper),
            ]
        })
        .collect();
    Table {
        header: ["suite", "config", "cases", "warpstep", "paper"]
            .map(String::from)
            .to_vec(),
        rows,
        left: 2,
    }
}

/// One row per sweep setting, one column per design case: "10.530 (1.626)", the best of each
/// sweep marked (bold in Markdown, `*` in text). Three decimals: the sweeps move IPC less.
fn design_table(report: &Report, f: Format) -> Table {
    let mut rows = Vec::new();
    for sweep in &report.sweeps {
        for (i, setting) in sweep.settings.iter().enumerate() {
            let mut row = vec![
                if i == 0 {
                    format!("{} ({})", sweep.name, sweep.section)
                } else {
                    String::new()
                },
                setting.to_string(),
            ];
            for case in &report.design_cases {
                let best = sweep
                    .best_and_worst(case)
                    .is_some_and(|(b, _)| b.setting == *setting);
                row.push(sweep.point(case, setting).map_or("-".to_string(), |p| {
                    let cell = format!(
                        "{} ({:.3})",
                        p.normalised_ipc
                            .map_or("-".to_string(), |r| format!("{r:.3}")),
                        p.outcome.counters.ipc
                    );
                    match (best, f) {
                        (false, _) => cell,
                        (true, Format::Markdown) => format!("**{cell}**"),
                        (true, Format::Text) => format!("{cell} *"),
                    }
                }));
            }
            rows.push(row);
        }
    }
    let mut header = vec!["sweep".to_string(), "setting".to_string()];
    header.extend(report.design_cases.iter().map(|c| c.to_string()));
    Table {
        header,
        rows,
        left: 2,
    }
}

/// "- drain (§5.2, Fig. 9; queue depth 256, ...): paper: fixed order best. warpstep: atax_1
/// best longest_first (×1.530), worst round_robin (×0.540); ...".
fn finding(sweep: &SweepReport, cases: &[&str], f: Format) -> String {
    let ours: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let (best, worst) = sweep.best_and_worst(case)?;
            let r = |p: &super::mrpb::DesignPoint| p.normalised_ipc.map_or(0.0, |r| r);
            Some(format!(
                "{case} best {} (×{:.3}), worst {} (×{:.3})",
                best.setting,
                r(best),
                worst.setting,
                r(worst)
            ))
        })
        .collect();
    let name = match f {
        Format::Text => sweep.name.to_string(),
        Format::Markdown => format!("**{}**", sweep.name),
    };
    format!(
        "- {name} ({}; {}): paper: {}. warpstep: {}.\n",
        sweep.section,
        sweep.setup,
        sweep.paper,
        ours.join("; ")
    )
}

fn ratio_text(r: Option<f64>) -> String {
    r.map_or("-".to_string(), |r| format!("{r:.2}"))
}

/// "×2.65".
fn times(r: f64) -> String {
    format!("×{r:.2}")
}

/// A table of text cells: the first `left` columns are left-aligned, the rest right-aligned.
pub(super) struct Table {
    pub(super) header: Vec<String>,
    pub(super) rows: Vec<Vec<String>>,
    pub(super) left: usize,
}

impl Table {
    pub(super) fn render(&self, f: Format) -> String {
        match f {
            Format::Text => self.text(),
            Format::Markdown => self.markdown(),
        }
    }

    fn markdown(&self) -> String {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        let rule: Vec<String> = (0..self.header.len())
            .map(|i| if i < self.left { "---" } else { "--:" }.to_string())
            .collect();
        let mut out = line(&self.header);
        out.push_str(&format!("|{}|\n", rule.join("|")));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }

    fn text(&self) -> String {
        let width = |i: usize| {
            std::iter::once(&self.header)
                .chain(&self.rows)
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.header.len()).map(width).collect();
        let line = |cells: &[String]| {
            let padded: Vec<String> = cells
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, (c, &w))| {
                    let pad = " ".repeat(w.saturating_sub(c.chars().count()));
                    if i < self.left {
                        format!("{c}{pad}")
                    } else {
                        format!("{pad}{c}")
                    }
                })
                .collect();
            format!("{}\n", padded.join("  ").trim_end())
        };
        let mut out = line(&self.header);
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}
