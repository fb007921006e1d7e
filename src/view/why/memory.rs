//! The links of a chain that follow a memory instruction: its requests at the L1D (hits,
//! misses, merges, refusals and the set's ways), the MRPB queue it waits in, the places below the
//! L1D (interconnect, L2 slice, DRAM channel) and MEM0.

use super::*;

impl Ctx<'_> {
    /// A memory instruction: in MEM0, its requests, where its missing data is.
    pub(super) fn memory_links(&self, tag: u64, links: &mut Vec<Link>) {
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
                CacheName::Texture => "texture cache",
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
    pub(super) fn requests_link(&self, log: &RequestLog, unsent: Option<u32>) -> Link {
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
    pub(super) fn mrpb_links(&self, tag: u64, links: &mut Vec<Link>) {
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
    pub(super) fn refusal_links(
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
    pub(super) fn below_links(&self, token: u64, bypass: bool, links: &mut Vec<Link>) {
        if let Some(places) = self.places_text(token, bypass) {
            links.push(Link::new("below", format!("Below the L1D: {places}.")));
        }
    }

    /// Where this SM's requests carrying `token` are below the L1D, as one phrase (`None`:
    /// nowhere, e.g. the fill has arrived).
    pub(super) fn places_text(&self, token: u64, bypass: bool) -> Option<String> {
        let places = self.sim.memory().locate(self.sm_id, token, bypass);
        let texts: Vec<String> = places.iter().map(|p| self.place_text(*p)).collect();
        (!texts.is_empty()).then(|| texts.join("; then "))
    }

    pub(super) fn place_text(&self, p: RequestPlace) -> String {
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
    pub(super) fn mem0_links(&self, links: &mut Vec<Link>) {
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

    /// A barrier or fence under MRPB: the warp's requests still in the buffer.
    pub(super) fn mrpb_drain_links(&self, slot: u32, links: &mut Vec<Link>) {
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
}
