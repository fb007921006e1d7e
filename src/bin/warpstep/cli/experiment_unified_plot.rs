//! `warpstep experiment unified --plot FILE.svg`: one SVG drawn by `experiment_chart.rs`, in
//! the MRPB plot's style. On top, each program's performance at the three unified capacities
//! with the register file hierarchy (over the partitioned design with it, as the paper's
//! designs both have it, §2.1), at 384 KB without it (over the partitioned design without it),
//! beside Table 6's 384 KB figure (MICRO'12 §6.2-6.4); below, left, energy over the partitioned
//! design (lower is better), with Table 6's 384 KB figure; right, DRAM traffic over the
//! partitioned design (Fig. 9's third bar). All on log axes around 1. The Fermi-like design and
//! the no-arbitration ablation are in the report's tables.

use super::experiment_chart::{draw_bars, page, palette, LogAxis, Panel, PAPER_GREY};
use std::ops::Range;
use warpstep::experiment::unified::{
    Design, DesignResult, PaperRow, Report, Workload, WorkloadReport,
};

const SIZE: (u32, u32) = (1500, 860);
const TOP_HEIGHT: u32 = 430;
const DESIGNS: [Design; 4] = [
    Design::Unified128Hierarchy,
    Design::Unified256Hierarchy,
    Design::Unified384Hierarchy,
    Design::Unified384,
];

/// Writes the charts of `report` to `path`.
pub fn write_svg(report: &Report, path: &str) -> Result<(), String> {
    page(path, SIZE, TOP_HEIGHT, |top, bottom| {
        let performance = panel(
            report,
            "Performance over partitioned 256/64/64 KB (Table 6; higher is better)",
            |r| r.performance,
            Some(|p: &PaperRow| p.performance[2]),
        );
        draw_bars(top, &performance, y_range(&performance))?;
        let (left, right) = bottom.split_horizontally(SIZE.0 / 2);
        let energy = panel(
            report,
            "Energy over partitioned (lower is better)",
            |r| r.energy_ratio,
            Some(|p: &PaperRow| p.energy[2]),
        );
        draw_bars(&left, &energy, y_range(&energy))?;
        let dram = panel(
            report,
            "DRAM traffic over partitioned",
            |r| r.dram_ratio,
            None,
        );
        draw_bars(&right, &dram, y_range(&dram))
    })
}

/// The programs in plot order: `cache_gather`, whose bars are the tallest, first, away from
/// the legend in the upper right.
fn plotted(report: &Report) -> Vec<&WorkloadReport> {
    let (gather, rest): (Vec<&WorkloadReport>, Vec<&WorkloadReport>) = report
        .workloads
        .iter()
        .partition(|w| w.workload == Workload::CacheGather);
    gather.into_iter().chain(rest).collect()
}

/// One bar per design per program, `value` of each, and the paper's 384 KB figure in grey.
fn panel(
    report: &Report,
    title: &str,
    value: fn(&DesignResult) -> f64,
    paper: Option<fn(&PaperRow) -> f64>,
) -> Panel {
    let mut series = palette(DESIGNS.iter().map(|d| d.label().to_string()), 1);
    let mut values: Vec<Vec<Option<f64>>> = DESIGNS
        .iter()
        .map(|&d| {
            plotted(report)
                .iter()
                .map(|w| w.result(d).map(value).filter(|v| *v > 0.0))
                .collect()
        })
        .collect();
    if let Some(paper) = paper {
        series.push(("paper, 384 KB".to_string(), PAPER_GREY));
        values.push(
            plotted(report)
                .iter()
                .map(|w| w.paper.as_ref().map(paper))
                .collect(),
        );
    }
    Panel {
        title: title.to_string(),
        groups: plotted(report)
            .iter()
            .map(|w| w.workload.name().to_string())
            .collect(),
        series,
        values,
    }
}

/// The axes stop at ×4 and ×0.25 (cache_gather's ×7.6 and ×0.01 run off them, their values
/// written at the edge) so that the other programs' bars stay readable.
const CLIP: Range<f64> = 0.25..4.0;

/// A log range holding 1 and every value within [`CLIP`], with room above for the labels and
/// the legend.
fn y_range(panel: &Panel) -> Range<f64> {
    LogAxis {
        below: 1.15,
        floor: 0.9,
        above: 2.4,
        ceiling: 1.6,
        clip: Some(CLIP),
    }
    .range(&panel.values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpstep::experiment::host::Totals;
    use warpstep::experiment::unified::{plan, Measured, Size};

    #[test]
    fn each_bar_is_its_programs_and_cache_gather_comes_first() {
        let runs = plan(&Workload::ALL, Size::Quick);
        let measured: Vec<Measured> = runs
            .iter()
            .map(|_| Measured {
                totals: Totals {
                    cycles: 100,
                    ..Totals::default()
                },
                config: None,
                error: None,
                wall_seconds: 0.0,
            })
            .collect();
        let report = Report::new(&Workload::ALL, Size::Quick, &runs, &measured).unwrap();
        let p = panel(&report, "t", |r| r.performance, Some(|p| p.performance[2]));
        assert_eq!(p.groups[0], "cache_gather");
        let paper = p.values.last().unwrap();
        for (group, value) in p.groups.iter().zip(paper) {
            let workload = Workload::ALL.iter().find(|w| w.name() == group).unwrap();
            assert_eq!(
                *value,
                workload.paper().map(|r| r.performance[2]),
                "{group}"
            );
        }
        assert_eq!(paper[0], None);
    }
}
