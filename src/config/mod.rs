//! The simulator configuration: one typed [`Config`], JSON in and out, validated with errors that
//! name the key; presets; `--set a.b.c=value` overrides; and the list of switches whose
//! mechanisms are not built yet.
//!
//! Sections follow MODEL.md: `core` (sections 1, 3, 4), `regfile` (5), `units` (6), `shmem` (7),
//! `l1d`, `constant`, `icnt`, `l2`, `dram` (9), `elastic` (8), `mrpb` (10), `unified` and
//! `energy` (11). Every mechanism choice is an enum serialised in snake_case.
//!
//! Building a configuration (the CLI's order): a preset ([`Config::preset`]) or a JSON file
//! ([`Config::from_json`], which may name a `"preset"` to overlay), then overrides
//! ([`Config::with_overrides`]). Each step validates ([`Config::validate`]); running a simulation
//! also needs [`Config::check_supported`].
//!
//! This module does no I/O: callers read files and print.

pub mod cache_string;
mod error;
mod memory;
mod overrides;
mod presets;
mod sm;
mod switches;
mod unbuilt;
mod validate;

pub use cache_string::{CacheSpec, CacheStringError};
pub use error::{ConfigError, NotBuilt};
pub use memory::{
    Broadcast, ClockConfig, Coalescing, ConstMemConfig, ConstModel, DramConfig, DramTiming,
    IcntConfig, IcntModel, L1dConfig, L2Config, SharedMemConfig,
};
pub use presets::{presets, Preset};
pub use sm::{
    ArithTimings, CcwsConfig, CollectorUnits, CoreConfig, Divergence, DivergenceMode, ICacheConfig,
    ICacheModel, OpTiming, PushOrder, RegFileConfig, RegLayout, SchedulerPolicy, SplitPolicy,
    UnitsConfig, DEFAULT_YIELD_AFTER,
};
pub use switches::{
    BaselinePipeline, ElasticConfig, EnergyConfig, MrpbBypass, MrpbConfig, MrpbDrain,
    MrpbSignature, UnifiedConfig, UnifiedMode,
};

use serde::{Deserialize, Serialize};

/// The whole simulator configuration. Field order is the order `config show` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Streaming multiprocessors; CTAs go to SMs round-robin, L2 and DRAM are shared
    /// (MODEL.md section 1, default 1).
    pub num_sms: u32,
    /// Clock domains: core, interconnect, L2, DRAM (GPGPU-Sim `-gpgpu_clock_domains`).
    pub clocks: ClockConfig,
    /// Front end, scheduling, SIMT stack (MODEL.md sections 1, 3, 4).
    pub core: CoreConfig,
    /// Register banks and operand collector (MODEL.md section 5).
    pub regfile: RegFileConfig,
    /// Execution units and opcode timing (MODEL.md section 6).
    pub units: UnitsConfig,
    /// Shared memory (MODEL.md section 7).
    pub shmem: SharedMemConfig,
    /// L1 data cache and coalescer (MODEL.md section 9).
    pub l1d: L1dConfig,
    /// Constant and parameter loads (MODEL.md section 2; issue 5).
    pub constant: ConstMemConfig,
    /// Interconnect (MODEL.md section 9).
    pub icnt: IcntConfig,
    /// L2 slices (MODEL.md section 9).
    pub l2: L2Config,
    /// DRAM (MODEL.md section 9).
    pub dram: DramConfig,
    /// Elastic pipeline switch (MODEL.md section 8).
    pub elastic: ElasticConfig,
    /// MRPB switch (MODEL.md section 10).
    pub mrpb: MrpbConfig,
    /// Unified local memory switch (MODEL.md section 11).
    pub unified: UnifiedConfig,
    /// Energy model (MODEL.md section 11).
    pub energy: EnergyConfig,
}

impl Default for Config {
    /// The `fermi` preset.
    fn default() -> Config {
        presets::fermi()
    }
}

impl Config {
    /// The preset called `name` (see [`presets`]).
    pub fn preset(name: &str) -> Result<Config, ConfigError> {
        presets::by_name(name)
    }

    /// Reads a JSON configuration: either complete, or partial with `"preset": "NAME"` naming
    /// the base it overlays (objects merge recursively). Unknown keys, wrong types, unknown enum
    /// values and out-of-range values are errors naming the key.
    pub fn from_json(text: &str) -> Result<Config, ConfigError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ConfigError::Syntax {
                message: e.to_string(),
            })?;
        Config::from_value(value)
    }

    /// [`Config::from_json`] for an already parsed JSON value.
    pub fn from_value(value: serde_json::Value) -> Result<Config, ConfigError> {
        let config = overrides::resolve_document(value)?;
        config.validate()?;
        Ok(config)
    }

    /// This configuration with `key=value` overrides applied in order, then validated. A value
    /// is parsed as JSON if it parses, else taken as a string; `a.b.c` walks nested sections.
    pub fn with_overrides<S: AsRef<str>>(&self, sets: &[S]) -> Result<Config, ConfigError> {
        let config = overrides::apply(self, sets)?;
        config.validate()?;
        Ok(config)
    }

    /// Checks every value's range, every cache string, and the rules that tie values together.
    pub fn validate(&self) -> Result<(), ConfigError> {
        validate::validate(self)
    }

    /// Refuses every selected mechanism that is not built yet (the list is in `unbuilt.rs`).
    pub fn check_supported(&self) -> Result<(), ConfigError> {
        unbuilt::check(self)
    }

    /// The configuration as JSON (compact).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// The configuration as pretty-printed JSON, in field order.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// The parsed L1D cache string; `None` for `none`.
    pub fn l1d_cache(&self) -> Result<Option<CacheSpec>, ConfigError> {
        validate::cache_at("l1d.config", &self.l1d.config)
    }

    /// The instruction cache the SMs fetch through: `core.icache.config` parsed when
    /// `core.icache.model` is `cache`; `None` when it is perfect (or `none`).
    pub fn icache(&self) -> Result<Option<CacheSpec>, ConfigError> {
        match self.core.icache.model {
            ICacheModel::Cache => {
                validate::cache_at("core.icache.config", &self.core.icache.config)
            }
            ICacheModel::Perfect => Ok(None),
        }
    }

    /// The constant cache parameter and `.const` loads go through: `constant.cache` parsed when
    /// `constant.model` is `cache`; `None` with the fixed latency (or `none`).
    pub fn constant_cache(&self) -> Result<Option<CacheSpec>, ConfigError> {
        match self.constant.model {
            ConstModel::Cache => validate::cache_at("constant.cache", &self.constant.cache),
            ConstModel::Fixed => Ok(None),
        }
    }

    /// The texture cache read-only global loads go through: `l1d.texture_cache` parsed;
    /// `None` for `none`.
    pub fn texture_cache(&self) -> Result<Option<CacheSpec>, ConfigError> {
        validate::cache_at("l1d.texture_cache", &self.l1d.texture_cache)
    }

    /// The parsed cache string of one L2 slice; `None` for `none`.
    pub fn l2_cache(&self) -> Result<Option<CacheSpec>, ConfigError> {
        validate::cache_at("l2.config", &self.l2.config)
    }

    /// L2 slices in the whole GPU: channels x sub-partitions per channel.
    pub fn l2_slices(&self) -> u32 {
        self.dram.channels * self.l2.sub_partitions_per_channel
    }

    /// Bytes one DRAM column command moves: burst length x bus width x chips per channel
    /// (GPGPU-Sim's `dram_atom_size`).
    pub fn dram_atom_bytes(&self) -> u32 {
        let d = &self.dram;
        d.burst_length * d.bus_width_bytes * d.chips_per_channel
    }

    /// Peak DRAM bandwidth of the whole GPU in bytes per core cycle: every channel's bus busy
    /// (chips x width x beats per command cycle, at the DRAM clock).
    pub fn dram_peak_bytes_per_core_cycle(&self) -> f64 {
        let d = &self.dram;
        let per_dram_cycle =
            f64::from(d.chips_per_channel * d.bus_width_bytes * d.data_command_ratio);
        per_dram_cycle * self.clocks.dram_mhz / self.clocks.core_mhz * f64::from(d.channels)
    }

    /// Entries of the elastic PREMEM FIFO: ceil(warp_size / simd_width) - 1 (MODEL.md section 8).
    pub fn premem_entries(&self) -> u32 {
        self.core
            .warp_size
            .div_ceil(self.core.simd_width.max(1))
            .saturating_sub(1)
    }

    /// MRPB queues for the configured signature (MODEL.md section 10).
    pub fn mrpb_queues(&self) -> u32 {
        match self.mrpb.signature {
            MrpbSignature::Warp => self.core.max_warps_per_sm,
            MrpbSignature::Block => self.core.max_ctas_per_sm,
            MrpbSignature::WarpInBlock => self
                .core
                .max_threads_per_cta
                .div_ceil(self.core.warp_size.max(1)),
            MrpbSignature::Single => 1,
        }
    }
}
