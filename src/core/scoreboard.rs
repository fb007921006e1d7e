//! The per-warp scoreboard (book section 3.2; MODEL.md section 4): the registers written by
//! instructions that have issued and not yet written back. An instruction whose sources,
//! destinations or guard predicate collide with a pending write cannot issue (RAW and WAW
//! hazards). An optional limit on entries per warp models Coon et al.'s small scoreboards.
//! Each entry remembers whether its producer is a long-latency (global/local memory) load, so a
//! stall can be named `long_scoreboard` or `short_scoreboard`.

use serde::Serialize;

/// One pending register write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PendingWrite {
    /// Register number in the kernel's register table.
    pub reg: u32,
    /// Produced by a global or local memory load.
    pub long: bool,
    /// The tag of the instruction that will write it (the back end's in-flight table), so a
    /// stall can name its producer ([`crate::why`]).
    pub tag: u64,
}

/// One warp's scoreboard.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scoreboard {
    pending: Vec<PendingWrite>,
}

/// Why an instruction cannot issue, if the scoreboard holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hazard {
    /// A register it uses waits for a long-latency load.
    Long,
    /// A register it uses waits for another result.
    Short,
    /// The warp has as many pending writes as the scoreboard holds.
    Full,
}

impl Scoreboard {
    /// Pending writes, oldest first.
    pub fn pending(&self) -> &[PendingWrite] {
        &self.pending
    }

    /// Whether an instruction reading `srcs` and writing `dsts` may issue; `limit` is the most
    /// entries per warp (`None`: unlimited).
    pub fn check(&self, srcs: &[u32], dsts: &[u32], limit: Option<u32>) -> Option<Hazard> {
        let mut hazard = None;
        for p in &self.pending {
            let hit = srcs.iter().chain(dsts).any(|&r| r == p.reg);
            if hit {
                if p.long {
                    return Some(Hazard::Long);
                }
                hazard = Some(Hazard::Short);
            }
        }
        if hazard.is_none() && !dsts.is_empty() {
            if let Some(max) = limit {
                if self.pending.len() + dsts.len() > max as usize {
                    return Some(Hazard::Full);
                }
            }
        }
        hazard
    }

    /// The instruction tagged `tag`, writing `dsts`, issued.
    pub fn reserve(&mut self, dsts: &[u32], long: bool, tag: u64) {
        for &reg in dsts {
            self.pending.push(PendingWrite { reg, long, tag });
        }
    }

    /// The pending write that holds an instruction reading `srcs` and writing `dsts`: the
    /// first long-latency one if any (the reason [`Scoreboard::check`] gives), else the first.
    pub fn blocking(&self, srcs: &[u32], dsts: &[u32]) -> Option<PendingWrite> {
        let mut hits = self
            .pending
            .iter()
            .filter(|p| srcs.iter().chain(dsts).any(|&r| r == p.reg));
        let first = hits.next().copied();
        match first {
            Some(p) if !p.long => hits.find(|p| p.long).copied().or(first),
            other => other,
        }
    }

    /// The instruction that wrote `dsts` wrote back: one entry per register is released.
    pub fn release(&mut self, dsts: &[u32]) {
        for &r in dsts {
            if let Some(i) = self.pending.iter().position(|p| p.reg == r) {
                self.pending.remove(i);
            }
        }
    }

    /// True when no write is pending.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_and_waw_hazards_hold_until_writeback() {
        let mut s = Scoreboard::default();
        s.reserve(&[3], true, 7);
        s.reserve(&[4], false, 8);
        assert_eq!(s.check(&[3], &[9], None), Some(Hazard::Long));
        assert_eq!(s.check(&[1], &[4], None), Some(Hazard::Short));
        assert_eq!(s.check(&[1], &[2], None), None);
        assert_eq!(s.check(&[1], &[2], Some(2)), Some(Hazard::Full));
        assert_eq!(
            s.blocking(&[4, 3], &[]).map(|p| (p.reg, p.tag)),
            Some((3, 7))
        );
        assert_eq!(s.blocking(&[1], &[4]).map(|p| (p.reg, p.tag)), Some((4, 8)));
        assert_eq!(s.blocking(&[1], &[2]), None);
        s.release(&[3]);
        assert_eq!(s.check(&[3], &[], None), None);
        s.release(&[4]);
        assert!(s.is_empty());
    }
}
