//! The compiled policy: the ONE place where a delay is composed, for every
//! surface (Sigil's `nextDelayMs`, `createBackoff`, the fluent `Backoff`, the
//! CLI, the chart, and the native Rust API, [`crate::Backoff`]).
//!
//! `delay(attempt)` = free attempts → curve (exponential, linear, constant or
//! steps) → ceiling (`max`, before jitter, `@sdxc/backoff`'s rule) → hard cap
//! (`.cap()`) → jitter with one draw from the policy's source → hard cap again
//! (the band is truncated at it, see [`Policy::draw_range`]).
//!
//! A policy is a plain `Copy` value of numbers plus a borrowed list of steps:
//! the wasm build makes it for each call from the record the JS object keeps,
//! which the wrapper writes into the policy area right before the call
//! (src/bindings/backoff.rs); the native API makes it from an owned builder.

use super::curve::{Curve, Jitter, counted, decorrelated, step_index};
use super::rng::scale;

/// The most steps a stepped policy may have (`steps` longer than this is a
/// `RangeError`): a list of waits is written by hand, and a caller's object
/// that claims a huge `length` must fail at once rather than be read for
/// seconds. The wasm policy area holds this many.
pub const MAX_STEPS: usize = 1000;

/// A validated policy (see `check`): every field already in range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy<'a> {
    /// Growth, base, factor and ceiling (`max`; `f64::INFINITY` when absent).
    /// Ignored when `steps` is non-empty.
    pub curve: Curve,
    /// A stepped policy's waits, ms (the last repeats); empty for a curve.
    pub steps: &'a [f64],
    /// The hard bound after jitter (the fluent `.cap()`), ms; `f64::INFINITY` when absent.
    pub cap: f64,
    /// Attempts that wait 0 before the curve starts (a non-negative integer).
    pub free: f64,
    /// The jitter kind.
    pub jitter: Jitter,
}

/// The high extreme draw in `[lo, hi]` for [`Policy::bounds`]: `hi`, or `scale(lo, hi, 1)`
/// when that rounds one ulp above it.
#[inline]
pub fn high_draw(lo: f64, hi: f64) -> f64 {
    hi.max(scale(lo, hi, 1.0))
}

/// A run of the composition that [`Policy::bounds_by`] needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// Every draw at the low end of its range.
    Low,
    /// Every draw at the high end ([`high_draw`]).
    High,
    /// No jitter: the pre-jitter delay, or 0 for a free attempt.
    Plain,
}

/// [`Policy::total_bounds`] with the bounds of each retry from `bounds` (the
/// wasm build runs them through the delay's own instance of the composition,
/// src/bindings/backoff.rs): the sums of `min` and of `max` over retries
/// `1 .. attempts`, in that order.
pub fn total_bounds_by(attempts: f64, mut bounds: impl FnMut(f64) -> (f64, f64, f64)) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0, 0.0);
    let mut retry = 1.0;
    while retry < attempts {
        let (_, a, b) = bounds(retry);
        lo += a;
        hi += b;
        retry += 1.0;
    }
    (lo, hi)
}

impl Policy<'_> {
    /// The pre-jitter delay for `attempt`, or `None` for a free attempt (or
    /// `NaN`): it waits 0 and takes no draw. Bounded by the ceiling and the cap.
    pub fn nominal(&self, attempt: f64) -> Option<f64> {
        let n = counted(attempt, self.free);
        if n == 0.0 {
            return None;
        }
        let d = if self.steps.is_empty() {
            self.curve.at(n)
        } else {
            self.steps.get(step_index(n, self.steps.len())).copied().unwrap_or(0.0)
        };
        Some(d.min(self.cap))
    }

    /// The `(min, max)` of the one draw `random.float(min, max)` for pre-jitter
    /// delay `d`: the jitter kind's range, its upper end truncated so that
    /// `d * max <= cap` (only ± jitter can cross the cap: the other kinds stay
    /// at or below `d`, which is already at most `cap`). A wait whose band
    /// `[d(1-f), d(1+f)]` crosses the cap is thus drawn uniformly from
    /// `[d(1-f), cap]` with the same single draw.
    pub fn draw_range(&self, d: f64) -> (f64, f64) {
        let (lo, hi) = self.jitter.draw_range(d);
        if matches!(self.jitter, Jitter::Spread(_)) && d * hi > self.cap {
            return (lo, self.cap / d);
        }
        (lo, hi)
    }

    /// A jittered result held to the cap: rounding (or a draw one ulp above its
    /// range) may pass it; it then becomes the largest integer not above the cap.
    #[inline]
    fn hold(&self, v: f64) -> f64 {
        if v > self.cap { self.cap.floor() } else { v }
    }

    /// The delay for `attempt` with draws from `draw(key, min, max)`, which
    /// returns a value in `[min, max]` (or an error, which passes through and
    /// stops the composition); `key` is the attempt (or the decorrelated step),
    /// for keyed draws. Exactly one draw per jittered attempt (one per step for
    /// decorrelated jitter), none for a free attempt or without jitter.
    pub fn delay_with<E>(&self, attempt: f64, mut draw: impl FnMut(f64, f64, f64) -> Result<f64, E>) -> Result<f64, E> {
        let mut failed = None;
        let v = self.compose(
            attempt,
            || false,
            |k, lo, hi| match draw(k, lo, hi) {
                Ok(x) => Some(x),
                Err(e) => {
                    failed = Some(e);
                    None
                }
            },
        );
        match failed {
            Some(e) => Err(e),
            None => Ok(v.unwrap_or(0.0)),
        }
    }

    /// [`Policy::delay_with`] on a draw that answers `None` to stop. Inlined into
    /// its caller, so the policy's fields stay in locals and the draw is a direct
    /// call: the wasm build has one instance, for every delay (its draw picks the
    /// policy's source, src/bindings/backoff.rs) and for the bounds (extreme draws,
    /// [`Policy::bounds_of`]).
    /// (An instance behind `&mut dyn FnMut`, with the policy in memory, would cost
    /// an indirect call and memory loads on every delay.)
    /// `settles()`: the draw depends on its range alone (the extreme draws of the
    /// bounds), which lets decorrelated jitter stop at a fixed point
    /// ([`decorrelated`]); false for every real source.
    #[inline]
    pub fn compose(
        &self,
        attempt: f64,
        settles: impl Fn() -> bool,
        mut draw: impl FnMut(f64, f64, f64) -> Option<f64>,
    ) -> Option<f64> {
        let n = counted(attempt, self.free);
        if n == 0.0 {
            return Some(0.0);
        }
        let v = if self.jitter == Jitter::Decorrelated && self.steps.is_empty() {
            let c = self.curve;
            decorrelated(c.base, c.cap, self.cap, n, settles, |k, lo, hi| draw(k, lo, hi).ok_or(())).ok()?
        } else {
            // Without a draw, `d` (which `nominal` holds to the cap) passes `hold` unchanged.
            let d = self.nominal(attempt)?;
            if self.jitter.draws(d) {
                let (lo, hi) = self.draw_range(d);
                let x = draw(attempt, lo, hi)?;
                self.jitter.finish(d, x)
            } else {
                d
            }
        };
        Some(self.hold(v))
    }

    /// `(nominal, min, max)`: every result of [`Policy::delay_with`] for
    /// `attempt`, from any source, lies in `[min, max]` (all 0 for a free
    /// attempt; `nominal` is `NaN` for decorrelated jitter, which has none).
    /// Computed by the same composition with the extreme draws: the low end of
    /// each range, and the high end or `scale(lo, hi, 1)` (which may round one
    /// ulp above it), whichever is larger; every step is monotonic in its draw.
    #[inline(never)]
    pub fn bounds(&self, attempt: f64) -> (f64, f64, f64) {
        self.bounds_by(attempt, |run| match run {
            Run::Plain => self.nominal(attempt).unwrap_or(0.0),
            Run::Low => self.compose(attempt, || true, |_, lo, _| Some(lo)).unwrap_or(0.0),
            Run::High => self.compose(attempt, || true, |_, lo, hi| Some(high_draw(lo, hi))).unwrap_or(0.0),
        })
    }

    /// [`Policy::bounds`] with each run of the composition made by `run`: the one
    /// definition of the bounds, for the native API ([`Policy::bounds`]) and the
    /// wasm build, which runs the delay's own instance of the composition with the
    /// extreme draws as its source (src/bindings/backoff.rs). Runs in the order
    /// `Low`, `High`, `Plain`.
    #[inline(always)]
    pub fn bounds_by(&self, attempt: f64, mut run: impl FnMut(Run) -> f64) -> (f64, f64, f64) {
        let low = run(Run::Low);
        let high = run(Run::High);
        let plain = run(Run::Plain);
        self.bounds_of(attempt, plain, low, high)
    }

    /// [`Policy::bounds`] from the composition's results for `attempt` without jitter
    /// (`plain`: [`Policy::nominal`], or 0 for a free attempt) and with the extreme
    /// draws (`lo` for every range, then [`high_draw`]). With those draws the
    /// composition always answers (a draw never fails), so a caller that runs it
    /// another way (the wasm build runs all three through the delay's own instance,
    /// src/bindings/backoff.rs) gets the same numbers.
    pub fn bounds_of(&self, attempt: f64, plain: f64, low: f64, high: f64) -> (f64, f64, f64) {
        let nominal = if counted(attempt, self.free) == 0.0 {
            0.0
        } else if self.jitter == Jitter::Decorrelated {
            f64::NAN
        } else {
            plain
        };
        (nominal, low.min(high), low.max(high))
    }

    /// `(min, max)` of the total wait of retries `1 .. attempts` (the sums of
    /// [`Policy::bounds`]): the shortest and the longest a whole schedule can take.
    pub fn total_bounds(&self, attempts: f64) -> (f64, f64) {
        total_bounds_by(attempts, |retry| self.bounds(retry))
    }

    /// Sigil's policy (docs/API.md section 1): exponential, factor 2, ceiling
    /// `max_delay`, no free attempts, subtract-only jitter; attempt = retry number.
    pub fn sigil(base_delay: f64, max_delay: f64, jitter: f64) -> Policy<'static> {
        Policy {
            curve: Curve { growth: super::curve::Growth::Exponential, base: base_delay, factor: 2.0, cap: max_delay },
            steps: &[],
            cap: f64::INFINITY,
            free: 0.0,
            jitter: Jitter::Subtract(jitter),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::curve::{DECORRELATED_WINDOW, Growth, js_round};
    use crate::core::rng::{Draw, Sfc32};

    const INF: f64 = f64::INFINITY;

    fn curve(growth: Growth, base: f64, factor: f64, ceiling: f64) -> Policy<'static> {
        Policy {
            curve: Curve { growth, base, factor, cap: ceiling },
            steps: &[],
            cap: INF,
            free: 0.0,
            jitter: Jitter::None,
        }
    }
    fn fixed(p: &Policy, attempt: f64, r: f64) -> f64 {
        p.delay_with::<()>(attempt, |_, lo, hi| Ok(scale(lo, hi, r))).unwrap()
    }
    fn stream(p: &Policy, attempt: f64, g: &mut Sfc32) -> f64 {
        p.delay_with::<()>(attempt, |_, lo, hi| Ok(g.float(lo, hi))).unwrap()
    }
    fn run(p: &Policy, attempts: std::ops::RangeInclusive<u32>) -> Vec<f64> {
        attempts.map(|a| p.nominal(f64::from(a)).unwrap_or(0.0)).collect()
    }

    #[test]
    fn sigil_defaults_and_clamp() {
        let p = Policy::sigil(1000.0, 3_600_000.0, 0.0);
        assert_eq!(run(&p, 1..=7), [1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0, 64000.0]);
        for a in [13.0, 31.0, 32.0, 33.0, 40.0, 1000.0, 9_007_199_254_740_991.0] {
            assert_eq!(p.nominal(a), Some(3_600_000.0), "attempt {a}");
        }
        assert_eq!(Policy::sigil(100.0, 250.0, 0.0).nominal(3.0), Some(250.0));
    }

    #[test]
    fn sigil_subtract_jitter() {
        let p = Policy::sigil(1000.0, 3_600_000.0, 0.25);
        assert_eq!(fixed(&p, 4.0, 1.0), 6000.0);
        assert_eq!(fixed(&p, 4.0, 0.0), 8000.0);
        let half = Policy::sigil(1000.0, 3_600_000.0, 0.5);
        let got: Vec<f64> = (1..=7).map(|a| fixed(&half, f64::from(a), 1.0)).collect();
        assert_eq!(got, [500.0, 1000.0, 2000.0, 4000.0, 8000.0, 16000.0, 32000.0]);
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
        assert_eq!(curve(Growth::Exponential, 15000.0, 2.0, 43_200_000.0).nominal(20.0), Some(43_200_000.0));
        assert_eq!(run(&curve(Growth::Constant, 7.0, 2.0, INF), 1..=3), [7.0, 7.0, 7.0]);
        assert_eq!(curve(Growth::Exponential, 1.0, 2.0, INF).nominal(5000.0), Some(INF));
        assert_eq!(curve(Growth::Exponential, 0.0, 2.0, INF).nominal(1e300), Some(0.0));
        assert_eq!(curve(Growth::Linear, 0.0, 2.0, INF).nominal(INF), Some(0.0));
    }

    #[test]
    fn free_attempts_and_steps() {
        let mut p = curve(Growth::Exponential, 1000.0, 2.0, INF);
        p.free = 3.0;
        assert_eq!(run(&p, 1..=6), [0.0, 0.0, 0.0, 1000.0, 2000.0, 4000.0]);
        let steps = [10.0, 20.0];
        let s = Policy { steps: &steps, free: 1.0, ..curve(Growth::Exponential, 0.0, 2.0, INF) };
        assert_eq!(run(&s, 1..=4), [0.0, 10.0, 20.0, 20.0]);
        assert_eq!(s.nominal(f64::NAN), None);
        assert_eq!(s.nominal(INF), Some(20.0));
        assert_eq!(s.nominal(2.5), Some(10.0));
        assert_eq!(s.nominal(-3.0), None);
    }

    #[test]
    fn free_attempts_take_no_draw() {
        let mut p = curve(Growth::Exponential, 1000.0, 2.0, INF);
        p.free = 1.0;
        p.jitter = Jitter::Full;
        let mut g = Sfc32::from_str_seed("s");
        let before = g.words();
        assert_eq!(stream(&p, 1.0, &mut g), 0.0);
        assert_eq!(g.words(), before);
    }

    #[test]
    fn spread_and_full_jitter_match_the_formulas() {
        let mut p = curve(Growth::Exponential, 1000.0, 2.0, INF);
        p.jitter = Jitter::Spread(0.2);
        let mut g = Sfc32::from_str_seed("scale");
        let mut h = g;
        let expected = js_round(4000.0 * h.float(0.8, 1.2));
        assert_eq!(stream(&p, 3.0, &mut g), expected);
        p.jitter = Jitter::Full;
        for a in 1..=20 {
            let d = p.nominal(f64::from(a)).unwrap();
            let j = stream(&p, f64::from(a), &mut g);
            assert!(j >= 0.0 && j <= d && j.fract() == 0.0);
        }
    }

    #[test]
    fn the_cap_truncates_the_band_and_holds() {
        // 1 s, cap 30 s, ± 0.25: the 5th wait is 16 s, its band [12, 20] s is below the cap;
        // the 6th is 30 s (32 s capped), its band [22.5, 30] s.
        let p = Policy { cap: 30_000.0, jitter: Jitter::Spread(0.25), ..curve(Growth::Exponential, 1000.0, 2.0, INF) };
        assert_eq!(fixed(&p, 5.0, 1.0), 20_000.0);
        assert_eq!(fixed(&p, 6.0, 0.0), 22_500.0);
        assert_eq!(fixed(&p, 6.0, 1.0), 30_000.0);
        assert_eq!(fixed(&p, 6.0, 0.5), 26_250.0, "uniform over the truncated band");
        assert_eq!(p.bounds(6.0), (30_000.0, 22_500.0, 30_000.0));
        // a ceiling (max) keeps @sdxc's rule: jitter after the ceiling may exceed it
        let q = Policy { jitter: Jitter::Spread(0.25), ..curve(Growth::Exponential, 1000.0, 2.0, 30_000.0) };
        assert_eq!(fixed(&q, 6.0, 1.0), 37_500.0);
        // fractional cap: a result rounded above it is the largest integer below it
        let f = Policy { cap: 1000.5, jitter: Jitter::Spread(0.5), ..curve(Growth::Constant, 1000.0, 2.0, INF) };
        assert_eq!(fixed(&f, 1.0, 1.0), 1000.0);
        // decorrelated under a hard cap: draws from [base, min(3 sleep, cap)]
        let d = Policy { cap: 1000.0, jitter: Jitter::Decorrelated, ..curve(Growth::Exponential, 100.0, 2.0, INF) };
        let mut g = Sfc32::from_str_seed("d");
        for a in 1..=50 {
            let v = stream(&d, f64::from(a), &mut g);
            assert!((100.0..=1000.0).contains(&v), "{a}: {v}");
        }
    }

    #[test]
    fn decorrelated_stays_in_base_cap_and_is_bounded() {
        let mut p = curve(Growth::Exponential, 100.0, 2.0, 30_000.0);
        p.jitter = Jitter::Decorrelated;
        let mut g = Sfc32::from_str_seed("d");
        for a in [1.0, 2.0, 3.0, 1000.0, 1001.0, 9_007_199_254_740_991.0, f64::INFINITY] {
            let v = stream(&p, a, &mut g);
            assert!((100.0..=30_000.0).contains(&v) && v.fract() == 0.0, "{a}: {v}");
        }
        assert_eq!(fixed(&p, 1.0, 0.5), 200.0);
        let got: Vec<f64> = (1..=7).map(|a| fixed(&p, f64::from(a), 1.0)).collect();
        assert_eq!(got, [300.0, 900.0, 2700.0, 8100.0, 24300.0, 30000.0, 30000.0]);
        let mut count = 0u32;
        let _ = p.delay_with::<()>(9_007_199_254_740_991.0, |_, lo, _| {
            count += 1;
            Ok(lo)
        });
        assert_eq!(count, DECORRELATED_WINDOW);
        let mut keys = vec![];
        let _ = p.delay_with::<()>(3.0, |k, lo, _| {
            keys.push(k);
            Ok(lo)
        });
        assert_eq!(keys, [1.0, 2.0, 3.0]);
        assert_eq!(p.bounds(3.0).1, 100.0);
        assert_eq!(p.bounds(3.0).2, 2700.0);
        assert!(p.bounds(3.0).0.is_nan());
    }

    #[test]
    fn decorrelated_bounds_stop_at_the_fixed_point_with_the_same_numbers() {
        // The bounds stop once a step leaves the sleep unchanged (`settles`); the whole
        // window with the same extreme draws (as a source, which never stops early)
        // must give the same numbers, bit for bit.
        let whole = |p: &Policy, a: f64, top: bool| {
            p.delay_with::<()>(a, |_, lo, hi| Ok(if top { high_draw(lo, hi) } else { lo })).unwrap()
        };
        let shapes = [
            (100.0, 30_000.0, INF),
            (100.0, INF, 30_000.5),
            (3.0, 1.0e300, INF),
            (1.0, 1.0e308, 1.0e307),
            (7.0, 7.0, INF),
            (0.0, 50.0, INF),
        ];
        for (base, ceiling, cap) in shapes {
            for free in [0.0, 2.0] {
                let p = Policy {
                    jitter: Jitter::Decorrelated,
                    cap,
                    free,
                    ..curve(Growth::Exponential, base, 2.0, ceiling)
                };
                for a in (1..=1100).map(f64::from).chain([4096.5, 1.0e6, 9_007_199_254_740_991.0, 1.0e300, INF]) {
                    let (_, lo, hi) = p.bounds(a);
                    let (low, high) = (whole(&p, a, false), whole(&p, a, true));
                    assert_eq!(
                        (lo.to_bits(), hi.to_bits()),
                        (low.min(high).to_bits(), low.max(high).to_bits()),
                        "{base} {ceiling} {cap} {free} {a}"
                    );
                }
            }
        }
    }

    #[test]
    fn decorrelated_bounds_agree_with_delays_above_2_pow_53() {
        // A cap above 2^53 ms: the draws' rounding must stay inside bounds(n).
        let p = Policy { jitter: Jitter::Decorrelated, ..curve(Growth::Exponential, 3.0, 2.0, 1.0e300) };
        let mut g = Sfc32::from_str_seed("big");
        for a in 1..=700 {
            let (_, lo, hi) = p.bounds(f64::from(a));
            let v = stream(&p, f64::from(a), &mut g);
            let top = fixed(&p, f64::from(a), 1.0);
            assert!(lo <= v && v <= hi && top <= hi, "{a}: {lo} <= {v} <= {hi}, r = 1 gives {top}");
        }
    }
}
