//! backoff-wasm: retry delays for every JavaScript runtime.
//!
//! [`core`] is plain Rust (tested natively); `bindings` is the numbers-only
//! wasm boundary (every export takes and returns numbers), compiled only for
//! `wasm32`.

pub mod boundary;
pub mod core;

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
