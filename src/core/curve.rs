//! The one curve engine behind every surface: growth (exponential, linear,
//! constant, steps), ceiling, free attempts and jitter (subtract-only, ±, full,
//! equal, decorrelated), drawing from a stream or from keyed draws.
//!
//! Formulas are those of API.md: section 1 (Sigil: exponential with factor 2,
//! subtract-only jitter), section 2 (`createBackoff`: growth kinds, ceiling,
//! free attempts, ± and full jitter) and issue 8 (equal jitter, from the AWS
//! Architecture Blog post "Exponential Backoff And Jitter", 2015).
//! All arithmetic is IEEE-754 double precision, in the order JavaScript
//! evaluates the same expressions, so results are bit-identical to the originals.

use super::rng::Draw;

/// How the pre-jitter delay grows with the counted attempt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Growth {
    /// `base * factor^(n-1)`
    Exponential,
    /// `base * n`
    Linear,
    /// `base`
    Constant,
}

impl Growth {
    /// Numeric code used across the wasm boundary (0, 1, 2).
    pub fn code(self) -> u32 {
        match self {
            Growth::Exponential => 0,
            Growth::Linear => 1,
            Growth::Constant => 2,
        }
    }
    /// Inverse of [`Growth::code`]; unknown codes are `None`.
    pub fn from_code(code: u32) -> Option<Growth> {
        match code {
            0 => Some(Growth::Exponential),
            1 => Some(Growth::Linear),
            2 => Some(Growth::Constant),
            _ => None,
        }
    }
}

/// A validated curve: every field already checked (see `check`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    pub growth: Growth,
    /// First delay, ms, finite and `>= 0`.
    pub base: f64,
    /// Exponential multiplier, finite and `>= 1` (ignored by other growths).
    pub factor: f64,
    /// Ceiling before jitter, ms, `>= base`; `f64::INFINITY` when unbounded.
    pub cap: f64,
}

/// `x^y` for an exponential curve: [`super::pow::pow`], computed in Rust
/// with no host call, so every runtime and the native crate agree bit for bit.
#[inline]
pub(crate) fn pow(x: f64, y: f64) -> f64 {
    super::pow::pow(x, y)
}

impl Curve {
    /// The pre-jitter delay for a counted attempt `n >= 1` (see [`counted`]).
    ///
    /// Exponential: `min(base * factor^(n-1), cap)`; linear: `min(base * n, cap)`;
    /// constant: `base`. A zero base gives 0 where the original would compute
    /// `0 * Infinity = NaN` for astronomically large attempts.
    pub fn at(&self, n: f64) -> f64 {
        match self.growth {
            Growth::Exponential => self.grow(pow(self.factor, n - 1.0)),
            Growth::Linear => self.grow(n),
            Growth::Constant => self.base,
        }
    }

    #[inline]
    fn grow(&self, multiplier: f64) -> f64 {
        if self.base == 0.0 {
            return 0.0;
        }
        (self.base * multiplier).min(self.cap)
    }
}

/// `attempt - free` when that is `>= 1`, else 0 (also for `NaN`): the counted
/// attempt of API.md section 2. 0 means "no delay, no draw".
#[inline]
pub fn counted(attempt: f64, free: f64) -> f64 {
    let n = attempt - free;
    if n >= 1.0 { n } else { 0.0 }
}

/// Index into a `steps` list of length `len >= 1` for counted attempt `n >= 1`:
/// `min(n, len) - 1` (the last step repeats). A fractional `n` is floored
/// (the original would index `steps[1.5]` and return `undefined`).
#[inline]
pub fn step_index(n: f64, len: usize) -> usize {
    let n = n.floor();
    if n >= len as f64 { len - 1 } else { n as usize - 1 }
}

/// JavaScript's `Math.round`: the nearest integer, ties toward `+Infinity`,
/// `-0` kept for results in `[-0.5, -0]`. (Rust's `f64::round` rounds ties away from zero.)
#[inline(never)]
pub fn js_round(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let floor = x.floor();
    let r = if x - floor >= 0.5 { floor + 1.0 } else { floor };
    if r == 0.0 && x.is_sign_negative() { -0.0 } else { r }
}

/// A jitter kind with its parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Jitter {
    /// No jitter: no draw, no rounding.
    None,
    /// Sigil: `round(d * (1 - f * r))`, `r` a raw draw in `[0, 1]`; only ever shortens.
    Subtract(f64),
    /// `@sdxc/backoff`: `round(d * random.float(1 - f, 1 + f))`.
    Spread(f64),
    /// `round(random.float(0, d))`.
    Full,
    /// `round(d / 2 + r * d / 2)`, `r = random.float(0, 1)` (AWS "equal jitter").
    Equal,
    /// AWS "decorrelated jitter": `sleep_0 = base`,
    /// `sleep_k = min(cap, random.float(base, 3 * sleep_{k-1}))`, delay = `round(sleep_n)`.
    /// Replaces the growth curve; needs a finite cap. See [`decorrelated`].
    Decorrelated,
}

/// Decorrelated jitter iterates at most this many steps: `delay(n)` for
/// `n > 1000` starts the recurrence from `base` at step `n - 999`, so a call is
/// bounded (about 1000 draws) for any `n` up to and beyond 2^53. For
/// `n <= 1000` it is exactly the AWS recurrence.
pub const DECORRELATED_WINDOW: u32 = 1000;

/// The first step of the decorrelated window for counted attempt `n >= 1`
/// (`n` floored; infinite `n` counts as 2^53).
pub fn decorrelated_start(n: f64) -> f64 {
    let n = if n.is_finite() { n.floor() } else { 9_007_199_254_740_992.0 };
    if n > f64::from(DECORRELATED_WINDOW) { n - f64::from(DECORRELATED_WINDOW - 1) } else { 1.0 }
}

/// How many steps of the decorrelated recurrence `delay(n)` iterates for
/// counted attempt `n >= 1`: `min(n, DECORRELATED_WINDOW)` (`n` floored;
/// infinite `n` counts as 2^53). Step keys run from [`decorrelated_start`] on.
pub fn decorrelated_steps(n: f64) -> u32 {
    let start = decorrelated_start(n);
    let end = if n.is_finite() { n.floor() } else { 9_007_199_254_740_992.0 };
    ((end - start + 1.0).max(0.0) as u32).min(DECORRELATED_WINDOW)
}

/// The upper end of the next decorrelated draw after sleep `sleep`: `3 * sleep`
/// (the draw is `random.float(base, 3 * sleep)`).
#[inline]
pub fn decorrelated_high(sleep: f64) -> f64 {
    3.0 * sleep
}

/// The next sleep of the decorrelated recurrence from the step's draw `x`: `min(x, cap)`.
#[inline]
pub fn decorrelated_next(x: f64, cap: f64) -> f64 {
    x.min(cap)
}

/// Decorrelated jitter for counted attempt `n >= 1`. `draw(k, min, max)` is the
/// one draw of step `k` in `[min, max]` (`random.float(min, max)`, or a keyed
/// draw for `k` scaled into the range). Always in `[base, cap]` and integral
/// (for integral base and cap); at most [`DECORRELATED_WINDOW`] draws.
/// Built from [`decorrelated_steps`], [`decorrelated_high`], [`decorrelated_next`]
/// and [`js_round`], which callers that draw step by step (the JS wrappers, for a
/// JavaScript random source) use directly.
pub fn decorrelated<E>(
    base: f64,
    cap: f64,
    n: f64,
    mut draw: impl FnMut(f64, f64, f64) -> Result<f64, E>,
) -> Result<f64, E> {
    let start = decorrelated_start(n);
    let mut sleep = base;
    for i in 0..decorrelated_steps(n) {
        let x = draw(start + f64::from(i), base, decorrelated_high(sleep))?;
        sleep = decorrelated_next(x, cap);
    }
    Ok(js_round(sleep))
}

impl Jitter {
    /// Numeric code used across the wasm boundary.
    pub fn code(self) -> u32 {
        match self {
            Jitter::None => 0,
            Jitter::Subtract(_) => 1,
            Jitter::Spread(_) => 2,
            Jitter::Full => 3,
            Jitter::Equal => 4,
            Jitter::Decorrelated => 5,
        }
    }

    /// Rebuilds a jitter from its code and fraction; unknown codes are `None`.
    pub fn from_code(code: u32, fraction: f64) -> Option<Jitter> {
        match code {
            0 => Some(Jitter::None),
            1 => Some(Jitter::Subtract(fraction)),
            2 => Some(Jitter::Spread(fraction)),
            3 => Some(Jitter::Full),
            4 => Some(Jitter::Equal),
            5 => Some(Jitter::Decorrelated),
            _ => None,
        }
    }

    /// The fraction parameter (0 for kinds without one).
    pub fn fraction(self) -> f64 {
        match self {
            Jitter::Subtract(f) | Jitter::Spread(f) => f,
            _ => 0.0,
        }
    }

    /// Whether a delay takes a draw: every jittered call takes exactly one, as in
    /// the originals (even when an uncapped curve overflowed to `Infinity`, so a
    /// shared stream stays in step); jitter `0` and no jitter take none.
    #[inline]
    pub fn draws(self, _d: f64) -> bool {
        match self {
            Jitter::None => false,
            Jitter::Subtract(f) | Jitter::Spread(f) => f != 0.0,
            Jitter::Full | Jitter::Equal | Jitter::Decorrelated => true,
        }
    }

    /// The jittered delay for pre-jitter delay `d`: `d` itself when no draw is
    /// due, else [`Jitter::finish`] of the one draw `draw(key, min, max)` over
    /// [`Jitter::draw_range`]. A draw error passes through.
    #[inline]
    pub fn apply<E>(self, d: f64, key: f64, draw: impl FnOnce(f64, f64, f64) -> Result<f64, E>) -> Result<f64, E> {
        if !self.draws(d) {
            return Ok(d);
        }
        let (lo, hi) = self.draw_range(d);
        Ok(self.finish(d, draw(key, lo, hi)?))
    }

    /// The `(min, max)` arguments of the one draw `random.float(min, max)` for delay `d`.
    #[inline]
    pub fn draw_range(self, d: f64) -> (f64, f64) {
        match self {
            Jitter::Spread(f) => (1.0 - f, 1.0 + f),
            Jitter::Full => (0.0, d),
            _ => (0.0, 1.0),
        }
    }

    /// The jittered delay from the pre-jitter delay `d` and the draw `x`.
    #[inline]
    pub fn finish(self, d: f64, x: f64) -> f64 {
        if !d.is_finite() {
            // An overflowed curve stays `Infinity` (the original may compute `Infinity * 0 = NaN`).
            return d;
        }
        match self {
            Jitter::None => d,
            Jitter::Subtract(f) => js_round(d * (1.0 - f * x)),
            Jitter::Spread(_) => js_round(d * x),
            Jitter::Full => js_round(x),
            Jitter::Equal => js_round(d / 2.0 + x * d / 2.0),
            Jitter::Decorrelated => js_round(x),
        }
    }

    /// The closed interval every jittered result for `d` lies in (before rounding
    /// moves it by at most 0.5): documentation and charts use this. For
    /// decorrelated jitter `d` is ignored: pass the band through [`Jitter::band_of`].
    pub fn band(self, d: f64) -> (f64, f64) {
        if !d.is_finite() {
            return (d, d);
        }
        match self {
            Jitter::Decorrelated => (d, d),
            Jitter::None => (d, d),
            Jitter::Subtract(f) => (d * (1.0 - f), d),
            Jitter::Spread(f) => (d * (1.0 - f), d * (1.0 + f)),
            Jitter::Full => (0.0, d),
            Jitter::Equal => (d / 2.0, d),
        }
    }

    /// The band of a whole policy's delay: decorrelated jitter lies in
    /// `[base, min(cap, 3^n * base)]`, the others in [`Jitter::band`] of `d`.
    pub fn band_of(self, d: f64, base: f64, cap: f64, n: f64) -> (f64, f64) {
        match self {
            Jitter::Decorrelated => (base, (base * pow(3.0, n)).min(cap)),
            _ => self.band(d),
        }
    }
}

/// The shape of the pre-jitter delays.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Curve(Curve),
    /// Non-empty list of delays, ms; the last repeats.
    Steps(Vec<f64>),
}

/// A whole validated policy: shape, free attempts and jitter.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub shape: Shape,
    /// Attempts that wait 0 before the curve starts (non-negative integer).
    pub free: f64,
    pub jitter: Jitter,
}

impl Policy {
    /// The pre-jitter delay for `attempt` (0 for free attempts and `NaN`).
    pub fn base_delay(&self, attempt: f64) -> f64 {
        let n = counted(attempt, self.free);
        if n == 0.0 {
            return 0.0;
        }
        match &self.shape {
            Shape::Curve(c) => c.at(n),
            Shape::Steps(s) => s.get(step_index(n, s.len())).copied().unwrap_or(0.0),
        }
    }

    /// The delay for `attempt` drawing from a stream: at most one draw, or one
    /// per step of decorrelated jitter.
    pub fn delay<R: Draw + ?Sized>(&self, attempt: f64, rng: &mut R) -> f64 {
        let r: Result<f64, ()> = self.delay_with(attempt, |_, lo, hi| Ok(rng.float(lo, hi)));
        r.unwrap_or(0.0)
    }

    /// The delay for `attempt` with draws from `draw(key, min, max)`, which
    /// returns a value in `[min, max]`; `key` is the attempt (or the
    /// decorrelated step), for keyed draws. A draw error passes through.
    pub fn delay_with<E>(&self, attempt: f64, draw: impl FnMut(f64, f64, f64) -> Result<f64, E>) -> Result<f64, E> {
        let n = counted(attempt, self.free);
        if n == 0.0 {
            return Ok(0.0);
        }
        if let (Jitter::Decorrelated, Shape::Curve(c)) = (self.jitter, &self.shape) {
            return decorrelated(c.base, c.cap, n, draw);
        }
        self.jitter.apply(self.base_delay(attempt), attempt, draw)
    }

    /// Sigil's policy (API.md section 1): exponential, factor 2, ceiling
    /// `max_delay`, no free attempts, subtract-only jitter; attempt = retry number.
    pub fn sigil(base_delay: f64, max_delay: f64, jitter: f64) -> Policy {
        Policy {
            shape: Shape::Curve(Curve { growth: Growth::Exponential, base: base_delay, factor: 2.0, cap: max_delay }),
            free: 0.0,
            jitter: Jitter::Subtract(jitter),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Sfc32;

    struct Fixed(f64);
    impl Draw for Fixed {
        fn next(&mut self) -> f64 {
            self.0
        }
    }

    fn curve(growth: Growth, base: f64, factor: f64, cap: f64) -> Policy {
        Policy { shape: Shape::Curve(Curve { growth, base, factor, cap }), free: 0.0, jitter: Jitter::None }
    }
    fn run(p: &Policy, attempts: std::ops::RangeInclusive<u32>) -> Vec<f64> {
        attempts.map(|a| p.base_delay(f64::from(a))).collect()
    }
    const INF: f64 = f64::INFINITY;

    #[test]
    fn sigil_defaults_and_clamp() {
        let p = Policy::sigil(1000.0, 3_600_000.0, 0.0);
        assert_eq!(run(&p, 1..=7), [1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0, 64000.0]);
        // 2^31 * 1000 is far above the ceiling; attempts 31-33, 40, 1000, 2^53-1 all clamp.
        for a in [13.0, 31.0, 32.0, 33.0, 40.0, 1000.0, 9_007_199_254_740_991.0] {
            assert_eq!(p.base_delay(a), 3_600_000.0, "attempt {a}");
        }
        assert_eq!(p.base_delay(12.0), 2_048_000.0);
        assert_eq!(Policy::sigil(100.0, 250.0, 0.0).base_delay(3.0), 250.0);
    }

    #[test]
    fn sigil_subtract_jitter() {
        let p = Policy::sigil(1000.0, 3_600_000.0, 0.25);
        assert_eq!(p.delay(4.0, &mut Fixed(1.0)), 6000.0);
        assert_eq!(p.delay(4.0, &mut Fixed(0.0)), 8000.0);
        let half = Policy::sigil(1000.0, 3_600_000.0, 0.5);
        let got: Vec<f64> = (1..=7).map(|a| half.delay(f64::from(a), &mut Fixed(1.0))).collect();
        assert_eq!(got, [500.0, 1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0]);
        // jitter 0 takes no draw
        assert!(!Policy::sigil(1000.0, 1e9, 0.0).jitter.draws(1000.0));
    }

    #[test]
    fn growth_vectors() {
        assert_eq!(
            run(&curve(Growth::Exponential, 1000.0, 2.0, INF), 1..=5),
            [1000.0, 2000.0, 4000.0, 8000.0, 16000.0]
        );
        assert_eq!(run(&curve(Growth::Exponential, 100.0, 3.0, INF), 1..=4), [100.0, 300.0, 900.0, 2700.0]);
        assert_eq!(run(&curve(Growth::Linear, 60000.0, 2.0, INF), 1..=3), [60000.0, 120000.0, 180000.0]);
        assert_eq!(
            run(&curve(Growth::Exponential, 15000.0, 2.0, 60000.0), 1..=4),
            [15000.0, 30000.0, 60000.0, 60000.0]
        );
        assert_eq!(curve(Growth::Exponential, 15000.0, 2.0, 43_200_000.0).base_delay(20.0), 43_200_000.0);
        assert_eq!(run(&curve(Growth::Constant, 7.0, 2.0, INF), 1..=3), [7.0, 7.0, 7.0]);
        // uncapped exponential overflows to Infinity, as the original does
        assert_eq!(curve(Growth::Exponential, 1.0, 2.0, INF).base_delay(5000.0), INF);
        // a zero base never becomes 0 * Infinity = NaN
        assert_eq!(curve(Growth::Exponential, 0.0, 2.0, INF).base_delay(1e300), 0.0);
        assert_eq!(curve(Growth::Linear, 0.0, 2.0, INF).base_delay(INF), 0.0);
    }

    #[test]
    fn free_attempts_and_steps() {
        let mut p = curve(Growth::Exponential, 1000.0, 2.0, INF);
        p.free = 3.0;
        assert_eq!(run(&p, 1..=6), [0.0, 0.0, 0.0, 1000.0, 2000.0, 4000.0]);
        let s = Policy { shape: Shape::Steps(vec![10.0, 20.0]), free: 1.0, jitter: Jitter::None };
        assert_eq!(run(&s, 1..=4), [0.0, 10.0, 20.0, 20.0]);
        assert_eq!(s.base_delay(f64::NAN), 0.0);
        assert_eq!(s.base_delay(INF), 20.0);
        assert_eq!(s.base_delay(2.5), 10.0);
        assert_eq!(s.base_delay(-3.0), 0.0);
    }

    #[test]
    fn spread_and_full_jitter_match_the_formulas() {
        let mut p = curve(Growth::Exponential, 1000.0, 2.0, INF);
        p.jitter = Jitter::Spread(0.2);
        let mut g = Sfc32::from_str_seed("scale");
        let mut h = g;
        let expected = js_round(4000.0 * h.float(0.8, 1.2));
        assert_eq!(p.delay(3.0, &mut g), expected);
        p.jitter = Jitter::Full;
        let mut g = Sfc32::from_str_seed("full");
        for a in 1..=20 {
            let d = p.base_delay(f64::from(a));
            let j = p.delay(f64::from(a), &mut g);
            assert!(j >= 0.0 && j <= d && j.fract() == 0.0);
        }
    }

    #[test]
    fn free_attempts_take_no_draw() {
        let mut p = curve(Growth::Exponential, 1000.0, 2.0, INF);
        p.free = 1.0;
        p.jitter = Jitter::Full;
        let mut g = Sfc32::from_str_seed("s");
        let before = g.words();
        assert_eq!(p.delay(1.0, &mut g), 0.0);
        assert_eq!(g.words(), before);
    }

    #[test]
    fn js_round_matches_javascript() {
        assert_eq!(js_round(2.5), 3.0);
        assert_eq!(js_round(-2.5), -2.0);
        assert_eq!(js_round(0.49999999999999994), 0.0);
        assert!(js_round(-0.2).is_sign_negative());
        assert_eq!(js_round(4_503_599_627_370_497.0), 4_503_599_627_370_497.0);
        assert_eq!(js_round(1.4999999999999998), 1.0);
    }

    #[test]
    fn decorrelated_stays_in_base_cap_and_is_bounded() {
        let mut p = curve(Growth::Exponential, 100.0, 2.0, 30_000.0);
        p.jitter = Jitter::Decorrelated;
        let mut g = Sfc32::from_str_seed("d");
        for a in [1.0, 2.0, 3.0, 1000.0, 1001.0, 9_007_199_254_740_991.0, f64::INFINITY] {
            let v = p.delay(a, &mut g);
            assert!((100.0..=30_000.0).contains(&v) && v.fract() == 0.0, "{a}: {v}");
        }
        // the first step is the AWS formula with sleep_0 = base
        assert_eq!(p.delay(1.0, &mut Fixed(0.5)), 200.0);
        // r = 1 always: 300, 900, 2700, 8100, 24300, then the cap
        let got: Vec<f64> = (1..=7).map(|a| p.delay(f64::from(a), &mut Fixed(1.0))).collect();
        assert_eq!(got, [300.0, 900.0, 2700.0, 8100.0, 24300.0, 30000.0, 30000.0]);
        // at most DECORRELATED_WINDOW draws
        let mut count = 0u32;
        let _ = p.delay_with::<()>(9_007_199_254_740_991.0, |_, lo, _| {
            count += 1;
            Ok(lo)
        });
        assert_eq!(count, DECORRELATED_WINDOW);
        // keys are the steps 1..=n
        let mut keys = vec![];
        let _ = p.delay_with::<()>(3.0, |k, lo, _| {
            keys.push(k);
            Ok(lo)
        });
        assert_eq!(keys, [1.0, 2.0, 3.0]);
    }

    #[test]
    fn equal_jitter_and_bands() {
        assert_eq!(Jitter::Equal.finish(1000.0, 0.0), 500.0);
        assert_eq!(Jitter::Equal.finish(1000.0, 1.0), 1000.0);
        assert_eq!(Jitter::Spread(0.5).band(100.0), (50.0, 150.0));
        assert_eq!(Jitter::Subtract(0.25).band(8000.0), (6000.0, 8000.0));
    }
}
