//! The links of a chain about the pipeline around a warp: barriers, the scheduler's choice,
//! fetch, the operand collector, the drain and issue masks, an inactive slot, writeback.

use super::*;

impl Ctx<'_> {
    pub(super) fn barrier_links(&self, slot: u32, w: &WarpSlot, links: &mut Vec<Link>) {
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

    pub(super) fn scheduler_links(&self, slot: u32, links: &mut Vec<Link>) {
        let schedulers = &self.sm.last_cycle().schedulers;
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

    pub(super) fn fetch_links(&self, w: &WarpSlot, links: &mut Vec<Link>) {
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

    pub(super) fn collector_links(&self, w: &WarpSlot, links: &mut Vec<Link>) {
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

    pub(super) fn drain_links(&self, slot: u32, links: &mut Vec<Link>) {
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
    pub(super) fn mask_links(&self, links: &mut Vec<Link>) {
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

    /// The two-level scheduler's active set, which the warp is not in.
    pub(super) fn inactive_links(&self, slot: u32, links: &mut Vec<Link>) {
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

    /// Cache-conscious wavefront scheduling (MICRO 2012; book section 5.1.2) held the warp: the
    /// static limit's warps, or the locality scores that fill the cutoff before it.
    pub(super) fn ccws_links(&self, slot: u32, w: &WarpSlot, links: &mut Vec<Link>) {
        let Some(c) = self.sm.issue_stage().ccws() else {
            return;
        };
        let link = if w.state == WarpCycle::SwlLimit {
            let allowed = c.schedulable_warps();
            Link::new(
                "scheduler",
                format!(
                    "Cache-conscious scheduling's static wavefront limit (core.ccws.swl_warps = {}) lets only the oldest running warps be scheduled: {}. Warp {slot} waits until one of them finishes, so they keep more of the L1D to themselves.",
                    c.swl_warps(),
                    warp_list(&allowed)
                ),
            )
            .naming(allowed)
        } else {
            let allowed = c.loading_warps();
            let scores: Vec<String> = allowed
                .iter()
                .map(|&a| format!("{a}: {}", c.score(a)))
                .collect();
            let load = w
                .ibuffer
                .front()
                .map_or("its load".into(), |&pc| self.instr(pc));
            let mut link = Link::new(
                "scheduler",
                format!(
                    "Dynamic CCWS: warps that lost intra-warp locality (L1D misses found in their victim tag arrays) have high locality scores; sorted by score, warps {} (scores {}) fill the cutoff of {}, so warp {slot} (score {}) may not issue {load}, a load through the L1D, until their scores decay.",
                    warp_list(&allowed),
                    scores.join(", "),
                    c.cutoff(),
                    c.score(slot)
                ),
            )
            .naming(allowed);
            if let Some(&pc) = w.ibuffer.front() {
                link = link.at(self.place(pc));
            }
            link
        };
        links.push(link);
    }

    /// A rigid pipeline stopped behind a result that lost writeback.
    pub(super) fn writeback_links(&self, links: &mut Vec<Link>) {
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
}
