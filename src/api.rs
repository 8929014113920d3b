//! The native Rust API: the same engine the wasm build ships
//! ([`crate::core::policy::Policy`]), with an owned builder.
//!
//! ```
//! use backoff_wasm::{Backoff, Jitter};
//!
//! // 1 s doubling, at most 30 s per wait (jitter included), ± 25 %, keyed by a seed
//! let policy = Backoff::exponential(1000.0)
//!     .cap(30_000.0)
//!     .jitter(Jitter::Spread(0.25))
//!     .seed("job-7")
//!     .max_attempts(8)
//!     .build()
//!     .unwrap();
//! let third = policy.delay(3);
//! assert!((3000.0..=5000.0).contains(&third));
//! assert_eq!(policy.delay(3), third, "keyed: a pure function of (seed, attempt)");
//! assert_eq!(policy.waits().count(), 7);
//! ```
//!
//! Every number equals what `createBackoff` / the fluent `Backoff` of the npm
//! package returns for the same options, seed and attempt (a cross-runtime test
//! checks thousands of configurations): `Backoff::exponential(b).max(m)` is
//! `createBackoff({ base: b, max: m })`, `.cap(c)` is `.cap(c)`, `.seed(s)` is
//! `seed: s`, and `.random(Random::new(s))` is `random: createRandom(s)`.

use std::cell::Cell;
use std::fmt;

pub use crate::core::curve::Jitter;
use crate::core::curve::{Curve, Growth};
use crate::core::options::{self, Invalid, Opt, Options, field};
use crate::core::policy::Policy;
use crate::core::rng::{Draw, Keyed, SeedHash, Sfc32, key_prefix, keyed_draw, scale};
use crate::core::wording::{self, T};

/// A bad option, as [`Builder::build`] reports it: which option, what it must be and the
/// value received. The checks are `createBackoff`'s, and its `Display` is worded as the npm
/// package's error for the same options, `"<option> must be <expected>; received <value>"`,
/// except that it names options, jitter kinds and constructors as this API spells them:
/// `max_attempts` (`maxAttempts` in JavaScript), `Jitter::Decorrelated` (`"decorrelated"`),
/// `Backoff::exponential` (`growth: "exponential"`), durations in ms (no duration text), the
/// steps by their count (an array in JavaScript).
///
/// ```
/// use backoff_wasm::{Backoff, Jitter};
///
/// let e = Backoff::exponential(1000.0).max(500.0).build().unwrap_err();
/// assert_eq!((e.option, e.expected, e.received.as_str()), ("max", "a duration >= base", "500"));
/// assert_eq!(e.to_string(), "max must be a duration >= base; received 500");
/// let e = Backoff::fixed(1.0).max_attempts(0).build().unwrap_err();
/// assert_eq!(e.to_string(), "max_attempts must be an integer >= 1; received 0");
/// let e = Backoff::exponential(100.0).jitter(Jitter::Decorrelated).seed("s").build().unwrap_err();
/// assert_eq!(e.to_string(), "max must be set for Jitter::Decorrelated (it needs a cap); received none");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The option's name, as the builder's method (`base`, `factor`, `max`, `cap`, `steps`,
    /// `free`, `jitter`, `max_attempts`).
    pub option: &'static str,
    /// The element of a list option (`steps[3]`), if the error is about one.
    pub index: Option<usize>,
    /// What it must be.
    pub expected: &'static str,
    /// The value received: a number as JavaScript's `String(x)` writes it (`0.5`, `2`,
    /// `1e+21`, `NaN`), a jitter kind as `Jitter::Full`, the steps as their count
    /// (`1001 durations`), `none` for an option not set.
    pub received: String,
}

/// The one table of the wordings the native API spells differently: a wording of the shared
/// checks (`core::wording`, whose text is what the npm package's message says, the
/// JavaScript spelling) and the Rust spelling [`Error`] uses instead. Every other option name
/// and expected wording is the same text on both sides.
const RUST_WORDING: [(T, &str); 7] = [
    (T::MaxAttempts, "max_attempts"),
    (T::DelayMs, "a non-negative finite duration (ms)"),
    (T::StepsExpected, "1 to 1000 durations"),
    (T::JitterExpected, "a fraction in [0, 1] (Jitter::Spread or Jitter::Subtract)"),
    (T::FactorUnlessExponential, "left out unless the policy is Backoff::exponential"),
    (T::DecorrelatedCap, "set for Jitter::Decorrelated (it needs a cap)"),
    (
        T::DecorrelatedSteps,
        "a kind other than Jitter::Decorrelated with Backoff::steps (decorrelated jitter needs a base and a cap)",
    ),
];

/// Wording `id` as [`Error`] writes it: its [`RUST_WORDING`] spelling, else the shared text.
fn rust_text(id: u32) -> &'static str {
    if let Some((_, text)) = RUST_WORDING.iter().find(|(t, _)| *t as u32 == id) {
        return text;
    }
    let (start, end) = wording::span(id as usize);
    wording::ALL.get(start..end).unwrap_or("")
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.option)?;
        if let Some(i) = self.index {
            write!(f, "[{i}]")?;
        }
        write!(f, " must be {}; received {}", self.expected, self.received)
    }
}

impl std::error::Error for Error {}

/// A seeded stream: `@sdxc/random`'s `createRandom(seed)` (sfc32 seeded by a
/// hash of the seed's UTF-16 code units), draw for draw.
///
/// ```
/// use backoff_wasm::Random;
///
/// let r = Random::new("42");
/// assert_eq!((r.next() * 4_294_967_296.0) as u32, 3833195492);
/// assert_eq!(r.int(0, 999), 829);
/// ```
#[derive(Clone, Debug)]
pub struct Random(Cell<Sfc32>);

impl Random {
    /// The stream for `seed`: `createRandom(seed)` of the npm package (whose seed is
    /// `String(seed)`: pass a number as JavaScript writes it, `"42"`, `"1e+21"`).
    ///
    /// ```
    /// use backoff_wasm::Random;
    ///
    /// assert_eq!(Random::new("42").next(), Random::new("42").next());
    /// assert_ne!(Random::new("42").next(), Random::new("43").next());
    /// ```
    pub fn new(seed: &str) -> Random {
        Random(Cell::new(Sfc32::from_str_seed(seed)))
    }

    /// A uniform draw in `[0, 1)` (a multiple of 2^-32); moves the stream on.
    ///
    /// ```
    /// use backoff_wasm::Random;
    ///
    /// let r = Random::new("42");
    /// assert_eq!([r.next(), r.next()], [0.8924853736534715, 0.8297547716647387]);
    /// ```
    pub fn next(&self) -> f64 {
        let mut g = self.0.get();
        let r = g.next();
        self.0.set(g);
        r
    }

    /// `min + next() * (max - min)`: a uniform draw in `[min, max)`; moves the stream on.
    ///
    /// ```
    /// use backoff_wasm::Random;
    ///
    /// assert_eq!(Random::new("42").float(100.0, 200.0), 189.24853736534715);
    /// ```
    pub fn float(&self, min: f64, max: f64) -> f64 {
        scale(min, max, self.next())
    }

    /// An integer in `[min, max]`: `min + floor(next() * (max - min + 1))`; moves the stream on.
    ///
    /// ```
    /// use backoff_wasm::Random;
    ///
    /// let r = Random::new("42");
    /// assert_eq!([r.int(1, 6), r.int(1, 6)], [6, 5]);
    /// ```
    pub fn int(&self, min: i64, max: i64) -> i64 {
        min + (self.next() * ((max - min) as f64 + 1.0)).floor() as i64
    }

    /// The four state words, `state().words` in JavaScript: the stream's position, for
    /// saving it.
    ///
    /// ```
    /// use backoff_wasm::Random;
    ///
    /// let r = Random::new("42");
    /// assert_eq!(r.words(), [2814168319, 2719428796, 2668499562, 2594565673]);
    /// r.next();
    /// assert_ne!(r.words(), [2814168319, 2719428796, 2668499562, 2594565673]);
    /// ```
    pub fn words(&self) -> [u32; 4] {
        self.0.get().words()
    }
}

/// Where jitter draws come from.
#[derive(Clone, Debug)]
enum Source {
    None,
    Stream(Random),
    Keyed(SeedHash),
}

/// A retry policy under construction: start with [`Backoff::exponential`],
/// [`Backoff::linear`], [`Backoff::fixed`] or [`Backoff::steps`], add bounds,
/// then [`Builder::build`] (which validates, as `createBackoff` does). Each
/// setting replaces an earlier one of the same kind.
///
/// ```
/// use backoff_wasm::{Backoff, Jitter};
///
/// let policy = Backoff::exponential(500.0).factor(3.0).max(10_000.0).jitter(Jitter::Equal).seed("s").build()?;
/// assert!((2250.0..=4500.0).contains(&policy.delay(3)));
/// # Ok::<(), backoff_wasm::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Builder {
    growth: Growth,
    base: f64,
    factor: f64,
    factor_given: bool,
    max: f64,
    cap: f64,
    steps: Vec<f64>,
    stepped: bool,
    free: f64,
    jitter: Jitter,
    source: Source,
    attempts: Option<u64>,
}

/// A validated retry policy: how long to wait before each retry, ms. Built with a
/// [`Builder`]; immutable once built (a [`Random`] stream inside moves on with each
/// jittered delay).
///
/// ```
/// use backoff_wasm::Backoff;
///
/// let policy = Backoff::exponential(1000.0).max_attempts(4).build()?;
/// assert_eq!(policy.waits().collect::<Vec<_>>(), [1000.0, 2000.0, 4000.0]);
/// # Ok::<(), backoff_wasm::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Backoff {
    b: Builder,
}

impl Backoff {
    fn builder(growth: Growth, base: f64) -> Builder {
        Builder {
            growth,
            base,
            factor: 2.0,
            factor_given: false,
            max: f64::INFINITY,
            cap: f64::INFINITY,
            steps: Vec::new(),
            stepped: false,
            free: 0.0,
            jitter: Jitter::None,
            source: Source::None,
            attempts: None,
        }
    }

    /// Waits `base × factor^(n−1)` ms before retry `n` (factor 2 unless [`Builder::factor`]).
    ///
    /// ```
    /// use backoff_wasm::Backoff;
    ///
    /// let p = Backoff::exponential(100.0).build()?;
    /// assert_eq!([1, 2, 3, 4].map(|n| p.delay(n)), [100.0, 200.0, 400.0, 800.0]);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn exponential(base: f64) -> Builder {
        Backoff::builder(Growth::Exponential, base)
    }

    /// Waits `base × n` ms before retry `n`.
    ///
    /// ```
    /// use backoff_wasm::Backoff;
    ///
    /// let p = Backoff::linear(250.0).build()?;
    /// assert_eq!([1, 2, 3].map(|n| p.delay(n)), [250.0, 500.0, 750.0]);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn linear(base: f64) -> Builder {
        Backoff::builder(Growth::Linear, base)
    }

    /// Waits `base` ms before every retry.
    ///
    /// ```
    /// use backoff_wasm::Backoff;
    ///
    /// let p = Backoff::fixed(1000.0).build()?;
    /// assert_eq!([1, 2, 50].map(|n| p.delay(n)), [1000.0, 1000.0, 1000.0]);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn fixed(base: f64) -> Builder {
        Backoff::builder(Growth::Constant, base)
    }

    /// Waits `steps[n−1]` ms before retry `n`; the last step repeats (1 to 1000 steps,
    /// each a non-negative finite duration). Takes no factor or ceiling; a cap applies.
    ///
    /// ```
    /// use backoff_wasm::Backoff;
    ///
    /// let p = Backoff::steps(&[100.0, 500.0, 2000.0]).build()?;
    /// assert_eq!([1, 2, 3, 4, 5].map(|n| p.delay(n)), [100.0, 500.0, 2000.0, 2000.0, 2000.0]);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn steps(steps: &[f64]) -> Builder {
        let mut b = Backoff::builder(Growth::Constant, 0.0);
        b.steps = steps.to_vec();
        b.stepped = true;
        b
    }

    fn policy(&self) -> Policy<'_> {
        let b = &self.b;
        Policy {
            curve: Curve { growth: b.growth, base: b.base, factor: b.factor, cap: b.max },
            steps: &b.steps,
            cap: b.cap,
            free: b.free,
            jitter: b.jitter,
        }
    }

    /// The wait in ms before retry `attempt` (1 = after the first failure): the
    /// pre-jitter delay, then one draw when jittered (one per step for
    /// decorrelated jitter); 0 for a free attempt. Equal to the npm package's
    /// `delay(attempt)` for the same options and seed.
    ///
    /// ```
    /// use backoff_wasm::Backoff;
    ///
    /// let p = Backoff::exponential(1000.0).max(60_000.0).build().unwrap();
    /// assert_eq!([1, 2, 3, 7, 8].map(|n| p.delay(n)), [1000.0, 2000.0, 4000.0, 60_000.0, 60_000.0]);
    /// ```
    pub fn delay(&self, attempt: u64) -> f64 {
        let p = self.policy();
        let a = attempt as f64;
        let r: Result<f64, ()> = match &self.b.source {
            Source::None => p.delay_with(a, |_, lo, _| Ok(lo)),
            Source::Stream(g) => p.delay_with(a, |_, lo, hi| Ok(g.float(lo, hi))),
            Source::Keyed(prefix) => {
                let keyed = Keyed { prefix: *prefix };
                p.delay_with(a, |k, lo, hi| {
                    let r = keyed.draw(k).unwrap_or_else(|| keyed_draw(*prefix, js_integer_text(k).encode_utf16()));
                    Ok(scale(lo, hi, r))
                })
            }
        };
        r.unwrap_or(0.0)
    }

    /// `(nominal, min, max)` for retry `attempt`, ms: every `delay(attempt)` lies in
    /// `[min, max]` (`nominal` is the pre-jitter delay, NaN for decorrelated jitter);
    /// the npm package's `bounds(attempt)`.
    ///
    /// ```
    /// use backoff_wasm::{Backoff, Jitter};
    ///
    /// let p = Backoff::linear(100.0).jitter(Jitter::Spread(0.1)).seed("s").build()?;
    /// assert_eq!(p.bounds(3), (300.0, 270.0, 330.0));
    /// assert_eq!(p.bounds(0), (0.0, 0.0, 0.0));
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn bounds(&self, attempt: u64) -> (f64, f64, f64) {
        self.policy().bounds(attempt as f64)
    }

    /// The max-attempts bound (attempts in total, the first included), if any.
    ///
    /// ```
    /// use backoff_wasm::Backoff;
    ///
    /// assert_eq!(Backoff::fixed(1.0).max_attempts(5).build()?.attempts(), Some(5));
    /// assert_eq!(Backoff::fixed(1.0).build()?.attempts(), None);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn attempts(&self) -> Option<u64> {
        self.b.attempts
    }

    /// The waits in order, retries 1, 2, …: `attempts − 1` of them, or endless
    /// without a max-attempts bound.
    ///
    /// ```
    /// use backoff_wasm::Backoff;
    ///
    /// let p = Backoff::linear(100.0).max_attempts(4).build().unwrap();
    /// assert_eq!(p.waits().collect::<Vec<_>>(), [100.0, 200.0, 300.0]);
    /// ```
    pub fn waits(&self) -> impl Iterator<Item = f64> + '_ {
        let end = self.b.attempts.unwrap_or(u64::MAX);
        (1..end).map(move |n| self.delay(n))
    }
}

impl Builder {
    /// The exponential factor (finite, ≥ 1; default 2). The power is computed in Rust,
    /// so a non-integer factor gives the same bits natively and in every JavaScript runtime.
    ///
    /// ```
    /// use backoff_wasm::Backoff;
    ///
    /// let p = Backoff::exponential(100.0).factor(3.0).build()?;
    /// assert_eq!([1, 2, 3, 4].map(|n| p.delay(n)), [100.0, 300.0, 900.0, 2700.0]);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn factor(mut self, factor: f64) -> Builder {
        self.factor = factor;
        self.factor_given = true;
        self
    }

    /// The ceiling before jitter (`createBackoff`'s `max`, ms, ≥ base): a ± jitter
    /// at the ceiling may exceed it by the fraction.
    ///
    /// ```
    /// use backoff_wasm::{Backoff, Jitter};
    ///
    /// let p = Backoff::exponential(1000.0).max(5000.0).jitter(Jitter::Spread(0.5)).seed("s").build()?;
    /// assert_eq!([1, 2, 3, 4].map(|n| p.delay(n)), [812.0, 1553.0, 5464.0, 6355.0]);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn max(mut self, max: f64) -> Builder {
        self.max = max;
        self
    }

    /// The hard bound after jitter (the fluent `.cap()`, ms, ≥ base): no wait
    /// exceeds it; a ± band that crosses it is truncated at it.
    ///
    /// ```
    /// use backoff_wasm::{Backoff, Jitter};
    ///
    /// let p = Backoff::exponential(1000.0).cap(5000.0).jitter(Jitter::Spread(0.5)).seed("s").build()?;
    /// assert_eq!([1, 2, 3, 4].map(|n| p.delay(n)), [812.0, 1553.0, 4598.0, 4428.0]);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn cap(mut self, cap: f64) -> Builder {
        self.cap = cap;
        self
    }

    /// Attempts that wait 0 before the curve starts (a non-negative safe integer).
    ///
    /// ```
    /// use backoff_wasm::Backoff;
    ///
    /// let p = Backoff::exponential(1000.0).free(2).build()?;
    /// assert_eq!([1, 2, 3, 4, 5].map(|n| p.delay(n)), [0.0, 0.0, 1000.0, 2000.0, 4000.0]);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn free(mut self, free: u64) -> Builder {
        self.free = free as f64;
        self
    }

    /// The jitter kind (`Jitter::Spread(f)` is `jitter: f`, `Jitter::Full` is `"full"`, …);
    /// every kind but [`Jitter::None`] needs [`Builder::seed`] or [`Builder::random`].
    ///
    /// ```
    /// use backoff_wasm::{Backoff, Jitter};
    ///
    /// let p = Backoff::exponential(1000.0).max(30_000.0).jitter(Jitter::Full).seed("k").build()?;
    /// assert_eq!([1, 2, 3, 4].map(|n| p.delay(n)), [628.0, 1086.0, 2728.0, 3304.0]);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn jitter(mut self, jitter: Jitter) -> Builder {
        self.jitter = jitter;
        self
    }

    /// Keyed jitter: the draw for attempt `n` is the first draw of the stream
    /// seeded `"<seed> <n>"`, so `delay(n)` is a pure function of (seed, n), in any
    /// process and after a restart. Replaces a [`Builder::random`] stream.
    ///
    /// ```
    /// use backoff_wasm::{Backoff, Jitter};
    ///
    /// let p = Backoff::fixed(1000.0).jitter(Jitter::Full).seed("job-7").build()?;
    /// assert_eq!([1, 2, 3, 4].map(|n| p.delay(n)), [26.0, 428.0, 2.0, 248.0]);
    /// assert_eq!(p.delay(2), 428.0, "asked again: the same wait");
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn seed(mut self, seed: &str) -> Builder {
        self.source = Source::Keyed(key_prefix(seed.encode_utf16()));
        self
    }

    /// Draws from a seeded stream, in call order: each jittered delay moves it on.
    /// Replaces a [`Builder::seed`].
    ///
    /// ```
    /// use backoff_wasm::{Backoff, Jitter, Random};
    ///
    /// let p = Backoff::fixed(1000.0).jitter(Jitter::Full).random(Random::new("42")).build()?;
    /// assert_eq!([1, 1, 1, 1].map(|n| p.delay(n)), [892.0, 830.0, 946.0, 179.0]);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn random(mut self, random: Random) -> Builder {
        self.source = Source::Stream(random);
        self
    }

    /// Attempts in total, the first included (≥ 1): bounds [`Backoff::waits`].
    ///
    /// ```
    /// use backoff_wasm::Backoff;
    ///
    /// let p = Backoff::fixed(100.0).max_attempts(3).build()?;
    /// assert_eq!(p.waits().collect::<Vec<_>>(), [100.0, 100.0]);
    /// # Ok::<(), backoff_wasm::Error>(())
    /// ```
    pub fn max_attempts(mut self, n: u64) -> Builder {
        self.attempts = Some(n);
        self
    }

    /// Validates the options as `createBackoff` does.
    /// # Errors
    /// [`Error`] naming the first bad option: a negative or non-finite duration,
    /// a factor below 1, `max`/`cap` below base, 0 or more than 1000 steps, a
    /// jitter fraction outside `[0, 1]`, decorrelated jitter without a finite
    /// `max`/`cap` or with steps, jitter without a `seed` or `random` (the Rust
    /// API has no default source), `max_attempts(0)`.
    ///
    /// ```
    /// use backoff_wasm::{Backoff, Jitter};
    ///
    /// assert!(Backoff::exponential(1000.0).build().is_ok());
    /// assert_eq!(Backoff::exponential(-1.0).build().unwrap_err().option, "base");
    /// assert_eq!(Backoff::fixed(1.0).jitter(Jitter::Full).build().unwrap_err().option, "jitter");
    /// assert_eq!(Backoff::fixed(1.0).max_attempts(0).build().unwrap_err().option, "max_attempts");
    /// ```
    pub fn build(mut self) -> Result<Backoff, Error> {
        let o = self.options();
        let fail = |e: Invalid| error(e, &o, &self.steps);
        let shape = options::curve(false, &o).map_err(fail)?;
        if self.stepped {
            options::steps::<Invalid>(self.steps.len() as f64).map_err(fail)?;
            for (i, s) in self.steps.iter().enumerate() {
                options::step::<Invalid>(Opt::Is(*s), i as u32).map_err(fail)?;
            }
        }
        let (_, jitter, _, _) = options::shared(false, &o, &shape).map_err(fail)?;
        if jitter.draws(0.0) && matches!(self.source, Source::None) {
            let spec = options::spec(options::Kind::Type, T::Jitter, T::JitterNeedsSource, field::JITTER);
            return Err(fail(Invalid::of(spec)));
        }
        if !self.stepped {
            [self.base, self.factor, self.max] = [shape.base, shape.factor, shape.max];
        }
        self.cap = shape.cap;
        if !matches!(self.jitter, Jitter::Subtract(_)) {
            self.jitter = jitter;
        }
        Ok(Backoff { b: self })
    }

    /// The builder's settings as the options the validation reads (`createBackoff`'s).
    fn options(&self) -> Options {
        let bounded = |x: f64| if x == f64::INFINITY { Opt::Absent } else { Opt::Is(x) };
        let mut o = Options::NONE;
        if self.stepped {
            o.steps = Opt::Is(());
        } else {
            o.base = Opt::Is(self.base);
            o.growth = Opt::Is(self.growth);
            if self.factor_given {
                o.factor = Opt::Is(self.factor);
            }
            o.max = bounded(self.max);
        }
        o.cap = bounded(self.cap);
        o.free = Opt::Is(self.free);
        o.jitter = match self.jitter {
            Jitter::None => Opt::Absent,
            // A fraction is checked as `createBackoff`'s ± jitter is.
            Jitter::Spread(x) | Jitter::Subtract(x) => Opt::Is(Jitter::Spread(x)),
            kind => Opt::Is(kind),
        };
        match self.source {
            Source::None => {}
            Source::Keyed(_) => o.seed = Opt::Is(()),
            Source::Stream(_) => o.random = Opt::Is(options::Source::Seeded),
        }
        if let Some(n) = self.attempts {
            o.attempts = Opt::Is(n as f64);
        }
        o
    }
}

/// The [`Error`] of a failed check of `o` (`steps`: the steps, for an element's error).
fn error(e: Invalid, o: &Options, steps: &[f64]) -> Error {
    let index = (e.index >= 0.0).then_some(e.index as usize);
    let received = match index {
        Some(i) => js_number_text(steps.get(i).copied().unwrap_or(f64::NAN)),
        None => received(e.field(), o, steps.len()),
    };
    Error { option: rust_text(e.option()), index, expected: rust_text(e.expected()), received }
}

/// The value of option `at` as this API names it: a number as JavaScript's `String(x)`
/// writes it (as the npm package's message does), a jitter kind or a growth by its Rust
/// name, the steps (`steps`: how many) by their count, an option not set as `none`.
fn received(at: u32, o: &Options, steps: usize) -> String {
    let number = |g: Opt<f64>| if let Opt::Is(x) = g { js_number_text(x) } else { "none".to_string() };
    match at {
        field::BASE => number(o.base),
        field::FACTOR => number(o.factor),
        field::MAX => number(o.max),
        field::CAP => number(o.cap),
        field::FREE => number(o.free),
        field::ATTEMPTS => number(o.attempts),
        field::GROWTH => match o.growth {
            Opt::Is(Growth::Exponential) => "Backoff::exponential".to_string(),
            Opt::Is(Growth::Linear) => "Backoff::linear".to_string(),
            Opt::Is(Growth::Constant) => "Backoff::constant".to_string(),
            _ => "none".to_string(),
        },
        field::JITTER => match o.jitter {
            Opt::Is(Jitter::Spread(x) | Jitter::Subtract(x)) => js_number_text(x),
            Opt::Is(Jitter::Full) => "Jitter::Full".to_string(),
            Opt::Is(Jitter::Equal) => "Jitter::Equal".to_string(),
            Opt::Is(Jitter::Decorrelated) => "Jitter::Decorrelated".to_string(),
            _ => "none".to_string(),
        },
        field::STEPS if o.steps != Opt::Absent => format!("{steps} durations"),
        field::SEED if o.seed != Opt::Absent => "a string".to_string(),
        field::RANDOM if o.random != Opt::Absent => "a Random".to_string(),
        _ => "none".to_string(),
    }
}

/// JavaScript's `String(x)` for any number: the shortest digits that
/// round-trip, in plain notation from 1e-6 up to below 1e21, else in exponent
/// form (`1.5e+21`, `1e-7`); `NaN`, `Infinity`, `-Infinity`; `-0` is `0`.
fn js_number_text(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let sci = format!("{:e}", x.abs()); // shortest round-trip digits: "1.5e-7"
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let n = exp.parse::<i32>().unwrap_or(0) + 1; // the decimal point's place after the first digit
    let k = digits.len() as i32;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = if n - 1 < 0 { format!("-{}", 1 - n) } else { format!("+{}", n - 1) };
        let m = if k == 1 { digits.clone() } else { format!("{}.{}", &digits[..1], &digits[1..]) };
        format!("{m}e{e}")
    };
    format!("{sign}{body}")
}

/// JavaScript's `String(n)` for an integer `n` (the text a keyed draw hashes):
/// the shortest digits that round-trip, padded with zeros below 10²¹, in
/// exponent form (`1.5e+21`) from there.
fn js_integer_text(n: f64) -> String {
    let sci = format!("{n:e}"); // shortest round-trip digits: "1.152921504606847e18"
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if exp < 21 {
        let zeros = (exp + 1 - digits.len() as i32).max(0) as usize;
        format!("{digits}{}", "0".repeat(zeros))
    } else {
        format!("{mantissa}e+{exp}")
    }
}

/// Milliseconds of duration text (`@sdxc/duration`'s `parse`: `"5 seconds"`,
/// `"250ms"`, `"1 week"`, a bare integer is ms), or `None` when it is not a duration.
///
/// ```
/// assert_eq!(backoff_wasm::parse_duration("1 minute"), Some(60_000.0));
/// assert_eq!(backoff_wasm::parse_duration("1.5 hours"), None);
/// ```
pub fn parse_duration(text: &str) -> Option<f64> {
    crate::core::duration::parse(text)
}

/// The wait a `Retry-After` response field asks for (RFC 9110 §10.2.3), in ms, at time
/// `now_ms` (ms since the epoch, as `SystemTime` gives it): delay-seconds × 1000, or an
/// HTTP-date (IMF-fixdate, RFC 850 or asctime) minus `now_ms`, 0 when it is past. `None`
/// for anything else (empty text, a sign, a decimal point, an unknown layout) or a
/// non-finite `now_ms`; never NaN. The same answers as `retryAfterMs` of the npm
/// package's `backoff-wasm/retry` (both replay one file of about 3 000 values), so a Rust
/// service and a JavaScript one honour a server's wait alike. Linear in the text's length.
///
/// ```
/// use backoff_wasm::retry_after_ms;
///
/// let now = 784_111_777_000.0; // Sun, 06 Nov 1994 08:49:37 GMT
/// assert_eq!(retry_after_ms("120", now), Some(120_000.0));
/// assert_eq!(retry_after_ms("Sun, 06 Nov 1994 08:50:07 GMT", now), Some(30_000.0));
/// assert_eq!(retry_after_ms("Sun, 06 Nov 1994 08:00:00 GMT", now), Some(0.0));
/// assert_eq!(retry_after_ms("1.5", now), None);
/// ```
pub fn retry_after_ms(value: &str, now_ms: f64) -> Option<f64> {
    crate::core::http_date::retry_after_ms(value, now_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_text_of_large_integers() {
        assert_eq!(js_integer_text(1_152_921_504_606_846_976.0), "1152921504606847000");
        assert_eq!(js_integer_text(1e21), "1e+21");
        assert_eq!(js_integer_text(1.5e300), "1.5e+300");
        assert_eq!(js_integer_text(18_014_398_509_481_984.0), "18014398509481984");
    }

    #[test]
    fn js_text_of_any_number() {
        for (x, text) in [
            (0.5, "0.5"),
            (-0.0, "0"),
            (2.0, "2"),
            (1e21, "1e+21"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (123.456, "123.456"),
            (-1e-7, "-1e-7"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
            (1e20, "100000000000000000000"),
        ] {
            assert_eq!(js_number_text(x), text, "{x}");
        }
    }

    #[test]
    fn errors_name_options_and_values_as_the_rust_api_spells_them() {
        let e = Backoff::exponential(1000.0).factor(0.5).build().unwrap_err();
        assert_eq!(e.to_string(), "factor must be a finite number >= 1; received 0.5");
        let e = Backoff::exponential(100.0).jitter(Jitter::Spread(2.0)).seed("s").build().unwrap_err();
        assert_eq!(
            e.to_string(),
            "jitter must be a fraction in [0, 1] (Jitter::Spread or Jitter::Subtract); received 2"
        );
        let e = Backoff::steps(&[10.0, -1.0]).build().unwrap_err();
        assert_eq!(e.to_string(), "steps[1] must be a non-negative finite duration (ms); received -1");
        let e = Backoff::exponential(f64::NAN).build().unwrap_err();
        assert_eq!(e.to_string(), "base must be a non-negative finite duration (ms); received NaN");
        let e = Backoff::linear(100.0).factor(3.0).build().unwrap_err();
        assert_eq!(e.to_string(), "factor must be left out unless the policy is Backoff::exponential; received 3");
        let e = Backoff::exponential(100.0).jitter(Jitter::Decorrelated).seed("s").build().unwrap_err();
        assert_eq!(e.to_string(), "max must be set for Jitter::Decorrelated (it needs a cap); received none");
        let e = Backoff::steps(&[1.0]).jitter(Jitter::Decorrelated).seed("s").build().unwrap_err();
        assert_eq!(
            e.to_string(),
            "jitter must be a kind other than Jitter::Decorrelated with Backoff::steps (decorrelated jitter needs a base and a cap); received Jitter::Decorrelated"
        );
        let e = Backoff::fixed(1.0).jitter(Jitter::Full).build().unwrap_err();
        assert_eq!(
            e.to_string(),
            "jitter must be given with a seed or a random stream (the Rust API has no default source); received Jitter::Full"
        );
        let e = Backoff::exponential(100.0).max_attempts(0).build().unwrap_err();
        assert_eq!(
            (e.option, e.to_string().as_str()),
            ("max_attempts", "max_attempts must be an integer >= 1; received 0")
        );
        let e = Backoff::steps(&[]).build().unwrap_err();
        assert_eq!(e.to_string(), "steps must be 1 to 1000 durations; received 0 durations");
        let e = Backoff::steps(&vec![1.0; 1001]).build().unwrap_err();
        assert_eq!(e.to_string(), "steps must be 1 to 1000 durations; received 1001 durations");
        assert_eq!(
            Backoff::exponential(1000.0).cap(10.0).build().unwrap_err().to_string(),
            "cap must be a duration >= base; received 10"
        );
        let e = Backoff::fixed(1.0).free(1 << 60).build().unwrap_err();
        assert_eq!(e.to_string(), "free must be a non-negative safe integer; received 1152921504606847000");
    }

    #[test]
    fn the_rust_spellings_replace_the_javascript_ones_which_the_npm_package_keeps() {
        // The shared texts are the npm package's messages' (js/ reads them through the wasm): unchanged.
        let js = [
            (T::MaxAttempts, "maxAttempts"),
            (T::DelayMs, "a non-negative finite duration (ms, or text such as \"5 seconds\")"),
            (T::StepsExpected, "a non-empty array of at most 1000 durations"),
            (T::JitterExpected, "a number in [0, 1], \"full\", \"equal\" or \"decorrelated\""),
            (T::FactorUnlessExponential, "left out unless growth is \"exponential\""),
            (T::DecorrelatedCap, "set for \"decorrelated\" jitter (it needs a cap)"),
            (
                T::DecorrelatedSteps,
                "a kind other than \"decorrelated\" with steps (decorrelated needs a base and a cap)",
            ),
        ];
        assert_eq!(js.map(|(t, _)| t), RUST_WORDING.map(|(t, _)| t));
        for ((t, text), (_, rust)) in js.iter().zip(RUST_WORDING) {
            assert_eq!(wording::text(*t), *text);
            assert_eq!(rust_text(*t as u32), rust);
            assert_ne!(rust, *text);
        }
        // Everything else reads the shared text.
        assert_eq!(rust_text(T::Ceiling as u32), "a duration >= base");
        assert_eq!(rust_text(T::Base as u32), "base");
    }
}
