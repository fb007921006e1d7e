//! GPGPU-Sim's GTX480 (Fermi): the `fermi` preset, one SM in front of the whole GTX480 memory
//! system, and `gtx480`, all 15 SMs, from `configs/tested-cfgs/SM2_GTX480/gpgpusim.config`
//! (GPGPU-Sim 4) and its option defaults in `gpu-sim.cc`: the core, its units, the GDDR5
//! channels and the Hynix H5GQ1H24AFR timing. Every other preset starts from `fermi`.

use super::*;

/// GPGPU-Sim's GTX480 (Fermi) values, one SM. Every value is from `SM2_GTX480/gpgpusim.config`
/// or a GPGPU-Sim default that file leaves alone, except where noted.
pub(in crate::config) fn fermi() -> Config {
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
