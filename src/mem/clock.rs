//! Clock domains (GPGPU-Sim's `-gpgpu_clock_domains`, `gpgpu_sim::next_clock_domain`): the
//! simulator counts core cycles; the interconnect, the L2 slices and the DRAM each tick at their
//! own clock, as many times per core cycle as their frequency allows. Frequencies are kept as
//! integer kHz so the tick count is exact and the same on every platform (MODEL.md section 1).
//!
//! warpstep runs a domain's ticks of one core cycle together, before the SMs' cycle; GPGPU-Sim
//! interleaves them with the core ticks in time order. The count per core cycle is the same.

/// One clock domain relative to the core clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockDomain {
    /// Domain frequency in kHz.
    khz: u64,
    /// Core frequency in kHz.
    core_khz: u64,
}

impl ClockDomain {
    /// A domain of `mhz` beside a core of `core_mhz`.
    pub fn new(mhz: f64, core_mhz: f64) -> ClockDomain {
        let khz = |m: f64| ((m * 1000.0).round() as u64).max(1);
        ClockDomain {
            khz: khz(mhz),
            core_khz: khz(core_mhz),
        }
    }

    /// Ticks of this domain from the start through the end of core cycle `now`.
    pub fn ticks_through(&self, now: u64) -> u64 {
        match (now + 1).checked_mul(self.khz) {
            Some(scaled) => scaled / self.core_khz,
            None => {
                ((u128::from(now) + 1) * u128::from(self.khz) / u128::from(self.core_khz)) as u64
            }
        }
    }

    /// The ticks (numbered from 1) that fall in core cycle `now`.
    pub fn ticks_in(&self, now: u64) -> std::ops::RangeInclusive<u64> {
        let before = if now == 0 {
            0
        } else {
            self.ticks_through(now - 1)
        };
        before + 1..=self.ticks_through(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gtx480_dram_ticks_1_32_times_per_core_cycle() {
        let d = ClockDomain::new(924.0, 700.0);
        let per_cycle: Vec<usize> = (0..4).map(|c| d.ticks_in(c).count()).collect();
        assert_eq!(per_cycle, vec![1, 1, 1, 2]);
        assert_eq!(d.ticks_through(699), 924);
        assert_eq!(d.ticks_in(3), 4..=5);
    }

    #[test]
    fn a_slower_domain_skips_core_cycles() {
        let l2 = ClockDomain::new(650.0, 1300.0);
        let per_cycle: Vec<usize> = (0..4).map(|c| l2.ticks_in(c).count()).collect();
        assert_eq!(per_cycle, vec![0, 1, 0, 1]);
    }

    #[test]
    fn the_same_clock_ticks_once() {
        let d = ClockDomain::new(700.0, 700.0);
        assert!((0..100).all(|c| d.ticks_in(c) == (c + 1..=c + 1)));
    }
}
