//! The shared-memory bank-conflict model (MODEL.md section 7; book section 4.1.1; XOR section 1).
//!
//! Shared memory is `banks` single-ported banks, each `bank_width` bytes wide (4, 8 as on
//! Kepler, or 16: the unified memory's one bank per cluster, MODEL.md section 11). A lane's word is `byte_address / bank_width` and its bank is
//! [`BankFunction::bank`] of that word. A warp access is split into `warp_parts` sub-warps of
//! consecutive lanes; each sub-warp takes as many passes (cycles) as the busiest bank needs, and
//! the sub-warps' passes add up. Inactive lanes take no part.
//!
//! How a bank's lanes share passes follows GPGPU-Sim's `warp_inst_t::generate_mem_accesses`
//! (gpgpu-sim/gpgpu-sim_distribution, `src/abstract_hardware_model.cc`, `case shared_space`:
//! step 1 builds `bank_accs`, steps 2-4 pick the broadcast word and take the max over banks;
//! the switch is `-gpgpu_shmem_limited_broadcast` in `gpu-sim.cc`; releases before the switch,
//! e.g. commit 02a7cec, always apply the limited rule):
//! * [`Broadcast::Full`] (`-gpgpu_shmem_limited_broadcast 0`): all lanes reading the same word
//!   are served together, so a bank needs one pass per distinct word.
//! * [`Broadcast::Limited`] (`-gpgpu_shmem_limited_broadcast 1`): per sub-warp, GPGPU-Sim scans
//!   its `std::map` of bank -> word -> lane count in ascending bank, then ascending word order, and
//!   takes the *first* word read by more than one lane as the one broadcast word. In the bank
//!   holding it, that word's `n` lanes cost one pass (`bank_accesses -= n - 1`); every other lane
//!   costs its own pass, even when it reads the same word as another lane.
//!
//! GPGPU-Sim only counts passes; warpstep also records which lanes each pass serves, for the bank
//! grid view (MODEL.md section 12): within a bank, the entries (a word, or a single lane) are
//! served in the order of their lowest lane, and a merged word's lanes share a pass.
//!
//! An access wider than a bank is counted by its first word, as GPGPU-Sim does (it looks only at
//! `memreqaddr[0]`).

use super::bank_hash::{BankFunction, BankHash, BankHashError};
use std::fmt;

/// Most lanes one warp access can have (warp sizes up to 64).
pub const MAX_LANES: usize = 64;

pub use crate::config::Broadcast;

/// A bad shared-memory geometry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SharedBanksError {
    /// The hash does not fit the bank count (or the bank count is not a power of two).
    Hash(BankHashError),
    /// `bank_width` is not 4, 8 or 16.
    BankWidth(u32),
    /// `warp_parts` is not in `1..=64`.
    WarpParts(u32),
}

impl fmt::Display for SharedBanksError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SharedBanksError::Hash(e) => write!(f, "{e}"),
            SharedBanksError::BankWidth(w) => {
                write!(f, "bank width {w} is not supported (4, 8 or 16 bytes)")
            }
            SharedBanksError::WarpParts(p) => {
                write!(f, "warp_parts {p} is not between 1 and {MAX_LANES}")
            }
        }
    }
}

impl std::error::Error for SharedBanksError {}

impl From<BankHashError> for SharedBanksError {
    fn from(e: BankHashError) -> Self {
        SharedBanksError::Hash(e)
    }
}

/// The banked shared memory of one SM: bank count and width, bank index function, broadcast
/// rule, and how many sub-warps an access is split into (GPGPU-Sim `-gpgpu_shmem_warp_parts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SharedBanks {
    function: BankFunction,
    width_shift: u32,
    broadcast: Broadcast,
    warp_parts: u32,
}

/// One active lane's part in an access: where it went and in which pass it was served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LaneAccess {
    /// Lane index in the warp.
    pub lane: u32,
    /// Sub-warp the lane belongs to.
    pub sub_warp: u32,
    /// Word address (byte address / bank width).
    pub word: u64,
    /// Bank index.
    pub bank: u32,
    /// Pass (cycle of the access, counted over all sub-warps) in which the lane is served.
    pub pass: u32,
    /// True when other lanes are served the same word in the same pass (a broadcast).
    pub merged: bool,
}

/// The cost of one warp access to shared memory and its bank grid.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct BankConflict {
    /// Conflict degree: the most passes any sub-warp needs (MODEL.md section 7; with full
    /// broadcast, the most distinct words in one bank). 0 when no lane is active.
    pub degree: u32,
    /// Passes summed over the sub-warps: the cycles the LD/ST unit is held.
    pub cycles: u32,
    /// Bank-conflict cycles: `cycles` minus one per sub-warp with an active lane.
    pub extra_cycles: u32,
    /// Passes of each sub-warp, in order (0 for a sub-warp with no active lane).
    pub sub_warp_cycles: Vec<u32>,
    /// Active lanes in ascending lane order.
    pub lanes: Vec<LaneAccess>,
    /// True for an atomic ([`SharedBanks::atomic`]: lanes on one word never merge), so a view
    /// can re-cost the same access under another bank function the same way.
    pub atomic: bool,
}

impl BankConflict {
    /// The lanes that touched each bank (`banks` lists, ascending lanes), as `bank --json` prints.
    pub fn lanes_per_bank(&self, banks: u32) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new(); banks as usize];
        for l in &self.lanes {
            out[l.bank as usize].push(l.lane);
        }
        out
    }

    /// The grid for the view: `grid[pass][bank]` = lanes served by that bank in that pass.
    pub fn grid(&self, banks: u32) -> Vec<Vec<Vec<u32>>> {
        let mut out = vec![vec![Vec::new(); banks as usize]; self.cycles as usize];
        for l in &self.lanes {
            out[l.pass as usize][l.bank as usize].push(l.lane);
        }
        out
    }
}

/// How lanes on the same word share a pass.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Merge {
    /// All same-word lanes merge (full broadcast).
    All,
    /// Only the selected broadcast word merges (limited broadcast).
    Limited,
    /// No merging: atomics.
    None,
}

/// Slots of the per-sub-warp bank and word tables (at most 64 banks or words are live).
const TABLE: usize = 128;
const EMPTY: u32 = u32::MAX;
/// A free slot of the word table.
const NONE: u8 = u8::MAX;
/// A bank with this many distinct words finds a lane's word in the word table rather than by
/// comparing it with each of them (a 32-way conflict would otherwise compare 496 times).
const SCAN: u32 = 8;

/// Working memory for costing accesses: a small open-addressing table from bank to the passes
/// it has handed out, and one from word to its first lane for the banks that many words
/// share, so that an access costs O(lanes) whatever the bank count and conflicts. Between
/// accesses every slot is empty again, so one scratch serves any number of accesses: keep one
/// beside the [`SharedBanks`] that costs many ([`SharedBanks::access_with`]) rather than
/// building one per access.
#[derive(Debug, Clone)]
pub struct BankScratch {
    /// Bank in each slot ([`EMPTY`] when free).
    key: [u32; TABLE],
    /// Passes (entries) the slot's bank has handed out so far in the sub-warp.
    entries: [u32; TABLE],
    /// The sub-warp's lanes (as indices into its part of `BankConflict::lanes`) that first
    /// read a word of the slot's bank.
    firsts: [u64; TABLE],
    /// Distinct words the slot's bank has been read at so far in the sub-warp (the bits of
    /// `firsts`, counted as they are set).
    words: [u8; TABLE],
    /// Per lane of the sub-warp (same indices): its bank's table slot.
    slot: [u8; MAX_LANES],
    /// Per lane of the sub-warp: the first lane reading the same word (itself when none).
    group: [u8; MAX_LANES],
    /// Per lane of the sub-warp: its word.
    word: [u64; MAX_LANES],
    /// The word table, filled for banks with [`SCAN`] words or more: a word, and the lane of
    /// the sub-warp that first read it ([`NONE`] when the slot is free).
    word_key: [u64; TABLE],
    word_first: [u8; TABLE],
    /// Word-table slots taken in the current sub-warp.
    word_used: [u8; MAX_LANES],
    n_word_used: usize,
}

impl Default for BankScratch {
    fn default() -> Self {
        BankScratch {
            key: [EMPTY; TABLE],
            entries: [0; TABLE],
            firsts: [0; TABLE],
            words: [0; TABLE],
            slot: [0; MAX_LANES],
            group: [0; MAX_LANES],
            word: [0; MAX_LANES],
            word_key: [0; TABLE],
            word_first: [NONE; TABLE],
            word_used: [0; MAX_LANES],
            n_word_used: 0,
        }
    }
}

impl BankScratch {
    /// The table slot of `bank`, claimed (and zeroed) on first use.
    fn slot_of(&mut self, bank: u32) -> usize {
        let mut h = bank as usize & (TABLE - 1);
        loop {
            if self.key[h] == bank {
                return h;
            }
            if self.key[h] == EMPTY {
                self.key[h] = bank;
                self.entries[h] = 0;
                self.firsts[h] = 0;
                self.words[h] = 0;
                return h;
            }
            h = (h + 1) & (TABLE - 1);
        }
    }

    /// The earlier lane of the sub-warp that first read `word`, in the bank of slot `h`.
    fn first_reader(&self, h: usize, word: u64) -> Option<usize> {
        if u32::from(self.words[h]) < SCAN {
            return bits(self.firsts[h]).find(|&j| self.word[j] == word);
        }
        let mut w = word_slot(word);
        loop {
            match self.word_first[w] {
                NONE => return None,
                j if self.word_key[w] == word => return Some(j as usize),
                _ => w = (w + 1) & (TABLE - 1),
            }
        }
    }

    /// Lane `k` is the first to read its word in the bank of slot `h`.
    fn add_first(&mut self, h: usize, k: usize) {
        self.firsts[h] |= 1 << k;
        self.words[h] += 1;
        match u32::from(self.words[h]) {
            n if n < SCAN => {}
            n if n == SCAN => bits(self.firsts[h]).for_each(|j| self.index_word(j)),
            _ => self.index_word(k),
        }
    }

    /// Puts lane `k`'s word in the word table.
    fn index_word(&mut self, k: usize) {
        let word = self.word[k];
        let mut w = word_slot(word);
        while self.word_first[w] != NONE {
            w = (w + 1) & (TABLE - 1);
        }
        self.word_key[w] = word;
        self.word_first[w] = k as u8;
        self.word_used[self.n_word_used] = w as u8;
        self.n_word_used += 1;
    }

    /// Frees the slots the sub-warp's `lanes` lanes took.
    fn clear_table(&mut self, lanes: usize) {
        for &h in &self.slot[..lanes] {
            self.key[h as usize] = EMPTY;
        }
        for &w in &self.word_used[..self.n_word_used] {
            self.word_first[w as usize] = NONE;
        }
        self.n_word_used = 0;
    }
}

/// The word table's home slot of `word` (Fibonacci hashing: its top bits after a multiply).
fn word_slot(word: u64) -> usize {
    (word.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - TABLE.trailing_zeros())) as usize
}

impl SharedBanks {
    /// Checks the geometry: `banks` a power of two that `hash` fits, `bank_width` 4, 8 or 16,
    /// `warp_parts` in `1..=64`.
    pub fn new(
        banks: u32,
        bank_width: u32,
        hash: &BankHash,
        broadcast: Broadcast,
        warp_parts: u32,
    ) -> Result<Self, SharedBanksError> {
        let function = hash.compile(banks)?;
        Self::from_function(function, bank_width, broadcast, warp_parts)
    }

    /// As [`SharedBanks::new`] with an already compiled bank index function.
    pub fn from_function(
        function: BankFunction,
        bank_width: u32,
        broadcast: Broadcast,
        warp_parts: u32,
    ) -> Result<Self, SharedBanksError> {
        if !matches!(bank_width, 4 | 8 | 16) {
            return Err(SharedBanksError::BankWidth(bank_width));
        }
        if warp_parts == 0 || warp_parts as usize > MAX_LANES {
            return Err(SharedBanksError::WarpParts(warp_parts));
        }
        let width_shift = bank_width.trailing_zeros();
        Ok(SharedBanks {
            function,
            width_shift,
            broadcast,
            warp_parts,
        })
    }

    /// The bank index function.
    pub fn function(&self) -> &BankFunction {
        &self.function
    }

    /// Number of banks.
    pub fn banks(&self) -> u32 {
        self.function.banks()
    }

    /// Bank width in bytes.
    pub fn bank_width(&self) -> u32 {
        1 << self.width_shift
    }

    /// The broadcast rule.
    pub fn broadcast(&self) -> Broadcast {
        self.broadcast
    }

    /// Sub-warps per access.
    pub fn warp_parts(&self) -> u32 {
        self.warp_parts
    }

    /// Cost and grid of a load or store: `byte_addrs[lane]` for every lane of the warp (at most
    /// 64), `active` bit `lane` set for the lanes that take part.
    pub fn access(&self, byte_addrs: &[u64], active: u64) -> BankConflict {
        let mut out = BankConflict::default();
        self.access_into(byte_addrs, active, &mut out);
        out
    }

    /// As [`SharedBanks::access`], reusing `out`'s buffers (no allocation once they have grown).
    pub fn access_into(&self, byte_addrs: &[u64], active: u64, out: &mut BankConflict) {
        self.access_with(byte_addrs, active, &mut BankScratch::default(), out);
    }

    /// As [`SharedBanks::access_into`], with working memory `scratch` kept by the caller: what
    /// the LD/ST unit calls for every shared access.
    pub fn access_with(
        &self,
        byte_addrs: &[u64],
        active: u64,
        scratch: &mut BankScratch,
        out: &mut BankConflict,
    ) {
        self.run(
            byte_addrs,
            self.width_shift,
            active,
            self.merge(),
            scratch,
            out,
        );
    }

    /// As [`SharedBanks::access_into`] for addresses that are already word addresses.
    pub fn access_words_into(&self, word_addrs: &[u64], active: u64, out: &mut BankConflict) {
        let scratch = &mut BankScratch::default();
        self.run(word_addrs, 0, active, self.merge(), scratch, out);
    }

    /// Cost and grid of a shared-memory atomic (MODEL.md section 7: atomics serialise per
    /// address). Lanes on the same address are never merged: each read-modify-write takes its own
    /// pass (book section 3.1.1: accesses by different threads of a warp to one location "are
    /// serialized"), lanes on different words of one bank serialise as in a bank conflict, and
    /// different banks work in parallel. So a sub-warp costs the most active lanes in one bank.
    pub fn atomic(&self, byte_addrs: &[u64], active: u64) -> BankConflict {
        let mut out = BankConflict::default();
        self.atomic_into(byte_addrs, active, &mut out);
        out
    }

    /// As [`SharedBanks::atomic`], reusing `out`'s buffers.
    pub fn atomic_into(&self, byte_addrs: &[u64], active: u64, out: &mut BankConflict) {
        self.atomic_with(byte_addrs, active, &mut BankScratch::default(), out);
    }

    /// As [`SharedBanks::atomic_into`], with working memory `scratch` kept by the caller.
    pub fn atomic_with(
        &self,
        byte_addrs: &[u64],
        active: u64,
        scratch: &mut BankScratch,
        out: &mut BankConflict,
    ) {
        self.run(
            byte_addrs,
            self.width_shift,
            active,
            Merge::None,
            scratch,
            out,
        );
    }

    /// How a load's or store's same-word lanes merge under the broadcast rule.
    fn merge(&self) -> Merge {
        match self.broadcast {
            Broadcast::Full => Merge::All,
            Broadcast::Limited => Merge::Limited,
        }
    }

    fn run(
        &self,
        addrs: &[u64],
        shift: u32,
        active: u64,
        merge: Merge,
        s: &mut BankScratch,
        out: &mut BankConflict,
    ) {
        let n = addrs.len().min(MAX_LANES);
        let active = active & span(0, n);
        out.atomic = merge == Merge::None;
        out.degree = 0;
        out.cycles = 0;
        out.extra_cycles = 0;
        out.sub_warp_cycles.clear();
        out.lanes.clear();
        let parts = self.warp_parts as usize;
        let size = n.div_ceil(parts).max(1);
        for part in 0..parts {
            let lo = (part * size).min(n);
            let hi = ((part + 1) * size).min(n);
            let lanes = active & span(lo, hi);
            let cost = self.sub_warp(s, addrs, shift, lanes, part as u32, merge, out);
            out.sub_warp_cycles.push(cost);
            out.degree = out.degree.max(cost);
            out.cycles += cost;
            out.extra_cycles += cost.saturating_sub(1);
        }
    }

    /// The usual, conflict-free case of [`Self::sub_warp`]: when no two of the `lanes` share a
    /// bank, appends each with the sub-warp's one pass and returns true; otherwise adds nothing
    /// and returns false (and always with more than 64 banks).
    fn distinct_banks(
        &self,
        addrs: &[u64],
        shift: u32,
        lanes: u64,
        part: u32,
        out: &mut BankConflict,
    ) -> bool {
        if self.function.banks() > 64 {
            return false;
        }
        let start = out.lanes.len();
        let mut seen = 0u64;
        for lane in bits(lanes) {
            let word = addrs[lane] >> shift;
            let bank = self.function.bank(word);
            if seen >> bank & 1 == 1 {
                out.lanes.truncate(start);
                return false;
            }
            seen |= 1 << bank;
            out.lanes.push(LaneAccess {
                lane: lane as u32,
                sub_warp: part,
                word,
                bank,
                pass: out.cycles,
                merged: false,
            });
        }
        true
    }

    /// Appends the active `lanes` of sub-warp `part` to `out.lanes`, each with its pass (counted
    /// from `out.cycles`, the passes of the sub-warps before); returns the sub-warp's passes.
    ///
    /// The lanes are taken in ascending order. A lane reading the same word as an earlier lane
    /// of its bank joins that lane's pass when the word merges; otherwise it takes its bank's
    /// next pass. Limited broadcast must see every word before it knows which one merges, so it
    /// hands out the passes in a second walk over the lanes.
    #[allow(clippy::too_many_arguments)]
    fn sub_warp(
        &self,
        s: &mut BankScratch,
        addrs: &[u64],
        shift: u32,
        lanes: u64,
        part: u32,
        merge: Merge,
        out: &mut BankConflict,
    ) -> u32 {
        if self.distinct_banks(addrs, shift, lanes, part, out) {
            return u32::from(lanes != 0);
        }
        let base = out.cycles;
        let start = out.lanes.len();
        let mut cost = 0;
        // The limited-broadcast word: of the words read by more than one lane, the one with the
        // lowest (bank, word), as GPGPU-Sim's map order finds it.
        let mut best: Option<(u32, u64)> = None;
        for (k, lane) in bits(lanes).enumerate() {
            let word = addrs[lane] >> shift;
            let bank = self.function.bank(word);
            let h = s.slot_of(bank);
            let mut access = LaneAccess {
                lane: lane as u32,
                sub_warp: part,
                word,
                bank,
                pass: 0,
                merged: false,
            };
            // The earlier lane of this bank reading the same word (atomics never merge).
            s.word[k] = word;
            let same = match merge {
                Merge::None => None,
                _ => s.first_reader(h, word),
            };
            match (same, merge) {
                (Some(j), Merge::All) => {
                    access.pass = out.lanes[start + j].pass;
                    access.merged = true;
                    out.lanes[start + j].merged = true;
                }
                (Some(j), _) => {
                    s.group[k] = j as u8;
                    if best.map_or(true, |b| (bank, word) < b) {
                        best = Some((bank, word));
                    }
                }
                (None, _) => {
                    s.group[k] = k as u8;
                    if merge != Merge::None {
                        s.add_first(h, k);
                    }
                    if merge != Merge::Limited {
                        access.pass = base + s.entries[h];
                        s.entries[h] += 1;
                        cost = cost.max(s.entries[h]);
                    }
                }
            }
            s.slot[k] = h as u8;
            out.lanes.push(access);
        }
        if merge == Merge::Limited {
            let broadcast_word = best.map(|(_, w)| w);
            for k in 0..out.lanes.len() - start {
                let first = s.group[k] as usize;
                if first != k && broadcast_word == Some(out.lanes[start + k].word) {
                    out.lanes[start + k].pass = out.lanes[start + first].pass;
                    out.lanes[start + k].merged = true;
                    out.lanes[start + first].merged = true;
                    continue;
                }
                let h = s.slot[k] as usize;
                out.lanes[start + k].pass = base + s.entries[h];
                s.entries[h] += 1;
                cost = cost.max(s.entries[h]);
            }
        }
        s.clear_table(out.lanes.len() - start);
        cost
    }
}

/// Lanes `lo..hi` as a mask.
fn span(lo: usize, hi: usize) -> u64 {
    let upto = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    upto(hi) & !upto(lo)
}

/// Set bits of a lane mask, ascending.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}
