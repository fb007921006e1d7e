//! The SM's side of the issue stage (book section 3.1; MODEL.md sections 3-5): whether a warp
//! may issue (I-buffer, barriers, the MRPB's ordering, the scoreboard, a stalled EXE), and
//! issuing it: the instruction executes functionally, reserves the scoreboard, takes a
//! collector unit and enters the cycle's record. [`SmIssuePort`] is what the schedulers
//! ([`super::super::issue::IssueStage`]) see of the SM.

use super::*;

impl Sm {
    /// The issue stage's cycle (it reaches the rest of the SM through [`SmIssuePort`]).
    /// Returns whether an issued instruction made forward progress.
    pub(super) fn issue(&mut self, now: u64, ctx: &mut SmContext) -> bool {
        let mut stage = std::mem::take(&mut self.issue);
        let progress = stage.cycle(&mut SmIssuePort { sm: self, now, ctx });
        self.issue = stage;
        progress
    }

    /// Whether the warp in `slot` can issue its next instruction, or why not.
    /// A warp that cannot issue also takes the reason as its state for the cycle (set here,
    /// while the warp is at hand).
    fn check(&mut self, slot: u32, decoded: &[Decoded]) -> Result<(), WarpCycle> {
        let Some(w) = self.warps[slot as usize].as_mut() else {
            return Err(WarpCycle::Idle);
        };
        if let Some(reason) = w.blocked {
            w.state = reason;
            return Err(reason);
        }
        let reason = Self::warp_hazard(w, decoded, &self.params);
        if let Err(r) = reason {
            // Remember it: it holds until the I-buffer, the scoreboard, a barrier or a branch
            // of this warp changes, and each of those clears the memory.
            w.blocked = Some(r);
            w.state = r;
            return Err(r);
        }
        let Some(&pc) = w.ibuffer.front() else {
            w.state = WarpCycle::NoInstruction;
            return Err(WarpCycle::NoInstruction);
        };
        let d = &decoded[pc as usize];
        if d.orders_memory && self.ldst.mrpb().is_some() {
            // No reordering across a barrier or fence: the warp's global/local requests must
            // have left the MRPB, and none may still be on its way there (in a collector unit
            // or MEM0).
            let ldst = &self.ldst;
            let on_the_way = self.in_flight.iter().any(|f| {
                f.warp == slot && f.memory == Some(MemPath::Requests) && !ldst.left_mem0(f.tag)
            });
            if on_the_way || ldst.mrpb_holds(slot) {
                w.state = WarpCycle::MrpbDrain;
                return Err(WarpCycle::MrpbDrain);
            }
        }
        if let Some(reason) = self.dispatch.exe_stall() {
            // A rigid pipeline stands still behind an instruction that cannot leave EXE.
            w.state = reason;
            return Err(reason);
        }
        if !self.collector.has_free(d.unit) {
            let reason = match d.unit {
                // The memory pipe is full behind a shared access replaying its conflicts
                // (Elastic Fig. 8's "bank conflict" stalls).
                UnitKind::Mem if self.ldst.conflict_in_mem0() => WarpCycle::BankConflict,
                UnitKind::Mem if d.shared => WarpCycle::MioThrottle,
                UnitKind::Mem if self.ldst.mrpb_wait() == Some(Offer::Full) => WarpCycle::MrpbFull,
                UnitKind::Mem => WarpCycle::LgThrottle,
                _ => WarpCycle::MathPipeThrottle,
            };
            w.state = reason;
            return Err(reason);
        }
        Ok(())
    }

    /// What holds a warp by its own state (barrier, strict barrel, empty I-buffer, branch,
    /// scoreboard), if anything; structural hazards (collector units) are checked separately,
    /// every cycle.
    fn warp_hazard(w: &WarpSlot, decoded: &[Decoded], p: &Params) -> Result<(), WarpCycle> {
        if w.at_barrier {
            return Err(WarpCycle::Barrier);
        }
        if p.strict_barrel && w.in_flight > 0 {
            return Err(WarpCycle::Barrel);
        }
        let Some(&pc) = w.ibuffer.front() else {
            return Err(if w.branch_pending.is_some() {
                WarpCycle::BranchResolving
            } else {
                WarpCycle::NoInstruction
            });
        };
        let Some(d) = decoded.get(pc as usize) else {
            return Err(WarpCycle::NoInstruction);
        };
        match w
            .scoreboard
            .check(d.sources.as_slice(), d.dests.as_slice(), p.scoreboard_limit)
        {
            Some(Hazard::Long) => Err(WarpCycle::LongScoreboard),
            Some(Hazard::Short | Hazard::Full) => Err(WarpCycle::ShortScoreboard),
            None => Ok(()),
        }
    }

    /// Issues the head instruction of `slot`: executes it, reserves the scoreboard, takes a
    /// collector unit, and redirects fetch when control flow moved. Returns whether it made
    /// forward progress (changed memory or ended the warp).
    fn issue_warp(&mut self, slot: u32, now: u64, ctx: &mut SmContext) -> bool {
        let Some(w) = self.warps[slot as usize].as_mut() else {
            return false;
        };
        let Some(pc) = w.ibuffer.pop_front() else {
            return false;
        };
        w.blocked = None;
        let (cta_slot, warp_in_cta) = (w.cta_slot as usize, w.warp_in_cta as usize);
        let d = ctx.decoded[pc as usize];
        let Some(cta) = self.ctas[cta_slot].as_mut() else {
            return false;
        };
        let env = Env {
            image: ctx.image,
            func: ctx.image.func(),
            ctaid: cta.cta.ctaid,
            warp_slot: slot,
            warp_slots: self.warps.len() as u32,
            sm: self.id,
            sms: ctx.sms,
            clock: now,
            push_order: self.params.push_order,
            reg_masks: ctx.reg_masks,
        };
        let CtaState {
            shared,
            warps,
            barriers,
            ..
        } = &mut cta.cta;
        let mut mem = Memories {
            global: &mut *ctx.global,
            shared,
        };
        let Some(state) = warps.get_mut(warp_in_cta) else {
            return false;
        };
        state.changed = false;
        let done = match execute(&env, &mut mem, state, &mut self.access) {
            Ok(done) => done,
            Err(fault) => {
                self.fault = Some(fault);
                return false;
            }
        };
        if let Flow::Barrier(arrival) = done.flow {
            barriers.arrive(warp_in_cta as u32, &arrival);
        }
        let new_pc = state.reconvergence.pc();
        let finished = state.is_finished();
        let changed_registers = state.changed;
        cta.barriers_changed |= finished || matches!(done.flow, Flow::Barrier(_));
        let depth = state.reconvergence.max_depth();
        let splits = state.reconvergence.drain_stats();
        if let Some(trace) = ctx.trace.as_deref_mut() {
            trace.push(IssueEvent {
                cycle: now,
                sm: self.id,
                warp: slot,
                pc,
                line: env.func.instr(pc).map_or(0, |i| i.line),
                mask: done.active,
                stack: state.reconvergence.view_entries(),
                tag: self.next_tag,
            });
        }
        let changed_memory = self.access.valid && self.access.changed;
        let memory = self
            .access
            .valid
            .then(|| self.memory.hold(self.next_tag, slot, &self.access));
        let tag = self.next_tag;
        self.next_tag += 1;
        self.collector
            .allocate(d.unit, slot, d.bank_reads.as_slice(), tag);
        self.in_flight.push(InFlight {
            tag,
            warp: slot,
            pc,
            unit: d.unit,
            issued: now,
            memory,
        });
        self.record.issued.push(IssueRecord {
            scheduler: slot % self.params.schedulers,
            warp: slot,
            tag,
            pc,
            active_lanes: done.active.count_ones(),
            divergent: matches!(done.flow, Flow::Branch(BranchOutcome::Divergent)),
            stack_depth: depth as u32,
        });
        self.stats.splits.add(&splits);
        let Some(w) = self.warps[slot as usize].as_mut() else {
            return false;
        };
        let progress = changed_memory || changed_registers || (finished && !w.finished);
        w.in_flight += 1;
        w.scoreboard.reserve(d.dests.as_slice(), d.long, tag);
        if let Flow::Barrier(arrival) = done.flow {
            w.at_barrier = arrival.wait;
            w.barrier_pc = pc;
        }
        w.finished = finished;
        if finished {
            self.live &= !(1 << slot);
        }
        self.maybe_drained |= finished;
        match (finished, new_pc) {
            (true, _) | (_, None) => w.redirect(pc),
            (false, Some(next)) => {
                if d.is_branch {
                    w.branch_pending = Some(tag);
                    w.redirect(next);
                } else if next != pc + 1 {
                    w.redirect(next);
                }
            }
        }
        progress
    }
}

/// The SM as its issue stage sees it for one cycle.
struct SmIssuePort<'s, 'c, 'a> {
    sm: &'s mut Sm,
    now: u64,
    ctx: &'c mut SmContext<'a>,
}

impl IssuePort for SmIssuePort<'_, '_, '_> {
    fn eligible(&self, slot: u32) -> bool {
        self.sm.warps[slot as usize]
            .as_ref()
            .is_some_and(|w| !w.finished && !w.at_barrier)
    }

    fn check(&mut self, slot: u32) -> Result<(), WarpCycle> {
        self.sm.check(slot, self.ctx.decoded)
    }

    fn issue(&mut self, slot: u32) -> Issued {
        let tag = self.sm.next_tag;
        let progress = self.sm.issue_warp(slot, self.now, self.ctx);
        Issued { tag, progress }
    }

    fn next_memory(&self, slot: u32) -> Option<(Pc, bool)> {
        let w = self.sm.warps[slot as usize].as_ref()?;
        let &pc = w.ibuffer.front()?;
        let d = self.ctx.decoded.get(pc as usize)?;
        (d.unit == UnitKind::Mem).then_some((pc, d.shared))
    }

    fn set_state(&mut self, slot: u32, state: WarpCycle) {
        if let Some(w) = self.sm.warps[slot as usize].as_mut() {
            w.state = state;
        }
    }

    fn records_states(&self) -> bool {
        self.sm.record_warp_states
    }

    fn settle_state(&mut self, slot: u32, tried: bool) {
        if let Some(w) = self.sm.warps[slot as usize].as_mut() {
            if w.finished {
                w.state = if w.in_flight > 0 {
                    WarpCycle::Drain
                } else {
                    WarpCycle::Idle
                };
            } else if !tried {
                w.state = WarpCycle::Inactive;
            }
        }
    }

    fn live(&self) -> u128 {
        self.sm.live
    }
}
