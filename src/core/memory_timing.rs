//! What a memory instruction costs the LD/ST unit (MODEL.md sections 1, 7 and 9; book section
//! 4.1.1). The LD/ST unit ([`super::ldst_unit`]) spends the cost in MEM0.
//!
//! The per-lane addresses the functional executor recorded at issue wait with the instruction
//! ([`super::held_accesses`]); [`MemoryTiming::take`] costs them when MEM0 takes the
//! instruction, and says what it costs:
//! * **shared**: the bank-conflict passes (`mem::shared_banks`); MEM0 is held for that many
//!   cycles, then the data takes `shmem.latency` (+ `shmem.hash_latency` for a configurable
//!   hash): MODEL.md section 7's baseline timing. Atomics serialise per address.
//! * **global and local**: the coalescer (`mem::coalescer`) cuts the access into segment
//!   requests, kept in a staging slot while the instruction holds MEM0, which sends one
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

use super::held_accesses::{HeldAccesses, MemPath};
use super::pipeline_mode::PipelineMode;
use super::shared_stats::RowSet;
pub use super::shared_stats::SharedStats;
use crate::config::cache_string::CacheKind;
use crate::config::{Coalescing, Config};
use crate::exec::execute::AccessRecord;
use crate::mem::request::{byte_mask, sectors_of, CONST_BASE, PARAM_BASE};
use crate::mem::shared_banks::BankScratch;
use crate::mem::{
    Access, AccessKind, BankConflict, Coalescer, DataSpace, LocalMap, SharedBanks, WarpAccess,
};
use crate::ptx::{MemAccess, Space};
use serde::Serialize;

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
    /// Read-only global loads go to the texture cache (`l1d.texture_cache` is not `none`).
    texture: bool,
    scratch: BankConflict,
    /// An atomic's cost as a load's (same-word lanes merged), to tell its bank conflicts from
    /// its same-address replays ([`SharedStats::atomic_replay_cycles`]).
    as_load: BankConflict,
    /// The bank model's working memory, kept from one shared access to the next.
    bank_scratch: BankScratch,
    /// Accesses each bank serves per cycle (`elastic.shmem_ports`, Elastic Eq. 1).
    shmem_ports: u32,
    coalescer: Coalescer,
    /// Staging slots: the coalesced requests not yet sent, in the coalescer's order.
    staged: Vec<Vec<Access>>,
    free: Vec<u32>,
    shared_stats: SharedStats,
    /// Reused per shared access: (pass, 16-byte row) of every lane's bytes.
    rows: RowSet,
    /// Where shared memory and cache sit when they share the register file's banks.
    pool: Option<PoolColumns>,
    /// The accesses of issued memory instructions MEM0 has not taken yet.
    held: HeldAccesses,
    /// The shared access MEM0 holds, or held last (its tag and bank passes): what the bank
    /// grid shows.
    served: (Option<u64>, BankConflict),
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
            texture: config.texture_cache().ok().flatten().is_some(),
            scratch: BankConflict::default(),
            as_load: BankConflict::default(),
            bank_scratch: BankScratch::default(),
            held: HeldAccesses::default(),
            served: (None, BankConflict::default()),
            shmem_ports: config.elastic.shmem_ports.max(1),
            coalescer,
            staged: Vec::new(),
            free: Vec::new(),
            shared_stats: SharedStats::default(),
            rows: RowSet::default(),
            pool: PoolColumns::of(config),
        })
    }

    /// In a unified pool, the bank column of the cache line `access` reads or writes (claimed
    /// through the pool arbiter, after the register file); 0 when there is no pool.
    pub(super) fn line_columns(&self, access: &Access) -> u32 {
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
            Space::Global | Space::Generic if record.read_only && self.texture => {
                self.global_cost(record, DataSpace::Texture, warp_slot)
            }
            Space::Global | Space::Generic => {
                self.global_cost(record, DataSpace::Global, warp_slot)
            }
        }
    }

    fn shared_cost(&mut self, record: &AccessRecord) -> MemoryCost {
        let (addrs, mask) = (&record.addrs, record.mask);
        let (scratch, out) = (&mut self.bank_scratch, &mut self.scratch);
        let mut replays = 0;
        if record.access == Some(MemAccess::Atomic) {
            self.banks
                .access_with(addrs, mask, scratch, &mut self.as_load);
            self.banks.atomic_with(addrs, mask, scratch, out);
            replays = out.extra_cycles.saturating_sub(self.as_load.extra_cycles);
        } else {
            self.banks.access_with(addrs, mask, scratch, out);
        }
        self.shared_stats.count(&self.scratch, replays);
        self.count_shared_rows(record);
        // Eq. 1: a sub-warp of conflict degree d holds MEM0 for ceil(d / ports) cycles. The
        // passes beyond the first of every sub-warp but the last are held sub-warp cycles.
        let ports = self.shmem_ports;
        let active = self.scratch.sub_warp_cycles.iter().filter(|&&p| p > 0);
        let (mut cycles, mut subwarps, mut last) = (0u32, 0u32, 0u32);
        for passes in active.map(|p| p.div_ceil(ports)) {
            cycles += passes;
            subwarps += 1;
            last = passes;
        }
        let held = (cycles - last).saturating_sub(subwarps.saturating_sub(1));
        MemoryCost {
            occupancy: cycles.max(1),
            latency: self.shared_latency,
            shared: true,
            degree: self.scratch.degree,
            conflict_cycles: cycles - subwarps,
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
            for row in addr / 16..=(addr + bytes - 1) / 16 {
                self.rows.push(lane.pass, row);
            }
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
        // The lane before's address and its request: a uniform load (every lane reading the
        // same parameter) adds only its lane bit.
        let mut last: Option<(u64, usize)> = None;
        for lane in active_lanes(record.mask, record.addrs.len()) {
            let addr = base + record.addrs[lane as usize];
            if let Some((a, i)) = last.filter(|&(a, _)| a == addr) {
                requests[i].lanes |= 1 << lane;
                last = Some((a, i));
                continue;
            }
            let block = addr - addr % line;
            let bytes = byte_mask((addr % 128) as u32, record.bytes.max(1));
            let i = match requests.iter().position(|a| a.addr == block) {
                Some(i) => i,
                None => {
                    requests.push(Access {
                        addr: block,
                        size: line as u32,
                        kind: AccessKind::Read,
                        space: DataSpace::Constant,
                        lanes: 0,
                        bytes: 0,
                        sectors: 0,
                    });
                    requests.len() - 1
                }
            };
            requests[i].lanes |= 1 << lane;
            requests[i].bytes |= bytes;
            last = Some((addr, i));
        }
        for a in requests.iter_mut() {
            a.sectors = sectors_of(a.bytes);
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

    pub(super) fn release(&mut self, slot: u32) {
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

    pub(super) fn next_request(&self, slot: u32) -> Option<Access> {
        self.staged.get(slot as usize)?.last().copied()
    }

    pub(super) fn pop_request(&mut self, slot: u32) -> usize {
        let Some(v) = self.staged.get_mut(slot as usize) else {
            return 0;
        };
        v.pop();
        v.len()
    }

    /// Instruction `tag` of warp slot `warp_slot` issued with access `record`: the access waits
    /// for MEM0 ([`Self::take`]). Returns the path it will take through the LD/ST unit.
    pub fn hold(&mut self, tag: u64, warp_slot: u32, record: &AccessRecord) -> MemPath {
        self.held.hold(tag, warp_slot, record);
        MemPath::of(record, self.const_line.is_some())
    }

    /// MEM0 takes instruction `tag`: the cost of the access it carried from issue (bank passes,
    /// coalesced requests), counted now. A shared access becomes the one the bank grid shows.
    pub fn take(&mut self, tag: u64) -> MemoryCost {
        let held = self.held.take(tag);
        let cost = held.as_ref().map(|h| self.cost(&h.record, h.warp_slot));
        if let Some(h) = held {
            self.held.recycle(h);
        }
        let cost = cost.unwrap_or(MemoryCost::FENCE);
        if cost.shared {
            // The costed access becomes the served one; the scratch takes the old buffers
            // (costing overwrites them), so nothing is allocated.
            self.served.0 = Some(tag);
            std::mem::swap(&mut self.served.1, &mut self.scratch);
        }
        cost
    }

    /// The bank-conflict result (lanes, banks and passes) of the shared access MEM0 holds, or of
    /// the last one it held: the bank grid shows what MEM0 serves, not what issued last.
    pub fn served_shared(&self) -> &BankConflict {
        &self.served.1
    }

    /// The tag of the instruction whose access [`Self::served_shared`] is.
    pub fn served_tag(&self) -> Option<u64> {
        self.served.0
    }

    /// Shared-memory counters of this SM.
    pub fn shared_stats(&self) -> &SharedStats {
        &self.shared_stats
    }
}

/// The lanes set in `mask` below `lanes`, in ascending order.
fn active_lanes(mask: u64, lanes: usize) -> impl Iterator<Item = u32> {
    let below = if lanes >= 64 {
        u64::MAX
    } else {
        (1u64 << lanes) - 1
    };
    let mut left = mask & below;
    std::iter::from_fn(move || {
        let lane = (left != 0).then(|| left.trailing_zeros())?;
        left &= left - 1;
        Some(lane)
    })
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
