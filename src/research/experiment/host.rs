//! A host program: the CPU side of a CUDA application that launches kernels one after another
//! and keeps its device buffers between them (`cudaMalloc` once, many `<<<grid, block>>>`
//! launches, `cudaMemcpy` back at the end), as Rodinia's needle and bfs do. Each launch is a
//! fresh simulation of one SM ([`Sim`]): its caches start cold, as Fermi's L1 does after a
//! kernel boundary; the buffers carry over.
//!
//! [`Device`] keeps the buffers by name and the [`Totals`] over every launch: cycles (the
//! launches run back to back), instructions, L1D and DRAM traffic, the unified pool's
//! arbitration conflicts and the energy counts, priced once at the end ([`Totals::energy`]).

use crate::config::Config;
use crate::energy::{self, EnergyCounts, EnergyReport};
use crate::launch::{ArgSpec, BufferInit, Dim3, ElemType, LaunchFlags, Number};
use crate::run::{self, prepare, DEFAULT_MAX_CYCLES};
use crate::sim::{Sim, Status, UnifiedStats};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One device buffer: its element type and bytes.
#[derive(Debug, Clone)]
struct DeviceBuffer {
    elem: ElemType,
    bytes: Vec<u8>,
}

/// One kernel argument: a device buffer by name or a number by value.
#[derive(Debug, Clone)]
pub enum Arg<'a> {
    Buffer(&'a str),
    Value(i64),
    /// A float parameter (`.f32` or `.f64`, as the kernel declares it).
    Float(f64),
}

/// What a host program's launches added up to.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub launches: u64,
    pub cycles: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub l1d_accesses: u64,
    pub l1d_hits: u64,
    pub dram_reads: u64,
    pub dram_writes: u64,
    /// Bytes the DRAM data bus carried, both ways.
    pub dram_bytes: u64,
    /// Shared accesses and cache requests that waited for a bank the register file held
    /// (Unified §4.3; 0 when partitioned).
    pub arbitration_conflicts: u64,
    /// The unified pool's division for the last launch (`None` when partitioned); a program's
    /// kernels share one storage shape, so it stands for all of them.
    #[serde(default, deserialize_with = "super::shard_serde::unified_stats")]
    pub partition: Option<UnifiedStats>,
    #[serde(deserialize_with = "super::shard_serde::energy_counts")]
    pub energy_counts: EnergyCounts,
}

impl Totals {
    fn add(&mut self, sim: &Sim) {
        let s = sim.stats();
        self.launches += 1;
        self.cycles += s.cycles;
        self.warp_instructions += s.warp_instructions;
        self.thread_instructions += s.thread_instructions;
        self.l1d_accesses += s.l1d.accesses;
        self.l1d_hits += s.l1d.hits;
        self.dram_reads += s.dram.reads;
        self.dram_writes += s.dram.writes;
        let counts = sim.energy_counts();
        self.dram_bytes += counts.dram_bytes;
        self.energy_counts.add(&counts);
        if let Some(u) = s.unified {
            self.arbitration_conflicts += u.arbitration_conflicts;
            self.partition = Some(u);
        }
    }

    /// The energy of every launch under `config` (Unified §5.2), with the SM's dynamic energy
    /// priced over `sm_dynamic_cycles` (the paper prices it at the baseline's run time, the
    /// same for every design) and leakage over this program's own cycles.
    pub fn energy(&self, config: &Config, sm_dynamic_cycles: u64) -> EnergyReport {
        let own = energy::price(config, &self.energy_counts, self.cycles);
        let base = energy::price(config, &EnergyCounts::default(), sm_dynamic_cycles);
        EnergyReport {
            sm_dynamic_pj: base.sm_dynamic_pj,
            total_pj: own.total_pj - own.sm_dynamic_pj + base.sm_dynamic_pj,
            ..own
        }
    }

    /// The L1D's hit rate over every launch (0 with no accesses).
    pub fn l1d_hit_rate(&self) -> f64 {
        if self.l1d_accesses == 0 {
            0.0
        } else {
            self.l1d_hits as f64 / self.l1d_accesses as f64
        }
    }
}

/// The device side of a host program: one PTX module, one configuration (a preset with
/// `--set`s), named buffers, and the totals of the launches so far.
#[derive(Debug, Clone)]
pub struct Device<'p> {
    ptx: &'p str,
    preset: String,
    sets: Vec<String>,
    /// `--regs`: registers a thread as ptxas allocates them (occupancy and partition).
    regs: Option<u32>,
    buffers: BTreeMap<String, DeviceBuffer>,
    totals: Totals,
    /// The configuration the last launch ran (after the unified partition), for pricing.
    last_config: Option<Config>,
}

impl<'p> Device<'p> {
    pub fn new(ptx: &'p str, preset: &str, sets: &[String], regs: Option<u32>) -> Self {
        Device {
            ptx,
            preset: preset.to_string(),
            sets: sets.to_vec(),
            regs,
            buffers: BTreeMap::new(),
            totals: Totals::default(),
            last_config: None,
        }
    }

    /// `cudaMalloc` + `cudaMemcpy` in: a buffer called `name` holding `values`.
    pub fn upload_i32(&mut self, name: &str, values: &[i32]) {
        let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.upload(name, ElemType::S32, bytes);
    }

    /// As [`Device::upload_i32`], 32-bit floats.
    pub fn upload_f32(&mut self, name: &str, values: &[f32]) {
        let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.upload(name, ElemType::F32, bytes);
    }

    /// As [`Device::upload_i32`], bytes.
    pub fn upload_u8(&mut self, name: &str, values: &[u8]) {
        self.upload(name, ElemType::U8, values.to_vec());
    }

    /// A buffer called `name` of element type `elem` holding `bytes` (a whole number of
    /// elements).
    pub fn upload(&mut self, name: &str, elem: ElemType, bytes: Vec<u8>) {
        self.buffers
            .insert(name.to_string(), DeviceBuffer { elem, bytes });
    }

    /// `cudaMemcpy` out: buffer `name`'s bytes (empty when there is none).
    pub fn bytes(&self, name: &str) -> &[u8] {
        self.buffers.get(name).map_or(&[], |b| b.bytes.as_slice())
    }

    /// Buffer `name` as 32-bit signed integers.
    pub fn i32s(&self, name: &str) -> Vec<i32> {
        self.bytes(name)
            .chunks_exact(4)
            .map(|w| i32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    }

    /// Buffer `name` as 32-bit floats.
    pub fn f32s(&self, name: &str) -> Vec<f32> {
        self.bytes(name)
            .chunks_exact(4)
            .map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    }

    /// One launch of `kernel` on `grid` CTAs of `block` threads (one-dimensional) with `args`,
    /// run to the end; the buffers it names take the values it left. `Err` names the kernel and says
    /// why it could not be prepared or did not complete.
    pub fn launch(
        &mut self,
        kernel: &str,
        grid: Dim3,
        block: u32,
        args: &[Arg],
    ) -> Result<(), String> {
        self.launch_block(kernel, grid, Dim3::linear(block), args)
    }

    /// [`Device::launch`] with a CTA of any shape (`block.x` x `block.y` x `block.z` threads).
    pub fn launch_block(
        &mut self,
        kernel: &str,
        grid: Dim3,
        block: Dim3,
        args: &[Arg],
    ) -> Result<(), String> {
        let why = |e: String| {
            format!(
                "{kernel} <<<({}, {}), ({}, {})>>>: {e}",
                grid.x, grid.y, block.x, block.y
            )
        };
        let flags = self.flags(kernel, grid, block, args).map_err(why)?;
        let buffers = &self.buffers;
        let read = |name: &str| {
            buffers
                .get(name)
                .map(|b| b.bytes.clone())
                .ok_or_else(|| format!("no device buffer {name}"))
        };
        let preset = self.preset.clone();
        let config_for = move |_: &str| Config::preset(&preset).map_err(|e| e.to_string());
        let prepared =
            prepare(self.ptx, flags, &config_for, &read).map_err(|e| why(e.to_string()))?;
        let mut sim = prepared.into_sim(&[]).map_err(|e| why(e.to_string()))?;
        sim.set_record_warp_states(false);
        sim.run(DEFAULT_MAX_CYCLES);
        match sim.status() {
            Status::Completed => {}
            Status::Failed(e) => return Err(why(e.to_string())),
            Status::Running => return Err(why("did not finish".to_string())),
        }
        self.totals.add(&sim);
        for (index, arg) in args.iter().enumerate() {
            if let Arg::Buffer(name) = arg {
                if let (Some(bytes), Some(buffer)) = (
                    run::buffer_bytes(sim.image(), sim.global(), index),
                    self.buffers.get_mut(*name),
                ) {
                    buffer.bytes = bytes;
                }
            }
        }
        self.last_config = Some(sim.config().clone());
        Ok(())
    }

    fn flags(
        &self,
        kernel: &str,
        grid: Dim3,
        block: Dim3,
        args: &[Arg],
    ) -> Result<LaunchFlags, String> {
        let args = args
            .iter()
            .map(|arg| match arg {
                Arg::Value(v) => Ok(ArgSpec::Scalar(Number::Int((*v).into()))),
                Arg::Float(v) => Ok(ArgSpec::Scalar(Number::Float(*v))),
                Arg::Buffer(name) => {
                    let b = self
                        .buffers
                        .get(*name)
                        .ok_or_else(|| format!("no device buffer {name}"))?;
                    Ok(ArgSpec::Buffer {
                        elem: b.elem,
                        count: b.bytes.len() / b.elem.size(),
                        init: BufferInit::File(name.to_string()),
                    })
                }
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(LaunchFlags {
            kernel: Some(kernel.to_string()),
            grid: Some(grid),
            block: Some(block),
            args,
            regs: self.regs,
            config: Some(self.preset.clone()),
            sets: self.sets.clone(),
            ..LaunchFlags::default()
        })
    }

    /// The launches' totals so far.
    pub fn totals(&self) -> &Totals {
        &self.totals
    }

    /// The configuration the last launch ran (after the unified partition); `None` before the
    /// first.
    pub fn config(&self) -> Option<&Config> {
        self.last_config.as_ref()
    }
}
