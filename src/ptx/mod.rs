//! The PTX front end: parse the PTX that `nvcc -ptx` emits and lower it to an executable IR
//! with control-flow analysis (issue 3, "PTX subset" and "Analysis"; MODEL.md §2-3).
//!
//! - [`parse`] turns text into a syntax tree ([`ast::Module`]);
//! - [`load`] parses and lowers it to a [`Program`]: per kernel a dense [`Instr`] array
//!   indexed by [`Pc`], a register table, resolved labels and symbols, memory layouts, and the
//!   reconvergence point of every branch (immediate post-dominator, [`postdom`]);
//! - [`place_barriers`] places the ADD/WAIT convergence barriers of independent thread
//!   scheduling (book §3.1.2) on a loaded function ([`convergence_barriers`]).
//!
//! Anything outside the subset, and any malformed input, is a [`PtxError`] naming the line;
//! nothing in this module panics on user input, recurses on it, or allocates from sizes in it
//! without a cap. No I/O, no printing.

pub mod ast;
pub mod barrier_plan;
pub mod cfg;
pub mod convergence_barriers;
pub mod decode;
pub mod decode_arith;
pub mod decode_memory;
pub mod decode_modifiers;
pub mod decode_sync;
pub mod error;
pub mod instr;
pub mod ir;
pub mod lexer;
pub mod literal;
pub mod liveness;
pub mod load_limits;
pub mod loader;
pub mod lower_function;
pub mod module_vars;
pub mod op_modifiers;
pub mod operand_signatures;
pub mod operands;
pub mod ops;
pub mod parse_declarations;
pub mod parse_instructions;
pub mod parse_limits;
pub mod parser;
pub mod postdom;
pub mod source_lines;
pub mod token_cursor;
pub mod types;

pub use cfg::{BasicBlock, BlockId, Cfg};
pub use convergence_barriers::{place_barriers, BarrierPlan};
pub use error::PtxError;
pub use ir::{
    AddrBase, Address, Function, Guard, Instr, MemAccess, OpClass, Operand, Pc, Program, RegId,
    RegInfo, VarId, VarRef,
};
pub use loader::load;
pub use ops::Op;
pub use parser::parse;
pub use postdom::{PostDominators, Reconvergence};
pub use source_lines::SourceLines;
pub use types::{Space, SpecialReg, Type};
