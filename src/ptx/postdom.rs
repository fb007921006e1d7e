//! Post-dominators with a virtual exit node, and reconvergence points (MODEL.md §3).
//!
//! Post-dominators are the dominators of the reversed CFG rooted at the virtual exit,
//! computed with the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
//! Dominance Algorithm", 2001) over a reverse postorder from a depth-first search that visits
//! predecessors in ascending order, so the result is deterministic. A node that cannot reach
//! the exit (an infinite loop) has no post-dominator, and paths through such nodes are
//! ignored when post-dominators of other nodes are computed.
//!
//! The reconvergence PC of a `bra` is the first instruction of the immediate post-dominator of
//! its block; when that is the virtual exit (or the block cannot reach the exit) the lanes
//! reconverge only at the end of the kernel: [`Reconvergence::Exit`].

use super::cfg::{BlockId, Cfg};
use super::instr::{Instr, Pc};

/// Immediate post-dominators of the nodes of a graph whose node `n` (the number of
/// successor lists) is the virtual exit.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PostDominators {
    ipdom: Vec<Option<BlockId>>,
}

impl PostDominators {
    /// Compute from successor lists: `succs[b]` are the successors of node `b`; a successor
    /// equal to `succs.len()` is the virtual exit; larger ids are ignored.
    pub fn compute(succs: &[Vec<BlockId>]) -> PostDominators {
        let n = succs.len();
        let exit = n;
        let preds = predecessors(succs);
        let order = postorder_from_exit(&preds, exit);
        let mut po = vec![usize::MAX; n + 1];
        for (i, &v) in order.iter().enumerate() {
            po[v] = i;
        }
        let mut idom: Vec<Option<usize>> = vec![None; n + 1];
        idom[exit] = Some(exit);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().rev().skip(1) {
                let mut new: Option<usize> = None;
                for s in succs[b].iter().map(|&s| s as usize).filter(|&s| s <= n) {
                    if idom[s].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => s,
                        Some(cur) => intersect(&idom, &po, s, cur),
                    });
                }
                if new != idom[b] {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        let ipdom = (0..n).map(|b| idom[b].map(|d| d as BlockId)).collect();
        PostDominators { ipdom }
    }

    /// Id of the virtual exit node.
    pub fn exit(&self) -> BlockId {
        self.ipdom.len() as BlockId
    }

    /// Immediate post-dominator of `node` (the exit node's id when it is the virtual exit);
    /// `None` for the exit itself and for nodes that cannot reach it.
    pub fn ipdom(&self, node: BlockId) -> Option<BlockId> {
        self.ipdom.get(node as usize).copied().flatten()
    }

    /// Whether `a` post-dominates `b` (every path from `b` to the exit goes through `a`;
    /// a node post-dominates itself; the exit post-dominates every node that reaches it).
    pub fn post_dominates(&self, a: BlockId, b: BlockId) -> bool {
        let mut cur = b;
        for _ in 0..=self.ipdom.len() {
            if cur == a {
                return true;
            }
            match self.ipdom(cur) {
                Some(next) => cur = next,
                None => return false,
            }
        }
        false
    }
}

/// Where the lanes of a divergent branch meet again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reconvergence {
    /// At this Pc (the first instruction of the branch block's immediate post-dominator).
    At(Pc),
    /// Only at the end of the kernel (the immediate post-dominator is the virtual exit).
    Exit,
}

/// Reconvergence point of every `bra`, indexed by Pc (`None` for other instructions).
pub fn reconvergence_points(
    instrs: &[Instr],
    cfg: &Cfg,
    postdom: &PostDominators,
) -> Vec<Option<Reconvergence>> {
    instrs
        .iter()
        .enumerate()
        .map(|(pc, ins)| {
            if !ins.is_branch() {
                return None;
            }
            let target = cfg
                .block_of(pc as Pc)
                .and_then(|b| postdom.ipdom(b))
                .and_then(|d| cfg.block(d));
            Some(match target {
                Some(block) => Reconvergence::At(block.start),
                None => Reconvergence::Exit,
            })
        })
        .collect()
}

fn predecessors(succs: &[Vec<BlockId>]) -> Vec<Vec<usize>> {
    let n = succs.len();
    let mut preds = vec![Vec::new(); n + 1];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            if let Some(p) = preds.get_mut(s as usize) {
                p.push(b);
            }
        }
    }
    for p in &mut preds {
        p.sort_unstable();
        p.dedup();
    }
    preds
}

/// Postorder of the reversed graph from `exit` (iterative depth-first search).
fn postorder_from_exit(preds: &[Vec<usize>], exit: usize) -> Vec<usize> {
    let mut visited = vec![false; preds.len()];
    let mut order = Vec::with_capacity(preds.len());
    let mut stack = vec![(exit, 0usize)];
    visited[exit] = true;
    while let Some((node, i)) = stack.last().copied() {
        match preds[node].get(i) {
            Some(&p) => {
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
                if !visited[p] {
                    visited[p] = true;
                    stack.push((p, 0));
                }
            }
            None => {
                order.push(node);
                stack.pop();
            }
        }
    }
    order
}

fn intersect(idom: &[Option<usize>], po: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while po[a] < po[b] {
            a = idom[a].unwrap_or(b);
        }
        while po[b] < po[a] {
            b = idom[b].unwrap_or(a);
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Graph from (node, successors) with letters; `X` is the exit.
    fn graph(edges: &[(char, &str)]) -> (Vec<Vec<BlockId>>, impl Fn(char) -> BlockId) {
        let names: Vec<char> = edges.iter().map(|(n, _)| *n).collect();
        let n = names.len();
        let id = move |c: char| {
            if c == 'X' {
                n as BlockId
            } else {
                names.iter().position(|&x| x == c).unwrap() as BlockId
            }
        };
        let succs = edges
            .iter()
            .map(|(_, s)| s.chars().map(&id).collect())
            .collect();
        (succs, id)
    }

    #[test]
    fn if_else_reconverges_at_join() {
        // A -> B | C; B -> D; C -> D; D -> exit
        let (succs, id) = graph(&[('A', "BC"), ('B', "D"), ('C', "D"), ('D', "X")]);
        let pd = PostDominators::compute(&succs);
        assert_eq!(pd.ipdom(id('A')), Some(id('D')));
        assert_eq!(pd.ipdom(id('B')), Some(id('D')));
        assert_eq!(pd.ipdom(id('D')), Some(id('X')));
        assert!(pd.post_dominates(id('D'), id('A')));
        assert!(!pd.post_dominates(id('B'), id('A')));
    }

    #[test]
    fn infinite_loop_has_no_post_dominator() {
        let (succs, id) = graph(&[('A', "BX"), ('B', "B")]);
        let pd = PostDominators::compute(&succs);
        assert_eq!(pd.ipdom(id('B')), None);
        assert_eq!(pd.ipdom(id('A')), Some(id('X')));
    }
}
