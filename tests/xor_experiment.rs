//! `warpstep experiment xor` (the XOR bank-hashing paper, IEEE TC §6-7.1) on its quick plan:
//! every kernel trained on its training trace, run with every function, its output checked
//! against the host reference, and the methods ranked by the conflicts they remove as Table 6
//! ranks them. The numbers are the simulator's; nothing here is a recorded result.

use warpstep::experiment::xor::{plan, select, Measured, Report, Scheme, KERNELS};
use warpstep::experiment::{on_two_threads, Machine, Size};

fn quick_report() -> Report {
    let kernels = select(&[]).unwrap();
    let (trainings, runs) = plan(&kernels, Size::Quick, Machine::Paper).unwrap();
    assert_eq!(runs.len(), KERNELS.len() * Scheme::ALL.len());
    // The runs are independent: two threads share them out (this test is the longest of the
    // suite).
    let measured: Vec<Measured> = on_two_threads(&runs, |r| r.execute());
    Report::new(&trainings, Size::Quick, &runs, &measured).unwrap()
}

#[test]
fn quick_plan_checks_every_output_and_ranks_the_methods_as_table_6() {
    let report = quick_report();
    // Every run completed and computed what the host computes (XorRun::execute's check).
    assert_eq!(report.incomplete, Vec::<String>::new());
    assert_eq!(report.checked, report.runs);

    // Every function the searches chose reaches all 32 banks (the rank guard).
    for k in &report.kernels {
        for t in &k.training.schemes {
            let rank = t.hash.compile(32).unwrap().rank();
            assert_eq!(rank, 5, "{}: {}", k.kernel, t.hash);
        }
        // mod itself has conflicts on every one of these kernels (they are chosen for it).
        let base = k.result(Scheme::Mod).unwrap();
        assert!(base.counters.bank_conflict_cycles > 0, "{}", k.kernel);
        // §7.1: apart from the data-dependent histograms (and our AES lookups, of their kind),
        // the configurable XOR functions remove every conflict, as the trained function carries
        // over to the run. NW's wavefront keeps a few (its trained functions leave 21-48
        // conflict cycles of the training trace's 2,940-3,360, docs/xor.md). The FFTs keep more:
        // one function serves every stage, and each stage gives a warp another pattern of complex
        // indices (a butterfly's span h shifts the lanes' bits past bit log2 h), beside the
        // word-by-word copies in and out. FFT-2's (Stockham) trained functions drop word bit 0
        // (k1 = 1, as Table 5's FFT-2 row), which makes the complex reads and writes conflict-free
        // and the copies 2-way: 128 conflict cycles of the trace's 1,792 are exactly those
        // copies' (64 warp accesses each way). FFT-1's bit-reversed scatter puts the lanes'
        // indices in word bits 6-10, which no function keeping the stages' stride-2 reads
        // conflict-free also spreads: its best bit-vector function (the fixed XOR's, k1 = 0 k2 =
        // 5 mask = 31) leaves 576 of the trace's 4,288, bitwise XOR by MIH 1,024. MRI-grid's
        // split sort is partly data-dependent: after its first split a key's flag goes to the
        // place the previous split gave it; the scan's strides are removed, 788 conflict cycles
        // of the trace's 11,124 stay (its digit histogram's shared atomics on one word replay,
        // which the count leaves out, as GPGPU-Sim merges them).
        let data_dependent = k.kernel.starts_with("aes") || k.kernel.starts_with("hist");
        if !data_dependent {
            for s in [Scheme::BvXor, Scheme::BwXorMih] {
                let removed = k.result(s).unwrap().removed.unwrap();
                let floor = match k.kernel {
                    "nw_1" | "nw_2" => 0.98,
                    "fft_stockham" => 0.9,
                    "fft_radix2" => 0.75,
                    "split_sort" => 0.85,
                    _ => 1.0,
                };
                assert!(removed >= floor, "{} {s:?}: {removed}", k.kernel);
            }
        }
    }

    let removed = |s: Scheme| report.average(s).unwrap().removed.unwrap();
    let speedup = |s: Scheme| report.average(s).unwrap().speedup.unwrap();
    // Table 6: the XOR functions configured on the trace remove most (bitwise XOR by MIH and
    // bit-vector XOR by the exhaustive search, 97% and 96%); the bitwise permutations remove
    // the fewest (49%, 47%); the configurable bit-vector XOR beats the fixed one (96% > 86%),
    // MIH beats GH for the bitwise XOR (97% > 88%).
    let top = report.ranking[0];
    assert!(
        top == Scheme::BwXorMih || top == Scheme::BvXor,
        "ranking {:?}",
        report.ranking
    );
    for xor in [Scheme::BvXor, Scheme::BwXorMih] {
        for perm in [Scheme::BwPermGh, Scheme::BwPermMih] {
            assert!(removed(xor) > removed(perm), "{xor:?} vs {perm:?}");
        }
    }
    assert!(removed(Scheme::BvXor) > removed(Scheme::FixedXor));
    assert!(removed(Scheme::BwXorMih) >= removed(Scheme::BwXorGh));
    // Fig. 9: the functions that remove most conflicts are the fastest, and all of them speed up.
    assert!(speedup(Scheme::BvXor) > 1.0 && speedup(Scheme::BwXorMih) > 1.0);
    assert!(speedup(Scheme::BvXor) > speedup(Scheme::BwPermMih));

    // The headline held to a band (issue 33: drift fails a test; tests/experiment_headlines.rs
    // says how to move one): within 15% of the values at the quick sizes when it was set, the
    // conflicts removed and the speedup's gain over mod, on the paper's 15 SMs (the quick
    // grids' few blocks leave most SMs idle, so the gains are about a third of one SM's).
    let band = |what: &str, value: f64, centre: f64| {
        let (low, high) = (centre - centre.abs() * 0.15, centre + centre.abs() * 0.15);
        assert!(
            (low..=high).contains(&value),
            "{what}: {value:.6} is outside {low:.6}..{high:.6} around {centre:.6}"
        );
    };
    // Re-centred when lavaMD became Rodinia's double precision, Parboil's scan_inter1/2
    // (MRI-grid-2/3) joined and an atomic's same-word replays left the conflict count (as
    // GPGPU-Sim counts them): the quick plan run, its averages printed (`--quick --json`) and set
    // here. The scans' conflicts are few in their cycles (gains 1.005-1.016) and every XOR
    // function clears them, so the removed averages rise a little (bwxor MIH's from 0.955 to
    // 0.960) and the gains fall (from 0.071 to 0.065); before, they were centred when LUD-2,
    // lavaMD, the FFTs and split_sort joined, and when the histograms began to read photographs
    // (`image:SEED:WIDTH`), whose conflicts under mod dominate the others', as §7.1's real
    // images do.
    band("bvxor removed", removed(Scheme::BvXor), 0.958111);
    band("bwxor MIH removed", removed(Scheme::BwXorMih), 0.960135);
    band("fixed removed", removed(Scheme::FixedXor), 0.908653);
    band("bvxor gain", speedup(Scheme::BvXor) - 1.0, 0.068122);
    band("bwxor MIH gain", speedup(Scheme::BwXorMih) - 1.0, 0.065495);
    band("fixed gain", speedup(Scheme::FixedXor) - 1.0, 0.065657);

    // The averages are Table 6's: over the kernels of Table 5's kinds only (AES is not one),
    // with every kernel's beside them.
    let beyond: Vec<&str> = report
        .kernels
        .iter()
        .filter(|k| !k.table5)
        .map(|k| k.kernel)
        .collect();
    assert_eq!(beyond, ["aes_encrypt", "aes_decrypt"]);
    for s in [Scheme::BvXor, Scheme::BwXorGh] {
        let mean = |all: bool| {
            let v: Vec<f64> = report
                .kernels
                .iter()
                .filter(|k| all || k.table5)
                .filter_map(|k| k.result(s).unwrap().removed)
                .collect();
            v.iter().sum::<f64>() / v.len() as f64
        };
        let a = report.average(s).unwrap();
        assert!((a.removed.unwrap() - mean(false)).abs() < 1e-12, "{s:?}");
        assert!((a.removed_all.unwrap() - mean(true)).abs() < 1e-12, "{s:?}");
    }
    // GH's bitwise XOR adds conflicts to AES (about 70% more), so it is lower with AES in.
    let gh = report.average(Scheme::BwXorGh).unwrap();
    assert!(gh.removed_all.unwrap() < gh.removed.unwrap() - 0.1);
}

#[test]
fn the_reference_checks_catch_a_wrong_output() {
    // A run of one kernel checked against another's reference must fail: the checks compare
    // values, they do not just look at the run's status.
    let kernels = select(&["fwt1024".to_string(), "scan512".to_string()]).unwrap();
    let (_, runs) = plan(&kernels, Size::Quick, Machine::OneSm).unwrap();
    let mut fwt_as_scan = runs[0].clone();
    assert_eq!(fwt_as_scan.kernel.name, "fwt1024");
    let m = fwt_as_scan.execute();
    assert_eq!(m.error, None);
    fwt_as_scan.kernel.check = kernels[1].check;
    let err = fwt_as_scan.execute().error.unwrap();
    assert!(err.starts_with("wrong output: scan"), "{err}");
}
