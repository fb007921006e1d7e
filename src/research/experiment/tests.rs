//! The MRPB experiment's cases, plan, report and tables, with one tiny case simulated off, on
//! and across the design space.

use super::mrpb::{plan, select, Report, CASES, DESIGN_CASES, PRESETS, SWEEPS};
use super::table::{markdown, text};
use super::*;
use crate::bench::BenchCase;
use crate::launch::LaunchFlags;

#[test]
fn every_case_launches_a_kernel_of_its_ptx() {
    for case in CASES {
        let flags = LaunchFlags::parse_tokens(case.launch.flags)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name()));
        if let Some(kernel) = &flags.kernel {
            // nvcc writes `.entry name(`, the corpus's nvopencc `.entry name (`.
            let ptx = case.launch.ptx;
            assert!(
                ptx.contains(&format!(".entry {kernel}("))
                    || ptx.contains(&format!(".entry {kernel} (")),
                "{}",
                case.name()
            );
        }
    }
    for name in DESIGN_CASES {
        assert!(CASES.iter().any(|c| c.name() == name), "{name}");
    }
}

/// Each case's launch on the paper's 14 SMs runs the same kernel of the same PTX as its one-SM
/// share, with at least as many threads, and a chip launch names a real case.
#[test]
fn every_chip_launch_is_its_cases_kernel_grown_to_the_whole_launch() {
    use super::mrpb::on_chip;
    let threads = |flags: &LaunchFlags| {
        let [g, b] = [flags.grid, flags.block]
            .map(|d| d.map_or(1, |d| d.x as u64 * d.y as u64 * d.z as u64));
        g * b
    };
    let mut grown = 0;
    for case in CASES {
        let chip = on_chip(*case);
        let [one, whole] = [case.launch.flags, chip.launch.flags].map(|f| {
            LaunchFlags::parse_tokens(f).unwrap_or_else(|e| panic!("{}: {e}", case.name()))
        });
        assert_eq!(one.kernel, whole.kernel, "{}", case.name());
        assert_eq!(one.args.len(), whole.args.len(), "{}", case.name());
        assert!(threads(&whole) >= threads(&one), "{}", case.name());
        if threads(&whole) > threads(&one) {
            grown += 1;
        }
    }
    // atax to gesummv (7), syrk, syr2k, gemm, 2mm and 3mm (5), SRAD and SRAD/U (4), PF and PF/U.
    assert_eq!(grown, 7 + 3 + 5 + 4 + 2);
}

#[test]
fn the_plan_runs_each_distinct_configuration_once() {
    let runs = plan(CASES, Machine::OneSm, None).unwrap();
    // 45 cases x 2 presets x off/on, then 28 sweep settings on each of the 4 design cases less
    // 6 that another point already runs: Section 5's base (signature warp = drain fixed = depth
    // 256), 8 entries with flush at latency 3 (= latency 3 = drain fixed with 8 and flush),
    // bypass off (= latency 5) and bypass assoc (the final design).
    assert_eq!(runs.len(), 45 * 4 + 4 * (28 - 6));
    let settings: usize = SWEEPS.iter().map(|s| s.settings.len()).sum();
    assert_eq!(settings, 28);
    for run in &runs {
        let config = run.config().unwrap();
        assert!(config.check_supported().is_ok(), "{}", run.title());
    }
    let polybench = select(&["atax_1".to_string()]).unwrap();
    assert_eq!(
        plan(&polybench, Machine::OneSm, None).unwrap().len(),
        4 + 22
    );
    let rodinia = select(&["pathfinder".to_string()]).unwrap();
    assert_eq!(plan(&rodinia, Machine::OneSm, None).unwrap().len(), 4);
    let bad = select(&["3mm".to_string()]).unwrap_err();
    assert!(bad.starts_with("--case 3mm:"), "{bad}");
}

#[test]
fn geomean_is_the_paper_average() {
    assert_eq!(geomean(&[]), None);
    assert_eq!(geomean(&[2.0, 0.0]), None);
    let g = geomean(&[1.0, 4.0, 16.0]).unwrap();
    assert!((g - 4.0).abs() < 1e-12, "{g}");
}

/// atax_1 at n = 64 (the rows 256 bytes apart): small enough for a debug build.
const TINY_ATAX: Case = Case {
    suite: Suite::PolyBench,
    launch: BenchCase {
        name: "atax_1",
        about: "atax_1, n = 64",
        ptx: include_str!("../../../tests/data/kernels/polybench.sm_52.ptx"),
        flags: &[
            "--kernel",
            "atax_1",
            "--grid",
            "1",
            "--block",
            "256",
            "--arg",
            "f32[4096]=rand:1",
            "--arg",
            "f32[64]=rand:2",
            "--arg",
            "f32[64]=0",
            "--arg",
            "64",
        ],
    },
    check: None,
};

/// The tiny atax's per-program IPC gain (on / off - 1) on Base-S and Base-L when the band was
/// set; a loss on Base-L, whose 48 KB L1D holds this atax's 16 KB matrix, so MRPB adds only its
/// buffer latency.
const GAIN_S: f64 = 0.066658;
const GAIN_L: f64 = -0.046755;

/// On the paper's machine every run has 14 SMs and the design space stays on one SM; a run
/// sampled over half its launch stops there, counts the whole launch's instructions, and
/// estimates its cycles from the window.
#[test]
fn a_sampled_run_stops_at_its_window_and_counts_the_whole_launch() {
    // Named apart from atax_1, whose whole launch on 14 SMs would run instead (n = 2,048).
    let tiny = Case {
        launch: BenchCase {
            name: "atax_tiny",
            ..TINY_ATAX.launch
        },
        ..TINY_ATAX
    };
    assert_eq!(super::mrpb::on_chip(tiny).launch.flags, tiny.launch.flags);
    let cases = [tiny];
    let whole = plan(&cases, Machine::Paper, None).unwrap();
    assert_eq!(whole.len(), 4, "off and on on two presets, no design space");
    assert!(whole.iter().all(|r| r.sets[0] == "num_sms=14"));
    let whole_report = Report::new(
        &cases,
        Machine::Paper,
        None,
        &whole,
        &measure_untimed(&whole).unwrap(),
    )
    .unwrap();
    let off = &whole_report.cases[0].off;
    assert_eq!(off.sampled, None);
    let window = off.counters.cycles / 2;

    let sampled = plan(&cases, Machine::Paper, Some(window)).unwrap();
    let report = Report::new(
        &cases,
        Machine::Paper,
        Some(window),
        &sampled,
        &measure_untimed(&sampled).unwrap(),
    )
    .unwrap();
    assert!(report.incomplete.is_empty(), "{:?}", report.incomplete);
    let cut = &report.cases[0].off;
    assert_eq!(cut.counters.cycles, window);
    let instructions = off.counters.ipc * off.counters.cycles as f64;
    assert_eq!(cut.sampled.map(|n| n as f64), Some(instructions.round()));
    let estimate = cut.estimated_cycles() / off.counters.cycles as f64;
    assert!(
        (0.7..1.3).contains(&estimate),
        "estimate / whole {estimate}"
    );
    // The off run's cycles cell is its estimate, marked (the intro's "(~)" alone is not enough).
    let estimated = crate::correlate::table::thousands(cut.estimated_cycles().round() as u64);
    let table = markdown(&report);
    assert!(table.contains(&format!("| ~{estimated} / ")), "{table}");
}

#[test]
fn a_tiny_atax_with_mrpb_on_evicts_fewer_lines_of_the_same_warp() {
    let cases = [TINY_ATAX];
    let runs = plan(&cases, Machine::OneSm, None).unwrap();
    let report = Report::new(
        &cases,
        Machine::OneSm,
        None,
        &runs,
        &measure_untimed(&runs).unwrap(),
    )
    .unwrap();
    assert!(report.incomplete.is_empty(), "{:?}", report.incomplete);
    assert_eq!(report.runs, runs.len());

    let presets: Vec<&str> = report.cases.iter().map(|r| r.preset).collect();
    assert_eq!(presets, PRESETS.map(|(p, _)| p));
    let base_s = &report.cases[0];
    let (off, on) = (&base_s.off.counters, &base_s.on.counters);
    assert!(
        on.evictions_by.intra_warp < off.evictions_by.intra_warp,
        "intra-warp evictions: on {:?}, off {:?}",
        on.evictions_by,
        off.evictions_by
    );
    assert_eq!(off.bypassed, 0);
    assert_eq!(base_s.ipc_ratio, Some(on.ipc / off.ipc));
    for r in &report.cases {
        assert!(
            r.on.counters.evictions_by.intra_warp <= r.off.counters.evictions_by.intra_warp,
            "{}",
            r.baseline
        );
    }

    let polybench: Vec<_> = report
        .geomeans
        .iter()
        .map(|g| (g.suite, g.baseline, g.cases))
        .collect();
    assert_eq!(
        polybench,
        [
            (Suite::PolyBench, "Base-S", 1),
            (Suite::PolyBench, "Base-L", 1)
        ],
        "no Rodinia case, no Rodinia mean"
    );
    assert_eq!(report.geomeans[0].warpstep, base_s.ipc_ratio);
    assert_eq!(report.geomeans[0].paper, 2.65);

    assert_eq!(report.design_cases, ["atax_1"]);
    for (sweep, spec) in report.sweeps.iter().zip(&SWEEPS) {
        assert_eq!(sweep.points.len(), spec.settings.len(), "{}", sweep.name);
        assert!(sweep.points.iter().all(|p| p.normalised_ipc.is_some()));
    }
    let warp = report.sweeps[0].point("atax_1", "warp").unwrap();
    let fixed = report.sweeps[1].point("atax_1", "fixed").unwrap();
    assert_eq!(
        warp.outcome.counters, fixed.outcome.counters,
        "Fig. 8's warp signature and Fig. 9's fixed order are one configuration"
    );
    let assoc = report.sweeps[4].point("atax_1", "assoc").unwrap();
    assert_eq!(
        assoc.outcome.counters, base_s.on.counters,
        "bypass on associativity stalls is the final design"
    );

    let md = markdown(&report);
    assert!(md.contains("| atax_1 | PolyBench | Base-S |"), "{md}");
    assert!(md.contains("| PolyBench | Base-L | 1 (1 launch) |"), "{md}");
    // One launch of one program: per program is the launch's own ratio (to rounding).
    let g = &report.geomeans[0];
    assert_eq!(g.programs, 1);
    assert!(
        (g.per_program.unwrap() - g.warpstep.unwrap()).abs() < 1e-9,
        "{g:?}"
    );
    // The headline held to a band (issue 33; tests/experiment_headlines.rs says how to move
    // one): each baseline's per-program gain within 15% of its value when the band was set.
    for (g, centre) in report.geomeans.iter().zip([GAIN_S, GAIN_L]) {
        let gain = g.per_program.unwrap() - 1.0;
        let (low, high) = (centre - centre.abs() * 0.15, centre + centre.abs() * 0.15);
        assert!(
            (low..=high).contains(&gain),
            "{}: gain {gain:.6} outside {low:.6}..{high:.6}",
            g.baseline
        );
    }
    assert!(md.contains("paper: fixed order best"), "{md}");
    let txt = text(&report);
    assert!(txt.contains("drain (§5.2, Fig. 9)"), "{txt}");
    assert!(!txt.contains('|'), "{txt}");
}

/// The scheduler comparison (MRPB Figs. 14 and 16) on the tiny atax at SWL limits 2 and 8.
#[test]
fn the_scheduler_comparison_picks_each_bases_best_limit_and_normalises_to_rr() {
    use super::mrpb_sched::{self, Base};
    let cases = [TINY_ATAX];
    let limits = [2, 8];
    let runs = mrpb_sched::plan(&cases, &limits).unwrap();
    // 2 presets x 2 bases x (plain, MRPB, 2 limits).
    assert_eq!(runs.len(), 2 * 2 * 4);
    assert!(
        mrpb_sched::plan(&cases, &[49]).is_err(),
        "more than 48 warps"
    );
    let measured = measure_untimed(&runs).unwrap();
    let report = mrpb_sched::Report::new(&cases, &limits, &runs, &measured).unwrap();
    assert!(report.incomplete.is_empty(), "{:?}", report.incomplete);
    assert_eq!(report.cases.len(), 2);
    for row in &report.cases {
        assert_eq!((row.rr.base, row.gto.base), (Base::Rr, Base::Gto));
        assert_eq!(row.normalised()[0], Some(1.0));
        for b in [&row.rr, &row.gto] {
            // One CTA of 8 warps: a limit of 8 holds nobody back, the plain run's IPC.
            assert_eq!(b.swl_ipc[1], (8, Some(b.plain.counters.ipc)));
            // The best of the limits and no limit (0).
            let (n, best) = b.best_swl.as_ref().unwrap();
            let top = b.swl_ipc.iter().filter_map(|s| s.1).fold(0.0, f64::max);
            assert_eq!(best.counters.ipc, top.max(b.plain.counters.ipc), "{n}");
            assert!(*n == 0 || b.swl_ipc.iter().any(|s| s.0 == *n));
        }
        // n = 64: only warps 0 and 1 have rows, the other six exit at once. A limit of 2
        // lets the two oldest run, so those six wait until both are done, and the L1D sees
        // the same two warps' misses.
        let two = &measured[runs
            .iter()
            .position(|r| {
                r.preset == row.preset
                    && r.sets == mrpb_sched::sets(Base::Rr, mrpb_sched::Addition::Swl(2))
            })
            .unwrap()]
        .stats;
        assert!(two.ccws.unwrap().limited_cycles > 0);
        assert_eq!(two.l1d.misses, row.rr.plain.counters.l1d_misses);
        assert_eq!(two.l1d.evictions_by, row.rr.plain.counters.evictions_by);
    }
    assert_eq!(report.groups.len(), 2, "PolyBench on Base-S and Base-L");
    let g = &report.groups[0];
    assert_eq!((g.cases, g.bars[0]), (1, Some(1.0)));
    assert_eq!(g.bars[2], report.cases[0].normalised()[2]);
    assert_eq!(g.figure_14(), (g.bars[2], g.bars[4]));
    let md = markdown(&report);
    assert!(md.contains("| atax_1 | PolyBench | Base-S |"), "{md}");
    assert!(md.contains("MRPB performs better than CCWS-SWL"), "{md}");
    assert!(!text(&report).contains('|'));
}

/// A launch of `ptx` at the tests' sizes, checked by `check`.
pub(super) fn checked(
    ptx: &'static str,
    name: &'static str,
    check: Check,
    flags: &'static [&'static str],
) -> Case {
    Case {
        suite: Suite::PolyBench,
        launch: BenchCase {
            name,
            about: "a tiny launch checked against its host reference",
            ptx,
            flags,
        },
        check: Some(check),
    }
}

/// A launch of `polybench_multi.cu` at the tests' sizes, checked by `check`.
fn multi(name: &'static str, check: Check, flags: &'static [&'static str]) -> Case {
    let ptx = include_str!("../../../tests/data/kernels/polybench_multi.sm_52.ptx");
    checked(ptx, name, check, flags)
}

/// `cases` run untimed on Base-S, each measured (and checked against its reference).
pub(super) fn measure_on_base_s(cases: &[Case]) -> Vec<Measured> {
    let runs: Vec<Run> = cases
        .iter()
        .map(|&case| Run {
            case,
            preset: "tesla-c2050-s",
            sets: Vec::new(),
            sample: None,
        })
        .collect();
    measure_untimed(&runs).unwrap()
}

/// The error of the last run (a launch checked against another kernel's reference), after
/// asserting that every other run ran and matched its reference.
pub(super) fn only_the_last_is_wrong(cases: &[Case], measured: &[Measured]) -> String {
    for (case, m) in cases.iter().zip(measured).take(cases.len() - 1) {
        assert_eq!(m.error, None, "{}", case.name());
        assert!(m.stats.cycles > 0, "{}", case.name());
    }
    measured
        .last()
        .and_then(|m| m.error.clone())
        .unwrap_or_default()
}

fn poly(name: &'static str, check: Check, flags: &'static [&'static str]) -> Case {
    let ptx = include_str!("../../../tests/data/kernels/polybench.sm_52.ptx");
    checked(ptx, name, check, flags)
}

/// The first eight PolyBench programs' kernels at n = 64 (two blocks where the case runs one,
/// so the second block's rows are checked too), on Base-S, and one launch checked against
/// another kernel's reference, which must fail.
#[rustfmt::skip]
fn tiny_polybench() -> Vec<Case> {
    use super::mrpb_reference as r;
    macro_rules! walk {
        ($k:literal, $x:literal, $y:literal) => {
            &["--kernel", $k, "--grid", "2", "--block", "32", "--arg", "f32[4096]=rand:1",
              "--arg", $x, "--arg", $y, "--arg", "64"]
        };
    }
    vec![
        poly("atax_1", r::atax_1, walk!("atax_1", "f32[64]=rand:2", "f32[64]=rand:3")),
        poly("atax_2", r::atax_2, walk!("atax_2", "f32[64]=rand:2", "f32[64]=rand:3")),
        poly("bicg_1", r::bicg_1, walk!("bicg_1", "f32[64]=rand:2", "f32[64]=rand:3")),
        poly("bicg_2", r::bicg_2, walk!("bicg_2", "f32[64]=rand:2", "f32[64]=rand:3")),
        poly("mvt_1", r::mvt_1, walk!("mvt_1", "f32[64]=rand:2", "f32[64]=rand:3")),
        poly("mvt_2", r::mvt_2, walk!("mvt_2", "f32[64]=rand:2", "f32[64]=rand:3")),
        poly("gesummv", r::gesummv, &["--kernel", "gesummv", "--grid", "2", "--block", "32",
            "--arg", "f32[4096]=rand:1", "--arg", "f32[4096]=rand:2", "--arg", "f32[64]=rand:3",
            "--arg", "f32[64]=rand:4", "--arg", "f32[64]=rand:5", "--arg", "1.5", "--arg", "1.2",
            "--arg", "64"]),
        poly("conv2d", r::conv2d, &["--kernel", "conv2d", "--grid", "2,8", "--block", "32,8",
            "--arg", "f32[4096]=rand:1", "--arg", "f32[4096]=rand:2", "--arg", "64", "--arg", "64"]),
        poly("syrk", r::syrk, &["--kernel", "syrk", "--grid", "2,2", "--block", "32,8",
            "--arg", "1.5", "--arg", "1.2", "--arg", "f32[2048]=rand:1", "--arg", "f32[4096]=rand:2",
            "--arg", "64", "--arg", "32"]),
        poly("syr2k", r::syr2k, &["--kernel", "syr2k", "--grid", "2,2", "--block", "32,8",
            "--arg", "1.5", "--arg", "1.2", "--arg", "f32[2048]=rand:1", "--arg", "f32[2048]=rand:2",
            "--arg", "f32[4096]=rand:3", "--arg", "64", "--arg", "32"]),
        poly("gemm", r::gemm, &["--kernel", "gemm", "--grid", "2,2", "--block", "32,8",
            "--arg", "1.5", "--arg", "1.2", "--arg", "f32[2048]=rand:1", "--arg", "f32[4096]=rand:2",
            "--arg", "f32[4096]=rand:3", "--arg", "64", "--arg", "64", "--arg", "32"]),
        // mvt_1's launch checked as atax_1: it adds A y1 to x1, not A x to tmp.
        poly("mvt_1_as_atax_1", r::atax_1, walk!("mvt_1", "f32[64]=rand:2", "f32[64]=rand:3")),
    ]
}

#[test]
fn the_first_polybench_kernels_compute_what_their_host_references_do() {
    let cases = tiny_polybench();
    let measured = measure_on_base_s(&cases);
    let wrong = only_the_last_is_wrong(&cases, &measured);
    assert!(
        wrong.starts_with("wrong output: output: element 0 is"),
        "{wrong}"
    );
    for case in CASES.iter().filter(|c| c.suite == Suite::PolyBench) {
        assert!(case.check.is_some(), "{}", case.name());
    }
}

/// SRAD (the corpus's and SRAD/U) on a 64 x 32 image and hotspot (the corpus's and HS/U) on
/// 64 x 64 with a 2-step pyramid (grid 6 x 6; the 512 x 512 chip's constants), pathfinder
/// (the corpus's and PF/U) on 480 columns with an 8-row pyramid (2 blocks of 240), backprop's
/// layerforward (the corpus's and BP/U) on 64 inputs (4 blocks), on Base-S.
#[rustfmt::skip]
fn tiny_rodinia() -> Vec<Case> {
    use super::mrpb_reference as r;
    let srad = include_str!("../../../tests/data/ptx-corpus/ocelot_rodinia_srad_kernel.ptx");
    let hotspot = include_str!("../../../tests/data/ptx-corpus/dice_rodinia_hotspot.ptx");
    let unshared = include_str!("../../../tests/data/kernels/rodinia_unshared.sm_52.ptx");
    let pathfinder = include_str!("../../../tests/data/ptx-corpus/dice_rodinia_pathfinder.ptx");
    let backprop = include_str!("../../../tests/data/ptx-corpus/dice_rodinia_backprop.ptx");
    vec![
        checked(srad, "srad_1", r::srad_1, &["--kernel", "_Z11srad_cuda_1PfS_S_S_S_S_iif",
            "--grid", "4,2", "--block", "16,16", "--arg", "f32[2048]=0", "--arg", "f32[2048]=0",
            "--arg", "f32[2048]=0", "--arg", "f32[2048]=0", "--arg", "f32[2048]=rand:1:1:2.7",
            "--arg", "f32[2048]=0", "--arg", "64", "--arg", "32", "--arg", "0.082"]),
        checked(srad, "srad_2", r::srad_2, &["--kernel", "_Z11srad_cuda_2PfS_S_S_S_S_iiff",
            "--grid", "4,2", "--block", "16,16", "--arg", "f32[2048]=rand:2:-1:1",
            "--arg", "f32[2048]=rand:3:-1:1", "--arg", "f32[2048]=rand:4:-1:1",
            "--arg", "f32[2048]=rand:5:-1:1", "--arg", "f32[2048]=rand:1:1:2.7",
            "--arg", "f32[2048]=rand:6", "--arg", "64", "--arg", "32", "--arg", "0.5",
            "--arg", "0.082"]),
        checked(unshared, "srad_u_1", r::srad_1, &["--kernel", "srad_u_1",
            "--grid", "4,2", "--block", "16,16", "--arg", "f32[2048]=0", "--arg", "f32[2048]=0",
            "--arg", "f32[2048]=0", "--arg", "f32[2048]=0", "--arg", "f32[2048]=rand:1:1:2.7",
            "--arg", "f32[2048]=0", "--arg", "64", "--arg", "32", "--arg", "0.082"]),
        checked(unshared, "srad_u_2", r::srad_2, &["--kernel", "srad_u_2",
            "--grid", "4,2", "--block", "16,16", "--arg", "f32[2048]=rand:2:-1:1",
            "--arg", "f32[2048]=rand:3:-1:1", "--arg", "f32[2048]=rand:4:-1:1",
            "--arg", "f32[2048]=rand:5:-1:1", "--arg", "f32[2048]=rand:1:1:2.7",
            "--arg", "f32[2048]=rand:6", "--arg", "64", "--arg", "32", "--arg", "0.5"]),
        checked(hotspot, "hotspot", r::hotspot, &["--grid", "6,6", "--block", "16,16",
            "--arg", "2", "--arg", "f32[4096]=rand:1:0:0.001",
            "--arg", "f32[4096]=rand:2:323:333", "--arg", "f32[4096]=0", "--arg", "64",
            "--arg", "64", "--arg", "2", "--arg", "2", "--arg", "4.2724609375e-7", "--arg", "10",
            "--arg", "10", "--arg", "5120", "--arg", "1.4583333e-7", "--arg", "0.001"]),
        checked(unshared, "hotspot_u", r::hotspot, &["--kernel", "hotspot_u",
            "--grid", "6,6", "--block", "16,16",
            "--arg", "2", "--arg", "f32[4096]=rand:1:0:0.001",
            "--arg", "f32[4096]=rand:2:323:333", "--arg", "f32[4096]=0", "--arg", "64",
            "--arg", "64", "--arg", "2", "--arg", "2", "--arg", "4.2724609375e-7", "--arg", "10",
            "--arg", "10", "--arg", "5120", "--arg", "1.4583333e-7",
            "--arg", "f32[9216]=0", "--arg", "f32[9216]=0", "--arg", "f32[9216]=0"]),
        checked(pathfinder, "pathfinder", r::pathfinder, &["--grid", "2", "--block", "256",
            "--arg", "8", "--arg", "s32[3840]=rand:4:0:9", "--arg", "s32[480]=rand:5:0:9",
            "--arg", "s32[480]=0", "--arg", "480", "--arg", "9", "--arg", "0", "--arg", "8"]),
        checked(unshared, "pathfinder_u", r::pathfinder, &["--kernel", "pathfinder_u",
            "--grid", "2", "--block", "256",
            "--arg", "8", "--arg", "s32[3840]=rand:4:0:9", "--arg", "s32[480]=rand:5:0:9",
            "--arg", "s32[480]=0", "--arg", "480", "--arg", "9", "--arg", "0", "--arg", "8",
            "--arg", "s32[512]=0", "--arg", "s32[512]=0"]),
        checked(backprop, "backprop", r::layerforward, &[
            "--kernel", "_Z22bpnn_layerforward_CUDAPfS_S_S_ii", "--grid", "1,4", "--block", "16,16",
            "--arg", "f32[65]=rand:1", "--arg", "f32[17]=0", "--arg", "f32[1105]=rand:2",
            "--arg", "f32[64]=0", "--arg", "64", "--arg", "16"]),
        checked(unshared, "backprop_u", r::layerforward, &[
            "--kernel", "backprop_u", "--grid", "1,4", "--block", "16,16",
            "--arg", "f32[65]=rand:1", "--arg", "f32[17]=0", "--arg", "f32[1105]=rand:2",
            "--arg", "f32[64]=0", "--arg", "64", "--arg", "16",
            "--arg", "f32[64]=0", "--arg", "f32[1024]=0"]),
    ]
}

#[test]
fn srad_hotspot_pathfinder_backprop_and_their_unshared_versions_compute_what_their_host_references_do(
) {
    let cases = tiny_rodinia();
    for (case, m) in cases.iter().zip(measure_on_base_s(&cases)) {
        assert_eq!(m.error, None, "{}", case.name());
        assert!(m.stats.cycles > 0, "{}", case.name());
    }
}

/// 2mm, 3mm, 3dconv and fdtd's kernels at n = 64 (3dconv 3 x 64 x 64), a part of each grid
/// (the references check that the rest keeps its initial values), on Base-S.
#[rustfmt::skip]
fn tiny_multi() -> Vec<Case> {
    use super::mrpb_reference as r;
    vec![
        multi("2mm_1", r::mm2_1, &["--kernel", "mm2_1", "--grid", "2,2", "--block", "32,8",
            "--arg", "1.5", "--arg", "f32[4096]=rand:1", "--arg", "f32[4096]=rand:2",
            "--arg", "f32[4096]=0", "--arg", "64", "--arg", "64", "--arg", "64"]),
        multi("2mm_2", r::mm2_2, &["--kernel", "mm2_2", "--grid", "2,2", "--block", "32,8",
            "--arg", "1.2", "--arg", "f32[4096]=rand:3", "--arg", "f32[4096]=rand:4",
            "--arg", "f32[4096]=rand:5", "--arg", "64", "--arg", "64", "--arg", "64"]),
        multi("3mm_1", r::mm3, &["--kernel", "mm3", "--grid", "1,3", "--block", "32,8",
            "--arg", "f32[4096]=rand:1", "--arg", "f32[4096]=rand:2",
            "--arg", "f32[4096]=rand:3", "--arg", "64", "--arg", "64", "--arg", "64"]),
        multi("conv3d", r::conv3d, &["--kernel", "conv3d", "--grid", "2,8", "--block", "32,8",
            "--arg", "f32[12288]=rand:1", "--arg", "f32[12288]=rand:2",
            "--arg", "3", "--arg", "64", "--arg", "64", "--arg", "1"]),
        multi("fdtd_1", r::fdtd_1, &["--kernel", "fdtd_1", "--grid", "2,8", "--block", "32,8",
            "--arg", "f32[10]=rand:1", "--arg", "f32[4160]=rand:2", "--arg", "f32[4160]=rand:3",
            "--arg", "f32[4096]=rand:4", "--arg", "64", "--arg", "64", "--arg", "3"]),
        multi("fdtd_2", r::fdtd_2, &["--kernel", "fdtd_2", "--grid", "2,4", "--block", "32,8",
            "--arg", "f32[4160]=rand:2", "--arg", "f32[4160]=rand:3",
            "--arg", "f32[4096]=rand:4", "--arg", "64", "--arg", "64"]),
        multi("fdtd_3", r::fdtd_3, &["--kernel", "fdtd_3", "--grid", "2,8", "--block", "32,8",
            "--arg", "f32[4160]=rand:2", "--arg", "f32[4160]=rand:3",
            "--arg", "f32[4096]=rand:4", "--arg", "64", "--arg", "64"]),
        // fdtd_2's launch checked as fdtd_3: hz is left as it was, so the check must fail.
        multi("fdtd_2_as_3", r::fdtd_3, &["--kernel", "fdtd_2", "--grid", "2,8", "--block", "32,8",
            "--arg", "f32[4160]=rand:2", "--arg", "f32[4160]=rand:3",
            "--arg", "f32[4096]=rand:4", "--arg", "64", "--arg", "64"]),
    ]
}

#[test]
fn the_multi_launch_programs_compute_what_their_host_references_do() {
    let cases = tiny_multi();
    let measured = measure_on_base_s(&cases);
    let wrong = only_the_last_is_wrong(&cases, &measured);
    assert!(
        wrong.starts_with("wrong output: hz: element 0 is"),
        "{wrong}"
    );
    // Every full-size case of these programs carries its reference.
    for name in [
        "2mm_1", "2mm_2", "3mm_1", "3mm_2", "3mm_3", "conv3d", "fdtd_1", "fdtd_2", "fdtd_3",
    ] {
        let case = CASES.iter().find(|c| c.name() == name).unwrap();
        assert!(case.check.is_some(), "{name}");
        assert_eq!(
            super::mrpb::program_of(name),
            name.split('_').next().unwrap()
        );
    }
}

#[test]
fn on_two_threads_keeps_the_items_order() {
    for n in 0..6u32 {
        let items: Vec<u32> = (0..n).collect();
        let out = super::on_two_threads(&items, |x| x * 10);
        assert_eq!(
            out,
            items.iter().map(|x| x * 10).collect::<Vec<_>>(),
            "{n} items"
        );
    }
}
