//! One run of a kernel, as both adapters (CLI `warpstep run`, browser) describe it: the
//! [`Report`] the CLI's `--json` prints, functional runs of a [`Prepared`] launch and the
//! timing model's report of a [`Sim`]. Preparing a launch is [`crate::prepare`]'s.

use crate::exec::functional::{run_functional_counting, FunctionalOptions, FunctionalStats};
use crate::exec::{BufferArg, GlobalMemory, KernelImage, RunError};
use crate::launch::LaunchError;
use crate::mem::AccessSet;
pub use crate::prepare::{
    compile_cuda, prepare, prepare_source, InputError, Prepared, DEFAULT_MAX_CYCLES, DEFAULT_PRESET,
};
use crate::sim::{Sim, Status};
use serde::Serialize;
use std::collections::BTreeMap;

/// The result of a run, as `warpstep run --json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub completed: bool,
    /// `None` when completed; else the fault or deadlock report.
    pub error: Option<String>,
    /// Simulated cycles (0 for a functional run).
    pub cycles: u64,
    pub warp_instructions: u64,
    /// Active lanes summed over the warp instructions.
    pub thread_instructions: u64,
    /// The final contents of the buffers asked for, by argument index.
    pub buffers: BTreeMap<String, Vec<serde_json::Value>>,
    /// Timing runs: thread instructions per cycle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ipc: Option<f64>,
    /// Timing runs: scheduler-cycles without issue, by stall reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stalls: Option<BTreeMap<String, u64>>,
    /// Timing runs: SIMT stack statistics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simt: Option<crate::sim::SimtStats>,
    /// Timing runs: shared-memory instructions, sub-warp accesses, bank-conflict cycles and
    /// conflict degrees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared: Option<crate::sim::SharedMemStats>,
    /// Timing runs: L1D accesses, hits, misses, MSHR merges, reservation failures by reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l1d: Option<crate::mem::L1dStats>,
    /// Timing runs: the constant caches' counters, as the L1D's (zero with `constant.model =
    /// fixed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l1c: Option<crate::mem::L1dStats>,
    /// Timing runs: the instruction caches' counters (zero with a perfect instruction cache).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l1i: Option<crate::mem::L1dStats>,
    /// Timing runs with a texture cache (`l1d.texture_cache`): its counters, as the L1D's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l1t: Option<crate::mem::L1dStats>,
    /// Timing runs: L2 accesses, hits, misses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l2: Option<crate::mem::l2::L2Stats>,
    /// Timing runs: DRAM reads, writes, row hits, row misses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dram: Option<crate::mem::dram::DramStats>,
    /// Timing runs: interconnect packets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icnt: Option<crate::mem::icnt::IcntStats>,
    /// Timing runs with `mrpb.enabled`: the MRPBs' counters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mrpb: Option<crate::mem::mrpb::MrpbStats>,
    /// Timing runs with `core.scheduler = bank_conflict_aware`: the history caches' lookups,
    /// hits and how their predictions turned out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflict_history: Option<crate::core::conflict_history::HistoryStats>,
    /// Timing runs with `core.ccws`: victim tag hits and the cycles warps were held back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ccws: Option<crate::core::ccws::CcwsStats>,
    /// Timing runs with `unified.enabled`: the pool's division and arbitration conflicts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unified: Option<crate::sim::UnifiedStats>,
    /// Timing runs with `regfile.hierarchy`: MRF, ORF and LRF reads and writes (MICRO'11).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub register_file: Option<crate::sim::RegisterFileStats>,
    /// Timing runs: the energy by part in picojoules, with the counts it was priced from
    /// (Unified §5.2; docs/energy.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub energy: Option<crate::energy::EnergyReport>,
    /// Timing runs: each SM's CTAs, instructions, IPC, L1D and bank-conflict cycles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_sm: Option<Vec<crate::sim::PerSmStats>>,
}

impl Prepared {
    /// Runs the kernel without timing and reports, with the final contents of the buffer
    /// arguments numbered in `dumps` (an index that is not a buffer is an error).
    pub fn run_functional(&mut self, dumps: &[usize]) -> Result<Report, InputError> {
        self.check_dumps(dumps)?;
        let options = FunctionalOptions {
            warp_size: self.config.core.warp_size,
            push_order: self.config.core.push_order,
            divergence: self.config.core.divergence(),
            max_steps: self.flags.max_cycles.unwrap_or(DEFAULT_MAX_CYCLES),
        };
        let mut stats = FunctionalStats::default();
        let outcome = run_functional_counting(&self.image, &mut self.global, options, &mut stats);
        // A run that stopped still reports what it executed.
        let mut report = self.report(outcome.map(|()| stats), dumps);
        report.warp_instructions = stats.warp_instructions;
        report.thread_instructions = stats.thread_instructions;
        Ok(report)
    }

    fn check_dumps(&self, dumps: &[usize]) -> Result<(), InputError> {
        for &i in dumps {
            if !self.image.buffers.iter().any(|b| b.index == i) {
                return Err(InputError::Launch(LaunchError::BadValue {
                    flag: "--dump".into(),
                    value: i.to_string(),
                    why: "not the index of a buffer argument".into(),
                }));
            }
        }
        Ok(())
    }

    fn report(&self, outcome: Result<FunctionalStats, RunError>, dumps: &[usize]) -> Report {
        let (stats, error) = match outcome {
            Ok(stats) => (stats, None),
            Err(e) => (FunctionalStats::default(), Some(e.to_string())),
        };
        let mut report = base_report(&self.image, &self.global, error, dumps);
        report.warp_instructions = stats.warp_instructions;
        report.thread_instructions = stats.thread_instructions;
        report
    }

    /// The raw little-endian bytes of buffer argument `index`.
    pub fn buffer_bytes(&self, index: usize) -> Option<Vec<u8>> {
        buffer_bytes(&self.image, &self.global, index)
    }

    /// Buffer argument `index` as JSON numbers.
    pub fn buffer_values(&self, index: usize) -> Vec<serde_json::Value> {
        buffer_values(&self.image, &self.global, index)
    }

    /// Runs the kernel functionally and returns every dynamic shared-memory warp access as an
    /// access set of word addresses (active lanes only), with the PC of the instruction that made
    /// it: the trace-based input of the bank-hash searches (XOR section 5). At most `limit`
    /// accesses are kept; a run that does not complete is an error with its report.
    pub fn shared_access_sets(
        &mut self,
        limit: usize,
    ) -> Result<Vec<(crate::ptx::Pc, AccessSet)>, String> {
        let options = FunctionalOptions {
            warp_size: self.config.core.warp_size,
            push_order: self.config.core.push_order,
            divergence: self.config.core.divergence(),
            max_steps: self.flags.max_cycles.unwrap_or(DEFAULT_MAX_CYCLES),
        };
        let width = self.config.shmem.bank_width;
        let mut sets = Vec::new();
        let mut observe = |done: &crate::exec::execute::Executed,
                           record: &crate::exec::execute::AccessRecord| {
            if !record.valid
                || record.space != Some(crate::ptx::Space::Shared)
                || sets.len() >= limit
            {
                return;
            }
            let addrs: Vec<u64> = crate::exec::warp::lanes(record.mask)
                .filter_map(|lane| record.addrs.get(lane as usize).copied())
                .collect();
            if let Ok(set) = AccessSet::from_byte_addrs(&addrs, width) {
                sets.push((done.pc, set));
            }
        };
        let mut stats = FunctionalStats::default();
        crate::exec::functional::run_functional_observing(
            &self.image,
            &mut self.global,
            options,
            &mut stats,
            &mut observe,
        )
        .map_err(|e| e.to_string())?;
        Ok(sets)
    }

    /// Checks `--dump` indices, then builds the timing simulation of this launch.
    pub fn into_sim(self, dumps: &[usize]) -> Result<Sim, InputError> {
        self.check_dumps(dumps)?;
        Sim::new(self).map_err(|why| InputError::Launch(LaunchError::Mismatch { why }))
    }
}

/// The report of a timing simulation (completed or not).
pub fn timing_report(sim: &Sim, dumps: &[usize]) -> Report {
    let error = match sim.status() {
        Status::Completed => None,
        Status::Failed(e) => Some(e.to_string()),
        Status::Running => Some("the simulation has not finished".to_string()),
    };
    let stats = sim.stats();
    let mut report = base_report(sim.image(), sim.global(), error, dumps);
    report.cycles = stats.cycles;
    report.warp_instructions = stats.warp_instructions;
    report.thread_instructions = stats.thread_instructions;
    report.ipc = Some(stats.ipc);
    report.stalls = Some(stats.stalls);
    report.simt = Some(stats.simt);
    report.shared = Some(stats.shared);
    report.l1d = Some(stats.l1d);
    report.l1c = Some(stats.l1c);
    report.l1i = Some(stats.l1i);
    report.l1t = Some(stats.l1t).filter(|s| !s.is_unused());
    report.l2 = Some(stats.l2);
    report.dram = Some(stats.dram);
    report.icnt = Some(stats.icnt);
    report.mrpb = stats.mrpb;
    report.conflict_history = stats.conflict_history;
    report.ccws = stats.ccws;
    report.unified = stats.unified;
    report.register_file = stats.register_file;
    report.energy = stats.energy;
    report.per_sm = Some(stats.per_sm);
    report
}

fn base_report(
    image: &KernelImage,
    global: &GlobalMemory,
    error: Option<String>,
    dumps: &[usize],
) -> Report {
    Report {
        kernel: image.func().name.clone(),
        grid: [image.grid.x, image.grid.y, image.grid.z],
        block: [image.block.x, image.block.y, image.block.z],
        completed: error.is_none(),
        error,
        cycles: 0,
        warp_instructions: 0,
        thread_instructions: 0,
        buffers: dumps
            .iter()
            .map(|&i| (i.to_string(), buffer_values(image, global, i)))
            .collect(),
        ipc: None,
        stalls: None,
        simt: None,
        shared: None,
        l1d: None,
        l1c: None,
        l1i: None,
        l1t: None,
        l2: None,
        dram: None,
        icnt: None,
        mrpb: None,
        conflict_history: None,
        ccws: None,
        unified: None,
        register_file: None,
        energy: None,
        per_sm: None,
    }
}

/// The raw little-endian bytes of buffer argument `index` (of a struct argument, its first
/// pointer field's buffer).
pub fn buffer_bytes(image: &KernelImage, global: &GlobalMemory, index: usize) -> Option<Vec<u8>> {
    let b = image.buffers.iter().find(|b| b.index == index)?;
    global.read_bytes(b.base, b.count * b.elem.size()).ok()
}

/// Buffer argument `index` as JSON numbers.
pub fn buffer_values(
    image: &KernelImage,
    global: &GlobalMemory,
    index: usize,
) -> Vec<serde_json::Value> {
    match image.buffers.iter().find(|b| b.index == index) {
        Some(b) => values_of(b, global),
        None => Vec::new(),
    }
}

/// The buffer `b` as JSON numbers.
pub fn values_of(b: &BufferArg, global: &GlobalMemory) -> Vec<serde_json::Value> {
    let bytes = global
        .read_bytes(b.base, b.count * b.elem.size())
        .unwrap_or_default();
    (0..b.count)
        .map(|i| match b.elem.read(&bytes, i) {
            crate::launch::Number::Int(v) => match i64::try_from(v) {
                Ok(small) => serde_json::Value::from(small),
                Err(_) => serde_json::Value::from(v as u64),
            },
            crate::launch::Number::Float(v) => serde_json::Value::from(v),
        })
        .collect()
}
