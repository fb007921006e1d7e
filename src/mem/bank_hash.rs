//! Shared-memory bank index functions (van den Braak et al., "Configurable XOR Hash Functions for
//! Banked Scratchpad Memories in GPUs", IEEE TC 2016, here "XOR"; MODEL.md section 7).
//!
//! A bank index function maps a *word address* (byte address / bank width) to one of `2^m`
//! banks. Every function the paper defines is a linear map over GF(2): bank bit `i` is the XOR of
//! a few word-address bits. [`BankHash`] is the configuration as the user writes it (a SPEC string
//! such as `bvxor:2,8,7`); [`BankHash::compile`] checks it against a bank count and returns a
//! [`BankFunction`], the small `Copy` value the shared-memory model calls once per lane per access.
//!
//! | SPEC | hardware (XOR section) | bank bit `i` |
//! |------|------------------------|--------------|
//! | `mod` | the baseline `mod 2^m` indexing (section 4) | `a[i]` |
//! | `bvperm:K` | bit-vector permutation (section 4.1) | `a[K+i]` |
//! | `bvxor:K1,K2,MASK` | bit-vector XOR (section 4.2, Fig. 5) | `a[K1+i] ^ (MASK[i] & a[K2+i])` |
//! | `bwperm:b0,b1,...` | bitwise permutation (section 4.3) | `a[b_i]` |
//! | `bwxor:t0,t1,...` | bitwise XOR (section 4.4, Table 3) | `a[x]` for a term `x`, `a[x]^a[y]` for `x^y` |
//! | `fixed-xor` | the fixed hash of ref. \[17\] (section 7.1) | `a[i] ^ a[m+i]` |
//!
//! Every function except `mod` and `fixed-xor` is configurable, and a configurable function costs
//! `hash_latency` extra cycles on every shared access (XOR section 4.5: the hash takes 250 ps of a
//! ~700 ps cycle, so the paper adds one cycle).

use std::fmt;
use std::str::FromStr;

/// Largest number of bank-index bits (so at most 65,536 banks).
pub const MAX_BANK_BITS: u32 = 16;

/// Word addresses are 64-bit; a bit number must be below this.
pub const WORD_ADDR_BITS: u32 = 64;

/// One term of a bitwise XOR function (XOR Table 3): a single word-address bit, or the XOR of two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum XorTerm {
    /// `3`: the word-address bit itself.
    Bit(u32),
    /// `3^8`: the XOR of two different word-address bits, kept in the order written.
    Pair(u32, u32),
}

impl XorTerm {
    /// The word-address bits XORed by this term, as a mask.
    pub fn mask(self) -> u64 {
        match self {
            XorTerm::Bit(b) => bit_mask(b),
            XorTerm::Pair(a, b) => bit_mask(a) ^ bit_mask(b),
        }
    }

    /// The largest word-address bit this term reads.
    pub fn max_bit(self) -> u32 {
        match self {
            XorTerm::Bit(b) => b,
            XorTerm::Pair(a, b) => a.max(b),
        }
    }
}

impl fmt::Display for XorTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XorTerm::Bit(b) => write!(f, "{b}"),
            XorTerm::Pair(a, b) => write!(f, "{a}^{b}"),
        }
    }
}

/// A shared-memory bank index function as configured (`shmem.hash`), one variant per function of
/// XOR section 4. Parse it from a SPEC string with [`str::parse`]; `Display` prints the same SPEC
/// back, and serde (de)serialises it as that string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum BankHash {
    /// `mod`: the low `m` word-address bits (the unhashed baseline).
    #[default]
    Mod,
    /// `bvperm:K`: bits `K..K+m` (XOR section 4.1).
    BvPerm { k: u32 },
    /// `bvxor:K1,K2,MASK`: `bank = (a >> K1) ^ ((a >> K2) & MASK)`, `m` bits (section 4.2).
    BvXor { k1: u32, k2: u32, mask: u32 },
    /// `bwperm:b0,b1,...`: bank bit `i` = word-address bit `b_i` (section 4.3).
    BwPerm(Vec<u32>),
    /// `bwxor:t0,t1,...`: bank bit `i` = term `t_i`, one bit or the XOR of two (section 4.4).
    BwXor(Vec<XorTerm>),
    /// `fixed-xor`: `a[0..m) ^ a[m..2m)`, the fixed hash of XOR ref. \[17\] (section 7.1).
    FixedXor,
}

/// What is wrong with a SPEC string or with a function for a given bank count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BankHashError {
    /// The name before `:` is not a known function.
    UnknownFunction(String),
    /// The function needs parameters after `:` and has none, or takes none and has some.
    Parameters {
        function: &'static str,
        expected: &'static str,
        found: String,
    },
    /// A number could not be read.
    BadNumber { what: String, text: String },
    /// A word-address bit number is 64 or more.
    BitOutOfRange { what: String, bit: u32 },
    /// A pair term XORs a bit with itself (always 0).
    SelfPair(u32),
    /// The bank count is not a power of two in `1..=65536`.
    BankCount(u32),
    /// A bitwise function has a different number of terms than `log2(banks)`.
    TermCount {
        function: &'static str,
        terms: usize,
        banks: u32,
        bank_bits: u32,
    },
    /// A `bvxor` mask has bits at or above `log2(banks)`.
    MaskTooWide { mask: u32, banks: u32 },
    /// A bit-vector reaches past word-address bit 63.
    VectorTooHigh {
        what: &'static str,
        k: u32,
        bank_bits: u32,
    },
}

impl fmt::Display for BankHashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BankHashError::UnknownFunction(name) => write!(
                f,
                "unknown bank hash function `{name}` (expected mod, bvperm:K, bvxor:K1,K2,MASK, \
                 bwperm:b0,b1,..., bwxor:t0,t1,... or fixed-xor)"
            ),
            BankHashError::Parameters { function, expected, found } => {
                write!(f, "`{function}` takes {expected}, found `{found}`")
            }
            BankHashError::BadNumber { what, text } => {
                write!(f, "{what}: `{text}` is not a non-negative decimal number")
            }
            BankHashError::BitOutOfRange { what, bit } => write!(
                f,
                "{what}: word-address bit {bit} is out of range (bits 0..={})",
                WORD_ADDR_BITS - 1
            ),
            BankHashError::SelfPair(b) => {
                write!(f, "term `{b}^{b}` XORs bit {b} with itself (always 0); write `{b}`")
            }
            BankHashError::BankCount(n) => write!(
                f,
                "bank count {n} is not a power of two between 1 and {}",
                1u32 << MAX_BANK_BITS
            ),
            BankHashError::TermCount { function, terms, banks, bank_bits } => write!(
                f,
                "`{function}` has {terms} term(s) but {banks} banks need log2({banks}) = {bank_bits}"
            ),
            BankHashError::MaskTooWide { mask, banks } => write!(
                f,
                "bvxor mask {mask} has bits outside the bank index (must be below {banks})"
            ),
            BankHashError::VectorTooHigh { what, k, bank_bits } => write!(
                f,
                "{what}={k} with {bank_bits} bank bits reaches past word-address bit {}",
                WORD_ADDR_BITS - 1
            ),
        }
    }
}

impl std::error::Error for BankHashError {}

fn bit_mask(bit: u32) -> u64 {
    if bit < WORD_ADDR_BITS {
        1u64 << bit
    } else {
        0
    }
}

fn parse_u32(what: impl Into<String>, text: &str) -> Result<u32, BankHashError> {
    let ok = !text.is_empty() && text.bytes().all(|c| c.is_ascii_digit());
    match text.parse::<u32>() {
        Ok(v) if ok => Ok(v),
        _ => Err(BankHashError::BadNumber {
            what: what.into(),
            text: text.to_string(),
        }),
    }
}

fn parse_bit(what: impl Into<String>, text: &str) -> Result<u32, BankHashError> {
    let what = what.into();
    let bit = parse_u32(what.clone(), text)?;
    if bit >= WORD_ADDR_BITS {
        return Err(BankHashError::BitOutOfRange { what, bit });
    }
    Ok(bit)
}

fn parse_term(index: usize, text: &str) -> Result<XorTerm, BankHashError> {
    let what = format!("bwxor term {index}");
    match text.split_once('^') {
        None => Ok(XorTerm::Bit(parse_bit(what, text)?)),
        Some((a, b)) => {
            let a = parse_bit(what.clone(), a)?;
            let b = parse_bit(what, b)?;
            if a == b {
                return Err(BankHashError::SelfPair(a));
            }
            Ok(XorTerm::Pair(a, b))
        }
    }
}

fn params<'a>(
    function: &'static str,
    expected: &'static str,
    rest: Option<&'a str>,
) -> Result<Vec<&'a str>, BankHashError> {
    match rest {
        Some(r) if !r.is_empty() => Ok(r.split(',').collect()),
        _ => Err(BankHashError::Parameters {
            function,
            expected,
            found: String::new(),
        }),
    }
}

impl FromStr for BankHash {
    type Err = BankHashError;

    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let (name, rest) = match spec.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (spec, None),
        };
        match name {
            "mod" | "fixed-xor" => {
                if let Some(r) = rest {
                    let function = if name == "mod" { "mod" } else { "fixed-xor" };
                    return Err(BankHashError::Parameters {
                        function,
                        expected: "no parameters",
                        found: r.to_string(),
                    });
                }
                Ok(if name == "mod" {
                    BankHash::Mod
                } else {
                    BankHash::FixedXor
                })
            }
            "bvperm" => {
                let p = params("bvperm", "one parameter K", rest)?;
                if p.len() != 1 {
                    return Err(BankHashError::Parameters {
                        function: "bvperm",
                        expected: "one parameter K",
                        found: rest.unwrap_or_default().to_string(),
                    });
                }
                Ok(BankHash::BvPerm {
                    k: parse_bit("bvperm K", p[0])?,
                })
            }
            "bvxor" => {
                let p = params("bvxor", "three parameters K1,K2,MASK", rest)?;
                if p.len() != 3 {
                    return Err(BankHashError::Parameters {
                        function: "bvxor",
                        expected: "three parameters K1,K2,MASK",
                        found: rest.unwrap_or_default().to_string(),
                    });
                }
                Ok(BankHash::BvXor {
                    k1: parse_bit("bvxor K1", p[0])?,
                    k2: parse_bit("bvxor K2", p[1])?,
                    mask: parse_u32("bvxor MASK", p[2])?,
                })
            }
            "bwperm" => {
                let p = params("bwperm", "a list of word-address bits b0,b1,...", rest)?;
                let bits = p
                    .iter()
                    .enumerate()
                    .map(|(i, t)| parse_bit(format!("bwperm bit {i}"), t))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(BankHash::BwPerm(bits))
            }
            "bwxor" => {
                let p = params("bwxor", "a list of terms such as 3 or 3^8", rest)?;
                let terms = p
                    .iter()
                    .enumerate()
                    .map(|(i, t)| parse_term(i, t))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(BankHash::BwXor(terms))
            }
            other => Err(BankHashError::UnknownFunction(other.to_string())),
        }
    }
}

impl fmt::Display for BankHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BankHash::Mod => f.write_str("mod"),
            BankHash::FixedXor => f.write_str("fixed-xor"),
            BankHash::BvPerm { k } => write!(f, "bvperm:{k}"),
            BankHash::BvXor { k1, k2, mask } => write!(f, "bvxor:{k1},{k2},{mask}"),
            BankHash::BwPerm(bits) => {
                f.write_str("bwperm:")?;
                write_list(f, bits)
            }
            BankHash::BwXor(terms) => {
                f.write_str("bwxor:")?;
                write_list(f, terms)
            }
        }
    }
}

fn write_list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

impl serde::Serialize for BankHash {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for BankHash {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// `log2(banks)` if `banks` is a power of two in `1..=65536`.
pub fn bank_bits(banks: u32) -> Result<u32, BankHashError> {
    if banks.is_power_of_two() && banks.trailing_zeros() <= MAX_BANK_BITS {
        Ok(banks.trailing_zeros())
    } else {
        Err(BankHashError::BankCount(banks))
    }
}

impl BankHash {
    /// True for the functions the paper configures per kernel (bvperm, bvxor, bwperm, bwxor):
    /// these add `hash_latency` cycles to every shared access (XOR section 4.5). `mod` and
    /// `fixed-xor` are wired in and add nothing.
    pub fn is_configurable(&self) -> bool {
        !matches!(self, BankHash::Mod | BankHash::FixedXor)
    }

    /// Checks the function against a bank count (a power of two; as many bitwise terms as
    /// `log2(banks)`; bit numbers and bit-vectors inside the 64-bit word address; a bvxor mask
    /// inside the bank index) and returns the compiled function.
    pub fn compile(&self, banks: u32) -> Result<BankFunction, BankHashError> {
        let m = bank_bits(banks)?;
        self.check_shape(banks, m)?;
        let rows = self.rows(m);
        let low = (banks - 1) as u64;
        let kind = match *self {
            BankHash::Mod => Kind::Mod,
            BankHash::BvPerm { k } => Kind::Shift { k },
            BankHash::BvXor { k1, k2, mask } => Kind::BvXor {
                k1,
                k2,
                mask: mask as u64,
            },
            BankHash::FixedXor => Kind::FixedXor,
            BankHash::BwPerm(_) | BankHash::BwXor(_) => Kind::Matrix,
        };
        Ok(BankFunction {
            kind,
            bits: m,
            low,
            rows,
        })
    }

    fn check_shape(&self, banks: u32, m: u32) -> Result<(), BankHashError> {
        let term_count = |function: &'static str, terms: usize| {
            if terms == m as usize {
                Ok(())
            } else {
                Err(BankHashError::TermCount {
                    function,
                    terms,
                    banks,
                    bank_bits: m,
                })
            }
        };
        let vector = |what: &'static str, k: u32| {
            if k + m <= WORD_ADDR_BITS {
                Ok(())
            } else {
                Err(BankHashError::VectorTooHigh {
                    what,
                    k,
                    bank_bits: m,
                })
            }
        };
        match self {
            BankHash::Mod | BankHash::FixedXor => Ok(()),
            BankHash::BvPerm { k } => vector("bvperm K", *k),
            BankHash::BvXor { k1, mask, .. } => {
                vector("bvxor K1", *k1)?;
                if (*mask as u64) >= banks as u64 {
                    return Err(BankHashError::MaskTooWide { mask: *mask, banks });
                }
                Ok(())
            }
            BankHash::BwPerm(bits) => term_count("bwperm", bits.len()),
            BankHash::BwXor(terms) => term_count("bwxor", terms.len()),
        }
    }

    /// Row `i` = the mask of word-address bits XORed into bank bit `i` (`m` rows used).
    fn rows(&self, m: u32) -> [u64; MAX_BANK_BITS as usize] {
        let mut rows = [0u64; MAX_BANK_BITS as usize];
        for (i, row) in rows.iter_mut().enumerate().take(m as usize) {
            let i = i as u32;
            *row = match self {
                BankHash::Mod => bit_mask(i),
                BankHash::BvPerm { k } => bit_mask(k + i),
                BankHash::BvXor { k1, k2, mask } => {
                    let second = if mask >> i & 1 == 1 {
                        bit_mask(k2 + i)
                    } else {
                        0
                    };
                    bit_mask(k1 + i) ^ second
                }
                BankHash::BwPerm(bits) => bit_mask(bits[i as usize]),
                BankHash::BwXor(terms) => terms[i as usize].mask(),
                BankHash::FixedXor => bit_mask(i) ^ bit_mask(m + i),
            };
        }
        rows
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Mod,
    Shift { k: u32 },
    BvXor { k1: u32, k2: u32, mask: u64 },
    FixedXor,
    Matrix,
}

/// A bank index function checked against a bank count: the XOR network in front of the banks
/// (XOR Fig. 5). `Copy` and allocation-free; [`BankFunction::bank`] is called per lane per shared
/// access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BankFunction {
    kind: Kind,
    bits: u32,
    low: u64,
    rows: [u64; MAX_BANK_BITS as usize],
}

/// The word-address bits XORed into one bank bit (for the app's address-bit panel, drawn like
/// XOR Fig. 5). An empty list means the bank bit is constant 0.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BankBitSources {
    /// Bank-index bit, 0 = least significant.
    pub bank_bit: u32,
    /// Word-address bits feeding it through XOR gates, ascending.
    pub word_bits: Vec<u32>,
}

impl BankFunction {
    /// The bank of a word address (byte address / bank width); bank bit 0 is the least
    /// significant bit of the result.
    #[inline]
    pub fn bank(&self, word_addr: u64) -> u32 {
        let b = match self.kind {
            Kind::Mod => word_addr,
            Kind::Shift { k } => shr(word_addr, k),
            Kind::BvXor { k1, k2, mask } => shr(word_addr, k1) ^ (shr(word_addr, k2) & mask),
            Kind::FixedXor => word_addr ^ shr(word_addr, self.bits),
            Kind::Matrix => self.matrix_bank(word_addr),
        };
        (b & self.low) as u32
    }

    fn matrix_bank(&self, word_addr: u64) -> u64 {
        let mut b = 0u64;
        for (i, row) in self.rows[..self.bits as usize].iter().enumerate() {
            b |= ((word_addr & row).count_ones() as u64 & 1) << i;
        }
        b
    }

    /// Number of banks (`2^m`).
    pub fn banks(&self) -> u32 {
        1 << self.bits
    }

    /// Number of bank-index bits `m`.
    pub fn bank_bits(&self) -> u32 {
        self.bits
    }

    /// For each bank bit, the mask of word-address bits XORed into it.
    pub fn row_masks(&self) -> &[u64] {
        &self.rows[..self.bits as usize]
    }

    /// Which word-address bits feed each bank bit, bank bit 0 first.
    pub fn sources(&self) -> Vec<BankBitSources> {
        self.row_masks()
            .iter()
            .enumerate()
            .map(|(i, &row)| BankBitSources {
                bank_bit: i as u32,
                word_bits: (0..WORD_ADDR_BITS).filter(|b| row >> b & 1 == 1).collect(),
            })
            .collect()
    }

    /// Rank over GF(2) of the bank-bit rows. A function of rank `m` reaches every bank and spreads
    /// every aligned block of `2^(highest bit + 1)` words evenly; a lower rank leaves banks unused
    /// (e.g. XOR Table 5's hist64 GH bitwise-XOR row `(6)(6^7)(6^8)(7)(7^8)`).
    pub fn rank(&self) -> u32 {
        gf2_rank(self.row_masks())
    }

    /// Highest word-address bit any bank bit reads, if any.
    pub fn highest_bit(&self) -> Option<u32> {
        let all = self.row_masks().iter().fold(0u64, |a, r| a | r);
        (all != 0).then(|| 63 - all.leading_zeros())
    }
}

#[inline]
fn shr(x: u64, k: u32) -> u64 {
    x.checked_shr(k).unwrap_or(0)
}

/// Rank over GF(2) of a set of bit-vectors (Gaussian elimination).
pub fn gf2_rank(rows: &[u64]) -> u32 {
    let mut basis: Vec<u64> = Vec::with_capacity(rows.len());
    for &r in rows {
        let mut v = r;
        for &b in &basis {
            v = v.min(v ^ b);
        }
        if v != 0 {
            basis.push(v);
            basis.sort_unstable_by(|a, b| b.cmp(a));
        }
    }
    basis.len() as u32
}
