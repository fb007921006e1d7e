//! Counters sampled at regular cycles, for the Stats view's plots of IPC and L1 hit rate over time
//! (issue 6; MODEL.md section 12). The model samples them itself, so a plot shows the same curve
//! whether the user ran to the end in one jump or stepped cycle by cycle, and stepping back (a
//! checkpoint is a clone of the whole `Sim`) takes the history back with it.
//!
//! Memory stays bounded: samples start every [`FIRST_INTERVAL`] cycles; when there are more than
//! [`CAPACITY`], every other one is dropped and the interval doubles, so a run of any length keeps
//! between `CAPACITY / 2` and `CAPACITY` evenly spaced samples.

/// Cycles between samples at the start of a run.
pub const FIRST_INTERVAL: u64 = 16;
/// Most samples kept.
pub const CAPACITY: usize = 512;

/// The running totals at one cycle (summed over SMs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CounterSample {
    pub cycle: u64,
    pub thread_instructions: u64,
    pub l1d_accesses: u64,
    pub l1d_hits: u64,
}

/// One plotted point: rates over the interval that ends at `cycle`, and over the whole run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatePoint {
    pub cycle: u64,
    /// Thread instructions per cycle since the previous point.
    pub ipc_interval: f64,
    /// Thread instructions per cycle since cycle 0.
    pub ipc_total: f64,
    /// L1D hits / accesses since the previous point (`None` without accesses).
    pub hit_interval: Option<f64>,
    /// L1D hits / accesses since cycle 0 (`None` without accesses).
    pub hit_total: Option<f64>,
}

/// Evenly spaced [`CounterSample`]s of one run.
#[derive(Debug, Clone)]
pub struct CounterHistory {
    interval: u64,
    next: u64,
    samples: Vec<CounterSample>,
}

impl Default for CounterHistory {
    fn default() -> Self {
        CounterHistory {
            interval: FIRST_INTERVAL,
            next: 0,
            samples: Vec::with_capacity(CAPACITY + 1),
        }
    }
}

impl CounterHistory {
    /// Whether a sample is due at `cycle` (one integer compare: the simulator asks every cycle).
    #[inline]
    pub fn due(&self, cycle: u64) -> bool {
        cycle >= self.next
    }

    /// Cycles between the samples now kept.
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// Records `sample`, thinning the history when it is full.
    pub fn record(&mut self, sample: CounterSample) {
        self.samples.push(sample);
        if self.samples.len() > CAPACITY {
            let mut index = 0;
            self.samples.retain(|_| {
                index += 1;
                index % 2 == 1
            });
            self.interval *= 2;
        }
        let last = self.samples.last().map_or(sample.cycle, |s| s.cycle);
        self.next = last + self.interval;
    }

    pub fn samples(&self) -> &[CounterSample] {
        &self.samples
    }

    /// The samples as plotted points, ending with `now` (the present, if it is past the last
    /// sample).
    pub fn rates(&self, now: CounterSample) -> Vec<RatePoint> {
        let mut points = Vec::with_capacity(self.samples.len() + 1);
        let mut previous: Option<CounterSample> = None;
        let tail = (self.samples.last().map(|s| s.cycle) != Some(now.cycle)).then_some(now);
        for s in self.samples.iter().copied().chain(tail) {
            points.push(rate_point(previous, s));
            previous = Some(s);
        }
        points
    }
}

fn rate_point(previous: Option<CounterSample>, s: CounterSample) -> RatePoint {
    let p = previous.unwrap_or(CounterSample {
        cycle: s.cycle,
        ..CounterSample::default()
    });
    let cycles = s.cycle.saturating_sub(p.cycle);
    RatePoint {
        cycle: s.cycle,
        ipc_interval: if cycles == 0 {
            0.0
        } else {
            (s.thread_instructions - p.thread_instructions) as f64 / cycles as f64
        },
        ipc_total: if s.cycle == 0 {
            0.0
        } else {
            s.thread_instructions as f64 / s.cycle as f64
        },
        hit_interval: hit_rate(s.l1d_hits - p.l1d_hits, s.l1d_accesses - p.l1d_accesses),
        hit_total: hit_rate(s.l1d_hits, s.l1d_accesses),
    }
}

fn hit_rate(hits: u64, accesses: u64) -> Option<f64> {
    (accesses > 0).then(|| hits as f64 / accesses as f64)
}

/// `points` as CSV (issue 17, "Exports"): a header line, then one line per point; a hit rate
/// without L1D accesses is an empty field.
pub fn rates_csv(points: &[RatePoint]) -> String {
    let rate = |r: Option<f64>| r.map_or(String::new(), |x| format!("{x:.6}"));
    let mut out =
        String::from("cycle,ipc_interval,ipc_total,l1d_hit_rate_interval,l1d_hit_rate_total\n");
    for p in points {
        out.push_str(&format!(
            "{},{:.6},{:.6},{},{}\n",
            p.cycle,
            p.ipc_interval,
            p.ipc_total,
            rate(p.hit_interval),
            rate(p.hit_total)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_become_csv_lines_with_empty_hit_rates_where_nothing_was_accessed() {
        let points = [
            RatePoint {
                cycle: 16,
                ipc_interval: 2.0,
                ipc_total: 2.0,
                hit_interval: None,
                hit_total: None,
            },
            RatePoint {
                cycle: 32,
                ipc_interval: 1.5,
                ipc_total: 1.75,
                hit_interval: Some(0.5),
                hit_total: Some(0.25),
            },
        ];
        assert_eq!(
            rates_csv(&points),
            "cycle,ipc_interval,ipc_total,l1d_hit_rate_interval,l1d_hit_rate_total\n\
             16,2.000000,2.000000,,\n\
             32,1.500000,1.750000,0.500000,0.250000\n"
        );
    }

    fn sample(cycle: u64, thr: u64, acc: u64, hits: u64) -> CounterSample {
        CounterSample {
            cycle,
            thread_instructions: thr,
            l1d_accesses: acc,
            l1d_hits: hits,
        }
    }

    #[test]
    fn samples_every_interval_then_thins_and_doubles() {
        let mut h = CounterHistory::default();
        let mut cycle = 0;
        let mut recorded = 0;
        while recorded < 3 * CAPACITY {
            if h.due(cycle) {
                h.record(sample(cycle, cycle, 0, 0));
                recorded += 1;
            }
            cycle += 1;
        }
        let s = h.samples();
        assert!(s.len() <= CAPACITY && s.len() > CAPACITY / 2, "{}", s.len());
        assert_eq!(s[0].cycle, 0);
        let step = h.interval();
        assert!(step > FIRST_INTERVAL);
        assert!(s.windows(2).all(|w| w[1].cycle - w[0].cycle == step));
    }

    #[test]
    fn rates_over_intervals_and_the_whole_run() {
        let mut h = CounterHistory::default();
        h.record(sample(0, 0, 0, 0));
        h.record(sample(16, 64, 10, 5));
        let r = h.rates(sample(32, 80, 20, 15));
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].hit_total, None);
        assert_eq!(r[1].ipc_interval, 4.0);
        assert_eq!(r[1].hit_interval, Some(0.5));
        assert_eq!(r[2].ipc_interval, 1.0);
        assert_eq!(r[2].ipc_total, 2.5);
        assert_eq!(r[2].hit_interval, Some(1.0));
        assert_eq!(r[2].hit_total, Some(0.75));
        // The present equal to the last sample is not repeated.
        assert_eq!(h.rates(sample(16, 64, 10, 5)).len(), 2);
    }
}
