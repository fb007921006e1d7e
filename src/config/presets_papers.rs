//! The papers' baseline machines, each with its mechanism off (differences from `fermi` only):
//! MRPB Table 1's Base-S and Base-L (GPGPU-Sim 3.2's `configs/TeslaC2050/gpgpusim.config`),
//! Elastic Table 3's baseline GPU (CF'11) and Unified Table 2's partitioned SM (MICRO'12).

use super::*;

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
