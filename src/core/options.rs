//! The validation of option values as they are given — each a type tag
//! (`boundary::tags`) and a number — with the precedence of the original
//! libraries: `createBackoff`'s and the fluent policy's ([`curve`], [`steps`],
//! [`step`], [`shared`]), and the number checks every surface uses
//! ([`number`], [`duration`]). One validation, one wording: the wasm bindings
//! record an [`Invalid`] in the result slots (the JS wrapper builds the
//! message), the native API (`crate::api`) turns it into its `Error`; both
//! read the same `core::wording` texts.

use super::check;
use super::curve::{Growth, Jitter};
use super::policy::MAX_STEPS;
use super::wording::T;
use crate::boundary::{arg, kind, rec::STEPPED, source, tags::*};

/// Error classes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `RangeError`: a value of the right type out of range.
    Range = kind::RANGE as isize,
    /// `TypeError`: a value of the wrong type, or options that exclude each other.
    Type = kind::TYPE as isize,
    /// `SigilError` (`code: "invalid_argument"`): any bad Sigil input.
    Sigil = kind::SIGIL as isize,
}

/// One error's description as one number: its class (bits 0-1), the index of
/// the field to blame (bits 2-5), the option name (bits 6-12) and the expected
/// wording (bits 13-19, [`T`] ids). Built from constants, it is one constant
/// at each check.
pub const fn spec(kind: Kind, option: T, expected: T, field: u32) -> u32 {
    kind as u32 | field << 2 | (option as u32) << 6 | (expected as u32) << 13
}

/// A failed check: its [`spec`], and the index of a list option's element
/// (`steps[3]`), or -1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Invalid {
    /// See [`spec`].
    pub spec: u32,
    /// The element's index, or -1.
    pub index: f64,
}

impl Invalid {
    /// The error `spec`, naming the option itself.
    pub const fn of(spec: u32) -> Invalid {
        Invalid { spec, index: -1.0 }
    }

    /// Its class: a [`kind`] code.
    pub const fn kind(&self) -> u32 {
        self.spec & 3
    }

    /// The index of the blamed field in its table (`boundary::BACKOFF_FIELDS`, …).
    pub const fn field(&self) -> u32 {
        self.spec >> 2 & 0xf
    }

    /// The option name's wording id.
    pub const fn option(&self) -> u32 {
        self.spec >> 6 & 0x7f
    }

    /// The expected wording's id.
    pub const fn expected(&self) -> u32 {
        self.spec >> 13 & 0x7f
    }
}

/// A check's result: the value, or the error as the caller keeps it (`E`:
/// [`Invalid`] itself, or the wasm bindings' marker of an error recorded in the
/// result slots, made at the failing check so that no [`Invalid`] travels).
pub type Checked<V, E = Invalid> = Result<V, E>;

/// One value as given: its type tag and its number (a duration's ms, a
/// string's code, …: `boundary::via`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Given {
    /// Its type tag (`boundary::tags`).
    pub tag: u32,
    /// Its number.
    pub x: f64,
}

impl Given {
    /// An option left out.
    pub const ABSENT: Given = Given { tag: UNDEFINED, x: f64::NAN };

    /// A number.
    pub const fn number(x: f64) -> Given {
        Given { tag: NUMBER, x }
    }
}

/// Whether `x` passes the check whose wording is `expected` (a [`T`] id): the
/// `core::check` function of that wording.
#[inline(never)]
fn holds(expected: u32, x: f64) -> bool {
    const ATTEMPT_NUMBER: u32 = T::AttemptNumber as u32;
    const SCHEDULE_ATTEMPTS: u32 = T::ScheduleAttempts as u32;
    const DECORRELATED_SCHEDULE_ATTEMPTS: u32 = T::DecorrelatedScheduleAttempts as u32;
    const NON_NEGATIVE: u32 = T::NonNegative as u32;
    const SIGIL_JITTER: u32 = T::SigilJitter as u32;
    const FACTOR: u32 = T::FactorExpected as u32;
    const FREE: u32 = T::FreeExpected as u32;
    const DELAY_MS: u32 = T::DelayMs as u32;
    const FINITE: u32 = T::Finite as u32;
    match expected {
        ATTEMPT_NUMBER => check::attempt_number(x).is_ok(),
        SCHEDULE_ATTEMPTS => check::schedule_attempts(x).is_ok(),
        DECORRELATED_SCHEDULE_ATTEMPTS => check::decorrelated_schedule_attempts(x).is_ok(),
        NON_NEGATIVE => check::non_negative(x).is_ok(),
        SIGIL_JITTER => check::sigil_jitter(x).is_ok(),
        FACTOR => check::factor(x).is_ok(),
        FREE => check::free(x).is_ok(),
        DELAY_MS => check::delay_ms(x).is_ok(),
        FINITE => check::finite(x),
        _ => false,
    }
}

/// A number checked by the check of `spec`'s wording (`holds`). A
/// non-number is a TypeError (SigilError for Sigil), a bad number the class of `spec`.
#[inline(always)]
pub fn number<E: From<Invalid>>(g: Given, spec: u32) -> Checked<f64, E> {
    match number_error(g, spec) {
        0 => Ok(g.x),
        e => Err(E::from(Invalid::of(e))),
    }
}

/// [`number`]'s check: 0, or the error's [`spec`] (never 0: every wording of a
/// check has a non-zero id). A plain number, so that no `Result` goes through memory.
#[inline(never)]
fn number_error(g: Given, spec: u32) -> u32 {
    if g.tag != NUMBER {
        let k = if spec & 3 == Kind::Sigil as u32 { Kind::Sigil } else { Kind::Type };
        return spec & !3 | k as u32;
    }
    if holds(spec >> 13 & 0x7f, g.x) { 0 } else { spec }
}

/// A `DurationInput` option as ms, checked by the check of `spec`'s wording: for
/// a string the number is its parse result (`NaN` when it is not a duration),
/// for a number the number; any other type is a TypeError, a bad value a
/// RangeError (`spec`'s class is ignored). `index`: a list element's, or -1.
#[inline(always)]
pub fn duration<E: From<Invalid>>(g: Given, spec: u32, index: f64) -> Checked<f64, E> {
    match duration_error(g, spec) {
        0 => Ok(g.x),
        e => Err(E::from(Invalid { spec: e, index })),
    }
}

/// [`duration`]'s check: 0, or the error's [`spec`] (see [`number_error`]).
#[inline(never)]
fn duration_error(g: Given, spec: u32) -> u32 {
    let spec = spec & !3;
    if g.tag != STRING && g.tag != NUMBER {
        return spec | Kind::Type as u32;
    }
    if holds(spec >> 13 & 0x7f, g.x) { 0 } else { spec | Kind::Range as u32 }
}

/// The fields of `createBackoff` (and the fluent policy), by [`arg`] index.
pub type Fields = [Given; arg::COUNT];

/// A reader of the fields (the wasm bindings read the input slots in place).
pub trait Read: Fn(u32) -> Given {}
impl<F: Fn(u32) -> Given> Read for F {}

/// The shape of a compiled policy: growth code (or `rec::STEPPED`), base,
/// factor, ceiling (`max`) and hard cap, ms.
pub type Shape = [f64; 5];

/// Validates the shape of `createBackoff` options (docs/API.md sections 2 and
/// 5), the first step: an unknown option name ([`arg::NAME`] given: the
/// wrapper found one), then steps (excluding every curve option but `cap`; an
/// array, whose length [`steps`] then checks and whose elements [`step`]
/// checks) or a curve (`base` given and a duration, `growth`, `factor` only for
/// exponential, `max` >= base), then `cap` (>= base). `fluent`: the base is
/// called `interval`.
pub fn curve<E: From<Invalid>>(fluent: bool, f: &impl Read) -> Checked<Shape, E> {
    if f(arg::NAME).tag != UNDEFINED {
        return Err(E::from(Invalid::of(spec(Kind::Type, T::OptionName, T::BackoffNames, arg::NAME))));
    }
    let [g, base, factor, max] = shape::<E>(fluent, f)?;
    let floor = if g == f64::from(STEPPED) { 0.0 } else { base };
    let cap = bound::<E>(f(arg::CAP), T::Cap, floor, arg::CAP)?;
    Ok([g, base, factor, max, cap])
}

/// An optional bound (`max` or `cap`): absent or `Infinity` is unbounded, else a duration >= `floor`.
fn bound<E: From<Invalid>>(g: Given, name: T, floor: f64, field: u32) -> Checked<f64, E> {
    if g.tag == UNDEFINED || (g.tag == NUMBER && g.x == f64::INFINITY) {
        return Ok(f64::INFINITY);
    }
    let m = duration::<E>(g, spec(Kind::Range, name, T::DelayMs, field), -1.0)?;
    check::ceiling(m, floor).map_err(|_| E::from(Invalid::of(spec(Kind::Range, name, T::Ceiling, field))))
}

fn shape<E: From<Invalid>>(fluent: bool, f: &impl Read) -> Checked<[f64; 4], E> {
    let base_name = if fluent { T::Interval } else { T::Base };
    let at = f;
    let (base, growth, factor, max) = (at(arg::BASE), at(arg::GROWTH), at(arg::FACTOR), at(arg::MAX));
    if at(arg::STEPS).tag != UNDEFINED {
        // The first curve option given (a chain of constants, no table on the stack).
        let given = if base.tag != UNDEFINED {
            Some((T::Base, arg::BASE))
        } else if growth.tag != UNDEFINED {
            Some((T::Growth, arg::GROWTH))
        } else if factor.tag != UNDEFINED {
            Some((T::Factor, arg::FACTOR))
        } else if max.tag != UNDEFINED {
            Some((T::Max, arg::MAX))
        } else {
            None
        };
        if let Some((name, a)) = given {
            return Err(E::from(Invalid::of(spec(Kind::Type, name, T::LeftOutWithSteps, a))));
        }
        if at(arg::STEPS).tag != ARRAY {
            return Err(E::from(Invalid::of(spec(Kind::Type, T::Steps, T::StepsExpected, arg::STEPS))));
        }
        return Ok([f64::from(STEPPED), 0.0, 1.0, f64::INFINITY]);
    }
    if base.tag == UNDEFINED {
        // A fluent interval has no steps to give instead: what it must be.
        let expected = if fluent { T::DelayMs } else { T::GivenOrSteps };
        return Err(E::from(Invalid::of(spec(Kind::Type, base_name, expected, arg::BASE))));
    }
    let base = duration::<E>(base, spec(Kind::Range, base_name, T::DelayMs, arg::BASE), -1.0)?;
    let kind = if growth.tag == UNDEFINED {
        Growth::Exponential
    } else {
        let known = if growth.tag == STRING && growth.x >= 0.0 { Growth::from_code(growth.x as u32) } else { None };
        known.ok_or_else(|| E::from(Invalid::of(spec(Kind::Type, T::Growth, T::GrowthNames, arg::GROWTH))))?
    };
    let factor_given = factor.tag != UNDEFINED;
    let factor = if factor_given {
        number::<E>(factor, spec(Kind::Range, T::Factor, T::FactorExpected, arg::FACTOR))?
    } else {
        2.0
    };
    if kind != Growth::Exponential && factor_given {
        return Err(E::from(Invalid::of(spec(Kind::Type, T::Factor, T::FactorUnlessExponential, arg::FACTOR))));
    }
    let max = bound::<E>(max, T::Max, base, arg::MAX)?;
    Ok([f64::from(kind.code()), base, factor, max])
}

/// `steps.length` as the array reports it (a Proxy may lie: anything but a
/// number in `[0, 2^32 - 1]`, truncated, counts as 0): 1 to [`MAX_STEPS`] steps.
pub fn steps<E: From<Invalid>>(length: f64) -> Checked<usize, E> {
    let len = if (0.0..=f64::from(u32::MAX)).contains(&length) { length as u32 as usize } else { 0 };
    if len == 0 || len > MAX_STEPS {
        return Err(E::from(Invalid::of(spec(Kind::Range, T::Steps, T::StepsExpected, arg::STEPS))));
    }
    Ok(len)
}

/// Step `index` of `steps`: a duration (the error names `steps[index]` and
/// blames value 0, the step).
pub fn step<E: From<Invalid>>(g: Given, index: u32) -> Checked<f64, E> {
    duration::<E>(g, spec(Kind::Range, T::Steps, T::DelayMs, 0), f64::from(index))
}

/// `jitter`: a number in `[0, 1]` (0 is none) or the code of a kind (3
/// "full", 4 "equal", 5 "decorrelated": `Jitter::code`; -1 another string).
fn jitter_of_option<E: From<Invalid>>(g: Given) -> Checked<Jitter, E> {
    if g.tag == UNDEFINED {
        return Ok(Jitter::None);
    }
    if g.tag == NUMBER {
        let f = check::fraction(g.x)
            .map_err(|_| E::from(Invalid::of(spec(Kind::Range, T::Jitter, T::JitterExpected, arg::JITTER))))?;
        return Ok(if f == 0.0 { Jitter::None } else { Jitter::Spread(f) });
    }
    match (g.tag, g.x) {
        (STRING, 3.0) => Ok(Jitter::Full),
        (STRING, 4.0) => Ok(Jitter::Equal),
        (STRING, 5.0) => Ok(Jitter::Decorrelated),
        _ => Err(E::from(Invalid::of(spec(Kind::Type, T::Jitter, T::JitterExpected, arg::JITTER)))),
    }
}

/// What [`shared`] answers: free attempts, the jitter, `maxAttempts` (NaN
/// when unbounded) and the source of draws (a `boundary::source` code).
pub type Shared = (f64, Jitter, f64, u32);

/// Validates the options every shape takes, after [`curve`] (and the steps),
/// in this order: `free`, `jitter` (decorrelated needs a curve with a finite
/// `max` or `cap`), `seed` (a string or number; never with `random`),
/// `maxAttempts`, then `random`: a function, an object with `float` or `next`,
/// or a seeded stream of this package (its number: `boundary::via::SOURCE`).
/// `shape`: what [`curve`] answered.
pub fn shared<E: From<Invalid>>(fluent: bool, f: &impl Read, shape: &Shape) -> Checked<Shared, E> {
    let at = f;
    let (free, seed, random, attempts) = (at(arg::FREE), at(arg::SEED), at(arg::RANDOM), at(arg::ATTEMPTS));
    let free = if free.tag == UNDEFINED {
        0.0
    } else {
        number::<E>(free, spec(Kind::Range, T::Free, T::FreeExpected, arg::FREE))?
    };
    let jitter = jitter_of_option::<E>(at(arg::JITTER))?;
    if jitter == Jitter::Decorrelated {
        if shape[0] == f64::from(STEPPED) {
            return Err(E::from(Invalid::of(spec(Kind::Type, T::Jitter, T::DecorrelatedSteps, arg::JITTER))));
        }
        if !check::finite(shape[3].min(shape[4])) {
            let (name, a) = if fluent { (T::Cap, arg::CAP) } else { (T::Max, arg::MAX) };
            return Err(E::from(Invalid::of(spec(Kind::Range, name, T::DecorrelatedCap, a))));
        }
    }
    if seed.tag != UNDEFINED {
        if random.tag != UNDEFINED {
            return Err(E::from(seed_and_random(arg::SEED)));
        }
        if seed.tag != STRING && seed.tag != NUMBER {
            return Err(E::from(Invalid::of(spec(Kind::Type, T::Seed, T::SeedExpected, arg::SEED))));
        }
    }
    let attempts = if attempts.tag == UNDEFINED {
        f64::NAN
    } else {
        number::<E>(attempts, spec(Kind::Range, T::MaxAttempts, T::AttemptNumber, arg::ATTEMPTS))?
    };
    let src = if seed.tag != UNDEFINED {
        source::KEYED
    } else if random.tag == UNDEFINED {
        source::NEXT
    } else if random.x == -1.0 {
        source::SEEDED
    } else {
        let tags = if random.x > 0.0 { random.x as u32 } else { 0 };
        random_kind::<E>(random.tag, tags >> 4, tags & 15)?
    };
    Ok((free, jitter, attempts, src))
}

/// The TypeError for `seed` together with `random` (field `field`).
pub fn seed_and_random(field: u32) -> Invalid {
    Invalid::of(spec(Kind::Type, T::Seed, T::SeedAndRandom, field))
}

/// Classifies a `random` option: a function, an object with `float(min, max)`,
/// or one with `next()` (`source` codes); TypeError otherwise (also when
/// reading its properties threw: `tag` is then an object with no function found).
fn random_kind<E: From<Invalid>>(tag: u32, float_tag: u32, next_tag: u32) -> Checked<u32, E> {
    if tag == FUNCTION {
        return Ok(source::FUNCTION);
    }
    if tag == OBJECT || tag == ARRAY {
        if float_tag == FUNCTION {
            return Ok(source::FLOAT);
        }
        if next_tag == FUNCTION {
            return Ok(source::NEXT);
        }
    }
    Err(E::from(Invalid::of(spec(Kind::Type, T::Random, T::RandomExpected, arg::RANDOM))))
}
