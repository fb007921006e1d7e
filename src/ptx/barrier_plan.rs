//! A function's convergence-barrier plan (book section 3.1.2): where the ADD and WAIT
//! pseudo-instructions stand, per branch. The data only; [`super::convergence_barriers`]
//! computes it from a loaded function, which holds it.

use super::instr::Pc;
use super::postdom::Reconvergence;

/// A barrier register index (B0, B1, ...).
pub type BarrierId = u32;

/// The ADD/WAIT pair of one divergent branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlacedBarrier {
    /// Barrier register used.
    pub barrier: BarrierId,
    /// Pc the ADD goes before (the branch's Pc).
    pub add: Pc,
    /// Pc the WAIT goes before (the branch's reconvergence point).
    pub wait: Pc,
}

/// One potentially divergent branch and what the pass placed for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BarrierSite {
    /// Pc of the guarded `bra`.
    pub branch: Pc,
    /// Where its lanes reconverge (MODEL.md §3).
    pub reconvergence: Reconvergence,
    /// The barrier, ADD and WAIT; `None` when the reconvergence point is the exit.
    pub barrier: Option<PlacedBarrier>,
}

/// Convergence-barrier plan of one function: sites in branch-Pc order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BarrierPlan {
    /// Every potentially divergent branch, ascending Pc.
    pub sites: Vec<BarrierSite>,
    /// Number of barrier registers the plan uses (highest index + 1; 0 if none).
    pub barriers: u32,
    /// Per Pc, the pseudo-instructions placed before it, in execution order.
    pub(super) at: Vec<Vec<Placed>>,
}

/// A placed pseudo-instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Placed {
    /// `ADD Bn`: the participation mask of barrier `n` := the active threads.
    Add(BarrierId),
    /// `WAIT Bn`: block the split until every participant of barrier `n` has arrived.
    Wait(BarrierId),
}

impl std::fmt::Display for Placed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Placed::Add(b) => write!(f, "ADD B{b}"),
            Placed::Wait(b) => write!(f, "WAIT B{b}"),
        }
    }
}

impl BarrierPlan {
    /// The pseudo-instructions placed before `pc`, in execution order (WAITs first, innermost
    /// first, then the ADD).
    pub fn placed(&self, pc: Pc) -> &[Placed] {
        self.at.get(pc as usize).map_or(&[], Vec::as_slice)
    }

    /// The listing annotations before `pc`: e.g. `["WAIT B1", "ADD B0"]`.
    pub fn annotations(&self, pc: Pc) -> Vec<String> {
        self.placed(pc).iter().map(ToString::to_string).collect()
    }

    /// The site of the branch at `pc`, if it is potentially divergent.
    pub fn site(&self, pc: Pc) -> Option<&BarrierSite> {
        self.sites
            .binary_search_by_key(&pc, |s| s.branch)
            .ok()
            .and_then(|i| self.sites.get(i))
    }

    /// Whether nothing was placed.
    pub fn is_empty(&self) -> bool {
        self.barriers == 0
    }
}
