//! Fuzz target: `core::pow::pow` (the power of exponential curves) for any
//! factor `>= 1` and any exponent `>= 0` given as bit patterns: never `NaN`,
//! never below 1, non-decreasing in the exponent, and within one unit in the
//! last place of glibc's `pow` (`f64::powf` on Linux, < 0.52 ulp from the
//! truth) for whole exponents, two for fractional ones (ours is correctly
//! rounded for whole exponents, faithful otherwise).
#![no_main]

use backoff_wasm::core::pow::pow;
use libfuzzer_sys::fuzz_target;

fn ulps(a: f64, b: f64) -> u64 {
    a.to_bits().abs_diff(b.to_bits())
}

fuzz_target!(|data: (u64, u64, u32)| {
    let (xb, yb, step) = data;
    let x = f64::from_bits(1f64.to_bits() + xb % (f64::MAX.to_bits() - 1f64.to_bits() + 1));
    let y = f64::from_bits(yb % (f64::INFINITY.to_bits() + 1));
    let p = pow(x, y);
    assert!(p >= 1.0, "{x:e}^{y:e} = {p}");
    assert!(pow(x, y + f64::from(step)) >= p);
    let glibc = x.powf(y);
    if y.is_finite() && glibc.is_finite() {
        let limit = if y == y.floor() { 1 } else { 2 };
        assert!(ulps(p, glibc) <= limit, "{x:e}^{y:e}: ours {p:e}, glibc {glibc:e}");
    }
});
