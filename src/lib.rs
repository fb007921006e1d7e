//! warpstep: a cycle-level simulator of a GPU streaming multiprocessor (SM) and its memory system.
//!
//! The model is plain Rust: no wasm-bindgen or web-sys types, no I/O, no wall clock, no threads
//! (../shared/design/STYLE.md, "What warpstep takes from them"). Two thin adapters sit on top:
//! `wasm` (compiled only for `wasm32`) for the browser app, and the `warpstep` command-line tool
//! (`src/bin/warpstep/`, compiled only for native targets).

pub mod checkpoint;
pub mod config;
pub mod core;
pub mod counter_history;
pub mod cuda;
pub mod energy;
pub mod exec;
pub mod launch;
pub mod mem;
pub mod prepare;
pub mod ptx;
pub mod research;
pub mod run;
pub mod run_control;
pub mod sim;
#[cfg(test)]
mod test_launches;
pub mod view;

// The projections and research drivers keep their old paths (`crate::snapshot`, ...).
pub use research::{bench, compare, correlate, experiment};
pub use view::{
    back_end_view, classroom_view, instr_view, perfetto, search_view, snapshot, trace, trace_hash,
    why,
};

#[cfg(target_arch = "wasm32")]
pub mod wasm;

/// warpstep's version, from Cargo.toml. The browser shows the copy the wasm module reports, which
/// proves the module initialised.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
