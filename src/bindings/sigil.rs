//! `backoff-wasm/sigil` (docs/API.md section 1): option checks one value at a time
//! (the JS wrapper reads each option right before its check, as the original
//! order of reads and errors has it) and the delay of one retry.

use wasm_bindgen::prelude::*;

use super::{
    Checked, Kind, T,
    backoff::{key_of, rec, run, set, source},
    fail, input, is_object, number, ok, seed_and_random, spec,
    tags::*,
};
use crate::core::{
    SIGIL_BASE_DELAY_MS, SIGIL_MAX_ATTEMPTS, SIGIL_MAX_DELAY_MS,
    curve::{Growth, Jitter},
};

/// Sigil's option names; the expected text of an unknown one.
pub const SIGIL_NAMES: &str = crate::core::wording::text(T::SigilNames);

use crate::boundary::sigil_arg::{
    ATTEMPT as SIGIL_ATTEMPT, ATTEMPTS as SIGIL_ATTEMPTS, BASE as SIGIL_BASE, JITTER as SIGIL_JITTER, MAX as SIGIL_MAX,
    NAME as SIGIL_NAME, OPTIONS as SIGIL_OPTIONS, RANDOM as SIGIL_RANDOM, SEED as SIGIL_SEED,
};

fn or_default(tag: u32, x: f64, default: f64) -> (u32, f64) {
    if tag == UNDEFINED { (NUMBER, default) } else { (tag, x) }
}

/// Sigil in one call: validates, from the input slots (fields
/// `boundary::sigil_arg`), `nextDelayMs`'s attempt (unless `schedule`) and the
/// options in the original order (attempt, options, option names — a string
/// `NAME` when the wrapper found an unknown one —, `baseDelayMs`, `maxDelayMs`,
/// `jitter`, `random` — 1 when it is a `seededRandom` function, whose stream's
/// words the wrapper wrote into the stream area —, `seed` — its text in the text
/// buffer —, and for a schedule `maxAttempts`), makes Sigil's policy (exponential,
/// factor 2, ceiling `maxDelayMs`, subtract-only jitter, draws from `random` —
/// `from`, for a JavaScript one — or keyed by `seed`) and answers the delay of retry
/// `attempt` (as `backoff::delay_from` does), or for a schedule the number of
/// attempts, with the compiled policy in the policy area (its header). NaN with the
/// error recorded (a bad draw blames value 0 as `delay` does). The wrapper calls it
/// through `backoff::delay_from` (`SIGIL_DELAY`) for a delay drawing from a JavaScript
/// source, else through [`sigil`].
#[inline(never)]
pub fn sigil_from(schedule: bool, from: &JsValue) -> f64 {
    let (attempt_tag, attempt) = input(SIGIL_ATTEMPT);
    let (options_tag, _) = input(SIGIL_OPTIONS);
    let ((base_tag, base), (max_tag, max), (jitter_tag, jitter)) =
        (input(SIGIL_BASE), input(SIGIL_MAX), input(SIGIL_JITTER));
    let ((random_tag, seeded), (seed_tag, seed_len), (attempts_tag, attempts)) =
        (input(SIGIL_RANDOM), input(SIGIL_SEED), input(SIGIL_ATTEMPTS));
    let (unknown, seeded, seed_len) = (input(SIGIL_NAME).0 != UNDEFINED, seeded == 1.0, seed_len as u32);
    let sigil = Kind::Sigil;
    let r = (|| -> Checked<f64> {
        let attempt = if schedule {
            1.0
        } else {
            ok(number(attempt_tag, attempt, spec(sigil, T::Attempt, T::AttemptNumber, SIGIL_ATTEMPT)))?
        };
        if options_tag != UNDEFINED && !is_object(options_tag) {
            return Err(fail(spec(sigil, T::Options, T::ObjectOrUndefined, SIGIL_OPTIONS)));
        }
        if unknown {
            return Err(fail(spec(sigil, T::OptionName, T::SigilNames, SIGIL_NAME)));
        }
        let (t, x) = or_default(base_tag, base, SIGIL_BASE_DELAY_MS);
        let base = ok(number(t, x, spec(sigil, T::BaseDelayMs, T::NonNegative, SIGIL_BASE)))?;
        let (t, x) = or_default(max_tag, max, SIGIL_MAX_DELAY_MS);
        let max = ok(number(t, x, spec(sigil, T::MaxDelayMs, T::NonNegative, SIGIL_MAX)))?;
        let (t, x) = or_default(jitter_tag, jitter, 0.0);
        let jitter = ok(number(t, x, spec(sigil, T::Jitter, T::SigilJitter, SIGIL_JITTER)))?;
        if random_tag != UNDEFINED && random_tag != FUNCTION {
            return Err(fail(spec(sigil, T::Random, T::UnitDraw, SIGIL_RANDOM)));
        }
        let keyed = seed_tag != UNDEFINED;
        if keyed {
            if random_tag != UNDEFINED {
                return Err(seed_and_random(SIGIL_SEED));
            }
            if seed_tag != STRING && seed_tag != NUMBER {
                return Err(fail(spec(sigil, T::Seed, T::SeedExpected, SIGIL_SEED)));
            }
        }
        let attempts = if schedule {
            let (t, x) = or_default(attempts_tag, attempts, f64::from(SIGIL_MAX_ATTEMPTS));
            ok(number(t, x, spec(sigil, T::MaxAttempts, T::ScheduleAttempts, SIGIL_ATTEMPTS)))?
        } else {
            f64::NAN
        };
        let src = if keyed {
            source::KEYED
        } else if seeded {
            source::SEEDED
        } else {
            source::FUNCTION
        };
        // Sigil's compiled policy, into the policy area: the schedule's answer, and what
        // this call's own delay runs.
        let subtract = f64::from(Jitter::Subtract(jitter).code());
        let growth = f64::from(Growth::Exponential.code());
        set(0, &[growth, base, 2.0, max, f64::INFINITY, 0.0, subtract, jitter, f64::from(src), 0.0, 0.0, 0.0, 0.0]);
        set(rec::ATTEMPTS, &[attempts, 0.0, 1.0]);
        if keyed {
            set(rec::KEY, &key_of(seed_len).words().map(f64::from));
        }
        Ok(if schedule { attempts } else { run(attempt, 0, 0, from) })
    })();
    r.unwrap_or(f64::NAN)
}

/// [`sigil_from`] with no JavaScript source: for options whose draws are taken in wasm (a
/// `seededRandom`'s stream, keyed by `seed`) or that draw nothing, so the call hands over no
/// context (a JavaScript source's draw is NaN, as in the wasm tests).
#[wasm_bindgen(js_name = sigilOwn)]
pub fn sigil(schedule: bool) -> f64 {
    sigil_from(schedule, &JsValue::UNDEFINED)
}
