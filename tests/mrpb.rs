//! MRPB (issue 13; Jia, Shaw and Martonosi, HPCA 2014; MODEL.md section 10): the paper's
//! reordering and bypassing examples as goldens, and properties over random request streams.

mod common;

use common::Rng;
use warpstep::config::cache_string::CacheSpec;
use warpstep::config::{Config, MrpbBypass, MrpbDrain, MrpbSignature};
use warpstep::mem::data_cache::{CacheRequest, DataCache, Outcome};
use warpstep::mem::mrpb::{Mrpb, Offer, Requester};
use warpstep::mem::{Access, AccessKind, DataSpace, FailReason};

fn buffer(edit: impl FnOnce(&mut Config)) -> Mrpb {
    let mut c = Config::preset("tesla-c2050-s").unwrap();
    c.mrpb.enabled = true;
    edit(&mut c);
    Mrpb::new(&c).unwrap()
}

fn warp(w: u32) -> Requester {
    Requester {
        warp: w,
        cta: w / 8,
        warp_in_cta: w % 8,
        block: u64::from(w / 8),
    }
}

fn access(addr: u64, kind: AccessKind) -> Access {
    Access {
        addr,
        size: 128,
        kind,
        space: DataSpace::Global,
        lanes: 1,
        bytes: u128::MAX,
        sectors: 0xf,
    }
}

/// Misses of a blocking cache (each miss filled before the next access) over `lines`.
fn misses(cache: &str, lines: &[u64]) -> u32 {
    let mut c: DataCache<u32> = DataCache::new(CacheSpec::parse(cache).unwrap());
    let mut n = 0;
    for (t, &addr) in lines.iter().enumerate() {
        let req = CacheRequest {
            addr,
            size: 128,
            kind: AccessKind::Read,
            space: DataSpace::Global,
            bytes: u128::MAX,
            sm: 0,
            token: 0,
            owner: 0,
        };
        let now = 2 * t as u64;
        if c.access(&req, 0, now) != Outcome::Hit {
            n += 1;
            let fetch = c.pop_miss().unwrap();
            c.fill(&fetch, now + 1);
            while c.next_ready().is_some() {}
        }
    }
    n
}

/// MRPB Fig. 6(b): two warps each re-read two lines that fall in one set of a 2-way cache. In
/// arrival order (W0 a, W1 c, W0 b, W1 d, twice) the four lines thrash the two ways and every
/// access misses; MRPB with warp-ID queues and fixed order sends W0's four requests, then
/// W1's, and the second touch of each line hits.
#[test]
fn reordering_turns_a_thrashing_stream_into_hits() {
    // One set, two ways, 128-byte lines.
    let cache = "N:1:128:2,L:L:m:N:L,A:8:8,8";
    let (a, b, c, d) = (0x0000, 0x1000, 0x2000, 0x3000);
    let arrivals = [
        (0, a),
        (1, c),
        (0, b),
        (1, d),
        (0, a),
        (1, c),
        (0, b),
        (1, d),
    ];
    let arrival_order: Vec<u64> = arrivals.iter().map(|x| x.1).collect();
    assert_eq!(misses(cache, &arrival_order), 8);

    // The L1D is busy while the burst arrives (as when the memory stage stalls), so the whole
    // burst is in the buffer before the first request leaves.
    let mut mrpb = buffer(|c| c.mrpb.latency = 5);
    for (t, &(w, addr)) in arrivals.iter().enumerate() {
        let offer = mrpb.offer(access(addr, AccessKind::Read), 0, warp(w), t as u64);
        assert_eq!(offer, Offer::Queued);
    }
    let mut drained = Vec::new();
    for now in 16..40 {
        if let Some(r) = mrpb.next(now) {
            drained.push(r.access.addr);
            mrpb.taken();
        }
    }
    assert_eq!(drained, [a, b, a, b, c, d, c, d]);
    assert_eq!(misses(cache, &drained), 4);
}

/// One warp of `mem/column_walk.ptx` on `tesla-c2050-s` walking `rows` rows of a 1,024-wide
/// matrix down its 32 columns, with `sets`, run in the timing model.
fn column_walk(ptx: &str, rows: &str, sets: &[&str]) -> warpstep::sim::Sim {
    let mut flags = vec![
        "--block",
        "32",
        "--arg",
        "f32[32768]=rand:1",
        "--arg",
        "f32[32]=0",
        "--arg",
        "1024",
        "--arg",
        rows,
        "--config",
        "tesla-c2050-s",
    ];
    for s in sets {
        flags.extend(["--set", s]);
    }
    common::run_timing(ptx, &flags)
}

/// MRPB Fig. 2 and 6(c): one warp of the column walk reads 32 rows 4 KB apart, all in one
/// L1D set; the ways fill with lines waiting for their data and the next miss stalls the
/// memory stage on associativity, again every cycle until a fill comes. Bypassing sends those
/// reads to the L2 instead, and the kernel finishes sooner.
#[test]
fn bypass_on_associativity_stalls_relieves_the_column_walk() {
    let ptx = common::data("mem/column_walk.ptx");
    let launch = |sets: &[&str]| {
        let sim = column_walk(&ptx, "16", sets);
        let report = warpstep::run::timing_report(&sim, &[1]);
        let sums: Vec<serde_json::Value> = report.buffers["1"].clone();
        (report, sums)
    };
    let (base, base_sums) = launch(&[]);
    let (off, _) = launch(&["mrpb.enabled=true", "mrpb.bypass=off"]);
    let (assoc, assoc_sums) = launch(&["mrpb.enabled=true"]);
    assert!(base.mrpb.is_none(), "MRPB off reports nothing");
    let (m_off, m_assoc) = (off.mrpb.clone().unwrap(), assoc.mrpb.clone().unwrap());
    // 16 steps of 32 one-word rows: 512 requests enter the buffer either way.
    assert_eq!((m_off.enqueued, m_assoc.enqueued), (512, 512));
    assert_eq!(m_off.bypassed.assoc, 0);
    assert!(m_assoc.bypassed.assoc > 0);
    // Every request leaves once: to the L1D or past it (the kernel's one store through the
    // write register).
    assert_eq!((m_off.direct_writes, m_assoc.direct_writes), (1, 1));
    assert_eq!(m_off.drained, 513);
    assert_eq!(m_assoc.drained + m_assoc.bypassed.assoc, 513);
    let assoc_fails = |r: &warpstep::run::Report| r.l1d.as_ref().unwrap().reservation_fails.assoc;
    assert!(assoc_fails(&assoc) < assoc_fails(&off) / 10);
    assert!(
        assoc.cycles * 2 < base.cycles,
        "bypass {} vs base {}",
        assoc.cycles,
        base.cycles
    );
    // The values are the model's, not the timing's: the sums agree.
    assert_eq!(assoc_sums.len(), 32);
    assert_eq!(assoc_sums, base_sums);
}

/// Issue 28: gemm's port (`polybench_ci.cu`, 32 of its 256 blocks) stores its accumulator
/// every step, one write per two reads, and the L1D's miss queue is full a third of the time.
/// When a write (flush on) went to the L1D ahead of the other warps' reads that had already
/// waited the buffer latency, it took the miss queue from reads whose warps wait for them:
/// x0.85 IPC (563,279 cycles against 476,890). Held in the write register until no queued
/// read is ready, it no longer overtakes them, and MRPB costs under 2%.
#[test]
fn a_cache_insensitive_kernel_keeps_its_ipc_with_mrpb() {
    let ptx = common::data("kernels/polybench_ci.sm_52.ptx");
    let launch = |on: &str| {
        let flags = [
            "--kernel",
            "ci_gemm",
            "--grid",
            "8,4",
            "--block",
            "32,8",
            "--arg",
            "1.5",
            "--arg",
            "1.2",
            "--arg",
            "f32[65536]=rand:1",
            "--arg",
            "f32[65536]=rand:2",
            "--arg",
            "f32[65536]=rand:3",
            "--config",
            "tesla-c2050-s",
            "--set",
            on,
        ];
        let sim = common::run_timing(&ptx, &flags);
        warpstep::run::timing_report(&sim, &[])
    };
    let off = launch("mrpb.enabled=false");
    let on = launch("mrpb.enabled=true");
    let m = on.mrpb.clone().unwrap();
    // Every store went through the write register, and some let a ready read go first.
    assert_eq!(m.direct_writes, 32 * 8 * 257);
    assert!(m.write_yields > 0);
    assert!(
        on.cycles * 100 <= off.cycles * 102,
        "MRPB on {} cycles, off {}",
        on.cycles,
        off.cycles
    );
}

/// Random streams through every drain policy and signature: per-queue FIFO order, a write's
/// queue empties before the write goes, a held write goes only in its queue's turn or when
/// no read is ready, fixed order never passes over a lower ready queue, and the buffer neither loses nor invents a
/// request.
#[test]
fn random_streams_keep_the_ordering_guarantees() {
    let drains = [
        MrpbDrain::Fixed,
        MrpbDrain::RoundRobin,
        MrpbDrain::LongestFirst,
        MrpbDrain::GreedyFixed,
        MrpbDrain::GreedyRoundRobin,
        MrpbDrain::GreedyLongestFirst,
    ];
    let signatures = [
        MrpbSignature::Warp,
        MrpbSignature::Block,
        MrpbSignature::WarpInBlock,
        MrpbSignature::Single,
    ];
    let mut rng = Rng::new(0x5eed_0013);
    for round in 0..96 {
        let drain = drains[round % drains.len()];
        let signature = signatures[(round / drains.len()) % signatures.len()];
        let flush = round % 2 == 0;
        let depth = 1 + rng.below(8) as u32;
        let latency = rng.below(6) as u32;
        let mut b = buffer(|c| {
            c.mrpb.drain = drain;
            c.mrpb.signature = signature;
            c.mrpb.flush = flush;
            c.mrpb.queue_depth = depth;
            c.mrpb.latency = latency;
        });
        // Each warp's stream: (address = warp << 16 | sequence number, kind).
        let mut next_seq = [0u64; 48];
        let mut last_out = [None::<u64>; 48];
        let mut waiting: Option<(u32, Access)> = None;
        let (mut offered, mut out) = (0u64, 0u64);
        for now in 0..600u64 {
            // Enqueue half: the request MEM0 holds, or a new one.
            let (w, a) = waiting.take().unwrap_or_else(|| {
                let w = rng.below(48) as u32;
                let kind = if rng.below(5) == 0 {
                    AccessKind::Write
                } else {
                    AccessKind::Read
                };
                let a = access((u64::from(w) << 16) | next_seq[w as usize], kind);
                next_seq[w as usize] += 1;
                (w, a)
            });
            let q = b.queue_of(warp(w));
            match b.offer(a, 0, warp(w), now) {
                Offer::Queued => offered += 1,
                Offer::Held => {
                    assert!(
                        b.queues()[q as usize].is_empty(),
                        "a write went before its queue emptied"
                    );
                    offered += 1;
                }
                Offer::Direct => panic!("the buffer sends nothing past itself"),
                Offer::Full | Offer::Flushing => waiting = Some((w, a)),
            }
            // Dequeue half.
            let ready = |b: &Mrpb, l: u32| {
                b.queues()[l as usize]
                    .front()
                    .is_some_and(|r| now >= r.enqueued + u64::from(latency))
            };
            let ready_lower = |b: &Mrpb, q: u32| (0..q).any(|l| ready(b, l));
            let had_outbound = b.outbound().is_some();
            let flushing = b.flushing();
            let any_ready = ready_lower(&b, b.queues().len() as u32);
            let held_turn = b.held_write().is_some_and(|(wq, _)| ready(&b, wq));
            if let Some(r) = b.next(now) {
                let (q, why) = b.last_choice().unwrap();
                // A write (flush on) was never queued: it pays no buffer latency.
                if !(flush && r.access.kind == AccessKind::Write) {
                    assert!(now >= r.enqueued + u64::from(latency), "left too early");
                }
                let policy = why == warpstep::mem::mrpb::Choice::Policy;
                // The held write goes in its queue's turn, or when no read is ready.
                if why == warpstep::mem::mrpb::Choice::Write && flushing.is_none() {
                    assert!(!any_ready || held_turn, "a write overtook a ready read");
                }
                if drain == MrpbDrain::Fixed && !had_outbound && flushing.is_none() && policy {
                    assert!(
                        !ready_lower(&b, q),
                        "fixed order passed a lower ready queue"
                    );
                }
                // The L1D refuses one request in five; the refused one stays outbound.
                if rng.below(5) == 0 {
                    b.refused();
                } else {
                    check_in_order(&mut last_out, r.access.addr);
                    b.taken();
                    out += 1;
                }
            }
        }
        let held: usize = b.queues().iter().map(|q| q.len()).sum();
        let outbound = usize::from(b.outbound().is_some()) + usize::from(b.held_write().is_some());
        assert_eq!(offered, out + (held + outbound) as u64, "round {round}");
    }
}

/// One thread's requests never reorder: each warp's addresses come out in increasing order.
fn check_in_order(last: &mut [Option<u64>; 48], addr: u64) {
    let w = (addr >> 16) as usize;
    if let Some(prev) = last[w] {
        assert!(addr > prev, "warp {w}: {addr:#x} after {prev:#x}");
    }
    last[w] = Some(addr);
}

/// Bypass happens only on the stall kinds the policy names, and only for global reads.
#[test]
fn bypass_follows_the_configured_stall_kinds() {
    let reasons = [FailReason::Assoc, FailReason::Mshr, FailReason::MissQueue];
    let read = |space| {
        let mut b = buffer(|c| c.mrpb.latency = 0);
        let a = Access {
            space,
            ..access(0x100, AccessKind::Read)
        };
        b.offer(a, 0, warp(0), 0);
        b.next(0).unwrap()
    };
    let global = read(DataSpace::Global);
    let local = read(DataSpace::Local);
    for (policy, want) in [
        (MrpbBypass::Assoc, [true, false, false]),
        (MrpbBypass::All, [true, true, true]),
        (MrpbBypass::Off, [false, false, false]),
    ] {
        let b = buffer(|c| c.mrpb.bypass = policy);
        for (reason, w) in reasons.iter().zip(want) {
            assert_eq!(b.bypasses(&global, *reason), w, "{policy:?} {reason:?}");
            assert!(!b.bypasses(&local, *reason));
        }
    }
}

/// MRPB Table 4: every design choice is a `--set` away, and each runs the column walk to the
/// same sums as MRPB off.
#[test]
fn table_4_design_space_is_selectable_with_set() {
    let ptx = common::data("mem/column_walk.ptx");
    let choices = [
        "mrpb.signature=warp",
        "mrpb.signature=block",
        "mrpb.signature=warp_in_block",
        "mrpb.signature=single",
        "mrpb.drain=fixed",
        "mrpb.drain=greedy_fixed",
        "mrpb.drain=longest_first",
        "mrpb.drain=greedy_longest_first",
        "mrpb.drain=round_robin",
        "mrpb.drain=greedy_round_robin",
        "mrpb.flush=false",
        "mrpb.flush=true",
        "mrpb.queue_depth=4",
        "mrpb.queue_depth=32",
        "mrpb.latency=3",
        "mrpb.latency=18",
        "mrpb.bypass=off",
        "mrpb.bypass=all",
        "mrpb.bypass=assoc",
    ];
    let run = |sets: &[&str]| {
        let sim = column_walk(&ptx, "4", sets);
        let bytes = warpstep::run::buffer_bytes(sim.image(), sim.global(), 1).unwrap();
        (sim.config().mrpb.clone(), bytes)
    };
    let (_, want) = run(&[]);
    for choice in choices {
        let (config, sums) = run(&["mrpb.enabled=true", choice]);
        let (key, value) = choice.split_once('=').unwrap();
        let shown = serde_json::to_value(&config).unwrap()[key.trim_start_matches("mrpb.")].clone();
        assert_eq!(shown.to_string().trim_matches('"'), value, "{choice}");
        assert_eq!(sums, want, "{choice}");
    }
}

/// Each thread stores, waits at `bar.sync`, and stores again: with flush off the first stores
/// wait in the buffer, so the barrier is where reordering would cross.
const STORE_SYNC_STORE: &str = r#"
.version 7.0
.target sm_52
.address_size 64
.visible .entry store_sync_store(.param .u64 out) {
  .reg .b32 %r<3>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r1;
  bar.sync 0;
  add.u32 %r2, %r1, 1000;
  st.global.u32 [%rd4+512], %r2;
  ret;
}
"#;

/// No reordering crosses a barrier: every cycle, a warp waiting at `bar.sync` has no request
/// left in the buffer (its `bar.sync` waited, as `mrpb_drain`, until they had left), and the
/// run ends with the values of MRPB off.
#[test]
fn a_warp_at_a_barrier_has_no_request_in_the_buffer() {
    let flags = |mrpb: &'static str| {
        vec![
            "--block",
            "128",
            "--arg",
            "u32[256]=0",
            "--config",
            "tesla-c2050-s",
            "--set",
            mrpb,
            "--set",
            "mrpb.flush=false",
            "--set",
            "mrpb.latency=18",
        ]
    };
    let mut sim = common::prepare_flags(STORE_SYNC_STORE, &flags("mrpb.enabled=true"))
        .into_sim(&[])
        .unwrap();
    let (mut barrier_cycles, mut held_cycles) = (0, 0);
    while sim.status() == &warpstep::sim::Status::Running {
        sim.step();
        let sm = &sim.sms()[0];
        let ldst = sm.ldst();
        for (slot, w) in sm.warps().iter().enumerate() {
            let Some(w) = w else { continue };
            let holds = ldst.mrpb_holds(slot as u32);
            held_cycles += u64::from(holds);
            if w.at_barrier {
                barrier_cycles += 1;
                assert!(
                    !holds,
                    "warp {slot} at a barrier with requests in MRPB, cycle {}",
                    sim.cycle()
                );
            }
        }
        assert!(sim.cycle() < 100_000);
    }
    assert!(
        barrier_cycles > 0 && held_cycles > 0,
        "{barrier_cycles} {held_cycles}"
    );
    assert!(sim.stats().stalls.get("mrpb_drain").copied().unwrap_or(0) > 0);
    let out = |sim: &warpstep::sim::Sim| warpstep::run::buffer_bytes(sim.image(), sim.global(), 0);
    let base = common::run_timing(STORE_SYNC_STORE, &flags("mrpb.enabled=false"));
    assert_eq!(out(&sim), out(&base));
}
