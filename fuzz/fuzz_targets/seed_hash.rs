//! Fuzz target: the seed hash and sfc32 (API.md section 3) against a
//! transcription of the spec's JavaScript written here with i32/u32 wrapping
//! arithmetic (`Math.imul`, `>>>`, `| 0`), for any UTF-16 code units (lone
//! surrogates included); draws stay in `[0, 1)`; `from_str_seed` equals the
//! code-unit path for valid UTF-8.
#![no_main]

use backoff_wasm::core::rng::{Draw, Sfc32, seed_words};
use libfuzzer_sys::fuzz_target;

fn imul(a: u32, b: u32) -> u32 {
    (a as i32).wrapping_mul(b as i32) as u32
}

fn spec_state(units: &[u16]) -> [u32; 4] {
    let (mut a, mut b, mut c, mut d) = (1779033703u32, 3144134277u32, 1013904242u32, 2773480762u32);
    for &k in units {
        let k = u32::from(k);
        a = b ^ imul(a ^ k, 597399067);
        b = c ^ imul(b ^ k, 2869860233);
        c = d ^ imul(c ^ k, 951274213);
        d = a ^ imul(d ^ k, 2716044179);
    }
    a = imul(c ^ (a >> 18), 597399067);
    b = imul(d ^ (b >> 22), 2869860233);
    c = imul(a ^ (c >> 17), 951274213);
    d = imul(b ^ (d >> 19), 2716044179);
    [a ^ b ^ c ^ d, b ^ a, c ^ a, d ^ a]
}

fn spec_next(s: &mut [u32; 4]) -> f64 {
    let [mut a, mut b, mut c, mut d] = *s;
    let sum = (a as i32).wrapping_add(b as i32).wrapping_add(d as i32) as u32;
    d = (d as i32).wrapping_add(1) as u32;
    a = b ^ (b >> 9);
    b = (c as i32).wrapping_add((c << 3) as i32) as u32;
    c = (c << 21) | (c >> 11);
    c = (c as i32).wrapping_add(sum as i32) as u32;
    *s = [a, b, c, d];
    f64::from(sum) / 4294967296.0
}

fuzz_target!(|data: &[u8]| {
    let units: Vec<u16> = data.chunks(2).map(|p| u16::from_le_bytes([p[0], *p.get(1).unwrap_or(&0)])).collect();
    let mut want = spec_state(&units);
    assert_eq!(seed_words(units.iter().copied()), want);
    let mut g = Sfc32::from_seed(units.iter().copied());
    for _ in 0..8 {
        let r = g.next();
        assert!((0.0..1.0).contains(&r));
        assert_eq!(r.to_bits(), spec_next(&mut want).to_bits());
    }
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(Sfc32::from_str_seed(text), Sfc32::from_seed(text.encode_utf16()));
    }
});
