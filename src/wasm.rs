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

/// The presets as a JSON array of `{name, description}`.
#[wasm_bindgen(js_name = presetList)]
pub fn preset_list() -> String {
    let list: Vec<serde_json::Value> = crate::config::presets()
        .iter()
        .map(|p| serde_json::json!({ "name": p.name, "description": p.description }))
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// A configuration as pretty JSON: a preset name, then `key=value` overrides (the CLI's `--set`).
/// Errors are thrown as JS exceptions carrying the same message the CLI prints.
#[wasm_bindgen(js_name = configJson)]
pub fn config_json(preset: &str, sets: Vec<String>) -> Result<String, JsError> {
    let config = crate::config::Config::preset(preset)
        .and_then(|c| c.with_overrides(&sets))
        .map_err(|e| JsError::new(&e.to_string()))?;
    Ok(config.to_json_pretty())
}
