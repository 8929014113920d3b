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

/// `compileCurve` with its fields written into the input slots by name, as
/// js/policy/backoff.ts writes them (`unknown`: an unknown option name was found).
#[allow(clippy::too_many_arguments)]
fn compile_curve(
    fluent: bool,
    unknown: bool,
    base_tag: u32,
    base: f64,
    steps_tag: u32,
    growth_tag: u32,
    growth: f64,
    factor_tag: u32,
    factor: f64,
    max_tag: u32,
    max: f64,
    cap_tag: u32,
    cap: f64,
) -> u32 {
    use b::arg;
    b::put_input(arg::NAME, if unknown { STRING } else { UNDEFINED }, NAN);
    b::put_input(arg::BASE, base_tag, base);
    b::put_input(arg::STEPS, steps_tag, NAN);
    b::put_input(arg::GROWTH, growth_tag, growth);
    b::put_input(arg::FACTOR, factor_tag, factor);
    b::put_input(arg::MAX, max_tag, max);
    b::put_input(arg::CAP, cap_tag, cap);
    b::compile_curve(fluent)
}

/// `compileShared` with its fields written into the input slots by name, as
/// js/policy/backoff.ts writes them (`seeded`: `random` is a seeded stream of the
/// package; else the tags of its `float` and `next`).
#[allow(clippy::too_many_arguments)]
fn compile_shared(
    fluent: bool,
    free_tag: u32,
    free: f64,
    jitter_tag: u32,
    jitter: f64,
    seed_tag: u32,
    seed_len: u32,
    attempts_tag: u32,
    attempts: f64,
    random_tag: u32,
    seeded: bool,
    float_tag: u32,
    next_tag: u32,
) -> u32 {
    use b::arg;
    b::put_input(arg::FREE, free_tag, free);
    b::put_input(arg::JITTER, jitter_tag, jitter);
    b::put_input(arg::SEED, seed_tag, f64::from(seed_len));
    b::put_input(arg::ATTEMPTS, attempts_tag, attempts);
    let sources = if seeded { -1.0 } else { f64::from(float_tag) * 16.0 + f64::from(next_tag) };
    b::put_input(arg::RANDOM, random_tag, sources);
    b::compile_shared(fluent)
}

/// `sigil` with its fields written into the input slots by name, as js/policy/sigil.ts writes them.
#[allow(clippy::too_many_arguments)]
fn sigil_call(
    schedule: bool,
    attempt_tag: u32,
    attempt: f64,
    options_tag: u32,
    unknown: bool,
    base_tag: u32,
    base: f64,
    max_tag: u32,
    max: f64,
    jitter_tag: u32,
    jitter: f64,
    random_tag: u32,
    seeded: bool,
    seed_tag: u32,
    seed_len: u32,
    attempts_tag: u32,
    attempts: f64,
) -> f64 {
    use b::sigil_arg as f;
    b::put_input(f::ATTEMPT, attempt_tag, attempt);
    b::put_input(f::OPTIONS, options_tag, NAN);
    b::put_input(f::NAME, if unknown { STRING } else { UNDEFINED }, NAN);
    b::put_input(f::BASE, base_tag, base);
    b::put_input(f::MAX, max_tag, max);
    b::put_input(f::JITTER, jitter_tag, jitter);
    b::put_input(f::RANDOM, random_tag, if seeded { 1.0 } else { 0.0 });
    b::put_input(f::SEED, seed_tag, f64::from(seed_len));
    b::put_input(f::ATTEMPTS, attempts_tag, attempts);
    b::sigil(schedule)
}

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

/// The wording a slot names by id (`core::wording`, as js/engine/errors.ts reads `WORDING`).
fn wording_at(id: f64) -> String {
    backoff_wasm::core::wording::text_at(id as usize).to_string()
}

fn recorded() -> Recorded {
    Recorded {
        kind: b::slot(b::ERR_KIND),
        option: wording_at(b::slot(b::ERR_OPTION)),
        expected: wording_at(b::slot(b::ERR_EXPECTED)),
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

/// The duration text of `len` code units in the text buffer, read by the core's
/// parser compiled to wasm (the package reads duration text in JavaScript, with the
/// same answers: tests/js/duration-vectors.test.mjs); NaN when it is no duration or
/// no text.
fn parse_at(len: u32) -> f64 {
    b::text(len).and_then(backoff_wasm::core::duration::parse_units).unwrap_or(NAN)
}

fn parse(s: &str) -> f64 {
    parse_at(text(s))
}

/// `createBackoff` options as js/policy/backoff.ts passes them: (tag, number) pairs.
struct Options {
    base: (u32, f64),
    steps: Option<Vec<(u32, f64)>>,
    growth: (u32, f64),
    factor: (u32, f64),
    max: (u32, f64),
    cap: (u32, f64),
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
            cap: NONE,
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

/// A compiled policy: the record `compile*` left in the register.
#[derive(Debug, PartialEq)]
struct Policy {
    rec: Vec<f64>,
}

fn slots<const N: usize>() -> [f64; N] {
    std::array::from_fn(b::slot)
}

fn compile(o: &Options, fluent: bool) -> Result<Policy, ()> {
    let steps_tag = if o.steps.is_some() { ARRAY } else { UNDEFINED };
    let ok = compile_curve(
        fluent, false, o.base.0, o.base.1, steps_tag, o.growth.0, o.growth.1, o.factor.0, o.factor.1, o.max.0, o.max.1,
        o.cap.0, o.cap.1,
    );
    if ok != 0 {
        return Err(());
    }
    let mut len = b::rec::HEADER;
    if let Some(list) = &o.steps {
        if b::compile_steps(list.len() as f64) != 0 {
            return Err(());
        }
        assert_eq!(b::register_slot(b::rec::STEPS), list.len() as f64);
        for (i, (t, x)) in list.iter().enumerate() {
            if b::compile_step(*t, *x, i as u32) != 0 {
                return Err(());
            }
        }
        len += list.len();
    }
    let seed_len = if o.seed == UNDEFINED { 0 } else { text("s") };
    let ok = compile_shared(
        fluent,
        o.free.0,
        o.free.1,
        o.jitter.0,
        o.jitter.1,
        o.seed,
        seed_len,
        o.attempts.0,
        o.attempts.1,
        o.random,
        false,
        UNDEFINED,
        UNDEFINED,
    );
    if ok != 0 {
        return Err(());
    }
    Ok(Policy { rec: (0..len).map(b::register_slot).collect() })
}

/// `delay(attempt)` of the policy last compiled (in the register).
fn delay(attempt: f64) -> f64 {
    b::delay(attempt, 0)
}

fn delays(o: &Options, attempts: std::ops::RangeInclusive<u32>) -> Vec<f64> {
    compile(o, false).unwrap();
    attempts.map(|a| delay(f64::from(a))).collect()
}

/// The first raw words `floor(next() * 2^32)` of the stream for seed text `seed`.
fn raw_words(seed: &str, count: usize) -> Vec<u32> {
    b::stream_seed(text(seed));
    (0..count).map(|_| (b::stream_next() * 4_294_967_296.0) as u32).collect()
}

/// Sigil's `nextDelayMs(attempt, { baseDelayMs, maxDelayMs, jitter })` in one call, drawing
/// from the loaded seeded stream (`seededRandom`).
fn sigil_delay(base: f64, max: f64, jitter: f64, attempt: f64) -> f64 {
    sigil_call(
        false, NUMBER, attempt, OBJECT, false, NUMBER, base, NUMBER, max, NUMBER, jitter, FUNCTION, true, UNDEFINED, 0,
        UNDEFINED, NAN,
    )
}

/// Sigil's delays for retries in `attempts` without jitter.
fn sigil(base: f64, max: f64, attempts: std::ops::RangeInclusive<u32>) -> Vec<f64> {
    attempts.map(|a| sigil_delay(base, max, 0.0, f64::from(a))).collect()
}

/// The vectors re-checked after every garbage run: the module still answers exactly.
fn still_works() {
    assert_eq!(sigil(1000.0, 3_600_000.0, 1..=7), [1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0, 64000.0]);
    assert_eq!(raw_words("42", 3), [3833195492, 3563769608, 4061610985]);
    assert_eq!(parse("15 seconds"), 15000.0);
    assert_eq!(delays(&Options::new().base(parse("1 second")), 1..=5), [1000.0, 2000.0, 4000.0, 8000.0, 16000.0]);
    let mut o = Options::new().base(1.0);
    o.factor = (NUMBER, 0.5);
    assert!(compile(&o, false).is_err());
    expect_error(RANGE, "factor", "a finite number >= 1", f64::from(b::arg::FACTOR));
    assert_eq!(b::check_words(ARRAY, 1.0), 1);
    expect_error(RANGE, "state.words.length", "4", 1.0);
}

// ------------------------------------------------------------------ runtime

/// What the browser's user agent names: headless Chromium unless `scripts/test-wasm.sh` built
/// the tests for another browser (`BACKOFF_WASM_TEST_UA`, e.g. `Firefox/`).
const BROWSER_UA: &str = match option_env!("BACKOFF_WASM_TEST_UA") {
    Some(ua) => ua,
    None => "HeadlessChrome",
};

#[wasm_bindgen_test]
fn runs_in_the_intended_runtime() {
    let rt = runtime();
    let flag = |k: &str| Reflect::get(&rt, &JsValue::from_str(k)).unwrap().as_bool().unwrap();
    let ua = Reflect::get(&rt, &JsValue::from_str("ua")).unwrap().as_string().unwrap();
    if crate::IN_BROWSER {
        assert!(flag("browser") && !flag("node"), "expected a browser page, got {ua:?}");
        assert!(ua.contains(BROWSER_UA), "expected a browser whose user agent names {BROWSER_UA:?}, got {ua:?}");
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
    assert_eq!(sigil_delay(base, max, 0.0, 40.0), 3_600_000.0);
    assert_eq!(sigil_delay(base, max, 0.0, 1000.0), 3_600_000.0);
    assert_eq!(sigil_delay(100.0, 250.0, 0.0, 3.0), 250.0);
    // subtract-only jitter: round(d * (1 - f * r)), r the stream's next draw
    b::stream_seed(text("sigil"));
    let r = b::stream_next();
    b::stream_seed(text("sigil"));
    assert_eq!(sigil_delay(base, max, 0.25, 4.0), (8000.0 * (1.0 - 0.25 * r)).round());
    // a schedule: validated once, the attempts answered, Sigil's policy in the register
    let n = sigil_call(
        true, UNDEFINED, NAN, UNDEFINED, false, UNDEFINED, NAN, UNDEFINED, NAN, UNDEFINED, NAN, UNDEFINED, false,
        UNDEFINED, 0, UNDEFINED, NAN,
    );
    assert_eq!(n, 8.0);
    assert_eq!(
        (1..8).map(|a| delay(f64::from(a))).collect::<Vec<_>>(),
        [1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0, 64000.0]
    );
}

#[wasm_bindgen_test]
fn sigil_checks_record_sigil_errors() {
    #[track_caller]
    fn bad(tags: [u32; 7], x: [f64; 6], option: &str, expected: &str, arg: f64) {
        let [at, ot, bt, mt, jt, rt, st] = tags;
        let [a, bx, m, j, attempts_tag, attempts] = x;
        let d =
            sigil_call(attempts_tag == 1.0, at, a, ot, false, bt, bx, mt, m, jt, j, rt, false, st, 0, NUMBER, attempts);
        assert!(d.is_nan(), "{option}");
        let kind = if option == "seed" && rt != UNDEFINED { TYPE } else { SIGIL };
        expect_error(kind, option, expected, arg);
    }
    let u = UNDEFINED;
    let ok = [NUMBER, OBJECT, u, u, u, u, u];
    let with = |i: usize, t: u32| {
        let mut k = ok;
        k[i] = t;
        k
    };
    bad(ok, [0.0, NAN, NAN, NAN, 0.0, NAN], "attempt", "an integer >= 1", f64::from(b::sigil_arg::ATTEMPT));
    bad(ok, [1.5, NAN, NAN, NAN, 0.0, NAN], "attempt", "an integer >= 1", f64::from(b::sigil_arg::ATTEMPT));
    bad(
        with(0, STRING),
        [NAN, NAN, NAN, NAN, 0.0, NAN],
        "attempt",
        "an integer >= 1",
        f64::from(b::sigil_arg::ATTEMPT),
    );
    bad(
        with(1, NUMBER),
        [1.0, NAN, NAN, NAN, 0.0, NAN],
        "options",
        "an object or undefined",
        f64::from(b::sigil_arg::OPTIONS),
    );
    bad(
        with(1, NULL),
        [1.0, NAN, NAN, NAN, 0.0, NAN],
        "options",
        "an object or undefined",
        f64::from(b::sigil_arg::OPTIONS),
    );
    bad(
        with(2, NUMBER),
        [1.0, -1.0, NAN, NAN, 0.0, NAN],
        "baseDelayMs",
        "a non-negative number",
        f64::from(b::sigil_arg::BASE),
    );
    bad(
        with(3, STRING),
        [1.0, NAN, NAN, NAN, 0.0, NAN],
        "maxDelayMs",
        "a non-negative number",
        f64::from(b::sigil_arg::MAX),
    );
    bad(
        with(4, NUMBER),
        [1.0, NAN, NAN, 1.5, 0.0, NAN],
        "jitter",
        "0 (no jitter) or a number in (0, 1]",
        f64::from(b::sigil_arg::JITTER),
    );
    bad(
        with(5, NUMBER),
        [1.0, NAN, NAN, NAN, 0.0, NAN],
        "random",
        "a function returning numbers in [0, 1]",
        f64::from(b::sigil_arg::RANDOM),
    );
    bad(
        with(6, BOOLEAN),
        [1.0, NAN, NAN, NAN, 0.0, NAN],
        "seed",
        "a string or a number",
        f64::from(b::sigil_arg::SEED),
    );
    let mut seed_and_random = with(6, STRING);
    seed_and_random[5] = FUNCTION;
    let d = sigil_call(false, NUMBER, 1.0, OBJECT, false, u, NAN, u, NAN, u, NAN, FUNCTION, false, STRING, 0, u, NAN);
    assert!(d.is_nan());
    assert_eq!(recorded().kind, TYPE);
    assert!(recorded().expected.starts_with("left out when random is given"));
    let _ = seed_and_random;
    bad(
        ok,
        [NAN, NAN, NAN, NAN, 1.0, 1_000_002.0],
        "maxAttempts",
        "an integer from 1 to 1000001 for a whole schedule (iterate the policy for longer ones)",
        8.0,
    );
    // an unknown option name, in its place: after the options' type, before the values
    let d = sigil_call(false, NUMBER, 1.0, OBJECT, true, NUMBER, -1.0, u, NAN, u, NAN, u, false, u, 0, u, NAN);
    assert!(d.is_nan());
    expect_error(SIGIL, "an option name", b::SIGIL_NAMES, f64::from(b::sigil_arg::NAME));
    // a draw from a JavaScript source that is not in [0, 1] (no host here: NaN): SigilError naming random
    let d = sigil_call(false, NUMBER, 1.0, OBJECT, false, u, NAN, u, NAN, NUMBER, 0.5, FUNCTION, false, u, 0, u, NAN);
    assert!(d.is_nan());
    expect_error(SIGIL, "random", "a function returning numbers in [0, 1]", 0.0);
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
    assert_eq!(p.rec[b::rec::HEADER..], [10.0, 20.0]);
    assert_eq!(p.rec[..5], [f64::from(b::rec::STEPPED), 0.0, 1.0, INF, INF]);
    // never throws for any attempt
    for a in GARBAGE {
        let d = delay(a);
        assert!(d == 0.0 || d == 10.0 || d == 20.0, "{a}: {d}");
    }
    // the record: [free, jitter, fraction, source, key words, attempts]
    let mut o = Options::new().base(100.0);
    o.max = (NUMBER, 1000.0);
    o.jitter = (STRING, 5.0);
    o.seed = STRING;
    o.attempts = (NUMBER, 5.0);
    let p = compile(&o, true).unwrap();
    assert_eq!(p.rec[b::rec::FREE..b::rec::KEY], [0.0, 5.0, 0.0, f64::from(b::source::KEYED)]);
    assert_eq!(p.rec[b::rec::ATTEMPTS], 5.0);
    o.jitter = (NUMBER, 0.25);
    let p = compile(&o, false).unwrap();
    assert_eq!(p.rec[b::rec::FREE..b::rec::KEY], [0.0, 2.0, 0.25, f64::from(b::source::KEYED)]);
    o.jitter = (NUMBER, 0.0);
    o.attempts = NONE;
    o.seed = UNDEFINED;
    let p = compile(&o, false).unwrap();
    assert_eq!(p.rec[b::rec::FREE..b::rec::KEY], [0.0, 0.0, 0.0, f64::from(b::source::NEXT)]);
    assert!(p.rec[b::rec::ATTEMPTS].is_nan());
    // the hard cap after jitter (the fluent `.cap()`), next to the ceiling `max`
    let mut o = Options::new().base(1000.0);
    o.cap = (NUMBER, 30_000.0);
    assert_eq!(delays(&o, 4..=7), [8000.0, 16000.0, 30000.0, 30000.0]);
    o.max = (NUMBER, 20_000.0);
    assert_eq!(delays(&o, 5..=6), [16000.0, 20000.0]);
    b::bounds(6.0);
    assert_eq!(slots::<3>(), [20_000.0, 20_000.0, 20_000.0]);
    o.jitter = (NUMBER, 0.5);
    compile(&o, false).unwrap();
    b::bounds(6.0);
    assert_eq!(slots::<3>(), [20_000.0, 10_000.0, 30_000.0], "the band [10 s, 30 s] is truncated at the cap");
}

#[wasm_bindgen_test]
fn backoff_checks_record_errors() {
    #[track_caller]
    fn bad(o: Options, fluent: bool, kind: f64, option: &str, expected: &str, arg: f64) {
        assert!(compile(&o, fluent).is_err());
        expect_error(kind, option, expected, arg);
    }
    const DURATION: &str = "a non-negative finite duration (ms, or text such as \"5 seconds\")";
    bad(Options::new(), false, TYPE, "base", "given (or steps instead)", f64::from(b::arg::BASE));
    // A fluent interval has no steps to give instead: the wording says what it must be.
    bad(Options::new(), true, TYPE, "interval", DURATION, f64::from(b::arg::BASE));
    bad(Options::new().base(-1.0), false, RANGE, "base", DURATION, f64::from(b::arg::BASE));
    bad(Options::new().base(parse("5 minuts")), true, RANGE, "interval", DURATION, f64::from(b::arg::BASE));
    let mut o = Options::new();
    o.base = (BOOLEAN, NAN);
    bad(o, false, TYPE, "base", DURATION, f64::from(b::arg::BASE));
    let mut o = Options::new().base(1.0);
    o.growth = (STRING, -1.0);
    bad(o, false, TYPE, "growth", "\"exponential\", \"linear\" or \"constant\"", f64::from(b::arg::GROWTH));
    let mut o = Options::new().base(1.0);
    o.growth = (STRING, 2.0);
    o.factor = (NUMBER, 2.0);
    bad(o, false, TYPE, "factor", "left out unless growth is \"exponential\"", f64::from(b::arg::FACTOR));
    let mut o = Options::new().base(1.0);
    o.factor = (NUMBER, INF);
    bad(o, false, RANGE, "factor", "a finite number >= 1", f64::from(b::arg::FACTOR));
    let mut o = Options::new().base(10.0);
    o.max = (NUMBER, 5.0);
    bad(o, true, RANGE, "max", "a duration >= base", f64::from(b::arg::MAX));
    let mut o = Options::new().base(10.0);
    o.cap = (NUMBER, 5.0);
    bad(o, true, RANGE, "cap", "a duration >= base", f64::from(b::arg::CAP));
    let mut o = Options::new().base(10.0);
    o.steps = Some(vec![]);
    bad(
        o,
        false,
        TYPE,
        "base",
        "left out when steps are given (steps and curve options exclude each other)",
        f64::from(b::arg::BASE),
    );
    let mut o = Options::new();
    o.steps = Some(vec![]);
    bad(o, false, RANGE, "steps", "a non-empty array of at most 1000 durations", f64::from(b::arg::STEPS));
    assert_eq!(b::compile_steps(1001.0), 1);
    assert_eq!(b::compile_steps(2e9), 1);
    assert_eq!(b::compile_steps(1000.0), 0);
    let mut o = Options::new();
    o.steps = Some(vec![(NUMBER, 1.0), (STRING, NAN)]);
    bad(o, false, RANGE, "steps", DURATION, 0.0);
    assert_eq!(recorded().index, 1.0);
    let mut o = Options::new().base(1.0);
    o.free = (NUMBER, 1.5);
    bad(o, false, RANGE, "free", "a non-negative safe integer", f64::from(b::arg::FREE));
    let mut o = Options::new().base(1.0);
    o.jitter = (NUMBER, 1.5);
    bad(
        o,
        false,
        RANGE,
        "jitter",
        "a number in [0, 1], \"full\", \"equal\" or \"decorrelated\"",
        f64::from(b::arg::JITTER),
    );
    let mut o = Options::new().base(1.0);
    o.jitter = (STRING, -1.0);
    bad(
        o,
        false,
        TYPE,
        "jitter",
        "a number in [0, 1], \"full\", \"equal\" or \"decorrelated\"",
        f64::from(b::arg::JITTER),
    );
    let mut o = Options::new().base(1.0);
    o.jitter = (STRING, 5.0);
    bad(o, true, RANGE, "cap", "set for \"decorrelated\" jitter (it needs a cap)", f64::from(b::arg::CAP));
    let mut o = Options::new();
    o.steps = Some(vec![(NUMBER, 1.0)]);
    o.jitter = (STRING, 5.0);
    bad(
        o,
        false,
        TYPE,
        "jitter",
        "a kind other than \"decorrelated\" with steps (decorrelated needs a base and a cap)",
        7.0,
    );
    let mut o = Options::new().base(1.0);
    o.seed = SYMBOL;
    bad(o, false, TYPE, "seed", "a string or a number", f64::from(b::arg::SEED));
    let mut o = Options::new().base(1.0);
    o.seed = NUMBER;
    o.random = FUNCTION;
    assert!(compile(&o, false).is_err());
    assert_eq!((recorded().kind, recorded().option.as_str(), recorded().arg), (TYPE, "seed", f64::from(b::arg::SEED)));
    let mut o = Options::new().base(1.0);
    o.attempts = (NUMBER, 0.0);
    bad(o, false, RANGE, "maxAttempts", "an integer >= 1", f64::from(b::arg::ATTEMPTS));
    let mut o = Options::new().base(1.0);
    o.attempts = (STRING, NAN);
    bad(o, false, TYPE, "maxAttempts", "an integer >= 1", f64::from(b::arg::ATTEMPTS));
    // random kinds: a function, float(), next(); anything else is a TypeError
    for (tag, float_tag, next_tag, source) in [
        (FUNCTION, UNDEFINED, UNDEFINED, b::source::FUNCTION),
        (OBJECT, FUNCTION, UNDEFINED, b::source::FLOAT),
        (ARRAY, NUMBER, FUNCTION, b::source::NEXT),
    ] {
        assert_eq!(compile_curve(false, false, NUMBER, 1.0, 0, 0, NAN, 0, NAN, 0, NAN, 0, NAN), 0);
        assert_eq!(compile_shared(false, 0, NAN, 0, NAN, 0, 0, 0, NAN, tag, false, float_tag, next_tag), 0);
        assert_eq!(b::register_slot(b::rec::SOURCE), f64::from(source));
    }
    assert_eq!(compile_shared(false, 0, NAN, 0, NAN, 0, 0, 0, NAN, OBJECT, false, NUMBER, STRING), 1);
    expect_error(
        TYPE,
        "random",
        "a Random (with float(min, max) or next()) or a function returning draws in [0, 1]",
        8.0,
    );
    // an unknown option name comes first
    assert_eq!(compile_curve(false, true, 0, NAN, 0, 0, NAN, 0, NAN, 0, NAN, 0, NAN), 1);
    expect_error(TYPE, "an option name", b::BACKOFF_NAMES, f64::from(b::arg::NAME));
    assert_eq!(b::check_schedule_attempts(1_000_002.0, 0.0), 1);
    assert_eq!(recorded().option, "maxAttempts");
    assert_eq!(b::check_schedule_attempts(1_000_001.0, 0.0), 0);
    // decorrelated jitter (code 5): a thousand waits at most
    let decorrelated = f64::from(backoff_wasm::boundary::jitter::DECORRELATED);
    assert_eq!(b::check_schedule_attempts(1_002.0, decorrelated), 1);
    assert_eq!(recorded().option, "maxAttempts");
    assert!(recorded().expected.contains("1 to 1001 for a whole decorrelated schedule"), "{}", recorded().expected);
    assert_eq!(b::check_schedule_attempts(1_001.0, decorrelated), 0);
    assert_eq!(b::check_schedule_attempts(1_000_001.0, 2.0), 0);
    still_works();
}

#[wasm_bindgen_test]
fn jitter_draws_and_ranges() {
    // ± jitter drawn from the loaded seeded stream: round(d * float(1 - f, 1 + f))
    let mut o = Options::new().base(1000.0);
    o.jitter = (NUMBER, 0.2);
    o.random = OBJECT;
    assert_eq!(compile_curve(false, false, NUMBER, 1000.0, 0, 0, NAN, 0, NAN, 0, NAN, 0, NAN), 0);
    assert_eq!(compile_shared(false, 0, NAN, NUMBER, 0.2, 0, 0, 0, NAN, OBJECT, true, 0, 0), 0);
    b::stream_seed(text("j"));
    let r = b::stream_next();
    b::stream_seed(text("j"));
    assert_eq!(delay(3.0), (4000.0 * (0.8 + r * (1.2 - 0.8))).round());
    b::bounds(3.0);
    assert_eq!(slots::<3>(), [4000.0, 3200.0, 4800.0]);
    // a JavaScript source (no host in these tests: its draw is NaN) records the RangeError
    let _ = compile(&o, false);
    for (random, expected) in
        [(FUNCTION, "a source of draws in [0, 1]"), (OBJECT, "a source whose float({}, {}) stays in that range")]
    {
        let float_tag = if random == OBJECT { FUNCTION } else { UNDEFINED };
        assert_eq!(compile_curve(false, false, NUMBER, 1000.0, 0, 0, NAN, 0, NAN, 0, NAN, 0, NAN), 0);
        assert_eq!(compile_shared(false, 0, NAN, NUMBER, 0.2, 0, 0, 0, NAN, random, false, float_tag, 0), 0);
        assert!(delay(3.0).is_nan());
        expect_error(RANGE, "random", expected, 0.0);
        assert_eq!(delay(f64::NAN), 0.0, "a free attempt takes no draw");
    }
    assert_eq!([b::slot(b::ERR_NUMBERS), b::slot(b::ERR_NUMBERS + 1)], [0.8, 1.2]);
    // decorrelated with keyed draws: in [base, cap], bounds from the same recurrence
    let mut o = Options::new().base(100.0);
    o.max = (NUMBER, 30_000.0);
    o.jitter = (STRING, 5.0);
    o.seed = STRING;
    compile(&o, false).unwrap();
    for n in [1.0, 2.0, 7.0, 1000.0, 1001.0, INF] {
        let v = delay(n);
        b::bounds(n);
        let [nominal, lo, hi] = slots::<3>();
        assert!(nominal.is_nan() && lo <= v && v <= hi && (100.0..=30_000.0).contains(&v), "{n}: {v} [{lo}, {hi}]");
    }
    b::bounds(3.0);
    assert_eq!(slots::<3>()[1..], [100.0, 2700.0]);
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
    // the same words in memory at stream_state(), where the wrapper reads and writes them
    let at = b::stream_state() as usize as *mut u32;
    // SAFETY: the loaded stream's state is four u32 words at that address.
    let here = unsafe { [at.read(), at.add(1).read(), at.add(2).read(), at.add(3).read()] };
    assert_eq!(here, [b::stream_word(0), b::stream_word(1), b::stream_word(2), b::stream_word(3)]);
    assert_ne!(b::stream_next(), next);
    // SAFETY: as above.
    unsafe { w.iter().zip(0..).for_each(|(x, i)| at.add(i).write(*x)) };
    assert_eq!(b::stream_next(), next, "the words written at stream_state() are the loaded stream");
    // a long seed goes through grown pages
    let long = "seed ".repeat(10_000);
    let words = raw_words(&long, 2);
    assert_eq!(raw_words(&long, 2), words);
    // keyed draws: the first draw of "<seed> <key>", through a keyed policy (full jitter over [0, 1000])
    let key_len = text("job-7");
    assert_eq!(compile_curve(false, false, NUMBER, 1000.0, 0, STRING, 2.0, 0, NAN, 0, NAN, 0, NAN), 0);
    assert_eq!(compile_shared(false, 0, NAN, STRING, 3.0, STRING, key_len, 0, NAN, 0, false, 0, 0), 0);
    for (key, key_text) in [(1.0, "1"), (5.0, "5"), (9_007_199_254_740_993.0, "9007199254740992")] {
        b::stream_seed(text(&format!("job-7 {key_text}")));
        assert_eq!(delay(key), (b::stream_next() * 1000.0).round(), "{key}");
    }
    // a key only JavaScript can write: NaN with KEY_TEXT, then the call with String(key)
    for (key, key_text) in [(2.5, "2.5"), (1e21, "1e+21")] {
        assert!(delay(key).is_nan());
        assert_eq!(b::slot(b::ERR_KIND), f64::from(b::KEY_TEXT));
        b::stream_seed(text(&format!("job-7 {key_text}")));
        let want = (b::stream_next() * 1000.0).round();
        assert_eq!(b::delay(key, text(key_text)), want, "{key}");
    }
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

// ------------------------------------------------------------------ section 4: duration

#[wasm_bindgen_test]
fn duration_text() {
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
    assert!(parse_at(lone_surrogate()).is_nan());
    assert!(parse_at(b::write_text(&[u16::from(b'5'), 0xDC00]).unwrap()).is_nan());
    assert!(parse("-0").is_sign_negative());
    assert!(parse(&"x".repeat(10_000)).is_nan());
    assert_eq!(parse(&"9".repeat(400)), INF);
    assert_eq!(parse(&format!("{}5s{}", " ".repeat(5000), " ".repeat(5000))), 5000.0);
    assert_eq!(parse(&"9".repeat(100_000)), INF);
}

// ------------------------------------------------------------------ garbage

#[wasm_bindgen_test]
fn no_number_traps_any_export() {
    for &x in &GARBAGE {
        for &y in &GARBAGE {
            let _ = sigil_call(
                false, NUMBER, x, OBJECT, false, NUMBER, y, NUMBER, x, NUMBER, y, UNDEFINED, false, UNDEFINED, 0,
                NUMBER, x,
            );
            let _ = sigil_call(
                true, NUMBER, x, UNDEFINED, false, NUMBER, y, NUMBER, x, NUMBER, 0.5, UNDEFINED, false, STRING, 3,
                NUMBER, y,
            );
            let _ = b::int_between_js(x, y, 0.5);
            let _ = b::float_between_js(x, y, 0.5);
            let _ = b::compile_step(NUMBER, x, y as u32);
            let _ = b::compile_steps(x);
            let _ = b::check_words(ARRAY, x);
            let _ = b::check_schedule_attempts(x, y);
            let _ = compile_curve(true, false, NUMBER, x, UNDEFINED, STRING, y, NUMBER, x, NUMBER, y, NUMBER, x);
            let _ = compile_shared(false, NUMBER, y, NUMBER, x, UNDEFINED, 0, NUMBER, y, UNDEFINED, false, 0, 0);
            let _ = b::delay(x, 0);
            b::bounds(y);
        }
        for &t in &GARBAGE_U32 {
            let _ = b::check_word(t, t, x);
            let _ = b::check_word(t, NUMBER, x);
            let _ = b::check_int_bounds(t, x, NUMBER, x);
            let _ = b::check_float_bounds(t, x, t, x);
            let _ = b::compile_step(t, x, t);
            let _ = b::check_seed(t, t, x);
            let _ = b::check_items(t, t, x);
            let _ = compile_curve(false, false, t, x, t, t, x, t, x, t, x, t, x);
            let _ = compile_shared(true, t, x, t, x, t, t, t, x, t, t == 4, t, t);
            let _ = sigil_call(t == 1, t, x, t, t == 2, t, x, t, x, t, x, t, t == 3, t, t, t, x);
            let _ = b::delay(x, t);
            let _ = b::stream_word(t);
            b::stream_load(t, t, t, t);
            let _ = b::stream_next();
        }
    }
    // a corrupted register (the wrapper writes it): never a trap
    let reg = b::register() as usize as *mut f64;
    for &x in &GARBAGE {
        for i in 0..b::rec::HEADER {
            // SAFETY: the register holds REGISTER_LEN doubles at that address.
            unsafe { reg.add(i).write(x) };
        }
        for &a in &GARBAGE {
            let _ = b::delay(a, 0);
            b::bounds(a);
        }
    }
    // decorrelated loops are bounded for any attempt (1000 draws at most)
    let mut o = Options::new().base(100.0);
    o.max = (NUMBER, 30_000.0);
    o.jitter = (STRING, 5.0);
    o.seed = STRING;
    compile(&o, false).unwrap();
    for &n in &[1.0, 999.0, 1000.0, 1001.0, 9_007_199_254_740_991.0, INF, NAN, -1.0, 1e308] {
        let _ = delay(n);
        b::bounds(n);
    }
    // text lengths beyond the buffer's capacity: read as invalid, never out of bounds
    let at = b::text_buffer(3);
    assert_ne!(at, 0);
    for len in [4, 256, 257, 1_000_000, u32::MAX] {
        let beyond = len > 256;
        assert!(!beyond || parse_at(len).is_nan());
        b::stream_seed(len);
        let _ = b::delay(2.5, len);
    }
    // memory cannot hold 2^32 - 1 code units: 0, and a longer text than the pages hold is no text
    assert_eq!(b::text_buffer(u32::MAX), 0);
    assert!(parse_at(1_000_000_000).is_nan());
    still_works();
}
