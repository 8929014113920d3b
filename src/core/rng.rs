//! The seeded generator of `@sdxc/random` (docs/API.md section 3): a string-seed hash
//! over UTF-16 code units followed by sfc32 with no warm-up.
//!
//! Sources: sfc32 is Chris Doty-Humphrey's "Small Fast Chaotic" generator
//! (PractRand); the seed hash is a cyrb128 variant whose constants and final
//! state layout are fixed by docs/API.md section 3 (not textbook cyrb128: the state
//! words are xored with the final `a`, with no re-mixing pass).

/// Anything that yields uniform draws in `[0, 1)`.
///
/// `float` is the scaling every surface uses: `min + next() * (max - min)`
/// (docs/API.md sections 2 and 3). Implementors may override it (a JavaScript
/// object's own `float(min, max)` is called as is).
pub trait Draw {
    /// A uniform draw in `[0, 1)`.
    fn next(&mut self) -> f64;
    /// A draw in `[min, max)`: `min + next() * (max - min)`.
    fn float(&mut self, min: f64, max: f64) -> f64 {
        scale(min, max, self.next())
    }
}

/// `min + r * (max - min)`: the one scaling formula of `Random.float` and of ± jitter.
#[inline]
pub fn scale(min: f64, max: f64, r: f64) -> f64 {
    min + r * (max - min)
}

/// `min + floor(r * (max - min + 1))`: `Random.int`, both ends included.
/// Bounds are validated by the caller (safe integers, `max >= min`).
#[inline]
pub fn int_between(min: f64, max: f64, r: f64) -> f64 {
    min + (r * (max - min + 1.0)).floor()
}

/// The seed hash of docs/API.md section 3, incremental: feed code units with
/// [`SeedHash::update`], then [`SeedHash::finish`]. An unfinished hash is a
/// cheap prefix: keyed jitter hashes `"<seed> "` once and continues it with
/// each attempt's digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedHash {
    h: [u32; 4],
}

impl Default for SeedHash {
    fn default() -> Self {
        SeedHash::new()
    }
}

impl SeedHash {
    /// The initial state `a=1779033703, b=3144134277, c=1013904242, d=2773480762`.
    pub fn new() -> Self {
        SeedHash { h: [1_779_033_703, 3_144_134_277, 1_013_904_242, 2_773_480_762] }
    }

    /// Resumes a hash from its four words (see [`SeedHash::words`]).
    pub fn from_words(h: [u32; 4]) -> Self {
        SeedHash { h }
    }

    /// The unfinished state.
    pub fn words(&self) -> [u32; 4] {
        self.h
    }

    /// Mixes in UTF-16 code units; each line uses the values assigned above it.
    pub fn update<I: IntoIterator<Item = u16>>(mut self, units: I) -> Self {
        let [mut a, mut b, mut c, mut d] = self.h;
        for unit in units {
            let k = u32::from(unit);
            a = b ^ (a ^ k).wrapping_mul(597_399_067);
            b = c ^ (b ^ k).wrapping_mul(2_869_860_233);
            c = d ^ (c ^ k).wrapping_mul(951_274_213);
            d = a ^ (d ^ k).wrapping_mul(2_716_044_179);
        }
        self.h = [a, b, c, d];
        self
    }

    /// [`SeedHash::update`] over a slice of code units: one shared copy of the
    /// loop for every caller (the wasm build stays small).
    #[inline(never)]
    pub fn update_units(self, units: &[u16]) -> Self {
        self.update(units.iter().copied())
    }

    /// The final mix and the sfc32 state `[a^b^c^d, b^a, c^a, d^a]` (one
    /// shared copy for every caller).
    #[inline(never)]
    pub fn finish(self) -> [u32; 4] {
        let [mut a, mut b, mut c, mut d] = self.h;
        a = (c ^ (a >> 18)).wrapping_mul(597_399_067);
        b = (d ^ (b >> 22)).wrapping_mul(2_869_860_233);
        c = (a ^ (c >> 17)).wrapping_mul(951_274_213);
        d = (b ^ (d >> 19)).wrapping_mul(2_716_044_179);
        [a ^ b ^ c ^ d, b ^ a, c ^ a, d ^ a]
    }
}

/// Hashes a seed's UTF-16 code units into the four sfc32 state words.
///
/// `units` must be the code units of `String(seed)` exactly as JavaScript
/// stores them (lone surrogates included); never re-encode as UTF-8.
pub fn seed_words<I: IntoIterator<Item = u16>>(units: I) -> [u32; 4] {
    SeedHash::new().update(units).finish()
}

/// 2^54. Below it consecutive doubles are at most 2 apart, so an integer's
/// exact decimal digits are JavaScript's `String(n)` (the shortest digits that
/// round-trip, ECMA-262 Number::toString: a shorter text would end in zeros,
/// an even distance of at least 2 from `n`, which names another double). From
/// 2^54 they can differ: `String(2 ** 60)` is `"1152921504606847000"`, while
/// 2^60 is 1152921504606846976.
const EXACT_TEXT_LIMIT: f64 = 18_014_398_509_481_984.0;

/// The decimal text JavaScript writes for `n` (`String(n)`) when `n` is an
/// integer with `|n| < 2^54` (`-0` is `"0"`); `None` for any other number,
/// whose text the caller must get from JavaScript itself. Written as bytes or
/// as UTF-16 code units (what [`Keyed::draw`] hashes).
pub fn js_integer_text<T: Copy + From<u8>>(n: f64, buf: &mut [T; 24]) -> Option<&[T]> {
    // NaN: `NaN != NaN`.
    if n.abs() >= EXACT_TEXT_LIMIT || n.trunc() != n {
        return None;
    }
    // At most 17 digits and a sign, written from the end of `buf`.
    let mut v = n.abs() as u64;
    let mut start = buf.len();
    for slot in buf.iter_mut().rev() {
        *slot = T::from(b'0' + (v % 10) as u8);
        v /= 10;
        start -= 1;
        if v == 0 {
            break;
        }
    }
    if n < 0.0 {
        start -= 1;
        *buf.get_mut(start)? = T::from(b'-');
    }
    buf.get(start..)
}

/// The keyed draw (the `seed` option): the first `next()` of the stream seeded with
/// `"<seed> <n>"`. `prefix` is the unfinished hash of `"<seed> "`, `n_text`
/// the UTF-16 code units of `String(n)`.
pub fn keyed_draw<I: IntoIterator<Item = u16>>(prefix: SeedHash, n_text: I) -> f64 {
    Sfc32::from_words(prefix.update(n_text).finish()).next()
}

/// The unfinished hash of `"<seed> "` for keyed draws.
pub fn key_prefix<I: IntoIterator<Item = u16>>(seed: I) -> SeedHash {
    SeedHash::new().update(seed).update([u16::from(b' ')])
}

/// Keyed draws for integer keys: `draw(k)` = [`keyed_draw`] of `String(k)`.
/// Non-integer or huge keys fall back to `fallback(k)` (JavaScript's own text).
pub struct Keyed {
    pub prefix: SeedHash,
}

impl Keyed {
    /// The draw for key `n`; `None` when `n` is not an integer below 2^54.
    pub fn draw(&self, n: f64) -> Option<f64> {
        let mut buf = [0u16; 24];
        let units = js_integer_text(n, &mut buf)?;
        Some(Sfc32::from_words(self.prefix.update_units(units).finish()).next())
    }
}

/// The sfc32 generator: four 32-bit words of state, no warm-up. Laid out as
/// exactly those words, in order (the wasm wrapper reads and writes the loaded
/// stream's state in memory, src/bindings/random.rs `stream_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct Sfc32 {
    words: [u32; 4],
}

impl Sfc32 {
    /// A generator resuming from `words` (as returned by [`Sfc32::words`]).
    pub const fn from_words(words: [u32; 4]) -> Self {
        Sfc32 { words }
    }

    /// The generator for a seed given as UTF-16 code units.
    pub fn from_seed<I: IntoIterator<Item = u16>>(units: I) -> Self {
        Sfc32::from_words(seed_words(units))
    }

    /// The generator for a Rust string seed (its UTF-16 encoding).
    pub fn from_str_seed(seed: &str) -> Self {
        Sfc32::from_seed(seed.encode_utf16())
    }

    /// The current state, for `state()`/`restoreRandom`.
    pub fn words(&self) -> [u32; 4] {
        self.words
    }

    /// The next raw 32-bit output (`floor(next() * 2^32)`).
    pub fn next_u32(&mut self) -> u32 {
        let [a, b, c, d] = self.words;
        let sum = a.wrapping_add(b).wrapping_add(d);
        let c2 = c.wrapping_add(c << 3);
        let c3 = c.rotate_left(21);
        self.words = [b ^ (b >> 9), c2, c3.wrapping_add(sum), d.wrapping_add(1)];
        sum
    }
}

impl Draw for Sfc32 {
    /// `next_u32() / 2^32`, in `[0, 1)`. One copy in the wasm, which the seeded stream's
    /// draws, keyed draws and `streamNext` share.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn next(&mut self) -> f64 {
        f64::from(self.next_u32()) / 4_294_967_296.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(seed: &str, n: usize) -> Vec<u32> {
        let mut g = Sfc32::from_str_seed(seed);
        (0..n).map(|_| g.next_u32()).collect()
    }

    #[test]
    fn pinned_raw_words() {
        assert_eq!(raw("42", 6), [3833195492, 3563769608, 4061610985, 767254976, 3389111029, 3727552234]);
        assert_eq!(raw("signup-suite", 6), [1665886051, 3924901832, 1861224746, 2455819951, 2930940383, 493917030]);
        assert_eq!(raw("", 6), [3075608207, 1941113166, 1250698130, 1973185690, 24547140, 1714710821]);
    }

    #[test]
    fn pinned_int_draws() {
        let mut g = Sfc32::from_str_seed("42");
        let got: Vec<f64> = (0..8).map(|_| int_between(0.0, 999.0, g.next())).collect();
        assert_eq!(got, [892.0, 829.0, 945.0, 178.0, 789.0, 867.0, 759.0, 526.0]);
    }

    #[test]
    fn next_is_raw_word_over_two_to_the_32() {
        let mut a = Sfc32::from_str_seed("x");
        let mut b = a;
        for _ in 0..100 {
            let r = a.next();
            assert!((0.0..1.0).contains(&r));
            assert_eq!((r * 4_294_967_296.0) as u32, b.next_u32());
        }
    }

    #[test]
    fn state_round_trip_resumes_exactly() {
        let mut g = Sfc32::from_str_seed("resume");
        g.next_u32();
        let mut h = Sfc32::from_words(g.words());
        assert_eq!(g.next_u32(), h.next_u32());
    }

    #[test]
    fn keyed_draw_is_the_first_draw_of_seed_space_n() {
        let k = Keyed { prefix: key_prefix("job-7".encode_utf16()) };
        for n in [1.0, 5.0, 1000.0, 9_007_199_254_740_991.0, -3.0] {
            let mut buf = [0u8; 24];
            let text = core::str::from_utf8(js_integer_text(n, &mut buf).unwrap()).unwrap().to_owned();
            let expected = Sfc32::from_str_seed(&["job-7 ", &text].concat()).next();
            assert_eq!(k.draw(n), Some(expected));
        }
        assert_eq!(k.draw(2.5), None);
        assert_eq!(k.draw(1e21), None);
        assert_eq!(k.draw(EXACT_TEXT_LIMIT), None);
    }

    #[test]
    fn integer_text_is_javascripts() {
        let mut buf = [0u8; 24];
        assert_eq!(js_integer_text(-0.0, &mut buf), Some(&b"0"[..]));
        assert_eq!(js_integer_text(-42.0, &mut buf), Some(&b"-42"[..]));
        assert_eq!(js_integer_text(f64::NAN, &mut buf), None);
        assert_eq!(js_integer_text(-18_014_398_509_481_982.0, &mut buf), Some(&b"-18014398509481982"[..]));
        // From 2^54 JavaScript's shortest digits may not be the exact value
        // (String(2 ** 60) is "1152921504606847000"): JavaScript writes those.
        for n in [EXACT_TEXT_LIMIT, -EXACT_TEXT_LIMIT, 1_152_921_504_606_846_976.0, 1e20, 2.5, f64::INFINITY] {
            assert_eq!(js_integer_text(n, &mut buf), None, "{n}");
        }
        for n in [0.0, 7.0, -1.0, 9_007_199_254_740_993.0, 9_007_199_254_740_994.0, 18_014_398_509_481_982.0] {
            let text = core::str::from_utf8(js_integer_text(n, &mut buf).unwrap()).unwrap().to_owned();
            assert_eq!(text, format!("{n:.0}"), "{n}");
        }
    }

    #[test]
    fn lone_surrogates_hash_as_code_units() {
        // A lone surrogate cannot be a Rust &str; the u16 path must accept it and
        // differ from the replacement character.
        let lone = Sfc32::from_seed([0xD800u16]).next_u32();
        let replaced = Sfc32::from_str_seed("\u{FFFD}").next_u32();
        assert_ne!(lone, replaced);
    }
}
