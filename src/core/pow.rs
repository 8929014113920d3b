//! `factor^exponent` for exponential curves, computed in Rust with no host
//! call, so the wasm build on every engine and version and the native crate
//! give one answer, bit for bit.
//!
//! The host's `Math.pow` would not do: its rounding depends on the engine and
//! its version: V8 up to Node 22 used a port of fdlibm, V8 in
//! Node 24 calls the C library's `pow` (glibc's on Linux), JavaScriptCore and
//! SpiderMonkey their own. They disagree by one unit in the last place (ulp)
//! for a few percent of non-integer factors.
//!
//! # Design: correctly rounded integer powers in double-double arithmetic
//!
//! Two designs were weighed:
//! - (a) glibc's `pow` (ARM optimized-routines, also musl's since 1.1.20): a
//!   logarithm in extended precision from a 128-entry table, then an
//!   exponential from a 128-entry table. Equal to glibc and Node >= 24 on
//!   Linux, but its two tables (nearly incompressible) would be more than half
//!   the shipped wasm, and glibc itself is misrounded in ~0.1 % of integer
//!   powers (e.g. `3^61`, `6^34`).
//! - (b) chosen: for the integer exponents every attempt produces, the power by
//!   left-to-right exponentiation by squaring in double-double arithmetic
//!   (`hi + lo`, about 106 significant bits; Dekker's exact products without a
//!   fused multiply-add, which wasm lacks), with no tables. The power is
//!   carried as `(1 + d) * 2^e` (`Power`): no step overflows, and rounding errors stay relative to `d`, so a factor just
//!   above 1 raised to an attempt near 2^53 keeps its precision. The error
//!   before the one final rounding is below about `2^-89`, so the result is
//!   the correctly rounded `x^n` unless `x^n` lies that close to a midpoint
//!   between two doubles without being one; exact midpoints (like `1.5^34`)
//!   are computed exactly and round to even. 20,000,000 random pairs
//!   (exponents up to 2^18) and 1,000,000 exponents from 2^40 to 2^62 agree
//!   with exact big-integer arithmetic (the ignored `sweep` test; `cargo test`
//!   runs a subset).
//!
//! A fractional exponent (a caller passing a fractional attempt) multiplies in
//! `x^f` as the product of iterated square roots `x^(2^-i)` over the bits of
//! `f` (the square root is correctly rounded in IEEE-754 arithmetic, wasm's
//! `f64.sqrt`, and refined to double-double by one Newton step). Faithful, and
//! almost always correctly rounded: of 708,727 exponents `j / 2^q` checked
//! against exact integer roots, 4 are one ulp off, all hard cases lying about
//! 2^-105 from a midpoint (`(1 + 2^-51)^(3/4)`).
//!
//! Domain: the curve's, `x >= 1` finite (a validated factor) and `y >= 0`
//! (a counted attempt minus one), including `y = +Infinity`. Then the result is
//! `>= 1`, never `NaN`: `x^0 = 1`, `1^y = 1` (also `1^Infinity`, where
//! JavaScript's `Math.pow` gives `NaN`), `x^y = Infinity` once it overflows
//! (`x > 1`, `y = Infinity` included). The power never underflows or becomes
//! subnormal in this domain. Outside it (`x < 1`, `y < 0`, `NaN`; unreachable
//! from a validated curve) the answer is `NaN`.

/// A double-double: the unevaluated sum `hi + lo` with `|lo| <= ulp(hi) / 2`.
#[derive(Clone, Copy)]
struct Dd {
    hi: f64,
    lo: f64,
}

/// `a + b` as `s + e` exactly (Knuth's TwoSum).
#[inline]
fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    Dd { hi: s, lo: (a - (s - bb)) + (b - bb) }
}

/// `a + b` as `s + e` exactly when `|a| >= |b|` (Dekker's FastTwoSum).
#[inline]
fn fast_two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd { hi: s, lo: b - (s - a) }
}

/// Veltkamp's split of `a` into two halves of 26 and 27 bits (`|a| < 2^995`).
#[inline]
fn split(a: f64) -> (f64, f64) {
    let c = 134_217_729.0 * a; // 2^27 + 1
    let hi = c - (c - a);
    (hi, a - hi)
}

/// `a * b` as `p + e` exactly (Dekker's TwoProduct, no fused multiply-add).
#[inline(always)]
fn two_prod(a: f64, b: f64) -> Dd {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    Dd { hi: p, lo: ((ah * bh - p) + ah * bl + al * bh) + al * bl }
}

impl Dd {
    const fn new(hi: f64) -> Dd {
        Dd { hi, lo: 0.0 }
    }

    #[inline(always)]
    fn mul(self, b: Dd) -> Dd {
        let p = two_prod(self.hi, b.hi);
        fast_two_sum(p.hi, p.lo + (self.hi * b.lo + self.lo * b.hi))
    }

    /// `self + b` for operands of one sign (no cancellation: a relative error
    /// of about 2^-105; QD's "sloppy" addition).
    #[inline(always)]
    fn add(self, b: Dd) -> Dd {
        let s = two_sum(self.hi, b.hi);
        fast_two_sum(s.hi, s.lo + (self.lo + b.lo))
    }

    /// `self - 1`, exactly, for `self.hi` in `[1, 3)` (`hi - 1` is a double there).
    fn minus_one(self) -> Dd {
        fast_two_sum(self.hi - 1.0, self.lo)
    }

    fn scale(self, s: f64) -> Dd {
        Dd { hi: self.hi * s, lo: self.lo * s }
    }
}

/// `2^e` for `-1022 <= e <= 1023`.
#[inline]
fn pow2(e: i64) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// A number `>= 1` as `(1 + d) * 2^e`, `d` a double-double in `[0, 1)` and
/// `e` an integer: nothing overflows on the way, and rounding errors are
/// relative to `d`, so a power of a factor just above 1 (small `d` for many
/// squarings) keeps its precision where `x^i` itself would lose a bit per squaring.
#[derive(Clone, Copy)]
struct Power {
    d: Dd,
    e: i64,
}

impl Power {
    /// A finite `x >= 1`, exactly: `d = m - 1` for the mantissa `m` in `[1, 2)`.
    fn of(x: f64) -> Power {
        let bits = x.to_bits();
        let m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
        Power { d: Dd::new(m - 1.0), e: (bits >> 52) as i64 - 1023 }
    }

    /// `self * (1 + a) * 2^ea` for `a` in `[0, 1)`: `(1 + d)(1 + a) = 1 + (d + a + d a)`,
    /// a sum of non-negative terms (no cancellation), below 3; halved back when `>= 2`.
    #[inline(never)]
    fn times(&mut self, a: Dd, ea: i64) {
        let d = self.d.add(a).add(self.d.mul(a));
        self.e += ea;
        self.d = d;
        if d.hi >= 1.0 {
            self.d = d.minus_one().scale(0.5);
            self.e += 1;
        }
    }

    /// The square root: of `1 + d` or `2 (1 + d)`, so that the exponent halves
    /// exactly; the root of the double part corrected by one Newton step.
    fn sqrt(self) -> Power {
        let odd = self.e & 1;
        let v = Dd::new(1.0).add(self.d).scale((1 + odd) as f64);
        let s = v.hi.sqrt();
        let p = two_prod(s, s);
        let r = fast_two_sum(s, ((v.hi - p.hi) - p.lo + v.lo) / (2.0 * s));
        Power { d: r.minus_one(), e: (self.e - odd) / 2 }
    }

    /// The double nearest `(1 + d) * 2^e`: `1 + d` as a normalized double-double
    /// has its rounding in `hi`, and the scaling by a power of two is exact up to
    /// overflow, where it gives `Infinity` just as IEEE-754 rounding does (`e >= 0`:
    /// the power is never subnormal).
    fn to_f64(self) -> f64 {
        if self.e > 1100 {
            return f64::INFINITY;
        }
        let half = self.e / 2;
        Dd::new(1.0).add(self.d).hi * pow2(half) * pow2(self.e - half)
    }
}

/// `x^y` for `x >= 1` finite and `y >= 0`, `Infinity` included (see the module
/// docs): correctly rounded for a whole `y`, faithfully rounded (within one ulp)
/// for a fractional `y`; `>= 1`, `Infinity` once it overflows. `NaN` outside that
/// domain (never for a validated curve).
///
/// ```
/// use backoff_wasm::core::pow::pow;
/// assert_eq!(pow(1.1, 4.0), 1.4641000000000004); // Node 20's Math.pow: 1.4641000000000006
/// assert_eq!(pow(2.0, 1024.0), f64::INFINITY);
/// assert_eq!(pow(1.0, f64::INFINITY), 1.0); // Math.pow: NaN
/// ```
#[inline(never)]
pub fn pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if !(x >= 1.0 && y >= 0.0) {
        return f64::NAN;
    }
    // x > 1 from here; ln x >= ln(1 + 2^-52) ~ 2^-52, so from y = 2^62 on
    // y * ln x > 1000 and the power overflows (as does any power of Infinity).
    if x == f64::INFINITY || y >= 4.611_686_018_427_388e18 {
        return f64::INFINITY;
    }
    let x = Power::of(x);
    // A power of two (factor 2, every Sigil curve) to a whole power: exact. Both ways end
    // in the one rounding of `to_f64`.
    let p = if x.d.hi == 0.0 && y == y.floor() { Power { d: x.d, e: x.e * y.min(2048.0) as i64 } } else { power(x, y) };
    p.to_f64()
}

/// `x^y` as a [`Power`] for a finite `x > 1` that is no power of two or a fractional `y`,
/// `0 < y < 2^62`: the whole part by left-to-right binary exponentiation, the fractional
/// part by iterated square roots.
#[inline(always)]
fn power(x: Power, y: f64) -> Power {
    // x^n, n = floor(y), by left-to-right binary exponentiation.
    let n = y.floor() as u64;
    let (mut p, mut bit) = if n == 0 { (Power { d: Dd::new(0.0), e: 0 }, 0) } else { (x, 63 - n.leading_zeros()) };
    while bit > 0 && p.e <= 1024 {
        // Past 2^1025 every later step only grows the power: it overflows.
        bit -= 1;
        p.times(p.d, p.e);
        if (n >> bit) & 1 == 1 {
            p.times(x.d, x.e);
        }
    }
    // A fractional part f = sum of 2^-i over its bits: x^f is the product of
    // the iterated square roots x^(2^-i) (each halves the error it is given).
    // After 110 roots the rest moves the result by less than 2^-100.
    let mut f = y - y.floor();
    let mut root = x;
    let mut i = 0;
    while f > 0.0 && i < 110 {
        root = root.sqrt();
        f *= 2.0;
        if f >= 1.0 {
            f -= 1.0;
            p.times(root.d, root.e);
        }
        i += 1;
    }
    p
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
