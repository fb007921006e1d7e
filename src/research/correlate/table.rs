//! The correlation report as text for the terminal (one block per case) and as a Markdown table
//! for the README (one row per case). Pure formatting: the numbers come from [`Report`].

use super::{CaseReport, Metric, Number, Report, Summary, WallSeconds};

/// The report for the terminal: a header, a block per case, the summary line.
pub fn text(report: &Report) -> String {
    let mut out = header(report);
    out.push('\n');
    for case in &report.cases {
        out.push('\n');
        out.push_str(&case_block(case));
    }
    out.push('\n');
    out.push_str(&format!("summary: {}\n", summary_line(&report.summary)));
    out
}

/// The report as Markdown: what was run, one table row per case, the summary.
pub fn markdown(report: &Report) -> String {
    let mut out = format!(
        "{}.\nEach cell is warpstep / GPGPU-Sim (ratio); `-` where GPGPU-Sim's numbers do not include the counter.\n\n",
        header(report)
    );
    out.push_str("| case | SMs | cycles | IPC | L1D accesses | L1D misses | bank-conflict cycles | L2 accesses / misses | DRAM reads / writes | wall time | warpstep cycles/s, warp instrs/s |\n");
    out.push_str("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for case in &report.cases {
        out.push_str(&markdown_row(case));
    }
    out.push_str(&format!(
        "\n**Summary:** {}.\n",
        summary_line(&report.summary)
    ));
    out
}

/// The summary as one sentence.
pub fn summary_line(s: &Summary) -> String {
    let mut line = format!(
        "{} of {} cases within {:.0}% of GPGPU-Sim's cycles; L1D accesses identical in {}; bank-conflict cycles identical in {}",
        s.cycles_within_tolerance,
        s.cases,
        s.tolerance * 100.0,
        identical_text(
            s.l1d_accesses_identical,
            s.l1d_accesses_compared,
            s.cases,
            &s.l1d_accesses_differ
        ),
        identical_text(
            s.bank_conflict_cycles_identical,
            s.bank_conflict_cycles_compared,
            s.cases,
            &s.bank_conflict_cycles_differ
        ),
    );
    if s.completed < s.cases {
        line.push_str(&format!(
            "; {} of {} did not complete",
            s.cases - s.completed,
            s.cases
        ));
    }
    line
}

/// "6 of 6", or "4 of 6 (not saxpy, 1 SM; ...)".
/// "6 of 6", "5 of 6 (not saxpy, 1 SM)", and "... of the 6 GPGPU-Sim counted" when some cases'
/// records lack the counter.
fn identical_text(identical: usize, compared: usize, cases: usize, differ: &[String]) -> String {
    let mut text = if compared < cases {
        format!("{identical} of the {compared} GPGPU-Sim counted")
    } else {
        format!("{identical} of {cases}")
    };
    if !differ.is_empty() {
        text.push_str(&format!(" (not {})", differ.join("; ")));
    }
    text
}

fn header(report: &Report) -> String {
    let mut line = format!(
        "warpstep {} against {}, config {}",
        report.warpstep_version, report.reference, report.config
    );
    for s in &report.sets {
        line.push_str(&format!(" --set {s}"));
    }
    line
}

/// One case for the terminal: a counter per line with both values and the ratio, then speed.
fn case_block(case: &CaseReport) -> String {
    let mut out = format!("{} ({} in {})\n", case.title(), case.kernel, case.ptx);
    if let Some(e) = &case.error {
        out.push_str(&format!("  did not complete: {e}\n"));
    }
    out.push_str(&format!(
        "  {:<22} {:>12} {:>12} {:>12}\n",
        "", "warpstep", "GPGPU-Sim", "ratio"
    ));
    for m in &case.metrics.0 {
        out.push_str(&format!(
            "  {:<22} {:>12} {:>12} {:>12}\n",
            m.label,
            number_text(m.warpstep),
            m.gpgpusim.map_or("-".to_string(), number_text),
            ratio_text(m)
        ));
    }
    let speed = &case.speed;
    out.push_str(&format!(
        "  {:<22} {:>12} {:>12} {:>12}\n",
        "wall time",
        seconds_text(speed.warpstep_seconds),
        speed.gpgpusim_seconds.map_or("-".to_string(), wall_text),
        speed
            .speedup
            .map_or("-".to_string(), |s| format!("{} faster", times_text(s)))
    ));
    out.push_str(&format!(
        "  warpstep: {} cycles/s, {} warp instrs/s",
        rate_text(speed.warpstep_cycles_per_second),
        rate_text(speed.warpstep_warp_instructions_per_second)
    ));
    if let Some(g) = speed.gpgpusim_cycles_per_second {
        out.push_str(&format!("; GPGPU-Sim: {} cycles/s", rate_text(g)));
    }
    out.push('\n');
    out
}

fn markdown_row(case: &CaseReport) -> String {
    let cell = |key: &str| case.metrics.get(key).map_or("-".to_string(), compared_cell);
    let pair = |a: &str, b: &str| {
        let value = |key: &str| {
            case.metrics
                .get(key)
                .map_or("-".to_string(), |m| number_text(m.warpstep))
        };
        format!("{} / {}", value(a), value(b))
    };
    let speed = &case.speed;
    let name = if case.completed {
        case.name.clone()
    } else {
        format!("{} (did not complete)", case.name)
    };
    format!(
        "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} / {} | {}, {} |\n",
        case.sms,
        cell("cycles"),
        cell("ipc"),
        cell("l1d_accesses"),
        cell("l1d_misses"),
        cell("bank_conflict_cycles"),
        pair("l2_accesses", "l2_misses"),
        pair("dram_reads", "dram_writes"),
        seconds_text(speed.warpstep_seconds),
        speed.gpgpusim_seconds.map_or("-".to_string(), wall_text),
        rate_text(speed.warpstep_cycles_per_second),
        rate_text(speed.warpstep_warp_instructions_per_second),
    )
}

/// "41,912 / 27,283 (1.54)", or "24,576 / -" without a reference.
fn compared_cell(m: &Metric) -> String {
    match m.gpgpusim {
        Some(g) => format!(
            "{} / {} ({})",
            number_text(m.warpstep),
            number_text(g),
            ratio_text(m)
        ),
        None => format!("{} / -", number_text(m.warpstep)),
    }
}

/// Counts with thousands separators, rates with two decimals.
pub fn number_text(n: Number) -> String {
    match n {
        Number::Count(c) => thousands(c),
        Number::Rate(r) => format!("{r:.2}"),
    }
}

/// The ratio to two decimals; `-` without a reference, `n/a` when only the reference is 0.
pub fn ratio_text(m: &Metric) -> String {
    match (m.gpgpusim, m.ratio) {
        (None, _) => "-".to_string(),
        (Some(_), None) => "n/a".to_string(),
        (Some(_), Some(r)) => format!("{r:.2}"),
    }
}

/// 1234567 -> "1,234,567".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// warpstep's wall time: milliseconds shown below 10 s.
pub fn seconds_text(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.3} s")
    } else {
        format!("{s:.1} s")
    }
}

/// GPGPU-Sim's wall time as recorded: "1.88 s", "30.0-31.5 s".
pub fn wall_text(w: WallSeconds) -> String {
    let one = |s: f64| {
        if s < 10.0 {
            format!("{s:.2}")
        } else {
            format!("{s:.1}")
        }
    };
    match w {
        WallSeconds::One(s) => format!("{} s", one(s)),
        WallSeconds::Range([low, high]) => format!("{}-{} s", one(low), one(high)),
    }
}

/// A per-second rate: "950", "15.2 k", "1.93 M".
pub fn rate_text(r: f64) -> String {
    if r < 1e3 {
        format!("{r:.0}")
    } else if r < 1e6 {
        format!("{:.1} k", r / 1e3)
    } else {
        format!("{:.2} M", r / 1e6)
    }
}

/// A speed-up factor: "33x", "2.5x".
fn times_text(x: f64) -> String {
    if x >= 10.0 {
        format!("{x:.0}x")
    } else {
        format!("{x:.1}x")
    }
}
