//! `warpstep experiment mrpb --plot FILE.svg`: one SVG of bar charts, on log axes with the bars
//! rising from (or falling below) 1, so a gain and a loss of the same factor look alike. On
//! top, IPC with MRPB on / off per case on Base-S and Base-L (MRPB §5.5, Fig. 14); below, the
//! geometric means beside the paper's, then the design-space sweeps of Table 4 (§5.1-5.4,
//! Figs. 8-13), IPC / IPC with MRPB off, one bar per design case.

use super::report_out::{self, DrawResult};
use plotters::coord::ranged1d::{KeyPointHint, Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;
use warpstep::experiment::mrpb::Report;

const SIZE: (u32, u32) = (1320, 1160);
const TOP_HEIGHT: u32 = 400;
pub(super) const FONT: &str = "sans-serif";
/// Series colours, in order (the first two are Base-S and Base-L, or warpstep and the paper).
pub(super) const COLOURS: [RGBColor; 6] = [
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
];
/// The narrowest bar, in pixels, that gets its value written above it.
const MIN_LABELLED_BAR: f64 = 24.0;
pub(super) const PAPER_GREY: RGBColor = RGBColor(0x99, 0x99, 0x99);

/// Writes the charts of `report` to `path`.
pub fn write_svg(report: &Report, path: &str) -> Result<(), String> {
    report_out::write_svg(path, SIZE, |root| draw(root, report))
}

/// One bar chart: groups along x, one bar per series in each group.
pub(super) struct Panel {
    pub(super) title: String,
    pub(super) groups: Vec<String>,
    pub(super) series: Vec<(String, RGBColor)>,
    /// `values[series][group]`; `None` leaves a gap.
    pub(super) values: Vec<Vec<Option<f64>>>,
}

fn draw(root: &DrawingArea<SVGBackend, Shift>, report: &Report) -> DrawResult<()> {
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(TOP_HEIGHT);
    draw_panel(&top, &on_off_panel(report))?;
    let mut panels = vec![geomean_panel(report)];
    panels.extend(sweep_panels(report));
    for (area, panel) in bottom.split_evenly((2, 3)).iter().zip(&panels) {
        draw_panel(area, panel)?;
    }
    Ok(())
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
        title: "IPC with MRPB on / off (§5.5, Fig. 14)".to_string(),
        groups,
        series: colour(baselines.iter().map(|b| b.to_string())),
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
        title: "Geometric mean IPC on / off".to_string(),
        groups,
        series: vec![
            ("warpstep".to_string(), COLOURS[1]),
            ("paper".to_string(), PAPER_GREY),
        ],
        values: vec![
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
            series: report
                .design_cases
                .iter()
                .enumerate()
                .map(|(i, c)| (c.to_string(), COLOURS[(i + 2) % COLOURS.len()]))
                .collect(),
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

fn colour(names: impl Iterator<Item = String>) -> Vec<(String, RGBColor)> {
    names
        .enumerate()
        .map(|(i, n)| (n, COLOURS[i % COLOURS.len()]))
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
    let all = values.iter().flatten().flatten().copied();
    let low = all.clone().fold(1.0f64, f64::min);
    let high = all.fold(1.0f64, f64::max);
    (low / 1.3).min(0.8)..(high * 2.2).max(1.6)
}

/// Group `i` of `n` sits at x = i; its labels come from `groups`.
pub(super) struct Groups(pub(super) Vec<String>);

impl Ranged for Groups {
    type FormatOption = plotters::coord::ranged1d::NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let span = self.0.len().max(1) as f64;
        let frac = (v + 0.5) / span;
        limit.0 + (frac * (limit.1 - limit.0) as f64).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        (0..self.0.len()).map(|i| i as f64).collect()
    }

    fn range(&self) -> Range<f64> {
        -0.5..self.0.len() as f64 - 0.5
    }
}

impl ValueFormatter<f64> for Groups {
    fn format_ext(&self, v: &f64) -> String {
        let i = v.round();
        (i >= 0.0)
            .then(|| self.0.get(i as usize).cloned())
            .flatten()
            .unwrap_or_default()
    }
}

/// "0.8", "1", "10": a ratio on the y axis.
pub(super) fn ratio_label(v: &f64) -> String {
    let text = format!("{v:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Draws `panel`'s bars on a log axis, rising from (or falling below) 1.
pub(super) fn draw_panel(area: &DrawingArea<SVGBackend, Shift>, panel: &Panel) -> DrawResult<()> {
    draw_panel_in(area, panel, y_range(&panel.values))
}

/// [`draw_panel`] on the log y range `y`.
pub(super) fn draw_panel_in(
    area: &DrawingArea<SVGBackend, Shift>,
    panel: &Panel,
    y: Range<f64>,
) -> DrawResult<()> {
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, (FONT, 18))
        .margin(10)
        .x_label_area_size(28)
        .y_label_area_size(44)
        .build_cartesian_2d(Groups(panel.groups.clone()), y.clone().log_scale())?;
    let n = panel.groups.len() as f64;
    let x_font = if n > 6.0 { 11 } else { 13 };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_label_style((FONT, x_font))
        .y_label_style((FONT, 13))
        .y_label_formatter(&ratio_label)
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(-0.5, 1.0), (n - 0.5, 1.0)],
        BLACK.stroke_width(1),
    )))?;
    let width = 0.8 / panel.series.len().max(1) as f64;
    // Values are written above bars wide enough to hold them (the tables have them all).
    let bar_pixels = f64::from(area.dim_in_pixel().0) * width / n;
    let labelled = bar_pixels >= MIN_LABELLED_BAR;
    for (j, ((name, colour), values)) in panel.series.iter().zip(&panel.values).enumerate() {
        let bars: Vec<(f64, f64)> = values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| (i as f64 - 0.4 + j as f64 * width, v)))
            .collect();
        let colour = *colour;
        chart
            .draw_series(
                bars.iter().map(|&(x, v)| {
                    Rectangle::new([(x, 1.0), (x + width * 0.92, v)], colour.filled())
                }),
            )?
            .label(name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled()));
        if labelled {
            chart.draw_series(
                bars.iter()
                    .map(|&(x, v)| value_label(x + width * 0.46, v, &y)),
            )?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, 13))
        .draw()?;
    Ok(())
}

/// The value above a bar (below one that falls under 1), to two decimals.
fn value_label(x: f64, v: f64, y: &Range<f64>) -> Text<'static, (f64, f64), String> {
    let vertical = if v >= 1.0 { VPos::Bottom } else { VPos::Top };
    let style = TextStyle::from((FONT, 10).into_font()).pos(Pos::new(HPos::Center, vertical));
    let at = if v >= 1.0 {
        v.min(y.end)
    } else {
        v.max(y.start)
    };
    Text::new(format!("{v:.2}"), (x, at), style)
}

#[cfg(test)]
mod tests {
    use super::*;

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
