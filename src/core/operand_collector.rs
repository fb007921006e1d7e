//! The register-read stage of one SM: the collector units in front of the banked register file
//! (book §3.3 "three-loop approximation" and §3.3.1, Figs. 3.12-3.17; MODEL.md section 5;
//! GPGPU-Sim's `opndcoll_rfu_t` in `src/gpgpu-sim/shader.{h,cc}`).
//!
//! The register file is `reg_banks` single-ported banks: each bank serves one read or one write
//! per cycle. An issued instruction takes a free collector unit of its execution unit's pool
//! (GPGPU-Sim `collector_unit_t`, one pool per `-gpgpu_operand_collector_num_units_*`); the
//! arbiter then moves its source operands out of the banks, and once every operand is in the
//! unit the SM dispatches the instruction to its execution unit and the unit is free again.
//!
//! The banks themselves, their arbiter and the register file's access counts are the SM's
//! [`RegisterBanks`] (`register_banks.rs`), shared with the writeback stage and a unified local
//! memory; the collector asks it for each read.
//!
//! # One cycle, as the SM drives it
//! Stages run in reverse pipeline order (MODEL.md section 1), so within cycle t the SM calls:
//! 1. [`RegisterBanks::begin_cycle`], which clears the per-cycle bank record;
//! 2. [`RegisterBanks::write`] for each result written back in cycle t (the writeback stage): a
//!    write takes its bank for the cycle and so beats every read (book Fig. 3.14, cycle 5);
//! 3. [`OperandCollector::read_cycle`]: the bank reads of cycle t;
//! 4. [`OperandCollector::ready`] (or [`OperandCollector::oldest_ready`] per pool) and
//!    [`OperandCollector::release`]: an instruction whose last
//!    operand was read in cycle t is dispatched in cycle t, executes from t+1, and its unit can
//!    take an instruction issued in that same cycle t;
//! 5. [`OperandCollector::allocate`] for the instructions issued in cycle t; their reads start
//!    in cycle t+1.
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
//! The unified local memory's claims (MODEL.md section 11) come after the reads ("register
//! reads beat memory accesses on a bank"): see [`RegisterBanks`] for the whole order.
//!
//! Write-after-read hazards between two instructions of one warp in different units (book
//! §3.3.1, Mishkin et al.) are the issue logic's concern, not this module's.

use super::register_banks::{BankActivity, BankMap, RegisterBanks};
use crate::config::RegFileConfig;
use serde::Serialize;

pub use super::units::UnitKind;

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
    /// bank is still free this cycle.
    fn collect(&mut self, index: u32, ports: u32, banks: &mut RegisterBanks) {
        let mut left = ports;
        for op in self.operands.iter_mut().filter(|o| !o.read) {
            if left == 0 {
                break;
            }
            if banks.read(op.bank, self.warp, op.reg, index) {
                op.read = true;
                left -= 1;
            }
        }
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

/// The operand collector of one SM: every collector unit, reading through the SM's
/// [`RegisterBanks`] (book §3.3.1; GPGPU-Sim `opndcoll_rfu_t`). See the module documentation
/// for the cycle protocol and the arbitration order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperandCollector {
    /// Where the operands live (the register file's map, for each operand's bank).
    map: BankMap,
    read_ports: u32,
    /// `regfile.issue_latch`: read cycles a new instruction waits before its first read.
    issue_latch: u32,
    units: Vec<CollectorUnit>,
    /// First unit index of each pool, and one past the last, indexed by `UnitKind::index`.
    pools: [(usize, usize); 4],
    /// Occupied units, oldest allocation first.
    order: Vec<usize>,
    conflicts: u64,
    write_conflicts: u64,
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
            conflicts: 0,
            write_conflicts: 0,
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

    /// One cycle of register reads: each bank serves at most one read, none if written this
    /// cycle; each collector unit receives at most `read_ports` operands; oldest instruction
    /// first, its operands in instruction order. Call after the cycle's writes to `banks`.
    pub fn read_cycle(&mut self, banks: &mut RegisterBanks) {
        let Self {
            order,
            units,
            read_ports,
            ..
        } = self;
        for &unit in order.iter() {
            if units[unit].latched > 0 {
                // Still in the issue-to-collector register: no reads, no conflicts.
                continue;
            }
            units[unit].collect(unit as u32, *read_ports, banks);
        }
        self.count_conflicts(banks.cells());
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

    fn free_unit(&self, kind: UnitKind) -> Option<usize> {
        let (start, end) = self.pools[kind.index()];
        (start..end).find(|&u| !self.units[u].busy)
    }

    /// Counts the operands left unread whose bank `cells` shows busy this cycle.
    fn count_conflicts(&mut self, cells: &[BankActivity]) {
        for &unit in &self.order {
            if self.units[unit].latched > 0 {
                continue;
            }
            for op in self.units[unit].operands.iter().filter(|o| !o.read) {
                match cells[op.bank as usize] {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{CollectorUnits, RegLayout};
    use crate::core::register_banks::{PoolArbiter, PoolRefusal};

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
            hierarchy: false,
            orf_entries: 4,
            lrf_entries: 1,
        }
    }

    /// A collector of `sp` SP units with `ports` read ports each, and its 4 naive banks.
    fn parts(sp: u32, ports: u32) -> (OperandCollector, RegisterBanks) {
        let cfg = cfg(RegLayout::Naive, sp, ports);
        (OperandCollector::new(&cfg), RegisterBanks::new(&cfg))
    }

    /// Unified §4.3 on hand-built cycles: a register read and a cache (or shared) access to one
    /// bank column in the same cycle; the register read wins and the memory access waits.
    #[test]
    fn register_reads_beat_memory_accesses_on_a_unified_bank() {
        let (mut oc, mut rb) = parts(1, 1); // 4 banks
        rb.begin_cycle();
        oc.allocate(UnitKind::Sp, 0, &[1], 7).unwrap(); // warp 0's r1: bank 1
        oc.read_cycle(&mut rb);
        assert!(matches!(
            rb.cells()[1],
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
            rb.claim_memory(0b0010, 3),
            Err(PoolRefusal {
                column: 1,
                holder: read
            }),
            "column 1 is the register read's"
        );
        assert_eq!(
            rb.claim_memory(0b0011, 3).map_err(|r| r.column),
            Err(1),
            "nothing is claimed when one column is taken"
        );
        assert_eq!(rb.cells()[0], BankActivity::Idle);
        assert_eq!(rb.claim_memory(0b0100, 3), Ok(()), "column 2 is free");
        assert_eq!(rb.cells()[2], BankActivity::Memory { warp: 3 });
        // Column 6 is register bank 2 (6 mod 4 banks), which the access above now holds.
        assert_eq!(
            rb.claim_memory(0b0100_0000, 5),
            Err(PoolRefusal {
                column: 6,
                holder: BankActivity::Memory { warp: 3 }
            })
        );
        // Next cycle the bank is free again and the memory access goes.
        rb.begin_cycle();
        assert_eq!(rb.claim_memory(0b0010, 3), Ok(()));
        // A register write (writeback runs first) wins too.
        rb.begin_cycle();
        assert!(rb.write(0, 3));
        assert_eq!(
            rb.claim_memory(0b1000, 3),
            Err(PoolRefusal {
                column: 3,
                holder: BankActivity::Write { warp: 0, reg: 3 }
            })
        );
    }

    #[test]
    fn duplicate_sources_are_read_once() {
        let (mut oc, _) = parts(1, 1);
        let u = oc.allocate(UnitKind::Sp, 0, &[5, 5, 1, 5], 7).unwrap();
        let regs: Vec<u32> = oc.units()[u].operands().iter().map(|o| o.reg).collect();
        assert_eq!(regs, [5, 1]);
    }

    #[test]
    fn full_pool_refuses_and_release_frees() {
        let (mut oc, _) = parts(1, 1);
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
    fn ports_limit_reads_and_conflicts_are_counted() {
        let (mut oc, mut rb) = parts(2, 2);
        oc.allocate(UnitKind::Sp, 0, &[0, 1, 2], 1);
        oc.allocate(UnitKind::Sp, 1, &[4, 3], 2);
        rb.begin_cycle();
        assert!(rb.write(9, 3)); // bank 3
        oc.read_cycle(&mut rb);
        // Unit 0 takes banks 0 and 1 (two ports); unit 1 loses bank 0 to it and bank 3 to the write.
        assert_eq!(oc.units()[0].pending(), 1);
        assert_eq!(oc.units()[1].pending(), 2);
        assert_eq!(rb.cells()[2], BankActivity::Idle);
        assert_eq!((oc.conflict_cycles(), oc.write_conflict_cycles()), (2, 1));
        assert_eq!(
            rb.register_reads(),
            2,
            "unit 0 read r0 and r1; unit 1 nothing"
        );
        rb.begin_cycle();
        oc.read_cycle(&mut rb);
        assert_eq!(rb.register_reads(), 5, "then r2, r4 and r3");
        rb.count_result_writes(2);
        assert_eq!(rb.register_writes(), 2);
    }

    #[test]
    fn oldest_instruction_wins_a_bank() {
        let (mut oc, mut rb) = parts(3, 1);
        oc.allocate(UnitKind::Sp, 0, &[1], 1); // unit 0
        oc.allocate(UnitKind::Sp, 1, &[1], 2); // unit 1
        rb.begin_cycle();
        oc.read_cycle(&mut rb);
        assert_eq!(oc.units()[0].pending(), 0);
        assert_eq!(oc.units()[1].pending(), 1);
        oc.release(0);
        oc.allocate(UnitKind::Sp, 2, &[5], 3); // unit 0 again, but younger than unit 1
        rb.begin_cycle();
        oc.read_cycle(&mut rb);
        let read = BankActivity::Read {
            warp: 1,
            reg: 1,
            unit: 1,
        };
        assert_eq!(rb.cells()[1], read);
        let order: Vec<u64> = oc.ready().map(|r| r.tag).collect();
        assert_eq!(order, [2], "unit 0 (tag 3) lost bank 1 to the older unit 1");
    }

    #[test]
    fn a_unit_out_of_ports_leaves_the_bank_to_a_younger_one() {
        let (mut oc, mut rb) = parts(2, 1);
        oc.allocate(UnitKind::Sp, 0, &[0, 1], 1); // r0 in bank 0, then r1 in bank 1
        oc.allocate(UnitKind::Sp, 1, &[5], 2); // bank 1
        rb.begin_cycle();
        oc.read_cycle(&mut rb);
        assert_eq!(oc.units()[0].pending(), 1);
        assert_eq!(oc.units()[1].pending(), 0);
        assert_eq!(oc.conflict_cycles(), 1, "unit 0's r1 found bank 1 busy");
    }

    #[test]
    #[should_panic(expected = "holds no complete instruction")]
    fn releasing_an_incomplete_unit_panics() {
        let (mut oc, _) = parts(1, 1);
        oc.allocate(UnitKind::Sp, 0, &[1], 1);
        oc.release(0);
    }
}
