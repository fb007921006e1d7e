//! `warpstep occupancy`: how a unified local memory divides for a kernel (Unified MICRO'12
//! §4.5), as an occupancy calculator. The model is `warpstep::core::unified_partition`; this
//! file only reads flags and prints.

use super::EXIT_BAD_INPUT;
use clap::Args;
use std::process::ExitCode;
use warpstep::config::{Config, UnifiedMode};
use warpstep::core::unified_partition::{
    occupancy, occupancy_json, OccupancyQuery, Partition, PoolShape, StorageDemand,
};

/// Flags of `warpstep occupancy`.
#[derive(Args, Debug)]
#[command(
    about = "Threads per SM and the register/shared/cache split of a unified local memory",
    after_help = "Table 1 of the paper, dgemm: `warpstep occupancy --regs 57 --smem-per-thread 66.5` \
                  gives 1024 threads, a 228 KB register file, 66.5 KB of shared memory and an \
                  89.5 KB cache. KB = 1024 bytes."
)]
pub struct OccupancyArgs {
    /// Registers per thread.
    #[arg(long, value_name = "R")]
    regs: u32,
    /// Shared-memory bytes per thread (may be fractional, as in the paper's Table 1).
    #[arg(long, value_name = "B", conflicts_with = "smem_per_cta")]
    smem_per_thread: Option<f64>,
    /// Shared-memory bytes per CTA (needs --block).
    #[arg(long, value_name = "B", requires = "block")]
    smem_per_cta: Option<u32>,
    /// Threads per CTA: the thread count is rounded down to whole CTAs.
    #[arg(long, value_name = "T")]
    block: Option<u32>,
    /// Pool capacity: bytes, or with a K suffix (384K) [default: the preset's].
    #[arg(long, value_name = "BYTES", value_parser = parse_capacity)]
    capacity: Option<u32>,
    /// full (one pool, §4) or fermi (a fixed register file beside a 3:1 shared/cache split, §6.3).
    #[arg(long, value_name = "full|fermi")]
    mode: Option<String>,
    /// Preset giving the thread limit and the cache's shape.
    #[arg(long, value_name = "NAME", default_value = "unified-micro12")]
    config: String,
    /// Print {"threads":T,"registers_kb":R,"shared_kb":S,"cache_kb":C,...}.
    #[arg(long)]
    json: bool,
}

/// `384K`, `384KB`, `393216`.
fn parse_capacity(s: &str) -> Result<u32, String> {
    let t = s.trim();
    let upper = t.to_ascii_uppercase();
    let (digits, scale) = match upper.strip_suffix("KB").or_else(|| upper.strip_suffix('K')) {
        Some(d) => (d, 1024),
        None => (upper.as_str(), 1),
    };
    digits
        .trim()
        .parse::<u32>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("'{s}' is not a capacity (bytes, or K: 384K)"))
}

pub fn run(args: OccupancyArgs) -> ExitCode {
    match compute(&args) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("warpstep occupancy: {msg}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

fn compute(args: &OccupancyArgs) -> Result<String, String> {
    let config = Config::preset(&args.config).map_err(|e| e.to_string())?;
    let query = OccupancyQuery {
        regs: args.regs,
        smem_per_thread: args.smem_per_thread,
        smem_per_cta: args.smem_per_cta,
        block: args.block,
        capacity_bytes: args.capacity,
        mode: args.mode.clone(),
    };
    let (pool, demand, p) = occupancy(&config, &query)?;
    Ok(if args.json {
        occupancy_json(&pool, &demand, &p).to_string()
    } else {
        text(&pool, &demand, &p)
    })
}

fn kb(bytes: u32) -> f64 {
    f64::from(bytes) / 1024.0
}

fn text(pool: &PoolShape, demand: &StorageDemand, p: &Partition) -> String {
    let mode = match pool.mode {
        UnifiedMode::Full => "unified",
        UnifiedMode::Fermi => "Fermi-like (fixed register file)",
    };
    format!(
        "{mode} {:.1} KB, {:.1} bytes a thread: {} threads\n\
         registers {:.1} KB, shared memory {:.1} KB, cache {:.1} KB ({} sets of {} x {} B)",
        kb(pool.capacity_bytes),
        demand.bytes_per_thread(),
        p.threads,
        kb(p.register_bytes),
        kb(p.shared_bytes),
        kb(p.cache_bytes),
        p.cache_sets,
        pool.cache_assoc,
        pool.cache_line_bytes,
    )
}
