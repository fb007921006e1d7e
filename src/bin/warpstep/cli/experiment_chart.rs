//! The chart path the `experiment ... --plot FILE.svg` commands share: one SVG [`page`] with a
//! chart across the top and a row (or grid) below; [`Panel`]s of bars, groups along x and a bar
//! per series in each, drawn by [`draw_bars`] on a log axis rising from (or falling below) 1 so
//! that a gain and a loss of the same factor look alike; and [`Stacked`] bars (Elastic CF'11
//! Fig. 8's stall breakdown). Each experiment's plot file (`experiment_plot.rs` for MRPB,
//! `experiment_elastic_plot.rs`, `experiment_unified_plot.rs`) only says what to plot.

use super::report_out::{self, DrawResult};
use plotters::coord::ranged1d::{KeyPointHint, Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

pub const FONT: &str = "sans-serif";
/// Series colours, in order (the first two are Base-S and Base-L, or warpstep and the paper).
pub const COLOURS: [RGBColor; 6] = [
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
];
/// The paper's figures, beside ours.
pub const PAPER_GREY: RGBColor = RGBColor(0x99, 0x99, 0x99);
/// The narrowest bar, in pixels, that gets its value written above it.
const MIN_LABELLED_BAR: f64 = 24.0;

/// A drawing area of the SVG.
pub type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Writes an SVG of `size` pixels to `path`: a white page split at `top_height`, the two parts
/// handed to `draw` (the top chart, then the rest).
pub fn page(
    path: &str,
    size: (u32, u32),
    top_height: u32,
    draw: impl FnOnce(&Area, &Area) -> DrawResult<()>,
) -> Result<(), String> {
    report_out::write_svg(path, size, |root| {
        root.fill(&WHITE)?;
        let (top, bottom) = root.split_vertically(top_height);
        draw(&top, &bottom)
    })
}

/// One bar chart: groups along x, one bar per series in each group.
pub struct Panel {
    pub title: String,
    pub groups: Vec<String>,
    pub series: Vec<(String, RGBColor)>,
    /// `values[series][group]`; `None` leaves a gap.
    pub values: Vec<Vec<Option<f64>>>,
}

/// `names` as series coloured from [`COLOURS`], starting at colour `first` and wrapping.
pub fn palette(names: impl Iterator<Item = String>, first: usize) -> Vec<(String, RGBColor)> {
    names
        .enumerate()
        .map(|(i, n)| (n, COLOURS[(i + first) % COLOURS.len()]))
        .collect()
}

/// How a log y axis is fitted around 1 and a panel's values: the lowest value (within `clip`)
/// over `below`, no higher than `floor`; the highest (within `clip`) times `above`, no lower
/// than `ceiling`, leaving room for the value labels and the legend.
pub struct LogAxis {
    pub below: f64,
    pub floor: f64,
    pub above: f64,
    pub ceiling: f64,
    /// Values beyond it run off the axis (their labels are written at its edge).
    pub clip: Option<Range<f64>>,
}

impl LogAxis {
    /// The y range of `values`.
    pub fn range(&self, values: &[Vec<Option<f64>>]) -> Range<f64> {
        let all = values.iter().flatten().flatten().copied();
        let mut low = all.clone().fold(1.0f64, f64::min);
        let mut high = all.fold(1.0f64, f64::max);
        if let Some(clip) = &self.clip {
            low = low.max(clip.start);
            high = high.min(clip.end);
        }
        (low / self.below).min(self.floor)..(high * self.above).max(self.ceiling)
    }
}

/// Group `i` of `n` sits at x = i; its labels come from `groups`.
pub struct Groups(pub Vec<String>);

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

/// How a panel's group names fit under it: across at 13 or 11 points when the longest fits its
/// group's width, otherwise on end (reading downwards) at 11 points, so that none overlaps its
/// neighbour (22 XOR kernels, 45 MRPB cases).
struct XLabels {
    font: u32,
    on_end: bool,
    area_height: u32,
}

impl XLabels {
    /// A sans-serif character is about 0.6 em wide.
    const EM_PER_CHAR: f64 = 0.6;

    fn fitting(groups: &[String], width_px: u32) -> XLabels {
        let per_group = f64::from(width_px) / groups.len().max(1) as f64;
        let longest = groups.iter().map(|g| g.chars().count()).max().unwrap_or(1) as f64;
        let width = |font: u32| Self::EM_PER_CHAR * f64::from(font) * longest;
        match [13, 11].into_iter().find(|&f| width(f) <= 0.9 * per_group) {
            Some(font) => XLabels {
                font,
                on_end: false,
                area_height: 28,
            },
            None => XLabels {
                font: 11,
                on_end: true,
                area_height: width(11).ceil() as u32 + 14,
            },
        }
    }

    /// The names the axis writes: none when they stand on end ([`XLabels::draw_on_end`] writes
    /// them, as the axis centres a turned label on its tick).
    fn names(&self, groups: &[String]) -> Vec<String> {
        match self.on_end {
            false => groups.to_vec(),
            true => vec![String::new(); groups.len()],
        }
    }

    /// Writes `groups` on end below their ticks, each starting just under the axis.
    fn draw_on_end<X, Y>(
        &self,
        area: &Area,
        chart: &ChartContext<SVGBackend, Cartesian2d<X, Y>>,
        groups: &[String],
        y_floor: Y::ValueType,
    ) -> DrawResult<()>
    where
        X: Ranged<ValueType = f64>,
        Y: Ranged,
        Y::ValueType: Clone,
    {
        if !self.on_end {
            return Ok(());
        }
        let style = TextStyle::from((FONT, self.font).into_font())
            .transform(FontTransform::Rotate90)
            .pos(Pos::new(HPos::Left, VPos::Center));
        let base = area.get_base_pixel();
        for (i, name) in groups.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(i as f64, y_floor.clone()));
            let at = (x - base.0, y - base.1 + 8);
            area.draw(&Text::new(name.clone(), at, style.clone()))?;
        }
        Ok(())
    }

    fn style(&self) -> TextStyle<'static> {
        TextStyle::from((FONT, self.font).into_font())
    }
}

/// "0.8", "1", "10": a ratio on the y axis.
pub fn ratio_label(v: &f64) -> String {
    let text = format!("{v:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Draws `panel`'s bars on the log y range `y`, rising from (or falling below) 1.
pub fn draw_bars(area: &Area, panel: &Panel, y: Range<f64>) -> DrawResult<()> {
    let labels = XLabels::fitting(&panel.groups, area.dim_in_pixel().0);
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, (FONT, 18))
        .margin(10)
        .x_label_area_size(labels.area_height)
        .y_label_area_size(44)
        .build_cartesian_2d(Groups(labels.names(&panel.groups)), y.clone().log_scale())?;
    let n = panel.groups.len() as f64;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_label_style(labels.style())
        .y_label_style((FONT, 13))
        .y_label_formatter(&ratio_label)
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    labels.draw_on_end(area, &chart, &panel.groups, y.start)?;
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
            .legend(move |(x, y)| legend_mark(x, y, colour));
        if labelled {
            chart.draw_series(
                bars.iter()
                    .map(|&(x, v)| value_label(x + width * 0.46, v, &y)),
            )?;
        }
    }
    draw_legend(&mut chart)
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

/// A series' square in the legend.
fn legend_mark(x: i32, y: i32, colour: RGBColor) -> Rectangle<(i32, i32)> {
    Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled())
}

/// The legend in the upper right.
fn draw_legend<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
) -> DrawResult<()>
where
    X: Ranged,
    Y: Ranged,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, 13))
        .draw()?;
    Ok(())
}

/// Bars stacked from kinds of a count, each over its own total of reference (a linear axis
/// from 0 with a line at 1), a few bars side by side in each group, a label above each.
pub struct Stacked {
    pub title: String,
    pub groups: Vec<String>,
    /// The kinds, bottom to top, and their colours.
    pub kinds: Vec<(String, RGBColor)>,
    /// Each bar's width, in group units.
    pub bar_width: f64,
    pub bars: Vec<StackedBar>,
    /// The top of the y axis.
    pub y_max: f64,
}

/// One stacked bar: `counts[kind]` over `of`, its left edge at `x` (group `i` is at x = i).
pub struct StackedBar {
    pub x: f64,
    pub counts: Vec<u64>,
    pub of: u64,
    /// Written above the bar.
    pub label: String,
}

/// Draws `stacked`: one series per kind (all its segments), then the labels.
pub fn draw_stacked(area: &Area, stacked: &Stacked) -> DrawResult<()> {
    let n = stacked.groups.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(&stacked.title, (FONT, 18))
        .margin(10)
        .x_label_area_size(28)
        .y_label_area_size(44)
        .build_cartesian_2d(Groups(stacked.groups.clone()), 0.0..stacked.y_max)?;
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
    let w = stacked.bar_width;
    for (kind, (name, colour)) in stacked.kinds.iter().enumerate() {
        let colour = *colour;
        let rects = stacked.bars.iter().map(|b| {
            let below: u64 = b.counts[..kind].iter().sum();
            let (y0, y1) = (below, below + b.counts[kind]);
            let scale = |c: u64| c as f64 / b.of as f64;
            Rectangle::new([(b.x, scale(y0)), (b.x + w, scale(y1))], colour.filled())
        });
        chart
            .draw_series(rects)?
            .label(name.as_str())
            .legend(move |(x, y)| legend_mark(x, y, colour));
    }
    let style = TextStyle::from((FONT, 11).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
    chart.draw_series(stacked.bars.iter().map(|b| {
        let v = b.counts.iter().sum::<u64>() as f64 / b.of as f64;
        Text::new(b.label.clone(), (b.x + w / 2.0, v), style.clone())
    }))?;
    draw_legend(&mut chart)
}
