//! The browser adapter: a thin wasm-bindgen layer over the model. Compiled only for `wasm32`.
//! It converts between JS values and the model's plain Rust types and holds no hardware logic.

use wasm_bindgen::prelude::*;

/// Runs once when the module is instantiated: route Rust panics to the browser console with a
/// readable message instead of an opaque `unreachable` trap.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// warpstep's version as compiled into this wasm module.
#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_string()
}
