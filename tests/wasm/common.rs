//! The wasm-bindgen test bodies, shared by `tests/wasm_node.rs` (Node) and
//! `tests/wasm_browser.rs` (headless Chromium). Each includer defines
//! `crate::IN_BROWSER`.
//!
//! They call the exports of `src/bindings/mod.rs` directly (the same functions
//! the JS wrappers call) and assert exact values: the vectors of API.md
//! sections 1–4, every error class with its exact message, and that no input
//! at all makes an export panic (a panic is a `RuntimeError: unreachable`
//! trap that can poison the module) or corrupt it for later calls.

use std::cell::RefCell;

use backoff_wasm::bindings as b;
use js_sys::{Array, Function, JsString, Object, Reflect};
use wasm_bindgen::{JsCast, prelude::*};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

// ------------------------------------------------------------------ JS helpers

#[wasm_bindgen(inline_js = r#"
export class SigilError extends Error {
  constructor(message, code = "invalid_argument") {
    super(message);
    this.name = "SigilError";
    this.code = code;
  }
}
export function sigilErrorClass() { return SigilError; }
export function isSigilError(e) { return e instanceof SigilError; }
export function constant(x) { const f = () => { f.calls++; return x; }; f.calls = 0; return f; }
export function callsOf(f) { return f.calls; }
export function thrower(message) { return () => { throw new Error(message); }; }
export function mathRandom() { return Math.random; }
export function loneSurrogate() { return "\uD800"; }
export function runtime() {
  const browser = typeof window === "object" && typeof document === "object";
  const node = typeof process === "object" && !!(process.versions && process.versions.node);
  const ua = typeof navigator === "object" && navigator.userAgent ? navigator.userAgent : "";
  return { browser, node, ua, webdriver: typeof navigator === "object" && navigator.webdriver === true };
}
export function guarded(f) {
  try { f(); return null; } catch (e) { return [e]; }
}
export function isError(e) { return e instanceof Error; }
// Values with no behaviour of their own: every export must return a value or
// throw one of RangeError / TypeError / SigilError for them.
export function plainGarbage() {
  return [
    undefined, null, true, false, 0, -0, NaN, Infinity, -Infinity, 1, -1, 0.5, 1.5, 2 ** 31, 2 ** 32,
    2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e21, 1e308, Number.MAX_VALUE, Number.MIN_VALUE,
    "", " ", "0", "1", "-1", "1.5", "1 second", "5s", "abc", "NaN", "Infinity", "-0", "\uD800", "\uFEFF",
    "x".repeat(10000), "9".repeat(400), "exponential", "full", "equal",
    Symbol("garbage"), Symbol.iterator, 10n, -(2n ** 70n),
    {}, Object.create(null), [], [1], [1, 2, 3], [1, 2, 3, 4, 5], [0, 0, 0, 0], [NaN, NaN, NaN, NaN],
    ["1", "2", "3", "4"], [-1, 0, 0, 0], [2 ** 32, 0, 0, 0], [1.5, 0, 0, 0], new Array(4), [[], {}, null, undefined],
    [Symbol("s"), 0, 0, 0], [10n, 0, 0, 0],
    () => 1, () => 2, () => NaN, () => "0.5", () => undefined, function () {}, class {}, Math.random,
    new Number(5), new String("5s"), new Boolean(true), new Date(0), /x/, new Map(), new Set(), new Uint32Array(4),
    new ArrayBuffer(8), Promise.resolve(1), { valueOf() { return 5; } }, { toString() { return "1s"; } },
    { length: 4, 0: 1, 1: 2, 2: 3, 3: 4 }, { float() { return 1; } }, { next() { return 0.5; } },
    { float: 1, next: "x" }, { base: 1000 }, { steps: [1] }, { maxAttempts: 3 },
  ];
}
// Values whose own code throws when read or inspected (getters, proxy traps,
// revoked proxies). Such an exception may pass through; nothing may trap.
export function hostileGarbage() {
  const boom = () => { throw new Error("hostile"); };
  const revoked = Proxy.revocable({}, {}); revoked.revoke();
  const revokedArray = Proxy.revocable([], {}); revokedArray.revoke();
  const trapAll = { get: boom, ownKeys: boom, getOwnPropertyDescriptor: boom, has: boom, getPrototypeOf: boom };
  return [
    revoked.proxy, revokedArray.proxy,
    new Proxy({}, trapAll), new Proxy([1, 2, 3, 4], trapAll), new Proxy([], { get: boom }),
    new Proxy(() => 1, { apply: boom, get: boom }),
    { get base() { boom(); }, get steps() { boom(); }, get baseDelayMs() { boom(); }, get jitter() { boom(); },
      get maxAttempts() { boom(); }, get random() { boom(); }, get float() { boom(); }, get next() { boom(); } },
    Object.defineProperty([0, 0, 0, 0], 2, { get: boom }),
    { get float() { boom(); } },
  ];
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = sigilErrorClass)]
    fn sigil_error_class() -> Function;
    #[wasm_bindgen(js_name = isSigilError)]
    fn is_sigil_error(e: &JsValue) -> bool;
    /// A JS function `() => x` that counts its calls (`callsOf`).
    fn constant(x: &JsValue) -> Function;
    #[wasm_bindgen(js_name = callsOf)]
    fn calls_of(f: &Function) -> u32;
    fn thrower(message: &str) -> Function;
    #[wasm_bindgen(js_name = mathRandom)]
    fn math_random() -> JsValue;
    #[wasm_bindgen(js_name = loneSurrogate)]
    fn lone_surrogate() -> JsString;
    fn runtime() -> JsValue;
    /// Calls `f`; `null` when it returned, `[exception]` when it threw.
    fn guarded(f: &dyn Fn()) -> JsValue;
    #[wasm_bindgen(js_name = isError)]
    fn is_error(e: &JsValue) -> bool;
    #[wasm_bindgen(js_name = plainGarbage)]
    fn plain_garbage() -> Array;
    #[wasm_bindgen(js_name = hostileGarbage)]
    fn hostile_garbage() -> Array;
}

// ------------------------------------------------------------------ Rust helpers

fn setup() {
    b::register_sigil_error(sigil_error_class());
}

fn n(x: f64) -> JsValue {
    JsValue::from_f64(x)
}

fn s(x: &str) -> JsValue {
    JsValue::from_str(x)
}

const U: JsValue = JsValue::UNDEFINED;

/// A plain object from key/value pairs.
fn obj(entries: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in entries {
        Reflect::set(&o, &s(k), v).unwrap();
    }
    o.into()
}

fn arr(items: &[JsValue]) -> JsValue {
    items.iter().collect::<Array>().into()
}

fn field(o: &JsValue, k: &str) -> JsValue {
    Reflect::get(o, &s(k)).unwrap()
}

fn num(o: &JsValue, k: &str) -> f64 {
    field(o, k).as_f64().unwrap_or_else(|| panic!("{k} is not a number"))
}

/// The class of a thrown value, by `instanceof`.
fn class_of(e: &JsValue) -> &'static str {
    if is_sigil_error(e) {
        "SigilError"
    } else if e.is_instance_of::<js_sys::RangeError>() {
        "RangeError"
    } else if e.is_instance_of::<js_sys::TypeError>() {
        "TypeError"
    } else if e.is_instance_of::<js_sys::Error>() {
        "Error"
    } else {
        "not an Error"
    }
}

fn message(e: &JsValue) -> String {
    field(e, "message").as_string().unwrap_or_default()
}

/// Asserts `r` is an error of `class` whose message is exactly `msg`.
#[track_caller]
fn err<T: std::fmt::Debug>(r: Result<T, JsValue>, class: &str, msg: &str) -> JsValue {
    match r {
        Ok(v) => panic!("expected {class} {msg:?}, got Ok({v:?})"),
        Err(e) => {
            assert_eq!((class_of(&e), message(&e).as_str()), (class, msg));
            if class == "SigilError" {
                assert_eq!(field(&e, "code").as_string().as_deref(), Some("invalid_argument"));
                assert_eq!(field(&e, "name").as_string().as_deref(), Some("SigilError"));
            }
            e
        }
    }
}

fn sigil(attempt: f64, options: &JsValue) -> Result<f64, JsValue> {
    b::sigil_delay(&n(attempt), options, &math_random())
}

fn compile(options: &JsValue) -> Result<Object, JsValue> {
    compile_obj(options, false)
}

/// `compileBackoff`'s numbers as the record js/backoff.ts unpacks them into:
/// `{ growth, base, factor, cap, steps, free, jitter, fraction, attempts, key }`.
fn compile_obj(options: &JsValue, fluent: bool) -> Result<Object, JsValue> {
    let v = b::compile_backoff(options, fluent)?;
    let o = Object::new();
    let set = |k: &str, x: JsValue| {
        Reflect::set(&o, &s(k), &x).unwrap();
    };
    for (i, k) in ["growth", "base", "factor", "cap", "free", "jitter", "fraction"].iter().enumerate() {
        set(k, n(v[i]));
    }
    set("attempts", if v[7].is_nan() { U } else { n(v[7]) });
    set("steps", if v[0] == -1.0 { arr(&v[13..].iter().map(|&x| n(x)).collect::<Vec<_>>()) } else { U });
    set("key", if v[8] == 1.0 { arr(&v[9..13].iter().map(|&x| n(x)).collect::<Vec<_>>()) } else { U });
    Ok(o)
}

/// The old per-object stream API, on top of the one loaded stream of the bindings
/// (js/streams.ts does the same load/save dance).
struct Stream {
    w: [u32; 4],
}

impl Stream {
    fn save() -> [u32; 4] {
        [b::stream_word(0), b::stream_word(1), b::stream_word(2), b::stream_word(3)]
    }
    fn from_text(text: &JsString) -> Result<Stream, JsValue> {
        b::stream_seed(text.as_ref())?;
        Ok(Stream { w: Stream::save() })
    }
    fn from_words(a: u32, bb: u32, c: u32, d: u32) -> Stream {
        Stream { w: [a, bb, c, d] }
    }
    fn with<T>(&mut self, f: impl FnOnce() -> T) -> T {
        b::stream_load(self.w[0], self.w[1], self.w[2], self.w[3]);
        let out = f();
        self.w = Stream::save();
        out
    }
    fn next(&mut self) -> f64 {
        self.with(b::stream_next)
    }
    fn words(&self) -> Vec<u32> {
        self.w.to_vec()
    }
    fn jitter(&mut self, kind: u32, fraction: f64, d: f64) -> f64 {
        self.with(|| b::stream_jitter(kind, fraction, d))
    }
    fn decorrelated(&mut self, base: f64, cap: f64, n: f64) -> f64 {
        self.with(|| b::stream_decorrelated(base, cap, n))
    }
}

/// `delay(attempt)` of a compiled policy without jitter (what js/backoff.ts does).
fn delay(p: &JsValue, attempt: f64) -> f64 {
    let steps = field(p, "steps");
    if steps.is_undefined() {
        let d = b::curve_delay(
            num(p, "growth") as u32,
            num(p, "base"),
            num(p, "factor"),
            num(p, "cap"),
            num(p, "free"),
            attempt,
        );
        if d == -1.0 { 0.0 } else { d }
    } else {
        let steps: Array = steps.unchecked_into();
        let i = b::step_index_js(steps.length(), num(p, "free"), attempt);
        if i < 0.0 { 0.0 } else { steps.get(i as u32).as_f64().unwrap() }
    }
}

fn delays(options: &JsValue, attempts: std::ops::RangeInclusive<u32>) -> Vec<f64> {
    let p: JsValue = compile(options).unwrap().into();
    attempts.map(|a| delay(&p, f64::from(a))).collect()
}

/// The first `count` raw words `floor(next() * 2^32)` of the stream for `seed`.
fn raw_words(seed: &JsValue, count: usize) -> Vec<u32> {
    let text: JsString = b::seed_text(seed).unwrap();
    let mut g = Stream::from_text(&text).unwrap();
    (0..count).map(|_| (g.next() * 4_294_967_296.0) as u32).collect()
}

/// JavaScript's `Math.round` for the non-negative values used here.
fn js_round(x: f64) -> f64 {
    (x + 0.5).floor()
}

/// The vectors re-checked after every garbage run: the module still answers exactly.
fn still_works() {
    assert_eq!(b::sigil_constants(), [8.0, 1000.0, 3_600_000.0]);
    assert_eq!(
        (1..=7).map(|a| sigil(f64::from(a), &U).unwrap()).collect::<Vec<_>>(),
        [1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0, 64000.0]
    );
    assert_eq!(sigil(40.0, &U).unwrap(), 3_600_000.0);
    let random = constant(&n(1.0));
    assert_eq!(sigil(4.0, &obj(&[("jitter", n(0.25)), ("random", random.into())])).unwrap(), 6000.0);
    err(sigil(0.0, &U), "SigilError", "attempt must be an integer >= 1; received 0");
    assert_eq!(raw_words(&n(42.0), 3), [3833195492, 3563769608, 4061610985]);
    assert_eq!(b::parse_duration("15 seconds"), 15000.0);
    assert_eq!(delays(&obj(&[("base", s("1 second"))]), 1..=5), [1000.0, 2000.0, 4000.0, 8000.0, 16000.0]);
    err(
        compile(&obj(&[("factor", n(0.5)), ("base", n(1.0))])),
        "RangeError",
        "factor must be a finite number >= 1; received 0.5",
    );
    err(
        b::check_words(&arr(&[n(1.0)])),
        "RangeError",
        "state.words must be an array of four unsigned 32-bit integers; received an array",
    );
}

// ------------------------------------------------------------------ runtime

#[wasm_bindgen_test]
fn runs_in_the_intended_runtime() {
    let rt = runtime();
    let flag = |k: &str| field(&rt, k).as_bool().unwrap();
    let ua = field(&rt, "ua").as_string().unwrap();
    if crate::IN_BROWSER {
        assert!(flag("browser") && !flag("node"), "expected a browser page, got {ua:?}");
        assert!(ua.contains("HeadlessChrome"), "expected headless Chromium, got {ua:?}");
        assert!(flag("webdriver"), "expected a WebDriver-controlled browser");
    } else {
        assert!(flag("node") && !flag("browser"), "expected Node, got {ua:?}");
    }
}

// ------------------------------------------------------------------ section 1: sigil

#[wasm_bindgen_test]
fn sigil_constants_and_default_schedule() {
    setup();
    assert_eq!(b::sigil_constants(), [8.0, 1000.0, 3_600_000.0]);
    let spy = constant(&n(0.5));
    let got: Vec<f64> = (1..=7).map(|a| b::sigil_delay(&n(f64::from(a)), &U, &spy).unwrap()).collect();
    assert_eq!(got, [1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0, 64000.0]);
    assert_eq!(calls_of(&spy), 0, "no jitter: no draw");
    assert_eq!(got.iter().sum::<f64>(), 127_000.0);
    assert_eq!(b::sigil_max_attempts(&U).unwrap(), 8.0);
    assert_eq!(b::sigil_max_attempts(&obj(&[])).unwrap(), 8.0);
    assert_eq!(b::sigil_max_attempts(&obj(&[("maxAttempts", n(1.0))])).unwrap(), 1.0);
    assert_eq!(b::sigil_max_attempts(&obj(&[("maxAttempts", n(20.0))])).unwrap(), 20.0);
    assert_eq!(sigil(1.0, &obj(&[])).unwrap(), 1000.0);
}

#[wasm_bindgen_test]
fn sigil_clamps_in_floating_point() {
    setup();
    assert_eq!(sigil(12.0, &U).unwrap(), 2_048_000.0);
    for attempt in [13.0, 31.0, 32.0, 33.0, 40.0, 1000.0, 9_007_199_254_740_991.0, 1e300] {
        assert_eq!(sigil(attempt, &U).unwrap(), 3_600_000.0, "attempt {attempt}");
    }
    let small = obj(&[("baseDelayMs", n(100.0)), ("maxDelayMs", n(250.0))]);
    assert_eq!(sigil(3.0, &small).unwrap(), 250.0);
    assert_eq!(sigil(2.0, &small).unwrap(), 200.0);
    // a bit shift would wrap at 31/32; floating point keeps doubling
    let unbounded = obj(&[("maxDelayMs", n(f64::INFINITY))]);
    assert_eq!(sigil(32.0, &unbounded).unwrap(), 1000.0 * 2f64.powi(31));
    assert_eq!(sigil(33.0, &unbounded).unwrap(), 1000.0 * 2f64.powi(32));
    assert_eq!(sigil(2000.0, &unbounded).unwrap(), f64::INFINITY);
    assert_eq!(sigil(5.0, &obj(&[("baseDelayMs", n(0.0))])).unwrap(), 0.0);
    assert_eq!(sigil(5.0, &obj(&[("maxDelayMs", n(0.0))])).unwrap(), 0.0);
}

#[wasm_bindgen_test]
fn sigil_jitter_subtracts_with_one_draw() {
    setup();
    let one = constant(&n(1.0));
    let zero = constant(&n(0.0));
    assert_eq!(sigil(4.0, &obj(&[("jitter", n(0.25)), ("random", one.clone().into())])).unwrap(), 6000.0);
    assert_eq!(sigil(4.0, &obj(&[("jitter", n(0.25)), ("random", zero.clone().into())])).unwrap(), 8000.0);
    assert_eq!((calls_of(&one), calls_of(&zero)), (1, 1));
    // `random` absent: the default (Math.random, looked up by the caller) is drawn once
    let spy = constant(&n(1.0));
    assert_eq!(b::sigil_delay(&n(4.0), &obj(&[("jitter", n(0.25))]), &spy).unwrap(), 6000.0);
    assert_eq!(calls_of(&spy), 1);
    // retrySchedule({ jitter: 0.5, random: () => 1 })
    let half = obj(&[("jitter", n(0.5)), ("random", constant(&n(1.0)).into())]);
    let got: Vec<f64> = (1..=7).map(|a| sigil(f64::from(a), &half).unwrap()).collect();
    assert_eq!(got, [500.0, 1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0]);
    // Math.round(capped * (1 - jitter * r)): 1000 * (1 - 0.5 * 0.001) = 999.5 rounds up
    assert_eq!(sigil(1.0, &obj(&[("jitter", n(0.5)), ("random", constant(&n(0.001)).into())])).unwrap(), 1000.0);
    assert_eq!(sigil(1.0, &obj(&[("jitter", n(0.5)), ("random", constant(&n(0.003)).into())])).unwrap(), 999.0);
    assert_eq!(sigil(40.0, &obj(&[("jitter", n(1.0)), ("random", constant(&n(1.0)).into())])).unwrap(), 0.0);
    // jitter 0: no draw, exact value
    let spy = constant(&n(1.0));
    assert_eq!(sigil(4.0, &obj(&[("jitter", n(0.0)), ("random", spy.clone().into())])).unwrap(), 8000.0);
    assert_eq!(calls_of(&spy), 0);
    // with the real Math.random the result lies in the band and is an integer
    for _ in 0..50 {
        let d = sigil(4.0, &obj(&[("jitter", n(0.25))])).unwrap();
        assert!((6000.0..=8000.0).contains(&d) && d.fract() == 0.0, "{d}");
    }
}

#[wasm_bindgen_test]
fn sigil_errors_are_sigil_errors_naming_the_value() {
    setup();
    let bad_attempt = "attempt must be an integer >= 1; received ";
    for (v, shown) in [
        (n(0.0), "0"),
        (n(-0.0), "0"),
        (n(-1.0), "-1"),
        (n(1.5), "1.5"),
        (n(f64::NAN), "NaN"),
        (n(f64::INFINITY), "Infinity"),
        (s("1"), "\"1\""),
        (JsValue::NULL, "null"),
        (U, "undefined"),
        (JsValue::TRUE, "true"),
    ] {
        err(b::sigil_delay(&v, &U, &math_random()), "SigilError", &format!("{bad_attempt}{shown}"));
    }
    let o = |k: &str, v: JsValue| obj(&[(k, v)]);
    err(sigil(1.0, &o("baseDelayMs", n(-1.0))), "SigilError", "baseDelayMs must be a non-negative number; received -1");
    err(
        sigil(1.0, &o("baseDelayMs", n(f64::NAN))),
        "SigilError",
        "baseDelayMs must be a non-negative number; received NaN",
    );
    err(
        sigil(1.0, &o("baseDelayMs", s("1000"))),
        "SigilError",
        "baseDelayMs must be a non-negative number; received \"1000\"",
    );
    err(sigil(1.0, &o("maxDelayMs", n(-5.0))), "SigilError", "maxDelayMs must be a non-negative number; received -5");
    err(
        sigil(1.0, &o("maxDelayMs", JsValue::NULL)),
        "SigilError",
        "maxDelayMs must be a non-negative number; received null",
    );
    let jitter = "jitter must be 0 (no jitter) or a number in (0, 1]; received ";
    for (v, shown) in [(n(1.5), "1.5"), (n(-0.1), "-0.1"), (n(f64::NAN), "NaN"), (s("0.5"), "\"0.5\"")] {
        err(sigil(1.0, &o("jitter", v)), "SigilError", &format!("{jitter}{shown}"));
    }
    err(
        sigil(1.0, &o("random", n(5.0))),
        "SigilError",
        "random must be a function returning numbers in [0, 1]; received 5",
    );
    err(
        sigil(1.0, &o("baseDelay", n(5.0))),
        "SigilError",
        "an option name must be one of baseDelayMs, maxDelayMs, jitter, random, seed, maxAttempts; received \"baseDelay\"",
    );
    err(sigil(1.0, &JsValue::NULL), "SigilError", "options must be an object or undefined; received null");
    err(sigil(1.0, &n(3.0)), "SigilError", "options must be an object or undefined; received 3");
    // a draw outside [0, 1] or not a number
    let draw = "random must be a function returning numbers in [0, 1]; received ";
    for (v, shown) in
        [(n(1.5), "1.5"), (n(-0.1), "-0.1"), (n(f64::NAN), "NaN"), (s("0.5"), "\"0.5\""), (U, "undefined")]
    {
        let opts = obj(&[("jitter", n(0.5)), ("random", constant(&v).into())]);
        err(sigil(1.0, &opts), "SigilError", &format!("{draw}{shown}"));
    }
    // an exception thrown by random itself passes through unchanged
    let e = sigil(1.0, &obj(&[("jitter", n(0.5)), ("random", thrower("from random").into())])).unwrap_err();
    assert_eq!((class_of(&e), message(&e).as_str()), ("Error", "from random"));
    // maxAttempts
    let max = "maxAttempts must be an integer from 1 to 1000001 for a whole schedule (iterate the policy for longer ones); received ";
    for (v, shown) in [
        (n(0.0), "0"),
        (n(1.5), "1.5"),
        (n(f64::NAN), "NaN"),
        (n(f64::INFINITY), "Infinity"),
        (s("8"), "\"8\""),
        (n(1_000_002.0), "1000002"),
    ] {
        err(b::sigil_max_attempts(&o("maxAttempts", v)), "SigilError", &format!("{max}{shown}"));
    }
    err(b::sigil_max_attempts(&o("jitter", n(2.0))), "SigilError", &format!("{jitter}2"));
}

// ------------------------------------------------------------------ section 3: random

#[wasm_bindgen_test]
fn seed_vectors_through_stream() {
    assert_eq!(raw_words(&n(42.0), 6), [3833195492, 3563769608, 4061610985, 767254976, 3389111029, 3727552234]);
    assert_eq!(raw_words(&s("42"), 6), raw_words(&n(42.0), 6), "42 and \"42\" are one stream");
    assert_eq!(
        raw_words(&s("signup-suite"), 6),
        [1665886051, 3924901832, 1861224746, 2455819951, 2930940383, 493917030]
    );
    assert_eq!(raw_words(&s(""), 6), [3075608207, 1941113166, 1250698130, 1973185690, 24547140, 1714710821]);
    // createRandom(42): eight int(0, 999)
    let mut g = Stream::from_text(&b::seed_text(&n(42.0)).unwrap()).unwrap();
    let ints: Vec<f64> = (0..8)
        .map(|_| {
            b::check_int_bounds(&n(0.0), &n(999.0)).unwrap();
            b::int_between_js(0.0, 999.0, g.next())
        })
        .collect();
    assert_eq!(ints, [892.0, 829.0, 945.0, 178.0, 789.0, 867.0, 759.0, 526.0]);
}

#[wasm_bindgen_test]
fn seed_text_is_javascripts_string() {
    let text = |v: JsValue| String::from(b::seed_text(&v).unwrap());
    assert_eq!(text(n(1e21)), "1e+21");
    assert_eq!(text(n(-0.0)), "0");
    assert_eq!(text(n(0.1)), "0.1");
    assert_eq!(text(n(-1.5)), "-1.5");
    assert_eq!(text(n(f64::NAN)), "NaN");
    assert_eq!(text(n(f64::NEG_INFINITY)), "-Infinity");
    assert_eq!(text(n(2f64.powi(53))), "9007199254740992");
    assert_eq!(text(s("héllo")), "héllo");
    assert_eq!(raw_words(&n(1e21), 2), raw_words(&s("1e+21"), 2));
    // a lone surrogate is hashed as its code unit, not as U+FFFD
    let lone = Stream::from_text(&lone_surrogate()).unwrap().next();
    let replaced = Stream::from_text(&JsString::from("\u{FFFD}")).unwrap().next();
    assert_ne!(lone, replaced);
    for (v, shown) in [
        (U, "undefined"),
        (JsValue::NULL, "null"),
        (JsValue::TRUE, "true"),
        (obj(&[]), "an object"),
        (arr(&[n(1.0)]), "an array"),
        (JsValue::symbol(Some("s")), "a symbol"),
        (JsValue::bigint_from_str("10"), "a bigint"),
        (constant(&n(1.0)).into(), "a function"),
    ] {
        err(b::seed_text(&v), "TypeError", &format!("seed must be a string or a number; received {shown}"));
    }
}

#[wasm_bindgen_test]
fn stream_state_round_trips() {
    let mut g = Stream::from_text(&JsString::from("resume")).unwrap();
    g.next();
    g.next();
    let words = g.words();
    assert_eq!(words.len(), 4);
    let checked = b::check_words(&words.iter().map(|&w| n(f64::from(w))).collect::<Array>().into()).unwrap();
    assert_eq!(checked, words);
    let mut h = Stream::from_words(checked[0], checked[1], checked[2], checked[3]);
    for _ in 0..10 {
        assert_eq!(g.next().to_bits(), h.next().to_bits());
    }
    assert_eq!(b::check_words(&arr(&[n(0.0), n(-0.0), n(4_294_967_295.0), n(7.0)])).unwrap(), [0, 0, u32::MAX, 7]);
    let words = "state.words must be an array of four unsigned 32-bit integers; received ";
    err(b::check_words(&U), "TypeError", &format!("{words}undefined"));
    err(b::check_words(&obj(&[("length", n(4.0))])), "TypeError", &format!("{words}an object"));
    err(b::check_words(&arr(&[])), "RangeError", &format!("{words}an array"));
    err(b::check_words(&arr(&vec![n(1.0); 5])), "RangeError", &format!("{words}an array"));
    let word = |i: u32| format!("state.words[{i}] must be an unsigned 32-bit integer; received ");
    err(b::check_words(&arr(&[n(1.0), n(2.0), n(-1.0), n(4.0)])), "RangeError", &format!("{}-1", word(2)));
    err(
        b::check_words(&arr(&[n(4_294_967_296.0), n(2.0), n(3.0), n(4.0)])),
        "RangeError",
        &format!("{}4294967296", word(0)),
    );
    err(b::check_words(&arr(&[n(1.5), n(2.0), n(3.0), n(4.0)])), "RangeError", &format!("{}1.5", word(0)));
    err(b::check_words(&arr(&[n(1.0), n(2.0), n(3.0), n(f64::NAN)])), "RangeError", &format!("{}NaN", word(3)));
    err(b::check_words(&arr(&[s("1"), n(2.0), n(3.0), n(4.0)])), "TypeError", &format!("{}\"1\"", word(0)));
    err(b::check_words(&arr(&[n(1.0), n(2.0), n(3.0), U])), "TypeError", &format!("{}undefined", word(3)));
}

#[wasm_bindgen_test]
fn random_bounds() {
    b::check_int_bounds(&n(0.0), &n(999.0)).unwrap();
    b::check_int_bounds(&n(5.0), &n(5.0)).unwrap();
    b::check_int_bounds(&n(-9_007_199_254_740_991.0), &n(9_007_199_254_740_991.0)).unwrap();
    assert_eq!(b::int_between_js(5.0, 5.0, 0.999), 5.0);
    assert_eq!(b::int_between_js(1.0, 6.0, 0.0), 1.0);
    assert_eq!(b::int_between_js(1.0, 6.0, 0.999_999), 6.0);
    err(b::check_int_bounds(&n(1.5), &n(2.0)), "RangeError", "min must be a safe integer; received 1.5");
    err(
        b::check_int_bounds(&n(0.0), &n(9_007_199_254_740_992.0)),
        "RangeError",
        "max must be a safe integer; received 9007199254740992",
    );
    err(b::check_int_bounds(&s("1"), &n(2.0)), "RangeError", "min must be a safe integer; received \"1\"");
    err(b::check_int_bounds(&n(0.0), &n(f64::NAN)), "RangeError", "max must be a safe integer; received NaN");
    err(b::check_int_bounds(&n(5.0), &n(4.0)), "RangeError", "max must be an integer >= min; received 4");
    b::check_float_bounds(&n(0.0), &n(1.0)).unwrap();
    b::check_float_bounds(&n(3.0), &n(-3.0)).unwrap();
    assert_eq!(b::float_between_js(2.0, 4.0, 0.5), 3.0);
    err(b::check_float_bounds(&n(f64::NAN), &n(1.0)), "RangeError", "min must be a finite number; received NaN");
    err(
        b::check_float_bounds(&n(0.0), &n(f64::INFINITY)),
        "RangeError",
        "max must be a finite number; received Infinity",
    );
    err(b::check_float_bounds(&U, &n(1.0)), "TypeError", "min must be a finite number; received undefined");
}

// ------------------------------------------------------------------ section 4: duration

#[wasm_bindgen_test]
fn duration_parsing() {
    for (text, ms) in [
        ("1 second", 1000.0),
        ("15 seconds", 15000.0),
        ("1 minute", 60000.0),
        ("12 hours", 43_200_000.0),
        ("2 days", 172_800_000.0),
        ("1 week", 604_800_000.0),
        ("1 millisecond", 1.0),
        ("250ms", 250.0),
        ("5s", 5000.0),
        ("3m", 180_000.0),
        ("2h", 7_200_000.0),
        ("1d", 86_400_000.0),
        ("2w", 1_209_600_000.0),
        ("42", 42.0),
        ("0", 0.0),
        ("-5s", -5000.0),
        (" \t7s\n", 7000.0),
        ("\u{FEFF}\u{00A0}7s\u{2028}\u{3000}", 7000.0),
        ("9007199254740993", 9_007_199_254_740_992.0),
    ] {
        assert_eq!(b::parse_duration(text), ms, "{text:?}");
    }
    assert!(b::parse_duration("-0").is_sign_negative() && b::parse_duration("-0") == 0.0);
    assert_eq!(b::parse_duration(&"9".repeat(400)), f64::INFINITY);
    for text in [
        "",
        "   ",
        "s",
        "ms",
        "1.5s",
        "1e3",
        "0x10",
        "+5",
        "05",
        "1_000",
        "1  second",
        "1second",
        "1 s",
        "1 Second",
        "1S",
        "1 month",
        "1y",
        "1s 2ms",
        "1h30m",
        "1 toString",
        "1 __proto__",
        "--1",
        "-",
        "\u{0085}1s",
        "１s",
        "NaN",
        "Infinity",
    ] {
        assert!(b::parse_duration(text).is_nan(), "{text:?}");
    }
    // durationMs: a DurationInput option
    assert_eq!(b::duration_ms(&s("5 seconds"), "delay").unwrap(), 5000.0);
    assert_eq!(b::duration_ms(&n(5.0), "delay").unwrap(), 5.0);
    assert_eq!(b::duration_ms(&n(0.0), "delay").unwrap(), 0.0);
    let expected = "delay must be a non-negative finite duration (ms, or text such as \"5 seconds\"); received ";
    err(b::duration_ms(&n(-1.0), "delay"), "RangeError", &format!("{expected}-1"));
    err(b::duration_ms(&n(f64::NAN), "delay"), "RangeError", &format!("{expected}NaN"));
    err(b::duration_ms(&n(f64::INFINITY), "delay"), "RangeError", &format!("{expected}Infinity"));
    err(b::duration_ms(&s("abc"), "delay"), "RangeError", &format!("{expected}\"abc\""));
    err(b::duration_ms(&s("-5s"), "delay"), "RangeError", &format!("{expected}\"-5s\""));
    err(b::duration_ms(&s(&"9".repeat(400)), "delay"), "RangeError", &format!("{expected}\"{}\"", "9".repeat(400)));
    err(b::duration_ms(&JsValue::NULL, "delay"), "TypeError", &format!("{expected}null"));
    err(b::duration_ms(&obj(&[]), "sleep"), "TypeError", &format!("sleep{}an object", &expected[5..]));
}

// ------------------------------------------------------------------ section 2 / 5: compileBackoff

#[wasm_bindgen_test]
fn compile_backoff_vectors() {
    let o = obj;
    assert_eq!(delays(&o(&[("base", s("1 second"))]), 1..=5), [1000.0, 2000.0, 4000.0, 8000.0, 16000.0]);
    assert_eq!(delays(&o(&[("base", n(100.0)), ("factor", n(3.0))]), 1..=4), [100.0, 300.0, 900.0, 2700.0]);
    assert_eq!(delays(&o(&[("base", s("1 minute")), ("growth", s("linear"))]), 1..=3), [60000.0, 120000.0, 180000.0]);
    assert_eq!(delays(&o(&[("base", n(7.0)), ("growth", s("constant"))]), 1..=3), [7.0, 7.0, 7.0]);
    assert_eq!(
        delays(&o(&[("base", s("15 seconds")), ("max", s("1 minute"))]), 1..=4),
        [15000.0, 30000.0, 60000.0, 60000.0]
    );
    assert_eq!(delays(&o(&[("base", s("15 seconds")), ("max", s("12 hours"))]), 20..=20), [43_200_000.0]);
    assert_eq!(
        delays(&o(&[("free", n(3.0)), ("base", s("1 second"))]), 1..=6),
        [0.0, 0.0, 0.0, 1000.0, 2000.0, 4000.0]
    );
    assert_eq!(delays(&o(&[("free", n(1.0)), ("steps", arr(&[n(10.0), n(20.0)]))]), 1..=4), [0.0, 10.0, 20.0, 20.0]);
    assert_eq!(
        delays(&o(&[("steps", arr(&[s("1s"), s("5 seconds"), n(0.0)]))]), 1..=5),
        [1000.0, 5000.0, 0.0, 0.0, 0.0]
    );
    // at(3, now) = now + delay(3)
    let p: JsValue = compile(&o(&[("base", n(1000.0))])).unwrap().into();
    assert_eq!(1_700_000_000_000.0 + delay(&p, 3.0), 1_700_000_004_000.0);
    // delay never throws and gives 0 for attempts that do not count (also NaN)
    for a in [0.0, -1.0, f64::NAN, f64::NEG_INFINITY, 0.5] {
        assert_eq!(delay(&p, a), 0.0, "attempt {a}");
    }
    assert_eq!(delay(&p, 5000.0), f64::INFINITY, "uncapped exponential overflows like the original");
    // the fluent policy (section 5): exponential 2s capped at 5 minutes
    let fluent: JsValue = compile_obj(&o(&[("base", s("2 seconds")), ("max", s("5 minutes"))]), true).unwrap().into();
    let got: Vec<f64> = (1..=10).map(|a| delay(&fluent, f64::from(a))).collect();
    assert_eq!(got, [2000.0, 4000.0, 8000.0, 16000.0, 32000.0, 64000.0, 128000.0, 256000.0, 300000.0, 300000.0]);
    let uncapped: JsValue = compile_obj(&o(&[("base", s("2 seconds"))]), true).unwrap().into();
    assert_eq!((delay(&uncapped, 10.0), delay(&uncapped, 15.0)), (1_024_000.0, 32_768_000.0));
}

#[wasm_bindgen_test]
fn compile_backoff_record() {
    let p: JsValue = compile(&obj(&[("base", s("1s")), ("max", n(f64::INFINITY))])).unwrap().into();
    assert_eq!(
        (
            num(&p, "growth"),
            num(&p, "base"),
            num(&p, "factor"),
            num(&p, "cap"),
            num(&p, "free"),
            num(&p, "jitter"),
            num(&p, "fraction")
        ),
        (0.0, 1000.0, 2.0, f64::INFINITY, 0.0, 0.0, 0.0)
    );
    assert!(field(&p, "steps").is_undefined() && field(&p, "attempts").is_undefined());
    let jitter = |v: JsValue| {
        let p: JsValue = compile(&obj(&[("base", n(1.0)), ("jitter", v)])).unwrap().into();
        (num(&p, "jitter"), num(&p, "fraction"))
    };
    assert_eq!(jitter(n(0.0)), (0.0, 0.0));
    assert_eq!(jitter(n(0.5)), (2.0, 0.5));
    assert_eq!(jitter(n(1.0)), (2.0, 1.0));
    assert_eq!(jitter(s("full")), (3.0, 0.0));
    assert_eq!(jitter(s("equal")), (4.0, 0.0));
    let p: JsValue =
        compile(&obj(&[("steps", arr(&[n(1.0)])), ("maxAttempts", n(5.0)), ("free", n(2.0))])).unwrap().into();
    assert_eq!((num(&p, "growth"), num(&p, "attempts"), num(&p, "free")), (-1.0, 5.0, 2.0));
    // random option kinds
    assert_eq!(b::random_kind(&constant(&n(0.5)).into()).unwrap(), 1);
    assert_eq!(b::random_kind(&obj(&[("float", constant(&n(0.5)).into())])).unwrap(), 2);
    assert_eq!(b::random_kind(&obj(&[("next", constant(&n(0.5)).into())])).unwrap(), 3);
    let random =
        "random must be a Random (with float(min, max) or next()) or a function returning draws in [0, 1]; received ";
    for (v, shown) in
        [(n(5.0), "5"), (JsValue::NULL, "null"), (obj(&[]), "an object"), (obj(&[("next", n(1.0))]), "an object")]
    {
        err(b::random_kind(&v), "TypeError", &format!("{random}{shown}"));
    }
}

#[wasm_bindgen_test]
fn jitter_draws_and_results() {
    // ± jitter: Math.round(d * float(1 - f, 1 + f)), one draw from the seeded stream
    let text = JsString::from("jitter");
    let mut probe = Stream::from_text(&text).unwrap();
    let r = probe.next();
    let mut g = Stream::from_text(&text).unwrap();
    assert_eq!(g.jitter(2, 0.2, 4000.0), js_round(4000.0 * (0.8 + r * (1.2 - 0.8))));
    assert_eq!(g.words(), probe.words(), "exactly one draw");
    // full: Math.round(float(0, d))
    let r = probe.next();
    assert_eq!(g.jitter(3, 0.0, 4000.0), js_round(r * 4000.0));
    // no draw for jitter 0 or an unknown code; an infinite delay still draws once and stays infinite
    let before = g.words();
    assert_eq!(g.jitter(0, 0.0, 4000.0), 4000.0);
    assert_eq!(g.jitter(99, 0.5, 4000.0), 4000.0);
    assert!(b::jitter_draws(2, 0.5, f64::INFINITY) && !b::jitter_draws(0, 0.0, 5.0) && b::jitter_draws(3, 0.0, 5.0));
    assert_eq!(g.words(), before);
    assert_eq!(g.jitter(2, 0.5, f64::INFINITY), f64::INFINITY);
    assert_ne!(g.words(), before, "one draw for an overflowed delay");
    // draws from a JS Random's float(min, max): called with the draw's range, result checked
    let float_of = |v: JsValue| obj(&[("float", constant(&v).into())]);
    assert_eq!(b::js_jitter(&float_of(n(1.2)), 2, 2, 0.2, 1000.0).unwrap(), 1200.0);
    assert_eq!(b::js_jitter(&float_of(n(0.8)), 2, 2, 0.2, 1000.0).unwrap(), 800.0);
    assert_eq!(b::js_jitter(&float_of(n(999.5)), 2, 3, 0.0, 1000.0).unwrap(), 1000.0);
    err(
        b::js_jitter(&float_of(n(1.3)), 2, 2, 0.2, 1000.0),
        "RangeError",
        "random must be a source whose float(0.8, 1.2) stays in that range; received 1.3",
    );
    err(
        b::js_jitter(&float_of(s("5")), 2, 3, 0.0, 1000.0),
        "RangeError",
        "random must be a source whose float(0, 1000) stays in that range; received \"5\"",
    );
    err(
        b::js_jitter(&float_of(n(f64::NAN)), 2, 3, 0.0, 1000.0),
        "RangeError",
        "random must be a source whose float(0, 1000) stays in that range; received NaN",
    );
    // draws from a bare function (1) or next() (3): a raw r in [0, 1], scaled into the range
    assert_eq!(b::js_jitter(&constant(&n(1.0)).into(), 1, 2, 0.2, 1000.0).unwrap(), 1200.0);
    assert_eq!(b::js_jitter(&constant(&n(0.0)).into(), 1, 2, 0.2, 1000.0).unwrap(), 800.0);
    assert_eq!(b::js_jitter(&obj(&[("next", constant(&n(0.5)).into())]), 3, 3, 0.0, 1000.0).unwrap(), 500.0);
    assert_eq!(b::js_jitter(&constant(&n(0.0)).into(), 1, 4, 0.0, 1000.0).unwrap(), 500.0, "equal jitter");
    for (v, shown) in [(n(1.5), "1.5"), (n(-0.5), "-0.5"), (U, "undefined"), (n(f64::NAN), "NaN")] {
        err(
            b::js_jitter(&constant(&v).into(), 1, 2, 0.2, 1000.0),
            "RangeError",
            &format!("random must be a source of draws in [0, 1]; received {shown}"),
        );
    }
    // an exception thrown by the source passes through unchanged
    let thrown = b::js_jitter(&thrower("boom").into(), 1, 2, 0.2, 1000.0).unwrap_err();
    assert_eq!(field(&thrown, "message"), s("boom"));
}

#[wasm_bindgen_test]
fn compile_backoff_errors() {
    let dur = "must be a non-negative finite duration (ms, or text such as \"5 seconds\"); received ";
    let o = obj;
    let base = |v: JsValue| compile(&o(&[("base", v)]));
    err(base(n(-1.0)), "RangeError", &format!("base {dur}-1"));
    err(base(s("abc")), "RangeError", &format!("base {dur}\"abc\""));
    err(base(s("-5s")), "RangeError", &format!("base {dur}\"-5s\""));
    err(base(n(f64::INFINITY)), "RangeError", &format!("base {dur}Infinity"));
    err(base(n(f64::NAN)), "RangeError", &format!("base {dur}NaN"));
    err(base(JsValue::NULL), "TypeError", &format!("base {dur}null"));
    err(base(JsValue::TRUE), "TypeError", &format!("base {dur}true"));
    err(compile_obj(&o(&[("base", n(-1.0))]), true), "RangeError", &format!("interval {dur}-1"));
    let with = |k: &str, v: JsValue| compile(&o(&[("base", s("1 minute")), (k, v)]));
    err(with("factor", n(0.5)), "RangeError", "factor must be a finite number >= 1; received 0.5");
    err(with("factor", n(f64::INFINITY)), "RangeError", "factor must be a finite number >= 1; received Infinity");
    err(with("factor", s("2")), "TypeError", "factor must be a finite number >= 1; received \"2\"");
    err(with("max", s("1 second")), "RangeError", "max must be a duration >= base; received \"1 second\"");
    err(with("max", n(-1.0)), "RangeError", &format!("max {dur}-1"));
    err(
        compile_obj(&o(&[("base", n(10.0)), ("max", n(5.0))]), true),
        "RangeError",
        "cap must be a duration >= base; received 5",
    );
    let jitter = "jitter must be a number in [0, 1], \"full\", \"equal\" or \"decorrelated\"; received ";
    err(with("jitter", n(1.5)), "RangeError", &format!("{jitter}1.5"));
    err(with("jitter", n(-0.1)), "RangeError", &format!("{jitter}-0.1"));
    err(with("jitter", n(f64::NAN)), "RangeError", &format!("{jitter}NaN"));
    err(with("jitter", s("half")), "TypeError", &format!("{jitter}\"half\""));
    let free = "free must be a non-negative safe integer; received ";
    err(with("free", n(-1.0)), "RangeError", &format!("{free}-1"));
    err(with("free", n(1.5)), "RangeError", &format!("{free}1.5"));
    err(with("free", n(9_007_199_254_740_992.0)), "RangeError", &format!("{free}9007199254740992"));
    err(with("free", s("1")), "TypeError", &format!("{free}\"1\""));
    err(with("maxAttempts", n(0.0)), "RangeError", "maxAttempts must be an integer >= 1; received 0");
    err(
        with("growth", s("quadratic")),
        "TypeError",
        "growth must be \"exponential\", \"linear\" or \"constant\"; received \"quadratic\"",
    );
    err(
        compile(&o(&[("base", n(1.0)), ("growth", s("linear")), ("factor", n(3.0))])),
        "TypeError",
        "factor must be left out unless growth is \"exponential\"; received 3",
    );
    err(
        compile(&o(&[("steps", arr(&[]))])),
        "RangeError",
        "steps must be a non-empty array of durations; received an array",
    );
    err(
        compile(&o(&[("steps", s("10"))])),
        "TypeError",
        "steps must be a non-empty array of durations; received \"10\"",
    );
    err(compile(&o(&[("steps", arr(&[n(1.0), n(-1.0)]))])), "RangeError", &format!("steps[1] {dur}-1"));
    err(
        compile(&o(&[("steps", arr(&[n(1.0)])), ("base", n(1.0))])),
        "TypeError",
        "base must be left out when steps are given (steps and curve options exclude each other); received 1",
    );
    err(compile(&o(&[])), "TypeError", "base must be given (or steps instead); received undefined");
    err(
        compile(&o(&[("bse", n(1.0))])),
        "TypeError",
        "an option name must be one of base, growth, factor, max, steps, free, jitter, random, seed, maxAttempts; received \"bse\"",
    );
    for (v, shown) in [
        (U, "undefined"),
        (JsValue::NULL, "null"),
        (n(5.0), "5"),
        (s("1s"), "\"1s\""),
        (constant(&n(1.0)).into(), "a function"),
    ] {
        err(compile(&v), "TypeError", &format!("options must be an object; received {shown}"));
    }
}

#[wasm_bindgen_test]
fn invalid_option_builds_each_class() {
    setup();
    err::<()>(Err(b::invalid_option(0, "x", "y", &n(5.0))), "RangeError", "x must be y; received 5");
    err::<()>(Err(b::invalid_option(1, "x", "y", &s("5"))), "TypeError", "x must be y; received \"5\"");
    err::<()>(Err(b::invalid_option(2, "x", "y", &JsValue::NULL)), "SigilError", "x must be y; received null");
    err::<()>(Err(b::invalid_option(u32::MAX, "x", "y", &U)), "SigilError", "x must be y; received undefined");
}

// ------------------------------------------------------------------ garbage: nothing panics

/// What an export did with one input.
enum Outcome {
    /// Returned normally (a value, or an error value as `Err`).
    Returned(Result<JsValue, JsValue>),
    /// An exception passed through the export (it came from the input's own code).
    Thrown(JsValue),
}

/// Runs `f` behind a JS `try`, so an exception passing through wasm is observed
/// instead of failing the test.
fn outcome<T: Into<JsValue>>(f: impl FnOnce() -> Result<T, JsValue>) -> Outcome {
    let f = RefCell::new(Some(f));
    let slot: RefCell<Option<Result<JsValue, JsValue>>> = RefCell::new(None);
    let thrown = guarded(&|| {
        let f = f.borrow_mut().take().expect("called once");
        let r = f().map(Into::into);
        *slot.borrow_mut() = Some(r);
    });
    if thrown.is_null() {
        Outcome::Returned(slot.into_inner().expect("returned"))
    } else {
        Outcome::Thrown(Array::from(&thrown).get(0))
    }
}

/// Every export, fed `g` in every argument position that takes a JavaScript value.
/// Calls `check(label, outcome)` for each.
fn feed(g: &JsValue, check: &mut dyn FnMut(&str, Outcome)) {
    let mr = math_random();
    let o = |k: &str| obj(&[(k, g.clone())]);
    let o2 = |k: &str, k2: &str, v2: JsValue| obj(&[(k, g.clone()), (k2, v2)]);
    check("sigilDelay(g)", outcome(|| b::sigil_delay(g, &U, &mr)));
    check("sigilDelay(1, g)", outcome(|| b::sigil_delay(&n(1.0), g, &mr)));
    check("sigilDelay(1, {jitter}, g)", outcome(|| b::sigil_delay(&n(1.0), &obj(&[("jitter", n(0.5))]), g)));
    for k in ["baseDelayMs", "maxDelayMs", "jitter", "random", "maxAttempts"] {
        check(k, outcome(|| b::sigil_delay(&n(3.0), &o2(k, "jitter", n(0.5)), &mr)));
        check(k, outcome(|| b::sigil_delay(&n(3.0), &o(k), &mr)));
        check(k, outcome(|| b::sigil_max_attempts(&o(k))));
    }
    check(
        "sigilDelay random returns g",
        outcome(|| b::sigil_delay(&n(1.0), &obj(&[("jitter", n(0.5)), ("random", constant(g).into())]), &mr)),
    );
    check("sigilMaxAttempts(g)", outcome(|| b::sigil_max_attempts(g)));
    check("sigilSchedule(g)", outcome(|| b::sigil_schedule(g, &math_random()).map(|v| JsValue::from(v.len() as u32))));
    check("seedText(g)", outcome(|| b::seed_text(g)));
    check("Stream.fromText(g)", outcome(|| Stream::from_text(g.unchecked_ref()).map(|mut s| s.next())));
    check("checkWords(g)", outcome(|| b::check_words(g).map(|w| w.len() as f64)));
    check(
        "checkWords([g,…])",
        outcome(|| b::check_words(&arr(&[g.clone(), n(0.0), n(0.0), n(0.0)])).map(|w| w.len() as f64)),
    );
    check("checkIntBounds(g, 1)", outcome(|| b::check_int_bounds(g, &n(1.0)).map(|()| JsValue::TRUE)));
    check("checkIntBounds(0, g)", outcome(|| b::check_int_bounds(&n(0.0), g).map(|()| JsValue::TRUE)));
    check("checkFloatBounds(g, 1)", outcome(|| b::check_float_bounds(g, &n(1.0)).map(|()| JsValue::TRUE)));
    check("checkFloatBounds(0, g)", outcome(|| b::check_float_bounds(&n(0.0), g).map(|()| JsValue::TRUE)));
    check("durationMs(g)", outcome(|| b::duration_ms(g, "delay")));
    if let Some(text) = g.as_string() {
        check("parseDuration(g)", outcome(|| Ok::<_, JsValue>(b::parse_duration(&text))));
    }
    check("compileBackoff(g)", outcome(|| compile_obj(g, false)));
    check("compileBackoff(g, fluent)", outcome(|| compile_obj(g, true)));
    for k in ["base", "steps", "growth", "factor", "max", "free", "jitter", "random", "maxAttempts"] {
        check(k, outcome(|| compile_obj(&o(k), false)));
        check(k, outcome(|| compile_obj(&o2(k, "base", n(100.0)), false)));
    }
    check("steps [g]", outcome(|| compile_obj(&obj(&[("steps", arr(&[n(1.0), g.clone()]))]), false)));
    check("randomKind(g)", outcome(|| b::random_kind(g)));
    for kind in [0, 1, 2, 3, 4, 5, u32::MAX] {
        for source_kind in [1, 2, 3, 7] {
            check("jsJitter", outcome(|| b::js_jitter(g, source_kind, kind, 0.5, 1000.0)));
            check("jsDecorrelated", outcome(|| b::js_decorrelated(g, source_kind, 100.0, 1000.0, 3.0)));
        }
    }
    check("keyPrefix(g)", outcome(|| b::key_prefix_js(g).map(|w| JsValue::from(w.len()))));
    check("invalidOption", outcome(|| Err::<JsValue, _>(b::invalid_option(2, "o", "e", g))));
    check(
        "registerSigilError(g)",
        outcome(|| {
            b::register_sigil_error(g.clone().unchecked_into());
            let r = b::sigil_delay(&n(0.0), &U, &mr);
            setup();
            r
        }),
    );
}

fn garbage_run(values: &Array, hostile: bool) -> (u32, u32, u32) {
    setup();
    let (mut values_n, mut errors_n, mut thrown_n) = (0, 0, 0);
    for (i, g) in values.iter().enumerate() {
        feed(&g, &mut |label, out| match out {
            Outcome::Returned(Ok(_)) => values_n += 1,
            Outcome::Returned(Err(e)) => {
                errors_n += 1;
                let class = class_of(&e);
                if !hostile {
                    // registerSigilError(garbage) throws whatever `new garbage(message)`
                    // throws or makes: an internal export, called once by js/errors.ts
                    let ok = matches!(class, "RangeError" | "TypeError" | "SigilError")
                        || label == "registerSigilError(g)"
                        || (label == "sigilDelay(1, {jitter}, g)" && class == "Error");
                    assert!(ok, "garbage #{i} at {label}: unexpected {class}: {}", message(&e));
                } else {
                    assert!(is_error(&e), "hostile #{i} at {label}: not an Error");
                }
            }
            Outcome::Thrown(e) => {
                thrown_n += 1;
                // The export let an exception unwind through wasm instead of returning it.
                panic!("input #{i} at {label}: threw through wasm: {}", message(&e));
            }
        });
        still_works();
    }
    (values_n, errors_n, thrown_n)
}

#[wasm_bindgen_test]
fn plain_garbage_never_panics() {
    let (values, errors, thrown) = garbage_run(&plain_garbage(), false);
    console_log!(
        "plain garbage: {} inputs, {values} values, {errors} errors, {thrown} thrown through",
        plain_garbage().length()
    );
    assert!(values > 100 && errors > 1000 && thrown == 0, "{values} values, {errors} errors, {thrown} thrown");
    still_works();
}

#[wasm_bindgen_test]
fn hostile_inputs_never_panic() {
    let (values, errors, thrown) = garbage_run(&hostile_garbage(), true);
    console_log!(
        "hostile inputs: {} inputs, {values} values, {errors} errors, {thrown} thrown through",
        hostile_garbage().length()
    );
    assert!(values + errors > 100 && thrown == 0);
    still_works();
}

#[wasm_bindgen_test]
fn hostile_inputs_leave_the_module_intact_when_repeated() {
    // An exception thrown through wasm frames skips their epilogues; repeat the
    // hostile inputs many times so that any leak of wasm's shadow stack or a
    // RefCell borrow left held would show as a failure here.
    setup();
    let values = hostile_garbage();
    for _ in 0..100 {
        for g in values.iter() {
            feed(&g, &mut |_, _| ());
        }
    }
    still_works();
}

/// Edge numbers for the exports that take plain numbers (the JS glue converts
/// any argument with ToNumber / ToUint32 before Rust sees it).
const EDGES: [f64; 18] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    1.5,
    2.0,
    1000.0,
    4_294_967_296.0,
    9_007_199_254_740_991.0,
    9_007_199_254_740_992.0,
    1e308,
    f64::MAX,
    f64::MIN_POSITIVE,
    5e-324,
];
const CODES: [u32; 9] = [0, 1, 2, 3, 4, 5, 2_147_483_648, 4_294_967_294, u32::MAX];

#[wasm_bindgen_test]
fn number_exports_never_panic() {
    let e = |i: usize| EDGES[i % EDGES.len()];
    let len = EDGES.len();
    for &code in &CODES {
        for i in 0..len {
            for j in 0..len {
                let d = b::curve_delay(code, e(i), e(j), e(i + j), e(i * 3 + j), e(i * 7 + j * 5));
                if code > 2 {
                    assert_eq!(d, -1.0, "unknown growth code");
                }
                let idx = b::step_index_js(code, e(i), e(j));
                assert!(
                    idx == -1.0 || (idx >= 0.0 && idx < f64::from(code)),
                    "stepIndex({code}, {}, {}) = {idx}",
                    e(i),
                    e(j)
                );
                b::jitter_draws(code, e(i), e(j));
                b::keyed_jitter(code, 1, 2, 3, code, e(i), e(j), e(i + j));
                b::keyed_decorrelated(code, 1, 2, 3, e(i), e(j), e(i + j));
                b::jitter_band(code, e(i), e(j), e(i + j), e(i * 3 + j), e(i * 7 + j));
                b::counted_attempt(e(i), e(j));
                b::int_between_js(e(i), e(j), e(i + j));
                b::float_between_js(e(i), e(j), e(i + j));
                let mut g = Stream::from_words(code, e(i) as u32, e(j) as u32, code.wrapping_mul(7));
                g.next();
                g.jitter(code, e(i), e(j));
                g.decorrelated(e(i), e(j), e(i + j));
                g.words();
            }
        }
    }
    for text in ["", "-", "--", "-0", "0", "1 ", " 1", "1 weeks", &"1".repeat(1000), "\u{0}", "1\u{0}s", "💥", "1 💥"]
    {
        b::parse_duration(text);
        let _ = b::duration_ms(&s(text), text);
    }
    for option in ["", "\u{0}", &"x".repeat(10_000)] {
        b::invalid_option(0, option, option, &s(option));
    }
    still_works();
}
