//! `warpstep correlate`: runs the GPGPU-Sim reference cases (`reference/gpgpusim/`, embedded in
//! the library) and prints warpstep's counters beside GPGPU-Sim's with their ratios, as text,
//! `--json` or `--markdown`, optionally with a scatter plot (`--plot FILE.svg`). Wall time is
//! measured here, around each simulation's run (not its preparation), as the model has no clock.
//!
//! Exit status: 0 when every case completed, whether or not it is within 5% (it is a report);
//! 1 when a case faulted or deadlocked; 2 on bad input (case, SM count, configuration, plot path).

use super::config_cmd::load_config;
use super::correlate_plot;
use super::report_out::Output;
use super::EXIT_BAD_INPUT;
use clap::Args;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;
use warpstep::config::Config;
use warpstep::correlate::{
    check_user_sets, reference, select, simulation, table, CaseReport, Measured, ReferenceCase,
    Report,
};
use warpstep::run::DEFAULT_MAX_CYCLES;

#[derive(Args)]
pub struct CorrelateArgs {
    /// Run only this case (repeatable): saxpy, transpose_naive, transpose_padded,
    /// stride_loop_1, stride_loop_32.
    #[arg(long = "case", value_name = "NAME")]
    cases: Vec<String>,
    /// Run only the cases on this many SMs: 1 or 15 (GPGPU-Sim's runs).
    #[arg(long, value_name = "N")]
    sms: Option<u32>,
    /// A preset name or a JSON configuration file (default: fermi, GPGPU-Sim's GTX480).
    #[arg(long)]
    config: Option<String>,
    /// Override one configuration field after the case's num_sms: KEY=VALUE (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    #[command(flatten)]
    output: Output,
}

pub fn run(args: CorrelateArgs) -> ExitCode {
    match correlate(&args) {
        Ok(report) if report.summary.completed == report.summary.cases => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// Checks the flags, runs the selected cases, prints the report and writes the plot; `Err` is
/// bad input.
fn correlate(args: &CorrelateArgs) -> Result<Report, String> {
    let set = reference();
    let cases = select(&set.cases, &args.cases, args.sms)?;
    let source = args.config.clone().unwrap_or(set.preset);
    let base = checked_config(&source, &args.sets)?;
    args.output.check()?;
    let mut reports = Vec::with_capacity(cases.len());
    for case in &cases {
        reports.push(run_case(case, &base, &args.sets)?);
    }
    let report = Report::new(&source, &args.sets, reports);
    args.output.emit(
        &report,
        table::markdown,
        table::text,
        correlate_plot::write_svg,
    )?;
    Ok(report)
}

/// The base configuration (`--config`, without the `--set`s, which each case applies after its
/// num_sms), once the `--set`s are known to apply to it.
fn checked_config(source: &str, sets: &[String]) -> Result<Config, String> {
    check_user_sets(sets)?;
    let base = load_config(source, &[]).map_err(|e| format!("--config {source}: {e}"))?;
    base.with_overrides(sets)
        .and_then(|c| c.check_supported())
        .map_err(|e| format!("--set: {e}"))?;
    Ok(base)
}

/// Runs one case to the end and measures it.
fn run_case(case: &ReferenceCase, base: &Config, sets: &[String]) -> Result<CaseReport, String> {
    if std::io::stderr().is_terminal() {
        eprintln!("running {} ...", case.title());
    }
    let mut sim =
        simulation(case, base, sets).map_err(|e| format!("case {}: {e}", case.title()))?;
    sim.set_record_warp_states(false);
    let start = Instant::now();
    sim.run(DEFAULT_MAX_CYCLES);
    let seconds = start.elapsed().as_secs_f64();
    Ok(CaseReport::new(case, &Measured::of(&sim, seconds)))
}
