//! Tests that run inside headless Chromium through wasm-bindgen-test-runner
//! (`cargo test --target wasm32-unknown-unknown --test web`; `make test` sets CHROMEDRIVER).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn version_crosses_the_boundary() {
    assert_eq!(warpstep::wasm::version(), env!("CARGO_PKG_VERSION"));
    assert!(!warpstep::wasm::version().is_empty());
}
