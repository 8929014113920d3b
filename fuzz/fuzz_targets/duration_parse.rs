//! Fuzz target: the duration parser (API.md section 4) against a reference
//! written independently here: JavaScript's trim, the grammar
//! `-?(0|[1-9][0-9]*)` + unit, and the amount through Rust's correctly rounded
//! `str::parse::<f64>` (the core itself has no float parsing code).
//! Also: the parser never panics, and integer amounts convert exactly.
#![no_main]

use backoff_wasm::core::duration::{integer_to_f64, parse};
use libfuzzer_sys::fuzz_target;

fn js_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{B}' | '\u{C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2028}' | '\u{2029}'
        | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}') || ('\u{2000}'..='\u{200A}').contains(&c)
}

fn unit(u: &str) -> Option<f64> {
    Some(match u {
        "" => 1.0,
        "ms" | " millisecond" | " milliseconds" => 1.0,
        "s" | " second" | " seconds" => 1e3,
        "m" | " minute" | " minutes" => 6e4,
        "h" | " hour" | " hours" => 36e5,
        "d" | " day" | " days" => 864e5,
        "w" | " week" | " weeks" => 6048e5,
        _ => return None,
    })
}

fn reference(text: &str) -> Option<f64> {
    let t = text.trim_matches(js_space);
    let body = t.strip_prefix('-').unwrap_or(t);
    let n = body.bytes().take_while(u8::is_ascii_digit).count();
    let (digits, rest) = body.split_at(n);
    if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
        return None;
    }
    let ms = unit(rest)?;
    let amount: f64 = digits.parse().ok()?;
    Some(if t.starts_with('-') { -amount } else { amount } * ms)
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let got = parse(text);
        let want = reference(text);
        assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{text:?}: {got:?} vs {want:?}");
    }
    // Any run of ASCII digits without a leading zero: exact conversion.
    let digits: Vec<u8> = data.iter().map(|b| b'0' + b % 10).skip_while(|&d| d == b'0').collect();
    if !digits.is_empty() {
        let want: f64 = std::str::from_utf8(&digits).unwrap().parse().unwrap();
        assert_eq!(integer_to_f64(&digits).to_bits(), want.to_bits());
    }
});
