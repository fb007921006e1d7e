//! Placement of convergence barriers for independent thread scheduling (issue 15; Aamodt, Fung
//! & Rogers, "General-Purpose Graphics Processor Architectures", §3.1.2 "SIMT deadlock and
//! stackless SIMT architectures", Figs. 3.6-3.8, after NVIDIA's patent application, Diamos et
//! al. 2015).
//!
//! Instead of a SIMT stack, each warp holds barrier participation masks (Fig. 3.6). A compiler
//! places an `ADD Bn` (initialise barrier `n`'s participation mask with the threads active
//! when it executes) before each potentially divergent branch and a `WAIT Bn` (block the
//! arriving warp split until every participant has arrived) at the branch's reconvergence
//! point; nested control flow gets nested barriers (Figs. 3.7-3.8: blocks 510 and 512 end in
//! the two `if` branches, the WAITs sit in blocks 516 and 518). This module is that compiler
//! pass, as a pure function of a loaded [`Function`]: it changes no instruction and no Pc, it
//! only says where the ADDs and WAITs go ([`BarrierPlan`]).
//!
//! Decisions (MODEL.md §3 decides what the book leaves open):
//! - **Potentially divergent** = exactly the branches for which the SIMT stack may push entries:
//!   a guarded `bra` (`@p bra` / `@!p bra`) whose target differs from its fall-through. The
//!   executor ignores `.uni` (a guarded `bra.uni` whose lanes disagree still splits the
//!   stack), so `.uni` does not exempt a guarded branch here either. An unguarded `bra` never
//!   splits the warp; `exit`/`ret` (guarded or not) remove lanes and need no barrier.
//! - **WAIT** goes at the branch's reconvergence point, [`Function::reconvergence_of`]: the
//!   first instruction of the immediate post-dominator of the branch's block (MODEL.md §3,
//!   [`super::postdom`]), the same Pc the SIMT stack uses as its RPC.
//! - **Exit post-dominator**: when the reconvergence point is the virtual exit
//!   ([`Reconvergence::Exit`]: every path ends the thread, or the block cannot reach the exit),
//!   there is no instruction to WAIT at, and the threads meet again only by ending. Such a
//!   branch gets neither ADD nor WAIT (an ADD that nobody waits on would only hold a barrier
//!   for the rest of the kernel); it is listed in [`BarrierPlan::sites`] with `barrier: None`.
//! - **ADD** goes before the branch itself (at the branch's Pc). In a loop the ADD runs again
//!   on every iteration with the threads still looping (the Fig. 3.5 spin lock: ADD before the
//!   loop's `@p bra`, WAIT at the loop exit).
//! - **Allocation**: a barrier is busy from its ADD until its WAIT releases it, and while it is
//!   busy the warp's other splits may be anywhere the branch's paths lead before the WAIT. So
//!   a branch's *region* is its own Pc plus every Pc reachable from its successors without
//!   passing through the WAIT's Pc (a loop's region is the whole loop). Two regions that share
//!   a Pc interfere and need different barriers; disjoint regions reuse one. Barriers are
//!   given greedily, largest region first (ties: lower branch Pc first), each the lowest
//!   index no interfering region already holds. For properly nested regions (structured
//!   code) this is optimal: outer B0, inner B1, ... and the count is the nesting depth.
//! - **Order at one Pc**: WAITs come before the ADD there (a join that is also the next
//!   branch reconverges first, so the ADD sees the whole split and may reuse the barrier), and
//!   several WAITs at one Pc are innermost (smallest region) first.

pub use super::barrier_plan::{BarrierId, BarrierPlan, BarrierSite, Placed, PlacedBarrier};
use super::ir::{Function, Pc};
use super::postdom::Reconvergence;

/// Whether the instruction at `pc` is a branch the SIMT stack may split the warp on.
pub fn is_potentially_divergent(func: &Function, pc: Pc) -> bool {
    func.instr(pc).is_some_and(|ins| {
        ins.is_branch() && ins.guard.is_some() && ins.branch_target() != Some(pc + 1)
    })
}

/// Place ADD/WAIT convergence barriers for every potentially divergent branch of `func`
/// (see the module documentation for the rules).
pub fn place_barriers(func: &Function) -> BarrierPlan {
    let n = func.instrs.len();
    let branches: Vec<Pc> = (0..n as Pc)
        .filter(|&pc| is_potentially_divergent(func, pc))
        .collect();
    let mut sites: Vec<BarrierSite> = branches
        .iter()
        .map(|&pc| BarrierSite {
            branch: pc,
            reconvergence: func.reconvergence_of(pc).unwrap_or(Reconvergence::Exit),
            barrier: None,
        })
        .collect();
    // Regions of the branches that get a barrier.
    let regions: Vec<Option<Vec<bool>>> = sites
        .iter()
        .map(|s| match s.reconvergence {
            Reconvergence::At(wait) => Some(region(func, s.branch, wait)),
            Reconvergence::Exit => None,
        })
        .collect();
    let size = |i: usize| -> usize {
        regions[i]
            .as_ref()
            .map_or(0, |r| r.iter().filter(|&&b| b).count())
    };
    let mut order: Vec<usize> = (0..sites.len()).filter(|&i| regions[i].is_some()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(size(i)), sites[i].branch));
    let mut assigned: Vec<Option<BarrierId>> = vec![None; sites.len()];
    let mut barriers = 0;
    for &i in &order {
        let Some(ri) = &regions[i] else { continue };
        let mut taken: Vec<BarrierId> = order
            .iter()
            .filter_map(|&j| {
                let b = assigned[j]?;
                let rj = regions[j].as_ref()?;
                ri.iter().zip(rj).any(|(&a, &c)| a && c).then_some(b)
            })
            .collect();
        taken.sort_unstable();
        taken.dedup();
        let b = (0..).find(|b| !taken.contains(b)).unwrap_or(0);
        assigned[i] = Some(b);
        barriers = barriers.max(b + 1);
        if let Reconvergence::At(wait) = sites[i].reconvergence {
            sites[i].barrier = Some(PlacedBarrier {
                barrier: b,
                add: sites[i].branch,
                wait,
            });
        }
    }
    // Per-Pc lists: WAITs innermost (smallest region) first, then the ADD.
    let mut at: Vec<Vec<Placed>> = vec![Vec::new(); n];
    let mut waits: Vec<(Pc, usize, Pc, BarrierId)> = sites
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.barrier.map(|p| (p.wait, size(i), s.branch, p.barrier)))
        .collect();
    waits.sort_unstable();
    for (wait, _, _, b) in waits {
        if let Some(v) = at.get_mut(wait as usize) {
            v.push(Placed::Wait(b));
        }
    }
    for p in sites.iter().filter_map(|s| s.barrier) {
        if let Some(v) = at.get_mut(p.add as usize) {
            v.push(Placed::Add(p.barrier));
        }
    }
    BarrierPlan {
        sites,
        barriers,
        at,
    }
}

/// The Pcs where a split may be while the barrier of the branch at `branch` is busy: the
/// branch itself and every Pc reachable from its successors without reaching `wait`.
fn region(func: &Function, branch: Pc, wait: Pc) -> Vec<bool> {
    let cfg = &func.cfg;
    let n = func.instrs.len();
    let mut in_region = vec![false; n];
    if let Some(slot) = in_region.get_mut(branch as usize) {
        *slot = true;
    }
    let Some(start) = cfg.block_of(branch) else {
        return in_region;
    };
    let mut seen = vec![false; cfg.blocks.len()];
    let mut work: Vec<u32> = cfg
        .block(start)
        .map(|b| b.succs.clone())
        .unwrap_or_default();
    while let Some(id) = work.pop() {
        let Some(block) = cfg.block(id) else { continue };
        if block.start == wait || std::mem::replace(&mut seen[id as usize], true) {
            continue;
        }
        for slot in in_region
            .get_mut(block.start as usize..block.end as usize)
            .unwrap_or_default()
        {
            *slot = true;
        }
        work.extend(block.succs.iter().copied());
    }
    in_region
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(body: &str) -> Function {
        let src = format!(
            ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry k()\n{{\n\
             .reg .pred %p<4>;\n.reg .b32 %r<8>;\nmov.u32 %r1, %tid.x;\n{body}\n}}\n"
        );
        let p = crate::ptx::load(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        p.kernel("k").unwrap().clone()
    }

    #[test]
    fn uniform_branches_and_exits_get_nothing() {
        // An unguarded bra, a guarded exit, a guarded bra to its own fall-through.
        let f =
            kernel("setp.eq.s32 %p1, %r1, 0;\n@%p1 exit;\nbra.uni L;\nL:\n@%p1 bra M;\nM:\nret;");
        let plan = place_barriers(&f);
        assert_eq!(
            plan,
            BarrierPlan {
                at: vec![Vec::new(); f.instrs.len()],
                ..BarrierPlan::default()
            }
        );
    }

    #[test]
    fn guarded_bra_uni_still_counts() {
        let f = kernel("setp.eq.s32 %p1, %r1, 0;\n@%p1 bra.uni L;\nadd.s32 %r2, %r1, 1;\nL:\nret;");
        let plan = place_barriers(&f);
        assert_eq!(plan.barriers, 1);
        assert_eq!(plan.annotations(2), ["ADD B0"]);
        assert_eq!(plan.annotations(4), ["WAIT B0"]);
    }
}
