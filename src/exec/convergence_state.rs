//! Per-warp convergence-barrier state for independent thread scheduling (issue 15; Aamodt, Fung &
//! Rogers, "General-Purpose Graphics Processor Architectures", §3.1.2 "SIMT deadlock and stackless
//! SIMT architectures", Figs. 3.6-3.11, after NVIDIA's patent application, Diamos et al. 2015).
//! [`super::independent_threads`] drives it as the `convergence_barriers` variant of
//! [`Reconvergence`](super::reconvergence::Reconvergence).
//!
//! The fields are those of Fig. 3.6: a **barrier participation mask** per barrier register (which
//! threads take part in barrier `Bn`, set by `ADD Bn`), the **barrier state** (which of them have
//! arrived at `WAIT Bn`), a **thread state** per thread (ready, blocked at a barrier, yielded;
//! plus exited here), a **thread rPC** per thread (where it resumes) and the **thread active**
//! bits (the warp split the scheduler selected). Ready threads with a common rPC form a *warp
//! split* ([`ConvergenceState::splits`]); the scheduler picks one ([`SplitPolicy`]).
//!
//! Decisions (the book leaves these open):
//! - **rPC for every thread.** The book keeps an rPC only for inactive threads (the active split
//!   runs at the warp PC); here every thread's rPC is kept, and the active split's PC is the rPC
//!   its threads share. Only [`ConvergenceState::advance`] and [`ConvergenceState::branch`] move
//!   rPCs; ADD, WAIT, YIELD and exit never do.
//! - **ADD** sets the participation mask to the ready threads given. Re-running an ADD (a loop,
//!   the Fig. 3.5 spin lock) resets it, except that threads already blocked at that barrier stay
//!   in it with their arrival kept: otherwise they would wait for ever.
//! - **WAIT** is a pseudo-instruction placed *before* a Pc (`ptx::convergence_barriers`), so the
//!   instruction following it is the one at that same Pc: a blocked thread keeps its rPC and is
//!   released to Ready there. The wiring must remember that the WAIT at that Pc is done; a
//!   released thread has left the barrier's participation mask, so a second `wait` on it passes.
//!   Threads that do not participate in the barrier pass a WAIT without blocking.
//! - **Release**: barrier `b` releases once some thread has arrived and every participant has
//!   arrived, exited, or yielded (the book: "Once all threads in the barrier participation mask
//!   have executed the corresponding WAIT instruction" the split is reactivated; and the yielded
//!   state lets "other threads in the warp ... make forward progress past the convergence barrier
//!   in a situation that would otherwise lead to SIMT deadlock"). On release the arrived threads
//!   become Ready and leave the participation mask; the arrival mask clears. Yielded participants
//!   stay in the mask, so when they later reach the WAIT they are released among themselves.
//!   A release is checked after every WAIT, exit and YIELD.
//! - **YIELD**: the yielding threads become Yielded (out of every split) and keep their rPC (the
//!   caller first advances them past the YIELD). The book does not say when a yielded thread runs
//!   again; here yielded threads are resumed (all of them, back to Ready) when the scheduler finds
//!   no ready split ([`ConvergenceState::select_split`], or [`ConvergenceState::resume_yielded`]).
//! - **Branch** splits the active threads; a divergent branch clears the active bits (the split
//!   became two; the scheduler selects again), a uniform one keeps them.
//! - **Round robin** rotates over lanes: a split is named by its lowest lane, and the next split
//!   chosen is the first whose lowest lane comes after the previous choice's (wrapping).

use super::lanes::low_bits;
use super::lanes::{BranchOutcome, LaneMask};
use crate::ptx::convergence_barriers::BarrierId;
use crate::ptx::Pc;
use serde::Serialize;
use std::collections::BTreeMap;

/// The state of one thread (Fig. 3.6's "Thread State", plus Exited).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ThreadState {
    /// May be selected in a warp split.
    Ready,
    /// Waiting at the WAIT of this barrier.
    Blocked(BarrierId),
    /// Executed YIELD: not selected until resumed; a WAIT does not hold for it.
    Yielded,
    /// Waiting at a warp-synchronous instruction (`bar.warp.sync`, or `vote`/`shfl`/`match`
    /// `.sync`) for the other live lanes of its member mask (PTX ISA "bar.warp.sync").
    WarpSync,
    /// Exited (or never existed in the CTA).
    Exited,
}

pub use crate::config::SplitPolicy;

/// The convergence-barrier state of one warp (Fig. 3.6). Serialises as its fields, for snapshots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConvergenceState {
    warp_size: u32,
    /// Barrier participation mask per barrier.
    participation: Vec<LaneMask>,
    /// Barrier state per barrier: the participants that have arrived.
    arrived: Vec<LaneMask>,
    /// Thread state per lane.
    threads: Vec<ThreadState>,
    /// Thread rPC per lane.
    rpc: Vec<Pc>,
    /// Thread active bits.
    active: LaneMask,
    /// Round-robin pointer: the lane from which the next choice starts.
    rr_next: u32,
    /// The thread states as masks (ready, blocked or warp-sync, yielded, exited), kept with
    /// `threads`: split selection reads them after every instruction.
    #[serde(skip)]
    masks: [LaneMask; 4],
    /// Per lane, the member mask it waits for while [`ThreadState::WarpSync`].
    #[serde(skip)]
    sync_members: Vec<LaneMask>,
    /// Lanes released from a warp-synchronous wait at another PC than the releasing split's:
    /// their next warp-synchronous instruction executes without waiting again.
    #[serde(skip)]
    sync_pass: LaneMask,
}

impl ConvergenceState {
    /// A warp of `warp_size` lanes (at most 64) with `barriers` barrier registers, whose threads
    /// in `initial_mask` start Ready and active at `start_pc`; the other lanes are Exited.
    pub fn new(warp_size: u32, barriers: u32, start_pc: Pc, initial_mask: LaneMask) -> Self {
        assert!(
            (1..=64).contains(&warp_size),
            "warp size {warp_size} not in 1..=64"
        );
        let initial_mask = initial_mask & low_bits(warp_size);
        let threads = (0..warp_size)
            .map(|l| {
                if initial_mask >> l & 1 == 1 {
                    ThreadState::Ready
                } else {
                    ThreadState::Exited
                }
            })
            .collect();
        Self {
            warp_size,
            participation: vec![0; barriers as usize],
            arrived: vec![0; barriers as usize],
            threads,
            rpc: vec![start_pc; warp_size as usize],
            active: initial_mask,
            rr_next: 0,
            masks: [initial_mask, 0, 0, low_bits(warp_size) & !initial_mask],
            sync_members: vec![0; warp_size as usize],
            sync_pass: 0,
        }
    }

    fn lanes(mask: LaneMask) -> impl Iterator<Item = usize> {
        super::lanes::lanes(mask).map(|l| l as usize)
    }

    fn mask_where(&self, f: impl Fn(ThreadState) -> bool) -> LaneMask {
        self.threads
            .iter()
            .enumerate()
            .filter(|(_, &s)| f(s))
            .fold(0, |m, (l, _)| m | 1 << l)
    }

    /// Lanes in the warp.
    pub fn warp_size(&self) -> u32 {
        self.warp_size
    }

    /// Number of barrier registers.
    pub fn barriers(&self) -> u32 {
        self.participation.len() as u32
    }

    /// Barrier `b`'s participation mask.
    pub fn participation(&self, b: BarrierId) -> LaneMask {
        self.participation[b as usize]
    }

    /// Barrier `b`'s state: the participants that have arrived at its WAIT.
    pub fn arrived(&self, b: BarrierId) -> LaneMask {
        self.arrived[b as usize]
    }

    /// Every thread's state, lane 0 first.
    pub fn thread_states(&self) -> &[ThreadState] {
        &self.threads
    }

    /// Every thread's rPC, lane 0 first.
    pub fn rpcs(&self) -> &[Pc] {
        &self.rpc
    }

    /// The thread active bits (the selected split; 0 when none is selected).
    pub fn active_mask(&self) -> LaneMask {
        self.active
    }

    /// Ready threads.
    pub fn ready_mask(&self) -> LaneMask {
        self.masks[0]
    }

    /// Yielded threads.
    pub fn yielded_mask(&self) -> LaneMask {
        self.masks[2]
    }

    /// Exited threads.
    pub fn exited_mask(&self) -> LaneMask {
        self.masks[3]
    }

    fn mask_index(state: ThreadState) -> usize {
        match state {
            ThreadState::Ready => 0,
            ThreadState::Blocked(_) | ThreadState::WarpSync => 1,
            ThreadState::Yielded => 2,
            ThreadState::Exited => 3,
        }
    }

    fn set_state(&mut self, lane: usize, state: ThreadState) {
        let bit = 1 << lane;
        self.masks[Self::mask_index(self.threads[lane])] &= !bit;
        self.masks[Self::mask_index(state)] |= bit;
        self.threads[lane] = state;
    }

    /// Threads that have not exited.
    pub fn live_mask(&self) -> LaneMask {
        low_bits(self.warp_size) & !self.exited_mask()
    }

    /// True once every thread has exited.
    pub fn is_finished(&self) -> bool {
        self.exited_mask() == low_bits(self.warp_size)
    }

    /// `ADD b` executed by the ready threads in `mask`: they become barrier `b`'s participants
    /// (threads already blocked at `b` stay in it, arrived).
    pub fn add(&mut self, b: BarrierId, mask: LaneMask) {
        let b = b as usize;
        self.participation[b] = (mask & self.ready_mask()) | self.arrived[b];
    }

    /// After a non-branch instruction: the active threads continue at `next`.
    pub fn advance(&mut self, next: Pc) {
        for l in Self::lanes(self.active) {
            self.rpc[l] = next;
        }
    }

    /// After a branch: the active threads in `taken` continue at `target`, the other active
    /// threads at `fallthrough`. A divergent branch clears the active bits.
    pub fn branch(&mut self, taken: LaneMask, target: Pc, fallthrough: Pc) -> BranchOutcome {
        let taken = taken & self.active;
        let not_taken = self.active & !taken;
        for l in Self::lanes(taken) {
            self.rpc[l] = target;
        }
        for l in Self::lanes(not_taken) {
            self.rpc[l] = fallthrough;
        }
        if taken != 0 && not_taken != 0 {
            self.active = 0;
            BranchOutcome::Divergent
        } else {
            BranchOutcome::Uniform
        }
    }

    /// `WAIT b` executed by the ready threads in `lanes`: the participants among them become
    /// Blocked(`b`) and arrive (the others pass). Returns whether the barrier released.
    pub fn wait(&mut self, b: BarrierId, lanes: LaneMask) -> bool {
        let arriving = lanes & self.ready_mask() & self.participation[b as usize];
        for l in Self::lanes(arriving) {
            self.set_state(l, ThreadState::Blocked(b));
        }
        self.arrived[b as usize] |= arriving;
        self.active &= !arriving;
        self.try_release(b) != 0
    }

    /// Threads waiting at a warp-synchronous instruction.
    pub fn warp_sync_mask(&self) -> LaneMask {
        self.mask_where(|s| s == ThreadState::WarpSync)
    }

    /// A warp-synchronous instruction (`bar.warp.sync`, `vote`/`shfl`/`match` `.sync`) at `pc`,
    /// executed by the active threads in `lanes` with member mask `members` (PTX ISA: each
    /// thread waits until every non-exited thread of `members` has executed one). Returns the
    /// threads that execute it now, which become the active split: 0 when `lanes` must wait
    /// (they become [`ThreadState::WarpSync`]); otherwise `lanes` plus the waiting members
    /// that wait at this same `pc`. Waiting members at another PC are released to Ready and
    /// pass their own instruction without waiting again.
    pub fn warp_sync(&mut self, pc: Pc, lanes: LaneMask, members: LaneMask) -> LaneMask {
        if lanes & self.sync_pass != 0 {
            self.sync_pass &= !lanes;
            return lanes;
        }
        let live = self.live_mask();
        let waiting = self.warp_sync_mask();
        if members & live & !(lanes | waiting) != 0 {
            for l in Self::lanes(lanes) {
                self.set_state(l, ThreadState::WarpSync);
                self.sync_members[l] = members;
            }
            self.active &= !lanes;
            return 0;
        }
        let released = waiting & members;
        let mut joining = 0;
        for l in Self::lanes(released) {
            self.set_state(l, ThreadState::Ready);
            if self.rpc[l] == pc {
                joining |= 1 << l;
            } else {
                self.sync_pass |= 1 << l;
            }
        }
        self.active |= lanes | joining;
        lanes | joining
    }

    /// Releases waiting warp-synchronous threads whose members have all arrived or exited
    /// (after an exit); they pass their instruction when they next run it.
    fn release_warp_syncs(&mut self) -> LaneMask {
        let waiting = self.warp_sync_mask();
        let live = self.live_mask();
        let done = Self::lanes(waiting)
            .filter(|&l| self.sync_members[l] & live & !waiting == 0)
            .fold(0, |m, l| m | 1 << l);
        for l in Self::lanes(done) {
            self.set_state(l, ThreadState::Ready);
        }
        self.sync_pass |= done;
        done
    }

    /// The threads in `lanes` exit: they leave every participation mask, which may release
    /// barriers. Returns the threads released.
    pub fn exit(&mut self, lanes: LaneMask) -> LaneMask {
        let lanes = lanes & low_bits(self.warp_size);
        for l in Self::lanes(lanes) {
            self.set_state(l, ThreadState::Exited);
        }
        for b in 0..self.participation.len() {
            self.participation[b] &= !lanes;
            self.arrived[b] &= !lanes;
        }
        self.active &= !lanes;
        self.sync_pass &= !lanes;
        self.release_all() | self.release_warp_syncs()
    }

    /// `YIELD` executed by the ready threads in `lanes` (Fig. 3.11): they become Yielded, keep
    /// their rPC, and no WAIT holds for them, which may release barriers. Returns the threads
    /// released.
    pub fn yield_split(&mut self, lanes: LaneMask) -> LaneMask {
        let lanes = lanes & self.ready_mask();
        for l in Self::lanes(lanes) {
            self.set_state(l, ThreadState::Yielded);
        }
        self.active &= !lanes;
        self.release_all()
    }

    /// Every yielded thread becomes Ready again. Returns them.
    pub fn resume_yielded(&mut self) -> LaneMask {
        let y = self.yielded_mask();
        for l in Self::lanes(y) {
            self.set_state(l, ThreadState::Ready);
        }
        y
    }

    /// The warp splits: ready threads grouped by rPC, ascending PC.
    pub fn splits(&self) -> Vec<(Pc, LaneMask)> {
        let mut by_pc: BTreeMap<Pc, LaneMask> = BTreeMap::new();
        for l in Self::lanes(self.ready_mask()) {
            *by_pc.entry(self.rpc[l]).or_default() |= 1 << l;
        }
        by_pc.into_iter().collect()
    }

    /// Threads blocked at a convergence barrier or a warp-synchronous instruction.
    pub fn blocked_mask(&self) -> LaneMask {
        self.masks[1]
    }

    /// Distinct rPCs among the threads that have not exited: how many groups the warp's
    /// threads stand in (ready splits, blocked and yielded threads).
    pub fn thread_groups(&self) -> usize {
        let live = self.live_mask();
        let mut pcs: Vec<Pc> = Self::lanes(live).map(|l| self.rpc[l]).collect();
        pcs.sort_unstable();
        pcs.dedup();
        pcs.len()
    }

    /// Picks the split to run and makes it active. With no ready split the yielded threads are
    /// resumed first. `None` when nothing can run (all exited, or all blocked).
    pub fn select_split(&mut self, policy: SplitPolicy) -> Option<(Pc, LaneMask)> {
        let mut ready = self.ready_mask();
        if ready == 0 && self.resume_yielded() != 0 {
            ready = self.ready_mask();
        }
        if ready == 0 {
            return None;
        }
        // Without building the split list (this runs after every instruction): lowest PC is
        // the minimum rPC; round robin takes the first split, in lane order, whose lowest lane
        // is at or after the pointer (a split's lowest lane is the first ready lane at its PC).
        let pc = match policy {
            SplitPolicy::LowestPc => Self::lanes(ready).map(|l| self.rpc[l]).min()?,
            SplitPolicy::RoundRobin => {
                let mut seen = [0 as Pc; 64];
                let mut count = 0;
                let mut first = None;
                let mut after = None;
                for l in Self::lanes(ready) {
                    let pc = self.rpc[l];
                    if seen[..count].contains(&pc) {
                        continue;
                    }
                    seen[count] = pc;
                    count += 1;
                    first.get_or_insert((l, pc));
                    if l as u32 >= self.rr_next {
                        after = Some((l, pc));
                        break;
                    }
                }
                let (rep, pc) = after.or(first)?;
                self.rr_next = (rep as u32 + 1) % self.warp_size;
                pc
            }
        };
        let mask = Self::lanes(ready)
            .filter(|&l| self.rpc[l] == pc)
            .fold(0, |m, l| m | 1 << l);
        self.active = mask;
        Some((pc, mask))
    }

    fn release_all(&mut self) -> LaneMask {
        (0..self.barriers()).fold(0, |m, b| m | self.try_release(b))
    }

    /// Releases barrier `b` if some thread has arrived and no participant is still pending (not
    /// arrived, not yielded; exited threads have left). Returns the threads released.
    fn try_release(&mut self, b: BarrierId) -> LaneMask {
        let i = b as usize;
        let arrived = self.arrived[i];
        let pending = self.participation[i] & !arrived & !self.yielded_mask();
        if arrived == 0 || pending != 0 {
            return 0;
        }
        for l in Self::lanes(arrived) {
            self.set_state(l, ThreadState::Ready);
        }
        self.participation[i] &= !arrived;
        self.arrived[i] = 0;
        arrived
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ThreadState::{Blocked, Exited, Ready, Yielded};

    fn snap(s: &ConvergenceState) -> (Vec<ThreadState>, Vec<Pc>) {
        (s.thread_states().to_vec(), s.rpcs().to_vec())
    }

    /// Fig. 3.8 (tests/data/book_fig3_8.ptx) for 4 threads, with the pass's placements: ADD B0
    /// before Pc 5, ADD B1 before Pc 8, WAIT B1 before Pc 10, WAIT B0 before Pc 11.
    #[test]
    fn book_fig3_8_nested_barriers_in_program_order() {
        let mut s = ConvergenceState::new(4, 2, 0, 0b1111);
        for pc in 0..5 {
            s.advance(pc + 1);
        }
        // 510: ADD B0 with every thread, then `@%p1 bra BB518` (t >= 2 to Pc 11).
        s.add(0, 0b1111);
        assert_eq!((s.participation(0), s.arrived(0)), (0b1111, 0));
        assert_eq!(snap(&s), (vec![Ready; 4], vec![5; 4]));
        assert_eq!(s.branch(0b1100, 11, 6), BranchOutcome::Divergent);
        assert_eq!(snap(&s), (vec![Ready; 4], vec![6, 6, 11, 11]));
        assert_eq!(s.splits(), vec![(6, 0b0011), (11, 0b1100)]);
        assert_eq!(s.active_mask(), 0);
        // Threads 2-3 reach WAIT B0 (518) first.
        assert!(!s.wait(0, 0b1100));
        assert_eq!((s.participation(0), s.arrived(0)), (0b1111, 0b1100));
        assert_eq!(
            snap(&s),
            (
                vec![Ready, Ready, Blocked(0), Blocked(0)],
                vec![6, 6, 11, 11]
            )
        );
        // 512: ADD B1 with threads 0-1, then `@%p2 bra BB516` (t != 0 to Pc 10).
        assert_eq!(s.select_split(SplitPolicy::LowestPc), Some((6, 0b0011)));
        s.advance(7);
        s.advance(8);
        s.add(1, 0b0011);
        assert_eq!((s.participation(1), s.arrived(1)), (0b0011, 0));
        assert_eq!(s.branch(0b0010, 10, 9), BranchOutcome::Divergent);
        assert_eq!(
            snap(&s),
            (
                vec![Ready, Ready, Blocked(0), Blocked(0)],
                vec![9, 10, 11, 11]
            )
        );
        assert_eq!(s.splits(), vec![(9, 0b0001), (10, 0b0010)]);
        // 514 (thread 0), then WAIT B1 (516): thread 0 arrives alone.
        assert_eq!(s.select_split(SplitPolicy::LowestPc), Some((9, 0b0001)));
        s.advance(10);
        assert!(!s.wait(1, 0b0001));
        assert_eq!((s.participation(1), s.arrived(1)), (0b0011, 0b0001));
        assert_eq!(
            snap(&s),
            (
                vec![Blocked(1), Ready, Blocked(0), Blocked(0)],
                vec![10, 10, 11, 11]
            )
        );
        // Thread 1 arrives at WAIT B1: B1 releases threads 0-1 at Pc 10, one split again.
        assert_eq!(s.select_split(SplitPolicy::LowestPc), Some((10, 0b0010)));
        assert!(s.wait(1, 0b0010));
        assert_eq!((s.participation(1), s.arrived(1)), (0, 0));
        assert_eq!(
            snap(&s),
            (
                vec![Ready, Ready, Blocked(0), Blocked(0)],
                vec![10, 10, 11, 11]
            )
        );
        assert_eq!(s.splits(), vec![(10, 0b0011)]);
        // 516 runs; threads 0-1 reach WAIT B0: B0 releases the whole warp at Pc 11.
        assert_eq!(s.select_split(SplitPolicy::LowestPc), Some((10, 0b0011)));
        s.advance(11);
        assert!(s.wait(0, 0b0011));
        assert_eq!((s.participation(0), s.arrived(0)), (0, 0));
        assert_eq!(snap(&s), (vec![Ready; 4], vec![11; 4]));
        assert_eq!(s.splits(), vec![(11, 0b1111)]);
        // A released thread passes the same WAIT again (it no longer participates).
        assert!(!s.wait(0, 0b1111));
        assert_eq!(s.thread_states(), &[Ready; 4]);
        assert_eq!(s.select_split(SplitPolicy::LowestPc), Some((11, 0b1111)));
        assert_eq!(s.exit(0b1111), 0);
        assert!(s.is_finished());
        assert_eq!(s.select_split(SplitPolicy::LowestPc), None);
    }

    #[test]
    fn exit_of_the_last_pending_participants_releases_the_barrier() {
        let mut s = ConvergenceState::new(4, 1, 0, 0b1111);
        s.add(0, 0b1111);
        s.branch(0b1100, 4, 1);
        assert!(!s.wait(0, 0b1100));
        assert_eq!(s.select_split(SplitPolicy::LowestPc), Some((1, 0b0011)));
        assert_eq!(s.exit(0b0001), 0);
        assert_eq!((s.participation(0), s.arrived(0)), (0b1110, 0b1100));
        assert_eq!(s.thread_states(), &[Exited, Ready, Blocked(0), Blocked(0)]);
        assert_eq!(s.exit(0b0010), 0b1100);
        assert_eq!((s.participation(0), s.arrived(0)), (0, 0));
        assert_eq!(
            snap(&s),
            (vec![Exited, Exited, Ready, Ready], vec![1, 1, 4, 4])
        );
        assert_eq!(s.splits(), vec![(4, 0b1100)]);
    }

    /// Figs. 3.9/3.10 for 8 threads: `if (t < 4) { A; B; } else { X; Y; } Z;` as
    /// 0: [ADD B0] @p bra 4 (t >= 4); 1: A; 2: B; 3: bra 6; 4: X; 5: Y; 6: [WAIT B0] Z (exit).
    /// Returns what each selected split executed.
    fn two_paths(policy: SplitPolicy) -> Vec<(&'static str, LaneMask)> {
        let mut s = ConvergenceState::new(8, 1, 0, 0xff);
        let mut trace = Vec::new();
        while let Some((pc, m)) = s.select_split(policy) {
            let name = match pc {
                0 => {
                    s.add(0, m);
                    s.branch(m & 0xf0, 4, 1);
                    "branch"
                }
                1 | 2 | 4 | 5 => {
                    s.advance(if pc == 5 { 6 } else { pc + 1 });
                    ["", "A", "B", "", "X", "Y"][pc as usize]
                }
                3 => {
                    assert_eq!(s.branch(m, 6, 4), BranchOutcome::Uniform);
                    "bra"
                }
                6 if s.participation(0) & m != 0 => {
                    s.wait(0, m);
                    "WAIT"
                }
                _ => {
                    s.exit(m);
                    "Z"
                }
            };
            trace.push((name, m));
        }
        assert!(s.is_finished());
        trace
    }

    #[test]
    fn lowest_pc_serialises_the_paths_like_fig3_9() {
        assert_eq!(
            two_paths(SplitPolicy::LowestPc),
            vec![
                ("branch", 0xff),
                ("A", 0x0f),
                ("B", 0x0f),
                ("bra", 0x0f),
                ("X", 0xf0),
                ("Y", 0xf0),
                ("WAIT", 0xff),
                ("Z", 0xff),
            ]
        );
    }

    #[test]
    fn round_robin_interleaves_the_paths_like_fig3_10() {
        assert_eq!(
            two_paths(SplitPolicy::RoundRobin),
            vec![
                ("branch", 0xff),
                ("X", 0xf0),
                ("A", 0x0f),
                ("Y", 0xf0),
                ("B", 0x0f),
                ("WAIT", 0xf0),
                ("bra", 0x0f),
                ("WAIT", 0x0f),
                ("Z", 0xff),
            ]
        );
    }

    /// The Fig. 3.5 spin lock for 4 threads, lowest-PC scheduling:
    /// 0: cas (the lowest lane wins a free lock); 1: [ADD B0] @fail bra 4; 2: [WAIT B0] unlock;
    /// 3: exit; 4: YIELD (or nothing); 5: bra 0. Returns the lanes in the order they took the
    /// lock, and the state after at most `steps` selections.
    fn spin_lock(with_yield: bool, steps: usize) -> (Vec<u32>, ConvergenceState) {
        let mut s = ConvergenceState::new(4, 1, 0, 0b1111);
        let (mut lock, mut fail, mut order) = (None, 0, Vec::new());
        for _ in 0..steps {
            let Some((pc, m)) = s.select_split(SplitPolicy::LowestPc) else {
                break;
            };
            match pc {
                0 => {
                    fail |= m;
                    if lock.is_none() {
                        let winner = m.trailing_zeros();
                        lock = Some(winner);
                        order.push(winner);
                        fail &= !(1 << winner);
                    }
                    s.advance(1);
                }
                1 => {
                    s.add(0, m);
                    s.branch(m & fail, 4, 2);
                }
                2 if s.participation(0) & m != 0 => {
                    s.wait(0, m);
                }
                2 => {
                    lock = None;
                    s.advance(3);
                }
                3 => {
                    s.exit(m);
                }
                4 => {
                    s.advance(5);
                    if with_yield {
                        s.yield_split(m);
                    }
                }
                _ => s.advance(0),
            }
        }
        (order, s)
    }

    #[test]
    fn without_yield_the_lock_holder_waits_for_the_spinners_for_ever() {
        let (order, s) = spin_lock(false, 1000);
        assert_eq!(order, vec![0]);
        // Re-running ADD B0 with the spinners keeps the blocked holder's arrival.
        assert_eq!((s.participation(0), s.arrived(0)), (0b1111, 0b0001));
        assert_eq!(s.thread_states(), &[Blocked(0), Ready, Ready, Ready]);
    }

    #[test]
    fn yield_lets_the_lock_holder_past_the_wait_like_fig3_11() {
        // Step by step up to the first YIELD.
        let (_, s) = spin_lock(true, 3);
        // cas, ADD+branch, WAIT: the holder blocks; then the spinners YIELD at Pc 4: released.
        assert_eq!(s.thread_states(), &[Blocked(0), Ready, Ready, Ready]);
        let (_, s) = spin_lock(true, 4);
        assert_eq!(
            snap(&s),
            (vec![Ready, Yielded, Yielded, Yielded], vec![2, 5, 5, 5])
        );
        assert_eq!((s.participation(0), s.arrived(0)), (0b1110, 0));
        assert_eq!(s.splits(), vec![(2, 0b0001)]);
        // To the end: every thread takes the lock in turn and the warp finishes.
        let (order, s) = spin_lock(true, 1000);
        assert_eq!(order, vec![0, 1, 2, 3]);
        assert!(s.is_finished());
    }

    #[test]
    fn round_robin_pointer_wraps_and_yielded_threads_resume_when_nothing_is_ready() {
        let mut s = ConvergenceState::new(4, 0, 0, 0b1111);
        s.branch(0b1010, 8, 4);
        assert_eq!(s.select_split(SplitPolicy::RoundRobin), Some((4, 0b0101)));
        assert_eq!(s.select_split(SplitPolicy::RoundRobin), Some((8, 0b1010)));
        assert_eq!(s.select_split(SplitPolicy::RoundRobin), Some((4, 0b0101)));
        assert_eq!(s.yield_split(0b0101), 0);
        assert_eq!(s.select_split(SplitPolicy::RoundRobin), Some((8, 0b1010)));
        s.exit(0b1010);
        assert_eq!(s.select_split(SplitPolicy::RoundRobin), Some((4, 0b0101)));
        assert_eq!(s.thread_states(), &[Ready, Exited, Ready, Exited]);
    }

    #[test]
    fn serialises_the_fig3_6_fields() {
        let mut s = ConvergenceState::new(2, 1, 3, 0b11);
        s.add(0, 0b11);
        s.branch(0b10, 7, 4);
        s.wait(0, 0b10);
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(
            v,
            serde_json::json!({
                "warp_size": 2,
                "participation": [3],
                "arrived": [2],
                "threads": ["ready", {"blocked": 0}],
                "rpc": [4, 7],
                "active": 0,
                "rr_next": 0
            })
        );
    }
}
