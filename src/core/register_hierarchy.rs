//! The compile-time allocation of a software-controlled register file hierarchy: a last result
//! file (LRF) and an operand register file (ORF) in front of the main register file (MRF)
//! (Gebhart, Keckler and Dally, "A Compile-Time Managed Multi-Level Register File Hierarchy",
//! MICRO'11, the design Gebhart et al.'s unified memory paper builds on: MICRO'12 §2.1 and
//! §4.3, ref. [9]; `regfile.hierarchy`, docs/register_hierarchy.md).
//!
//! The hardware each level models: the MRF is the SM's banked register file
//! ([`super::register_banks::RegisterBanks`]); the ORF is a small per-thread file of
//! `regfile.orf_entries` entries (MICRO'12 §2.1: 4) next to the operand buffers, readable by
//! every unit; the LRF is `regfile.lrf_entries` (0 or 1) entry per thread beside each ALU lane,
//! written only by ALU results and read only by ALU instructions (MICRO'11's private datapath).
//! Neither small file has banks: a read or write of either never claims an MRF bank, so it
//! causes no bank or arbitration conflict.
//!
//! [`allocate`] runs once per kernel, at load (next to `decode_kernel`), as a compiler would:
//! 1. **Strands** (MICRO'11 §3): a strand ends where a basic block ends, and before an
//!    instruction that reads a register a long-latency operation (global, local or generic load,
//!    atomic) may have written and that the strand itself has not rewritten since with a short
//!    operation. A warp that waits on a long-latency result therefore always waits at the start
//!    of a strand, where (below) all its live values are in the MRF: the two-level scheduler
//!    (`core.scheduler = two_level`, which deschedules exactly such warps) can move it out of the
//!    active set without losing ORF or LRF values (MICRO'12 §2.1: "when an active warp is
//!    descheduled, all of its live values must be in the MRF").
//! 2. **Values.** Each result of a short-latency, unguarded instruction that the strand reads
//!    again is a candidate: its interval runs from its write to its last read in the strand. A
//!    value live past the strand (block liveness), or one a guarded write may merge with, is also
//!    written to the MRF (write-through). Results of long-latency operations and guarded writes go
//!    to the MRF only. A value the strand reads at least twice that comes from the MRF
//!    (defined before the strand) is a candidate too: its first read is from the MRF and fills an
//!    ORF entry, the later reads come from the ORF (MICRO'11's "read operand allocation").
//! 3. **Allocation**, greedy, most reads saved first (then shorter, then earlier): the LRF when the
//!    value is an ALU result read only by ALU instructions and the LRF's entry is free over its
//!    interval, else the ORF when fewer than `orf_entries` ORF values overlap its interval, else the
//!    MRF. (MICRO'11 ranks by energy saved; counting reads is warpstep's simplification.)
//!
//! Predicate registers live in their own file and take no part.

use super::decode::{Decoded, Regs};
use super::units::UnitKind;
use crate::ptx::{Function, Instr};

/// Where an operand is read from or a result written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// The main register file's banks.
    Mrf,
    /// The operand register file.
    Orf,
    /// The last result file.
    Lrf,
}

/// The hierarchy's decisions for one instruction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placement {
    /// Each distinct non-predicate source register and the level it is read from.
    pub reads: Vec<(u32, Level)>,
    /// Each non-predicate destination, the level it is written to, and whether it is also
    /// written to the MRF (a value live past its strand).
    pub writes: Vec<(u32, Level, bool)>,
    /// ORF entries filled by this instruction's MRF reads (a value read again later in the
    /// strand).
    pub orf_fills: u8,
    /// True if a new strand starts at this instruction.
    pub strand_start: bool,
}

impl Placement {
    /// Source registers read from the MRF banks.
    pub fn mrf_reads(&self) -> Regs {
        let mut r = Regs::default();
        for &(reg, level) in &self.reads {
            if level == Level::Mrf {
                r.push(reg);
            }
        }
        r
    }

    /// Destination registers written to the MRF banks.
    pub fn mrf_writes(&self) -> Regs {
        let mut r = Regs::default();
        for &(reg, level, through) in &self.writes {
            if level == Level::Mrf || through {
                r.push(reg);
            }
        }
        r
    }

    /// Reads from `level`.
    pub fn reads_from(&self, level: Level) -> u8 {
        self.reads.iter().filter(|r| r.1 == level).count() as u8
    }

    /// Results written to `level` (the ORF's fills apart: [`Self::orf_fills`]).
    pub fn writes_to(&self, level: Level) -> u8 {
        self.writes.iter().filter(|w| w.1 == level).count() as u8
    }
}

/// A candidate value: its interval `[start, end)` in PCs, where it reads, and where it fills.
struct Candidate {
    reg: u32,
    start: usize,
    end: usize,
    /// PCs that read it from the small file.
    uses: Vec<usize>,
    /// The PC that writes it (a result) or `None` (an MRF value filled into the ORF at `start`).
    def: Option<usize>,
    lrf_ok: bool,
}

/// The placement of every instruction of `func` with `orf_entries` ORF and `lrf_entries` LRF
/// entries per thread; `decoded` gives each instruction's unit and long-latency flag.
pub fn allocate(
    func: &Function,
    decoded: &[Decoded],
    orf_entries: u32,
    lrf_entries: u32,
) -> Vec<Placement> {
    let instrs = &func.instrs;
    let is_pred = |r: u32| {
        func.regs
            .get(r as usize)
            .is_some_and(|info| info.ty.is_pred())
    };
    let srcs = |i: &Instr| -> Vec<u32> {
        let mut v: Vec<u32> = Vec::new();
        for r in i.src_regs().as_slice() {
            let r = r.0 as u32;
            if !is_pred(r) && !v.contains(&r) {
                v.push(r);
            }
        }
        v
    };
    let dsts = |i: &Instr| -> Vec<u32> {
        let mut v: Vec<u32> = Vec::new();
        for r in i.dst_regs().as_slice() {
            let r = r.0 as u32;
            if !is_pred(r) && !v.contains(&r) {
                v.push(r);
            }
        }
        v
    };
    let reads: Vec<Vec<u32>> = instrs.iter().map(srcs).collect();
    let writes: Vec<Vec<u32>> = instrs.iter().map(dsts).collect();
    let live_after = liveness(func, &reads, &writes);
    let mut out: Vec<Placement> = (0..instrs.len())
        .map(|pc| Placement {
            reads: reads[pc].iter().map(|&r| (r, Level::Mrf)).collect(),
            writes: writes[pc].iter().map(|&r| (r, Level::Mrf, false)).collect(),
            ..Placement::default()
        })
        .collect();
    let long_regs: Vec<u32> = (0..instrs.len())
        .filter(|&pc| decoded[pc].long)
        .flat_map(|pc| writes[pc].iter().copied())
        .collect();
    let alu = |pc: usize| matches!(decoded[pc].unit, UnitKind::Sp | UnitKind::Dp);
    for block in &func.cfg.blocks {
        let (start, end) = (block.start as usize, block.end as usize);
        // Split the block into strands.
        let mut strand_start = start;
        let mut short_defs: Vec<u32> = Vec::new();
        for pc in start..end {
            let waits = reads[pc]
                .iter()
                .any(|r| long_regs.contains(r) && !short_defs.contains(r));
            if waits && pc > strand_start {
                strand(
                    &mut out,
                    (strand_start, pc),
                    (&reads, &writes, &live_after),
                    instrs,
                    decoded,
                    &alu,
                    (orf_entries, lrf_entries),
                );
                strand_start = pc;
                short_defs.clear();
            }
            for &r in &writes[pc] {
                short_defs.retain(|&x| x != r);
                if !decoded[pc].long {
                    short_defs.push(r);
                }
            }
        }
        if strand_start < end {
            strand(
                &mut out,
                (strand_start, end),
                (&reads, &writes, &live_after),
                instrs,
                decoded,
                &alu,
                (orf_entries, lrf_entries),
            );
        }
    }
    out
}

type Sets<'a> = (&'a [Vec<u32>], &'a [Vec<u32>], &'a [Vec<bool>]);

/// Allocates the values of the strand `[s, e)`.
fn strand(
    out: &mut [Placement],
    (s, e): (usize, usize),
    (reads, writes, live_after): Sets,
    instrs: &[Instr],
    decoded: &[Decoded],
    alu: &dyn Fn(usize) -> bool,
    (orf_entries, lrf_entries): (u32, u32),
) {
    out[s].strand_start = true;
    let mut candidates = Vec::new();
    // Results (def pc, reg) also written through to the MRF: live past the strand, or merged
    // with by a later guarded write.
    let mut through: Vec<(usize, u32)> = Vec::new();
    for pc in s..e {
        let guarded = instrs[pc].guard.is_some();
        for &reg in &writes[pc] {
            if guarded || decoded[pc].long {
                continue;
            }
            let mut uses = Vec::new();
            let mut escapes = false;
            let mut killed = false;
            for j in pc + 1..e {
                if reads[j].contains(&reg) {
                    uses.push(j);
                }
                if writes[j].contains(&reg) {
                    escapes = instrs[j].guard.is_some();
                    killed = !escapes;
                    break;
                }
            }
            let live_out =
                !killed && !escapes && live_after[e - 1].get(reg as usize) == Some(&true);
            if escapes || live_out {
                through.push((pc, reg));
            }
            if let Some(&last) = uses.last() {
                let lrf_ok = alu(pc) && uses.iter().all(|&u| alu(u));
                candidates.push(Candidate {
                    reg,
                    start: pc,
                    end: last,
                    uses,
                    def: Some(pc),
                    lrf_ok,
                });
            }
        }
    }
    // Values from the MRF read at least twice before the strand rewrites them.
    let mut seen: Vec<u32> = Vec::new();
    for pc in s..e {
        for &reg in &reads[pc] {
            if seen.contains(&reg) {
                continue;
            }
            seen.push(reg);
            if (s..pc).any(|j| writes[j].contains(&reg)) {
                continue; // a result of this strand, handled above
            }
            let mut uses = Vec::new();
            for j in pc + 1..e {
                if reads[j].contains(&reg) {
                    uses.push(j);
                }
                if writes[j].contains(&reg) {
                    break;
                }
            }
            if let Some(&last) = uses.last() {
                candidates.push(Candidate {
                    reg,
                    start: pc,
                    end: last,
                    uses,
                    def: None,
                    lrf_ok: false,
                });
            }
        }
    }
    candidates.sort_by_key(|c| (std::cmp::Reverse(c.uses.len()), c.end - c.start, c.start));
    let mut orf: Vec<(usize, usize)> = Vec::new();
    let mut lrf: Vec<(usize, usize)> = Vec::new();
    let overlaps = |a: &(usize, usize), b: &(usize, usize)| a.0 < b.1 && b.0 < a.1;
    for c in candidates {
        let span = (c.start, c.end);
        let level = if c.lrf_ok
            && lrf_entries > 0
            && lrf.iter().filter(|x| overlaps(x, &span)).count() < lrf_entries as usize
        {
            lrf.push(span);
            Level::Lrf
        } else if (c.start..c.end)
            .all(|p| orf.iter().filter(|x| overlaps(x, &(p, p + 1))).count() < orf_entries as usize)
            && orf_entries > 0
        {
            orf.push(span);
            Level::Orf
        } else {
            continue;
        };
        for &u in &c.uses {
            if let Some(r) = out[u].reads.iter_mut().find(|r| r.0 == c.reg) {
                r.1 = level;
            }
        }
        match c.def {
            Some(d) => {
                let t = through.contains(&(d, c.reg));
                if let Some(w) = out[d].writes.iter_mut().find(|w| w.0 == c.reg) {
                    *w = (c.reg, level, t);
                }
            }
            None => out[c.start].orf_fills += 1,
        }
    }
}

/// Registers live after each instruction (backward dataflow over `func.cfg`; a guarded write
/// does not kill).
fn liveness(func: &Function, reads: &[Vec<u32>], writes: &[Vec<u32>]) -> Vec<Vec<bool>> {
    let n = func.instrs.len();
    let regs = reads
        .iter()
        .chain(writes)
        .flatten()
        .map(|&r| r as usize + 1)
        .max()
        .unwrap_or(0);
    let blocks = &func.cfg.blocks;
    let mut live_in = vec![vec![false; regs]; blocks.len()];
    let mut live_after = vec![vec![false; regs]; n];
    let mut changed = true;
    while changed {
        changed = false;
        for (b, block) in blocks.iter().enumerate().rev() {
            let mut live = vec![false; regs];
            for &s in &block.succs {
                if let Some(li) = live_in.get(s as usize) {
                    for (l, &x) in live.iter_mut().zip(li) {
                        *l |= x;
                    }
                }
            }
            for pc in (block.start as usize..block.end as usize).rev() {
                live_after[pc].clone_from(&live);
                if func.instrs[pc].guard.is_none() {
                    for &r in &writes[pc] {
                        live[r as usize] = false;
                    }
                }
                for &r in &reads[pc] {
                    live[r as usize] = true;
                }
            }
            if live != live_in[b] {
                live_in[b] = live;
                changed = true;
            }
        }
    }
    live_after
}
