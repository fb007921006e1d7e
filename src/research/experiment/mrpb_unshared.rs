//! MRPB §5.6, "Improving Ease of Programming" (Fig. 15): Rodinia programs that stage data in
//! shared memory against their unshared versions (Table 3's "/U", reading global memory
//! instead), on Base-S and Base-L with MRPB off and on. The paper: "SRAD/U ... performs 18%
//! worse" on Base-S without MRPB, and "while the six unshared programs run 37% slower than the
//! baseline on average, turning on MRPB reduces the performance gap to only 9%".
//!
//! A program and its /U version run different instructions, so they are compared by time: a
//! program's cycles are the sum of its launches' ([`program_of`]).

use super::geomean;
use super::mrpb::{program_of, OnOff, PRESETS};
use serde::Serialize;

/// Each original program and its unshared version, as [`program_of`] names them.
pub const UNSHARED: [(&str, &str); 6] = [
    ("pathfinder", "pathfinder_u"),
    ("backprop", "backprop_u"),
    ("hotspot", "hotspot_u"),
    ("srad", "srad_u"),
    ("nw", "nw_u"),
    ("lud", "lud_u"),
];

/// §5.6's averages: the unshared programs' time over the originals' without MRPB, and with
/// MRPB on for the unshared programs (×1.37 and ×1.09, "37% slower", "only 9%").
pub const PAPER_GAP: (f64, f64) = (1.37, 1.09);

/// One program and its /U version on one baseline: Fig. 15's four bars of that baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnsharedRow {
    pub program: &'static str,
    pub unshared: &'static str,
    pub preset: &'static str,
    pub baseline: &'static str,
    /// Cycles of all the program's launches: original off, original on, /U off, /U on.
    pub cycles: [Option<u64>; 4],
    /// Performance normalised as Fig. 15 does: the original's cycles on Base-S with MRPB off
    /// over each of `cycles`.
    pub normalised: [Option<f64>; 4],
}

/// The /U programs' time over the originals' on one baseline, geometric mean over the pairs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnsharedGap {
    pub preset: &'static str,
    pub baseline: &'static str,
    pub pairs: usize,
    /// /U off over original off (the paper's "37% slower").
    pub off: Option<f64>,
    /// /U with MRPB on over original off (the paper's "only 9%").
    pub on: Option<f64>,
    /// /U on over original on.
    pub both_on: Option<f64>,
    pub paper: (f64, f64),
}

/// `program`'s cycles on `preset`, off and on; `None` when it has no launch there or one did
/// not complete.
fn program_cycles(rows: &[OnOff], program: &str, preset: &str) -> [Option<u64>; 2] {
    let launches: Vec<&OnOff> = rows
        .iter()
        .filter(|r| r.preset == preset && program_of(r.case) == program)
        .collect();
    let sum = |pick: fn(&OnOff) -> &super::Outcome| {
        (!launches.is_empty()).then_some(())?;
        launches.iter().try_fold(0u64, |c, r| {
            let o = pick(r);
            o.completed().then(|| c + o.counters.cycles)
        })
    };
    [sum(|r| &r.off), sum(|r| &r.on)]
}

/// Fig. 15's rows for the pairs of [`UNSHARED`] both of whose programs are among `rows`.
pub fn rows(rows: &[OnOff]) -> Vec<UnsharedRow> {
    let mut out = Vec::new();
    for (program, unshared) in UNSHARED {
        let base = program_cycles(rows, program, PRESETS[0].0)[0];
        for (preset, baseline) in PRESETS {
            let [a, b] = program_cycles(rows, program, preset);
            let [c, d] = program_cycles(rows, unshared, preset);
            if [a, b, c, d].iter().all(Option::is_none) {
                continue;
            }
            let cycles = [a, b, c, d];
            let normalised = cycles.map(|c| Some(base? as f64 / c.filter(|c| *c > 0)? as f64));
            out.push(UnsharedRow {
                program,
                unshared,
                preset,
                baseline,
                cycles,
                normalised,
            });
        }
    }
    out
}

/// The gap per baseline over `rows` ([`rows`]' output).
pub fn gaps(rows: &[UnsharedRow]) -> Vec<UnsharedGap> {
    PRESETS
        .iter()
        .filter_map(|&(preset, baseline)| {
            let mine: Vec<&UnsharedRow> = rows.iter().filter(|r| r.preset == preset).collect();
            let mean = |u: usize, o: usize| {
                let ratios: Option<Vec<f64>> = mine
                    .iter()
                    .map(|r| Some(r.cycles[u]? as f64 / r.cycles[o].filter(|c| *c > 0)? as f64))
                    .collect();
                geomean(&ratios?)
            };
            (!mine.is_empty()).then(|| UnsharedGap {
                preset,
                baseline,
                pairs: mine.len(),
                off: mean(2, 0),
                on: mean(3, 0),
                both_on: mean(3, 1),
                paper: PAPER_GAP,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::{Counters, Outcome, Suite};

    fn outcome(cycles: u64) -> Outcome {
        Outcome {
            counters: Counters {
                cycles,
                ipc: 1.0,
                l1d_misses: 0,
                reservation_fails: 0,
                evictions_by: Default::default(),
                dram_accesses: 0,
                icnt_packets: 0,
                bypassed: 0,
            },
            error: None,
            wall_seconds: 0.0,
            sampled: None,
        }
    }

    fn row(case: &'static str, preset: usize, off: u64, on: u64) -> OnOff {
        OnOff {
            case,
            suite: Suite::Rodinia,
            preset: PRESETS[preset].0,
            baseline: PRESETS[preset].1,
            off: outcome(off),
            on: outcome(on),
            ipc_ratio: Some(1.0),
        }
    }

    #[test]
    fn fig_15_normalises_to_the_original_on_base_s_and_sums_a_programs_launches() {
        // srad: two launches; srad_u: two launches; Base-S and Base-L.
        let rows_in = [
            row("srad_1", 0, 600, 300),
            row("srad_2", 0, 400, 200),
            row("srad_u_1", 0, 700, 100),
            row("srad_u_2", 0, 500, 150),
            row("srad_1", 1, 500, 400),
            row("srad_2", 1, 300, 300),
            row("srad_u_1", 1, 200, 100),
            row("srad_u_2", 1, 200, 100),
        ];
        let fig = rows(&rows_in);
        assert_eq!(fig.len(), 2, "one pair, two baselines");
        assert_eq!(
            fig[0].cycles,
            [Some(1000), Some(500), Some(1200), Some(250)]
        );
        assert_eq!(fig[1].cycles, [Some(800), Some(700), Some(400), Some(200)]);
        assert_eq!(fig[0].normalised[0], Some(1.0));
        assert_eq!(fig[0].normalised[3], Some(4.0));
        assert_eq!(fig[1].normalised[2], Some(2.5));
        let g = gaps(&fig);
        assert_eq!(g.len(), 2);
        assert_eq!((g[0].pairs, g[0].off, g[0].on), (1, Some(1.2), Some(0.25)));
        assert_eq!(g[0].both_on, Some(0.5));
        assert_eq!((g[1].off, g[1].on), (Some(0.5), Some(0.25)));
        // A pair whose unshared program did not run has no gap rows of its own.
        assert!(rows(&rows_in[..2]).iter().all(|r| r.cycles[2].is_none()));
    }
}
