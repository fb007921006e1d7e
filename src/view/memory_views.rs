//! The memory side of a snapshot (MODEL.md section 12): the shared-memory bank grid of the
//! access MEM0 serves, beside the same access under `mod` (XOR bank hashing §3.1), the L1D's
//! sets and queues, and the MRPB's queues (MRPB §3). Like the rest of the snapshot these only
//! copy what the model holds; [`recost`] reruns the shared-memory model itself on another bank
//! function.

use crate::config::{Config, MrpbBypass, MrpbDrain, MrpbSignature};
use crate::mem::l1d::FetchView;
use crate::mem::mrpb::{Choice, Mrpb, MrpbRequest, MrpbStats};
use crate::mem::mshr::MshrView;
use crate::mem::{
    AccessKind, BankConflict, BankHash, FailReason, L1d, L1dStats, LaneAccess, LineState,
    SharedBanks,
};
use crate::sim::Sim;
use crate::view::instr_view::InstrView;
use serde::Serialize;

/// The latest shared-memory access's bank grid under the configured bank function
/// (`shmem.hash`), and, when that is not `mod`, the same access under `mod` (MODEL.md section 12:
/// "baseline and hashed side by side"; XOR section 4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BankGridView {
    pub banks: u32,
    /// The access under the configured bank function (its fields appear at this level in JSON).
    #[serde(flatten)]
    pub configured: BankSideView,
    /// Whether the access was an atomic (lanes on one word serialise instead of broadcasting).
    pub atomic: bool,
    /// The same access under `mod` (the unhashed baseline), when the configured function is not
    /// `mod`.
    pub baseline: Option<BankSideView>,
    /// Whether MEM0 holds this access now (else it is the last shared access MEM0 served).
    pub in_mem0: bool,
    /// The warp slot and instruction whose access this is (while the instruction is in flight).
    pub warp: Option<u32>,
    pub instr: Option<InstrView>,
}

/// One access costed under one bank function.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BankSideView {
    /// The bank function's SPEC.
    pub hash: String,
    /// Cycles the function adds to every shared access (`shmem.hash_latency` for a
    /// configurable function, 0 for `mod` and `fixed-xor`; XOR section 4.5).
    pub hash_latency: u32,
    pub degree: u32,
    pub cycles: u32,
    pub extra_cycles: u32,
    pub lanes: Vec<LaneAccess>,
}

impl BankSideView {
    fn new(hash: &BankHash, hash_latency: u32, access: BankConflict) -> BankSideView {
        BankSideView {
            hash: hash.to_string(),
            hash_latency,
            degree: access.degree,
            cycles: access.cycles,
            extra_cycles: access.extra_cycles,
            lanes: access.lanes,
        }
    }
}

/// The L1 data cache of the selected SM (MODEL.md sections 9 and 12: "L1 sets and ways (valid /
/// reserved / LRU order), MSHRs, miss queue"). The lines themselves (sets x ways) are a flat
/// buffer, [`l1_lines`], since they are a regular grid drawn every frame (STYLE.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct L1View {
    pub sets: u32,
    pub ways: u32,
    pub line_bytes: u32,
    /// Sectors per line (1 for a normal cache, 4 for a sector cache).
    pub sectors: u32,
    /// The cache string's set-index function and replacement policy, in words.
    pub set_index: &'static str,
    pub replacement: &'static str,
    /// Hit latency (`l1d.latency`).
    pub latency: u32,
    pub mshr_entries: u32,
    pub mshr_max_merge: u32,
    pub miss_queue_entries: u32,
    /// Outstanding misses: line (or sector) address, requests merged, fill arrived.
    pub mshrs: Vec<MshrView>,
    /// Requests waiting for the interconnect, oldest first.
    pub miss_queue: Vec<FetchView>,
    /// This cycle's reservation failures, where they happened.
    pub fails: Vec<FailView>,
    /// This SM's L1D counters.
    pub stats: L1dStats,
}

/// A reservation failure of this cycle, placed where it happened (MODEL.md section 9): an `assoc`
/// failure in its set (every way RESERVED), an `mshr` failure at the MSHR entry of its line when
/// one exists (merge list full; otherwise the table is full), a `miss_queue` failure at the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FailView {
    pub reason: FailReason,
    pub addr: u64,
    /// The set the request maps to.
    pub set: Option<u32>,
    /// Index into [`L1View::mshrs`] of the entry for the request's line, if there is one.
    pub mshr: Option<u32>,
}

/// Line-state names by code, as [`l1_lines`] writes them (`LineState` in declaration order).
pub const LINE_STATES: [&str; 4] = ["invalid", "reserved", "valid", "modified"];

/// `u32` words per line in [`l1_lines`]: state code, LRU rank (0 = most recently used), block
/// address high and low 32 bits, sector states (2 bits per sector, sector 0 lowest).
pub const L1_LINE_WORDS: usize = 5;

/// The MRPB of one SM (MODEL.md sections 10 and 12: "one row per queue with its slots,
/// head/tail, age; the chosen queue this cycle and why").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MrpbView {
    pub signature: MrpbSignature,
    pub drain: MrpbDrain,
    pub flush: bool,
    pub bypass: MrpbBypass,
    pub depth: u32,
    pub latency: u32,
    /// Each queue's requests, head first.
    pub queues: Vec<Vec<MrpbEntryView>>,
    /// The request chosen and not yet taken by the L1D, with its queue.
    pub outbound: Option<(u32, MrpbEntryView)>,
    /// The queue served this cycle and why.
    pub choice: Option<(u32, Choice)>,
    /// The queue a write waits to see emptied.
    pub flushing: Option<u32>,
    /// The write held in the write register (flush on), and its queue.
    pub held_write: Option<(u32, MrpbEntryView)>,
    /// The request that went past the L1D to the L2 this cycle, and the failure that sent it.
    pub bypassed: Option<(FailReason, MrpbEntryView)>,
    pub stats: MrpbStats,
}

/// One request in the MRPB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MrpbEntryView {
    pub warp: u32,
    pub addr: u64,
    pub write: bool,
    /// Cycles since it entered the buffer.
    pub age: u64,
    /// The L1D set it maps to.
    pub set: Option<u32>,
}

pub(crate) fn mrpb_view(b: &Mrpb, l1: Option<&L1d>, now: u64) -> MrpbView {
    let entry = |r: &MrpbRequest| MrpbEntryView {
        warp: r.from.warp,
        addr: r.access.addr,
        write: r.access.kind != AccessKind::Read,
        age: now.saturating_sub(r.enqueued),
        set: l1.and_then(|l| l.set_of(&r.access)),
    };
    let c = b.config();
    MrpbView {
        signature: c.signature,
        drain: c.drain,
        flush: c.flush,
        bypass: c.bypass,
        depth: c.queue_depth,
        latency: c.latency,
        queues: b
            .queues()
            .iter()
            .map(|q| q.iter().map(entry).collect())
            .collect(),
        outbound: b.outbound().map(|(q, r)| (q, entry(r))),
        choice: b.last_choice(),
        flushing: b.flushing(),
        held_write: b.held_write().map(|(q, r)| (q, entry(r))),
        bypassed: b.bypassed_now().map(|(f, r)| (f, entry(r))),
        stats: b.stats.clone(),
    }
}

/// Cycles `hash` adds to a shared access under `config` (XOR section 4.5).
fn hash_latency(config: &Config, hash: &BankHash) -> u32 {
    if hash.is_configurable() {
        config.shmem.hash_latency
    } else {
        0
    }
}

pub(crate) fn bank_grid_view(
    config: &Config,
    last: &BankConflict,
    in_mem0: bool,
    whose: Option<(u32, InstrView)>,
) -> BankGridView {
    let hash = &config.shmem.hash;
    let (warp, instr) = whose.unzip();
    BankGridView {
        banks: config.shmem.banks,
        configured: BankSideView::new(hash, hash_latency(config, hash), last.clone()),
        atomic: last.atomic,
        baseline: (*hash != BankHash::Mod)
            .then(|| BankSideView::new(&BankHash::Mod, 0, recost(config, last, &BankHash::Mod))),
        in_mem0,
        warp,
        instr,
    }
}

/// The access `last` costed again by the shared-memory model ([`SharedBanks`], same banks,
/// width, broadcast rule and sub-warps) under bank function `hash`. Bank functions read word
/// addresses only, so each lane's byte address is its word times the bank width; an atomic is
/// costed as an atomic.
pub fn recost(config: &Config, last: &BankConflict, hash: &BankHash) -> BankConflict {
    let s = &config.shmem;
    let Ok(banks) = SharedBanks::new(s.banks, s.bank_width, hash, s.broadcast, s.warp_parts) else {
        return BankConflict::default();
    };
    let lanes = (config.core.warp_size as usize).min(crate::mem::shared_banks::MAX_LANES);
    let shift = s.bank_width.trailing_zeros();
    let mut addrs = vec![0u64; lanes];
    let mut active = 0u64;
    for l in last.lanes.iter().filter(|l| (l.lane as usize) < lanes) {
        addrs[l.lane as usize] = l.word << shift;
        active |= 1 << l.lane;
    }
    if last.atomic {
        banks.atomic(&addrs, active)
    } else {
        banks.access(&addrs, active)
    }
}

pub(crate) fn l1_view(config: &Config, l1: &L1d) -> Option<L1View> {
    let cache = l1.cache()?;
    let spec = cache.spec();
    let tags = cache.tags();
    let mshrs = cache.mshr_view();
    let fails = l1
        .fails()
        .iter()
        .map(|f| {
            let key = cache.mshr_key(f.addr);
            FailView {
                reason: f.reason,
                addr: f.addr,
                set: Some(tags.set_index(f.addr)),
                mshr: mshrs.iter().position(|m| m.addr == key).map(|i| i as u32),
            }
        })
        .collect();
    Some(L1View {
        sets: spec.sets,
        ways: spec.assoc,
        line_bytes: spec.line_bytes,
        sectors: if tags.sectored() { 4 } else { 1 },
        set_index: spec.set_index.description(),
        replacement: spec.replacement.description(),
        latency: config.l1d.latency,
        mshr_entries: spec.mshr_entries,
        mshr_max_merge: spec.mshr_max_merge,
        miss_queue_entries: spec.miss_queue,
        mshrs,
        miss_queue: cache.miss_queue().iter().map(FetchView::from).collect(),
        fails,
        stats: l1.stats(),
    })
}

/// The lines of SM `sm`'s L1D, set by set and way by way, [`L1_LINE_WORDS`] words each (empty
/// when there is no L1D), written into `out` (cleared first, so a caller can reuse it).
pub fn l1_lines(sim: &Sim, sm: usize, out: &mut Vec<u32>) {
    out.clear();
    let Some(cache) = sim.memory().l1ds().get(sm).and_then(L1d::cache) else {
        return;
    };
    let tags = cache.tags();
    for set in 0..tags.sets() {
        for line in tags.set_view(set) {
            let sectors = line
                .sectors
                .iter()
                .enumerate()
                .fold(0u32, |acc, (i, &st)| acc | state_code(st) << (2 * i));
            out.extend_from_slice(&[
                state_code(line.state),
                line.rank,
                (line.block >> 32) as u32,
                line.block as u32,
                sectors,
            ]);
        }
    }
}

/// A line state's code in [`LINE_STATES`].
pub fn state_code(s: LineState) -> u32 {
    match s {
        LineState::Invalid => 0,
        LineState::Reserved => 1,
        LineState::Valid => 2,
        LineState::Modified => 3,
    }
}
