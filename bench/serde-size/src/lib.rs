//! One tiny export, `delay(options, attempt)`, built four ways (one Cargo feature
//! each) to measure what carrying `createBackoff`-like options through serde costs
//! in the wasm and its JS glue. The policy itself ([`policy`]) is the same code in
//! every variant; only the way the options reach it differs.

#[cfg(not(any(feature = "plain", feature = "serde-wasm-bindgen", feature = "tsify-js", feature = "tsify-json")))]
compile_error!("build with exactly one feature: plain, serde-wasm-bindgen, tsify-js or tsify-json");

pub mod policy;

#[cfg(feature = "plain")]
mod plain;

#[cfg(any(feature = "serde-wasm-bindgen", feature = "tsify-js", feature = "tsify-json"))]
mod with_serde;
