//! `warpstep experiment mrpb --plot FILE.svg`: one SVG of bar charts drawn by
//! `experiment_chart.rs`, on log axes rising from (or falling below) 1. On top, IPC with MRPB
//! on / off per case on Base-S and Base-L (MRPB §5.5, Fig. 14); below, the geometric means
//! beside the paper's, then the design-space sweeps of Table 4 (§5.1-5.4, Figs. 8-13), IPC /
//! IPC with MRPB off, one bar per design case.

use super::experiment_chart::{draw_bars, page, palette, LogAxis, Panel, COLOURS, PAPER_GREY};
use std::ops::Range;
use warpstep::experiment::mrpb::Report;

const SIZE: (u32, u32) = (1320, 1160);
const TOP_HEIGHT: u32 = 400;
/// The page without the design space (the paper's machine runs none): Fig. 14 and the means.
const SIZE_WITHOUT_SWEEPS: (u32, u32) = (1320, 780);

/// Writes the charts of `report` to `path`: Fig. 14 across the top, the geometric means and the
/// sweeps (when the report has them) in a 2 x 3 grid below.
pub fn write_svg(report: &Report, path: &str) -> Result<(), String> {
    let swept = !report.design_cases.is_empty();
    let (size, grid) = match swept {
        true => (SIZE, (2, 3)),
        false => (SIZE_WITHOUT_SWEEPS, (1, 2)),
    };
    page(path, size, TOP_HEIGHT, |top, bottom| {
        let on_off = on_off_panel(report);
        draw_bars(top, &on_off, y_range(&on_off.values))?;
        let mut panels = vec![geomean_panel(report)];
        if swept {
            panels.extend(sweep_panels(report));
        }
        for (area, panel) in bottom.split_evenly(grid).iter().zip(&panels) {
            draw_bars(area, panel, y_range(&panel.values))?;
        }
        Ok(())
    })
}

/// IPC on / off per case, a bar for each preset (MRPB Fig. 14).
fn on_off_panel(report: &Report) -> Panel {
    let mut groups: Vec<String> = Vec::new();
    let mut baselines: Vec<&str> = Vec::new();
    for r in &report.cases {
        if !groups.iter().any(|g| g == r.case) {
            groups.push(r.case.to_string());
        }
        if !baselines.contains(&r.baseline) {
            baselines.push(r.baseline);
        }
    }
    let values = baselines
        .iter()
        .map(|b| {
            groups
                .iter()
                .map(|g| {
                    let row = report
                        .cases
                        .iter()
                        .find(|r| r.case == g && r.baseline == *b);
                    row.and_then(|r| r.ipc_ratio)
                })
                .collect()
        })
        .collect();
    Panel {
        title: format!(
            "IPC with MRPB on / off (§5.5, Fig. 14), {}",
            report.machine_label
        ),
        groups,
        series: palette(baselines.iter().map(|b| b.to_string()), 0),
        values,
    }
}

/// The geometric means per suite and preset: warpstep's beside the paper's.
fn geomean_panel(report: &Report) -> Panel {
    let groups = report
        .geomeans
        .iter()
        .map(|g| {
            format!(
                "{} {}",
                g.suite.name(),
                g.baseline.trim_start_matches("Base-")
            )
        })
        .collect();
    Panel {
        title: "Geometric mean IPC on / off, per program".to_string(),
        groups,
        series: vec![
            ("warpstep".to_string(), COLOURS[1]),
            ("warpstep per kernel launch".to_string(), COLOURS[2]),
            ("paper".to_string(), PAPER_GREY),
        ],
        values: vec![
            report.geomeans.iter().map(|g| g.per_program).collect(),
            report.geomeans.iter().map(|g| g.warpstep).collect(),
            report.geomeans.iter().map(|g| Some(g.paper)).collect(),
        ],
    }
}

/// One panel per sweep: its settings along x, a bar per design case.
fn sweep_panels(report: &Report) -> Vec<Panel> {
    report
        .sweeps
        .iter()
        .map(|sweep| Panel {
            title: format!("{} ({}), IPC / off", sweep.name, sweep.section),
            groups: sweep.settings.iter().map(|s| short(s)).collect(),
            // The design cases take the colours after Base-S and Base-L.
            series: palette(report.design_cases.iter().map(|c| c.to_string()), 2),
            values: report
                .design_cases
                .iter()
                .map(|case| {
                    sweep
                        .settings
                        .iter()
                        .map(|s| sweep.point(case, s).and_then(|p| p.normalised_ipc))
                        .collect()
                })
                .collect(),
        })
        .collect()
}

/// A setting's name short enough to sit under its bars: "greedy_round_robin" -> "g-rr".
fn short(setting: &str) -> String {
    setting
        .replace("greedy_", "g-")
        .replace("round_robin", "rr")
        .replace("longest_first", "longest")
        .replace("warp_in_block", "in-block")
        .replace(", 8, flush", " 8fl")
        .replace(", flush", "+fl")
        .replace("only, ", "only ")
}

/// The log y range around every value and 1, with room below the bars and, above them, for
/// the value labels and the legend.
fn y_range(values: &[Vec<Option<f64>>]) -> Range<f64> {
    LogAxis {
        below: 1.3,
        floor: 0.8,
        above: 2.2,
        ceiling: 1.6,
        clip: None,
    }
    .range(values)
}

#[cfg(test)]
mod tests {
    use super::super::experiment_chart::Groups;
    use super::*;
    use plotters::coord::ranged1d::ValueFormatter;

    #[test]
    fn the_y_range_holds_one_and_every_value() {
        let r = y_range(&[vec![Some(10.0), None], vec![Some(0.5)]]);
        assert!(r.start < 0.5 && r.end > 10.0, "{r:?}");
        let flat = y_range(&[vec![Some(1.0)]]);
        assert!(flat.start <= 0.8 && flat.end >= 1.6, "{flat:?}");
        assert_eq!(short("greedy_round_robin"), "g-rr");
        assert_eq!(short("8, flush"), "8+fl");
        assert_eq!(short("longest_first, 8, flush"), "longest 8fl");
        let g = Groups(vec!["a".into(), "b".into()]);
        assert_eq!(g.format_ext(&1.0), "b");
        assert_eq!(g.format_ext(&-1.0), "");
    }
}
