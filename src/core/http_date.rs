//! `Retry-After` (RFC 9110 §10.2.3) and HTTP-date (RFC 9110 §5.6.7).
//!
//! `Retry-After = HTTP-date / delay-seconds`, where `delay-seconds = 1*DIGIT`
//! and an HTTP-date is one of three formats:
//!
//! - IMF-fixdate (preferred): `Sun, 06 Nov 1994 08:49:37 GMT`;
//! - obsolete RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT` (two-digit year);
//! - obsolete asctime: `Sun Nov  6 08:49:37 1994` (no zone: it is GMT).
//!
//! The three layouts are checked byte for byte and the fields validated here, as
//! the `httpdate` crate (1.0.3) does, with three differences where httpdate
//! differs from RFC 9110:
//!
//! 1. **Two-digit years.** httpdate maps an RFC 850 year to 1970–2069 (a
//!    fixed window). RFC 9110 says a recipient "MUST interpret a timestamp that
//!    appears to be more than 50 years in the future as representing the most
//!    recent year in the past that had the same last two digits", which is a
//!    window that moves with the clock. Here the year is the one with those
//!    last two digits in `[now − 49, now + 50]` (years of `now`, the caller's
//!    clock). In 2026, `70` is 2070 (httpdate: 1970) and `77` is 1977.
//! 2. **Years before 1970.** The grammar allows any four-digit year, and such a
//!    date is simply in the past; httpdate rejects years below 1970.
//! 3. **Weekday.** httpdate rejects a day name that does not match the date.
//!    RFC 9110 asks recipients to be robust in parsing timestamps and gives no
//!    rule that the day name must agree, so a valid day name that is the wrong
//!    one is accepted (the date decides). An unknown day name is still rejected.
//!
//! Why not call httpdate itself: its validity check converts through
//! `std::time::SystemTime` with `expect` and `panic!`, which keeps std's panic and
//! formatting machinery and an allocator in the wasm, more than the rest of the
//! module. The
//! parser here is ~70 lines; httpdate stays as the test oracle: `cargo test`
//! compares the two on every date of a pseudo-random sweep (`agrees_with_httpdate`).
//!
//! As httpdate has them (both agree with the RFC's grammar): names are
//! case-sensitive (`%s"GMT"`, `%s"Nov"`), only the zone `GMT`, exact spacing,
//! an asctime day may be `" 6"` or `"06"`, non-ASCII text is rejected, and
//! second 60 (a leap second) is rejected.

use super::duration::integer_to_f64;

/// Milliseconds in one day.
const DAY_MS: f64 = 86_400_000.0;
/// Days in 400 Gregorian years: the calendar, weekdays included, repeats after them.
const CYCLE_DAYS: i32 = 146_097;
/// The largest |ms since the epoch| a JavaScript `Date` holds (ECMA-262 §21.4.1.1).
const MAX_TIME_MS: f64 = 8.64e15;
/// Day names of IMF-fixdate and asctime dates (RFC 9110 §5.6.7 `day-name`), Monday first.
pub(crate) const SHORT_DAYS: [&[u8; 3]; 7] = [b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun"];
/// Day names of RFC 850 dates (`day-name-l`), Monday first.
pub(crate) const LONG_DAYS: [&str; 7] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
/// Month names of the HTTP-date grammar (RFC 9110 §5.6.7), January first, three letters each.
pub(crate) const MONTHS: &[u8] = b"JanFebMarAprMayJunJulAugSepOctNovDec";

/// Whether a byte or code unit is optional whitespace (SP or HTAB, RFC 9110 §5.6.3).
fn is_ows<T: Copy + Into<u32>>(u: T) -> bool {
    let u = u.into();
    u == u32::from(b' ') || u == u32::from(b'\t')
}

/// Trims optional whitespace (SP and HTAB, RFC 9110 §5.6.3) around a field value
/// (bytes or UTF-16 code units).
fn trim_ows<T: Copy + Into<u32>>(s: &[T]) -> &[T] {
    let start = s.iter().position(|&u| !is_ows(u)).unwrap_or(s.len());
    let end = s.iter().rposition(|&u| !is_ows(u)).map_or(start, |i| i + 1);
    s.get(start..end).unwrap_or(&[])
}

/// The value of an ASCII digit byte or code unit (`None` for anything else).
fn digit<T: Copy + Into<u32>>(u: T) -> Option<u32> {
    u.into().checked_sub(u32::from(b'0')).filter(|d| *d < 10)
}

/// `delay-seconds = 1*DIGIT` as milliseconds (digits only: no sign, no
/// decimals, no exponent). Very long digit strings give `Infinity`.
pub fn delay_seconds_ms(text: &str) -> Option<f64> {
    delay_seconds_units(text.as_bytes())
}

/// [`delay_seconds_ms`] over bytes or UTF-16 code units.
fn delay_seconds_units<T: Copy + Into<u32>>(text: &[T]) -> Option<f64> {
    if text.is_empty() || !text.iter().all(|&u| digit(u).is_some()) {
        return None;
    }
    // `Number(text) * 1000`, exactly: the seconds are rounded once, as JavaScript
    // rounds decimal text (`duration::integer_to_f64`; leading zeros dropped first,
    // as it expects), then scaled.
    let first = text.iter().position(|&u| digit(u) != Some(0)).unwrap_or(text.len() - 1);
    Some(integer_to_f64(text.get(first..).unwrap_or_default()) * 1000.0)
}

/// The proleptic Gregorian year of a time in ms since the epoch
/// (H. Hinnant's `civil_from_days`), or `None` outside JavaScript's `Date` range.
pub fn year_of(ms: f64) -> Option<i32> {
    if !crate::core::check::finite(ms) || ms.abs() > MAX_TIME_MS {
        return None;
    }
    // |days| <= 10^8: i32 (all of this module's calendar arithmetic is i32, which
    // is smaller wasm than i64; ms are only formed in f64, where they are exact).
    let days = (ms / DAY_MS).floor() as i32;
    let z = days + 719_468;
    let era = z.div_euclid(CYCLE_DAYS);
    let doe = z - era * CYCLE_DAYS;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month_jan_feb = mp >= 10;
    Some(yoe + era * 400 + i32::from(month_jan_feb))
}

/// The full year of an RFC 850 two-digit year `yy` seen in year `now_year`:
/// the year ending in `yy` within `[now_year - 49, now_year + 50]` (RFC 9110 §5.6.7).
pub fn rfc850_year(yy: i32, now_year: i32) -> i32 {
    let y = now_year - now_year.rem_euclid(100) + yy;
    if y > now_year + 50 {
        y - 100
    } else if y <= now_year - 50 {
        y + 100
    } else {
        y
    }
}

/// Days in `month` (1–12) of proleptic Gregorian `year`.
fn month_days(year: i32, month: i32) -> i32 {
    if month == 2 {
        // Leap years: multiples of 4, except centuries that are not multiples of 400.
        28 + i32::from(year % if year % 100 == 0 { 400 } else { 4 } == 0)
    } else {
        // 31 for January, March, May, July, August, October, December: odd months
        // up to July, even ones from August.
        30 + ((month ^ month >> 3) & 1)
    }
}

/// Days from 1970-01-01 to `year-month-day` in the proleptic Gregorian calendar
/// (negative before), with years counted from March so the leap day ends a year:
/// the `days_from_civil` algorithm of Howard Hinnant, "chrono-Compatible
/// Low-Level Date Algorithms" (2013).
fn days_from_civil(year: i32, month: i32, day: i32) -> i32 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    era * CYCLE_DAYS + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

/// Ms since the epoch of a date and a time of day, or `None` when the day does
/// not exist in that month or the time is not one (second 60 is refused, as
/// httpdate does).
fn civil_ms(year: i32, month: i32, day: i32, hour: i32, minute: i32, second: i32) -> Option<f64> {
    if !(1..=month_days(year, month)).contains(&day) || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    // Integers below 2^53 throughout: exact in f64.
    let seconds =
        f64::from(days_from_civil(year, month, day)) * 86_400.0 + f64::from(hour * 3_600 + minute * 60 + second);
    Some(seconds * 1_000.0)
}

/// The three layouts of an HTTP-date (RFC 9110 §5.6.7), byte for byte as
/// httpdate's parser checks them. A template byte is a class or a literal:
///
/// - `w`: a short day name (`Sun`), `l`: a long one followed by nothing else
///   before the `,` (`Sunday`), `m`: a month name (`Nov`); a valid day name
///   that is not the date's is accepted (module docs, difference 3);
/// - `0`–`5`: one ASCII digit of field 0 day, 2 year, 3 hour, 4 minute, 5 second
///   (field 1 is the month), most significant first;
/// - `_`: SP or a digit of the day (asctime's `" 6"` or `"06"`);
/// - any other byte: itself.
///
/// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, asctime `Sun Nov  6 08:49:37 1994`
/// (no zone: GMT), RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` (two-digit year,
/// read by [`rfc850_year`]). No text matches two of them.
pub(crate) const LAYOUTS: [&[u8]; 3] =
    [b"w, 00 m 2222 33:44:55 GMT", b"w m _0 33:44:55 2222", b"l, 00-m-22 33:44:55 GMT"];

/// Whether `s[at..]` starts with the ASCII text `word`.
fn has<T: Copy + Into<u32>>(s: &[T], at: usize, word: &[u8]) -> bool {
    s.get(at..at + word.len()).is_some_and(|w| super::duration::eq_ascii(w, word))
}

/// An HTTP-date of `layout` (one of [`LAYOUTS`]) as ms since the epoch, or
/// `None` when `s` does not match it or names no date; `now_ms` decides the
/// century of an RFC 850 year.
fn layout_ms<T: Copy + Into<u32>>(s: &[T], layout: &[u8], now_ms: f64) -> Option<f64> {
    // Day, month, year, hour, minute, second.
    let mut field = [0i32; 6];
    let mut at = 0;
    for &c in layout {
        let u = s.get(at).copied()?.into();
        at += match c {
            b'w' => SHORT_DAYS.iter().find(|d| has(s, at, &d[..]))?.len(),
            b'l' => LONG_DAYS.iter().find(|d| has(s, at, d.as_bytes()))?.len(),
            b'm' => {
                field[1] = MONTHS.chunks(3).position(|m| has(s, at, m))? as i32 + 1;
                3
            }
            b'0'..=b'5' | b'_' => {
                let (i, d) = if c == b'_' {
                    (0, if u == u32::from(b' ') { Some(0) } else { digit(u) })
                } else {
                    (usize::from(c - b'0'), digit(u))
                };
                let f = field.get_mut(i)?;
                *f = *f * 10 + d? as i32;
                1
            }
            _ if u == u32::from(c) => 1,
            _ => return None,
        };
    }
    if at != s.len() {
        return None;
    }
    let [day, month, mut year, hour, minute, second] = field;
    if layout.first() == Some(&b'l') {
        year = rfc850_year(year, year_of(now_ms)?);
        if !(0..=9999).contains(&year) {
            return None;
        }
    }
    civil_ms(year, month, day, hour, minute, second)
}

/// An HTTP-date in any of the three formats of RFC 9110 §5.6.7, as ms since the
/// epoch (negative before 1970). `now_ms` (ms since the epoch) decides the century
/// of an RFC 850 two-digit year. `None` for anything that is not an HTTP-date
/// (surrounding SP/HTAB are ignored).
pub fn parse_http_date_ms(text: &str, now_ms: f64) -> Option<f64> {
    date_ms(trim_ows(text.as_bytes()), now_ms)
}

/// [`parse_http_date_ms`] of trimmed text (bytes or UTF-16 code units), matched
/// against each of the [`LAYOUTS`] in place: no copy, no allocation.
fn date_ms<T: Copy + Into<u32>>(text: &[T], now_ms: f64) -> Option<f64> {
    LAYOUTS.iter().find_map(|layout| layout_ms(text, layout, now_ms))
}

/// The wait a `Retry-After` field value asks for, in ms, at time `now_ms`:
/// delay-seconds × 1000, or an HTTP-date minus `now_ms` (0 when it is past).
/// `None` for anything else: empty text, a sign, a decimal point, garbage,
/// or a non-finite `now_ms`. Never `NaN`.
pub fn retry_after_ms(value: &str, now_ms: f64) -> Option<f64> {
    retry_after_units(value.as_bytes(), now_ms)
}

/// [`retry_after_ms`] of a field value given as bytes (UTF-8) or UTF-16 code
/// units (a JavaScript string's own units): what the wasm build uses.
/// Allocation-free: delay-seconds of any length, dates through a fixed buffer.
pub fn retry_after_units<T: Copy + Into<u32>>(value: &[T], now_ms: f64) -> Option<f64> {
    if !crate::core::check::finite(now_ms) {
        return None;
    }
    let v = trim_ows(value);
    if let Some(ms) = delay_seconds_units(v) {
        return Some(ms);
    }
    date_ms(v, now_ms).map(|t| (t - now_ms).max(0.0))
}

// Native only: httpdate, the oracle, is a native dev-dependency (the wasm build never links it).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// 2026-11-29T00:00:00Z.
    const NOW: f64 = 1_795_910_400_000.0;
    /// Sun, 06 Nov 1994 08:49:37 GMT (RFC 9110's example).
    const RFC_EXAMPLE: f64 = 784_111_777_000.0;

    #[test]
    fn now_constant_is_the_date_it_names() {
        assert_eq!(parse_http_date_ms("Sun, 29 Nov 2026 00:00:00 GMT", 0.0), Some(NOW));
        assert_eq!(year_of(NOW), Some(2026));
    }

    #[test]
    fn three_formats_of_the_rfc_example() {
        assert_eq!(parse_http_date_ms("Sun, 06 Nov 1994 08:49:37 GMT", NOW), Some(RFC_EXAMPLE));
        assert_eq!(parse_http_date_ms("Sunday, 06-Nov-94 08:49:37 GMT", NOW), Some(RFC_EXAMPLE));
        assert_eq!(parse_http_date_ms("Sun Nov  6 08:49:37 1994", NOW), Some(RFC_EXAMPLE));
        assert_eq!(parse_http_date_ms("Sun Nov 06 08:49:37 1994", NOW), Some(RFC_EXAMPLE));
    }

    #[test]
    fn surrounding_ows_is_ignored_other_space_is_not() {
        assert_eq!(parse_http_date_ms(" \tSun, 06 Nov 1994 08:49:37 GMT\t ", NOW), Some(RFC_EXAMPLE));
        assert_eq!(parse_http_date_ms("Sun,  06 Nov 1994 08:49:37 GMT", NOW), None);
        assert_eq!(parse_http_date_ms("Sun, 06 Nov 1994  08:49:37 GMT", NOW), None);
        assert_eq!(parse_http_date_ms("Sun Nov 6 08:49:37 1994", NOW), None);
        assert_eq!(parse_http_date_ms("\nSun, 06 Nov 1994 08:49:37 GMT", NOW), None);
    }

    #[test]
    fn httpdate_alone_uses_a_fixed_two_digit_year_window() {
        // What the wrapper corrects: httpdate reads 70 as 1970 whatever the clock says.
        let t = httpdate::parse_http_date("Thursday, 01-Jan-70 00:00:00 GMT").unwrap();
        assert_eq!(t, std::time::UNIX_EPOCH);
        let t = httpdate::parse_http_date("Tuesday, 01-Jan-69 00:00:00 GMT").unwrap();
        assert_eq!(t.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs(), 3_124_224_000); // 2069
    }

    #[test]
    fn rfc850_years_follow_the_clock() {
        assert_eq!(rfc850_year(94, 2026), 1994);
        assert_eq!(rfc850_year(26, 2026), 2026);
        assert_eq!(rfc850_year(76, 2026), 2076); // exactly 50 years ahead: kept
        assert_eq!(rfc850_year(77, 2026), 1977); // 51 years ahead: the past
        assert_eq!(rfc850_year(70, 2026), 2070);
        assert_eq!(rfc850_year(0, 2026), 2000);
        assert_eq!(rfc850_year(10, 2080), 2110);
        assert_eq!(rfc850_year(31, 2080), 2031);
        assert_eq!(rfc850_year(30, 2080), 2130);
        assert_eq!(rfc850_year(99, 1999), 1999);
        assert_eq!(rfc850_year(49, 1999), 2049);
        assert_eq!(rfc850_year(50, 1999), 1950);
        // 2070-01-01 is a Wednesday; 1970-01-01 a Thursday.
        assert_eq!(parse_http_date_ms("Wednesday, 01-Jan-70 00:00:00 GMT", NOW), Some(3_155_760_000_000.0));
        assert_eq!(parse_http_date_ms("Saturday, 01-Jan-77 00:00:00 GMT", NOW), Some(220_924_800_000.0));
        // Seen from 1990, 01-Jan-70 is 1970.
        let in_1990 = 631_152_000_000.0;
        assert_eq!(parse_http_date_ms("Thursday, 01-Jan-70 00:00:00 GMT", in_1990), Some(0.0));
    }

    #[test]
    fn years_outside_httpdate_range_are_dates_in_the_past() {
        assert!(httpdate::parse_http_date("Wed, 31 Dec 1969 23:59:59 GMT").is_err());
        assert_eq!(parse_http_date_ms("Wed, 31 Dec 1969 23:59:59 GMT", NOW), Some(-1000.0));
        assert_eq!(parse_http_date_ms("Sat, 01 Jan 0000 00:00:00 GMT", NOW), Some(-62_167_219_200_000.0));
        assert_eq!(parse_http_date_ms("Fri, 31 Dec 9999 23:59:59 GMT", NOW), Some(253_402_300_799_000.0));
        assert_eq!(parse_http_date_ms("Mon Jan  1 00:00:00 1900", NOW), Some(-2_208_988_800_000.0));
        assert_eq!(retry_after_ms("Mon, 01 Jan 1900 00:00:00 GMT", NOW), Some(0.0));
        // 29 Feb exists in 2000 and 1600, not in 1900 or 2100.
        assert!(parse_http_date_ms("Tue, 29 Feb 2000 00:00:00 GMT", NOW).is_some());
        assert!(parse_http_date_ms("Tue, 29 Feb 1600 00:00:00 GMT", NOW).is_some());
        assert_eq!(parse_http_date_ms("Thu, 29 Feb 1900 00:00:00 GMT", NOW), None);
        assert_eq!(parse_http_date_ms("Mon, 29 Feb 2100 00:00:00 GMT", NOW), None);
    }

    #[test]
    fn a_wrong_day_name_is_accepted_an_unknown_one_is_not() {
        assert!(httpdate::parse_http_date("Mon, 06 Nov 1994 08:49:37 GMT").is_err());
        assert_eq!(parse_http_date_ms("Mon, 06 Nov 1994 08:49:37 GMT", NOW), Some(RFC_EXAMPLE));
        assert_eq!(parse_http_date_ms("Monday, 06-Nov-94 08:49:37 GMT", NOW), Some(RFC_EXAMPLE));
        assert_eq!(parse_http_date_ms("Mon Nov  6 08:49:37 1994", NOW), Some(RFC_EXAMPLE));
        assert_eq!(parse_http_date_ms("Xyz, 06 Nov 1994 08:49:37 GMT", NOW), None);
        assert_eq!(parse_http_date_ms("Sunxxx, 06-Nov-94 08:49:37 GMT", NOW), None);
        assert_eq!(parse_http_date_ms("Sun, 06-Nov-94 08:49:37 GMT", NOW), None);
        assert_eq!(parse_http_date_ms("sun, 06 Nov 1994 08:49:37 GMT", NOW), None);
    }

    #[test]
    fn rejected_by_the_grammar() {
        for bad in [
            "",
            "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Nov 1994 08:49:37 gmt",
            "Sun, 06 nov 1994 08:49:37 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 94 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 06 Nov 1994 08:49:37 +0000",
            "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:60:00 GMT",
            "Sun, 06 Nov 1994 08:49:60 GMT",
            "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 31 Nov 1994 08:49:37 GMT",
            "Sun, 00 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 199x 08:49:37 GMT",
            "Sun, 06 Nov -994 08:49:37 GMT",
            "Sunday, 06-Nov-1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 UTC",
            "Sunday, 06-Nov-9x 08:49:37 GMT",
            "Sunday, 06-Nov-94T08:49:37 GMT",
            "Sunday, 06 Nov 94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994 GMT",
            "Sun Nov  6 08:49:37 94",
            "1994-11-06T08:49:37Z",
            "Sun, 06 Nov 1994 08:49:37 GMT\u{e9}",
            "Sün, 06 Nov 1994 08:49:37 GMT",
            "120",
        ] {
            assert_eq!(parse_http_date_ms(bad, NOW), None, "{bad:?}");
        }
    }

    #[test]
    fn delay_seconds() {
        assert_eq!(delay_seconds_ms("0"), Some(0.0));
        assert_eq!(delay_seconds_ms("120"), Some(120_000.0));
        assert_eq!(delay_seconds_ms("007"), Some(7_000.0));
        assert_eq!(delay_seconds_ms(&"9".repeat(400)), Some(f64::INFINITY));
        // Rounded once, as `Number(text) * 1000` is (digit by digit gave 1.0000000000000001e23).
        assert_eq!(delay_seconds_ms("99999999999999999999"), Some(1e23));
        assert_eq!(delay_seconds_ms("9007199254740993"), Some(9_007_199_254_740_992.0 * 1000.0));
        assert_eq!(delay_seconds_ms(&("0".repeat(400) + "1")), Some(1000.0));
        assert_eq!(delay_seconds_ms(&"0".repeat(400)), Some(0.0));
        for bad in ["", "-3", "+3", "1.5", "1e3", "0x10", " 1", "1 ", "1,2", "١٢"] {
            assert_eq!(delay_seconds_ms(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn retry_after() {
        assert_eq!(retry_after_ms("120", NOW), Some(120_000.0));
        assert_eq!(retry_after_ms(" 120\t", NOW), Some(120_000.0));
        assert_eq!(retry_after_ms("Sun, 29 Nov 2026 00:00:02 GMT", NOW), Some(2_000.0));
        assert_eq!(retry_after_ms("Sun, 29 Nov 2026 00:00:02 GMT", NOW + 500.0), Some(1_500.0));
        assert_eq!(retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", NOW), Some(0.0));
        assert_eq!(retry_after_ms("Sun Nov 29 00:01:00 2026", NOW), Some(60_000.0));
        assert_eq!(retry_after_ms("Sunday, 29-Nov-26 00:01:00 GMT", NOW), Some(60_000.0));
        for bad in ["", "   ", "-3", "1.5", "soon", "120 seconds", "120, 120", "1 2"] {
            assert_eq!(retry_after_ms(bad, NOW), None, "{bad:?}");
        }
        assert_eq!(retry_after_ms("120", f64::NAN), None);
        assert_eq!(retry_after_ms("120", f64::INFINITY), None);
    }

    #[test]
    fn utf16_units_agree_with_text() {
        for text in [
            "120",
            " Sun, 06 Nov 1994 08:49:37 GMT\t",
            "Sunday, 29-Nov-26 00:01:00 GMT",
            "Sun Nov  6 08:49:37 1994",
            "x",
            "١٢",
        ] {
            let units: Vec<u16> = text.encode_utf16().collect();
            assert_eq!(retry_after_units(&units, NOW), retry_after_ms(text, NOW), "{text:?}");
        }
        let long: Vec<u16> = "9".repeat(10_000).encode_utf16().collect();
        assert_eq!(retry_after_units(&long, NOW), Some(f64::INFINITY));
        // A unit whose low byte is ASCII is not ASCII.
        let mut units: Vec<u16> = "Sun, 06 Nov 1994 08:49:37 GMT".encode_utf16().collect();
        units[0] = 0x0153;
        assert_eq!(retry_after_units(&units, NOW), None);
    }

    /// httpdate's reading of `text`, trying every day name so a wrong one does not
    /// count (difference 3 of the module docs): ms since the epoch, or `None`.
    fn httpdate_any_day_name(text: &str) -> Option<f64> {
        let secs = |t: &str| httpdate::parse_http_date(t).ok()?.duration_since(std::time::UNIX_EPOCH).ok();
        if let Some(d) = secs(text) {
            return Some(d.as_secs() as f64 * 1000.0);
        }
        let long = LONG_DAYS.iter().find(|d| text.starts_with(&format!("{d},")));
        let short = SHORT_DAYS.iter().find(|d| text.as_bytes().starts_with(&d[..]));
        let rest = match (long, short) {
            (Some(d), _) => &text[d.len()..],
            (None, Some(_)) => &text[3..],
            _ => return None,
        };
        let names: Vec<String> = if long.is_some() {
            LONG_DAYS.iter().map(|d| d.to_string()).collect()
        } else {
            SHORT_DAYS.iter().map(|d| String::from_utf8_lossy(&d[..]).into_owned()).collect()
        };
        names.iter().find_map(|n| secs(&format!("{n}{rest}"))).map(|d| d.as_secs() as f64 * 1000.0)
    }

    #[test]
    fn agrees_with_httpdate() {
        // A deterministic sweep (xorshift64*): IMF-fixdate and asctime dates of years
        // 1970–9999 with fields just inside and outside their ranges and any day name,
        // RFC 850 dates whose two-digit year both read the same (77–99 seen from 2026),
        // and the same texts with one byte replaced by a printable ASCII byte or HTAB.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: u64| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
        };
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
        let (mut accepted, mut compared) = (0, 0);
        for i in 0..60_000 {
            let year = 1970 + next(8030);
            let (day, hour, min, sec) = (next(33), next(25), next(61), next(61));
            let mon = months[next(12) as usize];
            let wday = next(7) as usize;
            let short = String::from_utf8_lossy(&SHORT_DAYS[wday][..]).into_owned();
            let mut text = match i % 4 {
                0 | 1 => format!("{short}, {day:02} {mon} {year:04} {hour:02}:{min:02}:{sec:02} GMT"),
                2 => {
                    let d = if next(2) == 0 { format!("{day:>2}") } else { format!("{day:02}") };
                    format!("{short} {mon} {d} {hour:02}:{min:02}:{sec:02} {year:04}")
                }
                _ => {
                    format!("{}, {day:02}-{mon}-{:02} {hour:02}:{min:02}:{sec:02} GMT", LONG_DAYS[wday], 77 + next(23))
                }
            };
            if i % 2 == 1 {
                let at = next(text.len() as u64) as usize;
                let b = if next(10) == 0 { b'\t' } else { 0x20 + next(95) as u8 };
                let mut bytes = text.into_bytes();
                bytes[at] = b;
                text = String::from_utf8(bytes).unwrap();
            }
            let ours = parse_http_date_ms(&text, NOW);
            let theirs = httpdate_any_day_name(&text);
            if ours.is_some_and(|ms| ms < 0.0) {
                // A replaced digit moved the year below 1970: httpdate has no such dates.
                assert_eq!(theirs, None, "{text:?}");
                continue;
            }
            if text.trim_matches([' ', '\t']) != text {
                continue; // surrounding whitespace: trimmed here (OWS), by httpdate as Unicode space
            }
            if i % 4 == 3 && i % 2 == 1 {
                // A replaced year digit may leave 70–76, which the two windows read apart;
                // and httpdate does not check the SP before an RFC 850 time, the grammar does.
                assert!(ours.is_none() || theirs.is_some(), "{text:?}");
            } else {
                assert_eq!(ours, theirs, "{text:?}");
            }
            compared += 1;
            accepted += usize::from(ours.is_some());
        }
        assert!(compared > 55_000 && accepted > 10_000, "{compared} compared, {accepted} accepted");
    }

    #[test]
    fn years_of_times() {
        assert_eq!(year_of(0.0), Some(1970));
        assert_eq!(year_of(-1.0), Some(1969));
        assert_eq!(year_of(951_782_400_000.0), Some(2000)); // 2000-02-29
        assert_eq!(year_of(978_307_199_999.0), Some(2000)); // 2000-12-31T23:59:59.999
        assert_eq!(year_of(978_307_200_000.0), Some(2001));
        assert_eq!(year_of(-62_167_219_200_000.0), Some(0));
        assert_eq!(year_of(8.64e15), Some(275_760));
        assert_eq!(year_of(8.64e15 + 1.0), None);
        assert_eq!(year_of(f64::NAN), None);
    }
}
