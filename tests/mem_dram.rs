//! The DRAM channel's FR-FCFS scheduler against request arrival orders (issue 5, "Tests: DRAM:
//! row hits are served before older row misses under FR-FCFS"; book section 4.3.3).

use warpstep::config::{Config, DramConfig};
use warpstep::mem::dram::DramChannel;
use warpstep::mem::request::NO_PARENT;
use warpstep::mem::{DataSpace, Fetch, FetchKind};

fn channel() -> DramChannel {
    DramChannel::new(&DramConfig {
        channels: 1,
        banks: 4,
        row_bytes: 2048,
        queue_size: 16,
        row_hit_latency: 20,
        row_miss_latency: 40,
        bus_bytes_per_cycle: 16.0,
    })
}

fn read(addr: u64) -> Fetch {
    Fetch {
        addr,
        size: 32,
        kind: FetchKind::Read,
        space: DataSpace::Global,
        sm: 0,
        token: addr,
        bypass: false,
        bytes: 0,
        parent: NO_PARENT,
    }
}

/// Row r of bank b, column c (32-byte units) in the test channel's address layout.
fn addr(bank: u64, row: u64, col: u64) -> u64 {
    (row * 4 + bank) * 2048 + col * 32
}

/// Queues `arrivals` (address, arrival cycle) and returns the issue order.
fn serve(arrivals: &[(u64, u64)]) -> Vec<u64> {
    let mut ch = channel();
    let mut order = Vec::new();
    let mut next = 0;
    for now in 0..10_000 {
        while next < arrivals.len() && arrivals[next].1 <= now {
            let a = arrivals[next].0;
            assert!(ch.push(read(a), a, 0));
            next += 1;
        }
        if let Some(i) = ch.cycle(now) {
            order.push(i.addr);
        }
        while ch.completed(now).is_some() {
            ch.pop_completed();
        }
    }
    order
}

#[test]
fn row_hits_are_served_before_older_row_misses() {
    let open = addr(0, 5, 0);
    let other_row = addr(0, 9, 0);
    let hit1 = addr(0, 5, 1);
    let hit2 = addr(0, 5, 2);
    // The first request opens row 5; the row-9 request is older than the two row-5 requests,
    // but they are row hits and go first.
    let order = serve(&[(open, 0), (other_row, 1), (hit1, 2), (hit2, 3)]);
    assert_eq!(order, vec![open, hit1, hit2, other_row]);
}

#[test]
fn among_row_misses_the_oldest_goes_first() {
    let a = addr(1, 1, 0);
    let b = addr(1, 2, 0);
    let c = addr(1, 3, 0);
    assert_eq!(serve(&[(a, 0), (c, 1), (b, 2)]), vec![a, c, b]);
}

#[test]
fn a_row_hit_arriving_later_still_overtakes_a_waiting_miss() {
    let open = addr(2, 4, 0);
    let miss = addr(2, 7, 0);
    let late_hit = addr(2, 4, 3);
    // The bank is busy with `open` (a row miss: 40 cycles + switch) when the hit arrives.
    let order = serve(&[(open, 0), (miss, 1), (late_hit, 10)]);
    assert_eq!(order, vec![open, late_hit, miss]);
}

#[test]
fn different_banks_overlap_and_count_hits_and_misses() {
    let mut ch = channel();
    for (i, a) in [addr(0, 0, 0), addr(1, 0, 0), addr(0, 0, 1), addr(1, 3, 0)]
        .into_iter()
        .enumerate()
    {
        ch.push(read(a), a, i as u32);
    }
    let mut done = Vec::new();
    for now in 0..1000 {
        ch.cycle(now);
        while let Some((origin, _)) = ch.completed(now) {
            done.push(origin);
            ch.pop_completed();
        }
    }
    assert_eq!(done.len(), 4);
    assert_eq!((ch.stats.row_hits, ch.stats.row_misses), (1, 3));
    assert_eq!(ch.stats.reads, 4);
}

#[test]
fn presets_give_each_sm_its_share_of_bandwidth() {
    // fermi: 6 channels of 2.816 B/cycle, one fifteenth of the GTX480's 6 x 42.24 B/cycle.
    let f = Config::preset("fermi").unwrap().dram;
    let total = f64::from(f.channels) * f.bus_bytes_per_cycle;
    assert!((total - 6.0 * 42.24 / 15.0).abs() < 0.01, "{total}");
    // A 32-byte read on one channel occupies the bus for 32 / 2.816 = 11.4 cycles.
    let mut ch = DramChannel::new(&f);
    ch.push(read(0), 0, 0);
    let i = ch.cycle(0).unwrap();
    assert_eq!(i.done, u64::from(f.row_miss_latency) + 12);
}
