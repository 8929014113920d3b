//! Prints, as JSON, thousands of random `createBackoff` configurations with the
//! delays the native Rust API computes for them (attempts × seeds), for the
//! cross-runtime test (tests/js/cross-runtime.test.mjs), which computes the same
//! through the wasm build under Node and asserts identical numbers.
//!
//! `cargo run -q --example vectors -- [configurations] [all-factors]`: by default
//! the exponential factors are 1, 2 and 4, whose powers are exact everywhere; with
//! `all-factors` also 3, 1.5, 1.1 and 2.7, whose powers are inexact: equal on both
//! sides because both compute the power in Rust (`core::pow`), not the host's `Math.pow`.
use std::fmt::Write;

use backoff_wasm::{Backoff, Jitter, Random};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3000);
    let all_factors = args.iter().any(|a| a == "all-factors");
    let g = Random::new("cross-runtime vectors");
    let pick = |n: usize| (g.next() * n as f64) as usize;
    let mut out = String::from("[");
    for i in 0..count {
        let mut opts = String::new();
        let stepped = pick(5) == 0;
        let base =
            [0.0, 1.0, 100.0, 1000.0, g.int(0, 1_000_000) as f64, (g.next() * 1000.0 * 64.0).floor() / 64.0][pick(6)];
        let (mut b, growth) = if stepped {
            let steps: Vec<f64> = (0..1 + pick(5)).map(|_| [0.0, g.int(0, 1_000_000) as f64, 250.0][pick(3)]).collect();
            let list: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
            write!(opts, "\"steps\":[{}]", list.join(",")).unwrap();
            (Backoff::steps(&steps), "steps")
        } else {
            let growth = ["exponential", "linear", "constant"][pick(3)];
            write!(opts, "\"base\":{base},\"growth\":\"{growth}\"").unwrap();
            let b = match growth {
                "linear" => Backoff::linear(base),
                "constant" => Backoff::fixed(base),
                _ => {
                    let factors: &[f64] =
                        if all_factors { &[1.0, 2.0, 3.0, 4.0, 1.5, 1.1, 2.7] } else { &[1.0, 2.0, 4.0] };
                    let f = factors[pick(factors.len())];
                    write!(opts, ",\"factor\":{f}").unwrap();
                    Backoff::exponential(base).factor(f)
                }
            };
            (b, growth)
        };
        let mut bounded = false;
        if !stepped && pick(2) == 0 {
            let max = base + [0.0, g.int(0, 10_000_000) as f64][pick(2)];
            write!(opts, ",\"max\":{max}").unwrap();
            b = b.max(max);
            bounded = true;
        }
        if pick(3) == 0 {
            let cap = if stepped { g.int(0, 1_000_000) as f64 } else { base + g.int(0, 1_000_000) as f64 };
            write!(opts, ",\"cap\":{cap}").unwrap();
            b = b.cap(cap);
            bounded = true;
        }
        if pick(3) == 0 {
            let free = pick(4);
            write!(opts, ",\"free\":{free}").unwrap();
            b = b.free(free as u64);
        }
        let kinds = if !stepped && bounded && growth != "steps" { 7 } else { 6 };
        let (jitter, text) = match pick(kinds) {
            0 => (Jitter::None, None),
            1 => (Jitter::Spread(0.1), Some("0.1".to_string())),
            2 => (Jitter::Spread(0.5), Some("0.5".to_string())),
            3 => (Jitter::Spread(1.0), Some("1".to_string())),
            4 => (Jitter::Full, Some("\"full\"".to_string())),
            5 => (Jitter::Equal, Some("\"equal\"".to_string())),
            _ => (Jitter::Decorrelated, Some("\"decorrelated\"".to_string())),
        };
        let seed = format!("s{i}-{}", g.int(0, 1 << 30));
        let keyed = pick(2) == 0;
        if let Some(t) = text {
            write!(opts, ",\"jitter\":{t}").unwrap();
            b = b.jitter(jitter);
            b = if keyed { b.seed(&seed) } else { b.random(Random::new(&seed)) };
        }
        let p = b.build().unwrap_or_else(|e| panic!("config {i} ({opts}): {e}"));
        let mut attempts: Vec<u64> = (0..=12).collect();
        attempts.extend([g.int(13, 2000) as u64, g.int(0, 1 << 53) as u64, 1 << 53, 1 << 60]);
        let delays: Vec<String> = attempts
            .iter()
            .map(|&a| {
                let d = p.delay(a);
                if d.is_finite() { d.to_string() } else { "null".to_string() }
            })
            .collect();
        let list: Vec<String> = attempts.iter().map(u64::to_string).collect();
        let source = if jitter == Jitter::None {
            "none"
        } else if keyed {
            "seed"
        } else {
            "stream"
        };
        if i > 0 {
            out.push(',');
        }
        write!(
            out,
            "\n{{\"options\":{{{opts}}},\"source\":\"{source}\",\"seed\":\"{seed}\",\"attempts\":[{}],\"delays\":[{}]}}",
            list.join(","),
            delays.join(",")
        )
        .unwrap();
    }
    out.push_str("\n]\n");
    print!("{out}");
}
