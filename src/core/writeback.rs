//! The writeback stage (book section 3.3; MODEL.md section 5): finished results take the
//! `regfile.writeback_width` writeback ports, memory results first, then ALU results oldest
//! first. A result with destination registers also needs each destination's register bank
//! free this cycle (the operand collector's banks, shared with operand reads); one that finds
//! no port or a busy bank waits (`writeback_conflict`).

use super::decode::Decoded;
use super::in_flight::InFlightTable;
use super::ldst_unit::LdstUnit;
use super::operand_collector::OperandCollector;
use super::stall::WarpCycle;
use super::units::Pipeline;
use super::warp_slot::WarpSlot;

/// Where a result comes from, in writeback priority order.
const FROM_MEMORY: u8 = 0;
const FROM_ALU: u8 = 1;

/// The writeback stage of one SM.
#[derive(Debug, Clone, Default)]
pub struct Writeback {
    /// Results written per cycle (`regfile.writeback_width`).
    width: u32,
    /// Reused each cycle: results ready (priority, ready cycle, tag).
    ready: Vec<(u8, u64, u64)>,
    /// Reused each cycle: the tags that wrote back.
    done: Vec<u64>,
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
        collector: &mut OperandCollector,
        warps: &mut [Option<WarpSlot>],
    ) -> &[u64] {
        let (ldst, pipelines) = sources;
        self.ready.clear();
        self.done.clear();
        self.ready
            .extend(ldst.ready(now).map(|tag| (FROM_MEMORY, 0, tag)));
        for p in pipelines {
            self.ready
                .extend(p.ready(now).map(|i| (FROM_ALU, i.ready_at, i.tag)));
        }
        self.ready.sort_unstable();
        let mut ports = self.width;
        for &(_, _, tag) in &self.ready {
            let Some(f) = in_flight.get(tag) else {
                continue;
            };
            let dests = decoded[f.pc as usize].dests.as_slice();
            if !dests.is_empty() {
                let banks_free = dests.iter().all(|&r| collector.can_write(f.warp, r));
                if ports == 0 || !banks_free {
                    if let Some(w) = warps[f.warp as usize].as_mut() {
                        if w.state != WarpCycle::Issued {
                            w.state = WarpCycle::WritebackConflict;
                        }
                    }
                    continue;
                }
                ports -= 1;
                for &r in dests {
                    // Two destinations in one bank: the second write shares the cycle.
                    let _ = collector.write(f.warp, r);
                }
            }
            self.done.push(tag);
        }
        &self.done
    }

    /// The tags that wrote back this cycle.
    pub fn done(&self) -> &[u64] {
        &self.done
    }
}
