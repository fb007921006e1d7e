//! Projections of the model: read-only views of a `Sim` that never change it. What the browser's
//! views draw (`snapshot` with `instr_view`, `back_end_view`, `classroom_view`, `search_view`;
//! `snapshot_parts`, its parts and warp table for the views on screen), the Why? chains (`why`),
//! exports (`perfetto`, `trace`) and fingerprints (`trace_hash`). ARCHITECTURE.md draws where they stand.

pub mod back_end_view;
pub mod classroom_view;
pub mod instr_view;
pub mod memory_views;
pub mod perfetto;
pub mod search_view;
pub mod snapshot;
pub mod snapshot_parts;
pub mod trace;
pub mod trace_hash;
pub mod why;
