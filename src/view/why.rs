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

mod lanes;
mod memory;
mod pipeline;
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
            WarpCycle::SwlLimit | WarpCycle::CcwsThrottle => self.ccws_links(slot, w, links),
            WarpCycle::WritebackConflict => self.writeback_links(links),
            _ => {}
        }
    }

    fn state_link(&self, slot: u32, w: &WarpSlot) -> Link {
        let state = w.state;
        let cycle = num(self.now);
        let text = match state {
            WarpCycle::Issued => match self.sm.last_cycle().issued_from(slot) {
                Some(i) => {
                    format!("Warp {slot} issued {} in cycle {cycle}.", self.instr(i.pc))
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
