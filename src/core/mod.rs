//! The SIMT core (book chapter 3): the structures of one streaming multiprocessor.

pub mod barrier;
pub mod operand_collector;
pub mod simt_stack;

pub use operand_collector::{BankActivity, OperandCollector, UnitKind};
pub use simt_stack::{BranchOutcome, LaneMask, Pc, PushOrder, SimtEntry, SimtStack, EXIT_PC};
