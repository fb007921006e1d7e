//! `warpstep why FILE.ptx --cycle N ...` (issue 17, "Why?"): runs the kernel to cycle N and
//! prints the model's chain of causes ([`warpstep::why`]) for one warp slot, one lane of it, or
//! every occupied slot of the SM, as the app's Why? panel shows them. `--json` prints the
//! chains as JSON. Exit status 0, or 2 on bad input (a slot, lane or SM that does not exist is
//! named).

use super::run_cmd::{timing_sim, wants_json, RunArgs};
use super::EXIT_BAD_INPUT;
use clap::Args;
use std::process::ExitCode;
use warpstep::sim::Status;
use warpstep::why::{explain, Why};

#[derive(Args)]
pub struct WhyArgs {
    /// Explain the state after this cycle (the kernel runs to it, or to its end).
    #[arg(long)]
    cycle: u64,
    /// The SM.
    #[arg(long, default_value_t = 0)]
    sm: u32,
    /// The warp slot (default: every occupied slot of the SM).
    #[arg(long)]
    warp: Option<u32>,
    /// One lane of the warp: why it is (not) running.
    #[arg(long, requires = "warp")]
    lane: Option<u32>,
    /// The kernel and its launch, as `warpstep run` takes them.
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(args: WhyArgs) -> ExitCode {
    match why(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

fn why(args: &WhyArgs) -> Result<(), String> {
    let mut sim = timing_sim(&args.run)?;
    while sim.cycle() < args.cycle && !sim.finished() {
        sim.step();
    }
    let chains: Vec<Why> = match args.warp {
        Some(w) => vec![explain(&sim, args.sm, w, args.lane)?],
        None => {
            let slots = sim
                .sms()
                .get(args.sm as usize)
                .map(|s| s.warps().len() as u32)
                .ok_or_else(|| {
                    format!("no SM {}: the machine has {} SMs", args.sm, sim.sms().len())
                })?;
            (0..slots)
                .filter_map(|w| explain(&sim, args.sm, w, None).ok())
                .collect()
        }
    };
    if wants_json(&args.run) {
        println!(
            "{}",
            serde_json::to_string(&chains).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    let status = match sim.status() {
        Status::Running => "running",
        Status::Completed => "completed",
        Status::Failed(_) => "failed",
    };
    println!("cycle {} ({status})", sim.cycle());
    for c in &chains {
        print_chain(c);
    }
    Ok(())
}

fn print_chain(c: &Why) {
    let who = match c.lane {
        Some(l) => format!("SM {} warp {} lane {l}", c.sm, c.warp),
        None => format!("SM {} warp {}", c.sm, c.warp),
    };
    println!("\n{who}: {}", c.state);
    for (i, l) in c.links.iter().enumerate() {
        let arrow = if i == 0 { "   " } else { "<- " };
        println!("  {arrow}{:<11} {}", l.kind, l.text);
    }
}
