//! Option validation with the original precedence, shared by the wasm bindings
//! and the native API: `createBackoff`'s and the fluent policy's options ([`curve`],
//! [`steps`], [`step`], [`shared`]), and the number checks every surface uses
//! ([`number`], [`duration`]). The options are Rust values ([`Options`], each an
//! [`Opt`]): the wasm bindings convert what JavaScript gave into them once, the
//! native API builds them from its builder. One validation, one wording: the wasm
//! bindings record an [`Invalid`] in the result slots (the JS wrapper builds the
//! message), the native API turns it into its `Error`; both read the same
//! `core::wording` texts.

use super::check;
use super::curve::{Growth, Jitter};
use super::policy::MAX_STEPS;
use super::wording::T;

/// The options' places, in the order an error's blamed value is numbered (the wasm
/// boundary's field table, `boundary::BACKOFF_FIELDS`, lists them in this order).
pub mod field {
    /// `base` (`interval` for the fluent policy).
    pub const BASE: u32 = 0;
    /// `growth`.
    pub const GROWTH: u32 = 1;
    /// `factor`.
    pub const FACTOR: u32 = 2;
    /// `max`, the ceiling before jitter.
    pub const MAX: u32 = 3;
    /// `cap`, the hard bound after jitter.
    pub const CAP: u32 = 4;
    /// `steps`.
    pub const STEPS: u32 = 5;
    /// `free`.
    pub const FREE: u32 = 6;
    /// `jitter`.
    pub const JITTER: u32 = 7;
    /// `random`.
    pub const RANDOM: u32 = 8;
    /// `seed`.
    pub const SEED: u32 = 9;
    /// `maxAttempts`.
    pub const ATTEMPTS: u32 = 10;
    /// The first option name that is not one.
    pub const NAME: u32 = 11;
}

/// Error classes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `RangeError`: a value of the right type out of range.
    Range = 0,
    /// `TypeError`: a value of the wrong type, or options that exclude each other.
    Type = 1,
    /// `SigilError` (`code: "invalid_argument"`): any bad Sigil input.
    Sigil = 2,
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

    /// Its class: a [`Kind`] as a number.
    pub const fn kind(&self) -> u32 {
        self.spec & 3
    }

    /// The index of the blamed field ([`field`]).
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

/// An option as given: left out, a value of the type the option takes (for a
/// duration, its ms: a number, or what duration text reads as, NaN when it is none),
/// or a value of another type (a TypeError at its turn among the checks).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opt<V> {
    /// Left out.
    Absent,
    /// A value of the option's type.
    Is(V),
    /// A value of another type.
    Wrong,
}

/// Where the draws of a policy's jitter come from (the `random` and `seed` options).
/// Each but `System` is numbered as the wasm boundary's draw source code
/// (`boundary::source`), which draws from the system stream as from a `next()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// No `random` and no `seed`: the default system stream.
    System = 0,
    /// A JavaScript `() => number` (draws in `[0, 1]`).
    Function = 1,
    /// An object's `float(min, max)` (draws in `[min, max]`).
    Float = 2,
    /// An object's `next()` (draws in `[0, 1]`).
    Next = 3,
    /// A seeded stream of this package.
    Seeded = 4,
    /// Keyed draws from `seed`: a pure function of (seed, attempt).
    Keyed = 5,
}

/// `createBackoff`'s options (and the fluent policy's) as Rust values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// An option name that is not one was given.
    pub unknown: bool,
    /// `base`, ms.
    pub base: Opt<f64>,
    /// `growth` (`Wrong` also for a string that is not a growth's name).
    pub growth: Opt<Growth>,
    /// `factor`.
    pub factor: Opt<f64>,
    /// `max`, ms (a number `Infinity` is no ceiling).
    pub max: Opt<f64>,
    /// `cap`, ms (a number `Infinity` is no cap).
    pub cap: Opt<f64>,
    /// `steps`: whether it is a list (its length and elements are checked by
    /// [`steps`] and [`step`]).
    pub steps: Opt<()>,
    /// `free`.
    pub free: Opt<f64>,
    /// `jitter`: a number as `Jitter::Spread` of it (unchecked), a kind by its name
    /// (`Wrong` also for a string that is not one).
    pub jitter: Opt<Jitter>,
    /// `seed` (a string or a number).
    pub seed: Opt<()>,
    /// `random` (`Wrong`: not a source).
    pub random: Opt<Source>,
    /// `maxAttempts`.
    pub attempts: Opt<f64>,
}

impl Options {
    /// Every option left out.
    pub const NONE: Options = Options {
        unknown: false,
        base: Opt::Absent,
        growth: Opt::Absent,
        factor: Opt::Absent,
        max: Opt::Absent,
        cap: Opt::Absent,
        steps: Opt::Absent,
        free: Opt::Absent,
        jitter: Opt::Absent,
        seed: Opt::Absent,
        random: Opt::Absent,
        attempts: Opt::Absent,
    };
}

/// Options as the checks read them, one at a time ([`Options`] holds them; the wasm
/// bindings read each from what JavaScript wrote, converting it where it is read).
#[allow(missing_docs)]
pub trait Given {
    fn unknown(&self) -> bool;
    fn base(&self) -> Opt<f64>;
    fn growth(&self) -> Opt<Growth>;
    fn factor(&self) -> Opt<f64>;
    fn max(&self) -> Opt<f64>;
    fn cap(&self) -> Opt<f64>;
    fn steps(&self) -> Opt<()>;
    fn free(&self) -> Opt<f64>;
    fn jitter(&self) -> Opt<Jitter>;
    fn seed(&self) -> Opt<()>;
    fn random(&self) -> Opt<Source>;
    fn attempts(&self) -> Opt<f64>;
}

impl Given for Options {
    fn unknown(&self) -> bool {
        self.unknown
    }
    fn base(&self) -> Opt<f64> {
        self.base
    }
    fn growth(&self) -> Opt<Growth> {
        self.growth
    }
    fn factor(&self) -> Opt<f64> {
        self.factor
    }
    fn max(&self) -> Opt<f64> {
        self.max
    }
    fn cap(&self) -> Opt<f64> {
        self.cap
    }
    fn steps(&self) -> Opt<()> {
        self.steps
    }
    fn free(&self) -> Opt<f64> {
        self.free
    }
    fn jitter(&self) -> Opt<Jitter> {
        self.jitter
    }
    fn seed(&self) -> Opt<()> {
        self.seed
    }
    fn random(&self) -> Opt<Source> {
        self.random
    }
    fn attempts(&self) -> Opt<f64> {
        self.attempts
    }
}

/// The checks [`holds`] runs: each wording's [`check::Accepts`].
const CHECKS: [(T, check::Accepts); 9] = [
    (T::AttemptNumber, check::ATTEMPT_NUMBERS),
    (T::ScheduleAttempts, check::SCHEDULE_ATTEMPT_NUMBERS),
    (T::DecorrelatedScheduleAttempts, check::DECORRELATED_SCHEDULE_ATTEMPT_NUMBERS),
    (T::NonNegative, check::NON_NEGATIVE_NUMBERS),
    (T::SigilJitter, check::SIGIL_JITTERS),
    (T::FactorExpected, check::FACTORS),
    (T::FreeExpected, check::FREE_COUNTS),
    (T::DelayMs, check::DELAYS_MS),
    (T::Finite, check::FINITE_NUMBERS),
];

/// Every bound of [`CHECKS`] (and [`check::NO_NUMBER`]'s).
static BOUNDS: [f64; 8] = [
    f64::INFINITY,
    -f64::MAX,
    0.0,
    1.0,
    check::MAX_DECORRELATED_SCHEDULE_ATTEMPTS,
    check::MAX_SCHEDULE_ATTEMPTS,
    check::MAX_SAFE_INTEGER,
    f64::MAX,
];

/// The wording id of the first check in [`RULES`].
const FIRST_CHECK: u32 = T::AttemptNumber as u32;

/// [`CHECKS`] as one byte per wording id from [`FIRST_CHECK`] on ([`rule`]), and
/// [`check::NO_NUMBER`] for the ids between them that are no check's.
static RULES: [u8; T::Finite as usize - FIRST_CHECK as usize + 1] = {
    let mut rules = [rule(check::NO_NUMBER); T::Finite as usize - FIRST_CHECK as usize + 1];
    let mut i = 0;
    while i < CHECKS.len() {
        rules[CHECKS[i].0 as usize - FIRST_CHECK as usize] = rule(CHECKS[i].1);
        i += 1;
    }
    rules
};

/// A check as one byte: the index in [`BOUNDS`] of its lower bound (bits 0-2) and of
/// its upper bound (bits 3-5), and whether it takes integers only (bit 6).
const fn rule(a: check::Accepts) -> u8 {
    const fn at(x: f64) -> u8 {
        let mut i = 0;
        while BOUNDS[i] != x {
            i += 1;
        }
        i as u8
    }
    at(a.lo) | at(a.hi) << 3 | (a.integer as u8) << 6
}

/// Whether `x` passes the check whose wording is `expected` (a [`T`] id): the
/// `core::check` function of that wording, as the numbers it accepts ([`CHECKS`],
/// read from [`RULES`]; none for another id).
#[inline(never)]
fn holds(expected: u32, x: f64) -> bool {
    let r = RULES.get(expected.wrapping_sub(FIRST_CHECK) as usize).copied().unwrap_or(rule(check::NO_NUMBER));
    let (lo, hi) = (BOUNDS[usize::from(r & 7)], BOUNDS[usize::from(r >> 3 & 7)]);
    check::Accepts { lo, hi, integer: r & 64 != 0 }.holds(x)
}

/// A number checked by the check of `spec`'s wording (`holds`). Anything but a
/// number is a TypeError (SigilError for Sigil), a bad number the class of `spec`.
#[inline(always)]
pub fn number<E: From<Invalid>>(g: Opt<f64>, spec: u32) -> Checked<f64, E> {
    let (is, x) = if let Opt::Is(x) = g { (true, x) } else { (false, f64::NAN) };
    match number_error(is, x, spec) {
        0 => Ok(x),
        e => Err(E::from(Invalid::of(e))),
    }
}

/// [`number`]'s check: 0, or the error's [`spec`] (never 0: every wording of a
/// check has a non-zero id). A plain number, so that no `Result` goes through memory.
#[inline(never)]
fn number_error(is: bool, x: f64, spec: u32) -> u32 {
    if !is {
        let k = if spec & 3 == Kind::Sigil as u32 { Kind::Sigil } else { Kind::Type };
        return spec & !3 | k as u32;
    };
    if holds(spec >> 13 & 0x7f, x) { 0 } else { spec }
}

/// A duration option as ms, checked by the check of `spec`'s wording: a value of
/// another type (or left out) is a TypeError, a bad value a RangeError (`spec`'s class
/// is ignored). `index`: a list element's, or -1.
#[inline(always)]
pub fn duration<E: From<Invalid>>(g: Opt<f64>, spec: u32, index: f64) -> Checked<f64, E> {
    let (is, x) = if let Opt::Is(x) = g { (true, x) } else { (false, f64::NAN) };
    match duration_error(is, x, spec) {
        0 => Ok(x),
        e => Err(E::from(Invalid { spec: e, index })),
    }
}

/// [`duration`]'s check: 0, or the error's [`spec`] (see [`number_error`]).
#[inline(never)]
fn duration_error(is: bool, x: f64, spec: u32) -> u32 {
    let spec = spec & !3;
    if !is {
        return spec | Kind::Type as u32;
    };
    if holds(spec >> 13 & 0x7f, x) { 0 } else { spec | Kind::Range as u32 }
}

/// The shape of a compiled policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// A list of steps (the curve's fields are then unused: base 0, factor 1, no ceiling).
    pub stepped: bool,
    /// The growth (`Constant` for steps).
    pub growth: Growth,
    /// The first wait, ms.
    pub base: f64,
    /// The exponential factor.
    pub factor: f64,
    /// The ceiling before jitter (`max`), ms; `Infinity` when absent.
    pub max: f64,
    /// The hard bound after jitter (`cap`), ms; `Infinity` when absent.
    pub cap: f64,
}

/// Validates the shape of `createBackoff` options (docs/API.md sections 2 and
/// 5), the first step: an unknown option name, then steps (excluding every curve
/// option but `cap`; a list, whose length [`steps`] then checks and whose elements
/// [`step`] checks) or a curve (`base` a duration, `growth`, `factor` only for
/// exponential, `max` >= base), then `cap` (>= base). `createBackoff` options
/// without `base` (and without `steps`) pass with base 0 (`max` and `cap` checked
/// against 0): [`shared`], which always follows, checks the other options and
/// reports the missing `base` last, so that the error names the first bad option
/// whether or not `base` is given. `fluent`: the base is called `interval`, and a
/// missing one is reported at once.
pub fn curve<E: From<Invalid>>(fluent: bool, o: &impl Given) -> Checked<Shape, E> {
    if o.unknown() {
        return Err(E::from(Invalid::of(spec(Kind::Type, T::OptionName, T::BackoffNames, field::NAME))));
    }
    let mut shape = shape::<E>(fluent, o)?;
    let floor = if shape.stepped { 0.0 } else { shape.base };
    shape.cap = bound::<E>(o.cap(), T::Cap, floor, field::CAP)?;
    Ok(shape)
}

/// An optional bound (`max` or `cap`): absent or `Infinity` is unbounded, else a duration >= `floor`.
fn bound<E: From<Invalid>>(g: Opt<f64>, name: T, floor: f64, at: u32) -> Checked<f64, E> {
    if matches!(g, Opt::Absent | Opt::Is(f64::INFINITY)) {
        return Ok(f64::INFINITY);
    }
    let m = duration::<E>(g, spec(Kind::Range, name, T::DelayMs, at), -1.0)?;
    check::ceiling(m, floor).map_err(|_| E::from(Invalid::of(spec(Kind::Range, name, T::Ceiling, at))))
}

fn shape<E: From<Invalid>>(fluent: bool, o: &impl Given) -> Checked<Shape, E> {
    let base_name = if fluent { T::Interval } else { T::Base };
    if o.steps() != Opt::Absent {
        // The first curve option given (a chain of constants, no table on the stack).
        let first = if o.base() != Opt::Absent {
            Some((T::Base, field::BASE))
        } else if o.growth() != Opt::Absent {
            Some((T::Growth, field::GROWTH))
        } else if o.factor() != Opt::Absent {
            Some((T::Factor, field::FACTOR))
        } else if o.max() != Opt::Absent {
            Some((T::Max, field::MAX))
        } else {
            None
        };
        if let Some((name, at)) = first {
            return Err(E::from(Invalid::of(spec(Kind::Type, name, T::LeftOutWithSteps, at))));
        }
        if o.steps() == Opt::Wrong {
            return Err(E::from(Invalid::of(spec(Kind::Type, T::Steps, T::StepsExpected, field::STEPS))));
        }
        let (growth, base, factor, max, cap) = (Growth::Constant, 0.0, 1.0, f64::INFINITY, f64::INFINITY);
        return Ok(Shape { stepped: true, growth, base, factor, max, cap });
    }
    // A missing `createBackoff` base is reported by [`shared`], after the other options.
    let given = match o.base() {
        Opt::Absent if !fluent => Opt::Is(0.0),
        g => g,
    };
    let base = duration::<E>(given, spec(Kind::Range, base_name, T::DelayMs, field::BASE), -1.0)?;
    let growth = match o.growth() {
        Opt::Absent => Growth::Exponential,
        Opt::Is(g) => g,
        Opt::Wrong => return Err(E::from(Invalid::of(spec(Kind::Type, T::Growth, T::GrowthNames, field::GROWTH)))),
    };
    let factor_given = o.factor() != Opt::Absent;
    let factor = if factor_given {
        number::<E>(o.factor(), spec(Kind::Range, T::Factor, T::FactorExpected, field::FACTOR))?
    } else {
        2.0
    };
    if growth != Growth::Exponential && factor_given {
        return Err(E::from(Invalid::of(spec(Kind::Type, T::Factor, T::FactorUnlessExponential, field::FACTOR))));
    }
    let max = bound::<E>(o.max(), T::Max, base, field::MAX)?;
    Ok(Shape { stepped: false, growth, base, factor, max, cap: f64::INFINITY })
}

/// `steps.length` as the list reports it (a Proxy may lie: anything but a
/// number in `[0, 2^32 - 1]`, truncated, counts as 0): 1 to [`MAX_STEPS`] steps.
pub fn steps<E: From<Invalid>>(length: f64) -> Checked<usize, E> {
    let len = if (0.0..=f64::from(u32::MAX)).contains(&length) { length as u32 as usize } else { 0 };
    if len == 0 || len > MAX_STEPS {
        return Err(E::from(Invalid::of(spec(Kind::Range, T::Steps, T::StepsExpected, field::STEPS))));
    }
    Ok(len)
}

/// Step `index` of `steps`: a duration (the error names `steps[index]` and
/// blames value 0, the step).
pub fn step<E: From<Invalid>>(g: Opt<f64>, index: u32) -> Checked<f64, E> {
    duration::<E>(g, spec(Kind::Range, T::Steps, T::DelayMs, 0), f64::from(index))
}

/// `jitter`: a fraction in `[0, 1]` (0 is none) or a kind.
fn jitter_of_option<E: From<Invalid>>(g: Opt<Jitter>) -> Checked<Jitter, E> {
    match g {
        Opt::Absent => Ok(Jitter::None),
        Opt::Is(Jitter::Spread(x)) => {
            let f = check::fraction(x)
                .map_err(|_| E::from(Invalid::of(spec(Kind::Range, T::Jitter, T::JitterExpected, field::JITTER))))?;
            Ok(if f == 0.0 { Jitter::None } else { Jitter::Spread(f) })
        }
        Opt::Is(kind @ (Jitter::Full | Jitter::Equal | Jitter::Decorrelated)) => Ok(kind),
        _ => Err(E::from(Invalid::of(spec(Kind::Type, T::Jitter, T::JitterExpected, field::JITTER)))),
    }
}

/// What [`shared`] answers: free attempts, the jitter, `maxAttempts` (NaN
/// when unbounded) and the source of draws.
pub type Shared = (f64, Jitter, f64, Source);

/// Validates the options every shape takes, after [`curve`] (and the steps),
/// in this order: `free`, `jitter` (decorrelated needs a curve with a finite
/// `max` or `cap`), `seed` (a string or number; never with `random`),
/// `maxAttempts`, then `random`: a function, an object with `float` or `next`,
/// or a seeded stream of this package; last, a missing `base` of a curve (a
/// TypeError that [`curve`] leaves to this check). `shape`: what [`curve`] answered.
pub fn shared<E: From<Invalid>>(fluent: bool, o: &impl Given, shape: &Shape) -> Checked<Shared, E> {
    let free = if o.free() == Opt::Absent {
        0.0
    } else {
        number::<E>(o.free(), spec(Kind::Range, T::Free, T::FreeExpected, field::FREE))?
    };
    let jitter = jitter_of_option::<E>(o.jitter())?;
    if jitter == Jitter::Decorrelated {
        if shape.stepped {
            return Err(E::from(Invalid::of(spec(Kind::Type, T::Jitter, T::DecorrelatedSteps, field::JITTER))));
        }
        if !check::finite(shape.max.min(shape.cap)) {
            let (name, at) = if fluent { (T::Cap, field::CAP) } else { (T::Max, field::MAX) };
            return Err(E::from(Invalid::of(spec(Kind::Range, name, T::DecorrelatedCap, at))));
        }
    }
    if o.seed() != Opt::Absent {
        if o.random() != Opt::Absent {
            return Err(E::from(seed_and_random(field::SEED)));
        }
        if o.seed() == Opt::Wrong {
            return Err(E::from(Invalid::of(spec(Kind::Type, T::Seed, T::SeedExpected, field::SEED))));
        }
    }
    let attempts = if o.attempts() == Opt::Absent {
        f64::NAN
    } else {
        number::<E>(o.attempts(), spec(Kind::Range, T::MaxAttempts, T::AttemptNumber, field::ATTEMPTS))?
    };
    let source = match (o.seed(), o.random()) {
        (Opt::Is(()), _) => Source::Keyed,
        (_, Opt::Absent) => Source::System,
        (_, Opt::Is(s)) => s,
        (_, Opt::Wrong) => {
            return Err(E::from(Invalid::of(spec(Kind::Type, T::Random, T::RandomExpected, field::RANDOM))));
        }
    };
    if !shape.stepped && o.base() == Opt::Absent {
        return Err(E::from(Invalid::of(spec(Kind::Type, T::Base, T::GivenOrSteps, field::BASE))));
    }
    Ok((free, jitter, attempts, source))
}

/// The TypeError for `seed` together with `random` (field `at`).
pub fn seed_and_random(at: u32) -> Invalid {
    Invalid::of(spec(Kind::Type, T::Seed, T::SeedAndRandom, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `curve` then `shared`, as every caller runs them: the first error's option and class.
    fn first_error(o: &Options) -> Option<(u32, u32)> {
        let shape = curve::<Invalid>(false, o);
        let r = shape.and_then(|s| shared::<Invalid>(false, o, &s).map(|_| ()));
        r.err().map(|e| (e.option(), e.kind()))
    }

    #[test]
    fn holds_is_each_wordings_check() {
        type Check = (T, fn(f64) -> bool);
        let checks: [Check; 9] = [
            (T::AttemptNumber, |x| check::attempt_number(x).is_ok()),
            (T::ScheduleAttempts, |x| check::schedule_attempts(x).is_ok()),
            (T::DecorrelatedScheduleAttempts, |x| check::decorrelated_schedule_attempts(x).is_ok()),
            (T::NonNegative, |x| check::non_negative(x).is_ok()),
            (T::SigilJitter, |x| check::sigil_jitter(x).is_ok()),
            (T::FactorExpected, |x| check::factor(x).is_ok()),
            (T::FreeExpected, |x| check::free(x).is_ok()),
            (T::DelayMs, |x| check::delay_ms(x).is_ok()),
            (T::Finite, check::finite),
        ];
        let xs = [
            0.0,
            -0.0,
            0.5,
            1.0,
            1.5,
            2.0,
            1_000.0,
            1_001.0,
            1_002.0,
            1_000_001.0,
            1_000_002.0,
            check::MAX_SAFE_INTEGER,
            check::MAX_SAFE_INTEGER + 1.0,
            1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            -1.0,
            -1e300,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for id in 0..128u32 {
            let check = checks.iter().find(|(t, _)| *t as u32 == id).map(|(_, f)| f);
            for x in xs {
                assert_eq!(holds(id, x), check.is_some_and(|f| f(x)), "wording {id}, {x}");
            }
        }
        // Each check as its docstring states it.
        for x in xs {
            let integer = x.is_finite() && x.trunc() == x;
            assert_eq!(check::attempt_number(x).is_ok(), integer && x >= 1.0, "{x}");
            assert_eq!(check::factor(x).is_ok(), x.is_finite() && x >= 1.0, "{x}");
            assert_eq!(check::free(x).is_ok(), integer && (0.0..=check::MAX_SAFE_INTEGER).contains(&x), "{x}");
            assert_eq!(check::delay_ms(x).is_ok(), x.is_finite() && x >= 0.0, "{x}");
            assert_eq!(check::non_negative(x).is_ok(), x >= 0.0, "{x}");
            assert_eq!(check::sigil_jitter(x).is_ok(), (0.0..=1.0).contains(&x), "{x}");
        }
    }

    #[test]
    fn a_bad_option_is_named_whether_or_not_base_is_given() {
        let range = Kind::Range as u32;
        let missing = Some((T::Base as u32, Kind::Type as u32));
        let cases = [
            (Options { attempts: Opt::Is(-1.0), ..Options::NONE }, Some((T::MaxAttempts as u32, range))),
            (Options { free: Opt::Is(-1.0), ..Options::NONE }, Some((T::Free as u32, range))),
            (Options { factor: Opt::Is(0.5), ..Options::NONE }, Some((T::Factor as u32, range))),
            (Options { max: Opt::Is(-1.0), ..Options::NONE }, Some((T::Max as u32, range))),
            (Options { cap: Opt::Is(-1.0), ..Options::NONE }, Some((T::Cap as u32, range))),
            (Options { jitter: Opt::Is(Jitter::Spread(2.0)), ..Options::NONE }, Some((T::Jitter as u32, range))),
            (Options { free: Opt::Is(-1.0), attempts: Opt::Is(-1.0), ..Options::NONE }, Some((T::Free as u32, range))),
            (Options::NONE, missing),
            (Options { attempts: Opt::Is(3.0), max: Opt::Is(50.0), ..Options::NONE }, missing),
        ];
        for (o, want) in cases {
            assert_eq!(first_error(&o), want, "{o:?}");
            if want != missing {
                assert_eq!(first_error(&Options { base: Opt::Is(100.0), ..o }), want, "with base: {o:?}");
            }
        }
        assert_eq!(first_error(&Options { base: Opt::Is(100.0), attempts: Opt::Is(3.0), ..Options::NONE }), None);
        // The fluent policy reports a missing interval at once.
        let o = Options { attempts: Opt::Is(-1.0), ..Options::NONE };
        let e = curve::<Invalid>(true, &o).unwrap_err();
        assert_eq!((e.option(), e.kind()), (T::Interval as u32, Kind::Type as u32));
    }
}
