//! "Why is this warp not issuing?" (issue 17, "Why?"): the causal chain behind a warp's state in
//! the last cycle, or behind an idle lane, read from the model. Each link is one fact the model
//! holds, and the next link explains it:
//!
//! ```text
//! warp 5 did not issue: long_scoreboard
//!  <- its next instruction reads %f1, which ld.global.f32 (line 41) has not written back
//!  <- ld.global.f32 issued at cycle 1,210; its 4 requests: 1 hit, 3 misses
//!  <- it waits in L1D MSHR 3 for 0x10000080, crossing the interconnect to L2 slice 2
//! ```
//!
//! What the chain reads: the warp's state ([`WarpCycle`], set by the issue stage), its
//! scoreboard (each pending write names its producer's tag), the back end's in-flight table,
//! the LD/ST unit's request logs ([`crate::core::request_log`]: hits, misses, merges, refusals
//! and the set's ways at an associativity failure), the L1D's MSHRs and where a miss is below
//! it ([`crate::mem::MemorySystem::locate`]), the collector units, the scheduler's choice, the
//! CTA barrier, and for a lane the SIMT stack or the convergence-barrier thread states. Nothing
//! is recomputed: a link says what the model holds at the end of the cycle, and says so when
//! that changed during the cycle (a register released by a writeback that came after issue).

use crate::core::in_flight::InFlight;
use crate::core::ldst_unit::WAITING;
use crate::core::request_log::RequestLog;
use crate::core::scoreboard::PendingWrite;
use crate::core::sm::Sm;
use crate::core::warp_slot::WarpSlot;
use crate::core::{UnitKind, WarpCycle};
use crate::exec::convergence_state::ThreadState;
use crate::exec::Reconvergence;
use crate::mem::data_cache::owner_parts;
use crate::mem::dram::DramPlace;
use crate::mem::l1d::CacheName;
use crate::mem::l2::SlicePlace;
use crate::mem::memory_system::RequestPlace;
use crate::mem::{FailReason, LineState};
use crate::ptx::SourceLines;
use crate::ptx::{Function, Pc};
use crate::sim::Sim;
use crate::trace::opcode_text;
use serde::Serialize;

mod source;

/// One link of a chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Link {
    /// What the link is about: `state`, `register`, `instruction`, `requests`, `refusal`,
    /// `set`, `mshr`, `below`, `data`, `collector`, `mem0`, `barrier`, `scheduler`, `fetch`,
    /// `lane`, `stack`, `threads`.
    pub kind: &'static str,
    /// One sentence.
    pub text: String,
    /// The PTX line it is about, if any (the editor can jump there).
    pub line: Option<u32>,
    /// The CUDA line of that PTX line, when its instruction has a `.loc` in the shown source
    /// file ([`SourceLines`]).
    pub source_line: Option<u32>,
    /// The cycle it happened, if it is an event.
    pub cycle: Option<u64>,
    /// Warp slots it names (the app can follow them).
    pub warps: Vec<u32>,
}

/// The chain of one warp (or one lane of it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Why {
    pub sm: u32,
    pub warp: u32,
    pub lane: Option<u32>,
    /// The cycle explained: the last simulated one.
    pub cycle: u64,
    /// The warp's state in it ([`WarpCycle::name`]).
    pub state: &'static str,
    pub links: Vec<Link>,
}

impl Link {
    fn new(kind: &'static str, text: String) -> Link {
        Link {
            kind,
            text,
            line: None,
            source_line: None,
            cycle: None,
            warps: Vec::new(),
        }
    }

    /// The link is about an instruction at PTX line `line`, compiled from CUDA line `source`
    /// (0: none); see `Ctx::place`.
    fn at(mut self, (line, source): (u32, u32)) -> Link {
        self.line = (line > 0).then_some(line);
        self.source_line = (line > 0 && source > 0).then_some(source);
        self
    }

    fn at_cycle(mut self, cycle: u64) -> Link {
        self.cycle = Some(cycle);
        self
    }

    fn naming(mut self, warps: Vec<u32>) -> Link {
        self.warps = warps;
        self
    }
}

/// What the chain builder reads, for one SM.
struct Ctx<'a> {
    sim: &'a Sim,
    sm: &'a Sm,
    sm_id: u32,
    func: &'a Function,
    /// The CUDA line of each instruction, from the program's `.loc` lines.
    source: SourceLines,
    /// The last simulated cycle (the one the warp states describe).
    now: u64,
}

/// Explains warp slot `warp` of SM `sm` (and, with `lane`, that lane) in the last cycle.
/// Errors name what does not exist.
pub fn explain(sim: &Sim, sm: u32, warp: u32, lane: Option<u32>) -> Result<Why, String> {
    let sms = sim.sms();
    let Some(sm_ref) = sms.get(sm as usize) else {
        return Err(format!("no SM {sm}: the machine has {} SMs", sms.len()));
    };
    let slots = sm_ref.warps();
    let Some(slot) = slots.get(warp as usize) else {
        return Err(format!(
            "no warp slot {warp} in SM {sm}: it has {} slots",
            slots.len()
        ));
    };
    let Some(w) = slot.as_ref() else {
        return Err(format!("warp slot {warp} of SM {sm} holds no warp"));
    };
    let cx = Ctx {
        sim,
        sm: sm_ref,
        sm_id: sm,
        func: sim.image().func(),
        source: SourceLines::of(&sim.image().program),
        now: sim.cycle().saturating_sub(1),
    };
    let mut links = Vec::new();
    if let Some(lane) = lane {
        let warp_size = sim.config().core.warp_size;
        if lane >= warp_size {
            return Err(format!("no lane {lane}: a warp has {warp_size} lanes"));
        }
        if !cx.lane_links(warp, lane, &mut links) {
            return Ok(Why {
                sm,
                warp,
                lane: Some(lane),
                cycle: cx.now,
                state: w.state.name(),
                links,
            });
        }
    }
    cx.warp_links(warp, w, &mut links);
    Ok(Why {
        sm,
        warp,
        lane,
        cycle: cx.now,
        state: w.state.name(),
        links,
    })
}

/// `n` with thousands separators.
fn num(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "1 hit" / "2 hits".
fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Warp slots as "warp 3" / "warps 0, 1, 2".
fn warp_list(slots: &[u32]) -> String {
    let list: Vec<String> = slots.iter().map(u32::to_string).collect();
    match slots.len() {
        0 => "no warp".into(),
        1 => format!("warp {}", list[0]),
        _ => format!("warps {}", list.join(", ")),
    }
}

impl Ctx<'_> {
    /// "`ld.global.f32` (line 41)", or "(line 41, CUDA line 12)" (see `Ctx::line_text`).
    fn instr(&self, pc: Pc) -> String {
        format!("{} ({})", opcode_text(self.func, pc), self.line_text(pc))
    }

    fn reg(&self, reg: u32) -> String {
        self.func
            .regs
            .get(reg as usize)
            .map_or_else(|| format!("r{reg}"), |r| r.name.clone())
    }

    fn in_flight(&self, tag: u64) -> Option<InFlight> {
        self.sm.in_flight_instr(tag)
    }

    /// The warp slot holding warp `warp_in_cta` of the CTA launched `block`-th (a cache line's
    /// owner), if it is on this SM.
    fn owner_slot(&self, owner: u64) -> Option<u32> {
        let (block, wic) = owner_parts(owner)?;
        self.sm
            .ctas()
            .iter()
            .flatten()
            .find(|c| c.index == block)
            .and_then(|c| c.warp_slots.get(wic as usize).copied())
    }

    fn warp_links(&self, slot: u32, w: &WarpSlot, links: &mut Vec<Link>) {
        let state = w.state;
        links.push(self.state_link(slot, w));
        match state {
            WarpCycle::LongScoreboard | WarpCycle::ShortScoreboard => {
                self.scoreboard_links(w, links)
            }
            WarpCycle::Barrier => self.barrier_links(slot, w, links),
            WarpCycle::NotSelected => self.scheduler_links(slot, links),
            WarpCycle::NoInstruction | WarpCycle::BranchResolving => self.fetch_links(w, links),
            WarpCycle::MathPipeThrottle => self.collector_links(w, links),
            WarpCycle::MioThrottle
            | WarpCycle::LgThrottle
            | WarpCycle::BankConflict
            | WarpCycle::MrpbFull => self.mem0_links(links),
            WarpCycle::Drain | WarpCycle::Barrel => self.drain_links(slot, links),
            WarpCycle::SchedulingFail => self.mask_links(links),
            WarpCycle::MrpbDrain => self.mrpb_drain_links(slot, links),
            WarpCycle::Inactive => self.inactive_links(slot, links),
            WarpCycle::WritebackConflict => self.writeback_links(links),
            _ => {}
        }
    }

    fn state_link(&self, slot: u32, w: &WarpSlot) -> Link {
        let state = w.state;
        let cycle = num(self.now);
        let text = match state {
            WarpCycle::Issued => match self.sm.committed().iter().rev().find(|c| c.0 == slot) {
                Some(&(_, pc)) => {
                    format!("Warp {slot} issued {} in cycle {cycle}.", self.instr(pc))
                }
                None => format!("Warp {slot} issued an instruction in cycle {cycle}."),
            },
            WarpCycle::Idle => format!("Warp slot {slot} had nothing to do in cycle {cycle}."),
            s => format!(
                "Warp {slot} did not issue in cycle {cycle}: {}. {}",
                s.name(),
                s.description()
            ),
        };
        let mut link = Link::new("state", text).at_cycle(self.now);
        if let Some(&pc) = w.ibuffer.front() {
            link = link.at(self.place(pc));
        }
        link
    }

    /// The register the next instruction waits for, its producer, and what holds the producer.
    fn scoreboard_links(&self, w: &WarpSlot, links: &mut Vec<Link>) {
        let Some(&pc) = w.ibuffer.front() else {
            links.push(Link::new(
                "register",
                "Its I-buffer is empty now: the instruction that waited has been flushed.".into(),
            ));
            return;
        };
        let Some(d) = self.sim.decoded().get(pc as usize) else {
            return;
        };
        let blocking = w
            .scoreboard
            .blocking(d.sources.as_slice(), d.dests.as_slice());
        let Some(PendingWrite { reg, tag, long }) = blocking else {
            let text = if w.scoreboard.pending().is_empty() {
                format!(
                    "Its next instruction, {}, waited for a register that was written back at the end of the cycle: it can issue now.",
                    self.instr(pc)
                )
            } else {
                format!(
                    "The warp's scoreboard is full ({} pending writes): {} waits for a free entry.",
                    w.scoreboard.pending().len(),
                    self.instr(pc)
                )
            };
            links.push(Link::new("register", text).at(self.place(pc)));
            return;
        };
        let producer = self.in_flight(tag);
        let by = producer.map_or_else(|| "an earlier instruction".into(), |f| self.instr(f.pc));
        let reads = if d.dests.as_slice().contains(&reg) {
            "writes"
        } else {
            "reads"
        };
        links.push(
            Link::new(
                "register",
                format!(
                    "Its next instruction, {}, {reads} {}, which {by} has not written back yet ({} scoreboard).",
                    self.instr(pc),
                    self.reg(reg),
                    if long { "long" } else { "short" }
                ),
            )
            .at(self.place(pc)),
        );
        if let Some(f) = producer {
            self.producer_links(f, links);
        }
    }

    /// Where an issued instruction is: in a collector unit, in the LD/ST unit and the memory
    /// system, or in an execution pipeline.
    fn producer_links(&self, f: InFlight, links: &mut Vec<Link>) {
        let ago = self.now.saturating_sub(f.issued);
        links.push(
            Link::new(
                "instruction",
                format!(
                    "{} issued in cycle {} ({} ago) to the {} unit.",
                    self.instr(f.pc),
                    num(f.issued),
                    if ago == 1 {
                        "1 cycle".to_string()
                    } else {
                        format!("{} cycles", num(ago))
                    },
                    f.unit.name()
                ),
            )
            .at(self.place(f.pc))
            .at_cycle(f.issued),
        );
        if let Some((k, unit)) = self
            .sm
            .collector()
            .units()
            .iter()
            .enumerate()
            .find(|(_, u)| u.occupant().is_some_and(|(_, t)| t == f.tag))
        {
            links.push(Link::new(
                "collector",
                format!(
                    "It is still in collector unit {k}, reading its operands: {} of them not read yet (register bank conflicts delay them).",
                    unit.pending()
                ),
            ));
            return;
        }
        if f.unit == UnitKind::Mem {
            self.memory_links(f.tag, links);
        } else {
            links.push(Link::new(
                "data",
                format!(
                    "It is in the {} pipeline; its result is written back when it leaves.",
                    f.unit.name()
                ),
            ));
        }
    }

    /// A memory instruction: in MEM0, its requests, where its missing data is.
    fn memory_links(&self, tag: u64, links: &mut Vec<Link>) {
        let ldst = self.sm.ldst();
        let in_mem0 = ldst.mem0().filter(|m| m.tag == tag);
        if let Some(m) = in_mem0 {
            if m.shared {
                let conflict = if m.conflict_cycles > 0 {
                    format!(
                        "; {} of its passes {} a bank conflict (a conflict-free access needs one per sub-warp)",
                        m.conflict_cycles,
                        if m.conflict_cycles == 1 { "replays" } else { "replay" }
                    )
                } else {
                    String::new()
                };
                links.push(Link::new(
                    "mem0",
                    format!(
                        "It is in MEM0, accessing the shared-memory banks: {} done, {} to go{conflict}.",
                        count(m.passes_done, "pass", "passes"),
                        m.cycles_left
                    ),
                ));
                return;
            }
        }
        let log = ldst.request_log(tag);
        if let Some(log) = log {
            links.push(self.requests_link(log, in_mem0.map(|m| m.cycles_left)));
            if log.in_mrpb() > 0 {
                self.mrpb_links(tag, links);
            }
            if let Some(r) = &log.last_refusal {
                let recent = in_mem0.is_some() && ldst.stalled().is_some();
                self.refusal_links(r, recent, links);
            }
        }
        if in_mem0.is_some() {
            return;
        }
        let l1d = &self.sim.memory().l1ds()[self.sm_id as usize];
        let waits = l1d.mshrs_of(tag);
        for wait in &waits {
            let cache = match wait.cache {
                CacheName::L1d => "L1D",
                CacheName::Constant => "constant cache",
            };
            let text = if wait.filled {
                format!(
                    "It waits in {cache} MSHR {} for {:#x}: the fill has arrived; waiting requests leave one per cycle.",
                    wait.entry, wait.addr
                )
            } else {
                format!(
                    "It waits in {cache} MSHR {} for {:#x} (an L1 miss).",
                    wait.entry, wait.addr
                )
            };
            let others: Vec<u32> = l1d
                .line_waiters(wait.addr)
                .into_iter()
                .filter(|&t| t != tag)
                .filter_map(|t| self.in_flight(t).map(|f| f.warp))
                .collect();
            let mut link = Link::new("mshr", text);
            if !others.is_empty() {
                link.text.push_str(&format!(
                    " Merged with the requests of {}.",
                    warp_list(&dedup(others.clone()))
                ));
                link = link.naming(dedup(others));
            }
            links.push(link);
            if let Some(p) = wait.queued {
                links.push(Link::new(
                    "below",
                    format!(
                        "The miss has not left the SM: it is at position {p} of the L1D's miss queue."
                    ),
                ));
            } else if !wait.filled {
                self.below_links(wait.addr, false, links);
            }
        }
        if let Some(p) = l1d.bypass_position(tag) {
            links.push(Link::new(
                "below",
                format!("A request that bypasses the L1D is at position {p} of its miss queue."),
            ));
        } else if waits.is_empty() && ldst.outstanding_reads(tag) > 0 {
            self.below_links(tag, true, links);
        }
        if let Some(&(_, ready)) = ldst.in_flight().iter().find(|(t, _)| *t == tag) {
            let text = if ready == WAITING {
                format!(
                    "{} still in the memory system.",
                    count(ldst.outstanding_reads(tag), "read is", "reads are")
                )
            } else if ready > self.now + 1 {
                format!("Its data is ready in cycle {}.", num(ready))
            } else {
                "Its data is ready: it waits for a writeback port.".to_string()
            };
            links.push(Link::new("data", text));
        }
    }

    /// `unsent`: when the instruction is still in MEM0, its requests not yet sent.
    fn requests_link(&self, log: &RequestLog, unsent: Option<u32>) -> Link {
        let mut parts = Vec::new();
        for (n, one, many) in [
            (log.hits, "L1D hit", "L1D hits"),
            (log.misses, "miss", "misses"),
            (
                log.merges,
                "merge into another miss's MSHR entry",
                "merges into other misses' MSHR entries",
            ),
            (log.stores, "store", "stores"),
            (
                log.bypassed,
                "sent past the L1D by the MRPB",
                "sent past the L1D by the MRPB",
            ),
        ] {
            if n > 0 {
                parts.push(count(n, one, many));
            }
        }
        let taken = if parts.is_empty() {
            "none taken yet".to_string()
        } else {
            parts.join(", ")
        };
        let mut text = format!(
            "Its {}: {taken}.",
            count(log.requests, "request", "requests")
        );
        if log.queued > 0 {
            text.push_str(&format!(" {} went through the MRPB.", log.queued));
        }
        let refused = log.refused();
        if refused > 0 {
            let [assoc, mshr, queue] = log.refusals;
            let mut why = Vec::new();
            for (n, name) in [
                (assoc, "every way of the set reserved"),
                (mshr, "no MSHR free"),
                (queue, "the miss queue full"),
            ] {
                if n > 0 {
                    why.push(format!("{n} {name}"));
                }
            }
            text.push_str(&format!(
                " The L1D refused its requests {} ({}).",
                count(refused, "time", "times"),
                why.join(", ")
            ));
        }
        if let Some(unsent) = unsent {
            text.push_str(&format!(
                " It is still in MEM0 with {} of {} sent.",
                log.requests.saturating_sub(unsent),
                log.requests
            ));
        }
        let mut link = Link::new("requests", text);
        if let Some(c) = log.first_try {
            link = link.at_cycle(c);
        }
        link
    }

    /// Where a load's requests wait in the MRPB: the queue, how many, how far from its head.
    fn mrpb_links(&self, tag: u64, links: &mut Vec<Link>) {
        let Some(mrpb) = self.sm.ldst().mrpb() else {
            return;
        };
        for (q, queue) in mrpb.queues().iter().enumerate() {
            let mine: Vec<usize> = queue
                .iter()
                .enumerate()
                .filter(|(_, r)| r.tag == tag)
                .map(|(i, _)| i)
                .collect();
            let Some(&first) = mine.first() else { continue };
            links.push(Link::new(
                "mrpb",
                format!(
                    "{} in MRPB queue {q} ({} entries; the first of them at position {first}, 0 being the head), waiting for their turn at the L1D.",
                    count(mine.len() as u32, "request waits", "requests wait"),
                    queue.len()
                ),
            ));
        }
    }

    /// A refusal of the L1D and, for an associativity failure, who holds the set.
    fn refusal_links(
        &self,
        r: &crate::core::request_log::Refusal,
        now: bool,
        links: &mut Vec<Link>,
    ) {
        let when = if now {
            "this cycle".to_string()
        } else {
            format!("last in cycle {}", num(r.cycle))
        };
        let set = r.set.map_or(String::new(), |s| format!(" set {s}"));
        let text = match r.reason {
            FailReason::Assoc => format!(
                "L1D{set} had every way reserved (an associativity failure), {when}: request {:#x} could not allocate a line.",
                r.addr
            ),
            FailReason::Mshr => format!(
                "Every L1D MSHR entry was taken (or its line's entry was full), {when}: request {:#x} could not miss.",
                r.addr
            ),
            FailReason::MissQueue => format!(
                "The L1D's miss queue was full, {when}: request {:#x} could not leave for the L2.",
                r.addr
            ),
        };
        links.push(Link::new("refusal", text).at_cycle(r.cycle));
        if r.reason != FailReason::Assoc || r.ways.is_empty() {
            return;
        }
        let reserved: Vec<_> = r
            .ways
            .iter()
            .filter(|w| w.state == LineState::Reserved)
            .collect();
        let owners: Vec<u32> = dedup(
            reserved
                .iter()
                .filter_map(|w| self.owner_slot(w.owner))
                .collect(),
        );
        let blocks: Vec<String> = reserved.iter().map(|w| format!("{:#x}", w.block)).collect();
        links.push(
            Link::new(
                "set",
                format!(
                    "Its {} ways held lines {} still waiting for their fills, reserved by misses of {}.",
                    r.ways.len(),
                    blocks.join(", "),
                    warp_list(&owners)
                ),
            )
            .naming(owners),
        );
        // While MEM0 still waits for the set, it frees a way when one of those fills arrives:
        // where the first one is.
        let l1d = &self.sim.memory().l1ds()[self.sm_id as usize];
        if !now {
            return;
        }
        if let (Some(first), Some(cache)) = (reserved.first(), l1d.cache()) {
            let key = cache.mshr_key(first.block);
            if let Some(places) = self.places_text(key, false) {
                links.push(Link::new(
                    "below",
                    format!(
                        "The fill of {:#x} frees a way first when it comes back; it is {places}.",
                        first.block
                    ),
                ));
            }
        }
    }

    /// Where a request is below the L1D.
    fn below_links(&self, token: u64, bypass: bool, links: &mut Vec<Link>) {
        if let Some(places) = self.places_text(token, bypass) {
            links.push(Link::new("below", format!("Below the L1D: {places}.")));
        }
    }

    /// Where this SM's requests carrying `token` are below the L1D, as one phrase (`None`:
    /// nowhere, e.g. the fill has arrived).
    fn places_text(&self, token: u64, bypass: bool) -> Option<String> {
        let places = self.sim.memory().locate(self.sm_id, token, bypass);
        let texts: Vec<String> = places.iter().map(|p| self.place_text(*p)).collect();
        (!texts.is_empty()).then(|| texts.join("; then "))
    }

    fn place_text(&self, p: RequestPlace) -> String {
        let at =
            |c: Option<u64>| c.map_or(String::new(), |c| format!(", arriving in cycle {}", num(c)));
        match p {
            RequestPlace::ToL2 { slice, arrives } => {
                format!("crossing the interconnect to L2 slice {slice}{}", at(arrives))
            }
            RequestPlace::Network => "somewhere in the interconnect's routers".into(),
            RequestPlace::ToSm { arrives } => {
                format!("its reply crossing the interconnect back to the SM{}", at(arrives))
            }
            RequestPlace::Slice { slice, place } => match place {
                SlicePlace::Rop { until } => {
                    format!("in L2 slice {slice}'s ROP queue until cycle {}", num(until))
                }
                SlicePlace::Input { position } => {
                    format!("in L2 slice {slice}'s input queue at position {position}")
                }
                SlicePlace::Miss { entry, addr, filled } => format!(
                    "an L2 miss in slice {slice}, MSHR {entry} for {addr:#x}{}",
                    if filled { " (filled)" } else { "" }
                ),
                SlicePlace::ToDram { position } => {
                    format!("in L2 slice {slice}'s queue to DRAM at position {position}")
                }
                SlicePlace::FromDram { position } => {
                    format!("back from DRAM in slice {slice}'s fill queue at position {position}")
                }
                SlicePlace::Reply { position } => {
                    format!("its reply in L2 slice {slice}'s queue to the interconnect at position {position}")
                }
            },
            RequestPlace::Dram { channel, place } => match place {
                DramPlace::Arriving { at } => {
                    format!("on its way to DRAM channel {channel}, arriving in cycle {}", num(at))
                }
                DramPlace::Queued { position, bank, row } => format!(
                    "in DRAM channel {channel}'s scheduler queue at position {position} (bank {bank}, row {row})"
                ),
                DramPlace::Bus => format!("its data on DRAM channel {channel}'s bus"),
                DramPlace::Returning => format!("read by DRAM channel {channel}, returning to the L2"),
            },
        }
    }

    /// MEM0 holds the memory pipe: which instruction, and why it cannot move.
    fn mem0_links(&self, links: &mut Vec<Link>) {
        let ldst = self.sm.ldst();
        let Some(m) = ldst.mem0() else {
            links.push(Link::new(
                "mem0",
                "MEM0 is empty now: the instruction that held it left at the end of the cycle."
                    .into(),
            ));
            return;
        };
        let holder = self.in_flight(m.tag);
        let what = holder.map_or_else(|| "an instruction".into(), |f| self.instr(f.pc));
        let mut link = Link::new(
            "mem0",
            format!(
                "The LD/ST unit's MEM0 holds {what} of warp {}, issued in cycle {}.",
                m.from.warp,
                holder.map_or("?".into(), |f| num(f.issued))
            ),
        )
        .naming(vec![m.from.warp]);
        if let Some(f) = holder {
            link = link.at(self.place(f.pc)).at_cycle(f.issued);
        }
        links.push(link);
        if ldst.mrpb_wait().is_some() {
            links.push(Link::new(
                "mem0",
                format!(
                    "MEM0 waits for the MRPB: warp {}'s queue is full (or a store is flushing it).",
                    m.from.warp
                ),
            ));
        }
        self.memory_links(m.tag, links);
    }

    fn barrier_links(&self, slot: u32, w: &WarpSlot, links: &mut Vec<Link>) {
        let Some(Some(cta)) = self.sm.ctas().get(w.cta_slot as usize) else {
            return;
        };
        let warps = self.sm.warps();
        let mut missing = Vec::new();
        let mut arrived = 0;
        for &s in &cta.warp_slots {
            match warps.get(s as usize).and_then(Option::as_ref) {
                Some(o) if o.at_barrier => arrived += 1,
                Some(o) if !o.finished => missing.push(s),
                _ => {}
            }
        }
        let running = if missing.is_empty() {
            "none (it releases next cycle)".to_string()
        } else if missing.len() <= 8 {
            missing
                .iter()
                .filter_map(|&s| {
                    let o = warps.get(s as usize)?.as_ref()?;
                    Some(format!("warp {s}: {}", o.state.name()))
                })
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            let mut by_state: Vec<(&'static str, u32)> = Vec::new();
            for &s in &missing {
                if let Some(o) = warps.get(s as usize).and_then(Option::as_ref) {
                    match by_state.iter_mut().find(|(n, _)| *n == o.state.name()) {
                        Some(e) => e.1 += 1,
                        None => by_state.push((o.state.name(), 1)),
                    }
                }
            }
            by_state.sort_by_key(|e| std::cmp::Reverse(e.1));
            let parts: Vec<String> = by_state.iter().map(|(n, c)| format!("{c} {n}")).collect();
            format!("{} warps ({})", missing.len(), parts.join(", "))
        };
        let text = format!(
            "Warp {slot} waits at {} for its CTA: {arrived} of {} warps have arrived; still running: {running}.",
            self.instr(w.barrier_pc),
            cta.warp_slots.len(),
        );
        links.push(
            Link::new("barrier", text)
                .at(self.place(w.barrier_pc))
                .naming(missing),
        );
    }

    fn scheduler_links(&self, slot: u32, links: &mut Vec<Link>) {
        let schedulers = self.sm.scheduler_cycles();
        if schedulers.is_empty() {
            return;
        }
        let s = slot as usize % schedulers.len();
        let policy = self.sim.config().core.scheduler;
        let text = match schedulers[s].issued {
            Some(other) => format!(
                "It was ready, but its scheduler ({s} of {}) issued warp {other}: the {} policy ordered warp {other} first.",
                schedulers.len(),
                config_name(policy)
            ),
            None => format!("It was ready, but its scheduler ({s}) issued nothing this cycle."),
        };
        let mut link = Link::new("scheduler", text);
        if let Some(other) = schedulers[s].issued {
            link = link.naming(vec![other]);
        }
        links.push(link);
    }

    fn fetch_links(&self, w: &WarpSlot, links: &mut Vec<Link>) {
        if let Some(tag) = w.branch_pending {
            if let Some(f) = self.in_flight(tag) {
                links.push(
                    Link::new(
                        "fetch",
                        format!(
                            "Fetch waits for the branch {} issued in cycle {} to resolve; then the {} gives the next PC.",
                            self.instr(f.pc),
                            num(f.issued),
                            match self.sim.config().core.divergence {
                                crate::config::DivergenceMode::Stack => "SIMT stack",
                                _ => "convergence barriers",
                            }
                        ),
                    )
                    .at(self.place(f.pc))
                    .at_cycle(f.issued),
                );
                return;
            }
        }
        let text = if w.imiss_pending {
            format!(
                "Its fetch of PC {} missed in the instruction cache; it fetches again when the line arrives.",
                w.fetch_pc
            )
        } else if !w.ibuffer.is_empty() {
            "Decode delivered its next instruction at the end of the cycle: it can issue now."
                .into()
        } else {
            format!(
                "Its I-buffer is empty: fetch (at PC {}, {}) and decode have not delivered the next instruction yet (after a taken branch or a reconvergence, the I-buffer is flushed).",
                w.fetch_pc,
                self.line_text(w.fetch_pc)
            )
        };
        links.push(Link::new("fetch", text).at(self.place(w.fetch_pc)));
    }

    fn collector_links(&self, w: &WarpSlot, links: &mut Vec<Link>) {
        let Some(&pc) = w.ibuffer.front() else { return };
        let Some(d) = self.sim.decoded().get(pc as usize) else {
            return;
        };
        let holders: Vec<u32> = self
            .sm
            .collector()
            .units()
            .iter()
            .filter(|u| u.kind() == d.unit)
            .filter_map(|u| u.occupant().map(|(warp, _)| warp))
            .collect();
        let text = if holders.is_empty() {
            format!(
                "{} needs the {} pipeline, which could not take an instruction this cycle.",
                self.instr(pc),
                d.unit.name()
            )
        } else {
            format!(
                "{} needs a {} collector unit: all {} hold instructions of {} still reading their operands.",
                self.instr(pc),
                d.unit.name(),
                holders.len(),
                warp_list(&dedup(holders.clone()))
            )
        };
        links.push(
            Link::new("collector", text)
                .at(self.place(pc))
                .naming(dedup(holders)),
        );
    }

    fn drain_links(&self, slot: u32, links: &mut Vec<Link>) {
        let mine: Vec<InFlight> = self
            .sm
            .in_flight()
            .iter()
            .filter(|f| f.warp == slot)
            .copied()
            .collect();
        for f in mine.iter().take(3) {
            self.producer_links(*f, links);
        }
    }

    /// The bank-conflict-aware scheduler's mask (Elastic §4.3): how long memory warps stay
    /// masked, and the prediction that masked them.
    fn mask_links(&self, links: &mut Vec<Link>) {
        let Some(mask) = self.sm.issue_stage().mask() else {
            return;
        };
        let mut text = format!(
            "The bank-conflict-aware scheduler masks every warp whose next instruction accesses memory for {} more cycles.",
            mask.countdown()
        );
        let mut link = Link::new("scheduler", String::new());
        if let Some(l) = mask.last_lookup() {
            text.push_str(&format!(
                " The last shared access issued, {}, was predicted {} extra cycles of bank conflicts by the conflict history cache ({}).",
                self.instr(l.pc),
                l.predicted,
                if l.hit { "a hit" } else { "a miss" }
            ));
            link = link.at(self.place(l.pc));
        }
        link.text = text;
        links.push(link);
    }

    /// A barrier or fence under MRPB: the warp's requests still in the buffer.
    fn mrpb_drain_links(&self, slot: u32, links: &mut Vec<Link>) {
        let Some(mrpb) = self.sm.ldst().mrpb() else {
            return;
        };
        let held: Vec<(usize, usize)> = mrpb
            .queues()
            .iter()
            .enumerate()
            .map(|(q, queue)| (q, queue.iter().filter(|r| r.from.warp == slot).count()))
            .filter(|&(_, n)| n > 0)
            .collect();
        let text = if held.is_empty() {
            "Its memory requests are on their way to the MRPB (in a collector unit or MEM0): none may be reordered across the barrier or fence.".to_string()
        } else {
            let parts: Vec<String> = held
                .iter()
                .map(|(q, n)| format!("{} in queue {q}", count(*n as u32, "request", "requests")))
                .collect();
            format!(
                "The MRPB still holds {}: the barrier or fence waits until they have left, so none is reordered across it.",
                parts.join(", ")
            )
        };
        links.push(Link::new("mrpb", text));
    }

    /// The two-level scheduler's active set, which the warp is not in.
    fn inactive_links(&self, slot: u32, links: &mut Vec<Link>) {
        let schedulers = self.sm.schedulers();
        let Some(s) = schedulers.get(slot as usize % schedulers.len().max(1)) else {
            return;
        };
        let active = s.active_set().to_vec();
        links.push(
            Link::new(
                "scheduler",
                format!(
                    "The two-level scheduler's active set holds {}; warp {slot} waits outside it until one of them leaves on a long-latency load or finishes.",
                    warp_list(&active)
                ),
            )
            .naming(active),
        );
    }

    /// A rigid pipeline stopped behind a result that lost writeback.
    fn writeback_links(&self, links: &mut Vec<Link>) {
        let waiting: Vec<InFlight> = self
            .sm
            .nonmem_waiting()
            .iter()
            .filter_map(|&t| self.in_flight(t))
            .collect();
        let Some(first) = waiting.first() else {
            return;
        };
        links.push(
            Link::new(
                "data",
                format!(
                    "{} of warp {} finished and waits for a writeback port, taken by data from the memory stages; the in-order pipeline stands still behind it.",
                    self.instr(first.pc),
                    first.warp
                ),
            )
            .at(self.place(first.pc))
            .naming(vec![first.warp]),
        );
    }

    /// Explains `lane` of `slot`: returns whether the lane is active (then the warp's chain
    /// follows).
    fn lane_links(&self, slot: u32, lane: u32, links: &mut Vec<Link>) -> bool {
        let Some(state) = self.sm.warp_state(slot) else {
            return false;
        };
        let bit = 1u64 << lane;
        if state.valid & bit == 0 {
            links.push(Link::new(
                "lane",
                format!("Lane {lane} holds no thread: the CTA's last warp is partial."),
            ));
            return false;
        }
        let rec = &state.reconvergence;
        if rec.live_mask() & bit == 0 {
            links.push(Link::new(
                "lane",
                format!("Lane {lane}'s thread has exited."),
            ));
            return false;
        }
        if rec.active_mask() & bit != 0 {
            links.push(Link::new(
                "lane",
                format!("Lane {lane} is in the active mask: it runs whenever warp {slot} issues."),
            ));
            return true;
        }
        match rec {
            Reconvergence::Stack(_) => self.stack_lane(rec, lane, links),
            Reconvergence::Barriers(b) => {
                let groups = b.groups();
                let mine = groups.iter().find(|(_, _, m)| m & bit != 0);
                let text = match mine {
                    Some((ThreadState::Ready, pc, _)) => format!(
                        "Lane {lane}'s thread is ready at {} but in another warp split: the warp runs one split at a time ({} policy).",
                        self.instr(*pc),
                        config_name(b.policy())
                    ),
                    Some((ThreadState::Blocked(id), pc, _)) => format!(
                        "Lane {lane}'s thread waits at WAIT B{} before {} for the other threads of its barrier.",
                        id,
                        self.instr(*pc)
                    ),
                    Some((ThreadState::Yielded, pc, _)) => format!(
                        "Lane {lane}'s thread executed YIELD at {}: it resumes when no split is ready.",
                        self.instr(*pc)
                    ),
                    Some((ThreadState::WarpSync, pc, _)) => format!(
                        "Lane {lane}'s thread waits at the warp-synchronous {} for the other members.",
                        self.instr(*pc)
                    ),
                    _ => format!("Lane {lane}'s thread is not active."),
                };
                let place = mine.map_or((0, 0), |(_, pc, _)| self.place(*pc));
                links.push(Link::new("threads", text).at(place));
            }
        }
        false
    }

    fn stack_lane(&self, rec: &Reconvergence, lane: u32, links: &mut Vec<Link>) {
        let bit = 1u64 << lane;
        let entries = rec.stack_entries();
        let top = entries.len().saturating_sub(1);
        let Some((i, e)) = entries
            .iter()
            .enumerate()
            .rev()
            .skip(1)
            .find(|(_, e)| e.mask & bit != 0)
        else {
            return;
        };
        let top_entry = &entries[top];
        let rejoin = top_entry.rpc.map_or(String::new(), |r| {
            format!(", and the paths reconverge at {}", self.line_text(r))
        });
        links.push(
            Link::new(
                "stack",
                format!(
                    "Lane {lane} is masked off: it waits in SIMT stack entry {i} to run from {} (PC {}) after the entry above it (lanes {:#x}, now at {}) finishes{rejoin}.",
                    self.instr(e.pc),
                    e.pc,
                    top_entry.mask,
                    self.line_text(top_entry.pc)
                ),
            )
            .at(self.place(e.pc)),
        );
    }
}

/// A configuration value as the configuration file spells it (`gto`, `round_robin`).
fn config_name(value: impl Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

fn dedup(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v.dedup();
    v
}
