//! `backoff-wasm/backoff` and `/policy` (API.md sections 2 and 5): options
//! validated once (`compileCurve`, `compileStep` per step, `compileShared`),
//! then per-call exports on plain numbers.

use wasm_bindgen::prelude::*;

use super::{
    Checked, Failed, Kind, SEED_EXPECTED, duration_option, fail, fail_with, number, put, seed_and_random, status,
    tags::*,
};
use crate::core::{
    check,
    curve::{
        Curve, Growth, Jitter, counted, decorrelated, decorrelated_high, decorrelated_next, decorrelated_steps,
        js_round, step_index,
    },
    rng::{Draw, Keyed, SeedHash, Sfc32, scale},
};

/// `createBackoff`'s option names; the expected text of an unknown one.
pub const BACKOFF_NAMES: &str = "one of base, growth, factor, max, steps, free, jitter, random, seed, maxAttempts";

const JITTER_EXPECTED: &str = "a number in [0, 1], \"full\", \"equal\" or \"decorrelated\"";
const UNIT_DRAW_EXPECTED: &str = "a source of draws in [0, 1]";
const FLOAT_DRAW_EXPECTED: &str = "a source whose float({}, {}) stays in that range";

/// Indexes of the values a `compile*` error blames, in the order the JS
/// wrapper passes them: `[base, steps, growth, factor, max, free, jitter, seed, maxAttempts]`.
pub mod arg {
    /// `base` (`interval` for the fluent policy).
    pub const BASE: u32 = 0;
    /// `steps`.
    pub const STEPS: u32 = 1;
    /// `growth`.
    pub const GROWTH: u32 = 2;
    /// `factor`.
    pub const FACTOR: u32 = 3;
    /// `max` (`cap` for the fluent policy).
    pub const MAX: u32 = 4;
    /// `free`.
    pub const FREE: u32 = 5;
    /// `jitter`.
    pub const JITTER: u32 = 6;
    /// `seed`.
    pub const SEED: u32 = 7;
    /// `maxAttempts`.
    pub const ATTEMPTS: u32 = 8;
}

/// Option names as the error messages say them: `createBackoff` options, or the
/// fluent policy's (`interval`, `cap`).
fn names(fluent: bool) -> (&'static str, &'static str) {
    if fluent { ("interval", "cap") } else { ("base", "max") }
}

/// `steps.length` as the array reports it (a Proxy may lie): a number in
/// `[0, 2^32 - 1]`, truncated; anything else counts as 0.
fn array_length(x: f64) -> u32 {
    if (0.0..=f64::from(u32::MAX)).contains(&x) { x as u32 } else { 0 }
}

/// Validates the shape of `createBackoff` options (API.md section 2), the first
/// step: steps (excluding every curve option; an array, whose length
/// `compileSteps` then checks and whose elements `compileStep` checks) or a curve (`base` given and a duration, `growth`, `factor` only for
/// exponential, `max` >= base). Each option comes as its type tag and a number:
/// durations their ms (a string's parse result), `growth` its code (0, 1, 2 for
/// "exponential", "linear", "constant"; -1 for another string). On success
/// slots 0..4 hold `[growth, base, factor, cap]` (`growth` -1 for steps; `cap`
/// Infinity when unbounded).
/// Returns 0, or 1 with the error recorded (values as in [`arg`]).
#[wasm_bindgen(js_name = compileCurve)]
#[allow(clippy::too_many_arguments)]
pub fn compile_curve(
    fluent: bool,
    base_tag: u32,
    base: f64,
    steps_tag: u32,
    growth_tag: u32,
    growth: f64,
    factor_tag: u32,
    factor: f64,
    max_tag: u32,
    max: f64,
) -> u32 {
    let r = shape(fluent, [base_tag, steps_tag, growth_tag, factor_tag, max_tag], [base, growth, factor, max]);
    status(r.map(|v| put(&v)))
}

fn shape(fluent: bool, tags: [u32; 5], x: [f64; 4]) -> Checked<[f64; 4]> {
    let (base_name, max_name) = names(fluent);
    let [base_tag, steps_tag, growth_tag, factor_tag, max_tag] = tags;
    let [base, growth, factor, max] = x;
    if steps_tag != UNDEFINED {
        for (name, tag, a) in [
            ("base", base_tag, arg::BASE),
            ("growth", growth_tag, arg::GROWTH),
            ("factor", factor_tag, arg::FACTOR),
            ("max", max_tag, arg::MAX),
        ] {
            if tag != UNDEFINED {
                return Err(fail(
                    Kind::Type,
                    name,
                    "left out when steps are given (steps and curve options exclude each other)",
                    a,
                ));
            }
        }
        if steps_tag != ARRAY {
            return Err(fail(Kind::Type, "steps", STEPS_EXPECTED, arg::STEPS));
        }
        return Ok([-1.0, 0.0, 1.0, f64::INFINITY]);
    }
    if base_tag == UNDEFINED {
        return Err(fail(Kind::Type, base_name, "given (or steps instead)", arg::BASE));
    }
    let base = duration_option(base_tag, base, base_name, check::delay_ms, arg::BASE, -1.0)?;
    let growth = if growth_tag == UNDEFINED {
        Growth::Exponential
    } else {
        let known = if growth_tag == STRING && growth >= 0.0 { Growth::from_code(growth as u32) } else { None };
        known.ok_or_else(|| fail(Kind::Type, "growth", "\"exponential\", \"linear\" or \"constant\"", arg::GROWTH))?
    };
    let factor = if factor_tag == UNDEFINED {
        2.0
    } else {
        number(factor_tag, factor, "factor", Kind::Range, check::factor, arg::FACTOR)?
    };
    if growth != Growth::Exponential && factor_tag != UNDEFINED {
        return Err(fail(Kind::Type, "factor", "left out unless growth is \"exponential\"", arg::FACTOR));
    }
    let cap = if max_tag == UNDEFINED || (max_tag == NUMBER && max == f64::INFINITY) {
        f64::INFINITY
    } else {
        let m = duration_option(max_tag, max, max_name, check::delay_ms, arg::MAX, -1.0)?;
        check::ceiling(m, base).map_err(|e| fail(Kind::Range, max_name, e, arg::MAX))?
    };
    Ok([f64::from(growth.code()), base, factor, cap])
}

const STEPS_EXPECTED: &str = "a non-empty array of durations";

/// Checks `steps.length` (a number, else `NaN`; a Proxy may lie: anything but a
/// number in `[0, 2^32 - 1]` counts as 0): at least one step, else a RangeError
/// (values as in [`arg`]). On success slot 0 holds the count (truncated).
#[wasm_bindgen(js_name = compileSteps)]
pub fn compile_steps(length: f64) -> u32 {
    let len = array_length(length);
    if len == 0 {
        return status(Err(fail(Kind::Range, "steps", STEPS_EXPECTED, arg::STEPS)));
    }
    put(&[f64::from(len)]);
    0
}

/// Validates step `index` of `steps` (tag and number as for `compileCurve`'s
/// durations): on success slot 0 holds its ms. Returns 0, or 1 with the error
/// recorded (naming `steps[index]`; the value is value 0).
#[wasm_bindgen(js_name = compileStep)]
pub fn compile_step(tag: u32, x: f64, index: f64) -> u32 {
    status(duration_option(tag, x, "steps", check::delay_ms, 0, index).map(|ms| put(&[ms])))
}

/// The jitter codes `js/backoff.ts` maps strings to: 3 "full", 4 "equal",
/// 5 "decorrelated" (`Jitter::code`); -1 for any other string.
fn jitter_of_option(tag: u32, x: f64) -> Checked<Jitter> {
    if tag == UNDEFINED {
        return Ok(Jitter::None);
    }
    if tag == NUMBER {
        let f = check::fraction(x).map_err(|_| fail(Kind::Range, "jitter", JITTER_EXPECTED, arg::JITTER))?;
        return Ok(if f == 0.0 { Jitter::None } else { Jitter::Spread(f) });
    }
    match (tag, x) {
        (STRING, 3.0) => Ok(Jitter::Full),
        (STRING, 4.0) => Ok(Jitter::Equal),
        (STRING, 5.0) => Ok(Jitter::Decorrelated),
        _ => Err(fail(Kind::Type, "jitter", JITTER_EXPECTED, arg::JITTER)),
    }
}

/// Validates the options every shape takes, after `compileCurve` (and the
/// steps): `free`, `jitter` (decorrelated needs a curve with a finite `cap`,
/// the one `compileCurve` gave), `seed` (a string or number, never with
/// `random`; `random_tag` is the tag of `random`) and `maxAttempts`. On success
/// slots 0..5 hold `[free, jitter, fraction, attempts, keyed]` (`jitter` a
/// `Jitter` code; `attempts` NaN when unbounded; `keyed` 1 when `seed` is given:
/// the wrapper then hashes `String(seed)` with `keyPrefix`). Returns 0, or 1
/// with the error recorded (values as in [`arg`]).
#[wasm_bindgen(js_name = compileShared)]
#[allow(clippy::too_many_arguments)]
pub fn compile_shared(
    fluent: bool,
    steps: bool,
    cap: f64,
    free_tag: u32,
    free: f64,
    jitter_tag: u32,
    jitter: f64,
    seed_tag: u32,
    random_tag: u32,
    attempts_tag: u32,
    attempts: f64,
) -> u32 {
    let r = shared(
        fluent,
        steps,
        cap,
        [free_tag, jitter_tag, seed_tag, random_tag, attempts_tag],
        [free, jitter, attempts],
    );
    status(r.map(|v| put(&v)))
}

fn shared(fluent: bool, steps: bool, cap: f64, tags: [u32; 5], x: [f64; 3]) -> Checked<[f64; 5]> {
    let [free_tag, jitter_tag, seed_tag, random_tag, attempts_tag] = tags;
    let [free, jitter, attempts] = x;
    let free =
        if free_tag == UNDEFINED { 0.0 } else { number(free_tag, free, "free", Kind::Range, check::free, arg::FREE)? };
    let jitter = jitter_of_option(jitter_tag, jitter)?;
    if jitter == Jitter::Decorrelated {
        if steps {
            return Err(fail(
                Kind::Type,
                "jitter",
                "a kind other than \"decorrelated\" with steps (decorrelated needs a base and a cap)",
                arg::JITTER,
            ));
        }
        if !cap.is_finite() {
            return Err(fail(
                Kind::Range,
                names(fluent).1,
                "set for \"decorrelated\" jitter (it needs a cap)",
                arg::MAX,
            ));
        }
    }
    let keyed = seed_tag != UNDEFINED;
    if keyed {
        if random_tag != UNDEFINED {
            return Err(seed_and_random(arg::SEED));
        }
        if seed_tag != STRING && seed_tag != NUMBER {
            return Err(fail(Kind::Type, "seed", SEED_EXPECTED, arg::SEED));
        }
    }
    let attempts = if attempts_tag == UNDEFINED {
        f64::NAN
    } else {
        number(attempts_tag, attempts, "maxAttempts", Kind::Range, check::attempt_number, arg::ATTEMPTS)?
    };
    Ok([free, f64::from(jitter.code()), jitter.fraction(), attempts, f64::from(u8::from(keyed))])
}

/// Classifies a `random` option from its tag and the tags of its `float` and
/// `next` properties (the wrapper reads `next` only when `float` is not a
/// function): 1 = a function `() => number`, 2 = an object with
/// `float(min, max)`, 3 = an object with `next()`; 0 with a TypeError recorded.
#[wasm_bindgen(js_name = randomKind)]
pub fn random_kind(tag: u32, float_tag: u32, next_tag: u32) -> u32 {
    if tag == FUNCTION {
        return 1;
    }
    if super::is_object(tag) {
        if float_tag == FUNCTION {
            return 2;
        }
        if next_tag == FUNCTION {
            return 3;
        }
    }
    let _ = fail(
        Kind::Type,
        "random",
        "a Random (with float(min, max) or next()) or a function returning draws in [0, 1]",
        0,
    );
    0
}

/// The unfinished hash of `"<String(seed)> "` for keyed jitter, from the seed
/// text in the text buffer (`len` code units), as four words in slots 0..4.
#[wasm_bindgen(js_name = keyPrefix)]
pub fn key_prefix(len: u32) {
    let units = super::text(len).unwrap_or(&[]);
    let [a, b, c, d] = SeedHash::new().update_units(units).update_units(&[u16::from(b' ')]).words();
    put(&[f64::from(a), f64::from(b), f64::from(c), f64::from(d)]);
}

/// The pre-jitter delay of a curve for `attempt`, or -1 for an attempt that is
/// free (or not a number): it waits 0 and takes no draw.
#[wasm_bindgen(js_name = curveDelay)]
pub fn curve_delay(growth: u32, base: f64, factor: f64, cap: f64, free: f64, attempt: f64) -> f64 {
    let n = counted(attempt, free);
    match Growth::from_code(growth) {
        Some(growth) if n != 0.0 => Curve { growth, base, factor, cap }.at(n),
        _ => -1.0,
    }
}

/// Index into a `steps` list of length `len` for `attempt`, or -1 for a free attempt.
/// (A double, not an `i32`: an index above 2^31 - 1 must not wrap to a negative.)
#[wasm_bindgen(js_name = stepIndex)]
pub fn step_index_js(len: u32, free: f64, attempt: f64) -> f64 {
    let n = counted(attempt, free);
    if n == 0.0 || len == 0 { -1.0 } else { step_index(n, len as usize) as f64 }
}

fn jitter_of(kind: u32, fraction: f64) -> Jitter {
    Jitter::from_code(kind, fraction).unwrap_or(Jitter::None)
}

/// Whether delay `d` takes a draw under jitter `kind`/`fraction` (kind 1 is
/// Sigil's subtract-only jitter).
#[wasm_bindgen(js_name = jitterDraws)]
pub fn jitter_draws(kind: u32, fraction: f64, d: f64) -> bool {
    jitter_of(kind, fraction).draws(d)
}

/// The jittered delay for pre-jitter `d` from a raw draw `r` (a bare function's
/// or `next()`'s result, a keyed draw; `NaN` when the source returned a
/// non-number). `NaN` when `r` is not in `[0, 1]` (never a valid result), with
/// the RangeError naming `random` recorded.
#[wasm_bindgen(js_name = jitterUnit)]
pub fn jitter_unit(kind: u32, fraction: f64, d: f64, r: f64) -> f64 {
    if !(0.0..=1.0).contains(&r) {
        let _ = fail(Kind::Range, "random", UNIT_DRAW_EXPECTED, 0);
        return f64::NAN;
    }
    jitter_of(kind, fraction).apply(d, 0.0, |_, lo, hi| Ok::<f64, Failed>(scale(lo, hi, r))).unwrap_or(f64::NAN)
}

/// The `(min, max)` of the one `random.float(min, max)` draw for delay `d`, in slots 0 and 1.
#[wasm_bindgen(js_name = jitterRange)]
pub fn jitter_range(kind: u32, fraction: f64, d: f64) {
    let (lo, hi) = jitter_of(kind, fraction).draw_range(d);
    put(&[lo, hi]);
}

/// The jittered delay for `d` from the draw `x` in `jitterRange`'s range (checked by `floatDraw`).
#[wasm_bindgen(js_name = jitterFinish)]
pub fn jitter_finish(kind: u32, fraction: f64, d: f64, x: f64) -> f64 {
    jitter_of(kind, fraction).finish(d, x)
}

/// A `random.float(lo, hi)` result `x` (`NaN` when it was not a number): `x`
/// itself when it is in `[lo, hi]`, else `NaN` with the RangeError naming `random` recorded.
#[wasm_bindgen(js_name = floatDraw)]
pub fn float_draw(lo: f64, hi: f64, x: f64) -> f64 {
    if x >= lo && x <= hi {
        return x;
    }
    let _ = fail_with(Kind::Range, "random", FLOAT_DRAW_EXPECTED, 0, [lo, hi]);
    f64::NAN
}

/// A raw draw `r` scaled into `[lo, hi]` (`lo + r * (hi - lo)`), or `NaN` when
/// `r` is not in `[0, 1]`, with the RangeError naming `random` recorded.
#[wasm_bindgen(js_name = unitDraw)]
pub fn unit_draw(lo: f64, hi: f64, r: f64) -> f64 {
    if (0.0..=1.0).contains(&r) {
        return scale(lo, hi, r);
    }
    let _ = fail(Kind::Range, "random", UNIT_DRAW_EXPECTED, 0);
    f64::NAN
}

/// The keyed draw for `key` (the first draw of `"<seed> <String(key)>"`;
/// `k0..k3` from `keyPrefix`), or `NaN` when `key` is not an integer below
/// 2^54 (above it JavaScript's digits need not be the exact value, see
/// `rng::js_integer_text`): then the wrapper writes JavaScript's `String(key)` to the text buffer
/// and calls `keyedDrawText`.
#[wasm_bindgen(js_name = keyedDraw)]
pub fn keyed_draw_js(k0: u32, k1: u32, k2: u32, k3: u32, key: f64) -> f64 {
    Keyed { prefix: SeedHash::from_words([k0, k1, k2, k3]) }.draw(key).unwrap_or(f64::NAN)
}

/// The keyed draw for a key whose text (`String(key)`, `len` code units) is in the text buffer.
#[wasm_bindgen(js_name = keyedDrawText)]
pub fn keyed_draw_text(k0: u32, k1: u32, k2: u32, k3: u32, len: u32) -> f64 {
    let units = super::text(len).unwrap_or(&[]);
    Sfc32::from_words(SeedHash::from_words([k0, k1, k2, k3]).update_units(units).finish()).next()
}

/// `[min, max]` in slots 0 and 1: every jittered result for pre-jitter delay
/// `d` (decorrelated: for counted attempt `n` of a curve with `base`, `cap`) is
/// an integer in it. The ends are the jitter kind's band rounded as results are
/// (`Math.round` is monotonic).
#[wasm_bindgen(js_name = jitterBand)]
pub fn jitter_band(kind: u32, fraction: f64, d: f64, base: f64, cap: f64, n: f64) {
    let (lo, hi) = jitter_of(kind, fraction).band_of(d, base, cap, n);
    put(&[js_round(lo), js_round(hi)]);
}

/// `attempt - free` when that is >= 1, else 0 (no delay, no draw).
#[wasm_bindgen(js_name = countedAttempt)]
pub fn counted_attempt(attempt: f64, free: f64) -> f64 {
    counted(attempt, free)
}

/// Decorrelated jitter for counted attempt `n` with keyed draws (a pure
/// function of seed and `n`; the keys, steps below 2^53 + 1000, are integers).
#[wasm_bindgen(js_name = keyedDecorrelated)]
pub fn keyed_decorrelated(k0: u32, k1: u32, k2: u32, k3: u32, base: f64, cap: f64, n: f64) -> f64 {
    let keyed = Keyed { prefix: SeedHash::from_words([k0, k1, k2, k3]) };
    let r: Result<f64, Failed> =
        decorrelated(base, cap, n, |k, lo, hi| Ok(scale(lo, hi, keyed.draw(k).unwrap_or(0.0))));
    r.unwrap_or(base)
}

/// How many draws decorrelated jitter takes for counted attempt `n` (at most
/// 1000): a wrapper drawing from a JavaScript source loops this many times over
/// `random.float(base, decorrelatedHigh(sleep))`, `sleep = decorrelatedNext(x, cap)`
/// (from `sleep = base`), then returns `decorrelatedFinish(sleep)`.
#[wasm_bindgen(js_name = decorrelatedSteps)]
pub fn decorrelated_steps_js(n: f64) -> u32 {
    decorrelated_steps(n)
}

/// The upper end of the next decorrelated draw: `3 * sleep`.
#[wasm_bindgen(js_name = decorrelatedHigh)]
pub fn decorrelated_high_js(sleep: f64) -> f64 {
    decorrelated_high(sleep)
}

/// The next decorrelated sleep from the step's draw `x`: `min(x, cap)`.
#[wasm_bindgen(js_name = decorrelatedNext)]
pub fn decorrelated_next_js(x: f64, cap: f64) -> f64 {
    decorrelated_next(x, cap)
}

/// The decorrelated delay from the last sleep: `Math.round(sleep)`.
#[wasm_bindgen(js_name = decorrelatedFinish)]
pub fn decorrelated_finish(sleep: f64) -> f64 {
    js_round(sleep)
}
