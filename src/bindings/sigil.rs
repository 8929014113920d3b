//! `backoff-wasm/sigil` (API.md section 1): option checks one value at a time
//! (the JS wrapper reads each option right before its check, as the original
//! order of reads and errors has it) and the delay of one retry.

use wasm_bindgen::prelude::*;

use super::{Checked, Kind, SEED_EXPECTED, fail, is_object, listed, number, put, seed_and_random, status, tags::*};
use crate::core::{
    SIGIL_BASE_DELAY_MS, SIGIL_MAX_ATTEMPTS, SIGIL_MAX_DELAY_MS, check,
    curve::{Curve, Growth, Jitter},
    rng::scale,
};

/// Sigil's option names; the expected text of an unknown one.
pub const SIGIL_NAMES: &str = "one of baseDelayMs, maxDelayMs, jitter, random, seed, maxAttempts";

/// Writes `[MAX_ATTEMPTS, BASE_DELAY_MS, MAX_DELAY_MS]` of `@sigil/core` into slots 0..3.
#[wasm_bindgen(js_name = sigilConstants)]
pub fn sigil_constants() {
    put(&[f64::from(SIGIL_MAX_ATTEMPTS), SIGIL_BASE_DELAY_MS, SIGIL_MAX_DELAY_MS]);
}

/// `attempt` of `nextDelayMs`.
pub const SIGIL_ATTEMPT: u32 = 0;
/// The `options` argument itself.
pub const SIGIL_OPTIONS: u32 = 1;
/// `baseDelayMs`.
pub const SIGIL_BASE: u32 = 2;
/// `maxDelayMs`.
pub const SIGIL_MAX: u32 = 3;
/// `jitter`.
pub const SIGIL_JITTER: u32 = 4;
/// `random`.
pub const SIGIL_RANDOM: u32 = 5;
/// `seed` (with `x` = the tag of `random`).
pub const SIGIL_SEED: u32 = 6;
/// `maxAttempts` of `retrySchedule`.
pub const SIGIL_ATTEMPTS: u32 = 7;

/// Checks one Sigil value: `id` says which (`SIGIL_*`), `tag` is its type tag,
/// `x` the number (or, for `seed`, the tag of `random`). On success slot 0 holds
/// the value to use (the default when it is `undefined`; for `seed` 1 when keyed
/// jitter applies, else 0). Returns 0, or 1 with a SigilError recorded (a
/// TypeError for `seed` with `random`).
#[wasm_bindgen(js_name = sigilCheck)]
pub fn sigil_check(id: u32, tag: u32, x: f64) -> u32 {
    status(sigil_value(id, tag, x).map(|v| put(&[v])))
}

fn or_default(tag: u32, x: f64, default: f64) -> (u32, f64) {
    if tag == UNDEFINED { (NUMBER, default) } else { (tag, x) }
}

fn sigil_value(id: u32, tag: u32, x: f64) -> Checked<f64> {
    let sigil = Kind::Sigil;
    match id {
        SIGIL_ATTEMPT => number(tag, x, "attempt", sigil, check::attempt_number, 0),
        SIGIL_OPTIONS => {
            if tag == UNDEFINED || is_object(tag) {
                Ok(0.0)
            } else {
                Err(fail(sigil, "options", "an object or undefined", 0))
            }
        }
        SIGIL_BASE => {
            let (tag, x) = or_default(tag, x, SIGIL_BASE_DELAY_MS);
            number(tag, x, "baseDelayMs", sigil, check::non_negative, 0)
        }
        SIGIL_MAX => {
            let (tag, x) = or_default(tag, x, SIGIL_MAX_DELAY_MS);
            number(tag, x, "maxDelayMs", sigil, check::non_negative, 0)
        }
        SIGIL_JITTER => {
            let (tag, x) = or_default(tag, x, 0.0);
            number(tag, x, "jitter", sigil, check::sigil_jitter, 0)
        }
        SIGIL_RANDOM => {
            if tag == UNDEFINED || tag == FUNCTION {
                Ok(0.0)
            } else {
                Err(fail(sigil, "random", check::unit_draw(f64::NAN).err().unwrap_or(""), 0))
            }
        }
        SIGIL_SEED => {
            if tag == UNDEFINED {
                Ok(0.0)
            } else if x != f64::from(UNDEFINED) {
                Err(seed_and_random(0))
            } else if tag != STRING && tag != NUMBER {
                Err(fail(sigil, "seed", SEED_EXPECTED, 0))
            } else {
                Ok(1.0)
            }
        }
        SIGIL_ATTEMPTS => {
            let (tag, x) = or_default(tag, x, f64::from(SIGIL_MAX_ATTEMPTS));
            number(tag, x, "maxAttempts", sigil, check::schedule_attempts, 0)
        }
        _ => Err(fail(sigil, "options", "an object or undefined", 0)),
    }
}

/// Checks an option name (UTF-16 in the text buffer, `len` code units):
/// `surface` 0 = Sigil (SigilError), 1 = `createBackoff` (TypeError). Returns 0
/// when it is known, 1 with the error recorded (the name is value 0).
#[wasm_bindgen(js_name = optionName)]
pub fn option_name(surface: u32, len: u32) -> u32 {
    let (list, kind) =
        if surface == 0 { (SIGIL_NAMES, Kind::Sigil) } else { (super::backoff::BACKOFF_NAMES, Kind::Type) };
    let known = super::text(len).is_some_and(|key| listed(list, key));
    if known {
        return 0;
    }
    let _ = fail(kind, "an option name", list, 0);
    1
}

/// The delay of Sigil retry `attempt` (validated options; `attempt` an integer
/// >= 1): `min(base * 2^(attempt-1), max)`, then with `jitter` (not 0)
/// `Math.round(capped * (1 - jitter * r))`. `r` is the retry's draw: the value
/// `random()` returned (`NaN` when it was not a number) or the keyed draw; it
/// is ignored when `jitter` is 0 (no draw is due: see `jitterDraws` with kind 1).
/// `NaN` when `r` is not in `[0, 1]`, with the SigilError naming `random` recorded.
#[wasm_bindgen(js_name = sigilDelay)]
pub fn sigil_delay(base: f64, max: f64, jitter: f64, attempt: f64, r: f64) -> f64 {
    let d = Curve { growth: Growth::Exponential, base, factor: 2.0, cap: max }.at(attempt);
    Jitter::Subtract(jitter)
        .apply(d, attempt, |_, lo, hi| {
            let r = check::unit_draw(r).map_err(|e| fail(Kind::Sigil, "random", e, 0))?;
            Ok::<f64, super::Failed>(scale(lo, hi, r))
        })
        .unwrap_or(f64::NAN)
}
