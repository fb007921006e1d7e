//! Basic blocks and the control-flow graph of one function (MODEL.md §3).
//!
//! Leaders are Pc 0, every branch target, and every instruction after a `bra`, `exit` or
//! `ret`. Edges: `bra` to its target, plus the fall-through when guarded (`@p bra`); `exit`
//! and `ret` to the virtual exit node, plus the fall-through when guarded; any other last
//! instruction falls through (to the exit node at the end of the function). The virtual exit
//! has id [`Cfg::exit`] (= number of blocks).

use super::instr::{Instr, Pc};

/// Index of a basic block in [`Cfg::blocks`]; [`Cfg::exit`] is the virtual exit node.
pub type BlockId = u32;

/// A maximal straight-line run of instructions `[start, end)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BasicBlock {
    /// First Pc.
    pub start: Pc,
    /// One past the last Pc.
    pub end: Pc,
    /// Successor nodes (blocks or the exit), target before fall-through, without duplicates.
    pub succs: Vec<BlockId>,
    /// Predecessor blocks, ascending.
    pub preds: Vec<BlockId>,
}

/// The control-flow graph.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cfg {
    /// Blocks in Pc order.
    pub blocks: Vec<BasicBlock>,
    block_of: Vec<BlockId>,
}

impl Cfg {
    /// Build the CFG of an instruction array. Branch targets outside the array lead to the
    /// exit node (the loader never produces them).
    pub fn build(instrs: &[Instr]) -> Cfg {
        let n = instrs.len();
        let leaders = leaders(instrs);
        let mut blocks = Vec::with_capacity(leaders.len());
        let mut block_of = vec![0 as BlockId; n];
        for (b, &start) in leaders.iter().enumerate() {
            let end = leaders.get(b + 1).copied().unwrap_or(n);
            for slot in block_of.get_mut(start..end).unwrap_or_default() {
                *slot = b as BlockId;
            }
            blocks.push(BasicBlock {
                start: start as Pc,
                end: end as Pc,
                succs: Vec::new(),
                preds: Vec::new(),
            });
        }
        let mut cfg = Cfg { blocks, block_of };
        cfg.connect(instrs);
        cfg
    }

    /// Id of the virtual exit node.
    pub fn exit(&self) -> BlockId {
        self.blocks.len() as BlockId
    }

    /// The block containing `pc`.
    pub fn block_of(&self, pc: Pc) -> Option<BlockId> {
        self.block_of.get(pc as usize).copied()
    }

    /// The block with this id (`None` for the exit node).
    pub fn block(&self, id: BlockId) -> Option<&BasicBlock> {
        self.blocks.get(id as usize)
    }

    /// Successor lists of all blocks, for [`super::postdom::PostDominators::compute`].
    pub fn successors(&self) -> Vec<Vec<BlockId>> {
        self.blocks.iter().map(|b| b.succs.clone()).collect()
    }

    /// Node for the instruction at `pc`, or the exit node past the end.
    fn node_at(&self, pc: usize) -> BlockId {
        self.block_of
            .get(pc)
            .copied()
            .unwrap_or_else(|| self.exit())
    }

    fn connect(&mut self, instrs: &[Instr]) {
        for b in 0..self.blocks.len() {
            let (start, end) = (self.blocks[b].start as usize, self.blocks[b].end as usize);
            let Some(last) = end.checked_sub(1).and_then(|i| instrs.get(i)) else {
                continue;
            };
            debug_assert!(start < end);
            let conditional = last.guard.is_some();
            let mut succs = Vec::with_capacity(2);
            if let Some(t) = last.branch_target() {
                succs.push(self.node_at(t as usize));
            } else if last.is_exit() {
                succs.push(self.exit());
            }
            let falls_through = !(last.is_branch() || last.is_exit()) || conditional;
            if falls_through {
                let f = self.node_at(end);
                if !succs.contains(&f) {
                    succs.push(f);
                }
            }
            self.blocks[b].succs = succs;
        }
        for b in 0..self.blocks.len() {
            for s in self.blocks[b].succs.clone() {
                if let Some(block) = self.blocks.get_mut(s as usize) {
                    block.preds.push(b as BlockId);
                }
            }
        }
    }
}

/// Sorted, unique leader Pcs.
fn leaders(instrs: &[Instr]) -> Vec<usize> {
    let n = instrs.len();
    let mut is_leader = vec![false; n];
    if let Some(first) = is_leader.first_mut() {
        *first = true;
    }
    for (pc, ins) in instrs.iter().enumerate() {
        if let Some(t) = ins.branch_target() {
            if let Some(l) = is_leader.get_mut(t as usize) {
                *l = true;
            }
        }
        if ins.is_branch() || ins.is_exit() {
            if let Some(l) = is_leader.get_mut(pc + 1) {
                *l = true;
            }
        }
    }
    (0..n).filter(|&pc| is_leader[pc]).collect()
}
