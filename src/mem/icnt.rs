//! The interconnect between the SMs and the L2 slices (MODEL.md section 9: "latency plus
//! bandwidth in 32-byte flits per cycle each way"; book section 4.2: a crossbar).
//!
//! Two independent networks, one each way. A packet of `ceil(bytes / flit_bytes)` flits
//! occupies both its source's injection port and its destination's ejection port, each moving
//! `flits_per_cycle` flits per cycle: it starts on the first flit slot both have free, and
//! arrives `latency` cycles after its last flit left. So an SM sending misses to many slices is
//! limited by its own port, and twelve slices replying to one SM by that SM's port. A destination
//! takes at most [`BUFFER_PACKETS`] packets in flight (a source whose destination is full waits),
//! and an arrived packet stays in the network until its destination takes it.
//!
//! Packet sizes follow GPGPU-Sim: a read request is its 8-byte header, a write carries its data,
//! a read reply is one 32-byte sector plus the header (one 40-byte flit on the GTX480, whose
//! `-icnt_flit_size` is 40), a store's acknowledgement the header alone; so an SM takes at most
//! one reply per cycle, the limit that sets one SM's rate on a streaming kernel (issue 12).
//!
//! Departure: GPGPU-Sim models the network with BookSim's iSLIP crossbar
//! (`config_fermi_islip.icnt`), whose latency and losses emerge from virtual-channel and switch
//! allocation; warpstep keeps MODEL.md's simpler fixed latency and flit bandwidth (an ideal
//! crossbar), which the book and the papers use to describe it. Measured cost of the departure
//! (docs/correlation.md): under 15 SMs GPGPU-Sim's memory side injects about 0.45 replies per
//! cycle per L2 slice (one virtual channel per port, an allocation per packet) where this
//! crossbar allows 1, so whole-GPU runs that the interconnect binds are 12-21% shorter here.

use super::request::Fetch;
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
}

/// One direction of the crossbar.
#[derive(Debug, Clone)]
pub struct Network {
    latency: u64,
    flits_per_cycle: u64,
    flit_bytes: u32,
    /// First free flit slot (cycle x flits_per_cycle + k) of each source port.
    src_free: Vec<u64>,
    /// First free flit slot of each destination port.
    dst_free: Vec<u64>,
    /// Packets on their way to each destination: (arrival cycle, packet), in arrival order.
    queues: Vec<VecDeque<(u64, Fetch)>>,
}

impl Network {
    fn new(
        sources: usize,
        dests: usize,
        latency: u32,
        flits_per_cycle: u32,
        flit_bytes: u32,
    ) -> Self {
        Network {
            latency: u64::from(latency),
            flits_per_cycle: u64::from(flits_per_cycle.max(1)),
            flit_bytes: flit_bytes.max(1),
            src_free: vec![0; sources],
            dst_free: vec![0; dests],
            queues: vec![VecDeque::new(); dests],
        }
    }

    /// Flits of a packet of `bytes` bytes.
    pub fn flits(&self, bytes: u32) -> u64 {
        u64::from(bytes.div_ceil(self.flit_bytes).max(1))
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

    /// Sends a packet of `bytes` bytes; returns its flits (0 if it could not be sent).
    pub fn send(&mut self, now: u64, src: usize, dst: usize, bytes: u32, packet: Fetch) -> u64 {
        if !self.can_send(now, src, dst) {
            return 0;
        }
        let n = self.flits(bytes);
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

    pub fn pop(&mut self, dst: usize) -> Option<Fetch> {
        self.queues.get_mut(dst)?.pop_front().map(|(_, f)| f)
    }

    /// Packets in flight to `dst`.
    pub fn in_flight(&self, dst: usize) -> usize {
        self.queues.get(dst).map_or(0, VecDeque::len)
    }

    pub fn is_idle(&self) -> bool {
        self.queues.iter().all(VecDeque::is_empty)
    }
}

/// The two networks (see the module documentation).
#[derive(Debug, Clone)]
pub struct Icnt {
    /// SMs to L2 slices.
    pub to_mem: Network,
    /// L2 slices to SMs.
    pub to_sm: Network,
    pub stats: IcntStats,
}

impl Icnt {
    /// The crossbar of `sms` SMs and `slices` L2 slices.
    pub fn new(sms: u32, slices: u32, config: &crate::config::IcntConfig) -> Icnt {
        let (s, m) = (sms as usize, slices as usize);
        let (lat, fpc, fb) = (config.latency, config.flits_per_cycle, config.flit_bytes);
        Icnt {
            to_mem: Network::new(s, m, lat, fpc, fb),
            to_sm: Network::new(m, s, lat, fpc, fb),
            stats: IcntStats::default(),
        }
    }

    /// Sends a request from SM `sm` to slice `slice`; returns whether it went.
    pub fn send_request(&mut self, now: u64, sm: usize, slice: usize, f: Fetch) -> bool {
        let n = self.to_mem.send(now, sm, slice, f.request_bytes(), f);
        self.count(n)
    }

    /// Sends a reply from slice `slice` to the SM in `f.sm`; returns whether it went.
    pub fn send_reply(&mut self, now: u64, slice: usize, f: Fetch) -> bool {
        let n = self
            .to_sm
            .send(now, slice, f.sm as usize, f.reply_bytes(), f);
        self.count(n)
    }

    fn count(&mut self, flits: u64) -> bool {
        if flits > 0 {
            self.stats.packets += 1;
        }
        flits > 0
    }

    pub fn is_idle(&self) -> bool {
        self.to_mem.is_idle() && self.to_sm.is_idle()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::request::{DataSpace, FetchKind, NO_PARENT};

    fn packet(token: u64) -> Fetch {
        Fetch {
            addr: 0,
            size: 128,
            kind: FetchKind::Read,
            space: DataSpace::Global,
            sm: 0,
            token,
            bypass: false,
            bytes: u128::MAX,
            parent: NO_PARENT,
            pieces: 1,
        }
    }

    #[test]
    fn latency_plus_serialisation() {
        let mut n = Network::new(1, 2, 5, 1, 32);
        // A 136-byte packet: 5 flits, cycles 10..14, arrives at 14 + 5.
        assert_eq!(n.send(10, 0, 0, 136, packet(1)), 5);
        assert!(n.peek(18, 0).is_none());
        assert_eq!(n.peek(19, 0).map(|f| f.token), Some(1));
        // The source port is busy until cycle 15.
        assert!(!n.can_send(14, 0, 1));
        assert!(n.can_send(15, 0, 1));
        // An 8-byte request is one flit.
        assert_eq!(n.send(15, 0, 1, 8, packet(2)), 1);
        assert_eq!(n.peek(20, 1).map(|f| f.token), Some(2));
    }

    #[test]
    fn destinations_serialise_their_sources() {
        let mut n = Network::new(2, 1, 3, 1, 32);
        assert_eq!(n.send(0, 0, 0, 64, packet(1)), 2);
        assert_eq!(n.send(0, 1, 0, 64, packet(2)), 2);
        // The second waits for the destination port: flits at 2 and 3, arrives 3 + 3.
        assert_eq!(n.peek(4, 0).map(|f| f.token), Some(1));
        n.pop(0);
        assert!(n.peek(5, 0).is_none());
        assert_eq!(n.peek(6, 0).map(|f| f.token), Some(2));
    }

    #[test]
    fn wide_ports_move_several_flits_per_cycle() {
        let mut n = Network::new(1, 1, 0, 2, 32);
        n.send(0, 0, 0, 136, packet(1));
        assert_eq!(n.peek(2, 0).map(|f| f.token), Some(1));
        assert!(n.can_send(2, 0, 0));
    }

    #[test]
    fn a_full_destination_refuses() {
        let mut n = Network::new(1, 1, 1, 64, 32);
        for t in 0..BUFFER_PACKETS as u64 {
            assert!(n.send(0, 0, 0, 8, packet(t)) > 0);
        }
        assert!(!n.can_send(0, 0, 0));
        assert_eq!(n.send(0, 0, 0, 8, packet(99)), 0);
    }
}
