//! One DRAM channel and its memory controller, timed command by command in the DRAM clock domain
//! (MODEL.md section 9; book section 4.3.3; GPGPU-Sim's `dram_t`, `frfcfs_scheduler` and
//! `memory_partition_unit::dram_cycle`, whose behaviour this follows where MODEL.md is silent).
//!
//! * **Address** ([`AddressMapping`]): the channel-local address (the channel digit removed by
//!   `MemorySystem`) splits into row, bank, column and burst-offset bits as `dram.address_mapping`
//!   says, GPGPU-Sim's `-gpgpu_mem_addr_mapping` notation. A bank's group is its low bits
//!   (GPGPU-Sim `-dram_bnkgrp_indexing_policy 1`).
//! * **Controller latency**: a request from an L2 slice waits `dram.latency` core cycles before
//!   it reaches the scheduler (GPGPU-Sim's `-dram_latency` queue); the slices may send one request
//!   per DRAM cycle while the scheduler queue has fewer than `dram.queue_size` requests and fewer
//!   than `queue_size + return_queue_size + 1` are unfinished (GPGPU-Sim's credits).
//! * **FR-FCFS** (first ready, first come first served): each DRAM cycle, banks are visited
//!   round-robin from `prio`, and the first bank with no request in service takes one: a request
//!   to the row it is draining (or, starting a new stream, to its open row: a row hit), else the
//!   oldest request for the bank, whose row it then drains.
//! * **Commands**, at most one column command (read/write) and one row command (activate or
//!   precharge) per DRAM cycle, banks visited from `prio`, each only when every timing counter it
//!   depends on has run out: `ccd`/`ccdl` between column commands (same bank group: `ccdl`),
//!   `rcd` from activate to read (`rcd - wl - 1` to write), `rrd` between activates, `ras` and
//!   `rc` for a bank's row, `rp` after precharge, `rtw`/`wtr` bus turnarounds
//!   (`cl + bl/ratio + 2 - wl` and `wl + bl/ratio + cdlr`), `wtp` (`wl + bl/ratio + wr`) and
//!   `rtp` (`bl/ratio`, `rtpl` per group) before precharge.
//! * **Data**: a column command moves one atom of `burst_length x bus_width_bytes x
//!   chips_per_channel` bytes (64 on the GTX480); a request needs ceil(size / atom) column
//!   commands, so a 32-byte sector costs a whole atom, as in GPGPU-Sim. Data arrives `cl` (read)
//!   or `wl` (write) DRAM cycles after its command; one arrival per DRAM cycle. A finished read
//!   joins the return queue (`dram.return_queue_size`), from which `MemorySystem` moves one per
//!   DRAM cycle back to the slice that sent it. Writes return nothing (the L2 acknowledges them).
//!
//! Departures from GPGPU-Sim, kept for clarity: no refresh (GPGPU-Sim models none either), no
//! separate write queue (its default), and a row hit is counted when the bank's open row matches
//! at the time the request is given to the bank (GPGPU-Sim counts a continued row stream).

pub use super::dram_address::AddressMapping;
use super::dram_queue::BankQueues;
use super::request::{Fetch, FetchKind};
use crate::config::DramConfig;
use serde::Serialize;
use std::collections::VecDeque;

/// DRAM counters (`warpstep run --json`'s `dram`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct DramStats {
    pub reads: u64,
    pub writes: u64,
    /// Requests given to a bank whose open row was theirs.
    pub row_hits: u64,
    /// Requests that needed a row activated (and maybe another precharged).
    pub row_misses: u64,
    /// Activate commands.
    pub activates: u64,
    /// Column commands (one data burst each).
    pub bursts: u64,
    /// DRAM cycles in which a bank or the data bus had work.
    pub busy_cycles: u64,
    /// Where the data bus's cycles went (GPGPU-Sim's "BW Util details").
    pub bus: BusBreakdown,
}

/// How a channel's DRAM cycles were spent, counted as GPGPU-Sim's `dram_t::cycle` counts its
/// "BW Util details" and "BW Util Bottlenecks", so the two can be compared line by line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct BusBreakdown {
    /// Cycles the data bus carried a burst (a column command issued, or tCCD still running).
    pub data: u64,
    /// Cycles a bank held a request to its open row but no column command could issue.
    pub column_blocked: u64,
    /// Cycles banks held requests, none to an open row (activates and precharges only).
    pub row_blocked: u64,
    /// Of the blocked banks' column commands in `column_blocked` cycles: how many waited for
    /// each constraint (a bank may wait for several).
    pub rcd: u64,
    pub rcd_write: u64,
    pub wtr: u64,
    pub rtw: u64,
    pub ccdl: u64,
}

impl BusBreakdown {
    fn add(&mut self, o: &BusBreakdown) {
        self.data += o.data;
        self.column_blocked += o.column_blocked;
        self.row_blocked += o.row_blocked;
        self.rcd += o.rcd;
        self.rcd_write += o.rcd_write;
        self.wtr += o.wtr;
        self.rtw += o.rtw;
        self.ccdl += o.ccdl;
    }
}

impl DramStats {
    pub fn add(&mut self, o: &DramStats) {
        self.reads += o.reads;
        self.writes += o.writes;
        self.row_hits += o.row_hits;
        self.row_misses += o.row_misses;
        self.activates += o.activates;
        self.bursts += o.bursts;
        self.busy_cycles += o.busy_cycles;
        self.bus.add(&o.bus);
    }
}

/// A request in the controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Queued {
    fetch: Fetch,
    bank: u32,
    row: u64,
    /// The L2 slice that sent it (where its reply goes).
    origin: u32,
    /// Bytes already moved by column commands.
    moved: u32,
}

impl Queued {
    fn is_write(&self) -> bool {
        matches!(self.fetch.kind, FetchKind::Write | FetchKind::WriteBack)
    }
}

/// What a data burst finishes.
#[derive(Debug, Clone, Copy)]
enum BurstEnd {
    /// Not the request's last burst.
    Partial,
    /// A read, which then waits in the return queue.
    Read(Queued),
    /// A write, which is done.
    Write,
}

/// Whether a bank has a row open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BankState {
    #[default]
    Idle,
    Active,
}

/// One bank: its row, the request it serves, and its timing constraints, each kept as the
/// first DRAM cycle the command it holds back may issue (GPGPU-Sim counts the same constraints
/// down every cycle; a deadline is equivalent and costs nothing while it waits).
#[derive(Debug, Clone, Copy, Default)]
struct Bank {
    state: BankState,
    row: u64,
    serving: Option<Queued>,
    /// The row whose requests the scheduler is draining into this bank.
    stream: Option<u64>,
    /// Read after activate (tRCD).
    read_at: u64,
    /// Write after activate (tRCD - WL - 1).
    write_at: u64,
    /// Precharge after activate (tRAS).
    ras_at: u64,
    /// Activate after activate (tRC).
    rc_at: u64,
    /// Activate after precharge (tRP).
    rp_at: u64,
    /// Precharge after write (tWTP).
    wtp_at: u64,
    /// Precharge after read (tRTP).
    rtp_at: u64,
}

/// A bank as the views show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BankView {
    pub state: BankState,
    pub open_row: u64,
    pub busy: bool,
}

/// Deadlines of one bank group.
#[derive(Debug, Clone, Copy, Default)]
struct BankGroup {
    /// Column command after one in the group (tCCDL).
    ccdl_at: u64,
    /// Precharge after a read in the group (tRTPL).
    rtpl_at: u64,
}

/// Which way the data bus last turned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BusMode {
    Read,
    Write,
}

/// A column command issued, for tests and traces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Issued {
    pub addr: u64,
    pub bank: u32,
    pub row: u64,
    pub write: bool,
}

/// Where a request is in a DRAM channel ([`DramChannel::find`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum DramPlace {
    /// On its way from the L2 to the scheduler; it arrives in core cycle `at`.
    Arriving { at: u64 },
    /// In the scheduler's queue (FR-FCFS picks from it), for `bank`'s `row`.
    Queued { position: u32, bank: u32, row: u64 },
    /// Its data is on the bus.
    Bus,
    /// Done, waiting to go back to its L2 slice.
    Returning,
}

/// Timing in DRAM cycles, with GPGPU-Sim's derived turnarounds.
#[derive(Debug, Clone, Copy)]
struct Timing {
    ccd: u32,
    ccdl: u32,
    rrd: u32,
    rcd: u32,
    rcd_write: u32,
    ras: u32,
    rc: u32,
    rp: u32,
    cl: u32,
    wl: u32,
    rtw: u32,
    wtr: u32,
    wtp: u32,
    rtp: u32,
    rtpl: u32,
}

impl Timing {
    fn of(c: &DramConfig) -> Timing {
        let t = &c.timing;
        let burst = c.burst_length / c.data_command_ratio.max(1);
        Timing {
            ccd: t.ccd,
            ccdl: t.ccdl,
            rrd: t.rrd,
            rcd: t.rcd,
            rcd_write: t.rcd.saturating_sub(t.wl + 1),
            ras: t.ras,
            rc: t.rc,
            rp: t.rp,
            cl: t.cl,
            wl: t.wl,
            rtw: (t.cl + burst + 2).saturating_sub(t.wl),
            wtr: t.wl + burst + t.cdlr,
            wtp: t.wl + burst + t.wr,
            rtp: burst,
            rtpl: t.rtpl,
        }
    }
}

/// One channel (see the module documentation).
#[derive(Debug, Clone)]
pub struct DramChannel {
    mapping: AddressMapping,
    t: Timing,
    atom: u32,
    latency: u64,
    queue_size: usize,
    return_size: usize,
    /// Requests on their way to the scheduler: (core cycle they arrive, request).
    arriving: VecDeque<(u64, Queued)>,
    /// The scheduler queue, per bank ([`super::dram_queue`]).
    queue: BankQueues<Queued>,
    banks: Vec<Bank>,
    groups: Vec<BankGroup>,
    group_mask: u32,
    /// Column command after any column command (tCCD).
    ccd_at: u64,
    /// Activate after any activate (tRRD).
    rrd_at: u64,
    /// Write after a read (tRTW).
    rtw_at: u64,
    /// Read after a write (tWTR).
    wtr_at: u64,
    prio: usize,
    bus: BusMode,
    /// Data bursts on the bus: (DRAM cycle the data is there, what the burst finishes).
    bursts: VecDeque<(u64, BurstEnd)>,
    /// Requests taken and not yet finished (returned to their slice, or written): GPGPU-Sim's
    /// per-channel credits, `queue_size + return_queue_size + 1` in all
    /// (`memory_partition_unit::arbitration_metadata`).
    in_flight: usize,
    credits: usize,
    returning: VecDeque<Queued>,
    dram_cycle: u64,
    /// Banks with a request in service.
    serving: usize,
    pub stats: DramStats,
}

impl DramChannel {
    /// A channel of `config` (its address mapping already validated).
    pub fn new(config: &DramConfig) -> DramChannel {
        let banks = config.banks.max(1);
        let groups = config.bank_groups.clamp(1, banks);
        let mapping = AddressMapping::parse(&config.address_mapping, banks)
            .unwrap_or_else(|_| AddressMapping::empty());
        DramChannel {
            mapping,
            t: Timing::of(config),
            atom: (config.burst_length * config.bus_width_bytes * config.chips_per_channel).max(1),
            latency: u64::from(config.latency),
            queue_size: config.queue_size.max(1) as usize,
            return_size: config.return_queue_size.max(1) as usize,
            arriving: VecDeque::new(),
            queue: BankQueues::new(banks as usize),
            banks: vec![Bank::default(); banks as usize],
            groups: vec![BankGroup::default(); groups as usize],
            group_mask: groups - 1,
            ccd_at: 0,
            rrd_at: 0,
            rtw_at: 0,
            wtr_at: 0,
            prio: 0,
            bus: BusMode::Read,
            bursts: VecDeque::new(),
            in_flight: 0,
            credits: (config.queue_size + config.return_queue_size + 1) as usize,
            returning: VecDeque::new(),
            dram_cycle: 0,
            serving: 0,
            stats: DramStats::default(),
        }
    }

    /// (bank, row, column) of a channel-local address.
    pub fn decode(&self, local: u64) -> (u32, u64, u64) {
        self.mapping.decode(local)
    }

    /// Bytes one column command moves: `burst_length x bus_width_bytes x chips_per_channel`.
    pub fn atom_bytes(&self) -> u32 {
        self.atom
    }

    /// Whether the scheduler queue has room (a slice may send a request).
    pub fn can_accept(&self) -> bool {
        self.queue.len() < self.queue_size && self.in_flight < self.credits
    }

    /// A request from slice `origin`, whose channel-local address is `local`, leaves the slice
    /// in core cycle `now`; it reaches the scheduler `dram.latency` cycles later. Returns false
    /// when the scheduler queue is full.
    pub fn push(&mut self, fetch: Fetch, local: u64, origin: u32, now: u64) -> bool {
        if !self.can_accept() {
            return false;
        }
        let (bank, row, _) = self.decode(local);
        let q = Queued {
            fetch,
            bank,
            row,
            origin,
            moved: 0,
        };
        self.arriving.push_back((now + self.latency, q));
        self.in_flight += 1;
        true
    }

    /// DRAM cycle `tick` (counted from 1, increasing), during core cycle `now`; returns the
    /// column command issued, if any.
    pub fn cycle(&mut self, tick: u64, now: u64) -> Option<Issued> {
        self.dram_cycle = tick;
        if self.serving == 0 && self.queue.is_empty() && self.bursts.is_empty() {
            // Nothing for the banks or the bus: only requests crossing the controller latency
            // (or replies waiting for their slice).
            self.admit(now);
            return None;
        }
        self.stats.busy_cycles += 1;
        self.data_arrives();
        self.schedule();
        let issued = self.issue_commands();
        self.count_bus(issued.is_some());
        self.admit(now);
        issued
    }

    /// The oldest data burst that is due leaves the bus; a finished read joins the return queue.
    fn data_arrives(&mut self) {
        if self.returning.len() >= self.return_size {
            return;
        }
        match self.bursts.front() {
            Some((at, _)) if *at <= self.dram_cycle => {}
            _ => return,
        }
        match self.bursts.pop_front() {
            Some((_, BurstEnd::Read(done))) => self.returning.push_back(done),
            Some((_, BurstEnd::Write)) => self.in_flight -= 1,
            _ => {}
        }
    }

    /// One request that has crossed the controller latency enters the scheduler queue.
    fn admit(&mut self, now: u64) {
        if self.queue.len() >= self.queue_size {
            return;
        }
        match self.arriving.front() {
            Some((at, _)) if *at <= now => {}
            _ => return,
        }
        if let Some((_, q)) = self.arriving.pop_front() {
            self.queue.push(q.bank as usize, q.row, q);
        }
    }

    /// FR-FCFS: the first free bank from `prio` that has a request takes one
    /// ([`BankQueues::pick`]).
    fn schedule(&mut self) {
        let n = self.banks.len();
        if self.queue.is_empty() || self.serving == n {
            return;
        }
        for b in (self.prio..n).chain(0..self.prio) {
            let bank = &self.banks[b];
            if bank.serving.is_some() {
                continue;
            }
            if let Some((k, stream)) = self.queue.pick(b, bank.stream, bank.row) {
                let q = self.queue.take(b, k).item;
                self.count_request(b, &q);
                let more = self.queue.has_row(b, q.row);
                let bank = &mut self.banks[b];
                bank.serving = Some(q);
                bank.stream = more.then_some(stream);
                self.serving += 1;
                self.prio = (self.prio + 1) % n;
                return;
            }
        }
    }

    fn count_request(&mut self, b: usize, q: &Queued) {
        let bank = &self.banks[b];
        if bank.state == BankState::Active && bank.row == q.row {
            self.stats.row_hits += 1;
        } else {
            self.stats.row_misses += 1;
        }
        if q.is_write() {
            self.stats.writes += 1;
        } else {
            self.stats.reads += 1;
        }
    }

    /// At most one column and one row command, banks visited from `prio` (GPGPU-Sim's
    /// single-bus `dram_t::cycle`).
    ///
    /// Only banks with a request in service can take a command, and no column command issues
    /// before tCCD has run out, whatever the bank; a row command moves `prio`, which orders the
    /// banks visited after it.
    fn issue_commands(&mut self) -> Option<Issued> {
        if self.serving == 0 {
            return None;
        }
        let n = self.banks.len();
        let columns = self.dram_cycle >= self.ccd_at;
        let mut row = false;
        for i in 0..n {
            // `prio` as it is now (a row command below moves it); `prio < n`, so one
            // subtraction wraps the sum (no division per bank).
            let b = match i + self.prio {
                b if b >= n => b - n,
                b => b,
            };
            if self.banks[b].serving.is_none() {
                continue;
            }
            if columns {
                if let Some(issued) = self.column_command(b) {
                    return Some(issued);
                }
            } else if row {
                return None;
            }
            if !row {
                row = self.row_command(b);
            }
        }
        None
    }

    /// Classifies this cycle as GPGPU-Sim's bandwidth breakdown does (after the commands).
    fn count_bus(&mut self, column_issued: bool) {
        let now = self.dram_cycle;
        if column_issued || now < self.ccd_at {
            self.stats.bus.data += 1;
            return;
        }
        if self.serving == 0 {
            return;
        }
        let mut open = false;
        let mut any = false;
        let mut bus = self.stats.bus;
        for (b, bank) in self.banks.iter().enumerate() {
            let Some(q) = bank.serving else { continue };
            any = true;
            if bank.state != BankState::Active || bank.row != q.row {
                continue;
            }
            open = true;
            let ccdl = now < self.groups[b & self.group_mask as usize].ccdl_at;
            bus.ccdl += u64::from(ccdl);
            if q.is_write() {
                bus.rcd_write += u64::from(now < bank.write_at);
                bus.rtw += u64::from(now < self.rtw_at);
            } else {
                bus.rcd += u64::from(now < bank.read_at);
                bus.wtr += u64::from(now < self.wtr_at);
            }
        }
        if open {
            bus.column_blocked += 1;
            self.stats.bus = bus;
        } else if any {
            self.stats.bus.row_blocked += 1;
        }
    }

    fn group_of(&self, b: usize) -> usize {
        b & self.group_mask as usize
    }

    /// A read or write burst for bank `b`'s request, if every counter allows it.
    fn column_command(&mut self, b: usize) -> Option<Issued> {
        let g = self.group_of(b);
        let bank = &self.banks[b];
        let q = bank.serving.as_ref()?;
        let open = bank.state == BankState::Active && bank.row == q.row;
        let now = self.dram_cycle;
        if !open || now < self.ccd_at || now < self.groups[g].ccdl_at {
            return None;
        }
        let write = q.is_write();
        let ready = if write {
            now >= bank.write_at && now >= self.rtw_at
        } else {
            now >= bank.read_at && now >= self.wtr_at
        };
        if !ready {
            return None;
        }
        let mut q = *q;
        let t = self.t;
        let after = |d: u32| now + u64::from(d);
        self.ccd_at = after(t.ccd);
        self.groups[g].ccdl_at = after(t.ccdl);
        let delay = if write {
            self.bus = BusMode::Write;
            self.wtr_at = after(t.wtr);
            self.banks[b].wtp_at = after(t.wtp);
            t.wl
        } else {
            self.bus = BusMode::Read;
            self.rtw_at = after(t.rtw);
            self.banks[b].rtp_at = after(t.rtp);
            self.groups[g].rtpl_at = after(t.rtpl);
            t.cl
        };
        self.stats.bursts += 1;
        q.moved += self.atom;
        let finished = q.moved >= q.fetch.size.max(1);
        self.banks[b].serving = (!finished).then_some(q);
        if finished {
            self.serving -= 1;
        }
        let end = match (finished, q.fetch.kind.expects_reply()) {
            (false, _) => BurstEnd::Partial,
            (true, true) => BurstEnd::Read(q),
            (true, false) => BurstEnd::Write,
        };
        self.bursts
            .push_back((self.dram_cycle + u64::from(delay), end));
        Some(Issued {
            addr: q.fetch.addr,
            bank: b as u32,
            row: q.row,
            write,
        })
    }

    /// An activate or a precharge for bank `b`'s request, if the counters allow it.
    fn row_command(&mut self, b: usize) -> bool {
        let g = self.group_of(b);
        let n = self.banks.len();
        let t = self.t;
        let now = self.dram_cycle;
        let after = |d: u32| now + u64::from(d);
        let rrd_free = now >= self.rrd_at;
        let rtpl_free = now >= self.groups[g].rtpl_at;
        let bank = &mut self.banks[b];
        let Some(row) = bank.serving.as_ref().map(|q| q.row) else {
            return false;
        };
        match bank.state {
            BankState::Idle if rrd_free && now >= bank.rp_at && now >= bank.rc_at => {
                bank.state = BankState::Active;
                bank.row = row;
                bank.read_at = after(t.rcd);
                bank.write_at = after(t.rcd_write);
                bank.ras_at = after(t.ras);
                bank.rc_at = after(t.rc);
                self.rrd_at = after(t.rrd);
                self.stats.activates += 1;
            }
            BankState::Active
                if bank.row != row
                    && now >= bank.ras_at
                    && now >= bank.wtp_at
                    && now >= bank.rtp_at
                    && rtpl_free =>
            {
                bank.state = BankState::Idle;
                bank.rp_at = after(t.rp);
            }
            _ => return false,
        }
        self.prio = (b + 1) % n;
        true
    }

    /// The oldest finished read, with the slice it goes to.
    pub fn completed(&self) -> Option<(u32, &Fetch)> {
        self.returning.front().map(|q| (q.origin, &q.fetch))
    }

    pub fn pop_completed(&mut self) -> Option<Fetch> {
        let q = self.returning.pop_front()?;
        self.in_flight -= 1;
        Some(q.fetch)
    }

    /// Nothing queued, in a bank, on the bus or waiting to return. Timing counters may still
    /// be running; they matter only to the next request, which then waits for them as if they
    /// had counted down.
    pub fn is_idle(&self) -> bool {
        self.arriving.is_empty()
            && self.queue.is_empty()
            && self.bursts.is_empty()
            && self.returning.is_empty()
            && self.serving == 0
    }

    /// Where the requests that `wants` are in this channel: on their way to the scheduler,
    /// in its queue (at a position, oldest first), on the data bus, or waiting to return.
    pub fn find(&self, wants: impl Fn(&Fetch) -> bool) -> Vec<DramPlace> {
        let arriving = self
            .arriving
            .iter()
            .filter(|(_, q)| wants(&q.fetch))
            .map(|(at, _)| DramPlace::Arriving { at: *at });
        let queued = self
            .queue
            .in_order()
            .into_iter()
            .enumerate()
            .filter(|(_, (_, e))| wants(&e.item.fetch))
            .map(|(i, (_, e))| DramPlace::Queued {
                position: i as u32,
                bank: e.item.bank,
                row: e.item.row,
            });
        let bus = self
            .bursts
            .iter()
            .filter(|(_, end)| matches!(end, BurstEnd::Read(q) if wants(&q.fetch)))
            .map(|_| DramPlace::Bus);
        let returning = self
            .returning
            .iter()
            .filter(|q| wants(&q.fetch))
            .map(|_| DramPlace::Returning);
        arriving.chain(queued).chain(bus).chain(returning).collect()
    }

    /// Requests waiting in the scheduler queue.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Requests taken and not yet finished (crossing the controller latency, queued, in a
    /// bank or on the bus, or waiting to return to their slice).
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// The banks, for the views.
    pub fn banks(&self) -> Vec<BankView> {
        self.banks
            .iter()
            .map(|b| BankView {
                state: b.state,
                open_row: b.row,
                busy: b.serving.is_some(),
            })
            .collect()
    }
}
