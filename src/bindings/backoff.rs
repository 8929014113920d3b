//! `backoff-wasm/backoff` and `/policy` (docs/API.md sections 2 and 5): options
//! validated once into a compiled policy ([`rec`]), then ONE export per delay
//! ([`delay`]) and per band ([`bounds`]) that run `core::policy::Policy`.
//!
//! Where the compiled policy lives: in the JS object, as a record of numbers
//! (a plain array, not wasm memory: nothing to free, nothing to leak, no
//! `FinalizationRegistry`). Before a call the wrapper copies the record
//! into the one policy register ([`register`]) unless it is already there
//! (js/abi.ts, `load`); the record is what `compile*` wrote there.

use wasm_bindgen::prelude::*;

use super::{
    Checked, Kind, Static, T, duration_option, fail, fail_with, input, number, ok, put, seed_and_random, spec, status,
    tags::*,
};
use crate::core::{
    check,
    curve::{Curve, Growth, Jitter},
    policy::{MAX_STEPS, Policy, high_draw},
    rng::{Draw, Keyed, SeedHash, Sfc32, scale},
};

/// `createBackoff`'s option names; the expected text of an unknown one.
pub const BACKOFF_NAMES: &str = crate::core::wording::text(T::BackoffNames);

pub use crate::boundary::{REGISTER_LEN, arg, kind::KEY_TEXT, rec, source};

/// [`rec::STEPPED`] as the register holds it.
const STEPPED: f64 = rec::STEPPED as f64;

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

// The host's draw: calls the JavaScript source the wrapper selected (js/draw.ts)
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

/// `[nominal, min, max]` into slots 0..3 for `attempt` under the policy in the
/// register (`core::policy::Policy::bounds`; `nominal` NaN for decorrelated jitter).
/// Runs the delay's own instance of the composition ([`delay_at`]) with the
/// extreme draws and without jitter, then `Policy::bounds_of`: one instance of the
/// composition in the wasm instead of two, and no second copy of the
/// curve for the nominal delay.
#[wasm_bindgen]
pub fn bounds(attempt: f64) {
    // The extreme draws as the register's source for two runs, then no jitter for
    // one, then the policy's own source and jitter back (the register holds the
    // same policy after the call).
    let (own, jitter) = (get(rec::SOURCE), get(rec::JITTER));
    set(rec::SOURCE, &[f64::from(LOW)]);
    let low = delay_at(attempt, 0);
    set(rec::SOURCE, &[f64::from(HIGH)]);
    let high = delay_at(attempt, 0);
    set(rec::JITTER, &[f64::from(crate::boundary::jitter::NONE)]);
    let plain = delay_at(attempt, 0);
    set(rec::SOURCE, &[own]);
    set(rec::JITTER, &[jitter]);
    let (nominal, lo, hi) = policy(regs()).bounds_of(attempt, plain, low, high);
    put(&[nominal, lo, hi]);
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

/// `steps.length` as the array reports it (a Proxy may lie): a number in
/// `[0, 2^32 - 1]`, truncated; anything else counts as 0.
fn array_length(x: f64) -> u32 {
    if (0.0..=f64::from(u32::MAX)).contains(&x) { x as u32 } else { 0 }
}

/// Validates the shape of `createBackoff` options (docs/API.md sections 2 and 5),
/// the first step, from the input slots (fields [`arg`]): an unknown option
/// name ([`arg::NAME`] a string: the wrapper found one), then steps (excluding
/// every curve option but `cap`; an array, whose length `compileSteps` then
/// checks and whose elements `compileStep` checks) or a curve (`base` given and
/// a duration, `growth`, `factor` only for exponential, `max` >= base), then
/// `cap` (>= base). On success the register holds the shape
/// ([`rec::GROWTH`]..[`rec::CAP`]). Returns 0, or 1 with the error recorded.
#[wasm_bindgen(js_name = compileCurve)]
pub fn compile_curve(fluent: bool) -> u32 {
    if input(arg::NAME).0 != UNDEFINED {
        return status(Err(fail(spec(Kind::Type, T::OptionName, T::BackoffNames, arg::NAME))));
    }
    let r = shape(fluent).and_then(|[g, base, factor, max]| {
        let floor = if g == STEPPED { 0.0 } else { base };
        let (cap_tag, cap) = input(arg::CAP);
        let cap = bound(cap_tag, cap, T::Cap, floor, arg::CAP)?;
        set(0, &[g, base, factor, max, cap]);
        set(rec::STEPS, &[0.0]);
        Ok(())
    });
    status(r)
}

/// An optional bound (`max` or `cap`): absent or `Infinity` is unbounded, else a duration >= `floor`.
fn bound(tag: u32, x: f64, name: T, floor: f64, a: u32) -> Checked<f64> {
    if tag == UNDEFINED || (tag == NUMBER && x == f64::INFINITY) {
        return Ok(f64::INFINITY);
    }
    let m = ok(duration_option(tag, x, spec(Kind::Range, name, T::DelayMs, a), -1.0))?;
    check::ceiling(m, floor).map_err(|_| fail(spec(Kind::Range, name, T::Ceiling, a)))
}

fn shape(fluent: bool) -> Checked<[f64; 4]> {
    let base_name = if fluent { T::Interval } else { T::Base };
    let ((base_tag, base), (steps_tag, _), (growth_tag, growth)) =
        (input(arg::BASE), input(arg::STEPS), input(arg::GROWTH));
    let ((factor_tag, factor), (max_tag, max)) = (input(arg::FACTOR), input(arg::MAX));
    if steps_tag != UNDEFINED {
        // The first curve option given (a chain of constants, no table on the stack).
        let given = if base_tag != UNDEFINED {
            Some((T::Base, arg::BASE))
        } else if growth_tag != UNDEFINED {
            Some((T::Growth, arg::GROWTH))
        } else if factor_tag != UNDEFINED {
            Some((T::Factor, arg::FACTOR))
        } else if max_tag != UNDEFINED {
            Some((T::Max, arg::MAX))
        } else {
            None
        };
        if let Some((name, a)) = given {
            return Err(fail(spec(Kind::Type, name, T::LeftOutWithSteps, a)));
        }
        if steps_tag != ARRAY {
            return Err(fail(spec(Kind::Type, T::Steps, T::StepsExpected, arg::STEPS)));
        }
        return Ok([STEPPED, 0.0, 1.0, f64::INFINITY]);
    }
    if base_tag == UNDEFINED {
        return Err(fail(spec(Kind::Type, base_name, T::GivenOrSteps, arg::BASE)));
    }
    let base = ok(duration_option(base_tag, base, spec(Kind::Range, base_name, T::DelayMs, arg::BASE), -1.0))?;
    let growth = if growth_tag == UNDEFINED {
        Growth::Exponential
    } else {
        let known = if growth_tag == STRING && growth >= 0.0 { Growth::from_code(growth as u32) } else { None };
        known.ok_or_else(|| fail(spec(Kind::Type, T::Growth, T::GrowthNames, arg::GROWTH)))?
    };
    let factor = if factor_tag == UNDEFINED {
        2.0
    } else {
        ok(number(factor_tag, factor, spec(Kind::Range, T::Factor, T::FactorExpected, arg::FACTOR)))?
    };
    if growth != Growth::Exponential && factor_tag != UNDEFINED {
        return Err(fail(spec(Kind::Type, T::Factor, T::FactorUnlessExponential, arg::FACTOR)));
    }
    let max = bound(max_tag, max, T::Max, base, arg::MAX)?;
    Ok([f64::from(growth.code()), base, factor, max])
}

/// Checks `steps.length` (a number, else `NaN`; a Proxy may lie: anything but a
/// number in `[0, 2^32 - 1]` counts as 0): 1 to [`MAX_STEPS`] steps, else a
/// RangeError at once (no element is read). On success the register holds the count.
#[wasm_bindgen(js_name = compileSteps)]
pub fn compile_steps(length: f64) -> u32 {
    let len = array_length(length) as usize;
    if len == 0 || len > MAX_STEPS {
        return status(Err(fail(spec(Kind::Range, T::Steps, T::StepsExpected, arg::STEPS))));
    }
    set(rec::STEPS, &[len as f64]);
    0
}

/// Validates step `index` of `steps` (tag and number as for `compileCurve`'s
/// durations) into the register. Returns 0, or 1 with the error recorded
/// (naming `steps[index]`; the value is value 0).
#[wasm_bindgen(js_name = compileStep)]
pub fn compile_step(tag: u32, x: f64, index: u32) -> u32 {
    let i = index as usize;
    let r = ok(duration_option(tag, x, spec(Kind::Range, T::Steps, T::DelayMs, 0), f64::from(index)));
    status(r.map(|ms| set(rec::HEADER + i.min(MAX_STEPS - 1), &[ms])))
}

/// The jitter codes `js/backoff.ts` maps strings to: 3 "full", 4 "equal",
/// 5 "decorrelated" (`Jitter::code`); -1 for any other string.
fn jitter_of_option(tag: u32, x: f64) -> Checked<Jitter> {
    if tag == UNDEFINED {
        return Ok(Jitter::None);
    }
    if tag == NUMBER {
        let f = check::fraction(x).map_err(|_| fail(spec(Kind::Range, T::Jitter, T::JitterExpected, arg::JITTER)))?;
        return Ok(if f == 0.0 { Jitter::None } else { Jitter::Spread(f) });
    }
    match (tag, x) {
        (STRING, 3.0) => Ok(Jitter::Full),
        (STRING, 4.0) => Ok(Jitter::Equal),
        (STRING, 5.0) => Ok(Jitter::Decorrelated),
        _ => Err(fail(spec(Kind::Type, T::Jitter, T::JitterExpected, arg::JITTER))),
    }
}

/// Validates the options every shape takes, after `compileCurve` (and the
/// steps), from the input slots (fields [`arg`]), in this order: `free`,
/// `jitter` (decorrelated needs a curve with a finite `max` or `cap`), `seed` (a
/// string or number, its text `String(seed)` in the text buffer; never with
/// `random`), `maxAttempts`, then `random` (a function, an object with
/// `float` or `next`, or a seeded stream of this package: `via::SOURCE`). On
/// success the register holds the whole compiled policy. Returns 0, or 1 with
/// the error recorded.
#[wasm_bindgen(js_name = compileShared)]
pub fn compile_shared(fluent: bool) -> u32 {
    let r = shared(fluent).and_then(|(free, jitter, attempts)| {
        let ((seed_tag, seed_len), (random_tag, sources)) = (input(arg::SEED), input(arg::RANDOM));
        let src = if seed_tag != UNDEFINED {
            source::KEYED
        } else if random_tag == UNDEFINED {
            source::NEXT
        } else if sources == -1.0 {
            source::SEEDED
        } else {
            let tags = if sources > 0.0 { sources as u32 } else { 0 };
            random_kind(random_tag, tags >> 4, tags & 15)?
        };
        let j = f64::from(jitter.code());
        set(rec::FREE, &[free, j, jitter.fraction(), f64::from(src), 0.0, 0.0, 0.0, 0.0, attempts]);
        set(rec::SIGIL, &[0.0]);
        if src == source::KEYED {
            load_key(seed_len as u32);
        }
        Ok(())
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

fn shared(fluent: bool) -> Checked<(f64, Jitter, f64)> {
    let ((free_tag, free), (jitter_tag, jitter), (seed_tag, _)) =
        (input(arg::FREE), input(arg::JITTER), input(arg::SEED));
    let ((random_tag, _), (attempts_tag, attempts)) = (input(arg::RANDOM), input(arg::ATTEMPTS));
    let free = if free_tag == UNDEFINED {
        0.0
    } else {
        ok(number(free_tag, free, spec(Kind::Range, T::Free, T::FreeExpected, arg::FREE)))?
    };
    let jitter = jitter_of_option(jitter_tag, jitter)?;
    if jitter == Jitter::Decorrelated {
        if get(rec::GROWTH) == STEPPED {
            return Err(fail(spec(Kind::Type, T::Jitter, T::DecorrelatedSteps, arg::JITTER)));
        }
        if !crate::core::check::finite(get(rec::MAX).min(get(rec::CAP))) {
            let (name, a) = if fluent { (T::Cap, arg::CAP) } else { (T::Max, arg::MAX) };
            return Err(fail(spec(Kind::Range, name, T::DecorrelatedCap, a)));
        }
    }
    if seed_tag != UNDEFINED {
        if random_tag != UNDEFINED {
            return Err(seed_and_random(arg::SEED));
        }
        if seed_tag != STRING && seed_tag != NUMBER {
            return Err(fail(spec(Kind::Type, T::Seed, T::SeedExpected, arg::SEED)));
        }
    }
    let attempts = if attempts_tag == UNDEFINED {
        f64::NAN
    } else {
        ok(number(attempts_tag, attempts, spec(Kind::Range, T::MaxAttempts, T::AttemptNumber, arg::ATTEMPTS)))?
    };
    Ok((free, jitter, attempts))
}

/// Classifies a `random` option: a function, an object with `float(min, max)`,
/// or one with `next()` (`source` codes); TypeError otherwise (also given by
/// the wrapper when reading its properties threw: `tag` is then [`OBJECT`]
/// with no function found).
fn random_kind(tag: u32, float_tag: u32, next_tag: u32) -> Checked<u32> {
    if tag == FUNCTION {
        return Ok(source::FUNCTION);
    }
    if super::is_object(tag) {
        if float_tag == FUNCTION {
            return Ok(source::FLOAT);
        }
        if next_tag == FUNCTION {
            return Ok(source::NEXT);
        }
    }
    Err(fail(spec(Kind::Type, T::Random, T::RandomExpected, arg::RANDOM)))
}
