//! Retry delays — exponential, linear, constant and stepped curves; a ceiling and a hard
//! cap; free attempts; full, equal, decorrelated and ± jitter drawn from a keyed seed or a
//! seeded stream — computed by the same engine as the `backoff-wasm` npm package, so a
//! native service and a JavaScript dashboard get the same number, bit for bit, for every
//! configuration, attempt and seed.
//!
//! - [`Backoff`]: a policy, built once from a [`Builder`] ([`Backoff::exponential`],
//!   [`Backoff::linear`], [`Backoff::fixed`], [`Backoff::steps`]; then
//!   [`Builder::factor`], [`Builder::max`], [`Builder::cap`], [`Builder::free`],
//!   [`Builder::jitter`], [`Builder::seed`] or [`Builder::random`],
//!   [`Builder::max_attempts`]) and validated by [`Builder::build`]; asked with
//!   [`Backoff::delay`], [`Backoff::bounds`] and [`Backoff::waits`]. All times are ms.
//! - [`Jitter`]: the jitter kinds.
//! - [`Random`]: the seeded stream of the npm package's `createRandom(seed)`.
//! - [`parse_duration`]: duration text (`"5 seconds"`) to ms.
//! - [`retry_after_ms`]: the wait a `Retry-After` field asks for, ms.
//! - [`Error`]: the bad option, as [`Builder::build`] reports it.
//!
//! ```
//! use backoff_wasm::{Backoff, Jitter, Random};
//!
//! // createBackoff({ base: 100, cap: 5000, jitter: "full", random: createRandom("s") })
//! let policy = Backoff::exponential(100.0).cap(5000.0).jitter(Jitter::Full).random(Random::new("s")).build()?;
//! for wait in policy.waits().take(10) {
//!     assert!((0.0..=5000.0).contains(&wait));
//! }
//! # Ok::<(), backoff_wasm::Error>(())
//! ```
//!
//! On native targets the crate has no dependencies; the wasm boundary of the npm
//! package (its wasm-bindgen exports) is compiled only for `wasm32`.
#![deny(missing_docs)]

mod api;

pub use api::{Backoff, Builder, Error, Jitter, Random, parse_duration, retry_after_ms};

// The engine behind the API (curves, jitter, powers, the seed hash and stream, duration
// text, option checks, HTTP dates). Not part of the API and without a stability promise:
// hidden rather than `pub(crate)` only because this repository's fuzz targets (`fuzz/`)
// and the power benchmark (`examples/pow_speed.rs`) drive the internals directly.
#[doc(hidden)]
pub mod core;

// The numbers both sides of the wasm boundary share, from which the npm package's
// `js/engine/boundary.ts` is generated. Not part of the API: hidden rather than `pub(crate)`
// only because that generator (`examples/boundary.rs`) and the wasm-bindgen tests
// (`tests/wasm/common.rs`) read it.
#[doc(hidden)]
pub mod boundary;

// The crate README's examples run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../README-crate.md")]
struct ReadmeExamples;

/// The wasm-bindgen exports. `pub` only so that the wasm-bindgen tests in
/// `tests/wasm_*.rs` can call them directly; not a Rust API.
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod bindings;

/// The shipped wasm's global allocator (feature `no-heap`, which
/// `scripts/build.sh` turns on): it has no heap, every allocation fails. No
/// export allocates (they take and return numbers), so nothing calls it; it
/// stands in for std's default, dlmalloc, whose assertion texts and source
/// paths otherwise stay in the wasm's data even when its code is dead. The
/// wasm-bindgen tests (`scripts/test-wasm.sh`)
/// allocate, and build without the feature.
#[cfg(all(target_arch = "wasm32", feature = "no-heap"))]
#[global_allocator]
static NO_HEAP: NoHeap = NoHeap;

/// See [`NO_HEAP`].
#[cfg(all(target_arch = "wasm32", feature = "no-heap"))]
struct NoHeap;

// SAFETY: `alloc` returns null (allocation failure), which `GlobalAlloc` allows
// for any layout; `dealloc` is never given a pointer since none is handed out.
#[cfg(all(target_arch = "wasm32", feature = "no-heap"))]
unsafe impl ::core::alloc::GlobalAlloc for NoHeap {
    unsafe fn alloc(&self, _: ::core::alloc::Layout) -> *mut u8 {
        ::core::ptr::null_mut()
    }

    unsafe fn dealloc(&self, _: *mut u8, _: ::core::alloc::Layout) {}
}
