//! The MRPB experiment's report (HPCA 2014, Sections 4-5) in [`table`](super::table)'s
//! layout: MRPB off and on per case (§5.5, Fig. 14), the geometric means beside the paper's,
//! the design-space sweeps (Table 4, §5.1-5.4) and the paper's findings beside ours. Pure
//! formatting: the numbers come from [`Report`].

use super::mrpb::{DesignPoint, Report, SweepReport};
use super::table::{
    bold, completed_or_marked, fixed, pair, times, Format, PaperReport, Section, Table,
};
use super::{Counters, Outcome};
use crate::correlate::table::thousands;

impl PaperReport for Report {
    fn intro(&self) -> String {
        let sampled = self.sample.map_or(String::new(), |w| {
            format!(
                " Each run is sampled: it stops after {} cycles when longer, and its cycles \
                 (~) are its whole launch's instructions (counted functionally) at the window's \
                 IPC; its other counters are the window's.",
                thousands(w)
            )
        });
        format!(
            "warpstep {}: {}, on our kernels. Base-S = tesla-c2050-s, Base-L = tesla-c2050-l, on {}; \
             MRPB on = Table 4's final design (warp-ID queues, fixed-order drain, flush, 8 entries, \
             5 cycles, bypass on associativity stalls). {} simulations.{sampled}\n",
            self.warpstep_version, self.paper, self.machine_label, self.runs
        )
    }

    fn sections(&self, f: Format) -> Vec<Section> {
        let mut sections = vec![
            Section::table("MRPB off and on (§5.5, Fig. 14)", on_off_table(self)),
            Section::table("Geometric mean of IPC on / off (§5.5)", geomean_table(self)),
        ];
        if !self.unshared.is_empty() {
            sections.push(Section::table(
                "Unshared versions (§5.6, Fig. 15): performance / the original on Base-S, MRPB off",
                unshared_table(self),
            ));
            sections.push(Section::table(
                "Unshared versions' time over the originals' (§5.6)",
                gap_table(self),
            ));
        }
        if !self.design_cases.is_empty() {
            sections.push(Section::table(
                format!(
                    "Design space (Table 4, §5.1-5.4) on {}: IPC / IPC with MRPB off (IPC)",
                    baseline_name(self.design_preset)
                ),
                design_table(self, f),
            ));
            let findings: String = self
                .sweeps
                .iter()
                .map(|sweep| finding(sweep, &self.design_cases, f))
                .collect();
            sections.push(Section::text("The paper's findings and ours", findings));
        }
        sections
    }

    fn incomplete(&self) -> &[String] {
        &self.incomplete
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
    let both = |off: &Outcome, on: &Outcome, value: fn(&Counters) -> String| {
        pair(&value(&off.counters), &value(&on.counters))
    };
    let rows = report
        .cases
        .iter()
        .map(|r| {
            let (off, on) = (&r.off, &r.on);
            vec![
                completed_or_marked(r.case, off.completed() && on.completed()),
                r.suite.name().to_string(),
                r.baseline.to_string(),
                pair(&cycles(off), &cycles(on)),
                both(off, on, |c| format!("{:.3}", c.ipc)),
                fixed(r.ipc_ratio, 2),
                both(off, on, |c| thousands(c.l1d_misses)),
                both(off, on, |c| thousands(c.reservation_fails)),
                both(off, on, |c| {
                    let e = &c.evictions_by;
                    format!(
                        "{}, {}, {}",
                        thousands(e.intra_warp),
                        thousands(e.cross_warp_intra_block),
                        thousands(e.cross_warp_cross_block)
                    )
                }),
                both(off, on, |c| thousands(c.dram_accesses)),
                both(off, on, |c| thousands(c.icnt_packets)),
                thousands(on.counters.bypassed),
            ]
        })
        .collect();
    Table::new(
        &[
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
        ],
        rows,
        3,
    )
}

/// A run's cycles: measured, or "~" and the whole launch's estimate when sampled (its other
/// counters are then its window's).
fn cycles(o: &Outcome) -> String {
    match o.sampled {
        Some(_) => format!("~{}", thousands(o.estimated_cycles().round() as u64)),
        None => thousands(o.counters.cycles),
    }
}

fn geomean_table(report: &Report) -> Table {
    let rows = report
        .geomeans
        .iter()
        .map(|g| {
            let cell = |r: Option<f64>| r.map_or("-".to_string(), |r| times(r, 2));
            vec![
                g.suite.name().to_string(),
                g.baseline.to_string(),
                format!(
                    "{} ({} launch{})",
                    g.programs,
                    g.cases,
                    if g.cases == 1 { "" } else { "es" }
                ),
                cell(g.per_program),
                cell(g.warpstep),
                times(g.paper, 2),
            ]
        })
        .collect();
    Table::new(
        &[
            "suite",
            "config",
            "programs",
            "warpstep per program (the paper's mean)",
            "per kernel launch",
            "paper (per program)",
        ],
        rows,
        2,
    )
}

/// Fig. 15: one row per program pair and baseline, cycles and normalised performance of the
/// original and the /U version with MRPB off and on.
fn unshared_table(report: &Report) -> Table {
    let rows = report
        .unshared
        .iter()
        .map(|r| {
            let cycles = |i: usize| r.cycles[i].map_or("-".to_string(), thousands);
            vec![
                format!("{} / {}", r.program, r.unshared),
                r.baseline.to_string(),
                pair(&cycles(0), &cycles(1)),
                pair(&cycles(2), &cycles(3)),
                pair(&fixed(r.normalised[0], 2), &fixed(r.normalised[1], 2)),
                pair(&fixed(r.normalised[2], 2), &fixed(r.normalised[3], 2)),
            ]
        })
        .collect();
    Table::new(
        &[
            "program / unshared",
            "config",
            "original cycles off / on",
            "unshared cycles off / on",
            "original perf. off / on",
            "unshared perf. off / on",
        ],
        rows,
        2,
    )
}

/// §5.6's averages: the /U versions' time over the originals' per baseline, beside the paper's.
fn gap_table(report: &Report) -> Table {
    let rows = report
        .unshared_gaps
        .iter()
        .map(|g| {
            let cell = |r: Option<f64>| r.map_or("-".to_string(), |r| times(r, 2));
            vec![
                g.baseline.to_string(),
                g.pairs.to_string(),
                cell(g.off),
                cell(g.on),
                cell(g.both_on),
                format!("{} / {}", times(g.paper.0, 2), times(g.paper.1, 2)),
            ]
        })
        .collect();
    Table::new(
        &[
            "config",
            "pairs",
            "/U off over original off",
            "/U on over original off",
            "/U on over original on",
            "paper (six pairs): off / on over original off",
        ],
        rows,
        1,
    )
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
                        fixed(p.normalised_ipc, 3),
                        p.outcome.counters.ipc
                    );
                    match (best, f) {
                        (false, _) => cell,
                        (true, Format::Markdown) => bold(f, &cell),
                        (true, Format::Text) => format!("{cell} *"),
                    }
                }));
            }
            rows.push(row);
        }
    }
    let mut header = vec!["sweep".to_string(), "setting".to_string()];
    header.extend(report.design_cases.iter().map(|c| c.to_string()));
    Table::new(&header, rows, 2)
}

/// "- drain (§5.2, Fig. 9; queue depth 256, ...): paper: fixed order best. warpstep: atax_1
/// best longest_first (×1.530), worst round_robin (×0.540); ...".
fn finding(sweep: &SweepReport, cases: &[&str], f: Format) -> String {
    let ours: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let (best, worst) = sweep.best_and_worst(case)?;
            let r = |p: &DesignPoint| times(p.normalised_ipc.map_or(0.0, |r| r), 3);
            Some(format!(
                "{case} best {} ({}), worst {} ({})",
                best.setting,
                r(best),
                worst.setting,
                r(worst)
            ))
        })
        .collect();
    format!(
        "- {} ({}; {}): paper: {}. warpstep: {}.\n",
        bold(f, sweep.name),
        sweep.section,
        sweep.setup,
        sweep.paper,
        ours.join("; ")
    )
}
