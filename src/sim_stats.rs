//! The GPU's statistics (`warpstep run --json`'s timing fields): totals over the SMs (issue
//! counts, IPC, stall reasons, SIMT divergence, shared memory), the L1, L2, DRAM and
//! interconnect counters of the memory system, the mechanisms' counters when they are on (MRPB,
//! the bank-conflict history, CCWS, the unified local memory, the register file hierarchy),
//! each SM's share (`per_sm`), and the energy counts gathered from the SMs, L1Ds and DRAM
//! (Unified §5.2; docs/energy.md).

use super::*;

/// Aggregate statistics over the SMs (`warpstep run --json`'s timing fields).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SimStats {
    pub cycles: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    /// Thread instructions per cycle.
    pub ipc: f64,
    /// Scheduler-cycles without issue, by stall reason.
    pub stalls: BTreeMap<String, u64>,
    pub simt: SimtStats,
    /// Shared memory (issue 5).
    pub shared: SharedMemStats,
    /// L1 data caches, summed over SMs.
    pub l1d: L1dStats,
    /// The SMs' constant caches (`constant.model = cache`; zero with the fixed latency).
    pub l1c: L1dStats,
    /// The SMs' instruction caches (`core.icache.model = cache`; zero when perfect).
    pub l1i: L1dStats,
    /// The SMs' texture caches, for read-only global loads (`l1d.texture_cache`; left out of
    /// the JSON when unused).
    #[serde(skip_serializing_if = "L1dStats::is_unused")]
    pub l1t: L1dStats,
    /// L2 slices, summed.
    pub l2: L2Stats,
    /// DRAM channels, summed.
    pub dram: DramStats,
    /// Interconnect, both ways.
    pub icnt: IcntStats,
    /// The SMs' MRPBs, summed (`mrpb.enabled`; left out of the JSON when off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mrpb: Option<MrpbStats>,
    /// The bank-conflict-aware scheduler's history caches, summed over SMs
    /// (`core.scheduler = bank_conflict_aware`; left out of the JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflict_history: Option<HistoryStats>,
    /// Cache-conscious wavefront scheduling's counters, summed over SMs (`core.ccws`; left out
    /// of the JSON when off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ccws: Option<CcwsStats>,
    /// The unified local memory's division for this kernel and its arbitration conflicts
    /// (`unified.enabled`; left out of the JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unified: Option<UnifiedStats>,
    /// The register file hierarchy's accesses, in warp registers, summed over SMs
    /// (`regfile.hierarchy`; left out of the JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub register_file: Option<RegisterFileStats>,
    /// The run's energy so far by part (Unified §5.2; docs/energy.md). Always present in a
    /// simulation's statistics; left out of the JSON when `None`, as `trace_hash` clears it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub energy: Option<EnergyReport>,
    /// Each SM's share, in SM order (the totals above are their sums). Never empty in a
    /// simulation; left out of the JSON when empty, as `trace_hash` empties it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per_sm: Vec<PerSmStats>,
}

/// The unified local memory of a launch (Unified §4.5; `warpstep run --json`'s `unified`):
/// how the pool was divided (KB = 1024 bytes, the names of `warpstep occupancy --json`) and
/// the cycles shared or cache accesses lost a bank to the register file (§4.3), summed over SMs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnifiedStats {
    pub mode: crate::config::UnifiedMode,
    pub capacity_kb: f64,
    pub threads: u32,
    pub registers_kb: f64,
    pub shared_kb: f64,
    pub cache_kb: f64,
    pub cache_sets: u32,
    /// The pool's shape, for the views: clusters of `banks_per_cluster` banks, and the cache's
    /// ways and line bytes.
    pub clusters: u32,
    pub banks_per_cluster: u32,
    pub cache_assoc: u32,
    pub cache_line_bytes: u32,
    pub arbitration_conflicts: u64,
}

/// One SM's share of the statistics (`SimStats::per_sm`, `warpstep run --json`'s `per_sm`): how
/// evenly the CTA dispatcher spread the work and how each SM's L1D fared.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PerSmStats {
    pub sm: u32,
    /// CTAs that ran to completion on this SM.
    pub ctas: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    /// This SM's thread instructions per GPU cycle.
    pub ipc: f64,
    /// This SM's L1D: accesses, hits, misses, MSHR merges, reservation failures.
    pub l1d: L1dStats,
    /// Extra cycles this SM's shared accesses spent on bank conflicts.
    pub bank_conflict_cycles: u64,
}

/// Shared-memory statistics summed over SMs (`warpstep run --json`'s `shared`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SharedMemStats {
    pub instructions: u64,
    /// Sub-warp accesses.
    pub accesses: u64,
    /// Extra cycles spent on bank conflicts.
    pub bank_conflict_cycles: u64,
    /// Of those, the passes atomics took on lanes of one word (no bank function removes them);
    /// absent while zero.
    #[serde(skip_serializing_if = "crate::energy::is_zero")]
    pub atomic_replay_cycles: u64,
    /// Sub-warp accesses by conflict degree (the degree as a string).
    pub degree_histogram: BTreeMap<String, u64>,
}

/// SIMT divergence statistics.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SimtStats {
    /// Deepest SIMT stack (0 under convergence barriers).
    pub max_stack_depth: usize,
    pub divergent_branches: u64,
    /// Active lanes / (warp size x warp instructions).
    pub simd_efficiency: f64,
    /// Active lanes per warp instruction.
    pub average_active_lanes: f64,
    /// Warp splits under `core.divergence = convergence_barriers` (absent under the stack).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub splits: Option<SplitSummary>,
}

/// Independent thread scheduling's counters (issue 15; book section 3.1.2).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SplitSummary {
    /// Thread groups (distinct rPCs of a warp's live threads) right after a divergent branch,
    /// averaged over divergent branches: 2 for a plain if/else, more while other paths of the
    /// warp are still apart.
    pub groups_per_divergent_branch: f64,
    /// YIELDs executed (`core.yield_after`).
    pub yields: u64,
    /// Thread-cycles spent blocked at convergence barriers and warp-synchronous instructions.
    pub blocked_thread_cycles: u64,
}

impl Sim {
    /// Statistics so far, summed over the SMs.
    pub fn stats(&self) -> SimStats {
        let mut total = SmStats::default();
        for sm in &self.sms {
            let s = &sm.stats();
            total.warp_instructions += s.warp_instructions;
            total.thread_instructions += s.thread_instructions;
            total.divergent_branches += s.divergent_branches;
            total.max_stack_depth = total.max_stack_depth.max(s.max_stack_depth);
            total.splits.add(&s.splits);
            for (k, v) in &s.stalls {
                *total.stalls.entry(k).or_insert(0) += v;
            }
        }
        let lanes = self.config.core.warp_size as f64 * total.warp_instructions as f64;
        let memory = self.memory.stats();
        SimStats {
            cycles: self.cycle,
            warp_instructions: total.warp_instructions,
            thread_instructions: total.thread_instructions,
            ipc: ratio(total.thread_instructions as f64, self.cycle as f64),
            stalls: total
                .stalls
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            simt: SimtStats {
                max_stack_depth: total.max_stack_depth,
                divergent_branches: total.divergent_branches,
                simd_efficiency: ratio(total.thread_instructions as f64, lanes),
                average_active_lanes: ratio(
                    total.thread_instructions as f64,
                    total.warp_instructions as f64,
                ),
                splits: (self.config.core.divergence == DivergenceMode::ConvergenceBarriers).then(
                    || SplitSummary {
                        groups_per_divergent_branch: ratio(
                            total.splits.groups_after_divergence as f64,
                            total.splits.divergent_branches as f64,
                        ),
                        yields: total.splits.yields,
                        blocked_thread_cycles: total.splits.blocked_thread_cycles,
                    },
                ),
            },
            shared: self.shared_stats(),
            l1d: memory.l1d,
            l1c: memory.l1c,
            l1i: memory.l1i,
            l1t: memory.l1t,
            l2: memory.l2,
            dram: memory.dram,
            icnt: memory.icnt,
            mrpb: self.mrpb_stats(),
            conflict_history: self.conflict_history_stats(),
            ccws: self.ccws_stats(),
            unified: self.unified_stats(),
            register_file: self.register_file_stats(),
            energy: Some(self.energy()),
            per_sm: self.per_sm_stats(),
        }
    }

    /// The register file's accesses by level, with `regfile.hierarchy`.
    fn register_file_stats(&self) -> Option<RegisterFileStats> {
        let mut r = RegisterFileStats::default();
        for sm in &self.sms {
            r.add(sm.register_banks());
        }
        self.config.regfile.hierarchy.then_some(r)
    }

    /// The partition and the SMs' arbitration conflicts, with `unified.enabled`.
    fn unified_stats(&self) -> Option<UnifiedStats> {
        let p = self.partition?;
        let kb = |bytes: u32| f64::from(bytes) / 1024.0;
        let u = &self.config.unified;
        Some(UnifiedStats {
            mode: u.mode,
            capacity_kb: kb(u.capacity_bytes),
            threads: p.threads,
            registers_kb: kb(p.register_bytes),
            shared_kb: kb(p.shared_bytes),
            cache_kb: kb(p.cache_bytes),
            cache_sets: p.cache_sets,
            clusters: u.banks / u.banks_per_cluster.max(1),
            banks_per_cluster: u.banks_per_cluster,
            cache_assoc: u.cache_assoc,
            cache_line_bytes: u.cache_line_bytes,
            arbitration_conflicts: self
                .sms
                .iter()
                .map(|s| s.ldst().arbitration_conflicts())
                .sum(),
        })
    }

    /// The run's energy so far, by part (Unified §5.2, Tables 3-4; `crate::energy`). Cheap:
    /// sums a few counters per SM and DRAM channel, so the views can draw it every cycle.
    pub fn energy(&self) -> EnergyReport {
        crate::energy::price(&self.config, &self.energy_counts(), self.cycle)
    }

    /// What the run did so far that costs energy, summed over the SMs (`crate::energy`):
    /// register reads and writes from the operand collectors, shared rows from the LD/ST units'
    /// `SharedStats`, L1D data-array rows, and the bytes of the DRAM channels' bursts.
    pub fn energy_counts(&self) -> EnergyCounts {
        let per_register = crate::energy::register_accesses(self.config.core.warp_size);
        let mut c = EnergyCounts::default();
        for sm in &self.sms {
            c.rf_reads += sm.register_banks().register_reads() * per_register;
            c.rf_writes += sm.register_banks().register_writes() * per_register;
            let h = sm.register_banks().hierarchy_counts();
            c.orf_reads += h.orf_reads * per_register;
            c.orf_writes += h.orf_writes * per_register;
            c.lrf_reads += h.lrf_reads * per_register;
            c.lrf_writes += h.lrf_writes * per_register;
            let shared = sm.memory().shared_stats();
            c.shared_reads += shared.row_reads;
            c.shared_writes += shared.row_writes;
        }
        for cache in self.memory.l1ds().iter().filter_map(|l| l.cache()) {
            c.l1d_reads += cache.stats.data_reads;
            c.l1d_writes += cache.stats.data_writes;
        }
        // Each column command moves one atom (`mem::dram`).
        c.dram_bytes = self
            .memory
            .channels()
            .iter()
            .map(|ch| ch.stats.bursts * u64::from(ch.atom_bytes()))
            .sum();
        c
    }

    /// The conflict history caches' counters summed over SMs, with the bank-conflict-aware
    /// scheduler.
    fn conflict_history_stats(&self) -> Option<HistoryStats> {
        let mut sum: Option<HistoryStats> = None;
        for m in self.sms.iter().filter_map(|sm| sm.issue_stage().mask()) {
            sum.get_or_insert_with(HistoryStats::default)
                .add(&m.stats());
        }
        sum
    }

    /// The CCWS counters summed over SMs, if cache-conscious scheduling is on.
    fn ccws_stats(&self) -> Option<CcwsStats> {
        let mut sum: Option<CcwsStats> = None;
        for c in self.sms.iter().filter_map(|sm| sm.issue_stage().ccws()) {
            sum.get_or_insert_with(CcwsStats::default).add(&c.stats);
        }
        sum
    }

    /// The MRPB counters summed over SMs, if MRPB is on.
    fn mrpb_stats(&self) -> Option<MrpbStats> {
        let mut sum: Option<MrpbStats> = None;
        for b in self.sms.iter().filter_map(|sm| sm.ldst().mrpb()) {
            sum.get_or_insert_with(MrpbStats::default).add(&b.stats);
        }
        sum
    }

    /// Each SM's share of the statistics, in SM order.
    fn per_sm_stats(&self) -> Vec<PerSmStats> {
        self.sms
            .iter()
            .zip(self.memory.l1ds())
            .map(|(sm, l1d)| {
                let s = sm.stats();
                PerSmStats {
                    sm: sm.id,
                    ctas: s.ctas_completed,
                    warp_instructions: s.warp_instructions,
                    thread_instructions: s.thread_instructions,
                    ipc: ratio(s.thread_instructions as f64, self.cycle as f64),
                    l1d: l1d.stats(),
                    bank_conflict_cycles: sm.memory().shared_stats().bank_conflict_cycles,
                }
            })
            .collect()
    }

    /// Shared-memory counters summed over the SMs.
    fn shared_stats(&self) -> SharedMemStats {
        let mut sum = crate::core::ldst_unit::SharedStats::default();
        for sm in &self.sms {
            sum.add(sm.memory().shared_stats());
        }
        SharedMemStats {
            instructions: sum.instructions,
            accesses: sum.accesses,
            bank_conflict_cycles: sum.bank_conflict_cycles,
            atomic_replay_cycles: sum.atomic_replay_cycles,
            degree_histogram: sum
                .degree_histogram
                .iter()
                .map(|(d, n)| (d.to_string(), *n))
                .collect(),
        }
    }
}

fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        0.0
    } else {
        a / b
    }
}
