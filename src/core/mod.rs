//! The pure-Rust core: no wasm-bindgen types, tested natively with `cargo test`.
//!
//! - [`rng`]: the seed hash and sfc32 stream (docs/API.md section 3);
//! - [`curve`]: growth curves, jitter kinds, `Math.round`;
//! - [`pow`]: `factor^exponent` in double-double, the same on every runtime;
//! - [`policy`]: the compiled policy, where every delay is composed;
//! - [`duration`]: duration text (docs/API.md section 4);
//! - [`check`]: option validation shared by every surface;
//! - [`options`]: option values as Rust values, checked with the original
//!   precedence, for the wasm bindings and the native API alike;
//! - [`wording`]: every option name and expected wording of an error, by id;
//! - [`http_date`]: `Retry-After` and HTTP-date (RFC 9110), for the native API's
//!   `retry_after_ms` (the same answers as `backoff-wasm/retry`'s JavaScript reader).

pub mod check;
pub mod curve;
pub mod duration;
pub mod http_date;
pub mod options;
pub mod policy;
pub mod pow;
pub mod rng;
pub mod wording;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod props;

/// Sigil's `MAX_ATTEMPTS`: attempts in total, the first delivery included.
pub const SIGIL_MAX_ATTEMPTS: u32 = 8;
/// Sigil's `BASE_DELAY_MS`: the wait after the first failure.
pub const SIGIL_BASE_DELAY_MS: f64 = 1_000.0;
/// Sigil's `MAX_DELAY_MS`: one hour, the ceiling of any single wait.
pub const SIGIL_MAX_DELAY_MS: f64 = 3_600_000.0;
