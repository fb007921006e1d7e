//! The switchable mechanisms: elastic pipeline (`elastic`, MODEL.md section 8), MRPB (`mrpb`,
//! section 10), unified local memory (`unified`, section 11), and the energy model (`energy`,
//! section 11). Each is off in every preset; `--set <switch>.enabled=true` turns it on.

use serde::{Deserialize, Serialize};

/// The non-elastic back end used when `elastic.enabled` is false (MODEL.md section 8; Elastic
/// §3.1). `split` and `in_order` are the paper's rigid in-order pipelines: an instruction that
/// cannot leave its stage stalls every stage before it, issue included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BaselinePipeline {
    /// GPGPU-Sim 3.x (the Fermi-class presets): operand collector units decouple issue from
    /// execution, so a blocked unit holds only its own collector pool, and a result that loses
    /// writeback waits at its unit without stopping it (MODEL.md section 7, baseline timing).
    Decoupled,
    /// Elastic Fig. 4(b): memory instructions take MEM0..MEM(M-1), the others a rigid NONMEM
    /// path of M stages beside them; a conflict blocks the memory path and, through writeback
    /// conflicts, the NONMEM path.
    Split,
    /// Elastic Fig. 4(a): every instruction passes MEM0..MEM(M-1); a conflict holds MEM0 and
    /// stalls everything upstream.
    InOrder,
}

/// Elastic pipeline and the bank-conflict-aware scheduler's history cache (MODEL.md section 8;
/// Elastic §3-4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElasticConfig {
    /// Turns the elastic pipeline on (Elastic §3.2, Figs. 5-6): the rigid split pipeline with a
    /// PREMEM FIFO of ceil(warp_size/simd_width)-1 entries before MEM0 and the NONMEM path as a
    /// `mem_stages`-entry FIFO with forwarding to writeback. `baseline` is then not used.
    pub enabled: bool,
    /// The pipeline used while `enabled` is false.
    pub baseline: BaselinePipeline,
    /// Memory pipeline stages M, MEM0..MEM(M-1) (Elastic Table 3: 4).
    pub mem_stages: u32,
    /// Accesses per bank per cycle: a shared access holds MEM0 for ceil(degree/ports) cycles per
    /// sub-warp (Elastic Table 3: 1).
    pub shmem_ports: u32,
    /// Sets of the per-SM conflict history cache used by `core.scheduler = bank_conflict_aware`
    /// (Elastic §4: 256).
    pub history_sets: u32,
    /// Ways of that history cache (Elastic §4: 2).
    pub history_ways: u32,
    /// The variant of the bank-conflict-aware scheduler the paper tried and set aside (§5.2,
    /// footnote 10): when the mask leaves no warp to issue, a masked memory warp issues anyway,
    /// trading a scheduling fail for a possible bank-conflict stall. Off by default.
    #[serde(default)]
    pub relaxed_mask: bool,
}

/// Which requests share an MRPB queue (MODEL.md section 10; MRPB §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MrpbSignature {
    /// One queue per hardware warp slot (`core.max_warps_per_sm` queues; MRPB's choice).
    Warp,
    /// One queue per CTA slot (`core.max_ctas_per_sm` queues).
    Block,
    /// The i-th warp of every CTA shares queue i (max_threads_per_cta / warp_size queues).
    WarpInBlock,
    /// One queue for every request: no reordering (with `queue_depth` 1 and `latency` 0, the
    /// bypass-only slot of MRPB §5.4).
    Single,
}

/// Which queue MRPB drains next (MODEL.md section 10; MRPB §3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MrpbDrain {
    /// The lowest-numbered non-empty queue, re-decided after every request (MRPB's choice).
    Fixed,
    /// Round robin over non-empty queues.
    RoundRobin,
    /// The longest queue (ties: the lower number).
    LongestFirst,
    /// `fixed`, but empty the chosen queue before choosing again.
    GreedyFixed,
    /// `round_robin`, but empty the chosen queue before choosing again.
    GreedyRoundRobin,
    /// `longest_first`, but empty the chosen queue before choosing again.
    GreedyLongestFirst,
}

/// When a read that fails in L1 goes straight to L2 (MODEL.md section 10; MRPB §3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MrpbBypass {
    /// On an associativity reservation failure (MRPB's choice).
    Assoc,
    /// On any reservation failure.
    All,
    /// Never.
    Off,
}

/// Memory request prioritization buffer between coalescer and L1 (MODEL.md section 10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MrpbConfig {
    /// Turns MRPB on.
    pub enabled: bool,
    /// Queue assignment.
    pub signature: MrpbSignature,
    /// Entries per queue (MRPB Table 4: 8).
    pub queue_depth: u32,
    /// Cycles a request must stay in the buffer before it may leave (MRPB Table 4: 5).
    pub latency: u32,
    /// Drain policy (MRPB Table 4: fixed order).
    pub drain: MrpbDrain,
    /// Flush option: a read meeting a full queue drains it first; a write empties its queue
    /// and then goes to L1 unqueued (MRPB §3.3; on in MRPB's final design).
    pub flush: bool,
    /// Bypass policy (MRPB Table 4: on associativity stalls).
    pub bypass: MrpbBypass,
}

/// How much of an SM's storage the unified design pools (Unified §4 and §6.3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnifiedMode {
    /// Registers, shared memory and cache in one pool, divided per kernel (§4.5).
    #[default]
    Full,
    /// Fermi-like: a fixed register file; shared memory and cache split 3:1 or 1:3 (§6.3).
    Fermi,
}

fn default_arbitration() -> bool {
    true
}

fn default_fermi_rf_bytes() -> u32 {
    256 * 1024
}

/// Unified register file / shared memory / L1 storage (MODEL.md section 11; Unified §4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnifiedConfig {
    /// Turns the unified design on; registers, shared memory and cache are partitioned per
    /// kernel out of `capacity_bytes`.
    pub enabled: bool,
    /// `full`: one pool for all three (§4); `fermi`: a fixed register file of `fermi_rf_bytes`
    /// beside a shared/cache pool split 3:1 either way (§6.3).
    #[serde(default)]
    pub mode: UnifiedMode,
    /// The register file `fermi` mode keeps apart (§6.3: 256 KB).
    #[serde(default = "default_fermi_rf_bytes")]
    pub fermi_rf_bytes: u32,
    /// Register accesses win the pool's banks and a shared or cache access waits (§4.3; the
    /// default). `false` is an ablation: warpstep reads every operand from the main register
    /// file, where the paper's register file hierarchy ([9], ORF and LRF) keeps most register
    /// traffic off the pool; off stands for a hierarchy that takes all of it (an upper bound).
    #[serde(default = "default_arbitration")]
    pub arbitration: bool,
    /// Total capacity in bytes (Unified: 384 KB).
    pub capacity_bytes: u32,
    /// Banks (Unified: 32, each capacity/32).
    pub banks: u32,
    /// Bytes per bank row (Unified: 16).
    pub bank_width: u32,
    /// Banks per cluster (Unified: 4, so 8 clusters).
    pub banks_per_cluster: u32,
    /// Ways of the cache carved out of the pool (Unified: 4).
    pub cache_assoc: u32,
    /// Line size of that cache (Unified: 128 B).
    pub cache_line_bytes: u32,
}

/// Energy per access, leakage and SM power (MODEL.md section 11; Unified §5.2, Tables 3-4;
/// docs/energy.md). Read by `crate::energy`, for every configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyConfig {
    /// Partitioned register file, pJ per 16-byte bank read.
    pub rf_read_pj: f64,
    /// Partitioned register file, pJ per 16-byte bank write.
    pub rf_write_pj: f64,
    /// Partitioned shared memory and cache, pJ per 16-byte bank read.
    pub sram_read_pj: f64,
    /// Partitioned shared memory and cache, pJ per 16-byte bank write.
    pub sram_write_pj: f64,
    /// Unified bank, pJ per 16-byte read.
    pub unified_read_pj: f64,
    /// Unified bank, pJ per 16-byte write.
    pub unified_write_pj: f64,
    /// Extra fraction on unified shared/cache accesses for wires and muxes (Unified §5.2: 0.10).
    pub unified_wire_overhead: f64,
    /// DRAM energy, pJ per bit moved (Unified Table 3: 40).
    pub dram_pj_per_bit: f64,
    /// SRAM leakage, mW per KB of register file, shared memory and L1D (or of the unified pool)
    /// in each SM (Unified Table 3: 2.37).
    pub leakage_mw_per_kb: f64,
    /// SM core dynamic power, W per SM, the same for every configuration (Unified Table 3 and
    /// §5.2: 1.9).
    #[serde(default = "default_sm_dynamic_w")]
    pub sm_dynamic_w: f64,
    /// SM core leakage, W per SM, the SRAM's leakage apart (Unified §5.2: 0.7 of the 0.9 W).
    #[serde(default = "default_core_leakage_w")]
    pub core_leakage_w: f64,
    /// The clock that turns cycles into time for the power terms, GHz (Unified Table 3: 1).
    /// Not `clocks.core_mhz`: Table 3's powers belong to its own 1 GHz design point, and the
    /// presets' core clocks time the memory system of other GPUs (docs/energy.md).
    #[serde(default = "default_frequency_ghz")]
    pub frequency_ghz: f64,
    /// Operand register file (4 entries a thread), pJ per 16-byte read, with
    /// `regfile.hierarchy` (docs/energy.md: MICRO'11's ORF figures, recalled, scaled to 16 bytes).
    #[serde(default = "default_orf_read_pj")]
    pub orf_read_pj: f64,
    /// Operand register file, pJ per 16-byte write.
    #[serde(default = "default_orf_write_pj")]
    pub orf_write_pj: f64,
    /// Last result file (1 entry a thread), pJ per 16-byte read.
    #[serde(default = "default_lrf_read_pj")]
    pub lrf_read_pj: f64,
    /// Last result file, pJ per 16-byte write.
    #[serde(default = "default_lrf_write_pj")]
    pub lrf_write_pj: f64,
}

fn default_orf_read_pj() -> f64 {
    1.2
}

fn default_orf_write_pj() -> f64 {
    4.4
}

fn default_lrf_read_pj() -> f64 {
    0.7
}

fn default_lrf_write_pj() -> f64 {
    2.0
}

fn default_sm_dynamic_w() -> f64 {
    1.9
}

fn default_core_leakage_w() -> f64 {
    0.7
}

fn default_frequency_ghz() -> f64 {
    1.0
}
