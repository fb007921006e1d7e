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

#[path = "presets_fermi.rs"]
mod fermi_presets;
#[path = "presets_papers.rs"]
mod paper_presets;
#[path = "presets_teaching.rs"]
mod teaching_preset;

pub(super) use fermi_presets::fermi;
use fermi_presets::gtx480;
use paper_presets::{elastic_cf11, tesla_c2050_l, tesla_c2050_s, unified_micro12};
use teaching_preset::teaching;

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
