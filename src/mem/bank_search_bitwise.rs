//! The bitwise searches of XOR section 5.2, which configure the bwperm and bwxor bank functions
//! (XOR Table 2) one bank bit at a time: the Givargis heuristic with the paper's multi-set
//! extension (section 5.2.1, Eqs. 11-12) and the Minimum Imbalance Heuristic (section 5.2.2,
//! Eqs. 13-15), their candidate bits (XOR Table 3) and the GF(2) rank guard both share.

use super::*;

/// Two real-valued measures closer than this are a tie (they are sums of ratios of small
/// integers, so genuinely different values differ by far more).
const TIE_EPSILON: f64 = 1e-9;

/// The candidate bank bits of a bitwise family, in order: single bits `0..n` for bwperm; for
/// bwxor the `n(n+1)/2` entries of XOR Table 3 row by row (`0, 0^1, 0^2, ..., 1, 1^2, ...`).
pub fn bitwise_candidates(family: Family, addr_bits: u32) -> Vec<XorTerm> {
    match family {
        Family::BwXor => (0..addr_bits)
            .flat_map(|i| {
                (i..addr_bits).map(move |j| {
                    if i == j {
                        XorTerm::Bit(i)
                    } else {
                        XorTerm::Pair(i, j)
                    }
                })
            })
            .collect(),
        _ => (0..addr_bits).map(XorTerm::Bit).collect(),
    }
}

/// Per access set, per candidate: the lanes (bit `j` = lane `j`) where the candidate bit is 1.
fn candidate_values(sets: &[AccessSet], cands: &[XorTerm]) -> Vec<Vec<u64>> {
    sets.iter()
        .map(|s| {
            cands
                .iter()
                .map(|c| {
                    let mask = c.mask();
                    s.words.iter().enumerate().fold(0u64, |v, (j, w)| {
                        v | (((w & mask).count_ones() as u64 & 1) << j)
                    })
                })
                .collect()
        })
        .collect()
}

fn ratio(a: u32, b: u32) -> f64 {
    let (lo, hi) = (a.min(b), a.max(b));
    if hi == 0 {
        0.0
    } else {
        lo as f64 / hi as f64
    }
}

fn bitwise_hash(family: Family, chosen: &[XorTerm]) -> BankHash {
    match family {
        Family::BwXor => BankHash::BwXor(chosen.to_vec()),
        _ => BankHash::BwPerm(
            chosen
                .iter()
                .map(|t| match t {
                    XorTerm::Bit(b) => *b,
                    XorTerm::Pair(a, _) => *a,
                })
                .collect(),
        ),
    }
}

fn bitwise_family(method: Method, family: Family) -> Result<Family, SearchError> {
    match family {
        Family::BwPerm | Family::BwXor => Ok(family),
        Family::BvXor => Err(SearchError::Unsupported { method, family }),
    }
}

/// Givargis heuristic (XOR section 5.2.1, from Givargis DAC 2003) with the paper's extension to
/// several access sets. Per set `s` and candidate `i`: `Q_i^s = min(Z, O) / max(Z, O)` (Eq. 11)
/// over the set's lanes; per step the combined quality `Q_i = sum_s Q_i^s` picks the next bank
/// bit (the highest; ties: the earlier candidate), then every `Q_i^s` is multiplied by
/// `C_bi^s = min(E, D) / max(E, D)` (Eq. 12). Bank bit 0 is the first bit chosen.
pub fn givargis(
    sets: &[AccessSet],
    space: SearchSpace,
    family: Family,
) -> Result<SearchResult, SearchError> {
    let family = bitwise_family(Method::Givargis, family)?;
    let m = space.check(sets)?;
    let cands = bitwise_candidates(family, space.addr_bits);
    let values = candidate_values(sets, &cands);
    let sizes: Vec<u32> = sets.iter().map(|s| s.words.len() as u32).collect();
    let mut q: Vec<Vec<f64>> = values
        .iter()
        .zip(&sizes)
        .map(|(vs, &r)| {
            vs.iter()
                .map(|v| ratio(r - v.count_ones(), v.count_ones()))
                .collect()
        })
        .collect();
    let mut selected = vec![false; cands.len()];
    let mut chosen = Vec::new();
    let mut steps = Vec::new();
    for step in 0..m {
        let quality: Vec<GivargisQuality> = (0..cands.len())
            .filter(|&i| !selected[i] && independent(&chosen, cands[i]))
            .map(|i| {
                let per_set: Vec<f64> = q.iter().map(|qs| qs[i]).collect();
                let combined = per_set.iter().sum();
                GivargisQuality {
                    term: cands[i],
                    per_set,
                    combined,
                }
            })
            .collect();
        let b = pick(&cands, &quality, |g| g.term, |g| g.combined, true);
        selected[b] = true;
        chosen.push(cands[b]);
        let correlation = correlate(&values, &sizes, &cands, b);
        for (s, qs) in q.iter_mut().enumerate() {
            for (i, qi) in qs.iter_mut().enumerate() {
                *qi *= correlation[i].per_set[s];
            }
        }
        steps.push(SearchStep::Givargis(GivargisStep {
            step,
            quality,
            chosen: cands[b],
            correlation,
        }));
    }
    finish(sets, space, family, &chosen, cands.len(), steps)
}

/// `C_bi^s` (Eq. 12) of candidate `b` with every candidate, per set.
fn correlate(
    values: &[Vec<u64>],
    sizes: &[u32],
    cands: &[XorTerm],
    b: usize,
) -> Vec<GivargisCorrelation> {
    (0..cands.len())
        .map(|i| GivargisCorrelation {
            term: cands[i],
            per_set: values
                .iter()
                .zip(sizes)
                .map(|(vs, &r)| {
                    let differ = (vs[b] ^ vs[i]).count_ones();
                    ratio(r - differ, differ)
                })
                .collect(),
        })
        .collect()
}

/// Index (into `cands`) of the best entry of `list`: highest (`maximise`) or lowest value, the
/// earlier entry winning ties within [`TIE_EPSILON`].
fn pick<T>(
    cands: &[XorTerm],
    list: &[T],
    term: impl Fn(&T) -> XorTerm,
    value: impl Fn(&T) -> f64,
    maximise: bool,
) -> usize {
    let mut best: Option<(XorTerm, f64)> = None;
    for e in list {
        let v = value(e);
        let better = match best {
            None => true,
            Some((_, bv)) if maximise => v > bv + TIE_EPSILON,
            Some((_, bv)) => v < bv - TIE_EPSILON,
        };
        if better {
            best = Some((term(e), v));
        }
    }
    let t = best.expect("at least one free candidate").0;
    cands
        .iter()
        .position(|&c| c == t)
        .expect("term is a candidate")
}

/// Minimum Imbalance Heuristic (XOR section 5.2.2). With `n` bits `b_0..b_(n-1)` chosen, each
/// free candidate `A_i` gets, per access set, the histogram `h_i` of `(A_i, b_(n-1), ..., b_0)`
/// over `2^(n+1)` bins (`A_i` the most significant), and
/// `imbalance(A_i) = sum_j |h_i(j) - |R| / 2^(n+1)| / |R|` (Eq. 14). The next bit minimises the
/// sum over the sets (Eq. 15; Eq. 13 for one set); ties: the earlier candidate.
pub fn min_imbalance(
    sets: &[AccessSet],
    space: SearchSpace,
    family: Family,
) -> Result<SearchResult, SearchError> {
    let family = bitwise_family(Method::MinImbalance, family)?;
    let m = space.check(sets)?;
    let cands = bitwise_candidates(family, space.addr_bits);
    let values = candidate_values(sets, &cands);
    // prefix[s][j]: bin index of lane j of set s from the bits chosen so far.
    let mut prefix: Vec<Vec<usize>> = sets.iter().map(|s| vec![0; s.words.len()]).collect();
    let mut selected = vec![false; cands.len()];
    let mut chosen = Vec::new();
    let mut steps = Vec::new();
    for step in 0..m {
        let candidates: Vec<ImbalanceCandidate> = (0..cands.len())
            .filter(|&i| !selected[i] && independent(&chosen, cands[i]))
            .map(|i| imbalance_of(&values, &prefix, i, step, cands[i]))
            .collect();
        let b = pick(&cands, &candidates, |c| c.term, |c| c.total, false);
        selected[b] = true;
        chosen.push(cands[b]);
        for (s, p) in prefix.iter_mut().enumerate() {
            for (j, pj) in p.iter_mut().enumerate() {
                *pj |= ((values[s][b] >> j & 1) as usize) << step;
            }
        }
        steps.push(SearchStep::Imbalance(ImbalanceStep {
            step,
            candidates,
            chosen: cands[b],
        }));
    }
    finish(sets, space, family, &chosen, cands.len(), steps)
}

/// Histograms and imbalance (Eq. 14) of candidate `i` at step `n`, per set, and their sum.
fn imbalance_of(
    values: &[Vec<u64>],
    prefix: &[Vec<usize>],
    i: usize,
    n: u32,
    term: XorTerm,
) -> ImbalanceCandidate {
    let bins = 1usize << (n + 1);
    let mut histograms = Vec::with_capacity(values.len());
    let mut imbalances = Vec::with_capacity(values.len());
    for (vs, p) in values.iter().zip(prefix) {
        let mut h = vec![0u32; bins];
        for (j, pj) in p.iter().enumerate() {
            h[pj | (((vs[i] >> j & 1) as usize) << n)] += 1;
        }
        let r = p.len() as u64;
        // sum_j |h_j - r/bins| / r = sum_j |h_j * bins - r| / (r * bins), exact in integers.
        let num: u64 = h
            .iter()
            .map(|&x| (x as u64 * bins as u64).abs_diff(r))
            .sum();
        imbalances.push(num as f64 / (r * bins as u64) as f64);
        histograms.push(h);
    }
    let total = imbalances.iter().sum();
    ImbalanceCandidate {
        term,
        histograms,
        imbalances,
        total,
    }
}

/// Whether `term` is linearly independent over GF(2) of the bank bits `chosen` so far: the rank
/// guard of both heuristics. A dependent bank bit (e.g. `7` after `6` and `6^7`) leaves the
/// function rank-deficient, so it cannot reach every bank and some banks take twice the words
/// (XOR Table 5's hist64, MRI-grid-2 and reduction GH bitwise-XOR rows are such functions). The
/// heuristics skip those candidates; single bits always leave an independent one.
pub fn independent(chosen: &[XorTerm], term: XorTerm) -> bool {
    let mut rows: Vec<u64> = chosen.iter().map(|t| t.mask()).collect();
    rows.push(term.mask());
    gf2_rank(&rows) == rows.len() as u32
}

fn finish(
    sets: &[AccessSet],
    space: SearchSpace,
    family: Family,
    chosen: &[XorTerm],
    candidates: usize,
    steps: Vec<SearchStep>,
) -> Result<SearchResult, SearchError> {
    let hash = bitwise_hash(family, chosen);
    let cost_before = cost_of(sets, &BankHash::Mod, space.banks);
    let cost_after = cost_of(sets, &hash, space.banks);
    Ok(SearchResult {
        hash,
        candidates: candidates as u64,
        cost_before,
        cost_after,
        steps,
    })
}
