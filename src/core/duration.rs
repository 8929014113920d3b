//! Duration text of `@sdxc/duration` (API.md section 4).
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
        '\u{0009}' | '\u{000A}' | '\u{000B}' | '\u{000C}' | '\u{000D}' | '\u{0020}' | '\u{00A0}'
            | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}'
            | '\u{3000}' | '\u{FEFF}'
    )
}

/// JavaScript's `String.prototype.trim`.
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(is_js_space)
}

/// Milliseconds per unit, for short and long unit names.
fn unit_ms(unit: &str, long: bool) -> Option<f64> {
    let ms = if long {
        match unit {
            "millisecond" | "milliseconds" => 1.0,
            "second" | "seconds" => 1_000.0,
            "minute" | "minutes" => 60_000.0,
            "hour" | "hours" => 3_600_000.0,
            "day" | "days" => 86_400_000.0,
            "week" | "weeks" => 604_800_000.0,
            _ => return None,
        }
    } else {
        match unit {
            "ms" => 1.0,
            "s" => 1_000.0,
            "m" => 60_000.0,
            "h" => 3_600_000.0,
            "d" => 86_400_000.0,
            "w" => 604_800_000.0,
            _ => return None,
        }
    };
    Some(ms)
}

/// Parses duration text into milliseconds; `None` when it is not a duration.
///
/// The result is `amount * unit` in double precision (`"-0"` gives `-0`;
/// an amount too long for a double gives `Infinity`, which callers that need a
/// finite delay reject).
pub fn parse(text: &str) -> Option<f64> {
    let t = js_trim(text);
    let bytes = t.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let digits_start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let digits = &t[digits_start..i];
    if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
        return None;
    }
    let amount: f64 = t[..i].parse().ok()?;
    let rest = &t[i..];
    let ms = if rest.is_empty() {
        1.0
    } else if let Some(long) = rest.strip_prefix(' ') {
        unit_ms(long, true)?
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
            "", "   ", "s", "ms", "second", "1.5s", "1e3", "0x10", "+5", "05", "00", "1_000", "1  second",
            "1second", "1 s", "1 Second", "1S", "1 month", "1 year", "1y", "1s 2ms", "1h30m", "1 toString",
            "1 constructor", "1 __proto__", "--1", "-", "1\tsecond", "\u{0085}1s", "1s\u{180E}",
            "１s", "1 seconds s",
        ] {
            assert_eq!(parse(text), None, "{text:?}");
        }
        assert_eq!(parse("1 second "), Some(1000.0), "trailing space is trimmed");
    }

    #[test]
    fn trim_is_javascripts() {
        assert_eq!(js_trim("\u{FEFF} x \u{2029}"), "x");
        assert_eq!(js_trim("\u{0085}x"), "\u{0085}x");
        assert_eq!(js_trim("\u{180E}x"), "\u{180E}x");
    }

    #[test]
    fn huge_amounts_are_doubles() {
        assert_eq!(parse("9007199254740993"), Some(9_007_199_254_740_992.0));
        assert_eq!(parse(&"9".repeat(400)), Some(f64::INFINITY));
    }
}
