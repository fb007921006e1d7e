//! Configuration of the SM pipeline: front end, scheduling and SIMT stack (`core`), register file
//! and operand collector (`regfile`), execution units (`units`). MODEL.md sections 3-6.

use serde::{Deserialize, Serialize};

/// Warp scheduling policy of each scheduler (MODEL.md section 4; book §4.3 / §5.1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerPolicy {
    /// Loose round robin: the warp after the last issued one first (GPGPU-Sim `lrr`).
    Lrr,
    /// Greedy then oldest: the last issued warp first, then the oldest (GPGPU-Sim `gto`).
    Gto,
    /// Two-level: an active set of `core.active_warps`; a warp waiting on a long-latency load
    /// leaves it, pending warps enter round-robin (Narasiman et al.; GPGPU-Sim `two_level_active`).
    TwoLevel,
    /// Elastic §4: memory warps masked while a predicted bank conflict drains (MODEL.md section 8).
    BankConflictAware,
}

/// Which path of a divergent branch is pushed last, i.e. runs first (MODEL.md section 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PushOrder {
    /// Taken path on top (GPGPU-Sim).
    TakenLast,
    /// Fall-through path on top (the book's Fig. 3.4(c)).
    FallthroughLast,
    /// The path with fewer active lanes on top (the book's advice: depth <= log2(warp)+1).
    SmallerLast,
}

/// How a warp's lanes diverge and reconverge (issue 15).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DivergenceMode {
    /// The pre-Volta SIMT reconvergence stack (book section 3.1.1, MODEL.md section 3).
    #[default]
    Stack,
    /// Independent thread scheduling: per-thread rPCs, warp splits and convergence barriers
    /// placed by the compiler (book section 3.1.2, Figs. 3.6-3.11).
    ConvergenceBarriers,
}

/// Which ready warp split the scheduler issues from under `convergence_barriers` (book
/// section 3.1.2: "the scheduler selects a warp split"; the book names no policy).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SplitPolicy {
    /// The split with the lowest PC (paths run one after the other, as Fig. 3.9).
    #[default]
    LowestPc,
    /// Rotate over the splits, named by their lowest lane (paths interleave, as Fig. 3.10).
    RoundRobin,
}

/// The divergence settings a warp is created with: `core.divergence`, `core.split_policy`,
/// `core.yield_after`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Divergence {
    pub mode: DivergenceMode,
    pub split_policy: SplitPolicy,
    /// Instructions a split may issue without forward progress before it yields (0: never).
    pub yield_after: u32,
}

/// Instruction cache model (MODEL.md section 4: "instruction cache optional, perfect by default").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ICacheModel {
    /// Every fetch hits.
    Perfect,
    /// A cache shaped by `core.icache.config` whose misses go to L2.
    Cache,
}

/// The instruction cache in front of fetch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ICacheConfig {
    /// Perfect or a real cache (MODEL.md section 4).
    pub model: ICacheModel,
    /// GPGPU-Sim cache string of the instruction cache (`-gpgpu_cache:il1`), used when `model`
    /// is `cache`; always checked.
    pub config: String,
}

/// The SM front end, warp scheduling and SIMT stack (MODEL.md sections 1, 3, 4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoreConfig {
    /// Threads per warp, the SIMT width (book §3; GPGPU-Sim `-gpgpu_shader_core_pipeline`).
    pub warp_size: u32,
    /// Lanes that execute per cycle; a warp takes warp_size / simd_width cycles in a unit
    /// (MODEL.md section 6; Elastic Table 3 "8-wide SIMD").
    pub simd_width: u32,
    /// Resident threads per SM (book §5.1; GPGPU-Sim `-gpgpu_shader_core_pipeline`).
    pub max_threads_per_sm: u32,
    /// Resident warps per SM, the hardware warp slots (MRPB Table 1 "48 warps").
    pub max_warps_per_sm: u32,
    /// Resident CTAs per SM (GPGPU-Sim `-gpgpu_shader_cta`).
    pub max_ctas_per_sm: u32,
    /// Largest CTA a launch may use (MRPB Table 1 "per-block limit 1024 threads").
    pub max_threads_per_cta: u32,
    /// 32-bit registers per SM, shared by resident threads (GPGPU-Sim `-gpgpu_shader_registers`).
    pub registers_per_sm: u32,
    /// Warp schedulers per SM; warp w goes to scheduler w % schedulers (MODEL.md section 4).
    pub schedulers_per_sm: u32,
    /// Scheduling policy of every scheduler (MODEL.md section 4).
    pub scheduler: SchedulerPolicy,
    /// Size of the active set per scheduler for `two_level` (MODEL.md section 4).
    pub active_warps: u32,
    /// Cache-conscious wavefront scheduling over `lrr` or `gto` (Rogers, O'Connor and Aamodt,
    /// MICRO 2012; the book's section 5.1.2): the static wavefront limit and the dynamic
    /// lost-locality throttle (`core::ccws`). Both off unless set.
    #[serde(default)]
    pub ccws: CcwsConfig,
    /// I-buffer entries per warp (MODEL.md section 4, default 2).
    pub ibuffer_entries: u32,
    /// Consecutive instructions one fetch brings into one warp's I-buffer; a warp is fetched
    /// for when its I-buffer has room for them all (MODEL.md section 4: one; GPGPU-Sim's
    /// `shader_core_ctx::decode` takes two per fetch, so two schedulers can each issue one).
    pub fetch_width: u32,
    /// Scoreboard entries per warp, or null for no limit (MODEL.md section 4; Coon et al.: 3-4).
    pub scoreboard_max_entries: Option<u32>,
    /// SIMT stack push order at a divergent branch (MODEL.md section 3).
    pub push_order: PushOrder,
    /// How lanes diverge and reconverge: the SIMT stack or convergence barriers (issue 15;
    /// book sections 3.1.1 and 3.1.2).
    #[serde(default)]
    pub divergence: DivergenceMode,
    /// Under `convergence_barriers`, which warp split issues (book section 3.1.2).
    #[serde(default)]
    pub split_policy: SplitPolicy,
    /// Under `convergence_barriers`, the instructions a warp split may issue without forward
    /// progress (no register or memory value changed, no lane exited) before it executes a
    /// YIELD, so the warp's other threads run (book Fig. 3.11); 0 never yields.
    #[serde(default = "default_yield_after")]
    pub yield_after: u32,
    /// Cycles without any issue in the SM, with warps left, before a deadlock is reported
    /// (MODEL.md section 3; book Fig. 3.5).
    pub deadlock_cycles: u32,
    /// Instruction cache (MODEL.md section 4).
    pub icache: ICacheConfig,
    /// Strict barrel processing (Elastic Table 3 and §6): a warp issues its next instruction
    /// only after its previous one has written back, so its in-flight instructions never
    /// overlap (`barrel` stalls). Off: a warp issues whenever its scoreboard allows.
    #[serde(default)]
    pub strict_barrel: bool,
}

/// Cache-conscious wavefront scheduling (CCWS, MICRO 2012; book section 5.1.2), switches over
/// the base policy `core.scheduler` (`lrr` or `gto`). Defaults: the released CCWS simulator's
/// `QuadroFX5800-CCWS` configuration (`-gpgpu_victim_cache:dl1 N,2:128:8:F:...` and
/// `-point_scheduling_sys -1,0,0,0,-1,-1,100,-1,8,8,0`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CcwsConfig {
    /// SWL, static wavefront limiting (MICRO 2012 §5's "Best-SWL"): only the `swl_warps` oldest
    /// running warps of the SM may be scheduled (`core::ccws`); 0 is off.
    pub swl_warps: u32,
    /// Dynamic CCWS: lost intra-warp locality detected by per-warp victim tag arrays raises a
    /// warp's locality score; warps past the cumulative cutoff may not issue global or local
    /// loads (MICRO 2012 §4; the book's Fig. 5.1).
    pub dynamic: bool,
    /// Sets of each warp's victim tag array (the CCWS sources: 2).
    pub vta_sets: u32,
    /// Ways of each warp's victim tag array, FIFO replaced (the CCWS sources: 8; 16 tags a warp).
    pub vta_ways: u32,
    /// Every warp's initial locality score; the cutoff is this times the running warps (the
    /// CCWS sources: 100).
    pub base_score: u32,
    /// K_THROTTLE: a victim tag hit sets the warp's score to (VTA hits / instructions issued)
    /// x K_THROTTLE x cutoff, at least the base (the CCWS sources: 8).
    pub k_throttle: u32,
    /// Points a score above the base loses every cycle (the CCWS sources: 1).
    pub decay: u32,
}

impl Default for CcwsConfig {
    fn default() -> CcwsConfig {
        CcwsConfig {
            swl_warps: 0,
            dynamic: false,
            vta_sets: 2,
            vta_ways: 8,
            base_score: 100,
            k_throttle: 8,
            decay: 1,
        }
    }
}

impl CcwsConfig {
    /// Whether either switch is on.
    pub fn on(&self) -> bool {
        self.swl_warps > 0 || self.dynamic
    }
}

fn default_yield_after() -> u32 {
    DEFAULT_YIELD_AFTER
}

/// `core.yield_after` unless set: a few turns of a spin loop (the book gives no number).
pub const DEFAULT_YIELD_AFTER: u32 = 16;

impl CoreConfig {
    /// The divergence settings new warps are created with.
    pub fn divergence(&self) -> Divergence {
        Divergence {
            mode: self.divergence,
            split_policy: self.split_policy,
            yield_after: self.yield_after,
        }
    }
}

/// Register-to-bank mapping (MODEL.md section 5; book Figs. 3.13, 3.16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RegLayout {
    /// bank = reg mod banks (Fig. 3.13).
    Naive,
    /// bank = (reg + warp) mod banks (Fig. 3.16; GPGPU-Sim `register_bank` with warp shift).
    Swizzled,
}

/// Collector units per execution-unit type (MODEL.md section 5;
/// GPGPU-Sim `-gpgpu_operand_collector_num_units_*`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectorUnits {
    /// Collector units holding operands for the SP units (MODEL.md section 5).
    pub sp: u32,
    /// Collector units holding operands for the SFU (MODEL.md section 5).
    pub sfu: u32,
    /// Collector units for the DP unit, 0 when `units.dp_units` is 0 (MODEL.md section 5).
    pub dp: u32,
    /// Collector units holding operands for the LD/ST unit (MODEL.md section 5).
    pub mem: u32,
}

/// Register file banks and operand collector (MODEL.md section 5; book §3.3.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegFileConfig {
    /// Single-ported register banks (GPGPU-Sim `-gpgpu_num_reg_banks`).
    pub reg_banks: u32,
    /// Register-to-bank mapping.
    pub layout: RegLayout,
    /// Collector units per unit type.
    pub collector_units: CollectorUnits,
    /// Operands one collector unit may receive from the banks per cycle. 1 as GPGPU-Sim, whose
    /// arbiter (`opndcoll_rfu_t::arbiter_t::allocate_reads`) matches each collector unit to at
    /// most one bank per cycle (book Fig. 3.17); 3 or more models the single staging register of
    /// the naive design, which takes all of `mad`'s operands in one cycle (book Figs. 3.12, 3.14).
    pub collector_read_ports: u32,
    /// Results written back per cycle; excess results wait (MODEL.md section 6; GPGPU-Sim EX_WB
    /// pipeline width).
    pub writeback_width: u32,
    /// Cycles an issued instruction spends in the pipeline register between the issue stage and
    /// its collector unit before the unit starts reading banks. GPGPU-Sim: 1, its ID_OC_*
    /// registers (`-gpgpu_pipeline_widths`): `shader_core_ctx::issue_warp` writes them,
    /// `opndcoll_rfu_t::allocate_cu` takes the instruction into a collector unit the next cycle,
    /// and `opndcoll_rfu_t::step` runs `allocate_reads` before `allocate_cu`, so the first read
    /// is two cycles after issue. 0: reads start the cycle after issue (the book's Figs. 3.14
    /// and 3.17). MODEL.md section 5 is silent; warpstep counts the collector unit as taken at
    /// issue, which GPGPU-Sim's register plus one cycle's earlier release balance.
    #[serde(default)]
    pub issue_latch: u32,
    /// Cycles from an instruction's last operand read until its execution unit takes it (the
    /// cycle an ALU instruction is dispatched, a memory instruction enters MEM0). GPGPU-Sim: 2:
    /// `opndcoll_rfu_t::dispatch_ready_cu` runs at the start of the next step, before
    /// `allocate_reads`, moving the instruction into the OC_EX_* register, and
    /// `shader_core_ctx::execute` moves it into the unit's `m_dispatch_reg` the cycle after.
    /// The collector unit is free once the instruction leaves it; on the way the instruction
    /// holds one of `dispatch_latency` places per execution unit of its kind (the OC_EX
    /// register and the dispatch register). 0: dispatched in the cycle of the last read (the
    /// book's Fig. 3.17: w1 reads its last operand in cycle 2 and executes in cycle 3).
    #[serde(default)]
    pub dispatch_latency: u32,
    /// The software-controlled register file hierarchy of Gebhart et al. (MICRO'11; MICRO'12
    /// §2.1, §4.3): an operand register file and a last result file in front of this banked
    /// (main) register file, allocated per instruction at kernel load
    /// (`core::register_hierarchy`). Operands read from them claim no bank. Off in every preset.
    #[serde(default)]
    pub hierarchy: bool,
    /// ORF entries per thread with `hierarchy` on (MICRO'12 §2.1: 4).
    #[serde(default = "default_orf_entries")]
    pub orf_entries: u32,
    /// LRF entries per thread with `hierarchy` on, 0 or 1 (MICRO'12 §2.1: 1).
    #[serde(default = "default_lrf_entries")]
    pub lrf_entries: u32,
}

fn default_orf_entries() -> u32 {
    4
}

fn default_lrf_entries() -> u32 {
    1
}

/// Latency and initiation interval of one opcode class (MODEL.md section 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpTiming {
    /// Cycles from dispatch until the result can be written back (MODEL.md section 6).
    pub latency: u32,
    /// Cycles the unit stays busy before it accepts the next warp instruction; the model uses
    /// at least warp_size / simd_width (MODEL.md section 6).
    pub interval: u32,
}

/// GPGPU-Sim's five arithmetic classes of one data type (`-ptx_opcode_latency_int/fp/dp` and
/// `-ptx_opcode_initiation_*`, "ADD,MAX,MUL,MAD,DIV").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArithTimings {
    /// add, sub (and addc/subc).
    pub add: OpTiming,
    /// min, max.
    pub max: OpTiming,
    /// mul (mul24: this + 1 cycle, as GPGPU-Sim).
    pub mul: OpTiming,
    /// mad, fma (mad24: this + 1 cycle, as GPGPU-Sim).
    pub mad: OpTiming,
    /// div, rem (GPGPU-Sim runs them on the SFU).
    pub div: OpTiming,
}

/// Execution units and per-opcode-class timing (MODEL.md section 6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitsConfig {
    /// SP (integer and fp32) units (GPGPU-Sim `-gpgpu_num_sp_units`).
    pub sp_units: u32,
    /// Special-function units (GPGPU-Sim `-gpgpu_num_sfu_units`).
    pub sfu_units: u32,
    /// Double-precision units; 0 runs fp64 on the SFU, as GPGPU-Sim's Fermi configs do.
    pub dp_units: u32,
    /// Load/store units (one in GPGPU-Sim).
    pub ldst_units: u32,
    /// Integer classes (`-ptx_opcode_latency_int`).
    pub int: ArithTimings,
    /// Single-precision classes (`-ptx_opcode_latency_fp`).
    pub fp32: ArithTimings,
    /// Double-precision classes (`-ptx_opcode_latency_dp`).
    pub fp64: ArithTimings,
    /// sqrt, rsqrt, rcp, sin, cos, lg2, ex2 on the SFU (`-ptx_opcode_latency_sfu`).
    pub sfu: OpTiming,
    /// shfl (GPGPU-Sim's sixth integer class).
    pub shfl: OpTiming,
    /// Every other ALU instruction (mov, logic, setp, cvt, ...): GPGPU-Sim gives them 1 and 1.
    pub other: OpTiming,
    /// Pipeline registers an SP, SFU or DP result passes after the unit's last stage before it
    /// is written back. GPGPU-Sim: 1, the EX_WB register: `pipelined_simd_unit::cycle` moves a
    /// finished result from `m_pipeline_reg[0]` into its result port (EX_WB) and
    /// `shader_core_ctx::writeback` writes it the next cycle, so a result is written back
    /// `latency + 2` cycles after the instruction entered `m_dispatch_reg`. (The LD/ST unit's
    /// shared path has the same shape already: MEM0, `shmem.latency`, then `m_next_wb`.)
    /// 0: written back the cycle after the last stage (the book's Figs. 3.14 and 3.17).
    #[serde(default)]
    pub result_latch: u32,
}
