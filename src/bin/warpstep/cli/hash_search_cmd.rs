//! `warpstep hash-search`: configure a bank index function with the searches of the XOR paper's
//! section 5 (`warpstep::mem::bank_search`); this file only reads flags and prints.

use super::bank_cmd::parse_list;
use super::EXIT_BAD_INPUT;
use clap::{ArgMatches, Args, FromArgMatches};
use std::io::Write;
use std::process::ExitCode;
use warpstep::mem::bank_search::{search, AccessSet, Family, Method, SearchSpace};
use warpstep::mem::{SearchResult, SearchStep};

/// Lanes of a `--stride` access set (one 32-thread warp, as in the paper's examples).
const STRIDE_LANES: u32 = 32;

/// Word size used to turn `--addrs` byte addresses into word addresses.
const WORD_BYTES: u32 = 4;

/// Flags of `warpstep hash-search`.
#[derive(Args, Debug)]
#[command(
    about = "Configure a bank hash from access sets (XOR paper section 5)",
    after_help = "Each --stride S or --addrs A,B,... adds one access set, in command-line order. \
                  --stride S: lane t (32 lanes) reads word t*S. --addrs are byte addresses \
                  (4-byte words) unless --word-addrs. exhaustive configures bvxor; gh and mih \
                  configure bwperm and bwxor."
)]
pub struct HashSearchArgs {
    /// exhaustive (bit-vector XOR), gh (Givargis) or mih (Minimum Imbalance).
    #[arg(long, value_name = "exhaustive|gh|mih")]
    method: Method,
    /// Hash family to configure: bvxor, bwperm or bwxor.
    #[arg(long, value_name = "bvxor|bwperm|bwxor")]
    family: Family,
    /// A strided access set: lane t reads word t*S.
    #[arg(long = "stride", value_name = "S", value_parser = super::bank_cmd::parse_u64)]
    strides: Vec<u64>,
    /// An access set of explicit addresses, comma separated.
    #[arg(long = "addrs", value_name = "A,B,...")]
    addrs: Vec<String>,
    /// Access sets from a kernel run (the trace-based method; needs the simulator).
    #[arg(
        long = "kernel-run",
        value_name = "FILE.ptx RUN-FLAGS",
        num_args = 1..,
        allow_hyphen_values = true
    )]
    kernel_run: Option<Vec<String>>,
    /// Number of banks (a power of two).
    #[arg(long, value_name = "N", default_value_t = 32)]
    banks: u32,
    /// Word-address bits n (14 = 48 KB of 4-byte words, the paper's Fermi example).
    #[arg(long, value_name = "B", default_value_t = 14)]
    addr_bits: u32,
    /// Read --addrs as word addresses instead of byte addresses.
    #[arg(long)]
    word_addrs: bool,
    /// Print {"hash":SPEC,"candidates":N,"cost_before":X,"cost_after":Y,"steps":[...]}.
    #[arg(long)]
    json: bool,
}

/// One access set as written on the command line.
#[derive(Debug)]
enum SetFlag {
    Stride(u64),
    Addrs(String),
}

/// [`HashSearchArgs`] plus the command-line order of the `--stride` and `--addrs` sets, which
/// clap's derive keeps only per flag.
#[derive(Debug)]
pub struct HashSearchCli {
    args: HashSearchArgs,
    sets: Vec<SetFlag>,
}

impl FromArgMatches for HashSearchCli {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let args = HashSearchArgs::from_arg_matches(m)?;
        let indices =
            |id: &str| -> Vec<usize> { m.indices_of(id).map(|i| i.collect()).unwrap_or_default() };
        let mut sets: Vec<(usize, SetFlag)> = indices("strides")
            .into_iter()
            .zip(args.strides.iter().map(|&s| SetFlag::Stride(s)))
            .chain(
                indices("addrs")
                    .into_iter()
                    .zip(args.addrs.iter().map(|a| SetFlag::Addrs(a.clone()))),
            )
            .collect();
        sets.sort_by_key(|(i, _)| *i);
        let sets = sets.into_iter().map(|(_, s)| s).collect();
        Ok(HashSearchCli { args, sets })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for HashSearchCli {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        HashSearchArgs::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        HashSearchArgs::augment_args_for_update(cmd)
    }
}

/// Runs the command: exit 0, or 2 with a message on stderr for bad input.
pub fn run(cli: HashSearchCli) -> ExitCode {
    match report(&cli) {
        Ok(text) => {
            // A closed pipe (e.g. `| head`) is not an error of the command.
            let _ = writeln!(std::io::stdout(), "{text}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("warpstep hash-search: {msg}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

fn report(cli: &HashSearchCli) -> Result<String, String> {
    let args = &cli.args;
    let mut sets = access_sets(cli)?;
    let mut kernel_note = String::new();
    if let Some(run) = &args.kernel_run {
        let (kernel_sets, note) = kernel_access_sets(run)?;
        sets.extend(kernel_sets);
        kernel_note = note;
    }
    if sets.is_empty() {
        return Err("give at least one access set: --stride, --addrs or --kernel-run".into());
    }
    let space = SearchSpace {
        banks: args.banks,
        addr_bits: args.addr_bits,
    };
    let result = search(args.method, args.family, &sets, space).map_err(|e| e.to_string())?;
    if args.json {
        return serde_json::to_string(&result).map_err(|e| e.to_string());
    }
    Ok(format!("{kernel_note}{}", text(args, sets.len(), &result)))
}

/// The most dynamic shared accesses a kernel run contributes.
const KERNEL_ACCESS_LIMIT: usize = 100_000;

/// `--kernel-run FILE.ptx RUN-FLAGS...`: runs the kernel (functionally) and takes every dynamic
/// shared-memory warp access as an access set (the paper's trace-based method); the note lists
/// how many came from each static instruction.
fn kernel_access_sets(run: &[String]) -> Result<(Vec<AccessSet>, String), String> {
    let (file, flags) = run
        .split_first()
        .ok_or("--kernel-run needs FILE.ptx and its run flags")?;
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read `{file}`: {e}"))?;
    let flags = warpstep::launch::LaunchFlags::parse_tokens(flags).map_err(|e| e.to_string())?;
    let config_for = |source: &str| super::config_cmd::load_config(source, &[]);
    let read_file = |path: &str| std::fs::read(path).map_err(|e| e.to_string());
    let mut prepared = warpstep::run::prepare(&text, flags, &config_for, &read_file)
        .map_err(|e| format!("{file}: {e}"))?;
    let found = prepared.shared_access_sets(KERNEL_ACCESS_LIMIT)?;
    let func = prepared.image.func();
    let mut per_pc: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
    for (pc, _) in &found {
        *per_pc.entry(*pc).or_default() += 1;
    }
    let mut note = format!("{file}: {} dynamic shared accesses\n", found.len());
    for (pc, n) in &per_pc {
        let line = func.instr(*pc).map_or(0, |i| i.line);
        note += &format!("  line {line}: {n} x `{}`\n", func.text(*pc));
    }
    Ok((found.into_iter().map(|(_, set)| set).collect(), note))
}

fn access_sets(cli: &HashSearchCli) -> Result<Vec<AccessSet>, String> {
    cli.sets
        .iter()
        .map(|flag| {
            match flag {
                SetFlag::Stride(s) => AccessSet::from_stride(0, *s, STRIDE_LANES),
                SetFlag::Addrs(list) => {
                    let addrs = parse_list(list).map_err(|e| format!("--addrs: {e}"))?;
                    if cli.args.word_addrs {
                        AccessSet::from_words(addrs)
                    } else {
                        AccessSet::from_byte_addrs(&addrs, WORD_BYTES)
                    }
                }
            }
            .map_err(|e| e.to_string())
        })
        .collect()
}

fn text(args: &HashSearchArgs, sets: usize, r: &SearchResult) -> String {
    let mut out = format!(
        "{} search for {}: {sets} access set(s), {} banks, {} address bits\n",
        args.method, args.family, args.banks, args.addr_bits
    );
    out += &format!("hash: {}\n", r.hash);
    out += &format!("candidates: {}\n", r.candidates);
    out += &format!(
        "conflict cycles (summed over the sets): {} under mod -> {}",
        r.cost_before, r.cost_after
    );
    for step in &r.steps {
        if let Some(line) = step_line(step) {
            out += "\n  ";
            out += &line;
        }
    }
    out
}

/// One line per decision (exhaustive: only candidates that became the best).
fn step_line(step: &SearchStep) -> Option<String> {
    match step {
        SearchStep::Candidate {
            k1,
            k2,
            mask,
            cost,
            best: true,
        } => Some(format!("best so far: bvxor:{k1},{k2},{mask} cost {cost}")),
        SearchStep::Candidate { .. } => None,
        SearchStep::SameK { k, cost } => Some(format!(
            "every set has stride k = {k}: bvxor:{k},0,0 cost {cost}"
        )),
        SearchStep::Givargis(g) => {
            let q = g
                .quality
                .iter()
                .find(|q| q.term == g.chosen)
                .map_or(0.0, |q| q.combined);
            Some(format!(
                "bank bit {}: {} (combined quality {q:.4})",
                g.step, g.chosen
            ))
        }
        SearchStep::Imbalance(s) => {
            let i = s
                .candidates
                .iter()
                .find(|c| c.term == s.chosen)
                .map_or(0.0, |c| c.total);
            Some(format!(
                "bank bit {}: {} (imbalance {i:.4})",
                s.step, s.chosen
            ))
        }
    }
}
