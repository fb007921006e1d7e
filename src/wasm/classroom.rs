//! The classroom panels' exports (issue 30), apart from `wasm.rs` to keep it thin: the kernel's
//! buffers now against the launch's, and the whole-GPU strip, as JSON from
//! [`crate::classroom_view`].

use super::Session;
use crate::classroom_view::{buffers, gpu_strip};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Session {
    /// Every buffer argument now (`[{arg, name, elem, count, values, changed, changed_count}]`,
    /// at most `BUFFER_VALUES` values each), `changed` against the contents at launch.
    #[wasm_bindgen(js_name = outputBuffers)]
    pub fn output_buffers(&self) -> String {
        serde_json::to_string(&buffers(&self.sim, &self.prepared.global)).unwrap_or_default()
    }

    /// Every SM at this cycle: `[{sm, resident_ctas, resident_warps, ctas_done,
    /// warp_instructions, ipc, state}]` (state `busy`, `idle` or `done`).
    #[wasm_bindgen(js_name = gpuStrip)]
    pub fn gpu_strip(&self) -> String {
        serde_json::to_string(&gpu_strip(&self.sim)).unwrap_or_default()
    }
}
