//! The wasm-bindgen layer: converts JavaScript values, validates them once with
//! `core::check`, and throws errors that name the option and the value received.
//! Per-call exports take and return plain numbers.
//!
//! Nothing here may panic on any input: every conversion is checked and every
//! index is bounded (a trap would poison the module for later calls).

mod http;

use std::cell::{Cell, RefCell};

use js_sys::{Array, Function, JsString, Reflect};
use wasm_bindgen::prelude::*;

use crate::core::{
    SIGIL_BASE_DELAY_MS, SIGIL_MAX_ATTEMPTS, SIGIL_MAX_DELAY_MS, check,
    curve::{Curve, Growth, Jitter, Policy, counted, decorrelated, step_index},
    duration,
    rng::{Draw, Keyed, SeedHash, Sfc32, int_between, key_prefix, keyed_draw, scale},
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

// JavaScript operations on caller-supplied values that can throw (a revoked
// Proxy, a throwing trap or getter). They are imported with `catch`, so such an
// exception comes back as an `Err` instead of unwinding through wasm frames
// (which would skip their epilogues and leave wasm-bindgen's state behind).
#[wasm_bindgen]
extern "C" {
    /// `Array.isArray(v)`; throws for a revoked Proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn try_is_array(v: &JsValue) -> Result<bool, JsValue>;
    /// `Object.keys(v)`; throws for a Proxy whose traps throw.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn try_object_keys(v: &JsValue) -> Result<Array, JsValue>;
}

/// Whether `v` is an array (`false` for a revoked Proxy rather than an exception).
fn is_array(v: &JsValue) -> bool {
    try_is_array(v).unwrap_or(false)
}

/// `v.length` of an array, read without trusting it (a Proxy may lie or throw).
fn array_length(v: &JsValue) -> Result<u32, JsValue> {
    let len = get(v, "length")?.as_f64().unwrap_or(0.0);
    Ok(if len >= 0.0 && len <= f64::from(u32::MAX) { len as u32 } else { 0 })
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
    } else if is_array(v) {
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
/// more than the property read itself.
const KEY_NAMES: [&str; 14] = [
    "base",
    "growth",
    "factor",
    "max",
    "steps",
    "free",
    "jitter",
    "random",
    "seed",
    "maxAttempts",
    "baseDelayMs",
    "maxDelayMs",
    "float",
    "next",
];

thread_local! {
    static KEYS: std::cell::OnceCell<Vec<JsValue>> = const { std::cell::OnceCell::new() };
}

/// `name[i]` for error messages (digits written without `core::fmt`).
fn indexed(name: &str, i: u32) -> String {
    let mut buf = [0u8; 24];
    let digits = crate::core::rng::js_integer_text(f64::from(i), &mut buf).unwrap_or(b"?");
    [name, "[", core::str::from_utf8(digits).unwrap_or("?"), "]"].concat()
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
    let keys = try_object_keys(obj)?;
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

const SIGIL_KEYS: &[&str] = &["baseDelayMs", "maxDelayMs", "jitter", "random", "seed", "maxAttempts"];

/// Where jitter draws come from.
enum Source<'a> {
    /// A seeded stream living in wasm.
    Stream(&'a mut Sfc32),
    /// Keyed draws: the draw for key `n` is the first draw of `"<seed> <n>"`.
    Keyed(SeedHash),
    /// A JavaScript source: 1 = `() => number`, 2 = object with `float(min, max)`,
    /// 3 = object with `next()`.
    Js(&'a JsValue, u32),
}

impl Source<'_> {
    /// One draw in `[min, max]` for `key` (the attempt, or a decorrelated step).
    /// Draws from JavaScript are checked: a raw draw must be in `[0, 1]`, a
    /// `float(min, max)` result in `[min, max]`; RangeError naming `random` otherwise.
    fn draw(&mut self, key: f64, min: f64, max: f64) -> Result<f64, JsValue> {
        match self {
            Source::Stream(g) => Ok(g.float(min, max)),
            Source::Keyed(prefix) => Ok(scale(min, max, keyed(*prefix, key))),
            Source::Js(src, 2) => {
                let f: Function = get(src, "float")?.unchecked_into();
                let x = f.call2(src, &JsValue::from_f64(min), &JsValue::from_f64(max))?;
                match x.as_f64() {
                    Some(v) if v >= min && v <= max => Ok(v),
                    _ => {
                        let expected =
                            ["a source whose float(", &num_text(min), ", ", &num_text(max), ") stays in that range"]
                                .concat();
                        Err(error(Kind::Range, "random", &expected, &x))
                    }
                }
            }
            Source::Js(src, kind) => {
                let r = if *kind == 3 {
                    let f: Function = get(src, "next")?.unchecked_into();
                    f.call0(src)?
                } else {
                    let f: &Function = src.unchecked_ref();
                    f.call0(&JsValue::UNDEFINED)?
                };
                match r.as_f64() {
                    Some(v) if (0.0..=1.0).contains(&v) => Ok(scale(min, max, v)),
                    _ => Err(error(Kind::Range, "random", UNIT_DRAW_EXPECTED, &r)),
                }
            }
        }
    }
}

/// The keyed draw for `key`; keys that are not integers below 1e21 use
/// JavaScript's own `String(key)`.
fn keyed(prefix: SeedHash, key: f64) -> f64 {
    Keyed { prefix }.draw(key).unwrap_or_else(|| {
        let text = js_sys::Number::from(key).to_string_with_radix(10).unwrap_or_else(|_| JsString::from("NaN"));
        keyed_draw(prefix, text.iter())
    })
}

/// The unfinished hash of `"<String(seed)> "` for keyed jitter, as four words.
/// @throws TypeError when `seed` is neither a string nor a number.
pub fn key_prefix_js(seed: &JsValue) -> Result<Vec<u32>, JsValue> {
    let text = seed_text(seed)?;
    Ok(key_prefix(text.iter()).words().to_vec())
}

/// Validated Sigil options.
struct SigilOptions {
    base: f64,
    max: f64,
    jitter: f64,
    random: JsValue,
    seed: JsValue,
}

/// Reads and validates Sigil options; `undefined` means all defaults.
fn sigil_options(options: &JsValue) -> Result<SigilOptions, JsValue> {
    if options.is_undefined() {
        let none = JsValue::UNDEFINED;
        return Ok(SigilOptions {
            base: SIGIL_BASE_DELAY_MS,
            max: SIGIL_MAX_DELAY_MS,
            jitter: 0.0,
            random: none.clone(),
            seed: none,
        });
    }
    if !is_object(options) {
        return Err(error(Kind::Sigil, "options", "an object or undefined", options));
    }
    known_keys(options, SIGIL_KEYS, Kind::Sigil, "an option name")?;
    let or = |v: JsValue, d: f64| if v.is_undefined() { JsValue::from_f64(d) } else { v };
    let base = number(
        &or(get(options, "baseDelayMs")?, SIGIL_BASE_DELAY_MS),
        "baseDelayMs",
        Kind::Sigil,
        check::non_negative,
    )?;
    let max =
        number(&or(get(options, "maxDelayMs")?, SIGIL_MAX_DELAY_MS), "maxDelayMs", Kind::Sigil, check::non_negative)?;
    let jitter = number(&or(get(options, "jitter")?, 0.0), "jitter", Kind::Sigil, check::sigil_jitter)?;
    let random = get(options, "random")?;
    if !random.is_undefined() && !random.is_function() {
        return Err(error(Kind::Sigil, "random", "a function returning numbers in [0, 1]", &random));
    }
    let seed = get(options, "seed")?;
    if !seed.is_undefined() {
        if !random.is_undefined() {
            return Err(seed_and_random(&seed));
        }
        if !seed.is_string() && seed.as_f64().is_none() {
            return Err(error(Kind::Sigil, "seed", "a string or a number", &seed));
        }
    }
    Ok(SigilOptions { base, max, jitter, random, seed })
}

fn seed_and_random(seed: &JsValue) -> JsValue {
    error(
        Kind::Type,
        "seed",
        "left out when random is given: seed makes each draw a pure function of (seed, attempt), random is a stream; keep one",
        seed,
    )
}

/// Sigil's `nextDelayMs(attempt, options)` (API.md section 1). `default_random`
/// is `Math.random` as looked up by the caller at call time. Throws SigilError
/// (`code: "invalid_argument"`) for a bad attempt, option or draw; an exception
/// thrown by `random` itself passes through unchanged.
#[wasm_bindgen(js_name = sigilDelay)]
pub fn sigil_delay(attempt: &JsValue, options: &JsValue, default_random: &JsValue) -> Result<f64, JsValue> {
    let attempt = number(attempt, "attempt", Kind::Sigil, check::attempt_number)?;
    let o = sigil_options(options)?;
    sigil_delays(&o, default_random, attempt, 1).map(|d| d.first().copied().unwrap_or(0.0))
}

/// The Sigil delays for `count` retries from `first` on (validated options; the
/// count, not a float loop, bounds the work: `first + 1 == first` past 2^53), drawing in order:
/// keyed draws when `seed` is set, else one call of `random` (or `default_random`)
/// per jittered retry, each draw checked to lie in `[0, 1]`.
fn sigil_delays(o: &SigilOptions, default_random: &JsValue, first: f64, count: u32) -> Result<Vec<f64>, JsValue> {
    let policy = Policy::sigil(o.base, o.max, o.jitter);
    let prefix = if o.seed.is_undefined() { None } else { Some(key_prefix(seed_text(&o.seed)?.iter())) };
    let random: &Function = (if o.random.is_undefined() { default_random } else { &o.random }).unchecked_ref();
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count {
        let attempt = first + f64::from(i);
        let d = match prefix {
            Some(prefix) => {
                policy.delay_with(attempt, |key, lo, hi| Ok::<f64, JsValue>(scale(lo, hi, keyed(prefix, key))))
            }
            None => policy.delay_with(attempt, |_, _, _| {
                let r = random.call0(&JsValue::UNDEFINED)?;
                number(&r, "random", Kind::Sigil, check::unit_draw)
            }),
        }?;
        out.push(d);
    }
    Ok(out)
}

/// Sigil's `retrySchedule(options)`: validates the options once (`maxAttempts`
/// at most 1 000 001), then the delays of retries 1 … maxAttempts − 1, drawing in
/// order. Throws as `sigilDelay`.
#[wasm_bindgen(js_name = sigilSchedule)]
pub fn sigil_schedule(options: &JsValue, default_random: &JsValue) -> Result<Vec<f64>, JsValue> {
    let (o, n) = sigil_schedule_options(options)?;
    if n < 2.0 {
        return Ok(Vec::new());
    }
    // n <= 1 000 001 (check::schedule_attempts), so the count fits and stays small.
    sigil_delays(&o, default_random, 1.0, (n - 1.0) as u32)
}

/// Validates Sigil schedule options and returns `maxAttempts` (default 8; not
/// exported to JS, where `sigilSchedule` does this; the wasm tests call it).
pub fn sigil_max_attempts(options: &JsValue) -> Result<f64, JsValue> {
    sigil_schedule_options(options).map(|(_, n)| n)
}

/// Sigil options and `maxAttempts` (default 8, at most 1 000 001), read once.
fn sigil_schedule_options(options: &JsValue) -> Result<(SigilOptions, f64), JsValue> {
    let o = sigil_options(options)?;
    let default = f64::from(SIGIL_MAX_ATTEMPTS);
    if options.is_undefined() {
        return Ok((o, default));
    }
    let v = get(options, "maxAttempts")?;
    let n = if v.is_undefined() { default } else { number(&v, "maxAttempts", Kind::Sigil, check::schedule_attempts)? };
    Ok((o, n))
}

/// Checks that a policy's `maxAttempts` (`n`) can be materialised as a schedule:
/// RangeError above a million waits (see `check::MAX_SCHEDULE_ATTEMPTS`).
#[wasm_bindgen(js_name = checkScheduleAttempts)]
pub fn check_schedule_attempts(n: f64) -> Result<(), JsValue> {
    check::schedule_attempts(n).map(|_| ()).map_err(|e| error(Kind::Range, "maxAttempts", e, &JsValue::from_f64(n)))
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
/// stream takes its place (js/streams.ts). So no wasm memory is allocated per
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
/// TypeError for a non-string (the JS wrapper always passes `seedText(seed)`).
#[wasm_bindgen(js_name = streamSeed)]
pub fn stream_seed(text: &JsValue) -> Result<(), JsValue> {
    if !text.is_string() {
        return Err(error(Kind::Type, "seed text", "a string", text));
    }
    let text: &JsString = text.unchecked_ref();
    CURRENT.0.set(Sfc32::from_seed(text.iter()));
    Ok(())
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

/// One jittered delay drawn from the loaded stream (no draw when none is due).
#[wasm_bindgen(js_name = streamJitter)]
pub fn stream_jitter(kind: u32, fraction: f64, d: f64) -> f64 {
    with_current(|g| jitter_from(&mut Source::Stream(g), kind, fraction, d, 0.0).unwrap_or(d))
}

/// Decorrelated jitter for counted attempt `n`, drawing from the loaded stream.
#[wasm_bindgen(js_name = streamDecorrelated)]
pub fn stream_decorrelated(base: f64, cap: f64, n: f64) -> f64 {
    with_current(|g| decorrelated(base, cap, n, |k, lo, hi| Source::Stream(g).draw(k, lo, hi)).unwrap_or(base))
}

/// Validates the state words of `restoreRandom` (four unsigned 32-bit integers).
#[wasm_bindgen(js_name = checkWords)]
pub fn check_words(words: &JsValue) -> Result<Vec<u32>, JsValue> {
    const EXPECTED: &str = "an array of four unsigned 32-bit integers";
    if !is_array(words) {
        return Err(error(Kind::Type, "state.words", EXPECTED, words));
    }
    if array_length(words)? != 4 {
        return Err(error(Kind::Range, "state.words", EXPECTED, words));
    }
    let mut out = Vec::with_capacity(4);
    for i in 0..4 {
        let w = Reflect::get_u32(words, i)?;
        match w.as_f64() {
            Some(x) if x.trunc() == x && (0.0..=4_294_967_295.0).contains(&x) => out.push(x as u32),
            Some(_) => return Err(error(Kind::Range, &indexed("state.words", i), "an unsigned 32-bit integer", &w)),
            None => return Err(error(Kind::Type, &indexed("state.words", i), "an unsigned 32-bit integer", &w)),
        }
    }
    Ok(out)
}

/// A bound of `Random.int`: a safe integer. Anything else, a non-number
/// included, is a RangeError, as `@sdxc/random`'s `Number.isSafeInteger` check throws.
fn safe_integer(v: &JsValue, option: &str) -> Result<f64, JsValue> {
    const EXPECTED: &str = "a safe integer";
    let Some(x) = v.as_f64() else { return Err(error(Kind::Range, option, EXPECTED, v)) };
    if x.trunc() == x && x.abs() <= check::MAX_SAFE_INTEGER {
        Ok(x)
    } else {
        Err(error(Kind::Range, option, EXPECTED, v))
    }
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

/// Validates one duration option (not exported to JS; kept for the wasm tests'
/// direct checks of `duration_option`).
pub fn duration_ms(v: &JsValue, option: &str) -> Result<f64, JsValue> {
    duration_option(v, option, check::delay_ms)
}

// ------------------------------------------------------------------ backoff

const BACKOFF_KEYS: &[&str] =
    &["base", "growth", "factor", "max", "steps", "free", "jitter", "random", "seed", "maxAttempts"];

/// Index of the first step in `compileBackoff`'s result.
const COMPILED_STEPS: usize = 13;

const JITTER_EXPECTED: &str = "a number in [0, 1], \"full\", \"equal\" or \"decorrelated\"";

/// Option names as the error messages say them: `createBackoff` options, or the
/// fluent policy's (`interval`, `cap`).
struct Names {
    base: &'static str,
    max: &'static str,
}

/// Validates `createBackoff` options once (API.md section 2) and returns the
/// numbers the JS `Backoff` keeps, as one `Float64Array` (building a JS object
/// from wasm would cost a string and a crossing per field):
/// `[growth, base, factor, cap, free, jitter, fraction, attempts, keyed, k0, k1, k2, k3, ...steps]`
/// (`growth` -1 for steps, whose ms follow; `cap` Infinity when unbounded;
/// `jitter` a `Jitter` code; `attempts` NaN when unbounded; `keyed` 1 when
/// `seed` is given, with `k0..k3` the words of `keyPrefix(seed)`).
/// `random` is classified by the JS wrapper (`randomKind`).
///
/// Throws RangeError for a bad value, TypeError for a wrong type, an unknown
/// option, an unknown growth, `steps` mixed with curve options, or `seed` with `random`.
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

    // [growth, base, factor, cap, free, jitter, fraction, attempts, keyed, k0, k1, k2, k3, ...steps]
    let mut out = vec![0.0; COMPILED_STEPS];

    if !steps_v.is_undefined() {
        for (k, v) in [("base", &base_v), ("growth", &growth_v), ("factor", &factor_v), ("max", &max_v)] {
            if !v.is_undefined() {
                return Err(error(
                    Kind::Type,
                    k,
                    "left out when steps are given (steps and curve options exclude each other)",
                    v,
                ));
            }
        }
        if !is_array(&steps_v) {
            return Err(error(Kind::Type, "steps", "a non-empty array of durations", &steps_v));
        }
        let len = array_length(&steps_v)?;
        if len == 0 {
            return Err(error(Kind::Range, "steps", "a non-empty array of durations", &steps_v));
        }
        for i in 0..len {
            let v = Reflect::get_u32(&steps_v, i)?;
            out.push(duration_option(&v, &indexed("steps", i), check::delay_ms)?);
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
        let factor =
            if factor_v.is_undefined() { 2.0 } else { number(&factor_v, "factor", Kind::Range, check::factor)? };
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
        let f = check::fraction(x).map_err(|_| error(Kind::Range, "jitter", JITTER_EXPECTED, &jitter_v))?;
        if f == 0.0 { Jitter::None } else { Jitter::Spread(f) }
    } else {
        match jitter_v.as_string().as_deref() {
            Some("full") => Jitter::Full,
            Some("equal") => Jitter::Equal,
            Some("decorrelated") => Jitter::Decorrelated,
            _ => return Err(error(Kind::Type, "jitter", JITTER_EXPECTED, &jitter_v)),
        }
    };
    if jitter == Jitter::Decorrelated {
        if !steps_v.is_undefined() {
            return Err(error(
                Kind::Type,
                "jitter",
                "a kind other than \"decorrelated\" with steps (decorrelated needs a base and a cap)",
                &jitter_v,
            ));
        }
        if !out[3].is_finite() {
            return Err(error(Kind::Range, names.max, "set for \"decorrelated\" jitter (it needs a cap)", &max_v));
        }
    }
    let seed_v = get(options, "seed")?;
    if !seed_v.is_undefined() {
        if !get(options, "random")?.is_undefined() {
            return Err(seed_and_random(&seed_v));
        }
        out[8] = 1.0;
        for (slot, w) in out[9..13].iter_mut().zip(key_prefix_js(&seed_v)?) {
            *slot = f64::from(w);
        }
    }
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
    Err(error(
        Kind::Type,
        "random",
        "a Random (with float(min, max) or next()) or a function returning draws in [0, 1]",
        random,
    ))
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

/// Whether delay `d` takes a draw under jitter `kind`/`fraction`.
#[wasm_bindgen(js_name = jitterDraws)]
pub fn jitter_draws(kind: u32, fraction: f64, d: f64) -> bool {
    jitter_of(kind, fraction).draws(d)
}

fn jitter_from(src: &mut Source<'_>, kind: u32, fraction: f64, d: f64, key: f64) -> Result<f64, JsValue> {
    let j = jitter_of(kind, fraction);
    if !j.draws(d) {
        return Ok(d);
    }
    let (lo, hi) = j.draw_range(d);
    Ok(j.finish(d, src.draw(key, lo, hi)?))
}

/// One jittered delay with a keyed draw for `attempt`; `k0..k3` from `keyPrefix`.
#[wasm_bindgen(js_name = keyedJitter)]
#[allow(clippy::too_many_arguments)]
pub fn keyed_jitter(k0: u32, k1: u32, k2: u32, k3: u32, kind: u32, fraction: f64, d: f64, attempt: f64) -> f64 {
    let prefix = SeedHash::from_words([k0, k1, k2, k3]);
    jitter_from(&mut Source::Keyed(prefix), kind, fraction, d, attempt).unwrap_or(d)
}

/// One jittered delay drawn from a JavaScript source (`sourceKind` from
/// `randomKind`). RangeError (naming `random`) for a draw out of range; an
/// exception thrown by the source passes through.
#[wasm_bindgen(js_name = jsJitter)]
pub fn js_jitter(source: &JsValue, source_kind: u32, kind: u32, fraction: f64, d: f64) -> Result<f64, JsValue> {
    jitter_from(&mut Source::Js(source, source_kind), kind, fraction, d, 0.0)
}

/// `[min, max]`: every jittered result for pre-jitter delay `d` (decorrelated:
/// for counted attempt `n` of a curve with `base`, `cap`) is an integer in it.
/// The ends are the jitter kind's band rounded as results are (`Math.round` is monotonic).
#[wasm_bindgen(js_name = jitterBand)]
pub fn jitter_band(kind: u32, fraction: f64, d: f64, base: f64, cap: f64, n: f64) -> Vec<f64> {
    use crate::core::curve::js_round;
    let (lo, hi) = jitter_of(kind, fraction).band_of(d, base, cap, n);
    vec![js_round(lo), js_round(hi)]
}

/// The fast path of `jsJitter` for a bare function or `next()` source whose draw
/// `r` the wrapper already took (a number argument costs nothing; a `JsValue`
/// ~150 ns). Returns `NaN` when `r` is not in `[0, 1]` (never a valid result),
/// and the wrapper throws `invalidDraw(r)`.
#[wasm_bindgen(js_name = jitterUnit)]
pub fn jitter_unit(kind: u32, fraction: f64, d: f64, r: f64) -> f64 {
    if !(0.0..=1.0).contains(&r) {
        return f64::NAN;
    }
    let j = jitter_of(kind, fraction);
    if !j.draws(d) {
        return d;
    }
    let (lo, hi) = j.draw_range(d);
    j.finish(d, scale(lo, hi, r))
}

/// The RangeError for a raw draw outside `[0, 1]` (or not a number), naming `random`.
#[wasm_bindgen(js_name = invalidDraw)]
pub fn invalid_draw(r: &JsValue) -> JsValue {
    error(Kind::Range, "random", UNIT_DRAW_EXPECTED, r)
}

const UNIT_DRAW_EXPECTED: &str = "a source of draws in [0, 1]";

/// `attempt - free` when that is >= 1, else 0 (no delay, no draw).
#[wasm_bindgen(js_name = countedAttempt)]
pub fn counted_attempt(attempt: f64, free: f64) -> f64 {
    counted(attempt, free)
}

/// Decorrelated jitter for counted attempt `n` with keyed draws (a pure function of seed and `n`).
#[wasm_bindgen(js_name = keyedDecorrelated)]
pub fn keyed_decorrelated(k0: u32, k1: u32, k2: u32, k3: u32, base: f64, cap: f64, n: f64) -> f64 {
    let mut src = Source::Keyed(SeedHash::from_words([k0, k1, k2, k3]));
    decorrelated(base, cap, n, |k, lo, hi| src.draw(k, lo, hi)).unwrap_or(base)
}

/// Decorrelated jitter for counted attempt `n` drawing from a JavaScript source (one draw per step).
#[wasm_bindgen(js_name = jsDecorrelated)]
pub fn js_decorrelated(source: &JsValue, source_kind: u32, base: f64, cap: f64, n: f64) -> Result<f64, JsValue> {
    let mut src = Source::Js(source, source_kind);
    decorrelated(base, cap, n, |k, lo, hi| src.draw(k, lo, hi))
}

fn num_text(x: f64) -> String {
    describe(&JsValue::from_f64(x))
}
