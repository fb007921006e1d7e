//! Cache-conscious wavefront scheduling (CCWS; Rogers, O'Connor and Aamodt, MICRO 2012; the
//! book's section 5.1.2, Fig. 5.1), as two switches over the base warp scheduler (`lrr` or
//! `gto`, [`super::scheduler`]): it never orders warps itself, it only holds some back.
//!
//! - **SWL, static wavefront limiting** (`core.ccws.swl_warps` = N; MICRO 2012 §5's
//!   "Best-SWL"): only N warps of the SM may be scheduled at all. Which N, from the released
//!   CCWS simulator (`tgrogers/ccws-2012`, `concurrency_limited_scheduler_unit::order_warps`):
//!   the SM's warps sorted oldest first (launch order), skipping warps whose threads have all
//!   exited, up to the N-th; if that N-th warp waits at a barrier the list goes on and, the
//!   count then past N, takes every remaining warp (so warps held back never keep a barrier
//!   shut). warpstep keeps that rule: the N oldest running warps, or every warp in a cycle when
//!   the N-th of them waits at a barrier. A warp outside the limit is `swl_limit`.
//! - **Dynamic CCWS** (`core.ccws.dynamic`; MICRO 2012 §4; the sources'
//!   `scheduling_point_system` with `-point_scheduling_sys -1,0,0,0,-1,-1,100,-1,8,8,0`): every
//!   warp has a locality score, `base_score` (100) at first; the cutoff is `base_score` x the
//!   running warps. An L1D miss whose block is in the warp's own victim tag array
//!   ([`super::victim_tags`]) is lost intra-warp locality: the warp's score becomes
//!   (VTA hits / instructions issued, over the running warps) x `k_throttle` (8) x cutoff. (The
//!   sources add that much and then cap the score at the same product, since their two
//!   constants are both 8, so the hit sets it; they may leave it under the base, warpstep keeps
//!   the base as the floor, as the paper's Fig. 5.1 draws it.) Each cycle a score above the
//!   base loses `decay` (1) point; then the running warps are sorted by score (highest first,
//!   ties to the lower slot) and taken while the sum of their scores is under the cutoff,
//!   including the warp that reaches it; the warps after it may not issue a global or local
//!   load (`ld.global`, `ld.local`, generic loads) this cycle (`ccws_throttle`); their other
//!   instructions issue.

use super::victim_tags::VictimTags;
use crate::config::CcwsConfig;
use serde::Serialize;

/// What the L1D told CCWS about one access (through the LD/ST unit's port,
/// [`super::l1_port`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalityEvent {
    /// Warp slot `warp` (cache owner `owner`) missed and allocated `block`, pushing out
    /// `victim` (block, owner) if a valid line was there; `read`: a load (only loads probe the
    /// victim tags).
    Miss {
        warp: u32,
        owner: u64,
        block: u64,
        victim: Option<(u64, u64)>,
        read: bool,
    },
    /// A global store to `block`: it leaves every victim tag array.
    Store { block: u64 },
}

/// CCWS counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct CcwsStats {
    /// Victim tag hits: L1D misses that lost intra-warp locality.
    pub vta_hits: u64,
    /// Cycles in which the cutoff held back at least one running warp's loads.
    pub throttled_cycles: u64,
    /// Cycles in which the static limit held back at least one running warp.
    pub limited_cycles: u64,
}

impl CcwsStats {
    /// Adds another SM's counters.
    pub fn add(&mut self, o: &CcwsStats) {
        self.vta_hits += o.vta_hits;
        self.throttled_cycles += o.throttled_cycles;
        self.limited_cycles += o.limited_cycles;
    }
}

/// The SM's CCWS state (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ccws {
    swl_warps: u32,
    dynamic: bool,
    base: u64,
    k_throttle: u64,
    decay: u64,
    vta: VictimTags,
    /// Resident warps, oldest first: (launch order, slot).
    by_age: Vec<(u64, u32)>,
    /// Per slot: the warp's cache owner id, learned from its misses (0: none yet).
    owners: Vec<u64>,
    scores: Vec<u64>,
    issued: Vec<u64>,
    issued_total: u64,
    hits: Vec<u64>,
    hits_total: u64,
    /// The cutoff of this cycle: `base` x the running warps.
    cutoff: u64,
    /// Bit w: warp w may be scheduled (SWL).
    schedulable: u128,
    /// Bit w: warp w may issue loads (dynamic CCWS).
    may_load: u128,
    pub stats: CcwsStats,
}

impl Ccws {
    /// CCWS for `warps` warp slots, or `None` when both switches are off.
    pub fn new(config: &CcwsConfig, warps: u32) -> Option<Ccws> {
        config.on().then(|| Ccws {
            swl_warps: config.swl_warps,
            dynamic: config.dynamic,
            base: u64::from(config.base_score),
            k_throttle: u64::from(config.k_throttle),
            decay: u64::from(config.decay),
            vta: VictimTags::new(warps, config.vta_sets, config.vta_ways),
            by_age: Vec::new(),
            owners: vec![0; warps as usize],
            scores: vec![u64::from(config.base_score); warps as usize],
            issued: vec![0; warps as usize],
            issued_total: 0,
            hits: vec![0; warps as usize],
            hits_total: 0,
            cutoff: 0,
            schedulable: u128::MAX,
            may_load: u128::MAX,
            stats: CcwsStats::default(),
        })
    }

    /// A warp arrived in `slot` with launch order `age`: base score, empty victim tags.
    pub fn warp_arrived(&mut self, slot: u32, age: u64) {
        let at = self.by_age.partition_point(|&p| p < (age, slot));
        self.by_age.insert(at, (age, slot));
        self.reset(slot);
    }

    /// The warp in `slot` left: its counts leave the totals (the sources' `inform_warp_exit`).
    pub fn warp_left(&mut self, slot: u32) {
        self.by_age.retain(|&(_, s)| s != slot);
        self.reset(slot);
    }

    fn reset(&mut self, slot: u32) {
        let s = slot as usize;
        if s >= self.scores.len() {
            return;
        }
        self.issued_total -= self.issued[s];
        self.hits_total -= self.hits[s];
        self.issued[s] = 0;
        self.hits[s] = 0;
        self.scores[s] = self.base;
        self.owners[s] = 0;
        self.vta.clear(slot);
    }

    /// The start of a cycle: scores decay and the cutoff is applied (dynamic), and the static
    /// limit picks its warps. `live`: bit w for each warp with running threads;
    /// `at_barrier(w)`: whether warp w waits at a barrier.
    pub fn begin_cycle(&mut self, live: u128, at_barrier: impl Fn(u32) -> bool) {
        if self.dynamic {
            self.decay_scores();
            self.may_load = self.apply_cutoff(live);
            if live & !self.may_load != 0 {
                self.stats.throttled_cycles += 1;
            }
        }
        if self.swl_warps > 0 {
            self.schedulable = self.static_limit(live, at_barrier);
            if live & !self.schedulable != 0 {
                self.stats.limited_cycles += 1;
            }
        }
    }

    fn decay_scores(&mut self) {
        let (base, decay) = (self.base, self.decay);
        for s in self.scores.iter_mut().filter(|s| **s > base) {
            *s = s.saturating_sub(decay).max(base);
        }
    }

    /// The warps whose loads may issue: sorted by score, taken until their sum reaches the
    /// cutoff (every warp when all scores are at the base).
    fn apply_cutoff(&mut self, live: u128) -> u128 {
        let running = || (0..self.scores.len() as u32).filter(|&w| live >> w & 1 == 1);
        self.cutoff = self.base * u64::from(live.count_ones());
        if running().all(|w| self.scores[w as usize] <= self.base) {
            return u128::MAX;
        }
        let mut sorted: Vec<u32> = running().collect();
        sorted.sort_by_key(|&w| (std::cmp::Reverse(self.scores[w as usize]), w));
        let (mut sum, mut allowed) = (0, 0u128);
        for w in sorted {
            sum += self.scores[w as usize];
            allowed |= 1 << w;
            if sum >= self.cutoff {
                break;
            }
        }
        allowed
    }

    /// The oldest `swl_warps` running warps, or every warp when the last of them waits at a
    /// barrier (the sources' rule, see the module documentation).
    fn static_limit(&self, live: u128, at_barrier: impl Fn(u32) -> bool) -> u128 {
        let mut allowed = 0u128;
        let mut taken = 0;
        for &(_, w) in &self.by_age {
            if live >> w & 1 == 0 {
                continue;
            }
            allowed |= 1 << w;
            taken += 1;
            if taken == self.swl_warps {
                return if at_barrier(w) { u128::MAX } else { allowed };
            }
        }
        u128::MAX
    }

    /// Whether the static limit lets warp `slot` be scheduled this cycle.
    pub fn schedulable(&self, slot: u32) -> bool {
        self.schedulable >> slot & 1 == 1
    }

    /// Whether the cutoff lets warp `slot` issue a global or local load this cycle.
    pub fn may_load(&self, slot: u32) -> bool {
        self.may_load >> slot & 1 == 1
    }

    /// Warp `slot` issued an instruction (the denominator of the VTA hit rate).
    pub fn issued(&mut self, slot: u32) {
        if let Some(n) = self.issued.get_mut(slot as usize) {
            *n += 1;
            self.issued_total += 1;
        }
    }

    /// What the L1D did for one access: victims enter their owners' tag arrays; a load miss
    /// probes its warp's array.
    pub fn observe(&mut self, event: LocalityEvent) {
        if !self.dynamic {
            return;
        }
        match event {
            LocalityEvent::Store { block } => self.vta.invalidate(block),
            LocalityEvent::Miss {
                warp,
                owner,
                block,
                victim,
                read,
            } => {
                if let Some(o) = self.owners.get_mut(warp as usize) {
                    *o = owner;
                }
                if let Some((victim_block, victim_owner)) = victim {
                    if let Some(w) = self.owners.iter().position(|&o| o == victim_owner) {
                        self.vta.insert(w as u32, victim_block);
                    }
                }
                if read && self.vta.probe(warp, block) {
                    self.lost_locality(warp);
                }
            }
        }
    }

    /// A victim tag hit of warp `slot`: its score becomes (VTA hits / instructions issued) x
    /// K_THROTTLE x cutoff, at least the base.
    pub fn lost_locality(&mut self, slot: u32) {
        let s = slot as usize;
        if s >= self.scores.len() {
            return;
        }
        self.hits[s] += 1;
        self.hits_total += 1;
        self.stats.vta_hits += 1;
        let raised = self.hits_total * self.k_throttle * self.cutoff / self.issued_total.max(1);
        self.scores[s] = raised.max(self.base);
    }

    /// The warps the static limit lets be scheduled this cycle (every slot when it does not
    /// limit).
    pub fn schedulable_warps(&self) -> Vec<u32> {
        bits(self.schedulable, self.scores.len())
    }

    /// The warps whose loads the cutoff lets issue this cycle (every slot when it does not
    /// limit).
    pub fn loading_warps(&self) -> Vec<u32> {
        bits(self.may_load, self.scores.len())
    }

    /// Warp `slot`'s locality score.
    pub fn score(&self, slot: u32) -> u64 {
        self.scores.get(slot as usize).copied().unwrap_or(0)
    }

    /// This cycle's cutoff (the base score times the running warps).
    pub fn cutoff(&self) -> u64 {
        self.cutoff
    }

    /// The static limit (0: off).
    pub fn swl_warps(&self) -> u32 {
        self.swl_warps
    }
}

/// The set bits of `mask` below `n`.
fn bits(mask: u128, n: usize) -> Vec<u32> {
    (0..n as u32).filter(|&w| mask >> w & 1 == 1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ccws(swl_warps: u32, dynamic: bool) -> Ccws {
        let config = CcwsConfig {
            swl_warps,
            dynamic,
            ..CcwsConfig::default()
        };
        Ccws::new(&config, 8).expect("on")
    }

    fn loaders(c: &Ccws) -> Vec<u32> {
        (0..4).filter(|&w| c.may_load(w)).collect()
    }

    /// The book's Fig. 5.1 narrative: warp 0 loses locality, its score rises and pushes warp 3
    /// over the cutoff, so warp 3 may not load; with no more lost locality warp 0's score
    /// decays until warp 3 may load again.
    #[test]
    fn figure_5_1_warp_0_loses_locality_and_warp_3_is_throttled_until_the_score_decays() {
        let mut c = ccws(0, true);
        for w in 0..4 {
            c.warp_arrived(w, u64::from(w));
        }
        let live = 0b1111;
        c.begin_cycle(live, |_| false);
        assert_eq!(c.cutoff(), 400, "4 running warps x base 100");
        assert_eq!(loaders(&c), vec![0, 1, 2, 3]);
        // 12 instructions issued, 3 per warp; warp 0 evicts its own line, then misses on it.
        for w in 0..4 {
            for _ in 0..3 {
                c.issued(w);
            }
        }
        let owner = 0x100;
        c.observe(LocalityEvent::Miss {
            warp: 1,
            owner: 0x101,
            block: 0x8000,
            victim: None,
            read: true,
        });
        c.observe(LocalityEvent::Miss {
            warp: 0,
            owner,
            block: 0x1000,
            victim: None,
            read: true,
        });
        c.observe(LocalityEvent::Miss {
            warp: 1,
            owner: 0x101,
            block: 0x2000,
            victim: Some((0x1000, owner)),
            read: true,
        });
        assert_eq!(c.stats.vta_hits, 0, "warp 1 never held 0x1000");
        c.observe(LocalityEvent::Miss {
            warp: 0,
            owner,
            block: 0x1000,
            victim: Some((0x8000, 0x101)),
            read: true,
        });
        assert_eq!(c.stats.vta_hits, 1);
        // 1 VTA hit / 12 instructions x K_THROTTLE 8 x cutoff 400.
        assert_eq!(c.score(0), 8 * 400 / 12);
        assert_eq!(c.score(3), 100);
        c.begin_cycle(live, |_| false);
        // Decayed to 265: 265 + 100 + 100 reaches 400 at warp 2, so warp 3 is past it.
        assert_eq!(c.score(0), 265);
        assert_eq!(loaders(&c), vec![0, 1, 2]);
        let mut cycles = 1;
        while !c.may_load(3) {
            c.begin_cycle(live, |_| false);
            cycles += 1;
            assert!(cycles < 1000, "warp 3 never returned");
        }
        // Warp 3 returns once warp 0's score is under 200 (199 + 100 + 100 < 400).
        assert_eq!(c.score(0), 199);
        assert_eq!(cycles, 266 - 199);
        assert_eq!(c.stats.throttled_cycles, cycles - 1);
    }

    #[test]
    fn swl_lets_the_oldest_running_warps_be_scheduled() {
        let mut c = ccws(2, false);
        for (slot, age) in [(0, 5), (1, 2), (2, 9), (3, 1)] {
            c.warp_arrived(slot, age);
        }
        c.begin_cycle(0b1111, |_| false);
        let schedulable = |c: &Ccws| (0..4).filter(|&w| c.schedulable(w)).collect::<Vec<_>>();
        assert_eq!(schedulable(&c), vec![1, 3]);
        // Warp 3 (the oldest) finished: the next oldest takes its place.
        c.begin_cycle(0b0111, |_| false);
        assert_eq!(schedulable(&c), vec![0, 1]);
        // The second of them waits at a barrier: no limit this cycle.
        c.begin_cycle(0b0111, |w| w == 0);
        assert_eq!(schedulable(&c), vec![0, 1, 2, 3]);
        assert_eq!(c.stats.limited_cycles, 2);
    }
}
