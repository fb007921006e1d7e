//! Tests for the bank index functions of XOR section 4 (van den Braak et al., IEEE TC 2016):
//! SPEC parsing and printing, validation, Fig. 5, Table 5, and distribution properties.

use warpstep::mem::bank_hash::{gf2_rank, BankHashError};
use warpstep::mem::{BankHash, XorTerm};

fn parse(spec: &str) -> BankHash {
    spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn sources(spec: &str, banks: u32) -> Vec<Vec<u32>> {
    parse(spec)
        .compile(banks)
        .unwrap()
        .sources()
        .into_iter()
        .map(|s| s.word_bits)
        .collect()
}

/// Reference evaluation straight from the table in bank_hash.rs's doc: bank bit i = XOR of the
/// word-address bits the description lists.
fn reference_bank(spec: &str, banks: u32, a: u64) -> u32 {
    sources(spec, banks)
        .iter()
        .enumerate()
        .map(|(i, bits)| (bits.iter().fold(0, |x, &b| x ^ (a >> b & 1)) as u32) << i)
        .sum()
}

#[test]
fn specs_round_trip() {
    for spec in [
        "mod",
        "fixed-xor",
        "bvperm:3",
        "bvxor:2,8,7",
        "bvxor:1,0,0",
        "bwperm:0,4,1,2,3",
        "bwxor:0,0^4,1^4,1^5,2^6",
        "bwxor:3^8,2^7,1^6,0^5,4",
        "bwxor:8^3,7,6,5,4",
    ] {
        let h = parse(spec);
        assert_eq!(h.to_string(), spec);
        assert_eq!(parse(&h.to_string()), h);
        let json = serde_json::to_string(&h).unwrap();
        assert_eq!(json, format!("\"{spec}\""));
        assert_eq!(serde_json::from_str::<BankHash>(&json).unwrap(), h);
    }
    assert_eq!(
        parse("bvxor:2,8,7"),
        BankHash::BvXor {
            k1: 2,
            k2: 8,
            mask: 7
        }
    );
    assert_eq!(
        parse("bwxor:3,3^8"),
        BankHash::BwXor(vec![XorTerm::Bit(3), XorTerm::Pair(3, 8)])
    );
    assert_eq!(BankHash::default(), BankHash::Mod);
}

#[test]
fn bad_specs_name_the_problem() {
    let err = |s: &str| s.parse::<BankHash>().unwrap_err();
    assert_eq!(
        err("modulo"),
        BankHashError::UnknownFunction("modulo".into())
    );
    assert!(err("bvxor:1,2").to_string().contains("K1,K2,MASK"));
    assert!(err("bvperm").to_string().contains("bvperm"));
    assert!(err("bvperm:").to_string().contains("one parameter K"));
    assert!(err("mod:3").to_string().contains("no parameters"));
    assert!(err("bvperm:x").to_string().contains("bvperm K: `x`"));
    assert!(err("bvperm:-1").to_string().contains("`-1`"));
    assert!(err("bwperm:0,1,,3").to_string().contains("bwperm bit 2"));
    assert_eq!(err("bwxor:1,3^3"), BankHashError::SelfPair(3));
    assert!(err("bwxor:1,3^x").to_string().contains("bwxor term 1"));
    assert!(err("bwperm:0,64")
        .to_string()
        .contains("bit 64 is out of range"));
    assert!(err("bvxor:0,99,1").to_string().contains("bvxor K2"));
    assert!(serde_json::from_str::<BankHash>("\"bvxor:1\"").is_err());
}

#[test]
fn validation_against_the_bank_count() {
    let e = |spec: &str, banks| parse(spec).compile(banks).unwrap_err().to_string();
    assert!(e("mod", 24).contains("not a power of two"));
    assert!(e("mod", 0).contains("not a power of two"));
    assert!(e("bwperm:0,1,2", 32).contains("3 term(s) but 32 banks need log2(32) = 5"));
    assert!(e("bwxor:0,1,2,3,4,5", 32).contains("6 term(s)"));
    assert!(e("bvxor:0,4,32", 32).contains("mask 32"));
    assert!(e("bvperm:60", 32).contains("reaches past word-address bit 63"));
    assert!(parse("bwperm:0,1,2").compile(8).is_ok());
    assert!(parse("bvxor:0,4,31").compile(32).is_ok());
    assert!(parse("mod").compile(1 << 16).is_ok());
    assert!(parse("mod").compile(1 << 17).is_err());
    assert_eq!(parse("mod").compile(1).unwrap().bank(12345), 0);
}

#[test]
fn configurable_functions_cost_hash_latency() {
    assert!(!parse("mod").is_configurable());
    assert!(!parse("fixed-xor").is_configurable());
    for spec in [
        "bvperm:1",
        "bvxor:0,5,31",
        "bwperm:0,1,2,3,4",
        "bwxor:0,1,2,3,4^5",
    ] {
        assert!(parse(spec).is_configurable(), "{spec}");
    }
}

#[test]
fn fig5_bvxor_2_8_7() {
    // Fig. 5 / section 5.1: k1 = 2, k2 = 8, mask = 7 gives b0 = a2^a8, b1 = a3^a9,
    // b2 = a4^a10, b3 = a5, b4 = a6.
    assert_eq!(
        sources("bvxor:2,8,7", 32),
        vec![vec![2, 8], vec![3, 9], vec![4, 10], vec![5], vec![6]]
    );
    let f = parse("bvxor:2,8,7").compile(32).unwrap();
    let a: u64 = (1 << 2) | (1 << 8); // a2 = a8 = 1 -> b0 = 0
    assert_eq!(f.bank(a), 0);
    assert_eq!(f.bank(1 << 8), 1);
    assert_eq!(f.bank(1 << 10), 4);
    assert_eq!(f.bank(1 << 6), 16);
    assert_eq!(f.bank(0b111_1111_1100), 0b11000); // a2..a10 set: the XORed bits cancel
}

#[test]
fn sources_of_every_function() {
    assert_eq!(sources("mod", 8), vec![vec![0], vec![1], vec![2]]);
    assert_eq!(sources("bvperm:4", 4), vec![vec![4], vec![5]]);
    assert_eq!(sources("fixed-xor", 4), vec![vec![0, 2], vec![1, 3]]);
    assert_eq!(sources("bwperm:7,2", 4), vec![vec![7], vec![2]]);
    assert_eq!(sources("bwxor:8^3,1", 4), vec![vec![3, 8], vec![1]]);
    // XOR section 7.1's fixed hash: bank = addr[0..4] ^ addr[5..9].
    assert_eq!(sources("fixed-xor", 32)[4], vec![4, 9]);
    // bvxor with k2 = k1 cancels the masked bits (the paper's "a_x ^ a_y = 0 if x = y").
    assert_eq!(sources("bvxor:1,1,1", 4), vec![vec![], vec![2]]);
}

const TABLE5: &[(&str, [&str; 5])] = &[
    // (benchmark, [bvxor, bwperm GH, bwperm MIH, bwxor GH, bwxor MIH]) from XOR Table 5.
    (
        "conv-1",
        [
            "bvxor:0,1,16",
            "bwperm:0,1,2,3,5",
            "bwperm:0,1,2,3,5",
            "bwxor:0,0^1,0^2,0^3,0^5",
            "bwxor:0,1,2,3,5",
        ],
    ),
    (
        "conv-2",
        [
            "bvxor:0,4,14",
            "bwperm:0,4,5,6,7",
            "bwperm:0,4,5,6,7",
            "bwxor:0,0^4,0^5,0^6,0^7",
            "bwxor:0,4,5,6,7",
        ],
    ),
    (
        "dct8x8-1",
        [
            "bvxor:0,5,7",
            "bwperm:3,4,0,1,2",
            "bwperm:3,4,0,1,2",
            "bwxor:0^3,0^4,0^5,1^6,2^7",
            "bwxor:3,4,0^5,1^6,2^7",
        ],
    ),
    (
        "dct8x8-2",
        [
            "bvxor:0,5,7",
            "bwperm:3,4,0,1,2",
            "bwperm:3,4,0,1,2",
            "bwxor:0^3,0^4,0^5,1^6,2^7",
            "bwxor:3,4,0^5,1^6,2^7",
        ],
    ),
    (
        "dwtHaar1D",
        [
            "bvxor:0,5,15",
            "bwperm:4,3,2,1,5",
            "bwperm:4,3,2,1,5",
            "bwxor:3^8,2^7,1^6,0^5,0^4",
            "bwxor:3^8,2^7,1^6,0^5,4",
        ],
    ),
    (
        "FFT-1",
        [
            "bvxor:1,10,1",
            "bwperm:10,5,1,2,3",
            "bwperm:10,5,4,3,2",
            "bwxor:1^2,1^3,1^4,1^5,1^10",
            "bwxor:1^2,1^3,1^4,1^5,1^10",
        ],
    ),
    (
        "FFT-2",
        [
            "bvxor:1,0,0",
            "bwperm:1,2,3,4,5",
            "bwperm:1,2,3,4,5",
            "bwxor:0^1,0^2,0^3,0^4,0^5",
            "bwxor:1,2,3,4,5",
        ],
    ),
    (
        "FWT",
        [
            "bvxor:0,2,31",
            "bwperm:0,1,2,3,4",
            "bwperm:4,3,2,1,0",
            "bwxor:0^2,0^3,0^4,0^5,1^6",
            "bwxor:0^2,0^3,0^4,0^5,1^6",
        ],
    ),
    (
        "hist64",
        [
            "bvxor:6,4,1",
            "bwperm:6,7,8,9,10",
            "bwperm:8,7,6,10,9",
            "bwxor:6,6^7,6^8,7,7^8",
            "bwxor:8,7,6,10,9",
        ],
    ),
    (
        "hist256",
        [
            "bvxor:0,6,28",
            "bwperm:8,9,10,11,12",
            "bwperm:0,1,2,3,4",
            "bwxor:4^8,3^9,2^12,1^10,0^7",
            "bwxor:4^8,3^9,2^11,0^10,1^2",
        ],
    ),
    (
        "lavaMD",
        [
            "bvxor:1,6,3",
            "bwperm:3,4,5,6,7",
            "bwperm:3,4,5,6,7",
            "bwxor:0^3,0^4,0^5,1^6,2^7",
            "bwxor:3,4,5,1^6,2^7",
        ],
    ),
    (
        "LUD-1",
        [
            "bvxor:0,5,7",
            "bwperm:0,1,2,3,4",
            "bwperm:0,1,2,3,7",
            "bwxor:0^4,1^5,2^6,3^7,0^1",
            "bwxor:0^4,1^5,2^6,3^7,13",
        ],
    ),
    (
        "LUD-2",
        [
            "bvxor:0,5,15",
            "bwperm:4,0,1,2,3",
            "bwperm:4,0,1,2,3",
            "bwxor:0^4,1^5,2^6,3^7,0^8",
            "bwxor:4,0^5,1^6,2^7,3^8",
        ],
    ),
    (
        "matrix scan",
        [
            "bvxor:0,5,7",
            "bwperm:3,4,5,6,7",
            "bwperm:3,4,7,6,5",
            "bwxor:0^3,0^4,0^5,1^6,2^7",
            "bwxor:3,4,0^5,1^6,2^7",
        ],
    ),
    (
        "MRI-grid-1",
        [
            "bvxor:0,5,31",
            "bwperm:4,3,5,2,1",
            "bwperm:4,3,2,5,1",
            "bwxor:4^9,3^8,2^7,1^6,0^5",
            "bwxor:0^5,1^6,2^7,3^8,4^9",
        ],
    ),
    (
        "MRI-grid-2",
        [
            "bvxor:1,6,1",
            "bwperm:5,4,3,2,6",
            "bwperm:2,3,4,5,1",
            "bwxor:1^6,0^5,0^4,4^5,0^3",
            "bwxor:2,3,4,5,1^6",
        ],
    ),
    (
        "MRI-grid-3",
        [
            "bvxor:1,6,1",
            "bwperm:5,4,3,2,6",
            "bwperm:2,3,4,5,1",
            "bwxor:1^6,0^5,0^4,4^5,0^3",
            "bwxor:2,3,4,5,1^6",
        ],
    ),
    (
        "MRI-grid-4",
        [
            "bvxor:0,5,3",
            "bwperm:2,3,4,6,5",
            "bwperm:6,3,2,5,4",
            "bwxor:0^2,3^6,2^3,2^4,1^4",
            "bwxor:6,3,2,0^4,1^5",
        ],
    ),
    (
        "NW-1",
        [
            "bvxor:0,5,7",
            "bwperm:4,5,6,1,0",
            "bwperm:4,5,6,7,0",
            "bwxor:1^4,2^5,0^6,4^5,3^7",
            "bwxor:0^5,2^4,3^6,1^7,4",
        ],
    ),
    (
        "NW-2",
        [
            "bvxor:0,5,15",
            "bwperm:4,5,6,1,0",
            "bwperm:4,5,6,7,0",
            "bwxor:1^4,2^5,0^6,4^5,3^7",
            "bwxor:1^4,2^5,3^6,0^7,4",
        ],
    ),
    (
        "reduction",
        [
            "bvxor:0,5,7",
            "bwperm:4,3,5,2,1",
            "bwperm:4,3,2,1,5",
            "bwxor:2^7,1^6,0^5,0^4,4^5",
            "bwxor:2^7,1^6,0^5,4,3",
        ],
    ),
    (
        "transpose",
        [
            "bvxor:0,4,14",
            "bwperm:0,4,1,2,3",
            "bwperm:0,4,1,2,3",
            "bwxor:0,0^4,1^4,1^5,2^6",
            "bwxor:0,4,1^5,2^6,3^7",
        ],
    ),
];

#[test]
fn table5_every_configuration_parses_and_runs() {
    assert_eq!(TABLE5.len(), 22); // the paper's 22 benchmarks
    let mut rng = XorShift(7);
    for (bench, specs) in TABLE5 {
        for spec in specs {
            let h = parse(spec);
            assert!(h.is_configurable());
            assert_eq!(h.to_string(), *spec, "{bench}");
            let f = h
                .compile(32)
                .unwrap_or_else(|e| panic!("{bench} {spec}: {e}"));
            for _ in 0..200 {
                let a = rng.next() & 0x3fff; // 14-bit word addresses (48 KB of 4-byte words)
                let b = f.bank(a);
                assert!(b < 32);
                assert_eq!(b, reference_bank(spec, 32, a), "{bench} {spec} a={a}");
            }
        }
    }
}

#[test]
fn table5_ranks() {
    // Every Table 5 configuration reaches all 32 banks except these GH bitwise-XOR rows, whose
    // terms are linearly dependent over GF(2) (Givargis' pairwise correlation cannot see a
    // three-term dependence). Computed from the table's printed terms.
    let deficient: Vec<(&str, u32)> = TABLE5
        .iter()
        .flat_map(|(bench, specs)| specs.iter().map(move |s| (*bench, *s)))
        .filter_map(|(bench, spec)| {
            let r = parse(spec).compile(32).unwrap().rank();
            (r < 5).then_some((bench, r))
        })
        .collect();
    // FWT's bwxor (0^2)(0^3)(0^4)(0^5)(1^6) is full rank; hist64 GH has 7 = 6 ^ (6^7) and
    // 7^8 = (6^7) ^ (6^8); MRI-grid-2/3 and reduction GH have 4^5 = (0^5) ^ (0^4).
    assert_eq!(
        deficient,
        vec![
            ("hist64", 3),
            ("MRI-grid-2", 4),
            ("MRI-grid-3", 4),
            ("reduction", 4)
        ]
    );
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

#[test]
fn property_mod_and_bvperm_are_bijections_on_aligned_blocks() {
    // XOR section 4.1: the bit-vector permutation with k maps the `banks` words at stride 2^k of
    // every aligned block of banks * 2^k words one per bank (k = 0 is mod).
    let mut rng = XorShift(99);
    for m in 1..=6u32 {
        let banks = 1u32 << m;
        for k in 0..5u32 {
            let f = BankHash::BvPerm { k }.compile(banks).unwrap();
            for _ in 0..20 {
                let block = rng.below(1 << 20) * ((banks as u64) << k);
                let offset = rng.below(1 << k);
                let mut seen = vec![false; banks as usize];
                for i in 0..banks as u64 {
                    let b = f.bank(block + offset + (i << k)) as usize;
                    assert!(!seen[b], "bvperm:{k} with {banks} banks repeats bank {b}");
                    seen[b] = true;
                }
            }
        }
    }
}

fn random_hash(rng: &mut XorShift, m: u32) -> BankHash {
    let bit = |rng: &mut XorShift| rng.below(12) as u32;
    match rng.below(6) {
        0 => BankHash::Mod,
        1 => BankHash::BvPerm { k: bit(rng) },
        2 => BankHash::BvXor {
            k1: bit(rng),
            k2: bit(rng),
            mask: rng.below(1 << m) as u32,
        },
        3 => BankHash::BwPerm((0..m).map(|_| bit(rng)).collect()),
        4 => BankHash::BwXor(
            (0..m)
                .map(|_| {
                    let (a, b) = (bit(rng), bit(rng));
                    if a == b {
                        XorTerm::Bit(a)
                    } else {
                        XorTerm::Pair(a, b)
                    }
                })
                .collect(),
        ),
        _ => BankHash::FixedXor,
    }
}

#[test]
fn property_full_rank_functions_spread_aligned_blocks_evenly() {
    // Every function here is linear over GF(2) (XOR section 4, [2]). One of full rank m puts
    // exactly 2^(N - m) words of every aligned block of 2^N words (N = highest bit read + 1) in
    // each bank; with m distinct bits a bitwise permutation is such a bijection on the bits it
    // selects (section 4.3). A rank-deficient one leaves banks empty.
    let mut rng = XorShift(2024);
    for _ in 0..300 {
        let m = 1 + rng.below(5) as u32;
        let banks = 1 << m;
        let h = random_hash(&mut rng, m);
        let f = h.compile(banks).unwrap();
        let n = f.highest_bit().map_or(0, |b| b + 1).max(m);
        let block = rng.below(1 << 10) << n;
        let mut count = vec![0u64; banks as usize];
        for a in 0..(1u64 << n) {
            count[f.bank(block + a) as usize] += 1;
        }
        let used = count.iter().filter(|&&c| c > 0).count() as u32;
        assert_eq!(used, 1 << f.rank(), "{h}");
        if f.rank() == m {
            assert!(count.iter().all(|&c| c == 1 << (n - m)), "{h}: {count:?}");
        }
    }
}

#[test]
fn property_bank_matches_reference_and_is_deterministic() {
    let mut rng = XorShift(31337);
    for _ in 0..200 {
        let m = 1 + rng.below(5) as u32;
        let h = random_hash(&mut rng, m);
        let spec = h.to_string();
        assert_eq!(parse(&spec), h);
        let f = h.compile(1 << m).unwrap();
        for _ in 0..50 {
            let a = rng.next();
            assert_eq!(f.bank(a), reference_bank(&spec, 1 << m, a), "{spec}");
            assert_eq!(f.bank(a), f.bank(a));
        }
    }
}

#[test]
fn gf2_rank_examples() {
    assert_eq!(gf2_rank(&[0b1, 0b10, 0b11]), 2);
    assert_eq!(gf2_rank(&[0b101, 0b011, 0b110]), 2);
    assert_eq!(gf2_rank(&[0, 0]), 0);
    assert_eq!(gf2_rank(&[1 << 63, 1, 1 << 40]), 3);
}
