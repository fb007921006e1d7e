//! The `teaching` preset: warpstep's own small machine to read on a projector (warp size 8, 4
//! warps, 8 banks, short latencies, one small DDR channel), after the book's figures (Figs. 3.4
//! and 3.13) and MODEL.md sections 4 and 9; differences from `fermi` only.

use super::*;

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
