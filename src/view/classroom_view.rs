//! Read-only views for the app's classroom panels (issue 30): the kernel's buffer arguments as
//! they are now beside their contents at launch (the Output buffers panel), and one line per SM
//! for the whole-GPU strip. Plain Rust over a [`Sim`]; `src/wasm/classroom.rs` hands them to
//! JavaScript as JSON.

use crate::exec::{GlobalMemory, KernelImage};
use crate::run::values_of;
use crate::sim::Sim;
use serde::Serialize;

/// The most values of one buffer a view is given (the rest are counted in `count`).
pub const BUFFER_VALUES: usize = 4096;

/// One buffer argument: its values now and which of them differ from the launch's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BufferView {
    /// Argument index (as `--dump I` counts).
    pub arg: usize,
    /// The kernel parameter's name in the PTX.
    pub name: String,
    /// Element type (`f32`, `s32`, ...).
    pub elem: &'static str,
    /// Elements in the buffer.
    pub count: usize,
    /// The first [`BUFFER_VALUES`] elements now.
    pub values: Vec<serde_json::Value>,
    /// Indices (within `values`) whose value differs from the launch's.
    pub changed: Vec<usize>,
    /// Elements that differ in the whole buffer.
    pub changed_count: usize,
}

/// Every buffer argument of `sim`'s launch, now against `launch_global` (global memory as the
/// launch prepared it, before cycle 0).
pub fn buffers(sim: &Sim, launch_global: &GlobalMemory) -> Vec<BufferView> {
    let image: &KernelImage = sim.image();
    let params = image
        .program
        .functions
        .get(image.func_index)
        .map(|f| f.params.as_slice())
        .unwrap_or(&[]);
    image
        .buffers
        .iter()
        .map(|b| {
            let now = values_of(b, sim.global());
            let then = values_of(b, launch_global);
            let differs: Vec<usize> = now
                .iter()
                .zip(then.iter())
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .map(|(i, _)| i)
                .collect();
            BufferView {
                arg: b.index,
                name: buffer_name(params.get(b.index).map(|p| p.name.as_str()), b.field),
                elem: b.elem.name(),
                count: b.count,
                values: now.into_iter().take(BUFFER_VALUES).collect(),
                changed: differs
                    .iter()
                    .copied()
                    .filter(|&i| i < BUFFER_VALUES)
                    .collect(),
                changed_count: differs.len(),
            }
        })
        .collect()
}

/// One SM in the whole-GPU strip.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SmSummary {
    pub sm: u32,
    /// CTAs resident on the SM now.
    pub resident_ctas: u32,
    /// Warps resident now (not yet finished).
    pub resident_warps: u32,
    /// CTAs this SM ran to completion.
    pub ctas_done: u64,
    pub warp_instructions: u64,
    /// This SM's thread instructions per GPU cycle since cycle 0.
    pub ipc: f64,
    /// `busy` (CTAs resident), `idle` (none, more may come), `done` (none, and the kernel has
    /// no CTAs left to hand out).
    pub state: &'static str,
}

/// Every SM of `sim`, in SM order.
pub fn gpu_strip(sim: &Sim) -> Vec<SmSummary> {
    let stats = sim.stats();
    let image = sim.image();
    let total = u64::from(image.grid.x) * u64::from(image.grid.y) * u64::from(image.grid.z);
    let all_out = sim.ctas_dispatched() >= total;
    sim.sms()
        .iter()
        .zip(stats.per_sm.iter())
        .map(|(sm, s)| {
            let resident_ctas = sm.ctas().iter().filter(|c| c.is_some()).count() as u32;
            let resident_warps = sm.warps().iter().flatten().filter(|w| !w.finished).count() as u32;
            let state = if sm.is_busy() {
                "busy"
            } else if all_out {
                "done"
            } else {
                "idle"
            };
            SmSummary {
                sm: s.sm,
                resident_ctas,
                resident_warps,
                ctas_done: s.ctas,
                warp_instructions: s.warp_instructions,
                ipc: s.ipc,
                state,
            }
        })
        .collect()
}

/// A buffer's name: its parameter's, and for a struct's pointer field, which field.
fn buffer_name(param: Option<&str>, field: Option<usize>) -> String {
    let param = param.unwrap_or_default();
    match field {
        Some(f) => format!("{param} field {f}"),
        None => param.to_string(),
    }
}
