//! The CTAs resident on an SM (book section 5.1; MODEL.md section 1): whether one fits (threads,
//! warp slots, CTA slots, registers, shared memory), placing it in the lowest free warp slots,
//! releasing its barriers once every live warp has arrived (writing `bar.red` results), and
//! freeing its slots when its warps have finished and drained. Blocks run to completion; there
//! is no preemption.

use super::*;

/// A resident CTA: its functional state and the warp slots its warps occupy.
#[derive(Debug, Clone)]
pub struct CtaSlot {
    pub cta: CtaState,
    /// Warp slot of each warp of the CTA.
    pub warp_slots: Vec<u32>,
    /// Launch order of the CTA in the grid.
    pub index: u64,
    /// Resources it holds.
    pub threads: u32,
    pub registers: u32,
    pub shared_bytes: u32,
    /// A warp of the CTA arrived at a barrier or exited since its barriers were last checked:
    /// only then can one complete ([`Sm`]'s barrier release skips the CTA otherwise).
    pub barriers_changed: bool,
}

impl Sm {
    // ----- CTA placement -----------------------------------------------------------------

    /// Whether a CTA of `threads` threads using `registers` registers and `shared` bytes fits.
    pub fn fits(&self, threads: u32, registers: u32, shared: u32) -> bool {
        let warps_needed = threads.div_ceil(self.params.warp_size);
        self.resident_ctas < self.ctas.len() as u32
            && self.resident_warps + warps_needed <= self.warps.len() as u32
            && self.used_threads + threads <= self.params.max_threads
            && self.used_registers + registers <= self.params.registers
            && self.used_shared + shared <= self.params.shared_bytes
    }

    /// Places a CTA; its warps take the lowest free warp slots. `age_base` numbers its warps for
    /// GTO's "oldest first".
    pub fn launch(
        &mut self,
        cta: CtaState,
        index: u64,
        registers: u32,
        shared_bytes: u32,
        age_base: u64,
    ) {
        let Some(cta_slot) = self.ctas.iter().position(Option::is_none) else {
            return;
        };
        let threads = cta.warps.iter().map(|w| w.valid.count_ones()).sum();
        let mut warp_slots = Vec::with_capacity(cta.warps.len());
        for (w, state) in cta.warps.iter().enumerate() {
            let Some(slot) = self.warps.iter().position(Option::is_none) else {
                break;
            };
            let warp = WarpSlot::new(
                cta_slot as u32,
                w as u32,
                age_base + w as u64,
                state.is_finished(),
            );
            let age = warp.age;
            if !warp.finished {
                self.live |= 1 << slot;
            }
            self.warps[slot] = Some(warp);
            self.issue.warp_arrived(slot as u32, age);
            self.front.wake();
            warp_slots.push(slot as u32);
        }
        self.used_threads += threads;
        self.used_registers += registers;
        self.used_shared += shared_bytes;
        self.resident_ctas += 1;
        self.resident_warps += warp_slots.len() as u32;
        self.ctas[cta_slot] = Some(CtaSlot {
            cta,
            warp_slots,
            index,
            threads,
            registers,
            shared_bytes,
            barriers_changed: true,
        });
    }

    /// CTAs resident now.
    pub fn resident_ctas(&self) -> u32 {
        self.resident_ctas
    }

    /// Whether any CTA is resident.
    pub fn is_busy(&self) -> bool {
        self.ctas.iter().any(Option::is_some)
    }

    /// Completes CTA barriers whose warps have all arrived; writes `bar.red` results. Returns
    /// whether any barrier completed.
    pub(super) fn release_barriers(&mut self, ctx: &SmContext) -> bool {
        let mut any = false;
        for slot in self.ctas.iter_mut().flatten() {
            if !std::mem::take(&mut slot.barriers_changed) || !slot.cta.barriers.has_arrivals() {
                continue;
            }
            let live = slot.cta.live_warps();
            let releases = &mut self.releases;
            let n = slot
                .cta
                .barriers
                .release_ready_into(live, self.params.warp_size, releases);
            for release in &releases[..n] {
                any = true;
                for w in &release.warps {
                    if let Some(&ws) = slot.warp_slots.get(*w as usize) {
                        if let Some(warp) = self.warps[ws as usize].as_mut() {
                            warp.at_barrier = false;
                            warp.blocked = None;
                        }
                    }
                }
                for (w, red) in &release.reductions {
                    let env = Env {
                        image: ctx.exec.image,
                        func: ctx.exec.image.func(),
                        ctaid: slot.cta.ctaid,
                        warp_slot: slot.warp_slots.get(*w as usize).copied().unwrap_or(0),
                        warp_slots: self.warps.len() as u32,
                        sm: self.id,
                        sms: ctx.exec.sms,
                        clock: 0,
                        push_order: self.params.push_order,
                        reg_masks: ctx.exec.reg_masks,
                    };
                    if let Some(state) = slot.cta.warps.get_mut(*w as usize) {
                        finish_reduction(&env, state, red, release.true_count, release.lane_count);
                    }
                }
            }
        }
        any
    }

    /// Frees the slots of warps that finished and drained, and of CTAs whose warps all left.
    /// Returns whether a CTA completed.
    pub(super) fn retire_finished(&mut self) -> bool {
        let mut any = false;
        if !std::mem::take(&mut self.maybe_drained) {
            return false;
        }
        for c in 0..self.ctas.len() {
            let Some(cta) = self.ctas[c].as_ref() else {
                continue;
            };
            let done = cta.warp_slots.iter().all(|&ws| {
                self.warps[ws as usize]
                    .as_ref()
                    .map_or(true, |w| w.finished && w.in_flight == 0)
            });
            if !done || !cta.cta.is_finished() {
                continue;
            }
            let Some(cta) = self.ctas[c].take() else {
                continue;
            };
            for &ws in &cta.warp_slots {
                self.warps[ws as usize] = None;
                self.live &= !(1 << ws);
                self.issue.warp_left(ws);
            }
            self.used_threads -= cta.threads;
            self.used_registers -= cta.registers;
            self.used_shared -= cta.shared_bytes;
            self.resident_ctas -= 1;
            self.resident_warps -= cta.warp_slots.len() as u32;
            self.stats.ctas_completed += 1;
            any = true;
        }
        any
    }
}
