//! `core::pow` against exact big-integer arithmetic (num-bigint).
//!
//! Oracle: a factor `x = M * 2^K` (M odd), so `x^n = M^n * 2^(K n)`. `M^n` is
//! computed by the same left-to-right squaring on big integers truncated to
//! 256 bits, once rounding down and once rounding up (exact, with no
//! truncation, while `M^n` fits): the correctly rounded double of the bounds
//! agrees, so it is the correctly rounded `x^n`. Fractional exponents `j / 2^q`
//! (`x^(j / 2^q)` = the `2^q`-th root of `x^j`) use an exact integer root.
//!
//! `cargo test -q --lib pow` runs ~60,000 pairs; the sweep over millions,
//! with agreement rates against glibc's `pow` (`f64::powf` on Linux), is
//! `cargo test --release --lib pow::tests::sweep -- --ignored --nocapture`.

use super::pow;
use num_bigint::BigUint;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

const PRECISION: u64 = 256;

/// `x` as `(M, K)` with `x = M * 2^K`, `M` odd; `x > 0` finite.
fn decompose(x: f64) -> (u64, i128) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i128;
    let frac = bits & 0x000f_ffff_ffff_ffff;
    let (mut m, mut k) = if exp == 0 { (frac, -1074) } else { (frac | 1 << 52, exp - 1075) };
    let tz = m.trailing_zeros();
    m >>= tz;
    k += tz as i128;
    (m, k)
}

/// `2^e` as a double for any `e`, by exact steps (0 or Infinity outside the range).
fn scale2(mut v: f64, mut e: i128) -> f64 {
    while e > 0 {
        let s = e.min(1000);
        v *= f64::from_bits(((s + 1023) as u64) << 52);
        e -= s;
    }
    while e < 0 {
        let s = (-e).min(1000);
        v *= f64::from_bits(((1023 - s) as u64) << 52);
        e += s;
    }
    v
}

/// The double nearest `v * 2^s` (`v > 0`, ties to even), for results `>= 2^-1000`.
fn round(v: &BigUint, s: i128) -> f64 {
    let b = v.bits() as i128;
    let (mut q, mut shift) = if b <= 53 {
        (v.iter_u64_digits().next().unwrap_or(0), s)
    } else {
        let sh = (b - 53) as u64;
        let q = (v >> sh).iter_u64_digits().next().unwrap();
        let rem = v - (BigUint::from(q) << sh);
        let half = BigUint::from(1u8) << (sh - 1);
        let up = rem > half || (rem == half && q & 1 == 1);
        (q + up as u64, s + sh as i128)
    };
    if q == 1 << 53 {
        q >>= 1;
        shift += 1;
    }
    let top = shift + 64 - q.leading_zeros() as i128 - 1;
    if top >= 1024 {
        return f64::INFINITY;
    }
    assert!(top >= -1000, "oracle only for normal results");
    scale2(q as f64, shift)
}

/// `(L, S)` with `L` of at most `PRECISION` bits: `v` truncated down or up.
fn truncate(v: BigUint, s: i128, up: bool) -> (BigUint, i128) {
    let b = v.bits();
    if b <= PRECISION {
        return (v, s);
    }
    let drop = b - PRECISION;
    let kept = &v >> drop;
    let inexact = (kept.clone() << drop) != v;
    (if up && inexact { kept + 1u8 } else { kept }, s + drop as i128)
}

/// The correctly rounded `x^n` (`x > 0` finite, `n >= 1`), or `None` when the
/// 256-bit bounds round apart (never seen).
fn oracle(x: f64, n: u64) -> Option<f64> {
    let (m, k) = decompose(x);
    let m = BigUint::from(m);
    let (mut lo, mut lo_s) = (m.clone(), 0i128);
    let (mut hi, mut hi_s) = (m.clone(), 0i128);
    for bit in (0..63 - n.leading_zeros()).rev() {
        lo = &lo * &lo;
        lo_s *= 2;
        hi = &hi * &hi;
        hi_s *= 2;
        if (n >> bit) & 1 == 1 {
            lo *= &m;
            hi *= &m;
        }
        (lo, lo_s) = truncate(lo, lo_s, false);
        (hi, hi_s) = truncate(hi, hi_s, true);
    }
    let e = k * n as i128;
    let (a, b) = (round(&lo, lo_s + e), round(&hi, hi_s + e));
    (a.to_bits() == b.to_bits()).then_some(a)
}

/// The correctly rounded `x^(num / den)` (`den` a power of two) from an exact
/// integer root: `x^num = W * 2^T`, `T` made a multiple of `den`, `W` scaled so
/// that its root `R` has at least 64 bits; then `(R, R + 1)` holds no double
/// and no midpoint, so `R + 1/2` rounds as the exact root does.
fn oracle_root(x: f64, num: u32, den: u32) -> f64 {
    let (m, k) = decompose(x);
    let mut w = BigUint::from(m).pow(num);
    let mut t = k * num as i128;
    let r = t.rem_euclid(den as i128);
    w <<= r as u64;
    t -= r;
    let extra = (64 * den as u64).saturating_sub(w.bits()) / den as u64 + 1;
    let w = w << (extra * den as u64);
    let root = w.nth_root(den);
    let shift = t / den as i128 - extra as i128;
    if root.pow(den) == w { round(&root, shift) } else { round(&((root << 1u8) + 1u8), shift - 1) }
}

/// xorshift64* (Vigna 2016): the input generator of these tests.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A factor `>= 1` of a random kind: any mantissa in [1, 16), near 1, an
    /// integer, a short decimal like 1.1 or 1.25, or anything up to 2^1023.
    fn factor(&mut self) -> f64 {
        let mantissa = self.next() >> 12;
        match self.below(6) {
            0 | 1 => f64::from_bits((1023 + self.below(4)) << 52 | mantissa),
            2 => 1.0 + f64::from_bits(mantissa | 0x3ff0_0000_0000_0000) * 2f64.powi(-(self.below(52) as i32) - 1),
            3 => (2 + self.below(20)) as f64,
            4 => (100 + self.below(900)) as f64 / 100.0,
            _ => f64::from_bits((1023 + self.below(1024)) << 52 | mantissa),
        }
    }
    /// An integer exponent, mostly the attempts retry loops see.
    fn exponent(&mut self) -> u64 {
        match self.below(4) {
            0 | 1 => self.below(64),
            2 => self.below(2048),
            _ => self.below(1 << 18),
        }
    }
}

#[test]
fn edge_cases() {
    let inf = f64::INFINITY;
    for x in [1.0, 1.1, 2.0, 1e300, inf] {
        assert_eq!(pow(x, 0.0), 1.0, "{x}^0");
    }
    for y in [0.5, 1.0, 7.0, 1e10, 2f64.powi(53), 1e300, inf] {
        assert_eq!(pow(1.0, y), 1.0, "1^{y} (JavaScript: NaN for Infinity)");
    }
    assert_eq!(pow(2.0, 1023.0), 2f64.powi(1023));
    assert_eq!(pow(2.0, 1024.0), inf, "overflow");
    assert_eq!(pow(1.1, 1e6), inf);
    assert_eq!(pow(1.0 + f64::EPSILON, inf), inf);
    assert_eq!(pow(inf, 0.5), inf);
    assert_eq!(pow(f64::MAX, 1.0), f64::MAX);
    assert_eq!(pow(f64::MAX, 2.0), inf);
    assert_eq!(pow(1.5, 34.0), oracle(1.5, 34).unwrap(), "an exact midpoint rounds to even");
    assert_eq!(pow(3.0, 34.0), 16677181699666568.0, "3^34 = 16677181699666569, a midpoint, to even (mantissa ...284)");
    assert_eq!(pow(10.0, 22.0), 1e22);
    assert_eq!(pow(10.0, 23.0), 1e23, "the double nearest 10^23");
    assert_eq!(pow(10.0, 308.0), 1e308);
    assert_eq!(pow(4.0, 1.5), 8.0);
    assert_eq!(pow(2.0, 0.5), core::f64::consts::SQRT_2);
    // Just below and at the overflow threshold: MAX = (2 - 2^-52) * 2^1023.
    let below = 2f64.powf(1024.0 / 3.0); // close to the cube root of 2^1024
    assert_eq!(pow(below, 3.0), oracle(below, 3).unwrap());
    // Largest attempts: finite powers of factors just above 1.
    let x = 1.0 + f64::EPSILON;
    for y in [2f64.powi(52), 2f64.powi(53), 2f64.powi(53) + 2.0, 2f64.powi(60)] {
        assert_eq!(pow(x, y), oracle(x, y as u64).unwrap(), "(1 + 2^-52)^{y}");
    }
    assert_eq!(pow(x, 2f64.powi(62)), inf);
    // (1 + 2^-52)^(2^53) = e^(2 - 2^-52 + ...): about two ulps below the double nearest e^2.
    assert_eq!(7.389056098930651f64.to_bits() - pow(x, 2f64.powi(53)).to_bits(), 3);
    // Outside the domain (unreachable from a validated curve).
    assert!(
        pow(0.5, 2.0).is_nan() && pow(2.0, -1.0).is_nan() && pow(f64::NAN, 1.0).is_nan() && pow(2.0, f64::NAN).is_nan()
    );
}

#[test]
fn integer_powers_are_correctly_rounded() {
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for _ in 0..40_000 {
        let (x, n) = (g.factor(), g.exponent().max(1));
        let want = oracle(x, n).expect("oracle bounds agree");
        assert_eq!(pow(x, n as f64).to_bits(), want.to_bits(), "{x:e}^{n}");
        checked += 1;
    }
    // Every factor of the form k/100 for the first 64 attempts (factors 2 and 3 included).
    for k in 100..=400 {
        let x = k as f64 / 100.0;
        for n in 1..64 {
            assert_eq!(pow(x, n as f64).to_bits(), oracle(x, n).unwrap().to_bits(), "{x}^{n}");
            checked += 1;
        }
    }
    assert!(checked > 58_000);
}

#[test]
fn huge_integer_exponents() {
    // Exponents from 2^16 to 2^61 with factors just above 1, whose power stays finite.
    let mut g = Gen(42);
    for _ in 0..2_000 {
        let log2n = 16 + g.below(46) as i32;
        let n = (1u64 << log2n) + g.below(1 << log2n);
        let n = n as f64 as u64; // beyond 2^53 only some integers are doubles
        // ln x up to 700 / n: x = 1 + t, t < 700 / n.
        let t = (g.next() >> 11) as f64 / 2f64.powi(53) * 700.0 / n as f64;
        let x = 1.0 + t;
        if let Some(want) = oracle(x, n) {
            assert_eq!(pow(x, n as f64).to_bits(), want.to_bits(), "{x:e}^{n}");
        }
    }
}

#[test]
fn fractional_exponents() {
    // Exponents j/2, j/4, j/8 (attempts like 1.5 or 2.25) against exact roots.
    let mut g = Gen(7);
    for _ in 0..3_000 {
        let x = g.factor().min(1e20);
        let den = 1u32 << (1 + g.below(3));
        let num = 1 + g.below(40 * den as u64) as u32;
        let y = num as f64 / den as f64;
        if y == y.floor() {
            continue;
        }
        let want = oracle_root(x, num, den);
        assert_eq!(pow(x, y).to_bits(), want.to_bits(), "{x:e}^({num}/{den})");
    }
    assert_eq!(pow(2.0, 0.5), core::f64::consts::SQRT_2);
    assert_eq!(pow(1e300, 0.5), 1e150);
    // A hard case: sqrt(MAX) lies 2^-107 relative below a midpoint, beyond double-double's
    // reach; the fractional path is faithful there (one ulp up), not correctly rounded.
    assert_eq!(pow(f64::MAX, 0.5).to_bits(), f64::MAX.sqrt().to_bits() + 1);
    assert_eq!(pow(1.1, 1e-300), 1.0);
    assert_eq!(pow(f64::MAX, 1.5), f64::INFINITY);
}

fn runner(cases: u32) -> TestRunner {
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// Any factor `>= 1` as a bit pattern (every double from 1 to `f64::MAX`).
fn any_factor() -> impl Strategy<Value = f64> {
    (1f64.to_bits()..=f64::MAX.to_bits()).prop_map(f64::from_bits)
}

#[test]
fn property_integer_powers_equal_the_oracle() {
    // proptest (fixed ChaCha seed): any factor, exponents up to 2^20 and, for
    // factors within 2^-20 of 1, up to 2^53.
    let near_one = (0u64..1 << 32).prop_map(|t| 1.0 + t as f64 * 2f64.powi(-52));
    let cases = prop_oneof![(any_factor(), 0u64..64), (any_factor(), 0u64..1 << 20), (near_one, 0u64..1 << 53),];
    runner(3000)
        .run(&cases, |(x, n)| {
            let want = oracle(x, n.max(1)).unwrap();
            let want = if n == 0 { 1.0 } else { want };
            prop_assert_eq!(pow(x, n as f64).to_bits(), want.to_bits(), "{:e}^{}", x, n);
            Ok(())
        })
        .unwrap();
}

#[test]
fn property_monotone_in_the_exponent_and_never_nan() {
    // Any x >= 1 and any y >= 0 (every bit pattern, Infinity included): a
    // number >= 1, and a larger exponent never gives a smaller power.
    let y = (0u64..=f64::INFINITY.to_bits()).prop_map(f64::from_bits);
    runner(20_000)
        .run(&(any_factor(), y, 0u32..1 << 24), |(x, y, step)| {
            let p = pow(x, y);
            prop_assert!(p >= 1.0, "{:e}^{:e} = {}", x, y, p);
            let y2 = y + step as f64;
            prop_assert!(pow(x, y2) >= p, "{:e}^{:e} < {:e}^{:e}", x, y2, x, y);
            Ok(())
        })
        .unwrap();
}

/// The sweep: millions of pairs against
/// the oracle, and how often glibc's `pow` (Linux `f64::powf`) agrees.
/// `scripts/test.sh` (so `npm test` and CI) runs it in a release build,
/// `cargo test --release --lib pow::tests::sweep`, with the default 3 million pairs
/// (~20 s); a debug build (plain `cargo test`) checks 20 000 (millions would take
/// minutes there). `POW_PAIRS` sets the count.
#[test]
fn sweep() {
    let default = if cfg!(debug_assertions) { 20_000 } else { 3_000_000 };
    let pairs: u64 = std::env::var("POW_PAIRS").ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    let mut g = Gen(0x5eed);
    let (mut wrong, mut undecided, mut glibc_differs, mut glibc_wrong) = (0u64, 0u64, 0u64, 0u64);
    let (mut small, mut small_glibc_differs) = (0u64, 0u64);
    for _ in 0..pairs {
        let (x, n) = (g.factor(), g.exponent().max(1));
        let ours = pow(x, n as f64);
        let glibc = x.powf(n as f64);
        glibc_differs += (ours.to_bits() != glibc.to_bits()) as u64;
        if n < 64 && x < 16.0 {
            small += 1;
            small_glibc_differs += (ours.to_bits() != glibc.to_bits()) as u64;
        }
        match oracle(x, n) {
            Some(want) => {
                wrong += (ours.to_bits() != want.to_bits()) as u64;
                glibc_wrong += (glibc.to_bits() != want.to_bits()) as u64;
            }
            None => undecided += 1,
        }
    }
    let pct = |a: u64, b: u64| 100.0 * a as f64 / b as f64;
    println!("pairs {pairs}: ours misrounded {wrong}, oracle undecided {undecided}");
    println!(
        "glibc pow differs from ours in {glibc_differs} ({:.4} %), is misrounded in {glibc_wrong}",
        pct(glibc_differs, pairs)
    );
    println!(
        "factors < 16, exponents < 64: {small} pairs, glibc differs in {small_glibc_differs} ({:.4} %)",
        pct(small_glibc_differs, small)
    );
    // Attempts near 2^53 and beyond with factors just above 1, and fractional exponents j / 2^q.
    let (mut huge, mut huge_wrong, mut frac, mut frac_wrong, mut frac_far) = (0u64, 0u64, 0u64, 0u64, 0u64);
    for _ in 0..pairs / 20 {
        let n = (((1u64 << 40) + g.below((1 << 62) - (1 << 40))) as f64) as u64;
        let x = 1.0 + (g.next() >> 11) as f64 / 2f64.powi(53) * 700.0 / n as f64;
        if let Some(want) = oracle(x, n) {
            huge += 1;
            huge_wrong += (pow(x, n as f64).to_bits() != want.to_bits()) as u64;
        }
        let x = g.factor().min(1e20);
        let den = 1u32 << (1 + g.below(3));
        let num = 1 + g.below(40 * den as u64) as u32;
        if !num.is_multiple_of(den) {
            frac += 1;
            let (ours, want) = (pow(x, num as f64 / den as f64), oracle_root(x, num, den));
            if ours.to_bits() != want.to_bits() {
                frac_wrong += 1;
                if frac_wrong <= 5 {
                    println!("  misrounded: {x:e}^({num}/{den}) = {ours:e}, exact {want:e}");
                }
            }
            frac_far += (ours.to_bits().abs_diff(want.to_bits()) > 1) as u64;
        }
    }
    println!("exponents 2^40..2^62, factors near 1: {huge} pairs, misrounded {huge_wrong}");
    println!("fractional exponents j/2^q: {frac} pairs, misrounded {frac_wrong}, more than one ulp off {frac_far}");
    assert_eq!(wrong + huge_wrong + frac_far, 0);
}
