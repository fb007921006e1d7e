//! The browser adapter: a thin wasm-bindgen layer over the model. Compiled only for `wasm32`.
//! It converts between JS values and the model's plain Rust types and holds no hardware logic:
//! a [`Session`] owns one [`Sim`] and its checkpoint [`Timeline`], steps it forwards (with a
//! cycle budget, so the tab never freezes) and backwards (restore + replay), and hands the
//! views their snapshots (MODEL.md section 12; STYLE.md "Snapshots to the renderer"): irregular
//! data as JSON, cut to the parts the views on screen draw (`snapshotParts`), the warp slots, the
//! warp timeline and the L1D lines as flat buffers, and the enum tables and record layouts once
//! at startup. It also exposes the bank index functions (for the address-bit
//! panel), the XOR paper's searches over the session's kernel (for the search panel) and two
//! sessions' counters side by side (for the A/B mode, [`crate::compare`]).

use crate::checkpoint::Timeline;
use crate::config::{Config, DivergenceMode};
use crate::core::WarpCycle;
use crate::launch::{LaunchError, LaunchFlags};
use crate::mem::BankHash;
use crate::ptx::SourceLines;
use crate::run::{prepare, InputError, Prepared, DEFAULT_MAX_CYCLES};
use crate::run_control::{self, Breakpoints, StopAt, Stopped};
use crate::sim::{Sim, Status};
use crate::snapshot::{l1_lines, snapshot, L1_LINE_WORDS, LINE_STATES};
use wasm_bindgen::prelude::*;

mod breaks;
mod classroom;

/// Checkpoint interval in cycles. Stepping back replays at most this many cycles from the last
/// checkpoint: at the slowest measured wasm speed (fermi, 48 warps, views recording warp
/// states: a few hundred thousand cycles/s) that is well under the 100 ms issue 6 allows.
pub const CHECKPOINT_INTERVAL: u64 = 10_000;
/// Checkpoints kept unthinned (the most recent `CHECKPOINT_DENSE x CHECKPOINT_INTERVAL` cycles);
/// older ones are thinned to one per power-of-two age (see `checkpoint.rs`).
pub const CHECKPOINT_DENSE: usize = 128;

/// Why a run call returned (codes exported in [`tables`] as `stop_reasons`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Stop {
    /// The cycle budget was spent; call again (next animation frame) to go on.
    Budget = 0,
    /// An instruction on a breakpoint line issued this cycle.
    Breakpoint = 1,
    /// The kernel completed, faulted or deadlocked.
    Finished = 2,
    /// The target cycle was reached.
    Target = 3,
}

const STOP_NAMES: [&str; 4] = ["budget", "breakpoint", "finished", "target"];

/// Runs once when the module is instantiated: route Rust panics to the browser console with a
/// readable message instead of an opaque `unreachable` trap.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// warpstep's version as compiled into this wasm module.
#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_string()
}

/// Whether `text` is a CUDA source (a `__global__` function and no `.version` directive), which
/// the Session compiles to PTX before loading; the editor picks its language from it.
#[wasm_bindgen(js_name = isCuda)]
pub fn is_cuda(text: &str) -> bool {
    crate::cuda::is_cuda(text)
}

/// The PTX warpstep compiles from the CUDA source `text` for `launch` (its `--kernel`, which may
/// name a template instance, over the source's `// warpstep:` lines): what the app shows beside a
/// CUDA kernel whose launch or generated PTX does not load. Throws the CUDA error (`kind` cuda,
/// `line`, `column`) when the source does not compile.
#[wasm_bindgen(js_name = compileCuda)]
pub fn compile_cuda(text: &str, launch: &str) -> Result<String, JsValue> {
    let tokens: Vec<&str> = launch.split_whitespace().collect();
    let mut flags =
        LaunchFlags::parse_tokens(&tokens).map_err(|e| input_error(&InputError::Launch(e)))?;
    crate::run::compile_cuda(text, "kernel.cu", &mut flags)
        .map(|c| c.ptx)
        .map_err(|e| input_error(&e))
}

/// The presets as a JSON array of `{name, description}`.
#[wasm_bindgen(js_name = presetList)]
pub fn preset_list() -> String {
    let list: Vec<serde_json::Value> = crate::config::presets()
        .iter()
        .map(|p| serde_json::json!({ "name": p.name, "description": p.description }))
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// A configuration as pretty JSON: a preset name, then `key=value` overrides (the CLI's `--set`).
/// Errors are thrown as JS exceptions carrying the same message the CLI prints.
#[wasm_bindgen(js_name = configJson)]
pub fn config_json(preset: &str, sets: Vec<String>) -> Result<String, JsError> {
    let config = crate::config::Config::preset(preset)
        .and_then(|c| c.with_overrides(&sets))
        .map_err(|e| JsError::new(&e.to_string()))?;
    Ok(config.to_json_pretty())
}

/// The occupancy calculator of the Setup tab (`warpstep occupancy --json`, Unified §4.5): the
/// `unified-micro12` pool, with `capacity_bytes` and `mode` (`full` | `fermi`) when given,
/// divided for `regs` registers a thread and shared memory per thread or per CTA of `block`
/// threads. JSON with the CLI's names (`threads`, `registers_kb`, `shared_kb`, `cache_kb`,
/// `cache_sets`, ...); bad input is thrown with the CLI's message.
#[wasm_bindgen(js_name = unifiedPartition)]
pub fn unified_partition(
    regs: f64,
    smem_per_thread: Option<f64>,
    smem_per_cta: Option<f64>,
    block: Option<f64>,
    capacity_bytes: Option<f64>,
    mode: Option<String>,
) -> Result<String, JsError> {
    use crate::core::unified_partition::{occupancy, occupancy_json, OccupancyQuery};
    let whole = |name: &str, v: f64| -> Result<u32, JsError> {
        if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) {
            Ok(v as u32)
        } else {
            Err(JsError::new(&format!(
                "{name} {v}: expected a whole number >= 0"
            )))
        }
    };
    let query = OccupancyQuery {
        regs: whole("--regs", regs)?,
        smem_per_thread,
        smem_per_cta: smem_per_cta
            .map(|v| whole("--smem-per-cta", v))
            .transpose()?,
        block: block.map(|v| whole("--block", v)).transpose()?,
        capacity_bytes: capacity_bytes.map(|v| whole("--capacity", v)).transpose()?,
        mode,
    };
    let config = Config::preset("unified-micro12").map_err(|e| JsError::new(&e.to_string()))?;
    let (pool, demand, p) = occupancy(&config, &query).map_err(|e| JsError::new(&e))?;
    Ok(occupancy_json(&pool, &demand, &p).to_string())
}

/// The codes the views need, defined once here and read by JS at startup: warp states / stall
/// reasons (`code`, `name`, `description` for hover text, `stall`), run stop reasons, the
/// checkpoint parameters, the L1D line and warp table layouts and the snapshot's part bits.
#[wasm_bindgen]
pub fn tables() -> String {
    use crate::view::snapshot_parts::{part, warp_table_layout as t};
    let states: Vec<serde_json::Value> = WarpCycle::ALL
        .iter()
        .map(|s| {
            serde_json::json!({
                "code": *s as u8,
                "name": s.name(),
                "description": s.description(),
                "stall": s.is_stall(),
            })
        })
        .collect();
    serde_json::json!({
        "warp_states": states,
        "stop_reasons": STOP_NAMES,
        "timeline_cycles": crate::core::timeline::TIMELINE_CYCLES,
        "checkpoint_interval": CHECKPOINT_INTERVAL,
        "checkpoint_dense": CHECKPOINT_DENSE,
        "line_states": LINE_STATES,
        "l1_line": {
            "words": L1_LINE_WORDS, "state": 0, "rank": 1, "block_hi": 2, "block_lo": 3,
            "sectors": 4, "sector_bits": 2,
        },
        "fail_reasons": ["assoc", "mshr", "miss_queue"],
        "snapshot_parts": serde_json::Map::from_iter(
            part::NAMES.iter().map(|&(n, bit)| (n.to_string(), bit.into()))
        ),
        "warp_table": {
            "header": t::HEADER, "fields": t::FIELDS, "present": t::PRESENT, "state": t::STATE,
            "line": t::LINE, "pc": t::PC, "cta": t::CTA, "warp_in_cta": t::WARP_IN_CTA,
            "mask_lo": t::MASK_LO, "mask_hi": t::MASK_HI, "depth": t::DEPTH, "flags": t::FLAGS,
            "in_flight": t::IN_FLIGHT, "stack_at": t::STACK_AT, "no_pc": t::NO_PC,
            "at_barrier": t::AT_BARRIER, "branch_pending": t::BRANCH_PENDING,
            "finished": t::FINISHED, "splits": t::SPLITS,
        },
        "search_methods": [
            { "method": "exhaustive", "families": ["bvxor"] },
            { "method": "gh", "families": ["bwperm", "bwxor"] },
            { "method": "mih", "families": ["bwperm", "bwxor"] },
        ],
        "search_access_limit": crate::search_view::SEARCH_ACCESS_LIMIT,
    })
    .to_string()
}

/// A bank index function for the address-bit panel (XOR Fig. 5): `spec` (`shmem.hash` syntax)
/// checked against `banks` banks, as JSON `{spec, banks, bank_bits, configurable, sources:
/// [{bank_bit, word_bits}], highest_bit, rank, addr_bits}`, where `addr_bits` is the word-address
/// width of a shared memory of `size_bytes` in `bank_width`-byte words. Throws the configuration's
/// error message when the SPEC does not parse or does not fit the bank count.
#[wasm_bindgen(js_name = bankFunction)]
pub fn bank_function(
    spec: &str,
    banks: u32,
    size_bytes: u32,
    bank_width: u32,
) -> Result<String, JsError> {
    let hash: BankHash = spec
        .trim()
        .parse()
        .map_err(|e| JsError::new(&format!("{e}")))?;
    let f = hash
        .compile(banks)
        .map_err(|e| JsError::new(&e.to_string()))?;
    Ok(serde_json::json!({
        "spec": hash.to_string(),
        "banks": f.banks(),
        "bank_bits": f.bank_bits(),
        "configurable": hash.is_configurable(),
        "sources": f.sources(),
        "highest_bit": f.highest_bit(),
        "rank": f.rank(),
        "addr_bits": crate::search_view::addr_bits_for(size_bytes, bank_width, banks),
    })
    .to_string())
}

/// The standard benchmark kernels (`warpstep::bench::STANDARD`) as JSON `{name, about, ptx,
/// flags}` (flags as one CLI-syntax string), for the benchmark page.
#[wasm_bindgen(js_name = benchCases)]
pub fn bench_cases() -> String {
    let list: Vec<serde_json::Value> = crate::bench::STANDARD
        .iter()
        .map(|c| {
            serde_json::json!({
                "name": c.name, "about": c.about, "ptx": c.ptx, "flags": c.flags.join(" "),
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// A JS `Error` with the message, plus `kind` (`ptx`, `cuda`, `generated_ptx`, `launch`,
/// `config`), `line` (the line of the input, or of the generated PTX for `generated_ptx`, when
/// there is one) and, for `cuda`, `column` properties.
fn input_error(e: &InputError) -> JsValue {
    let (kind, line) = match e {
        InputError::Ptx(p) => ("ptx", Some(p.line)),
        InputError::Cuda(c) => ("cuda", Some(c.line)),
        InputError::GeneratedPtx { error, .. } => ("generated_ptx", Some(error.line)),
        InputError::Launch(LaunchError::AtLine { line, .. }) => ("launch", Some(*line)),
        InputError::Launch(_) => ("launch", None),
        InputError::Config(_) => ("config", None),
    };
    let err = js_sys::Error::new(&e.to_string());
    let _ = js_sys::Reflect::set(&err, &"kind".into(), &kind.into());
    let line = line.map_or(JsValue::UNDEFINED, JsValue::from);
    let _ = js_sys::Reflect::set(&err, &"line".into(), &line);
    if let InputError::Cuda(c) = e {
        let _ = js_sys::Reflect::set(&err, &"column".into(), &JsValue::from(c.col));
    }
    err.into()
}

/// Resolves a `--config` value in the browser: a preset name, or a whole configuration as JSON.
fn config_for(name: &str) -> Result<Config, String> {
    if name.trim_start().starts_with('{') {
        Config::from_json(name).map_err(|e| e.to_string())
    } else {
        Config::preset(name).map_err(|e| e.to_string())
    }
}

/// One kernel launch being simulated in the browser.
#[wasm_bindgen]
pub struct Session {
    sim: Sim,
    timeline: Timeline,
    /// The breakpoints `runFor` stops at (by PTX and by CUDA line).
    breakpoints: Breakpoints,
    /// The line of the instruction that stopped the last run at a breakpoint (0: none).
    break_line: u32,
    /// The SM and warp slot whose instruction stopped the last run at a breakpoint, and the
    /// cycle the run stopped at.
    break_warp: Option<(u32, u32, u64)>,
    /// The effective launch (PTX `// warpstep:` lines overlaid by the user's) as JSON.
    launch: String,
    /// The launch as prepared, before any cycle ran (searches and runs to the end copy it).
    prepared: Prepared,
    /// Reused buffer of [`Session::l1_lines`].
    lines: Vec<u32>,
    /// The CUDA line of each PTX line (`.loc`), for the views and CUDA breakpoints.
    source: SourceLines,
}

#[wasm_bindgen]
impl Session {
    /// A simulation of `ptx` launched with `launch` (the CLI's launch flags, space separated;
    /// they override the PTX's `// warpstep:` lines) on `preset` (empty: the PTX's `--config`
    /// or the default; a preset name; or a configuration as JSON) with `sets` (`key=value`,
    /// the CLI's `--set`). Throws an `Error` with `kind` and, for PTX problems, `line`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        ptx: &str,
        launch: &str,
        preset: &str,
        sets: Vec<String>,
    ) -> Result<Session, JsValue> {
        let tokens: Vec<&str> = launch.split_whitespace().collect();
        let mut flags =
            LaunchFlags::parse_tokens(&tokens).map_err(|e| input_error(&InputError::Launch(e)))?;
        if !preset.trim().is_empty() {
            flags.config = Some(preset.trim().to_string());
        }
        flags.sets.extend(sets);
        let no_files = |p: &str| Err(format!("file:{p}: the browser cannot read files"));
        let prepared = prepare(ptx, flags, &config_for, &no_files).map_err(|e| input_error(&e))?;
        let launch = launch_json(&prepared);
        let pristine = prepared.clone();
        let sim = prepared.into_sim(&[]).map_err(|e| input_error(&e))?;
        let timeline = Timeline::new(&sim, CHECKPOINT_INTERVAL, CHECKPOINT_DENSE);
        let breakpoints = Breakpoints::default();
        let source = SourceLines::of(&pristine.program);
        Ok(Session {
            sim,
            timeline,
            breakpoints,
            break_line: 0,
            break_warp: None,
            launch,
            prepared: pristine,
            lines: Vec::new(),
            source,
        })
    }

    /// Cycles simulated so far.
    pub fn cycle(&self) -> f64 {
        self.sim.cycle() as f64
    }

    /// Whether the kernel completed, faulted or deadlocked.
    pub fn finished(&self) -> bool {
        self.sim.finished()
    }

    /// `running`, `completed` or `failed`.
    pub fn status(&self) -> String {
        match self.sim.status() {
            Status::Running => "running",
            Status::Completed => "completed",
            Status::Failed(_) => "failed",
        }
        .to_string()
    }

    /// The fault or deadlock report, if the run failed.
    pub fn error(&self) -> Option<String> {
        match self.sim.status() {
            Status::Failed(e) => Some(e.to_string()),
            _ => None,
        }
    }

    /// The PTX line a failed run stopped at (the faulting instruction, or the first stuck
    /// warp's line for a deadlock); 0 when there is none.
    #[wasm_bindgen(js_name = errorLine)]
    pub fn error_line(&self) -> u32 {
        match self.sim.status() {
            Status::Failed(crate::exec::RunError::Fault(f)) => f.line,
            Status::Failed(crate::exec::RunError::Stuck { warps, .. }) => {
                warps.first().map_or(0, |w| w.line)
            }
            _ => 0,
        }
    }

    /// Number of SMs.
    #[wasm_bindgen(js_name = numSms)]
    pub fn num_sms(&self) -> u32 {
        self.sim.sms().len() as u32
    }

    /// Warp slots per SM.
    #[wasm_bindgen(js_name = warpSlots)]
    pub fn warp_slots(&self) -> u32 {
        self.sim.sms().first().map_or(0, |s| s.warps().len() as u32)
    }

    /// Whether every warp's state is classified every cycle (on by default: the views' warp
    /// states and timeline need it; timing does not change).
    #[wasm_bindgen(js_name = setRecordWarpStates)]
    pub fn set_record_warp_states(&mut self, on: bool) {
        self.sim.set_record_warp_states(on);
    }

    /// One simulated cycle after another, `n` of them (fewer if the kernel ends); ignores
    /// breakpoints. Returns the cycles run.
    pub fn step(&mut self, n: u32) -> u32 {
        let start = self.sim.cycle();
        let timeline = &mut self.timeline;
        run_control::run(
            &mut self.sim,
            u64::from(n),
            &StopAt::default(),
            &mut |sim| timeline.observe(sim),
        );
        self.timeline.cover_warp_states(&mut self.sim);
        (self.sim.cycle() - start) as u32
    }

    /// Runs at most `budget` cycles, stopping after a cycle that issued an instruction on a
    /// breakpoint line. Returns a stop code (`tables().stop_reasons`).
    #[wasm_bindgen(js_name = runFor)]
    pub fn run_for(&mut self, budget: u32) -> u32 {
        let stop = StopAt {
            cycle: None,
            breakpoints: std::mem::take(&mut self.breakpoints),
        };
        let stopped = self.run_with(budget, &stop);
        self.breakpoints = stop.breakpoints;
        stopped as u32
    }

    /// Goes to cycle `target`: backwards through the checkpoints when it is behind, forwards
    /// at most `budget` cycles when ahead (call again until it returns `target`). Breakpoints
    /// are ignored. Returns a stop code.
    #[wasm_bindgen(js_name = runUntil)]
    pub fn run_until(&mut self, target: f64, budget: u32) -> u32 {
        let target = target.max(0.0) as u64;
        if target < self.sim.cycle() {
            self.rewind(target);
            return Stop::Target as u32;
        }
        let stop = StopAt {
            cycle: Some(target),
            ..StopAt::default()
        };
        self.run_with(budget, &stop) as u32
    }

    /// Runs at most `budget` cycles until an instruction on PTX line `line` issues (the
    /// breakpoints set with `setBreakpoints` are ignored). Returns a stop code.
    #[wasm_bindgen(js_name = runToLine)]
    pub fn run_to_line(&mut self, line: u32, budget: u32) -> u32 {
        let stop = self.stop_at_lines(vec![line], Vec::new());
        self.run_with(budget, &stop) as u32
    }

    /// Sets the breakpoint lines `runFor` stops at (PTX lines; the CUDA lines set with
    /// `setSourceBreakpoints` stay).
    #[wasm_bindgen(js_name = setBreakpoints)]
    pub fn set_breakpoints(&mut self, lines: Vec<u32>) {
        let source_lines = self.breakpoints.source_lines().to_vec();
        self.breakpoints = self.stop_at_lines(lines, source_lines).breakpoints;
    }

    /// Sets the CUDA source lines `runFor` stops at: every instruction compiled from one of
    /// them (its `.loc`) is a breakpoint.
    #[wasm_bindgen(js_name = setSourceBreakpoints)]
    pub fn set_source_breakpoints(&mut self, lines: Vec<u32>) {
        let ptx_lines = self.breakpoints.ptx_lines().to_vec();
        self.breakpoints = self.stop_at_lines(ptx_lines, lines).breakpoints;
    }

    /// Runs at most `budget` cycles until an instruction compiled from CUDA line `line` issues.
    #[wasm_bindgen(js_name = runToSourceLine)]
    pub fn run_to_source_line(&mut self, line: u32, budget: u32) -> u32 {
        let stop = self.stop_at_lines(Vec::new(), vec![line]);
        self.run_with(budget, &stop) as u32
    }

    /// The PTX warpstep compiled, when the input was CUDA (else `undefined`).
    #[wasm_bindgen(js_name = generatedPtx)]
    pub fn generated_ptx(&self) -> Option<String> {
        self.prepared.generated_ptx.as_deref().map(str::to_string)
    }

    /// The CUDA line of PTX line `ptx_line` (0: none).
    #[wasm_bindgen(js_name = sourceLine)]
    pub fn source_line(&self, ptx_line: u32) -> u32 {
        self.source.source_line(ptx_line)
    }

    /// The line whose instruction stopped the last run at a breakpoint (0: none).
    #[wasm_bindgen(js_name = breakLine)]
    pub fn break_line(&self) -> u32 {
        self.break_line
    }

    /// Steps back `n` cycles (to cycle 0 at most): restores the last checkpoint at or before the
    /// target and replays to it. Returns the new cycle.
    #[wasm_bindgen(js_name = stepBack)]
    pub fn step_back(&mut self, n: u32) -> f64 {
        let target = self.sim.cycle().saturating_sub(n as u64);
        self.rewind(target);
        self.cycle()
    }

    /// Back to cycle 0 (the checkpoints stay: the run is deterministic).
    pub fn reset(&mut self) {
        self.rewind(0);
    }

    /// A digest of the machine's state at this cycle as 16 hex digits (`Sim::state_digest`:
    /// FNV-1a over the warps' PCs, reconvergence state, scoreboards and registers, the
    /// instructions in flight, the memory queues and the statistics). The lessons record it
    /// for each step and the e2e tests check that a replay reaches it.
    #[wasm_bindgen(js_name = stateDigest)]
    pub fn state_digest(&self) -> String {
        format!("{:016x}", self.sim.state_digest())
    }

    /// The snapshot of SM `sm` as JSON (`crate::snapshot::Snapshot`).
    pub fn snapshot(&self, sm: u32) -> String {
        serde_json::to_string(&snapshot(&self.sim, sm as usize)).unwrap_or_default()
    }

    /// The snapshot of SM `sm` cut to the views on screen, as JSON
    /// (`crate::view::snapshot_parts::PartialSnapshot`): the parts whose bits are set in `parts`
    /// (`tables().snapshot_parts`), and always the cycle, status, statistics and warp slot
    /// `warp`'s whole view (`sm.warp`). A part left out is not built.
    #[wasm_bindgen(js_name = snapshotParts)]
    pub fn snapshot_parts(&self, sm: u32, parts: u32, warp: u32) -> String {
        let snap = crate::view::snapshot_parts::snapshot_parts(&self.sim, sm as usize, parts, warp);
        serde_json::to_string(&snap).unwrap_or_default()
    }

    /// The warp slots of SM `sm` as one flat table (`tables().warp_table` lays it out): the
    /// values of the snapshot's `sm.warps` the views draw for every warp each frame.
    #[wasm_bindgen(js_name = warpTable)]
    pub fn warp_table(&self, sm: u32) -> Vec<u32> {
        let mut out = Vec::new();
        crate::view::snapshot_parts::warp_table(&self.sim, sm as usize, &mut out);
        out
    }

    /// Why warp slot `warp` of SM `sm` did what it did in the last cycle (`lane` < 0: the whole
    /// warp; else why that lane is idle), as JSON (`crate::why::Why`); an error names the SM,
    /// slot or lane that does not exist.
    pub fn why(&self, sm: u32, warp: u32, lane: i32) -> Result<String, JsError> {
        let lane = u32::try_from(lane).ok();
        let why = crate::why::explain(&self.sim, sm, warp, lane).map_err(|e| JsError::new(&e))?;
        serde_json::to_string(&why).map_err(|e| JsError::new(&e.to_string()))
    }

    /// The warp timeline of SM `sm`: the held cycles oldest first, `warpSlots()` state codes
    /// per cycle (one copy out of wasm memory). The first held cycle is `timelineFirst(sm)`.
    pub fn timeline(&self, sm: u32) -> Vec<u8> {
        self.sm(sm)
            .map_or_else(Vec::new, |s| s.timeline().ordered())
    }

    /// The L1D lines of SM `sm`: sets x ways in order, `tables().l1_line.words` `u32`s per line
    /// (state code into `tables().line_states`, LRU rank, block address high and low, sector
    /// states); empty without an L1D. Geometry and queues are in the snapshot's `sm.l1`.
    #[wasm_bindgen(js_name = l1Lines)]
    pub fn l1_lines(&mut self, sm: u32) -> Vec<u32> {
        l1_lines(&self.sim, sm as usize, &mut self.lines);
        self.lines.clone()
    }

    /// Runs a bank-hash search of the XOR paper (`method` `exhaustive`, `gh` or `mih`; `family`
    /// `bvxor`, `bwperm` or `bwxor`) over this kernel's shared-memory warp accesses, collected by a
    /// functional run of the launch from the start (the session is not disturbed). `addr_bits` 0
    /// means the configuration's shared memory size. Returns `crate::search_view::SearchView` as
    /// JSON; throws the search's message (e.g. no shared accesses, unsupported pair).
    #[wasm_bindgen(js_name = searchHash)]
    pub fn search_hash(
        &self,
        method: &str,
        family: &str,
        addr_bits: u32,
    ) -> Result<String, JsError> {
        let method = method.parse().map_err(|e: String| JsError::new(&e))?;
        let family = family.parse().map_err(|e: String| JsError::new(&e))?;
        let view = crate::search_view::run_search(&self.prepared, method, family, addr_bits)
            .map_err(|e| JsError::new(&e))?;
        serde_json::to_string(&view).map_err(|e| JsError::new(&e.to_string()))
    }

    /// The whole run's `warpstep run --json` report: a copy of the session's simulation run to
    /// the end (without the views' warp-state recording, which does not change timing); the
    /// session stays where it is. For "cycles before / after" comparisons.
    #[wasm_bindgen(js_name = reportAtEnd)]
    pub fn report_at_end(&self) -> String {
        let mut sim = self.sim.clone();
        sim.set_record_warp_states(false);
        let max = self.prepared.flags.max_cycles.unwrap_or(DEFAULT_MAX_CYCLES);
        sim.run(max);
        serde_json::to_string(&crate::run::timing_report(&sim, &[])).unwrap_or_default()
    }

    /// The counters over time as CSV (cycle, interval and whole-run IPC and L1D hit rate), for
    /// the Stats view's export.
    #[wasm_bindgen(js_name = countersCsv)]
    pub fn counters_csv(&self) -> String {
        crate::counter_history::rates_csv(&self.sim.rate_history())
    }

    /// IPC and L1D hit rate over time, sampled by the model (`crate::counter_history`): five
    /// numbers per point (cycle, interval IPC, whole-run IPC, interval hit rate, whole-run hit
    /// rate; a hit rate is NaN where there were no L1D accesses), the last point at the present.
    #[wasm_bindgen(js_name = rateHistory)]
    pub fn rate_history(&self) -> Vec<f64> {
        let nan = |r: Option<f64>| r.unwrap_or(f64::NAN);
        self.sim
            .rate_history()
            .iter()
            .flat_map(|p| {
                [
                    p.cycle as f64,
                    p.ipc_interval,
                    p.ipc_total,
                    nan(p.hit_interval),
                    nan(p.hit_total),
                ]
            })
            .collect()
    }

    /// The oldest cycle the warp timeline of SM `sm` still holds.
    #[wasm_bindgen(js_name = timelineFirst)]
    pub fn timeline_first(&self, sm: u32) -> f64 {
        self.sm(sm).map_or(0.0, |s| s.timeline().window().0 as f64)
    }

    /// The PTX listing as JSON: `{kernel, lines: [text], instr_lines: [line per PC],
    /// placed: [[pseudo-instruction before the PC, e.g. "WAIT B1", "ADD B0"]] per PC}`;
    /// `placed` lists independent thread scheduling's convergence barriers (book §3.1.2) and is
    /// empty lists under the SIMT stack.
    pub fn listing(&self) -> String {
        let image = self.sim.image();
        let func = image.func();
        let barriers = self.sim.config().core.divergence == DivergenceMode::ConvergenceBarriers;
        let placed: Vec<Vec<String>> = (0..func.instrs.len() as u32)
            .map(|pc| {
                if barriers {
                    func.convergence_barriers.annotations(pc)
                } else {
                    Vec::new()
                }
            })
            .collect();
        serde_json::json!({
            "kernel": func.name,
            "lines": image.program.lines,
            "instr_lines": func.instrs.iter().map(|i| i.line).collect::<Vec<_>>(),
            "placed": placed,
            "source_lines": self.source.by_ptx_line,
            "block_labels": func.block_labels(),
            "source_file": self.source.file_name,
            "generated": self.prepared.generated_ptx.is_some(),
            "compile_notes": self.prepared.compile_notes,
        })
        .to_string()
    }

    /// The configuration in effect, as pretty JSON.
    pub fn config(&self) -> String {
        self.sim.config().to_json_pretty()
    }

    /// The launch in effect (the PTX's `// warpstep:` lines overlaid by the user's flags) as
    /// JSON: `{kernel, grid, block, config, sets}`.
    pub fn launch(&self) -> String {
        self.launch.clone()
    }

    /// The run so far as `warpstep run --json` reports it.
    pub fn report(&self) -> String {
        serde_json::to_string(&crate::run::timing_report(&self.sim, &[])).unwrap_or_default()
    }

    /// This run so far (A) against `other`'s (B: the app's A/B mode, the same kernel under
    /// another configuration), counter by counter as `warpstep compare` pairs them: both
    /// `report()`s through [`crate::compare::diff_json`], as JSON `{counters: [{key, a, b,
    /// ratio, differs}], differing}`; `all` keeps every counter, not only the headline ones
    /// and those that differ.
    #[wasm_bindgen(js_name = compareCounters)]
    pub fn compare_counters(&self, other: &Session, all: bool) -> String {
        let a = crate::run::timing_report(&self.sim, &[]);
        let b = crate::run::timing_report(&other.sim, &[]);
        crate::compare::diff_json(&a, &b, all).to_string()
    }

    /// The run so far as `warpstep run --json --dump A ...` reports it: the report with the
    /// final contents of the buffer arguments `args` (by argument index) in `buffers`.
    #[wasm_bindgen(js_name = reportWithBuffers)]
    pub fn report_with_buffers(&self, args: Vec<u32>) -> String {
        let dumps: Vec<usize> = args.iter().map(|&a| a as usize).collect();
        serde_json::to_string(&crate::run::timing_report(&self.sim, &dumps)).unwrap_or_default()
    }

    /// Records every issued instruction from now on (the CLI's `--trace`), for `takeIssues`.
    #[wasm_bindgen(js_name = setTracing)]
    pub fn set_tracing(&mut self, on: bool) {
        self.sim.set_tracing(on);
    }

    /// The instructions issued since the last call (with `setTracing(true)`), as JSON
    /// `[{cycle, sm, warp, pc, line, mask, lanes}]`: `mask` (hex) and `lanes` (per lane) are
    /// the active mask the instruction issued with.
    #[wasm_bindgen(js_name = takeIssues)]
    pub fn take_issues(&mut self) -> String {
        let warp_size = self.sim.config().core.warp_size;
        self.sim.take_commits();
        let events: Vec<serde_json::Value> = self
            .sim
            .take_trace()
            .into_iter()
            .map(|e| {
                serde_json::json!({
                    "cycle": e.cycle,
                    "sm": e.sm,
                    "warp": e.warp,
                    "pc": e.pc,
                    "line": e.line,
                    "mask": crate::trace::mask_text(e.mask, warp_size),
                    "lanes": (0..warp_size).map(|l| e.mask >> l & 1 == 1).collect::<Vec<_>>(),
                })
            })
            .collect();
        serde_json::Value::Array(events).to_string()
    }

    /// The run from cycle 0 to the current cycle as a Chrome/Perfetto trace (JSON text for
    /// ui.perfetto.dev, [`crate::perfetto`]: warp states, instructions, execution-unit
    /// occupancy, memory requests through the L1D, L2 slices and DRAM, queue depths),
    /// re-simulated from the first checkpoint; the session itself does not move.
    pub fn perfetto(&self) -> String {
        let mut sim = self.timeline.rewind(0);
        crate::perfetto::record_run(&mut sim, self.sim.cycle())
    }

    /// Cycles of the checkpoints held (for the benchmark page and tests).
    #[wasm_bindgen(js_name = checkpointCycles)]
    pub fn checkpoint_cycles(&self) -> Vec<f64> {
        self.timeline
            .cycles()
            .into_iter()
            .map(|c| c as f64)
            .collect()
    }
}

impl Session {
    /// Runs at most `budget` cycles under `stop` (the model's run control), keeping the
    /// checkpoints and the line of a breakpoint hit.
    fn run_with(&mut self, budget: u32, stop: &StopAt) -> Stop {
        self.break_line = 0;
        self.break_warp = None;
        let timeline = &mut self.timeline;
        let stopped = run_control::run(&mut self.sim, u64::from(budget), stop, &mut |sim| {
            timeline.observe(sim)
        });
        self.timeline.cover_warp_states(&mut self.sim);
        match stopped {
            Stopped::Budget => Stop::Budget,
            Stopped::Breakpoint(hit) => {
                self.break_line = hit.line;
                self.break_warp = Some((hit.sm, hit.warp, self.sim.cycle()));
                Stop::Breakpoint
            }
            Stopped::Finished => Stop::Finished,
            Stopped::Cycle => Stop::Target,
        }
    }

    /// Stop conditions for breakpoints on PTX lines `ptx_lines` and CUDA lines `source_lines`.
    fn stop_at_lines(&self, ptx_lines: Vec<u32>, source_lines: Vec<u32>) -> StopAt {
        StopAt {
            cycle: None,
            breakpoints: Breakpoints::new(
                self.sim.image().func(),
                &self.source,
                ptx_lines,
                source_lines,
            ),
        }
    }

    fn rewind(&mut self, target: u64) {
        let record = self
            .sim
            .sms()
            .first()
            .map_or(true, |s| s.records_warp_states());
        self.sim = match record {
            true => self.timeline.rewind_for_views(target),
            false => self.timeline.rewind(target),
        };
        self.sim.set_record_warp_states(record);
        self.break_line = 0;
        self.break_warp = None;
    }

    fn sm(&self, sm: u32) -> Option<&crate::core::sm::Sm> {
        self.sim.sms().get(sm as usize)
    }
}

fn launch_json(p: &crate::run::Prepared) -> String {
    let dim = |d: crate::launch::Dim3| [d.x, d.y, d.z];
    serde_json::json!({
        "kernel": p.image.func().name,
        "grid": dim(p.image.grid),
        "block": dim(p.image.block),
        "config": p.flags.config,
        "sets": p.flags.sets,
    })
    .to_string()
}
