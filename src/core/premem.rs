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
/// has at most N cycles left.
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
}
