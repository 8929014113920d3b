//! The one curve engine behind every surface: growth (exponential, linear,
//! constant, steps), ceiling, free attempts and jitter (subtract-only, ±, full,
//! equal, decorrelated), drawing from a stream or from keyed draws.
//!
//! Formulas are those of docs/API.md: section 1 (Sigil: exponential with factor 2,
//! subtract-only jitter), section 2 (`createBackoff`: growth kinds, ceiling,
//! free attempts, ± and full jitter); equal and decorrelated jitter are from the
//! AWS Architecture Blog post "Exponential Backoff And Jitter" (2015).
//! All arithmetic is IEEE-754 double precision, in the order JavaScript
//! evaluates the same expressions, so results are bit-identical to the originals.

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
    /// `0 * Infinity = NaN` for astronomically large attempts; -0 when the base (or, for
    /// a growing curve, the ceiling) is -0, as the original's `Math.min` gives it.
    pub fn at(&self, n: f64) -> f64 {
        let multiplier = match self.growth {
            Growth::Exponential => pow(self.factor, n - 1.0),
            Growth::Linear => n,
            Growth::Constant => return self.base,
        };
        self.grow(multiplier)
    }

    #[inline]
    fn grow(&self, multiplier: f64) -> f64 {
        if self.base == 0.0 {
            // 0 at every attempt, with the sign JavaScript's `Math.min(base * multiplier, cap)`
            // gives it (the multiplier is >= 1): -0 when the base or the ceiling (then 0) is -0.
            return if self.cap.is_sign_negative() { self.cap } else { self.base };
        }
        (self.base * multiplier).min(self.cap)
    }
}

/// `attempt - free` when that is `>= 1`, else 0 (also for `NaN`): the counted
/// attempt of docs/API.md section 2. 0 means "no delay, no draw".
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
    if !crate::core::check::finite(x) {
        return x;
    }
    let floor = x.floor();
    let r = if x - floor >= 0.5 { floor + 1.0 } else { floor };
    // `r` has `x`'s sign whenever it is not 0; a 0 takes `x`'s sign (-0 for
    // `[-0.5, -0]`): one `f64.copysign` in wasm instead of a sign-bit test.
    r.copysign(x)
}

/// A jitter kind with its parameter: how the one draw `r` of a delay turns the
/// pre-jitter wait `d` (ms) into the wait. `round` is JavaScript's `Math.round`.
///
/// ```
/// use backoff_wasm::{Backoff, Jitter};
///
/// let waits = |j| Backoff::exponential(1000.0).max(30_000.0).jitter(j).seed("k").build().map(|p| p.delay(4));
/// assert_eq!(waits(Jitter::None)?, 8000.0);
/// assert_eq!(waits(Jitter::Subtract(0.2))?, 7339.0); // within [6400, 8000]
/// assert_eq!(waits(Jitter::Spread(0.2))?, 7722.0); // within [6400, 9600]
/// assert_eq!(waits(Jitter::Full)?, 3304.0); // within [0, 8000]
/// assert_eq!(waits(Jitter::Equal)?, 5652.0); // within [4000, 8000]
/// assert_eq!(waits(Jitter::Decorrelated)?, 11462.0); // within [1000, 30000]
/// # Ok::<(), backoff_wasm::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Jitter {
    /// No jitter: no draw, no rounding.
    None,
    /// `round(d * (1 - f * r))`, `r` a draw in `[0, 1]`, `f` in `[0, 1]`: only ever
    /// shortens (the npm package's Sigil schedule).
    Subtract(f64),
    /// `round(d * random.float(1 - f, 1 + f))`, `f` in `[0, 1]`: the npm package's `jitter: f`.
    Spread(f64),
    /// `round(random.float(0, d))`: `jitter: "full"`.
    Full,
    /// `round(d / 2 + r * d / 2)`, `r = random.float(0, 1)` (AWS "equal jitter"): `jitter: "equal"`.
    Equal,
    /// AWS "decorrelated jitter": `sleep_0 = base`,
    /// `sleep_k = min(cap, random.float(base, 3 * sleep_{k-1}))`, delay = `round(sleep_n)`.
    /// Replaces the growth curve; needs a finite ceiling or cap, and no steps:
    /// `jitter: "decorrelated"`.
    Decorrelated,
}

/// Decorrelated jitter iterates at most this many steps: `delay(n)` for
/// `n > 1000` starts the recurrence from `base` at step `n - 999`, so a call is
/// bounded (about 1000 draws) for any `n` up to and beyond 2^53. For
/// `n <= 1000` it is exactly the AWS recurrence.
pub const DECORRELATED_WINDOW: u32 = 1000;

/// The last step of decorrelated jitter: attempts beyond 2^53 (and infinite
/// ones) count as 2^53, so every step key is an integer whose text Rust writes
/// as JavaScript does (a pure function of seed and attempt on every runtime).
const DECORRELATED_LAST: f64 = 9_007_199_254_740_992.0;

/// The last step of the decorrelated window for counted attempt `n >= 1`.
fn decorrelated_end(n: f64) -> f64 {
    if crate::core::check::finite(n) { n.floor().min(DECORRELATED_LAST) } else { DECORRELATED_LAST }
}

/// The first step of the decorrelated window for counted attempt `n >= 1`
/// (`n` floored; beyond 2^53, and infinite, `n` counts as 2^53).
pub fn decorrelated_start(n: f64) -> f64 {
    let n = decorrelated_end(n);
    if n > f64::from(DECORRELATED_WINDOW) { n - f64::from(DECORRELATED_WINDOW - 1) } else { 1.0 }
}

/// How many steps of the decorrelated recurrence `delay(n)` iterates for
/// counted attempt `n >= 1`: `min(n, DECORRELATED_WINDOW)` (`n` floored;
/// beyond 2^53, and infinite, `n` counts as 2^53). Step keys run from [`decorrelated_start`] on.
pub fn decorrelated_steps(n: f64) -> u32 {
    let start = decorrelated_start(n);
    ((decorrelated_end(n) - start + 1.0).max(0.0) as u32).min(DECORRELATED_WINDOW)
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
/// draw for `k` scaled into the range). `ceiling` is AWS's cap (`sleep_k =
/// min(ceiling, draw)`: a draw above it piles up at it, `createBackoff({ max })`);
/// `cap` is the fluent hard bound (`.cap()`): each draw's range is truncated at
/// it, `[base, min(3 * sleep, cap)]`, so waits at the cap spread below it
/// (`f64::INFINITY` when absent). At least one of them is finite. Always in
/// `[base, min(ceiling, cap)]` and integral (for integral bounds); at most
/// [`DECORRELATED_WINDOW`] draws. A draw error passes through.
///
/// `settles`: the draw is a function of its range alone (the extreme draws of
/// `Policy::bounds`, no source behind it), so a step that leaves the sleep
/// unchanged is a fixed point: every later step would repeat it, and the loop
/// stops there. A bound then costs the steps to reach the cap (at most ~700 for
/// any doubles), not the whole window, and `totalBounds()` of a long schedule
/// stays linear. Never set for a real source: its draws are counted and ordered.
/// Asked only when a step left the sleep unchanged (a closure, not a flag: the
/// wasm build answers it through `core::hint::black_box`, so LLVM does not
/// unswitch the loop into two copies).
pub fn decorrelated<E>(
    base: f64,
    ceiling: f64,
    cap: f64,
    n: f64,
    settles: impl Fn() -> bool,
    mut draw: impl FnMut(f64, f64, f64) -> Result<f64, E>,
) -> Result<f64, E> {
    let start = decorrelated_start(n);
    let limit = ceiling.min(cap);
    let mut sleep = base;
    for i in 0..decorrelated_steps(n) {
        let x = draw(start + f64::from(i), base, decorrelated_high(sleep).min(cap))?;
        let next = decorrelated_next(x, limit);
        if next == sleep && settles() {
            break;
        }
        sleep = next;
    }
    Ok(js_round(sleep))
}

impl Jitter {
    /// Numeric code used across the wasm boundary. Hidden, not `pub(crate)`: only the
    /// wasm32 bindings call it, so natively it would be dead code.
    #[doc(hidden)]
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

    /// Rebuilds a jitter from its code and fraction; unknown codes are `None`. Hidden
    /// for the reason [`Jitter::code`] is.
    #[doc(hidden)]
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

    /// The fraction parameter (0 for kinds without one). Hidden for the reason
    /// [`Jitter::code`] is.
    #[doc(hidden)]
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
    pub(crate) fn draws(self, _d: f64) -> bool {
        match self {
            Jitter::None => false,
            Jitter::Subtract(f) | Jitter::Spread(f) => f != 0.0,
            Jitter::Full | Jitter::Equal | Jitter::Decorrelated => true,
        }
    }

    /// The `(min, max)` arguments of the one draw `random.float(min, max)` for delay `d`.
    #[inline]
    pub(crate) fn draw_range(self, d: f64) -> (f64, f64) {
        match self {
            Jitter::Spread(f) => (1.0 - f, 1.0 + f),
            Jitter::Full => (0.0, d),
            _ => (0.0, 1.0),
        }
    }

    /// The jittered delay from the pre-jitter delay `d` and the draw `x`.
    #[inline]
    pub(crate) fn finish(self, d: f64, x: f64) -> f64 {
        if !crate::core::check::finite(d) {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_base_keeps_the_sign_math_min_gives() {
        let curve = |growth, base: f64, cap: f64| Curve { growth, base, factor: 2.0, cap };
        for growth in [Growth::Exponential, Growth::Linear, Growth::Constant] {
            assert!(curve(growth, -0.0, f64::INFINITY).at(3.0).is_sign_negative());
            assert_eq!(curve(growth, 0.0, -0.0).at(3.0).is_sign_negative(), growth != Growth::Constant);
            assert!(curve(growth, -0.0, 5.0).at(1e300).is_sign_negative());
            let plus = curve(growth, 0.0, 5.0).at(3.0);
            assert!(plus == 0.0 && plus.is_sign_positive());
        }
    }

    #[test]
    fn js_round_matches_javascript() {
        assert_eq!(js_round(2.5), 3.0);
        assert_eq!(js_round(-2.5), -2.0);
        assert_eq!(js_round(0.49999999999999994), 0.0);
        assert!(js_round(-0.2).is_sign_negative());
        for (x, negative) in [(-0.5, true), (-0.0, true), (0.0, false), (0.3, false), (0.5, false), (-0.7, true)] {
            assert_eq!(js_round(x).is_sign_negative(), negative, "{x}");
        }
        assert_eq!(js_round(-0.7), -1.0);
        assert_eq!(js_round(4_503_599_627_370_497.0), 4_503_599_627_370_497.0);
        assert_eq!(js_round(1.4999999999999998), 1.0);
    }

    #[test]
    fn equal_jitter() {
        assert_eq!(Jitter::Equal.finish(1000.0, 0.0), 500.0);
        assert_eq!(Jitter::Equal.finish(1000.0, 1.0), 1000.0);
    }
}
