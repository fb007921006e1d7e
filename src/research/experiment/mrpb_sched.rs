//! The MRPB paper's comparison with cache-conscious wavefront scheduling (Jia, Shaw and
//! Martonosi, HPCA 2014, §5.5's CCWS-SWL bars of Fig. 14 and §5.7's Fig. 16), on the MRPB
//! experiment's cases ([`super::mrpb`]): each case on Base-S and Base-L under six schedulers,
//! RR (`lrr`, Table 1's scheduler and the MRPB experiment's baseline), GTO, RR+MRPB, GTO+MRPB,
//! RR+SWL and GTO+SWL. SWL is CCWS's static wavefront limit (`core.ccws.swl_warps`,
//! `crate::core::ccws`) at the best of [`LIMITS`] for each case, as the CCWS paper picks its
//! "Best-SWL" per benchmark; no limit at all is a candidate too (the CCWS paper's sweep runs up
//! to every warp), so SWL is never below its base.
//!
//! Fig. 14's CCWS-SWL beside MRPB: RR+SWL and RR+MRPB over RR (the scheduler of the paper's
//! earlier sections). Fig. 16's six bars, "normalized within each of the four groups" (PolyBench
//! and Rodinia on Base-S and Base-L): each bar the geometric mean over the group's cases of its
//! IPC over RR's. Means are per kernel launch here (the MRPB experiment also has them per
//! program); a case whose run did not complete leaves its group's means out.
//!
//! [`plan`] lists the runs; the caller runs them and hands them to [`Report::new`].

use super::{geomean, ipc_ratio, Case, Measured, Outcome, Run, Suite};
use serde::Serialize;

/// The static wavefront limits swept for each case's best SWL (warps per SM; Base-S and
/// Base-L hold at most 48).
pub const LIMITS: [u32; 5] = [2, 4, 8, 16, 24];

/// The base warp scheduler of a bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Base {
    /// Loose round robin (`lrr`): MRPB Table 1's scheduler.
    Rr,
    /// Greedy then oldest (`gto`): CCWS's base scheduler.
    Gto,
}

impl Base {
    pub const ALL: [Base; 2] = [Base::Rr, Base::Gto];

    pub fn name(self) -> &'static str {
        match self {
            Base::Rr => "RR",
            Base::Gto => "GTO",
        }
    }

    fn set(self) -> &'static str {
        match self {
            Base::Rr => "core.scheduler=lrr",
            Base::Gto => "core.scheduler=gto",
        }
    }
}

/// What runs over the base scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Addition {
    None,
    Mrpb,
    /// SWL at this many warps.
    Swl(u32),
}

/// The `--set`s of `base` with `addition`.
pub fn sets(base: Base, addition: Addition) -> Vec<String> {
    let mut sets = vec![base.set().to_string()];
    match addition {
        Addition::None => {}
        Addition::Mrpb => sets.push(super::mrpb::ON.to_string()),
        Addition::Swl(n) => sets.push(format!("core.ccws.swl_warps={n}")),
    }
    sets
}

/// The additions run over each base: none, MRPB, and SWL at each of `limits`.
fn additions(limits: &[u32]) -> Vec<Addition> {
    let mut all = vec![Addition::None, Addition::Mrpb];
    all.extend(limits.iter().map(|&n| Addition::Swl(n)));
    all
}

/// Every run: each case on both presets, under both bases, with each addition. An error names
/// a limit the presets cannot hold.
pub fn plan(cases: &[Case], limits: &[u32]) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    for case in cases {
        for (preset, _) in super::mrpb::PRESETS {
            for base in Base::ALL {
                for addition in additions(limits) {
                    let run = Run {
                        case: *case,
                        preset,
                        sets: sets(base, addition),
                        sample: None,
                    };
                    run.config()?;
                    runs.push(run);
                }
            }
        }
    }
    Ok(runs)
}

/// One base scheduler's bars for a case on a preset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BaseRuns {
    pub base: Base,
    pub plain: Outcome,
    pub mrpb: Outcome,
    /// The limit with the highest IPC and its run, if any completed; 0 (no limit, the plain
    /// run) when no limit beats the base, and the first listed of equals.
    pub best_swl: Option<(u32, Outcome)>,
    /// IPC at each limit, in [`LIMITS`] order (`None`: did not complete).
    pub swl_ipc: Vec<(u32, Option<f64>)>,
}

/// A case on one preset under every scheduler.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseRow {
    pub case: &'static str,
    pub suite: Suite,
    pub preset: &'static str,
    pub baseline: &'static str,
    pub rr: BaseRuns,
    pub gto: BaseRuns,
}

/// Fig. 16's six bars in order: RR, GTO, RR+MRPB, GTO+MRPB, RR+SWL, GTO+SWL.
pub const BARS: [&str; 6] = ["RR", "GTO", "RR+MRPB", "GTO+MRPB", "RR+SWL", "GTO+SWL"];

impl CaseRow {
    /// The six bars' runs, in [`BARS`] order (an SWL bar missing when no limit completed).
    pub fn bars(&self) -> [Option<&Outcome>; 6] {
        fn swl(b: &BaseRuns) -> Option<&Outcome> {
            b.best_swl.as_ref().map(|(_, o)| o)
        }
        [
            Some(&self.rr.plain),
            Some(&self.gto.plain),
            Some(&self.rr.mrpb),
            Some(&self.gto.mrpb),
            swl(&self.rr),
            swl(&self.gto),
        ]
    }

    /// Each bar's IPC over RR's.
    pub fn normalised(&self) -> [Option<f64>; 6] {
        self.bars()
            .map(|bar| bar.and_then(|o| ipc_ratio(o, &self.rr.plain)))
    }
}

/// One group of Fig. 16 (a suite on a preset): each bar's geometric mean over its cases.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    pub suite: Suite,
    pub preset: &'static str,
    pub baseline: &'static str,
    pub cases: usize,
    /// In [`BARS`] order; `None` when a case's bar is missing.
    pub bars: [Option<f64>; 6],
}

impl Group {
    /// Fig. 14's pair: (RR+MRPB, RR+SWL) over RR.
    pub fn figure_14(&self) -> (Option<f64>, Option<f64>) {
        (self.bars[2], self.bars[4])
    }
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub warpstep_version: &'static str,
    pub paper: &'static str,
    pub limits: Vec<u32>,
    pub cases: Vec<CaseRow>,
    pub groups: Vec<Group>,
    /// Distinct simulations run.
    pub runs: usize,
    /// Runs that did not complete, with why.
    pub incomplete: Vec<String>,
}

/// The paper's direction for each comparison, for the report's last section (MRPB §5.5 and
/// §5.7 give no numbers for these bars).
pub const PAPER: [&str; 3] = [
    "Fig. 14: MRPB performs better than CCWS-SWL in all four scenarios' geometric means (§5.5)",
    "Fig. 16: GTO alone significantly outperforms RR (§5.7)",
    "Fig. 16: MRPB improves IPC substantially over both RR and GTO, and outperforms SWL on top of both (§5.7)",
];

impl Report {
    /// The report of `cases` at `limits` from the runs of [`plan`] and their measurements, in
    /// the same order.
    pub fn new(
        cases: &[Case],
        limits: &[u32],
        runs: &[Run],
        measured: &[Measured],
    ) -> Result<Report, String> {
        if runs.len() != measured.len() {
            return Err(format!("{} runs, {} results", runs.len(), measured.len()));
        }
        let per_base = additions(limits).len();
        let mut outcomes = measured.iter().map(Outcome::of);
        let mut rows = Vec::new();
        for case in cases {
            for (preset, baseline) in super::mrpb::PRESETS {
                let mut take = |base| {
                    let chunk: Vec<Outcome> = outcomes.by_ref().take(per_base).collect();
                    base_runs(base, limits, chunk)
                };
                let rr = take(Base::Rr).ok_or("missing runs")?;
                let gto = take(Base::Gto).ok_or("missing runs")?;
                rows.push(CaseRow {
                    case: case.name(),
                    suite: case.suite,
                    preset,
                    baseline,
                    rr,
                    gto,
                });
            }
        }
        let incomplete = super::incomplete(
            runs.iter()
                .zip(measured)
                .map(|(r, m)| (r.title(), m.error.as_ref())),
        );
        Ok(Report {
            warpstep_version: crate::VERSION,
            paper:
                "MRPB (Jia, Shaw, Martonosi, HPCA 2014), §5.5 Fig. 14's CCWS-SWL and §5.7 Fig. 16",
            limits: limits.to_vec(),
            groups: groups(&rows),
            cases: rows,
            runs: runs.len(),
            incomplete,
        })
    }
}

/// One base's runs, in [`additions`] order: plain, MRPB, then each limit.
fn base_runs(base: Base, limits: &[u32], chunk: Vec<Outcome>) -> Option<BaseRuns> {
    let mut it = chunk.into_iter();
    let plain = it.next()?;
    let mrpb = it.next()?;
    let swl: Vec<(u32, Outcome)> = limits.iter().copied().zip(it).collect();
    if swl.len() != limits.len() {
        return None;
    }
    let swl_ipc = swl
        .iter()
        .map(|(n, o)| (*n, o.completed().then_some(o.counters.ipc)))
        .collect();
    // The unlimited base is a candidate too (limit 0), as the CCWS paper's sweep runs up to
    // every warp: the best SWL is never below its base.
    let best_swl = std::iter::once((0, plain.clone()))
        .chain(swl)
        .filter(|(_, o)| o.completed())
        .reduce(|a, b| {
            if b.1.counters.ipc > a.1.counters.ipc {
                b
            } else {
                a
            }
        });
    Some(BaseRuns {
        base,
        plain,
        mrpb,
        best_swl,
        swl_ipc,
    })
}

/// Fig. 16's groups that have cases: PolyBench and Rodinia on Base-S and Base-L.
fn groups(rows: &[CaseRow]) -> Vec<Group> {
    let mut groups = Vec::new();
    for suite in [Suite::PolyBench, Suite::Rodinia] {
        for (preset, baseline) in super::mrpb::PRESETS {
            let members: Vec<&CaseRow> = rows
                .iter()
                .filter(|r| r.suite == suite && r.preset == preset)
                .collect();
            if members.is_empty() {
                continue;
            }
            let bars = std::array::from_fn(|i| {
                let ratios: Option<Vec<f64>> = members.iter().map(|r| r.normalised()[i]).collect();
                geomean(&ratios?)
            });
            groups.push(Group {
                suite,
                preset,
                baseline,
                cases: members.len(),
                bars,
            });
        }
    }
    groups
}
