//! Argument parsing (clap) and dispatch to one module per subcommand.

mod bank_cmd;
mod bench_cmd;
mod compare_cmd;
mod config_cmd;
mod correlate_cmd;
mod correlate_plot;
mod experiment_chart;
mod experiment_cmd;
mod experiment_elastic_plot;
mod experiment_plot;
mod experiment_shard;
mod experiment_unified_plot;
mod experiment_xor_plot;
mod hash_search_cmd;
mod occupancy_cmd;
mod ptx_cmd;
mod report_out;
mod run_cmd;
mod run_stop;
mod why_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exit status for bad input (file, PTX, flags, configuration).
pub const EXIT_BAD_INPUT: u8 = 2;

#[derive(Parser)]
#[command(name = "warpstep", version, about = "Cycle-level GPU SM simulator")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Threads a simulation spreads its SMs over each cycle (default: the machine's cores).
    /// Results are the same for every count. Experiments run one simulation per thread
    /// instead (their `--jobs`).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
}

#[derive(Subcommand)]
enum Command {
    /// Print warpstep's version.
    Version,
    /// Run a PTX kernel (or a CUDA `.cu` kernel, compiled first) on data you describe and
    /// report the results.
    Run(Box<run_cmd::RunArgs>),
    /// Compile the device code of a CUDA `.cu` file and print its PTX.
    Ptx(ptx_cmd::PtxArgs),
    /// The same kernel under two configurations (A, B: presets or JSON files), counters side by
    /// side and the outputs compared.
    Compare(Box<compare_cmd::CompareArgs>),
    /// Why each warp (or one warp, or one lane) is not issuing at a cycle: the model's chain of
    /// causes, as the app's Why? panel shows it.
    Why(Box<why_cmd::WhyArgs>),
    /// Simulated cycles and warp instructions per second on the standard kernels.
    Bench(bench_cmd::BenchArgs),
    /// Show, list and check configurations (presets, JSON files, --set overrides).
    Config {
        #[command(subcommand)]
        command: config_cmd::ConfigCommand,
    },
    /// Run the GPGPU-Sim reference cases and compare warpstep's counters with GPGPU-Sim's.
    Correlate(correlate_cmd::CorrelateArgs),
    /// Rerun a paper's experiment on our kernels (mrpb: MRPB, HPCA 2014, Sections 4-5;
    /// mrpb-sched: its Fig. 14 CCWS-SWL bars and Fig. 16 schedulers; elastic: Elastic pipeline, CF'11, Sections 5.1-5.2; unified: MICRO'12 §6.2-6.4), whole
    /// or one `--shard I/N` at a time, and `merge` the shards' parts into the report.
    Experiment {
        #[command(subcommand)]
        command: experiment_cmd::ExperimentCommand,
    },
    /// Bank conflicts of one warp access to shared memory.
    Bank(bank_cmd::BankArgs),
    /// Configure a shared-memory bank hash from access sets (XOR paper section 5).
    HashSearch(hash_search_cmd::HashSearchCli),
    /// Threads per SM and the register/shared/cache split of a unified local memory
    /// (Unified MICRO'12 section 4.5).
    Occupancy(occupancy_cmd::OccupancyArgs),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let threads = cli.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    if matches!(cli.command, Command::Experiment { .. }) {
        return dispatch(cli.command);
    }
    warpstep::sim::set_default_threads(threads);
    if threads == 1 {
        return dispatch(cli.command);
    }
    // The whole command runs on the pool, so each cycle's parallel parts start from one of
    // its threads (cheap work stealing) rather than being sent in from outside. Its threads
    // get the main thread's stack size: the CUDA front end recurses on deep expressions.
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(8 << 20)
        .build()
    {
        Ok(pool) => pool.install(|| dispatch(cli.command)),
        Err(e) => {
            eprintln!("warpstep: cannot start {threads} threads ({e}); stepping the SMs in order");
            warpstep::sim::set_default_threads(1);
            dispatch(cli.command)
        }
    }
}

fn dispatch(command: Command) -> ExitCode {
    match command {
        Command::Version => {
            println!("warpstep {}", warpstep::VERSION);
            ExitCode::SUCCESS
        }
        Command::Config { command } => config_cmd::run(command),
        Command::Run(args) => run_cmd::run(*args),
        Command::Ptx(args) => ptx_cmd::run(args),
        Command::Compare(args) => compare_cmd::run(*args),
        Command::Why(args) => why_cmd::run(*args),
        Command::Bench(args) => bench_cmd::run(args),
        Command::Correlate(args) => correlate_cmd::run(args),
        Command::Experiment { command } => experiment_cmd::run(command),
        Command::Bank(args) => bank_cmd::run(args),
        Command::HashSearch(args) => hash_search_cmd::run(args),
        Command::Occupancy(args) => occupancy_cmd::run(args),
    }
}
