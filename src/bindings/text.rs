//! Text across the boundary: one scratch buffer of UTF-16 code units that the
//! JS wrappers fill (`js/engine/abi.ts`, `text`), and the exports that read it:
//! seeds.

use wasm_bindgen::prelude::*;

use super::Static;
use crate::core::rng::SeedHash;

/// Code units the static buffer holds; longer text goes to pages grown for it.
pub use crate::boundary::TEXT_CAPACITY;

static TEXT: Static<[u16; TEXT_CAPACITY]> = Static::new([0; TEXT_CAPACITY]);

/// Pages grown for text longer than [`TEXT_CAPACITY`]: (address, code units).
static LARGE: Static<(usize, usize)> = Static::new((0, 0));

/// The address where the JS wrapper writes `len` UTF-16 code units for the next
/// call that takes text (`streamSeed`, `delay`'s key text, …), or 0 when memory
/// cannot grow to hold them. Text up to [`TEXT_CAPACITY`] units uses a static
/// buffer; longer text uses whole pages grown once and reused for every text
/// that fits them (memory grows only when a longer text than ever before comes;
/// nothing else in this module uses memory above the static data).
#[wasm_bindgen(js_name = textBuffer)]
pub fn text_buffer(len: u32) -> u32 {
    let len = len as usize;
    let at = if len <= TEXT_CAPACITY {
        (TEXT.0.get() as usize, TEXT_CAPACITY)
    } else {
        LARGE.with(|large| {
            if large.1 < len {
                *large = grow(len).unwrap_or((0, 0));
            }
            *large
        })
    };
    at.0 as u32
}

/// Grows memory by enough pages for `len` code units: (address, capacity).
fn grow(len: usize) -> Option<(usize, usize)> {
    const PAGE: usize = 65_536;
    let pages = len.checked_mul(2)?.div_ceil(PAGE);
    let old = grow_pages(pages)?;
    Some((old.checked_mul(PAGE)?, pages.checked_mul(PAGE / 2)?))
}

#[cfg(target_arch = "wasm32")]
fn grow_pages(pages: usize) -> Option<usize> {
    let old = core::arch::wasm32::memory_grow(0, pages);
    if old == usize::MAX { None } else { Some(old) }
}

#[cfg(not(target_arch = "wasm32"))]
fn grow_pages(_pages: usize) -> Option<usize> {
    None
}

/// The `len` code units the JS wrapper wrote at [`text_buffer`]'s address;
/// `None` when `len` exceeds what that address holds (memory could not grow).
pub fn text(len: u32) -> Option<&'static [u16]> {
    let len = len as usize;
    // Short text is always in the static buffer (the JS wrapper writes it there
    // without asking, `textAt`); longer text in the pages grown by `textBuffer`.
    let (at, capacity) = if len <= TEXT_CAPACITY { (TEXT.0.get() as usize, TEXT_CAPACITY) } else { LARGE.with(|l| *l) };
    if at == 0 || len > capacity {
        return None;
    }
    // SAFETY: `at` is the static buffer or pages grown for text, holding
    // `capacity >= len` code units; they are only written by the JS wrapper
    // between calls, never while this slice is alive (one thread, no JS calls).
    Some(unsafe { core::slice::from_raw_parts(at as *const u16, len) })
}

/// The seed hash of the text in the text buffer (`len` code units of
/// `String(seed)`; empty when `len` exceeds it): shared by `streamSeed` and the
/// keyed draws' prefix (`backoff::load_key`).
#[inline(never)]
pub(crate) fn seed_hash(len: u32) -> SeedHash {
    SeedHash::new().update_units(text(len).unwrap_or(&[]))
}

/// Writes `units` into the text buffer as the JS wrapper would (for the wasm
/// tests); returns their length, or `None` when they do not fit.
pub fn write_text(units: &[u16]) -> Option<u32> {
    let len = u32::try_from(units.len()).ok()?;
    let at = text_buffer(len);
    if at == 0 {
        return None;
    }
    // SAFETY: `text_buffer` made room for `len` code units at `at`.
    let dst = unsafe { core::slice::from_raw_parts_mut(at as *mut u16, units.len()) };
    dst.iter_mut().zip(units).for_each(|(d, u)| *d = *u);
    Some(len)
}
