//! Fuzz target: `Retry-After` values (RFC 9110 §10.2.3) and HTTP-dates, parsed
//! by `core::http_date`'s own matcher. Checks: it never panics; a result is
//! `None` or a wait that is not NaN and not negative; the UTF-16 path (what the
//! wasm export reads) agrees with the `&str` path; and an IMF-fixdate or asctime
//! date that the httpdate crate accepts (the oracle) gives exactly its time.
#![no_main]

use backoff_wasm::core::http_date::{retry_after_ms, retry_after_units};
use libfuzzer_sys::fuzz_target;

/// 2026-11-29T00:00:00Z, ms since the epoch.
const NOW: f64 = 1_795_910_400_000.0;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let got = retry_after_ms(text, NOW);
    assert!(got.is_none_or(|ms| ms >= 0.0), "{text:?}: {got:?}");
    let units: Vec<u16> = text.encode_utf16().collect();
    assert_eq!(retry_after_units(&units, NOW).map(f64::to_bits), got.map(f64::to_bits), "{text:?}");
    // The oracle, where both read the same text: no RFC 850 date (their two-digit
    // year windows differ), and no surrounding whitespace other than SP/HTAB (httpdate
    // trims Unicode whitespace, Retry-After only optional whitespace).
    if text.contains('-') || text.trim() != text.trim_matches([' ', '\t']) {
        return;
    }
    if let Ok(t) = httpdate::parse_http_date(text.trim())
        && let Ok(d) = t.duration_since(std::time::UNIX_EPOCH)
    {
        let want = (d.as_secs() as f64 * 1000.0 - NOW).max(0.0);
        assert_eq!(got, Some(want), "{text:?}");
    }
});
