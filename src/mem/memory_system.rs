//! The memory system below the LD/ST units, owned by the `Sim` (MODEL.md sections 1 and 9: "L2
//! and DRAM are shared"): one L1D per SM, the interconnect, the L2 slices and the DRAM channels.
//!
//! Addresses are interleaved over the memory partitions every `l2.interleave_bytes` (256 B, book
//! section 4.2): chunk c = addr / interleave goes to channel c mod channels (GPGPU-Sim's
//! `dramid@8`) and, within it, to sub-partition (c / channels) mod sub_partitions_per_channel;
//! each sub-partition is one L2 slice. A channel sees the address with the channel digit removed.
//!
//! [`MemorySystem::cycle`] runs once per core cycle, before the SMs (GPGPU-Sim's
//! `gpgpu_sim::cycle` order), each step as many times as its clock domain ticks in that core
//! cycle (`clocks`, [`super::clock`]):
//! 1. (core) each SM's L1D takes one reply that has crossed the interconnect (its fill port);
//! 2. (interconnect) each L2 slice hands its oldest reply to the interconnect;
//! 3. (DRAM) each DRAM channel returns one finished read to the slice that sent it, runs its
//!    cycle ([`DramChannel::cycle`]) and takes one request from its slices (round-robin);
//! 4. (L2) each slice takes one request that has crossed the interconnect, then runs its cycle;
//! 5. (interconnect) the interconnect moves its flits one cycle (GPGPU-Sim's `icnt_transfer`),
//!    then each L1D hands its oldest miss (or bypassing request) to it;
//! 6. (core) each L1D posts its next finished request to its LD/ST unit's port
//!    ([`L1d::post_reply`]), if that unit works this cycle.
//!
//! So the memory system is the L1Ds' one driver. The SMs then run their cycle; an SM's LD/ST
//! unit sends its requests to its own L1D and takes the posted reply through its port
//! (`core::l1_port`), reaching the L1D through `SmContext`.

use super::clock::ClockDomain;
use super::coalescer::LocalMap;
use super::dram::{DramChannel, DramPlace, DramStats};
use super::events::{FetchPoint, MemEvent};
use super::icnt::{Icnt, IcntStats};
use super::l1d::{L1d, L1dStats};
use super::l2::{L2Slice, L2Stats, SlicePlace};
use super::request::Fetch;
use crate::config::Config;
use serde::Serialize;

/// Counters of the global memory path (`warpstep run --json`'s `l1d`, `l2`, `dram`, `icnt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct MemoryStats {
    pub l1d: L1dStats,
    /// The constant caches (`constant.model = cache`; zero otherwise).
    pub l1c: L1dStats,
    /// The instruction caches (`core.icache.model = cache`; zero otherwise).
    pub l1i: L1dStats,
    /// The texture caches (`l1d.texture_cache`; zero and left out of the JSON otherwise).
    #[serde(skip_serializing_if = "L1dStats::is_unused")]
    pub l1t: L1dStats,
    pub l2: L2Stats,
    pub dram: DramStats,
    pub icnt: IcntStats,
}

/// Where a request is below the L1D ([`MemorySystem::locate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "level", rename_all = "snake_case")]
pub enum RequestPlace {
    /// Crossing the interconnect to L2 slice `slice`; it arrives in cycle `arrives`.
    ToL2 { slice: u32, arrives: Option<u64> },
    /// Found nowhere else, with the router network, whose flits are not searched: in the
    /// interconnect, either way.
    Network,
    /// In L2 slice `slice`.
    Slice { slice: u32, place: SlicePlace },
    /// In DRAM channel `channel`, for an L2 miss.
    Dram { channel: u32, place: DramPlace },
    /// Its reply is crossing the interconnect back to the SM.
    ToSm { arrives: Option<u64> },
}

/// The memory system (see the module documentation).
#[derive(Debug, Clone)]
pub struct MemorySystem {
    l1d: Vec<L1d>,
    icnt: Icnt,
    slices: Vec<L2Slice>,
    channels: Vec<DramChannel>,
    interleave: u64,
    n_channels: u64,
    subparts: u64,
    /// Per channel: the sub-partition whose request it takes first next time.
    next_sub: Vec<u64>,
    icnt_clock: ClockDomain,
    l2_clock: ClockDomain,
    dram_clock: ClockDomain,
    /// The memory event log of the levels below the L1Ds (`Sim::set_memory_events`); the
    /// L1Ds keep their own. `None` records nothing.
    log: Option<Vec<MemEvent>>,
}

/// Logs `f` reaching `at` in cycle `now`, if the log is on.
fn note(log: &mut Option<Vec<MemEvent>>, now: u64, f: &Fetch, at: FetchPoint) {
    if let Some(l) = log {
        l.push(MemEvent::fetch(now, f, at));
    }
}

impl MemorySystem {
    /// The memory system of `config` (an unparsable cache string is an error naming its key;
    /// so is a cache too large to simulate).
    pub fn new(config: &Config) -> Result<MemorySystem, String> {
        let l1 = config.l1d_cache().map_err(|e| e.to_string())?;
        let l2 = config.l2_cache().map_err(|e| e.to_string())?;
        let constant = config.constant_cache().map_err(|e| e.to_string())?;
        let texture = config.texture_cache().map_err(|e| e.to_string())?;
        check_size("l1d.config", l1.as_ref())?;
        check_size("constant.cache", constant.as_ref())?;
        check_size("l1d.texture_cache", texture.as_ref())?;
        let instruction = config.icache().map_err(|e| e.to_string())?;
        check_size("core.icache.config", instruction.as_ref())?;
        check_size("l2.config", l2.as_ref())?;
        let local = LocalMap::for_config(config);
        let n_channels = config.dram.channels.max(1);
        let subparts = config.l2.sub_partitions_per_channel.max(1);
        let n_slices = n_channels * subparts;
        let interleave = u64::from(config.l2.interleave_bytes.max(1));
        let slices = (0..n_slices)
            .map(|_| {
                L2Slice::new(
                    l2,
                    config.l2.latency,
                    config.l2.queue_entries,
                    interleave,
                    u64::from(n_slices),
                )
            })
            .collect();
        Ok(MemorySystem {
            l1d: (0..config.num_sms.max(1))
                .map(|sm| {
                    let mut l = L1d::new(sm, l1, &local);
                    if let Some(spec) = constant {
                        l = l.with_constant_cache(spec);
                    }
                    if let Some(spec) = texture {
                        l = l.with_texture_cache(spec);
                    }
                    if let Some(spec) = instruction {
                        l = l.with_instruction_cache(spec);
                    }
                    l
                })
                .collect(),
            icnt: Icnt::new(config.num_sms.max(1), n_slices, &config.icnt),
            slices,
            channels: (0..n_channels)
                .map(|_| DramChannel::new(&config.dram))
                .collect(),
            interleave,
            n_channels: u64::from(n_channels),
            subparts: u64::from(subparts),
            next_sub: vec![0; n_channels as usize],
            icnt_clock: ClockDomain::new(config.clocks.icnt_mhz, config.clocks.core_mhz),
            l2_clock: ClockDomain::new(config.clocks.l2_mhz, config.clocks.core_mhz),
            dram_clock: ClockDomain::new(config.clocks.dram_mhz, config.clocks.core_mhz),
            log: None,
        })
    }

    /// Turns the memory event log on or off, here and in every L1D ([`super::events`]).
    pub fn set_event_log(&mut self, on: bool) {
        self.log = on.then(Vec::new);
        for l in &mut self.l1d {
            l.set_event_log(on);
        }
    }

    /// The events logged since the last call, in cycle order (within a cycle, the levels
    /// below the L1Ds first, as they run first, then each SM's L1D in SM order).
    pub fn take_events(&mut self) -> Vec<MemEvent> {
        let mut out = self.log.as_mut().map(std::mem::take).unwrap_or_default();
        for l in &mut self.l1d {
            out.extend(l.take_events());
        }
        out.sort_by_key(|e| e.cycle);
        out
    }

    /// The L2 slice (memory sub-partition) of `addr`.
    pub fn slice_of(&self, addr: u64) -> usize {
        let chunk = addr / self.interleave;
        let channel = chunk % self.n_channels;
        let sub = (chunk / self.n_channels) % self.subparts;
        (channel * self.subparts + sub) as usize
    }

    /// `addr` within its channel (the channel digit removed).
    pub fn channel_local(&self, addr: u64) -> u64 {
        let chunk = addr / self.interleave;
        (chunk / self.n_channels) * self.interleave + addr % self.interleave
    }

    /// Where the requests of SM `sm` that carry `token` are below its L1D (a miss's MSHR key,
    /// or a bypassing request's instruction tag when `bypass`): in the interconnect, an L2
    /// slice, or DRAM (an L2 miss is followed to its DRAM request by the line's address).
    pub fn locate(&self, sm: u32, token: u64, bypass: bool) -> Vec<RequestPlace> {
        let ours = |f: &Fetch| f.sm == sm && f.token == token && f.bypass == bypass;
        let mut places = Vec::new();
        let searched = self.icnt.to_mem.find(ours);
        let routers = searched.is_none();
        places.extend(
            searched
                .into_iter()
                .flatten()
                .map(|(slice, at)| RequestPlace::ToL2 {
                    slice: slice as u32,
                    arrives: Some(at),
                }),
        );
        for (i, slice) in self.slices.iter().enumerate() {
            for place in slice.find(ours) {
                places.push(RequestPlace::Slice {
                    slice: i as u32,
                    place,
                });
                if let SlicePlace::Miss { addr, .. } = place {
                    let block = addr / 128;
                    let channel = i / self.subparts.max(1) as usize;
                    if let Some(c) = self.channels.get(channel) {
                        places.extend(c.find(|f| f.addr / 128 == block).into_iter().map(|place| {
                            RequestPlace::Dram {
                                channel: channel as u32,
                                place,
                            }
                        }));
                    }
                }
            }
        }
        if let Some(found) = self.icnt.to_sm.find(|f| ours(f) && f.sm == sm) {
            places.extend(
                found
                    .into_iter()
                    .filter(|&(dst, _)| dst == sm as usize)
                    .map(|(_, at)| RequestPlace::ToSm { arrives: Some(at) }),
            );
        }
        places.dedup();
        if places.is_empty() && routers {
            places.push(RequestPlace::Network);
        }
        places
    }

    /// One cycle of the memory side (see the module documentation for the order);
    /// `takes_reply(sm)`: SM `sm`'s LD/ST unit works this cycle, so its L1D posts it a reply.
    pub fn cycle(&mut self, now: u64, takes_reply: impl Fn(usize) -> bool) {
        for l in &mut self.l1d {
            l.begin_cycle();
        }
        if !self.is_quiet() {
            self.move_traffic(now);
        }
        for (sm, l) in self.l1d.iter_mut().enumerate() {
            if takes_reply(sm) {
                l.post_reply(now);
            }
        }
    }

    /// Steps 1-5 of the cycle: replies and requests across the interconnect, the L2 and DRAM.
    fn move_traffic(&mut self, now: u64) {
        self.deliver_replies(now);
        let icnt_ticks = self.icnt_clock.ticks_in(now).count();
        for _ in 0..icnt_ticks {
            self.send_replies(now);
        }
        for tick in self.dram_clock.ticks_in(now) {
            for ch in 0..self.channels.len() {
                self.dram_cycle(ch, tick, now);
            }
        }
        for _ in self.l2_clock.ticks_in(now) {
            self.deliver_requests(now);
        }
        for _ in 0..icnt_ticks {
            self.icnt.step();
            self.send_requests(now);
        }
    }

    /// Nothing below the L1Ds and nothing in their outgoing queues.
    fn is_quiet(&self) -> bool {
        // Cheapest to refute first: DRAM is busiest in memory-bound phases.
        self.channels.iter().all(DramChannel::is_idle)
            && self.slices.iter().all(L2Slice::is_idle)
            && self.l1d.iter().all(|l| l.outgoing().is_none())
            && self.icnt.is_idle()
    }

    fn deliver_replies(&mut self, now: u64) {
        for (sm, l1) in self.l1d.iter_mut().enumerate() {
            if let Some(f) = self.icnt.to_sm.peek(now, sm).copied() {
                if !l1.can_take(&f, now) {
                    continue;
                }
                l1.fill(&f, now);
                self.icnt.take_reply(now, sm);
                note(&mut self.log, now, &f, FetchPoint::SmIn);
            }
        }
    }

    fn send_replies(&mut self, now: u64) {
        for (s, slice) in self.slices.iter_mut().enumerate() {
            if let Some(f) = slice.reply_front().copied() {
                if self.icnt.send_reply(now, s, f) {
                    slice.pop_reply();
                    note(
                        &mut self.log,
                        now,
                        &f,
                        FetchPoint::L2Out { slice: s as u32 },
                    );
                }
            }
        }
    }

    /// DRAM cycle `tick` of channel `ch`, during core cycle `now`.
    fn dram_cycle(&mut self, ch: usize, tick: u64, now: u64) {
        let subs = self.subparts as usize;
        let first = ch * subs;
        if self.channels[ch].is_idle()
            && self.slices[first..first + subs]
                .iter()
                .all(|s| s.dram_front().is_none())
        {
            // Nothing to take, schedule or return: the channel's cycle would change nothing.
            return;
        }
        self.return_to_slice(ch, now);
        self.channels[ch].cycle(tick, now);
        self.take_from_slices(ch, now);
    }

    /// The channel's oldest finished read goes back to its slice, if the slice has room.
    fn return_to_slice(&mut self, ch: usize, now: u64) {
        let Some((s, f)) = self.channels[ch].completed() else {
            return;
        };
        let (s, f) = (s as usize, *f);
        if let Some(slice) = self.slices.get_mut(s) {
            if slice.can_take_dram_reply() {
                slice.push_dram_reply(f);
                self.channels[ch].pop_completed();
                let at = FetchPoint::DramOut {
                    channel: ch as u32,
                    slice: s as u32,
                };
                note(&mut self.log, now, &f, at);
            }
        }
    }

    /// One request from the channel's slices (round-robin) enters its controller.
    fn take_from_slices(&mut self, ch: usize, now: u64) {
        if !self.channels[ch].can_accept() {
            // Whatever the slices hold, nothing enters the controller this cycle.
            return;
        }
        let subs = self.subparts;
        let first = ch * subs as usize;
        for k in 0..subs {
            let mut sub = self.next_sub[ch] + k;
            if sub >= subs {
                sub -= subs;
            }
            let s = first + sub as usize;
            let Some(f) = self.slices[s].dram_front().copied() else {
                continue;
            };
            if !self.slices[s].can_take_dram_reply() {
                // GPGPU-Sim's `can_issue_to_dram`: no room for the slice's replies.
                continue;
            }
            if !self.channels[ch].can_accept() {
                return;
            }
            let local = self.channel_local(f.addr);
            self.channels[ch].push(f, local, s as u32, now);
            self.slices[s].pop_dram();
            let at = FetchPoint::DramIn {
                channel: ch as u32,
                slice: s as u32,
            };
            note(&mut self.log, now, &f, at);
            self.next_sub[ch] = (sub + 1) % subs;
            return;
        }
    }

    fn deliver_requests(&mut self, now: u64) {
        for (s, slice) in self.slices.iter_mut().enumerate() {
            if let Some(f) = self.icnt.to_mem.peek(now, s).copied() {
                if slice.can_accept() {
                    slice.push(f, now);
                    self.icnt.take_request(now, s);
                    note(&mut self.log, now, &f, FetchPoint::L2In { slice: s as u32 });
                }
            }
            slice.cycle(now);
        }
    }

    fn send_requests(&mut self, now: u64) {
        for sm in 0..self.l1d.len() {
            let Some(f) = self.l1d[sm].outgoing().copied() else {
                continue;
            };
            let slice = self.slice_of(f.addr);
            if self.icnt.send_request(now, sm, slice, f) {
                self.l1d[sm].pop_outgoing();
                let at = FetchPoint::ToIcnt {
                    slice: slice as u32,
                };
                note(&mut self.log, now, &f, at);
            }
        }
    }

    /// Host-to-device copies made before the launch fill the L2 (GPGPU-Sim's
    /// `-gpgpu_perf_sim_memcpy 1`, `perf_memcpy_to_gpu`): every 32-byte sector of each copy, in
    /// copy order, lands in its slice valid and clean, as if the copy had passed through it.
    /// Each slice stamps its sectors with its own count of copied sectors (0, 1, 2, ...) as
    /// their last use, as GPGPU-Sim's sub-partitions do (`m_memcpy_cycle_offset`), so the
    /// kernel's accesses, stamped with their cycle, look newer to LRU than the copies once the
    /// kernel has run longer than a slice's share of the copies.
    /// Returns the sectors each slice took.
    pub fn fill_l2_with_copies(&mut self, copies: &[(u64, u64)]) -> Vec<u64> {
        const SECTOR: u64 = 32;
        let mut copied = vec![0u64; self.slices.len()];
        for &(base, len) in copies {
            let mut a = base - base % SECTOR;
            while a < base + len {
                let slice = self.slice_of(a);
                self.slices[slice].fill_copied(a, copied[slice]);
                copied[slice] += 1;
                a += SECTOR;
            }
        }
        copied
    }

    /// Nothing in flight anywhere (stores have reached the L2 or DRAM).
    pub fn is_idle(&self) -> bool {
        self.is_quiet() && self.l1d.iter().all(L1d::is_idle)
    }

    /// The L1Ds, indexed by SM.
    pub fn l1ds(&self) -> &[L1d] {
        &self.l1d
    }

    /// The L1Ds, for the SMs' cycles.
    pub fn l1ds_mut(&mut self) -> &mut [L1d] {
        &mut self.l1d
    }

    pub fn slices(&self) -> &[L2Slice] {
        &self.slices
    }

    pub fn channels(&self) -> &[DramChannel] {
        &self.channels
    }

    pub fn icnt(&self) -> &Icnt {
        &self.icnt
    }

    /// Counters summed over SMs, slices and channels.
    pub fn stats(&self) -> MemoryStats {
        let mut s = MemoryStats {
            icnt: self.icnt.stats,
            ..MemoryStats::default()
        };
        for l in &self.l1d {
            s.l1d.add(&l.stats());
            s.l1c.add(&l.constant_stats());
            s.l1i.add(&l.instruction_stats());
            s.l1t.add(&l.texture_stats());
        }
        for sl in &self.slices {
            s.l2.add(&sl.stats());
        }
        for ch in &self.channels {
            s.dram.add(&ch.stats);
        }
        s
    }
}

/// Most lines one simulated cache may have (a 128 MB cache of 128-byte lines).
pub const MAX_CACHE_LINES: u64 = 1 << 20;

fn check_size(key: &str, spec: Option<&crate::config::CacheSpec>) -> Result<(), String> {
    let Some(s) = spec else { return Ok(()) };
    let lines = u64::from(s.sets) * u64::from(s.assoc);
    if lines > MAX_CACHE_LINES {
        return Err(format!(
            "{key}: {} sets x {} ways is {lines} lines, more than warpstep simulates ({MAX_CACHE_LINES})",
            s.sets, s.assoc
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::request::{Access, AccessKind, DataSpace};
    use crate::mem::L1Outcome;

    fn run_until_response(m: &mut MemorySystem, start: u64) -> (u64, u64) {
        for now in start..start + 100_000 {
            m.cycle(now, |_| true);
            if let Some(t) = m.l1ds_mut()[0].take_reply() {
                return (now, t);
            }
        }
        panic!("no response")
    }

    fn line_read(addr: u64) -> Access {
        Access {
            addr,
            size: 128,
            kind: AccessKind::Read,
            space: DataSpace::Global,
            lanes: u32::MAX as u64,
            bytes: u128::MAX,
            sectors: 0b1111,
        }
    }

    #[test]
    fn huge_caches_are_refused_by_name() {
        let c = Config::default()
            .with_overrides(&["l2.config=N:65536:128:1024,L:B:m:W:L,A:32:4,4"])
            .unwrap();
        let e = MemorySystem::new(&c).unwrap_err();
        assert!(e.starts_with("l2.config: 65536 sets x 1024 ways"), "{e}");
    }

    #[test]
    fn interleaving() {
        let m = MemorySystem::new(&Config::default()).unwrap();
        // fermi: 6 channels x 2 sub-partitions, 256 B.
        assert_eq!(m.slice_of(0), 0);
        assert_eq!(m.slice_of(256), 2);
        assert_eq!(m.slice_of(5 * 256), 10);
        assert_eq!(m.slice_of(6 * 256), 1);
        assert_eq!(m.slice_of(12 * 256), 0);
        assert_eq!(m.channel_local(6 * 256 + 4), 256 + 4);
    }

    #[test]
    fn host_copies_are_counted_per_slice_and_then_hit() {
        let mut m = MemorySystem::new(&Config::default()).unwrap();
        // 3 KB from 0x1_0000_0000: 256-byte chunks round the 6 channels, then the second
        // sub-partition: 8 sectors in each of the 12 slices, so each slice stamps 0..8 (not
        // 0..96, which would keep the copies newer than a long kernel's accesses).
        let per_slice = m.fill_l2_with_copies(&[(0x1_0000_0000, 3072)]);
        assert_eq!(per_slice, vec![8; 12]);
        let a = line_read(0x1_0000_0000 + 1024);
        assert_eq!(m.l1ds_mut()[0].access(&a, 7, 0), L1Outcome::Pending);
        run_until_response(&mut m, 0);
        let s = m.stats();
        assert_eq!((s.l2.hits, s.l2.misses, s.dram.reads), (4, 0, 0));
    }

    #[test]
    fn a_miss_goes_to_dram_and_back_and_then_hits() {
        let mut m = MemorySystem::new(&Config::default()).unwrap();
        let a = line_read(0x1_0000_0000);
        assert_eq!(m.l1ds_mut()[0].access(&a, 42, 0), L1Outcome::Pending);
        let (t, tag) = run_until_response(&mut m, 0);
        assert_eq!(tag, 42);
        // icnt 3 + ROP 120 + DRAM >= 118 + icnt 3: a few hundred cycles.
        assert!((250..800).contains(&t), "round trip {t}");
        let s = m.stats();
        assert_eq!((s.l1d.misses, s.l2.misses, s.dram.reads), (1, 4, 4));
        assert_eq!(s.icnt.packets, 5, "one request, four sector replies");
        // An unloaded router: 3 cycles (injection channel, VC and switch allocation in one
        // cycle, ejection channel), plus one for a request, which an L1D hands over after the
        // network's cycle (GPGPU-Sim: the cores run after `icnt_transfer`) where a slice hands
        // its reply over before it; the four replies do not wait for one another.
        assert_eq!((s.icnt.requests, s.icnt.request_cycles), (1, 4));
        assert_eq!((s.icnt.replies, s.icnt.reply_cycles), (4, 4 * 3));
        assert!(m.is_idle());
        // The L1D hits now; a second SM-side miss to a line the L2 holds skips DRAM.
        assert_eq!(m.l1ds_mut()[0].access(&a, 43, t + 1), L1Outcome::Hit);
    }

    #[test]
    fn an_l2_hit_is_faster_than_a_dram_access() {
        let mut m = MemorySystem::new(&Config::preset("tesla-c2050-s").unwrap()).unwrap();
        let a = line_read(0x1_0000_0000);
        m.l1ds_mut()[0].access(&a, 1, 0);
        let (t1, _) = run_until_response(&mut m, 0);
        // Evict it from the L1D with a store (write-evict), then read again: an L2 hit.
        let w = Access {
            kind: AccessKind::Write,
            ..a
        };
        assert_eq!(m.l1ds_mut()[0].access(&w, 2, t1 + 1), L1Outcome::Pending);
        // The store's hit held the L1D's data port for its cycle.
        assert_eq!(m.l1ds_mut()[0].access(&a, 3, t1 + 1), L1Outcome::Busy);
        assert_eq!(m.l1ds_mut()[0].access(&a, 3, t1 + 2), L1Outcome::Pending);
        // The store's acknowledgement comes first, then the read's data.
        let (ack, tag) = run_until_response(&mut m, t1 + 2);
        assert_eq!(tag, 2);
        let (t2, tag) = run_until_response(&mut m, ack + 1);
        assert_eq!(tag, 3);
        assert!(t2 - t1 < t1, "L2 hit {} vs miss {t1}", t2 - t1);
        // The store and the read both hit the L2.
        assert_eq!(m.stats().l2.hits, 2);
    }
}
