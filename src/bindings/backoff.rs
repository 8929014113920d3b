//! `backoff-wasm/backoff` and `/policy` (docs/API.md sections 2 and 5): options
//! validated once into a compiled policy ([`rec`]), then ONE export per delay
//! ([`delay`]) and per band ([`bounds`]) that run `core::policy::Policy`.
//!
//! Where the compiled policy lives: in the JS object, as a record of numbers
//! (a plain array, not wasm memory: nothing to free, nothing to leak, no
//! `FinalizationRegistry`). Before a call the wrapper copies the record
//! into the one policy register ([`register`]) unless it is already there
//! (js/engine/abi.ts, `load`); the record is what `compile*` wrote there.

use wasm_bindgen::prelude::*;

use super::{
    Checked, Failed, Kind, Static, T, duration_of, fail, fail_with, input, options_of, put, source_code, spec, status,
};
use crate::core::{
    curve::{Curve, Growth, Jitter},
    options::{self, Shape},
    policy::{MAX_STEPS, Policy, Run, high_draw, total_bounds_by},
    rng::{Draw, Keyed, SeedHash, Sfc32, scale},
};

/// `createBackoff`'s option names; the expected text of an unknown one.
pub const BACKOFF_NAMES: &str = crate::core::wording::text(T::BackoffNames);

pub use crate::boundary::{REGISTER_LEN, arg, kind::KEY_TEXT, rec, source};

/// The policy register: the compiled policy the next [`delay`]/[`bounds`] runs.
static REG: Static<[f64; REGISTER_LEN]> = Static::new([0.0; REGISTER_LEN]);

/// Address of the policy register ([`REGISTER_LEN`] doubles, layout [`rec`]).
#[wasm_bindgen]
pub fn register() -> u32 {
    REG.0.get() as u32
}

/// Writes `values` into the register from slot `at` on.
pub(crate) fn set(at: usize, values: &[f64]) {
    REG.with(|r| r.iter_mut().skip(at).zip(values).for_each(|(slot, v)| *slot = *v));
}

/// Register slot `i` (for the wasm tests; NaN out of range).
pub fn register_slot(i: usize) -> f64 {
    get(i)
}

fn get(i: usize) -> f64 {
    REG.with(|r| r.get(i).copied().unwrap_or(f64::NAN))
}

// The host's draw: calls the JavaScript source the wrapper selected (js/engine/draw.ts)
// — `kind` is a `source` code — and returns its result as a number (NaN for a
// non-number, or when the source threw: the wrapper then rethrows it, so no
// JavaScript exception unwinds through wasm). Not linked in the wasm-bindgen
// tests (feature `host-draw` off), where it answers NaN.
#[cfg(feature = "host-draw")]
#[wasm_bindgen(raw_module = "./draw.js")]
extern "C" {
    #[wasm_bindgen(js_name = draw)]
    fn host_draw(kind: u32, lo: f64, hi: f64) -> f64;
}

#[cfg(not(feature = "host-draw"))]
fn host_draw(_kind: u32, _lo: f64, _hi: f64) -> f64 {
    f64::NAN
}

/// The delay for `attempt` under the policy in the register: the whole
/// composition (`core::policy::Policy::delay_with`) with its draws taken from
/// the policy's source. `key_len` is 0, or the length of `String(attempt)` the
/// wrapper wrote into the text buffer after a first call answered NaN with
/// [`KEY_TEXT`] recorded. NaN with the error recorded when a JavaScript
/// source's draw is out of range (or it threw).
#[wasm_bindgen]
pub fn delay(attempt: f64, key_len: u32) -> f64 {
    delay_at(attempt, key_len)
}

/// The waits of retries `from`, `from + 1`, … (`count` of them, at most 8) under the
/// policy in the register, into result slots `0..count`: each as [`delay`] computes it,
/// the draws taken in that order. Returns how many were written: fewer when one stopped
/// (NaN, see [`delay`]), which is then the last. The wrapper asks for one wait per call
/// when the policy draws from a JavaScript source, whose code may replace the register
/// (another policy), and loads the policy again before each call.
#[wasm_bindgen]
pub fn waits(from: f64, count: u32) -> u32 {
    let mut n = 0;
    while n < count.min(8) {
        let d = delay_at(from + f64::from(n), 0);
        super::SLOTS.with(|s| s[n as usize] = d);
        n += 1;
        if d.is_nan() {
            break;
        }
    }
    n
}

/// `[nominal, min, max]` into slots 0..3 for `attempt` under the policy in the
/// register (`core::policy::Policy::bounds`; `nominal` NaN for decorrelated jitter).
/// Runs the delay's own instance of the composition ([`delay_at`]) with the
/// extreme draws and without jitter, then `Policy::bounds_of`: one instance of the
/// composition in the wasm instead of two, and no second copy of the
/// curve for the nominal delay.
#[wasm_bindgen]
pub fn bounds(attempt: f64) {
    let (nominal, lo, hi) = bounds_at(attempt);
    put(&[nominal, lo, hi]);
}

/// `[min, max]` into slots 0..2: the total wait of retries `1 .. attempts`
/// under the policy in the register (`core::policy::Policy::total_bounds`,
/// each retry's bounds as [`bounds`] computes them). The wrapper checks
/// `attempts` first (at most a million retries).
#[wasm_bindgen(js_name = totalBounds)]
pub fn total_bounds(attempts: f64) {
    let (lo, hi) = total_bounds_by(attempts, bounds_at);
    put(&[lo, hi]);
}

/// [`bounds`]'s numbers (one copy, for [`bounds`] and [`total_bounds`]):
/// `Policy::bounds_by`, each run made by the delay's own instance of the
/// composition ([`delay_at`]) with the extreme draws as the register's source
/// (or no jitter); the policy's own source and jitter are put back after.
#[inline(never)]
fn bounds_at(attempt: f64) -> (f64, f64, f64) {
    let (own, jitter) = (get(rec::SOURCE), get(rec::JITTER));
    let b = policy(regs()).bounds_by(attempt, |run| {
        match run {
            Run::Low => set(rec::SOURCE, &[f64::from(LOW)]),
            Run::High => set(rec::SOURCE, &[f64::from(HIGH)]),
            Run::Plain => set(rec::JITTER, &[f64::from(crate::boundary::jitter::NONE)]),
        }
        delay_at(attempt, 0)
    });
    set(rec::SOURCE, &[own]);
    set(rec::JITTER, &[jitter]);
    b
}

/// The extreme draws of [`bounds`] as sources of [`delay_at`] (no policy has
/// them as its source): the low end of each range, and `policy::high_draw`.
const LOW: u32 = source::KEYED + 1;
const HIGH: u32 = source::KEYED + 2;
const _: () = assert!(LOW > source::FUNCTION && LOW > source::FLOAT && LOW > source::NEXT && LOW > source::SEEDED);

/// The policy register, read in place (no copy).
#[inline(always)]
fn regs() -> &'static [f64; REGISTER_LEN] {
    // SAFETY: a shared view of the register; it is written only by the JS wrapper,
    // by `compile*` and by `bounds` between its runs of the composition, never while a `delay` runs except by a nested call made
    // from a JavaScript source's draw, after every read of this policy's steps.
    unsafe { &*REG.0.get() }
}

/// The policy in the register `r` (inlined where it is used: the delay path
/// builds it in place, with no copy of the struct).
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

/// The key prefix of keyed draws in the register `r` (read only for a keyed policy).
fn key_prefix(r: &[f64; REGISTER_LEN]) -> SeedHash {
    SeedHash::from_words([r[rec::KEY] as u32, r[rec::KEY + 1] as u32, r[rec::KEY + 2] as u32, r[rec::KEY + 3] as u32])
}

/// [`delay`]: the composition of the policy in the register with the draws of its
/// source (a `source` code, or [`LOW`]/[`HIGH`] while [`bounds`] runs, drawn by
/// `host`): the one copy in the wasm, shared with Sigil's `sigil` and [`bounds`], the
/// draw's `match` inlined into it. NaN when it stops (a bad JavaScript draw, or the
/// key text needed).
#[inline(never)]
pub(crate) fn delay_at(attempt: f64, key_len: u32) -> f64 {
    let r = regs();
    let src = r[rec::SOURCE] as u32;
    policy(r)
        .compose(
            attempt,
            || regs()[rec::SOURCE] as u32 >= LOW,
            move |k, lo, hi| {
                let x = draw(src, key_len, k, lo, hi);
                if x.is_nan() && STOPPED.with(core::mem::take) { None } else { Some(x) }
            },
        )
        .unwrap_or(f64::NAN)
}

/// Set by [`draw`] when the composition is to stop; taken by its caller right after.
static STOPPED: Static<bool> = Static::new(false);

/// The draw of [`delay_at`] from source `src` (its `match`): the value, or NaN
/// with [`STOPPED`] set to stop (a draw itself may be NaN, which does not stop).
/// A plain `f64` result, so that neither an `Option` nor the closure's captures
/// go through memory.
#[inline(never)]
fn draw(src: u32, key_len: u32, k: f64, lo: f64, hi: f64) -> f64 {
    let r = regs();
    let x = match src {
        source::SEEDED => Some(super::random::CURRENT.with(|g| g.float(lo, hi))),
        source::KEYED => keyed(r, k, lo, hi, key_len),
        kind => host(kind, r[rec::SIGIL] == 1.0, lo, hi).ok(),
    };
    x.unwrap_or_else(|| {
        STOPPED.with(|s| *s = true);
        f64::NAN
    })
}

/// The keyed draw for key `k` (the attempt, or the decorrelated step) of the policy in
/// the register `r`, scaled into `[lo, hi]`: the first draw of the stream seeded
/// `"<seed> <k>"`. `None` with [`KEY_TEXT`] recorded when only JavaScript can write
/// `String(k)` and `key_len` is 0 (the wrapper then writes it and calls again).
#[inline(never)]
fn keyed(r: &[f64; REGISTER_LEN], k: f64, lo: f64, hi: f64, key_len: u32) -> Option<f64> {
    let prefix = key_prefix(r);
    let x = match (Keyed { prefix }).draw(k) {
        Some(x) => x,
        None => match super::text(key_len).filter(|_| key_len > 0) {
            Some(units) => Sfc32::from_words(prefix.update_units(units).finish()).next(),
            None => {
                super::key_text();
                return None;
            }
        },
    };
    Some(scale(lo, hi, x))
}

/// The draw of kind `kind` in `[lo, hi]`: the extreme draws of [`bounds`], or the
/// JavaScript source's (unchecked). Kept out of line so that the delay's draw
/// `match`, with [`host`] inlined into it, stays as small as before the extreme
/// draws went through it.
#[inline(never)]
fn draw_of(kind: u32, lo: f64, hi: f64) -> f64 {
    match kind {
        LOW => lo,
        HIGH => high_draw(lo, hi),
        _ => host_draw(kind, lo, hi),
    }
}

/// One draw of a JavaScript source, checked: `float(lo, hi)` must stay in
/// `[lo, hi]`; a raw draw (`() => number`, `next()`) must be in `[0, 1]` and is
/// scaled into the range. The extreme draws of [`bounds`] ([`LOW`], [`HIGH`])
/// pass unchecked.
fn host(kind: u32, sigil: bool, lo: f64, hi: f64) -> Checked<f64> {
    let x = draw_of(kind, lo, hi);
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

/// Validates the shape of `createBackoff` options from the input slots (fields
/// [`arg`]): `core::options::curve` (an unknown option name, then steps or a
/// curve, then `cap`). On success the register holds the shape
/// ([`rec::GROWTH`]..[`rec::CAP`]). Returns 0, or 1 with the error recorded.
#[wasm_bindgen(js_name = compileCurve)]
pub fn compile_curve(fluent: bool) -> u32 {
    let r = options::curve::<Failed>(fluent, &options_of()).map(|s| {
        let growth = if s.stepped { rec::STEPPED } else { s.growth.code() };
        set(0, &[f64::from(growth), s.base, s.factor, s.max, s.cap]);
        set(rec::STEPS, &[0.0]);
    });
    status(r)
}

/// Checks `steps.length` (a number, else `NaN`; a Proxy may lie: anything but a
/// number in `[0, 2^32 - 1]` counts as 0): 1 to `MAX_STEPS` steps, else a
/// RangeError at once (no element is read). On success the register holds the count.
#[wasm_bindgen(js_name = compileSteps)]
pub fn compile_steps(length: f64) -> u32 {
    status(options::steps::<Failed>(length).map(|len| set(rec::STEPS, &[len as f64])))
}

/// Validates step `index` of `steps` (its tag and number, as a field of
/// `compileCurve` crosses) into the register. Returns 0, or 1 with the error
/// recorded (naming `steps[index]`; the value is value 0).
#[wasm_bindgen(js_name = compileStep)]
pub fn compile_step(tag: u32, x: f64, index: u32) -> u32 {
    let i = (index as usize).min(MAX_STEPS - 1);
    status(options::step::<Failed>(duration_of(tag, x), index).map(|ms| set(rec::HEADER + i, &[ms])))
}

/// Validates the options every shape takes, after `compileCurve` (and the
/// steps), from the input slots: `core::options::shared` (`free`, `jitter`,
/// `seed` — its text `String(seed)` in the text buffer —, `maxAttempts`,
/// `random`). On success the register holds the whole compiled policy.
/// Returns 0, or 1 with the error recorded.
#[wasm_bindgen(js_name = compileShared)]
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
    let r = options::shared::<Failed>(fluent, &options_of(), &shape).map(|(free, jitter, attempts, src)| {
        let src = source_code(src);
        let j = f64::from(jitter.code());
        set(rec::FREE, &[free, j, jitter.fraction(), f64::from(src), 0.0, 0.0, 0.0, 0.0, attempts]);
        set(rec::SIGIL, &[0.0]);
        if src == source::KEYED {
            load_key(input(arg::SEED).1 as u32);
        }
    });
    status(r)
}

/// Writes the words of the unfinished hash of `"<String(seed)> "` (the seed
/// text in the text buffer, `len` code units) into the register's
/// [`rec::KEY`] slots, for keyed draws (written there, not returned: no array
/// on the stack of the callers).
#[inline(never)]
pub(crate) fn load_key(len: u32) {
    set(rec::KEY, &super::seed_hash(len).update_units(&[u16::from(b' ')]).words().map(f64::from));
}
