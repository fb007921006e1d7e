//! Validation: a table of range rules over every numeric key (matched against the serialised
//! config, so no field can be forgotten: a test checks every number has a rule), then a list of
//! cross-field checks, each a small function.

use super::cache_string::{self, CacheSpec};
use super::{overrides, Config, ConfigError, ConstModel, ICacheModel, SchedulerPolicy};
use serde_json::Value;

/// What values a numeric key allows.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// An integer in lo..=hi.
    Range(u64, u64),
    /// A power of two in lo..=hi.
    Pow2(u64, u64),
    /// One of a few integers.
    OneOf(&'static [u64]),
    /// A finite number in lo..=hi.
    Real(f64, f64),
}

use Rule::{OneOf, Pow2, Range, Real};

/// Range rules by key pattern; `*` matches one key segment; the first match wins.
const RULES: &[(&str, Rule)] = &[
    ("num_sms", Range(1, 64)),
    ("core.warp_size", Pow2(1, 64)),
    ("core.simd_width", Pow2(1, 64)),
    ("core.max_threads_per_sm", Range(1, 4096)),
    ("core.max_warps_per_sm", Range(1, 128)),
    ("core.max_ctas_per_sm", Range(1, 64)),
    ("core.max_threads_per_cta", Range(1, 4096)),
    ("core.registers_per_sm", Range(1, 1 << 20)),
    ("core.schedulers_per_sm", Range(1, 8)),
    ("core.active_warps", Range(1, 128)),
    ("core.ccws.swl_warps", Range(0, 128)),
    ("core.ccws.vta_sets", Range(1, 64)),
    ("core.ccws.vta_ways", Range(1, 64)),
    ("core.ccws.base_score", Range(1, 1_000_000)),
    ("core.ccws.k_throttle", Range(0, 1_000)),
    ("core.ccws.decay", Range(0, 1_000_000)),
    ("core.ibuffer_entries", Range(1, 16)),
    ("core.fetch_width", Range(1, 16)),
    ("core.scoreboard_max_entries", Range(1, 64)),
    ("core.deadlock_cycles", Range(1, 100_000_000)),
    ("core.yield_after", Range(0, 1_000_000)),
    ("regfile.reg_banks", Range(1, 64)),
    ("regfile.collector_units.dp", Range(0, 64)),
    ("regfile.collector_units.*", Range(1, 64)),
    ("regfile.collector_read_ports", Range(1, 8)),
    ("regfile.writeback_width", Range(1, 8)),
    ("regfile.issue_latch", Range(0, 8)),
    ("regfile.dispatch_latency", Range(0, 8)),
    ("regfile.orf_entries", Range(0, 16)),
    ("regfile.lrf_entries", Range(0, 1)),
    ("units.result_latch", Range(0, 8)),
    ("units.dp_units", Range(0, 8)),
    ("units.ldst_units", Range(1, 4)),
    ("units.*_units", Range(1, 8)),
    ("units.*.latency", Range(1, 10_000)),
    ("units.*.interval", Range(1, 10_000)),
    ("units.*.*.latency", Range(1, 10_000)),
    ("units.*.*.interval", Range(1, 10_000)),
    ("shmem.size_bytes", Range(0, 1 << 20)),
    ("shmem.banks", Pow2(1, 64)),
    ("shmem.bank_width", OneOf(&[4, 8, 16])),
    ("shmem.warp_parts", Pow2(1, 64)),
    ("shmem.latency", Range(1, 10_000)),
    ("shmem.hash_latency", Range(0, 16)),
    ("l1d.latency", Range(1, 10_000)),
    ("constant.latency", Range(1, 10_000)),
    ("icnt.latency", Range(0, 10_000)),
    ("icnt.flit_bytes", Range(1, 1024)),
    ("icnt.flits_per_cycle", Range(1, 64)),
    ("icnt.injection_buffer_flits", Range(1, 4096)),
    ("icnt.vc_buffer_flits", Range(1, 4096)),
    ("icnt.internal_speedup", Range(1, 16)),
    ("l2.sub_partitions_per_channel", Range(1, 8)),
    ("l2.interleave_bytes", Pow2(32, 1 << 20)),
    ("l2.latency", Range(1, 10_000)),
    ("l2.queue_entries", Range(1, 1024)),
    ("dram.channels", Range(1, 64)),
    ("dram.banks", Pow2(1, 64)),
    ("dram.chips_per_channel", Range(1, 16)),
    ("dram.bus_width_bytes", Pow2(1, 64)),
    ("dram.burst_length", Pow2(1, 64)),
    ("dram.data_command_ratio", Range(1, 8)),
    ("dram.bank_groups", Pow2(1, 64)),
    ("dram.queue_size", Range(1, 1024)),
    ("dram.return_queue_size", Range(1, 1024)),
    ("dram.latency", Range(0, 10_000)),
    ("dram.timing.*", Range(0, 1000)),
    ("clocks.*", Real(1.0, 100_000.0)),
    ("elastic.mem_stages", Range(1, 16)),
    ("elastic.shmem_ports", Range(1, 8)),
    ("elastic.history_sets", Pow2(1, 4096)),
    ("elastic.history_ways", Range(1, 16)),
    ("mrpb.queue_depth", Range(1, 256)),
    ("mrpb.latency", Range(0, 1000)),
    ("unified.capacity_bytes", Range(1024, 1 << 24)),
    ("unified.banks", Pow2(1, 128)),
    ("unified.bank_width", Pow2(4, 64)),
    ("unified.banks_per_cluster", Range(1, 32)),
    ("unified.cache_assoc", Range(1, 64)),
    ("unified.cache_line_bytes", Pow2(32, 1024)),
    ("unified.fermi_rf_bytes", Range(0, 1 << 24)),
    ("energy.unified_wire_overhead", Real(0.0, 10.0)),
    ("energy.frequency_ghz", Real(0.001, 100.0)),
    ("energy.*", Real(0.0, 1_000_000.0)),
];

/// Does `pattern` (dot-separated, `*` = any segment, `*_x` = any segment ending in `_x`) match
/// `key`?
fn matches(pattern: &str, key: &str) -> bool {
    let p: Vec<&str> = pattern.split('.').collect();
    let k: Vec<&str> = key.split('.').collect();
    p.len() == k.len()
        && p.iter().zip(&k).all(|(p, k)| match p.strip_prefix('*') {
            Some(suffix) => k.ends_with(suffix),
            None => p == k,
        })
}

fn rule_for(key: &str) -> Option<Rule> {
    RULES
        .iter()
        .find(|(pattern, _)| matches(pattern, key))
        .map(|(_, r)| *r)
}

impl Rule {
    fn allowed(self) -> String {
        match self {
            Range(lo, hi) => format!("must be in {lo}..={hi}"),
            Pow2(lo, hi) => format!("must be a power of two in {lo}..={hi}"),
            OneOf(list) => {
                let items: Vec<String> = list.iter().map(u64::to_string).collect();
                format!("must be one of {}", items.join(", "))
            }
            Real(lo, hi) => format!("must be a finite number in {lo}..={hi}"),
        }
    }

    fn accepts(self, value: &Value) -> bool {
        match self {
            Range(lo, hi) => value.as_u64().is_some_and(|v| (lo..=hi).contains(&v)),
            Pow2(lo, hi) => value
                .as_u64()
                .is_some_and(|v| v.is_power_of_two() && (lo..=hi).contains(&v)),
            OneOf(list) => value.as_u64().is_some_and(|v| list.contains(&v)),
            Real(lo, hi) => value
                .as_f64()
                .is_some_and(|v| v.is_finite() && (lo..=hi).contains(&v)),
        }
    }
}

/// Every leaf of a JSON tree with its full key, in key order.
fn leaves<'a>(value: &'a Value, path: String, out: &mut Vec<(String, &'a Value)>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let full = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                leaves(child, full, out);
            }
        }
        _ => out.push((path, value)),
    }
}

/// Checks one leaf against its rule. Null is an absent optional value, except where a number is
/// required (a non-finite float serialises as null).
fn check_leaf(key: &str, value: &Value) -> Result<(), ConfigError> {
    let rule = match (value, rule_for(key)) {
        (Value::Number(_), None) => {
            return Err(ConfigError::Invalid {
                key: key.to_string(),
                message: "has no range rule (a warpstep bug: add it to RULES)".to_string(),
            })
        }
        (Value::Null, Some(rule @ Real(..))) | (Value::Number(_), Some(rule)) => rule,
        _ => return Ok(()),
    };
    if rule.accepts(value) {
        Ok(())
    } else {
        Err(ConfigError::OutOfRange {
            key: key.to_string(),
            value: value.to_string(),
            allowed: rule.allowed(),
        })
    }
}

fn check_ranges(config: &Config) -> Result<(), ConfigError> {
    let tree = overrides::to_value(config);
    let mut all = Vec::new();
    leaves(&tree, String::new(), &mut all);
    all.iter()
        .try_for_each(|(key, value)| check_leaf(key, value))
}

fn invalid(key: &str, message: String) -> Result<(), ConfigError> {
    Err(ConfigError::Invalid {
        key: key.to_string(),
        message,
    })
}

/// Parses the cache string at `key` (`none` gives `None`).
pub(super) fn cache_at(key: &str, text: &str) -> Result<Option<CacheSpec>, ConfigError> {
    cache_string::parse_optional(text).map_err(|error| ConfigError::CacheString {
        key: key.to_string(),
        error,
    })
}

fn simd_divides_warp(c: &Config) -> Result<(), ConfigError> {
    let (warp, simd) = (c.core.warp_size, c.core.simd_width);
    if simd > warp {
        return invalid(
            "core.simd_width",
            format!("{simd} must divide core.warp_size ({warp})"),
        );
    }
    Ok(())
}

fn threads_fit_warps(c: &Config) -> Result<(), ConfigError> {
    let k = &c.core;
    let key = "core.max_threads_per_sm";
    if k.max_threads_per_sm % k.warp_size != 0 {
        let msg = format!(
            "{} must be a multiple of core.warp_size ({})",
            k.max_threads_per_sm, k.warp_size
        );
        return invalid(key, msg);
    }
    let slots = u64::from(k.max_warps_per_sm) * u64::from(k.warp_size);
    if u64::from(k.max_threads_per_sm) > slots {
        let msg = format!(
            "{} needs more than core.max_warps_per_sm x core.warp_size = {slots} thread slots",
            k.max_threads_per_sm
        );
        return invalid(key, msg);
    }
    Ok(())
}

fn cta_fits_sm(c: &Config) -> Result<(), ConfigError> {
    let k = &c.core;
    if k.max_threads_per_cta > k.max_threads_per_sm {
        let msg = format!(
            "{} exceeds core.max_threads_per_sm ({})",
            k.max_threads_per_cta, k.max_threads_per_sm
        );
        return invalid("core.max_threads_per_cta", msg);
    }
    Ok(())
}

fn warp_counts_fit(c: &Config) -> Result<(), ConfigError> {
    let k = &c.core;
    let warps = k.max_warps_per_sm;
    if k.active_warps > warps {
        let msg = format!("{} exceeds core.max_warps_per_sm ({warps})", k.active_warps);
        return invalid("core.active_warps", msg);
    }
    if k.ccws.swl_warps > warps {
        let msg = format!(
            "{} exceeds core.max_warps_per_sm ({warps})",
            k.ccws.swl_warps
        );
        return invalid("core.ccws.swl_warps", msg);
    }
    if k.ccws.on() && !matches!(k.scheduler, SchedulerPolicy::Lrr | SchedulerPolicy::Gto) {
        let key = match k.ccws.swl_warps {
            0 => "core.ccws.dynamic",
            _ => "core.ccws.swl_warps",
        };
        let policy = serde_json::to_value(k.scheduler).unwrap_or_default();
        let msg = format!(
            "cache-conscious scheduling runs over core.scheduler lrr or gto, not {}",
            policy.as_str().unwrap_or("this one")
        );
        return invalid(key, msg);
    }
    if k.schedulers_per_sm > warps {
        let msg = format!(
            "{} exceeds core.max_warps_per_sm ({warps})",
            k.schedulers_per_sm
        );
        return invalid("core.schedulers_per_sm", msg);
    }
    Ok(())
}

fn shmem_shape(c: &Config) -> Result<(), ConfigError> {
    let s = &c.shmem;
    if s.warp_parts > c.core.warp_size {
        let msg = format!(
            "{} must divide core.warp_size ({})",
            s.warp_parts, c.core.warp_size
        );
        return invalid("shmem.warp_parts", msg);
    }
    let row = s.banks * s.bank_width;
    if s.size_bytes % row != 0 {
        let msg = format!(
            "{} must be a multiple of shmem.banks x shmem.bank_width = {row}",
            s.size_bytes
        );
        return invalid("shmem.size_bytes", msg);
    }
    if let Err(e) = s.hash.compile(s.banks) {
        return invalid("shmem.hash", format!("`{}`: {e}", s.hash));
    }
    Ok(())
}

fn collectors_cover_units(c: &Config) -> Result<(), ConfigError> {
    if c.units.dp_units > 0 && c.regfile.collector_units.dp == 0 {
        let msg = format!(
            "must be at least 1 when units.dp_units is {}",
            c.units.dp_units
        );
        return invalid("regfile.collector_units.dp", msg);
    }
    Ok(())
}

fn required_cache(key: &str, text: &str, used: bool) -> Result<(), ConfigError> {
    if cache_at(key, text)?.is_none() && used {
        return invalid(
            key,
            "is `none`, but the model selected needs a cache".to_string(),
        );
    }
    Ok(())
}

fn caches_parse(c: &Config) -> Result<(), ConfigError> {
    cache_at("l1d.config", &c.l1d.config)?;
    cache_at("l1d.texture_cache", &c.l1d.texture_cache)?;
    let icache_used = c.core.icache.model == ICacheModel::Cache;
    required_cache("core.icache.config", &c.core.icache.config, icache_used)?;
    let const_used = c.constant.model == ConstModel::Cache;
    required_cache("constant.cache", &c.constant.cache, const_used)?;
    if let Some(l2) = cache_at("l2.config", &c.l2.config)? {
        let step = c.l2.interleave_bytes;
        if step % l2.line_bytes != 0 {
            let msg = format!(
                "{step} must be a multiple of the L2 line size ({})",
                l2.line_bytes
            );
            return invalid("l2.interleave_bytes", msg);
        }
    }
    Ok(())
}

/// The DRAM's banks, bank groups, burst and address mapping fit together.
fn dram_geometry(c: &Config) -> Result<(), ConfigError> {
    let d = &c.dram;
    if d.bank_groups > d.banks {
        let msg = format!("{} must be at most dram.banks ({})", d.bank_groups, d.banks);
        return invalid("dram.bank_groups", msg);
    }
    if d.burst_length % d.data_command_ratio != 0 {
        let msg = format!(
            "{} must be a multiple of dram.data_command_ratio ({})",
            d.burst_length, d.data_command_ratio
        );
        return invalid("dram.burst_length", msg);
    }
    let sub = c.l2.sub_partitions_per_channel;
    if d.banks % sub != 0 {
        let msg = format!(
            "{} must be a multiple of l2.sub_partitions_per_channel ({sub})",
            d.banks
        );
        return invalid("dram.banks", msg);
    }
    crate::mem::dram_address::AddressMapping::parse(&d.address_mapping, d.banks)
        .map(|_| ())
        .or_else(|e| invalid("dram.address_mapping", e))
}

fn unified_banks_fit(c: &Config) -> Result<(), ConfigError> {
    let u = &c.unified;
    let row = u64::from(u.banks) * u64::from(u.bank_width);
    if u64::from(u.capacity_bytes) % row != 0 {
        let msg = format!(
            "{} must be a multiple of unified.banks x unified.bank_width = {row}",
            u.capacity_bytes
        );
        return invalid("unified.capacity_bytes", msg);
    }
    if u.banks % u.banks_per_cluster != 0 {
        let msg = format!(
            "{} must divide unified.banks ({})",
            u.banks_per_cluster, u.banks
        );
        return invalid("unified.banks_per_cluster", msg);
    }
    Ok(())
}

/// The router moves whole packets through its injection queue and boundary buffer: the largest
/// packet (a 128-byte line and its 8-byte header) must fit both, or it would wait forever.
fn router_packets_fit(c: &Config) -> Result<(), ConfigError> {
    use crate::mem::icnt_router::BOUNDARY_BUFFER_FLITS;
    let i = &c.icnt;
    if i.model != super::IcntModel::Router {
        return Ok(());
    }
    let largest = 136u32.div_ceil(i.flit_bytes);
    if largest > i.injection_buffer_flits {
        let msg = format!(
            "{} flits cannot hold a 136-byte packet of {}-byte flits ({largest} flits)",
            i.injection_buffer_flits, i.flit_bytes
        );
        return invalid("icnt.injection_buffer_flits", msg);
    }
    if largest as usize > BOUNDARY_BUFFER_FLITS {
        let msg = format!(
            "{} makes a 136-byte packet {largest} flits, more than the router's \
             {BOUNDARY_BUFFER_FLITS}-flit boundary buffer",
            i.flit_bytes
        );
        return invalid("icnt.flit_bytes", msg);
    }
    Ok(())
}

/// One cross-field check.
type Check = fn(&Config) -> Result<(), ConfigError>;

/// Checks that tie several values together, run after every range check passed (so no
/// division by zero is possible).
const CROSS_CHECKS: &[Check] = &[
    simd_divides_warp,
    threads_fit_warps,
    cta_fits_sm,
    warp_counts_fit,
    shmem_shape,
    collectors_cover_units,
    caches_parse,
    dram_geometry,
    unified_banks_fit,
    router_packets_fit,
];

/// Range rules, then cross-field checks; the first failure is returned.
pub(super) fn validate(config: &Config) -> Result<(), ConfigError> {
    check_ranges(config)?;
    CROSS_CHECKS.iter().try_for_each(|check| check(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_numeric_key_has_a_rule() {
        for preset in super::super::presets() {
            let tree = overrides::to_value(&(preset.build)());
            let mut all = Vec::new();
            leaves(&tree, String::new(), &mut all);
            for (key, value) in all {
                if value.is_number() || key == "core.scoreboard_max_entries" {
                    assert!(rule_for(&key).is_some(), "{key} has no rule");
                }
            }
        }
    }

    #[test]
    fn every_rule_matches_some_key() {
        let tree = overrides::to_value(&Config::default());
        let mut all = Vec::new();
        leaves(&tree, String::new(), &mut all);
        for (pattern, _) in RULES {
            assert!(
                all.iter().any(|(k, _)| matches(pattern, k)),
                "{pattern} matches nothing"
            );
        }
    }

    #[test]
    fn patterns() {
        assert!(matches("units.*.*.latency", "units.int.add.latency"));
        assert!(!matches("units.*.latency", "units.int.add.latency"));
        assert!(matches("units.*_units", "units.sp_units"));
        assert!(!matches("units.*_units", "units.sfu"));
        assert_eq!(
            rule_for("regfile.collector_units.dp").map(|r| r.allowed()),
            Some("must be in 0..=64".into())
        );
    }

    #[test]
    fn rules_describe_themselves() {
        assert_eq!(Pow2(1, 64).allowed(), "must be a power of two in 1..=64");
        assert_eq!(OneOf(&[4, 8]).allowed(), "must be one of 4, 8");
        assert!(!Real(0.0, 1.0).accepts(&Value::Null));
        assert!(Pow2(1, 64).accepts(&Value::from(32)));
        assert!(!Pow2(1, 64).accepts(&Value::from(33)));
    }
}
