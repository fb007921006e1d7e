//! `warpstep compare A B FILE.ptx ...` (issue 17, "Side by side"): the same kernel and launch
//! under two configurations (each a preset name or a JSON configuration file), its counters
//! next to each other with B / A, and whether the outputs (every buffer argument) are the same.
//! Exit status 0 when both runs completed, 1 when one did not, 2 on bad input.

use super::run_cmd::{timing_run_with_config, wants_json, RunArgs};
use super::EXIT_BAD_INPUT;
use clap::Args;
use std::process::ExitCode;
use warpstep::compare::{pair_counters, CounterPair};
use warpstep::run::Report;

#[derive(Args)]
pub struct CompareArgs {
    /// Configuration A: a preset name or a JSON configuration file.
    a: String,
    /// Configuration B: a preset name or a JSON configuration file.
    b: String,
    /// Every counter, not only the headline ones and those that differ.
    #[arg(long)]
    all: bool,
    /// The kernel and its launch, as `warpstep run` takes them (`--set` applies to both).
    #[command(flatten)]
    run: RunArgs,
}

pub fn run(args: CompareArgs) -> ExitCode {
    match compare(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// Runs both and prints; `Ok(completed both)`, `Err` on bad input.
fn compare(args: &CompareArgs) -> Result<bool, String> {
    let (a, _) = timing_run_with_config(&args.run, &args.a)?;
    let (b, _) = timing_run_with_config(&args.run, &args.b)?;
    let pairs = pair_counters(&a, &b, args.all);
    let differing = differing_buffers(&a, &b);
    if wants_json(&args.run) {
        let out = serde_json::json!({
            "a": {"config": args.a, "completed": a.completed, "error": a.error},
            "b": {"config": args.b, "completed": b.completed, "error": b.error},
            "counters": pairs,
            "outputs_identical": differing.is_empty(),
            "differing_buffers": differing,
        });
        println!("{out}");
    } else {
        print_table(args, &a, &b, &pairs, &differing);
    }
    Ok(a.completed && b.completed)
}

/// The buffer arguments whose final contents differ, by index.
fn differing_buffers(a: &Report, b: &Report) -> Vec<String> {
    let mut keys: Vec<&String> = a.buffers.keys().chain(b.buffers.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.buffers.get(*k) != b.buffers.get(*k))
        .cloned()
        .collect()
}

fn outcome(r: &Report) -> String {
    match &r.error {
        None => format!("completed in {} cycles", r.cycles),
        Some(e) => format!("did not complete: {}", e.lines().next().unwrap_or_default()),
    }
}

fn number(v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => format!("{}", x as i64),
        Some(x) => format!("{x:.4}"),
    }
}

fn print_table(
    args: &CompareArgs,
    a: &Report,
    b: &Report,
    pairs: &[CounterPair],
    differing: &[String],
) {
    println!("kernel {}", a.kernel);
    println!("A = {}: {}", args.a, outcome(a));
    println!("B = {}: {}", args.b, outcome(b));
    let width = pairs.iter().map(|p| p.key.len()).max().unwrap_or(7).max(7);
    println!(
        "{:<width$}  {:>16}  {:>16}  {:>8}",
        "counter", "A", "B", "B/A"
    );
    for p in pairs {
        let ratio = p.ratio().map_or("-".into(), |r| format!("{r:.3}"));
        println!(
            "{:<width$}  {:>16}  {:>16}  {:>8}",
            p.key,
            number(p.a),
            number(p.b),
            ratio
        );
    }
    if differing.is_empty() {
        println!("outputs: identical (every buffer argument)");
    } else {
        println!(
            "outputs: buffer argument(s) {} differ",
            differing.join(", ")
        );
    }
}
