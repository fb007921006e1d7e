//! The register-read stage of one SM: the banked register file, its bank arbiter and the
//! collector units (book §3.3 "three-loop approximation" and §3.3.1, Figs. 3.12-3.17; MODEL.md
//! section 5; GPGPU-Sim's `opndcoll_rfu_t` in `src/gpgpu-sim/shader.{h,cc}`).
//!
//! The register file is `reg_banks` single-ported banks: each bank serves one read or one write
//! per cycle. An issued instruction takes a free collector unit of its execution unit's pool
//! (GPGPU-Sim `collector_unit_t`, one pool per `-gpgpu_operand_collector_num_units_*`); the
//! arbiter then moves its source operands out of the banks, and once every operand is in the
//! unit the SM dispatches the instruction to its execution unit and the unit is free again.
//!
//! # One cycle, as the SM drives it
//! Stages run in reverse pipeline order (MODEL.md section 1), so within cycle t the SM calls:
//! 1. [`OperandCollector::begin_cycle`], which clears the per-cycle bank record;
//! 2. [`OperandCollector::write`] for each result written back in cycle t: a write takes its
//!    bank for the cycle and so beats every read (book Fig. 3.14, cycle 5; GPGPU-Sim
//!    `opndcoll_rfu_t::writeback` runs in `shader_core_ctx::writeback`, before the reads);
//! 3. [`OperandCollector::read_cycle`]: the bank reads of cycle t;
//! 4. [`OperandCollector::ready`] (or [`OperandCollector::oldest_ready`] per pool) and
//!    [`OperandCollector::release`]: an instruction whose last
//!    operand was read in cycle t is dispatched in cycle t, executes from t+1, and its unit can
//!    take an instruction issued in that same cycle t;
//! 5. [`OperandCollector::allocate`] for the instructions issued in cycle t; their reads start
//!    in cycle t+1.
//!
//! GPGPU-Sim's `opndcoll_rfu_t::step` runs `dispatch_ready_cu` *before* `allocate_reads`, so
//! there an instruction leaves its unit one cycle after its last read, and an issued
//! instruction first waits a cycle in the ID_OC register. The book's figures read the cycle
//! after issue and dispatch in the cycle of the last read (Fig. 3.17: w1 reads its last operand
//! in cycle 2 and executes in cycle 3). Both are configured: `regfile.issue_latch` read cycles
//! a new instruction waits before its first read (here), and `regfile.dispatch_latency` cycles
//! from the last read to the execution unit (the dispatch stage, `super::dispatch`); 0 and 0 is
//! the book, 1 and 2 GPGPU-Sim (the `fermi` preset).
//!
//! # Arbitration order
//! Register writes first (they claim their banks before the reads run). Then the collector
//! units in allocation order, oldest instruction first; within a unit its source operands in
//! instruction order; an operand is read when its bank is still idle and its unit has a read
//! port left (`regfile.collector_read_ports` operands per unit per cycle).
//!
//! GPGPU-Sim (`opndcoll_rfu_t::arbiter_t::allocate_reads`) keeps one FIFO of requests per bank,
//! filled in allocation order, and matches only the head of each FIFO to collector units with a
//! wavefront allocator taken from BookSim, whose priority diagonal rotates every cycle and is
//! indexed by collector-unit number. Per bank that is also oldest first; warpstep differs in two
//! ways, both chosen so the book's figures come out and do not depend on unrelated history:
//! - when one unit's operands head several bank FIFOs, GPGPU-Sim grants the bank the rotating
//!   diagonal reaches first; warpstep grants the unit's first operand in instruction order.
//!   In Fig. 3.17, cycle 2, w2's r2 (bank 0) and r5 (bank 3) are both at the head; the book
//!   reads r2, while GPGPU-Sim, with w1 and w2 in units 0 and 1 and the diagonal at 2 (it
//!   starts at 0 and moves once per cycle), grants bank 3, so the grid would depend on the
//!   cycle count;
//! - a bank whose oldest request belongs to a unit out of read ports serves the next younger
//!   request instead of idling (GPGPU-Sim only ever looks at the head of the bank FIFO).
//!
//! The bank arbitration itself is [`BankArbiter`], a claim-in-priority-order record of one
//! cycle. The unified local memory (MODEL.md section 11) can put shared-memory and cache
//! accesses on the same banks by claiming after the register reads ("register reads beat memory
//! accesses on a bank").
//!
//! # Where one SM-level bank arbiter would go (issue 31, item 1)
//! Three stages claim register banks each cycle, in a fixed order that `Sm::cycle` sets by the
//! order of its calls: the writeback stage ([`OperandCollector::write`], from `Sm::writeback`),
//! then the operand reads ([`OperandCollector::read_cycle`]), then MEM0's unified-pool claims
//! (`LdstUnit::cycle` through [`PoolArbiter`], MODEL.md section 11, Unified §4.3). Today the
//! [`BankArbiter`] is this collector's field, so the SM lends the LD/ST unit the whole
//! collector for its claims. The SM-level arbiter would be the [`BankArbiter`] with the
//! [`BankMap`] moved out of the collector into the SM, beside it: the SM clears it at the start
//! of the cycle (now [`OperandCollector::begin_cycle`]) and hands `&mut` of it to the writeback
//! stage, then to `read_cycle`, then to `LdstUnit::cycle` (it would implement [`PoolArbiter`]
//! instead of the collector). Timing stays identical as long as those three calls keep their
//! order; the conflict counters stay the collector's and the LD/ST unit's.
//!
//! Write-after-read hazards between two instructions of one warp in different units (book
//! §3.3.1, Mishkin et al.) are the issue logic's concern, not this module's.

use crate::config::{RegFileConfig, RegLayout};
use serde::Serialize;

pub use super::units::UnitKind;

/// Where each warp's registers live (book Fig. 3.13 naive, Fig. 3.16 swizzled; GPGPU-Sim
/// `register_bank`, which always adds the warp id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BankMap {
    layout: RegLayout,
    banks: u32,
}

impl BankMap {
    /// `banks` banks (at least 1) laid out as `layout`.
    pub fn new(layout: RegLayout, banks: u32) -> Self {
        assert!(banks > 0, "a register file needs at least one bank");
        Self { layout, banks }
    }

    /// The bank of register `reg` of warp `warp`: `reg mod banks` (naive) or
    /// `(reg + warp) mod banks` (swizzled).
    pub fn bank(self, warp: u32, reg: u32) -> u32 {
        let reg = reg % self.banks;
        match self.layout {
            RegLayout::Naive => reg,
            RegLayout::Swizzled => (reg + warp % self.banks) % self.banks,
        }
    }

    /// Number of banks.
    pub fn banks(self) -> u32 {
        self.banks
    }
}

/// What one register bank did in one cycle: one cell of the book's bank-timing grids
/// (Figs. 3.14, 3.17) and of the bank-grid view (MODEL.md section 12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum BankActivity {
    /// Not accessed.
    Idle,
    /// Register `reg` of warp `warp` read into collector unit `unit`.
    Read { warp: u32, reg: u32, unit: u32 },
    /// Register `reg` of warp `warp` written back.
    Write { warp: u32, reg: u32 },
    /// A shared-memory or cache access of warp `warp` (the unified local memory, where the
    /// register banks also hold shared memory and cache: MODEL.md section 11; Unified §4.3).
    Memory { warp: u32 },
}

/// Why a unified-pool claim was refused: the first bank column it asked for (lowest k) that was
/// taken this cycle, and what took it (Unified §4.3: register reads and writes win).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PoolRefusal {
    /// The bank column (k: bank k of every cluster).
    pub column: u32,
    /// What holds its register bank this cycle: a register write or read (or a memory access
    /// that claimed it earlier in the cycle); never `Idle`.
    pub holder: BankActivity,
}

/// The banks a unified local memory's shared or cache access needs, claimed after the register
/// file's own accesses of the cycle (Unified §4.3: register accesses win). Implemented by the
/// operand collector, whose arbiter holds the banks.
pub trait PoolArbiter {
    /// Claims bank columns `columns` (bit k: bank k of every cluster) for a memory access of
    /// warp `warp`; refused, claiming nothing, when the register file has one of them this
    /// cycle: the refusal names the first such column and its holder.
    fn claim_memory(&mut self, columns: u32, warp: u32) -> Result<(), PoolRefusal>;
}

/// The bank arbiter of one cycle (the "arbiter" of book Figs. 3.12 and 3.15; GPGPU-Sim
/// `arbiter_t`'s per-bank `allocation_t`): single-ported banks, each granted to the first
/// access that claims it in the cycle. Callers claim in priority order: register writes (the
/// writeback stage runs first), then register reads, then, for the unified local memory
/// (MODEL.md section 11), shared-memory and cache accesses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BankArbiter {
    cells: Vec<BankActivity>,
}

impl BankArbiter {
    /// `banks` idle banks.
    pub fn new(banks: u32) -> Self {
        Self {
            cells: vec![BankActivity::Idle; banks as usize],
        }
    }

    /// Start a new cycle: every bank idle.
    pub fn begin_cycle(&mut self) {
        self.cells.fill(BankActivity::Idle);
    }

    /// Grant `bank` to `access` if nothing has claimed it this cycle; false if it is taken.
    pub fn claim(&mut self, bank: u32, access: BankActivity) -> bool {
        debug_assert_ne!(access, BankActivity::Idle, "claim with an access");
        let cell = &mut self.cells[bank as usize];
        let free = *cell == BankActivity::Idle;
        if free {
            *cell = access;
        }
        free
    }

    /// True if nothing has claimed `bank` this cycle.
    pub fn is_idle(&self, bank: u32) -> bool {
        self.cells[bank as usize] == BankActivity::Idle
    }

    /// What each bank did this cycle, bank 0 first.
    pub fn cells(&self) -> &[BankActivity] {
        &self.cells
    }
}

/// One source operand held for a collector unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Operand {
    /// Register number.
    pub reg: u32,
    /// The bank it is read from.
    pub bank: u32,
    /// True once the value is in the collector unit.
    pub read: bool,
}

/// One collector unit (book Fig. 3.15: per instruction, buffering for all its source operands;
/// GPGPU-Sim `opndcoll_rfu_t::collector_unit_t`). A free unit has no warp and no operands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CollectorUnit {
    kind: UnitKind,
    busy: bool,
    warp: u32,
    tag: u64,
    operands: Vec<Operand>,
    /// Read cycles the instruction still spends in the issue-to-collector register
    /// (`regfile.issue_latch`) before the unit reads banks for it.
    latched: u32,
}

impl CollectorUnit {
    fn new(kind: UnitKind) -> Self {
        Self {
            kind,
            busy: false,
            warp: 0,
            tag: 0,
            operands: Vec::with_capacity(4),
            latched: 0,
        }
    }

    /// The pool this unit belongs to.
    pub fn kind(&self) -> UnitKind {
        self.kind
    }

    /// The instruction in the unit as (warp, SM tag), or `None` if the unit is free.
    pub fn occupant(&self) -> Option<(u32, u64)> {
        self.busy.then_some((self.warp, self.tag))
    }

    /// The instruction's distinct source registers in instruction order (empty when free).
    pub fn operands(&self) -> &[Operand] {
        &self.operands
    }

    /// Operands still to be read.
    pub fn pending(&self) -> usize {
        self.operands.iter().filter(|o| !o.read).count()
    }

    /// True if the unit holds an instruction whose operands are all read.
    pub fn is_ready(&self) -> bool {
        self.busy && self.latched == 0 && self.operands.iter().all(|o| o.read)
    }

    /// Take an instruction: its distinct source registers, each with its bank; its reads wait
    /// `latched` read cycles first.
    fn fill(&mut self, warp: u32, srcs: &[u32], tag: u64, map: BankMap, latched: u32) {
        self.busy = true;
        self.warp = warp;
        self.tag = tag;
        self.latched = latched;
        self.operands.clear();
        for &reg in srcs {
            if !self.operands.iter().any(|o| o.reg == reg) {
                let bank = map.bank(warp, reg);
                self.operands.push(Operand {
                    reg,
                    bank,
                    read: false,
                });
            }
        }
    }

    /// Read pending operands in instruction order, at most `ports` of them, each only if its
    /// bank is still free this cycle. Returns how many it read.
    fn collect(&mut self, index: u32, ports: u32, arbiter: &mut BankArbiter) -> u32 {
        let mut left = ports;
        for op in self.operands.iter_mut().filter(|o| !o.read) {
            if left == 0 {
                break;
            }
            let access = BankActivity::Read {
                warp: self.warp,
                reg: op.reg,
                unit: index,
            };
            if arbiter.claim(op.bank, access) {
                op.read = true;
                left -= 1;
            }
        }
        ports - left
    }

    fn clear(&mut self) {
        self.busy = false;
        self.latched = 0;
        self.warp = 0;
        self.tag = 0;
        self.operands.clear();
    }
}

/// A collector unit whose instruction has all its operands and may be dispatched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Ready {
    /// Collector unit index (for [`OperandCollector::release`]).
    pub unit: usize,
    /// Its pool, i.e. the execution unit the instruction goes to.
    pub kind: UnitKind,
    /// The instruction's warp.
    pub warp: u32,
    /// The SM's tag for the instruction.
    pub tag: u64,
}

/// The operand collector of one SM: bank map, bank arbiter and every collector unit
/// (book §3.3.1; GPGPU-Sim `opndcoll_rfu_t`). See the module documentation for the cycle
/// protocol and the arbitration order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperandCollector {
    map: BankMap,
    read_ports: u32,
    /// `regfile.issue_latch`: read cycles a new instruction waits before its first read.
    issue_latch: u32,
    units: Vec<CollectorUnit>,
    /// First unit index of each pool, and one past the last, indexed by `UnitKind::index`.
    pools: [(usize, usize); 4],
    /// Occupied units, oldest allocation first.
    order: Vec<usize>,
    arbiter: BankArbiter,
    conflicts: u64,
    write_conflicts: u64,
    /// Warp registers read into collector units so far (the energy model's register-file
    /// reads; docs/energy.md).
    register_reads: u64,
    /// Warp registers written by results so far, predicates excluded (see
    /// [`Self::count_result_writes`]).
    register_writes: u64,
}

impl OperandCollector {
    /// Banks, layout, units per pool (numbered sp, sfu, dp, mem, as GPGPU-Sim's ports) and read
    /// ports per unit from the register-file config.
    pub fn new(cfg: &RegFileConfig) -> Self {
        let c = &cfg.collector_units;
        let counts = [c.sp, c.sfu, c.dp, c.mem];
        let mut units = Vec::new();
        let mut pools = [(0, 0); 4];
        for (kind, &n) in UnitKind::ALL.iter().zip(&counts) {
            let start = units.len();
            units.extend((0..n).map(|_| CollectorUnit::new(*kind)));
            pools[kind.index()] = (start, units.len());
        }
        Self {
            map: BankMap::new(cfg.layout, cfg.reg_banks),
            read_ports: cfg.collector_read_ports.max(1),
            issue_latch: cfg.issue_latch,
            order: Vec::with_capacity(units.len()),
            units,
            pools,
            arbiter: BankArbiter::new(cfg.reg_banks),
            conflicts: 0,
            write_conflicts: 0,
            register_reads: 0,
            register_writes: 0,
        }
    }

    /// The bank of register `reg` of warp `warp`.
    pub fn bank_of(&self, warp: u32, reg: u32) -> u32 {
        self.map.bank(warp, reg)
    }

    /// Operands one collector unit receives per cycle at most.
    pub fn read_ports(&self) -> u32 {
        self.read_ports
    }

    /// True if pool `kind` has a free unit.
    pub fn has_free(&self, kind: UnitKind) -> bool {
        self.free_unit(kind).is_some()
    }

    /// An issued instruction takes the lowest-numbered free unit of its pool. `srcs` are its
    /// source registers (a register named twice is read once; predicate registers stay out:
    /// they live in a separate predicate file); `tag` is the SM's id for the instruction.
    /// `None` if the pool is full. Its reads start at the next [`Self::read_cycle`], or
    /// `regfile.issue_latch` read cycles later (GPGPU-Sim's ID_OC register).
    pub fn allocate(&mut self, kind: UnitKind, warp: u32, srcs: &[u32], tag: u64) -> Option<usize> {
        let unit = self.free_unit(kind)?;
        self.units[unit].fill(warp, srcs, tag, self.map, self.issue_latch);
        self.order.push(unit);
        Some(unit)
    }

    /// Start a cycle: clear the per-cycle bank record. Call before the cycle's writes.
    pub fn begin_cycle(&mut self) {
        self.arbiter.begin_cycle();
    }

    /// True if register `reg` of warp `warp` can be written this cycle (its bank is idle).
    pub fn can_write(&self, warp: u32, reg: u32) -> bool {
        self.arbiter.is_idle(self.bank_of(warp, reg))
    }

    /// Writeback of register `reg` of warp `warp` this cycle: its bank serves no read this
    /// cycle. False if another write has the bank already; the writer retries next cycle
    /// (GPGPU-Sim `opndcoll_rfu_t::writeback` returns false the same way). Call before
    /// [`Self::read_cycle`].
    pub fn write(&mut self, warp: u32, reg: u32) -> bool {
        let bank = self.bank_of(warp, reg);
        self.arbiter.claim(bank, BankActivity::Write { warp, reg })
    }

    /// One cycle of register reads: each bank serves at most one read, none if written this
    /// cycle; each collector unit receives at most `read_ports` operands; oldest instruction
    /// first, its operands in instruction order.
    pub fn read_cycle(&mut self) {
        let Self {
            order,
            units,
            arbiter,
            read_ports,
            ..
        } = self;
        for &unit in order.iter() {
            if units[unit].latched > 0 {
                // Still in the issue-to-collector register: no reads, no conflicts.
                continue;
            }
            let read = units[unit].collect(unit as u32, *read_ports, arbiter);
            self.register_reads += u64::from(read);
        }
        self.count_conflicts();
        for &unit in self.order.iter() {
            let u = &mut self.units[unit];
            u.latched = u.latched.saturating_sub(1);
        }
    }

    /// Units whose operands are all read, oldest first.
    pub fn ready(&self) -> impl Iterator<Item = Ready> + '_ {
        self.order
            .iter()
            .filter(|&&u| self.units[u].is_ready())
            .map(|&u| {
                let cu = &self.units[u];
                Ready {
                    unit: u,
                    kind: cu.kind,
                    warp: cu.warp,
                    tag: cu.tag,
                }
            })
    }

    /// The oldest ready unit of pool `kind`: what its execution unit takes next.
    pub fn oldest_ready(&self, kind: UnitKind) -> Option<Ready> {
        self.ready().find(|r| r.kind == kind)
    }

    /// The SM dispatched this unit's instruction to its execution unit: the unit is free.
    /// Panics if the unit is free or still waiting for operands.
    pub fn release(&mut self, unit: usize) {
        assert!(
            self.units[unit].is_ready(),
            "release of collector unit {unit}, which holds no complete instruction"
        );
        self.units[unit].clear();
        self.order.retain(|&u| u != unit);
    }

    /// What each bank did this cycle, bank 0 first.
    pub fn banks(&self) -> &[BankActivity] {
        self.arbiter.cells()
    }

    /// Every collector unit, numbered sp, sfu, dp, mem.
    pub fn units(&self) -> &[CollectorUnit] {
        &self.units
    }

    /// Operand-cycles lost to bank conflicts: each cycle, every operand left unread whose bank
    /// was busy (read for another operand or written).
    pub fn conflict_cycles(&self) -> u64 {
        self.conflicts
    }

    /// The part of [`Self::conflict_cycles`] where the bank was busy with a write.
    pub fn write_conflict_cycles(&self) -> u64 {
        self.write_conflicts
    }

    /// Counts `registers` warp registers written back by one result, for the energy model
    /// (the writeback stage calls it with the result's non-predicate destinations; it changes
    /// no timing: [`Self::write`] claims the banks).
    pub fn count_result_writes(&mut self, registers: u64) {
        self.register_writes += registers;
    }

    /// Warp registers read out of the banks so far: one per source operand a collector unit
    /// received (each a whole row of the warp's lanes, whatever the active mask).
    pub fn register_reads(&self) -> u64 {
        self.register_reads
    }

    /// Warp registers written back so far (see [`Self::count_result_writes`]).
    pub fn register_writes(&self) -> u64 {
        self.register_writes
    }

    fn free_unit(&self, kind: UnitKind) -> Option<usize> {
        let (start, end) = self.pools[kind.index()];
        (start..end).find(|&u| !self.units[u].busy)
    }

    fn count_conflicts(&mut self) {
        for &unit in &self.order {
            if self.units[unit].latched > 0 {
                continue;
            }
            for op in self.units[unit].operands.iter().filter(|o| !o.read) {
                match self.arbiter.cells()[op.bank as usize] {
                    BankActivity::Idle => {}
                    BankActivity::Read { .. } => self.conflicts += 1,
                    BankActivity::Write { .. } => {
                        self.conflicts += 1;
                        self.write_conflicts += 1;
                    }
                    BankActivity::Memory { .. } => self.conflicts += 1,
                }
            }
        }
    }
}

/// The unified local memory: bank column k of every cluster is register bank k (modulo the
/// register file's bank count), already claimed this cycle by register writes and reads.
impl PoolArbiter for OperandCollector {
    fn claim_memory(&mut self, columns: u32, warp: u32) -> Result<(), PoolRefusal> {
        let wanted = (0..32u32).filter(move |k| columns >> k & 1 == 1);
        if let Some(column) = wanted
            .clone()
            .find(|&k| !self.arbiter.is_idle(self.pool_column_bank(k)))
        {
            let holder = self.arbiter.cells()[self.pool_column_bank(column) as usize];
            return Err(PoolRefusal { column, holder });
        }
        for k in wanted {
            // Two columns on one register bank: the first claim holds it for both.
            let _ = self
                .arbiter
                .claim(self.pool_column_bank(k), BankActivity::Memory { warp });
        }
        Ok(())
    }
}

impl OperandCollector {
    /// The register bank that bank column `column` of every unified-pool cluster holds (column
    /// k is register bank k, modulo the register file's banks).
    pub fn pool_column_bank(&self, column: u32) -> u32 {
        column % (self.arbiter.cells().len() as u32).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CollectorUnits;

    fn cfg(layout: RegLayout, sp: u32, ports: u32) -> RegFileConfig {
        RegFileConfig {
            reg_banks: 4,
            layout,
            collector_units: CollectorUnits {
                sp,
                sfu: 1,
                dp: 0,
                mem: 1,
            },
            collector_read_ports: ports,
            writeback_width: 1,
            issue_latch: 0,
            dispatch_latency: 0,
        }
    }

    #[test]
    fn naive_and_swizzled_maps() {
        let naive = BankMap::new(RegLayout::Naive, 4);
        let swz = BankMap::new(RegLayout::Swizzled, 4);
        assert_eq!(naive.bank(1, 5), 1);
        assert_eq!(swz.bank(1, 5), 2);
        assert_eq!(swz.bank(3, u32::MAX), (u32::MAX % 4 + 3) % 4);
    }

    /// Unified §4.3 on hand-built cycles: a register read and a cache (or shared) access to one
    /// bank column in the same cycle; the register read wins and the memory access waits.
    #[test]
    fn register_reads_beat_memory_accesses_on_a_unified_bank() {
        let mut oc = OperandCollector::new(&cfg(RegLayout::Naive, 1, 1)); // 4 banks
        oc.begin_cycle();
        oc.allocate(UnitKind::Sp, 0, &[1], 7).unwrap(); // warp 0's r1: bank 1
        oc.read_cycle();
        assert!(matches!(
            oc.banks()[1],
            BankActivity::Read {
                warp: 0,
                reg: 1,
                ..
            }
        ));
        let read = BankActivity::Read {
            warp: 0,
            reg: 1,
            unit: 0,
        };
        assert_eq!(
            oc.claim_memory(0b0010, 3),
            Err(PoolRefusal {
                column: 1,
                holder: read
            }),
            "column 1 is the register read's"
        );
        assert_eq!(
            oc.claim_memory(0b0011, 3).map_err(|r| r.column),
            Err(1),
            "nothing is claimed when one column is taken"
        );
        assert_eq!(oc.banks()[0], BankActivity::Idle);
        assert_eq!(oc.claim_memory(0b0100, 3), Ok(()), "column 2 is free");
        assert_eq!(oc.banks()[2], BankActivity::Memory { warp: 3 });
        // Column 6 is register bank 2 (6 mod 4 banks), which the access above now holds.
        assert_eq!(
            oc.claim_memory(0b0100_0000, 5),
            Err(PoolRefusal {
                column: 6,
                holder: BankActivity::Memory { warp: 3 }
            })
        );
        // Next cycle the bank is free again and the memory access goes.
        oc.begin_cycle();
        assert_eq!(oc.claim_memory(0b0010, 3), Ok(()));
        // A register write (writeback runs first) wins too.
        oc.begin_cycle();
        assert!(oc.write(0, 3));
        assert_eq!(
            oc.claim_memory(0b1000, 3),
            Err(PoolRefusal {
                column: 3,
                holder: BankActivity::Write { warp: 0, reg: 3 }
            })
        );
    }

    #[test]
    fn duplicate_sources_are_read_once() {
        let mut oc = OperandCollector::new(&cfg(RegLayout::Naive, 1, 1));
        let u = oc.allocate(UnitKind::Sp, 0, &[5, 5, 1, 5], 7).unwrap();
        let regs: Vec<u32> = oc.units()[u].operands().iter().map(|o| o.reg).collect();
        assert_eq!(regs, [5, 1]);
    }

    #[test]
    fn full_pool_refuses_and_release_frees() {
        let mut oc = OperandCollector::new(&cfg(RegLayout::Naive, 1, 1));
        assert_eq!(oc.allocate(UnitKind::Sp, 0, &[], 1), Some(0));
        assert!(!oc.has_free(UnitKind::Sp));
        assert_eq!(oc.allocate(UnitKind::Sp, 1, &[], 2), None);
        assert!(!oc.has_free(UnitKind::Dp));
        assert_eq!(oc.allocate(UnitKind::Mem, 1, &[2], 3), Some(2));
        let ready: Vec<Ready> = oc.ready().collect();
        assert_eq!(ready.len(), 1, "no operands: ready at once");
        oc.release(ready[0].unit);
        assert!(oc.has_free(UnitKind::Sp));
        assert_eq!(oc.units()[0].occupant(), None);
    }

    #[test]
    fn second_write_to_a_bank_is_refused() {
        let mut oc = OperandCollector::new(&cfg(RegLayout::Naive, 1, 1));
        oc.begin_cycle();
        assert!(oc.write(0, 1));
        assert!(!oc.can_write(2, 5));
        assert!(!oc.write(2, 5));
        assert!(oc.write(2, 6));
    }

    #[test]
    fn ports_limit_reads_and_conflicts_are_counted() {
        let mut oc = OperandCollector::new(&cfg(RegLayout::Naive, 2, 2));
        oc.allocate(UnitKind::Sp, 0, &[0, 1, 2], 1);
        oc.allocate(UnitKind::Sp, 1, &[4, 3], 2);
        oc.begin_cycle();
        assert!(oc.write(9, 3)); // bank 3
        oc.read_cycle();
        // Unit 0 takes banks 0 and 1 (two ports); unit 1 loses bank 0 to it and bank 3 to the write.
        assert_eq!(oc.units()[0].pending(), 1);
        assert_eq!(oc.units()[1].pending(), 2);
        assert_eq!(oc.banks()[2], BankActivity::Idle);
        assert_eq!((oc.conflict_cycles(), oc.write_conflict_cycles()), (2, 1));
        assert_eq!(
            oc.register_reads(),
            2,
            "unit 0 read r0 and r1; unit 1 nothing"
        );
        oc.begin_cycle();
        oc.read_cycle();
        assert_eq!(oc.register_reads(), 5, "then r2, r4 and r3");
        oc.count_result_writes(2);
        assert_eq!(oc.register_writes(), 2);
    }

    #[test]
    fn oldest_instruction_wins_a_bank() {
        let mut oc = OperandCollector::new(&cfg(RegLayout::Naive, 3, 1));
        oc.allocate(UnitKind::Sp, 0, &[1], 1); // unit 0
        oc.allocate(UnitKind::Sp, 1, &[1], 2); // unit 1
        oc.begin_cycle();
        oc.read_cycle();
        assert_eq!(oc.units()[0].pending(), 0);
        assert_eq!(oc.units()[1].pending(), 1);
        oc.release(0);
        oc.allocate(UnitKind::Sp, 2, &[5], 3); // unit 0 again, but younger than unit 1
        oc.begin_cycle();
        oc.read_cycle();
        let read = BankActivity::Read {
            warp: 1,
            reg: 1,
            unit: 1,
        };
        assert_eq!(oc.banks()[1], read);
        let order: Vec<u64> = oc.ready().map(|r| r.tag).collect();
        assert_eq!(order, [2], "unit 0 (tag 3) lost bank 1 to the older unit 1");
    }

    #[test]
    fn a_unit_out_of_ports_leaves_the_bank_to_a_younger_one() {
        let mut oc = OperandCollector::new(&cfg(RegLayout::Naive, 2, 1));
        oc.allocate(UnitKind::Sp, 0, &[0, 1], 1); // r0 in bank 0, then r1 in bank 1
        oc.allocate(UnitKind::Sp, 1, &[5], 2); // bank 1
        oc.begin_cycle();
        oc.read_cycle();
        assert_eq!(oc.units()[0].pending(), 1);
        assert_eq!(oc.units()[1].pending(), 0);
        assert_eq!(oc.conflict_cycles(), 1, "unit 0's r1 found bank 1 busy");
    }

    #[test]
    #[should_panic(expected = "holds no complete instruction")]
    fn releasing_an_incomplete_unit_panics() {
        let mut oc = OperandCollector::new(&cfg(RegLayout::Naive, 1, 1));
        oc.allocate(UnitKind::Sp, 0, &[1], 1);
        oc.release(0);
    }
}
