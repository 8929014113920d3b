//! The answers of the Rust parsers that the JavaScript readers replay: each file is
//! generated here and checked, as `js/engine/boundary.ts` is ([`super::check_generated`]),
//! so that a change of either parser shows as a difference in one committed file.

/// `tests/js/duration-vectors.json`: the answers of `core::duration`.
mod duration {
    use crate::core::duration::*;

    /// Set to rewrite `tests/js/duration-vectors.json` instead of checking it.
    const VECTORS_WRITE: &str = "DURATION_VECTORS_WRITE";

    /// A JSON string of UTF-16 code units (every non-printable or non-ASCII unit,
    /// lone surrogates included, as `\uXXXX`).
    fn json_units(units: &[u16]) -> String {
        let mut out = String::from("\"");
        for &u in units {
            match u {
                0x22 => out.push_str("\\\""),
                0x5c => out.push_str("\\\\"),
                0x20..=0x7e => out.push(char::from(u as u8)),
                _ => out.push_str(&format!("\\u{u:04x}")),
            }
        }
        out.push('"');
        out
    }

    /// The texts of the vectors (UTF-16 code units): the literal cases of the tests
    /// above, then a deterministic sweep of amounts (signs, leading zeros, 1–20 and
    /// 300–320 digits), separators, units (short, long, plural, wrong case, unknown)
    /// and characters around them (every JavaScript space, and others that are not).
    fn vector_inputs() -> Vec<Vec<u16>> {
        let literal = [
            "1 second",
            "15 seconds",
            "1 minute",
            "12 hours",
            "2 days",
            "1 week",
            "5 milliseconds",
            "250ms",
            "5s",
            "3m",
            "2h",
            "1d",
            "1w",
            "42",
            "0",
            "-5s",
            "-0",
            "  7s\n",
            "\u{FEFF}\u{00A0}7s\u{2028}\u{3000}",
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
            "\u{FF11}s",
            "1 seconds s",
            "1 second ",
            "9007199254740993",
            "99999999999999999999",
            "1 secondss",
            "1 ms",
            "1mss",
        ];
        let mut cases: Vec<Vec<u16>> = literal.iter().map(|t| t.encode_utf16().collect()).collect();
        cases.push(vec![0xD800, u16::from(b'5')]);
        cases.push(vec![u16::from(b'5'), 0xDC00]);
        cases.push(vec![u16::from(b'5'), u16::from(b's'), 0xD800]);
        for t in
            ["9".repeat(400), "9".repeat(10_000), "1".repeat(309), "1".repeat(310), "-".to_string() + &"9".repeat(400)]
        {
            cases.push(t.encode_utf16().collect());
        }
        let around: [u16; 12] = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0xA0, 0x1680, 0x2005, 0x2028, 0xFEFF, 0x3000];
        let not_space: [u16; 6] = [0x85, 0x180E, 0x200B, 0x08, 0x0E, 0x2060];
        let units = [
            "ms",
            "s",
            "m",
            "h",
            "d",
            "w",
            "millisecond",
            "second",
            "minute",
            "hour",
            "day",
            "week",
            "milliseconds",
            "seconds",
            "minutes",
            "hours",
            "days",
            "weeks",
            "Ms",
            "S",
            "y",
            "sec",
            "mins",
            "secondss",
            "",
        ];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: u64| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
        };
        for _ in 0..3_000 {
            let mut t: Vec<u16> = Vec::new();
            for _ in 0..next(3) {
                t.push(if next(8) == 0 { not_space[next(6) as usize] } else { around[next(12) as usize] });
            }
            match next(10) {
                0 => t.push(u16::from(b'-')),
                1 => t.push(u16::from(b'+')),
                _ => {}
            }
            let len = if next(20) == 0 { 300 + next(21) } else { 1 + next(20) };
            for i in 0..len {
                let d = if i == 0 && next(4) != 0 { 1 + next(9) } else { next(10) };
                t.push(u16::from(b'0') + d as u16);
            }
            match next(6) {
                0 => t.push(u16::from(b'.')),
                1 | 2 => t.push(u16::from(b' ')),
                _ => {}
            }
            t.extend(units[next(units.len() as u64) as usize].encode_utf16());
            for _ in 0..next(3) {
                t.push(if next(8) == 0 { not_space[next(6) as usize] } else { around[next(12) as usize] });
            }
            cases.push(t);
        }
        cases
    }

    /// A number as the vectors write it: JSON, or a string for `-0` and the infinities.
    fn json_number(x: f64) -> String {
        if x == 0.0 && x.is_sign_negative() {
            "\"-0\"".to_string()
        } else if x.is_infinite() {
            format!("\"{}Infinity\"", if x < 0.0 { "-" } else { "" })
        } else {
            format!("{x}")
        }
    }

    /// What `tests/js/duration-vectors.json` holds: `[text, ms]` rows, `ms` the answer of
    /// [`parse_units`] ([`json_number`]) or `null` when the text is no duration.
    fn vectors_json() -> String {
        let rows: Vec<String> = vector_inputs()
            .iter()
            .map(|t| format!("[{}, {}]", json_units(t), parse_units(t).map_or("null".to_string(), json_number)))
            .collect();
        format!("[\n{}\n]\n", rows.join(",\n"))
    }

    #[test]
    fn javascript_vectors_are_current() {
        // The JavaScript reader of duration text (js/engine/duration-text.ts) replays this file
        // (tests/js/duration-vectors.test.mjs): both parsers give the same answers.
        crate::boundary::check_generated(
            "tests/js/duration-vectors.json",
            &vectors_json(),
            VECTORS_WRITE,
            "core::duration answers",
            "boundary::vectors",
        );
    }
}

/// `tests/retry/http-date-vectors.json`: the answers of `core::http_date`.
mod http_date {
    use crate::core::http_date::*;

    /// 2026-11-29T00:00:00Z.
    const NOW: f64 = 1_795_910_400_000.0;

    /// Set to rewrite `tests/retry/http-date-vectors.json` instead of checking it.
    const VECTORS_WRITE: &str = "HTTP_DATE_VECTORS_WRITE";

    /// A JSON string of `s` (every non-printable or non-ASCII unit as `\uXXXX`).
    fn json_string(s: &str) -> String {
        let mut out = String::from("\"");
        for u in s.encode_utf16() {
            match u {
                0x22 => out.push_str("\\\""),
                0x5c => out.push_str("\\\\"),
                0x20..=0x7e => out.push(char::from(u as u8)),
                _ => out.push_str(&format!("\\u{u:04x}")),
            }
        }
        out.push('"');
        out
    }

    /// The texts and clocks of the vectors: the literal cases of the tests above, then a
    /// deterministic sweep of the three layouts (years 0–9999, two-digit years 00–99,
    /// fields just inside and outside their ranges, one byte replaced in half of them)
    /// seen from several clocks.
    fn vector_inputs() -> Vec<(String, f64)> {
        let clocks = [NOW, 0.0, -1.0, 631_152_000_000.0, 3_471_292_800_000.0, -62_167_219_200_000.0, 8.64e15];
        let mut cases: Vec<(String, f64)> = Vec::new();
        let literal = [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
            "Sun Nov 06 08:49:37 1994",
            " \tSun, 06 Nov 1994 08:49:37 GMT\t ",
            "Sun,  06 Nov 1994 08:49:37 GMT",
            "Sun Nov 6 08:49:37 1994",
            "\nSun, 06 Nov 1994 08:49:37 GMT",
            "Wednesday, 01-Jan-70 00:00:00 GMT",
            "Thursday, 01-Jan-70 00:00:00 GMT",
            "Saturday, 01-Jan-77 00:00:00 GMT",
            "Wed, 31 Dec 1969 23:59:59 GMT",
            "Sat, 01 Jan 0000 00:00:00 GMT",
            "Fri, 31 Dec 9999 23:59:59 GMT",
            "Mon Jan  1 00:00:00 1900",
            "Tue, 29 Feb 2000 00:00:00 GMT",
            "Tue, 29 Feb 1600 00:00:00 GMT",
            "Thu, 29 Feb 1900 00:00:00 GMT",
            "Mon, 29 Feb 2100 00:00:00 GMT",
            "Xyz, 06 Nov 1994 08:49:37 GMT",
            "Sunxxx, 06-Nov-94 08:49:37 GMT",
            "Sun, 06-Nov-94 08:49:37 GMT",
            "sun, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Nov 1994 08:49:37 gmt",
            "Sun, 06 nov 1994 08:49:37 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 94 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:60:00 GMT",
            "Sun, 06 Nov 1994 08:49:60 GMT",
            "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 31 Nov 1994 08:49:37 GMT",
            "Sun, 00 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov -994 08:49:37 GMT",
            "Sunday, 06-Nov-1994 08:49:37 GMT",
            "Sunday, 06 Nov 94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994 GMT",
            "Sun Nov  6 08:49:37 94",
            "1994-11-06T08:49:37Z",
            "Sun, 06 Nov 1994 08:49:37 GMT\u{e9}",
            "S\u{fc}n, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT ",
            "Sun, 06 Ja",
            "Sun, 06 Nov",
            "Sun",
            "Sunday",
            "Sun, 06 Nov 1994 08:49:37 GM",
            "",
            "   ",
            "0",
            "120",
            " 120\t",
            "007",
            "-3",
            "+3",
            "1.5",
            "1e3",
            "0x10",
            "1,2",
            "1 2",
            "120 seconds",
            "soon",
            "\u{661}\u{662}",
            "99999999999999999999",
            "9007199254740993",
            "Sun, 29 Nov 2026 00:00:02 GMT",
            "Sun Nov 29 00:01:00 2026",
            "Sunday, 29-Nov-26 00:01:00 GMT",
        ];
        for text in literal {
            for now in [NOW, NOW + 500.0, 0.0, 8.64e15 + 1.0] {
                cases.push((text.to_string(), now));
            }
        }
        for long in ["9".repeat(400), "0".repeat(400) + "1", "0".repeat(400)] {
            cases.push((long, NOW));
        }
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |n: u64| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x9E37_79B9_7F4A_7C15) % n
        };
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
        for i in 0..3_000 {
            let year = next(10_000);
            let (day, hour, min, sec) = (next(33), next(25), next(61), next(61));
            let mon = months[next(12) as usize];
            let wday = next(7) as usize;
            let short = String::from_utf8_lossy(&SHORT_DAYS[wday][..]).into_owned();
            let mut text = match i % 3 {
                0 => format!("{short}, {day:02} {mon} {year:04} {hour:02}:{min:02}:{sec:02} GMT"),
                1 => {
                    let d = if next(2) == 0 { format!("{day:>2}") } else { format!("{day:02}") };
                    format!("{short} {mon} {d} {hour:02}:{min:02}:{sec:02} {year:04}")
                }
                _ => format!("{}, {day:02}-{mon}-{:02} {hour:02}:{min:02}:{sec:02} GMT", LONG_DAYS[wday], next(100)),
            };
            if i % 2 == 1 {
                let at = next(text.len() as u64) as usize;
                let b = if next(10) == 0 { b'\t' } else { 0x20 + next(95) as u8 };
                let mut bytes = text.into_bytes();
                bytes[at] = b;
                text = String::from_utf8(bytes).unwrap();
            }
            let now = clocks[next(clocks.len() as u64) as usize];
            cases.push((text, now));
        }
        cases
    }

    /// What `tests/retry/http-date-vectors.json` holds: `[value, now, answer]` rows,
    /// `answer` the ms of [`retry_after_ms`] (`"Infinity"` when infinite) or `null`.
    fn vectors_json() -> String {
        let rows: Vec<String> = vector_inputs()
            .iter()
            .map(|(text, now)| {
                let answer = match retry_after_ms(text, *now) {
                    Some(ms) if ms.is_infinite() => "\"Infinity\"".to_string(),
                    Some(ms) => format!("{ms}"),
                    None => "null".to_string(),
                };
                format!("[{}, {now}, {answer}]", json_string(text))
            })
            .collect();
        format!("[\n{}\n]\n", rows.join(",\n"))
    }

    #[test]
    fn javascript_vectors_are_current() {
        // The JavaScript reader of `Retry-After` (js/runtime/http-date.ts) replays this file
        // (tests/retry/retry-after-vectors.test.mjs): both parsers give the same answers.
        crate::boundary::check_generated(
            "tests/retry/http-date-vectors.json",
            &vectors_json(),
            VECTORS_WRITE,
            "core::http_date answers",
            "boundary::vectors",
        );
    }
}
