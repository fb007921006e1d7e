//! The functional model: PTX executed per lane at issue, memory spaces and faults (MODEL.md
//! section 2).

pub mod global_memory;

pub use global_memory::{AccessFault, GlobalMemory};
