//! Presets: each paper's *baseline* machine, with its mechanism switched off so that it runs
//! today; the mechanism is turned on with `--set elastic.enabled=true` and the like.
//!
//! The paper presets simulate one SM (MODEL.md section 1) in front of the source machine's
//! whole memory system (as GPGPU-Sim's GTX480 file with `-gpgpu_n_clusters 1`); `gtx480` is the
//! whole GTX480 (15 SMs). DRAM bandwidth is never a hand-set number: it follows from the bus,
//! burst and DRAM clock (`Config::dram_peak_bytes_per_core_cycle`). Values that no source gives
//! are marked "warpstep's choice" with the reason.
//!
//! Sources: GPGPU-Sim's `configs/tested-cfgs/SM2_GTX480/gpgpusim.config` (GPGPU-Sim 4) and
//! `configs/TeslaC2050/gpgpusim.config` (3.x), its option defaults in `gpu-sim.cc`, and the
//! design documents: Elastic Table 3 (seed 000), Unified Table 2 (seed 002), MRPB Table 1
//! (seed 004).

use super::*;

/// A named configuration with a one-line description citing its source.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// The name `config show` and `--config` accept.
    pub name: &'static str,
    /// One line: the machine, its source, and which switch turns the paper's mechanism on.
    pub description: &'static str,
    /// Builds the configuration.
    pub build: fn() -> Config,
}

/// Every preset, in the order `config list` prints.
const PRESETS: &[Preset] = &[
    Preset {
        name: "fermi",
        description: "One SM of GPGPU-Sim's SM2_GTX480 in front of the whole GTX480 memory system (6 GDDR5 channels, 12 L2 slices); the default",
        build: fermi,
    },
    Preset {
        name: "gtx480",
        description: "The whole GTX480: the fermi core with 15 SMs sharing L2 and DRAM, as GPGPU-Sim's SM2_GTX480 file",
        build: gtx480,
    },
    Preset {
        name: "tesla-c2050-s",
        description: "MRPB Table 1 Base-S: Tesla C2050, 16 KB 4-way L1D, 48 KB shared (GPGPU-Sim 3.2), 1 SM; MRPB off (--set mrpb.enabled=true)",
        build: tesla_c2050_s,
    },
    Preset {
        name: "tesla-c2050-l",
        description: "MRPB Table 1 Base-L: Tesla C2050, 48 KB 6-way L1D, 16 KB shared (GPGPU-Sim 3.2), 1 SM; MRPB off (--set mrpb.enabled=true)",
        build: tesla_c2050_l,
    },
    Preset {
        name: "elastic-cf11",
        description: "Elastic CF'11 Table 3 baseline GPU: 8-wide SIMD, 8 banks, 16 KB shared, round robin, 1 core; elastic off (--set elastic.enabled=true)",
        build: elastic_cf11,
    },
    Preset {
        name: "unified-micro12",
        description: "Unified MICRO'12 Table 2 baseline partitioned SM: 256 KB RF, 64 KB shared, 64 KB 4-way cache, 1 SM; unified off (--set unified.enabled=true)",
        build: unified_micro12,
    },
    Preset {
        name: "teaching",
        description: "Small machine to read on a projector: warp size 8, 4 warps, 8 banks, short latencies (warpstep's own)",
        build: teaching,
    },
];

/// Every preset, in the order `config list` prints.
pub fn presets() -> &'static [Preset] {
    PRESETS
}

/// The preset called `name`.
pub(super) fn by_name(name: &str) -> Result<Config, ConfigError> {
    match PRESETS.iter().find(|p| p.name == name) {
        Some(p) => Ok((p.build)()),
        None => Err(ConfigError::UnknownPreset {
            name: name.to_string(),
            valid: PRESETS.iter().map(|p| p.name.to_string()).collect(),
        }),
    }
}

fn t(latency: u32, interval: u32) -> OpTiming {
    OpTiming { latency, interval }
}

/// The five GPGPU-Sim classes "ADD,MAX,MUL,MAD,DIV" from latency and interval lists.
fn arith(latency: [u32; 5], interval: [u32; 5]) -> ArithTimings {
    ArithTimings {
        add: t(latency[0], interval[0]),
        max: t(latency[1], interval[1]),
        mul: t(latency[2], interval[2]),
        mad: t(latency[3], interval[3]),
        div: t(latency[4], interval[4]),
    }
}

/// Every class of one data type with the same timing.
fn uniform(latency: u32, interval: u32) -> ArithTimings {
    arith([latency; 5], [interval; 5])
}

/// GPGPU-Sim's GTX480 (Fermi) values, one SM. Every value is from `SM2_GTX480/gpgpusim.config`
/// or a GPGPU-Sim default that file leaves alone, except where noted.
pub(super) fn fermi() -> Config {
    Config {
        num_sms: 1,
        core: fermi_core(),
        regfile: RegFileConfig {
            reg_banks: 16,
            layout: RegLayout::Swizzled, // GPGPU-Sim's register_bank always adds the warp id
            collector_units: CollectorUnits {
                sp: 6,
                sfu: 8,
                dp: 0,
                mem: 2,
            }, // mem: default 2
            collector_read_ports: 1,     // GPGPU-Sim: one bank per collector unit per cycle
            writeback_width: 2,          // EX_WB width in -gpgpu_pipeline_widths
            issue_latch: 1,              // the ID_OC_* pipeline registers
            dispatch_latency: 2,         // dispatch_ready_cu a step later, then OC_EX_*
            hierarchy: false,
            orf_entries: 4,
            lrf_entries: 1,
        },
        units: fermi_units(),
        shmem: SharedMemConfig {
            size_bytes: 49152,
            banks: 32,
            bank_width: 4,
            broadcast: Broadcast::Full, // -gpgpu_shmem_limited_broadcast 0
            warp_parts: 1,
            latency: 26, // -gpgpu_smem_latency
            hash: crate::mem::BankHash::Mod,
            hash_latency: 1, // MODEL.md section 7 default (used only by configurable hashes)
        },
        l1d: L1dConfig {
            config: "N:32:128:4,L:L:m:N:H,S:64:8,8".to_string(),
            latency: 35,                     // -gpgpu_l1_latency
            coalescing: Coalescing::Segment, // -gpgpu_coalesce_arch 20
            // ld.global.nc goes through the L1D, as GPGPU-Sim 4 does with Fermi's files.
            texture_cache: "none".to_string(),
        },
        constant: ConstMemConfig {
            // GPGPU-Sim's L1C: parameter and constant loads miss to the L2 and DRAM.
            model: ConstModel::Cache,
            // warpstep's choice: a constant-cache hit takes the L1D hit latency.
            latency: 35,
            cache: "N:64:64:2,L:R:f:N:L,S:2:32,4".to_string(), // -gpgpu_const_cache:l1
        },
        icnt: IcntConfig {
            // -inter_config_file config_fermi_islip.icnt: one BookSim router (fly, k=27, n=1),
            // one VC per port, iSLIP VC and switch allocation.
            model: IcntModel::Router,
            latency: 1,     // BookSim's fly channels: SetLatency(1)
            flit_bytes: 40, // -icnt_flit_size 40: a 32-byte sector and its 8-byte header
            flits_per_cycle: 1,
            injection_buffer_flits: 9, // input_buffer_size unset: GPGPU-Sim's default 9
            vc_buffer_flits: 64,       // vc_buf_size = 64 (ejection_buffer_size unset: the same)
            internal_speedup: 2,       // internal_speedup = 2.0
        },
        l2: L2Config {
            config: "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32".to_string(),
            sub_partitions_per_channel: 2,
            interleave_bytes: 256, // MODEL.md section 9 (dramid@8 in the address mapping)
            latency: 120,          // -gpgpu_l2_rop_latency
            queue_entries: 64,     // -gpgpu_dram_partition_queues 64:64:64:64
            fill_on_copy: true,    // -gpgpu_perf_sim_memcpy 1
        },
        dram: fermi_gddr5(),
        clocks: ClockConfig {
            // -gpgpu_clock_domains 700.0:700.0:700.0:924.0 (the 1400 MHz shader clock halved:
            // one simulated cycle issues a whole warp to 16-lane pipelines).
            core_mhz: 700.0,
            icnt_mhz: 700.0,
            l2_mhz: 700.0,
            dram_mhz: 924.0,
        },
        elastic: elastic_defaults(),
        mrpb: mrpb_defaults(),
        unified: unified_defaults(),
        energy: energy_defaults(),
    }
}

/// The GTX480's GDDR5 memory (every value from `SM2_GTX480/gpgpusim.config`): 6 channels of two
/// 4-byte chips, burst 8, quad data rate at 924 MHz: a 64-byte column command every `ccd` = 2
/// DRAM cycles, 42.2 bytes per 700 MHz core cycle per channel, 253 for the GPU.
fn fermi_gddr5() -> DramConfig {
    DramConfig {
        channels: 6,           // -gpgpu_n_mem
        chips_per_channel: 2,  // -gpgpu_n_mem_per_ctrlr
        bus_width_bytes: 4,    // -gpgpu_dram_buswidth
        burst_length: 8,       // -gpgpu_dram_burst_length
        data_command_ratio: 4, // -dram_data_command_freq_ratio (GDDR5 is QDR)
        banks: 16,             // nbk
        bank_groups: 4,        // nbkgrp (-dram_bnkgrp_indexing_policy 1: low bank bits)
        // -gpgpu_mem_addr_mapping dramid@8;...0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS
        address_mapping: "RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS".to_string(),
        queue_size: 64,         // -gpgpu_frfcfs_dram_sched_queue_size
        return_queue_size: 116, // -gpgpu_dram_return_queue_size
        latency: 100,           // -dram_latency
        timing: gddr5_hynix(),
    }
}

/// GDDR5 timing of the Hynix H5GQ1H24AFR, `-gpgpu_dram_timing_opt "nbk=16:CCD=2:RRD=6:RCD=12:
/// RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2"` (GTX480 and Tesla C2050
/// files alike).
fn gddr5_hynix() -> DramTiming {
    DramTiming {
        ccd: 2,
        ccdl: 3,
        rrd: 6,
        rcd: 12,
        ras: 28,
        rp: 12,
        rc: 40,
        cl: 12,
        wl: 4,
        cdlr: 5,
        wr: 12,
        rtpl: 2,
    }
}

/// The whole GTX480: `fermi` with the file's `-gpgpu_n_clusters 15` (one SM per cluster).
pub(super) fn gtx480() -> Config {
    Config {
        num_sms: 15,
        ..fermi()
    }
}

fn fermi_core() -> CoreConfig {
    CoreConfig {
        warp_size: 32,
        simd_width: 32, // GPGPU-Sim runs a warp per (halved) core cycle
        max_threads_per_sm: 1536,
        max_warps_per_sm: 48,
        max_ctas_per_sm: 8,
        max_threads_per_cta: 1024, // compute capability 2.0
        registers_per_sm: 32768,
        schedulers_per_sm: 2,
        scheduler: SchedulerPolicy::Gto,
        active_warps: 6, // the file's commented-out two_level_active:6
        ibuffer_entries: 2,
        fetch_width: 2, // GPGPU-Sim decodes two instructions per fetch
        scoreboard_max_entries: None,
        push_order: PushOrder::TakenLast,
        divergence: DivergenceMode::Stack,
        split_policy: SplitPolicy::LowestPc,
        yield_after: DEFAULT_YIELD_AFTER,
        deadlock_cycles: 50_000, // GPGPU-Sim checks progress every 50,000 cycles
        icache: ICacheConfig {
            // GPGPU-Sim's L1I (MODEL.md section 4 makes it optional, perfect by default).
            model: ICacheModel::Cache,
            config: "N:4:128:4,L:R:f:N:L,S:2:32,4".to_string(), // -gpgpu_cache:il1
        },
        strict_barrel: false,
        ccws: CcwsConfig::default(),
    }
}

fn fermi_units() -> UnitsConfig {
    UnitsConfig {
        sp_units: 2,
        sfu_units: 1,
        dp_units: 0,
        ldst_units: 1,
        int: arith([4, 13, 4, 5, 145], [1, 2, 2, 1, 8]),
        fp32: arith([4, 13, 4, 5, 39], [1, 2, 1, 1, 4]),
        fp64: arith([8, 19, 8, 8, 330], [8, 16, 8, 8, 130]),
        sfu: t(8, 8),    // GPGPU-Sim defaults -ptx_opcode_latency_sfu / initiation_sfu
        shfl: t(32, 4),  // sixth entry of -ptx_opcode_latency_int / initiation_int
        other: t(1, 1),  // GPGPU-Sim's default for every other ALU op
        result_latch: 1, // the EX_WB pipeline register
    }
}

/// MODEL.md section 8 and Elastic §3-4 values; off.
fn elastic_defaults() -> ElasticConfig {
    ElasticConfig {
        enabled: false,
        baseline: BaselinePipeline::Decoupled,
        mem_stages: 4,
        shmem_ports: 1,
        history_sets: 256,
        history_ways: 2,
        relaxed_mask: false,
    }
}

/// MRPB Table 4 final design (MODEL.md section 10); off.
fn mrpb_defaults() -> MrpbConfig {
    MrpbConfig {
        enabled: false,
        signature: MrpbSignature::Warp,
        queue_depth: 8,
        latency: 5,
        drain: MrpbDrain::Fixed,
        flush: true,
        bypass: MrpbBypass::Assoc,
    }
}

/// Unified §4 (MODEL.md section 11); off.
fn unified_defaults() -> UnifiedConfig {
    UnifiedConfig {
        enabled: false,
        mode: UnifiedMode::Full,
        fermi_rf_bytes: 256 * 1024, // §6.3
        arbitration: true,
        capacity_bytes: 384 * 1024,
        banks: 32,
        bank_width: 16,
        banks_per_cluster: 4,
        cache_assoc: 4,
        cache_line_bytes: 128,
    }
}

/// Unified §5.2, Tables 3-4 (MODEL.md section 11; docs/energy.md).
fn energy_defaults() -> EnergyConfig {
    EnergyConfig {
        rf_read_pj: 9.8,
        rf_write_pj: 11.8,
        sram_read_pj: 3.9,
        sram_write_pj: 5.1,
        unified_read_pj: 12.1,
        unified_write_pj: 14.9,
        unified_wire_overhead: 0.1,
        dram_pj_per_bit: 40.0,
        leakage_mw_per_kb: 2.37,
        sm_dynamic_w: 1.9,   // Table 3, dynamic power per SM
        core_leakage_w: 0.7, // §5.2: 0.7 W of the 0.9 W leakage per SM is the core's
        frequency_ghz: 1.0,  // Table 3
        // The register file hierarchy's small files (MICRO'11; docs/energy.md: recalled
        // figures, about an eighth of an MRF read, configurable).
        orf_read_pj: 1.2,
        orf_write_pj: 4.4,
        lrf_read_pj: 0.7,
        lrf_write_pj: 2.0,
    }
}

/// MRPB Table 1 Base-S: GPGPU-Sim 3.2's TeslaC2050 config with the L1D of MODEL.md section 9.
/// Differences from `fermi` only.
pub(super) fn tesla_c2050_s() -> Config {
    let mut c = fermi();
    c.core.scheduler = SchedulerPolicy::Lrr; // Table 1: 2 round-robin schedulers per SM
    c.core.max_threads_per_cta = 1024; // Table 1 per-block limit
    c.l1d.config = "N:32:128:4,L:L:m:N:L,A:32:8,8".to_string(); // 16 KB 4-way, 32 MSHRs
                                                                // GPGPU-Sim 3.2 has no separate L1 or shared latency options; warpstep keeps the GTX480
                                                                // values of the same Fermi SM (35 and 26).
    c.shmem.size_bytes = 48 * 1024;
    c.l2.config = "64:128:16,L:B:m:W,A:32:4,4".to_string(); // 6 x 128 KB 16-way
    c.l2.sub_partitions_per_channel = 1; // GPGPU-Sim 3.2: one L2 slice per channel
    c.l2.queue_entries = 8; // -gpgpu_dram_partition_queues default 8:8:8:8
    c.l2.fill_on_copy = false; // GPGPU-Sim 3.2 has no -gpgpu_perf_sim_memcpy: copies bypass the L2

    // GPGPU-Sim's TeslaC2050 file (the paper's simulator): the GTX480's GDDR5, with these
    // differences.
    c.dram.queue_size = 16; // -gpgpu_frfcfs_dram_sched_queue_size 16
    c.dram.return_queue_size = 114; // -gpgpu_dram_return_queue_size 114
    c.icnt.flit_bytes = 32; // GPGPU-Sim 3.2's default -icnt_flit_size
    c.constant.cache = "N:64:64:2,L:R:f:N:L,A:2:32,4".to_string(); // -gpgpu_const_cache:l1
    c.core.icache.config = "N:4:128:4,L:R:f:N:L,A:2:32,4".to_string(); // -gpgpu_cache:il1
                                                                       // The TeslaC2050 file's config_fermi_islip.icnt (configs/deprecated-cfgs/TeslaC2050):
                                                                       // vc_buf_size = 8, internal_speedup = 1.0 (its input_speedup = 2 changes nothing with one
                                                                       // VC per port); the rest as the GTX480's.
    c.icnt.vc_buffer_flits = 8;
    c.icnt.internal_speedup = 1;
    // Table 1 "SM/DRAM clock 1150/750 MHz"; the TeslaC2050 file runs the 1150 MHz shader clock as
    // a 575 MHz core domain (one cycle issues a warp to 16-lane pipelines, as the GTX480 file's
    // 1400/2): -gpgpu_clock_domains 575.0:575.0:575.0:750.0.
    c.clocks = ClockConfig {
        core_mhz: 575.0,
        icnt_mhz: 575.0,
        l2_mhz: 575.0,
        dram_mhz: 750.0,
    };
    c
}

/// MRPB Table 1 Base-L: Base-S with the 48 KB 6-way L1D and 16 KB shared memory.
pub(super) fn tesla_c2050_l() -> Config {
    let mut c = tesla_c2050_s();
    c.l1d.config = "N:64:128:6,L:L:m:N:L,A:32:8,8".to_string();
    c.shmem.size_bytes = 16 * 1024;
    c
}

/// Elastic Table 3's baseline GPU (a modified GPGPU-Sim of 2011, GT200-like). Differences from
/// `fermi` only.
pub(super) fn elastic_cf11() -> Config {
    let mut c = fermi();
    let k = &mut c.core;
    k.simd_width = 8;
    k.max_threads_per_sm = 1024;
    k.max_warps_per_sm = 32;
    k.max_ctas_per_sm = 8;
    k.max_threads_per_cta = 512; // compute capability 1.3
    k.registers_per_sm = 16384;
    k.schedulers_per_sm = 1; // barrel processing, one warp issued per cycle
    k.strict_barrel = true; // Table 3 "execution model: strict barrel processing"
                            // Table 3's in-order 24-stage pipeline; Fig. 4(b)'s split memory stages (warpstep's choice
                            // between the two baselines of Fig. 4: the paper's Fig. 9 compares against one of them and
                            // says which nowhere; split is the stronger).
    c.elastic.baseline = BaselinePipeline::Split;
    k.fetch_width = 1; // MODEL.md section 4: one instruction fetched per cycle
    k.scheduler = SchedulerPolicy::Lrr; // Table 3 "Round-robin"
    c.regfile.reg_banks = 8; // GPGPU-Sim default -gpgpu_num_reg_banks
    c.regfile.writeback_width = 1; // GPGPU-Sim default pipeline widths
                                   // The paper's own pipeline timing (Figs. 4 and 6), not GPGPU-Sim 4's pipeline registers.
    c.regfile.issue_latch = 0;
    c.regfile.dispatch_latency = 0;
    c.units.result_latch = 0;
    c.units.sp_units = 1;
    c.shmem.size_bytes = 16 * 1024;
    c.shmem.banks = 8;
    c.shmem.broadcast = Broadcast::Limited; // GPGPU-Sim default, as on compute 1.x
    c.shmem.warp_parts = 4; // one sub-warp per 8-wide SIMD pass (Elastic §3.1)
    c.shmem.latency = 4; // warpstep's choice: the 4 memory stages of Table 3
    c.constant.latency = 4; // warpstep's choice: as fast as a shared access
    c.l1d.config = "none".to_string(); // Table 3 lists no L1D (GT200 has none)
                                       // GPGPU-Sim's default texture cache (-gpgpu_tex_cache:l1 8:128:5,L:R:m:N,F:128:4,128:2), the
                                       // path of read-only loads (Manavski's AES fetches its round keys from a texture); warpstep
                                       // has no texture-FIFO MSHR (F), so its 128 entries merging 4 are an associative one.
    c.l1d.texture_cache = "N:8:128:5,L:R:m:N:L,A:128:4,128".to_string();
    c.l2.config = "none".to_string(); // nor an L2
    c.icnt.flit_bytes = 32; // Table 3: 32-byte flits
    c.constant.model = ConstModel::Fixed; // warpstep's choice: the paper times no constant cache
    c.core.icache.model = ICacheModel::Perfect; // MODEL.md section 4 default
    c.icnt.model = IcntModel::Crossbar; // MODEL.md section 9: latency and flit bandwidth
    c.icnt.latency = 5; // warpstep's choice (the GTX480 router's loaded latency)
    c.l2.sub_partitions_per_channel = 1;
    c.l2.queue_entries = 8; // GPGPU-Sim default
                            // GDDR3 as GPGPU-Sim's GT200 file (QuadroFX5800) has it; channels, banks and queue from
                            // Table 3.
    c.dram = DramConfig {
        channels: 4,
        chips_per_channel: 2,
        bus_width_bytes: 4,
        burst_length: 4,
        data_command_ratio: 2, // GDDR3 is DDR
        banks: 8,
        bank_groups: 1,
        address_mapping: "RRRR.RRRRRRRR.RRBBBCCC.CCCSSSSS".to_string(),
        queue_size: 32,        // Table 3: 32 DRAM request buffer entries
        return_queue_size: 58, // QuadroFX5800 file
        latency: 100,          // GPGPU-Sim's default -dram_latency
        timing: DramTiming {
            // nbk=8:CCD=2:RRD=8:RCD=12:RAS=25:RP=10:RC=35:CL=10:WL=7:CDLR=6:WR=11
            ccd: 2,
            ccdl: 0,
            rrd: 8,
            rcd: 12,
            ras: 25,
            rp: 10,
            rc: 35,
            cl: 10,
            wl: 7,
            cdlr: 6,
            wr: 11,
            rtpl: 0,
        },
    };
    // warpstep's choice: the 8-wide SIMD runs at the 1300 MHz shader clock; interconnect, L2 and
    // DRAM as the QuadroFX5800 file (-gpgpu_clock_domains 325:650:650:800, its core domain a
    // quarter of the shader clock for 32-wide warps).
    c.clocks = ClockConfig {
        core_mhz: 1300.0,
        icnt_mhz: 650.0,
        l2_mhz: 650.0,
        dram_mhz: 800.0,
    };
    c
}

/// Unified Table 2's baseline partitioned SM (a custom trace-driven SM simulator). Differences
/// from `fermi` only.
pub(super) fn unified_micro12() -> Config {
    let mut c = fermi();
    let k = &mut c.core;
    k.max_threads_per_sm = 1024; // §2.1: up to 1024 resident threads
    k.max_warps_per_sm = 32;
    // warpstep's choice: §2.1 names no CTA limit, so one CTA slot per warp slot (Fermi's 8
    // would hold the unified design's 32 needle CTAs of 32 threads to 8; docs/unified.md).
    k.max_ctas_per_sm = 32;
    k.registers_per_sm = 65536; // 256 KB register file
    k.schedulers_per_sm = 1; // §2.1: single-issue
    k.fetch_width = 1; // MODEL.md section 4: one instruction fetched per cycle
    k.scheduler = SchedulerPolicy::TwoLevel; // §2.1: two-level scheduler
    k.active_warps = 8; // warpstep's choice: the cited two-level scheduler's 8 active warps
                        // 8 clusters x 4 banks of 16 B: a warp register spans one bank per cluster, so a warp sees
                        // 4 banks, registers interleaved across them (§2.1).
    c.regfile.reg_banks = 4;
    c.regfile.layout = RegLayout::Naive;
    c.regfile.writeback_width = 1;
    // The paper's own SM simulator, not GPGPU-Sim's pipeline registers.
    c.regfile.issue_latch = 0;
    c.regfile.dispatch_latency = 0;
    c.units.result_latch = 0;
    c.units.sp_units = 1;
    c.units.int = uniform(8, 1); // ALU latency 8 for every ALU class
    c.units.fp32 = uniform(8, 1);
    c.units.fp64 = uniform(8, 1);
    c.units.shfl = t(8, 1);
    c.units.other = t(8, 1);
    c.units.sfu = t(20, 4); // SFU latency 20; one SFU per 4-lane cluster
    c.shmem.size_bytes = 64 * 1024;
    c.shmem.latency = 20;
    // 64 KB 4-way with 128 B lines (§4); MSHRs and policies as Fermi but for allocation on
    // fill (warpstep's choice; the paper names none): a miss holds an MSHR, not a way, so the
    // 2-4 KB caches the unified partition leaves some kernels (Table 6's 128 KB column) do not
    // cap the misses in flight at their few lines (docs/unified.md).
    c.l1d.config = "N:128:128:4,L:L:f:N:L,A:32:8,8".to_string();
    c.l1d.latency = 20; // warpstep's choice: the same SRAM latency as shared memory
    c.constant.latency = 20;
    c.l2.config = "none".to_string(); // the SM talks to DRAM directly
    c.l2.sub_partitions_per_channel = 1;
    c.icnt.model = IcntModel::Crossbar; // §5: no network, only DRAM latency and bandwidth
    c.constant.model = ConstModel::Fixed; // §5 models no constant cache
    c.core.icache.model = ICacheModel::Perfect; // nor an instruction cache
    c.icnt.latency = 0;
    // §5: DRAM latency 400 and 8 bytes per cycle for the one SM, no row model. warpstep's
    // choice to express that: one channel of one 4-byte DDR chip at the core clock (8 B per
    // cycle), bank timing that costs nothing, and the 400 cycles as controller latency.
    c.dram = DramConfig {
        channels: 1,
        chips_per_channel: 1,
        bus_width_bytes: 4,
        burst_length: 4,
        data_command_ratio: 2,
        banks: 16,
        bank_groups: 1,
        address_mapping: "RRRR.RRRRRRRR.BBBBCCCC.CCSSSSSS".to_string(),
        queue_size: 64,
        return_queue_size: 116,
        latency: 398,
        timing: DramTiming {
            ccd: 2,
            ccdl: 0,
            rrd: 0,
            rcd: 0,
            ras: 0,
            rp: 0,
            rc: 0,
            cl: 1,
            wl: 1,
            cdlr: 0,
            wr: 0,
            rtpl: 0,
        },
    };
    c.clocks = ClockConfig {
        core_mhz: 1000.0,
        icnt_mhz: 1000.0,
        l2_mhz: 1000.0,
        dram_mhz: 1000.0,
    };
    c
}

/// warpstep's own small machine for the projector: every structure fits on screen.
pub(super) fn teaching() -> Config {
    let mut c = fermi();
    let k = &mut c.core;
    k.warp_size = 8;
    k.simd_width = 8;
    k.max_threads_per_sm = 32;
    k.max_warps_per_sm = 4;
    k.max_ctas_per_sm = 4;
    k.max_threads_per_cta = 32;
    k.registers_per_sm = 1024;
    k.schedulers_per_sm = 1;
    k.scheduler = SchedulerPolicy::Lrr;
    k.active_warps = 2;
    k.push_order = PushOrder::FallthroughLast; // as the book's Fig. 3.4
    k.fetch_width = 1; // MODEL.md section 4: one instruction fetched per cycle
    k.deadlock_cycles = 1000;
    c.regfile = RegFileConfig {
        reg_banks: 4, // as the book's Fig. 3.13
        layout: RegLayout::Naive,
        collector_units: CollectorUnits {
            sp: 2,
            sfu: 1,
            dp: 0,
            mem: 1,
        },
        collector_read_ports: 1,
        writeback_width: 1,
        // The book's figures: read the cycle after issue, dispatched in the cycle of the last
        // read, written back the cycle after the last stage.
        issue_latch: 0,
        dispatch_latency: 0,
        hierarchy: false,
        orf_entries: 4,
        lrf_entries: 1,
    };
    c.units = teaching_units();
    c.shmem.size_bytes = 4096;
    c.shmem.banks = 8;
    c.shmem.latency = 2;
    c.l1d.config = "N:4:128:2,L:L:m:N:L,A:4:4,4".to_string(); // 1 KB, 8 lines
    c.l1d.latency = 4;
    c.constant.latency = 2;
    c.icnt.model = IcntModel::Crossbar; // MODEL.md section 9: latency and flit bandwidth
    c.icnt.latency = 2;
    c.constant.model = ConstModel::Fixed; // constant loads as fast as shared ones
    c.core.icache.model = ICacheModel::Perfect; // MODEL.md section 4 default
    c.l2 = L2Config {
        config: "N:8:128:4,L:B:m:W:L,A:8:4,4".to_string(), // 4 KB
        sub_partitions_per_channel: 1,
        interleave_bytes: 256,
        latency: 10,
        queue_entries: 4,
        fill_on_copy: false, // a cold cache to watch fill
    };
    // warpstep's own: one small DDR channel at the core clock (8 B per cycle), two banks of
    // 1 KB rows, short timing, so a row switch is visible.
    c.dram = DramConfig {
        channels: 1,
        chips_per_channel: 1,
        bus_width_bytes: 4,
        burst_length: 4,
        data_command_ratio: 2,
        banks: 2,
        bank_groups: 1,
        address_mapping: "RRRRRRRR.RRRRRRBC.CCCCSSSS".to_string(),
        queue_size: 8,
        return_queue_size: 8,
        latency: 10,
        timing: DramTiming {
            ccd: 2,
            ccdl: 0,
            rrd: 2,
            rcd: 4,
            ras: 8,
            rp: 4,
            rc: 12,
            cl: 4,
            wl: 2,
            cdlr: 2,
            wr: 4,
            rtpl: 0,
        },
    };
    c.clocks = ClockConfig {
        core_mhz: 1000.0,
        icnt_mhz: 1000.0,
        l2_mhz: 1000.0,
        dram_mhz: 1000.0,
    };
    c
}

fn teaching_units() -> UnitsConfig {
    UnitsConfig {
        sp_units: 1,
        sfu_units: 1,
        dp_units: 0,
        ldst_units: 1,
        int: arith([2, 2, 2, 2, 8], [1, 1, 1, 1, 4]),
        fp32: arith([2, 2, 2, 2, 8], [1, 1, 1, 1, 4]),
        fp64: arith([4, 4, 4, 4, 16], [2, 2, 2, 2, 8]),
        sfu: t(4, 2),
        shfl: t(2, 1),
        other: t(1, 1),
        result_latch: 0, // the book's figures
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_descriptions_one_line() {
        let mut names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PRESETS.len());
        assert!(PRESETS.iter().all(|p| !p.description.contains('\n')));
    }

    #[test]
    fn every_preset_validates_and_runs_today() {
        for p in PRESETS {
            let c = (p.build)();
            c.validate().unwrap_or_else(|e| panic!("{}: {e}", p.name));
            c.check_supported()
                .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        }
    }
}
