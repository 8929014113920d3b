//! Duration text of `@sdxc/duration` (docs/API.md section 4).
//!
//! Grammar, after trimming exactly as JavaScript's `String.prototype.trim`:
//! `<amount>` alone (milliseconds), `<amount><short unit>` or
//! `<amount> <long unit>` (exactly one U+0020), where
//! `<amount> = -?(0|[1-9][0-9]*)`. Lower case only; days and weeks are fixed
//! 24 h and 7 d.

/// Whether `c` is removed by JavaScript's `trim()`: ECMA-262 WhiteSpace
/// (TAB, VT, FF, SP, NBSP, ZWNBSP and Unicode category Zs) and LineTerminator
/// (LF, CR, LS, PS). Rust's `char::is_whitespace` differs (it keeps U+FEFF and
/// removes U+0085).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'
            | '\u{000A}'
            | '\u{000B}'
            | '\u{000C}'
            | '\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}

/// JavaScript's `String.prototype.trim`.
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(is_js_space)
}

/// JavaScript's `String.prototype.trim` over UTF-16 code units (every
/// character it removes is a single code unit; a lone surrogate is kept).
pub fn js_trim_units(units: &[u16]) -> &[u16] {
    let start = units.iter().position(|&u| !is_js_space_unit(u)).unwrap_or(units.len());
    let end = units.iter().rposition(|&u| !is_js_space_unit(u)).map_or(start, |i| i + 1);
    units.get(start..end).unwrap_or(&[])
}

/// [`is_js_space`] of a UTF-16 code unit (one shared copy of the test for both
/// ends of [`js_trim_units`]; the `is_js_space_unit_is_is_js_space` test compares
/// the two on every code unit). TAB, LF, VT, FF, CR (bits 9–13) and SP (bit 32)
/// are one bit test, which is smaller wasm than `char::from_u32(u).is_some_and(is_js_space)`.
#[inline(never)]
fn is_js_space_unit(u: u16) -> bool {
    match u {
        0..=0x20 => (1u64 << u) & 0x1_0000_3E00 != 0,
        0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 | 0xFEFF => true,
        _ => false,
    }
}

/// Whether `units` (bytes or UTF-16 code units) spell the ASCII text `ascii`.
/// One shared copy: inlined, the name-table loops of its callers (units, option
/// names, day and month names) were unrolled with a copy per entry (~400 B of
/// wasm).
#[inline(never)]
pub(crate) fn eq_ascii<T: Copy + Into<u32>>(units: &[T], ascii: &[u8]) -> bool {
    units.len() == ascii.len() && units.iter().zip(ascii).all(|(&u, &b)| u.into() == u32::from(b))
}

/// Units: short name, long name (singular; the plural adds `s`) and
/// milliseconds (days and weeks fixed 24 h and 7 d).
pub(crate) const UNITS: [(&[u8], &[u8], f64); 6] = [
    (b"ms", b"millisecond", 1.0),
    (b"s", b"second", 1_000.0),
    (b"m", b"minute", 60_000.0),
    (b"h", b"hour", 3_600_000.0),
    (b"d", b"day", 86_400_000.0),
    (b"w", b"week", 604_800_000.0),
];

/// Milliseconds per unit, for short and long unit names (bytes or UTF-16 code units).
fn unit_ms<T: Copy + Into<u32>>(unit: &[T], long: bool) -> Option<f64> {
    // A long name may end in one plural `s` (no singular long name ends in `s`).
    let unit = match unit.split_last() {
        Some((&s, singular)) if long && s.into() == u32::from(b's') => singular,
        _ => unit,
    };
    UNITS.iter().find(|(short, name, _)| eq_ascii(unit, if long { name } else { short })).map(|&(.., ms)| ms)
}

/// Decimal digits beyond which an amount (no leading zeros) is at least
/// `10^309 > 2^1024` and so rounds to `Infinity`.
const MAX_FINITE_DIGITS: usize = 309;
/// 32-bit limbs that hold any integer below `10^309` (< 2^1027).
const LIMBS: usize = 33;

/// The double nearest to the non-negative integer written in `digits` (ASCII
/// `0-9`, no leading zeros except `"0"` itself), ties to even, `Infinity` when
/// it rounds to `2^1024` or more: exactly JavaScript's `Number(text)` for such
/// text (ECMA-262 StringToNumber rounds the mathematical value to nearest, ties
/// to even), and Rust's correctly rounded `str::parse::<f64>` (the property
/// test in `props.rs` and the fuzz target check this).
///
/// Why it is exact without any float parsing code: up to 15 digits the value is
/// below `2^53` and converts exactly. Otherwise the integer is built exactly in
/// 32-bit limbs; its top 64 bits, with every lower bit OR-ed into bit 0 (the
/// "sticky" bit, which sits far below the 53-bit rounding point), convert with
/// `u64 as f64`, which rounds to nearest, ties to even; scaling by a power of
/// two is then exact (or overflows to `Infinity`, as the true value does).
pub fn integer_to_f64<T: Copy + Into<u32>>(digits: &[T]) -> f64 {
    let digit = |b: T| u64::from(b.into().wrapping_sub(u32::from(b'0')) % 10);
    if digits.len() <= 15 {
        let mut n: u64 = 0;
        for &b in digits {
            n = n * 10 + digit(b);
        }
        return n as f64;
    }
    if digits.len() > MAX_FINITE_DIGITS {
        return f64::INFINITY;
    }
    // Exact value, little-endian 32-bit limbs, one digit at a time (n = 10n + digit
    // over every limb: at most 309 × 33 steps, and the shortest code, for text that is
    // never long).
    let mut limbs = [0u32; LIMBS];
    for &b in digits {
        let mut carry = digit(b);
        for limb in limbs.iter_mut() {
            let v = u64::from(*limb) * 10 + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
    }
    // Bit length and the top 64 bits with a sticky bit.
    let top = limbs.iter().rposition(|&l| l != 0).unwrap_or(0);
    let top_limb = limbs.get(top).copied().unwrap_or(0);
    let bits = 32 * top as u32 + (32 - top_limb.leading_zeros());
    if bits <= 64 {
        let [lo, hi, ..] = limbs;
        let (lo, hi) = (u64::from(lo), u64::from(hi));
        return ((hi << 32) | lo) as f64;
    }
    let shift = bits - 64; // bits below the top 64
    let limb = |i: u32| u64::from(limbs.get(i as usize).copied().unwrap_or(0));
    let (w, o) = (shift / 32, shift % 32);
    // The 64 bits from bit `32 * w`, then the next limb above them.
    let low = limb(w) | limb(w + 1) << 32;
    let head = if o == 0 { low } else { low >> o | limb(w + 2) << (64 - o) };
    let below = limb(w) & ((1u64 << o) - 1) != 0;
    let sticky = below || limbs.iter().take(w as usize).any(|&l| l != 0);
    let scaled = (head | u64::from(sticky)) as f64;
    // 2^shift, shift <= 1056 - 64 = 992: a normal double.
    scaled * f64::from_bits(u64::from(1023 + shift) << 52)
}

/// Parses duration text into milliseconds; `None` when it is not a duration.
///
/// The result is `amount * unit` in double precision (`"-0"` gives `-0`;
/// an amount too long for a double gives `Infinity`, which callers that need a
/// finite delay reject).
pub fn parse(text: &str) -> Option<f64> {
    parse_trimmed(js_trim(text).as_bytes())
}

/// [`parse`] of text given as UTF-16 code units (a JavaScript string's own
/// units, lone surrogates included): what the wasm build uses. Allocation-free.
pub fn parse_units(units: &[u16]) -> Option<f64> {
    parse_trimmed(js_trim_units(units))
}

/// The grammar after trimming, over bytes or UTF-16 code units (anything
/// outside ASCII is rejected by it).
fn parse_trimmed<T: Copy + Into<u32>>(t: &[T]) -> Option<f64> {
    let is = |u: Option<&T>, b: u8| u.is_some_and(|&u| u.into() == u32::from(b));
    let is_digit = |u: &T| (u32::from(b'0')..=u32::from(b'9')).contains(&(*u).into());
    let negative = is(t.first(), b'-');
    let start = usize::from(negative);
    let digits_len = t.iter().skip(start).take_while(|u| is_digit(u)).count();
    let end = start + digits_len;
    let digits = t.get(start..end)?;
    if digits.is_empty() || (digits.len() > 1 && is(digits.first(), b'0')) {
        return None;
    }
    let magnitude = integer_to_f64(digits);
    let amount = if negative { -magnitude } else { magnitude };
    let rest = t.get(end..)?;
    let ms = if rest.is_empty() {
        1.0
    } else if is(rest.first(), b' ') {
        unit_ms(rest.get(1..)?, true)?
    } else {
        unit_ms(rest, false)?
    };
    Some(amount * ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_forms() {
        let cases: &[(&str, f64)] = &[
            ("1 second", 1000.0),
            ("15 seconds", 15000.0),
            ("1 minute", 60000.0),
            ("12 hours", 43_200_000.0),
            ("2 days", 172_800_000.0),
            ("1 week", 604_800_000.0),
            ("5 milliseconds", 5.0),
            ("250ms", 250.0),
            ("5s", 5000.0),
            ("3m", 180_000.0),
            ("2h", 7_200_000.0),
            ("1d", 86_400_000.0),
            ("1w", 604_800_000.0),
            ("42", 42.0),
            ("0", 0.0),
            ("-5s", -5000.0),
            ("  7s\n", 7000.0),
            ("\u{FEFF}\u{00A0}7s\u{2028}\u{3000}", 7000.0),
        ];
        for (text, ms) in cases {
            assert_eq!(parse(text), Some(*ms), "{text:?}");
        }
        assert!(parse("-0").unwrap().is_sign_negative());
    }

    #[test]
    fn rejected_forms() {
        for text in [
            "",
            "   ",
            "s",
            "ms",
            "second",
            "1.5s",
            "1e3",
            "0x10",
            "+5",
            "05",
            "00",
            "1_000",
            "1  second",
            "1second",
            "1 s",
            "1 Second",
            "1S",
            "1 month",
            "1 year",
            "1y",
            "1s 2ms",
            "1h30m",
            "1 toString",
            "1 constructor",
            "1 __proto__",
            "--1",
            "-",
            "1\tsecond",
            "\u{0085}1s",
            "1s\u{180E}",
            "１s",
            "1 seconds s",
        ] {
            assert_eq!(parse(text), None, "{text:?}");
        }
        assert_eq!(parse("1 second "), Some(1000.0), "trailing space is trimmed");
    }

    #[test]
    fn units_parse_like_text() {
        for text in ["1 second", " 5s ", "\u{FEFF}7 weeks\u{3000}", "-0", "1 seconds s", "", "05", "1 toString", "9"] {
            let units: Vec<u16> = text.encode_utf16().collect();
            assert_eq!(parse_units(&units).map(f64::to_bits), parse(text).map(f64::to_bits), "{text:?}");
        }
        assert_eq!(parse_units(&[0xD800, u16::from(b'5')]), None);
        assert_eq!(parse_units(&[u16::from(b'5'), 0xDC00]), None);
        let long: Vec<u16> = "9".repeat(10_000).encode_utf16().collect();
        assert_eq!(parse_units(&long), Some(f64::INFINITY));
    }

    #[test]
    fn is_js_space_unit_is_is_js_space() {
        for u in 0..=u16::MAX {
            assert_eq!(is_js_space_unit(u), char::from_u32(u32::from(u)).is_some_and(is_js_space), "{u:#x}");
        }
    }

    #[test]
    fn trim_is_javascripts() {
        assert_eq!(js_trim("\u{FEFF} x \u{2029}"), "x");
        assert_eq!(js_trim("\u{0085}x"), "\u{0085}x");
        assert_eq!(js_trim("\u{180E}x"), "\u{180E}x");
    }

    #[test]
    fn integers_round_like_js_number() {
        // Halfway between 2^53 and 2^53 + 2: ties to even.
        assert_eq!(integer_to_f64(b"9007199254740993"), 9_007_199_254_740_992.0);
        assert_eq!(integer_to_f64(b"9007199254740995"), 9_007_199_254_740_996.0);
        // u64::MAX and 2^64 + 1.
        assert_eq!(integer_to_f64(b"18446744073709551615"), 18_446_744_073_709_551_616.0);
        assert_eq!(integer_to_f64(b"18446744073709551617"), 18_446_744_073_709_551_616.0);
        // The largest double, and the halfway point above it (rounds to Infinity).
        let max = "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368";
        assert_eq!(integer_to_f64(max.as_bytes()), f64::MAX);
        let half_above = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";
        assert_eq!(integer_to_f64(half_above.as_bytes()), f64::INFINITY);
        assert_eq!(integer_to_f64(b"0"), 0.0);
        for text in ["1", "123456789012345", "1234567890123456", "99999999999999999999", "12345678901234567890123"] {
            assert_eq!(integer_to_f64(text.as_bytes()), text.parse::<f64>().unwrap(), "{text}");
        }
    }

    #[test]
    fn huge_amounts_are_doubles() {
        assert_eq!(parse("9007199254740993"), Some(9_007_199_254_740_992.0));
        assert_eq!(parse(&"9".repeat(400)), Some(f64::INFINITY));
    }
}
