//! wasm-bindgen tests of the exports in `src/bindings`, run in Node by
//! `wasm-bindgen-test-runner` (see `scripts/test-wasm.sh`). The test bodies are
//! shared with `tests/wasm_browser.rs`: `tests/wasm/common.rs`.
#![cfg(target_arch = "wasm32")]

/// Read by `common::runs_in_the_intended_runtime`.
const IN_BROWSER: bool = false;

#[path = "wasm/common.rs"]
mod common;
