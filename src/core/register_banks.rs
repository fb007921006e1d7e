//! The register file's banks of one SM and their arbiter: which single-ported bank serves which
//! access each cycle (book §3.3.1, Figs. 3.12-3.17, the "arbiter" in front of the banks;
//! MODEL.md sections 5 and 11; GPGPU-Sim's `opndcoll_rfu_t::arbiter_t`).
//!
//! Each bank serves one read or one write per cycle. [`RegisterBanks`] is the SM's one record
//! of the cycle: the bank map (where each warp's registers live), what each bank does this
//! cycle ([`BankActivity`], the cells of the bank grid the views show) and the register file's
//! access counts for the energy model. A bank goes to the first access that claims it in the
//! cycle; the claims come in a fixed order, which is the priority:
//!
//! 1. the writeback stage's register writes ([`RegisterBanks::write`], from
//!    `super::writeback`): a write takes its bank for the cycle and so beats every read (book
//!    Fig. 3.14, cycle 5; GPGPU-Sim's `opndcoll_rfu_t::writeback` runs in
//!    `shader_core_ctx::writeback`, before the reads);
//! 2. the operand collector's reads ([`RegisterBanks::read`], from
//!    `OperandCollector::read_cycle`, which asks oldest collector unit first: book §3.3.1 and
//!    `super::operand_collector`'s arbitration order);
//! 3. with a unified local memory (MODEL.md section 11), MEM0's shared-memory and cache accesses
//!    ([`PoolArbiter::claim_memory`], from `LdstUnit::cycle`): bank column k of every cluster is
//!    register bank k, and register accesses win the bank (Unified MICRO'12 §4.3).
//!
//! `Sm::cycle` sets that order by the order of its calls: [`RegisterBanks::begin_cycle`], the
//! writeback stage, the collector's read cycle, then the LD/ST unit. A claim of an earlier kind
//! after a later one in the same cycle is a bug in that sequence (checked in debug builds).

use crate::config::{RegFileConfig, RegLayout};
use serde::Serialize;

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
/// file's own accesses of the cycle (Unified §4.3: register accesses win). Implemented by
/// [`RegisterBanks`]; the LD/ST unit's tests stand in arbiters of their own.
pub trait PoolArbiter {
    /// Claims bank columns `columns` (bit k: bank k of every cluster) for a memory access of
    /// warp `warp`; refused, claiming nothing, when the register file has one of them this
    /// cycle: the refusal names the first such column and its holder.
    fn claim_memory(&mut self, columns: u32, warp: u32) -> Result<(), PoolRefusal>;
}

/// Which kind of claim the cycle has reached, in priority order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    Writes,
    Reads,
    Memory,
}

/// The banked register file of one SM as its arbiter sees it (book §3.3.1): the bank map, what
/// each single-ported bank does this cycle, and the warp registers read and written so far.
/// See the module documentation for the claim order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisterBanks {
    map: BankMap,
    cells: Vec<BankActivity>,
    phase: Phase,
    /// Warp registers read into collector units so far (the energy model's register-file
    /// reads; docs/energy.md).
    register_reads: u64,
    /// Warp registers written by results so far, predicates excluded (see
    /// [`Self::count_result_writes`]).
    register_writes: u64,
    /// The register file hierarchy's accesses so far (`regfile.hierarchy`; all 0 when off).
    hierarchy: HierarchyCounts,
}

/// Warp-register reads and writes of the main register file (MRF, the banks) and of the
/// register file hierarchy's operand register file (ORF) and last result file (LRF), summed over
/// SMs (`regfile.hierarchy`; MICRO'11; `warpstep run --json`'s `register_file`, re-exported as
/// `crate::sim::RegisterFileStats`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct RegisterFileStats {
    pub mrf_reads: u64,
    pub mrf_writes: u64,
    pub orf_reads: u64,
    pub orf_writes: u64,
    pub lrf_reads: u64,
    pub lrf_writes: u64,
}

impl RegisterFileStats {
    /// Adds one SM's register file.
    pub fn add(&mut self, banks: &RegisterBanks) {
        let h = banks.hierarchy_counts();
        self.mrf_reads += banks.register_reads();
        self.mrf_writes += banks.register_writes();
        self.orf_reads += h.orf_reads;
        self.orf_writes += h.orf_writes;
        self.lrf_reads += h.lrf_reads;
        self.lrf_writes += h.lrf_writes;
    }
}

/// Warp-register accesses of the register file hierarchy's small files (`regfile.hierarchy`,
/// `super::register_hierarchy`; MICRO'11): operand register file and last result file reads
/// and writes. The main register file's are [`RegisterBanks::register_reads`] and
/// [`RegisterBanks::register_writes`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct HierarchyCounts {
    pub orf_reads: u64,
    pub orf_writes: u64,
    pub lrf_reads: u64,
    pub lrf_writes: u64,
}

impl RegisterBanks {
    /// `regfile.reg_banks` idle banks laid out as `regfile.layout`.
    pub fn new(cfg: &RegFileConfig) -> Self {
        Self {
            map: BankMap::new(cfg.layout, cfg.reg_banks),
            cells: vec![BankActivity::Idle; cfg.reg_banks as usize],
            phase: Phase::Writes,
            register_reads: 0,
            register_writes: 0,
            hierarchy: HierarchyCounts::default(),
        }
    }

    /// Start a cycle: every bank idle. Call before the cycle's writes.
    pub fn begin_cycle(&mut self) {
        self.cells.fill(BankActivity::Idle);
        self.phase = Phase::Writes;
    }

    /// Where each warp's registers live.
    pub fn map(&self) -> BankMap {
        self.map
    }

    /// The bank of register `reg` of warp `warp`.
    pub fn bank_of(&self, warp: u32, reg: u32) -> u32 {
        self.map.bank(warp, reg)
    }

    /// True if register `reg` of warp `warp` can be written this cycle (its bank is idle).
    pub fn can_write(&self, warp: u32, reg: u32) -> bool {
        self.is_idle(self.bank_of(warp, reg))
    }

    /// Writeback of register `reg` of warp `warp` this cycle: its bank serves no read this
    /// cycle. False if another write has the bank already; the writer retries next cycle
    /// (GPGPU-Sim `opndcoll_rfu_t::writeback` returns false the same way). Call before the
    /// cycle's reads.
    pub fn write(&mut self, warp: u32, reg: u32) -> bool {
        self.enter(Phase::Writes);
        let bank = self.bank_of(warp, reg);
        self.claim(bank, BankActivity::Write { warp, reg })
    }

    /// Counts `registers` warp registers written back by one result, for the energy model
    /// (the writeback stage calls it with the result's non-predicate destinations; it changes
    /// no timing: [`Self::write`] claims the banks).
    pub fn count_result_writes(&mut self, registers: u64) {
        self.register_writes += registers;
    }

    /// Counts an issued instruction's operands served by the ORF and the LRF (no bank claimed).
    pub fn count_hierarchy_reads(&mut self, orf: u64, lrf: u64) {
        self.hierarchy.orf_reads += orf;
        self.hierarchy.lrf_reads += lrf;
    }

    /// Counts writes to the ORF and the LRF (no bank claimed): a result's at writeback, or an
    /// issued instruction's ORF fills.
    pub fn count_hierarchy_writes(&mut self, orf: u64, lrf: u64) {
        self.hierarchy.orf_writes += orf;
        self.hierarchy.lrf_writes += lrf;
    }

    /// The ORF's and LRF's accesses so far.
    pub fn hierarchy_counts(&self) -> HierarchyCounts {
        self.hierarchy
    }

    /// Register `reg` of warp `warp`, in `bank`, read into collector unit `unit` if the bank is
    /// still idle this cycle (a write, or an older unit's read, has it otherwise). Call after
    /// the cycle's writes and before its memory claims.
    pub fn read(&mut self, bank: u32, warp: u32, reg: u32, unit: u32) -> bool {
        self.enter(Phase::Reads);
        let granted = self.claim(bank, BankActivity::Read { warp, reg, unit });
        self.register_reads += u64::from(granted);
        granted
    }

    /// True if nothing has claimed `bank` this cycle.
    pub fn is_idle(&self, bank: u32) -> bool {
        self.cells[bank as usize] == BankActivity::Idle
    }

    /// What each bank did this cycle, bank 0 first.
    pub fn cells(&self) -> &[BankActivity] {
        &self.cells
    }

    /// The register bank that bank column `column` of every unified-pool cluster holds (column
    /// k is register bank k, modulo the register file's banks).
    pub fn pool_column_bank(&self, column: u32) -> u32 {
        column % (self.cells.len() as u32).max(1)
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

    /// Grant `bank` to `access` if nothing has claimed it this cycle; false if it is taken.
    fn claim(&mut self, bank: u32, access: BankActivity) -> bool {
        let cell = &mut self.cells[bank as usize];
        let free = *cell == BankActivity::Idle;
        if free {
            *cell = access;
        }
        free
    }

    /// The cycle's claims move on to `phase`; never back to an earlier kind.
    fn enter(&mut self, phase: Phase) {
        debug_assert!(
            self.phase <= phase,
            "register bank claim of {phase:?} after {:?} in one cycle",
            self.phase
        );
        self.phase = phase;
    }
}

/// The unified local memory: bank column k of every cluster is register bank k (modulo the
/// register file's bank count), already claimed this cycle by register writes and reads.
impl PoolArbiter for RegisterBanks {
    fn claim_memory(&mut self, columns: u32, warp: u32) -> Result<(), PoolRefusal> {
        self.enter(Phase::Memory);
        let wanted = (0..32u32).filter(move |k| columns >> k & 1 == 1);
        if let Some(column) = wanted
            .clone()
            .find(|&k| !self.is_idle(self.pool_column_bank(k)))
        {
            let holder = self.cells[self.pool_column_bank(column) as usize];
            return Err(PoolRefusal { column, holder });
        }
        for k in wanted {
            // Two columns on one register bank: the first claim holds it for both.
            let _ = self.claim(self.pool_column_bank(k), BankActivity::Memory { warp });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CollectorUnits;

    fn cfg(layout: RegLayout) -> RegFileConfig {
        RegFileConfig {
            reg_banks: 4,
            layout,
            collector_units: CollectorUnits {
                sp: 1,
                sfu: 1,
                dp: 0,
                mem: 1,
            },
            collector_read_ports: 1,
            writeback_width: 1,
            issue_latch: 0,
            dispatch_latency: 0,
            hierarchy: false,
            orf_entries: 4,
            lrf_entries: 1,
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

    #[test]
    fn second_write_to_a_bank_is_refused() {
        let mut rb = RegisterBanks::new(&cfg(RegLayout::Naive));
        rb.begin_cycle();
        assert!(rb.write(0, 1));
        assert!(!rb.can_write(2, 5));
        assert!(!rb.write(2, 5));
        assert!(rb.write(2, 6));
    }

    /// Unified §4.3: the claims of one cycle in their order; a memory access loses a column
    /// whose register bank a write or a read holds (column k is bank k mod 4), and takes the
    /// rest. The operand collector's tests run the same rule with its reads.
    #[test]
    fn writes_then_reads_then_memory_claims() {
        let mut rb = RegisterBanks::new(&cfg(RegLayout::Naive)); // 4 banks
        rb.begin_cycle();
        assert!(rb.write(0, 3)); // bank 3
        assert!(!rb.read(3, 1, 7, 0), "the write has bank 3");
        assert!(rb.read(1, 1, 5, 0));
        assert_eq!(rb.register_reads(), 1);
        let read = BankActivity::Read {
            warp: 1,
            reg: 5,
            unit: 0,
        };
        let refusal = |column, holder| Err(PoolRefusal { column, holder });
        assert_eq!(rb.claim_memory(0b0010_0000, 2), refusal(5, read));
        let write = BankActivity::Write { warp: 0, reg: 3 };
        assert_eq!(rb.claim_memory(0b1000, 2), refusal(3, write));
        assert_eq!(rb.claim_memory(0b0001, 2), Ok(()));
        assert_eq!(rb.pool_column_bank(4), 0);
        assert_eq!(
            rb.cells(),
            [
                BankActivity::Memory { warp: 2 },
                read,
                BankActivity::Idle,
                write
            ]
        );
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "claim of Writes after Reads")]
    fn a_write_after_the_reads_is_out_of_order() {
        let mut rb = RegisterBanks::new(&cfg(RegLayout::Swizzled));
        rb.begin_cycle();
        rb.read(0, 0, 0, 0);
        rb.write(1, 1);
    }
}
