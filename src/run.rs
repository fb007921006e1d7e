//! One run of a kernel, as both adapters (CLI `warpstep run`, browser) describe it: a PTX text
//! whose `// warpstep:` lines may carry launch flags, flags from the user that override them,
//! and a configuration. [`prepare`] turns that into a loaded program, a launch and initialised
//! memory, or an [`InputError`] naming the line, flag or key; [`Report`] is the result the
//! CLI's `--json` prints.

use crate::config::Config;
use crate::exec::functional::{run_functional_counting, FunctionalOptions, FunctionalStats};
use crate::exec::{BufferArg, GlobalMemory, KernelImage, RunError};
use crate::launch::{LaunchError, LaunchFlags};
use crate::mem::AccessSet;
use crate::ptx::{self, Program, PtxError};
use crate::sim::{Sim, Status};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

/// The preset used when neither the PTX nor the user names a configuration.
pub const DEFAULT_PRESET: &str = "fermi";
/// `--max-cycles` when not given.
pub const DEFAULT_MAX_CYCLES: u64 = 100_000_000;

/// Bad input: the run never started (exit status 2 in the CLI).
#[derive(Debug, Clone, PartialEq)]
pub enum InputError {
    Ptx(PtxError),
    /// The CUDA source does not compile.
    Cuda(crate::cuda::CudaError),
    /// The PTX compiled from a CUDA source does not load: a gap in warpstep's CUDA compiler.
    GeneratedPtx {
        file: String,
        error: PtxError,
    },
    Launch(LaunchError),
    Config(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Ptx(e) => write!(f, "{e}"),
            InputError::Cuda(e) => write!(f, "{e}"),
            InputError::GeneratedPtx { file, error } => write!(
                f,
                "the PTX that warpstep compiled from {file} does not load (`warpstep ptx {file}` prints it): in the generated PTX, {error}"
            ),
            InputError::Launch(e) => write!(f, "{e}"),
            InputError::Config(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for InputError {}

/// A launch ready to run.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub program: Rc<Program>,
    /// The flags in effect (PTX comments overlaid by the user's).
    pub flags: LaunchFlags,
    pub config: Config,
    pub image: KernelImage,
    pub global: GlobalMemory,
    /// The PTX warpstep compiled, when the input was CUDA (issue 29); `None` for PTX input.
    pub generated_ptx: Option<Rc<str>>,
    /// What the CUDA compiler skipped (host code, `#include`s), to show beside the PTX.
    pub compile_notes: Vec<String>,
}

/// Loads `ptx`, merges its `// warpstep:` flags with `overrides`, builds the configuration
/// (`config_for` resolves the `--config` value, `None` meaning the default preset, then the
/// `--set`s apply) and the launch. `read_file` supplies `file:` buffer contents.
pub fn prepare(
    ptx_text: &str,
    overrides: LaunchFlags,
    config_for: &dyn Fn(&str) -> Result<Config, String>,
    read_file: &dyn Fn(&str) -> Result<Vec<u8>, String>,
) -> Result<Prepared, InputError> {
    prepare_source(ptx_text, "kernel.cu", overrides, config_for, read_file)
}

/// The `--kernel` values in the `// warpstep:` lines of a source.
fn source_kernel_names(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in source.lines() {
        let Some(rest) = line.trim_start().strip_prefix("// warpstep:") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        while let Some(w) = words.next() {
            if w == "--kernel" {
                if let Some(k) = words.next() {
                    out.push(k.to_string());
                }
            }
        }
    }
    out
}

/// Compiles a CUDA source (issue 29) for a launch: template instances named by `--kernel` in
/// `overrides` or the source's `// warpstep:` lines are instantiated, and `--kernel` is
/// resolved to the `.entry` name (a plain name finds a mangled kernel).
pub fn compile_cuda(
    source: &str,
    file_name: &str,
    overrides: &mut LaunchFlags,
) -> Result<crate::cuda::Compiled, InputError> {
    let mut names = source_kernel_names(source);
    names.extend(overrides.kernel.clone());
    let compiled =
        crate::cuda::compile_kernels(source, file_name, &names).map_err(InputError::Cuda)?;
    if let Some(name) = names.last() {
        if let Some(entry) = compiled.resolve_kernel(name) {
            overrides.kernel = Some(entry.to_string());
        }
    }
    Ok(compiled)
}

/// Whether a launch error is about the `--arg`s (their count, or one that does not fit its
/// parameter), which a `// warpstep:` line may have given.
fn about_args(e: &LaunchError) -> bool {
    match e {
        LaunchError::ArgMismatch { .. } | LaunchError::BadArg { .. } => true,
        LaunchError::Mismatch { why } => why.contains("--arg"),
        _ => false,
    }
}

/// Like [`prepare`]; a CUDA source ([`crate::cuda::is_cuda`]) is compiled to PTX first, its
/// errors naming `file_name`.
pub fn prepare_source(
    text: &str,
    file_name: &str,
    mut overrides: LaunchFlags,
    config_for: &dyn Fn(&str) -> Result<Config, String>,
    read_file: &dyn Fn(&str) -> Result<Vec<u8>, String>,
) -> Result<Prepared, InputError> {
    let cuda = match overrides.lang.as_deref() {
        Some(lang) => lang == "cuda",
        None => crate::cuda::is_cuda(text),
    };
    let compiled = if cuda {
        Some(compile_cuda(text, file_name, &mut overrides)?)
    } else {
        None
    };
    let ptx_text = compiled.as_ref().map_or(text, |c| c.ptx.as_str());
    let loaded = ptx::load(ptx_text).map_err(|error| {
        if ptx_text.as_ptr() == text.as_ptr() {
            InputError::Ptx(error)
        } else {
            InputError::GeneratedPtx {
                file: file_name.to_string(),
                error,
            }
        }
    })?;
    let program = Rc::new(loaded);
    // A flag error names the line of the CUDA source the `// warpstep:` line came from.
    let source_line = |line: u32| {
        compiled
            .as_ref()
            .and_then(|c| c.launch_source_line(line))
            .unwrap_or(line)
    };
    let comments: Vec<(u32, &str)> = program
        .launch_comments
        .iter()
        .map(|c| (source_line(c.line), c.text.as_str()))
        .collect();
    // The `// warpstep:` line that gave the arguments, when the caller gave none: a launch
    // that does not fit the kernel's parameters is reported at that line.
    let args_line = if overrides.args.is_empty() {
        comments
            .iter()
            .rev()
            .find(|(_, t)| t.split_whitespace().any(|w| w == "--arg"))
            .map(|(l, _)| *l)
    } else {
        None
    };
    let flags = LaunchFlags::from_directives(&comments)
        .map_err(InputError::Launch)?
        .overlay(overrides);
    let base = config_for(flags.config.as_deref().unwrap_or(DEFAULT_PRESET))
        .map_err(InputError::Config)?;
    let config = base
        .with_overrides(&flags.sets)
        .and_then(|c| c.check_supported().map(|()| c))
        .map_err(|e| InputError::Config(e.to_string()))?;
    let mut global = GlobalMemory::new();
    let image = KernelImage::new(program.clone(), &flags, &mut global, read_file)
        .map_err(|e| match args_line {
            Some(line) if about_args(&e) => LaunchError::AtLine {
                line,
                inner: Box::new(e),
            },
            _ => e,
        })
        .map_err(InputError::Launch)?;
    check_fits(&config, &image)?;
    let (generated_ptx, compile_notes) =
        compiled.map_or((None, Vec::new()), |c| (Some(Rc::from(c.ptx)), c.notes));
    Ok(Prepared {
        program,
        flags,
        config,
        image,
        global,
        generated_ptx,
        compile_notes,
    })
}

/// A CTA must fit one SM of the configuration.
fn check_fits(config: &Config, image: &KernelImage) -> Result<(), InputError> {
    let threads = image.threads_per_cta();
    if threads > config.core.max_threads_per_cta || threads > config.core.max_threads_per_sm {
        return Err(InputError::Launch(LaunchError::Mismatch {
            why: format!(
                "a block of {threads} threads does not fit the configuration (core.max_threads_per_cta = {}, core.max_threads_per_sm = {})",
                config.core.max_threads_per_cta, config.core.max_threads_per_sm
            ),
        }));
    }
    if image.shared_bytes > config.shmem.size_bytes {
        return Err(InputError::Launch(LaunchError::Mismatch {
            why: format!(
                "the kernel needs {} bytes of shared memory per CTA, more than shmem.size_bytes = {}",
                image.shared_bytes, config.shmem.size_bytes
            ),
        }));
    }
    Ok(())
}

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
    /// Timing runs with `unified.enabled`: the pool's division and arbitration conflicts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unified: Option<crate::sim::UnifiedStats>,
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
    report.l2 = Some(stats.l2);
    report.dram = Some(stats.dram);
    report.icnt = Some(stats.icnt);
    report.mrpb = stats.mrpb;
    report.conflict_history = stats.conflict_history;
    report.unified = stats.unified;
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
        l2: None,
        dram: None,
        icnt: None,
        mrpb: None,
        conflict_history: None,
        unified: None,
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
