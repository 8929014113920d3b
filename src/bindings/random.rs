//! `backoff-wasm/random` (API.md section 3): the seeded stream that is "loaded"
//! in wasm, and the checks of `createRandom`, `restoreRandom`, `int`, `float`
//! and of a policy's schedule length.

use wasm_bindgen::prelude::*;

use super::{Checked, Kind, SEED_EXPECTED, Static, fail, fail_at, number, status, tags::*};
use crate::core::{
    check,
    rng::{Draw, SeedHash, Sfc32, int_between, scale},
};

/// Checks a seed's type for `createRandom` (a string or a number, whose
/// `String(seed)` the wrapper then hashes): 0, or 1 with a TypeError recorded.
#[wasm_bindgen(js_name = checkSeed)]
pub fn check_seed(tag: u32) -> u32 {
    if tag == STRING || tag == NUMBER {
        return 0;
    }
    let _ = fail(Kind::Type, "seed", SEED_EXPECTED, 0);
    1
}

/// The state of the one seeded stream that is "loaded" in wasm. Every seeded
/// stream's state is owned by its JS object (four u32 words); the wrapper loads
/// a stream's words here before drawing and saves them back when another
/// stream takes its place (js/streams.ts). So no wasm memory is allocated per
/// stream: nothing to free, nothing to leak (wasm is single-threaded).
pub(crate) static CURRENT: Static<Sfc32> = Static::new(Sfc32::from_words([0; 4]));

/// Loads the stream for the seed text in the text buffer (`len` UTF-16 code
/// units of `String(seed)`).
#[wasm_bindgen(js_name = streamSeed)]
pub fn stream_seed(len: u32) {
    let units = super::text(len).unwrap_or(&[]);
    CURRENT.with(|g| *g = Sfc32::from_words(SeedHash::new().update_units(units).finish()));
}

/// Loads a stream from its four state words.
#[wasm_bindgen(js_name = streamLoad)]
pub fn stream_load(a: u32, b: u32, c: u32, d: u32) {
    CURRENT.with(|g| *g = Sfc32::from_words([a, b, c, d]));
}

/// State word `i` (0..=3, taken modulo 4) of the loaded stream.
#[wasm_bindgen(js_name = streamWord)]
pub fn stream_word(i: u32) -> u32 {
    let [a, b, c, d] = CURRENT.with(|g| g.words());
    match i & 3 {
        0 => a,
        1 => b,
        2 => c,
        _ => d,
    }
}

/// Next draw in `[0, 1)` of the loaded stream.
#[wasm_bindgen(js_name = streamNext)]
pub fn stream_next() -> f64 {
    CURRENT.with(|g| g.next())
}

const WORDS_EXPECTED: &str = "an array of four unsigned 32-bit integers";

/// Checks `state.words` of `restoreRandom` before its elements are read: its
/// tag must be an array (TypeError) and `length` (a number, else `NaN`) 4
/// (RangeError). 0, or 1 with the error recorded.
#[wasm_bindgen(js_name = checkWords)]
pub fn check_words(tag: u32, length: f64) -> u32 {
    status(words(tag, length))
}

fn words(tag: u32, length: f64) -> Checked<()> {
    if tag != ARRAY {
        return Err(fail(Kind::Type, "state.words", WORDS_EXPECTED, 0));
    }
    let len = if (0.0..=f64::from(u32::MAX)).contains(&length) { length as u32 } else { 0 };
    if len != 4 {
        return Err(fail(Kind::Range, "state.words", WORDS_EXPECTED, 0));
    }
    Ok(())
}

/// Checks `state.words[i]`: an unsigned 32-bit integer (RangeError for another
/// number, TypeError for a non-number). 0, or 1 with the error recorded.
#[wasm_bindgen(js_name = checkWord)]
pub fn check_word(i: u32, tag: u32, x: f64) -> u32 {
    const EXPECTED: &str = "an unsigned 32-bit integer";
    if tag != NUMBER {
        return status(Err(fail_at(Kind::Type, "state.words", EXPECTED, 0, f64::from(i))));
    }
    if x.trunc() == x && (0.0..=4_294_967_295.0).contains(&x) {
        return 0;
    }
    status(Err(fail_at(Kind::Range, "state.words", EXPECTED, 0, f64::from(i))))
}

/// A bound of `Random.int`: a safe integer. Anything else, a non-number
/// included, is a RangeError, as `@sdxc/random`'s `Number.isSafeInteger` check throws.
fn safe_integer(tag: u32, x: f64, option: &'static str, arg: u32) -> Checked<f64> {
    if tag == NUMBER && x.trunc() == x && x.abs() <= check::MAX_SAFE_INTEGER {
        Ok(x)
    } else {
        Err(fail(Kind::Range, option, "a safe integer", arg))
    }
}

/// Validates `int(min, max)` bounds (values 0 and 1): safe integers with `max >= min`.
#[wasm_bindgen(js_name = checkIntBounds)]
pub fn check_int_bounds(min_tag: u32, min: f64, max_tag: u32, max: f64) -> u32 {
    let r = safe_integer(min_tag, min, "min", 0).and_then(|lo| {
        let hi = safe_integer(max_tag, max, "max", 1)?;
        if hi < lo { Err(fail(Kind::Range, "max", "an integer >= min", 1)) } else { Ok(()) }
    });
    status(r)
}

/// `min + floor(r * (max - min + 1))` (bounds checked by `checkIntBounds`).
#[wasm_bindgen(js_name = intBetween)]
pub fn int_between_js(min: f64, max: f64, r: f64) -> f64 {
    int_between(min, max, r)
}

/// Validates `float(min, max)` bounds (values 0 and 1): finite numbers.
#[wasm_bindgen(js_name = checkFloatBounds)]
pub fn check_float_bounds(min_tag: u32, min: f64, max_tag: u32, max: f64) -> u32 {
    fn finite(x: f64) -> Result<f64, check::Expected> {
        if x.is_finite() { Ok(x) } else { Err("a finite number") }
    }
    let r = number(min_tag, min, "min", Kind::Range, finite, 0)
        .and_then(|_| number(max_tag, max, "max", Kind::Range, finite, 1))
        .map(|_| ());
    status(r)
}

/// `min + r * (max - min)`.
#[wasm_bindgen(js_name = floatBetween)]
pub fn float_between_js(min: f64, max: f64, r: f64) -> f64 {
    scale(min, max, r)
}

/// Checks that a policy's `maxAttempts` (`n`, value 0) can be materialised as a
/// schedule: RangeError above a million waits (see `check::MAX_SCHEDULE_ATTEMPTS`).
#[wasm_bindgen(js_name = checkScheduleAttempts)]
pub fn check_schedule_attempts(n: f64) -> u32 {
    status(check::schedule_attempts(n).map(|_| ()).map_err(|e| fail(Kind::Range, "maxAttempts", e, 0)))
}
