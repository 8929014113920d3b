//! A JS object deserialized into a serde struct: by serde-wasm-bindgen directly, or by
//! tsify's `Ts<T>` (`.to_rust()`, serde-wasm-bindgen or serde_json underneath), which
//! also generates the TypeScript interface. Errors reach JS as `Error`s.

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::policy::{Jitter, Options, delay as policy_delay};

/// `jitter`: a fraction, or the name of a kind.
#[derive(Deserialize)]
#[cfg_attr(any(feature = "tsify-js", feature = "tsify-json"), derive(tsify::Tsify))]
#[serde(untagged)]
pub enum JitterOption {
    Fraction(f64),
    Kind(JitterKind),
}

/// The named jitter kinds.
#[derive(Deserialize)]
#[cfg_attr(any(feature = "tsify-js", feature = "tsify-json"), derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum JitterKind {
    Full,
    Equal,
    Decorrelated,
}

fn infinity() -> f64 {
    f64::INFINITY
}
fn two() -> f64 {
    2.0
}
fn ten() -> u32 {
    10
}
fn no_jitter() -> JitterOption {
    JitterOption::Fraction(0.0)
}

/// The options object, unknown keys rejected, defaults for all but `base`.
#[derive(Deserialize)]
#[cfg_attr(any(feature = "tsify-js", feature = "tsify-json"), derive(tsify::Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BackoffOptions {
    pub base: f64,
    #[serde(default = "infinity")]
    pub max: f64,
    #[serde(default = "two")]
    pub factor: f64,
    #[serde(default = "no_jitter")]
    pub jitter: JitterOption,
    #[serde(default)]
    pub seed: u32,
    #[serde(default = "ten")]
    pub max_attempts: u32,
}

fn run(o: BackoffOptions, attempt: u32) -> Result<f64, JsError> {
    let jitter = match o.jitter {
        JitterOption::Fraction(f) => Jitter::Fraction(f),
        JitterOption::Kind(JitterKind::Full) => Jitter::Full,
        JitterOption::Kind(JitterKind::Equal) => Jitter::Equal,
        JitterOption::Kind(JitterKind::Decorrelated) => Jitter::Decorrelated,
    };
    let options =
        Options { base: o.base, max: o.max, factor: o.factor, jitter, seed: o.seed, max_attempts: o.max_attempts };
    policy_delay(&options, attempt).map_err(|bad| JsError::new(bad.message()))
}

/// The delay before retry `attempt`, -1 when the attempts are used up.
#[cfg(feature = "serde-wasm-bindgen")]
#[wasm_bindgen]
pub fn delay(options: JsValue, attempt: u32) -> Result<f64, JsError> {
    run(serde_wasm_bindgen::from_value(options)?, attempt)
}

/// The delay before retry `attempt`, -1 when the attempts are used up.
#[cfg(any(feature = "tsify-js", feature = "tsify-json"))]
#[wasm_bindgen]
pub fn delay(options: tsify::Ts<BackoffOptions>, attempt: u32) -> Result<f64, JsError> {
    run(options.to_rust()?, attempt)
}
