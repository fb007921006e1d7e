//! One DRAM channel and its memory controller (MODEL.md section 9; book section 4.3.3): banks
//! with an open row, an FR-FCFS scheduler with a bounded queue, row-hit and row-miss latencies and
//! a data bus moving a (possibly fractional) number of bytes per cycle.
//!
//! * Address: the channel-local address (the channel-select bits removed) holds `row_bytes`
//!   consecutive bytes in one row of one bank, then the next bank: bank = (a / row_bytes) mod
//!   banks, row = a / (row_bytes x banks). GPGPU-Sim maps bits with `-gpgpu_mem_addr_mapping`;
//!   warpstep's contiguous mapping keeps a row as large (the presets' `row_bytes`) and is easy to
//!   read in the views.
//! * Scheduling (GPGPU-Sim `frfcfs_scheduler`, `dram_sched.cc`): each cycle, banks are visited
//!   round-robin from the one after the last bank served, and the first bank that is free issues
//!   one request: the oldest request to its open row if there is one (first ready), else its
//!   oldest request, which closes the row and opens another (first come, first served). At most
//!   one request issues per cycle per channel.
//! * Timing: a row hit's data starts `row_hit_latency` cycles after issue, a row miss's after
//!   `row_miss_latency` (closing a never-opened bank is counted as a row miss too); data then
//!   occupies the channel's bus for `bytes / bus_bytes_per_cycle` cycles, in issue order. The bank
//!   takes its next command after the data burst (plus the row switch for a miss), so row hits
//!   pipeline. Reads return in completion order; writes return nothing.

use super::request::{Fetch, FetchKind};
use crate::config::DramConfig;
use serde::Serialize;
use std::collections::VecDeque;

/// Bus time is kept in 1/1024 cycles, so fractional bandwidths stay exact and deterministic.
const TICKS: u64 = 1024;

/// DRAM counters (`warpstep run --json`'s `dram`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct DramStats {
    pub reads: u64,
    pub writes: u64,
    pub row_hits: u64,
    pub row_misses: u64,
}

impl DramStats {
    pub fn add(&mut self, o: &DramStats) {
        self.reads += o.reads;
        self.writes += o.writes;
        self.row_hits += o.row_hits;
        self.row_misses += o.row_misses;
    }
}

/// A request waiting in the scheduler queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Queued {
    fetch: Fetch,
    bank: u32,
    row: u64,
    /// The L2 slice that sent it (where its reply goes).
    origin: u32,
}

/// A bank: its open row and when it takes the next command.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct BankView {
    pub open_row: Option<u64>,
    pub ready_at: u64,
}

/// What the scheduler issued in a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Issued {
    pub addr: u64,
    pub bank: u32,
    pub row: u64,
    pub row_hit: bool,
    /// Cycle its data transfer ends.
    pub done: u64,
}

/// One channel (see the module documentation).
#[derive(Debug, Clone)]
pub struct DramChannel {
    banks: Vec<BankView>,
    queue: Vec<Queued>,
    /// Queued requests per bank.
    per_bank: Vec<u32>,
    /// No bank with a queued request is free before this cycle (so waiting costs nothing).
    idle_until: u64,
    queue_size: usize,
    row_bytes: u64,
    hit_latency: u64,
    miss_latency: u64,
    /// Ticks per byte on the data bus.
    ticks_per_byte: f64,
    bus_free: u64,
    next_bank: usize,
    returning: VecDeque<(u64, u32, Fetch)>,
    pub stats: DramStats,
}

impl DramChannel {
    pub fn new(config: &DramConfig) -> DramChannel {
        DramChannel {
            banks: vec![BankView::default(); config.banks.max(1) as usize],
            per_bank: vec![0; config.banks.max(1) as usize],
            idle_until: 0,
            queue: Vec::with_capacity(config.queue_size as usize),
            queue_size: config.queue_size.max(1) as usize,
            row_bytes: u64::from(config.row_bytes.max(1)),
            hit_latency: u64::from(config.row_hit_latency),
            miss_latency: u64::from(config.row_miss_latency.max(config.row_hit_latency)),
            ticks_per_byte: TICKS as f64 / config.bus_bytes_per_cycle.max(0.001),
            bus_free: 0,
            next_bank: 0,
            returning: VecDeque::new(),
            stats: DramStats::default(),
        }
    }

    /// (bank, row) of a channel-local address.
    pub fn decode(&self, local: u64) -> (u32, u64) {
        let n = self.banks.len() as u64;
        let unit = local / self.row_bytes;
        ((unit % n) as u32, unit / n)
    }

    /// Whether the scheduler queue has room.
    pub fn can_accept(&self) -> bool {
        self.queue.len() < self.queue_size
    }

    /// Queues `fetch` from slice `origin`, whose channel-local address is `local`. Returns
    /// false when full.
    pub fn push(&mut self, fetch: Fetch, local: u64, origin: u32) -> bool {
        if !self.can_accept() {
            return false;
        }
        let (bank, row) = self.decode(local);
        self.per_bank[bank as usize] += 1;
        self.idle_until = self.idle_until.min(self.banks[bank as usize].ready_at);
        self.queue.push(Queued {
            fetch,
            bank,
            row,
            origin,
        });
        true
    }

    /// The scheduler's cycle: issues at most one request (see the module documentation).
    pub fn cycle(&mut self, now: u64) -> Option<Issued> {
        if self.queue.is_empty() || now < self.idle_until {
            return None;
        }
        let n = self.banks.len();
        let mut soonest = u64::MAX;
        for k in 0..n {
            // `next_bank < n`, so one subtraction wraps.
            let mut b = self.next_bank + k;
            if b >= n {
                b -= n;
            }
            if self.per_bank[b] == 0 {
                continue;
            }
            if self.banks[b].ready_at > now {
                soonest = soonest.min(self.banks[b].ready_at);
                continue;
            }
            if let Some(i) = self.pick(b as u32) {
                self.next_bank = (b + 1) % n;
                self.idle_until = 0;
                return Some(self.issue(i, now));
            }
        }
        self.idle_until = soonest;
        None
    }

    /// FR-FCFS for bank `b`: the oldest request to the open row, else the oldest request.
    fn pick(&self, b: u32) -> Option<usize> {
        let open = self.banks[b as usize].open_row;
        let mut oldest = None;
        for (i, q) in self.queue.iter().enumerate() {
            if q.bank != b {
                continue;
            }
            if Some(q.row) == open {
                return Some(i);
            }
            oldest = oldest.or(Some(i));
        }
        oldest
    }

    fn issue(&mut self, i: usize, now: u64) -> Issued {
        let q = self.queue.remove(i);
        self.per_bank[q.bank as usize] -= 1;
        let bank = &mut self.banks[q.bank as usize];
        let row_hit = bank.open_row == Some(q.row);
        let latency = if row_hit {
            self.hit_latency
        } else {
            self.miss_latency
        };
        let transfer = (f64::from(q.fetch.size.max(1)) * self.ticks_per_byte).ceil() as u64;
        let start = ((now + latency) * TICKS).max(self.bus_free);
        self.bus_free = start + transfer;
        let done = self.bus_free.div_ceil(TICKS);
        let switch = if row_hit {
            0
        } else {
            self.miss_latency - self.hit_latency
        };
        bank.open_row = Some(q.row);
        bank.ready_at = now + switch + transfer.div_ceil(TICKS).max(1);
        if row_hit {
            self.stats.row_hits += 1;
        } else {
            self.stats.row_misses += 1;
        }
        match q.fetch.kind {
            FetchKind::Write | FetchKind::WriteBack => self.stats.writes += 1,
            _ => self.stats.reads += 1,
        }
        if q.fetch.kind.expects_reply() {
            self.returning.push_back((done, q.origin, q.fetch));
        }
        Issued {
            addr: q.fetch.addr,
            bank: q.bank,
            row: q.row,
            row_hit,
            done,
        }
    }

    /// The oldest read whose data has come back by cycle `now`, with the slice it goes to.
    pub fn completed(&self, now: u64) -> Option<(u32, &Fetch)> {
        match self.returning.front() {
            Some((done, origin, f)) if *done <= now => Some((*origin, f)),
            _ => None,
        }
    }

    pub fn pop_completed(&mut self) -> Option<Fetch> {
        self.returning.pop_front().map(|(_, _, f)| f)
    }

    pub fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.returning.is_empty()
    }

    /// Requests waiting to be scheduled.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    pub fn banks(&self) -> &[BankView] {
        &self.banks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::request::{DataSpace, NO_PARENT};

    fn config() -> DramConfig {
        DramConfig {
            channels: 1,
            banks: 2,
            row_bytes: 1024,
            queue_size: 4,
            row_hit_latency: 10,
            row_miss_latency: 20,
            bus_bytes_per_cycle: 8.0,
        }
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

    /// Runs the channel until idle; returns the addresses in issue order.
    fn drain(ch: &mut DramChannel) -> Vec<(u64, bool)> {
        let mut order = Vec::new();
        for now in 0..1000 {
            if let Some(i) = ch.cycle(now) {
                order.push((i.addr, i.row_hit));
            }
            while ch.completed(now).is_some() {
                ch.pop_completed();
            }
        }
        order
    }

    #[test]
    fn decode_fills_a_row_then_moves_to_the_next_bank() {
        let ch = DramChannel::new(&config());
        assert_eq!(ch.decode(0), (0, 0));
        assert_eq!(ch.decode(1023), (0, 0));
        assert_eq!(ch.decode(1024), (1, 0));
        assert_eq!(ch.decode(2048), (0, 1));
    }

    #[test]
    fn row_hits_are_served_before_older_row_misses() {
        let mut ch = DramChannel::new(&config());
        // Bank 0: row 0, then row 1 (older), then row 0 again (younger, a row hit).
        ch.push(read(0), 0, 0);
        ch.push(read(2048), 2048, 0);
        ch.push(read(64), 64, 0);
        assert_eq!(drain(&mut ch), vec![(0, false), (64, true), (2048, false)]);
        assert_eq!(ch.stats.row_hits, 1);
        assert_eq!(ch.stats.row_misses, 2);
        assert_eq!(ch.stats.reads, 3);
    }

    #[test]
    fn without_a_row_hit_the_oldest_goes_first() {
        let mut ch = DramChannel::new(&config());
        ch.push(read(2048), 2048, 0);
        ch.push(read(4096), 4096, 0);
        assert_eq!(drain(&mut ch), vec![(2048, false), (4096, false)]);
    }

    #[test]
    fn banks_take_turns() {
        let mut ch = DramChannel::new(&config());
        ch.push(read(0), 0, 0);
        ch.push(read(32), 32, 0);
        ch.push(read(1024), 1024, 0);
        // Bank 0 issues first; next cycle bank 1 has the turn even though bank 0 has a row hit.
        let order = drain(&mut ch);
        assert_eq!(order[0].0, 0);
        assert_eq!(order[1].0, 1024);
    }

    #[test]
    fn latency_and_bus_time() {
        let mut ch = DramChannel::new(&config());
        ch.push(read(0), 0, 0);
        let i = ch.cycle(5).unwrap();
        // Row miss: data from 5 + 20 for 32 / 8 = 4 cycles.
        assert_eq!(i.done, 29);
        assert!(ch.completed(28).is_none());
        assert_eq!(ch.completed(29).map(|(_, f)| f.addr), Some(0));
        // A row hit right behind it waits for the bus.
        ch.push(read(32), 32, 0);
        let j = ch.cycle(29).unwrap();
        assert!(j.row_hit);
        assert_eq!(j.done, 29 + 10 + 4);
    }

    #[test]
    fn fractional_bandwidth_and_a_bounded_queue() {
        let mut c = config();
        c.bus_bytes_per_cycle = 2.816;
        let mut ch = DramChannel::new(&c);
        ch.push(read(0), 0, 0);
        let i = ch.cycle(0).unwrap();
        // 32 / 2.816 = 11.36 cycles of bus time.
        assert_eq!(i.done, 20 + 12);
        for k in 0..4 {
            assert!(ch.push(read(64 * k), 64 * k, 0));
        }
        assert!(!ch.can_accept());
        assert!(!ch.push(read(999), 999, 0));
    }

    #[test]
    fn writes_return_nothing() {
        let mut ch = DramChannel::new(&config());
        let mut w = read(0);
        w.kind = FetchKind::WriteBack;
        ch.push(w, 0, 0);
        drain(&mut ch);
        assert_eq!(ch.stats.writes, 1);
        assert!(ch.is_idle());
    }
}
