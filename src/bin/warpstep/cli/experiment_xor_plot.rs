//! `warpstep experiment xor --plot FILE.svg`: one SVG drawn by `experiment_chart.rs`. On top,
//! each kernel's speedup over `mod` with every hash function (XOR IEEE TC §7.1, Fig. 9), on a
//! log axis from 1; below, the geometric means beside the paper's (§7.1).

use super::experiment_chart::{draw_bars, page, LogAxis, Panel, COLOURS, PAPER_GREY};
use std::ops::Range;
use warpstep::experiment::xor::{Report, Scheme};

const SIZE: (u32, u32) = (1200, 900);
const TOP_HEIGHT: u32 = 480;

/// Writes the charts of `report` to `path`.
pub fn write_svg(report: &Report, path: &str) -> Result<(), String> {
    page(path, SIZE, TOP_HEIGHT, |top, bottom| {
        let kernels = kernel_panel(report);
        draw_bars(top, &kernels, y_range(&kernels, 2.0))?;
        let averages = average_panel(report);
        draw_bars(bottom, &averages, y_range(&averages, 1.35))
    })
}

/// A log y range from below the lowest bar, `above` times the highest bar at the top (room for
/// the legend over the tallest group).
fn y_range(panel: &Panel, above: f64) -> Range<f64> {
    LogAxis {
        below: 1.05,
        floor: 0.8,
        above,
        ceiling: 1.3,
        clip: None,
    }
    .range(&panel.values)
}

fn hashed() -> &'static [Scheme] {
    &Scheme::ALL[1..]
}

/// Fig. 9: every hashed scheme's speedup, per kernel.
fn kernel_panel(report: &Report) -> Panel {
    Panel {
        title: "Speedup over mod (§7.1, Fig. 9)".to_string(),
        groups: report
            .kernels
            .iter()
            .map(|k| k.kernel.to_string())
            .collect(),
        series: hashed()
            .iter()
            .zip(COLOURS)
            .map(|(s, c)| (s.short().to_string(), c))
            .collect(),
        values: hashed()
            .iter()
            .map(|&s| {
                report
                    .kernels
                    .iter()
                    .map(|k| k.result(s).and_then(|r| r.speedup))
                    .collect()
            })
            .collect(),
    }
}

/// The geometric means, ours beside the paper's.
fn average_panel(report: &Report) -> Panel {
    Panel {
        title: "Geometric mean speedup over the kernels of Table 5's kinds, ours and the paper's (§7.1)".to_string(),
        groups: report
            .averages
            .iter()
            .map(|a| a.scheme.short().to_string())
            .collect(),
        series: vec![
            ("warpstep".to_string(), COLOURS[0]),
            ("paper".to_string(), PAPER_GREY),
        ],
        values: vec![
            report.averages.iter().map(|a| a.speedup).collect(),
            report
                .averages
                .iter()
                .map(|a| a.paper.map(|p| p.speedup))
                .collect(),
        ],
    }
}
