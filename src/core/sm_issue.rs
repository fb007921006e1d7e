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
    ///
    /// A load, store or atomic that may reach global memory is the exception: it takes its
    /// collector unit, scoreboard entry and tag now, but executes in [`Sm::execute_deferred`],
    /// after every SM's issue stage, in SM order, so SMs can run their cycles in parallel and
    /// still see global memory change in the order the sequential model gives. Nothing else in
    /// the cycle reads what it computes (its registers wait on the scoreboard, its access on
    /// MEM0, which takes it next cycle at the earliest). A generic access may land in the CTA's
    /// shared memory, so once one waits, the SM's shared accesses of the cycle wait behind it.
    fn issue_warp(&mut self, slot: u32, now: u64, ctx: &mut SmContext) -> bool {
        let Some(w) = self.warps[slot as usize].as_mut() else {
            return false;
        };
        let Some(&pc) = w.ibuffer.front() else {
            return false;
        };
        let d = ctx.exec.decoded[pc as usize];
        let defer = d.global_memory || (d.shared && self.deferred_generic);
        let Some(pc) = w.ibuffer.pop_front() else {
            return false;
        };
        w.blocked = None;
        let tag = self.next_tag;
        if defer {
            self.deferred_generic |= d.generic;
            self.next_tag += 1;
            let trace = ctx.trace.as_deref_mut().map(|t| {
                t.push(self.issue_event(now, slot, pc, tag, ctx.exec.image, 0, Vec::new()));
                t.len() - 1
            });
            self.deferred.push(DeferredIssue {
                slot,
                pc,
                tag,
                record: self.record.issued.len(),
                trace,
            });
            self.occupy_back_end(slot, pc, tag, &d, now);
            return false;
        }
        let Some(done) = self.execute_issued(slot, now, &ctx.exec, None) else {
            return false;
        };
        if let Some(trace) = ctx.trace.as_deref_mut() {
            let stack = self.issued_stack(slot);
            trace.push(self.issue_event(now, slot, pc, tag, ctx.exec.image, done.active, stack));
        }
        self.next_tag += 1;
        self.occupy_back_end(slot, pc, tag, &d, now);
        self.complete_issue(slot, pc, tag, &d, self.record.issued.len() - 1, done)
    }

    /// The functional executions [`Sm::issue_warp`] left for the cycle's pass over global
    /// memory, in the order they issued; then each one's consequences, as if it had executed
    /// at issue.
    pub fn execute_deferred(
        &mut self,
        now: u64,
        ctx: &ExecContext,
        global: &mut GlobalMemory,
        mut trace: Option<&mut Vec<IssueEvent>>,
    ) {
        let mut deferred = std::mem::take(&mut self.deferred);
        for job in deferred.drain(..) {
            let Some(done) = self.execute_issued(job.slot, now, ctx, Some(&mut *global)) else {
                continue;
            };
            if let Some(event) = job.trace.and_then(|i| trace.as_deref_mut()?.get_mut(i)) {
                event.mask = done.active;
                event.stack = self.issued_stack(job.slot);
            }
            let d = ctx.decoded[job.pc as usize];
            if self.complete_issue(job.slot, job.pc, job.tag, &d, job.record, done) {
                self.issue_progress = true;
            }
        }
        self.deferred = deferred;
        self.deferred_generic = false;
    }

    /// Executes the head instruction of warp `slot` (popped from its I-buffer) against its
    /// CTA's state; a warp arriving at a barrier is counted there. `None` when it faulted (the
    /// SM stops) or the warp is gone. Without `global`, the instruction must not reach global
    /// memory ([`Sm::issue_warp`] keeps those back).
    fn execute_issued(
        &mut self,
        slot: u32,
        now: u64,
        ctx: &ExecContext,
        global: Option<&mut GlobalMemory>,
    ) -> Option<Issue> {
        let w = self.warps[slot as usize].as_ref()?;
        let (cta_slot, warp_in_cta) = (w.cta_slot as usize, w.warp_in_cta as usize);
        let cta = self.ctas[cta_slot].as_mut()?;
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
        // An empty address space where global memory is not at hand: nothing executed here
        // reaches it (an access would fault as out of bounds, not read stale data).
        let mut no_global = GlobalMemory::new();
        let mut mem = Memories {
            global: global.unwrap_or(&mut no_global),
            shared,
        };
        let state = warps.get_mut(warp_in_cta)?;
        state.changed = false;
        let done = match execute(&env, &mut mem, state, &mut self.access) {
            Ok(done) => done,
            Err(fault) => {
                self.fault = Some(fault);
                return None;
            }
        };
        if let Flow::Barrier(arrival) = done.flow {
            barriers.arrive(warp_in_cta as u32, &arrival);
        }
        let finished = state.is_finished();
        cta.barriers_changed |= finished || matches!(done.flow, Flow::Barrier(_));
        let splits = state.reconvergence.drain_stats();
        self.stats.splits.add(&splits);
        Some(Issue {
            active: done.active,
            flow: done.flow,
            new_pc: state.reconvergence.pc(),
            finished,
            changed_registers: state.changed,
            depth: state.reconvergence.max_depth() as u32,
        })
    }

    /// The SIMT stack of warp `slot` after the instruction it issued, for `--trace`.
    fn issued_stack(&self, slot: u32) -> Vec<(Pc, Option<Pc>, LaneMask)> {
        self.warp_state(slot)
            .map(|s| s.reconvergence.view_entries())
            .unwrap_or_default()
    }

    #[allow(clippy::too_many_arguments)]
    fn issue_event(
        &self,
        now: u64,
        slot: u32,
        pc: Pc,
        tag: u64,
        image: &KernelImage,
        mask: LaneMask,
        stack: Vec<(Pc, Option<Pc>, LaneMask)>,
    ) -> IssueEvent {
        IssueEvent {
            cycle: now,
            sm: self.id,
            warp: slot,
            pc,
            line: image.func().instr(pc).map_or(0, |i| i.line),
            mask,
            stack,
            tag,
        }
    }

    /// What an issued instruction takes in the back end whatever it computes: a collector
    /// unit, an in-flight entry (its memory path filled in once it has executed), its place in
    /// the cycle's record, the warp's count of instructions in flight and the scoreboard.
    fn occupy_back_end(&mut self, slot: u32, pc: Pc, tag: u64, d: &Decoded, now: u64) {
        self.collector
            .allocate(d.unit, slot, d.mrf_reads.as_slice(), tag);
        self.register_banks
            .count_hierarchy_reads(d.orf_reads.into(), d.lrf_reads.into());
        self.register_banks
            .count_hierarchy_writes(d.orf_fills.into(), 0);
        self.in_flight.push(InFlight {
            tag,
            warp: slot,
            pc,
            unit: d.unit,
            issued: now,
            memory: None,
        });
        self.record.issued.push(IssueRecord {
            scheduler: slot % self.params.schedulers,
            warp: slot,
            tag,
            pc,
            active_lanes: 0,
            divergent: false,
            stack_depth: 0,
        });
        if let Some(w) = self.warps[slot as usize].as_mut() {
            w.in_flight += 1;
            w.scoreboard.reserve(d.dests.as_slice(), d.long, tag);
        }
    }

    /// What an executed instruction decides: the access it holds for MEM0, its record's lanes
    /// and stack depth, the warp's barrier wait, whether it finished, and where fetch goes
    /// next. Returns whether it made forward progress.
    fn complete_issue(
        &mut self,
        slot: u32,
        pc: Pc,
        tag: u64,
        d: &Decoded,
        record: usize,
        done: Issue,
    ) -> bool {
        let changed_memory = self.access.valid && self.access.changed;
        let memory = self
            .access
            .valid
            .then(|| self.memory.hold(tag, slot, &self.access));
        self.in_flight.set_memory(tag, memory);
        if let Some(r) = self.record.issued.get_mut(record) {
            r.active_lanes = done.active.count_ones();
            r.divergent = matches!(done.flow, Flow::Branch(BranchOutcome::Divergent));
            r.stack_depth = done.depth;
        }
        let Some(w) = self.warps[slot as usize].as_mut() else {
            return false;
        };
        let finished = done.finished;
        let progress = changed_memory || done.changed_registers || (finished && !w.finished);
        if let Flow::Barrier(arrival) = done.flow {
            w.at_barrier = arrival.wait;
            w.barrier_pc = pc;
        }
        w.finished = finished;
        if finished {
            self.live &= !(1 << slot);
        }
        self.maybe_drained |= finished;
        match (finished, done.new_pc) {
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

/// An issued instruction whose functional execution waits for the cycle's pass over global
/// memory ([`Sm::execute_deferred`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct DeferredIssue {
    slot: u32,
    pc: Pc,
    tag: u64,
    /// Its entry in the cycle's record of issued instructions.
    record: usize,
    /// Its `--trace` event, when tracing.
    trace: Option<usize>,
}

/// What executing an issued instruction decided, for the rest of the SM.
#[derive(Debug, Clone, Copy)]
struct Issue {
    active: LaneMask,
    flow: Flow,
    /// The warp's PC after it (`None` when every thread exited).
    new_pc: Option<Pc>,
    finished: bool,
    changed_registers: bool,
    /// The deepest the warp's SIMT stack has been.
    depth: u32,
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
        self.sm.check(slot, self.ctx.exec.decoded)
    }

    fn issue(&mut self, slot: u32) -> Issued {
        let tag = self.sm.next_tag;
        let progress = self.sm.issue_warp(slot, self.now, self.ctx);
        Issued { tag, progress }
    }

    fn next_memory(&self, slot: u32) -> Option<(Pc, bool)> {
        let w = self.sm.warps[slot as usize].as_ref()?;
        let &pc = w.ibuffer.front()?;
        let d = self.ctx.exec.decoded.get(pc as usize)?;
        (d.unit == UnitKind::Mem).then_some((pc, d.shared))
    }

    fn next_loads_l1d(&self, slot: u32) -> bool {
        self.sm.warps[slot as usize]
            .as_ref()
            .and_then(|w| w.ibuffer.front())
            .and_then(|&pc| self.ctx.exec.decoded.get(pc as usize))
            .is_some_and(|d| d.l1d_load)
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
