//! What a bank-function search (XOR section 5) returns: the chosen hash, its cost before and
//! after, and a record of every decision (exhaustive candidates, Givargis qualities and
//! correlations, Eqs. 11-12; Minimum Imbalance histograms, Eqs. 13-15) for the app to replay.

use super::*;

/// One decision of a search, for the app to replay.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SearchStep {
    /// Exhaustive search: one bvxor candidate and its cost; `best` when it became the best so far.
    Candidate {
        k1: u32,
        k2: u32,
        mask: u32,
        cost: u64,
        best: bool,
    },
    /// Exhaustive search: every set is strided with the same `k`, so (XOR section 5.1) the search
    /// selects `k1 = k`, `mask = 0` without trying others.
    SameK { k: u32, cost: u64 },
    /// Givargis heuristic, one selection (Eqs. 11-12 with the multi-set extension).
    Givargis(GivargisStep),
    /// Minimum Imbalance Heuristic, one selection (Eqs. 13-15).
    Imbalance(ImbalanceStep),
}

/// One Givargis selection: the combined quality of every candidate still free, the choice, and
/// the correlations that then scaled every quality.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GivargisStep {
    /// Bank bit being chosen (0 first).
    pub step: u32,
    /// Every unselected candidate independent of the chosen bits ([`independent`]), in order.
    pub quality: Vec<GivargisQuality>,
    /// The candidate with the highest combined quality (ties: the earlier candidate).
    pub chosen: XorTerm,
    /// `C_bi` of the chosen candidate `b` against every candidate `i`, per set (Eq. 12).
    pub correlation: Vec<GivargisCorrelation>,
}

/// A candidate's quality at one Givargis step.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GivargisQuality {
    /// The candidate: a bit, or a pair of bits XORed.
    pub term: XorTerm,
    /// `Q_i^s` per access set (Eq. 11, scaled by the earlier correlations).
    pub per_set: Vec<f64>,
    /// The combined quality `sum_s Q_i^s`.
    pub combined: f64,
}

/// Correlations of the chosen candidate with one candidate, per access set.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GivargisCorrelation {
    /// The candidate `i`.
    pub term: XorTerm,
    /// `C_bi^s` per access set (Eq. 12).
    pub per_set: Vec<f64>,
}

/// One Minimum Imbalance selection: every free candidate's histograms and imbalance (free: not
/// chosen and [`independent`] of the chosen bits).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ImbalanceStep {
    /// Bank bit being chosen (`n` in Eq. 14; 0 first).
    pub step: u32,
    /// Every unselected candidate independent of the chosen bits ([`independent`]), in order.
    pub candidates: Vec<ImbalanceCandidate>,
    /// The candidate with the lowest total imbalance (ties: the earlier candidate).
    pub chosen: XorTerm,
}

/// A candidate's histograms and imbalance at one MIH step.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ImbalanceCandidate {
    /// The candidate `A_i`: a bit, or a pair of bits XORed.
    pub term: XorTerm,
    /// `h_i` per access set: `2^(n+1)` bins indexed by `(A_i, b_(n-1), ..., b_0)`.
    pub histograms: Vec<Vec<u32>>,
    /// `imbalance(A_i)` per access set (Eq. 14).
    pub imbalances: Vec<f64>,
    /// The sum over the sets (Eq. 15).
    pub total: f64,
}

/// The outcome of a search.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SearchResult {
    /// The chosen configuration.
    pub hash: BankHash,
    /// Candidates the search evaluated (exhaustive: hash functions; heuristics: candidate bits).
    pub candidates: u64,
    /// Conflict cycles summed over the access sets under `mod`.
    pub cost_before: u64,
    /// Conflict cycles summed over the access sets under the chosen hash.
    pub cost_after: u64,
    /// Every decision, in order.
    pub steps: Vec<SearchStep>,
}

impl serde::Serialize for XorTerm {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
