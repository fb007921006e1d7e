//! The SIMT core (book chapter 3): the structures of one streaming multiprocessor and the SM
//! that steps them cycle by cycle.

pub mod ccws;
pub mod conflict_history;
pub mod cycle_record;
pub mod decode;
pub mod dispatch;
pub mod fetch;
pub mod held_accesses;
pub mod in_flight;
pub mod issue;
pub mod l1_port;
pub mod ldst_unit;
pub mod mem0;
pub mod mem_stages;
pub mod memory_timing;
pub mod operand_collector;
pub mod pipeline_mode;
pub mod premem;
pub mod register_banks;
pub mod register_hierarchy;
pub mod request_log;
pub mod scheduler;
pub mod scoreboard;
pub mod shared_stats;
pub mod sm;
pub mod sm_array;
pub mod sm_stats;
pub mod stall;
pub mod timeline;
pub mod unified_partition;
pub mod units;
pub mod victim_tags;
pub mod warp_slot;
pub mod writeback;

pub use operand_collector::OperandCollector;
pub use register_banks::{BankActivity, RegisterBanks};
pub use stall::WarpCycle;
pub use units::UnitKind;
