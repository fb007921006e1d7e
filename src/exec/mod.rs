//! The functional model (MODEL.md section 2): PTX executed per lane at issue, memory spaces and
//! faults. The timing model calls [`execute::execute`] when it issues an instruction;
//! [`functional::run_functional`] runs a grid without timing.
//!
//! - [`alu`]: [`eval`], one lane of one lane-wise instruction, and [`atomic`], the memory
//!   update of `atom`/`red`; [`int`], [`float`], [`convert`] and [`ieee`] (IEEE 754 arithmetic
//!   in all four rounding directions, computed exactly with integers, bit-identical on x86_64
//!   and wasm32) behind it;
//! - [`execute`]: one warp instruction (operands, memory, warp-level exchange, control flow);
//! - [`reconvergence`]: how a warp's lanes diverge and reconverge ([`Reconvergence`]: the SIMT
//!   stack of [`simt_stack`], or the convergence barriers of independent thread scheduling,
//!   [`independent_threads`] over the Fig. 3.6 fields of [`convergence_state`]);
//!   [`cta_barrier`]: the CTA barriers of `bar.sync`;
//! - [`global_memory`], [`space`]: the address spaces; [`warp`], [`cta`]: thread state;
//! - [`image`]: a launch made concrete; [`functional`]: the grid runner; [`fault`]: errors.

pub mod alu;
pub mod convergence_state;
pub mod convert;
pub mod cta;
pub mod cta_barrier;
pub mod execute;
pub mod fault;
pub mod float;
pub mod functional;
pub mod global_memory;
pub mod ieee;
pub mod image;
pub mod independent_threads;
pub mod int;
pub mod lane_io;
mod lane_kernels;
pub mod lanes;
mod memory_lanes;
mod memory_ops;
pub mod reconvergence;
pub mod simt_stack;
pub mod space;
pub mod warp;
pub mod warp_ops;

pub use alu::{atomic, eval, LaneOut};
pub use fault::{Fault, FaultKind, RunError};
pub use global_memory::{AccessFault, GlobalMemory};
pub use image::{BufferArg, KernelImage};
pub use reconvergence::{BranchOutcome, LaneMask, Reconvergence, WarpSyncOutcome, EXIT_PC};
pub use simt_stack::{SimtEntry, SimtStack};
