//! The energy of a run (Gebhart et al., MICRO'12, "Unifying Primary Cache, Scratch, and Register
//! File Memories in a Throughput Processor", §5.2 "Energy Model", Tables 3-4; MODEL.md section
//! 11; docs/energy.md), for every configuration, partitioned or unified.
//!
//! A run's energy has eight parts, each in picojoules:
//! 1. **register file**: 16-byte bank reads and writes. A warp register is `warp_size` lanes of 4
//!    bytes, so one read or write of it is `warp_size * 4 / 16` bank accesses (8 for 32 lanes),
//!    whatever the active mask: the whole row is read or written. Reads are the operands the
//!    collector units receive, writes the destinations results write back (predicates, which
//!    live in their own file, excluded).
//!    With `regfile.hierarchy` (MICRO'11; `core::register_hierarchy`) these are the main
//!    register file's accesses only, and part 8 holds the rest.
//! 2. **shared memory**: 16-byte rows, counted per pass of each sub-warp (the distinct rows the
//!    lanes served in that pass touch); reads and writes priced apart.
//! 3. **L1D**: 16-byte data-array reads (a hit's data, a dirty victim read out) and writes (a
//!    fill's atom, a write hit kept in the line).
//! 4. **DRAM**: the bytes the data buses carried (column commands x atom) x 8 x pJ per bit.
//! 5. **SRAM leakage**: mW per KB x KB of SRAM per SM x SMs x run time. Partitioned: register
//!    file (`core.registers_per_sm` x 4 bytes) + shared memory (`shmem.size_bytes`) + L1D (its
//!    cache string's size, 0 for `none`); unified: `unified.capacity_bytes`.
//! 6. **SM dynamic**: W per SM x SMs x run time (Table 3: 1.9 W, constant across
//!    configurations, §5.2).
//! 7. **core leakage**: W per SM x SMs x run time (§5.2: 0.7 W of the SM's 0.9 W).
//! 8. **register hierarchy** (listed second in [`EnergyReport::parts`]): the operand register
//!    file's and last result file's reads and writes, 16 bytes at a time as for the register
//!    file, at `orf_read_pj`/`orf_write_pj` and `lrf_read_pj`/`lrf_write_pj` (0 without
//!    `regfile.hierarchy`; docs/energy.md says where those numbers come from).
//!
//! Run time is cycles / `energy.frequency_ghz` (Table 3: 1 GHz); mW x ns = pJ, W x ns = nJ.
//!
//! Pricing (Table 4 and §5.2 "Wiring Energy"): partitioned, the register file at
//! `rf_read_pj`/`rf_write_pj` (256 KB RF of 8 KB banks: 9.8/11.8), shared memory and L1D at
//! `sram_read_pj`/`sram_write_pj` (2 KB banks: 3.9/5.1); unified (`unified.enabled`), all three
//! at `unified_read_pj`/`unified_write_pj` (12 KB banks: 12.1/14.9), and shared memory and L1D
//! accesses x (1 + `unified_wire_overhead`) (10% for the 4:1 mux and longer crossbar wires).
//!
//! [`EnergyCounts`] are gathered from the run's counters (the operand collector, the writeback
//! stage, the LD/ST unit's `SharedStats`, the L1D's data array, the DRAM channels) by
//! `Sim::energy_counts`; [`price`] is a pure function of the configuration, those counts and
//! the cycle count, cheap enough to call every cycle.

use crate::config::Config;
use serde::Serialize;

/// Bytes in one bank access of Table 4 ("Energy for 16-byte SRAM bank access").
pub const ACCESS_BYTES: u64 = 16;

/// What a run did that costs energy, summed over the SMs: bank accesses of 16 bytes, and DRAM
/// bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct EnergyCounts {
    /// Register-file bank reads: warp registers read x [`register_accesses`].
    pub rf_reads: u64,
    /// Register-file bank writes: warp registers written x [`register_accesses`].
    pub rf_writes: u64,
    /// Shared-memory 16-byte rows read, per sub-warp pass.
    pub shared_reads: u64,
    /// Shared-memory 16-byte rows written, per sub-warp pass.
    pub shared_writes: u64,
    /// L1D data-array 16-byte reads.
    pub l1d_reads: u64,
    /// L1D data-array 16-byte writes.
    pub l1d_writes: u64,
    /// Bytes the DRAM data buses carried, read and written.
    pub dram_bytes: u64,
    /// Register file hierarchy (`regfile.hierarchy`; MICRO'11): operand register file and last
    /// result file 16-byte reads and writes, warp registers x [`register_accesses`]. Left out of
    /// the JSON when 0, so runs without the hierarchy serialise as before.
    #[serde(skip_serializing_if = "is_zero")]
    pub orf_reads: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub orf_writes: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub lrf_reads: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub lrf_writes: u64,
}

/// For `skip_serializing_if`: a counter that only some runs have stays out of the JSON (and the
/// state digests recorded before it existed) while it is zero.
pub(crate) fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl EnergyCounts {
    /// Adds `other`'s counts to these (a program of several launches).
    pub fn add(&mut self, other: &EnergyCounts) {
        self.rf_reads += other.rf_reads;
        self.rf_writes += other.rf_writes;
        self.shared_reads += other.shared_reads;
        self.shared_writes += other.shared_writes;
        self.l1d_reads += other.l1d_reads;
        self.l1d_writes += other.l1d_writes;
        self.dram_bytes += other.dram_bytes;
        self.orf_reads += other.orf_reads;
        self.orf_writes += other.orf_writes;
        self.lrf_reads += other.lrf_reads;
        self.lrf_writes += other.lrf_writes;
    }
}

/// A run's energy by part, in picojoules (`warpstep run --json`'s `energy`), with the counts
/// and sizes it was priced from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct EnergyReport {
    /// Register-file bank reads and writes.
    pub register_file_pj: f64,
    /// Operand register file and last result file reads and writes (0 without
    /// `regfile.hierarchy`).
    pub register_hierarchy_pj: f64,
    /// Shared-memory bank reads and writes.
    pub shared_memory_pj: f64,
    /// L1D data-array reads and writes.
    pub l1d_pj: f64,
    /// DRAM transfers.
    pub dram_pj: f64,
    /// Leakage of the register file, shared memory and L1D (or the unified pool).
    pub sram_leakage_pj: f64,
    /// The SMs' core dynamic energy.
    pub sm_dynamic_pj: f64,
    /// The SMs' core leakage.
    pub core_leakage_pj: f64,
    /// The sum of the parts above.
    pub total_pj: f64,
    /// The counts priced.
    pub counts: EnergyCounts,
    /// SRAM per SM that leaks, in KB (1024 bytes).
    pub sram_kb_per_sm: f64,
    /// Run time: cycles / `energy.frequency_ghz`, in nanoseconds.
    pub time_ns: f64,
    /// Priced as the unified design (`unified.enabled`).
    pub unified: bool,
}

/// Bank accesses one read or write of a warp register takes: `warp_size` lanes x 4 bytes in
/// 16-byte accesses, at least one.
pub fn register_accesses(warp_size: u32) -> u64 {
    (u64::from(warp_size) * 4).div_ceil(ACCESS_BYTES).max(1)
}

/// Bytes of SRAM per SM whose leakage is charged: the unified pool, or the register file,
/// shared memory and L1D of the partitioned design (MODEL.md section 11).
pub fn sram_bytes_per_sm(config: &Config) -> u64 {
    if config.unified.enabled {
        return u64::from(config.unified.capacity_bytes);
    }
    let registers = u64::from(config.core.registers_per_sm) * 4;
    let shared = u64::from(config.shmem.size_bytes);
    let l1d = config
        .l1d_cache()
        .ok()
        .flatten()
        .map_or(0, |spec| spec.size_bytes());
    registers + shared + l1d
}

/// Prices `counts` and `cycles` under `config` (see the module documentation).
pub fn price(config: &Config, counts: &EnergyCounts, cycles: u64) -> EnergyReport {
    let e = &config.energy;
    let unified = config.unified.enabled;
    // (register read, register write, shared/cache read, shared/cache write), pJ per access.
    let (rf_read, rf_write, mem_read, mem_write) = if unified {
        let wires = 1.0 + e.unified_wire_overhead;
        (
            e.unified_read_pj,
            e.unified_write_pj,
            e.unified_read_pj * wires,
            e.unified_write_pj * wires,
        )
    } else {
        (e.rf_read_pj, e.rf_write_pj, e.sram_read_pj, e.sram_write_pj)
    };
    let c = counts;
    let f = |n: u64| n as f64;
    let register_file_pj = f(c.rf_reads) * rf_read + f(c.rf_writes) * rf_write;
    let register_hierarchy_pj = f(c.orf_reads) * e.orf_read_pj
        + f(c.orf_writes) * e.orf_write_pj
        + f(c.lrf_reads) * e.lrf_read_pj
        + f(c.lrf_writes) * e.lrf_write_pj;
    let shared_memory_pj = f(c.shared_reads) * mem_read + f(c.shared_writes) * mem_write;
    let l1d_pj = f(c.l1d_reads) * mem_read + f(c.l1d_writes) * mem_write;
    let dram_pj = f(c.dram_bytes) * 8.0 * e.dram_pj_per_bit;
    let time_ns = f(cycles) / e.frequency_ghz;
    let sms = f64::from(config.num_sms);
    let sram_kb_per_sm = sram_bytes_per_sm(config) as f64 / 1024.0;
    // mW x ns = pJ; W x ns = nJ = 1000 pJ.
    let sram_leakage_pj = e.leakage_mw_per_kb * sram_kb_per_sm * sms * time_ns;
    let sm_dynamic_pj = e.sm_dynamic_w * 1000.0 * sms * time_ns;
    let core_leakage_pj = e.core_leakage_w * 1000.0 * sms * time_ns;
    let total_pj = register_file_pj
        + register_hierarchy_pj
        + shared_memory_pj
        + l1d_pj
        + dram_pj
        + sram_leakage_pj
        + sm_dynamic_pj
        + core_leakage_pj;
    EnergyReport {
        register_file_pj,
        register_hierarchy_pj,
        shared_memory_pj,
        l1d_pj,
        dram_pj,
        sram_leakage_pj,
        sm_dynamic_pj,
        core_leakage_pj,
        total_pj,
        counts: *counts,
        sram_kb_per_sm,
        time_ns,
        unified,
    }
}

impl EnergyReport {
    /// The parts in order, with their JSON names (for the CLI's summary line and the app's
    /// stacked bar).
    pub fn parts(&self) -> [(&'static str, f64); 8] {
        [
            ("register_file_pj", self.register_file_pj),
            ("register_hierarchy_pj", self.register_hierarchy_pj),
            ("shared_memory_pj", self.shared_memory_pj),
            ("l1d_pj", self.l1d_pj),
            ("dram_pj", self.dram_pj),
            ("sram_leakage_pj", self.sram_leakage_pj),
            ("sm_dynamic_pj", self.sm_dynamic_pj),
            ("core_leakage_pj", self.core_leakage_pj),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Equal to within a part in 10^12 (the sums are of a few products of decimals).
    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
    }

    macro_rules! assert_close {
        ($a:expr, $b:expr) => {
            assert!(close($a, $b), "{} = {} != {}", stringify!($a), $a, $b)
        };
    }

    /// A hand-counted run: 10 RF reads, 5 RF writes, 4 shared reads, 2 shared writes, 3 L1D
    /// reads, 8 L1D writes, 128 DRAM bytes.
    fn counts() -> EnergyCounts {
        EnergyCounts {
            rf_reads: 10,
            rf_writes: 5,
            shared_reads: 4,
            shared_writes: 2,
            l1d_reads: 3,
            l1d_writes: 8,
            dram_bytes: 128,
            ..EnergyCounts::default()
        }
    }

    /// The `unified-micro12` preset: Unified Table 2's 256/64/64 KB partitioned SM.
    fn micro12() -> Config {
        Config::preset("unified-micro12").unwrap()
    }

    #[test]
    fn register_rows() {
        assert_eq!(register_accesses(32), 8);
        assert_eq!(register_accesses(8), 2);
        assert_eq!(register_accesses(1), 1);
        assert_eq!(register_accesses(64), 16);
    }

    #[test]
    fn sram_sizes() {
        let c = micro12();
        assert_eq!(sram_bytes_per_sm(&c), 384 * 1024, "256 + 64 + 64 KB");
        let mut none = c.clone();
        none.l1d.config = "none".to_string();
        assert_eq!(sram_bytes_per_sm(&none), 320 * 1024);
        let mut unified = c;
        unified.unified.enabled = true;
        unified.unified.capacity_bytes = 128 * 1024;
        assert_eq!(sram_bytes_per_sm(&unified), 128 * 1024);
    }

    #[test]
    fn partitioned_prices() {
        let r = price(&micro12(), &counts(), 1000);
        // 10 x 9.8 + 5 x 11.8 = 98 + 59.
        assert_close!(r.register_file_pj, 157.0);
        // 4 x 3.9 + 2 x 5.1 = 15.6 + 10.2.
        assert_close!(r.shared_memory_pj, 25.8);
        // 3 x 3.9 + 8 x 5.1 = 11.7 + 40.8.
        assert_close!(r.l1d_pj, 52.5);
        // 128 bytes x 8 bits x 40 pJ.
        assert_close!(r.dram_pj, 40_960.0);
        // 1000 cycles at 1 GHz = 1000 ns; 2.37 mW/KB x 384 KB x 1000 ns.
        assert_close!(r.time_ns, 1000.0);
        assert_close!(r.sram_kb_per_sm, 384.0);
        assert_close!(r.sram_leakage_pj, 910_080.0);
        // 1.9 W and 0.7 W for 1000 ns: 1.9 and 0.7 uJ.
        assert_close!(r.sm_dynamic_pj, 1_900_000.0);
        assert_close!(r.core_leakage_pj, 700_000.0);
        let sum = 157.0 + 25.8 + 52.5 + 40_960.0 + 910_080.0 + 1_900_000.0 + 700_000.0;
        assert_close!(r.total_pj, sum);
        assert!(!r.unified);
        assert_eq!(r.counts, counts());
    }

    #[test]
    fn ten_register_reads_are_98_pj() {
        let only = EnergyCounts {
            rf_reads: 10,
            ..EnergyCounts::default()
        };
        let r = price(&micro12(), &only, 0);
        assert_close!(r.register_file_pj, 98.0);
        assert_close!(r.total_pj, 98.0);
    }

    #[test]
    fn unified_prices_every_bank_alike_and_adds_wires_to_memory() {
        let mut c = micro12();
        c.unified.enabled = true; // 384 KB, the same capacity as the partitioned SM
        let r = price(&c, &counts(), 1000);
        // 10 x 12.1 + 5 x 14.9 = 121 + 74.5.
        assert_close!(r.register_file_pj, 195.5);
        // (4 x 12.1 + 2 x 14.9) x 1.1 = (48.4 + 29.8) x 1.1.
        assert_close!(r.shared_memory_pj, 86.02);
        // (3 x 12.1 + 8 x 14.9) x 1.1 = (36.3 + 119.2) x 1.1.
        assert_close!(r.l1d_pj, 171.05);
        assert_close!(r.dram_pj, 40_960.0);
        assert_close!(r.sram_leakage_pj, 910_080.0);
        assert!(r.unified);
        // A smaller pool leaks less: 128 KB x 2.37 mW x 1000 ns.
        c.unified.capacity_bytes = 128 * 1024;
        assert_close!(price(&c, &counts(), 1000).sram_leakage_pj, 303_360.0);
    }

    #[test]
    fn every_key_is_read() {
        let base = price(&micro12(), &counts(), 1000);
        let keys = [
            "rf_read_pj",
            "rf_write_pj",
            "sram_read_pj",
            "sram_write_pj",
            "dram_pj_per_bit",
            "leakage_mw_per_kb",
            "sm_dynamic_w",
            "core_leakage_w",
            "frequency_ghz",
        ];
        for key in keys {
            let c = micro12()
                .with_overrides(&[format!("energy.{key}=2")])
                .unwrap();
            assert_ne!(price(&c, &counts(), 1000).total_pj, base.total_pj, "{key}");
        }
        let mut unified = micro12();
        unified.unified.enabled = true;
        let base = price(&unified, &counts(), 1000);
        for key in [
            "unified_read_pj",
            "unified_write_pj",
            "unified_wire_overhead",
        ] {
            let mut c = micro12()
                .with_overrides(&[format!("energy.{key}=2")])
                .unwrap();
            c.unified.enabled = true;
            assert_ne!(price(&c, &counts(), 1000).total_pj, base.total_pj, "{key}");
        }
    }

    #[test]
    fn more_sms_and_a_slower_clock_take_more_time_energy() {
        let mut c = micro12();
        c.num_sms = 2;
        c.energy.frequency_ghz = 0.5;
        let r = price(&c, &counts(), 1000);
        assert_close!(r.time_ns, 2000.0);
        // 1.9 W x 2 SMs x 2000 ns.
        assert_close!(r.sm_dynamic_pj, 7_600_000.0);
        assert_close!(r.core_leakage_pj, 2_800_000.0);
        assert_close!(r.sram_leakage_pj, 2.37 * 384.0 * 2.0 * 2000.0);
        assert_close!(r.register_file_pj, 157.0);
    }

    #[test]
    fn the_parts_sum_to_the_total() {
        let r = price(&micro12(), &counts(), 777);
        let sum: f64 = r.parts().iter().map(|(_, v)| v).sum();
        assert_close!(r.total_pj, sum);
        let json = serde_json::to_value(r).unwrap();
        for (name, value) in r.parts() {
            assert_eq!(json[name].as_f64(), Some(value), "{name}");
        }
    }
}
