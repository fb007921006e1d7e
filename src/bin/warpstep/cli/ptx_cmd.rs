//! `warpstep ptx kernel.cu`: the PTX warpstep's CUDA compiler makes of a `.cu` file (issue 29),
//! as `warpstep run` would load it; notes on skipped host code go to stderr.

use super::EXIT_BAD_INPUT;
use clap::Args;
use std::process::ExitCode;

#[derive(Args)]
pub struct PtxArgs {
    /// The CUDA source (`.cu`).
    pub file: String,
    /// Also instantiate these templates (`--kernel 'transpose<1>'`, repeatable).
    #[arg(long = "kernel")]
    pub kernels: Vec<String>,
    /// Print the kernels (name as written and PTX entry name) instead of the PTX.
    #[arg(long)]
    pub list: bool,
}

pub fn run(args: PtxArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read `{}`: {e}", args.file);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let name = std::path::Path::new(&args.file)
        .file_name()
        .map_or(args.file.clone(), |n| n.to_string_lossy().into_owned());
    match warpstep::cuda::compile_kernels(&text, &name, &args.kernels) {
        Ok(c) => {
            for n in &c.notes {
                eprintln!("note: {n}");
            }
            if args.list {
                for k in &c.kernels {
                    println!("{}\t{}", k.source, k.ptx);
                }
            } else {
                print!("{}", c.ptx);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
