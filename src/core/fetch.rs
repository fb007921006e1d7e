//! The SM's front end (book section 3.1; MODEL.md section 3): the fetch stage, which reads
//! `core.fetch_width` instructions for one warp a cycle (round-robin over the warps whose
//! I-buffer has room), and the decode stage, which puts last cycle's fetch into its warp's
//! I-buffer. With an instruction cache (`core.icache.model = cache`, GPGPU-Sim's
//! `shader_core_ctx::fetch`) the instructions are read from it, and a warp whose line misses
//! waits for the line (`imiss_pending`).

use super::warp_slot::WarpSlot;
use crate::config::CoreConfig;
use crate::mem::request::{code_address, INSTR_BYTES};
use crate::mem::{L1Outcome, L1d};
use crate::ptx::Pc;
use serde::Serialize;

/// The latch between fetch and decode: what was fetched this cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct FetchLatch {
    pub warp: u32,
    /// The first instruction fetched.
    pub pc: Pc,
    /// Consecutive instructions fetched from `pc` (`core.fetch_width`, fewer at the end).
    pub count: u32,
    epoch: u32,
}

impl FetchLatch {
    /// Warp `w` (in slot `slot`) fetches `count` instructions from its fetch PC.
    fn take(w: &mut WarpSlot, slot: u32, count: u32) -> FetchLatch {
        let latch = FetchLatch {
            warp: slot,
            pc: w.fetch_pc,
            count,
            epoch: w.epoch,
        };
        w.fetch_pc += count;
        latch
    }
}

/// The fetch and decode stages of one SM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontEnd {
    /// Instructions fetched at once (`core.fetch_width`, at most the I-buffer's size).
    width: u32,
    ibuffer_entries: usize,
    /// The warp slot round-robin fetch tries first.
    next: u32,
    latch: Option<FetchLatch>,
    /// The last scan found no warp that could fetch, and nothing that decides it (an issue, a
    /// resolved branch, a new warp: [`FrontEnd::wake`]) has happened since: scanning again
    /// would find none either.
    asleep: bool,
}

impl FrontEnd {
    pub fn new(core: &CoreConfig) -> FrontEnd {
        FrontEnd {
            width: core.fetch_width.clamp(1, core.ibuffer_entries),
            ibuffer_entries: core.ibuffer_entries as usize,
            next: 0,
            latch: None,
            asleep: false,
        }
    }

    /// This cycle's fetch, on its way to decode.
    pub fn latch(&self) -> Option<FetchLatch> {
        self.latch
    }

    /// Decode: last cycle's fetch enters its warp's I-buffer (unless the warp was redirected
    /// since).
    pub fn decode(&mut self, warps: &mut [Option<WarpSlot>]) {
        let Some(latch) = self.latch.take() else {
            return;
        };
        if let Some(w) = warps[latch.warp as usize].as_mut() {
            if w.epoch == latch.epoch && !w.finished {
                for pc in latch.pc..latch.pc + latch.count {
                    if w.ibuffer.len() < self.ibuffer_entries {
                        w.ibuffer.push_back(pc);
                    }
                }
                w.blocked = None;
            }
        }
    }

    /// Fetch: the warp whose instruction line came back fetches first; otherwise the next warp,
    /// round-robin, that can fetch reads its instructions (from the instruction cache, one
    /// access per cycle, when there is one: a hit fetches, a miss leaves the warp waiting for
    /// its line, a reservation failure tries again next cycle). `instrs` is the kernel's length.
    pub fn fetch(&mut self, now: u64, warps: &mut [Option<WarpSlot>], instrs: u32, l1d: &mut L1d) {
        let n = warps.len() as u32;
        let line = l1d.instruction_line_bytes();
        if let Some(slot) = l1d.next_instruction_fill() {
            // The line is back: the warp's fetch completes now, without a second access
            // (GPGPU-Sim's `access_ready` path fills the fetch buffer directly).
            self.asleep = false;
            if let Some(w) = warps.get_mut(slot as usize).and_then(Option::as_mut) {
                w.imiss_pending = false;
                if let Some(count) = self.count(w, instrs, line) {
                    self.latch = Some(FetchLatch::take(w, slot, count));
                    return;
                }
            }
        }
        if self.asleep {
            return;
        }
        for k in 0..n {
            // `next < n`, so one subtraction wraps.
            let mut slot = self.next + k;
            if slot >= n {
                slot -= n;
            }
            let Some(w) = warps[slot as usize].as_mut() else {
                continue;
            };
            let Some(count) = self.count(w, instrs, line) else {
                continue;
            };
            if line.is_some() {
                let addr = code_address(w.fetch_pc);
                let bytes = (INSTR_BYTES * u64::from(count)) as u32;
                match l1d.fetch_instructions(addr, bytes, slot, now) {
                    L1Outcome::Hit => {}
                    L1Outcome::Fail(_) | L1Outcome::Busy => return,
                    _ => {
                        w.imiss_pending = true;
                        self.next = (slot + 1) % n;
                        return;
                    }
                }
            }
            self.latch = Some(FetchLatch::take(w, slot, count));
            self.next = (slot + 1) % n;
            return;
        }
        self.asleep = true;
    }

    /// Something that decides whether a warp can fetch changed (a warp issued, so its
    /// I-buffer or control flow moved; a branch resolved; a warp arrived): scan again.
    pub fn wake(&mut self) {
        self.asleep = false;
    }

    /// How many instructions warp `w` fetches now (`core.fetch_width`, fewer at the code's end
    /// and, with an instruction cache of `line`-byte lines, at a line's end, where GPGPU-Sim
    /// clips its 16-byte fetch); `None` if it cannot fetch (finished, waiting for a line or a
    /// branch, I-buffer without room, nothing left).
    fn count(&self, w: &WarpSlot, instrs: u32, line: Option<u32>) -> Option<u32> {
        let can = !w.finished
            && !w.imiss_pending
            && w.branch_pending.is_none()
            && w.ibuffer.len() + self.width as usize <= self.ibuffer_entries
            && w.fetch_pc < instrs;
        if !can {
            return None;
        }
        let count = self.width.min(instrs - w.fetch_pc);
        let Some(line) = line else {
            return Some(count);
        };
        let addr = code_address(w.fetch_pc);
        let left = (u64::from(line) - addr % u64::from(line)) / INSTR_BYTES;
        Some(count.min(left.max(1) as u32))
    }
}
