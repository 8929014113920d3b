//! The wasm-bindgen layer: converts JavaScript values, validates them once with
//! `core::check`, and throws errors that name the option and the value received.
//! Per-call exports take and return plain numbers.
//!
//! Nothing here may panic on any input: every conversion is checked and every
//! index is bounded (a trap would poison the module for later calls).

use std::cell::{Cell, RefCell};

use js_sys::{Array, Function, JsString, Object, Reflect};
use wasm_bindgen::prelude::*;

use crate::core::{
    SIGIL_BASE_DELAY_MS, SIGIL_MAX_ATTEMPTS, SIGIL_MAX_DELAY_MS, check,
    curve::{Curve, Growth, Jitter, counted, step_index},
    duration,
    rng::{Draw, Sfc32, int_between, scale},
};

// ------------------------------------------------------------------ errors

#[derive(Clone, Copy)]
enum Kind {
    Range,
    Type,
    Sigil,
}

thread_local! {
    static SIGIL_ERROR: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Registers the JS `SigilError` class so that Sigil validation throws it.
/// Called once by the JS wrapper when the module loads.
#[wasm_bindgen(js_name = registerSigilError)]
pub fn register_sigil_error(ctor: Function) {
    SIGIL_ERROR.with(|c| *c.borrow_mut() = Some(ctor));
}

/// A short, exact description of a received value for error messages:
/// strings quoted (JSON), numbers as JavaScript prints them, otherwise the kind.
fn describe(v: &JsValue) -> String {
    if v.is_string() {
        return js_sys::JSON::stringify(v).map(String::from).unwrap_or_default();
    }
    if let Some(n) = v.as_f64() {
        return js_sys::Number::from(n).to_string_with_radix(10).map(String::from).unwrap_or_default();
    }
    if let Some(b) = v.as_bool() {
        return if b { "true".into() } else { "false".into() };
    }
    let kind = if v.is_undefined() {
        "undefined"
    } else if v.is_null() {
        "null"
    } else if v.is_function() {
        "a function"
    } else if v.is_symbol() {
        "a symbol"
    } else if v.is_bigint() {
        "a bigint"
    } else if Array::is_array(v) {
        "an array"
    } else {
        "an object"
    };
    kind.into()
}

fn error(kind: Kind, option: &str, expected: &str, received: &JsValue) -> JsValue {
    let msg = [option, " must be ", expected, "; received ", &describe(received)].concat();
    match kind {
        Kind::Range => js_sys::RangeError::new(&msg).into(),
        Kind::Type => js_sys::TypeError::new(&msg).into(),
        Kind::Sigil => SIGIL_ERROR.with(|c| match c.borrow().as_ref() {
            Some(ctor) => Reflect::construct(ctor, &Array::of1(&JsValue::from_str(&msg))).unwrap_or_else(|e| e),
            None => js_sys::Error::new(&msg).into(),
        }),
    }
}

/// Builds the error this package throws for a bad option, for checks made in
/// the JS wrappers: `kind` 0 = RangeError, 1 = TypeError, 2 = SigilError.
#[wasm_bindgen(js_name = invalidOption)]
pub fn invalid_option(kind: u32, option: &str, expected: &str, received: &JsValue) -> JsValue {
    let kind = match kind {
        0 => Kind::Range,
        1 => Kind::Type,
        _ => Kind::Sigil,
    };
    error(kind, option, expected, received)
}

/// A number, checked by `check`; a non-number is a TypeError (SigilError for Sigil).
fn number(v: &JsValue, option: &str, kind: Kind, f: fn(f64) -> Result<f64, check::Expected>) -> Result<f64, JsValue> {
    let Some(x) = v.as_f64() else {
        let expected = f(f64::NAN).err().unwrap_or("a number");
        let k = if matches!(kind, Kind::Sigil) { Kind::Sigil } else { Kind::Type };
        return Err(error(k, option, expected, v));
    };
    f(x).map_err(|e| error(kind, option, e, v))
}

/// Option names read by `get`: their JS strings are made once and reused, since
/// turning a Rust `&str` into a JS string (a UTF-8 decode in the glue) costs
/// more than the whole property read.
const KEY_NAMES: [&str; 13] = [
    "base", "growth", "factor", "max", "steps", "free", "jitter", "random", "maxAttempts", "baseDelayMs",
    "maxDelayMs", "float", "next",
];

thread_local! {
    static KEYS: std::cell::OnceCell<Vec<JsValue>> = const { std::cell::OnceCell::new() };
}

fn get(obj: &JsValue, key: &str) -> Result<JsValue, JsValue> {
    KEYS.with(|keys| {
        let keys = keys.get_or_init(|| KEY_NAMES.iter().map(|k| JsValue::from_str(k)).collect());
        match KEY_NAMES.iter().position(|k| *k == key).and_then(|i| keys.get(i)) {
            Some(k) => Reflect::get(obj, k),
            None => Reflect::get(obj, &JsValue::from_str(key)),
        }
    })
}

fn is_object(v: &JsValue) -> bool {
    v.is_object() && !v.is_function()
}

/// Rejects own enumerable keys of `obj` outside `known` (typos must not pass silently).
fn known_keys(obj: &JsValue, known: &[&str], kind: Kind, what: &str) -> Result<(), JsValue> {
    let keys = Object::keys(&Object::from(obj.clone()));
    for key in keys.iter() {
        let name = key.as_string().unwrap_or_default();
        if !known.contains(&name.as_str()) {
            let expected = ["one of ", &known.join(", ")].concat();
            return Err(error(kind, what, &expected, &key));
        }
    }
    Ok(())
}

// ------------------------------------------------------------------ sigil

/// `[MAX_ATTEMPTS, BASE_DELAY_MS, MAX_DELAY_MS]` of `@sigil/core`.
#[wasm_bindgen(js_name = sigilConstants)]
pub fn sigil_constants() -> Vec<f64> {
    vec![f64::from(SIGIL_MAX_ATTEMPTS), SIGIL_BASE_DELAY_MS, SIGIL_MAX_DELAY_MS]
}

const SIGIL_KEYS: &[&str] = &["baseDelayMs", "maxDelayMs", "jitter", "random", "maxAttempts"];

/// Reads and validates Sigil options; `undefined` means all defaults.
fn sigil_options(options: &JsValue) -> Result<(f64, f64, f64, JsValue), JsValue> {
    if options.is_undefined() {
        return Ok((SIGIL_BASE_DELAY_MS, SIGIL_MAX_DELAY_MS, 0.0, JsValue::UNDEFINED));
    }
    if !is_object(options) {
        return Err(error(Kind::Sigil, "options", "an object or undefined", options));
    }
    known_keys(options, SIGIL_KEYS, Kind::Sigil, "an option name")?;
    let or = |v: JsValue, d: f64| if v.is_undefined() { JsValue::from_f64(d) } else { v };
    let base = number(&or(get(options, "baseDelayMs")?, SIGIL_BASE_DELAY_MS), "baseDelayMs", Kind::Sigil, check::non_negative)?;
    let max = number(&or(get(options, "maxDelayMs")?, SIGIL_MAX_DELAY_MS), "maxDelayMs", Kind::Sigil, check::non_negative)?;
    let jitter = number(&or(get(options, "jitter")?, 0.0), "jitter", Kind::Sigil, check::sigil_jitter)?;
    let random = get(options, "random")?;
    if !random.is_undefined() && !random.is_function() {
        return Err(error(Kind::Sigil, "random", "a function returning numbers in [0, 1]", &random));
    }
    Ok((base, max, jitter, random))
}

/// Sigil's `nextDelayMs(attempt, options)` (API.md section 1). `default_random`
/// is `Math.random` as looked up by the caller at call time. Throws SigilError
/// (`code: "invalid_argument"`) for a bad attempt, option or draw; an exception
/// thrown by `random` itself passes through unchanged.
#[wasm_bindgen(js_name = sigilDelay)]
pub fn sigil_delay(attempt: &JsValue, options: &JsValue, default_random: &JsValue) -> Result<f64, JsValue> {
    let attempt = number(attempt, "attempt", Kind::Sigil, check::attempt_number)?;
    let (base, max, fraction, random) = sigil_options(options)?;
    let d = Curve { growth: Growth::Exponential, base, factor: 2.0, cap: max }.at(attempt);
    let jitter = Jitter::Subtract(fraction);
    if !jitter.draws(d) {
        return Ok(d);
    }
    let random = if random.is_undefined() { default_random } else { &random };
    let f: &Function = random.unchecked_ref();
    let r = f.call0(&JsValue::UNDEFINED)?;
    let x = number(&r, "random", Kind::Sigil, check::unit_draw)?;
    Ok(jitter.finish(d, x))
}

/// Validates Sigil schedule options and returns `maxAttempts` (default 8).
#[wasm_bindgen(js_name = sigilMaxAttempts)]
pub fn sigil_max_attempts(options: &JsValue) -> Result<f64, JsValue> {
    sigil_options(options)?;
    if options.is_undefined() {
        return Ok(f64::from(SIGIL_MAX_ATTEMPTS));
    }
    let v = get(options, "maxAttempts")?;
    if v.is_undefined() {
        return Ok(f64::from(SIGIL_MAX_ATTEMPTS));
    }
    number(&v, "maxAttempts", Kind::Sigil, check::attempt_number)
}

// ------------------------------------------------------------------ random

/// `String(seed)` for a string or number seed (JavaScript's own number
/// formatting: `1e21` → `"1e+21"`, `-0` → `"0"`); TypeError otherwise.
#[wasm_bindgen(js_name = seedText)]
pub fn seed_text(seed: &JsValue) -> Result<JsString, JsValue> {
    if seed.is_string() {
        return Ok(seed.clone().unchecked_into());
    }
    if let Some(n) = seed.as_f64() {
        return js_sys::Number::from(n).to_string_with_radix(10);
    }
    Err(error(Kind::Type, "seed", "a string or a number", seed))
}

/// The state of the one seeded stream that is "loaded" in wasm. Every seeded
/// stream's state is owned by its JS object (four u32 words); the wrapper loads
/// a stream's words here before drawing and saves them back when another
/// stream takes its place (js/random.ts). So no wasm memory is allocated per
/// stream: nothing to free, nothing to leak (wasm is single-threaded).
struct Current(Cell<Sfc32>);
// SAFETY: wasm32-unknown-unknown without atomics has one thread.
unsafe impl Sync for Current {}
static CURRENT: Current = Current(Cell::new(Sfc32::from_words([0; 4])));

fn with_current<T>(f: impl FnOnce(&mut Sfc32) -> T) -> T {
    let mut g = CURRENT.0.get();
    let out = f(&mut g);
    CURRENT.0.set(g);
    out
}

/// Loads the stream for seed text (the UTF-16 code units of `String(seed)`).
#[wasm_bindgen(js_name = streamSeed)]
pub fn stream_seed(text: &JsString) {
    CURRENT.0.set(Sfc32::from_seed(text.iter()));
}

/// Loads a stream from its four state words.
#[wasm_bindgen(js_name = streamLoad)]
pub fn stream_load(a: u32, b: u32, c: u32, d: u32) {
    CURRENT.0.set(Sfc32::from_words([a, b, c, d]));
}

/// State word `i` (0..=3, taken modulo 4) of the loaded stream.
#[wasm_bindgen(js_name = streamWord)]
pub fn stream_word(i: u32) -> u32 {
    let [a, b, c, d] = CURRENT.0.get().words();
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
    with_current(|g| g.next())
}

/// One jittered delay drawn from the loaded stream (see `jitterDraws`; the
/// caller checked that a draw is due).
#[wasm_bindgen(js_name = streamJitter)]
pub fn stream_jitter(kind: u32, fraction: f64, d: f64) -> f64 {
    match Jitter::from_code(kind, fraction) {
        Some(j) => with_current(|g| j.apply(d, g)),
        None => d,
    }
}

/// Validates the state words of `restoreRandom` (four unsigned 32-bit integers).
#[wasm_bindgen(js_name = checkWords)]
pub fn check_words(words: &JsValue) -> Result<Vec<u32>, JsValue> {
    const EXPECTED: &str = "an array of four unsigned 32-bit integers";
    if !Array::is_array(words) {
        return Err(error(Kind::Type, "state.words", EXPECTED, words));
    }
    let arr: &Array = words.unchecked_ref();
    if arr.length() != 4 {
        return Err(error(Kind::Range, "state.words", EXPECTED, words));
    }
    let mut out = Vec::with_capacity(4);
    for w in arr.iter() {
        match w.as_f64() {
            Some(x) if x.trunc() == x && (0.0..=4_294_967_295.0).contains(&x) => out.push(x as u32),
            Some(_) => return Err(error(Kind::Range, "state.words[i]", "an unsigned 32-bit integer", &w)),
            None => return Err(error(Kind::Type, "state.words[i]", "an unsigned 32-bit integer", &w)),
        }
    }
    Ok(out)
}

fn safe_integer(v: &JsValue, option: &str) -> Result<f64, JsValue> {
    const EXPECTED: &str = "a safe integer";
    let Some(x) = v.as_f64() else { return Err(error(Kind::Type, option, EXPECTED, v)) };
    if x.trunc() == x && x.abs() <= check::MAX_SAFE_INTEGER { Ok(x) } else { Err(error(Kind::Range, option, EXPECTED, v)) }
}

/// Validates `int(min, max)` bounds: safe integers with `max >= min`.
#[wasm_bindgen(js_name = checkIntBounds)]
pub fn check_int_bounds(min: &JsValue, max: &JsValue) -> Result<(), JsValue> {
    let lo = safe_integer(min, "min")?;
    let hi = safe_integer(max, "max")?;
    if hi < lo {
        return Err(error(Kind::Range, "max", "an integer >= min", max));
    }
    Ok(())
}

/// `min + floor(r * (max - min + 1))` (bounds checked by `checkIntBounds`).
#[wasm_bindgen(js_name = intBetween)]
pub fn int_between_js(min: f64, max: f64, r: f64) -> f64 {
    int_between(min, max, r)
}

/// Validates `float(min, max)` bounds: finite numbers.
#[wasm_bindgen(js_name = checkFloatBounds)]
pub fn check_float_bounds(min: &JsValue, max: &JsValue) -> Result<(), JsValue> {
    fn finite(x: f64) -> Result<f64, check::Expected> {
        if x.is_finite() { Ok(x) } else { Err("a finite number") }
    }
    number(min, "min", Kind::Range, finite)?;
    number(max, "max", Kind::Range, finite)?;
    Ok(())
}

/// `min + r * (max - min)`.
#[wasm_bindgen(js_name = floatBetween)]
pub fn float_between_js(min: f64, max: f64, r: f64) -> f64 {
    scale(min, max, r)
}

// ------------------------------------------------------------------ duration

/// Milliseconds of duration text, or `NaN` when it is not a duration
/// (API.md section 4; the JS wrapper turns `NaN` into a failure result).
#[wasm_bindgen(js_name = parseDuration)]
pub fn parse_duration(text: &str) -> f64 {
    duration::parse(text).unwrap_or(f64::NAN)
}

/// A `DurationInput` option as milliseconds, validated by `f`.
fn duration_option(v: &JsValue, option: &str, f: fn(f64) -> Result<f64, check::Expected>) -> Result<f64, JsValue> {
    let ms = if let Some(text) = v.as_string() {
        duration::parse(&text).unwrap_or(f64::NAN)
    } else if let Some(x) = v.as_f64() {
        x
    } else {
        let expected = f(f64::NAN).err().unwrap_or("a duration");
        return Err(error(Kind::Type, option, expected, v));
    };
    f(ms).map_err(|e| error(Kind::Range, option, e, v))
}

/// Validates one duration option (used by the fluent API and `sleep`-like helpers).
#[wasm_bindgen(js_name = durationMs)]
pub fn duration_ms(v: &JsValue, option: &str) -> Result<f64, JsValue> {
    duration_option(v, option, check::delay_ms)
}

// ------------------------------------------------------------------ backoff

const BACKOFF_KEYS: &[&str] =
    &["base", "growth", "factor", "max", "steps", "free", "jitter", "random", "maxAttempts"];

/// Option names as the error messages say them: `createBackoff` options, or the
/// fluent policy's (`interval`, `cap`).
struct Names {
    base: &'static str,
    max: &'static str,
}

/// Validates `createBackoff` options once (API.md section 2) and returns the
/// numbers the JS `Backoff` keeps, as one array (a `Float64Array`: building a
/// JS object from wasm costs a string and a crossing per field):
/// `[growth, base, factor, cap, free, jitter, fraction, attempts, ...steps]`
/// (`growth` -1 for steps, whose ms follow; `cap` Infinity when unbounded;
/// `jitter` a `Jitter` code; `attempts` NaN when unbounded).
/// `random` is checked by the JS wrapper (`randomKind`).
///
/// Throws RangeError for a bad value, TypeError for a wrong type, an unknown
/// option, an unknown growth, or `steps` mixed with curve options.
#[wasm_bindgen(js_name = compileBackoff)]
pub fn compile_backoff(options: &JsValue, fluent: bool) -> Result<Vec<f64>, JsValue> {
    let names = if fluent { Names { base: "interval", max: "cap" } } else { Names { base: "base", max: "max" } };
    if !is_object(options) {
        return Err(error(Kind::Type, "options", "an object", options));
    }
    known_keys(options, BACKOFF_KEYS, Kind::Type, "an option name")?;
    let base_v = get(options, "base")?;
    let steps_v = get(options, "steps")?;
    let growth_v = get(options, "growth")?;
    let factor_v = get(options, "factor")?;
    let max_v = get(options, "max")?;

    // [growth, base, factor, cap, free, jitter, fraction, attempts, ...steps]
    let mut out = vec![0.0; 8];

    if !steps_v.is_undefined() {
        for (k, v) in [("base", &base_v), ("growth", &growth_v), ("factor", &factor_v), ("max", &max_v)] {
            if !v.is_undefined() {
                return Err(error(Kind::Type, k, "left out when steps are given (steps and curve options exclude each other)", v));
            }
        }
        if !Array::is_array(&steps_v) {
            return Err(error(Kind::Type, "steps", "a non-empty array of durations", &steps_v));
        }
        let arr: &Array = steps_v.unchecked_ref();
        if arr.length() == 0 {
            return Err(error(Kind::Range, "steps", "a non-empty array of durations", &steps_v));
        }
        for v in arr.iter() {
            out.push(duration_option(&v, "steps[i]", check::delay_ms)?);
        }
        out[..4].copy_from_slice(&[-1.0, 0.0, 1.0, f64::INFINITY]);
    } else {
        if base_v.is_undefined() {
            return Err(error(Kind::Type, names.base, "given (or steps instead)", &base_v));
        }
        let base = duration_option(&base_v, names.base, check::delay_ms)?;
        let growth = if growth_v.is_undefined() {
            Growth::Exponential
        } else {
            match growth_v.as_string().as_deref() {
                Some("exponential") => Growth::Exponential,
                Some("linear") => Growth::Linear,
                Some("constant") => Growth::Constant,
                _ => return Err(error(Kind::Type, "growth", "\"exponential\", \"linear\" or \"constant\"", &growth_v)),
            }
        };
        let factor = if factor_v.is_undefined() { 2.0 } else { number(&factor_v, "factor", Kind::Range, check::factor)? };
        if growth != Growth::Exponential && !factor_v.is_undefined() {
            return Err(error(Kind::Type, "factor", "left out unless growth is \"exponential\"", &factor_v));
        }
        let cap = if max_v.is_undefined() || max_v.as_f64() == Some(f64::INFINITY) {
            f64::INFINITY
        } else {
            let max = duration_option(&max_v, names.max, check::delay_ms)?;
            check::ceiling(max, base).map_err(|e| error(Kind::Range, names.max, e, &max_v))?
        };
        out[..4].copy_from_slice(&[f64::from(growth.code()), base, factor, cap]);
    }

    let free_v = get(options, "free")?;
    let free = if free_v.is_undefined() { 0.0 } else { number(&free_v, "free", Kind::Range, check::free)? };
    out[4] = free;

    let jitter_v = get(options, "jitter")?;
    let jitter = if jitter_v.is_undefined() {
        Jitter::None
    } else if let Some(x) = jitter_v.as_f64() {
        let f = check::fraction(x).map_err(|e| error(Kind::Range, "jitter", e, &jitter_v))?;
        if f == 0.0 { Jitter::None } else { Jitter::Spread(f) }
    } else {
        match jitter_v.as_string().as_deref() {
            Some("full") => Jitter::Full,
            Some("equal") => Jitter::Equal,
            _ => return Err(error(Kind::Type, "jitter", "a number in [0, 1], \"full\" or \"equal\"", &jitter_v)),
        }
    };
    out[5] = f64::from(jitter.code());
    out[6] = jitter.fraction();

    let attempts_v = get(options, "maxAttempts")?;
    out[7] = if attempts_v.is_undefined() {
        f64::NAN
    } else {
        number(&attempts_v, "maxAttempts", Kind::Range, check::attempt_number)?
    };
    Ok(out)
}

/// Classifies a `random` option: 1 = a function `() => number`, 2 = an object
/// with `float(min, max)`, 3 = an object with `next()`; TypeError otherwise.
#[wasm_bindgen(js_name = randomKind)]
pub fn random_kind(random: &JsValue) -> Result<u32, JsValue> {
    if random.is_function() {
        return Ok(1);
    }
    if is_object(random) {
        if get(random, "float")?.is_function() {
            return Ok(2);
        }
        if get(random, "next")?.is_function() {
            return Ok(3);
        }
    }
    Err(error(Kind::Type, "random", "a Random (with float(min, max) or next()) or a function returning [0, 1)", random))
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
#[wasm_bindgen(js_name = stepIndex)]
pub fn step_index_js(len: u32, free: f64, attempt: f64) -> i32 {
    let n = counted(attempt, free);
    if n == 0.0 || len == 0 { -1 } else { step_index(n, len as usize) as i32 }
}

fn jitter_of(kind: u32, fraction: f64) -> Jitter {
    Jitter::from_code(kind, fraction).unwrap_or(Jitter::None)
}

/// Whether delay `d` takes a draw under jitter `kind`/`fraction`.
#[wasm_bindgen(js_name = jitterDraws)]
pub fn jitter_draws(kind: u32, fraction: f64, d: f64) -> bool {
    jitter_of(kind, fraction).draws(d)
}

/// The `min` argument of the draw `random.float(min, max)` for delay `d`.
#[wasm_bindgen(js_name = drawMin)]
pub fn draw_min(kind: u32, fraction: f64, d: f64) -> f64 {
    jitter_of(kind, fraction).draw_range(d).0
}

/// The `max` argument of the draw `random.float(min, max)` for delay `d`.
#[wasm_bindgen(js_name = drawMax)]
pub fn draw_max(kind: u32, fraction: f64, d: f64) -> f64 {
    jitter_of(kind, fraction).draw_range(d).1
}

/// The jittered delay from `d` and a draw `x` made by a JS random source.
/// RangeError (naming `random`) when `x` is not a number inside the draw's range.
#[wasm_bindgen(js_name = jitterFinish)]
pub fn jitter_finish(kind: u32, fraction: f64, d: f64, x: &JsValue) -> Result<f64, JsValue> {
    let j = jitter_of(kind, fraction);
    match x.as_f64() {
        Some(v) if j.draw_ok(d, v) => Ok(j.finish(d, v)),
        _ => {
            let (lo, hi) = j.draw_range(d);
            let expected = ["a source whose draw lies in [", &num_text(lo), ", ", &num_text(hi), "]"].concat();
            Err(error(Kind::Range, "random", &expected, x))
        }
    }
}

/// The jittered delay from `d` and a raw draw `r` in `[0, 1]` from a bare
/// function or a `next()` source: `finish(d, float(min, max))` with
/// `float(min, max) = min + r * (max - min)`. RangeError (naming `random`) when
/// `r` is not a number in `[0, 1]`.
#[wasm_bindgen(js_name = jitterFromUnit)]
pub fn jitter_from_unit(kind: u32, fraction: f64, d: f64, r: &JsValue) -> Result<f64, JsValue> {
    let j = jitter_of(kind, fraction);
    match r.as_f64() {
        Some(x) if (0.0..=1.0).contains(&x) => {
            let (lo, hi) = j.draw_range(d);
            Ok(j.finish(d, scale(lo, hi, x)))
        }
        _ => Err(error(Kind::Range, "random", "a source of draws in [0, 1)", r)),
    }
}

/// The fast path of `jitterFromUnit` for a draw that is already a number (the
/// JS wrapper checks `typeof`): a `JsValue` argument costs ~140 ns per call
/// (externref slot, a call back into JS to read it), an `f64` ~0. Returns `NaN`
/// when `r` is not in `[0, 1]` (never a valid result: `d` is finite when a draw
/// is due); the wrapper then calls `jitterFromUnit` to throw the usual error.
#[wasm_bindgen(js_name = jitterFromUnitNumber)]
pub fn jitter_from_unit_number(kind: u32, fraction: f64, d: f64, r: f64) -> f64 {
    if !(0.0..=1.0).contains(&r) {
        return f64::NAN;
    }
    let j = jitter_of(kind, fraction);
    let (lo, hi) = j.draw_range(d);
    j.finish(d, scale(lo, hi, r))
}

fn num_text(x: f64) -> String {
    describe(&JsValue::from_f64(x))
}
