//! Validation of option values, shared by every surface. Each check returns
//! the value or the text of what was expected; the bindings add the option's
//! name, the value received and the error class (RangeError, TypeError or
//! SigilError). Type checks (is it a number at all?) happen at the boundary.

use super::wording::{T, text};

/// What an option must be, for error messages: `"<option> must be <Expected>"`.
pub type Expected = &'static str;

/// `Number.MAX_SAFE_INTEGER` (2^53 - 1).
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// [`attempt_number`]'s wording.
pub const ATTEMPT_NUMBER: Expected = text(T::AttemptNumber);
/// [`schedule_attempts`]'s wording.
pub const SCHEDULE_ATTEMPTS: Expected = text(T::ScheduleAttempts);
/// [`decorrelated_schedule_attempts`]'s wording.
pub const DECORRELATED_SCHEDULE_ATTEMPTS: Expected = text(T::DecorrelatedScheduleAttempts);
/// [`non_negative`]'s wording.
pub const NON_NEGATIVE: Expected = text(T::NonNegative);
/// [`sigil_jitter`]'s wording.
pub const SIGIL_JITTER: Expected = text(T::SigilJitter);
/// [`unit_draw`]'s wording.
pub const UNIT_DRAW: Expected = text(T::UnitDraw);
/// [`factor`]'s wording.
pub const FACTOR: Expected = text(T::FactorExpected);
/// [`free`]'s wording.
pub const FREE: Expected = text(T::FreeExpected);
/// [`delay_ms`]'s wording.
pub const DELAY_MS: Expected = text(T::DelayMs);
/// [`ceiling`]'s wording.
pub const CEILING: Expected = text(T::Ceiling);

/// The numbers a check accepts: those in `[lo, hi]` (never NaN), integers only
/// when `integer`. A finite bound excludes ±Infinity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Accepts {
    /// The least number accepted.
    pub lo: f64,
    /// The greatest number accepted.
    pub hi: f64,
    /// Only integers.
    pub integer: bool,
}

impl Accepts {
    /// Whether `x` is one of the numbers.
    #[inline]
    pub fn holds(&self, x: f64) -> bool {
        x >= self.lo && x <= self.hi && (!self.integer || x.trunc() == x)
    }

    fn check(&self, x: f64, wording: Expected) -> Result<f64, Expected> {
        if self.holds(x) { Ok(x) } else { Err(wording) }
    }
}

/// What [`attempt_number`] accepts.
pub const ATTEMPT_NUMBERS: Accepts = Accepts { lo: 1.0, hi: f64::MAX, integer: true };
/// What [`schedule_attempts`] accepts.
pub const SCHEDULE_ATTEMPT_NUMBERS: Accepts = Accepts { lo: 1.0, hi: MAX_SCHEDULE_ATTEMPTS, integer: true };
/// What [`decorrelated_schedule_attempts`] accepts.
pub const DECORRELATED_SCHEDULE_ATTEMPT_NUMBERS: Accepts =
    Accepts { lo: 1.0, hi: MAX_DECORRELATED_SCHEDULE_ATTEMPTS, integer: true };
/// What [`non_negative`] accepts.
pub const NON_NEGATIVE_NUMBERS: Accepts = Accepts { lo: 0.0, hi: f64::INFINITY, integer: false };
/// What [`sigil_jitter`] accepts.
pub const SIGIL_JITTERS: Accepts = Accepts { lo: 0.0, hi: 1.0, integer: false };
/// What [`factor`] accepts.
pub const FACTORS: Accepts = Accepts { lo: 1.0, hi: f64::MAX, integer: false };
/// What [`free`] accepts.
pub const FREE_COUNTS: Accepts = Accepts { lo: 0.0, hi: MAX_SAFE_INTEGER, integer: true };
/// What [`delay_ms`] accepts.
pub const DELAYS_MS: Accepts = Accepts { lo: 0.0, hi: f64::MAX, integer: false };
/// What [`finite`] accepts.
pub const FINITE_NUMBERS: Accepts = Accepts { lo: -f64::MAX, hi: f64::MAX, integer: false };
/// No number.
pub const NO_NUMBER: Accepts = Accepts { lo: f64::INFINITY, hi: -f64::MAX, integer: false };

/// `x.is_finite()`, written as `x - x == 0` (exactly 0 for every finite `x`, NaN
/// for ±Infinity and NaN): in wasm a subtraction and a comparison, where
/// `is_finite` is a bit test with two 64-bit constants (LLVM also turns
/// `x.abs() < Infinity` into that test).
#[inline]
#[allow(clippy::eq_op)] // `x - x` on purpose: 0 or NaN.
pub fn finite(x: f64) -> bool {
    x - x == 0.0
}

/// A retry or attempt number: an integer `>= 1` (any size).
pub fn attempt_number(x: f64) -> Result<f64, Expected> {
    ATTEMPT_NUMBERS.check(x, ATTEMPT_NUMBER)
}

/// The most attempts a materialised schedule (`retrySchedule`, `schedule()`,
/// `totalMs()`) may have: a million waits. Larger ones would exhaust memory
/// (V8 aborts the process near 10^8 array elements) where the originals hang or
/// crash; iterate the policy instead.
pub const MAX_SCHEDULE_ATTEMPTS: f64 = 1_000_001.0;

/// The most items `Random.shuffle` copies in one call: 2^24 (16 777 216). A longer
/// `length` (a Proxy can claim 2e9) is a RangeError at once, where copying item by
/// item would run for minutes and then exhaust memory (V8 aborts the process).
pub const MAX_SHUFFLE_ITEMS: f64 = 16_777_216.0;

/// The longest array ECMAScript allows, 2^32 - 1: the bound of `Random.pick`'s
/// `length`, which reads one item whatever the length.
pub const MAX_ARRAY_LENGTH: f64 = 4_294_967_295.0;

/// Whether `n` is an item count in `[min, max]`.
pub fn item_count(n: f64, min: f64, max: f64) -> bool {
    n.trunc() == n && n >= min && n <= max // NaN and ±Infinity fail one of these
}

/// `maxAttempts` for a materialised schedule: an integer in `[1, 1_000_001]`.
pub fn schedule_attempts(x: f64) -> Result<f64, Expected> {
    SCHEDULE_ATTEMPT_NUMBERS.check(x, SCHEDULE_ATTEMPTS)
}

/// The most attempts a materialised schedule of a policy with decorrelated jitter
/// may have: a thousand waits, the recurrence's window (`curve::DECORRELATED_WINDOW`).
/// Wait `n` replays `min(n, 1000)` steps of the recurrence, one draw each, so a
/// schedule of `N` waits takes ~`1000 N` draws: a thousand waits are ~5 * 10^5
/// draws (tens of ms with keyed draws), where a million took minutes.
pub const MAX_DECORRELATED_SCHEDULE_ATTEMPTS: f64 = 1_001.0;

/// `maxAttempts` for a materialised schedule with decorrelated jitter: an integer
/// in `[1, 1_001]`.
pub fn decorrelated_schedule_attempts(x: f64) -> Result<f64, Expected> {
    DECORRELATED_SCHEDULE_ATTEMPT_NUMBERS.check(x, DECORRELATED_SCHEDULE_ATTEMPTS)
}

/// A non-negative number, `Infinity` allowed (Sigil's `baseDelayMs`, `maxDelayMs`).
pub fn non_negative(x: f64) -> Result<f64, Expected> {
    NON_NEGATIVE_NUMBERS.check(x, NON_NEGATIVE)
}

/// Sigil's jitter: 0 (off) or a fraction in `(0, 1]`.
pub fn sigil_jitter(x: f64) -> Result<f64, Expected> {
    SIGIL_JITTERS.check(x, SIGIL_JITTER)
}

/// A random draw handed back by a user's `random()`: a number in `[0, 1]`.
pub fn unit_draw(x: f64) -> Result<f64, Expected> {
    if (0.0..=1.0).contains(&x) { Ok(x) } else { Err(UNIT_DRAW) }
}

/// A ± jitter fraction in `[0, 1]`.
pub fn fraction(x: f64) -> Result<f64, Expected> {
    if (0.0..=1.0).contains(&x) { Ok(x) } else { Err("a number in [0, 1]") }
}

/// An exponential factor: finite and `>= 1`.
pub fn factor(x: f64) -> Result<f64, Expected> {
    FACTORS.check(x, FACTOR)
}

/// A count of free attempts: a non-negative safe integer.
pub fn free(x: f64) -> Result<f64, Expected> {
    FREE_COUNTS.check(x, FREE)
}

/// A delay in ms: finite and `>= 0` (a duration that parsed to a negative or
/// overflowing number is rejected here).
pub fn delay_ms(x: f64) -> Result<f64, Expected> {
    DELAYS_MS.check(x, DELAY_MS)
}

/// A ceiling in ms: `>= base`; `Infinity` means unbounded.
pub fn ceiling(max: f64, base: f64) -> Result<f64, Expected> {
    if max >= base && max >= 0.0 { Ok(max) } else { Err(CEILING) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds() {
        for x in
            [0.0, -0.0, 1.5, -1e308, f64::MAX, f64::MIN_POSITIVE, 5e-324, f64::INFINITY, f64::NEG_INFINITY, f64::NAN]
        {
            assert_eq!(finite(x), x.is_finite(), "{x}");
        }
        assert!(attempt_number(1.0).is_ok() && attempt_number(1e300).is_ok());
        assert!(schedule_attempts(1_000_001.0).is_ok() && schedule_attempts(1_000_002.0).is_err());
        assert!(decorrelated_schedule_attempts(1_001.0).is_ok() && decorrelated_schedule_attempts(1_002.0).is_err());
        assert!(decorrelated_schedule_attempts(0.0).is_err() && decorrelated_schedule_attempts(2.5).is_err());
        for bad in [0.0, -1.0, 1.5, f64::NAN, f64::INFINITY] {
            assert!(attempt_number(bad).is_err(), "{bad}");
        }
        assert!(non_negative(f64::INFINITY).is_ok() && non_negative(-0.5).is_err() && non_negative(f64::NAN).is_err());
        assert!(sigil_jitter(1.0).is_ok() && sigil_jitter(1.01).is_err() && sigil_jitter(-0.1).is_err());
        assert!(factor(1.0).is_ok() && factor(0.99).is_err() && factor(f64::INFINITY).is_err());
        assert!(free(0.0).is_ok() && free(MAX_SAFE_INTEGER + 1.0).is_err() && free(1.5).is_err());
        assert!(delay_ms(0.0).is_ok() && delay_ms(f64::INFINITY).is_err() && delay_ms(-1.0).is_err());
        assert!(ceiling(f64::INFINITY, 5.0).is_ok() && ceiling(4.0, 5.0).is_err() && ceiling(f64::NAN, 5.0).is_err());
        assert!(item_count(0.0, 0.0, MAX_SHUFFLE_ITEMS) && item_count(MAX_SHUFFLE_ITEMS, 0.0, MAX_SHUFFLE_ITEMS));
        assert!(item_count(MAX_ARRAY_LENGTH, 1.0, MAX_ARRAY_LENGTH) && !item_count(0.0, 1.0, MAX_ARRAY_LENGTH));
        for bad in [MAX_SHUFFLE_ITEMS + 1.0, 2e9, -1.0, 1.5, f64::NAN, f64::INFINITY] {
            assert!(!item_count(bad, 0.0, MAX_SHUFFLE_ITEMS), "{bad}");
        }
    }
}
