//! The LD/ST unit and, until the memory-system issue replaces it, a fixed-latency placeholder
//! memory behind it (issue 4; MODEL.md sections 1, 7, 9).
//!
//! The memory pipeline is an explicit stage, MEM0, with a latch: one memory instruction occupies
//! MEM0 for its access cost (the bank-conflict passes of a shared access, per MODEL.md section 7's
//! baseline timing: "the LD/ST unit is blocked for the access's total cost, then the access takes
//! `smem_latency`"; one cycle per 128-byte segment of a global/local access, GPGPU-Sim's Fermi
//! coalescing rule), then waits its latency in flight before writeback. The placeholder treats
//! every global/local access as an L1 hit (`l1d.latency`) and every constant/parameter load as a
//! hit in the constant cache (`constant.latency`). The elastic pipeline (MODEL.md section 8)
//! adds its PREMEM/NONMEM queues around MEM0; the real memory system replaces [`MemoryCost`].

use crate::config::Config;
use crate::core::LaneMask;
use crate::exec::execute::AccessRecord;
use crate::mem::{BankConflict, SharedBanks};
use crate::ptx::{MemAccess, Space};
use serde::Serialize;

/// What one memory instruction costs the LD/ST unit and how long its data takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MemoryCost {
    /// Cycles the instruction holds MEM0.
    pub occupancy: u32,
    /// Cycles from leaving MEM0 until its result can be written back.
    pub latency: u32,
    /// Which pipe it uses (for stall names): shared memory (MIO) or global/local (LG).
    pub shared: bool,
    /// Conflict degree of a shared access (1 when conflict-free; 0 otherwise).
    pub degree: u32,
    /// Memory requests a global/local access made (distinct segments).
    pub requests: u32,
}

impl MemoryCost {
    /// A memory instruction that accesses nothing (a fence, or every lane's guard false).
    pub const FENCE: MemoryCost = MemoryCost {
        occupancy: 1,
        latency: 1,
        shared: false,
        degree: 0,
        requests: 0,
    };
}

/// The cost model behind the LD/ST unit: the shared-memory banks, and the placeholder for the
/// global memory path.
#[derive(Debug, Clone)]
pub struct MemoryTiming {
    banks: SharedBanks,
    /// `shmem.latency` plus `shmem.hash_latency` when the hash is configurable.
    shared_latency: u32,
    global_latency: u32,
    const_latency: u32,
    scratch: BankConflict,
}

impl MemoryTiming {
    /// The timing of `config`'s memory system; `None` with a message if the bank geometry is
    /// invalid (validation normally catches it first).
    pub fn new(config: &Config) -> Result<Self, String> {
        let s = &config.shmem;
        let banks = SharedBanks::new(s.banks, s.bank_width, &s.hash, s.broadcast, s.warp_parts)
            .map_err(|e| e.to_string())?;
        let hash_latency = if s.hash.is_configurable() {
            s.hash_latency
        } else {
            0
        };
        Ok(MemoryTiming {
            banks,
            shared_latency: s.latency + hash_latency,
            global_latency: config.l1d.latency,
            const_latency: config.constant.latency,
            scratch: BankConflict::default(),
        })
    }

    /// The cost of the access an instruction made at issue.
    pub fn cost(&mut self, record: &AccessRecord) -> MemoryCost {
        let space = record.space.unwrap_or(Space::Global);
        let mask = record.mask;
        match space {
            Space::Shared => self.shared_cost(record, mask),
            Space::Const | Space::Param => MemoryCost {
                occupancy: 1,
                latency: self.const_latency,
                shared: false,
                degree: 0,
                requests: 1,
            },
            Space::Global | Space::Local | Space::Generic => {
                let requests = segments(record, mask).max(1);
                MemoryCost {
                    occupancy: requests,
                    latency: self.global_latency,
                    shared: false,
                    degree: 0,
                    requests,
                }
            }
        }
    }

    fn shared_cost(&mut self, record: &AccessRecord, mask: LaneMask) -> MemoryCost {
        if record.access == Some(MemAccess::Atomic) {
            self.banks
                .atomic_into(&record.addrs, mask, &mut self.scratch);
        } else {
            self.banks
                .access_into(&record.addrs, mask, &mut self.scratch);
        }
        MemoryCost {
            occupancy: self.scratch.cycles.max(1),
            latency: self.shared_latency,
            shared: true,
            degree: self.scratch.degree,
            requests: 0,
        }
    }

    /// The bank-conflict result of the latest shared access (its lanes, banks and passes), for
    /// the bank-grid view.
    pub fn last_shared(&self) -> &BankConflict {
        &self.scratch
    }
}

/// Distinct 128-byte segments touched by the active lanes (64 B for 2-byte, 32 B for 1-byte
/// accesses): GPGPU-Sim's Fermi coalescing rule (MODEL.md section 9), whole warp at once.
fn segments(record: &AccessRecord, mask: LaneMask) -> u32 {
    let seg: u64 = match record.bytes {
        1 => 32,
        2 => 64,
        _ => 128,
    };
    let mut seen = [u64::MAX; 64];
    let mut count = 0usize;
    for (lane, &addr) in record.addrs.iter().enumerate().take(64) {
        if mask >> lane & 1 == 0 {
            continue;
        }
        let first = addr / seg;
        let last = (addr + record.bytes.max(1) as u64 - 1) / seg;
        for s in first..=last {
            if !seen[..count].contains(&s) && count < seen.len() {
                seen[count] = s;
                count += 1;
            }
        }
    }
    count as u32
}

/// The instruction in MEM0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mem0 {
    pub tag: u64,
    /// Cycles it still holds MEM0 (counting this one).
    pub cycles_left: u32,
    /// Its latency after MEM0.
    pub latency: u32,
}

/// One LD/ST unit: MEM0 and the accesses in flight behind it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LdstUnit {
    mem0: Option<Mem0>,
    /// (tag, first cycle its result may be written back), in order.
    in_flight: Vec<(u64, u64)>,
}

impl LdstUnit {
    /// Whether MEM0 can take an instruction this cycle.
    pub fn can_accept(&self) -> bool {
        self.mem0.is_none()
    }

    /// A memory instruction enters MEM0.
    pub fn accept(&mut self, tag: u64, cost: &MemoryCost) {
        self.mem0 = Some(Mem0 {
            tag,
            cycles_left: cost.occupancy.max(1),
            latency: cost.latency,
        });
    }

    /// The execute stage of cycle `now`: MEM0 works one cycle; an instruction that finishes its
    /// passes moves on and is ready `latency` cycles later.
    pub fn cycle(&mut self, now: u64) {
        if let Some(m) = &mut self.mem0 {
            m.cycles_left -= 1;
            if m.cycles_left == 0 {
                self.in_flight.push((m.tag, now + m.latency as u64 + 1));
                self.mem0 = None;
            }
        }
    }

    /// The instruction in MEM0, if any.
    pub fn mem0(&self) -> Option<&Mem0> {
        self.mem0.as_ref()
    }

    /// Accesses whose data is ready in cycle `now`, oldest first.
    pub fn ready(&self, now: u64) -> impl Iterator<Item = u64> + '_ {
        self.in_flight
            .iter()
            .filter(move |(_, at)| *at <= now)
            .map(|(t, _)| *t)
    }

    /// Accesses in flight behind MEM0: (tag, ready cycle).
    pub fn in_flight(&self) -> &[(u64, u64)] {
        &self.in_flight
    }

    /// Removes a completed access.
    pub fn retire(&mut self, tag: u64) {
        self.in_flight.retain(|(t, _)| *t != tag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(bytes: u32, addrs: Vec<u64>) -> AccessRecord {
        AccessRecord {
            valid: true,
            space: Some(Space::Global),
            access: Some(MemAccess::Load),
            bytes,
            mask: (1u64 << addrs.len()) - 1,
            addrs,
            changed: false,
        }
    }

    #[test]
    fn coalescing_counts_segments() {
        let consecutive: Vec<u64> = (0..32).map(|i| 0x1000 + 4 * i).collect();
        assert_eq!(
            segments(&record(4, consecutive.clone()), u32::MAX as u64),
            1
        );
        let strided: Vec<u64> = (0..32).map(|i| 0x1000 + 128 * i).collect();
        assert_eq!(segments(&record(4, strided), u32::MAX as u64), 32);
        let misaligned: Vec<u64> = (0..32).map(|i| 0x1004 + 4 * i).collect();
        assert_eq!(segments(&record(4, misaligned), u32::MAX as u64), 2);
    }

    #[test]
    fn mem0_holds_for_the_occupancy_then_the_latency_runs() {
        let mut u = LdstUnit::default();
        let cost = MemoryCost {
            occupancy: 2,
            latency: 3,
            shared: true,
            degree: 2,
            requests: 0,
        };
        u.accept(9, &cost);
        u.cycle(10);
        assert!(!u.can_accept());
        u.cycle(11);
        assert!(u.can_accept());
        assert_eq!(u.in_flight(), &[(9, 15)]);
        assert_eq!(u.ready(14).count(), 0);
        assert_eq!(u.ready(15).collect::<Vec<_>>(), vec![9]);
    }
}
