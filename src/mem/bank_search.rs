//! Configuring the bank index functions (XOR section 5): the exhaustive bit-vector XOR search
//! (section 5.1), the Givargis heuristic with the paper's multi-set extension (section 5.2.1,
//! Eqs. 11-12) and the Minimum Imbalance Heuristic (section 5.2.2, Eqs. 13-15).
//!
//! Every search works on *access sets*: the word addresses of one warp access (XOR section 3:
//! "a collection of addresses whose size is equal to the number of memory banks"). The cost of a
//! hash is the sum over the sets of their bank-conflict cycles (passes beyond the first, full
//! broadcast, one sub-warp: the shared-memory model of [`super::shared_banks`]); a conflict-free
//! hash costs 0. Ties go to the earlier candidate, so candidate order is part of each search's
//! definition and is written down at each function.
//!
//! Each search returns a [`SearchResult`] with a `steps` record of every decision so the app can
//! replay it. The model does no I/O; the `hash-search` command prints the result.

use super::bank_hash::{bank_bits, gf2_rank, BankFunction, BankHash, XorTerm, WORD_ADDR_BITS};
use super::shared_banks::{BankConflict, Broadcast, SharedBanks, MAX_LANES};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

#[path = "bank_search_bitwise.rs"]
mod bitwise;
#[path = "bank_search_steps.rs"]
mod steps;

pub use bitwise::{bitwise_candidates, givargis, independent, min_imbalance};
pub use steps::{
    GivargisCorrelation, GivargisQuality, GivargisStep, ImbalanceCandidate, ImbalanceStep,
    SearchResult, SearchStep,
};

/// The word addresses of one warp access (1 to 64 lanes), in lane order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AccessSet {
    words: Vec<u64>,
}

/// Why a search cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchError {
    /// An access set has no lanes or more than 64.
    SetSize(usize),
    /// No access sets were given.
    NoSets,
    /// The bank count is not a power of two of at least 2 banks.
    Banks(u32),
    /// `addr_bits` is below `log2(banks)` or above 64.
    AddrBits { addr_bits: u32, bank_bits: u32 },
    /// An address does not fit in `addr_bits` bits.
    AddressTooWide { word: u64, addr_bits: u32 },
    /// A stride access set overflows 64-bit addresses.
    Overflow,
    /// No access set has two different addresses: there is no stride to search over.
    NoVariation,
    /// The method does not configure that family (XOR Table 2).
    Unsupported { method: Method, family: Family },
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::SetSize(n) => {
                write!(
                    f,
                    "an access set has {n} addresses (one warp access: 1 to {MAX_LANES})"
                )
            }
            SearchError::NoSets => f.write_str("no access sets given (use --stride or --addrs)"),
            SearchError::Banks(b) => write!(f, "bank count {b} is not a power of two >= 2"),
            SearchError::AddrBits {
                addr_bits,
                bank_bits,
            } => write!(
                f,
                "address bits {addr_bits} must be between log2(banks) = {bank_bits} and 64"
            ),
            SearchError::AddressTooWide { word, addr_bits } => {
                write!(
                    f,
                    "word address {word} does not fit in {addr_bits} address bits"
                )
            }
            SearchError::Overflow => f.write_str("stride access set overflows 64-bit addresses"),
            SearchError::NoVariation => f.write_str(
                "no access set has two different addresses, so there are no strides to search",
            ),
            SearchError::Unsupported { method, family } => write!(
                f,
                "method {method} does not configure family {family} (XOR Table 2: exhaustive \
                 configures bvxor; gh and mih configure bwperm and bwxor)"
            ),
        }
    }
}

impl std::error::Error for SearchError {}

impl AccessSet {
    /// An access set from word addresses, one per lane.
    pub fn from_words(words: Vec<u64>) -> Result<Self, SearchError> {
        if words.is_empty() || words.len() > MAX_LANES {
            return Err(SearchError::SetSize(words.len()));
        }
        Ok(AccessSet { words })
    }

    /// An access set from byte addresses: word = byte address / `bank_width`.
    pub fn from_byte_addrs(bytes: &[u64], bank_width: u32) -> Result<Self, SearchError> {
        let shift = bank_width.max(1).trailing_zeros();
        Self::from_words(bytes.iter().map(|b| b >> shift).collect())
    }

    /// The strided access of XOR Eq. (1): lane `t` reads word `base + t * stride`, `lanes` lanes.
    pub fn from_stride(base: u64, stride: u64, lanes: u32) -> Result<Self, SearchError> {
        let words = (0..lanes as u64)
            .map(|t| t.checked_mul(stride).and_then(|o| base.checked_add(o)))
            .collect::<Option<Vec<_>>>()
            .ok_or(SearchError::Overflow)?;
        Self::from_words(words)
    }

    /// The word addresses, in lane order.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Bits that differ between some lanes.
    fn varying_bits(&self) -> u64 {
        let first = self.words[0];
        self.words.iter().fold(0, |acc, w| acc | (w ^ first))
    }

    /// The `k` of every stride in the set (`S = S0 * 2^k`, XOR section 4.1), taking the strides
    /// between consecutive lanes. For a strided set this is the one `k` of its stride.
    fn stride_ks(&self) -> BTreeSet<u32> {
        self.words
            .windows(2)
            .map(|w| w[1].wrapping_sub(w[0]))
            .filter(|&d| d != 0)
            .map(|d| d.trailing_zeros())
            .collect()
    }

    /// True when every lane is one constant stride from the previous one.
    fn is_strided(&self) -> bool {
        let mut diffs = self.words.windows(2).map(|w| w[1].wrapping_sub(w[0]));
        match diffs.next() {
            None => true,
            Some(d) => diffs.all(|x| x == d),
        }
    }
}

/// Which search (XOR Table 2, "Search method").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Exhaustive bit-vector XOR search (section 5.1).
    Exhaustive,
    /// Givargis heuristic (section 5.2.1).
    Givargis,
    /// Minimum Imbalance Heuristic (section 5.2.2).
    MinImbalance,
}

impl FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "exhaustive" => Ok(Method::Exhaustive),
            "gh" => Ok(Method::Givargis),
            "mih" => Ok(Method::MinImbalance),
            _ => Err(format!("method must be exhaustive, gh or mih, found `{s}`")),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Exhaustive => "exhaustive",
            Method::Givargis => "gh",
            Method::MinImbalance => "mih",
        })
    }
}

/// Which hash family a search configures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Bit-vector XOR (section 4.2).
    BvXor,
    /// Bitwise permutation (section 4.3): candidates are single bits.
    BwPerm,
    /// Bitwise XOR (section 4.4): candidates are single bits and pairs (Table 3).
    BwXor,
}

impl FromStr for Family {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "bvxor" => Ok(Family::BvXor),
            "bwperm" => Ok(Family::BwPerm),
            "bwxor" => Ok(Family::BwXor),
            _ => Err(format!(
                "family must be bvxor, bwperm or bwxor, found `{s}`"
            )),
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Family::BvXor => "bvxor",
            Family::BwPerm => "bwperm",
            Family::BwXor => "bwxor",
        })
    }
}

/// The shape of the memory being configured: `banks` banks (`m = log2(banks)`) and `addr_bits`
/// word-address bits (`n`; the paper's Fermi example has n = 14 for 48 KB of 4-byte words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct SearchSpace {
    /// Number of banks, a power of two >= 2.
    pub banks: u32,
    /// Word-address bits `n`.
    pub addr_bits: u32,
}

impl Default for SearchSpace {
    fn default() -> Self {
        SearchSpace {
            banks: 32,
            addr_bits: 14,
        }
    }
}

impl SearchSpace {
    /// `m`, after checking the space and that every address fits in `addr_bits`.
    fn check(&self, sets: &[AccessSet]) -> Result<u32, SearchError> {
        let m = match bank_bits(self.banks) {
            Ok(m) if m >= 1 => m,
            _ => return Err(SearchError::Banks(self.banks)),
        };
        if self.addr_bits < m || self.addr_bits > WORD_ADDR_BITS {
            return Err(SearchError::AddrBits {
                addr_bits: self.addr_bits,
                bank_bits: m,
            });
        }
        if sets.is_empty() {
            return Err(SearchError::NoSets);
        }
        let limit = self.addr_bits;
        for set in sets {
            if let Some(&w) = set.words.iter().find(|&&w| limit < 64 && w >> limit != 0) {
                return Err(SearchError::AddressTooWide {
                    word: w,
                    addr_bits: limit,
                });
            }
        }
        Ok(m)
    }
}

/// Runs `method` for `family`. Exhaustive configures bvxor; gh and mih configure bwperm and
/// bwxor (XOR Table 2); other pairs are [`SearchError::Unsupported`].
pub fn search(
    method: Method,
    family: Family,
    sets: &[AccessSet],
    space: SearchSpace,
) -> Result<SearchResult, SearchError> {
    match (method, family) {
        (Method::Exhaustive, Family::BvXor) => exhaustive_bvxor(sets, space),
        (Method::Givargis, Family::BwPerm | Family::BwXor) => givargis(sets, space, family),
        (Method::MinImbalance, Family::BwPerm | Family::BwXor) => {
            min_imbalance(sets, space, family)
        }
        _ => Err(SearchError::Unsupported { method, family }),
    }
}

/// Conflict cycles (passes beyond the first) summed over the access sets, all lanes active,
/// full broadcast, one sub-warp.
pub fn conflict_cost(sets: &[AccessSet], function: &BankFunction) -> u64 {
    let banks = SharedBanks::from_function(*function, 4, Broadcast::Full, 1)
        .expect("4-byte banks, one part: always valid");
    let mut out = BankConflict::default();
    sets.iter()
        .map(|s| {
            banks.access_words_into(&s.words, u64::MAX, &mut out);
            out.extra_cycles as u64
        })
        .sum()
}

fn cost_of(sets: &[AccessSet], hash: &BankHash, banks: u32) -> u64 {
    let f = hash
        .compile(banks)
        .expect("search candidates fit the bank count");
    conflict_cost(sets, &f)
}

/// Exhaustive bit-vector XOR search with the paper's pruning (XOR section 5.1):
/// * `k1` takes the `k` of every stride (`S = S0 * 2^k`; a set's strides are the differences
///   between consecutive lanes, so a strided set has exactly its stride's `k`);
/// * `k2` runs over `[min k, max MSB]` without `k1`, where a set's MSB is its highest varying
///   address bit (for lane `t` at `t * S`, exactly the paper's `floor(log2((t-1) * S))`);
/// * `mask` only uses bits `i` with `k2 + i <= max MSB`.
/// * a candidate that cannot reach every bank (GF(2) rank below `m`) is skipped, the rank guard
///   of every search ([`independent`]); with `k2 != k1` a bit-vector XOR always has full rank
///   (each row's lowest or highest bit is its own), so the guard never fires here today.
///
/// Strides 4 and 6 (32 lanes) give 2 x 94 = 188 candidates. When every set is strided and all
/// share one `k`, the paper selects `k1 = k`, `mask = 0` directly (printed `bvxor:k,0,0`, as
/// Table 5 prints FFT-2). Candidate order: `k1` ascending, then `mask` ascending (fewer and lower
/// XOR inputs first, so a plain permutation wins a tie), then `k2` ascending; this order
/// reproduces Table 5's transpose row `k1=0 k2=4 mask=14`.
pub fn exhaustive_bvxor(
    sets: &[AccessSet],
    space: SearchSpace,
) -> Result<SearchResult, SearchError> {
    let m = space.check(sets)?;
    let ks: BTreeSet<u32> = sets.iter().flat_map(AccessSet::stride_ks).collect();
    let Some(&k_min) = ks.first() else {
        return Err(SearchError::NoVariation);
    };
    let msb = sets
        .iter()
        .map(AccessSet::varying_bits)
        .filter(|&v| v != 0)
        .map(|v| 63 - v.leading_zeros())
        .max()
        .unwrap_or(0);
    let cost_before = cost_of(sets, &BankHash::Mod, space.banks);
    if ks.len() == 1 && sets.iter().all(AccessSet::is_strided) {
        let hash = BankHash::BvXor {
            k1: k_min,
            k2: 0,
            mask: 0,
        };
        let cost = cost_of(sets, &hash, space.banks);
        let steps = vec![SearchStep::SameK { k: k_min, cost }];
        return Ok(SearchResult {
            hash,
            candidates: 1,
            cost_before,
            cost_after: cost,
            steps,
        });
    }
    let mut steps = Vec::new();
    let mut best: Option<(BankHash, u64)> = None;
    for &k1 in ks.iter().filter(|&&k1| k1 + m <= WORD_ADDR_BITS) {
        for mask in 0..(1u32 << m) {
            for k2 in (k_min..=msb).filter(|&k2| k2 != k1) {
                let usable = m.min(msb - k2 + 1);
                if u64::from(mask) >= 1u64 << usable {
                    continue;
                }
                let hash = BankHash::BvXor { k1, k2, mask };
                let f = hash
                    .compile(space.banks)
                    .expect("search candidates fit the bank count");
                if f.rank() < m {
                    continue;
                }
                let cost = conflict_cost(sets, &f);
                let better = best.as_ref().map_or(true, |(_, c)| cost < *c);
                if better {
                    best = Some((hash, cost));
                }
                steps.push(SearchStep::Candidate {
                    k1,
                    k2,
                    mask,
                    cost,
                    best: better,
                });
            }
        }
    }
    let candidates = steps.len() as u64;
    let (hash, cost_after) = best.ok_or(SearchError::NoVariation)?;
    Ok(SearchResult {
        hash,
        candidates,
        cost_before,
        cost_after,
        steps,
    })
}
