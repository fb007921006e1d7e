//! The DRAM channel against GPGPU-Sim's command timing and FR-FCFS order (issue 5, "DRAM: row hits
//! are served before older row misses under FR-FCFS"; issue 12, bandwidth from the bus and the
//! timing parameters; book section 4.3.3).

use warpstep::config::{Config, DramConfig, DramTiming};
use warpstep::mem::dram::{AddressMapping, DramChannel};
use warpstep::mem::request::NO_PARENT;
use warpstep::mem::{DataSpace, Fetch, FetchKind};

/// A GDDR5-like channel: 64-byte bursts, 4 banks in 2 groups, the GTX480's timing, no
/// controller latency. Address: 6 burst bits, 6 column bits, 2 bank bits, then the row.
fn config() -> DramConfig {
    let mut d = Config::preset("fermi").unwrap().dram;
    d.banks = 4;
    d.bank_groups = 2;
    d.address_mapping = "RRRRRRRR.RRBBCCCC.CCSSSSSS".to_string();
    d.queue_size = 16;
    d.latency = 0;
    d
}

fn addr(bank: u64, row: u64, col: u64) -> u64 {
    (row << 14) | (bank << 12) | (col << 6)
}

fn fetch(addr: u64, kind: FetchKind) -> Fetch {
    Fetch {
        addr,
        size: 32,
        kind,
        space: DataSpace::Global,
        sm: 0,
        token: addr,
        bypass: false,
        bytes: 0,
        parent: NO_PARENT,
        pieces: 1,
        stamp: 0,
    }
}

/// Column commands as (DRAM cycle, address, write).
type Columns = Vec<(u64, u64, bool)>;

/// Runs a channel with DRAM and core clocks equal; `arrivals` are (address, kind, cycle).
/// Returns the column commands as (DRAM cycle, address, write) and the reads' return cycles.
fn serve(config: &DramConfig, arrivals: &[(u64, FetchKind, u64)]) -> (Columns, Vec<(u64, u64)>) {
    let mut ch = DramChannel::new(config);
    let (mut columns, mut returns) = (Vec::new(), Vec::new());
    let mut next = 0;
    for now in 0..5_000u64 {
        while next < arrivals.len() && arrivals[next].2 <= now {
            let (a, kind, _) = arrivals[next];
            assert!(ch.push(fetch(a, kind), a, 0, now));
            next += 1;
        }
        let tick = now + 1;
        if let Some(i) = ch.cycle(tick, now) {
            columns.push((tick, i.addr, i.write));
        }
        while let Some(f) = ch.pop_completed() {
            returns.push((tick, f.addr));
        }
    }
    assert!(ch.is_idle());
    (columns, returns)
}

fn reads(addrs: &[u64]) -> Vec<(u64, FetchKind, u64)> {
    addrs.iter().map(|&a| (a, FetchKind::Read, 0)).collect()
}

fn order(columns: &Columns) -> Vec<u64> {
    columns.iter().map(|c| c.1).collect()
}

#[test]
fn a_read_to_a_closed_bank_activates_waits_rcd_then_cl() {
    let (columns, returns) = serve(&config(), &reads(&[addr(0, 3, 0)]));
    // Tick 1 admits it, tick 2 gives it to bank 0 and activates the row; the column command
    // waits tRCD = 12, the data tCL = 12 more.
    assert_eq!(columns, vec![(14, addr(0, 3, 0), false)]);
    assert_eq!(returns, vec![(26, addr(0, 3, 0))]);
}

#[test]
fn row_hits_are_served_before_older_row_misses() {
    let open = addr(0, 5, 0);
    let other_row = addr(0, 9, 0);
    let hit1 = addr(0, 5, 1);
    let hit2 = addr(0, 5, 2);
    // The row-9 request is older than the two row-5 requests, but they hit the row the bank
    // drains and go first.
    let arrivals = [
        (open, FetchKind::Read, 0),
        (other_row, FetchKind::Read, 1),
        (hit1, FetchKind::Read, 2),
        (hit2, FetchKind::Read, 3),
    ];
    let (columns, _) = serve(&config(), &arrivals);
    assert_eq!(order(&columns), vec![open, hit1, hit2, other_row]);
}

#[test]
fn among_row_misses_the_oldest_goes_first() {
    let (a, b, c) = (addr(1, 1, 0), addr(1, 2, 0), addr(1, 3, 0));
    let arrivals = [
        (a, FetchKind::Read, 0),
        (c, FetchKind::Read, 1),
        (b, FetchKind::Read, 2),
    ];
    let (columns, _) = serve(&config(), &arrivals);
    assert_eq!(order(&columns), vec![a, c, b]);
}

#[test]
fn column_commands_are_ccd_apart_across_groups_and_ccdl_within_one() {
    // Banks 0 and 1 are in different groups (a group is the bank's low bit here).
    let across: Vec<u64> = (0..8).map(|k| addr(k % 2, 0, k / 2)).collect();
    let (columns, _) = serve(&config(), &reads(&across));
    let gaps: Vec<u64> = columns.windows(2).map(|w| w[1].0 - w[0].0).collect();
    // Bank 0 alone: tCCDL = 3 apart, until bank 1's row is open (activated tRRD after bank
    // 0's, ready tRCD later, at 22); then the groups alternate tCCD = 2 apart; bank 1 alone at
    // the end, 3 apart again.
    assert_eq!(columns[3].0, 22);
    assert_eq!(gaps, vec![3, 3, 2, 2, 2, 3, 3]);
    let within: Vec<u64> = (0..8).map(|k| addr(0, 0, k)).collect();
    let (columns, _) = serve(&config(), &reads(&within));
    let gaps: Vec<u64> = columns.windows(2).map(|w| w[1].0 - w[0].0).collect();
    assert!(gaps.iter().all(|&g| g == 3), "tCCDL = 3: {gaps:?}");
}

#[test]
fn a_read_after_a_write_waits_for_the_bus_turnaround() {
    let w = addr(0, 0, 0);
    let r = addr(1, 0, 0);
    let arrivals = [(w, FetchKind::Write, 0), (r, FetchKind::Read, 0)];
    // Short activation timing, so that only the turnaround holds the read back.
    let mut c = config();
    c.timing.rcd = 6;
    c.timing.rrd = 1;
    let (columns, returns) = serve(&c, &arrivals);
    assert_eq!(columns.len(), 2);
    assert!(columns[0].2 && !columns[1].2);
    // tWTR = WL + BL/ratio + CDLR = 4 + 2 + 5 = 11 DRAM cycles.
    assert_eq!(columns[1].0 - columns[0].0, 11);
    assert_eq!(returns.len(), 1, "writes return nothing");
}

#[test]
fn a_request_larger_than_a_burst_takes_several_column_commands() {
    let mut f = config();
    f.chips_per_channel = 1;
    f.bus_width_bytes = 2; // 16-byte bursts
    f.address_mapping = "RRRRRRRR.RRRRBBCC.CCCCSSSS".to_string();
    let mut ch = DramChannel::new(&f);
    let mut big = fetch(0, FetchKind::Read);
    big.size = 128;
    assert!(ch.push(big, 0, 0, 0));
    let mut bursts = 0;
    for now in 0..200 {
        bursts += usize::from(ch.cycle(now + 1, now).is_some());
    }
    assert_eq!((bursts, ch.stats.bursts, ch.stats.reads), (8, 8, 1));
    assert!(ch.pop_completed().is_some());
}

#[test]
fn a_full_scheduler_queue_refuses() {
    let mut c = config();
    c.queue_size = 2;
    let mut ch = DramChannel::new(&c);
    assert!(ch.push(fetch(0, FetchKind::Read), 0, 0, 0));
    assert!(ch.push(fetch(64, FetchKind::Read), 64, 0, 0));
    // The controller latency queue is not the scheduler queue: both wait to be admitted.
    ch.cycle(1, 0);
    ch.cycle(2, 1);
    assert_eq!(
        ch.queued(),
        1,
        "one admitted per cycle, one given to a bank"
    );
    ch.cycle(3, 2);
    assert!(ch.can_accept());
}

#[test]
fn the_gtx480_mapping_interleaves_banks_at_256_and_8192_bytes() {
    let m = AddressMapping::parse("RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 16).unwrap();
    assert_eq!(m.decode(0), (0, 0, 0));
    assert_eq!(m.decode(64), (0, 0, 1)); // next burst, same bank and row
    assert_eq!(m.decode(256), (1, 0, 0)); // bit 8: the bank's low bit (the sub-partition)
    assert_eq!(m.decode(512), (0, 0, 4));
    assert_eq!(m.decode(8192), (2, 0, 0));
    assert_eq!(m.decode(1 << 16), (0, 1, 0));
    assert_eq!(
        m.decode(1 << 28),
        (0, 1 << 12, 0),
        "bits above the string are row bits"
    );
    let e = AddressMapping::parse("RRBBCCSS", 16).unwrap_err();
    assert!(e.contains("2 bank bits") && e.contains("needs 4"), "{e}");
    assert!(AddressMapping::parse("RRXBCCSS", 2).is_err());
}

#[test]
fn dram_timing_keys_are_validated() {
    let c = Config::preset("fermi").unwrap();
    let e = c
        .with_overrides(&["dram.address_mapping=RRBB.CCSS"])
        .unwrap_err()
        .to_string();
    assert!(e.contains("dram.address_mapping"), "{e}");
    let e = c
        .with_overrides(&["dram.bank_groups=32"])
        .unwrap_err()
        .to_string();
    assert!(e.contains("dram.bank_groups"), "{e}");
    let ok = c.with_overrides(&["dram.timing.rcd=20"]).unwrap();
    assert_eq!(
        ok.dram.timing,
        DramTiming {
            rcd: 20,
            ..c.dram.timing
        }
    );
}

#[test]
fn unfinished_requests_are_bounded_by_the_channel_credits() {
    // GPGPU-Sim's credits: scheduler queue + return queue + 1 requests may be unfinished.
    let mut c = config();
    c.queue_size = 2;
    c.return_queue_size = 1;
    c.latency = 50;
    let mut ch = DramChannel::new(&c);
    for k in 0..4 {
        assert!(ch.can_accept(), "request {k}");
        assert!(ch.push(fetch(64 * k, FetchKind::Read), 64 * k, 0, 0));
    }
    // All four still cross the controller latency: the scheduler queue is empty, yet no credit
    // is left.
    assert_eq!(ch.queued(), 0);
    assert!(!ch.can_accept());
    let mut now = 0;
    while ch.completed().is_none() {
        ch.cycle(now + 1, now);
        now += 1;
    }
    assert!(
        !ch.can_accept(),
        "a finished read holds its credit until its slice takes it"
    );
    ch.pop_completed();
    assert!(ch.can_accept());
}

#[test]
fn the_bus_breakdown_names_the_turnaround_that_holds_a_read_back() {
    // The write-then-read of the test above, counted as GPGPU-Sim's "BW Util details".
    let mut c = config();
    c.timing.rcd = 6;
    c.timing.rrd = 1;
    let mut ch = DramChannel::new(&c);
    let (w, r) = (addr(0, 0, 0), addr(1, 0, 0));
    assert!(ch.push(fetch(w, FetchKind::Write), w, 0, 0));
    assert!(ch.push(fetch(r, FetchKind::Read), r, 0, 0));
    let mut columns = Vec::new();
    for now in 0..200u64 {
        if ch.cycle(now + 1, now).is_some() {
            columns.push(now + 1);
        }
        while ch.pop_completed().is_some() {}
    }
    // Bank 0 opens its row at 2 and writes at 3 (tRCD - WL - 1 = 1); bank 1's activate waits
    // for a cycle without a column command (one bus), 4, so its row is ready at 10; tWTR holds
    // the read to 3 + 11 = 14.
    assert_eq!(columns, vec![3, 14]);
    let b = ch.stats.bus;
    // Each burst holds the bus for tCCD = 2 cycles.
    assert_eq!(b.data, 4);
    // Cycle 2 (the write's row is open, tRCD for writes runs) and cycles 5-13 (the read's).
    assert_eq!(b.column_blocked, 10);
    assert_eq!((b.rcd_write, b.rcd, b.wtr, b.rtw, b.ccdl), (1, 5, 9, 0, 0));
    assert_eq!(b.row_blocked, 0);
}
