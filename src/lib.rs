//! backoff-wasm: retry delays for every JavaScript runtime.
//!
//! [`core`] is plain Rust (tested natively); `bindings` is the numbers-only
//! wasm boundary (every export takes and returns numbers), compiled only for
//! `wasm32`.

pub mod core;

/// The wasm-bindgen exports. `pub` only so that the wasm-bindgen tests in
/// `tests/wasm_*.rs` can call them directly; not a Rust API.
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod bindings;
