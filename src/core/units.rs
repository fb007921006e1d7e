//! The SIMD execution units (MODEL.md section 6; book section 3.3): SP, SFU, DP and their timing.
//! A warp instruction occupies a unit for its initiation interval (at least
//! warp_size / simd_width cycles, since a warp wider than the SIMD datapath takes several passes)
//! and its result is ready for writeback `latency` cycles after the cycle it was dispatched
//! (dispatched in cycle t, executing t+1..t+latency, written back from t+latency+1: the timing
//! of the book's Figs. 3.14 and 3.17). Which unit and class an instruction uses follows
//! GPGPU-Sim's opcode classes (ADD, MAX, MUL, MAD, DIV per data type; SFU; everything else 1/1).

use crate::config::{OpTiming, UnitsConfig};
use crate::ptx::{Op, OpClass};
use serde::Serialize;

/// Which execution pipeline (and collector-unit pool) an instruction uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    Sp,
    Sfu,
    Dp,
    Mem,
}

impl UnitKind {
    /// Every pipeline, in the order the views draw them.
    pub const ALL: [UnitKind; 4] = [UnitKind::Sp, UnitKind::Sfu, UnitKind::Dp, UnitKind::Mem];

    /// Position in [`UnitKind::ALL`] (collector-unit pools are numbered in this order).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Name for the views.
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Sp => "SP",
            UnitKind::Sfu => "SFU",
            UnitKind::Dp => "DP",
            UnitKind::Mem => "LD/ST",
        }
    }
}

/// The unit and timing of an ALU-side instruction (memory instructions go to the LD/ST unit,
/// whose timing is the memory system's).
pub fn timing_of(op: &Op, class: OpClass, units: &UnitsConfig) -> (UnitKind, OpTiming) {
    let dp_or_sfu = if units.dp_units > 0 {
        UnitKind::Dp
    } else {
        UnitKind::Sfu
    };
    match class {
        OpClass::Memory { .. } => (
            UnitKind::Mem,
            OpTiming {
                latency: 1,
                interval: 1,
            },
        ),
        OpClass::Sfu => (UnitKind::Sfu, units.sfu),
        OpClass::Fp64 => (dp_or_sfu, arith(op, &units.fp64)),
        OpClass::Fp32 => (UnitKind::Sp, arith(op, &units.fp32)),
        OpClass::IntMulDiv => match op {
            // GPGPU-Sim runs integer divide and remainder on the SFU.
            Op::Div { .. } | Op::Rem { .. } => (UnitKind::Sfu, units.int.div),
            _ => (UnitKind::Sp, arith(op, &units.int)),
        },
        OpClass::IntAlu => (UnitKind::Sp, arith(op, &units.int)),
        OpClass::Other if matches!(op, Op::Shfl { .. }) => (UnitKind::Sp, units.shfl),
        OpClass::Branch | OpClass::Barrier | OpClass::Exit | OpClass::Other => {
            (UnitKind::Sp, units.other)
        }
    }
}

/// GPGPU-Sim's five arithmetic classes; every other instruction of the type takes `other`-like
/// timing from the ADD class's fastest sibling (mov, logic, setp, cvt: 1 cycle in GPGPU-Sim).
fn arith(op: &Op, t: &crate::config::ArithTimings) -> OpTiming {
    let bump = |o: OpTiming| OpTiming {
        latency: o.latency + 1,
        ..o
    };
    match op {
        Op::Add { .. } | Op::Sub { .. } => t.add,
        Op::Min { .. } | Op::Max { .. } => t.max,
        Op::Mul { .. } => t.mul,
        Op::Mul24 { .. } => bump(t.mul),
        Op::Mad { .. } | Op::Fma { .. } => t.mad,
        Op::Mad24 { .. } => bump(t.mad),
        Op::Div { .. } | Op::Rem { .. } => t.div,
        _ => OpTiming {
            latency: 1,
            interval: 1,
        },
    }
}

/// Index of an ALU unit kind among the SM's pipelines (SP, SFU, DP).
pub fn pipe_index(kind: UnitKind) -> usize {
    match kind {
        UnitKind::Sp => 0,
        UnitKind::Sfu => 1,
        UnitKind::Dp => 2,
        UnitKind::Mem => usize::MAX,
    }
}

/// One instruction inside a pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct InUnit {
    /// The SM's id for the instruction.
    pub tag: u64,
    /// First cycle its result may be written back.
    pub ready_at: u64,
}

/// `count` identical units of one kind (e.g. GPGPU-Sim's 2 SP units on Fermi).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pipeline {
    pub kind: UnitKind,
    /// Per unit: the first cycle it accepts another instruction.
    free_at: Vec<u64>,
    /// Instructions executing, in dispatch order.
    in_flight: Vec<InUnit>,
    /// The cycle a rigid pipeline last stood still (its oldest result lost writeback).
    frozen_at: Option<u64>,
}

impl Pipeline {
    /// `count` units of `kind`.
    pub fn new(kind: UnitKind, count: u32) -> Self {
        Pipeline {
            kind,
            free_at: vec![0; count as usize],
            in_flight: Vec::new(),
            frozen_at: None,
        }
    }

    /// Whether some unit accepts an instruction in cycle `now`.
    pub fn can_accept(&self, now: u64) -> bool {
        !self.is_frozen(now) && self.free_at.iter().any(|&f| f <= now)
    }

    /// Dispatches an instruction in cycle `now`; `passes` = warp_size / simd_width; `path`:
    /// the stages its result passes after the unit before it reaches writeback (the rigid
    /// NONMEM path, [`super::pipeline_mode::PipelineMode::nonmem_stages`]).
    pub fn accept(&mut self, now: u64, tag: u64, timing: OpTiming, passes: u32, path: u32) -> bool {
        if self.is_frozen(now) {
            return false;
        }
        let Some(unit) = self.free_at.iter().position(|&f| f <= now) else {
            return false;
        };
        self.free_at[unit] = now + timing.interval.max(passes) as u64;
        let latency = timing.latency.max(1) + passes.saturating_sub(1) + path;
        self.in_flight.push(InUnit {
            tag,
            ready_at: now + u64::from(latency) + 1,
        });
        true
    }

    /// A rigid pipeline stands still in cycle `now` because a finished result of it lost
    /// writeback (Elastic Fig. 4(b), cycle i+6): nothing in it moves, so every result not yet
    /// finished is a cycle later, no unit frees, and it accepts nothing this cycle.
    pub fn freeze(&mut self, now: u64) {
        if self.is_frozen(now) {
            return;
        }
        self.frozen_at = Some(now);
        for i in self.in_flight.iter_mut().filter(|i| i.ready_at > now) {
            i.ready_at += 1;
        }
        for f in self.free_at.iter_mut().filter(|f| **f > now) {
            *f += 1;
        }
    }

    /// Whether it stands still in cycle `now`.
    pub fn is_frozen(&self, now: u64) -> bool {
        self.frozen_at == Some(now)
    }

    /// Instructions whose results are ready in cycle `now`, oldest first.
    pub fn ready(&self, now: u64) -> impl Iterator<Item = &InUnit> {
        self.in_flight.iter().filter(move |i| i.ready_at <= now)
    }

    /// Removes an instruction whose result was written back.
    pub fn retire(&mut self, tag: u64) {
        self.in_flight.retain(|i| i.tag != tag);
    }

    /// Units still taking their last instruction's passes in cycle `now` (an instruction
    /// dispatched in cycle t holds its unit through t + interval - 1): the pipeline's
    /// occupancy.
    pub fn busy_units(&self, now: u64) -> usize {
        self.free_at.iter().filter(|&&f| f > now).count()
    }

    /// Units of this kind.
    pub fn units(&self) -> usize {
        self.free_at.len()
    }

    /// Instructions executing.
    pub fn in_flight(&self) -> &[InUnit] {
        &self.in_flight
    }

    /// Whether every unit is idle and nothing is in flight.
    pub fn is_idle(&self, now: u64) -> bool {
        self.in_flight.is_empty() && self.free_at.iter().all(|&f| f <= now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_and_latency_follow_the_book_timing() {
        let mut p = Pipeline::new(UnitKind::Sp, 1);
        let t = OpTiming {
            latency: 1,
            interval: 1,
        };
        assert!(p.accept(2, 7, t, 1, 0));
        assert!(!p.can_accept(2));
        assert!(p.can_accept(3));
        // Dispatched in cycle 2, executes in 3, written back from 4.
        assert_eq!(p.ready(3).count(), 0);
        assert_eq!(p.ready(4).next().map(|i| i.tag), Some(7));
        p.retire(7);
        assert!(p.is_idle(4));
    }

    #[test]
    fn a_warp_wider_than_the_simd_width_takes_several_passes() {
        let mut p = Pipeline::new(UnitKind::Sp, 1);
        let t = OpTiming {
            latency: 4,
            interval: 1,
        };
        p.accept(0, 1, t, 4, 0);
        assert!(!p.can_accept(3));
        assert!(p.can_accept(4));
        assert_eq!(
            (p.busy_units(0), p.busy_units(3), p.busy_units(4)),
            (1, 1, 0)
        );
        assert_eq!(p.in_flight()[0].ready_at, 8);
    }

    #[test]
    fn a_nonmem_path_delays_the_result_and_a_frozen_pipe_stands_still() {
        let mut p = Pipeline::new(UnitKind::Sp, 1);
        let t = OpTiming {
            latency: 1,
            interval: 1,
        };
        // Two NONMEM stages after the unit: dispatched in 0, EXE in 1, NONMEM0/1 in 2-3.
        assert!(p.accept(0, 1, t, 1, 2));
        assert_eq!(p.in_flight()[0].ready_at, 4);
        p.freeze(2);
        assert!(!p.can_accept(2));
        assert!(!p.accept(2, 2, t, 1, 2));
        assert_eq!(p.in_flight()[0].ready_at, 5);
        // Freezing twice in one cycle moves nothing more.
        p.freeze(2);
        assert_eq!(p.in_flight()[0].ready_at, 5);
        assert!(p.can_accept(3));
    }
}
