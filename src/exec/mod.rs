//! Functional execution (MODEL.md §2): the per-lane semantics of every lane-wise PTX instruction.
//!
//! - [`alu`] has [`eval`], one lane of one instruction, and [`atomic`], the memory update of
//!   `atom`/`red`;
//! - [`int`] has the integer, logic, shift and bit-field instructions;
//! - [`float`] has the floating-point instructions with PTX's `.ftz`, `.sat`, `.approx` and NaN
//!   rules;
//! - [`convert`] has `cvt`;
//! - [`ieee`] has IEEE 754 arithmetic in all four rounding directions, computed exactly with
//!   integers (bit-identical on x86_64 and wasm32).
//!
//! No I/O, no allocation, no panics on any operand bits.

pub mod alu;
pub mod convert;
pub mod float;
pub mod ieee;
pub mod int;

pub use alu::{atomic, eval, LaneOut};
