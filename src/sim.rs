//! The whole simulated GPU, stepped one cycle at a time (issue 4; MODEL.md section 1): the SMs,
//! the CTA dispatcher that places thread blocks on SMs as resources allow (round-robin; blocks run
//! to completion, no preemption: book section 5.1), and global memory. The browser and the CLI
//! drive it through [`Sim::step`] and [`Sim::run`]; the views read it through
//! `crate::snapshot`; it is `Clone`, so checkpoints are plain copies (STYLE.md, "Reverse
//! stepping").
//!
//! Order within a cycle: the dispatcher places at most one CTA per SM; the memory system below
//! the LD/ST units (interconnect, L2 slices, DRAM, and the L1Ds' fill and miss ports) runs its
//! cycle ([`MemorySystem::cycle`] documents its own order); then every SM runs its cycle in SM
//! order, reaching its L1D through `SmContext` (GPGPU-Sim's `gpgpu_sim::cycle` issues blocks,
//! moves the interconnect, DRAM and L2, then cycles the cores). A launch is complete when every
//! CTA has finished and the memory system has drained (the last stores have reached the L2).

use crate::config::{Config, DivergenceMode};
use crate::core::ccws::CcwsStats;
use crate::core::conflict_history::HistoryStats;
use crate::core::decode::{decode_kernel, Decoded};
pub use crate::core::register_banks::RegisterFileStats;
use crate::core::sm::{CommitEvent, ExecContext, IssueEvent, Sm, SmStats};
use crate::core::sm_array;
use crate::core::unified_partition::{self, Partition, StorageDemand};
use crate::counter_history::{CounterHistory, CounterSample, RatePoint};
use crate::energy::{EnergyCounts, EnergyReport};
use crate::exec::cta::{cta_index, CtaState};
use crate::exec::fault::StuckWarp;
use crate::exec::functional::register_masks;
use crate::exec::{GlobalMemory, KernelImage, RunError};
use crate::mem::dram::DramStats;
use crate::mem::icnt::IcntStats;
use crate::mem::l2::L2Stats;
use crate::mem::mrpb::MrpbStats;
use crate::mem::{L1dStats, MemorySystem};
use crate::prepare::Prepared;
use crate::ptx::liveness::max_live_registers;
use serde::Serialize;
use std::collections::BTreeMap;
use std::rc::Rc;

#[path = "sim_stats.rs"]
mod stats;

pub use stats::{PerSmStats, SharedMemStats, SimStats, SimtStats, SplitSummary, UnifiedStats};

/// Where a simulation stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Running,
    /// Every CTA ran to completion.
    Completed,
    /// A fault or a deadlock stopped it.
    Failed(RunError),
}

/// Registers allocated per thread: `--regs` when given (what `ptxas -v` reports for the
/// kernel: PTX's virtual registers are not the machine's, and the most of them live at once,
/// the default, is often far more than ptxas allocates), else the most PTX registers live at
/// once. It sets occupancy and the unified partition only; warpstep runs the PTX's own
/// registers and models no spill code.
fn registers_per_thread(image: &KernelImage) -> u32 {
    image
        .regs
        .unwrap_or_else(|| max_live_registers(image.func()))
}

/// With `unified.enabled`, the SM this kernel runs on: its local storage divided for the
/// kernel (Unified §4.5, [`unified_partition::launch_config`]); otherwise `config` unchanged.
fn partition_storage(
    config: Config,
    registers_per_thread: u32,
    image: &KernelImage,
) -> Result<(Config, Option<Partition>), String> {
    if !config.unified.enabled {
        return Ok((config, None));
    }
    let threads = image.threads_per_cta();
    let demand = StorageDemand::for_launch(registers_per_thread, image.shared_bytes, threads);
    let (c, p) = unified_partition::launch_config(&config, &demand)
        .map_err(|e| format!("unified memory: {e} ({registers_per_thread} registers a thread)"))?;
    Ok((c, Some(p)))
}

/// Threads a new simulation spreads its SMs over (see [`Sim::set_threads`]); 1 unless set.
static DEFAULT_THREADS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(1);

/// Sets the thread count new simulations start with (the CLI's `--threads`).
pub fn set_default_threads(threads: usize) {
    DEFAULT_THREADS.store(threads.max(1), std::sync::atomic::Ordering::Relaxed);
}

/// The simulated GPU running one kernel launch.
#[derive(Debug, Clone)]
pub struct Sim {
    config: Rc<Config>,
    image: Rc<KernelImage>,
    decoded: Rc<[Decoded]>,
    reg_masks: Rc<[u64]>,
    global: GlobalMemory,
    sms: Vec<Sm>,
    /// L1Ds, interconnect, L2 and DRAM (issue 5).
    memory: MemorySystem,
    cycle: u64,
    /// The cycle from which every warp's state has been classified without a gap (while
    /// [`Sim::records_warp_states`]).
    warp_states_since: u64,
    next_cta: u64,
    total_ctas: u64,
    next_sm: usize,
    registers_per_cta: u32,
    status: Status,
    tracing: bool,
    trace: Vec<IssueEvent>,
    /// With tracing: every instruction that wrote back.
    commits: Vec<CommitEvent>,
    /// Counters sampled for the over-time plots.
    history: CounterHistory,
    /// How the unified local memory was divided for this kernel (`unified.enabled`).
    partition: Option<Partition>,
    /// Threads the SMs of a cycle are spread over (1: in order; see [`Sim::set_threads`]).
    threads: usize,
}

impl Sim {
    /// A simulation of a prepared launch (see [`crate::prepare::prepare`]). Fails when one CTA
    /// cannot fit an SM.
    pub fn new(prepared: Prepared) -> Result<Sim, String> {
        let Prepared {
            config,
            image,
            global,
            ..
        } = prepared;
        let func = image.func();
        let registers_per_thread = registers_per_thread(&image);
        let threads = image.threads_per_cta();
        let (config, partition) = partition_storage(config, registers_per_thread, &image)?;
        let registers_per_cta = registers_per_thread * threads;
        if registers_per_cta > config.core.registers_per_sm {
            return Err(format!(
                "a CTA of {threads} threads needs {registers_per_cta} registers ({registers_per_thread} per thread), more than core.registers_per_sm = {}",
                config.core.registers_per_sm
            ));
        }
        let warps = threads.div_ceil(config.core.warp_size);
        if warps > config.core.max_warps_per_sm {
            return Err(format!(
                "a CTA of {threads} threads needs {warps} warps, more than core.max_warps_per_sm = {}",
                config.core.max_warps_per_sm
            ));
        }
        let sms = (0..config.num_sms)
            .map(|i| Sm::new(i, &config))
            .collect::<Result<Vec<_>, _>>()?;
        let mut memory = MemorySystem::new(&config)?;
        if config.l2.fill_on_copy {
            memory.fill_l2_with_copies(&host_copies(&image));
        }
        let decoded: Rc<[Decoded]> = decode_kernel(func, &config.units, &config.regfile).into();
        let reg_masks: Rc<[u64]> = register_masks(&image).into();
        let mut sim = Sim {
            total_ctas: image.grid.count(),
            config: Rc::new(config),
            image: Rc::new(image),
            decoded,
            reg_masks,
            global,
            sms,
            memory,
            cycle: 0,
            warp_states_since: 0,
            next_cta: 0,
            next_sm: 0,
            registers_per_cta,
            status: Status::Running,
            tracing: false,
            trace: Vec::new(),
            commits: Vec::new(),
            history: CounterHistory::default(),
            partition,
            threads: DEFAULT_THREADS.load(std::sync::atomic::Ordering::Relaxed),
        };
        sim.sample_counters();
        Ok(sim)
    }

    /// How the unified local memory was divided for this kernel (`None` unless
    /// `unified.enabled`).
    pub fn partition(&self) -> Option<&Partition> {
        self.partition.as_ref()
    }

    /// Steps the SMs of each cycle on up to `threads` threads of rayon's global pool (natively;
    /// the wasm build and tracing step them in order). Results are the same for every count
    /// (`crate::core::sm_array`).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Keeps an [`IssueEvent`] for every issued instruction (see [`Sim::take_trace`]).
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
    }

    /// Keeps a log of the global memory path's events ([`crate::mem::events`]: each L1D
    /// access and its outcome, each reply to the LD/ST unit, each fetch into and out of the
    /// interconnect, the L2 slices and the DRAM channels) for [`Sim::take_memory_events`]. Off
    /// by default; timing is the same either way.
    pub fn set_memory_events(&mut self, on: bool) {
        self.memory.set_event_log(on);
    }

    /// The memory events logged since the last call, in cycle order.
    pub fn take_memory_events(&mut self) -> Vec<crate::mem::MemEvent> {
        self.memory.take_events()
    }

    /// Whether the SMs classify every warp every cycle (for the views' warp states and
    /// timeline). On by default; batch runs turn it off: timing and statistics do not change.
    pub fn set_record_warp_states(&mut self, on: bool) {
        if on && !self.records_warp_states() {
            self.warp_states_since = self.cycle;
        }
        for sm in &mut self.sms {
            sm.set_record_warp_states(on);
        }
    }

    /// Whether the SMs classify every warp every cycle (see [`Sim::set_record_warp_states`]).
    pub fn records_warp_states(&self) -> bool {
        self.sms.first().is_some_and(Sm::records_warp_states)
    }

    /// Whether every warp's state was classified in each of the last `cycles` cycles (or since
    /// cycle 0), so the warp timeline and the views show them all.
    pub fn warp_states_cover(&self, cycles: u64) -> bool {
        self.records_warp_states() && self.cycle - self.warp_states_since >= cycles.min(self.cycle)
    }

    /// The issue events recorded since the last call.
    pub fn take_trace(&mut self) -> Vec<IssueEvent> {
        std::mem::take(&mut self.trace)
    }

    /// The writeback events recorded (with tracing on) since the last call.
    pub fn take_commits(&mut self) -> Vec<CommitEvent> {
        std::mem::take(&mut self.commits)
    }

    /// The cycles simulated so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// CTAs placed on SMs so far (in launch order).
    pub fn ctas_dispatched(&self) -> u64 {
        self.next_cta
    }

    /// Whether the CTAs still to be placed are no more than those resident now: the grid is in
    /// its last two waves, so the kernel may end within about one CTA's lifetime.
    pub fn in_last_waves(&self) -> bool {
        let resident: u64 = self
            .sms
            .iter()
            .map(|sm| u64::from(sm.resident_ctas()))
            .sum();
        self.total_ctas - self.next_cta.min(self.total_ctas) <= resident
    }

    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Whether the run has ended (completed or failed).
    pub fn finished(&self) -> bool {
        self.status != Status::Running
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn image(&self) -> &KernelImage {
        &self.image
    }

    pub fn global(&self) -> &GlobalMemory {
        &self.global
    }

    pub fn sms(&self) -> &[Sm] {
        &self.sms
    }

    /// The memory system (L1Ds, interconnect, L2 slices, DRAM channels).
    pub fn memory(&self) -> &MemorySystem {
        &self.memory
    }

    /// Per-instruction decode information of the kernel.
    pub fn decoded(&self) -> &[Decoded] {
        &self.decoded
    }

    /// One cycle. Does nothing once finished. Order: CTA dispatch, then the memory system's
    /// cycle (L1D fills, L2 replies into the interconnect, DRAM, L2 slices, L1D misses into the
    /// interconnect, each L1D's reply posted to the port of a working SM's LD/ST unit:
    /// [`MemorySystem::cycle`]), then each SM in order with its own L1D.
    pub fn step(&mut self) {
        if self.finished() {
            return;
        }
        self.dispatch_ctas();
        let now = self.cycle;
        let sms = &self.sms;
        self.memory
            .cycle(now, |sm| sms.get(sm).is_some_and(Sm::works));
        let exec = ExecContext {
            image: &self.image,
            decoded: &self.decoded,
            reg_masks: &self.reg_masks,
            sms: self.config.num_sms,
        };
        let trace = self.tracing.then_some(&mut self.trace);
        let l1ds = self.memory.l1ds_mut();
        sm_array::cycle_all(
            now,
            &mut self.sms,
            l1ds,
            exec,
            &mut self.global,
            trace,
            self.threads,
        );
        if self.tracing {
            for sm in &self.sms {
                let id = sm.id;
                let written = &sm.last_cycle().writeback;
                self.commits
                    .extend(written.iter().map(|&(warp, pc)| CommitEvent {
                        cycle: now,
                        sm: id,
                        warp,
                        pc,
                    }));
            }
        }
        self.cycle += 1;
        self.check_end();
        if self.history.due(self.cycle) {
            self.sample_counters();
        }
    }

    /// The running totals the over-time plots need, now.
    fn counter_sample(&self) -> CounterSample {
        let mut s = CounterSample {
            cycle: self.cycle,
            ..CounterSample::default()
        };
        for sm in &self.sms {
            s.thread_instructions += sm.thread_instructions();
        }
        for l1 in self.memory.l1ds() {
            let l = l1.stats();
            s.l1d_accesses += l.accesses;
            s.l1d_hits += l.hits;
        }
        s
    }

    fn sample_counters(&mut self) {
        let sample = self.counter_sample();
        self.history.record(sample);
    }

    /// IPC and L1D hit rate over time: one point per sample, the last at the present cycle.
    pub fn rate_history(&self) -> Vec<RatePoint> {
        self.history.rates(self.counter_sample())
    }

    /// Runs until the kernel ends or `max_cycles` cycles have been simulated in all; returns
    /// the cycles run by this call.
    pub fn run(&mut self, max_cycles: u64) -> u64 {
        let start = self.cycle;
        sm_array::with_threads_standing_by(self.threads, || {
            while !self.finished() && self.cycle < max_cycles {
                self.step();
            }
        });
        if !self.finished() {
            self.status = Status::Failed(self.stuck(format!(
                "the kernel did not finish within {max_cycles} cycles (--max-cycles)"
            )));
        }
        self.cycle - start
    }

    /// Runs at most `budget` cycles (stopping early when the kernel ends); returns cycles run.
    pub fn run_for(&mut self, budget: u64) -> u64 {
        let start = self.cycle;
        sm_array::with_threads_standing_by(self.threads, || {
            while !self.finished() && self.cycle - start < budget {
                self.step();
            }
        });
        self.cycle - start
    }

    /// Places waiting CTAs: at most one per SM per cycle, SMs taken round-robin.
    fn dispatch_ctas(&mut self) {
        let n = self.sms.len();
        let threads = self.image.threads_per_cta();
        let shared = self.image.shared_bytes;
        // Every SM is visited once per cycle, starting after the last one that took a CTA
        // (GPGPU-Sim's `issue_block2core`).
        let start = self.next_sm;
        for k in 0..n {
            if self.next_cta >= self.total_ctas {
                return;
            }
            let s = (start + k) % n;
            if !self.sms[s].fits(threads, self.registers_per_cta, shared) {
                continue;
            }
            let index = self.next_cta;
            let cta = CtaState::new(
                &self.image,
                cta_index(self.image.grid, index),
                self.config.core.warp_size,
                self.config.core.divergence(),
            );
            let age_base = index * 1024;
            self.sms[s].launch(cta, index, self.registers_per_cta, shared, age_base);
            self.next_cta += 1;
            self.next_sm = (s + 1) % n;
        }
    }

    fn check_end(&mut self) {
        for i in 0..self.sms.len() {
            if let Some(fault) = self.sms[i].take_fault() {
                self.status = Status::Failed(RunError::Fault(fault));
                return;
            }
        }
        let deadlock = self.config.core.deadlock_cycles as u64;
        let last_progress = self.sms.iter().map(Sm::last_progress).max().unwrap_or(0);
        if self.cycle.saturating_sub(last_progress) >= deadlock {
            self.status = Status::Failed(self.stuck(format!(
                "deadlock: no forward progress for {deadlock} cycles (core.deadlock_cycles): while warps remain, no instruction changed a register or memory value, no warp exited and no barrier or CTA completed"
            )));
            return;
        }
        if self.next_cta >= self.total_ctas
            && self.sms.iter().all(|sm| !sm.is_busy())
            && self.memory.is_idle()
        {
            self.status = Status::Completed;
        }
    }

    /// A report of every live warp: where it is and what it waits for.
    fn stuck(&self, reason: String) -> RunError {
        let func = self.image.func();
        let mut warps = Vec::new();
        for sm in &self.sms {
            for (slot, w) in sm.warps().iter().enumerate() {
                let Some(w) = w else { continue };
                if w.finished {
                    continue;
                }
                let Some(state) = sm.warp_state(slot as u32) else {
                    continue;
                };
                let cta = sm.ctas()[w.cta_slot as usize]
                    .as_ref()
                    .map_or([0; 3], |c| c.cta.ctaid);
                let mut report = StuckWarp::describe(func, cta, w.warp_in_cta, state, None);
                if w.at_barrier {
                    report.pc = w.barrier_pc;
                    report.line = func.instr(w.barrier_pc).map_or(0, |i| i.line);
                    report.text = func.text(w.barrier_pc).to_string();
                }
                report.waiting_for = Some(format!(
                    "last cycle: {} (SM {}, warp slot {slot})",
                    w.state.name(),
                    sm.id
                ));
                warps.push(report);
            }
        }
        RunError::Stuck { reason, warps }
    }

    /// Global memory after the run (for reading buffers back).
    pub fn into_global(self) -> GlobalMemory {
        self.global
    }
}

/// The buffers the host copies in before the launch, as (address, bytes), in argument order.
fn host_copies(image: &KernelImage) -> Vec<(u64, u64)> {
    image
        .buffers
        .iter()
        .filter(|b| b.copied)
        .map(|b| (b.base, (b.count * b.elem.size()) as u64))
        .collect()
}
