//! Every option name and expected wording of an error, as one string ([`ALL`])
//! and where each starts and ends in it ([`EDGES`]), by id ([`T`]): `core::check`'s wordings
//! are slices of it ([`text`]), and the wasm boundary names an error with ids, so
//! a check there costs one constant, and each wording a two-byte edge, instead
//! of an address and a length at every check and in every table.

/// Defines [`T`], [`ALL`] and [`EDGES`] from a list of `id = "wording"` rows.
macro_rules! texts {
    ($($(#[$doc:meta])* $id:ident = $text:literal,)*) => {
        /// The ids of the option names and expected wordings of errors ([`text`]).
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        #[repr(u32)]
        pub enum T {
            $($(#[$doc])* $id,)*
        }
        /// Every wording, one after another, in the order of [`T`].
        pub const ALL: &str = concat!($($text,)*);
        /// Where each wording starts in [`ALL`], and then where the last one ends:
        /// wording `i` is `ALL[EDGES[i]..EDGES[i + 1]]`.
        pub static EDGES: [u16; [$(T::$id),*].len() + 1] = {
            let lens = [$($text.len(),)*];
            let mut edges = [0u16; [$(T::$id),*].len() + 1];
            let (mut i, mut at) = (0, 0);
            while i < lens.len() {
                at += lens[i];
                assert!(at <= u16::MAX as usize);
                edges[i + 1] = at as u16;
                i += 1;
            }
            edges
        };
    };
}

/// Wording `t`: its slice of [`ALL`].
pub const fn text(t: T) -> &'static str {
    text_at(t as usize)
}

/// Wording `i` (`""` for an id out of range).
pub const fn text_at(i: usize) -> &'static str {
    let (start, end) = span(i);
    ALL.split_at(end).0.split_at(start).1
}

/// Where wording `i` starts and ends in [`ALL`] (`(0, 0)` for an id out of range).
pub const fn span(i: usize) -> (usize, usize) {
    if i + 1 >= EDGES.len() {
        return (0, 0);
    }
    (EDGES[i] as usize, EDGES[i + 1] as usize)
}

texts! {
    /// `"an option name"` (an unknown option).
    OptionName = "an option name",
    /// `"interval"`.
    Interval = "interval",
    /// `"base"`.
    Base = "base",
    /// `"growth"`.
    Growth = "growth",
    /// `"factor"`.
    Factor = "factor",
    /// `"max"`.
    Max = "max",
    /// `"cap"`.
    Cap = "cap",
    /// `"steps"`.
    Steps = "steps",
    /// `"free"`.
    Free = "free",
    /// `"jitter"`.
    Jitter = "jitter",
    /// `"seed"`.
    Seed = "seed",
    /// `"maxAttempts"`.
    MaxAttempts = "maxAttempts",
    /// `"random"`.
    Random = "random",
    /// `"attempt"`.
    Attempt = "attempt",
    /// `"options"`.
    Options = "options",
    /// `"baseDelayMs"`.
    BaseDelayMs = "baseDelayMs",
    /// `"maxDelayMs"`.
    MaxDelayMs = "maxDelayMs",
    /// `"state.seed"`.
    StateSeed = "state.seed",
    /// `"items"`.
    Items = "items",
    /// `"items.length"`.
    ItemsLength = "items.length",
    /// `"state.words"`.
    StateWords = "state.words",
    /// `"state.words.length"`.
    StateWordsLength = "state.words.length",
    /// `"min"`.
    Min = "min",
    /// `check::ATTEMPT_NUMBER` (also the check `bindings::holds` runs).
    AttemptNumber = "an integer >= 1",
    /// `check::SCHEDULE_ATTEMPTS` (and its check).
    ScheduleAttempts = "an integer from 1 to 1000001 for a whole schedule (iterate the policy for longer ones)",
    /// `check::DECORRELATED_SCHEDULE_ATTEMPTS` (and its check).
    DecorrelatedScheduleAttempts = "an integer from 1 to 1001 for a whole decorrelated schedule (iterate the policy for longer ones)",
    /// `check::NON_NEGATIVE` (and its check).
    NonNegative = "a non-negative number",
    /// `check::SIGIL_JITTER` (and its check).
    SigilJitter = "0 (no jitter) or a number in (0, 1]",
    /// `check::UNIT_DRAW`.
    UnitDraw = "a function returning numbers in [0, 1]",
    /// `check::FACTOR` (and its check).
    FactorExpected = "a finite number >= 1",
    /// `check::FREE` (and its check).
    FreeExpected = "a non-negative safe integer",
    /// `check::DELAY_MS` (and its check).
    DelayMs = "a non-negative finite duration (ms, or text such as \"5 seconds\")",
    /// `check::CEILING`.
    Ceiling = "a duration >= base",
    /// `"a finite number"` (and `is_finite`, the check of `float`'s bounds).
    Finite = "a finite number",
    /// `createBackoff`'s option names (the expected wording of an unknown one).
    BackoffNames = "one of base, growth, factor, max, cap, steps, free, jitter, random, seed, maxAttempts",
    /// Sigil's option names (the expected wording of an unknown one).
    SigilNames = "one of baseDelayMs, maxDelayMs, jitter, random, seed, maxAttempts",
    /// `createBackoff`'s `jitter`.
    JitterExpected = "a number in [0, 1], \"full\", \"equal\" or \"decorrelated\"",
    /// A raw draw of a `createBackoff` source.
    UnitDrawSource = "a source of draws in [0, 1]",
    /// A `float(min, max)` draw out of its range (two numbers).
    FloatDraw = "a source whose float({}, {}) stays in that range",
    /// `createBackoff`'s `random`.
    RandomExpected = "a Random (with float(min, max) or next()) or a function returning draws in [0, 1]",
    /// `steps` and its length.
    StepsExpected = "a non-empty array of at most 1000 durations",
    /// A curve option together with `steps`.
    LeftOutWithSteps = "left out when steps are given (steps and curve options exclude each other)",
    /// A missing `base`.
    GivenOrSteps = "given (or steps instead)",
    /// `growth`.
    GrowthNames = "\"exponential\", \"linear\" or \"constant\"",
    /// `factor` with another growth.
    FactorUnlessExponential = "left out unless growth is \"exponential\"",
    /// Decorrelated jitter with steps.
    DecorrelatedSteps = "a kind other than \"decorrelated\" with steps (decorrelated needs a base and a cap)",
    /// Decorrelated jitter without a bound.
    DecorrelatedCap = "set for \"decorrelated\" jitter (it needs a cap)",
    /// `seed`: a string or a number.
    SeedExpected = "a string or a number",
    /// `seed` together with `random`.
    SeedAndRandom = "left out when random is given: seed makes each draw a pure function of (seed, attempt), random is a stream; keep one",
    /// Sigil's `options`.
    ObjectOrUndefined = "an object or undefined",
    /// A stored snapshot's `state.seed`.
    FiniteSeed = "a string or a finite number",
    /// `items`.
    AnArray = "an array",
    /// `pick`'s empty `items`.
    NonEmptyArray = "a non-empty array",
    /// `items.length` (two numbers).
    IntegerFromTo = "an integer from {} to {}",
    /// `state.words`.
    WordsExpected = "an array of four unsigned 32-bit integers",
    /// `state.words.length`.
    Four = "4",
    /// `state.words[i]`.
    UnsignedWord = "an unsigned 32-bit integer",
    /// `int`'s bounds.
    SafeInteger = "a safe integer",
    /// `int`'s `max` below `min`.
    IntegerAtLeastMin = "an integer >= min",
    /// The native API's jitter without a source of draws (it has no default one).
    JitterNeedsSource = "given with a seed or a random stream (the Rust API has no default source)",
}

/// The wordings a call of `backoff-wasm/sigil` can record: its option checks
/// (`bindings::sigil`), a bad draw of its `random`, `seed` together with `random`, and
/// `seededRandom`'s seed check. That entry point's JavaScript carries only these
/// (`SIGIL_WORDING` in js/engine/boundary.ts), not every wording.
pub const SIGIL: [T; 18] = [
    T::Attempt,
    T::AttemptNumber,
    T::Options,
    T::ObjectOrUndefined,
    T::OptionName,
    T::SigilNames,
    T::BaseDelayMs,
    T::MaxDelayMs,
    T::NonNegative,
    T::Jitter,
    T::SigilJitter,
    T::Random,
    T::UnitDraw,
    T::Seed,
    T::SeedExpected,
    T::SeedAndRandom,
    T::MaxAttempts,
    T::ScheduleAttempts,
];

/// The wordings a `createBackoff` or `Backoff` call can record: its option checks
/// (`core::options`, on top of `core::check`), a bad draw of its `random` (`bindings::backoff`)
/// and a whole schedule's attempts. That entry point's JavaScript carries only these
/// (`BACKOFF_WORDING` in js/engine/boundary.ts; the others are `OTHER_WORDING`).
pub const BACKOFF: [T; 38] = [
    T::AttemptNumber,
    T::BackoffNames,
    T::Base,
    T::Cap,
    T::Ceiling,
    T::DecorrelatedCap,
    T::DecorrelatedScheduleAttempts,
    T::DecorrelatedSteps,
    T::DelayMs,
    T::Factor,
    T::FactorExpected,
    T::FactorUnlessExponential,
    T::Finite,
    T::FloatDraw,
    T::Free,
    T::FreeExpected,
    T::GivenOrSteps,
    T::Growth,
    T::GrowthNames,
    T::Interval,
    T::Jitter,
    T::JitterExpected,
    T::LeftOutWithSteps,
    T::Max,
    T::MaxAttempts,
    T::NonNegative,
    T::OptionName,
    T::Random,
    T::RandomExpected,
    T::ScheduleAttempts,
    T::Seed,
    T::SeedAndRandom,
    T::SeedExpected,
    T::SigilJitter,
    T::Steps,
    T::StepsExpected,
    T::UnitDraw,
    T::UnitDrawSource,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Every wording `bindings::sigil` names is in [`SIGIL`].
    #[test]
    fn sigil_wordings_cover_its_checks() {
        let source = include_str!("../bindings/sigil.rs");
        let named: Vec<&str> =
            source.split("T::").skip(1).map(|s| s.split(|c: char| !c.is_alphanumeric()).next().unwrap()).collect();
        assert!(named.len() > 10);
        let listed: Vec<String> = SIGIL.iter().map(|t| format!("{t:?}")).collect();
        for n in named {
            assert!(listed.iter().any(|l| l == n), "{n} is named in bindings/sigil.rs but not in wording::SIGIL");
        }
    }

    /// Every wording the checks a Backoff call runs name is in [`BACKOFF`].
    #[test]
    fn backoff_wordings_cover_its_checks() {
        let sources = [include_str!("options.rs"), include_str!("check.rs"), include_str!("../bindings/backoff.rs")];
        let listed: Vec<String> = BACKOFF.iter().map(|t| format!("{t:?}")).collect();
        for source in sources {
            let named = source.split("T::").skip(1).map(|s| s.split(|c: char| !c.is_alphanumeric()).next().unwrap());
            for n in named {
                assert!(listed.iter().any(|l| l == n), "{n} is named by a Backoff check but not in wording::BACKOFF");
            }
        }
    }

    #[test]
    fn slices() {
        assert_eq!(text(T::OptionName), "an option name");
        assert_eq!(text(T::Interval), "interval");
        assert_eq!(text(T::IntegerAtLeastMin), "an integer >= min");
        assert_eq!(span(EDGES.len() - 1), (0, 0));
        assert_eq!(EDGES[EDGES.len() - 1] as usize, ALL.len());
    }
}
