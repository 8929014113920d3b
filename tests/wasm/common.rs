//! The wasm-bindgen test bodies, shared by `tests/wasm_node.rs` (Node) and
//! `tests/wasm_browser.rs` (headless Chromium). Each includer defines
//! `crate::IN_BROWSER`.
//!
//! They call the numbers-only exports of `src/bindings` directly (the same
//! functions the JS wrappers call, with the type tags, text buffer and result
//! slots the wrappers use) and assert exact values: the vectors of API.md
//! sections 1–4 through the wasm exports, the error each bad number records
//! (class, option, expected text, value blamed), and that no input at all makes
//! an export trap (a panic is a `RuntimeError: unreachable` that can poison the
//! module) or corrupt it for later calls. Messages end to end (with the
//! received value described) are the JS suites' job (tests/js).

use backoff_wasm::bindings::{self as b, tags::*};
use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen(inline_js = r#"
export function runtime() {
  const browser = typeof window === "object" && typeof document === "object";
  const node = typeof process === "object" && !!(process.versions && process.versions.node);
  const ua = typeof navigator === "object" && navigator.userAgent ? navigator.userAgent : "";
  return { browser, node, ua, webdriver: typeof navigator === "object" && navigator.webdriver === true };
}
"#)]
extern "C" {
    fn runtime() -> JsValue;
}

// ------------------------------------------------------------------ helpers

const INF: f64 = f64::INFINITY;
const NAN: f64 = f64::NAN;

/// Numbers no export may trap on.
const GARBAGE: [f64; 22] = [
    NAN,
    INF,
    -INF,
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    1.5,
    2.0,
    3.0,
    5.0,
    9.0,
    2_147_483_648.0,
    4_294_967_295.0,
    4_294_967_296.0,
    9_007_199_254_740_991.0,
    9_007_199_254_740_992.0,
    1e21,
    1e308,
    f64::MIN_POSITIVE,
    -1e308,
];

/// Tags and u32 arguments no export may trap on.
const GARBAGE_U32: [u32; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, u32::MAX];

/// The last recorded error: (class, option, expected, value index, element index).
#[derive(Debug, PartialEq)]
struct Recorded {
    kind: f64,
    option: String,
    expected: String,
    arg: f64,
    index: f64,
}

fn ascii_at(ptr: f64, len: f64) -> String {
    // SAFETY: the slots point at static ASCII strings of the module (this test
    // links the library, so they are in this instance's memory).
    let bytes = unsafe { std::slice::from_raw_parts(ptr as usize as *const u8, len as usize) };
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn recorded() -> Recorded {
    Recorded {
        kind: b::slot(b::ERR_KIND),
        option: ascii_at(b::slot(b::ERR_OPTION), b::slot(b::ERR_OPTION + 1)),
        expected: ascii_at(b::slot(b::ERR_EXPECTED), b::slot(b::ERR_EXPECTED + 1)),
        arg: b::slot(b::ERR_ARG),
        index: b::slot(b::ERR_INDEX),
    }
}

const RANGE: f64 = 0.0;
const TYPE: f64 = 1.0;
const SIGIL: f64 = 2.0;

/// Asserts the recorded error: class, option and expected text, value `arg`.
#[track_caller]
fn expect_error(kind: f64, option: &str, expected: &str, arg: f64) {
    let r = recorded();
    assert_eq!((r.kind, r.option.as_str(), r.expected.as_str(), r.arg), (kind, option, expected, arg));
}

/// Writes text into the buffer; its length.
fn text(s: &str) -> u32 {
    let units: Vec<u16> = s.encode_utf16().collect();
    b::write_text(&units).unwrap()
}

/// Writes a lone surrogate (not valid Unicode, legal in a JS string); its length.
fn lone_surrogate() -> u32 {
    b::write_text(&[0xD800]).unwrap()
}

fn parse(s: &str) -> f64 {
    b::parse_duration(text(s))
}

/// Validated `createBackoff` options as js/backoff.ts compiles them: `(curve
/// slots [growth, base, factor, cap], steps, shared slots [free, jitter,
/// fraction, attempts, keyed])`, or the status of the failing step.
struct Options {
    base: (u32, f64),
    steps: Option<Vec<(u32, f64)>>,
    growth: (u32, f64),
    factor: (u32, f64),
    max: (u32, f64),
    free: (u32, f64),
    jitter: (u32, f64),
    seed: u32,
    random: u32,
    attempts: (u32, f64),
}

const NONE: (u32, f64) = (UNDEFINED, NAN);

impl Options {
    fn new() -> Options {
        Options {
            base: NONE,
            steps: None,
            growth: NONE,
            factor: NONE,
            max: NONE,
            free: NONE,
            jitter: NONE,
            seed: UNDEFINED,
            random: UNDEFINED,
            attempts: NONE,
        }
    }
    fn base(mut self, ms: f64) -> Self {
        self.base = (NUMBER, ms);
        self
    }
}

#[derive(Debug, PartialEq)]
struct Policy {
    curve: [f64; 4],
    steps: Vec<f64>,
    shared: [f64; 5],
}

fn slots<const N: usize>() -> [f64; N] {
    std::array::from_fn(b::slot)
}

fn compile(o: &Options, fluent: bool) -> Result<Policy, ()> {
    let steps_tag = if o.steps.is_some() { ARRAY } else { UNDEFINED };
    let ok = b::compile_curve(
        fluent, o.base.0, o.base.1, steps_tag, o.growth.0, o.growth.1, o.factor.0, o.factor.1, o.max.0, o.max.1,
    );
    if ok != 0 {
        return Err(());
    }
    let curve: [f64; 4] = slots();
    let mut steps = vec![];
    if let Some(list) = &o.steps {
        if b::compile_steps(list.len() as f64) != 0 {
            return Err(());
        }
        assert_eq!(b::slot(0), list.len() as f64);
        for (i, (t, x)) in list.iter().enumerate() {
            if b::compile_step(*t, *x, i as f64) != 0 {
                return Err(());
            }
            steps.push(b::slot(0));
        }
    }
    let ok = b::compile_shared(
        fluent,
        curve[0] == -1.0,
        curve[3],
        o.free.0,
        o.free.1,
        o.jitter.0,
        o.jitter.1,
        o.seed,
        o.random,
        o.attempts.0,
        o.attempts.1,
    );
    if ok != 0 {
        return Err(());
    }
    Ok(Policy { curve, steps, shared: slots() })
}

/// `delay(attempt)` of a policy without jitter, as js/backoff.ts computes it.
fn delay(p: &Policy, attempt: f64) -> f64 {
    let [growth, base, factor, cap] = p.curve;
    let free = p.shared[0];
    if growth == -1.0 {
        let i = b::step_index_js(p.steps.len() as u32, free, attempt);
        if i < 0.0 { 0.0 } else { p.steps[i as usize] }
    } else {
        let d = b::curve_delay(growth as u32, base, factor, cap, free, attempt);
        if d < 0.0 { 0.0 } else { d }
    }
}

fn delays(o: &Options, attempts: std::ops::RangeInclusive<u32>) -> Vec<f64> {
    let p = compile(o, false).unwrap();
    attempts.map(|a| delay(&p, f64::from(a))).collect()
}

/// The first raw words `floor(next() * 2^32)` of the stream for seed text `seed`.
fn raw_words(seed: &str, count: usize) -> Vec<u32> {
    b::stream_seed(text(seed));
    (0..count).map(|_| (b::stream_next() * 4_294_967_296.0) as u32).collect()
}

/// Sigil's delays for retries 1..=count with options `(base, max, jitter)` and draw `r`.
fn sigil(base: f64, max: f64, jitter: f64, attempts: std::ops::RangeInclusive<u32>, r: f64) -> Vec<f64> {
    attempts.map(|a| b::sigil_delay(base, max, jitter, f64::from(a), r)).collect()
}

/// The vectors re-checked after every garbage run: the module still answers exactly.
fn still_works() {
    b::sigil_constants();
    assert_eq!(slots::<3>(), [8.0, 1000.0, 3_600_000.0]);
    assert_eq!(
        sigil(1000.0, 3_600_000.0, 0.0, 1..=7, 0.0),
        [1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0, 64000.0]
    );
    assert_eq!(b::sigil_delay(1000.0, 3_600_000.0, 0.25, 4.0, 1.0), 6000.0);
    assert_eq!(raw_words("42", 3), [3833195492, 3563769608, 4061610985]);
    assert_eq!(parse("15 seconds"), 15000.0);
    assert_eq!(delays(&Options::new().base(parse("1 second")), 1..=5), [1000.0, 2000.0, 4000.0, 8000.0, 16000.0]);
    let mut o = Options::new().base(1.0);
    o.factor = (NUMBER, 0.5);
    assert!(compile(&o, false).is_err());
    expect_error(RANGE, "factor", "a finite number >= 1", 3.0);
    assert_eq!(b::check_words(ARRAY, 1.0), 1);
    expect_error(RANGE, "state.words.length", "4", 1.0);
}

// ------------------------------------------------------------------ runtime

#[wasm_bindgen_test]
fn runs_in_the_intended_runtime() {
    let rt = runtime();
    let flag = |k: &str| Reflect::get(&rt, &JsValue::from_str(k)).unwrap().as_bool().unwrap();
    let ua = Reflect::get(&rt, &JsValue::from_str("ua")).unwrap().as_string().unwrap();
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
fn sigil_vectors() {
    still_works();
    let (base, max) = (1000.0, 3_600_000.0);
    assert_eq!(b::sigil_delay(base, max, 0.0, 40.0, 0.0), 3_600_000.0);
    assert_eq!(b::sigil_delay(base, max, 0.0, 1000.0, 0.0), 3_600_000.0);
    assert_eq!(b::sigil_delay(100.0, 250.0, 0.0, 3.0, 0.0), 250.0);
    assert_eq!(b::sigil_delay(base, max, 0.25, 4.0, 0.0), 8000.0);
    assert_eq!(sigil(base, max, 0.5, 1..=7, 1.0), [500.0, 1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0]);
    // jitter 0 takes no draw (the r passed is ignored); any other takes one
    assert!(!b::jitter_draws(1, 0.0, 1000.0));
    assert!(b::jitter_draws(1, 0.25, 1000.0));
    assert_eq!(b::sigil_delay(base, max, 0.0, 2.0, NAN), 2000.0);
}

#[wasm_bindgen_test]
fn sigil_checks_record_sigil_errors() {
    // defaults for undefined
    for (id, default) in
        [(b::SIGIL_BASE, 1000.0), (b::SIGIL_MAX, 3_600_000.0), (b::SIGIL_JITTER, 0.0), (b::SIGIL_ATTEMPTS, 8.0)]
    {
        assert_eq!(b::sigil_check(id, UNDEFINED, NAN), 0);
        assert_eq!(b::slot(0), default);
    }
    assert_eq!(b::sigil_check(b::SIGIL_ATTEMPT, NUMBER, 3.0), 0);
    let cases: &[(u32, u32, f64, &str, &str)] = &[
        (b::SIGIL_ATTEMPT, NUMBER, 0.0, "attempt", "an integer >= 1"),
        (b::SIGIL_ATTEMPT, NUMBER, 1.5, "attempt", "an integer >= 1"),
        (b::SIGIL_ATTEMPT, STRING, NAN, "attempt", "an integer >= 1"),
        (b::SIGIL_OPTIONS, NUMBER, 5.0, "options", "an object or undefined"),
        (b::SIGIL_OPTIONS, NULL, NAN, "options", "an object or undefined"),
        (b::SIGIL_BASE, NUMBER, -1.0, "baseDelayMs", "a non-negative number"),
        (b::SIGIL_BASE, NUMBER, NAN, "baseDelayMs", "a non-negative number"),
        (b::SIGIL_MAX, STRING, NAN, "maxDelayMs", "a non-negative number"),
        (b::SIGIL_JITTER, NUMBER, 1.5, "jitter", "0 (no jitter) or a number in (0, 1]"),
        (b::SIGIL_RANDOM, NUMBER, 1.0, "random", "a function returning numbers in [0, 1]"),
        (b::SIGIL_SEED, BOOLEAN, f64::from(UNDEFINED), "seed", "a string or a number"),
        (
            b::SIGIL_ATTEMPTS,
            NUMBER,
            1_000_002.0,
            "maxAttempts",
            "an integer from 1 to 1000001 for a whole schedule (iterate the policy for longer ones)",
        ),
    ];
    for &(id, tag, x, option, expected) in cases {
        assert_eq!(b::sigil_check(id, tag, x), 1, "{option} {x}");
        expect_error(SIGIL, option, expected, 0.0);
    }
    assert_eq!(b::sigil_check(99, NUMBER, 1.0), 1, "unknown ids fail, never trap");
    // seed with random is a TypeError
    assert_eq!(b::sigil_check(b::SIGIL_SEED, STRING, f64::from(FUNCTION)), 1);
    assert_eq!(recorded().kind, TYPE);
    assert!(recorded().expected.starts_with("left out when random is given"));
    // a bad draw: NaN, SigilError naming random
    for r in [NAN, -0.1, 1.01, INF] {
        assert!(b::sigil_delay(1000.0, 3_600_000.0, 0.5, 1.0, r).is_nan());
        expect_error(SIGIL, "random", "a function returning numbers in [0, 1]", 0.0);
    }
    // option names, through the text buffer
    assert_eq!(b::option_name(0, text("maxAttempts")), 0);
    assert_eq!(b::option_name(0, text("maxattempts")), 1);
    expect_error(SIGIL, "an option name", b::SIGIL_NAMES, 0.0);
    assert_eq!(b::option_name(1, text("steps")), 0);
    assert_eq!(b::option_name(1, lone_surrogate()), 1);
    expect_error(TYPE, "an option name", b::BACKOFF_NAMES, 0.0);
    assert_eq!(b::option_name(1, text("")), 1);
    still_works();
}

// ------------------------------------------------------------------ section 2: backoff

#[wasm_bindgen_test]
fn backoff_vectors() {
    assert_eq!(delays(&Options::new().base(1000.0), 1..=5), [1000.0, 2000.0, 4000.0, 8000.0, 16000.0]);
    let mut o = Options::new().base(100.0);
    o.factor = (NUMBER, 3.0);
    assert_eq!(delays(&o, 1..=4), [100.0, 300.0, 900.0, 2700.0]);
    let mut o = Options::new().base(parse("1 minute"));
    o.growth = (STRING, 1.0);
    assert_eq!(delays(&o, 1..=3), [60000.0, 120000.0, 180000.0]);
    let mut o = Options::new().base(parse("15 seconds"));
    o.max = (STRING, parse("1 minute"));
    assert_eq!(delays(&o, 1..=4), [15000.0, 30000.0, 60000.0, 60000.0]);
    o.max = (STRING, parse("12 hours"));
    assert_eq!(delays(&o, 20..=20), [43_200_000.0]);
    let mut o = Options::new().base(1000.0);
    o.free = (NUMBER, 3.0);
    assert_eq!(delays(&o, 1..=6), [0.0, 0.0, 0.0, 1000.0, 2000.0, 4000.0]);
    let mut o = Options::new();
    o.free = (NUMBER, 1.0);
    o.steps = Some(vec![(NUMBER, 10.0), (STRING, parse("20ms"))]);
    assert_eq!(delays(&o, 1..=4), [0.0, 10.0, 20.0, 20.0]);
    let p = compile(&o, false).unwrap();
    assert_eq!(p.steps, [10.0, 20.0]);
    assert_eq!(p.curve, [-1.0, 0.0, 1.0, INF]);
    // never throws for any attempt
    for a in GARBAGE {
        let d = delay(&p, a);
        assert!(d == 0.0 || d == 10.0 || d == 20.0, "{a}: {d}");
    }
    // the shared slots: [free, jitter, fraction, attempts, keyed]
    let mut o = Options::new().base(100.0);
    o.max = (NUMBER, 1000.0);
    o.jitter = (STRING, 5.0);
    o.seed = STRING;
    o.attempts = (NUMBER, 5.0);
    let p = compile(&o, true).unwrap();
    assert_eq!(p.shared, [0.0, 5.0, 0.0, 5.0, 1.0]);
    o.jitter = (NUMBER, 0.25);
    assert_eq!(compile(&o, false).unwrap().shared, [0.0, 2.0, 0.25, 5.0, 1.0]);
    o.jitter = (NUMBER, 0.0);
    o.attempts = NONE;
    assert_eq!(compile(&o, false).unwrap().shared[..2], [0.0, 0.0]);
    assert!(compile(&o, false).unwrap().shared[3].is_nan());
}

#[wasm_bindgen_test]
fn backoff_checks_record_errors() {
    #[track_caller]
    fn bad(o: Options, fluent: bool, kind: f64, option: &str, expected: &str, arg: f64) {
        assert!(compile(&o, fluent).is_err());
        expect_error(kind, option, expected, arg);
    }
    const DURATION: &str = "a non-negative finite duration (ms, or text such as \"5 seconds\")";
    bad(Options::new(), false, TYPE, "base", "given (or steps instead)", 0.0);
    bad(Options::new(), true, TYPE, "interval", "given (or steps instead)", 0.0);
    bad(Options::new().base(-1.0), false, RANGE, "base", DURATION, 0.0);
    bad(Options::new().base(parse("5 minuts")), true, RANGE, "interval", DURATION, 0.0);
    let mut o = Options::new();
    o.base = (BOOLEAN, NAN);
    bad(o, false, TYPE, "base", DURATION, 0.0);
    let mut o = Options::new().base(1.0);
    o.growth = (STRING, -1.0);
    bad(o, false, TYPE, "growth", "\"exponential\", \"linear\" or \"constant\"", 2.0);
    let mut o = Options::new().base(1.0);
    o.growth = (STRING, 2.0);
    o.factor = (NUMBER, 2.0);
    bad(o, false, TYPE, "factor", "left out unless growth is \"exponential\"", 3.0);
    let mut o = Options::new().base(1.0);
    o.factor = (NUMBER, INF);
    bad(o, false, RANGE, "factor", "a finite number >= 1", 3.0);
    let mut o = Options::new().base(10.0);
    o.max = (NUMBER, 5.0);
    bad(o, true, RANGE, "cap", "a duration >= base", 4.0);
    let mut o = Options::new().base(10.0);
    o.steps = Some(vec![]);
    bad(o, false, TYPE, "base", "left out when steps are given (steps and curve options exclude each other)", 0.0);
    let mut o = Options::new();
    o.steps = Some(vec![]);
    bad(o, false, RANGE, "steps", "a non-empty array of durations", 1.0);
    let mut o = Options::new();
    o.steps = Some(vec![(NUMBER, 1.0), (STRING, NAN)]);
    bad(o, false, RANGE, "steps", DURATION, 0.0);
    assert_eq!(recorded().index, 1.0);
    let mut o = Options::new().base(1.0);
    o.free = (NUMBER, 1.5);
    bad(o, false, RANGE, "free", "a non-negative safe integer", 5.0);
    let mut o = Options::new().base(1.0);
    o.jitter = (NUMBER, 1.5);
    bad(o, false, RANGE, "jitter", "a number in [0, 1], \"full\", \"equal\" or \"decorrelated\"", 6.0);
    let mut o = Options::new().base(1.0);
    o.jitter = (STRING, -1.0);
    bad(o, false, TYPE, "jitter", "a number in [0, 1], \"full\", \"equal\" or \"decorrelated\"", 6.0);
    let mut o = Options::new().base(1.0);
    o.jitter = (STRING, 5.0);
    bad(o, true, RANGE, "cap", "set for \"decorrelated\" jitter (it needs a cap)", 4.0);
    let mut o = Options::new();
    o.steps = Some(vec![(NUMBER, 1.0)]);
    o.jitter = (STRING, 5.0);
    bad(
        o,
        false,
        TYPE,
        "jitter",
        "a kind other than \"decorrelated\" with steps (decorrelated needs a base and a cap)",
        6.0,
    );
    let mut o = Options::new().base(1.0);
    o.seed = SYMBOL;
    bad(o, false, TYPE, "seed", "a string or a number", 7.0);
    let mut o = Options::new().base(1.0);
    o.seed = NUMBER;
    o.random = FUNCTION;
    assert!(compile(&o, false).is_err());
    assert_eq!((recorded().kind, recorded().option.as_str(), recorded().arg), (TYPE, "seed", 7.0));
    let mut o = Options::new().base(1.0);
    o.attempts = (NUMBER, 0.0);
    bad(o, false, RANGE, "maxAttempts", "an integer >= 1", 8.0);
    let mut o = Options::new().base(1.0);
    o.attempts = (STRING, NAN);
    bad(o, false, TYPE, "maxAttempts", "an integer >= 1", 8.0);
    // random kinds
    assert_eq!(b::random_kind(FUNCTION, UNDEFINED, UNDEFINED), 1);
    assert_eq!(b::random_kind(OBJECT, FUNCTION, UNDEFINED), 2);
    assert_eq!(b::random_kind(ARRAY, NUMBER, FUNCTION), 3);
    assert_eq!(b::random_kind(OBJECT, NUMBER, STRING), 0);
    expect_error(
        TYPE,
        "random",
        "a Random (with float(min, max) or next()) or a function returning draws in [0, 1]",
        0.0,
    );
    assert_eq!(b::check_schedule_attempts(1_000_002.0), 1);
    assert_eq!(recorded().option, "maxAttempts");
    assert_eq!(b::check_schedule_attempts(1_000_001.0), 0);
    still_works();
}

#[wasm_bindgen_test]
fn jitter_draws_and_ranges() {
    // ± jitter: d * float(1 - f, 1 + f); full: float(0, d); equal: d/2 + r*d/2
    assert_eq!(b::jitter_unit(2, 0.2, 4000.0, 0.5), 4000.0);
    assert_eq!(b::jitter_unit(2, 0.2, 4000.0, 1.0), 4800.0);
    assert_eq!(b::jitter_unit(3, 0.0, 4000.0, 0.25), 1000.0);
    assert_eq!(b::jitter_unit(4, 0.0, 1000.0, 0.0), 500.0);
    assert_eq!(b::jitter_unit(3, 0.0, INF, 0.0), INF);
    for r in [NAN, -0.5, 1.5, INF] {
        assert!(b::jitter_unit(2, 0.2, 4000.0, r).is_nan());
        expect_error(RANGE, "random", "a source of draws in [0, 1]", 0.0);
        assert!(b::unit_draw(0.0, 1.0, r).is_nan());
    }
    b::jitter_range(2, 0.2, 4000.0);
    assert_eq!(slots::<2>(), [0.8, 1.2]);
    b::jitter_range(3, 0.0, 4000.0);
    assert_eq!(slots::<2>(), [0.0, 4000.0]);
    assert_eq!(b::float_draw(0.8, 1.2, 1.2), 1.2);
    assert!(b::float_draw(0.8, 1.2, 1.3).is_nan());
    let r = recorded();
    assert_eq!(
        (r.option.as_str(), r.expected.as_str()),
        ("random", "a source whose float({}, {}) stays in that range")
    );
    assert_eq!([b::slot(b::ERR_NUMBERS), b::slot(b::ERR_NUMBERS + 1)], [0.8, 1.2]);
    assert_eq!(b::jitter_finish(2, 0.2, 4000.0, 1.2), 4800.0);
    b::jitter_band(2, 0.5, 100.0, 0.0, 0.0, 0.0);
    assert_eq!(slots::<2>(), [50.0, 150.0]);
    b::jitter_band(5, 0.0, 0.0, 100.0, 30_000.0, 2.0);
    assert_eq!(slots::<2>(), [100.0, 900.0]);
    // decorrelated, step by step as js/backoff.ts draws from a JS source: r = 1 always
    let steps = |n: f64| {
        let mut sleep = 100.0;
        for _ in 0..b::decorrelated_steps_js(n) {
            let x = b::unit_draw(100.0, b::decorrelated_high_js(sleep), 1.0);
            sleep = b::decorrelated_next_js(x, 30_000.0);
        }
        b::decorrelated_finish(sleep)
    };
    assert_eq!(
        (1..=7).map(|n| steps(f64::from(n))).collect::<Vec<_>>(),
        [300.0, 900.0, 2700.0, 8100.0, 24300.0, 30000.0, 30000.0]
    );
    assert_eq!(b::decorrelated_steps_js(INF), 1000);
    assert_eq!(b::decorrelated_steps_js(3.5), 3);
}

// ------------------------------------------------------------------ section 3: random

#[wasm_bindgen_test]
fn seeded_streams_and_keyed_draws() {
    assert_eq!(raw_words("42", 6), [3833195492, 3563769608, 4061610985, 767254976, 3389111029, 3727552234]);
    assert_eq!(raw_words("signup-suite", 6), [1665886051, 3924901832, 1861224746, 2455819951, 2930940383, 493917030]);
    assert_eq!(raw_words("", 6), [3075608207, 1941113166, 1250698130, 1973185690, 24547140, 1714710821]);
    b::stream_seed(text("42"));
    let got: Vec<f64> = (0..8).map(|_| b::int_between_js(0.0, 999.0, b::stream_next())).collect();
    assert_eq!(got, [892.0, 829.0, 945.0, 178.0, 789.0, 867.0, 759.0, 526.0]);
    // save and load resume exactly
    b::stream_seed(text("resume"));
    b::stream_next();
    let w = [b::stream_word(0), b::stream_word(1), b::stream_word(2), b::stream_word(3)];
    let next = b::stream_next();
    b::stream_load(w[0], w[1], w[2], w[3]);
    assert_eq!(b::stream_next(), next);
    // a long seed goes through grown pages
    let long = "seed ".repeat(10_000);
    let words = raw_words(&long, 2);
    assert_eq!(raw_words(&long, 2), words);
    // keyed draws: the first draw of "<seed> <key>"
    b::key_prefix(text("job-7"));
    let k: [f64; 4] = slots();
    let [k0, k1, k2, k3] = k.map(|x| x as u32);
    for (key, key_text) in [(1.0, "1"), (5.0, "5"), (-3.0, "-3"), (9_007_199_254_740_993.0, "9007199254740992")] {
        b::stream_seed(text(&format!("job-7 {key_text}")));
        assert_eq!(b::keyed_draw_js(k0, k1, k2, k3, key), b::stream_next(), "{key}");
    }
    assert!(b::keyed_draw_js(k0, k1, k2, k3, 2.5).is_nan());
    assert!(b::keyed_draw_js(k0, k1, k2, k3, 1e21).is_nan());
    b::stream_seed(text("job-7 1e+21"));
    assert_eq!(b::keyed_draw_text(k0, k1, k2, k3, text("1e+21")), b::stream_next());
    // checks
    assert_eq!(b::check_seed(0, STRING, NAN), 0);
    assert_eq!(b::check_seed(0, NUMBER, NAN), 0, "createRandom(NaN) hashes \"NaN\"");
    assert_eq!(b::check_seed(1, NUMBER, INF), 0, "restoreRandom takes what state() writes");
    assert_eq!(b::check_seed(2, NUMBER, 7.0), 0);
    assert_eq!(b::check_seed(0, OBJECT, NAN), 1);
    expect_error(TYPE, "seed", "a string or a number", 0.0);
    assert_eq!(b::check_seed(1, BOOLEAN, NAN), 1);
    expect_error(TYPE, "state.seed", "a string or a number", 0.0);
    assert_eq!(b::check_seed(2, NUMBER, NAN), 1, "the schema, as upstream's: a finite number");
    expect_error(TYPE, "state.seed", "a string or a finite number", 0.0);
    // pick (0) and shuffle (1): an array whose length is an item count
    assert_eq!(b::check_items(0, ARRAY, 3.0), 0);
    assert_eq!(b::check_items(0, ARRAY, 4_294_967_295.0), 0);
    assert_eq!(b::check_items(1, ARRAY, 0.0), 0);
    assert_eq!(b::check_items(1, ARRAY, 16_777_216.0), 0);
    assert_eq!(b::check_items(0, OBJECT, 3.0), 1);
    expect_error(TYPE, "items", "an array", 0.0);
    assert_eq!(b::check_items(0, ARRAY, 0.0), 1);
    expect_error(RANGE, "items", "a non-empty array", 0.0);
    assert_eq!(b::check_items(0, ARRAY, 1.5), 1);
    expect_error(RANGE, "items.length", "an integer from {} to {}", 1.0);
    assert_eq!(b::check_items(1, ARRAY, 2e9), 1);
    expect_error(RANGE, "items.length", "an integer from {} to {}", 1.0);
    assert_eq!(b::check_items(1, ARRAY, NAN), 1);
    assert_eq!(b::check_words(OBJECT, NAN), 1);
    expect_error(TYPE, "state.words", "an array of four unsigned 32-bit integers", 0.0);
    assert_eq!(b::check_words(ARRAY, 4.0), 0);
    assert_eq!(b::check_word(2, NUMBER, 4_294_967_296.0), 1);
    expect_error(RANGE, "state.words", "an unsigned 32-bit integer", 0.0);
    assert_eq!(recorded().index, 2.0);
    assert_eq!(b::check_word(3, STRING, NAN), 1);
    assert_eq!(recorded().kind, TYPE);
    assert_eq!(b::check_int_bounds(NUMBER, 0.0, NUMBER, 10.0), 0);
    assert_eq!(b::check_int_bounds(NUMBER, 0.5, NUMBER, 10.0), 1);
    expect_error(RANGE, "min", "a safe integer", 0.0);
    assert_eq!(b::check_int_bounds(NUMBER, 5.0, NUMBER, 4.0), 1);
    expect_error(RANGE, "max", "an integer >= min", 1.0);
    assert_eq!(b::check_float_bounds(NUMBER, 0.0, STRING, NAN), 1);
    expect_error(TYPE, "max", "a finite number", 1.0);
    assert_eq!(b::check_float_bounds(NUMBER, INF, NUMBER, 1.0), 1);
    expect_error(RANGE, "min", "a finite number", 0.0);
}

// ------------------------------------------------------------------ section 4: duration, and Retry-After

#[wasm_bindgen_test]
fn duration_text_and_retry_after() {
    for (t, ms) in [
        ("1 second", 1000.0),
        ("250ms", 250.0),
        ("  7s\n", 7000.0),
        ("\u{FEFF}\u{00A0}7s\u{2028}", 7000.0),
        ("1 week", 604_800_000.0),
        ("42", 42.0),
        ("-5s", -5000.0),
    ] {
        assert_eq!(parse(t), ms, "{t:?}");
    }
    for t in ["", "1.5s", "05", "1 Second", "1 toString", "5 minuts"] {
        assert!(parse(t).is_nan(), "{t:?}");
    }
    assert!(b::parse_duration(lone_surrogate()).is_nan());
    assert!(b::parse_duration(b::write_text(&[u16::from(b'5'), 0xDC00]).unwrap()).is_nan());
    assert!(parse("-0").is_sign_negative());
    assert!(parse(&"x".repeat(10_000)).is_nan());
    assert_eq!(parse(&"9".repeat(400)), INF);
    assert_eq!(parse(&format!("{}5s{}", " ".repeat(5000), " ".repeat(5000))), 5000.0);
    assert_eq!(parse(&"9".repeat(100_000)), INF);
    let now = 1_795_910_400_000.0; // 2026-11-29T00:00:00Z
    let retry = |v: &str| b::retry_after_value_ms(text(v), now);
    assert_eq!(retry("120"), 120_000.0);
    assert_eq!(retry(" 120\t"), 120_000.0);
    assert_eq!(retry("Sun, 29 Nov 2026 00:00:02 GMT"), 2000.0);
    assert_eq!(retry("Sunday, 29-Nov-26 00:01:00 GMT"), 60_000.0);
    assert_eq!(retry("Sun Nov 29 00:01:00 2026"), 60_000.0);
    assert_eq!(retry("Sun, 06 Nov 1994 08:49:37 GMT"), 0.0);
    assert_eq!(retry(&"9".repeat(400)), INF);
    for v in ["", "-3", "1.5", "soon", "Sun, 06 Nov 1994 08:49:37 GMT\u{e9}"] {
        assert!(retry(v).is_nan(), "{v:?}");
    }
    assert!(b::retry_after_value_ms(lone_surrogate(), now).is_nan());
    assert!(b::retry_after_value_ms(text("120"), NAN).is_nan());
}

// ------------------------------------------------------------------ garbage

#[wasm_bindgen_test]
fn no_number_traps_any_export() {
    b::key_prefix(text("g"));
    for &x in &GARBAGE {
        for &y in &GARBAGE {
            let _ = b::sigil_delay(x, y, x, y, x);
            let _ = b::sigil_delay(1000.0, 3_600_000.0, 0.5, x, y);
            let _ = b::curve_delay(0, x, y, x, y, x);
            let _ = b::curve_delay(1, x, 2.0, y, 0.0, x);
            let _ = b::step_index_js(3, x, y);
            let _ = b::counted_attempt(x, y);
            let _ = b::int_between_js(x, y, 0.5);
            let _ = b::float_between_js(x, y, 0.5);
            let _ = b::float_draw(x, y, x);
            let _ = b::unit_draw(x, y, 0.5);
            let _ = b::decorrelated_next_js(x, y);
            let _ = b::decorrelated_finish(x);
            let _ = b::decorrelated_high_js(y);
            let _ = b::compile_step(NUMBER, x, y);
            let _ = b::compile_steps(x);
            let _ = b::check_words(ARRAY, x);
            let _ = b::check_schedule_attempts(x);
            let _ = b::retry_after_value_ms(text("Sun, 06 Nov 1994 08:49:37 GMT"), x);
            let _ = b::compile_shared(false, false, x, NUMBER, y, NUMBER, x, UNDEFINED, UNDEFINED, NUMBER, y);
            let _ = b::compile_curve(true, NUMBER, x, UNDEFINED, STRING, y, NUMBER, x, NUMBER, y);
        }
        for &t in &GARBAGE_U32 {
            let _ = b::jitter_unit(t, x, x, 0.5);
            let _ = b::jitter_finish(t, x, x, 0.5);
            let _ = b::jitter_draws(t, x, x);
            b::jitter_range(t, x, x);
            b::jitter_band(t, x, x, x, x, x);
            let _ = b::stream_jitter(t, x, x);
            let _ = b::sigil_check(t, t, x);
            let _ = b::sigil_check(t, NUMBER, x);
            let _ = b::check_word(t, t, x);
            let _ = b::check_word(t, NUMBER, x);
            let _ = b::check_int_bounds(t, x, NUMBER, x);
            let _ = b::check_float_bounds(t, x, t, x);
            let _ = b::compile_step(t, x, x);
            let _ = b::step_index_js(t, 0.0, x);
            let _ = b::keyed_draw_js(t, t, t, t, x);
            let _ = b::curve_delay(t, 1.0, 2.0, INF, 0.0, x);
            let _ = b::option_name(t, text("base"));
            let _ = b::random_kind(t, t, t);
            let _ = b::check_seed(t, t, x);
            let _ = b::check_items(t, t, x);
            let _ = b::compile_curve(false, t, x, t, t, x, t, x, t, x);
            let _ = b::compile_shared(true, true, x, t, x, t, x, t, t, t, x);
            let _ = b::stream_word(t);
            b::stream_load(t, t, t, t);
            let _ = b::stream_next();
        }
    }
    // decorrelated loops are bounded for any attempt (1000 draws at most)
    for &n in &[1.0, 999.0, 1000.0, 1001.0, 9_007_199_254_740_991.0, INF, NAN, -1.0, 1e308] {
        let _ = b::stream_decorrelated(100.0, 30_000.0, n);
        let _ = b::keyed_decorrelated(1, 2, 3, 4, 100.0, 30_000.0, n);
        let _ = b::decorrelated_steps_js(n);
    }
    // text lengths beyond the buffer's capacity: read as invalid, never out of bounds
    let at = b::text_buffer(3);
    assert_ne!(at, 0);
    for len in [4, 256, 257, 1_000_000, u32::MAX] {
        let beyond = len > 256;
        assert!(!beyond || b::parse_duration(len).is_nan());
        assert!(!beyond || b::retry_after_value_ms(len, 0.0).is_nan());
        let _ = b::option_name(1, len);
        b::stream_seed(len);
        b::key_prefix(len);
        let _ = b::keyed_draw_text(1, 2, 3, 4, len);
    }
    // memory cannot hold 2^32 - 1 code units: 0, and the next call sees no text
    assert_eq!(b::text_buffer(u32::MAX), 0);
    assert!(b::parse_duration(0).is_nan());
    still_works();
}
