//! `warpstep correlate --plot FILE.svg`: warpstep's cycles (y) against GPGPU-Sim's (x) on
//! log-log axes, with the y = x line and the ±5% band, one point per case labelled by name and
//! marked by SM count (a circle for 1 SM, a triangle for more), as Accel-Sim draws its
//! correlation. Labels are placed beside their points where they overlap nothing drawn before.

use super::report_out::{self, DrawResult};
use plotters::coord::{combinators::LogCoord, Shift};
use plotters::prelude::*;
use warpstep::correlate::{CaseReport, Report, CYCLE_TOLERANCE};

/// The plot's size in pixels.
const SIZE: (u32, u32) = (760, 600);
const ONE_SM: RGBColor = RGBColor(0xd6, 0x27, 0x28);
const MANY_SMS: RGBColor = RGBColor(0x1f, 0x77, 0xb4);
const FONT: &str = "sans-serif";
/// Half the side of the square a marker is taken to cover, for label placement.
const MARKER_HALF: i32 = 7;

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;

/// Writes the scatter plot of `report`'s cases to `path`.
pub fn write_svg(report: &Report, path: &str) -> Result<(), String> {
    report_out::write_svg(path, SIZE, |root| draw(root, report))
}

/// A case's point: (GPGPU-Sim cycles, warpstep cycles), when both are positive (log axes).
fn point(case: &CaseReport) -> Option<(f64, f64)> {
    let (warpstep, gpgpusim) = case.cycles();
    (warpstep > 0 && gpgpusim > 0).then_some((gpgpusim as f64, warpstep as f64))
}

/// The axes' common range: whole decades around every point, with room for the labels.
fn axis_range(points: &[(f64, f64)]) -> (f64, f64) {
    let values = points.iter().flat_map(|&(x, y)| [x, y]);
    let low = values.clone().fold(f64::INFINITY, f64::min);
    let high = values.fold(0.0, f64::max);
    if !(low.is_finite() && high > 0.0) {
        return (1e3, 1e7);
    }
    let decade_below = 10f64.powf((low / 1.5).log10().floor());
    let decade_above = 10f64.powf((high * 1.5).log10().ceil());
    (decade_below, decade_above)
}

/// "5k", "1.36M": a cycle count on an axis.
fn short_count(v: &f64) -> String {
    if *v >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if *v >= 1e3 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(*v)
    }
}

fn trim(v: f64) -> String {
    let text = format!("{v:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn draw(root: &DrawingArea<SVGBackend, Shift>, report: &Report) -> DrawResult<()> {
    root.fill(&WHITE)?;
    let points: Vec<(f64, f64)> = report.cases.iter().filter_map(point).collect();
    let (low, high) = axis_range(&points);
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!(
                "warpstep {} vs GPGPU-Sim 4.2.0: cycles",
                report.warpstep_version
            ),
            (FONT, 26),
        )
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d((low..high).log_scale(), (low..high).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("GPGPU-Sim cycles")
        .y_desc("warpstep cycles")
        .x_label_formatter(&short_count)
        .y_label_formatter(&short_count)
        .label_style((FONT, 16))
        .axis_desc_style((FONT, 18))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    draw_band_and_diagonal(&mut chart, low, high)?;
    let anchors = draw_markers(&mut chart, report)?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, 16))
        .draw()?;
    let (x_pixels, y_pixels) = chart.plotting_area().get_pixel_range();
    draw_labels(root, &anchors, legend_box(x_pixels.start, y_pixels.start))?;
    Ok(())
}

/// The ±5% band (shaded) and the y = x line.
fn draw_band_and_diagonal(chart: &mut Chart, low: f64, high: f64) -> DrawResult<()> {
    let (under, over) = (1.0 - CYCLE_TOLERANCE, 1.0 + CYCLE_TOLERANCE);
    let band = vec![
        (low, low * under),
        (high, high * under),
        (high, high * over),
        (low, low * over),
    ];
    let shade = MANY_SMS.mix(0.3);
    let percent = CYCLE_TOLERANCE * 100.0;
    chart
        .draw_series(std::iter::once(Polygon::new(band, shade)))?
        .label(format!("within ±{percent:.0}%"))
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], shade.filled()));
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(low, low), (high, high)],
            BLACK.stroke_width(1),
        )))?
        .label("y = x")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK.stroke_width(1)));
    Ok(())
}

/// One marker per case (circles for 1 SM, triangles for more); returns each case's name and
/// marker position in pixels, for its label.
fn draw_markers(chart: &mut Chart, report: &Report) -> DrawResult<Vec<(String, (i32, i32))>> {
    let placed = |one_sm: bool| -> Vec<(&CaseReport, (f64, f64))> {
        report
            .cases
            .iter()
            .filter(|c| (c.sms == 1) == one_sm)
            .filter_map(|c| point(c).map(|p| (c, p)))
            .collect()
    };
    let (one, many) = (placed(true), placed(false));
    let circles =
        chart.draw_series(one.iter().map(|(_, p)| Circle::new(*p, 5, ONE_SM.filled())))?;
    if !one.is_empty() {
        circles
            .label("1 SM")
            .legend(|(x, y)| Circle::new((x + 8, y), 5, ONE_SM.filled()));
    }
    let triangles = chart.draw_series(
        many.iter()
            .map(|(_, p)| TriangleMarker::new(*p, 7, MANY_SMS.filled())),
    )?;
    if let Some((first, _)) = many.first() {
        let label = if many.iter().all(|(c, _)| c.sms == first.sms) {
            format!("{} SMs", first.sms)
        } else {
            "more SMs".to_string()
        };
        triangles
            .label(label)
            .legend(|(x, y)| TriangleMarker::new((x + 8, y), 7, MANY_SMS.filled()));
    }
    Ok(one
        .iter()
        .chain(&many)
        .map(|(c, p)| (c.name.clone(), chart.backend_coord(p)))
        .collect())
}

/// Where the legend sits (its four entries, at the upper left of the plotting area, whose corner
/// is `(x, y)`), so no label covers it.
fn legend_box(x: i32, y: i32) -> Rect {
    Rect {
        x,
        y,
        w: 180,
        h: 120,
    }
}

/// A box in pixels: top-left corner, width, height.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rect {
    x: i32,
    y: i32,
    w: i32,
    h: i32,
}

impl Rect {
    fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    fn inside(&self, bounds: &Rect) -> bool {
        self.x >= bounds.x
            && self.y >= bounds.y
            && self.x + self.w <= bounds.x + bounds.w
            && self.y + self.h <= bounds.y + bounds.h
    }
}

/// The top-left corner of a `w` x `h` label for the marker at `anchor`: the first of right,
/// right-above, right-below, left, left-above, left-below, above, below that stays in `bounds`
/// and overlaps nothing `taken`; right when every one does.
fn place_label(anchor: (i32, i32), w: i32, h: i32, taken: &[Rect], bounds: &Rect) -> Rect {
    let (ax, ay) = anchor;
    let gap = MARKER_HALF + 3;
    let offsets = [
        (gap, -h / 2),
        (gap, -h - 2),
        (gap, 2),
        (-gap - w, -h / 2),
        (-gap - w, -h - 2),
        (-gap - w, 2),
        (-w / 2, -gap - h),
        (-w / 2, gap),
    ];
    let candidates = offsets.map(|(dx, dy)| Rect {
        x: ax + dx,
        y: ay + dy,
        w,
        h,
    });
    candidates
        .iter()
        .find(|r| r.inside(bounds) && !taken.iter().any(|t| t.overlaps(r)))
        .copied()
        .unwrap_or(candidates[0])
}

/// Each case's name beside its marker, avoiding the markers, the legend and earlier labels.
fn draw_labels(
    root: &DrawingArea<SVGBackend, Shift>,
    anchors: &[(String, (i32, i32))],
    legend: Rect,
) -> DrawResult<()> {
    let style = TextStyle::from((FONT, 16).into_font());
    let (width, height) = SIZE;
    let bounds = Rect {
        x: 0,
        y: 0,
        w: width as i32,
        h: height as i32,
    };
    let mut taken: Vec<Rect> = anchors
        .iter()
        .map(|(_, (x, y))| Rect {
            x: x - MARKER_HALF,
            y: y - MARKER_HALF,
            w: 2 * MARKER_HALF,
            h: 2 * MARKER_HALF,
        })
        .collect();
    taken.push(legend);
    for (name, anchor) in anchors {
        let (w, h) = root.estimate_text_size(name, &style)?;
        let spot = place_label(*anchor, w as i32, h as i32, &taken, &bounds);
        root.draw(&Text::new(name.clone(), (spot.x, spot.y), style.clone()))?;
        taken.push(spot);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axes_span_whole_decades_around_the_points() {
        assert_eq!(
            axis_range(&[(4_922.0, 32_189.0), (1_355_980.0, 1_436_381.0)]),
            (1e3, 1e7)
        );
        assert_eq!(axis_range(&[]), (1e3, 1e7));
        assert_eq!(short_count(&1e6), "1M");
        assert_eq!(short_count(&5_000.0), "5k");
        assert_eq!(short_count(&500.0), "500");
    }

    #[test]
    fn a_label_moves_off_what_is_already_drawn() {
        let bounds = Rect {
            x: 0,
            y: 0,
            w: 400,
            h: 300,
        };
        let first = place_label((100, 100), 80, 16, &[], &bounds);
        assert_eq!((first.x, first.y), (110, 92), "right of the marker");
        let second = place_label((104, 100), 80, 16, &[first], &bounds);
        assert!(!second.overlaps(&first), "{second:?}");
        let at_edge = place_label((395, 100), 80, 16, &[], &bounds);
        assert!(at_edge.inside(&bounds), "{at_edge:?}");
    }
}
