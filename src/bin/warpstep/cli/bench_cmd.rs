//! `warpstep bench`: runs the standard benchmark set (`warpstep::bench::STANDARD`) and prints
//! simulated cycles per second and warp instructions per second (wall-clock time is measured
//! here, in the adapter; the model has no clock).

use super::EXIT_BAD_INPUT;
use clap::Args;
use std::process::ExitCode;
use std::time::Instant;
use warpstep::bench::{simulation, STANDARD};
use warpstep::sim::Status;

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
}

pub fn run(args: BenchArgs) -> ExitCode {
    if !args.json {
        println!(
            "{:<16} {:>10} {:>12} {:>9} {:>14} {:>16}",
            "kernel", "cycles", "warp instrs", "seconds", "cycles/s", "warp instrs/s"
        );
    }
    for case in STANDARD {
        if args.only.as_deref().is_some_and(|o| !case.name.contains(o)) {
            continue;
        }
        let mut best = f64::INFINITY;
        let mut last = None;
        for _ in 0..args.repeat.max(1) {
            let mut sim = match simulation(case, &args.config, &args.sets) {
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
                "{:<16} {:>10} {:>12} {:>9.3} {:>14.0} {:>16.0}",
                case.name, stats.cycles, stats.warp_instructions, best, cps, ips
            );
        }
    }
    ExitCode::SUCCESS
}
