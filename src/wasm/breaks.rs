//! Which warp stopped the last run at a breakpoint (issue 30, from issue 29): the app marks the
//! breakpoint's line for that warp, not the line of the instruction it will issue next.

use super::Session;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Session {
    /// The SM of the warp whose instruction stopped the last run at a breakpoint, while the
    /// simulation stands where it stopped (-1: none, or stepped on since).
    #[wasm_bindgen(js_name = breakSm)]
    pub fn break_sm(&self) -> i32 {
        self.stopped_warp().map_or(-1, |(sm, _)| sm as i32)
    }

    /// That warp's slot on its SM (-1: none).
    #[wasm_bindgen(js_name = breakWarp)]
    pub fn break_warp_slot(&self) -> i32 {
        self.stopped_warp().map_or(-1, |(_, w)| w as i32)
    }
}

impl Session {
    fn stopped_warp(&self) -> Option<(u32, u32)> {
        self.break_warp
            .filter(|&(_, _, cycle)| cycle == self.sim.cycle())
            .map(|(sm, w, _)| (sm, w))
    }
}
