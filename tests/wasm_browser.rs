//! wasm-bindgen tests of the exports in `src/bindings`, run in headless
//! Chromium (through ChromeDriver) by `wasm-bindgen-test-runner` (see
//! `scripts/test-wasm.sh`). The test bodies are shared with `tests/wasm_node.rs`:
//! `tests/wasm/common.rs`.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// Read by `common::runs_in_the_intended_runtime`.
const IN_BROWSER: bool = true;

#[path = "wasm/common.rs"]
mod common;
