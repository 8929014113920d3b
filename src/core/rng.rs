//! The seeded generator of `@sdxc/random` (API.md section 3): a string-seed hash
//! over UTF-16 code units followed by sfc32 with no warm-up.
//!
//! Sources: sfc32 is Chris Doty-Humphrey's "Small Fast Chaotic" generator
//! (PractRand); the seed hash is a cyrb128 variant whose constants and final
//! state layout are fixed by API.md section 3 (not textbook cyrb128: the state
//! words are xored with the final `a`, with no re-mixing pass).

/// Anything that yields uniform draws in `[0, 1)`.
///
/// `float` is the scaling every surface uses: `min + next() * (max - min)`
/// (API.md sections 2 and 3). Implementors may override it (a JavaScript
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

/// Hashes a seed's UTF-16 code units into the four sfc32 state words.
///
/// `units` must be the code units of `String(seed)` exactly as JavaScript
/// stores them (lone surrogates included); never re-encode as UTF-8.
pub fn seed_words<I: IntoIterator<Item = u16>>(units: I) -> [u32; 4] {
    let (mut a, mut b, mut c, mut d): (u32, u32, u32, u32) =
        (1_779_033_703, 3_144_134_277, 1_013_904_242, 2_773_480_762);
    for unit in units {
        let k = u32::from(unit);
        a = b ^ (a ^ k).wrapping_mul(597_399_067);
        b = c ^ (b ^ k).wrapping_mul(2_869_860_233);
        c = d ^ (c ^ k).wrapping_mul(951_274_213);
        d = a ^ (d ^ k).wrapping_mul(2_716_044_179);
    }
    a = (c ^ (a >> 18)).wrapping_mul(597_399_067);
    b = (d ^ (b >> 22)).wrapping_mul(2_869_860_233);
    c = (a ^ (c >> 17)).wrapping_mul(951_274_213);
    d = (b ^ (d >> 19)).wrapping_mul(2_716_044_179);
    [a ^ b ^ c ^ d, b ^ a, c ^ a, d ^ a]
}

/// The sfc32 generator: four 32-bit words of state, no warm-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
        let c3 = (c << 21) | (c >> 11);
        self.words = [b ^ (b >> 9), c2, c3.wrapping_add(sum), d.wrapping_add(1)];
        sum
    }
}

impl Draw for Sfc32 {
    /// `next_u32() / 2^32`, in `[0, 1)`.
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
        assert_eq!(
            raw("signup-suite", 6),
            [1665886051, 3924901832, 1861224746, 2455819951, 2930940383, 493917030]
        );
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
    fn lone_surrogates_hash_as_code_units() {
        // A lone surrogate cannot be a Rust &str; the u16 path must accept it and
        // differ from the replacement character.
        let lone = Sfc32::from_seed([0xD800u16]).next_u32();
        let replaced = Sfc32::from_str_seed("\u{FFFD}").next_u32();
        assert_ne!(lone, replaced);
    }
}
