//! The interconnect between the SMs and the L2 slices (MODEL.md section 9: "latency plus
//! bandwidth in 32-byte flits per cycle each way"; book section 4.2: a crossbar): two
//! independent networks, one each way, each timed as `icnt.model` chooses.
//!
//! * `crossbar` ([`Crossbar`]), MODEL.md's description taken literally: a packet of
//!   `ceil(bytes / flit_bytes)` flits occupies both its source's injection port and its
//!   destination's ejection port, each moving `flits_per_cycle` flits per cycle: it starts on the
//!   first flit slot both have free, and arrives `latency` cycles after its last flit left. So
//!   an SM sending misses to many slices is limited by its own port, and twelve slices replying
//!   to one SM by that SM's port. A destination takes at most [`BUFFER_PACKETS`] packets in
//!   flight (a source whose destination is full waits), and an arrived packet stays in the
//!   network until its destination takes it. No allocation is modelled: an ideal crossbar.
//! * `router` ([`super::icnt_router`]): the router GPGPU-Sim builds from
//!   `config_fermi_islip.icnt` with BookSim, whose one virtual channel per port and iSLIP
//!   allocation lose bandwidth to head-of-line blocking when many slices reply to many SMs.
//!   The `fermi`, `gtx480` and Tesla presets use it (issue 12: with the crossbar, saxpy on 15
//!   SMs ran 21% shorter than GPGPU-Sim, its L2 slices replying at up to one packet per cycle).
//!
//! Packet sizes follow GPGPU-Sim: a read request is its 8-byte header, a write carries its data,
//! a read reply is one 32-byte sector plus the header (one 40-byte flit on the GTX480, whose
//! `-icnt_flit_size` is 40), a store's acknowledgement the header alone; so an SM takes at most
//! one reply per cycle, the limit that sets one SM's rate on a streaming kernel (issue 12).

use super::icnt_router::{RouterNetwork, RouterParams};
use super::request::Fetch;
use crate::config::{IcntConfig, IcntModel};
use serde::Serialize;
use std::collections::VecDeque;

/// Packets in flight to one destination at most (warpstep's choice: the input buffer of one
/// crossbar port, enough to cover the latency at full bandwidth for the presets).
pub const BUFFER_PACKETS: usize = 32;

/// Interconnect counters (`warpstep run --json`'s `icnt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct IcntStats {
    /// Packets sent, both ways.
    pub packets: u64,
    /// Times an L1D offered a request the network refused (GPGPU-Sim's
    /// `gpu_stall_sh2icnt`); with the router, a full injection queue.
    pub request_refusals: u64,
    /// Times an L2 slice offered a reply the network refused (GPGPU-Sim's
    /// `gpu_stall_icnt2sh`).
    pub reply_refusals: u64,
    /// Requests an L2 slice took, and their cycles from the SM handing them to the network to
    /// the slice taking them (GPGPU-Sim's `avg_icnt2mem_latency` = `request_cycles / requests`).
    pub requests: u64,
    pub request_cycles: u64,
    /// Replies an SM took, and their cycles from the slice handing them to the network to the
    /// SM taking them (GPGPU-Sim's `avg_icnt2sh_latency` = `reply_cycles / replies`).
    pub replies: u64,
    pub reply_cycles: u64,
}

/// One direction of the ideal crossbar (`icnt.model = crossbar`).
#[derive(Debug, Clone)]
pub struct Crossbar {
    latency: u64,
    flits_per_cycle: u64,
    /// First free flit slot (cycle x flits_per_cycle + k) of each source port.
    src_free: Vec<u64>,
    /// First free flit slot of each destination port.
    dst_free: Vec<u64>,
    /// Packets on their way to each destination: (arrival cycle, packet), in arrival order.
    queues: Vec<VecDeque<(u64, Fetch)>>,
}

impl Crossbar {
    fn new(sources: usize, dests: usize, latency: u32, flits_per_cycle: u32) -> Self {
        Crossbar {
            latency: u64::from(latency),
            flits_per_cycle: u64::from(flits_per_cycle.max(1)),
            src_free: vec![0; sources],
            dst_free: vec![0; dests],
            queues: vec![VecDeque::new(); dests],
        }
    }

    /// Whether `src` can start a packet to `dst` in cycle `now`.
    pub fn can_send(&self, now: u64, src: usize, dst: usize) -> bool {
        let slot_end = (now + 1) * self.flits_per_cycle;
        self.src_free.get(src).is_some_and(|&f| f < slot_end)
            && self
                .queues
                .get(dst)
                .is_some_and(|q| q.len() < BUFFER_PACKETS)
    }

    /// Sends a packet of `n` flits; returns its flits (0 if it could not be sent).
    pub fn send(&mut self, now: u64, src: usize, dst: usize, n: u64, packet: Fetch) -> u64 {
        if !self.can_send(now, src, dst) {
            return 0;
        }
        let start = (now * self.flits_per_cycle)
            .max(self.src_free[src])
            .max(self.dst_free[dst]);
        let end = start + n;
        self.src_free[src] = end;
        self.dst_free[dst] = end;
        let arrive = (end - 1) / self.flits_per_cycle + self.latency;
        self.queues[dst].push_back((arrive, packet));
        n
    }

    /// The packet that has arrived at `dst` by cycle `now`, if any.
    pub fn peek(&self, now: u64, dst: usize) -> Option<&Fetch> {
        match self.queues.get(dst)?.front() {
            Some((at, f)) if *at <= now => Some(f),
            _ => None,
        }
    }

    /// Every packet on its way: (destination, arrival cycle, packet).
    pub fn packets(&self) -> impl Iterator<Item = (usize, u64, &Fetch)> {
        self.queues
            .iter()
            .enumerate()
            .flat_map(|(d, q)| q.iter().map(move |(at, f)| (d, *at, f)))
    }

    pub fn pop(&mut self, dst: usize) -> Option<Fetch> {
        self.queues.get_mut(dst)?.pop_front().map(|(_, f)| f)
    }

    pub fn is_idle(&self) -> bool {
        self.queues.iter().all(VecDeque::is_empty)
    }
}

/// One direction of the interconnect, as `icnt.model` chooses.
#[derive(Debug, Clone)]
pub enum Network {
    /// MODEL.md section 9's latency and flit bandwidth.
    Crossbar(Crossbar),
    /// GPGPU-Sim's BookSim router ([`super::icnt_router`]).
    Router(RouterNetwork),
}

impl Network {
    /// A network from `sources` to `dests` nodes as `config` describes it.
    fn new(sources: usize, dests: usize, config: &IcntConfig) -> Network {
        match config.model {
            IcntModel::Crossbar => Network::Crossbar(Crossbar::new(
                sources,
                dests,
                config.latency,
                config.flits_per_cycle,
            )),
            IcntModel::Router => Network::Router(RouterNetwork::new(
                sources,
                dests,
                RouterParams {
                    channel_latency: u64::from(config.latency),
                    flits_per_cycle: config.flits_per_cycle,
                    injection_flits: config.injection_buffer_flits as usize,
                    vc_buffer_flits: config.vc_buffer_flits as usize,
                    internal_speedup: config.internal_speedup,
                },
            )),
        }
    }

    /// Sends a packet of `flits` flits from `src` to `dst` in cycle `now`; false if refused.
    fn send(&mut self, now: u64, src: usize, dst: usize, flits: u64, packet: Fetch) -> bool {
        match self {
            Network::Crossbar(c) => c.send(now, src, dst, flits, packet) > 0,
            Network::Router(r) => r.send(src, dst, flits, packet),
        }
    }

    /// The packet that has arrived at `dst` by cycle `now`, if any.
    pub fn peek(&self, now: u64, dst: usize) -> Option<&Fetch> {
        match self {
            Network::Crossbar(c) => c.peek(now, dst),
            Network::Router(r) => r.peek(dst),
        }
    }

    pub fn pop(&mut self, dst: usize) -> Option<Fetch> {
        match self {
            Network::Crossbar(c) => c.pop(dst),
            Network::Router(r) => r.pop(dst),
        }
    }

    /// The packets on their way that `wants`: (destination, arrival cycle if the network
    /// knows it). The router network's flits are not searched (`None` there).
    pub fn find(&self, wants: impl Fn(&Fetch) -> bool) -> Option<Vec<(usize, u64)>> {
        match self {
            Network::Crossbar(c) => Some(
                c.packets()
                    .filter(|(_, _, f)| wants(f))
                    .map(|(d, at, _)| (d, at))
                    .collect(),
            ),
            Network::Router(_) => None,
        }
    }

    /// One interconnect cycle (the crossbar is timed by its stamps and needs none).
    pub fn step(&mut self) {
        if let Network::Router(r) = self {
            r.step();
        }
    }

    pub fn is_idle(&self) -> bool {
        match self {
            Network::Crossbar(c) => c.is_idle(),
            Network::Router(r) => r.is_idle(),
        }
    }
}

/// The two networks (see the module documentation).
#[derive(Debug, Clone)]
pub struct Icnt {
    /// SMs to L2 slices.
    pub to_mem: Network,
    /// L2 slices to SMs.
    pub to_sm: Network,
    flit_bytes: u32,
    pub stats: IcntStats,
    /// Requests and replies sent so far (the packets in flight are these less the ones taken,
    /// `stats.requests` and `stats.replies`).
    sent: [u64; 2],
}

impl Icnt {
    /// The interconnect of `sms` SMs and `slices` L2 slices.
    pub fn new(sms: u32, slices: u32, config: &IcntConfig) -> Icnt {
        let (s, m) = (sms as usize, slices as usize);
        Icnt {
            to_mem: Network::new(s, m, config),
            to_sm: Network::new(m, s, config),
            flit_bytes: config.flit_bytes.max(1),
            stats: IcntStats::default(),
            sent: [0; 2],
        }
    }

    /// Flits of a packet of `bytes` bytes.
    pub fn flits(&self, bytes: u32) -> u64 {
        u64::from(bytes.div_ceil(self.flit_bytes).max(1))
    }

    /// Sends a request from SM `sm` to slice `slice`; returns whether it went.
    pub fn send_request(&mut self, now: u64, sm: usize, slice: usize, f: Fetch) -> bool {
        let flits = self.flits(f.request_bytes());
        let f = Fetch { stamp: now, ..f };
        let sent = self.to_mem.send(now, sm, slice, flits, f);
        self.count(sent, true)
    }

    /// Sends a reply from slice `slice` to the SM in `f.sm`; returns whether it went.
    pub fn send_reply(&mut self, now: u64, slice: usize, f: Fetch) -> bool {
        let flits = self.flits(f.reply_bytes());
        let f = Fetch { stamp: now, ..f };
        let sent = self.to_sm.send(now, slice, f.sm as usize, flits, f);
        self.count(sent, false)
    }

    /// Takes the request that has reached slice `slice`, if any.
    pub fn take_request(&mut self, now: u64, slice: usize) -> Option<Fetch> {
        let f = self.to_mem.pop(slice)?;
        self.stats.requests += 1;
        self.stats.request_cycles += now.saturating_sub(f.stamp);
        Some(f)
    }

    /// Takes the reply that has reached SM `sm`, if any.
    pub fn take_reply(&mut self, now: u64, sm: usize) -> Option<Fetch> {
        let f = self.to_sm.pop(sm)?;
        self.stats.replies += 1;
        self.stats.reply_cycles += now.saturating_sub(f.stamp);
        Some(f)
    }

    /// Requests in the SM-to-L2 network: sent by an L1D and not yet taken by a slice.
    pub fn requests_in_flight(&self) -> u64 {
        self.sent[0] - self.stats.requests
    }

    /// Replies in the L2-to-SM network: sent by a slice and not yet taken by an L1D.
    pub fn replies_in_flight(&self) -> u64 {
        self.sent[1] - self.stats.replies
    }

    fn count(&mut self, sent: bool, request: bool) -> bool {
        match (sent, request) {
            (true, _) => {
                self.stats.packets += 1;
                self.sent[usize::from(!request)] += 1;
            }
            (false, true) => self.stats.request_refusals += 1,
            (false, false) => self.stats.reply_refusals += 1,
        }
        sent
    }

    /// One interconnect cycle of both networks.
    pub fn step(&mut self) {
        self.to_mem.step();
        self.to_sm.step();
    }

    pub fn is_idle(&self) -> bool {
        self.to_mem.is_idle() && self.to_sm.is_idle()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(token: u64) -> Fetch {
        Fetch::global_read(0, 128, token)
    }

    #[test]
    fn latency_plus_serialisation() {
        let mut n = Crossbar::new(1, 2, 5, 1);
        // A 136-byte packet: 5 flits, cycles 10..14, arrives at 14 + 5.
        assert_eq!(n.send(10, 0, 0, 5, packet(1)), 5);
        assert!(n.peek(18, 0).is_none());
        assert_eq!(n.peek(19, 0).map(|f| f.token), Some(1));
        // The source port is busy until cycle 15.
        assert!(!n.can_send(14, 0, 1));
        assert!(n.can_send(15, 0, 1));
        // An 8-byte request is one flit.
        assert_eq!(n.send(15, 0, 1, 1, packet(2)), 1);
        assert_eq!(n.peek(20, 1).map(|f| f.token), Some(2));
    }

    #[test]
    fn destinations_serialise_their_sources() {
        let mut n = Crossbar::new(2, 1, 3, 1);
        assert_eq!(n.send(0, 0, 0, 2, packet(1)), 2);
        assert_eq!(n.send(0, 1, 0, 2, packet(2)), 2);
        // The second waits for the destination port: flits at 2 and 3, arrives 3 + 3.
        assert_eq!(n.peek(4, 0).map(|f| f.token), Some(1));
        n.pop(0);
        assert!(n.peek(5, 0).is_none());
        assert_eq!(n.peek(6, 0).map(|f| f.token), Some(2));
    }

    #[test]
    fn wide_ports_move_several_flits_per_cycle() {
        let mut n = Crossbar::new(1, 1, 0, 2);
        n.send(0, 0, 0, 5, packet(1));
        assert_eq!(n.peek(2, 0).map(|f| f.token), Some(1));
        assert!(n.can_send(2, 0, 0));
    }

    #[test]
    fn a_full_destination_refuses() {
        let mut n = Crossbar::new(1, 1, 1, 64);
        for t in 0..BUFFER_PACKETS as u64 {
            assert!(n.send(0, 0, 0, 1, packet(t)) > 0);
        }
        assert!(!n.can_send(0, 0, 0));
        assert_eq!(n.send(0, 0, 0, 1, packet(99)), 0);
    }
}
