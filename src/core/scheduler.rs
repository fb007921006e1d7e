//! Warp schedulers (MODEL.md section 4; book sections 3.2 and 4.3): each SM has
//! `schedulers_per_sm` of them; warp slot w belongs to scheduler w % schedulers; each issues at
//! most one instruction per cycle, trying its warps in the order its policy gives and issuing the
//! first that can go.
//!
//! - `lrr`: loose round robin, starting after the warp issued last.
//! - `gto`: greedy then oldest: the warp issued last first, then the others oldest first.
//! - `two_level`: an active set of `active_warps`; a warp whose next instruction waits on a
//!   long-latency (global/local) load leaves it for the back of the pending FIFO, and pending
//!   warps enter round-robin; only active warps are tried (Narasiman et al.; GPGPU-Sim
//!   `two_level_active`).

use crate::config::SchedulerPolicy;
use std::collections::VecDeque;

/// One warp scheduler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scheduler {
    pub id: u32,
    policy: SchedulerPolicy,
    /// The warp slots this scheduler owns, ascending.
    slots: Vec<u32>,
    last_issued: Option<u32>,
    /// Two-level: the active set, in round-robin order, and the pending FIFO.
    active: Vec<u32>,
    pending: VecDeque<u32>,
    active_size: usize,
    /// GTO: resident warps, oldest first (kept sorted as warps arrive and leave).
    by_age: Vec<(u64, u32)>,
    /// The order [`Scheduler::take_order`] computed last, and the live mask and last-issued
    /// warp it was computed for (`None` once the warp sets changed). GTO's greedy warp and an
    /// unchanged live mask give the same order, so most cycles reuse it.
    cached: Order,
    cached_for: Option<(u128, Option<u32>)>,
}

/// The order a scheduler tries its warps in one cycle ([`Scheduler::take_order`]): `lead`, then
/// `list` from index `split` on, then `list` before `split`, leaving `skip` out of `list`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Order {
    lead: Option<u32>,
    list: Vec<u32>,
    split: usize,
    skip: Option<u32>,
}

impl Order {
    /// The warp slots in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let (head, tail) = self.list.split_at(self.split.min(self.list.len()));
        let skip = self.skip;
        self.lead.into_iter().chain(
            tail.iter()
                .chain(head)
                .copied()
                .filter(move |&w| Some(w) != skip),
        )
    }

    /// Whether there is no warp to try.
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

impl Scheduler {
    /// Scheduler `id` of `count`, over `warp_slots` hardware warp slots.
    pub fn new(
        id: u32,
        count: u32,
        warp_slots: u32,
        policy: SchedulerPolicy,
        active_warps: u32,
    ) -> Self {
        Scheduler {
            id,
            policy,
            slots: (0..warp_slots).filter(|w| w % count == id).collect(),
            last_issued: None,
            active: Vec::new(),
            pending: VecDeque::new(),
            active_size: active_warps.max(1) as usize,
            by_age: Vec::new(),
            cached: Order::default(),
            cached_for: None,
        }
    }

    /// The slots this scheduler owns.
    pub fn slots(&self) -> &[u32] {
        &self.slots
    }

    /// The two-level active set (empty for the other policies).
    pub fn active_set(&self) -> &[u32] {
        &self.active
    }

    /// The warp issued most recently.
    pub fn last_issued(&self) -> Option<u32> {
        self.last_issued
    }

    /// A warp was launched into `slot` with launch order `age` (two-level: it queues as
    /// pending; GTO: it takes its place by age).
    pub fn warp_arrived(&mut self, slot: u32, age: u64) {
        self.cached_for = None;
        if self.policy == SchedulerPolicy::Gto {
            let at = self.by_age.partition_point(|&(a, s)| (a, s) < (age, slot));
            self.by_age.insert(at, (age, slot));
        }
        if self.policy == SchedulerPolicy::TwoLevel
            && !self.pending.contains(&slot)
            && !self.active.contains(&slot)
        {
            self.pending.push_back(slot);
        }
    }

    /// The warp in `slot` finished: it leaves every set.
    pub fn warp_left(&mut self, slot: u32) {
        self.cached_for = None;
        self.by_age.retain(|&(_, s)| s != slot);
        self.active.retain(|&w| w != slot);
        self.pending.retain(|&w| w != slot);
        if self.last_issued == Some(slot) {
            self.last_issued = None;
        }
    }

    /// Whether checking a warp can change this scheduler's state (two-level demotes warps that
    /// wait on long-latency loads).
    pub fn demotes(&self) -> bool {
        self.policy == SchedulerPolicy::TwoLevel
    }

    /// Two-level: `slot` waits on a long-latency load and leaves the active set.
    pub fn demote(&mut self, slot: u32) {
        if self.policy != SchedulerPolicy::TwoLevel {
            return;
        }
        if let Some(i) = self.active.iter().position(|&w| w == slot) {
            self.cached_for = None;
            self.active.remove(i);
            self.pending.push_back(slot);
        }
    }

    /// Two-level: drop warps that can no longer issue (`keep` false: exited, or waiting at a
    /// barrier for warps that may be pending) to the back of the pending FIFO, then fill the
    /// active set from its front.
    pub fn refill(&mut self, keep: impl Fn(u32) -> bool) {
        if self.policy != SchedulerPolicy::TwoLevel {
            return;
        }
        let mut i = 0;
        while i < self.active.len() {
            if keep(self.active[i]) {
                i += 1;
            } else {
                self.cached_for = None;
                let w = self.active.remove(i);
                self.pending.push_back(w);
            }
        }
        while self.policy == SchedulerPolicy::TwoLevel && self.active.len() < self.active_size {
            match self.pending.pop_front() {
                Some(w) => {
                    self.cached_for = None;
                    self.active.push(w);
                }
                None => break,
            }
        }
    }

    /// The order to try warps in this cycle. `occupied` says whether a slot holds a live warp.
    pub fn order(&self, occupied: impl Fn(u32) -> bool, out: &mut Vec<u32>) {
        out.clear();
        match self.policy {
            SchedulerPolicy::Lrr | SchedulerPolicy::BankConflictAware => {
                let start = self
                    .last_issued
                    .and_then(|l| self.slots.iter().position(|&s| s == l))
                    .map_or(0, |i| i + 1);
                rotated_into(&self.slots, start, &occupied, out);
            }
            SchedulerPolicy::Gto => {
                if let Some(l) = self.last_issued.filter(|&l| occupied(l)) {
                    out.push(l);
                }
                for &(_, s) in &self.by_age {
                    if occupied(s) && Some(s) != self.last_issued {
                        out.push(s);
                    }
                }
            }
            SchedulerPolicy::TwoLevel => {
                let start = self
                    .last_issued
                    .and_then(|l| self.active.iter().position(|&s| s == l))
                    .map_or(0, |i| i + 1);
                rotated_into(&self.active, start, &occupied, out);
            }
        }
    }

    /// The order to try warps in this cycle, for the live warps in bitmask `live` (bit w: slot w
    /// holds a live warp): the same as [`Scheduler::order`]. The live warps in policy order are
    /// kept while the live mask and the warp sets are unchanged (two-level: and the last issued
    /// warp); GTO and LRR then only place the last issued warp. Hand it back with
    /// [`Scheduler::put_order`].
    pub fn take_order(&mut self, live: u128) -> Order {
        let two_level = self.policy == SchedulerPolicy::TwoLevel;
        let key = (live, if two_level { self.last_issued } else { None });
        let mut order = std::mem::take(&mut self.cached);
        let is_live = |w: u32| live >> w & 1 == 1;
        if self.cached_for != Some(key) {
            order.list.clear();
            match self.policy {
                SchedulerPolicy::Lrr | SchedulerPolicy::BankConflictAware => order
                    .list
                    .extend(self.slots.iter().copied().filter(|&w| is_live(w))),
                SchedulerPolicy::Gto => order
                    .list
                    .extend(self.by_age.iter().map(|&(_, w)| w).filter(|&w| is_live(w))),
                SchedulerPolicy::TwoLevel => self.order(is_live, &mut order.list),
            }
            self.cached_for = Some(key);
        }
        let last = self.last_issued;
        (order.lead, order.skip, order.split) = match self.policy {
            // Slots ascend: after the last issued warp, wrapping around.
            SchedulerPolicy::Lrr | SchedulerPolicy::BankConflictAware => (
                None,
                None,
                last.map_or(0, |l| order.list.partition_point(|&w| w <= l)),
            ),
            SchedulerPolicy::Gto => (last.filter(|&l| is_live(l)), last, 0),
            SchedulerPolicy::TwoLevel => (None, None, 0),
        };
        order
    }

    /// Returns the order [`Scheduler::take_order`] gave, for reuse.
    pub fn put_order(&mut self, order: Order) {
        self.cached = order;
    }

    /// The scheduler issued from `slot`.
    pub fn issued(&mut self, slot: u32) {
        self.last_issued = Some(slot);
    }

    /// Two-level: whether `slot` is in the active set (other policies: always).
    pub fn is_active(&self, slot: u32) -> bool {
        self.policy != SchedulerPolicy::TwoLevel || self.active.contains(&slot)
    }
}

/// Appends the `occupied` slots of `slots` starting at index `start` and wrapping around.
fn rotated_into(slots: &[u32], start: usize, occupied: &impl Fn(u32) -> bool, out: &mut Vec<u32>) {
    let (tail, head) = slots.split_at(start.min(slots.len()));
    for &s in head.iter().chain(tail) {
        if occupied(s) {
            out.push(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(s: &Scheduler, live: &[u32]) -> Vec<u32> {
        let mut out = Vec::new();
        s.order(|w| live.contains(&w), &mut out);
        out
    }

    /// `take_order` (cached) gives what `order` computes, for every policy and history.
    #[test]
    fn the_cached_order_equals_the_computed_one() {
        for policy in [
            SchedulerPolicy::Lrr,
            SchedulerPolicy::Gto,
            SchedulerPolicy::TwoLevel,
        ] {
            let mut s = Scheduler::new(0, 2, 12, policy, 3);
            for (i, w) in [4, 0, 10, 2, 8, 6].into_iter().enumerate() {
                s.warp_arrived(w, (7 * i % 5) as u64);
            }
            let mut live: u128 = 0b101_0101_0101;
            for step in 0..40u32 {
                s.refill(|_| true);
                let expected = order(
                    &s,
                    &(0..12).filter(|w| live >> w & 1 == 1).collect::<Vec<_>>(),
                );
                let got = s.take_order(live);
                assert_eq!(
                    got.iter().collect::<Vec<_>>(),
                    expected,
                    "{policy:?} step {step}"
                );
                if let Some(&w) = expected.get((step % 3) as usize) {
                    s.issued(w);
                }
                s.put_order(got);
                if step % 7 == 6 {
                    live &= !(1 << (2 * (step % 6)));
                }
                if step % 11 == 10 {
                    s.demote(expected.first().copied().unwrap_or(0));
                }
            }
        }
    }

    #[test]
    fn warps_are_split_by_slot_modulo_schedulers() {
        let s = Scheduler::new(1, 2, 8, SchedulerPolicy::Lrr, 4);
        assert_eq!(s.slots(), &[1, 3, 5, 7]);
    }

    #[test]
    fn lrr_rotates_after_the_last_issued_warp() {
        let mut s = Scheduler::new(0, 1, 4, SchedulerPolicy::Lrr, 4);
        assert_eq!(order(&s, &[0, 1, 2, 3]), vec![0, 1, 2, 3]);
        s.issued(1);
        assert_eq!(order(&s, &[0, 1, 2, 3]), vec![2, 3, 0, 1]);
        assert_eq!(order(&s, &[0, 1, 3]), vec![3, 0, 1]);
    }

    #[test]
    fn gto_keeps_the_last_warp_first_then_oldest() {
        let mut s = Scheduler::new(0, 1, 4, SchedulerPolicy::Gto, 4);
        for (slot, age) in [5, 2, 9, 1].into_iter().enumerate() {
            s.warp_arrived(slot as u32, age);
        }
        assert_eq!(order(&s, &[0, 1, 2, 3]), vec![3, 1, 0, 2]);
        s.issued(2);
        assert_eq!(order(&s, &[0, 1, 2, 3]), vec![2, 3, 1, 0]);
        s.warp_left(1);
        assert_eq!(order(&s, &[0, 2, 3]), vec![2, 3, 0]);
    }

    #[test]
    fn two_level_only_tries_the_active_set() {
        let mut s = Scheduler::new(0, 1, 6, SchedulerPolicy::TwoLevel, 2);
        for w in 0..6 {
            s.warp_arrived(w, w as u64);
        }
        s.refill(|_| true);
        assert_eq!(order(&s, &[0, 1, 2, 3, 4, 5]), vec![0, 1]);
        s.demote(0);
        s.refill(|_| true);
        assert_eq!(s.active_set(), &[1, 2]);
        assert_eq!(order(&s, &[0, 1, 2, 3, 4, 5]), vec![1, 2]);
        assert!(!s.is_active(0));
    }
}
