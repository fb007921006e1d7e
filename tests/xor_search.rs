//! Golden tests for the hash-function searches of XOR section 5 (van den Braak et al., IEEE TC
//! 2016), named after the figure, table or section each value comes from.

use warpstep::mem::bank_search::{
    bitwise_candidates, conflict_cost, exhaustive_bvxor, givargis, independent, min_imbalance,
    search, AccessSet, Family, Method, SearchError, SearchSpace, SearchStep,
};
use warpstep::mem::{BankHash, XorTerm};

fn stride(s: u64) -> AccessSet {
    AccessSet::from_stride(0, s, 32).unwrap()
}

fn fermi() -> SearchSpace {
    SearchSpace {
        banks: 32,
        addr_bits: 14,
    }
}

fn bits(hash: &BankHash) -> Vec<u32> {
    match hash {
        BankHash::BwPerm(b) => b.clone(),
        other => panic!("expected bwperm, got {other}"),
    }
}

fn transpose16_load() -> AccessSet {
    // XOR section 3.2.1, TILE_DIM = 16, warp 0, i = 0: lane = 16 ty + tx reads 16 ty + tx.
    AccessSet::from_words(
        (0..2)
            .flat_map(|ty| (0..16).map(move |tx| 16 * ty + tx))
            .collect(),
    )
    .unwrap()
}

fn transpose16_store() -> AccessSet {
    // XOR section 3.2.2: lane = 16 ty + tx reads tx * 16 + ty.
    AccessSet::from_words(
        (0..2)
            .flat_map(|ty| (0..16).map(move |tx| 16 * tx + ty))
            .collect(),
    )
    .unwrap()
}

// ---- Fig. 6: the Minimum Imbalance Heuristic example -----------------------------------------

fn fig6() -> (Vec<AccessSet>, SearchSpace) {
    let set = AccessSet::from_words(vec![27, 12, 6, 19, 11, 4, 28, 3]).unwrap();
    (
        vec![set],
        SearchSpace {
            banks: 8,
            addr_bits: 5,
        },
    )
}

/// (term, histogram, imbalance) of every candidate at one step.
fn mih_step(step: &SearchStep) -> (Vec<(XorTerm, Vec<u32>, f64)>, XorTerm) {
    let SearchStep::Imbalance(s) = step else {
        panic!("not an MIH step: {step:?}")
    };
    let rows = s
        .candidates
        .iter()
        .map(|c| (c.term, c.histograms[0].clone(), c.imbalances[0]))
        .collect();
    (rows, s.chosen)
}

#[test]
fn fig6_mih_picks_a0_a3_a4() {
    let (sets, space) = fig6();
    let r = min_imbalance(&sets, space, Family::BwPerm).unwrap();
    assert_eq!(r.hash.to_string(), "bwperm:0,3,4");
    assert_eq!(r.candidates, 5);
    assert_eq!(r.steps.len(), 3);
}

#[test]
fn fig6a_first_step_histograms_and_imbalances() {
    let (sets, space) = fig6();
    let r = min_imbalance(&sets, space, Family::BwPerm).unwrap();
    let (rows, chosen) = mih_step(&r.steps[0]);
    let b = XorTerm::Bit;
    // Fig. 6(a): h0..h4 and I0..I4, b0 = argmin = 0 (A0, A2, A3 tie at 0: the lowest wins).
    assert_eq!(
        rows,
        vec![
            (b(0), vec![4, 4], 0.0),
            (b(1), vec![3, 5], 0.25),
            (b(2), vec![4, 4], 0.0),
            (b(3), vec![4, 4], 0.0),
            (b(4), vec![5, 3], 0.25),
        ]
    );
    assert_eq!(chosen, b(0));
}

#[test]
fn fig6b_second_step_histograms_and_imbalances() {
    let (sets, space) = fig6();
    let r = min_imbalance(&sets, space, Family::BwPerm).unwrap();
    let (rows, chosen) = mih_step(&r.steps[1]);
    let b = XorTerm::Bit;
    // Fig. 6(b): bins indexed (A_i, b0); b1 = argmin = 3.
    assert_eq!(
        rows,
        vec![
            (b(1), vec![3, 0, 1, 4], 0.75),
            (b(2), vec![0, 4, 4, 0], 1.0),
            (b(3), vec![2, 2, 2, 2], 0.0),
            (b(4), vec![3, 2, 1, 2], 0.25),
        ]
    );
    assert_eq!(chosen, b(3));
}

#[test]
fn fig6c_third_step_histograms_and_imbalances() {
    let (sets, space) = fig6();
    let r = min_imbalance(&sets, space, Family::BwPerm).unwrap();
    let (rows, chosen) = mih_step(&r.steps[2]);
    let b = XorTerm::Bit;
    // Fig. 6(c): bins indexed (A_i, b1 = A3, b0 = A0); b2 = argmin = 4.
    // The figure's text prints h2 = (0,2,0,2,2,2,0,0). Computed by hand from Eq. 14's definition:
    // 27 -> (A2,A3,A0) = (0,1,1) = 3, 12 -> (1,1,0) = 6, 6 -> (1,0,0) = 4, 19 -> (0,0,1) = 1,
    // 11 -> (0,1,1) = 3, 4 -> (1,0,0) = 4, 28 -> (1,1,0) = 6, 3 -> (0,0,1) = 1, so
    // h2 = (0,2,0,2,2,0,2,0): bins 5 and 6 are swapped in the printed figure. I2 = 1 either way.
    assert_eq!(
        rows,
        vec![
            (b(1), vec![1, 0, 2, 0, 1, 2, 0, 2], 0.75),
            (b(2), vec![0, 2, 0, 2, 2, 0, 2, 0], 1.0),
            (b(4), vec![2, 1, 1, 1, 0, 1, 1, 1], 0.25),
        ]
    );
    assert_eq!(chosen, b(4));
}

#[test]
fn fig6_result_spreads_the_eight_references_over_eight_banks() {
    let (sets, space) = fig6();
    let r = min_imbalance(&sets, space, Family::BwPerm).unwrap();
    // Bank bits (A4, A3, A0): 27->7 12->2 6->0 19->5 11->3 4->0 28->6 3->1: bank 0 twice.
    assert_eq!(r.cost_after, 1);
    // Under mod 8: 27->3 12->4 6->6 19->3 11->3 4->4 28->4 3->3: bank 3 four times.
    assert_eq!(r.cost_before, 3);
}

// ---- Section 5.2.1: the Givargis heuristic examples ------------------------------------------

#[test]
fn section521_givargis_strides_8_and_45_give_a3_a4_a5_a6_a7() {
    let r = givargis(&[stride(8), stride(45)], fermi(), Family::BwPerm).unwrap();
    assert_eq!(bits(&r.hash), vec![3, 4, 5, 6, 7]);
    assert_eq!(r.hash.to_string(), "bwperm:3,4,5,6,7");
    assert_eq!(r.candidates, 14);
    // Under mod: stride 8 is 8-way (7 extra cycles), stride 45 is odd (conflict-free).
    assert_eq!(r.cost_before, 7);
    // Computed (the paper gives no cost): stride 45 keeps one 2-way conflict under bits 3..7.
    assert_eq!(r.cost_after, 1);
}

#[test]
fn section521_givargis_strides_8_and_13_give_a3_a4_a6_a5_a7() {
    let r = givargis(&[stride(8), stride(13)], fermi(), Family::BwPerm).unwrap();
    assert_eq!(bits(&r.hash), vec![3, 4, 6, 5, 7]);
}

#[test]
fn section521_givargis_records_q_and_c() {
    let r = givargis(&[stride(8), stride(45)], fermi(), Family::BwPerm).unwrap();
    let SearchStep::Givargis(first) = &r.steps[0] else {
        panic!()
    };
    // Step 0: all 14 candidates; stride 8 has Q = 1 on A3..A7 (16 zeros, 16 ones) and 0 elsewhere.
    assert_eq!(first.quality.len(), 14);
    assert_eq!(first.quality[3].per_set[0], 1.0);
    assert_eq!(first.quality[0].per_set[0], 0.0);
    assert_eq!(first.quality[8].per_set[0], 0.0);
    // Stride 45: A0 is 1 on odd lanes -> Z = O = 16 -> Q = 1.
    assert_eq!(first.quality[0].per_set[1], 1.0);
    assert_eq!(first.chosen, XorTerm::Bit(3));
    // C of A3 with itself is 0 (always identical): a chosen bit's quality drops to 0.
    assert_eq!(first.correlation[3].per_set, vec![0.0, 0.0]);
    let SearchStep::Givargis(second) = &r.steps[1] else {
        panic!()
    };
    assert_eq!(second.quality.len(), 13);
    assert!(second.quality.iter().all(|q| q.term != XorTerm::Bit(3)));
}

// ---- Section 5.1: the exhaustive bit-vector XOR search ---------------------------------------

#[test]
fn section51_exhaustive_strides_4_and_6_evaluate_188_candidates() {
    let r = exhaustive_bvxor(&[stride(4), stride(6)], fermi()).unwrap();
    assert_eq!(r.candidates, 188);
    let evaluated = r
        .steps
        .iter()
        .filter(|s| matches!(s, SearchStep::Candidate { .. }))
        .count();
    assert_eq!(evaluated, 188);
    // k1 in {1, 2}; k2 in [1, 7] without k1; masks only over bits reaching MSB 7.
    for s in &r.steps {
        let SearchStep::Candidate { k1, k2, mask, .. } = *s else {
            panic!()
        };
        assert!(k1 == 1 || k1 == 2);
        assert!((1..=7).contains(&k2) && k2 != k1);
        assert!(mask < 1 << (5.min(7 - k2 + 1)));
    }
    // Stride 4 is 4-way and stride 6 2-way under mod (3 + 1 extra cycles). No bvxor function
    // makes both conflict-free: the best leaves one 2-way conflict (computed; the paper gives no
    // cost), the same optimum as the whole unpruned space of Table 1 (next test).
    assert_eq!(r.cost_before, 3 + 1);
    assert_eq!(r.cost_after, 1);
}

#[test]
fn table1_pruning_keeps_the_optimum_of_all_4480_bvxor_functions() {
    // Table 1 / section 5.1: n = 14, m = 5 gives 10 x 14 x 32 = 4,480 bvxor functions.
    let sets = [stride(4), stride(6)];
    let mut all = 0;
    let mut best = u64::MAX;
    for k1 in 0..10 {
        for k2 in 0..14 {
            for mask in 0..32 {
                let f = BankHash::BvXor { k1, k2, mask }.compile(32).unwrap();
                best = best.min(conflict_cost(&sets, &f));
                all += 1;
            }
        }
    }
    assert_eq!(all, 4480);
    assert_eq!(best, exhaustive_bvxor(&sets, fermi()).unwrap().cost_after);
}

#[test]
fn section51_exhaustive_same_k_selects_k1_k_mask_0() {
    let r = exhaustive_bvxor(&[stride(8), stride(24)], fermi()).unwrap();
    assert_eq!(r.hash.to_string(), "bvxor:3,0,0");
    assert_eq!(r.candidates, 1);
    assert_eq!(r.cost_after, 0);
}

#[test]
fn table5_transpose_exhaustive_finds_k1_0_k2_4_mask_14() {
    let sets = [transpose16_load(), transpose16_store()];
    let r = exhaustive_bvxor(&sets, fermi()).unwrap();
    assert_eq!(r.hash.to_string(), "bvxor:0,4,14");
    assert_eq!(r.cost_before, 7); // store 8-way, load conflict-free
    assert_eq!(r.cost_after, 0);
}

// ---- Table 5: the transpose row reproduced by the heuristics ---------------------------------

#[test]
fn table5_transpose_bitwise_permutation_gh_and_mih() {
    let sets = [transpose16_load(), transpose16_store()];
    let gh = givargis(&sets, fermi(), Family::BwPerm).unwrap();
    assert_eq!(gh.hash.to_string(), "bwperm:0,4,1,2,3"); // Table 5: (0) (4) (1) (2) (3)
    let mih = min_imbalance(&sets, fermi(), Family::BwPerm).unwrap();
    assert_eq!(mih.hash.to_string(), "bwperm:0,4,1,2,3"); // Table 5: (0) (4) (1) (2) (3)
}

#[test]
fn table5_transpose_bitwise_xor_gh() {
    let sets = [transpose16_load(), transpose16_store()];
    let gh = givargis(&sets, fermi(), Family::BwXor).unwrap();
    // Table 5: (0) (0^4) (1^4) (1^5) (2^6)
    assert_eq!(gh.hash.to_string(), "bwxor:0,0^4,1^4,1^5,2^6");
    assert_eq!(gh.candidates, 14 * 15 / 2);
}

#[test]
fn table5_transpose_bitwise_xor_mih() {
    let sets = [transpose16_load(), transpose16_store()];
    let mih = min_imbalance(&sets, fermi(), Family::BwXor).unwrap();
    // Table 5 prints (0) (4) (1^5) (2^6) (3^7). At step 1, (4) and (0^4) tie at imbalance 0 in
    // both sets; Table 3 order puts 0^4 first and ties keep the earlier candidate, so warpstep
    // picks 0^4. Both configurations are conflict-free for the load and the store.
    assert_eq!(mih.hash.to_string(), "bwxor:0,0^4,1^5,2^6,3^7");
    assert_eq!(mih.cost_after, 0);
    let SearchStep::Imbalance(step1) = &mih.steps[1] else {
        panic!()
    };
    let total = |t: XorTerm| step1.candidates.iter().find(|c| c.term == t).unwrap().total;
    assert_eq!(total(XorTerm::Pair(0, 4)), 0.0);
    assert_eq!(total(XorTerm::Bit(4)), 0.0);
    let paper: BankHash = "bwxor:0,4,1^5,2^6,3^7".parse().unwrap();
    assert_eq!(conflict_cost(&sets, &paper.compile(32).unwrap()), 0);
}

// ---- Candidates, errors, determinism, properties ---------------------------------------------

#[test]
fn table3_candidate_order() {
    let c = bitwise_candidates(Family::BwXor, 4);
    let names: Vec<String> = c.iter().map(|t| t.to_string()).collect();
    assert_eq!(
        names,
        ["0", "0^1", "0^2", "0^3", "1", "1^2", "1^3", "2", "2^3", "3"]
    );
    assert_eq!(bitwise_candidates(Family::BwXor, 14).len(), 105);
}

#[test]
fn unsupported_pairs_and_bad_input_are_errors() {
    let sets = [stride(8)];
    assert!(matches!(
        search(Method::Exhaustive, Family::BwPerm, &sets, fermi()),
        Err(SearchError::Unsupported { .. })
    ));
    assert!(matches!(
        search(Method::Givargis, Family::BvXor, &sets, fermi()),
        Err(SearchError::Unsupported { .. })
    ));
    assert_eq!(
        search(Method::Givargis, Family::BwPerm, &[], fermi()).unwrap_err(),
        SearchError::NoSets
    );
    let wide = AccessSet::from_stride(0, 1000, 32).unwrap();
    assert!(matches!(
        givargis(&[wide], fermi(), Family::BwPerm),
        Err(SearchError::AddressTooWide { .. })
    ));
    let same = AccessSet::from_words(vec![5; 32]).unwrap();
    assert_eq!(
        exhaustive_bvxor(&[same], fermi()).unwrap_err(),
        SearchError::NoVariation
    );
    assert!(AccessSet::from_words(vec![0; 65]).is_err());
    assert!(AccessSet::from_words(vec![]).is_err());
    assert!(matches!(
        givargis(
            &[stride(1)],
            SearchSpace {
                banks: 24,
                addr_bits: 14
            },
            Family::BwPerm
        ),
        Err(SearchError::Banks(24))
    ));
}

/// Seeded xorshift64 (no extra dependency).
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_sets(rng: &mut XorShift) -> Vec<AccessSet> {
    let count = 1 + rng.below(3) as usize;
    (0..count)
        .map(|_| {
            if rng.below(2) == 0 {
                let s = 1 + rng.below(100);
                let base = rng.below(1000);
                AccessSet::from_stride(base, s, 32).unwrap()
            } else {
                AccessSet::from_words((0..32).map(|_| rng.below(1 << 12)).collect()).unwrap()
            }
        })
        .collect()
}

#[test]
fn property_exhaustive_never_costs_more_than_mod() {
    // XOR section 5.1: the exhaustive search evaluates the plain shift k1 = min k, mask = 0,
    // which is never worse than mod (the bits below min k are constant within every set).
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for _ in 0..40 {
        let sets = random_sets(&mut rng);
        let r = exhaustive_bvxor(&sets, fermi()).unwrap();
        assert!(r.cost_after <= r.cost_before, "{:?}: {r:?}", sets);
        let f = r.hash.compile(32).unwrap();
        assert_eq!(conflict_cost(&sets, &f), r.cost_after);
    }
}

#[test]
fn property_searches_are_deterministic() {
    let mut rng = XorShift(12345);
    for _ in 0..6 {
        let sets = random_sets(&mut rng);
        for (method, family) in [
            (Method::Exhaustive, Family::BvXor),
            (Method::Givargis, Family::BwPerm),
            (Method::Givargis, Family::BwXor),
            (Method::MinImbalance, Family::BwPerm),
            (Method::MinImbalance, Family::BwXor),
        ] {
            let a = search(method, family, &sets, fermi()).unwrap();
            let b = search(method, family, &sets, fermi()).unwrap();
            assert_eq!(a, b);
            let json_a = serde_json::to_string(&a).unwrap();
            assert_eq!(json_a, serde_json::to_string(&b).unwrap());
        }
    }
}

#[test]
fn property_mih_single_stride_removes_conflicts() {
    // A single strided set of 32 lanes: MIH picks the 5 bits that vary (k..k+5 of S0 * 2^k),
    // which spread the 32 lanes one per bank.
    for s in 1..=64u64 {
        let r = min_imbalance(
            &[stride(s)],
            SearchSpace {
                banks: 32,
                addr_bits: 12,
            },
            Family::BwPerm,
        )
        .unwrap();
        assert_eq!(r.cost_after, 0, "stride {s}: {}", r.hash);
        assert!(r.cost_after <= r.cost_before);
    }
}

// ---- The rank guard: no search returns a function that cannot reach every bank --------------

#[test]
fn gh_bitwise_xor_refuses_a_dependent_bank_bit() {
    // Eight lanes at words 0-7: only bits 0-2 vary, and every candidate that reads one of
    // them an odd number of times is balanced over the lanes (Eq. 11: Q = 1). GH takes 0,
    // then 0^1 (Q(0^1) x C(0, 0^1) = Q(0^1) x Q(1) = 1), then 0^2. At step 3 the Eqs. leave `1`
    // at quality Q(1) x C(0,1) x C(0^1,1) x C(0^2,1) = Q(1) Q(0^1) Q(0) Q(0^1^2) = 1, the
    // highest there is, and `1` comes before `1^3` (also 1) in Table 3's order: the unguarded
    // heuristic picks `1 = 0 ^ (0^1)`, a bank function of rank 4 that leaves half the banks
    // unused (as Table 5's hist64 GH row (6)(6^7)(6^8)(7)(7^8) has rank 3). The guard does not
    // offer `1` (nor `2`, `1^2`), so `1^3` is chosen.
    let set = AccessSet::from_words((0..8).collect()).unwrap();
    let chosen = [XorTerm::Bit(0), XorTerm::Pair(0, 1), XorTerm::Pair(0, 2)];
    for dependent in [XorTerm::Bit(1), XorTerm::Bit(2), XorTerm::Pair(1, 2)] {
        assert!(!independent(&chosen, dependent), "{dependent}");
    }
    assert!(independent(&chosen, XorTerm::Pair(1, 3)));
    let gh = givargis(std::slice::from_ref(&set), fermi(), Family::BwXor).unwrap();
    let BankHash::BwXor(terms) = &gh.hash else {
        panic!("expected bwxor, got {}", gh.hash)
    };
    assert_eq!(terms[..3], chosen);
    let SearchStep::Givargis(step3) = &gh.steps[3] else {
        panic!("expected a Givargis step")
    };
    assert!(step3.quality.iter().all(|q| independent(&chosen, q.term)));
    assert_eq!(step3.chosen, XorTerm::Pair(1, 3));
    let best = step3.quality.iter().map(|q| q.combined).fold(0.0, f64::max);
    assert_eq!(best, 1.0);
    let f = gh.hash.compile(32).unwrap();
    assert_eq!(f.rank(), 5, "{}", gh.hash);
    assert_eq!(gh.cost_after, 0);
    // The refused kind of function, for comparison: Table 5's hist64 GH row.
    let hist64: BankHash = "bwxor:6,6^7,6^8,7,7^8".parse().unwrap();
    assert_eq!(hist64.compile(32).unwrap().rank(), 3);
}

#[test]
fn every_search_returns_a_full_rank_function_on_sets_that_tempt_dependent_bits() {
    // Sets whose varying bits are few (3 or 4 of 14) leave many balanced dependent pairs.
    let sets: Vec<AccessSet> = [
        (0..8).collect::<Vec<u64>>(),
        (0..16).map(|w| w * 8).collect(),
    ]
    .into_iter()
    .map(|w| AccessSet::from_words(w).unwrap())
    .collect();
    for (method, family) in [
        (Method::Exhaustive, Family::BvXor),
        (Method::Givargis, Family::BwPerm),
        (Method::Givargis, Family::BwXor),
        (Method::MinImbalance, Family::BwPerm),
        (Method::MinImbalance, Family::BwXor),
    ] {
        for one in sets.chunks(1).chain([&sets[..]]) {
            let r = search(method, family, one, fermi()).unwrap();
            assert_eq!(
                r.hash.compile(32).unwrap().rank(),
                5,
                "{method} {family}: {}",
                r.hash
            );
        }
    }
}
