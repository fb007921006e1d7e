//! Argument parsing (clap) and dispatch to one module per subcommand.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

use crate::config_cmd;

/// Exit status for bad input (file, PTX, flags, configuration).
pub const EXIT_BAD_INPUT: u8 = 2;

#[derive(Parser)]
#[command(name = "warpstep", version, about = "Cycle-level GPU SM simulator")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print warpstep's version.
    Version,
    /// Show, list and check configurations (presets, JSON files, --set overrides).
    Config {
        #[command(subcommand)]
        command: config_cmd::ConfigCommand,
    },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Version => {
            println!("warpstep {}", warpstep::VERSION);
            ExitCode::SUCCESS
        }
        Command::Config { command } => config_cmd::run(command),
    }
}
