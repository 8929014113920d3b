//! `backoff-wasm/backoff` and `/policy` (docs/API.md sections 2 and 5): options
//! validated once into a compiled policy ([`rec`]) by [`compile`], then ONE
//! export per delay ([`delay`]), per run of waits ([`waits`]) and per band
//! ([`bounds`]) that run `core::policy::Policy`.
//!
//! Every call is self-contained: it reads its arguments and what the wrapper
//! wrote for it right before (the compiled policy in the policy area,
//! [`policy_area`]; a seeded stream's four words in the stream area,
//! `random::stream_state`; the text of a seed or key in the text buffer; a
//! curve's fields and a stream's words given to [`delay_curve`] as arguments,
//! which it writes into the stream area itself), takes a JavaScript draw source
//! as an argument, and returns its result (a number, the result slots, the
//! policy area for a compile, the stream area for a seeded stream's words after
//! its draws). Nothing one call leaves in memory is read by another: every input
//! is written before every call. The compiled policy lives in the JS object, as
//! a record of numbers (a plain array, not wasm memory: nothing to free, nothing
//! to leak, no `FinalizationRegistry`).

use wasm_bindgen::prelude::*;

use super::{Checked, Failed, Kind, Static, T, duration_of, fail, fail_with, input, put, source_code, spec, status};
use crate::core::{
    curve::{Curve, Growth, Jitter},
    options::{self, Shape},
    policy::{MAX_STEPS, Policy, Run, high_draw, total_bounds_by},
    rng::{Draw, SeedHash, Sfc32, js_integer_text, scale},
};

/// `createBackoff`'s option names; the expected text of an unknown one.
pub const BACKOFF_NAMES: &str = crate::core::wording::text(T::BackoffNames);

pub use crate::boundary::{REGISTER_LEN, SIGIL_DELAY, arg, kind::KEY_TEXT, rec, source};

/// The policy area — the compiled policy a call reads (the wrapper writes the policy's
/// record there before each [`delay`], [`waits`], [`bounds`] or [`total_bounds`]), or the
/// one [`compile`] and Sigil's schedule answer — and the step input [`compile`] reads.
static AREAS: Static<Areas> = Static::new(Areas { area: [0.0; REGISTER_LEN], steps: [0.0; 2 * MAX_STEPS] });

/// The policy area and the step input in one static, in that order: the policy area's
/// header, which much of the code addresses, then sits low in memory (its addresses are
/// two-byte constants), with the step input above it.
#[repr(C)]
struct Areas {
    /// The policy area ([`REGISTER_LEN`] doubles, layout [`rec`]).
    area: [f64; REGISTER_LEN],
    /// The steps [`compile`] reads: step `i` as its tag and number at `2 * i` and `2 * i + 1`.
    steps: [f64; 2 * MAX_STEPS],
}

/// Address of the policy area ([`REGISTER_LEN`] doubles, layout [`rec`]).
#[wasm_bindgen(js_name = policyArea)]
pub fn policy_area() -> u32 {
    AREAS.0.get() as u32
}

/// [`policy_area`] (the name the wasm tests use).
pub fn register() -> u32 {
    policy_area()
}

/// Address of the steps [`compile`] reads (`2 * MAX_STEPS` doubles: a tag and a number each).
#[wasm_bindgen(js_name = stepInput)]
pub fn step_input() -> u32 {
    // SAFETY: only the field's address is taken (no reference is kept).
    unsafe { core::ptr::addr_of!((*AREAS.0.get()).steps) as u32 }
}

/// Writes `values` into the policy area from slot `at` on.
pub(crate) fn set(at: usize, values: &[f64]) {
    AREAS.with(|a| a.area.iter_mut().skip(at).zip(values).for_each(|(slot, v)| *slot = *v));
}

/// Slot `i` of the policy area (for the wasm tests; NaN out of range).
pub fn register_slot(i: usize) -> f64 {
    get(i)
}

fn get(i: usize) -> f64 {
    AREAS.with(|a| a.area.get(i).copied().unwrap_or(f64::NAN))
}

// The host's draw: calls the JavaScript source `from` (a per-call context of
// js/engine/draw.ts) — `kind` is a `source` code — and returns its result as a
// number (NaN for a non-number, or when the source threw: the wrapper then
// rethrows it, so no JavaScript exception unwinds through wasm). Not linked in the
// wasm-bindgen tests (feature `host-draw` off), where it answers NaN.
#[cfg(feature = "host-draw")]
#[wasm_bindgen(raw_module = "./draw.js")]
extern "C" {
    #[wasm_bindgen(js_name = draw)]
    fn host_draw(from: &JsValue, kind: u32, lo: f64, hi: f64) -> f64;
}

#[cfg(not(feature = "host-draw"))]
fn host_draw(_from: &JsValue, _kind: u32, _lo: f64, _hi: f64) -> f64 {
    f64::NAN
}

/// The delay for `attempt` under the compiled policy the wrapper wrote into the policy
/// area: the whole composition (`core::policy::Policy::compose`) with its draws taken
/// from the policy's source (a JavaScript one is `from`, a context js/engine/draw.ts
/// reads; a seeded stream's words are read from and written back to the stream area).
/// `key_len` is 0, or the length of `String(attempt)` the wrapper wrote into the text
/// buffer after a first call answered NaN with [`KEY_TEXT`] recorded, or
/// [`SIGIL_DELAY`]: Sigil's delay from the input slots (`sigil::sigil_from`, the one
/// export that takes a draw context), `attempt` unused. NaN with the error recorded when
/// a JavaScript source's draw is out of range (or it threw).
#[wasm_bindgen(js_name = delay)]
pub fn delay_from(attempt: f64, key_len: u32, from: &JsValue) -> f64 {
    if key_len == SIGIL_DELAY {
        return super::sigil::sigil_from(false, from);
    }
    run(attempt, key_len, OWN, from)
}

/// No draw context: `undefined`, a reserved slot of the externref table, never dropped (a
/// `JsValue` temporary would be, with a call per use).
const NONE: core::mem::ManuallyDrop<JsValue> = core::mem::ManuallyDrop::new(JsValue::UNDEFINED);

/// [`delay_from`] of a policy that draws from no JavaScript source (a seeded stream, keyed
/// draws, or no jitter): the same call with no context to pass (for the wasm tests; the
/// wrappers call [`delay_from`] with `undefined`).
pub fn delay(attempt: f64, key_len: u32) -> f64 {
    run(attempt, key_len, OWN, &NONE)
}

/// The waits of retries `from_attempt`, `from_attempt + 1`, … (`count` of them, at most 8)
/// under the compiled policy in the policy area, into result slots `0..n`: each as
/// [`delay_from`] computes it, the draws taken in that order. Returns `n`: fewer when one
/// stopped (NaN, see [`delay_from`]), which is then the last, and one when the policy
/// draws from a JavaScript source, whose draw may call the package (which rewrites the
/// policy area and the result slots). No draw context: the wrapper calls [`delay_from`]
/// for each wait of a policy drawing from a JavaScript source.
#[wasm_bindgen]
pub fn waits(from_attempt: f64, count: u32) -> u32 {
    // A JavaScript source's draw may call the package, which rewrites the policy area and
    // the result slots: one wait then, written after its run.
    let most = if get(rec::SOURCE) < f64::from(source::SEEDED) && get(rec::JITTER) != 0.0 { 1 } else { 8 };
    let mut n = 0;
    while n < count.min(most) {
        let d = run(from_attempt + f64::from(n), 0, OWN, &NONE);
        super::SLOTS.with(|s| s[n as usize] = d);
        n += 1;
        if d.is_nan() {
            break;
        }
    }
    n
}

/// `[nominal, min, max]` into slots 0..3 for `attempt` under the compiled policy in the
/// policy area (`core::policy::Policy::bounds`; `nominal` NaN for decorrelated jitter).
/// Runs the delay's own instance of the composition ([`run`]) with the stand-in draws
/// and without jitter, then `Policy::bounds_of`: one instance of the composition in the
/// wasm instead of two, and no second copy of the curve for the nominal delay.
#[wasm_bindgen]
pub fn bounds(attempt: f64) {
    let (nominal, lo, hi) = bounds_at(attempt);
    put(&[nominal, lo, hi]);
}

/// `[min, max]` into slots 0..2: the total wait of retries `1 .. attempts` under the
/// compiled policy in the policy area (`core::policy::Policy::total_bounds`, each
/// retry's bounds as [`bounds`] computes them). The wrapper checks `attempts` first
/// (at most a million retries).
#[wasm_bindgen(js_name = totalBounds)]
pub fn total_bounds(attempts: f64) {
    let (lo, hi) = total_bounds_by(attempts, bounds_at);
    put(&[lo, hi]);
}

/// [`bounds`]'s numbers (one copy, for [`bounds`] and [`total_bounds`]):
/// `Policy::bounds_by`, each run made by the delay's own instance of the composition
/// ([`run`]) with a stand-in for the policy's draws given as its argument: the low end
/// of each range ([`LOW`]), the high end ([`HIGH`]), or no jitter ([`PLAIN`]). The
/// policy itself is untouched.
#[inline(never)]
fn bounds_at(attempt: f64) -> (f64, f64, f64) {
    policy(area()).bounds_by(attempt, |run_of| {
        let draws = match run_of {
            Run::Low => LOW,
            Run::High => HIGH,
            Run::Plain => PLAIN,
        };
        run(attempt, 0, draws, &NONE)
    })
}

/// The draws of [`run`]: the policy's own ([`OWN`]), or a stand-in of [`bounds`] (no policy
/// has them as its source): the low end of each range, `policy::high_draw`, or none (the
/// policy without jitter).
const OWN: u32 = 0;
const LOW: u32 = source::KEYED + 1;
const HIGH: u32 = source::KEYED + 2;
const PLAIN: u32 = source::KEYED + 3;
const _: () = assert!(LOW > source::FUNCTION && LOW > source::FLOAT && LOW > source::NEXT && LOW > source::SEEDED);

/// The policy area, read in place (no copy).
#[inline(always)]
fn area() -> &'static [f64; REGISTER_LEN] {
    // SAFETY: a shared view of the area, which only the JS wrapper writes between calls, and
    // a compile within its call. A call made from a JavaScript source's draw rewrites it
    // meanwhile: [`run`] reads the policy (its steps included) before its first draw, and
    // [`waits`] runs one delay per call for such a policy.
    unsafe { &(*AREAS.0.get()).area }
}

/// The compiled policy in the area `r` (inlined where it is used: the delay path builds it
/// in place, with no copy of the struct).
#[inline(always)]
fn policy(r: &'static [f64; REGISTER_LEN]) -> Policy<'static> {
    let steps = (r[rec::STEPS] as usize).min(MAX_STEPS);
    let growth = Growth::from_code(r[rec::GROWTH] as u32).unwrap_or(Growth::Constant);
    Policy {
        curve: Curve { growth, base: r[rec::BASE], factor: r[rec::FACTOR], cap: r[rec::MAX] },
        steps: r.get(rec::HEADER..rec::HEADER + steps).unwrap_or(&[]),
        cap: r[rec::CAP],
        free: r[rec::FREE],
        jitter: Jitter::from_code(r[rec::JITTER] as u32, r[rec::FRACTION]).unwrap_or(Jitter::None),
    }
}

/// The composition of the compiled policy in the policy area with the draws `draws`
/// ([`OWN`]: the policy's source, JavaScript's through `from`; else a stand-in of
/// [`bounds`]), shared by [`delay_from`], [`waits`], Sigil's `sigil` and [`bounds`]: the
/// area's fields handed to [`compose`]. Everything it reads of the area is read before
/// its first draw. NaN when it stops (a bad JavaScript draw, or the key text needed).
#[inline(never)]
pub(crate) fn run(attempt: f64, key_len: u32, draws: u32, from: &JsValue) -> f64 {
    let r = area();
    let steps = (r[rec::STEPS] as usize).min(MAX_STEPS);
    let src = if draws == OWN { r[rec::SOURCE] as u32 } else { draws };
    let jitter = if draws == PLAIN { 0 } else { r[rec::JITTER] as u32 };
    let word = |i: usize| r[rec::KEY + i] as u32;
    compose(
        attempt,
        r[rec::GROWTH],
        r[rec::BASE],
        r[rec::FACTOR],
        r[rec::MAX],
        r[rec::CAP],
        r[rec::FREE],
        jitter,
        r[rec::FRACTION],
        r.get(rec::HEADER..rec::HEADER + steps).unwrap_or(&[]),
        src,
        r[rec::SIGIL] == 1.0,
        word(0),
        word(1),
        word(2),
        word(3),
        key_len,
        from,
    )
}

/// [`delay`] of a curve policy (no steps, not Sigil's) that draws from no JavaScript
/// source, handed over as arguments instead of a record in the policy area: the record's
/// fields [`rec::GROWTH`] to [`rec::SOURCE`] in that order, then four words — a seeded
/// stream's state ([`source::SEEDED`]: answered, advanced, in the stream area) or the key
/// prefix of keyed draws ([`rec::KEY`]). NaN with [`KEY_TEXT`] recorded when a keyed draw
/// needs `String(attempt)` (the wrapper then calls [`delay`] with the record).
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen(js_name = delayCurve)]
pub fn delay_curve(
    attempt: f64,
    growth: f64,
    base: f64,
    factor: f64,
    max: f64,
    cap: f64,
    free: f64,
    jitter: u32,
    fraction: f64,
    src: u32,
    w0: u32,
    w1: u32,
    w2: u32,
    w3: u32,
) -> f64 {
    super::random::set_stream(Sfc32::from_words([w0, w1, w2, w3]));
    compose(attempt, growth, base, factor, max, cap, free, jitter, fraction, &[], src, false, w0, w1, w2, w3, 0, &NONE)
}

/// The composition of a policy — the record's fields ([`rec`]) and its steps — with the
/// draws of source `src` (a [`source`] code, or a stand-in of [`bounds`]) and the key
/// prefix `k0`..`k3` ([`rec::KEY`]): the one copy in the wasm,
/// shared by [`run`] and [`delay_curve`], the draw's `match` inlined into it. NaN when it
/// stops.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn compose(
    attempt: f64,
    growth: f64,
    base: f64,
    factor: f64,
    max: f64,
    cap: f64,
    free: f64,
    jitter: u32,
    fraction: f64,
    steps: &[f64],
    src: u32,
    sigil: bool,
    k0: u32,
    k1: u32,
    k2: u32,
    k3: u32,
    key_len: u32,
    from: &JsValue,
) -> f64 {
    let p = Policy {
        curve: Curve { growth: Growth::from_code(growth as u32).unwrap_or(Growth::Constant), base, factor, cap: max },
        steps,
        cap,
        free,
        jitter: Jitter::from_code(jitter, fraction).unwrap_or(Jitter::None),
    };
    let key = SeedHash::from_words([k0, k1, k2, k3]);
    let mut stopped = false;
    // `settles` through `black_box`: `src` is invariant in the decorrelated loop, and LLVM
    // would otherwise unswitch the loop into two copies.
    p.compose(
        attempt,
        move || core::hint::black_box(src) >= LOW,
        |k, lo, hi| {
            let x = draw(src, sigil, key, from, key_len, k, lo, hi, &mut stopped);
            if stopped { None } else { Some(x) }
        },
    )
    .unwrap_or(f64::NAN)
}

/// The draw of [`run`] from source `src` (its `match`): the value, or NaN with `stop` set
/// to stop (a draw itself may be NaN, which does not stop). A plain `f64` result, so that
/// no `Option` goes through memory.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn draw(
    src: u32,
    sigil: bool,
    key: SeedHash,
    from: &JsValue,
    key_len: u32,
    k: f64,
    lo: f64,
    hi: f64,
    stop: &mut bool,
) -> f64 {
    let x = match src {
        source::SEEDED => Some(super::random::draw_float(lo, hi)),
        source::KEYED => keyed(key, k, lo, hi, key_len),
        kind => host(kind, sigil, from, lo, hi).ok(),
    };
    x.unwrap_or_else(|| {
        *stop = true;
        f64::NAN
    })
}

/// The keyed draw for key `k` (the attempt, or the decorrelated step) under the key
/// prefix `prefix`, scaled into `[lo, hi]`: the first draw of the stream seeded
/// `"<seed> <k>"`. `None` with [`KEY_TEXT`] recorded when only JavaScript can write
/// `String(k)` and `key_len` is 0 (the wrapper then writes it and calls again).
#[inline]
fn keyed(prefix: SeedHash, k: f64, lo: f64, hi: f64, key_len: u32) -> Option<f64> {
    // SAFETY: the digits' scratch area, borrowed only here, within one draw (nothing it
    // calls re-enters), and read only as far as `js_integer_text` wrote it.
    let buf = unsafe { &mut *DIGITS.0.get() };
    let units = match js_integer_text(k, buf) {
        Some(units) => units,
        None => match super::text(key_len).filter(|_| key_len > 0) {
            Some(units) => units,
            None => {
                super::key_text();
                return None;
            }
        },
    };
    Some(scale(lo, hi, Sfc32::from_words(prefix.update_units(units).finish()).next()))
}

/// Scratch of [`keyed`]: the text of an integer key, written by `js_integer_text` and read
/// within the same draw (nothing in it is read by a later one). A static rather than a
/// local buffer: no zeroing and no stack frame in the draw.
static DIGITS: Static<[u16; 24]> = Static::new([0; 24]);

/// The draw of kind `kind` in `[lo, hi]`: the stand-in draws of [`bounds`], or the
/// JavaScript source's (unchecked). Kept out of line so that the delay's draw `match`,
/// with [`host`] inlined into it, stays small.
#[inline(never)]
fn draw_of(kind: u32, from: &JsValue, lo: f64, hi: f64) -> f64 {
    match kind {
        LOW | PLAIN => lo,
        HIGH => high_draw(lo, hi),
        _ => host_draw(from, kind, lo, hi),
    }
}

/// One draw of a JavaScript source, checked: `float(lo, hi)` must stay in
/// `[lo, hi]`; a raw draw (`() => number`, `next()`) must be in `[0, 1]` and is
/// scaled into the range. The stand-in draws of [`bounds`] ([`LOW`], [`HIGH`])
/// pass unchecked.
fn host(kind: u32, sigil: bool, from: &JsValue, lo: f64, hi: f64) -> Checked<f64> {
    let x = draw_of(kind, from, lo, hi);
    if kind >= LOW {
        return Ok(x);
    }
    if kind == source::FLOAT {
        if x >= lo && x <= hi {
            return Ok(x);
        }
        return Err(fail_with(spec(Kind::Range, T::Random, T::FloatDraw, 0), [lo, hi]));
    }
    if (0.0..=1.0).contains(&x) {
        return Ok(scale(lo, hi, x));
    }
    Err(fail(if sigil {
        spec(Kind::Sigil, T::Random, T::UnitDraw, 0)
    } else {
        spec(Kind::Range, T::Random, T::UnitDrawSource, 0)
    }))
}

/// Compiles `createBackoff` options (and the fluent policy's) in one call, in the
/// original order of the checks: the fields in the input slots ([`arg`]; `steps` as its
/// tag and its `length`), the steps in the step input ([`step_input`]: the first
/// `min(length, MAX_STEPS)`), the seed's text in the text buffer. On success the policy
/// area holds the compiled policy (its length: [`rec::HEADER`] plus [`rec::STEPS`]).
/// Returns 0, or 1 with the error recorded (a step's names `steps[i]` and blames value 0,
/// the step).
#[wasm_bindgen]
pub fn compile(fluent: bool) -> u32 {
    let stepped = || get(rec::GROWTH) == f64::from(rec::STEPPED);
    let r = (|| -> Checked<()> {
        ok_status(compile_curve(fluent))?;
        if stepped() {
            ok_status(compile_steps(input(arg::STEPS).1))?;
            let n = get(rec::STEPS) as u32;
            for i in 0..n {
                let at = 2 * i as usize;
                let (tag, x) = AREAS.with(|a| {
                    (a.steps.get(at).copied().unwrap_or(0.0), a.steps.get(at + 1).copied().unwrap_or(f64::NAN))
                });
                ok_status(compile_step(tag as u32, x, i))?;
            }
        }
        ok_status(compile_shared(fluent))
    })();
    status(r)
}

fn ok_status(status: u32) -> Checked<()> {
    if status == 0 { Ok(()) } else { Err(Failed) }
}

/// The first step of [`compile`]: the shape of `createBackoff` options from the input
/// slots (fields [`arg`]), `core::options::curve` (an unknown option name, then steps
/// or a curve, then `cap`). On success the policy area holds the shape
/// ([`rec::GROWTH`]..[`rec::CAP`]). Returns 0, or 1 with the error recorded.
pub fn compile_curve(fluent: bool) -> u32 {
    let r = options::curve::<Failed>(fluent, &super::InputOptions).map(|s| {
        let growth = if s.stepped { rec::STEPPED } else { s.growth.code() };
        set(0, &[f64::from(growth), s.base, s.factor, s.max, s.cap]);
        set(rec::STEPS, &[0.0]);
    });
    status(r)
}

/// A step of [`compile`]: checks `steps.length` (a number, else `NaN`; a Proxy may lie:
/// anything but a number in `[0, 2^32 - 1]` counts as 0): 1 to `MAX_STEPS` steps, else a
/// RangeError (no element is read). On success the policy area holds the count.
pub fn compile_steps(length: f64) -> u32 {
    status(options::steps::<Failed>(length).map(|len| set(rec::STEPS, &[len as f64])))
}

/// A step of [`compile`]: validates step `index` of `steps` (its tag and number, as a
/// field crosses) into the policy area. Returns 0, or 1 with the error recorded (naming
/// `steps[index]`; the value is value 0).
pub fn compile_step(tag: u32, x: f64, index: u32) -> u32 {
    let i = (index as usize).min(MAX_STEPS - 1);
    status(options::step::<Failed>(duration_of(tag, x), index).map(|ms| set(rec::HEADER + i, &[ms])))
}

/// The last step of [`compile`], after [`compile_curve`] (and the steps): the options
/// every shape takes, from the input slots, `core::options::shared` (`free`, `jitter`,
/// `seed` — its text `String(seed)` in the text buffer —, `maxAttempts`, `random`). On
/// success the policy area holds the whole compiled policy. Returns 0, or 1 with the
/// error recorded.
pub fn compile_shared(fluent: bool) -> u32 {
    let stepped = get(rec::GROWTH) == f64::from(rec::STEPPED);
    let growth = Growth::from_code(get(rec::GROWTH) as u32).unwrap_or(Growth::Constant);
    let shape = Shape {
        stepped,
        growth,
        base: get(rec::BASE),
        factor: get(rec::FACTOR),
        max: get(rec::MAX),
        cap: get(rec::CAP),
    };
    let r = options::shared::<Failed>(fluent, &super::InputOptions, &shape).map(|(free, jitter, attempts, src)| {
        let src = source_code(src);
        let j = f64::from(jitter.code());
        set(rec::FREE, &[free, j, jitter.fraction(), f64::from(src), 0.0, 0.0, 0.0, 0.0, attempts]);
        set(rec::SIGIL, &[0.0]);
        if src == source::KEYED {
            set(rec::KEY, &key_of(input(arg::SEED).1 as u32).words().map(f64::from));
        }
    });
    status(r)
}

/// The unfinished hash of `"<String(seed)> "` (the seed text in the text buffer, `len`
/// code units): the prefix of keyed draws.
#[inline(never)]
pub(crate) fn key_of(len: u32) -> SeedHash {
    super::seed_hash(len).update_units(&[u16::from(b' ')])
}
