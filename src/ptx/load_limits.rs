//! The caps the loader checks sizes from the input against before it allocates anything
//! from them (MODEL.md §2-3). Re-exported from [`super::loader`].

/// Most bytes of static plus dynamic-base shared memory per function (real GPUs have at
/// most 228 KiB; the configuration decides what fits).
pub const MAX_SHARED_BYTES: u64 = 16 << 20;
/// Most bytes of `.local` memory per thread, and of a call-parameter area.
pub const MAX_LOCAL_BYTES: u64 = 16 << 20;
/// Most bytes of one module `.global`/`.const` variable.
pub const MAX_GLOBAL_VAR_BYTES: u64 = 1 << 30;
/// Most bytes of a parameter buffer.
pub const MAX_PARAM_BYTES: u64 = 64 << 10;
/// Most variables at module scope, or in one function body.
pub const MAX_VARS: usize = u16::MAX as usize;
/// Most registers in a whole module (all functions together).
pub const MAX_PROGRAM_REGS: usize = 1 << 20;
/// Most call-graph steps spent finding the module variables each function reaches.
pub const MAX_CALL_GRAPH_STEPS: usize = 1 << 22;
