//! `Retry-After` for `backoff-wasm/retry` (js/retry.ts): the field value is parsed
//! by `core::http_date` (RFC 9110 §10.2.3, HTTP-dates through the `httpdate` crate).

use wasm_bindgen::prelude::*;

use crate::core::http_date;

/// The wait in ms a `Retry-After` field value asks for at `now` (ms since the
/// epoch): delay-seconds × 1000, or an HTTP-date minus `now` (0 when past);
/// `undefined` for anything else (never `NaN`). Never throws.
#[wasm_bindgen(js_name = retryAfterValueMs)]
pub fn retry_after_value_ms(value: &str, now: f64) -> Option<f64> {
    http_date::retry_after_ms(value, now)
}
