//! The memory system (MODEL.md sections 7 and 9; book chapter 4).
//!
//! Shared memory (MODEL.md section 7; XOR = van den Braak et al., IEEE TC 2016):
//! * [`bank_hash`]: the bank index functions of XOR section 4 and their SPEC strings.
//! * [`shared_banks`]: the bank-conflict cost of one warp access and its bank grid.
//! * [`bank_search`]: the searches of XOR section 5 that configure the functions (the bitwise
//!   heuristics in `bank_search_bitwise.rs`, the result and its steps in `bank_search_steps.rs`).
//!
//! The global memory path (MODEL.md section 9), one hardware concept per module:
//! * [`request`]: the coalesced access and the fetch that travels between levels;
//! * [`coalescer`]: a warp access into segment requests (Fermi rules);
//! * [`tag_array`], [`mshr`], [`data_cache`]: the parts of a GPGPU-Sim cache (the data cache's
//!   write policies in `data_cache_write.rs`, its counters in `data_cache_stats.rs`);
//! * [`mrpb`]: the memory request prioritization buffer between MEM0 and the L1D (MODEL.md
//!   section 10);
//! * [`l1d`]: the per-SM L1 data cache as MEM0 and the interconnect see it (its counters in
//!   `l1d_stats.rs`, what the views read of it in `l1d_view.rs`);
//! * [`icnt`]: the interconnect, each way: an ideal crossbar or
//!   [`icnt_router`], GPGPU-Sim's BookSim router;
//! * [`l2`]: an L2 slice with its queues;
//! * [`dram`]: a DRAM channel with its FR-FCFS scheduler, whose queue is kept per bank
//!   (`dram_queue`);
//! * [`memory_system`]: all of them, owned by the `Sim`;
//! * [`events`]: the optional log of a request's way through them (the Perfetto trace).

pub mod bank_hash;
pub mod bank_search;
pub mod clock;
pub mod coalescer;
pub mod data_cache;
pub mod dram;
pub mod dram_address;
mod dram_queue;
pub mod events;
pub mod icnt;
pub mod icnt_router;
pub mod l1d;
pub mod l2;
pub mod memory_system;
pub mod mrpb;
#[cfg(test)]
mod mrpb_tests;
pub mod mshr;
pub mod request;
pub mod shared_banks;
pub mod tag_array;

pub use bank_hash::{BankBitSources, BankFunction, BankHash, BankHashError, XorTerm};
pub use bank_search::{
    AccessSet, Family, Method, SearchError, SearchResult, SearchSpace, SearchStep,
};
pub use coalescer::{Coalescer, LocalMap, WarpAccess};
pub use data_cache::{FailReason, Outcome};
pub use events::{AccessOutcome, FetchPoint, MemEvent, MemEventKind};
pub use l1d::{Failure, L1Outcome, L1d, L1dStats, L1dView, ReservationFails};
pub use memory_system::{MemoryStats, MemorySystem};
pub use request::{Access, AccessKind, DataSpace, Fetch, FetchKind};
pub use shared_banks::{BankConflict, Broadcast, LaneAccess, SharedBanks, SharedBanksError};
pub use tag_array::{LineState, LineView};
