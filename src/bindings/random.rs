//! `backoff-wasm/random` (docs/API.md section 3): the draws of a seeded stream whose
//! words the wrapper hands each call (the stream area), and the checks of `createRandom`, `restoreRandom`, `int`, `float`
//! and of a policy's schedule length.

use wasm_bindgen::prelude::*;

use super::{Checked, Kind, Static, T, fail, fail_at, number, ok, spec, status, tags::*};
use crate::core::{
    check,
    rng::{Draw, Sfc32, int_between, scale},
};

use crate::boundary::{
    items_of,
    seed_of::{CREATE as SEED_OF_CREATE, STATE as SEED_OF_STATE},
};

/// Checks a seed (value 0, `x` when it is a number): for `createRandom`
/// (`which` `seed_of::CREATE`, `seed`) and `restoreRandom`
/// (`seed_of::STATE`, `state.seed`) a string or any number, whose
/// `String(seed)` is hashed, so every snapshot `state()` writes is restored; for
/// `RANDOM_STATE_SCHEMA` (`seed_of::SCHEMA`, `state.seed`) a string or a finite
/// number, as `@sdxc/random`'s schema (`string() | number()`, finite only) reads
/// a stored snapshot. 0, or 1 with a TypeError recorded.
#[wasm_bindgen(js_name = checkSeed)]
pub fn check_seed(which: u32, tag: u32, x: f64) -> u32 {
    let any_number = which <= SEED_OF_STATE;
    if tag == STRING || (tag == NUMBER && (any_number || crate::core::check::finite(x))) {
        return 0;
    }
    let option = if which == SEED_OF_CREATE { T::Seed } else { T::StateSeed };
    let _ = fail(spec(Kind::Type, option, if any_number { T::SeedExpected } else { T::FiniteSeed }, 0));
    1
}

/// Checks the `items` of `Random.pick` (`of` [`items_of::PICK`]) or
/// `Random.shuffle` ([`items_of::SHUFFLE`]):
/// an array (TypeError; value 0) whose `length` (value 1, `NaN` when it is not a
/// number) is an item count (RangeError): 1 to 2^32 - 1 for `pick` (an empty
/// list: "a non-empty array", as upstream's RangeError), 0 to
/// [`check::MAX_SHUFFLE_ITEMS`] for `shuffle`. 0, or 1 with the error recorded.
#[wasm_bindgen(js_name = checkItems)]
pub fn check_items(of: u32, tag: u32, length: f64) -> u32 {
    let pick = of == items_of::PICK;
    let r = if tag != ARRAY {
        Err(fail(spec(Kind::Type, T::Items, T::AnArray, 0)))
    } else if pick && length == 0.0 {
        Err(fail(spec(Kind::Range, T::Items, T::NonEmptyArray, 0)))
    } else {
        let (min, max) = if pick { (1.0, check::MAX_ARRAY_LENGTH) } else { (0.0, check::MAX_SHUFFLE_ITEMS) };
        if check::item_count(length, min, max) {
            Ok(())
        } else {
            Err(super::fail_with(spec(Kind::Range, T::ItemsLength, T::IntegerFromTo, 1), [min, max]))
        }
    };
    status(r)
}

/// The stream area: a seeded stream's four state words (`Sfc32` is `repr(transparent)`
/// over them). Each stream's state is owned by its JS object; a call that draws from a
/// stream reads the words the wrapper wrote here right before it and writes them back
/// after its draws (its result for the stream, which the wrapper copies into the stream's
/// own words). No wasm memory is allocated per stream: nothing to free, nothing to leak.
static STREAM: Static<Sfc32> = Static::new(Sfc32::from_words([0; 4]));

/// A draw in `[lo, hi]` of the stream in the stream area, which then holds the stream after it.
pub(crate) fn draw_float(lo: f64, hi: f64) -> f64 {
    STREAM.with(|g| g.float(lo, hi))
}

/// Writes a stream's state into the stream area (a call's result for the stream).
pub(crate) fn set_stream(g: Sfc32) {
    STREAM.with(|s| *s = g);
}

/// Writes the state of the stream for the seed text in the text buffer (`len` UTF-16
/// code units of `String(seed)`) into the stream area.
#[wasm_bindgen(js_name = streamSeed)]
pub fn stream_seed(len: u32) {
    set_stream(Sfc32::from_words(super::seed_hash(len).finish()));
}

/// Address of the stream area: four `u32` words, which the wrapper writes before a call
/// that draws from a stream and reads after it, in place (no call per word).
#[wasm_bindgen(js_name = streamState)]
pub fn stream_state() -> u32 {
    STREAM.0.get() as u32
}

/// Writes a stream's four state words into the stream area (for the wasm tests; the
/// wrapper writes them at [`stream_state`]).
pub fn stream_load(a: u32, b: u32, c: u32, d: u32) {
    set_stream(Sfc32::from_words([a, b, c, d]));
}

/// State word `i` (0..=3, taken modulo 4) in the stream area (for the wasm tests; the
/// wrapper reads them at [`stream_state`]).
pub fn stream_word(i: u32) -> u32 {
    let [a, b, c, d] = STREAM.with(|g| g.words());
    match i & 3 {
        0 => a,
        1 => b,
        2 => c,
        _ => d,
    }
}

/// The next draw in `[0, 1)` of the stream in the stream area, whose words then hold the
/// stream after the draw.
#[wasm_bindgen(js_name = streamNext)]
pub fn stream_next() -> f64 {
    STREAM.with(|g| g.next())
}

/// Checks `state.words` (value 0) of `restoreRandom` and `RANDOM_STATE_SCHEMA`
/// before its elements are read: an array (TypeError) whose `length` (value 1,
/// `NaN` when it is not a number) is 4 (RangeError naming `state.words.length`).
/// 0, or 1 with the error recorded.
#[wasm_bindgen(js_name = checkWords)]
pub fn check_words(tag: u32, length: f64) -> u32 {
    status(words(tag, length))
}

fn words(tag: u32, length: f64) -> Checked<()> {
    if tag != ARRAY {
        return Err(fail(spec(Kind::Type, T::StateWords, T::WordsExpected, 0)));
    }
    if length != 4.0 {
        return Err(fail(spec(Kind::Range, T::StateWordsLength, T::Four, 1)));
    }
    Ok(())
}

/// Checks `state.words[i]`: an unsigned 32-bit integer (RangeError for another
/// number, TypeError for a non-number). 0, or 1 with the error recorded.
#[wasm_bindgen(js_name = checkWord)]
pub fn check_word(i: u32, tag: u32, x: f64) -> u32 {
    if tag != NUMBER {
        return status(Err(fail_at(spec(Kind::Type, T::StateWords, T::UnsignedWord, 0), f64::from(i))));
    }
    if x.trunc() == x && (0.0..=4_294_967_295.0).contains(&x) {
        return 0;
    }
    status(Err(fail_at(spec(Kind::Range, T::StateWords, T::UnsignedWord, 0), f64::from(i))))
}

/// A bound of `Random.int`: a safe integer. Anything else, a non-number
/// included, is a RangeError, as `@sdxc/random`'s `Number.isSafeInteger` check throws.
fn safe_integer(tag: u32, x: f64, option: T, arg: u32) -> Checked<f64> {
    if tag == NUMBER && x.trunc() == x && x.abs() <= check::MAX_SAFE_INTEGER {
        Ok(x)
    } else {
        Err(fail(spec(Kind::Range, option, T::SafeInteger, arg)))
    }
}

/// Validates `int(min, max)` bounds (values 0 and 1): safe integers with `max >= min`.
pub fn check_int_bounds(min_tag: u32, min: f64, max_tag: u32, max: f64) -> u32 {
    let r = safe_integer(min_tag, min, T::Min, 0).and_then(|lo| {
        let hi = safe_integer(max_tag, max, T::Max, 1)?;
        if hi < lo { Err(fail(spec(Kind::Range, T::Max, T::IntegerAtLeastMin, 1))) } else { Ok(()) }
    });
    status(r)
}

/// `min + floor(r * (max - min + 1))` (bounds checked by [`check_int_bounds`]).
pub fn int_between_js(min: f64, max: f64, r: f64) -> f64 {
    int_between(min, max, r)
}

/// Validates `float(min, max)` bounds (values 0 and 1): finite numbers.
pub fn check_float_bounds(min_tag: u32, min: f64, max_tag: u32, max: f64) -> u32 {
    let r = ok(number(min_tag, min, spec(Kind::Range, T::Min, T::Finite, 0)))
        .and_then(|_| ok(number(max_tag, max, spec(Kind::Range, T::Max, T::Finite, 1))))
        .map(|_| ());
    status(r)
}

/// `min + r * (max - min)`.
pub fn float_between_js(min: f64, max: f64, r: f64) -> f64 {
    scale(min, max, r)
}

/// Validates the bounds of `int(min, max)` ([`check_int_bounds`], `int` true) or
/// `float(min, max)` ([`check_float_bounds`]). 0, or 1 with the error recorded.
#[wasm_bindgen(js_name = checkBounds)]
pub fn check_bounds(int: bool, min_tag: u32, min: f64, max_tag: u32, max: f64) -> u32 {
    if int { check_int_bounds(min_tag, min, max_tag, max) } else { check_float_bounds(min_tag, min, max_tag, max) }
}

/// `int(min, max)`'s value for the draw `r` ([`int_between_js`], `int` true) or
/// `float(min, max)`'s ([`float_between_js`]).
#[wasm_bindgen]
pub fn between(int: bool, min: f64, max: f64, r: f64) -> f64 {
    if int { int_between(min, max, r) } else { scale(min, max, r) }
}

/// Checks that a policy's `maxAttempts` (`n`, value 0) can be materialised as a
/// schedule: RangeError above a million waits (see `check::MAX_SCHEDULE_ATTEMPTS`),
/// or above a thousand when `jitter` (the policy's jitter code) is decorrelated
/// (`check::MAX_DECORRELATED_SCHEDULE_ATTEMPTS`).
#[wasm_bindgen(js_name = checkScheduleAttempts)]
pub fn check_schedule_attempts(n: f64, jitter: f64) -> u32 {
    let expected = if jitter == f64::from(crate::boundary::jitter::DECORRELATED) {
        T::DecorrelatedScheduleAttempts
    } else {
        T::ScheduleAttempts
    };
    // `check::schedule_attempts` (or the decorrelated one) through the shared reader (`n` is a number).
    status(ok(number(NUMBER, n, spec(Kind::Range, T::MaxAttempts, expected, 0))).map(|_| ()))
}
