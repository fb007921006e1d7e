//! The report path the paper experiments share: a report is an introduction, titled
//! [`Section`]s (a [`Table`] or lines of text) and the runs that did not complete, laid out as
//! text for the terminal or as Markdown by [`text`] and [`markdown`]. An experiment says what
//! its sections hold by implementing [`PaperReport`] (`mrpb_table.rs`, `elastic_table.rs`,
//! `unified_table.rs`); the cells that recur across them (a ratio, a percentage, ours beside
//! the paper's, off / on) are written here once.

/// Text (aligned columns) or Markdown (pipe tables, best settings in bold).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
}

/// A paper experiment's report as its tables show it: what [`text`] and [`markdown`] lay out.
pub trait PaperReport {
    /// The paragraph before the first section: which paper, which runs.
    fn intro(&self) -> String;
    /// The sections, in order, in format `f` (a cell may be marked differently in each).
    fn sections(&self, f: Format) -> Vec<Section>;
    /// The runs that did not complete, with why.
    fn incomplete(&self) -> &[String];
    /// The heading over [`PaperReport::incomplete`].
    fn incomplete_title(&self) -> &'static str {
        "Runs that did not complete"
    }
}

/// The report for the terminal.
pub fn text<R: PaperReport>(report: &R) -> String {
    render(report, Format::Text)
}

/// The report as Markdown.
pub fn markdown<R: PaperReport>(report: &R) -> String {
    render(report, Format::Markdown)
}

/// The introduction, each section under its heading, then the runs that did not complete.
pub fn render<R: PaperReport>(report: &R, f: Format) -> String {
    let mut out = report.intro();
    for section in report.sections(f) {
        out.push_str(&heading(f, &section.title));
        match section.body {
            Body::Table(table) => out.push_str(&table.render(f)),
            Body::Text(text) => out.push_str(&text),
        }
    }
    if !report.incomplete().is_empty() {
        out.push_str(&heading(f, report.incomplete_title()));
        for line in report.incomplete() {
            out.push_str(&format!("- {line}\n"));
        }
    }
    out
}

/// A section heading.
pub fn heading(f: Format, title: &str) -> String {
    match f {
        Format::Text => format!("\n{title}\n\n"),
        Format::Markdown => format!("\n### {title}\n\n"),
    }
}

/// A titled part of a report.
pub struct Section {
    pub title: String,
    pub body: Body,
}

/// What a section holds.
pub enum Body {
    Table(Table),
    /// Lines as they are, each ending in a newline.
    Text(String),
}

impl Section {
    pub fn table(title: impl Into<String>, table: Table) -> Section {
        Section {
            title: title.into(),
            body: Body::Table(table),
        }
    }

    pub fn text(title: impl Into<String>, text: impl Into<String>) -> Section {
        Section {
            title: title.into(),
            body: Body::Text(text.into()),
        }
    }
}

/// A table of text cells: the first `left` columns are left-aligned, the rest right-aligned.
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub left: usize,
}

impl Table {
    /// A table under `header` whose first `left` columns are left-aligned.
    pub fn new<S: ToString>(header: &[S], rows: Vec<Vec<String>>, left: usize) -> Table {
        Table {
            header: header.iter().map(S::to_string).collect(),
            rows,
            left,
        }
    }

    pub fn render(&self, f: Format) -> String {
        match f {
            Format::Text => self.text(),
            Format::Markdown => self.markdown(),
        }
    }

    fn markdown(&self) -> String {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        let rule: Vec<String> = (0..self.header.len())
            .map(|i| if i < self.left { "---" } else { "--:" }.to_string())
            .collect();
        let mut out = line(&self.header);
        out.push_str(&format!("|{}|\n", rule.join("|")));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }

    fn text(&self) -> String {
        let width = |i: usize| {
            std::iter::once(&self.header)
                .chain(&self.rows)
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.header.len()).map(width).collect();
        let line = |cells: &[String]| {
            let padded: Vec<String> = cells
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, (c, &w))| {
                    let pad = " ".repeat(w.saturating_sub(c.chars().count()));
                    if i < self.left {
                        format!("{c}{pad}")
                    } else {
                        format!("{pad}{c}")
                    }
                })
                .collect();
            format!("{}\n", padded.join("  ").trim_end())
        };
        let mut out = line(&self.header);
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}

/// `v` to `digits` decimals, "-" when there is none: "1.15".
pub fn fixed(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".to_string(), |v| format!("{v:.digits$}"))
}

/// A ratio to `digits` decimals: "×2.65".
pub fn times(r: f64, digits: usize) -> String {
    format!("×{r:.digits$}")
}

/// A fraction as a percentage, "-" when there is none: "42.3%".
pub fn percent(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |v| format!("{:.1}%", v * 100.0))
}

/// Ours beside the paper's, when the paper has one: "1.15 (1.13)".
pub fn beside(ours: Option<f64>, paper: Option<f64>, digits: usize) -> String {
    let ours = fixed(ours, digits);
    match paper {
        Some(p) => format!("{ours} ({p:.digits$})"),
        None => ours,
    }
}

/// The two sides of a comparison (off / on, baseline / enhanced): "1,024 / 512".
pub fn pair(a: &str, b: &str) -> String {
    format!("{a} / {b}")
}

/// `cell`, marked when its run did not complete.
pub fn completed_or_marked(cell: &str, completed: bool) -> String {
    if completed {
        cell.to_string()
    } else {
        format!("{cell} (did not complete)")
    }
}

/// `cell` in bold in Markdown, as it is in text.
pub fn bold(f: Format, cell: &str) -> String {
    match f {
        Format::Text => cell.to_string(),
        Format::Markdown => format!("**{cell}**"),
    }
}
