//! The MRPB buffer's unit tests (`super::mrpb`): each policy, flush, full-queue drain, retry,
//! bypass rules.

use super::data_cache::FailReason;
use super::mrpb::*;
use super::request::{Access, AccessKind};
use crate::config::{Config, MrpbBypass, MrpbConfig, MrpbDrain, MrpbSignature};
use crate::mem::DataSpace;

fn buffer(edit: impl FnOnce(&mut MrpbConfig)) -> Mrpb {
    let mut c = Config::preset("tesla-c2050-s").unwrap();
    c.mrpb.enabled = true;
    c.mrpb.latency = 0;
    edit(&mut c.mrpb);
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

fn read(addr: u64) -> Access {
    Access {
        addr,
        size: 128,
        kind: AccessKind::Read,
        space: DataSpace::Global,
        lanes: 1,
        bytes: 0,
        sectors: 0xf,
    }
}

fn write(addr: u64) -> Access {
    Access {
        kind: AccessKind::Write,
        ..read(addr)
    }
}

/// Drains everything from cycle `now` on, the L1D taking every request; returns the
/// (warp, address) order and the cycles they left.
fn drain_all(b: &mut Mrpb, mut now: u64) -> Vec<(u32, u64, u64)> {
    let mut out = Vec::new();
    while !b.is_empty() {
        if let Some(r) = b.next(now) {
            out.push((r.from.warp, r.access.addr, now));
            b.taken();
        }
        now += 1;
        assert!(now < 10_000);
    }
    out
}

#[test]
fn signatures_choose_the_queue() {
    let w = Requester {
        warp: 13,
        cta: 2,
        warp_in_cta: 5,
        block: 2,
    };
    let of = |sig| buffer(|m| m.signature = sig).queue_of(w);
    assert_eq!(of(MrpbSignature::Warp), 13);
    assert_eq!(of(MrpbSignature::Block), 2);
    assert_eq!(of(MrpbSignature::WarpInBlock), 5);
    assert_eq!(of(MrpbSignature::Single), 0);
    // Table 4's queue counts on the Tesla presets: 48, 8, 32.
    let count = |sig| buffer(|m| m.signature = sig).queues().len();
    assert_eq!(
        [count(MrpbSignature::Warp), count(MrpbSignature::Block)],
        [48, 8]
    );
    assert_eq!(count(MrpbSignature::WarpInBlock), 32);
}

#[test]
fn fixed_order_drains_the_lowest_queue_first_and_keeps_each_queue_fifo() {
    let mut b = buffer(|_| {});
    for (t, (w, a)) in [(3, 0x300), (1, 0x100), (3, 0x380), (2, 0x200), (1, 0x180)]
        .into_iter()
        .enumerate()
    {
        assert_eq!(b.offer(read(a), 0, warp(w), t as u64), Offer::Queued);
    }
    let order: Vec<(u32, u64)> = drain_all(&mut b, 5).iter().map(|x| (x.0, x.1)).collect();
    assert_eq!(
        order,
        [(1, 0x100), (1, 0x180), (2, 0x200), (3, 0x300), (3, 0x380)]
    );
}

#[test]
fn a_request_leaves_only_after_the_buffer_latency() {
    let mut b = buffer(|m| m.latency = 5);
    b.offer(read(0x100), 0, warp(4), 10);
    b.offer(read(0x200), 0, warp(1), 12);
    // Queue 1 is lower but its head is too young at 15: queue 4 goes first.
    let out = drain_all(&mut b, 10);
    assert_eq!(
        out.iter().map(|x| (x.0, x.2)).collect::<Vec<_>>(),
        [(4, 15), (1, 17)]
    );
}

#[test]
fn round_robin_longest_first_and_greedy_orders() {
    let fill = |b: &mut Mrpb| {
        for (w, n) in [(0, 1), (1, 3), (2, 2)] {
            for k in 0..n {
                b.offer(read(0x1000 * w as u64 + 0x80 * k), 0, warp(w), 0);
            }
        }
    };
    let warps = |drain| {
        let mut b = buffer(|m| m.drain = drain);
        fill(&mut b);
        drain_all(&mut b, 0).iter().map(|x| x.0).collect::<Vec<_>>()
    };
    assert_eq!(warps(MrpbDrain::Fixed), [0, 1, 1, 1, 2, 2]);
    assert_eq!(warps(MrpbDrain::RoundRobin), [0, 1, 2, 1, 2, 1]);
    // Longest first: 1 (3), then 1 and 2 tie at 2: the lower; ...
    assert_eq!(warps(MrpbDrain::LongestFirst), [1, 1, 2, 0, 1, 2]);
    assert_eq!(warps(MrpbDrain::GreedyRoundRobin), [0, 1, 1, 1, 2, 2]);
    assert_eq!(warps(MrpbDrain::GreedyLongestFirst), [1, 1, 1, 2, 2, 0]);
    assert_eq!(warps(MrpbDrain::GreedyFixed), [0, 1, 1, 1, 2, 2]);
}

#[test]
fn a_write_flushes_its_queue_then_waits_for_the_ready_reads() {
    let mut b = buffer(|m| m.latency = 5);
    b.offer(read(0x100), 0, warp(5), 0);
    b.offer(read(0x180), 0, warp(5), 0);
    b.offer(read(0x200), 0, warp(2), 0);
    // Warp 5 stores: its queue must empty first, ahead of the lower queue 2.
    assert_eq!(b.offer(write(0x900), 1, warp(5), 5), Offer::Flushing);
    let r = b.next(5).unwrap();
    assert_eq!(
        (r.from.warp, b.last_choice()),
        (5, Some((5, Choice::Flush)))
    );
    b.taken();
    assert_eq!(b.offer(write(0x900), 1, warp(5), 6), Offer::Flushing);
    assert_eq!(b.next(6).unwrap().access.addr, 0x180);
    b.taken();
    // Serviced rather than enqueued: MEM0 is done with it; it waits in the write register
    // while queue 2's read, ready before it came, goes first.
    assert_eq!(b.offer(write(0x900), 1, warp(5), 7), Offer::Held);
    assert!(b.holds_requests_of(5));
    // Warp 5's next read waits behind its write; another write waits in MEM0.
    assert_eq!(b.offer(read(0x980), 2, warp(5), 7), Offer::Queued);
    assert_eq!(b.offer(write(0xa00), 3, warp(7), 7), Offer::Flushing);
    assert_eq!(b.next(7).unwrap().from.warp, 2);
    b.taken();
    // No read is ready: the write goes, without the buffer latency.
    assert_eq!(b.next(8).unwrap().access.addr, 0x900);
    assert_eq!(b.last_choice(), Some((5, Choice::Write)));
    b.refused();
    assert_eq!(b.next(9).unwrap().access.addr, 0x900);
    assert_eq!(b.last_choice(), Some((5, Choice::Retry)));
    b.taken();
    assert_eq!(b.offer(write(0xa00), 3, warp(7), 10), Offer::Held);
    // Warp 5's read is ready (entered at 7) and goes before warp 7's held write.
    assert_eq!(b.next(12).unwrap().access.addr, 0x980);
    b.taken();
    assert_eq!(b.next(13).unwrap().access.addr, 0xa00);
    b.taken();
    assert!(b.is_empty());
    assert_eq!((b.stats.flushes, b.stats.flush_drains), (1, 2));
    assert_eq!((b.stats.direct_writes, b.stats.write_yields), (2, 2));
    assert_eq!(b.stats.flush_stall_cycles, 3);
}

#[test]
fn a_read_meeting_a_full_queue_drains_it_first() {
    let mut b = buffer(|m| m.queue_depth = 2);
    b.offer(read(0x000), 0, warp(1), 0);
    b.offer(read(0x100), 0, warp(9), 0);
    b.offer(read(0x180), 0, warp(9), 0);
    assert_eq!(b.offer(read(0x200), 0, warp(9), 1), Offer::Full);
    // Queue 9 goes before the lower queue 1.
    let r = b.next(1).unwrap();
    assert_eq!(
        (r.from.warp, b.last_choice()),
        (9, Some((9, Choice::FullQueue)))
    );
    b.taken();
    assert_eq!(b.offer(read(0x200), 0, warp(9), 2), Offer::Queued);
    assert_eq!(b.next(2).unwrap().from.warp, 1);
    assert_eq!(
        (b.stats.full_queue_drains, b.stats.full_stall_cycles),
        (1, 1)
    );
}

#[test]
fn with_flush_off_writes_queue_and_a_full_queue_only_stalls() {
    let mut b = buffer(|m| {
        m.flush = false;
        m.queue_depth = 1;
    });
    assert_eq!(b.offer(write(0x100), 0, warp(3), 0), Offer::Queued);
    assert_eq!(b.offer(read(0x200), 0, warp(3), 0), Offer::Full);
    b.offer(read(0x300), 0, warp(1), 0);
    // No full-queue drain: fixed order serves queue 1 first.
    assert_eq!(b.next(1).unwrap().from.warp, 1);
    assert_eq!(b.stats.full_queue_drains, 0);
}

#[test]
fn a_refused_request_stays_outbound_and_bypass_follows_the_policy() {
    let mut b = buffer(|_| {});
    b.offer(read(0x100), 0, warp(2), 0);
    b.offer(read(0x200), 0, warp(1), 0);
    let r = b.next(0).unwrap();
    assert_eq!(r.from.warp, 1);
    b.refused();
    // Tried again before anything else.
    assert_eq!(b.next(1).unwrap().from.warp, 1);
    assert_eq!(b.last_choice(), Some((1, Choice::Retry)));
    assert!(b.holds_requests_of(1));
    b.taken();
    assert!(!b.holds_requests_of(1) && b.holds_requests_of(2));
    assert!(b.bypasses(&r, FailReason::Assoc));
    assert!(!b.bypasses(&r, FailReason::Mshr));
    let all = buffer(|m| m.bypass = MrpbBypass::All);
    assert!(all.bypasses(&r, FailReason::MissQueue));
    let off = buffer(|m| m.bypass = MrpbBypass::Off);
    assert!(!off.bypasses(&r, FailReason::Assoc));
    // Local reads and writes never bypass.
    let local = MrpbRequest {
        access: Access {
            space: DataSpace::Local,
            ..r.access
        },
        ..r
    };
    assert!(!all.bypasses(&local, FailReason::Assoc));
    let store = MrpbRequest {
        access: write(0x100),
        ..r
    };
    assert!(!all.bypasses(&store, FailReason::Assoc));
}
