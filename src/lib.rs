//! backoff-wasm: retry delays for every JavaScript runtime, and for Rust.
//!
//! The engine is Rust: [`core::policy::Policy`] composes every delay (free
//! attempts → curve → ceiling → cap → jitter with one draw → cap), for the npm
//! package's wasm build and for the native API below, so both give the same
//! number for every configuration, attempt and seed.
//!
//! - [`Backoff`] — a policy built once ([`Backoff::exponential`], `linear`,
//!   `fixed`, `steps`; `factor`, `max` (ceiling), `cap`, `free`, [`Jitter`]
//!   kinds, keyed `seed` or a seeded [`Random`] stream, `max_attempts`), then
//!   [`Backoff::delay`] and [`Backoff::waits`];
//! - [`Random`] — the seeded stream of `@sdxc/random`;
//! - [`parse_duration`] — duration text (`"5 seconds"`).
//!
//! ```
//! use backoff_wasm::{Backoff, Jitter, Random};
//!
//! let p = Backoff::exponential(100.0).cap(5000.0).jitter(Jitter::Full).random(Random::new("s")).build()?;
//! for wait in p.waits().take(10) {
//!     assert!((0.0..=5000.0).contains(&wait));
//! }
//! # Ok::<(), backoff_wasm::Error>(())
//! ```
//!
//! [`core`] is plain Rust (tested natively); [`boundary`] holds the numbers the
//! wasm boundary shares; `bindings` is the numbers-only wasm boundary (every
//! export takes and returns numbers), compiled only for `wasm32`.

pub mod api;
pub mod boundary;
pub mod core;

pub use api::{Backoff, Builder, Error, Jitter, Random, parse_duration};

/// The wasm-bindgen exports. `pub` only so that the wasm-bindgen tests in
/// `tests/wasm_*.rs` can call them directly; not a Rust API.
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod bindings;

/// The shipped wasm's global allocator (feature `no-heap`, which
/// `scripts/build.sh` turns on): it has no heap, every allocation fails. No
/// export allocates (they take and return numbers), so nothing calls it; it
/// stands in for std's default, dlmalloc, whose assertion texts and source
/// paths otherwise stay in the wasm's data even when its code is dead (about
/// 470 B raw / 310 B gzip). The wasm-bindgen tests (`scripts/test-wasm.sh`)
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
