//! The warp timeline (MODEL.md section 12): what every warp slot did in each of the last
//! [`TIMELINE_CYCLES`] cycles, one [`WarpCycle`] code byte per slot per cycle in a ring buffer,
//! so the browser can copy it out in one piece and colour a warps x cycles grid.

use super::stall::WarpCycle;

/// Cycles of history kept.
pub const TIMELINE_CYCLES: usize = 512;

/// A ring of per-cycle rows, one byte per warp slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarpTimeline {
    slots: usize,
    /// `TIMELINE_CYCLES` rows of `slots` bytes; row `c % TIMELINE_CYCLES` holds cycle `c`.
    cells: Vec<u8>,
    /// Cycles recorded so far (the newest is `recorded - 1`).
    recorded: u64,
}

impl WarpTimeline {
    /// An empty timeline for `slots` warp slots.
    pub fn new(slots: usize) -> Self {
        WarpTimeline {
            slots,
            cells: vec![WarpCycle::Idle as u8; slots * TIMELINE_CYCLES],
            recorded: 0,
        }
    }

    /// Records cycle `cycle`; `state(slot)` gives each slot's state.
    pub fn record(&mut self, cycle: u64, state: impl Fn(usize) -> WarpCycle) {
        let row = (cycle as usize % TIMELINE_CYCLES) * self.slots;
        for slot in 0..self.slots {
            self.cells[row + slot] = state(slot) as u8;
        }
        self.recorded = cycle + 1;
    }

    /// Warp slots per row.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The oldest cycle still held and the number of cycles held.
    pub fn window(&self) -> (u64, usize) {
        let held = (self.recorded as usize).min(TIMELINE_CYCLES);
        (self.recorded - held as u64, held)
    }

    /// The states of cycle `cycle` (one code per slot), if still held.
    pub fn row(&self, cycle: u64) -> Option<&[u8]> {
        let (first, held) = self.window();
        if cycle < first || cycle >= first + held as u64 {
            return None;
        }
        let row = (cycle as usize % TIMELINE_CYCLES) * self.slots;
        self.cells.get(row..row + self.slots)
    }

    /// The held cycles oldest first, flattened: `held x slots` codes.
    pub fn ordered(&self) -> Vec<u8> {
        let (first, held) = self.window();
        let mut out = Vec::with_capacity(held * self.slots);
        for c in first..first + held as u64 {
            out.extend_from_slice(self.row(c).unwrap_or(&[]));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_most_recent_cycles() {
        let mut t = WarpTimeline::new(2);
        for c in 0..(TIMELINE_CYCLES as u64 + 3) {
            t.record(c, |s| {
                if (c as usize + s) % 2 == 0 {
                    WarpCycle::Issued
                } else {
                    WarpCycle::Barrier
                }
            });
        }
        assert_eq!(t.window(), (3, TIMELINE_CYCLES));
        assert_eq!(t.row(2), None);
        assert_eq!(
            t.row(3),
            Some(&[WarpCycle::Barrier as u8, WarpCycle::Issued as u8][..])
        );
        assert_eq!(t.ordered().len(), 2 * TIMELINE_CYCLES);
        assert_eq!(
            t.ordered()[..2],
            [WarpCycle::Barrier as u8, WarpCycle::Issued as u8]
        );
    }
}
