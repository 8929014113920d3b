//! Property tests of the core (native `cargo test` only): random valid
//! configurations and attempts up to 2^53, checked against the invariants that
//! docs/API.md promises for every input:
//!
//! - no delay is ever `NaN` or negative;
//! - pre-jitter curves are non-decreasing in the attempt and never above the cap;
//! - every result lies in `bounds(attempt)`, never above the hard cap, and
//!   jittered results are integers (the composition the wasm `delay` export runs:
//!   `core::policy::Policy::delay_with`);
//! - free attempts (and `NaN` attempts) wait 0 and take no draw;
//! - duration amounts convert exactly as a correctly rounded parse does.
//!
//! Deterministic and bounded: a fixed ChaCha seed (`TestRng::deterministic_rng`)
//! and a fixed number of cases per property, no failure persistence files.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use super::check::MAX_SAFE_INTEGER;
use super::curve::{Curve, Growth, Jitter};
use super::duration::{integer_to_f64, parse};
use super::policy::Policy;
use super::rng::{Draw, Sfc32};

const CASES: u32 = 2000;
const TWO_53: f64 = 9_007_199_254_740_992.0;

fn runner(cases: u32) -> TestRunner {
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// A seeded stream that also counts its draws.
struct Counting {
    g: Sfc32,
    draws: u32,
}
impl Draw for Counting {
    fn next(&mut self) -> f64 {
        self.draws += 1;
        self.g.next()
    }
}

/// A draw source returning one fixed value in `[0, 1]` (a test stub may return 1).
struct Fixed(f64, u32);
impl Draw for Fixed {
    fn next(&mut self) -> f64 {
        self.1 += 1;
        self.0
    }
}

/// Durations in ms as users give them: small integers, large integers, fractions, 0.
fn ms() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        (1u32..100_000u32).prop_map(f64::from),
        (0u64..=1u64 << 53).prop_map(|x| x as f64),
        (0.0f64..1e12),
        (0.0f64..1.0),
    ]
}

fn factor() -> impl Strategy<Value = f64> {
    prop_oneof![Just(1.0), Just(2.0), 1.0f64..4.0, 1.0f64..1e6]
}

fn fraction() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(1.0), 0.0f64..=1.0]
}

fn jitter() -> impl Strategy<Value = Jitter> {
    prop_oneof![
        Just(Jitter::None),
        fraction().prop_map(Jitter::Subtract),
        fraction().prop_map(Jitter::Spread),
        Just(Jitter::Full),
        Just(Jitter::Equal),
    ]
}

/// A validated curve: `cap >= base` or unbounded.
fn curve() -> impl Strategy<Value = Curve> {
    (
        prop_oneof![Just(Growth::Exponential), Just(Growth::Linear), Just(Growth::Constant)],
        ms(),
        factor(),
        prop_oneof![Just(None), ms().prop_map(Some)],
    )
        .prop_map(|(growth, base, factor, extra)| Curve {
            growth,
            base,
            factor,
            cap: extra.map_or(f64::INFINITY, |e| base + e),
        })
}

/// An owned policy (the steps live here; `core::policy::Policy` borrows them).
#[derive(Clone, Debug)]
struct Owned {
    curve: Curve,
    steps: Vec<f64>,
    cap: f64,
    free: f64,
    jitter: Jitter,
}

impl Owned {
    fn p(&self) -> Policy<'_> {
        Policy { curve: self.curve, steps: &self.steps, cap: self.cap, free: self.free, jitter: self.jitter }
    }
}

fn policy() -> impl Strategy<Value = Owned> {
    (
        curve(),
        prop_oneof![3 => Just(vec![]), 1 => prop::collection::vec(ms(), 1..8)],
        prop_oneof![Just(None), ms().prop_map(Some)],
        prop_oneof![
            Just(0.0),
            (0u32..10u32).prop_map(f64::from),
            (0u64..=1u64 << 53).prop_map(|x| (x as f64).min(MAX_SAFE_INTEGER))
        ],
        prop_oneof![4 => jitter(), 1 => Just(Jitter::Decorrelated)],
    )
        .prop_map(|(mut curve, steps, extra, free, mut jitter)| {
            // a hard cap (the fluent `.cap()`) at or above the base
            let cap = extra.map_or(f64::INFINITY, |e| curve.base + e);
            if jitter == Jitter::Decorrelated {
                if !steps.is_empty() {
                    jitter = Jitter::Full;
                } else if !curve.cap.min(cap).is_finite() {
                    curve.cap = curve.base + 1e6;
                }
            }
            Owned { curve, steps, cap, free, jitter }
        })
}

/// Attempts: small, around powers of two, up to 2^53, plus fractions, negatives and NaN.
fn attempt() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (0u32..64u32).prop_map(f64::from),
        4 => (0u64..=1u64 << 53).prop_map(|x| x as f64),
        1 => (0u32..54u32).prop_map(|k| 2f64.powi(k as i32)),
        1 => Just(TWO_53),
        1 => -1e6f64..1e6,
        1 => Just(f64::NAN),
    ]
}

/// The largest pre-jitter delay of a policy (its ceiling, cap, or largest step).
fn ceiling(o: &Owned) -> f64 {
    let top = if o.steps.is_empty() {
        match o.curve.growth {
            Growth::Constant => o.curve.base,
            _ => o.curve.cap,
        }
    } else {
        o.steps.iter().copied().fold(0.0, f64::max)
    };
    top.min(o.cap)
}

/// The delay drawing from a stream (counting its draws), or from a fixed raw draw.
fn delay<R: Draw>(p: &Policy, a: f64, rng: &mut R) -> f64 {
    p.delay_with::<()>(a, |_, lo, hi| Ok(rng.float(lo, hi))).unwrap()
}

#[test]
fn pre_jitter_delays_are_never_nan_negative_or_above_the_cap() {
    runner(CASES)
        .run(&(policy(), attempt()), |(o, a)| {
            let d = o.p().nominal(a).unwrap_or(0.0);
            prop_assert!(!d.is_nan(), "NaN for {o:?} at {a}");
            prop_assert!(d >= 0.0, "negative {d} for {o:?} at {a}");
            prop_assert!(d <= ceiling(&o), "{d} above the cap for {o:?} at {a}");
            Ok(())
        })
        .unwrap();
}

#[test]
fn curves_are_non_decreasing_in_the_attempt() {
    let pairs = (curve(), attempt(), attempt(), prop_oneof![Just(0.0), (0u32..5u32).prop_map(f64::from)]);
    runner(CASES)
        .run(&pairs, |(c, a, b, free)| {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            prop_assume!(!lo.is_nan() && !hi.is_nan());
            let o = Owned { curve: c, steps: vec![], cap: f64::INFINITY, free, jitter: Jitter::None };
            let (dl, dh) = (o.p().nominal(lo).unwrap_or(0.0), o.p().nominal(hi).unwrap_or(0.0));
            prop_assert!(dl <= dh, "{c:?} free {free}: delay({lo}) = {dl} > delay({hi}) = {dh}");
            Ok(())
        })
        .unwrap();
    // Sorted steps are non-decreasing too.
    let steps = (curve(), prop::collection::vec(ms(), 1..8), attempt(), attempt());
    runner(CASES / 4)
        .run(&steps, |(c, mut s, a, b)| {
            s.sort_by(f64::total_cmp);
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            prop_assume!(!lo.is_nan() && !hi.is_nan());
            let o = Owned { curve: c, steps: s, cap: f64::INFINITY, free: 0.0, jitter: Jitter::None };
            prop_assert!(o.p().nominal(lo).unwrap_or(0.0) <= o.p().nominal(hi).unwrap_or(0.0));
            Ok(())
        })
        .unwrap();
}

#[test]
fn delays_lie_in_their_bounds_below_the_cap_and_are_integers() {
    let cases = (policy(), attempt(), any::<[u32; 4]>(), prop_oneof![Just(None), fraction().prop_map(Some)]);
    runner(CASES)
        .run(&cases, |(o, a, words, stub)| {
            let p = o.p();
            let d = p.nominal(a);
            let (got, draws) = match stub {
                None => {
                    let mut rng = Counting { g: Sfc32::from_words(words), draws: 0 };
                    (delay(&p, a, &mut rng), rng.draws)
                }
                Some(x) => {
                    let mut rng = Fixed(x, 0);
                    (delay(&p, a, &mut rng), rng.1)
                }
            };
            prop_assert!(!got.is_nan(), "NaN for {o:?} at {a}");
            prop_assert!(got >= 0.0, "negative {got} for {o:?} at {a}");
            prop_assert!(got <= o.cap, "{got} above the cap for {o:?} at {a}");
            let (nominal, lo, hi) = p.bounds(a);
            prop_assert!(lo <= got && got <= hi, "{got} outside bounds [{lo}, {hi}] for {o:?} at {a}");
            let Some(d) = d else {
                prop_assert_eq!(got, 0.0);
                prop_assert_eq!(draws, 0, "a free attempt took a draw");
                prop_assert_eq!((nominal, lo, hi), (0.0, 0.0, 0.0));
                return Ok(());
            };
            if p.jitter == Jitter::Decorrelated {
                prop_assert!((1..=1000).contains(&draws));
                prop_assert_eq!(got, got.trunc());
                return Ok(());
            }
            if !p.jitter.draws(d) {
                prop_assert_eq!(draws, 0);
                prop_assert_eq!(got.to_bits(), d.to_bits(), "no jitter must return the pre-jitter delay");
                return Ok(());
            }
            prop_assert_eq!(draws, 1, "exactly one draw per jittered delay");
            if !d.is_finite() {
                prop_assert_eq!(got.to_bits(), d.to_bits(), "an overflowed delay stays infinite after its draw");
                return Ok(());
            }
            prop_assert_eq!(got, got.trunc(), "jittered delay {} is not an integer", got);
            Ok(())
        })
        .unwrap();
}

#[test]
fn free_attempts_wait_zero() {
    let cases = (policy(), 0u64..=1u64 << 53);
    runner(CASES)
        .run(&cases, |(o, k)| {
            // Any attempt <= free is free.
            let a = (k as f64).min(o.free);
            let mut rng = Fixed(0.5, 0);
            prop_assert_eq!(delay(&o.p(), a, &mut rng), 0.0);
            prop_assert_eq!(delay(&o.p(), f64::NAN, &mut rng), 0.0);
            prop_assert_eq!(rng.1, 0);
            Ok(())
        })
        .unwrap();
}

#[test]
fn sigil_policy_keeps_its_invariants() {
    let cases = (ms(), ms(), fraction(), 1u64..=1u64 << 53, 0.0f64..=1.0);
    runner(CASES)
        .run(&cases, |(base, extra, jitter, a, r)| {
            let p = Policy::sigil(base, base + extra, jitter);
            let a = a as f64;
            let d = p.nominal(a).unwrap_or(0.0);
            prop_assert!(d >= 0.0 && d <= base + extra);
            let got = delay(&p, a, &mut Fixed(r, 0));
            prop_assert!(!got.is_nan() && got >= 0.0 && got <= d + 0.5);
            if jitter != 0.0 {
                prop_assert_eq!(got, got.trunc());
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn draws_are_in_the_unit_interval() {
    runner(CASES / 4)
        .run(&any::<[u32; 4]>(), |words| {
            let mut g = Sfc32::from_words(words);
            for _ in 0..64 {
                let r = g.next();
                prop_assert!((0.0..1.0).contains(&r));
            }
            Ok(())
        })
        .unwrap();
}

// ------------------------------------------------------------------ duration amounts

/// Decimal text of a big integer given as little-endian 32-bit limbs (test helper).
fn to_decimal(mut limbs: Vec<u32>) -> String {
    let mut chunks = Vec::new();
    while limbs.iter().any(|&l| l != 0) {
        let mut rem: u64 = 0;
        for l in limbs.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*l);
            *l = (cur / 1_000_000_000) as u32;
            rem = cur % 1_000_000_000;
        }
        chunks.push(rem as u32);
    }
    let mut s = chunks.pop().map_or_else(|| "0".to_string(), |c| c.to_string());
    for c in chunks.iter().rev() {
        s.push_str(&format!("{c:09}"));
    }
    s
}

/// `m * 2^e` as limbs.
fn shifted(m: u64, e: u32) -> Vec<u32> {
    let mut limbs = vec![0u32; (e / 32) as usize + 3];
    let (q, r) = ((e / 32) as usize, e % 32);
    let wide = u128::from(m) << r;
    limbs[q] = wide as u32;
    limbs[q + 1] = (wide >> 32) as u32;
    limbs[q + 2] = (wide >> 64) as u32;
    limbs
}

#[test]
fn integer_amounts_round_exactly_like_a_correct_parse() {
    // Random digit strings of any length up to 400 (leading digit non-zero).
    let text = (1u8..=9, prop::collection::vec(0u8..=9, 0..400))
        .prop_map(|(h, t)| std::iter::once(h).chain(t).map(|d| char::from(b'0' + d)).collect::<String>());
    runner(CASES)
        .run(&text, |t| {
            let want: f64 = t.parse().unwrap();
            prop_assert_eq!(integer_to_f64(t.as_bytes()).to_bits(), want.to_bits(), "{}", t);
            Ok(())
        })
        .unwrap();
    // Exact halfway points between neighbouring doubles, and their neighbours
    // (the hardest cases for rounding): (2m + 1) * 2^(e - 1) with a 53-bit m.
    let halfway = ((1u64 << 52)..(1u64 << 53), 1u32..=971, 0u8..3);
    runner(CASES)
        .run(&halfway, |(m, e, nudge)| {
            let mut limbs = shifted(2 * m + 1, e - 1);
            match nudge {
                1 => limbs[0] = limbs[0].wrapping_add(1), // just above (bit 0 is below the halfway bit for e > 1)
                2 if e > 1 => limbs[0] = limbs[0].wrapping_sub(1),
                _ => {}
            }
            let t = to_decimal(limbs);
            let want: f64 = t.parse().unwrap();
            prop_assert_eq!(integer_to_f64(t.as_bytes()).to_bits(), want.to_bits(), "{}", t);
            let neg = parse(&format!("-{t}ms")).unwrap();
            prop_assert_eq!(neg.to_bits(), (-want).to_bits());
            Ok(())
        })
        .unwrap();
}

#[test]
fn utf16_text_paths_agree_with_str_paths() {
    // What the wasm build parses (UTF-16 code units) against the `&str` parsers,
    // on text built from the characters that matter: digits, signs, unit letters,
    // spaces JavaScript trims and some it does not, date punctuation.
    #[rustfmt::skip]
    let piece = prop::sample::select(vec![
        "0", "1", "5", "9", "-", "+", " ", "\t", "\n", "\u{A0}", "\u{FEFF}", "\u{3000}", "\u{2028}", "\u{85}", "\u{180E}",
        "ms", "s", "m", "h", "d", "w", " second", " minutes", " weeks", "x", ".", ",", ":", "GMT", "Sun", "Nov", "é",
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    ]);
    let text = prop::collection::vec(piece, 0..8).prop_map(|p| p.concat());
    runner(CASES)
        .run(&text, |t| {
            let units: Vec<u16> = t.encode_utf16().collect();
            let (a, b) = (super::duration::parse_units(&units), parse(&t));
            prop_assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{:?}", t);
            let now = 1_795_910_400_000.0;
            let (a, b) = (super::http_date::retry_after_units(&units, now), super::http_date::retry_after_ms(&t, now));
            prop_assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{:?}", t);
            Ok(())
        })
        .unwrap();
}
