//! `warpstep config show|list|check`: print, list and validate configurations.
//!
//! [`load_config`] is the loading order every subcommand that takes `--config` uses: a preset
//! name or a JSON file (which may overlay a `"preset"`), then the `--set` overrides in order.

use super::EXIT_BAD_INPUT;
use clap::Subcommand;
use std::process::ExitCode;
use warpstep::config::{presets, Config};

/// The `config` subcommands.
#[derive(Subcommand)]
pub enum ConfigCommand {
    /// Print the resulting configuration as pretty JSON.
    Show {
        /// A preset name (see `config list`) or a JSON file.
        source: String,
        /// Override one key, e.g. --set core.scheduler=lrr (repeatable, applied in order).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        sets: Vec<String>,
    },
    /// List the presets with their descriptions.
    List,
    /// Validate a configuration, including switches that are not built yet; print OK.
    Check {
        /// A JSON file or a preset name.
        source: String,
        /// Override one key before checking (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        sets: Vec<String>,
    },
}

/// A preset or JSON file, then `--set` overrides; the error is the message to print.
pub fn load_config(source: &str, sets: &[String]) -> Result<Config, String> {
    let base = if presets().iter().any(|p| p.name == source) {
        Config::preset(source).map_err(|e| e.to_string())?
    } else {
        let text = std::fs::read_to_string(source).map_err(|e| {
            let names: Vec<&str> = presets().iter().map(|p| p.name).collect();
            format!(
                "cannot read `{source}`: {e} (nor is it a preset: {})",
                names.join(", ")
            )
        })?;
        Config::from_json(&text).map_err(|e| format!("{source}: {e}"))?
    };
    base.with_overrides(sets).map_err(|e| e.to_string())
}

fn bad_input(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(EXIT_BAD_INPUT)
}

fn show(source: &str, sets: &[String]) -> ExitCode {
    match load_config(source, sets) {
        Ok(config) => {
            println!("{}", config.to_json_pretty());
            ExitCode::SUCCESS
        }
        Err(message) => bad_input(&message),
    }
}

fn list() -> ExitCode {
    let width = presets().iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in presets() {
        println!("{:width$}  {}", p.name, p.description);
    }
    ExitCode::SUCCESS
}

fn check(source: &str, sets: &[String]) -> ExitCode {
    let checked =
        load_config(source, sets).and_then(|c| c.check_supported().map_err(|e| e.to_string()));
    match checked {
        Ok(()) => {
            println!("OK");
            ExitCode::SUCCESS
        }
        Err(message) => bad_input(&message),
    }
}

/// Runs one `config` subcommand; exit status 2 with the message on stderr for bad input.
pub fn run(command: ConfigCommand) -> ExitCode {
    match command {
        ConfigCommand::Show { source, sets } => show(&source, &sets),
        ConfigCommand::List => list(),
        ConfigCommand::Check { source, sets } => check(&source, &sets),
    }
}
