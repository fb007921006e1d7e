//! The decode stage's view of each instruction (book section 3.2): which unit and collector-unit
//! pool it uses, its timing, which registers it reads from the banked register file and which it
//! writes (for the scoreboard), and whether its result comes from a long-latency load. Computed
//! once per kernel, indexed by PC, so issue looks nothing up by name.

use super::register_hierarchy::{allocate, Level};
use super::units::{timing_of, UnitKind};
use crate::config::{OpTiming, RegFileConfig, UnitsConfig};
use crate::ptx::{Function, MemAccess, Op, OpClass, RegId, Space};

/// Up to 8 registers, inline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Regs {
    regs: [u32; 8],
    len: u8,
}

impl Regs {
    /// Adds `r` unless present or full.
    pub(crate) fn push(&mut self, r: u32) {
        if (self.len as usize) < self.regs.len() && !self.as_slice().contains(&r) {
            self.regs[self.len as usize] = r;
            self.len += 1;
        }
    }

    /// The registers.
    pub fn as_slice(&self) -> &[u32] {
        &self.regs[..self.len as usize]
    }
}

/// What the SM needs to know about one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decoded {
    pub unit: UnitKind,
    pub timing: OpTiming,
    /// Registers the scoreboard checks: every source (guard and predicates included).
    pub sources: Regs,
    /// Registers read through the operand collector (predicates live in a separate file).
    pub bank_reads: Regs,
    /// Registers written.
    pub dests: Regs,
    /// The registers the operand collector reads from the main register file's banks:
    /// `bank_reads`, less the operands the register file hierarchy (`regfile.hierarchy`,
    /// `super::register_hierarchy`) serves from its ORF or LRF.
    pub mrf_reads: Regs,
    /// The registers whose writeback claims a main register file bank: `dests`, or with the
    /// hierarchy the non-predicate results allocated to the MRF (or written through to it).
    pub mrf_dests: Regs,
    /// Register-file hierarchy accesses of one execution (0 with `regfile.hierarchy` off): ORF
    /// and LRF reads (at issue), results written to the ORF and LRF (at writeback), and ORF
    /// fills, MRF operands copied into the ORF as they are read (at issue).
    pub orf_reads: u8,
    pub lrf_reads: u8,
    pub orf_writes: u8,
    pub lrf_writes: u8,
    pub orf_fills: u8,
    /// How many of `dests` live in the banked register file (predicates excluded): the
    /// register-file writes the energy model counts (`crate::energy`); with the hierarchy, the
    /// MRF writes (`mrf_dests`).
    pub bank_writes: u8,
    /// A global/local load or atomic: its destination is a long-latency result.
    pub long: bool,
    /// A global, local or generic load: a read through the L1D (what dynamic CCWS may hold
    /// back, `super::ccws`).
    pub l1d_load: bool,
    /// Uses the shared-memory pipe (for the `mio_throttle` name) rather than global/local.
    pub shared: bool,
    /// A load, store or atomic that may reach global memory (`.global`, or a generic address):
    /// the one state SMs share within a cycle, so its functional execution waits for the
    /// cycle's in-order pass over the SMs (`Sm::execute_deferred`).
    pub global_memory: bool,
    /// A generic-address load, store or atomic (it may land in the CTA's shared memory).
    pub generic: bool,
    pub is_branch: bool,
    /// `bar`, `membar` or `fence`: no memory request of the warp may be reordered across it
    /// (with MRPB on, the warp waits until the buffer holds none of its requests).
    pub orders_memory: bool,
}

/// Decodes every instruction of `func`; with `regfile.hierarchy` on, places each operand in
/// the register file hierarchy (`super::register_hierarchy::allocate`).
pub fn decode_kernel(
    func: &Function,
    units: &UnitsConfig,
    regfile: &RegFileConfig,
) -> Vec<Decoded> {
    let mut decoded = decode_plain(func, units);
    if regfile.hierarchy {
        let placements = allocate(func, &decoded, regfile.orf_entries, regfile.lrf_entries);
        for (d, p) in decoded.iter_mut().zip(&placements) {
            d.mrf_reads = p.mrf_reads();
            d.mrf_dests = p.mrf_writes();
            d.bank_writes = d.mrf_dests.len;
            d.orf_reads = p.reads_from(Level::Orf);
            d.lrf_reads = p.reads_from(Level::Lrf);
            d.orf_writes = p.writes_to(Level::Orf);
            d.lrf_writes = p.writes_to(Level::Lrf);
            d.orf_fills = p.orf_fills;
        }
    }
    decoded
}

/// Every instruction of `func` with all its operands in the main register file.
fn decode_plain(func: &Function, units: &UnitsConfig) -> Vec<Decoded> {
    func.instrs
        .iter()
        .map(|instr| {
            let class = instr.class();
            let (unit, timing) = timing_of(&instr.op, class, units);
            let is_pred = |r: RegId| func.reg(r).is_some_and(|info| info.ty.is_pred());
            let mut sources = Regs::default();
            let mut bank_reads = Regs::default();
            for r in instr.src_regs().as_slice() {
                sources.push(r.0 as u32);
                if !is_pred(*r) {
                    bank_reads.push(r.0 as u32);
                }
            }
            let mut dests = Regs::default();
            let mut bank_writes = Regs::default();
            for r in instr.dst_regs().as_slice() {
                dests.push(r.0 as u32);
                if !is_pred(*r) {
                    bank_writes.push(r.0 as u32);
                }
            }
            let (long, shared, global_memory, generic) = match class {
                OpClass::Memory { space, access } => {
                    let data = access != MemAccess::Fence;
                    (
                        matches!(space, Space::Global | Space::Local | Space::Generic)
                            && matches!(access, MemAccess::Load | MemAccess::Atomic),
                        space == Space::Shared,
                        data && matches!(space, Space::Global | Space::Generic),
                        data && space == Space::Generic,
                    )
                }
                _ => (false, false, false, false),
            };
            let l1d_load = matches!(
                class,
                OpClass::Memory {
                    space: Space::Global | Space::Local | Space::Generic,
                    access: MemAccess::Load,
                }
            );
            Decoded {
                unit,
                timing,
                sources,
                bank_reads,
                dests,
                mrf_reads: bank_reads,
                mrf_dests: dests,
                orf_reads: 0,
                lrf_reads: 0,
                orf_writes: 0,
                lrf_writes: 0,
                orf_fills: 0,
                bank_writes: bank_writes.len,
                long,
                l1d_load,
                shared,
                global_memory,
                generic,
                is_branch: instr.is_branch(),
                orders_memory: matches!(
                    instr.op,
                    Op::Bar { .. } | Op::Membar { .. } | Op::Fence { .. }
                ),
            }
        })
        .collect()
}
