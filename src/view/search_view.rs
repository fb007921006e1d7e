//! The bank-hash searches as the app's search panel replays them (issue 7, "In the app"; XOR
//! section 5). [`run_search`] takes a prepared launch, collects its shared-memory warp accesses
//! with a functional run (the paper's trace-based access sets, [`Prepared::shared_access_sets`])
//! and runs [`bank_search::search`] on them; [`SearchView`] is the result cut to what the panel
//! draws at each decision: every candidate's measure (and, for the Minimum Imbalance Heuristic,
//! its histogram summed over the access sets), the choice, and the bits chosen before it. The
//! full per-set record stays available to the CLI (`warpstep hash-search --json`).

use crate::mem::bank_hash::bank_bits;
use crate::mem::bank_search::{self, Family, Method, SearchSpace, SearchStep};
use crate::mem::{AccessSet, SearchResult};
use crate::run::Prepared;
use serde::Serialize;
use std::collections::BTreeMap;

/// The most dynamic shared accesses the browser searches over: MIH keeps every candidate's
/// histogram for every access set, so the record grows with the sets (the CLI allows 100,000).
pub const SEARCH_ACCESS_LIMIT: usize = 512;

/// A search as the panel shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchView {
    /// `exhaustive`, `gh` or `mih` (the CLI's names).
    pub method: String,
    /// `bvxor`, `bwperm` or `bwxor`.
    pub family: String,
    /// The chosen configuration's SPEC (`shmem.hash`).
    pub hash: String,
    pub banks: u32,
    /// Word-address bits searched over.
    pub addr_bits: u32,
    /// Access sets searched (dynamic shared warp accesses).
    pub sets: usize,
    /// True when the kernel made more shared accesses than [`SEARCH_ACCESS_LIMIT`].
    pub truncated: bool,
    /// The static instructions the sets came from: PTX line, text, dynamic accesses.
    pub sources: Vec<SourceLine>,
    /// Candidates evaluated (exhaustive: hash functions; heuristics: candidate bits).
    pub candidates: u64,
    /// Conflict cycles summed over the sets under `mod`, and under the chosen hash.
    pub cost_before: u64,
    pub cost_after: u64,
    pub steps: Vec<StepView>,
}

/// A static shared-memory instruction and how many access sets it contributed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceLine {
    pub line: u32,
    pub text: String,
    pub count: usize,
}

/// One decision of a search.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StepView {
    /// Exhaustive search: one bvxor candidate, its cost, and whether it became the best so far.
    Candidate { spec: String, cost: u64, best: bool },
    /// Exhaustive search: every set has the same stride `k`, so `bvxor:k,0,0` is taken directly.
    SameK { spec: String, cost: u64 },
    /// A heuristic picks bank bit `step` (GH: highest combined quality, Eqs. 11-12; MIH: lowest
    /// total imbalance, Eqs. 13-15).
    Select {
        step: u32,
        /// `quality` (GH) or `imbalance` (MIH).
        measure: &'static str,
        /// Terms chosen for bank bits `0..step`.
        selected: Vec<String>,
        chosen: String,
        candidates: Vec<CandidateView>,
    },
}

/// A candidate bit (or XOR pair) at one heuristic step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CandidateView {
    pub term: String,
    /// GH: combined quality (sum over sets); MIH: total imbalance (sum over sets).
    pub value: f64,
    /// MIH: the histogram `h_i` summed over the sets (`2^(step+1)` bins); empty for GH.
    pub histogram: Vec<u64>,
}

/// Word-address bits of a shared memory of `size_bytes` in `bank_width`-byte words (14 for
/// Fermi's 48 KB, the paper's example), at least `log2(banks)`.
pub fn addr_bits_for(size_bytes: u32, bank_width: u32, banks: u32) -> u32 {
    let words = (size_bytes / bank_width.max(1)).max(2) as u64;
    let bits = 64 - (words - 1).leading_zeros();
    bits.max(bank_bits(banks).unwrap_or(0)).min(64)
}

/// Runs `method` for `family` over the shared accesses of a functional run of `prepared` (left
/// untouched: the run uses a copy). `addr_bits` 0 takes [`addr_bits_for`] of the configuration.
pub fn run_search(
    prepared: &Prepared,
    method: Method,
    family: Family,
    addr_bits: u32,
) -> Result<SearchView, String> {
    let mut run = prepared.clone();
    let mut found = run.shared_access_sets(SEARCH_ACCESS_LIMIT + 1)?;
    let truncated = found.len() > SEARCH_ACCESS_LIMIT;
    found.truncate(SEARCH_ACCESS_LIMIT);
    if found.is_empty() {
        return Err("this kernel makes no shared-memory accesses to search over".into());
    }
    let shmem = &prepared.config.shmem;
    let banks = shmem.banks;
    let addr_bits = match addr_bits {
        0 => addr_bits_for(shmem.size_bytes, shmem.bank_width, banks),
        n => n,
    };
    let func = prepared.image.func();
    let mut per_pc: BTreeMap<u32, usize> = BTreeMap::new();
    for (pc, _) in &found {
        *per_pc.entry(*pc).or_default() += 1;
    }
    let sources = per_pc
        .into_iter()
        .map(|(pc, count)| SourceLine {
            line: func.instr(pc).map_or(0, |i| i.line),
            text: func.text(pc).to_string(),
            count,
        })
        .collect();
    let sets: Vec<AccessSet> = found.into_iter().map(|(_, s)| s).collect();
    let space = SearchSpace { banks, addr_bits };
    let result = bank_search::search(method, family, &sets, space).map_err(|e| e.to_string())?;
    Ok(view(
        method,
        family,
        space,
        sets.len(),
        truncated,
        sources,
        &result,
    ))
}

fn view(
    method: Method,
    family: Family,
    space: SearchSpace,
    sets: usize,
    truncated: bool,
    sources: Vec<SourceLine>,
    r: &SearchResult,
) -> SearchView {
    let mut selected: Vec<String> = Vec::new();
    let steps = r
        .steps
        .iter()
        .map(|s| {
            let v = step_view(s, &selected);
            if let StepView::Select { chosen, .. } = &v {
                selected.push(chosen.clone());
            }
            v
        })
        .collect();
    SearchView {
        method: method.to_string(),
        family: family.to_string(),
        hash: r.hash.to_string(),
        banks: space.banks,
        addr_bits: space.addr_bits,
        sets,
        truncated,
        sources,
        candidates: r.candidates,
        cost_before: r.cost_before,
        cost_after: r.cost_after,
        steps,
    }
}

fn step_view(s: &SearchStep, selected: &[String]) -> StepView {
    match s {
        SearchStep::Candidate {
            k1,
            k2,
            mask,
            cost,
            best,
        } => StepView::Candidate {
            spec: format!("bvxor:{k1},{k2},{mask}"),
            cost: *cost,
            best: *best,
        },
        SearchStep::SameK { k, cost } => StepView::SameK {
            spec: format!("bvxor:{k},0,0"),
            cost: *cost,
        },
        SearchStep::Givargis(g) => StepView::Select {
            step: g.step,
            measure: "quality",
            selected: selected.to_vec(),
            chosen: g.chosen.to_string(),
            candidates: g
                .quality
                .iter()
                .map(|q| CandidateView {
                    term: q.term.to_string(),
                    value: q.combined,
                    histogram: Vec::new(),
                })
                .collect(),
        },
        SearchStep::Imbalance(m) => StepView::Select {
            step: m.step,
            measure: "imbalance",
            selected: selected.to_vec(),
            chosen: m.chosen.to_string(),
            candidates: m
                .candidates
                .iter()
                .map(|c| CandidateView {
                    term: c.term.to_string(),
                    value: c.total,
                    histogram: summed(&c.histograms),
                })
                .collect(),
        },
    }
}

/// Bin-wise sum of per-set histograms.
fn summed(histograms: &[Vec<u32>]) -> Vec<u64> {
    let bins = histograms.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = vec![0u64; bins];
    for h in histograms {
        for (o, &v) in out.iter_mut().zip(h) {
            *o += v as u64;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_launches::{prepare, TRANSPOSE_NAIVE, VECTOR_ADD_32};

    fn transpose_naive() -> Prepared {
        prepare(TRANSPOSE_NAIVE, &[])
    }

    #[test]
    fn fermi_shared_memory_has_14_word_address_bits() {
        assert_eq!(addr_bits_for(48 * 1024, 4, 32), 14);
        assert_eq!(addr_bits_for(16 * 1024, 4, 32), 12);
        assert_eq!(addr_bits_for(64, 4, 32), 5, "at least the bank bits");
    }

    #[test]
    fn mih_on_the_naive_transpose_removes_every_conflict() {
        let v = run_search(&transpose_naive(), Method::MinImbalance, Family::BwXor, 0).unwrap();
        assert_eq!(v.hash, "bwxor:0^5,1^6,2^7,3^8,4^9");
        assert_eq!((v.cost_before, v.cost_after), (992, 0));
        assert_eq!((v.sets, v.truncated, v.addr_bits), (64, false, 14));
        assert_eq!(v.sources.iter().map(|s| s.count).sum::<usize>(), 64);
        assert_eq!(v.steps.len(), 5);
        let StepView::Select {
            step,
            selected,
            chosen,
            candidates,
            ..
        } = &v.steps[4]
        else {
            panic!("a selection step");
        };
        assert_eq!((*step, chosen.as_str()), (4, "4^9"));
        assert_eq!(selected, &["0^5", "1^6", "2^7", "3^8"]);
        let c = candidates.iter().find(|c| &c.term == chosen).unwrap();
        assert_eq!(c.histogram.len(), 32);
        assert_eq!(
            c.histogram.iter().sum::<u64>(),
            64 * 32,
            "every lane of every set"
        );
    }

    #[test]
    fn exhaustive_steps_name_their_bvxor_candidates() {
        let v = run_search(&transpose_naive(), Method::Exhaustive, Family::BvXor, 0).unwrap();
        assert_eq!(v.cost_after, 0);
        assert_eq!(v.steps.len() as u64, v.candidates);
        let best: Vec<&StepView> = v
            .steps
            .iter()
            .filter(|s| matches!(s, StepView::Candidate { best: true, .. }))
            .collect();
        assert!(
            matches!(best.last(), Some(StepView::Candidate { spec, cost: 0, .. }) if *spec == v.hash)
        );
    }

    #[test]
    fn a_kernel_without_shared_accesses_says_so() {
        let p = prepare(VECTOR_ADD_32, &[]);
        let err = run_search(&p, Method::Givargis, Family::BwPerm, 0).unwrap_err();
        assert!(err.contains("no shared-memory accesses"), "{err}");
    }
}
