//! The instructions an SM has issued and not yet written back (the back end's occupancy: the
//! operand collector, the execution units, the memory pipeline), by tag.

use super::held_accesses::MemPath;
use super::units::UnitKind;
use crate::ptx::Pc;
use serde::Serialize;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// An issued instruction on its way through the back end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct InFlight {
    pub tag: u64,
    /// Warp slot.
    pub warp: u32,
    pub pc: Pc,
    pub unit: UnitKind,
    /// The cycle it issued.
    pub issued: u64,
    /// For memory instructions: their path through the LD/ST unit (MEM0 costs the access
    /// when it takes it).
    pub memory: Option<MemPath>,
}

/// A hasher for instruction tags (consecutive integers): one multiply spreads them over the
/// table (Fibonacci hashing); the default SipHash costs more than the whole lookup.
#[derive(Debug, Clone, Copy, Default)]
struct TagHasher(u64);

impl Hasher for TagHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, tag: u64) {
        self.0 = tag.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The in-flight instructions, found by tag without scanning.
#[derive(Debug, Clone, Default)]
pub struct InFlightTable {
    list: Vec<InFlight>,
    /// Where each tag of `list` sits in it.
    pos: HashMap<u64, usize, BuildHasherDefault<TagHasher>>,
}

impl InFlightTable {
    pub fn push(&mut self, f: InFlight) {
        self.pos.insert(f.tag, self.list.len());
        self.list.push(f);
    }

    /// The instruction tagged `tag`, if still in flight.
    pub fn get(&self, tag: u64) -> Option<InFlight> {
        self.pos.get(&tag).map(|&i| self.list[i])
    }

    /// Sets the path through the LD/ST unit of instruction `tag`, whose access became known
    /// after it issued (its functional execution waited for the cycle's pass over global
    /// memory: `Sm::execute_deferred`).
    pub fn set_memory(&mut self, tag: u64, memory: Option<MemPath>) {
        // Usually the instruction just issued: the last entry, found without hashing.
        let i = match self.list.last() {
            Some(last) if last.tag == tag => self.list.len() - 1,
            _ => match self.pos.get(&tag) {
                Some(&i) => i,
                None => return,
            },
        };
        self.list[i].memory = memory;
    }

    /// Removes the instruction tagged `tag` (it wrote back).
    pub fn remove(&mut self, tag: u64) -> Option<InFlight> {
        let i = self.pos.remove(&tag)?;
        let f = self.list.swap_remove(i);
        if let Some(moved) = self.list.get(i) {
            self.pos.insert(moved.tag, i);
        }
        Some(f)
    }

    pub fn as_slice(&self) -> &[InFlight] {
        &self.list
    }

    pub fn iter(&self) -> impl Iterator<Item = &InFlight> {
        self.list.iter()
    }
}
