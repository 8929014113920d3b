//! Server-ordered waits besides `Retry-After` (contract section 10,
//! `serverDelayMs`): the IETF `RateLimit` structured field
//! (draft-ietf-httpapi-ratelimit-headers: `"name";r=<remaining>;t=<seconds>`),
//! `RateLimit-Reset` (older drafts: delay-seconds) and `X-RateLimit-Reset`
//! (GitHub, Twitter, …: epoch seconds, or seconds when below 10^9).

use super::http_date::{delay_seconds_units, digit, trim_ows};

/// Which field a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `RateLimit: "default";r=0;t=2` (a structured-field list, RFC 9651).
    RateLimit,
    /// `RateLimit-Reset: 2` (delay-seconds).
    RateLimitReset,
    /// `X-RateLimit-Reset: 1767225600` (epoch seconds when ≥ 10^9, else seconds).
    XRateLimitReset,
}

/// `X-RateLimit-Reset` values at or above this are epoch seconds, below it a count of seconds.
pub const EPOCH_SECONDS_FROM: f64 = 1e9;

/// The wait in ms a field value asks for at `now_ms` (ms since the epoch), or
/// `None` when the value is malformed or asks for no wait (`RateLimit` with no
/// item at `r=0`). An epoch in the past gives 0.
pub fn wait_units<T: Copy + Into<u32>>(value: &[T], field: Field, now_ms: f64) -> Option<f64> {
    match field {
        Field::RateLimit => rate_limit(value),
        Field::RateLimitReset => delay_seconds_units(trim_ows(value)),
        Field::XRateLimitReset => {
            let ms = delay_seconds_units(trim_ows(value))?;
            if ms >= EPOCH_SECONDS_FROM * 1000.0 {
                now_ms.is_finite().then(|| (ms - now_ms).max(0.0))
            } else {
                Some(ms)
            }
        }
    }
}

/// The longest `t` (× 1000) among the list members whose `r` is 0; `None` for a
/// list that does not parse as RFC 9651 (the whole field is then ignored) or with
/// no such member. Reads the code units in place (the shipped wasm has no heap).
fn rate_limit<T: Copy + Into<u32>>(value: &[T]) -> Option<f64> {
    let unit = |i: usize| value.get(i).map(|&u| u.into());
    let is = |i: usize, c: u8| unit(i) == Some(u32::from(c));
    let ws = |at: &mut usize| {
        while is(*at, b' ') || is(*at, b'\t') {
            *at += 1;
        }
    };
    let mut at = 0;
    let mut best: Option<f64> = None;
    loop {
        ws(&mut at);
        // The item: an sf-string or an sf-token (the policy name; its value is not used).
        match unit(at) {
            Some(0x22) => {
                at += 1;
                loop {
                    match unit(at)? {
                        0x22 => break,
                        0x5c => at += 2,
                        u if (0x20..0x7f).contains(&u) => at += 1,
                        _ => return None,
                    }
                }
                at += 1;
            }
            Some(u) if is_alpha(u) || u == u32::from(b'*') => {
                while unit(at).is_some_and(|u| is_tchar(u) || u == u32::from(b':') || u == u32::from(b'/')) {
                    at += 1;
                }
            }
            _ => return None,
        }
        let (mut r, mut t) = (None, None);
        // Parameters: `;key` or `;key=<non-negative integer>` (the only values `r` and `t` take).
        while is(at, b';') {
            at += 1;
            ws(&mut at);
            let key_start = at;
            while unit(at).is_some_and(|u| {
                (0x61..=0x7a).contains(&u) || digit(u).is_some() || b"_-.*".iter().any(|&c| u32::from(c) == u)
            }) {
                at += 1;
            }
            if at == key_start {
                return None;
            }
            let key = if at - key_start == 1 { unit(key_start) } else { None };
            let mut number = None;
            if is(at, b'=') {
                at += 1;
                let start = at;
                while unit(at).and_then(digit).is_some() {
                    at += 1;
                }
                if at == start || at - start > 15 {
                    return None;
                }
                number = delay_seconds_units(value.get(start..at)?);
            }
            if key == Some(u32::from(b'r')) {
                r = number;
            } else if key == Some(u32::from(b't')) {
                t = number;
            }
        }
        if let (Some(0.0), Some(t)) = (r, t) {
            best = Some(best.map_or(t, |b: f64| b.max(t)));
        }
        ws(&mut at);
        match unit(at) {
            None => return best,
            Some(0x2c) => at += 1,
            Some(_) => return None,
        }
    }
}

fn is_alpha(u: u32) -> bool {
    (0x41..=0x5a).contains(&u) || (0x61..=0x7a).contains(&u)
}

/// `tchar` of RFC 9110 §5.6.2.
fn is_tchar(u: u32) -> bool {
    is_alpha(u) || digit(u).is_some() || b"!#$%&'*+-.^_`|~".iter().any(|&c| u32::from(c) == u)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait(v: &str, f: Field) -> Option<f64> {
        wait_units(v.as_bytes(), f, 1_800_000_000_000.0)
    }

    #[test]
    fn rate_limit_field() {
        assert_eq!(wait("\"default\";r=0;t=2", Field::RateLimit), Some(2000.0));
        assert_eq!(wait("\"default\";r=5;t=2", Field::RateLimit), None);
        assert_eq!(wait("default;r=0;t=30, \"burst\";r=0;t=4", Field::RateLimit), Some(30_000.0));
        assert_eq!(wait("\"a\";r=1;t=9, \"b\";t=3;r=0", Field::RateLimit), Some(3000.0));
        assert_eq!(wait(" \"a\";r=0; t=0 ", Field::RateLimit), Some(0.0));
        assert_eq!(wait("\"a\" ;r=0;t=1", Field::RateLimit), None); // RFC 9651: no space before ";"
        assert_eq!(wait("\"a\";r=0", Field::RateLimit), None);
        assert_eq!(wait("\"a\";r=0;t=-1", Field::RateLimit), None);
        assert_eq!(wait("\"a\";r=0;t=1.5", Field::RateLimit), None);
        assert_eq!(wait("\"a;r=0;t=1", Field::RateLimit), None);
        assert_eq!(wait("\"a\";r=0;t=1,", Field::RateLimit), None);
        assert_eq!(wait("", Field::RateLimit), None);
        assert_eq!(wait("\"a\";r=0;t=1 x", Field::RateLimit), None);
    }

    #[test]
    fn reset_fields() {
        assert_eq!(wait("7", Field::RateLimitReset), Some(7000.0));
        assert_eq!(wait(" 0 ", Field::RateLimitReset), Some(0.0));
        assert_eq!(wait("-1", Field::RateLimitReset), None);
        assert_eq!(wait("60", Field::XRateLimitReset), Some(60_000.0));
        assert_eq!(wait("999999999", Field::XRateLimitReset), Some(999_999_999_000.0));
        assert_eq!(wait("1800000005", Field::XRateLimitReset), Some(5000.0));
        assert_eq!(wait("1000000000", Field::XRateLimitReset), Some(0.0));
        assert_eq!(wait("1.5", Field::XRateLimitReset), None);
    }
}
