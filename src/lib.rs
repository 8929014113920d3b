//! backoff-wasm: retry delays for every JavaScript runtime.
//!
//! [`core`] is plain Rust (tested natively); `bindings` is the thin
//! wasm-bindgen layer that validates at the boundary and is compiled only
//! for `wasm32`.

pub mod core;

#[cfg(target_arch = "wasm32")]
mod bindings;
