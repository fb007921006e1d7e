//! The elastic pipeline's PREMEM FIFO between EXE and MEM0 (Gou and Gaydadjiev, CF'11, §3.2.3
//! and Fig. 6; MODEL.md section 8). [`super::pipeline_mode::PipelineMode::premem_depth`] sizes
//! it (Eq. 3); it has no entries in the other back ends.

use serde::Serialize;
use std::collections::VecDeque;

/// The PREMEM FIFO (Elastic §3.2.3, Fig. 6): memory instructions that left EXE while MEM0 was
/// busy, in order. Zero entries outside the elastic pipeline.
///
/// The paper's FIFO holds N sub-warps: first the trailing sub-warps of the access in MEM0
/// (warpstep keeps those inside MEM0's occupancy), then, once they have entered MEM0, those of
/// the next memory warp, one per cycle; that warp's last sub-warp must wait at EXE unless MEM0
/// frees within N cycles. So a warp instruction enters the FIFO only when the access in MEM0
/// has at most N cycles left. A warp instruction reaches MEM0 when its last sub-warp has
/// issued, N cycles after the paper's first would, and so does every later MEM0 event: the
/// rule times EXE exactly as the sub-warp FIFO does (the property test below).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Premem {
    entries: VecDeque<u64>,
    depth: usize,
    /// The paper's N: sub-warp entries.
    subwarp_entries: u32,
}

impl Premem {
    /// A FIFO of `depth` warp instructions standing for `subwarp_entries` sub-warps.
    pub fn new(depth: usize, subwarp_entries: u32) -> Premem {
        Premem {
            entries: VecDeque::with_capacity(depth),
            depth,
            subwarp_entries,
        }
    }

    /// Takes instruction `tag` if an entry is free and MEM0, with `mem0_left` cycles of work
    /// left, frees before the instruction's last sub-warp would have to wait.
    pub fn push(&mut self, tag: u64, mem0_left: u32) -> bool {
        if self.entries.len() >= self.depth || mem0_left > self.subwarp_entries {
            return false;
        }
        self.entries.push_back(tag);
        true
    }

    /// The oldest instruction, leaving for MEM0.
    pub fn pop(&mut self) -> Option<u64> {
        self.entries.pop_front()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The instructions waiting, oldest first.
    pub fn entries(&self) -> impl Iterator<Item = u64> + '_ {
        self.entries.iter().copied()
    }

    /// Its entries.
    pub fn depth(&self) -> usize {
        self.depth
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn premem_is_a_bounded_fifo() {
        let mut p = Premem::new(2, 3);
        assert!(p.push(5, 0) && p.push(6, 3));
        assert!(!p.push(7, 0));
        assert_eq!(p.pop(), Some(5));
        // MEM0 busy for longer than the sub-warp entries can cover: the warp waits at EXE.
        assert!(!p.push(7, 4));
        assert!(p.push(7, 1));
        assert_eq!(p.entries().collect::<Vec<_>>(), vec![6, 7]);
    }

    /// Memory warp instructions for the equivalence test: `ready` (the cycle its first
    /// sub-warp could reach EXE, nondecreasing) and each active sub-warp's MEM0 cycles.
    struct Stream {
        ready: Vec<u64>,
        costs: Vec<Vec<u32>>,
    }

    /// The paper's pipeline at sub-warp grain (Elastic §3.2.3, Fig. 6): sub-warps reach EXE one
    /// a cycle; each cycle PREMEM's head enters a free MEM0, then the sub-warp at EXE enters
    /// MEM0 (free, PREMEM empty) or PREMEM (fewer than `n` sub-warps) or stays, holding
    /// everything behind it. Returns the cycle each instruction's last sub-warp left EXE.
    fn subwarp_pipeline(s: &Stream, n: usize) -> Vec<u64> {
        let mut fifo: VecDeque<(u64, u32)> = VecDeque::new();
        let (mut mem0_free_at, mut t, mut left) = (0u64, 0u64, Vec::new());
        for (i, costs) in s.costs.iter().enumerate() {
            t = t.max(s.ready[i]);
            for (k, &c) in costs.iter().enumerate() {
                if k > 0 {
                    t += 1;
                }
                loop {
                    // Every cycle up to t, a free MEM0 took PREMEM's head as it freed.
                    while mem0_free_at <= t {
                        let Some((pushed, head)) = fifo.pop_front() else {
                            break;
                        };
                        mem0_free_at = mem0_free_at.max(pushed) + u64::from(head);
                    }
                    if fifo.is_empty() && t >= mem0_free_at {
                        mem0_free_at = t + u64::from(c);
                        break;
                    }
                    if fifo.len() < n {
                        fifo.push_back((t, c));
                        break;
                    }
                    t += 1;
                }
            }
            left.push(t);
            t += 1;
        }
        left
    }

    /// warpstep's pipeline: a warp instruction reaches EXE after its last issue slot and moves
    /// whole, into MEM0 (free, FIFO empty) or into [`Premem`] by its admission rule, then holds
    /// MEM0 for the sum of its sub-warps' cycles, as `dispatch.rs` drives it.
    fn instruction_pipeline(s: &Stream, passes: u32) -> Vec<u64> {
        let depth = crate::core::pipeline_mode::PipelineMode::Elastic.premem_depth(passes);
        let mut premem = Premem::new(depth, passes - 1);
        let total = |i: usize| u64::from(s.costs[i].iter().sum::<u32>());
        let (mut mem0_free_at, mut t, mut left) = (0u64, 0u64, Vec::new());
        let mut pushed_at = vec![0u64; s.costs.len()];
        for i in 0..s.costs.len() {
            t = t.max(s.ready[i]) + u64::from(passes) - 1;
            loop {
                // Every cycle up to t, a free MEM0 took PREMEM's oldest as it freed.
                while mem0_free_at <= t {
                    let Some(tag) = premem.pop() else { break };
                    mem0_free_at = mem0_free_at.max(pushed_at[tag as usize]) + total(tag as usize);
                }
                if premem.is_empty() && t >= mem0_free_at {
                    mem0_free_at = t + total(i);
                    break;
                }
                let mem0_left = mem0_free_at.saturating_sub(t) as u32;
                if premem.push(i as u64, mem0_left) {
                    pushed_at[i] = t;
                    break;
                }
                t += 1;
            }
            left.push(t);
            t += 1;
        }
        left
    }

    /// The paper's FIFO holds N = passes - 1 sub-warps (Eq. 3); warpstep's holds warp
    /// instructions and admits one when MEM0 frees within N cycles. Over random streams of
    /// conflicting accesses (1-8 passes a sub-warp) and random issue gaps, every instruction
    /// leaves EXE in the same cycle in both, for 2, 4 and 8 sub-warps a warp: the whole-
    /// instruction FIFO is the sub-warp FIFO, seen P - 1 cycles later at MEM0.
    #[test]
    fn the_instruction_fifo_times_exe_exactly_as_the_papers_subwarp_fifo() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        };
        for passes in [2u32, 4, 8] {
            for _ in 0..300 {
                let count = 1 + next(12) as usize;
                let mut ready = Vec::with_capacity(count);
                let mut at = 0;
                for _ in 0..count {
                    at += next(3 * u64::from(passes));
                    ready.push(at);
                }
                let costs = (0..count)
                    .map(|_| (0..passes).map(|_| 1 + next(8) as u32).collect())
                    .collect();
                let s = Stream { ready, costs };
                let paper = subwarp_pipeline(&s, passes as usize - 1);
                let ours = instruction_pipeline(&s, passes);
                assert_eq!(
                    ours, paper,
                    "{} sub-warps, costs {:?}, ready {:?}",
                    passes, s.costs, s.ready
                );
            }
        }
    }
}
