//! The functional model: PTX executed per lane at issue, memory spaces and faults (MODEL.md
//! section 2). The timing model calls [`execute::execute`] when it issues an instruction;
//! [`functional::run_functional`] runs a grid without timing.

pub mod cta;
pub mod execute;
pub mod fault;
pub mod functional;
pub mod global_memory;
pub mod image;
mod memory_ops;
pub mod space;
pub mod warp;
mod warp_ops;

pub use fault::{Fault, FaultKind, RunError};
pub use global_memory::{AccessFault, GlobalMemory};
pub use image::{BufferArg, KernelImage};
