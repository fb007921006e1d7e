//! `warpstep experiment elastic --plot FILE.svg`: one SVG drawn by `experiment_chart.rs`, in
//! the MRPB plot's style. On top, the speedup over the baseline per kernel of the pure elastic
//! pipeline and of elastic + scheduler beside Table 4's theoretic bound (CF'11 §5.2, Fig. 9),
//! on a log axis rising from 1. Below, left, the pipeline stalls of the baseline and of the
//! enhanced GPU (elastic + scheduler) stacked by kind, normalised to the baseline's total
//! (§5.1, Fig. 8); right, the padded kernels on the baseline against the un-padded ones on the
//! enhanced GPU (Fig. 10).

use super::experiment_chart::{
    draw_bars, draw_stacked, page, LogAxis, Panel, Stacked, StackedBar, COLOURS, PAPER_GREY,
};
use plotters::style::RGBColor;
use std::ops::Range;
use warpstep::experiment::elastic::{KernelReport, Report, Setup, Stalls};

const SIZE: (u32, u32) = (1200, 900);
const TOP_HEIGHT: u32 = 440;
/// The stall panel's share of the bottom row's width.
const STALL_WIDTH: u32 = 760;
/// Half the gap between a kernel's two stacked bars, and each bar's width, in group units.
const GAP: f64 = 0.03;
const BAR: f64 = 0.32;

/// Writes the charts of `report` to `path`.
pub fn write_svg(report: &Report, path: &str) -> Result<(), String> {
    page(path, SIZE, TOP_HEIGHT, |top, bottom| {
        let speedups = speedup_panel(report);
        draw_bars(top, &speedups, y_range(&speedups))?;
        let (left, right) = bottom.split_horizontally(STALL_WIDTH);
        draw_stacked(&left, &stall_chart(report))?;
        let hand = hand_panel(report);
        draw_bars(&right, &hand, y_range(&hand))
    })
}

/// A log y range closer around the speedups than the MRPB plot's (they stay within 0.8-2),
/// with room above for the value labels and the legend.
fn y_range(panel: &Panel) -> Range<f64> {
    LogAxis {
        below: 1.05,
        floor: 0.95,
        above: 1.35,
        ceiling: 1.3,
        clip: None,
    }
    .range(&panel.values)
}

fn kernel_names(report: &Report) -> Vec<String> {
    report
        .kernels
        .iter()
        .map(|k| k.kernel.to_string())
        .collect()
}

/// Fig. 9: pure elastic, elastic + scheduler and the bound, per kernel.
fn speedup_panel(report: &Report) -> Panel {
    let of = |s: Setup| report.kernels.iter().map(|k| k.speedup(s)).collect();
    let bound = report
        .kernels
        .iter()
        .map(|k| k.table4.theoretic_speedup)
        .collect();
    Panel {
        title: "Speedup over the baseline (§5.2, Fig. 9)".to_string(),
        groups: kernel_names(report),
        series: vec![
            ("pure elastic".to_string(), COLOURS[2]),
            ("elastic + scheduler".to_string(), COLOURS[0]),
            ("theoretic bound (Table 4)".to_string(), PAPER_GREY),
        ],
        values: vec![of(Setup::Elastic), of(Setup::ElasticScheduler), bound],
    }
}

/// Fig. 10: speedups over the un-padded kernel on the baseline.
fn hand_panel(report: &Report) -> Panel {
    let hand = &report.hand_optimised;
    Panel {
        title: "Speedup over un-padded baseline (Fig. 10)".to_string(),
        groups: hand.iter().map(|h| h.kernel.to_string()).collect(),
        series: vec![
            ("padded, baseline".to_string(), COLOURS[1]),
            ("un-padded, elastic + sched.".to_string(), COLOURS[0]),
        ],
        values: vec![
            hand.iter().map(|h| h.padded_speedup).collect(),
            hand.iter().map(|h| h.elastic_scheduler_speedup).collect(),
        ],
    }
}

/// Fig. 8's kinds, bottom to top, with their colours.
const KINDS: [(&str, RGBColor); 3] = [
    ("scheduling fail", COLOURS[1]),
    ("bank conflict", COLOURS[0]),
    ("other (writeback)", COLOURS[3]),
];

fn kinds(s: &Stalls) -> Vec<u64> {
    vec![s.scheduling_fail, s.bank_conflict, s.other]
}

/// A kernel's two bars: (x of the bar's left edge, its label, its stalls).
fn bars(i: usize, k: &KernelReport) -> [(f64, &'static str, Stalls); 2] {
    let x = i as f64;
    [
        (x - GAP - BAR, "base", k.stalls_baseline),
        (x + GAP, "E+S", k.stalls_elastic_scheduler),
    ]
}

/// The top of the y axis: room above the tallest bar for its labels and the legend.
fn stall_y_max(report: &Report) -> f64 {
    let tallest = report
        .kernels
        .iter()
        .filter_map(|k| {
            let base = k.stalls_baseline.total();
            (base > 0).then(|| k.stalls_elastic_scheduler.total() as f64 / base as f64)
        })
        .fold(1.0f64, f64::max);
    tallest * 1.45
}

/// Fig. 8: each kernel's baseline and enhanced stalls stacked by kind, over the baseline's
/// total; above each bar which it is, and over the enhanced one its total over the baseline's
/// ("E+S 0.45").
fn stall_chart(report: &Report) -> Stacked {
    let mut bars_drawn = Vec::new();
    for (i, k) in report.kernels.iter().enumerate() {
        let base = k.stalls_baseline.total();
        if base == 0 {
            continue;
        }
        for (x, name, stalls) in bars(i, k) {
            let v = stalls.total() as f64 / base as f64;
            let label = if name == "base" {
                name.to_string()
            } else {
                format!("{name} {v:.2}")
            };
            bars_drawn.push(StackedBar {
                x,
                counts: kinds(&stalls),
                of: base,
                label,
            });
        }
    }
    Stacked {
        title: "Pipeline stalls / baseline's (§5.1, Fig. 8): base | elastic + scheduler (E+S)"
            .to_string(),
        groups: kernel_names(report),
        kinds: KINDS.map(|(n, c)| (n.to_string(), c)).to_vec(),
        bar_width: BAR,
        bars: bars_drawn,
        y_max: stall_y_max(report),
    }
}
