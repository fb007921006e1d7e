//! Tests for the shared-memory bank-conflict model (MODEL.md section 7, issue 5's bank
//! arithmetic) and the XOR paper's access patterns (section 3.2, Eq. 10, Table 5).

use warpstep::mem::shared_banks::BankScratch;
use warpstep::mem::{BankConflict, BankHash, Broadcast, SharedBanks};

const ALL: u64 = u64::MAX;

fn banks(n: u32, width: u32, hash: &str, broadcast: Broadcast, parts: u32) -> SharedBanks {
    let h: BankHash = hash.parse().unwrap();
    SharedBanks::new(n, width, &h, broadcast, parts).unwrap()
}

fn fermi(hash: &str) -> SharedBanks {
    banks(32, 4, hash, Broadcast::Full, 1)
}

/// Byte addresses of 32 lanes reading 4-byte words `words[lane]`.
fn bytes(words: &[u64]) -> Vec<u64> {
    words.iter().map(|w| 4 * w).collect()
}

fn word_stride(s: u64, lanes: u64) -> Vec<u64> {
    (0..lanes).map(|t| 4 * s * t).collect()
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn check_grid(r: &BankConflict, n: u32) {
    // Every active lane appears exactly once in the grid, in its bank's column.
    let grid = r.grid(n);
    assert_eq!(grid.len() as u32, r.cycles);
    let cells: usize = grid.iter().flatten().map(|lanes| lanes.len()).sum();
    assert_eq!(cells, r.lanes.len());
}

#[test]
fn issue5_word_stride_s_has_degree_gcd_s_32() {
    let b = fermi("mod");
    for s in 1..=64u64 {
        let r = b.access(&word_stride(s, 32), ALL);
        let g = gcd(s, 32) as u32;
        assert_eq!(r.degree, g, "stride {s}");
        assert_eq!(r.cycles, g, "stride {s}");
        assert_eq!(r.extra_cycles, g - 1, "stride {s}");
        check_grid(&r, 32);
    }
}

#[test]
fn issue5_all_lanes_on_one_word_cost_one_pass() {
    let addrs = vec![128; 32];
    let r = fermi("mod").access(&addrs, ALL);
    assert_eq!((r.degree, r.cycles, r.extra_cycles), (1, 1, 0));
    assert!(r
        .lanes
        .iter()
        .all(|l| l.pass == 0 && l.merged && l.bank == 0));
    // Under limited broadcast the one word is the broadcast word: still one pass.
    let r = banks(32, 4, "mod", Broadcast::Limited, 1).access(&addrs, ALL);
    assert_eq!(r.cycles, 1);
}

#[test]
fn issue5_eight_byte_banks_make_stride_2_four_byte_accesses_conflict_free() {
    // XOR section 2 (K20): 4-byte elements at element stride 2 = byte stride 8.
    let addrs = word_stride(2, 32);
    assert_eq!(fermi("mod").access(&addrs, ALL).degree, 2);
    let kepler = banks(32, 8, "mod", Broadcast::Full, 1);
    let r = kepler.access(&addrs, ALL);
    assert_eq!((r.degree, r.cycles), (1, 1));
    // Unit-stride 4-byte elements pair up in 8-byte words: lanes 2i and 2i+1 share a word.
    let r = kepler.access(&word_stride(1, 32), ALL);
    assert_eq!(r.degree, 1);
    assert!(r.lanes[0].merged && r.lanes[1].merged && r.lanes[0].word == r.lanes[1].word);
}

#[test]
fn gpgpusim_limited_broadcast_picks_the_lowest_bank_not_the_lowest_lane() {
    // Lanes 0-5 read word 5 (bank 5); lanes 6-7 read word 2 (bank 2). GPGPU-Sim scans banks in
    // ascending order, so word 2 becomes the broadcast word: bank 2 costs 2 - (2 - 1) = 1 pass
    // and bank 5 costs all 6 of its lanes. A lowest-lane rule would merge word 5 and give 2.
    let words = [5, 5, 5, 5, 5, 5, 2, 2];
    let limited = banks(32, 4, "mod", Broadcast::Limited, 1);
    let r = limited.access(&bytes(&words), ALL);
    assert_eq!((r.degree, r.cycles, r.extra_cycles), (6, 6, 5));
    let passes: Vec<(u32, u32, bool)> =
        r.lanes.iter().map(|l| (l.bank, l.pass, l.merged)).collect();
    assert_eq!(
        passes,
        vec![
            (5, 0, false),
            (5, 1, false),
            (5, 2, false),
            (5, 3, false),
            (5, 4, false),
            (5, 5, false),
            (2, 0, true),
            (2, 0, true),
        ]
    );
    // Full broadcast merges both words: one pass.
    assert_eq!(fermi("mod").access(&bytes(&words), ALL).cycles, 1);
}

#[test]
fn gpgpusim_limited_broadcast_picks_the_lowest_word_in_the_bank() {
    // All in bank 0: lanes 0-1 read word 64, lanes 2-3 read word 32. GPGPU-Sim's std::map walks
    // words in ascending order, so word 32 is the broadcast word: bank 0 has 4 accesses, minus
    // (2 - 1) = 3 passes. Replay: lane 0, lane 1, then lanes 2+3 together.
    let words = [64, 64, 32, 32];
    let r = banks(32, 4, "mod", Broadcast::Limited, 1).access(&bytes(&words), ALL);
    assert_eq!(r.cycles, 3);
    let passes: Vec<u32> = r.lanes.iter().map(|l| l.pass).collect();
    assert_eq!(passes, vec![0, 1, 2, 2]);
    // Full broadcast: two distinct words, two passes.
    assert_eq!(fermi("mod").access(&bytes(&words), ALL).cycles, 2);
}

#[test]
fn gpgpusim_limited_broadcast_half_warps_on_two_words() {
    // Lanes 0-15 read word 0 (bank 0), lanes 16-31 word 1 (bank 1): only word 0 is broadcast,
    // so bank 1 serialises its 16 lanes (GPGPU-Sim: bank_accesses = 16).
    let words: Vec<u64> = (0..32).map(|t| t / 16).collect();
    let r = banks(32, 4, "mod", Broadcast::Limited, 1).access(&bytes(&words), ALL);
    assert_eq!((r.degree, r.cycles), (16, 16));
    assert_eq!(fermi("mod").access(&bytes(&words), ALL).cycles, 1);
}

#[test]
fn warp_parts_two_halves() {
    // Word stride 2: each half-warp of 16 lanes hits 16 different banks.
    let addrs = word_stride(2, 32);
    let r = banks(32, 4, "mod", Broadcast::Full, 2).access(&addrs, ALL);
    assert_eq!((r.degree, r.cycles, r.extra_cycles), (1, 2, 0));
    assert_eq!(r.sub_warp_cycles, vec![1, 1]);
    assert_eq!(r.lanes[16].sub_warp, 1);
    assert_eq!(r.lanes[16].pass, 1);
    // Word stride 32: each half is 16-way.
    let r = banks(32, 4, "mod", Broadcast::Full, 2).access(&word_stride(32, 32), ALL);
    assert_eq!((r.degree, r.cycles, r.extra_cycles), (16, 32, 30));
    // With only the first half active, the second sub-warp costs nothing.
    let r = banks(32, 4, "mod", Broadcast::Full, 2).access(&word_stride(32, 32), 0xffff);
    assert_eq!((r.degree, r.cycles, r.extra_cycles), (16, 16, 15));
    assert_eq!(r.sub_warp_cycles, vec![16, 0]);
}

#[test]
fn inactive_lanes_take_no_part() {
    let addrs = word_stride(32, 32);
    let r = fermi("mod").access(&addrs, 0b1111);
    assert_eq!((r.degree, r.cycles), (4, 4));
    assert_eq!(r.lanes.len(), 4);
    let r = fermi("mod").access(&addrs, 0);
    assert_eq!((r.degree, r.cycles, r.extra_cycles), (0, 0, 0));
    assert!(r.lanes.is_empty());
    // Lanes beyond the address slice are ignored even when their mask bit is set.
    let r = fermi("mod").access(&addrs[..3], ALL);
    assert_eq!(r.cycles, 3);
}

#[test]
fn replay_order_is_lowest_lane_first_within_a_bank() {
    // Word stride 16: bank 0 gets lanes 0, 2, 4, ..., bank 16 gets lanes 1, 3, 5, ...
    let r = fermi("mod").access(&word_stride(16, 32), ALL);
    assert_eq!(r.degree, 16);
    let per_bank = r.lanes_per_bank(32);
    assert_eq!(per_bank[0], (0..32).step_by(2).collect::<Vec<u32>>());
    assert_eq!(per_bank[16], (1..32).step_by(2).collect::<Vec<u32>>());
    let grid = r.grid(32);
    assert_eq!(grid[0][0], vec![0]);
    assert_eq!(grid[0][16], vec![1]);
    assert_eq!(grid[15][0], vec![30]);
    assert_eq!(grid[15][16], vec![31]);
}

#[test]
fn access_into_reuses_buffers() {
    let b = fermi("mod");
    let mut out = BankConflict::default();
    b.access_into(&word_stride(2, 32), ALL, &mut out);
    let cap = out.lanes.capacity();
    b.access_into(&word_stride(4, 32), ALL, &mut out);
    assert_eq!(out.degree, 4);
    assert_eq!(out.lanes.capacity(), cap);
    assert_eq!(out, b.access(&word_stride(4, 32), ALL));
}

#[test]
fn model_section7_atomics_serialise_per_address() {
    let b = fermi("mod");
    // All lanes on one address: 32 read-modify-writes one after another.
    let r = b.atomic(&[64; 32], ALL);
    assert_eq!((r.degree, r.cycles), (32, 32));
    assert!(r.lanes.iter().all(|l| !l.merged));
    // Distinct banks: one pass.
    assert_eq!(b.atomic(&word_stride(1, 32), ALL).cycles, 1);
    // Two addresses in different banks, 16 lanes each: 16 passes.
    let words: Vec<u64> = (0..32).map(|t| t % 2).collect();
    assert_eq!(b.atomic(&bytes(&words), ALL).cycles, 16);
}

#[test]
fn bad_geometry_is_an_error() {
    let h = BankHash::Mod;
    assert!(SharedBanks::new(32, 2, &h, Broadcast::Full, 1).is_err());
    assert!(SharedBanks::new(32, 4, &h, Broadcast::Full, 0).is_err());
    assert!(SharedBanks::new(32, 4, &h, Broadcast::Full, 65).is_err());
    assert!(SharedBanks::new(48, 4, &h, Broadcast::Full, 1).is_err());
    let bw: BankHash = "bwperm:0,1,2".parse().unwrap();
    let e = SharedBanks::new(32, 4, &bw, Broadcast::Full, 1).unwrap_err();
    assert!(e.to_string().contains("need log2(32) = 5"));
}

// ---- Book / issue 5: transpose through a 32x32 float tile ------------------------------------

#[test]
fn issue5_transpose_32x32_column_reads_are_32_way_and_padding_fixes_them() {
    // Lane t reads tile[t][c]: word 32 t + c, or 33 t + c with the padded 32 x 33 tile.
    let column = |pitch: u64| (0..32).map(|t| 4 * (pitch * t + 5)).collect::<Vec<u64>>();
    assert_eq!(fermi("mod").access(&column(32), ALL).degree, 32);
    assert_eq!(fermi("mod").access(&column(33), ALL).degree, 1);
}

// ---- XOR section 3.2 / Table 5: transpose with TILE_DIM 16 and FWT ---------------------------

/// XOR section 3.2.2, warp 0, i = 0: 0, 16, 32, ..., 240, 1, 17, ..., 241.
fn transpose16_store() -> Vec<u64> {
    bytes(
        &(0..32)
            .map(|l| 16 * (l % 16) + l / 16)
            .collect::<Vec<u64>>(),
    )
}

/// XOR section 3.2.1: 0, 1, 2, ..., 31.
fn transpose16_load() -> Vec<u64> {
    bytes(&(0..32).collect::<Vec<u64>>())
}

#[test]
fn section322_transpose16_store_is_8_way_under_mod() {
    let store = transpose16_store();
    assert_eq!(&store[..3], &[0, 64, 128]);
    assert_eq!(store[16], 4);
    let r = fermi("mod").access(&store, ALL);
    assert_eq!(r.degree, 8);
    assert_eq!(fermi("mod").access(&transpose16_load(), ALL).degree, 1);
}

#[test]
fn table5_transpose_configurations_on_the_store_and_load() {
    // (spec, store degree, load degree). The paper's text (section 7.1) says the configurable
    // functions remove the transpose's conflicts. The bit-vector XOR and the MIH bitwise-XOR rows
    // do so here. A bitwise permutation cannot: the load needs bits {0..4} and the store
    // {0, 4..7}, and Table 5's (0)(4)(1)(2)(3) keeps the store 8-way. The GH bitwise-XOR row
    // (0)(0^4)(1^4)(1^5)(2^6) leaves both 2-way (it never reads tx bit 3). Computed by this model.
    for (spec, store, load) in [
        ("bvxor:0,4,14", 1, 1),
        ("bwperm:0,4,1,2,3", 8, 1),
        ("bwxor:0,0^4,1^4,1^5,2^6", 2, 2),
        ("bwxor:0,4,1^5,2^6,3^7", 1, 1),
    ] {
        let b = fermi(spec);
        assert_eq!(
            b.access(&transpose16_store(), ALL).degree,
            store,
            "{spec} store"
        );
        assert_eq!(
            b.access(&transpose16_load(), ALL).degree,
            load,
            "{spec} load"
        );
    }
}

#[test]
fn eq10_fwt_stride_8_is_4_way_under_mod() {
    // XOR Eq. (10): s = 32 ty + tx, 0 <= tx < 8, 0 <= ty < 4 (section 3.2.4's list).
    let words: Vec<u64> = (0..32).map(|l| 32 * (l / 8) + l % 8).collect();
    assert_eq!(&words[6..10], &[6, 7, 32, 33]);
    let r = fermi("mod").access(&bytes(&words), ALL);
    assert_eq!(r.degree, 4);
    // Table 5's FWT bit-vector XOR (k1=0 k2=2 mask=31) spreads it over all 32 banks (computed).
    assert_eq!(fermi("bvxor:0,2,31").access(&bytes(&words), ALL).degree, 1);
    // The fixed hash of section 7.1 (a[0..4] ^ a[5..9]) leaves it 4-way (computed).
    assert_eq!(fermi("fixed-xor").access(&bytes(&words), ALL).degree, 4);
}

#[test]
fn section2_microbenchmark_way_and_stride() {
    // XOR section 2: GenIndex with way = 4, stride = 32: [0 32 64 96 4 5 6 ... 31] is 4-way.
    let words: Vec<u64> = (0..32).map(|t| if t < 4 { 32 * t } else { t }).collect();
    assert_eq!(fermi("mod").access(&bytes(&words), ALL).degree, 4);
}

// ---- Property: the model equals a literal transcription of GPGPU-Sim's loop -------------------

/// GPGPU-Sim `warp_inst_t::generate_mem_accesses`, shared-space case, transcribed: per sub-warp a
/// `std::map<bank, std::map<word, count>>` (BTreeMap here), then steps 2-4.
fn gpgpusim_cycles(
    b: &SharedBanks,
    addrs: &[u64],
    active: u64,
    limited: bool,
    parts: usize,
) -> u32 {
    use std::collections::BTreeMap;
    let size = addrs.len().div_ceil(parts);
    let mut total = 0;
    for part in 0..parts {
        let mut bank_accs: BTreeMap<u32, BTreeMap<u64, u32>> = BTreeMap::new();
        let lo = (part * size).min(addrs.len());
        let hi = ((part + 1) * size).min(addrs.len());
        for (t, addr) in addrs.iter().enumerate().take(hi).skip(lo) {
            if active >> t & 1 == 0 {
                continue;
            }
            let word = addr / b.bank_width() as u64;
            let bank = b.function().bank(word);
            *bank_accs.entry(bank).or_default().entry(word).or_default() += 1;
        }
        let max = if limited {
            let broadcast = bank_accs
                .iter()
                .find_map(|(bank, ws)| ws.iter().find(|(_, &n)| n > 1).map(|(w, _)| (*bank, *w)));
            bank_accs
                .iter()
                .map(|(bank, ws)| {
                    let mut n: u32 = ws.values().sum();
                    if let Some((bb, bw)) = broadcast {
                        if bb == *bank {
                            n -= ws[&bw] - 1;
                        }
                    }
                    n
                })
                .max()
                .unwrap_or(0)
        } else {
            bank_accs
                .values()
                .map(|ws| ws.len() as u32)
                .max()
                .unwrap_or(0)
        };
        total += max;
    }
    total
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn property_cycles_match_gpgpusim_transcription() {
    let mut rng = XorShift(0xdead_beef);
    let hashes = [
        "mod",
        "bvxor:0,5,31",
        "bwxor:0,0^4,1^5,2^6,3^7",
        "fixed-xor",
        "bwperm:1,1,2,3,4",
    ];
    for round in 0..3000 {
        let lanes = 1 + (rng.next() % 64) as usize;
        let span = 1 + rng.next() % 256; // small ranges make repeated words and broadcasts likely
        let addrs: Vec<u64> = (0..lanes).map(|_| 4 * (rng.next() % span)).collect();
        let active = rng.next() | rng.next();
        let parts = [1, 2, 4][round % 3];
        let width = if round % 5 == 0 { 8 } else { 4 };
        let hash = hashes[round % hashes.len()];
        for broadcast in [Broadcast::Full, Broadcast::Limited] {
            let b = banks(32, width, hash, broadcast, parts as u32);
            let r = b.access(&addrs, active);
            let want = gpgpusim_cycles(&b, &addrs, active, broadcast == Broadcast::Limited, parts);
            assert_eq!(
                r.cycles, want,
                "{hash} {broadcast} parts {parts} {addrs:?} {active:#x}"
            );
            check_grid(&r, 32);
            // No two lanes share a (pass, bank) cell unless they read the same word.
            for x in &r.lanes {
                for y in &r.lanes {
                    if x.pass == y.pass && x.bank == y.bank {
                        assert_eq!(x.word, y.word);
                    }
                }
            }
        }
    }
}

#[test]
fn many_words_in_one_bank_are_told_apart_by_the_word_table() {
    // Lane l reads word 32 * (l % 12): twelve words of bank 0, each read by two or three lanes,
    // more than the scan limit (8), so the later lanes find their word in the word table.
    let addrs: Vec<u64> = (0..32).map(|l| 4 * 32 * (l % 12)).collect();
    let mut scratch = BankScratch::default();
    let mut out = BankConflict::default();
    let full = banks(32, 4, "mod", Broadcast::Full, 1);
    let limited = banks(32, 4, "mod", Broadcast::Limited, 1);
    full.access_with(&addrs, ALL, &mut scratch, &mut out);
    assert_eq!((out.degree, out.cycles), (12, 12));
    assert!(out.lanes.iter().all(|l| l.pass == l.lane % 12 && l.merged));
    // Limited: only word 0 (lanes 0, 12, 24) is broadcast; every other lane has its pass.
    limited.access_with(&addrs, ALL, &mut scratch, &mut out);
    assert_eq!(out.cycles, 30);
    // The scratch is clean again: the same access costs the same.
    assert_eq!(limited.access(&addrs, ALL), out);
    // Atomics never merge: 32 passes.
    full.atomic_with(&addrs, ALL, &mut scratch, &mut out);
    assert_eq!(out.cycles, 32);
}
