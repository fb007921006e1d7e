//! The shape of the back end between register read (the paper's EXE) and writeback: the three
//! pipelines of Gou and Gaydadjiev, CF'11, Figs. 4(a), 4(b) and 5-6 (MODEL.md section 8), and
//! the decoupled back end of GPGPU-Sim 3.x that the Fermi-class presets use.
//!
//! | mode | memory instructions | other instructions | an instruction that cannot move on |
//! |---|---|---|---|
//! | `decoupled` | wait in their collector unit for MEM0 | their unit's latency; a result that loses writeback waits at the unit | holds its collector unit only |
//! | `in_order` (Fig. 4(a)) | MEM0..MEM(M-1) | also pass MEM0..MEM(M-1): they wait behind a conflict in MEM0 | stalls issue |
//! | `split` (Fig. 4(b)) | MEM0..MEM(M-1) | a rigid NONMEM path of M stages: a result that loses writeback stops it | stalls issue |
//! | `elastic` (Figs. 5-6) | a PREMEM FIFO of N = warp_size/simd_width - 1 entries before MEM0 | the NONMEM path is an M-entry FIFO; a result goes straight to writeback when writeback is free | stalls issue only when a FIFO is full |
//!
//! "Stalls issue" is the paper's rigid in-order pipeline: every stage before the blocked one
//! holds its instruction, so in that cycle no warp issues. The SM asks this module the
//! questions each stage needs (how many NONMEM stages an ALU result passes, how many finished
//! results may wait, how deep PREMEM is); the stages keep no `if elastic` of their own.

use crate::config::{BaselinePipeline, Config};
use serde::Serialize;

/// Which back end the SM has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PipelineMode {
    Decoupled,
    InOrder,
    Split,
    Elastic,
}

impl PipelineMode {
    /// The mode `config` selects: `elastic.enabled`, else `elastic.baseline`.
    pub fn of(config: &Config) -> PipelineMode {
        if config.elastic.enabled {
            return PipelineMode::Elastic;
        }
        match config.elastic.baseline {
            BaselinePipeline::Decoupled => PipelineMode::Decoupled,
            BaselinePipeline::Split => PipelineMode::Split,
            BaselinePipeline::InOrder => PipelineMode::InOrder,
        }
    }

    /// The name the configuration and the views use.
    pub fn name(self) -> &'static str {
        match self {
            PipelineMode::Decoupled => "decoupled",
            PipelineMode::InOrder => "in_order",
            PipelineMode::Split => "split",
            PipelineMode::Elastic => "elastic",
        }
    }

    /// Whether an instruction that cannot leave the register-read stage stalls issue for every
    /// warp (the paper's in-order pipelines), rather than only holding its collector unit.
    pub fn rigid(self) -> bool {
        self != PipelineMode::Decoupled
    }

    /// Cycles the path after EXE adds to a non-memory result: the M stages it passes beside (or,
    /// in order, through) MEM0..MEM(M-1); none when the elastic pipeline forwards it from EXE,
    /// nor in the decoupled back end, whose unit latencies are the whole path.
    pub fn nonmem_stages(self, mem_stages: u32) -> u32 {
        match self {
            PipelineMode::InOrder | PipelineMode::Split => mem_stages,
            PipelineMode::Elastic | PipelineMode::Decoupled => 0,
        }
    }

    /// Finished non-memory results that may wait for writeback without stopping their unit:
    /// none in the rigid pipelines, the M entries of the NONMEM FIFO (Eq. 2) in the elastic
    /// one, any number in the decoupled back end.
    pub fn nonmem_capacity(self, mem_stages: u32) -> usize {
        match self {
            PipelineMode::InOrder | PipelineMode::Split => 0,
            PipelineMode::Elastic => mem_stages as usize,
            PipelineMode::Decoupled => usize::MAX,
        }
    }

    /// Warp instructions the PREMEM FIFO before MEM0 holds: none outside the elastic pipeline.
    /// The paper's FIFO has N = ceil(warp_size / simd_width) - 1 sub-warp entries (Eq. 3),
    /// enough for the sub-warps of one warp behind its first; warpstep moves whole warp
    /// instructions, whose sub-warps all pass MEM0 within its occupancy, so the FIFO holds
    /// ceil(N / passes) of them: one waiting warp instruction when a warp takes several passes
    /// (Table 3: N = 3 sub-warps, 1 warp instruction), none when it takes one.
    pub fn premem_depth(self, passes: u32) -> usize {
        match self {
            PipelineMode::Elastic => passes.saturating_sub(1).div_ceil(passes.max(1)) as usize,
            _ => 0,
        }
    }

    /// Cycles the issue stage spends on one warp instruction: one per sub-warp in the paper's
    /// single-issue SIMD pipelines (warp_size / simd_width, §3.2.3), one in the decoupled
    /// back end (whose schedulers issue a warp instruction per cycle, GPGPU-Sim's).
    pub fn issue_cycles(self, warp_size: u32, simd_width: u32) -> u32 {
        match self {
            PipelineMode::Decoupled => 1,
            _ => (warp_size / simd_width.max(1)).max(1),
        }
    }

    /// Whether non-memory instructions pass MEM0 as well (Fig. 4(a)'s unified memory stages),
    /// so a conflict replaying in MEM0 holds them too.
    pub fn unified_mem_stages(self) -> bool {
        self == PipelineMode::InOrder
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(sets: &[&str]) -> PipelineMode {
        PipelineMode::of(&Config::default().with_overrides(sets).unwrap())
    }

    #[test]
    fn the_keys_select_the_mode_and_elastic_wins_over_the_baseline() {
        assert_eq!(mode(&[]), PipelineMode::Decoupled);
        assert_eq!(mode(&["elastic.baseline=split"]), PipelineMode::Split);
        assert_eq!(mode(&["elastic.baseline=in_order"]), PipelineMode::InOrder);
        assert_eq!(
            mode(&["elastic.baseline=in_order", "elastic.enabled=true"]),
            PipelineMode::Elastic
        );
    }

    #[test]
    fn eqs_2_and_3_size_the_fifos() {
        // Table 3: 4 memory stages, 32-thread warps on an 8-wide SIMD: M = 4, N = 3 sub-warps,
        // one warp instruction; a warp of one pass: none.
        let e = PipelineMode::Elastic;
        assert_eq!((e.nonmem_capacity(4), e.premem_depth(4)), (4, 1));
        assert_eq!(e.premem_depth(1), 0);
        assert_eq!(PipelineMode::Split.premem_depth(4), 0);
        assert_eq!(PipelineMode::Split.nonmem_capacity(4), 0);
        assert_eq!(PipelineMode::Split.nonmem_stages(4), 4);
        assert_eq!(e.nonmem_stages(4), 0);
        assert!(!PipelineMode::Decoupled.rigid());
    }
}
