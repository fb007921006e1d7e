//! Output shared by the report commands (`correlate`, `experiment`): the report printed as text,
//! Markdown or JSON, and the SVG file its `--plot` names (checked before the runs start, written
//! after).

use clap::Args;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Serialize;
use std::path::Path;

/// What a chart drawer returns.
pub type DrawResult<T> = Result<T, Box<dyn std::error::Error>>;

/// How a report leaves the command: its flags `--json`, `--markdown` and `--plot FILE.svg`.
#[derive(Args)]
pub struct Output {
    /// Print one JSON object instead of the text report.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print the report as Markdown tables (for the README and docs/).
    #[arg(long)]
    pub markdown: bool,
    /// Also write the report's charts to FILE.svg (checked before the runs start).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<String>,
}

impl Output {
    /// `Err` when `--plot` names a file that cannot be written (see `check_plot_path`).
    pub fn check(&self) -> Result<(), String> {
        self.plot.as_deref().map_or(Ok(()), check_plot_path)
    }

    /// Prints `report` to stdout as JSON, Markdown (`markdown`) or text (`text`), then writes
    /// its plot with `plot` when `--plot` names a file.
    pub fn emit<R: Serialize>(
        &self,
        report: &R,
        markdown: impl Fn(&R) -> String,
        text: impl Fn(&R) -> String,
        plot: impl FnOnce(&R, &str) -> Result<(), String>,
    ) -> Result<(), String> {
        if self.json {
            println!("{}", serde_json::to_string(report).unwrap_or_default());
        } else if self.markdown {
            print!("{}", markdown(report));
        } else {
            print!("{}", text(report));
        }
        self.plot
            .as_deref()
            .map_or(Ok(()), |path| plot(report, path))
    }
}

/// `Err` naming `--plot` when `path` is not a `.svg` file in an existing directory, so that a
/// long run does not end without its plot.
fn check_plot_path(path: &str) -> Result<(), String> {
    let p = Path::new(path);
    if p.extension().and_then(|e| e.to_str()) != Some("svg") {
        return Err(format!("--plot {path}: the plot is SVG, name a .svg file"));
    }
    let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
    if dir.is_some_and(|d| !d.is_dir()) {
        return Err(format!(
            "--plot {path}: no directory {}",
            dir.unwrap_or(p).display()
        ));
    }
    Ok(())
}

/// Draws an SVG of `size` pixels with `draw` and writes it to `path`.
pub fn write_svg(
    path: &str,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> DrawResult<()>,
) -> Result<(), String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root).map_err(|e| format!("--plot {path}: {e}"))?;
        root.present().map_err(|e| format!("--plot {path}: {e}"))?;
    }
    std::fs::write(path, svg).map_err(|e| format!("--plot {path}: cannot write: {e}"))
}
