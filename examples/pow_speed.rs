//! Native cost per power, this crate's `pow` against glibc's (`f64::powf`). A
//! measurement, not a test:
//! `cargo run --release --example pow_speed`.
use std::hint::black_box;
use std::time::Instant;

use backoff_wasm::core::pow::pow;

fn main() {
    // (label, factor, exponents run 0 .. below, fractional part added to each exponent)
    let cases: [(&str, f64, u32, f64); 4] = [
        ("factor 2, n < 8", 2.0, 8, 0.0),
        ("factor 1.1, n < 32", 1.1, 32, 0.0),
        ("factor 1.5, n < 1024", 1.5, 1024, 0.0),
        ("factor 1.1, n + 0.5, n < 32", 1.1, 32, 0.5),
    ];
    let rounds = 2_000_000u32;
    for (label, x, below, frac) in cases {
        let per_call = |f: &dyn Fn(f64, f64) -> f64| {
            let start = Instant::now();
            let mut sum = 0.0;
            for i in 0..rounds {
                sum += f(black_box(x), black_box(f64::from(i % below) + frac));
            }
            black_box(sum);
            start.elapsed().as_nanos() as f64 / f64::from(rounds)
        };
        let ours = per_call(&|x, y| pow(x, y));
        let glibc = per_call(&|x, y| x.powf(y));
        println!("{label:28} ours {ours:6.1} ns, glibc {glibc:6.1} ns");
    }
}
