//! The writeback stage (book section 3.3; MODEL.md sections 5 and 8): finished results take the
//! `regfile.writeback_width` writeback ports in the priority order of Elastic Fig. 6's
//! multiplexer: data returned from the interconnect (global, local and constant accesses), then
//! the last memory stage (shared accesses), then non-memory results oldest first (the oldest
//! NONMEM entry before the EXE bypass). A result with destination registers also needs each
//! destination's register bank free this cycle (the SM's [`RegisterBanks`], where writes claim
//! their banks before the operand reads); one that finds no port or a busy bank waits
//! (`writeback_conflict`). The non-memory results left waiting are reported
//! ([`Writeback::waiting`]) so the SM can stop a rigid NONMEM path ([`super::pipeline_mode`]).

use super::decode::Decoded;
use super::in_flight::InFlightTable;
use super::ldst_unit::LdstUnit;
use super::register_banks::RegisterBanks;
use super::stall::WarpCycle;
use super::units::Pipeline;
use super::warp_slot::WarpSlot;
use crate::ptx::Pc;

/// Where a result comes from, in writeback priority order.
const FROM_INTERCONNECT: u8 = 0;
const FROM_MEM_STAGES: u8 = 1;
const FROM_ALU: u8 = 2;

/// The writeback stage of one SM.
#[derive(Debug, Clone, Default)]
pub struct Writeback {
    /// Results written per cycle (`regfile.writeback_width`).
    width: u32,
    /// Reused each cycle: results ready (priority, ready cycle, tag).
    ready: Vec<(u8, u64, u64)>,
    /// Reused each cycle: the tags that wrote back.
    done: Vec<u64>,
    /// Non-memory results finished and left waiting this cycle, oldest first.
    waiting: Vec<u64>,
    /// The instructions that wrote back this cycle, as (warp slot, PC), in order.
    committed: Vec<(u32, Pc)>,
    /// A shared access (the last memory stage) took a port this cycle.
    shared_won: bool,
    /// A shared access in the last memory stage found no port (or a busy register bank).
    shared_lost: bool,
}

impl Writeback {
    pub fn new(width: u32) -> Writeback {
        Writeback {
            width,
            ..Writeback::default()
        }
    }

    /// One cycle: chooses the results that write back now and writes their registers; returns
    /// their tags, in the order they were chosen. A result that must wait marks its warp
    /// `writeback_conflict` (unless the warp issued this cycle).
    pub fn cycle(
        &mut self,
        now: u64,
        decoded: &[Decoded],
        in_flight: &InFlightTable,
        sources: (&LdstUnit, &[Pipeline]),
        banks: &mut RegisterBanks,
        warps: &mut [Option<WarpSlot>],
    ) -> &[u64] {
        let (ldst, pipelines) = sources;
        self.ready.clear();
        self.done.clear();
        self.waiting.clear();
        self.committed.clear();
        self.shared_won = false;
        self.shared_lost = false;
        for tag in ldst.ready(now) {
            let shared = in_flight
                .get(tag)
                .is_some_and(|f| f.memory == Some(super::held_accesses::MemPath::Shared));
            let from = if shared {
                FROM_MEM_STAGES
            } else {
                FROM_INTERCONNECT
            };
            self.ready.push((from, 0, tag));
        }
        for p in pipelines {
            self.ready
                .extend(p.ready(now).map(|i| (FROM_ALU, i.ready_at, i.tag)));
        }
        self.ready.sort_unstable();
        let mut ports = self.width;
        for &(from, _, tag) in &self.ready {
            let Some(f) = in_flight.get(tag) else {
                continue;
            };
            let d = &decoded[f.pc as usize];
            let dests = d.mrf_dests.as_slice();
            if !d.dests.as_slice().is_empty() {
                let banks_free = dests.iter().all(|&r| banks.can_write(f.warp, r));
                if ports == 0 || !banks_free {
                    if let Some(w) = warps[f.warp as usize].as_mut() {
                        if w.state != WarpCycle::Issued {
                            w.state = WarpCycle::WritebackConflict;
                        }
                    }
                    match from {
                        FROM_ALU => self.waiting.push(tag),
                        FROM_MEM_STAGES => self.shared_lost = true,
                        _ => {}
                    }
                    continue;
                }
                self.shared_won |= from == FROM_MEM_STAGES;
                ports -= 1;
                for &r in dests {
                    // Two destinations in one bank: the second write shares the cycle.
                    let _ = banks.write(f.warp, r);
                }
                banks.count_result_writes(u64::from(d.bank_writes));
                banks.count_hierarchy_writes(d.orf_writes.into(), d.lrf_writes.into());
            }
            self.done.push(tag);
            self.committed.push((f.warp, f.pc));
        }
        &self.done
    }

    /// The tags that wrote back this cycle.
    pub fn done(&self) -> &[u64] {
        &self.done
    }

    /// A cycle in which the SM did not run: nothing wrote back.
    pub fn idle(&mut self) {
        self.done.clear();
        self.waiting.clear();
        self.committed.clear();
        self.shared_won = false;
        self.shared_lost = false;
    }

    /// The instructions that wrote back this cycle, as (warp slot, PC), in the order chosen
    /// (the trace's `writeback` events; out of order across warps in the elastic pipeline).
    pub fn committed(&self) -> &[(u32, Pc)] {
        &self.committed
    }

    /// The non-memory results that finished and could not write back this cycle, oldest first
    /// (the elastic pipeline's NONMEM FIFO holds them; a rigid NONMEM path stops behind them).
    pub fn waiting(&self) -> &[u64] {
        &self.waiting
    }

    /// Whether a shared access from the last memory stage took a writeback port this cycle
    /// (a non-memory result that lost to it lost to a bank conflict's delay, Fig. 4(b)).
    pub fn shared_won(&self) -> bool {
        self.shared_won
    }

    /// Whether a shared access in the last memory stage lost writeback this cycle (to data
    /// from the interconnect, or to a busy register bank): the memory stages behind it wait.
    pub fn shared_lost(&self) -> bool {
        self.shared_lost
    }
}
