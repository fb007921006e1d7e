//! `warpstep experiment elastic --plot FILE.svg`: one SVG in the MRPB plot's style
//! (`experiment_plot.rs`). On top, the speedup over the baseline per kernel of the pure elastic
//! pipeline and of elastic + scheduler beside Table 4's theoretic bound (CF'11 §5.2, Fig. 9),
//! on a log axis rising from 1. Below, left, the pipeline stalls of the baseline and of the
//! enhanced GPU (elastic + scheduler) stacked by kind, normalised to the baseline's total
//! (§5.1, Fig. 8); right, the padded kernels on the baseline against the un-padded ones on the
//! enhanced GPU (Fig. 10).

use super::experiment_plot::{draw_panel_in, Groups, Panel, COLOURS, FONT, PAPER_GREY};
use super::report_out::{self, DrawResult};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
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
    report_out::write_svg(path, SIZE, |root| draw(root, report))
}

fn draw(root: &DrawingArea<SVGBackend, Shift>, report: &Report) -> DrawResult<()> {
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(TOP_HEIGHT);
    let speedups = speedup_panel(report);
    draw_panel_in(&top, &speedups, y_range(&speedups))?;
    let (left, right) = bottom.split_horizontally(STALL_WIDTH);
    draw_stalls(&left, report)?;
    let hand = hand_panel(report);
    draw_panel_in(&right, &hand, y_range(&hand))
}

/// A log y range closer around the speedups than the MRPB plot's (they stay within 0.8-2),
/// with room above for the value labels and the legend.
fn y_range(panel: &Panel) -> Range<f64> {
    let all = panel.values.iter().flatten().flatten().copied();
    let low = all.clone().fold(1.0f64, f64::min);
    let high = all.fold(1.0f64, f64::max);
    (low / 1.05).min(0.95)..(high * 1.35).max(1.3)
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

fn kinds(s: &Stalls) -> [u64; 3] {
    [s.scheduling_fail, s.bank_conflict, s.other]
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

/// Fig. 8: each kernel's baseline and enhanced stalls stacked by kind, over the baseline's total.
fn draw_stalls(area: &DrawingArea<SVGBackend, Shift>, report: &Report) -> DrawResult<()> {
    let groups = kernel_names(report);
    let n = groups.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Pipeline stalls / baseline's (§5.1, Fig. 8): base | elastic + scheduler (E+S)",
            (FONT, 18),
        )
        .margin(10)
        .x_label_area_size(28)
        .y_label_area_size(44)
        .build_cartesian_2d(Groups(groups), 0.0..stall_y_max(report))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_label_style((FONT, 12))
        .y_label_style((FONT, 13))
        .y_label_formatter(&|v| format!("{v:.1}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(-0.5, 1.0), (n - 0.5, 1.0)],
        BLACK.mix(0.4).stroke_width(1),
    )))?;
    for (kind, (name, colour)) in KINDS.iter().enumerate() {
        let rects = stacked_rects(report, kind, *colour);
        chart
            .draw_series(rects)?
            .label(*name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled()));
    }
    chart.draw_series(bar_labels(report))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, 13))
        .draw()?;
    Ok(())
}

/// The `kind` segment of every bar: stacked on the kinds below it, over the baseline's total.
fn stacked_rects(report: &Report, kind: usize, colour: RGBColor) -> Vec<Rectangle<(f64, f64)>> {
    let mut rects = Vec::new();
    for (i, k) in report.kernels.iter().enumerate() {
        let base = k.stalls_baseline.total();
        if base == 0 {
            continue;
        }
        for (x, _, stalls) in bars(i, k) {
            let counts = kinds(&stalls);
            let below: u64 = counts[..kind].iter().sum();
            let (y0, y1) = (below, below + counts[kind]);
            let scale = |c: u64| c as f64 / base as f64;
            rects.push(Rectangle::new(
                [(x, scale(y0)), (x + BAR, scale(y1))],
                colour.filled(),
            ));
        }
    }
    rects
}

/// Above each bar, which bar it is, and over the enhanced one its total over the baseline's
/// ("E+S 0.45").
fn bar_labels(report: &Report) -> Vec<Text<'static, (f64, f64), String>> {
    let style = TextStyle::from((FONT, 11).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
    let mut labels = Vec::new();
    for (i, k) in report.kernels.iter().enumerate() {
        let base = k.stalls_baseline.total();
        if base == 0 {
            continue;
        }
        for (x, name, stalls) in bars(i, k) {
            let v = stalls.total() as f64 / base as f64;
            let text = if name == "base" {
                name.to_string()
            } else {
                format!("{name} {v:.2}")
            };
            labels.push(Text::new(text, (x + BAR / 2.0, v), style.clone()));
        }
    }
    labels
}
