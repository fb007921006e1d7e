//! The LD/ST unit's MEM0 stage (MODEL.md sections 1, 7 and 9; book section 4.1.1): the memory
//! instruction it holds (a [`Mem0`], costed by [`super::memory_timing::MemoryTiming::take`]
//! when MEM0 takes it) and, in a unified pool (Unified MICRO'12 §4.3), the bank columns its
//! shared passes and cache requests must win from the register file ([`PoolLosses`]).

use super::register_banks::{BankActivity, PoolArbiter, PoolRefusal};
use crate::mem::mrpb::Requester;
use serde::Serialize;

/// The instruction in MEM0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mem0 {
    pub tag: u64,
    /// The warp that issued it (MRPB's signatures need it).
    pub from: Requester,
    /// Cycles it still holds MEM0 (counting this one); global/local: requests left to send.
    pub cycles_left: u32,
    /// Its latency after MEM0 (global/local: after an L1D hit).
    pub latency: u32,
    /// Global/local: its staging slot.
    pub staged: Option<u32>,
    /// A shared-memory access (its bank passes are the cycles it holds MEM0).
    pub shared: bool,
    /// A shared access's conflict degree (1 when conflict-free; 0 otherwise).
    pub degree: u32,
    /// A shared access's bank-conflict passes (beyond one per sub-warp): the last this many
    /// cycles it holds MEM0 are the conflict's (a conflict-free access would have left).
    pub conflict_cycles: u32,
    /// Of its passes still to come, those during which its own later sub-warps wait at EXE
    /// ([`MemoryCost::held_subwarp_cycles`]), counted from its second pass.
    pub held_subwarp_cycles: u32,
    /// Passes done.
    pub passes_done: u32,
    /// A shared access's bank columns in a unified pool ([`MemoryCost::pool_columns`]).
    pub pool_columns: u32,
}

/// Which unified-pool access of MEM0 lost its bank column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PoolAccess {
    /// A shared-memory pass.
    Shared,
    /// A request to the cache part of the pool (the L1D, or the constant cache behind MEM0).
    Cache,
}

/// An arbitration loser (Unified MICRO'12 §4.3): a shared pass or cache request in MEM0 whose
/// bank column a register read or write had already taken this cycle (register accesses claim
/// the unified pool's banks first). The access waits a cycle and counts one arbitration
/// conflict ([`LdstUnit::arbitration_conflicts`]); [`LdstUnit::arbitration_losses`] lists the
/// cycle's losers for the views. It records what the arbiter saw and changes no timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ArbitrationLoss {
    /// The SM's tag of the instruction (the snapshot finds its PC by it).
    pub tag: u64,
    /// Its warp slot.
    pub warp: u32,
    pub kind: PoolAccess,
    /// The bank column it lost (k: bank k of every cluster; the first taken one it asked for).
    pub column: u32,
    /// What holds that column's register bank: the register read or write that won.
    pub holder: BankActivity,
}

/// MEM0's side of the unified pool's arbitration: conflicts so far, and this cycle's losers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct PoolLosses {
    /// Cycles a shared or cache access lost its unified-pool banks to register accesses
    /// (Unified §4.3's arbitration conflicts).
    pub(super) conflicts: u64,
    /// This cycle's losers (cleared each cycle, the buffer reused; MEM0 claims once a cycle,
    /// so there is at most one).
    pub(super) now: Vec<ArbitrationLoss>,
}

impl PoolLosses {
    /// MEM0's access `m` claims bank columns `columns` through `pool` (none: granted at once,
    /// the arbiter is not asked); a refusal is counted and recorded.
    pub(super) fn claim(
        &mut self,
        pool: &mut dyn PoolArbiter,
        m: &Mem0,
        kind: PoolAccess,
        columns: u32,
    ) -> bool {
        if columns == 0 {
            return true;
        }
        let Err(PoolRefusal { column, holder }) = pool.claim_memory(columns, m.from.warp) else {
            return true;
        };
        self.conflicts += 1;
        self.now.push(ArbitrationLoss {
            tag: m.tag,
            warp: m.from.warp,
            kind,
            column,
            holder,
        });
        false
    }
}
