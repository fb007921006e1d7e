//! The MRPB paper's scheduler comparison (HPCA 2014, Fig. 14's CCWS-SWL and Fig. 16) in
//! [`table`](super::table)'s layout: every case's IPC under the six schedulers over RR's, with
//! each SWL's best limit and the L1D misses that explain it, Fig. 14's MRPB and SWL means, Fig.
//! 16's groups, and the paper's statements beside ours. Pure formatting: the numbers come from
//! [`Report`].

use super::mrpb_sched::{BaseRuns, CaseRow, Group, Report, BARS, PAPER};
use super::table::{completed_or_marked, fixed, times, Format, PaperReport, Section, Table};
use crate::correlate::table::thousands;

impl PaperReport for Report {
    fn intro(&self) -> String {
        let limits: Vec<String> = self.limits.iter().map(u32::to_string).collect();
        format!(
            "warpstep {}: {}, on the MRPB experiment's kernels. Base-S = tesla-c2050-s, Base-L = \
             tesla-c2050-l (one SM); RR = lrr (Table 1), GTO = gto; MRPB = Table 4's final \
             design; SWL = CCWS's static wavefront limit (core.ccws.swl_warps) at the best of no limit and \
             {} warps per case. {} simulations.\n",
            self.warpstep_version,
            self.paper,
            limits.join(", "),
            self.runs
        )
    }

    fn sections(&self, _f: Format) -> Vec<Section> {
        vec![
            Section::table("IPC over RR per case (best SWL limit)", case_table(self)),
            Section::table(
                "Fig. 14: MRPB and CCWS-SWL over RR (geometric mean per kernel launch)",
                figure_14_table(self),
            ),
            Section::table(
                "Fig. 16: six schedulers, normalised to RR within each group",
                figure_16_table(self),
            ),
            Section::text("The paper's statements and ours", statements(self)),
        ]
    }

    fn incomplete(&self) -> &[String] {
        &self.incomplete
    }
}

/// "1.23 (8)": an SWL bar with its limit ("all": no limit was best).
fn swl_cell(r: Option<f64>, b: &BaseRuns) -> String {
    match &b.best_swl {
        Some((0, _)) => format!("{} (all)", fixed(r, 2)),
        Some((n, _)) => format!("{} ({n})", fixed(r, 2)),
        None => "-".into(),
    }
}

/// The L1D misses of RR, RR+MRPB and RR+SWL: what the bars' differences come from.
fn misses(row: &CaseRow) -> String {
    let swl = row
        .rr
        .best_swl
        .as_ref()
        .map_or("-".into(), |(_, o)| thousands(o.counters.l1d_misses));
    format!(
        "{} / {} / {swl}",
        thousands(row.rr.plain.counters.l1d_misses),
        thousands(row.rr.mrpb.counters.l1d_misses)
    )
}

fn case_table(report: &Report) -> Table {
    let rows = report
        .cases
        .iter()
        .map(|row| {
            let n = row.normalised();
            let completed = row.bars().iter().all(|b| b.is_some_and(|o| o.completed()));
            vec![
                completed_or_marked(row.case, completed),
                row.suite.name().to_string(),
                row.baseline.to_string(),
                format!("{:.3}", row.rr.plain.counters.ipc),
                fixed(n[1], 2),
                fixed(n[2], 2),
                fixed(n[3], 2),
                swl_cell(n[4], &row.rr),
                swl_cell(n[5], &row.gto),
                misses(row),
            ]
        })
        .collect();
    Table::new(
        &[
            "case",
            "suite",
            "config",
            "RR IPC",
            "GTO",
            "RR+MRPB",
            "GTO+MRPB",
            "RR+SWL (warps)",
            "GTO+SWL (warps)",
            "L1D misses RR / RR+MRPB / RR+SWL",
        ],
        rows,
        3,
    )
}

fn cell(r: Option<f64>) -> String {
    r.map_or("-".into(), |r| times(r, 2))
}

fn group_name(g: &Group) -> [String; 3] {
    [
        g.suite.name().to_string(),
        g.baseline.to_string(),
        g.cases.to_string(),
    ]
}

fn figure_14_table(report: &Report) -> Table {
    let rows = report
        .groups
        .iter()
        .map(|g| {
            let (mrpb, swl) = g.figure_14();
            let verdict = match (mrpb, swl) {
                (Some(m), Some(s)) if m > s => "MRPB",
                (Some(m), Some(s)) if s > m => "SWL",
                (Some(_), Some(_)) => "tie",
                _ => "-",
            };
            let mut row = group_name(g).to_vec();
            row.extend([cell(mrpb), cell(swl), verdict.to_string()]);
            row
        })
        .collect();
    Table::new(
        &["suite", "config", "cases", "RR+MRPB", "RR+SWL", "better"],
        rows,
        3,
    )
}

fn figure_16_table(report: &Report) -> Table {
    let rows = report
        .groups
        .iter()
        .map(|g| {
            let mut row = group_name(g).to_vec();
            row.extend(g.bars.iter().map(|&b| cell(b)));
            row
        })
        .collect();
    let mut header = vec!["suite", "config", "cases"];
    header.extend(BARS);
    Table::new(&header, rows, 3)
}

/// Whether `a` is above `b`, when both are known.
fn above(a: Option<f64>, b: Option<f64>) -> Option<bool> {
    Some(a? > b?)
}

/// Each of the paper's statements with how many groups agree here.
fn statements(report: &Report) -> String {
    let count = |agrees: fn(&Group) -> Option<bool>| {
        let known: Vec<bool> = report.groups.iter().filter_map(agrees).collect();
        let yes = known.iter().filter(|&&a| a).count();
        format!("warpstep: {yes} of {} groups agree", known.len())
    };
    let checks: [String; 3] = [
        count(|g| above(g.bars[2], g.bars[4])),
        count(|g| above(g.bars[1], g.bars[0])),
        count(|g| {
            let over_rr = above(g.bars[2], g.bars[0])?;
            let over_gto = above(g.bars[3], g.bars[1])?;
            let over_swl = above(g.bars[2], g.bars[4])? && above(g.bars[3], g.bars[5])?;
            Some(over_rr && over_gto && over_swl)
        }),
    ];
    PAPER
        .iter()
        .zip(checks)
        .map(|(paper, ours)| format!("- {paper}. {ours}.\n"))
        .collect()
}
