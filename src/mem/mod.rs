//! The memory system of the SM. So far: shared-memory banks and their bank index functions
//! (MODEL.md section 7; XOR = van den Braak et al., IEEE TC 2016).
//!
//! * [`bank_hash`]: the bank index functions of XOR section 4 and their SPEC strings.
//! * [`shared_banks`]: the bank-conflict cost of one warp access and its bank grid.
//! * [`bank_search`]: the searches of XOR section 5 that configure the functions.

pub mod bank_hash;
pub mod bank_search;
pub mod shared_banks;

pub use bank_hash::{BankBitSources, BankFunction, BankHash, BankHashError, XorTerm};
pub use bank_search::{
    AccessSet, Family, Method, SearchError, SearchResult, SearchSpace, SearchStep,
};
pub use shared_banks::{BankConflict, Broadcast, LaneAccess, SharedBanks, SharedBanksError};
