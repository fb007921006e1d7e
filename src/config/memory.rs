//! Configuration of the memory system: shared memory (`shmem`), L1 data cache (`l1d`),
//! constant/param loads (`constant`), interconnect (`icnt`), L2 (`l2`) and DRAM (`dram`).
//! MODEL.md sections 7 and 9; book chapter 4.

use serde::{Deserialize, Serialize};

/// How lanes reading the same word of one bank are merged (MODEL.md section 7); matched in
/// `mem::shared_banks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Broadcast {
    /// Any number of words may be broadcast: cost = most distinct words in one bank
    /// (GPGPU-Sim `-gpgpu_shmem_limited_broadcast 0`).
    #[default]
    Full,
    /// Only the first multiply-read word is merged (GPGPU-Sim's default, limited broadcast 1).
    Limited,
}

impl std::str::FromStr for Broadcast {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "full" => Ok(Broadcast::Full),
            "limited" => Ok(Broadcast::Limited),
            _ => Err(format!(
                "broadcast must be `full` or `limited`, found `{s}`"
            )),
        }
    }
}

impl std::fmt::Display for Broadcast {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Broadcast::Full => "full",
            Broadcast::Limited => "limited",
        })
    }
}

/// Shared memory: banks, conflicts and latency (MODEL.md section 7; book §4.1.1; XOR).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedMemConfig {
    /// Shared memory per SM in bytes (GPGPU-Sim `-gpgpu_shmem_size`).
    pub size_bytes: u32,
    /// Number of banks, a power of two (GPGPU-Sim `-gpgpu_shmem_num_banks`).
    pub banks: u32,
    /// Bytes per bank word: 4, or 8 as on Kepler (MODEL.md section 7).
    pub bank_width: u32,
    /// Broadcast rule for lanes reading one word.
    pub broadcast: Broadcast,
    /// Sub-warps a warp access is split into (GPGPU-Sim `-gpgpu_shmem_warp_parts`).
    pub warp_parts: u32,
    /// Cycles from the end of the access's conflict cycles to the result (GPGPU-Sim
    /// `-gpgpu_smem_latency`).
    pub latency: u32,
    /// Bank index function: `mod`, `bvperm:K`, `bvxor:K1,K2,MASK`, `bwperm:...`, `bwxor:...`,
    /// `fixed-xor` (MODEL.md section 7; XOR §4), as its SPEC string in JSON.
    pub hash: crate::mem::BankHash,
    /// Extra cycles a configurable hash adds to every shared access (XOR §5; `mod` and
    /// `fixed-xor` add none).
    pub hash_latency: u32,
}

/// How the coalescer cuts a warp's global access into requests (MODEL.md section 9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Coalescing {
    /// Fermi rules: one request per 128-byte segment (64 B for 2-byte, 32 B for 1-byte data).
    Segment,
    /// Sector mode: one request per 32-byte sector.
    Sector,
}

/// The L1 data cache of each SM (MODEL.md section 9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct L1dConfig {
    /// GPGPU-Sim cache string (`-gpgpu_cache:dl1`), or `none` for no L1D.
    pub config: String,
    /// Hit latency in cycles (GPGPU-Sim `-gpgpu_l1_latency`).
    pub latency: u32,
    /// Coalescing granularity.
    pub coalescing: Coalescing,
}

/// How `ld.const` and `ld.param` are timed (issue 5: "a constant cache or a fixed latency").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConstModel {
    /// Every constant/param load takes `constant.latency` cycles.
    Fixed,
    /// A constant cache shaped by `constant.cache`, hits taking `constant.latency`.
    Cache,
}

/// Constant and parameter memory loads (MODEL.md section 2: param and const spaces).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstMemConfig {
    /// Fixed latency or constant cache.
    pub model: ConstModel,
    /// Cycles of a constant/param load (or of a constant-cache hit).
    pub latency: u32,
    /// GPGPU-Sim constant cache string (`-gpgpu_const_cache:l1`), used when `model` is `cache`;
    /// always checked.
    pub cache: String,
}

/// The interconnect between SMs and L2 slices, each way (MODEL.md section 9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IcntConfig {
    /// Cycles a packet spends crossing, each way.
    pub latency: u32,
    /// Bytes per flit (MODEL.md section 9 and Elastic Table 3: 32).
    pub flit_bytes: u32,
    /// Flits each port moves per cycle, each way.
    pub flits_per_cycle: u32,
}

/// The shared L2: one slice per memory sub-partition (MODEL.md section 9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct L2Config {
    /// GPGPU-Sim cache string of one slice (`-gpgpu_cache:dl2`), or `none` for no L2.
    pub config: String,
    /// L2 slices per DRAM channel (GPGPU-Sim `-gpgpu_n_sub_partition_per_mchannel`); there are
    /// `dram.channels` x this many slices.
    pub sub_partitions_per_channel: u32,
    /// Bytes of consecutive addresses that map to one slice before the next (MODEL.md: 256).
    pub interleave_bytes: u32,
    /// Hit latency in cycles, ROP included (GPGPU-Sim `-gpgpu_l2_rop_latency` / `-rop_latency`).
    pub latency: u32,
    /// Entries in each of a slice's four queues: icnt->L2, L2->DRAM, DRAM->L2, L2->icnt
    /// (GPGPU-Sim `-gpgpu_dram_partition_queues`).
    pub queue_entries: u32,
}

/// DRAM: channels of banks with open rows, FR-FCFS (MODEL.md section 9; book §4.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DramConfig {
    /// Memory channels, each with its own controller (GPGPU-Sim `-gpgpu_n_mem`).
    pub channels: u32,
    /// Banks per channel (GPGPU-Sim `nbk` in `-gpgpu_dram_timing_opt`).
    pub banks: u32,
    /// Bytes in one open row of a bank, across the channel's chips.
    pub row_bytes: u32,
    /// FR-FCFS scheduler queue entries per channel (GPGPU-Sim
    /// `-gpgpu_frfcfs_dram_sched_queue_size`).
    pub queue_size: u32,
    /// Cycles of an access to the open row (GPGPU-Sim `-dram_latency`).
    pub row_hit_latency: u32,
    /// Cycles of an access that must close a row and open another (row hit + tRP + tRCD).
    pub row_miss_latency: u32,
    /// Data-bus bytes per SM cycle per channel; fractional to express the per-SM share of a chip
    /// when `num_sms` is 1 (Unified §5 gives one SM 8 bytes/cycle).
    pub bus_bytes_per_cycle: f64,
}
