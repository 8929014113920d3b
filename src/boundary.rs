//! The numbers both sides of the wasm boundary share: type tags, result and
//! error slots, error classes, the layout of a compiled policy, draw-source
//! codes, growth and jitter codes, the order of the values an error blames,
//! option-list ids, Sigil's constants and buffer sizes. This file is their one
//! source: `src/bindings` uses them directly, and the JavaScript wrappers import
//! `js/boundary.ts`, which is generated from [`TABLE`] (`cargo run --example
//! boundary`, run by scripts/build.sh). The test `generated_file_is_current`
//! fails when the committed file and this table disagree.

/// Type tags of JS values, as `js/abi.ts` (`tag`) computes them.
pub mod tags {
    /// `undefined`.
    pub const UNDEFINED: u32 = 0;
    /// A number (the value travels alongside).
    pub const NUMBER: u32 = 1;
    /// A string (alongside: its parse result or code, per option).
    pub const STRING: u32 = 2;
    /// A boolean.
    pub const BOOLEAN: u32 = 3;
    /// `null`.
    pub const NULL: u32 = 4;
    /// A function.
    pub const FUNCTION: u32 = 5;
    /// An array (`Array.isArray`; a revoked Proxy counts as an object).
    pub const ARRAY: u32 = 6;
    /// Any other object.
    pub const OBJECT: u32 = 7;
    /// A symbol.
    pub const SYMBOL: u32 = 8;
    /// A bigint.
    pub const BIGINT: u32 = 9;
}

/// The result slots (`f64`) and where the last error is recorded in them.
pub mod slot {
    /// Number of `f64` result slots.
    pub const COUNT: usize = 24;
    /// Slot of the error class ([`super::kind`]).
    pub const ERR_KIND: usize = 8;
    /// Slots of the option name (pointer, byte length; ASCII).
    pub const ERR_OPTION: usize = 9;
    /// Slots of the expected text (pointer, byte length; ASCII; `{}` placeholders).
    pub const ERR_EXPECTED: usize = 11;
    /// Slot of the index of the value to blame among those the call was given.
    pub const ERR_ARG: usize = 13;
    /// Slot of an index appended to the option name (`steps[3]`), or -1.
    pub const ERR_INDEX: usize = 14;
    /// Slots of the numbers that fill the `{}` placeholders of the expected text.
    pub const ERR_NUMBERS: usize = 15;
}

/// Error classes recorded in [`slot::ERR_KIND`].
pub mod kind {
    /// `RangeError`.
    pub const RANGE: u32 = 0;
    /// `TypeError`.
    pub const TYPE: u32 = 1;
    /// `SigilError` (`code: "invalid_argument"`).
    pub const SIGIL: u32 = 2;
    /// Not an error: a keyed draw for an attempt whose text only JavaScript can
    /// write; the wrapper writes `String(attempt)` and calls `delay` again.
    pub const KEY_TEXT: u32 = 3;
}

/// The layout of a compiled policy (f64 slots of the wasm register and of the
/// JS object's record).
pub mod rec {
    /// Growth code ([`super::growth`]) or [`STEPPED`].
    pub const GROWTH: usize = 0;
    /// First wait, ms.
    pub const BASE: usize = 1;
    /// Exponential factor.
    pub const FACTOR: usize = 2;
    /// Ceiling before jitter (`max`), ms; Infinity when absent.
    pub const MAX: usize = 3;
    /// Hard bound after jitter (`cap`), ms; Infinity when absent.
    pub const CAP: usize = 4;
    /// Free attempts.
    pub const FREE: usize = 5;
    /// Jitter code ([`super::jitter`]).
    pub const JITTER: usize = 6;
    /// Jitter fraction (± and Sigil's subtract-only).
    pub const FRACTION: usize = 7;
    /// Source of draws ([`super::source`]).
    pub const SOURCE: usize = 8;
    /// Keyed draws: the four words of the unfinished hash of `"<seed> "` (slots 9..13).
    pub const KEY: usize = 9;
    /// `maxAttempts`, NaN when unbounded.
    pub const ATTEMPTS: usize = 13;
    /// Number of steps (0 for a curve).
    pub const STEPS: usize = 14;
    /// 1 for a Sigil policy (a bad draw is a SigilError), else 0.
    pub const SIGIL: usize = 15;
    /// Slots before the steps; step `i` is at `HEADER + i`.
    pub const HEADER: usize = 16;
    /// [`GROWTH`] of a stepped policy.
    pub const STEPPED: u32 = 3;
}

/// Where a policy's draws come from ([`rec::SOURCE`]).
pub mod source {
    /// A JavaScript `() => number` (draws in `[0, 1]`).
    pub const FUNCTION: u32 = 1;
    /// A JavaScript object's `float(min, max)` (draws in `[min, max]`).
    pub const FLOAT: u32 = 2;
    /// A JavaScript object's `next()` (draws in `[0, 1]`; the default system stream too).
    pub const NEXT: u32 = 3;
    /// The seeded stream loaded in wasm (`createRandom`, Sigil's `seededRandom`).
    pub const SEEDED: u32 = 4;
    /// Keyed draws from [`super::rec::KEY`]: a pure function of (seed, attempt).
    pub const KEYED: u32 = 5;
}

/// Growth codes (`core::curve::Growth::code`): the index in [`GROWTH_NAMES`].
pub mod growth {
    /// `base * factor^(n-1)`.
    pub const EXPONENTIAL: u32 = 0;
    /// `base * n`.
    pub const LINEAR: u32 = 1;
    /// `base`.
    pub const CONSTANT: u32 = 2;
}

/// The `growth` option's names, by code.
pub const GROWTH_NAMES: [&str; 3] = ["exponential", "linear", "constant"];

/// Jitter codes (`core::curve::Jitter::code`).
pub mod jitter {
    /// No jitter.
    pub const NONE: u32 = 0;
    /// Sigil's subtract-only fraction.
    pub const SUBTRACT: u32 = 1;
    /// `createBackoff`'s ± fraction.
    pub const SPREAD: u32 = 2;
    /// `"full"`: the first named kind ([`super::JITTER_NAMES`]`[code - FULL]`).
    pub const FULL: u32 = 3;
    /// `"equal"`.
    pub const EQUAL: u32 = 4;
    /// `"decorrelated"`.
    pub const DECORRELATED: u32 = 5;
}

/// The named jitter kinds, by `code - jitter::FULL`.
pub const JITTER_NAMES: [&str; 3] = ["full", "equal", "decorrelated"];

/// Indexes of the values a `createBackoff` compile error blames, in the order
/// the JS wrapper passes them.
pub mod arg {
    /// `base` (`interval` for the fluent policy).
    pub const BASE: u32 = 0;
    /// `steps`.
    pub const STEPS: u32 = 1;
    /// `growth`.
    pub const GROWTH: u32 = 2;
    /// `factor`.
    pub const FACTOR: u32 = 3;
    /// `max`, the ceiling before jitter.
    pub const MAX: u32 = 4;
    /// `free`.
    pub const FREE: u32 = 5;
    /// `jitter`.
    pub const JITTER: u32 = 6;
    /// `seed`.
    pub const SEED: u32 = 7;
    /// `maxAttempts`.
    pub const ATTEMPTS: u32 = 8;
    /// `cap`, the hard bound after jitter.
    pub const CAP: u32 = 9;
    /// `random`.
    pub const RANDOM: u32 = 10;
    /// The first option name that is not one.
    pub const NAME: u32 = 11;
    /// The value a draw returned (the errors of `delay`).
    pub const DRAW: u32 = 0;
}

/// Indexes of the values a `sigil` error blames, in the order the JS wrapper
/// passes them; 0 is the value a draw returned (the errors of `delay`).
pub mod sigil_arg {
    /// The value a draw returned.
    pub const DRAW: u32 = 0;
    /// `attempt` of `nextDelayMs`.
    pub const ATTEMPT: u32 = 1;
    /// The `options` argument itself.
    pub const OPTIONS: u32 = 2;
    /// `baseDelayMs`.
    pub const BASE: u32 = 3;
    /// `maxDelayMs`.
    pub const MAX: u32 = 4;
    /// `jitter`.
    pub const JITTER: u32 = 5;
    /// `random`.
    pub const RANDOM: u32 = 6;
    /// `seed`.
    pub const SEED: u32 = 7;
    /// `maxAttempts` of `retrySchedule`.
    pub const ATTEMPTS: u32 = 8;
    /// The first option name that is not one.
    pub const NAME: u32 = 9;
}

/// Option lists (`optionNames(surface)`).
pub mod surface {
    /// Sigil's options (SigilError).
    pub const SIGIL: u32 = 0;
    /// `createBackoff`'s options (TypeError).
    pub const BACKOFF: u32 = 1;
}

/// Code units of the static text buffer: shorter text is written without a call.
pub const TEXT_CAPACITY: usize = 256;

/// Doubles in the policy register: a header and up to `MAX_STEPS` steps.
pub const REGISTER_LEN: usize = rec::HEADER + crate::core::policy::MAX_STEPS;

/// Every shared number with its name in `js/boundary.ts` (the generator's input).
#[rustfmt::skip]
pub const TABLE: &[(&str, f64)] = &[
    ("TAG_UNDEFINED", tags::UNDEFINED as f64), ("TAG_NUMBER", tags::NUMBER as f64),
    ("TAG_STRING", tags::STRING as f64), ("TAG_BOOLEAN", tags::BOOLEAN as f64), ("TAG_NULL", tags::NULL as f64),
    ("TAG_FUNCTION", tags::FUNCTION as f64), ("TAG_ARRAY", tags::ARRAY as f64), ("TAG_OBJECT", tags::OBJECT as f64),
    ("TAG_SYMBOL", tags::SYMBOL as f64), ("TAG_BIGINT", tags::BIGINT as f64),
    ("SLOT_COUNT", slot::COUNT as f64), ("ERR_KIND", slot::ERR_KIND as f64), ("ERR_OPTION", slot::ERR_OPTION as f64),
    ("ERR_EXPECTED", slot::ERR_EXPECTED as f64), ("ERR_ARG", slot::ERR_ARG as f64),
    ("ERR_INDEX", slot::ERR_INDEX as f64), ("ERR_NUMBERS", slot::ERR_NUMBERS as f64),
    ("KIND_RANGE", kind::RANGE as f64), ("KIND_TYPE", kind::TYPE as f64), ("KIND_SIGIL", kind::SIGIL as f64),
    ("KIND_KEY_TEXT", kind::KEY_TEXT as f64),
    ("REC_GROWTH", rec::GROWTH as f64), ("REC_BASE", rec::BASE as f64), ("REC_FACTOR", rec::FACTOR as f64),
    ("REC_MAX", rec::MAX as f64), ("REC_CAP", rec::CAP as f64), ("REC_FREE", rec::FREE as f64),
    ("REC_JITTER", rec::JITTER as f64), ("REC_FRACTION", rec::FRACTION as f64), ("REC_SOURCE", rec::SOURCE as f64),
    ("REC_KEY", rec::KEY as f64), ("REC_ATTEMPTS", rec::ATTEMPTS as f64), ("REC_STEPS", rec::STEPS as f64),
    ("REC_SIGIL", rec::SIGIL as f64), ("REC_HEADER", rec::HEADER as f64), ("STEPPED", rec::STEPPED as f64),
    ("SOURCE_FUNCTION", source::FUNCTION as f64), ("SOURCE_FLOAT", source::FLOAT as f64),
    ("SOURCE_NEXT", source::NEXT as f64), ("SOURCE_SEEDED", source::SEEDED as f64),
    ("SOURCE_KEYED", source::KEYED as f64),
    ("JITTER_FULL", jitter::FULL as f64), ("JITTER_SUBTRACT", jitter::SUBTRACT as f64),
    ("SIGIL_ARG_DRAW", sigil_arg::DRAW as f64),
    ("SURFACE_SIGIL", surface::SIGIL as f64), ("SURFACE_BACKOFF", surface::BACKOFF as f64),
    ("TEXT_CAPACITY", TEXT_CAPACITY as f64), ("REGISTER_LEN", REGISTER_LEN as f64),
    ("SIGIL_MAX_ATTEMPTS", crate::core::SIGIL_MAX_ATTEMPTS as f64),
    ("SIGIL_BASE_DELAY_MS", crate::core::SIGIL_BASE_DELAY_MS),
    ("SIGIL_MAX_DELAY_MS", crate::core::SIGIL_MAX_DELAY_MS),
    ("MAX_STEPS", crate::core::policy::MAX_STEPS as f64),
];

/// The text of `js/boundary.ts`: every [`TABLE`] entry, and the growth and
/// jitter names, as TypeScript constants.
#[cfg(not(target_arch = "wasm32"))]
pub fn typescript() -> String {
    let mut out = String::from(
        "// Generated from src/boundary.rs by `cargo run --example boundary` (scripts/build.sh); do not edit.\n\
         // The numbers both sides of the wasm boundary share; the Rust test\n\
         // `boundary::tests::generated_file_is_current` fails when this file and that table disagree.\n",
    );
    for (name, value) in TABLE {
        out.push_str(&format!("export const {name} = {value};\n"));
    }
    let list = |names: &[&str]| names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ");
    out.push_str(&format!("export const GROWTH_NAMES = [{}] as const;\n", list(&GROWTH_NAMES)));
    out.push_str(&format!("export const JITTER_NAMES = [{}] as const;\n", list(&JITTER_NAMES)));
    out
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::curve::{Growth, Jitter};

    #[test]
    fn generated_file_is_current() {
        let committed = include_str!("../js/boundary.ts");
        assert!(
            committed == typescript(),
            "js/boundary.ts is stale: run `cargo run --example boundary > js/boundary.ts` (scripts/build.sh does)"
        );
    }

    #[test]
    fn codes_agree_with_the_core() {
        for (i, g) in [Growth::Exponential, Growth::Linear, Growth::Constant].into_iter().enumerate() {
            assert_eq!(g.code() as usize, i);
        }
        assert_eq!(Jitter::Full.code(), jitter::FULL);
        assert_eq!(Jitter::Equal.code(), jitter::EQUAL);
        assert_eq!(Jitter::Decorrelated.code(), jitter::DECORRELATED);
        assert_eq!(Jitter::Subtract(0.5).code(), jitter::SUBTRACT);
        assert_eq!(Jitter::Spread(0.5).code(), jitter::SPREAD);
        assert_eq!(Jitter::None.code(), jitter::NONE);
    }
}
