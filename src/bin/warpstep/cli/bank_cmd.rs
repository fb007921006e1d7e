//! `warpstep bank`: one warp access to shared memory, its conflict degree, cycles and bank grid
//! (MODEL.md section 7). The model is `warpstep::mem::SharedBanks`; this file only reads flags
//! and prints.

use super::EXIT_BAD_INPUT;
use clap::Args;
use std::io::Write;
use std::process::ExitCode;
use warpstep::mem::{BankConflict, BankHash, Broadcast, SharedBanks};

/// Most lanes of one access.
const MAX_LANES: u32 = 64;

/// Flags of `warpstep bank`.
#[derive(Args, Debug)]
#[command(
    about = "Bank conflicts of one warp access to shared memory",
    after_help = "Addresses and --base are byte addresses unless --word-addrs. --stride S is in \
                  words (bank-width units): lane t reads word base + t*S, as in the XOR paper's \
                  Eq. 1 (word stride 2 over 32 4-byte banks is 2-way)."
)]
pub struct BankArgs {
    /// Lane addresses, comma separated (decimal or 0x hex).
    #[arg(
        long,
        value_name = "A,B,...",
        required_unless_present = "stride",
        conflicts_with = "stride"
    )]
    addrs: Option<String>,
    /// Word stride between consecutive lanes.
    #[arg(long, value_name = "S", value_parser = parse_u64)]
    stride: Option<u64>,
    /// Address of lane 0 with --stride [default: 0].
    #[arg(long, value_name = "B", value_parser = parse_u64)]
    base: Option<u64>,
    /// Number of lanes with --stride [default: 32].
    #[arg(long, value_name = "L")]
    lanes: Option<u32>,
    /// Read addresses and --base as word addresses instead of byte addresses.
    #[arg(long)]
    word_addrs: bool,
    /// Number of banks (a power of two).
    #[arg(long, value_name = "N", default_value_t = 32)]
    banks: u32,
    /// Bank width in bytes (4, 8 or 16).
    #[arg(long, value_name = "W", default_value_t = 4)]
    bank_width: u32,
    /// Bank index function: mod, bvperm:K, bvxor:K1,K2,MASK, bwperm:b0,..., bwxor:t0,..., fixed-xor.
    #[arg(long, value_name = "SPEC", default_value = "mod")]
    hash: BankHash,
    /// Broadcast rule: full or limited (GPGPU-Sim's shmem_limited_broadcast).
    #[arg(long, value_name = "full|limited", default_value = "full")]
    broadcast: Broadcast,
    /// Print {"degree":D,"cycles":C,"banks":[[lanes...],...]}.
    #[arg(long)]
    json: bool,
}

/// A decimal or `0x` hexadecimal number.
pub fn parse_u64(s: &str) -> Result<u64, String> {
    let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    };
    parsed.map_err(|_| format!("`{s}` is not a non-negative number (decimal or 0x hex)"))
}

/// A comma-separated list of numbers.
pub fn parse_list(s: &str) -> Result<Vec<u64>, String> {
    s.split(',').map(|t| parse_u64(t.trim())).collect()
}

#[derive(serde::Serialize)]
struct BankJson {
    degree: u32,
    cycles: u32,
    banks: Vec<Vec<u32>>,
}

/// Runs the command: exit 0, or 2 with a message on stderr for bad input.
pub fn run(args: BankArgs) -> ExitCode {
    match report(&args) {
        Ok(text) => {
            // A closed pipe (e.g. `| head`) is not an error of the command.
            let _ = writeln!(std::io::stdout(), "{text}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("warpstep bank: {msg}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

fn report(args: &BankArgs) -> Result<String, String> {
    let banks = SharedBanks::new(args.banks, args.bank_width, &args.hash, args.broadcast, 1)
        .map_err(|e| e.to_string())?;
    let addrs = byte_addresses(args)?;
    let r = banks.access(&addrs, u64::MAX);
    if args.json {
        let out = BankJson {
            degree: r.degree,
            cycles: r.cycles,
            banks: r.lanes_per_bank(args.banks),
        };
        return serde_json::to_string(&out).map_err(|e| e.to_string());
    }
    Ok(text(args, &r))
}

fn byte_addresses(args: &BankArgs) -> Result<Vec<u64>, String> {
    let width = args.bank_width as u64;
    let scale = if args.word_addrs { width } else { 1 };
    let to_bytes = |a: u64| {
        a.checked_mul(scale)
            .ok_or_else(|| format!("address {a} overflows"))
    };
    let addrs = match (&args.addrs, args.stride) {
        (Some(list), _) => {
            if args.base.is_some() || args.lanes.is_some() {
                return Err("--base and --lanes go with --stride, not --addrs".into());
            }
            parse_list(list)?
                .into_iter()
                .map(to_bytes)
                .collect::<Result<Vec<_>, _>>()?
        }
        (None, Some(stride)) => {
            let lanes = args.lanes.unwrap_or(32);
            if lanes == 0 {
                return Err("--lanes must be at least 1".into());
            }
            let base = to_bytes(args.base.unwrap_or(0))?;
            let step = stride.checked_mul(width).ok_or("stride overflows")?;
            (0..lanes as u64)
                .map(|t| t.checked_mul(step).and_then(|o| base.checked_add(o)))
                .collect::<Option<Vec<_>>>()
                .ok_or("stride addresses overflow 64 bits")?
        }
        (None, None) => return Err("give --addrs or --stride".into()),
    };
    if addrs.is_empty() || addrs.len() > MAX_LANES as usize {
        return Err(format!(
            "{} lanes: one warp access has 1 to {MAX_LANES}",
            addrs.len()
        ));
    }
    Ok(addrs)
}

/// A short report and an ASCII grid: one row per pass, one column per bank that was touched;
/// a cell shows the lane served, `+` when more lanes got the same word in that pass.
fn text(args: &BankArgs, r: &BankConflict) -> String {
    let mut out = format!(
        "{} lanes, {} banks x {} B, hash {}, {} broadcast\n",
        r.lanes.len(),
        args.banks,
        args.bank_width,
        args.hash,
        args.broadcast
    );
    out += &format!(
        "degree {}, cycles {} ({} extra)\n",
        r.degree, r.cycles, r.extra_cycles
    );
    let grid = r.grid(args.banks);
    let columns: Vec<usize> = (0..args.banks as usize)
        .filter(|&b| grid.iter().any(|row| !row[b].is_empty()))
        .collect();
    out += "        ";
    for &b in &columns {
        out += &format!("{:>5}", format!("b{b}"));
    }
    for (pass, row) in grid.iter().enumerate() {
        out += &format!("\npass {pass:<3}");
        for &b in &columns {
            let cell = match row[b].as_slice() {
                [] => ".".to_string(),
                [lane] => lane.to_string(),
                [lane, ..] => format!("{lane}+"),
            };
            out += &format!("{cell:>5}");
        }
    }
    out
}
