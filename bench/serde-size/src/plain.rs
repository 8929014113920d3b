//! Numbers across the boundary, as backoff-wasm passes options: the JS wrapper
//! (`plain.js`) reads the object, turns the jitter kind into a code and throws the
//! error a negative result names. No heap.

use wasm_bindgen::prelude::*;

use crate::policy::{Bad, Jitter, Options, delay as policy_delay};

/// A global allocator without a heap (backoff-wasm's `no-heap`): nothing here allocates.
struct NoHeap;

// SAFETY: `alloc` returns null (allocation failure), which `GlobalAlloc` allows for any
// layout; `dealloc` is never given a pointer since none is handed out.
unsafe impl std::alloc::GlobalAlloc for NoHeap {
    unsafe fn alloc(&self, _: std::alloc::Layout) -> *mut u8 {
        std::ptr::null_mut()
    }

    unsafe fn dealloc(&self, _: *mut u8, _: std::alloc::Layout) {}
}

#[global_allocator]
static NO_HEAP: NoHeap = NoHeap;

/// `v` as a u32 when it is an integer in range.
fn whole(v: f64) -> Option<u32> {
    (v >= 0.0 && v <= f64::from(u32::MAX) && v.fract() == 0.0).then_some(v as u32)
}

/// The delay, -1 when the attempts are used up, or `-2 - k` for a bad value of option `k`.
/// `kind`: 0 for a fraction `jitter`, 1..=3 for "full", "equal", "decorrelated".
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn delay(
    base: f64,
    max: f64,
    factor: f64,
    kind: u32,
    jitter: f64,
    seed: f64,
    max_attempts: f64,
    attempt: f64,
) -> f64 {
    let run = || -> Result<f64, Bad> {
        let jitter = match kind {
            0 => Jitter::Fraction(jitter),
            1 => Jitter::Full,
            2 => Jitter::Equal,
            3 => Jitter::Decorrelated,
            _ => return Err(Bad::Jitter),
        };
        let seed = whole(seed).ok_or(Bad::Seed)?;
        let max_attempts = whole(max_attempts).ok_or(Bad::MaxAttempts)?;
        let attempt = whole(attempt).ok_or(Bad::Attempt)?;
        policy_delay(&Options { base, max, factor, jitter, seed, max_attempts }, attempt)
    };
    run().unwrap_or_else(|bad| -2.0 - bad as u32 as f64)
}
