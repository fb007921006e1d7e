//! `warpstep bench`: runs the standard benchmark set (`warpstep::bench::STANDARD`), or with
//! `--correlation` the GPGPU-Sim reference cases on 1 and 15 SMs (`warpstep::correlate`), and
//! prints simulated cycles per second and warp instructions per second (wall-clock time is
//! measured here, in the adapter; the model has no clock).

use super::EXIT_BAD_INPUT;
use clap::Args;
use std::process::ExitCode;
use std::time::Instant;
use warpstep::bench::{simulation, STANDARD};
use warpstep::config::Config;
use warpstep::correlate::{self, check_user_sets, reference};
use warpstep::run::InputError;
use warpstep::sim::{Sim, Status};

#[derive(Args)]
pub struct BenchArgs {
    /// Preset to simulate.
    #[arg(long, default_value = "fermi")]
    config: String,
    /// Override one configuration field: KEY=VALUE (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Runs per case (the best is reported).
    #[arg(long, default_value_t = 3)]
    repeat: u32,
    /// Only the cases whose name contains this.
    #[arg(long)]
    only: Option<String>,
    /// Also classify every warp every cycle, as the browser's views do.
    #[arg(long)]
    warp_states: bool,
    /// Print JSON lines instead of a table.
    #[arg(long)]
    json: bool,
    /// Run the GPGPU-Sim reference cases (`warpstep correlate`'s, 1 and 15 SMs) instead of the
    /// standard set.
    #[arg(long)]
    correlation: bool,
}

/// One kernel to time: its name in the table and how to build a fresh simulation of it.
struct BenchItem {
    name: String,
    build: Box<dyn Fn() -> Result<Sim, InputError>>,
}

/// The standard set on `args.config` with `args.sets`.
fn standard_items(args: &BenchArgs) -> Vec<BenchItem> {
    STANDARD
        .iter()
        .map(|case| {
            let (config, sets) = (args.config.clone(), args.sets.clone());
            BenchItem {
                name: case.name.to_string(),
                build: Box::new(move || simulation(case, &config, &sets)),
            }
        })
        .collect()
}

/// The reference cases, named `saxpy/15sm`, on `args.config` with each case's num_sms, then
/// `args.sets`.
fn correlation_items(args: &BenchArgs) -> Result<Vec<BenchItem>, String> {
    check_user_sets(&args.sets)?;
    let base = Config::preset(&args.config).map_err(|e| format!("--config: {e}"))?;
    Ok(reference()
        .cases
        .into_iter()
        .map(|case| {
            let (base, sets) = (base.clone(), args.sets.clone());
            BenchItem {
                name: format!("{}/{}sm", case.name, case.sms),
                build: Box::new(move || correlate::simulation(&case, &base, &sets)),
            }
        })
        .collect())
}

pub fn run(args: BenchArgs) -> ExitCode {
    let items = if args.correlation {
        match correlation_items(&args) {
            Ok(items) => items,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(EXIT_BAD_INPUT);
            }
        }
    } else {
        standard_items(&args)
    };
    if !args.json {
        println!(
            "{:<22} {:>10} {:>12} {:>9} {:>14} {:>16}",
            "kernel", "cycles", "warp instrs", "seconds", "cycles/s", "warp instrs/s"
        );
    }
    for case in &items {
        if args.only.as_deref().is_some_and(|o| !case.name.contains(o)) {
            continue;
        }
        let mut best = f64::INFINITY;
        let mut last = None;
        for _ in 0..args.repeat.max(1) {
            let mut sim = match (case.build)() {
                Ok(sim) => sim,
                Err(e) => {
                    eprintln!("error: {}: {e}", case.name);
                    return ExitCode::from(EXIT_BAD_INPUT);
                }
            };
            sim.set_record_warp_states(args.warp_states);
            let start = Instant::now();
            sim.run(u64::MAX);
            best = best.min(start.elapsed().as_secs_f64());
            last = Some(sim);
        }
        let Some(sim) = last else { continue };
        if sim.status() != &Status::Completed {
            eprintln!("error: {} did not complete: {:?}", case.name, sim.status());
            return ExitCode::from(1);
        }
        let stats = sim.stats();
        let cps = stats.cycles as f64 / best;
        let ips = stats.warp_instructions as f64 / best;
        if args.json {
            println!(
                r#"{{"kernel":"{}","cycles":{},"warp_instructions":{},"seconds":{best:.6},"cycles_per_second":{cps:.0},"warp_instructions_per_second":{ips:.0}}}"#,
                case.name, stats.cycles, stats.warp_instructions
            );
        } else {
            println!(
                "{:<22} {:>10} {:>12} {:>9.3} {:>14.0} {:>16.0}",
                case.name, stats.cycles, stats.warp_instructions, best, cps, ips
            );
        }
    }
    ExitCode::SUCCESS
}
