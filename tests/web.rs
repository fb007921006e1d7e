//! Tests that run inside headless Chromium through wasm-bindgen-test-runner
//! (`cargo test --target wasm32-unknown-unknown --test web`; `make test` sets CHROMEDRIVER).
#![cfg(target_arch = "wasm32")]

use warpstep::wasm;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn version_crosses_the_boundary() {
    assert_eq!(wasm::version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn presets_are_listed_with_descriptions() {
    let list: serde_json::Value = serde_json::from_str(&wasm::preset_list()).unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "fermi",
            "tesla-c2050-s",
            "tesla-c2050-l",
            "elastic-cf11",
            "unified-micro12",
            "teaching"
        ]
    );
}

#[wasm_bindgen_test]
fn config_json_applies_overrides_and_throws_named_errors() {
    let json = wasm::config_json("teaching", vec!["shmem.banks=16".into()]).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["shmem"]["banks"], 16);
    assert_eq!(value["core"]["warp_size"], 8);

    let err = wasm::config_json("teaching", vec!["core.warp_size=33".into()]).unwrap_err();
    let message = js_sys::Error::from(JsValue::from(err)).message();
    assert_eq!(
        String::from(message),
        "core.warp_size = 33: must be a power of two in 1..=64"
    );
    assert!(wasm::config_json("nope", vec![]).is_err());
}
