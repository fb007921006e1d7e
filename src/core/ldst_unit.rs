//! The LD/ST unit: its MEM0 stage and the memory instructions in flight behind it (MODEL.md
//! sections 1, 7 and 9; book section 4.1.1).
//!
//! [`MemoryTiming::cost`] runs at issue, on the per-lane addresses the functional executor
//! recorded, and says what the instruction will cost:
//! * **shared**: the bank-conflict passes (`mem::shared_banks`); MEM0 is held for that many
//!   cycles, then the data takes `shmem.latency` (+ `shmem.hash_latency` for a configurable
//!   hash): MODEL.md section 7's baseline timing. Atomics serialise per address.
//! * **global and local**: the coalescer (`mem::coalescer`) cuts the access into segment
//!   requests, kept in a staging slot until the instruction reaches MEM0. MEM0 then sends one
//!   request per cycle to the SM's L1D, last request first (GPGPU-Sim's `accessq_back`). A read
//!   hit's data is ready `l1d.latency` cycles later; a miss's when the L1D hands its reply back
//!   (one per cycle). A reservation failure keeps the request in MEM0, which retries it the next
//!   cycle: the memory stage stalls, and [`LdstUnit::stalled`] names the reason (`lg_throttle`
//!   for the warps behind it). The instruction leaves MEM0 when its last request is taken, and
//!   may write back when every read has returned. A store written through to the L2 completes
//!   when the L2's acknowledgement comes back, so its warp cannot leave the SM (nor its CTA free
//!   its slot) before its stores are done, as GPGPU-Sim's `hardware_done` requires
//!   `stores_done`; a store kept in a write-back line is done when the L1D takes it.
//! * **constant and parameter**, as `constant.model` says (issue 5: "a constant cache or a
//!   fixed latency"): `fixed`, a fixed `constant.latency` after one MEM0 cycle, as if every
//!   access hit; `cache` (the Fermi presets, as GPGPU-Sim), one request per distinct line of
//!   `constant.cache` the active lanes read, sent from MEM0 like a global read to the SM's
//!   constant cache ([`L1d::with_constant_cache`]): a hit's data is ready `constant.latency`
//!   cycles later, a miss goes through the interconnect to the L2 and DRAM (the parameter buffer
//!   at [`PARAM_BASE`], the `.const` bank at [`CONST_BASE`]), a reservation failure stalls MEM0
//!   (GPGPU-Sim's `c_mem` resource stall).
//!
//! The requests go through a staging queue per instruction, the interface at which the MRPB
//! (MODEL.md section 10) will sit between the coalescer and the L1D; the elastic pipeline
//! (section 8) adds its FIFOs around MEM0.

use super::operand_collector::{BankActivity, PoolArbiter, PoolRefusal};
use super::pipeline_mode::PipelineMode;
use super::request_log::{Attempt, RequestJournal, RequestLog};
use crate::config::cache_string::CacheKind;
use crate::config::{Coalescing, Config};
use crate::exec::execute::AccessRecord;
use crate::mem::mrpb::{Mrpb, MrpbRequest, Offer, Requester};
use crate::mem::request::{byte_mask, sectors_of, CONST_BASE, PARAM_BASE};
use crate::mem::{
    Access, AccessKind, BankConflict, Coalescer, DataSpace, FailReason, L1Outcome, L1d, LocalMap,
    SharedBanks, WarpAccess,
};
use crate::ptx::{MemAccess, Space};
use serde::Serialize;
use std::collections::BTreeMap;

/// The ready cycle of an instruction still waiting for memory.
pub const WAITING: u64 = u64::MAX;

/// What one memory instruction costs the LD/ST unit and how long its data takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MemoryCost {
    /// Cycles the instruction holds MEM0 at least (global/local: its requests, one per cycle).
    pub occupancy: u32,
    /// Cycles from leaving MEM0 (global/local: from an L1D hit) until it can be written back.
    pub latency: u32,
    /// Which pipe it uses (for stall names): shared memory (MIO) or global/local (LG).
    pub shared: bool,
    /// Conflict degree of a shared access (1 when conflict-free; 0 otherwise).
    pub degree: u32,
    /// A shared access's bank-conflict cycles: its passes beyond one per sub-warp with an
    /// active lane (0 otherwise).
    pub conflict_cycles: u32,
    /// A shared access's conflict passes during which its own later sub-warps are still
    /// arriving and wait at EXE (every sub-warp's but the last's; Elastic §3.2.3): a pipeline
    /// without a PREMEM FIFO stops issue for them.
    pub held_subwarp_cycles: u32,
    /// Memory requests a global/local access made (coalesced segments).
    pub requests: u32,
    /// Global/local: the staging slot holding its coalesced requests.
    pub staged: Option<u32>,
    /// A shared access in a unified pool: the bank columns it needs (bit k: bank k of a
    /// cluster), which register accesses win (Unified §4.3); 0 otherwise.
    pub pool_columns: u32,
}

impl MemoryCost {
    /// A memory instruction that accesses nothing (a fence, or every lane's guard false).
    pub const FENCE: MemoryCost = MemoryCost {
        occupancy: 1,
        latency: 1,
        shared: false,
        degree: 0,
        conflict_cycles: 0,
        held_subwarp_cycles: 0,
        requests: 0,
        staged: None,
        pool_columns: 0,
    };
}

/// Shared-memory counters (`warpstep run --json`'s `shared`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SharedStats {
    /// Shared-memory instructions.
    pub instructions: u64,
    /// Sub-warp accesses (one per sub-warp with an active lane: `shmem.warp_parts` per
    /// instruction at most).
    pub accesses: u64,
    /// Extra cycles spent on bank conflicts (passes beyond one per sub-warp access).
    pub bank_conflict_cycles: u64,
    /// Sub-warp accesses by conflict degree (passes).
    pub degree_histogram: BTreeMap<u32, u64>,
    /// 16-byte rows read: in each pass of each sub-warp, the distinct 16-byte-aligned rows the
    /// lanes served in it read (loads, and the read half of atomics); the energy model's shared
    /// reads (`crate::energy`, docs/energy.md).
    pub row_reads: u64,
    /// 16-byte rows written, counted the same way (stores, and the write half of atomics).
    pub row_writes: u64,
}

impl SharedStats {
    fn count(&mut self, c: &BankConflict) {
        self.instructions += 1;
        self.bank_conflict_cycles += u64::from(c.extra_cycles);
        for &passes in c.sub_warp_cycles.iter().filter(|&&p| p > 0) {
            self.accesses += 1;
            *self.degree_histogram.entry(passes).or_insert(0) += 1;
        }
    }

    /// The degree histogram as a list: `[d]` sub-warp accesses of degree `d` (index 0 unused).
    pub fn degree_counts(&self) -> Vec<u64> {
        let top = self
            .degree_histogram
            .keys()
            .last()
            .map_or(0, |&d| d as usize);
        let mut counts = vec![0; top + 1];
        for (&d, &n) in &self.degree_histogram {
            counts[d as usize] = n;
        }
        counts
    }

    /// Counts the 16-byte rows of one access: `rows` holds a (pass, row) pair for every row each
    /// active lane's bytes touch, in any order and with repeats.
    fn count_rows(&mut self, rows: &mut Vec<(u32, u64)>, access: Option<MemAccess>) {
        rows.sort_unstable();
        rows.dedup();
        let n = rows.len() as u64;
        match access {
            Some(MemAccess::Store) => self.row_writes += n,
            Some(MemAccess::Atomic) => {
                self.row_reads += n;
                self.row_writes += n;
            }
            _ => self.row_reads += n,
        }
    }

    /// Adds another SM's counters.
    pub fn add(&mut self, o: &SharedStats) {
        self.instructions += o.instructions;
        self.accesses += o.accesses;
        self.bank_conflict_cycles += o.bank_conflict_cycles;
        self.row_reads += o.row_reads;
        self.row_writes += o.row_writes;
        for (d, n) in &o.degree_histogram {
            *self.degree_histogram.entry(*d).or_insert(0) += n;
        }
    }
}

/// The cost model behind the LD/ST unit: the shared-memory banks, the coalescer and the staged
/// requests of issued global/local instructions.
#[derive(Debug, Clone)]
pub struct MemoryTiming {
    banks: SharedBanks,
    /// `shmem.latency` plus `shmem.hash_latency` when the hash is configurable.
    shared_latency: u32,
    global_latency: u32,
    const_latency: u32,
    /// The constant cache's line size when `constant.model` is `cache` (its loads become
    /// requests to it), `None` for the fixed latency.
    const_line: Option<u32>,
    scratch: BankConflict,
    /// Accesses each bank serves per cycle (`elastic.shmem_ports`, Elastic Eq. 1).
    shmem_ports: u32,
    coalescer: Coalescer,
    /// Staging slots: the coalesced requests not yet sent, in the coalescer's order.
    staged: Vec<Vec<Access>>,
    free: Vec<u32>,
    shared_stats: SharedStats,
    /// Reused per shared access: (pass, 16-byte row) of every lane's bytes.
    rows: Vec<(u32, u64)>,
    /// Where shared memory and cache sit when they share the register file's banks.
    pool: Option<PoolColumns>,
}

/// The bank columns of a unified local memory (Unified §4.2; MODEL.md section 11): `clusters`
/// SM clusters of `per_cluster` banks, each `width` bytes wide. A shared access or a cache line
/// uses one bank of each cluster it touches; bank column k of every cluster also holds register
/// bank k. warpstep's placement (the paper's Fig. 5b is missing): 16-byte row r of shared memory
/// is in cluster r mod clusters, column (r / clusters) mod per_cluster; a cache line's eight
/// rows are in column (line address) mod per_cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolColumns {
    clusters: u32,
    per_cluster: u32,
    line: u32,
}

impl PoolColumns {
    /// The pool `config` describes when `unified.enabled` pools all three (`mode: full`) and
    /// its accesses arbitrate with the register file's (`unified.arbitration`).
    pub fn of(config: &Config) -> Option<PoolColumns> {
        let u = &config.unified;
        (u.enabled && u.mode == crate::config::UnifiedMode::Full && u.arbitration).then(|| {
            PoolColumns {
                clusters: (u.banks / u.banks_per_cluster.max(1)).max(1),
                per_cluster: u.banks_per_cluster.max(1),
                line: u.cache_line_bytes.max(1),
            }
        })
    }

    /// The columns of a shared access's words (`BankConflict` words are the pool's 16-byte
    /// rows: the launch banks shared memory by `unified.bank_width`).
    fn shared_columns(&self, access: &BankConflict) -> u32 {
        access.lanes.iter().fold(0, |mask, lane| {
            let column = (lane.word / u64::from(self.clusters)) % u64::from(self.per_cluster);
            mask | 1 << column
        })
    }

    /// The column of the cache line holding `addr`.
    fn line_column(&self, addr: u64) -> u32 {
        1 << ((addr / u64::from(self.line)) % u64::from(self.per_cluster))
    }
}

impl MemoryTiming {
    /// The timing of `config`'s memory system; `Err` with a message if the bank geometry is
    /// invalid (validation normally catches it first).
    pub fn new(config: &Config) -> Result<Self, String> {
        let s = &config.shmem;
        let banks = SharedBanks::new(s.banks, s.bank_width, &s.hash, s.broadcast, s.warp_parts)
            .map_err(|e| e.to_string())?;
        let hash_latency = if s.hash.is_configurable() {
            s.hash_latency
        } else {
            0
        };
        let coalescer = Coalescer::new(
            coalescing(config),
            config.core.warp_size,
            s.warp_parts,
            LocalMap::for_config(config),
        );
        // In the paper's pipelines a shared access passes MEM0..MEM(M-1): M stages, so
        // `elastic.mem_stages` sets its latency there; the decoupled back end uses
        // `shmem.latency` (MODEL.md section 7).
        let stages = match PipelineMode::of(config).rigid() {
            true => config.elastic.mem_stages,
            false => s.latency,
        };
        Ok(MemoryTiming {
            banks,
            shared_latency: stages + hash_latency,
            global_latency: config.l1d.latency,
            const_latency: config.constant.latency,
            const_line: config.constant_cache().ok().flatten().map(|s| s.line_bytes),
            scratch: BankConflict::default(),
            shmem_ports: config.elastic.shmem_ports.max(1),
            coalescer,
            staged: Vec::new(),
            free: Vec::new(),
            shared_stats: SharedStats::default(),
            rows: Vec::new(),
            pool: PoolColumns::of(config),
        })
    }

    /// In a unified pool, the bank column of the cache line `access` reads or writes (claimed
    /// through the pool arbiter, after the register file); 0 when there is no pool.
    fn line_columns(&self, access: &Access) -> u32 {
        self.pool.map_or(0, |p| p.line_column(access.addr))
    }

    /// The cost of the access an instruction of the warp in `warp_slot` made at issue.
    pub fn cost(&mut self, record: &AccessRecord, warp_slot: u32) -> MemoryCost {
        if record.access == Some(MemAccess::Fence) || record.mask == 0 {
            return MemoryCost::FENCE;
        }
        match record.space.unwrap_or(Space::Global) {
            Space::Shared => self.shared_cost(record),
            space @ (Space::Const | Space::Param) => match self.const_line {
                Some(line) => self.constant_cost(record, space, line),
                None => MemoryCost {
                    occupancy: 1,
                    latency: self.const_latency,
                    shared: false,
                    degree: 0,
                    conflict_cycles: 0,
                    held_subwarp_cycles: 0,
                    requests: 1,
                    staged: None,
                    pool_columns: 0,
                },
            },
            Space::Local => self.global_cost(record, DataSpace::Local, warp_slot),
            Space::Global | Space::Generic => {
                self.global_cost(record, DataSpace::Global, warp_slot)
            }
        }
    }

    fn shared_cost(&mut self, record: &AccessRecord) -> MemoryCost {
        if record.access == Some(MemAccess::Atomic) {
            self.banks
                .atomic_into(&record.addrs, record.mask, &mut self.scratch);
        } else {
            self.banks
                .access_into(&record.addrs, record.mask, &mut self.scratch);
        }
        self.shared_stats.count(&self.scratch);
        self.count_shared_rows(record);
        // Eq. 1: a sub-warp of conflict degree d holds MEM0 for ceil(d / ports) cycles.
        let ports = self.shmem_ports;
        let active = self.scratch.sub_warp_cycles.iter().filter(|&&p| p > 0);
        let passes: Vec<u32> = active.map(|p| p.div_ceil(ports)).collect();
        let cycles: u32 = passes.iter().sum();
        let held = passes.iter().rev().skip(1).map(|p| p - 1).sum();
        MemoryCost {
            occupancy: cycles.max(1),
            latency: self.shared_latency,
            shared: true,
            degree: self.scratch.degree,
            conflict_cycles: cycles - passes.len() as u32,
            held_subwarp_cycles: held,
            requests: 0,
            staged: None,
            pool_columns: self.pool.map_or(0, |p| p.shared_columns(&self.scratch)),
        }
    }

    /// The 16-byte rows of the shared access just costed (in `scratch`), per pass: each served
    /// lane's bytes `addr .. addr + bytes` (energy counters only; no timing).
    fn count_shared_rows(&mut self, record: &AccessRecord) {
        self.rows.clear();
        let bytes = u64::from(record.bytes.max(1));
        for lane in &self.scratch.lanes {
            let Some(&addr) = record.addrs.get(lane.lane as usize) else {
                continue;
            };
            let (first, last) = (addr / 16, (addr + bytes - 1) / 16);
            self.rows.extend((first..=last).map(|row| (lane.pass, row)));
        }
        self.shared_stats.count_rows(&mut self.rows, record.access);
    }

    fn global_cost(
        &mut self,
        record: &AccessRecord,
        space: DataSpace,
        warp_slot: u32,
    ) -> MemoryCost {
        let kind = match record.access {
            Some(MemAccess::Store) => AccessKind::Write,
            Some(MemAccess::Atomic) => AccessKind::Atomic,
            _ => AccessKind::Read,
        };
        let slot = self.take_slot();
        let access = WarpAccess {
            addrs: &record.addrs,
            mask: record.mask,
            bytes: record.bytes,
            kind,
            space,
            warp_slot,
        };
        let requests = &mut self.staged[slot as usize];
        self.coalescer.coalesce(&access, requests);
        self.staged_cost(slot, self.global_latency)
    }

    /// The cost of the requests staged in `slot`, one per MEM0 cycle, each read hit ready
    /// `latency` cycles later (no request: the slot is freed and nothing is accessed).
    fn staged_cost(&mut self, slot: u32, latency: u32) -> MemoryCost {
        let n = self.staged[slot as usize].len() as u32;
        if n == 0 {
            self.release(slot);
            return MemoryCost::FENCE;
        }
        MemoryCost {
            occupancy: n,
            latency,
            shared: false,
            degree: 0,
            conflict_cycles: 0,
            held_subwarp_cycles: 0,
            requests: n,
            staged: Some(slot),
            pool_columns: 0,
        }
    }

    /// A constant or parameter load through the constant cache: one request per distinct
    /// `line`-byte block the active lanes read (GPGPU-Sim's `generate_mem_accesses` for
    /// `const_space` and `param_space_kernel`, blocks of `-gpgpu_const_cache:l1`'s line).
    fn constant_cost(&mut self, record: &AccessRecord, space: Space, line: u32) -> MemoryCost {
        let base = if space == Space::Param {
            PARAM_BASE
        } else {
            CONST_BASE
        };
        let line = u64::from(line.max(1));
        let slot = self.take_slot();
        let requests = &mut self.staged[slot as usize];
        for lane in (0..record.addrs.len()).filter(|&l| record.mask >> l & 1 == 1) {
            let addr = base + record.addrs[lane];
            let block = addr - addr % line;
            let offset = (addr % 128) as u32;
            let bytes = byte_mask(offset, record.bytes.max(1));
            match requests.iter_mut().find(|a| a.addr == block) {
                Some(a) => {
                    a.lanes |= 1 << lane;
                    a.bytes |= bytes;
                    a.sectors = sectors_of(a.bytes);
                }
                None => requests.push(Access {
                    addr: block,
                    size: line as u32,
                    kind: AccessKind::Read,
                    space: DataSpace::Constant,
                    lanes: 1 << lane,
                    bytes,
                    sectors: sectors_of(bytes),
                }),
            }
        }
        self.staged_cost(slot, self.const_latency)
    }

    fn take_slot(&mut self) -> u32 {
        match self.free.pop() {
            Some(s) => s,
            None => {
                self.staged.push(Vec::new());
                (self.staged.len() - 1) as u32
            }
        }
    }

    fn release(&mut self, slot: u32) {
        if let Some(v) = self.staged.get_mut(slot as usize) {
            v.clear();
            if !self.free.contains(&slot) {
                self.free.push(slot);
            }
        }
    }

    /// The requests of staging slot `slot` not yet sent (the next one is the last).
    pub fn staged(&self, slot: u32) -> &[Access] {
        self.staged.get(slot as usize).map_or(&[], Vec::as_slice)
    }

    fn next_request(&self, slot: u32) -> Option<Access> {
        self.staged.get(slot as usize)?.last().copied()
    }

    fn pop_request(&mut self, slot: u32) -> usize {
        let Some(v) = self.staged.get_mut(slot as usize) else {
            return 0;
        };
        v.pop();
        v.len()
    }

    /// The bank-conflict result of the latest shared access (its lanes, banks and passes), for
    /// the bank-grid view.
    pub fn last_shared(&self) -> &BankConflict {
        &self.scratch
    }

    /// Shared-memory counters of this SM.
    pub fn shared_stats(&self) -> &SharedStats {
        &self.shared_stats
    }
}

/// The coalescer's granularity: `l1d.coalescing`, except that a sectored L1D (cache-string type
/// `S`) always gets 32-byte sector requests, as GPGPU-Sim pairs sector L1 caches with sector
/// coalescing (`-gpgpu_coalesce_arch` 60 and later), so every request fits one sector.
fn coalescing(config: &Config) -> Coalescing {
    match config.l1d_cache() {
        Ok(Some(spec)) if spec.kind == CacheKind::Sector => Coalescing::Sector,
        _ => config.l1d.coalescing,
    }
}

/// The instruction in MEM0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mem0 {
    pub tag: u64,
    /// The warp that issued it (MRPB's signatures need it).
    pub from: Requester,
    /// Cycles it still holds MEM0 (counting this one); global/local: requests left to send.
    pub cycles_left: u32,
    /// Its latency after MEM0 (global/local: after an L1D hit).
    pub latency: u32,
    /// Global/local: its staging slot.
    pub staged: Option<u32>,
    /// A shared-memory access (its bank passes are the cycles it holds MEM0).
    pub shared: bool,
    /// A shared access's bank-conflict passes (beyond one per sub-warp): the last this many
    /// cycles it holds MEM0 are the conflict's (a conflict-free access would have left).
    pub conflict_cycles: u32,
    /// Of its passes still to come, those during which its own later sub-warps wait at EXE
    /// ([`MemoryCost::held_subwarp_cycles`]), counted from its second pass.
    pub held_subwarp_cycles: u32,
    /// Passes done.
    pub passes_done: u32,
    /// A shared access's bank columns in a unified pool ([`MemoryCost::pool_columns`]).
    pub pool_columns: u32,
}

/// Which unified-pool access of MEM0 lost its bank column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PoolAccess {
    /// A shared-memory pass.
    Shared,
    /// A request to the cache part of the pool (the L1D, or the constant cache behind MEM0).
    Cache,
}

/// An arbitration loser (Unified MICRO'12 §4.3): a shared pass or cache request in MEM0 whose
/// bank column a register read or write had already taken this cycle (register accesses claim
/// the unified pool's banks first). The access waits a cycle and counts one arbitration
/// conflict ([`LdstUnit::arbitration_conflicts`]); [`LdstUnit::arbitration_losses`] lists the
/// cycle's losers for the views. It records what the arbiter saw and changes no timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ArbitrationLoss {
    /// The SM's tag of the instruction (the snapshot finds its PC by it).
    pub tag: u64,
    /// Its warp slot.
    pub warp: u32,
    pub kind: PoolAccess,
    /// The bank column it lost (k: bank k of every cluster; the first taken one it asked for).
    pub column: u32,
    /// What holds that column's register bank: the register read or write that won.
    pub holder: BankActivity,
}

/// MEM0's side of the unified pool's arbitration: conflicts so far, and this cycle's losers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct PoolLosses {
    /// Cycles a shared or cache access lost its unified-pool banks to register accesses
    /// (Unified §4.3's arbitration conflicts).
    conflicts: u64,
    /// This cycle's losers (cleared each cycle, the buffer reused; MEM0 claims once a cycle,
    /// so there is at most one).
    now: Vec<ArbitrationLoss>,
}

impl PoolLosses {
    /// MEM0's access `m` claims bank columns `columns` through `pool` (none: granted at once,
    /// the arbiter is not asked); a refusal is counted and recorded.
    fn claim(
        &mut self,
        pool: &mut dyn PoolArbiter,
        m: &Mem0,
        kind: PoolAccess,
        columns: u32,
    ) -> bool {
        if columns == 0 {
            return true;
        }
        let Err(PoolRefusal { column, holder }) = pool.claim_memory(columns, m.from.warp) else {
            return true;
        };
        self.conflicts += 1;
        self.now.push(ArbitrationLoss {
            tag: m.tag,
            warp: m.from.warp,
            kind,
            column,
            holder,
        });
        false
    }
}

/// MSHR merges the SM's L1D has made so far (0 without an L1D).
fn merges_so_far(l1d: &L1d) -> u64 {
    l1d.cache().map_or(0, |c| c.stats.mshr_merges)
}

/// The log's name for an access the L1D took (`merged`: a read that joined an MSHR entry).
fn attempt_of(outcome: L1Outcome, merged: bool) -> Attempt {
    match outcome {
        L1Outcome::Hit => Attempt::Hit,
        L1Outcome::Pending if merged => Attempt::Merge,
        L1Outcome::Pending => Attempt::Miss,
        L1Outcome::Stored => Attempt::Store,
        L1Outcome::Fail(_) | L1Outcome::Busy => Attempt::PortBusy,
    }
}

/// Logs that the L1D refused instruction `tag`'s request `access` for `reason`, with its set.
fn log_refusal(
    journal: &mut RequestJournal,
    l1d: &L1d,
    (tag, access): (u64, &Access),
    reason: FailReason,
    now: u64,
) {
    let lines = if reason == FailReason::Assoc {
        l1d.set_lines(access)
    } else {
        l1d.set_of(access).map(|s| (s, Vec::new()))
    };
    let set = lines.as_ref().map(|(s, ways)| (*s, ways.as_slice()));
    journal.refused(tag, now, (reason, access.addr), set);
}

/// A global/local instruction with reads in the memory system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Outstanding {
    tag: u64,
    /// Reads sent and not yet returned.
    reads: u32,
    /// Requests waiting in the MRPB.
    queued: u32,
    /// Cycles from an L1D hit to writeback.
    latency: u32,
    /// Earliest writeback cycle so far.
    ready_at: u64,
}

/// One LD/ST unit: MEM0, the MRPB behind it when `mrpb.enabled`, and the accesses in flight.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LdstUnit {
    mem0: Option<Mem0>,
    /// (tag, first cycle its result may be written back, or [`WAITING`]), in order.
    in_flight: Vec<(u64, u64)>,
    outstanding: Vec<Outstanding>,
    stalled: Option<FailReason>,
    /// MEM0 waits for the MRPB this cycle (a full queue, or a write's flush).
    mrpb_wait: Option<Offer>,
    mrpb: Option<Mrpb>,
    /// The shared access that left MEM0 this cycle (its bank passes done), if any.
    shared_done: Option<u64>,
    /// This cycle MEM0 replayed a conflict while the access's own later sub-warps waited.
    subwarps_held: bool,
    /// The last memory stage lost writeback this cycle: MEM1..MEM(M-1) stand still.
    mem_stages_frozen: bool,
    /// Unified-pool arbitration conflicts so far and this cycle's losers (Unified §4.3).
    pool_losses: PoolLosses,
    /// What happened to each global/local instruction's requests (the "why" chains).
    journal: RequestJournal,
}

impl LdstUnit {
    /// The LD/ST unit `config` describes (with its MRPB when `mrpb.enabled`).
    pub fn new(config: &Config) -> LdstUnit {
        LdstUnit {
            mrpb: Mrpb::new(config),
            ..LdstUnit::default()
        }
    }

    /// The shared access that finished its bank passes in MEM0 since the last call, if any.
    pub fn take_shared_done(&mut self) -> Option<u64> {
        self.shared_done.take()
    }

    /// Whether MEM0 holds a shared access replaying bank conflicts: one that would have left
    /// MEM0 by now without them (its remaining cycles are all conflict passes).
    pub fn conflict_in_mem0(&self) -> bool {
        self.mem0
            .is_some_and(|m| m.conflict_cycles > 0 && m.cycles_left <= m.conflict_cycles)
    }

    /// Whether MEM0 replayed a conflict this cycle while the same access's later sub-warps
    /// were still arriving (they wait at EXE unless a PREMEM FIFO takes them, §3.2.3).
    pub fn subwarps_held(&self) -> bool {
        self.subwarps_held
    }

    /// Cycles of work the instruction in MEM0 has left (0 when MEM0 is empty).
    pub fn mem0_cycles_left(&self) -> u32 {
        self.mem0.map_or(0, |m| m.cycles_left)
    }

    /// Whether MEM0 can take an instruction this cycle.
    pub fn can_accept(&self) -> bool {
        self.mem0.is_none()
    }

    /// A memory instruction of warp `from` enters MEM0.
    pub fn accept(&mut self, tag: u64, cost: &MemoryCost, from: Requester) {
        self.mem0 = Some(Mem0 {
            tag,
            from,
            cycles_left: cost.occupancy.max(1),
            latency: cost.latency,
            staged: cost.staged,
            shared: cost.shared,
            conflict_cycles: cost.conflict_cycles,
            held_subwarp_cycles: cost.held_subwarp_cycles,
            passes_done: 0,
            pool_columns: cost.pool_columns,
        });
        if cost.staged.is_some() {
            self.journal.begin(tag, cost.requests);
            self.outstanding.push(Outstanding {
                tag,
                reads: 0,
                queued: 0,
                latency: cost.latency,
                ready_at: 0,
            });
        }
    }

    /// The execute stage of cycle `now`: one reply from the L1D is taken, then MEM0 works one
    /// cycle (a shared/constant pass, or one request to `l1d`); an instruction that is done
    /// with MEM0 moves on.
    ///
    /// With an MRPB, MEM0 offers its request to the buffer instead (the enqueue half of the
    /// cycle) and the buffer then sends one request to the L1D (the dequeue half), unless MEM0
    /// used the L1D itself (a constant load). A write (flush on) is the buffer's too: it waits
    /// in the buffer's write register, unqueued (MRPB §3.3), not in MEM0.
    ///
    /// In a unified pool a shared pass or a cache access first claims its banks through `pool`,
    /// after the register file's accesses of the cycle; when one is taken it waits a cycle.
    pub fn cycle(
        &mut self,
        now: u64,
        timing: &mut MemoryTiming,
        l1d: &mut L1d,
        pool: &mut dyn PoolArbiter,
    ) {
        let frozen = std::mem::take(&mut self.mem_stages_frozen);
        self.stalled = None;
        self.mrpb_wait = None;
        self.subwarps_held = false;
        self.pool_losses.now.clear();
        if let Some(b) = self.mrpb.as_mut() {
            b.begin_cycle();
        }
        if let Some(tag) = l1d.next_response(now) {
            self.returned(tag, now);
        }
        let mut l1_used = false;
        if let Some(m) = self.mem0 {
            l1_used = match m.staged {
                // MEM1 cannot take the access that would leave MEM0: MEM0 stands still too.
                None if frozen && m.shared && m.cycles_left <= 1 => false,
                None if !self
                    .pool_losses
                    .claim(pool, &m, PoolAccess::Shared, m.pool_columns) =>
                {
                    false
                }
                None => {
                    self.pass(now, m);
                    false
                }
                Some(slot) => self.send(now, m, slot, (timing, pool), l1d),
            };
        }
        if self.mrpb.is_some() {
            if !l1_used {
                self.drain_mrpb(now, l1d);
            }
            if let Some(b) = self.mrpb.as_mut() {
                b.end_cycle();
            }
        }
    }

    /// The MRPB's dequeue half: its next request goes to the L1D (or, refused, past it to the
    /// L2 when the bypass policy says so).
    fn drain_mrpb(&mut self, now: u64, l1d: &mut L1d) {
        let Some(b) = self.mrpb.as_mut() else { return };
        let Some(r) = b.next(now) else { return };
        let merges = merges_so_far(l1d);
        let outcome = match l1d.access_as(&r.access, r.tag, r.from.owner(), now) {
            L1Outcome::Fail(reason) if b.bypasses(&r, reason) => {
                if !l1d.bypass_read(&r.access, r.tag, now) {
                    b.refused();
                    return;
                }
                b.count_bypass(reason);
                self.journal.attempt(r.tag, now, Attempt::Bypassed);
                self.journal.left_mrpb(r.tag);
                L1Outcome::Pending
            }
            L1Outcome::Fail(reason) => {
                b.refused();
                self.stalled = Some(reason);
                log_refusal(&mut self.journal, l1d, (r.tag, &r.access), reason, now);
                return;
            }
            L1Outcome::Busy => return,
            taken => {
                b.count_drained();
                let how = match (taken, r.access.kind) {
                    (L1Outcome::Pending, AccessKind::Write) => Attempt::Store,
                    _ => attempt_of(taken, merges_so_far(l1d) > merges),
                };
                self.journal.attempt(r.tag, now, how);
                self.journal.left_mrpb(r.tag);
                taken
            }
        };
        b.taken();
        self.drained(&r, outcome, now);
    }

    /// A request that waited in the MRPB was taken: the hit's ready time or the read to wait
    /// for joins its instruction, which completes if that was all it waited for.
    fn drained(&mut self, r: &MrpbRequest, outcome: L1Outcome, now: u64) {
        let Some(i) = self.outstanding.iter().position(|o| o.tag == r.tag) else {
            return;
        };
        let o = &mut self.outstanding[i];
        o.queued = o.queued.saturating_sub(1);
        match outcome {
            L1Outcome::Hit => o.ready_at = o.ready_at.max(now + u64::from(o.latency) + 1),
            L1Outcome::Pending => o.reads += 1,
            L1Outcome::Stored | L1Outcome::Fail(_) | L1Outcome::Busy => {}
        }
        self.settle(i);
    }

    /// Completes outstanding instruction `i` once it has left MEM0 and waits for nothing.
    fn settle(&mut self, i: usize) {
        let o = self.outstanding[i];
        let in_mem0 = self.mem0.is_some_and(|m| m.tag == o.tag);
        if o.reads > 0 || o.queued > 0 || in_mem0 {
            return;
        }
        self.outstanding.swap_remove(i);
        if let Some(f) = self.in_flight.iter_mut().find(|(t, _)| *t == o.tag) {
            f.1 = o.ready_at;
        }
    }

    /// The last memory stage lost writeback in cycle `now` (the paper pipelines' MEM0..MEM(M-1)
    /// are latches, Elastic §3.1 and Fig. 6): the shared accesses in MEM1..MEM(M-1) (`is_shared`)
    /// stand still for the cycle, and MEM0 does not hand its access on. Call before
    /// [`LdstUnit::cycle`].
    pub fn freeze_mem_stages(&mut self, now: u64, is_shared: impl Fn(u64) -> bool) {
        let behind = |f: &&mut (u64, u64)| f.1 > now && f.1 != WAITING && is_shared(f.0);
        for f in self.in_flight.iter_mut().filter(behind) {
            f.1 += 1;
        }
        self.mem_stages_frozen = true;
    }

    /// A shared or constant instruction spends one cycle in MEM0.
    fn pass(&mut self, now: u64, mut m: Mem0) {
        m.cycles_left = m.cycles_left.saturating_sub(1);
        m.passes_done += 1;
        if m.passes_done >= 2 && m.held_subwarp_cycles > 0 {
            m.held_subwarp_cycles -= 1;
            self.subwarps_held = true;
        }
        if m.cycles_left == 0 {
            self.in_flight.push((m.tag, now + u64::from(m.latency) + 1));
            self.mem0 = None;
            if m.shared {
                self.shared_done = Some(m.tag);
            }
        } else {
            self.mem0 = Some(m);
        }
    }

    /// MEM0 sends the next request of a global/local instruction to the L1D, or offers it to
    /// the MRPB. Returns whether it used the L1D this cycle.
    fn send(
        &mut self,
        now: u64,
        mut m: Mem0,
        slot: u32,
        (timing, pool): (&mut MemoryTiming, &mut dyn PoolArbiter),
        l1d: &mut L1d,
    ) -> bool {
        let Some(access) = timing.next_request(slot) else {
            self.finish(now, m.tag, slot, timing);
            return false;
        };
        let hit_ready = now + u64::from(m.latency) + 1;
        let Some(o) = self.outstanding.iter_mut().find(|o| o.tag == m.tag) else {
            self.finish(now, m.tag, slot, timing);
            return false;
        };
        let buffered = matches!(access.space, DataSpace::Global | DataSpace::Local);
        let offer = match self.mrpb.as_mut() {
            Some(b) if buffered => b.offer(access, m.tag, m.from, now),
            _ => Offer::Direct,
        };
        match offer {
            Offer::Queued | Offer::Held => {
                o.queued += 1;
                self.journal.attempt(m.tag, now, Attempt::Queued);
            }
            Offer::Full | Offer::Flushing => {
                self.mrpb_wait = Some(offer);
                self.journal.attempt(m.tag, now, Attempt::MrpbFull);
                return false;
            }
            Offer::Direct
                if !self.pool_losses.claim(
                    pool,
                    &m,
                    PoolAccess::Cache,
                    timing.line_columns(&access),
                ) =>
            {
                return false;
            }
            Offer::Direct => {
                let merges = merges_so_far(l1d);
                let outcome = l1d.access_as(&access, m.tag, m.from.owner(), now);
                match outcome {
                    L1Outcome::Fail(reason) => {
                        self.stalled = Some(reason);
                        log_refusal(&mut self.journal, l1d, (m.tag, &access), reason, now);
                        return true;
                    }
                    L1Outcome::Busy => {
                        self.journal.attempt(m.tag, now, Attempt::PortBusy);
                        return false;
                    }
                    L1Outcome::Hit => o.ready_at = o.ready_at.max(hit_ready),
                    L1Outcome::Pending => o.reads += 1,
                    L1Outcome::Stored => {}
                }
                let merged = merges_so_far(l1d) > merges;
                let how = match (outcome, access.kind) {
                    (L1Outcome::Pending, AccessKind::Write) => Attempt::Store,
                    _ => attempt_of(outcome, merged),
                };
                self.journal.attempt(m.tag, now, how);
            }
        }
        let used = offer == Offer::Direct;
        let left = timing.pop_request(slot);
        m.cycles_left = left as u32;
        if left == 0 {
            self.finish(now, m.tag, slot, timing);
        } else {
            self.mem0 = Some(m);
        }
        used
    }

    /// A global/local instruction's last request was taken: it leaves MEM0.
    fn finish(&mut self, now: u64, tag: u64, slot: u32, timing: &mut MemoryTiming) {
        timing.release(slot);
        self.mem0 = None;
        self.journal.left_mem0(tag, now);
        let Some(i) = self.outstanding.iter().position(|o| o.tag == tag) else {
            self.in_flight.push((tag, now + 1));
            return;
        };
        let o = &mut self.outstanding[i];
        o.ready_at = o.ready_at.max(now + 1);
        if o.reads == 0 && o.queued == 0 {
            self.in_flight.push((tag, o.ready_at));
            self.outstanding.swap_remove(i);
        } else {
            self.in_flight.push((tag, WAITING));
        }
    }

    /// A read of instruction `tag` came back in cycle `now`.
    fn returned(&mut self, tag: u64, now: u64) {
        self.journal.replied(tag, now);
        let Some(i) = self.outstanding.iter().position(|o| o.tag == tag) else {
            return;
        };
        let o = &mut self.outstanding[i];
        o.reads = o.reads.saturating_sub(1);
        o.ready_at = o.ready_at.max(now + 1);
        self.settle(i);
    }

    /// Cycles a shared or cache access lost its unified-pool banks to the register file.
    pub fn arbitration_conflicts(&self) -> u64 {
        self.pool_losses.conflicts
    }

    /// The shared or cache accesses that lost their unified-pool bank column to the register
    /// file this cycle (the last [`LdstUnit::cycle`]), each counted in
    /// [`LdstUnit::arbitration_conflicts`].
    pub fn arbitration_losses(&self) -> &[ArbitrationLoss] {
        &self.pool_losses.now
    }

    /// The MRPB, when there is one.
    pub fn mrpb(&self) -> Option<&Mrpb> {
        self.mrpb.as_ref()
    }

    /// Whether MEM0 waited for the MRPB this cycle: a full queue (`mrpb_full`) or a write
    /// flushing its queue.
    pub fn mrpb_wait(&self) -> Option<Offer> {
        self.mrpb_wait
    }

    /// Whether instruction `tag` has left MEM0 (its requests are in the MRPB or past it).
    pub fn left_mem0(&self, tag: u64) -> bool {
        self.in_flight.iter().any(|(t, _)| *t == tag)
    }

    /// Whether the MRPB still holds a request of warp slot `warp`.
    pub fn mrpb_holds(&self, warp: u32) -> bool {
        self.mrpb
            .as_ref()
            .is_some_and(|b| b.holds_requests_of(warp))
    }

    /// The instruction in MEM0, if any.
    pub fn mem0(&self) -> Option<&Mem0> {
        self.mem0.as_ref()
    }

    /// Why MEM0 could not send its request this cycle, if it could not (a reservation failure
    /// at the L1D: the warps behind it see `lg_throttle`).
    pub fn stalled(&self) -> Option<FailReason> {
        self.stalled
    }

    /// What happened so far to the requests of global/local instruction `tag`.
    pub fn request_log(&self, tag: u64) -> Option<&RequestLog> {
        self.journal.get(tag)
    }

    /// Reads of instruction `tag` still in the memory system.
    pub fn outstanding_reads(&self, tag: u64) -> u32 {
        self.outstanding
            .iter()
            .find(|o| o.tag == tag)
            .map_or(0, |o| o.reads)
    }

    /// Accesses whose data is ready in cycle `now`, oldest first.
    pub fn ready(&self, now: u64) -> impl Iterator<Item = u64> + '_ {
        self.in_flight
            .iter()
            .filter(move |(_, at)| *at <= now)
            .map(|(t, _)| *t)
    }

    /// Accesses in flight behind MEM0: (tag, ready cycle or [`WAITING`]).
    pub fn in_flight(&self) -> &[(u64, u64)] {
        &self.in_flight
    }

    /// Removes a completed access.
    pub fn retire(&mut self, tag: u64) {
        self.in_flight.retain(|(t, _)| *t != tag);
        self.journal.retire(tag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::cache_string::parse_optional;
    use crate::mem::FetchKind;

    // `..default()` keeps this building when `AccessRecord` gains fields.
    #[allow(clippy::needless_update)]
    fn record(space: Space, access: MemAccess, bytes: u32, addrs: Vec<u64>) -> AccessRecord {
        AccessRecord {
            valid: true,
            space: Some(space),
            access: Some(access),
            bytes,
            mask: (1u64 << addrs.len()) - 1,
            addrs,
            ..AccessRecord::default()
        }
    }

    const NOBODY: Requester = Requester {
        warp: 0,
        cta: 0,
        warp_in_cta: 0,
        block: 0,
    };

    fn timing() -> MemoryTiming {
        MemoryTiming::new(&Config::default()).unwrap()
    }

    fn l1d(config: &str) -> L1d {
        L1d::new(0, parse_optional(config).unwrap(), &LocalMap::new(1536, 1))
    }

    #[test]
    fn coalescing_counts_requests() {
        let mut t = timing();
        let consecutive: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 4 * i).collect();
        let c = t.cost(&record(Space::Global, MemAccess::Load, 4, consecutive), 0);
        assert_eq!(c.requests, 1);
        let strided: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 128 * i).collect();
        let c2 = t.cost(&record(Space::Global, MemAccess::Load, 4, strided), 0);
        assert_eq!(c2.requests, 32);
        assert_ne!(c.staged, c2.staged);
        assert_eq!(t.staged(c2.staged.unwrap()).len(), 32);
    }

    /// The partitioned design: shared memory and cache have banks of their own.
    struct SeparateBanks;

    impl PoolArbiter for SeparateBanks {
        fn claim_memory(&mut self, _columns: u32, _warp: u32) -> Result<(), PoolRefusal> {
            Ok(())
        }
    }

    /// A shared access of degree 2 in one sub-warp: two passes, then 3 cycles.
    const TWO_PASSES: MemoryCost = MemoryCost {
        occupancy: 2,
        latency: 3,
        shared: true,
        degree: 2,
        conflict_cycles: 1,
        held_subwarp_cycles: 0,
        requests: 0,
        staged: None,
        pool_columns: 0,
    };

    #[test]
    fn mem0_holds_a_shared_access_for_its_passes_then_the_latency_runs() {
        let mut u = LdstUnit::default();
        let (mut t, mut l) = (timing(), l1d("none"));
        let cost = TWO_PASSES;
        u.accept(9, &cost, NOBODY);
        u.cycle(10, &mut t, &mut l, &mut SeparateBanks);
        assert!(!u.can_accept());
        u.cycle(11, &mut t, &mut l, &mut SeparateBanks);
        assert!(u.can_accept());
        assert_eq!(u.in_flight(), &[(9, 15)]);
        assert_eq!(u.ready(14).count(), 0);
        assert_eq!(u.ready(15).collect::<Vec<_>>(), vec![9]);
    }

    /// A pool arbiter whose register file holds the banks in the cycles listed.
    struct BusyIn(Vec<u64>, u64);

    /// What [`BusyIn`] says holds a bank: warp 3's register 7, read into collector unit 1.
    const READ_BY_W3: BankActivity = BankActivity::Read {
        warp: 3,
        reg: 7,
        unit: 1,
    };

    impl PoolArbiter for BusyIn {
        /// Refused claims name the lowest column asked for as held by [`READ_BY_W3`].
        fn claim_memory(&mut self, columns: u32, _warp: u32) -> Result<(), PoolRefusal> {
            self.1 += 1;
            match self.0.contains(&(self.1 - 1)) {
                true => Err(PoolRefusal {
                    column: columns.trailing_zeros(),
                    holder: READ_BY_W3,
                }),
                false => Ok(()),
            }
        }
    }

    /// Unified §4.3: a shared pass whose bank column the register file holds waits a cycle
    /// and counts an arbitration conflict; an access outside the pool never asks.
    #[test]
    fn a_shared_pass_waits_while_the_register_file_holds_its_bank() {
        let mut u = LdstUnit::default();
        let (mut t, mut l) = (timing(), l1d("none"));
        let cost = MemoryCost {
            pool_columns: 0b0100,
            ..TWO_PASSES
        };
        let w5 = Requester { warp: 5, ..NOBODY };
        u.accept(9, &cost, w5);
        // Claims are numbered 0, 1, 2...: the first (cycle 10) loses, then both passes go.
        let mut pool = BusyIn(vec![0], 0);
        u.cycle(10, &mut t, &mut l, &mut pool);
        // The cycle's loser: warp 5's shared pass lost column 2 to warp 3's register read.
        assert_eq!(
            u.arbitration_losses(),
            &[ArbitrationLoss {
                tag: 9,
                warp: 5,
                kind: PoolAccess::Shared,
                column: 2,
                holder: READ_BY_W3,
            }]
        );
        u.cycle(11, &mut t, &mut l, &mut pool);
        assert_eq!(u.arbitration_losses(), &[], "a cycle's losers only");
        assert!(!u.can_accept(), "one pass done");
        u.cycle(12, &mut t, &mut l, &mut pool);
        assert!(u.can_accept());
        assert_eq!(
            u.in_flight(),
            &[(9, 16)],
            "a cycle later than without the conflict"
        );
        assert_eq!(u.arbitration_conflicts(), 1);
        // Outside a pool (columns 0) the arbiter is never asked.
        u.accept(
            10,
            &MemoryCost {
                pool_columns: 0,
                ..cost
            },
            NOBODY,
        );
        let mut refuses = BusyIn(vec![0, 1, 2, 3], 0);
        u.cycle(20, &mut t, &mut l, &mut refuses);
        u.cycle(21, &mut t, &mut l, &mut refuses);
        assert!(u.can_accept());
        assert_eq!(refuses.1, 0);
    }

    /// Unified §4.3 for the cache part of the pool: a request to the L1D whose line's bank
    /// column the register file holds waits in MEM0, and the cycle's loser names it.
    #[test]
    fn a_cache_request_that_loses_its_column_is_the_cycles_loser() {
        let config = Config::preset("unified-micro12")
            .unwrap()
            .with_overrides(&["unified.enabled=true"])
            .unwrap();
        let mut t = MemoryTiming::new(&config).unwrap();
        let mut l = l1d("N:32:128:4,L:L:m:N:L,A:32:8,8");
        let mut u = LdstUnit::default();
        // One 128-byte line, the fourth of its group of 4: bank column 3.
        let a: Vec<u64> = (0..32).map(|i| 0x1_0000_0180 + 4 * i).collect();
        let c = t.cost(&record(Space::Global, MemAccess::Load, 4, a), 6);
        assert_eq!(
            (c.requests, c.pool_columns),
            (1, 0),
            "a cache line, not shared"
        );
        u.accept(4, &c, Requester { warp: 6, ..NOBODY });
        let mut pool = BusyIn(vec![0], 0);
        u.cycle(30, &mut t, &mut l, &mut pool);
        assert_eq!(u.arbitration_conflicts(), 1);
        assert_eq!(
            u.arbitration_losses(),
            &[ArbitrationLoss {
                tag: 4,
                warp: 6,
                kind: PoolAccess::Cache,
                column: 3,
                holder: READ_BY_W3,
            }]
        );
        assert_eq!(u.outstanding_reads(4), 0, "the request waits in MEM0");
        u.cycle(31, &mut t, &mut l, &mut pool);
        assert_eq!(u.arbitration_losses(), &[]);
        assert_eq!(u.outstanding_reads(4), 1, "sent a cycle late");
    }

    /// The paper pipelines' memory stages are latches (Elastic §3.1): the last one losing
    /// writeback holds the shared accesses behind it and MEM0's hand-over for a cycle.
    #[test]
    fn a_lost_writeback_holds_the_memory_stages_behind_it() {
        let mut u = LdstUnit::default();
        let (mut t, mut l) = (timing(), l1d("none"));
        let cost = |occupancy| MemoryCost {
            occupancy,
            latency: 3,
            shared: true,
            degree: 1,
            conflict_cycles: 0,
            held_subwarp_cycles: 0,
            requests: 0,
            staged: None,
            pool_columns: 0,
        };
        u.accept(1, &cost(1), NOBODY);
        u.cycle(10, &mut t, &mut l, &mut SeparateBanks); // 1 leaves MEM0: ready at 14
        u.accept(2, &cost(1), NOBODY);
        u.cycle(11, &mut t, &mut l, &mut SeparateBanks); // 2: ready at 15
        u.accept(3, &cost(1), NOBODY);
        // In cycle 14, 1 loses writeback: 2 (in MEM(M-2)) and 3 (about to leave MEM0) wait.
        u.in_flight.push((7, 20)); // a global access: not in the memory stages
        u.freeze_mem_stages(14, |tag| tag != 7);
        u.cycle(14, &mut t, &mut l, &mut SeparateBanks);
        assert!(!u.can_accept(), "MEM0 did not hand 3 on");
        assert_eq!(u.in_flight(), &[(1, 14), (2, 16), (7, 20)]);
        u.cycle(15, &mut t, &mut l, &mut SeparateBanks); // the path moves again
        assert_eq!(u.in_flight(), &[(1, 14), (2, 16), (7, 20), (3, 19)]);
    }

    #[test]
    fn shared_counters_and_histogram() {
        let mut t = timing();
        // Stride 2 words over 32 banks: 2-way conflicts.
        let a: Vec<u64> = (0..32).map(|i| 8 * i).collect();
        let c = t.cost(&record(Space::Shared, MemAccess::Load, 4, a), 0);
        assert_eq!((c.occupancy, c.degree), (2, 2));
        let s = t.shared_stats();
        assert_eq!(
            (s.instructions, s.accesses, s.bank_conflict_cycles),
            (1, 1, 1)
        );
        assert_eq!(s.degree_histogram.get(&2), Some(&1));
        // Pass 0 serves lanes 0-15 (bytes 0..128: rows 0-7), pass 1 lanes 16-31 (rows 8-15).
        assert_eq!((s.row_reads, s.row_writes), (16, 0));
    }

    #[test]
    fn shared_rows_per_pass() {
        let mut t = timing();
        // 32 consecutive words stored: one pass, 128 bytes, 8 rows.
        let a: Vec<u64> = (0..32).map(|i| 4 * i).collect();
        t.cost(&record(Space::Shared, MemAccess::Store, 4, a), 0);
        assert_eq!(
            (t.shared_stats().row_reads, t.shared_stats().row_writes),
            (0, 8)
        );
        // Every lane reads word 0 (a broadcast): one row.
        t.cost(&record(Space::Shared, MemAccess::Load, 4, vec![0; 32]), 0);
        assert_eq!(t.shared_stats().row_reads, 1);
        // 16 lanes of 8 bytes at 4, 12, 20, ...: one pass over bytes 4..132, rows 0-8 (every
        // other lane straddles two rows).
        let a: Vec<u64> = (0..16).map(|i| 4 + 8 * i).collect();
        let c = t.cost(&record(Space::Shared, MemAccess::Load, 8, a), 0);
        assert_eq!(c.degree, 1);
        assert_eq!(t.shared_stats().row_reads, 1 + 9);
        // An atomic on one word from 4 lanes: 4 passes of one row, each read and written.
        t.cost(&record(Space::Shared, MemAccess::Atomic, 4, vec![64; 4]), 0);
        assert_eq!(
            (t.shared_stats().row_reads, t.shared_stats().row_writes),
            (14, 12)
        );
    }

    #[test]
    fn a_global_load_sends_one_request_per_cycle_and_waits_for_its_reads() {
        let (mut t, mut l) = (timing(), l1d("N:32:128:4,L:L:m:N:L,A:32:8,8"));
        let mut u = LdstUnit::default();
        let a: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 4096 * i).collect();
        let c = t.cost(&record(Space::Global, MemAccess::Load, 4, a), 0);
        u.accept(1, &c, NOBODY);
        // Four ways of one set: four misses, then associativity stalls.
        for now in 0..4 {
            u.cycle(now, &mut t, &mut l, &mut SeparateBanks);
            assert_eq!(u.stalled(), None);
        }
        assert_eq!(u.mem0().map(|m| m.cycles_left), Some(28));
        u.cycle(4, &mut t, &mut l, &mut SeparateBanks);
        assert_eq!(u.stalled(), Some(FailReason::Assoc));
        assert_eq!(u.outstanding_reads(1), 4);
        assert_eq!(l.stats().reservation_fails.assoc, 1);
    }

    #[test]
    fn a_store_leaves_mem0_at_once_and_completes_with_its_acknowledgement() {
        let (mut t, mut l) = (timing(), l1d("N:32:128:4,L:L:m:N:H,S:64:8,8"));
        let mut u = LdstUnit::default();
        let a: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 4 * i).collect();
        let c = t.cost(&record(Space::Global, MemAccess::Store, 4, a), 0);
        u.accept(3, &c, NOBODY);
        u.cycle(7, &mut t, &mut l, &mut SeparateBanks);
        assert!(u.can_accept());
        assert_eq!(u.in_flight(), &[(3, WAITING)]);
        assert_eq!(u.outstanding_reads(3), 1);
        // The L2 acknowledges the written-through store (here in one piece).
        let write = l.pop_outgoing().unwrap();
        assert_eq!((write.kind, write.token), (FetchKind::Write, 3));
        l.fill(&write, 20);
        u.cycle(20, &mut t, &mut l, &mut SeparateBanks);
        assert_eq!(u.in_flight(), &[(3, 21)]);
        // The slot is free for the next instruction.
        let b: Vec<u64> = (0..32).map(|i| 0x1_0000_1000 + 4 * i).collect();
        assert_eq!(
            t.cost(&record(Space::Global, MemAccess::Load, 4, b), 0)
                .staged,
            c.staged
        );
    }

    #[test]
    fn a_hit_is_ready_after_the_l1d_latency() {
        let (mut t, mut l) = (timing(), l1d("N:32:128:4,L:L:m:N:L,A:32:8,8"));
        let mut u = LdstUnit::default();
        let a: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 4 * i).collect();
        // First load misses; its reply comes back through the L1D.
        let c = t.cost(&record(Space::Global, MemAccess::Load, 4, a.clone()), 0);
        u.accept(1, &c, NOBODY);
        u.cycle(0, &mut t, &mut l, &mut SeparateBanks);
        assert_eq!(u.in_flight(), &[(1, WAITING)]);
        let f = l.pop_outgoing().unwrap();
        l.fill(&f, 50);
        u.cycle(50, &mut t, &mut l, &mut SeparateBanks);
        assert_eq!(u.in_flight(), &[(1, 51)]);
        u.retire(1);
        // Second load hits: ready 35 cycles after it is sent.
        let c = t.cost(&record(Space::Global, MemAccess::Load, 4, a), 0);
        u.accept(2, &c, NOBODY);
        u.cycle(60, &mut t, &mut l, &mut SeparateBanks);
        assert_eq!(u.in_flight(), &[(2, 60 + 35 + 1)]);
    }

    #[test]
    fn a_sectored_l1d_gets_sector_requests() {
        let c = Config::default()
            .with_overrides(&["l1d.config=S:32:128:4,L:L:m:N:L,S:64:8,8"])
            .unwrap();
        let mut t = MemoryTiming::new(&c).unwrap();
        let a: Vec<u64> = (0..32).map(|i| 0x1_0000_0000 + 4 * i).collect();
        assert_eq!(
            t.cost(&record(Space::Global, MemAccess::Load, 4, a), 0)
                .requests,
            4
        );
    }

    #[test]
    fn constant_loads_take_the_fixed_latency() {
        let c = Config::default()
            .with_overrides(&["constant.model=fixed"])
            .unwrap();
        let mut t = MemoryTiming::new(&c).unwrap();
        let c = t.cost(&record(Space::Param, MemAccess::Load, 4, vec![0; 32]), 0);
        assert_eq!((c.occupancy, c.latency, c.staged), (1, 35, None));
    }

    #[test]
    fn constant_loads_ask_the_constant_cache_once_per_64_byte_block() {
        // fermi: GPGPU-Sim's L1C, 64-byte lines. Every lane reading one parameter: one request.
        let mut t = timing();
        let c = t.cost(&record(Space::Param, MemAccess::Load, 4, vec![8; 32]), 0);
        assert_eq!((c.occupancy, c.latency, c.requests), (1, 35, 1));
        let slot = c.staged.expect("staged for MEM0");
        let r = t.staged(slot)[0];
        assert_eq!(
            (r.addr, r.size, r.space),
            (PARAM_BASE, 64, DataSpace::Constant)
        );
        assert_eq!((r.lanes, r.bytes), (u64::from(u32::MAX), 0xF << 8));
        // Lanes reading `.const` words 0..32 (128 bytes): two blocks, in the const bank's place.
        let words: Vec<u64> = (0..32).map(|i| 4 * i).collect();
        let c = t.cost(&record(Space::Const, MemAccess::Load, 4, words), 0);
        let blocks: Vec<u64> = t.staged(c.staged.unwrap()).iter().map(|a| a.addr).collect();
        assert_eq!(blocks, [CONST_BASE, CONST_BASE + 64]);
    }
}
