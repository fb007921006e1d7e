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
    /// GPGPU-Sim's texture cache string (`-gpgpu_tex_cache:l1`, the SM's `m_L1T`) for
    /// read-only global loads (`ld.global.nc`, CUDA's `__ldg`, the texture path since sm_35),
    /// or `none`: they go through the L1D like any global load. Hits take `latency`.
    #[serde(default = "no_cache")]
    pub texture_cache: String,
}

fn no_cache() -> String {
    "none".to_string()
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

/// How the interconnect is timed (`icnt.model`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IcntModel {
    /// MODEL.md section 9: a fixed latency and a flit bandwidth per port (an ideal crossbar).
    Crossbar,
    /// GPGPU-Sim's BookSim router (`config_fermi_islip.icnt`): one virtual channel per port,
    /// iSLIP allocation, injection/input/ejection buffers (`mem::icnt_router`).
    Router,
}

/// The interconnect between SMs and L2 slices, each way (MODEL.md section 9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IcntConfig {
    /// Ideal crossbar or GPGPU-Sim's router.
    pub model: IcntModel,
    /// Crossbar: cycles a packet spends crossing, each way. Router: cycles on each channel
    /// (node to router, router to node; BookSim's channel latency).
    pub latency: u32,
    /// Bytes per flit (MODEL.md section 9 and Elastic Table 3: 32).
    pub flit_bytes: u32,
    /// Flits each port moves per cycle, each way.
    pub flits_per_cycle: u32,
    /// Router: flits a node's injection queue holds (GPGPU-Sim's `input_buffer_size`).
    pub injection_buffer_flits: u32,
    /// Router: flits of a router input buffer and of a node's ejection buffer (BookSim's
    /// `vc_buf_size`, one virtual channel per port).
    pub vc_buffer_flits: u32,
    /// Router: allocation steps per cycle (BookSim's `internal_speedup`).
    pub internal_speedup: u32,
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
    /// Whether the host's copies into device memory before the launch pass through the L2 and
    /// stay there (GPGPU-Sim `-gpgpu_perf_sim_memcpy`): every buffer argument with contents,
    /// that is, with any `--arg` initialiser but a zero fill, which stands for `cudaMemset`.
    pub fill_on_copy: bool,
}

/// The clock domains of the GPU, as GPGPU-Sim's `-gpgpu_clock_domains
/// <core>:<interconnect>:<L2>:<DRAM>` (MHz). One simulated cycle is one core cycle; the memory
/// system runs each other domain as many times per core cycle as its clock allows
/// (`mem::clock`). DRAM timing parameters count DRAM (command) cycles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockConfig {
    /// The SM clock: one simulated cycle.
    pub core_mhz: f64,
    /// The interconnect's clock.
    pub icnt_mhz: f64,
    /// The L2 slices' clock.
    pub l2_mhz: f64,
    /// The DRAM command clock.
    pub dram_mhz: f64,
}

/// DRAM timing constraints in DRAM command cycles, as GPGPU-Sim's `-gpgpu_dram_timing_opt`
/// (MODEL.md section 9; book section 4.3.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DramTiming {
    /// Column to column (read to read, write to write), any bank (`CCD`).
    pub ccd: u32,
    /// Column to column within one bank group (`CCDL`; 0 without bank groups).
    pub ccdl: u32,
    /// Activate to activate, different banks (`RRD`).
    pub rrd: u32,
    /// Activate to column command (`RCD`).
    pub rcd: u32,
    /// Activate to precharge (`RAS`).
    pub ras: u32,
    /// Precharge to activate (`RP`).
    pub rp: u32,
    /// Activate to activate, same bank (`RC`).
    pub rc: u32,
    /// Read column command to data (`CL`).
    pub cl: u32,
    /// Write column command to data (`WL`).
    pub wl: u32,
    /// Last write data to a read command (`CDLR`, part of write-to-read turnaround).
    pub cdlr: u32,
    /// Last write data to precharge (`WR`).
    pub wr: u32,
    /// Read to precharge within one bank group (`RTPL`; 0 without bank groups).
    pub rtpl: u32,
}

/// DRAM: channels of banks with open rows behind an FR-FCFS controller, timed command by
/// command in the DRAM clock domain (MODEL.md section 9; book section 4.3.3; GPGPU-Sim's
/// `dram_t`). The channel's bandwidth is not a parameter: it follows from the bus
/// (`chips_per_channel` x `bus_width_bytes` bytes per beat, `burst_length` beats per column
/// command, `data_command_ratio` beats per command cycle) and the DRAM clock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DramConfig {
    /// Memory channels, each with its own controller (GPGPU-Sim `-gpgpu_n_mem`).
    pub channels: u32,
    /// DRAM chips side by side on one channel (GPGPU-Sim `-gpgpu_n_mem_per_ctrlr`).
    pub chips_per_channel: u32,
    /// Data bus width of one chip in bytes (GPGPU-Sim `-gpgpu_dram_buswidth`).
    pub bus_width_bytes: u32,
    /// Beats per column command (GPGPU-Sim `-gpgpu_dram_burst_length`).
    pub burst_length: u32,
    /// Data beats per command-clock cycle: 1 SDR, 2 DDR, 4 GDDR5's QDR
    /// (GPGPU-Sim `-dram_data_command_freq_ratio`).
    pub data_command_ratio: u32,
    /// Banks per channel (GPGPU-Sim `nbk`).
    pub banks: u32,
    /// Bank groups per channel (GPGPU-Sim `nbkgrp`; 1: none); a bank's group is its low bits.
    pub bank_groups: u32,
    /// Which bits of the channel-local address are row (`R`), bank (`B`), column (`C`) and byte
    /// within a burst (`S`), most significant first; `.` separates bytes for reading and `0`
    /// marks an unused bit. The part of GPGPU-Sim's `-gpgpu_mem_addr_mapping` after `dramid@N;`,
    /// with the leading zero bytes left out; bits above it are row bits.
    pub address_mapping: String,
    /// FR-FCFS scheduler queue entries per channel (GPGPU-Sim
    /// `-gpgpu_frfcfs_dram_sched_queue_size`).
    pub queue_size: u32,
    /// Finished reads waiting to go back to the L2 (GPGPU-Sim `-gpgpu_dram_return_queue_size`).
    pub return_queue_size: u32,
    /// Core cycles between leaving the L2's queue and reaching the controller (GPGPU-Sim
    /// `-dram_latency`).
    pub latency: u32,
    /// Command timing in DRAM cycles.
    pub timing: DramTiming,
}
