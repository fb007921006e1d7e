//! The elastic pipeline experiment's kernels, plan, report and tables, with the quick transpose
//! simulated in every setup (CF'11 §5.1-5.2, Figs. 8-10).

use super::elastic::{
    plan, select, speedup, Report, Setup, Size, KERNELS, PAPER, PAPER_CORES, PRESET,
};
use super::table::{markdown, text};
use super::{measure_untimed, Machine};
use crate::config::Config;
use crate::launch::LaunchFlags;

#[test]
fn every_kernel_launches_an_entry_of_its_ptx_at_both_sizes() {
    for k in KERNELS {
        for size in [Size::Full, Size::Quick] {
            let cases = std::iter::once(k.case(size)).chain(k.padded_case(size));
            for case in cases {
                let flags = LaunchFlags::parse_tokens(case.launch.flags)
                    .unwrap_or_else(|e| panic!("{}: {e}", case.name()));
                assert_eq!(flags.kernel.as_deref(), Some(case.name()));
                let entry = format!(".entry {}(", case.name());
                assert!(case.launch.ptx.contains(&entry), "{}", case.name());
            }
        }
        assert_ne!(
            k.full.flags, k.quick.flags,
            "{}: --quick is smaller",
            k.name
        );
    }
    let padded: Vec<&str> = KERNELS
        .iter()
        .filter_map(|k| k.padded_case(Size::Full))
        .map(|c| c.name())
        .collect();
    assert_eq!(
        padded,
        [
            "transpose16_padded",
            "dct8x8_padded",
            "idct8x8_padded",
            "dct_short_padded",
            "idct_short_padded"
        ]
    );
}

#[test]
fn the_plan_runs_every_setup_and_the_padded_kernels_on_the_baseline() {
    let runs = plan(&KERNELS, Size::Full, Machine::Paper).unwrap();
    assert_eq!(runs.len(), 8 * Setup::ALL.len() + 5);
    for run in &runs {
        assert_eq!(run.preset, PRESET);
        let config = run.config().unwrap();
        assert!(config.check_supported().is_ok(), "{}", run.title());
        // Table 3: 16 cores.
        assert_eq!(config.num_sms, 16, "{}", run.title());
    }
    assert_eq!(PAPER_CORES, 16);
    // The baseline restates the preset but for the core count: Table 3's baseline GPU is
    // elastic-cf11 itself, whose one core is the ablation.
    let mut preset = Config::preset(PRESET).unwrap();
    assert_eq!(preset.num_sms, 1);
    let one_sm = plan(&KERNELS, Size::Full, Machine::OneSm).unwrap();
    assert_eq!(one_sm[0].config().unwrap(), preset, "{}", one_sm[0].title());
    preset.num_sms = 16;
    assert_eq!(runs[0].config().unwrap(), preset, "{}", runs[0].title());
    for (run, setup) in runs.iter().zip(Setup::ALL) {
        let c = run.config().unwrap();
        let elastic = matches!(setup, Setup::Elastic | Setup::ElasticScheduler);
        assert_eq!(c.elastic.enabled, elastic, "{}", run.title());
    }
    let one = select(&["transpose16".to_string()]).unwrap();
    assert_eq!(plan(&one, Size::Quick, Machine::Paper).unwrap().len(), 6);
    let bad = select(&["sgemm".to_string()]).unwrap_err();
    assert!(bad.starts_with("--kernel sgemm:"), "{bad}");
}

#[test]
fn the_quick_transpose_loses_its_bank_conflict_stalls_on_the_elastic_pipeline() {
    let kernels = select(&["transpose16".to_string()]).unwrap();
    let runs = plan(&kernels, Size::Quick, Machine::OneSm).unwrap();
    let report = Report::new(
        &kernels,
        Size::Quick,
        Machine::OneSm,
        &runs,
        &measure_untimed(&runs).unwrap(),
    )
    .unwrap();
    assert!(report.incomplete.is_empty(), "{:?}", report.incomplete);
    assert!(report.quick);
    let k = report.kernel("transpose16").unwrap();
    let base = &k.outcome(Setup::Baseline).counters;
    let enhanced = &k.outcome(Setup::ElasticScheduler).counters;

    // Fig. 8: the baseline stalls on bank conflicts; the enhanced GPU much less.
    assert!(
        k.stalls_baseline.bank_conflict > 0,
        "{:?}",
        k.stalls_baseline
    );
    assert!(
        k.stalls_elastic_scheduler.bank_conflict < k.stalls_baseline.bank_conflict,
        "{:?} against {:?}",
        k.stalls_elastic_scheduler,
        k.stalls_baseline
    );
    assert_eq!(k.stalls_baseline, base.stalls);
    assert_eq!(k.stalls_elastic_scheduler, enhanced.stalls);
    let (b, e) = (base.stalls.total() as f64, enhanced.stalls.total() as f64);
    assert_eq!(k.stall_reduction, Some(1.0 - e / b));

    // Table 4: the column reads' 8 passes and the row stores' 1 (docs/elastic-kernels.md).
    assert_eq!(k.table4.degree, Some(4.5));
    let intensity = base.shared_instructions as f64 / base.warp_instructions as f64;
    assert_eq!(k.table4.intensity, Some(intensity));
    assert_eq!(k.table4.theoretic_speedup, Some(1.0 + intensity * 3.5));
    assert_eq!(k.table4.paper_degree, 4.5);

    // Every speedup is the baseline's cycles over the setup's, and the same instructions ran.
    for setup in Setup::ALL {
        let o = k.outcome(setup);
        let ratio = base.cycles as f64 / o.counters.cycles as f64;
        assert_eq!(k.speedup(setup), Some(ratio), "{setup:?}");
        assert_eq!(o.counters.warp_instructions, base.warp_instructions);
        let scheduler = matches!(setup, Setup::Scheduler | Setup::ElasticScheduler);
        assert_eq!(o.counters.history.is_some(), scheduler, "{setup:?}");
    }
    assert_eq!(k.speedup(Setup::Baseline), Some(1.0));
    let h = k.history_elastic_scheduler.unwrap();
    assert_eq!(
        h.exact_fraction,
        Some(h.exact as f64 / (h.exact + h.under + h.over) as f64)
    );

    // Fig. 10: the padding removes every conflict, and all but a trace (under 1% of the
    // un-padded kernel's) of the `bank_conflict` stalls.
    let [hand] = report.hand_optimised.as_slice() else {
        panic!("{:?}", report.hand_optimised)
    };
    assert_eq!(hand.padded_kernel, "transpose16_padded");
    assert_eq!(hand.padded_degree, Some(1.0));
    assert_eq!(hand.padded.counters.bank_conflict_cycles, 0);
    let padded_stalls = hand.padded.counters.stalls.bank_conflict;
    assert!(
        padded_stalls * 100 < k.stalls_baseline.bank_conflict,
        "padded {padded_stalls}, un-padded {:?}",
        k.stalls_baseline
    );
    let outcome = k.outcome(Setup::Baseline);
    assert_eq!(hand.padded_speedup, speedup(&hand.padded, outcome));
    assert_eq!(
        hand.elastic_over_padded,
        Some(hand.padded.counters.cycles as f64 / enhanced.cycles as f64)
    );

    // One kernel: every mean is its value.
    let label = Setup::Elastic.label();
    let pure = report.averages.iter().find(|a| a.what == label).unwrap();
    assert_eq!(pure.arithmetic, k.speedup(Setup::Elastic));
    assert_eq!(pure.max, pure.arithmetic);
    assert_eq!(pure.paper_average, Some(PAPER.elastic_average));
    let stalls = report.averages.last().unwrap();
    assert_eq!(stalls.arithmetic, k.stall_reduction);
    assert_eq!(stalls.geometric, None);

    let md = markdown(&report);
    assert!(
        md.contains("| transpose16 (Transpose*) | CUDA SDK |"),
        "{md}"
    );
    assert!(md.contains("| 4.50 (4.50) |"), "{md}");
    assert!(md.contains("### Pipeline stalls"), "{md}");
    let txt = text(&report);
    assert!(txt.contains("transpose16"), "{txt}");
    assert!(!txt.contains('|'), "{txt}");
}
