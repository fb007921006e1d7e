//! Reading back the records a shard writes ([`super::shard`]): `Deserialize` for the model's
//! counters the records hold, which derive only `Serialize` (serde's remote derives, so that
//! the model's types stay as they are). Each mirror lists its type's fields; a field added
//! there and not here fails to compile. Written as the types write themselves: no renames.

use crate::core::conflict_history::HistoryStats;
use crate::energy::EnergyCounts;
use crate::mem::data_cache::Contention;
use crate::sim::UnifiedStats;
use serde::{Deserialize, Deserializer};

/// [`Contention`]'s fields.
#[derive(Deserialize)]
#[serde(remote = "Contention")]
struct ContentionDef {
    intra_warp: u64,
    cross_warp_intra_block: u64,
    cross_warp_cross_block: u64,
}

/// [`HistoryStats`]' fields.
#[derive(Deserialize)]
#[serde(remote = "HistoryStats")]
struct HistoryDef {
    lookups: u64,
    hits: u64,
    exact: u64,
    under: u64,
    over: u64,
}

/// [`EnergyCounts`]' fields.
#[derive(Deserialize)]
#[serde(remote = "EnergyCounts")]
struct EnergyCountsDef {
    rf_reads: u64,
    rf_writes: u64,
    shared_reads: u64,
    shared_writes: u64,
    l1d_reads: u64,
    l1d_writes: u64,
    dram_bytes: u64,
    #[serde(default)]
    orf_reads: u64,
    #[serde(default)]
    orf_writes: u64,
    #[serde(default)]
    lrf_reads: u64,
    #[serde(default)]
    lrf_writes: u64,
}

/// [`UnifiedStats`]' fields.
#[derive(Deserialize)]
#[serde(remote = "UnifiedStats")]
struct UnifiedStatsDef {
    mode: crate::config::UnifiedMode,
    capacity_kb: f64,
    threads: u32,
    registers_kb: f64,
    shared_kb: f64,
    cache_kb: f64,
    cache_sets: u32,
    clusters: u32,
    banks_per_cluster: u32,
    cache_assoc: u32,
    cache_line_bytes: u32,
    arbitration_conflicts: u64,
}

/// Reads a [`Contention`] (`#[serde(deserialize_with)]`).
pub fn contention<'de, D: Deserializer<'de>>(d: D) -> Result<Contention, D::Error> {
    ContentionDef::deserialize(d)
}

/// Reads an [`EnergyCounts`] (`#[serde(deserialize_with)]`).
pub fn energy_counts<'de, D: Deserializer<'de>>(d: D) -> Result<EnergyCounts, D::Error> {
    EnergyCountsDef::deserialize(d)
}

/// Reads an optional [`HistoryStats`] (`#[serde(deserialize_with)]`).
pub fn history<'de, D: Deserializer<'de>>(d: D) -> Result<Option<HistoryStats>, D::Error> {
    #[derive(Deserialize)]
    struct Wrap(#[serde(with = "HistoryDef")] HistoryStats);
    Ok(Option::<Wrap>::deserialize(d)?.map(|Wrap(h)| h))
}

/// Reads an optional [`UnifiedStats`] (`#[serde(deserialize_with)]`).
pub fn unified_stats<'de, D: Deserializer<'de>>(d: D) -> Result<Option<UnifiedStats>, D::Error> {
    #[derive(Deserialize)]
    struct Wrap(#[serde(with = "UnifiedStatsDef")] UnifiedStats);
    Ok(Option::<Wrap>::deserialize(d)?.map(|Wrap(u)| u))
}
