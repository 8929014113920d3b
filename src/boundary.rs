//! The numbers both sides of the wasm boundary share: type tags, result and
//! error slots, error classes, the layout of a compiled policy, draw-source
//! codes, growth and jitter codes, the order of the values an error blames,
//! the fields every option-reading call takes (name, how it crosses, order, the
//! index an error blames: [`BACKOFF_FIELDS`], [`SIGIL_FIELDS`]), the modes of
//! `checkSeed` and `checkItems`, option-list ids, Sigil's constants and buffer
//! sizes. This file is their one source: `src/bindings` uses them directly, and
//! the JavaScript wrappers import `js/engine/boundary.ts`, generated from this module
//! ([`typescript`]). The committed file is checked, never rewritten by the
//! build: the test `generated_file_is_current` (run by scripts/build.sh and by
//! `cargo test`) fails when it differs, naming the command that regenerates it.

/// Type tags of JS values, as `js/engine/abi.ts` (`tag`) computes them.
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
    /// Number of `f64` slots: results, the last error, then the input slots.
    pub const COUNT: usize = INPUT + 2 * INPUTS;
    /// Slot of the error class ([`super::kind`]).
    pub const ERR_KIND: usize = 8;
    /// Slot of the option name: its wording id (`core::wording::T`, `BACKOFF_WORDING`/`OTHER_WORDING` in js/engine/boundary.ts).
    pub const ERR_OPTION: usize = 9;
    /// Slot of the expected text: its wording id (`{}` placeholders in the text).
    pub const ERR_EXPECTED: usize = 10;
    /// Slot of the index of the value to blame among those the call was given.
    pub const ERR_ARG: usize = 11;
    /// Slot of an index appended to the option name (`steps[3]`), or -1.
    pub const ERR_INDEX: usize = 12;
    /// Slots of the numbers that fill the `{}` placeholders of the expected text.
    pub const ERR_NUMBERS: usize = 13;
    /// First input slot: field `i` of a call's table ([`super::Field`]) is at
    /// `INPUT + 2 * i` (its type tag) and `INPUT + 2 * i + 1` (its number).
    pub const INPUT: usize = 24;
    /// Fields of the longest table.
    pub const INPUTS: usize = 12;
    const _: () = assert!(super::arg::COUNT <= INPUTS && super::sigil_arg::COUNT <= INPUTS);
    // An error records the blamed field's index in four bits (`bindings::spec`).
    const _: () = assert!(INPUTS <= 16);
}

/// Error classes recorded in [`slot::ERR_KIND`].
pub mod kind {
    use crate::core::options::Kind;
    /// `RangeError`.
    pub const RANGE: u32 = Kind::Range as u32;
    /// `TypeError`.
    pub const TYPE: u32 = Kind::Type as u32;
    /// `SigilError` (`code: "invalid_argument"`).
    pub const SIGIL: u32 = Kind::Sigil as u32;
    /// Not an error: a keyed draw for an attempt whose text only JavaScript can
    /// write; the wrapper writes `String(attempt)` and calls `delay` again.
    pub const KEY_TEXT: u32 = 3;
}

/// The layout of a compiled policy (f64 slots of the policy area and of the
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

/// How a field's value crosses: the JS wrapper writes its type tag ([`tags`])
/// into the field's first input slot and, into the second, the number named
/// here (`js/engine/abi.ts`, `put`).
pub mod via {
    /// Nothing is written: a value only an error blames (a draw's result).
    pub const NONE: u32 = 0;
    /// The number itself, NaN for a non-number.
    pub const NUMBER: u32 = 1;
    /// A `DurationInput`: a string's parse result (NaN when it is not a
    /// duration), a number itself, else NaN.
    pub const DURATION: u32 = 2;
    /// `growth`: its index in [`super::GROWTH_NAMES`], -1 for another string.
    pub const GROWTH: u32 = 3;
    /// `jitter`: a number itself; a string its code (its index in
    /// [`super::JITTER_NAMES`] plus [`super::jitter::FULL`]), -1 for another string.
    pub const JITTER: u32 = 4;
    /// A seed: `String(value)` (a string or number) written into the text
    /// buffer; the number is its length in UTF-16 code units.
    pub const TEXT: u32 = 5;
    /// `createBackoff`'s `random`: -1 for a seeded stream of this package, else
    /// the tag of its `float` property times 16 plus the tag of its `next`
    /// (read only when `float` is not a function); 0 when it is not an object
    /// or reading them threw.
    pub const SOURCE: u32 = 6;
    /// Sigil's `random`: 1 for a `seededRandom` function (whose stream the
    /// wrapper loaded), else 0.
    pub const SEEDED: u32 = 7;
    /// The tag alone (the number is NaN).
    pub const TAG: u32 = 8;
}

/// One value a call reads from the input slots: its JS name (an option's key,
/// or what the value is), how it crosses ([`via`]), and, by its place in its
/// table, its index: the field's input slots are `slot::INPUT + 2 * index` (the
/// tag) and the next one (the number), and an error that blames it records the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The constant's name in `js/engine/boundary.ts` (after the table's prefix).
    pub id: &'static str,
    /// The option's key (or, for a value that is not an option, what it is).
    pub name: &'static str,
    /// How its value crosses ([`via`]).
    pub via: u32,
    /// Whether it is an option (a key of the options object).
    pub option: bool,
}

/// Defines a module of field indexes (in the order of the list) and the table
/// of those fields, from one list of `ID = "name" via option|value` rows.
macro_rules! fields {
    ($(#[$m:meta])* mod $module:ident, $(#[$tm:meta])* $table:ident { $($(#[$doc:meta])* $id:ident = $name:literal $via:ident $kind:ident,)* }) => {
        $(#[$m])*
        pub mod $module {
            #[allow(non_camel_case_types, dead_code, clippy::upper_case_acronyms)]
            #[repr(u32)]
            enum Index { $($id,)* }
            $($(#[$doc])* pub const $id: u32 = Index::$id as u32;)*
            /// How many fields there are.
            pub const COUNT: usize = [$(Index::$id),*].len();
        }
        $(#[$tm])*
        pub const $table: &[Field] = &[$(Field { id: stringify!($id), name: $name, via: via::$via, option: fields!(@option $kind) },)*];
    };
    (@option option) => { true };
    (@option value) => { false };
}

fields! {
    /// The fields of `compile` (`createBackoff` and the
    /// fluent policy), in the order an error's blamed value is numbered; the
    /// options come first, in the order of the option list of an unknown name's
    /// error (`core::wording::T::BackoffNames`).
    mod arg,
    /// The table of [`arg`] (the generator's input for `BACKOFF_*`).
    BACKOFF_FIELDS {
        /// `base` (`interval` for the fluent policy).
        BASE = "base" DURATION option,
        /// `growth`.
        GROWTH = "growth" GROWTH option,
        /// `factor`.
        FACTOR = "factor" NUMBER option,
        /// `max`, the ceiling before jitter.
        MAX = "max" DURATION option,
        /// `cap`, the hard bound after jitter.
        CAP = "cap" DURATION option,
        /// `steps` (its tag and its `length`: the steps themselves cross in the step input of `compile`).
        STEPS = "steps" TAG option,
        /// `free`.
        FREE = "free" NUMBER option,
        /// `jitter`.
        JITTER = "jitter" JITTER option,
        /// `random`.
        RANDOM = "random" SOURCE option,
        /// `seed`.
        SEED = "seed" TEXT option,
        /// `maxAttempts`.
        ATTEMPTS = "maxAttempts" NUMBER option,
        /// The first option name that is not one (its tag: a string when there is one).
        NAME = "name" TAG value,
    }
}

/// The value a draw returned: what the errors of `delay` blame (value 0 of the one they are given).
pub const DRAW: u32 = 0;

fields! {
    /// The fields of `sigil` (Sigil's `nextDelayMs`, `retrySchedule`), in the
    /// order an error's blamed value is numbered; 0 is the value a draw
    /// returned (the errors of `delay`); the options in the order of the option
    /// list of an unknown name's error (`core::wording::T::SigilNames`).
    mod sigil_arg,
    /// The table of [`sigil_arg`] (the generator's input for `SIGIL_*`).
    SIGIL_FIELDS {
        /// The value a draw returned.
        DRAW = "draw" NONE value,
        /// `attempt` of `nextDelayMs`.
        ATTEMPT = "attempt" NUMBER value,
        /// The `options` argument itself.
        OPTIONS = "options" TAG value,
        /// `baseDelayMs`.
        BASE = "baseDelayMs" NUMBER option,
        /// `maxDelayMs`.
        MAX = "maxDelayMs" NUMBER option,
        /// `jitter`.
        JITTER = "jitter" NUMBER option,
        /// `random`.
        RANDOM = "random" SEEDED option,
        /// `seed`.
        SEED = "seed" TEXT option,
        /// `maxAttempts` of `retrySchedule`.
        ATTEMPTS = "maxAttempts" NUMBER option,
        /// The first option name that is not one (its tag: a string when there is one).
        NAME = "name" TAG value,
    }
}

/// Whose seed `checkSeed` checks.
pub mod seed_of {
    /// `createRandom(seed)`: a string or any number.
    pub const CREATE: u32 = 0;
    /// `restoreRandom(state)`'s `state.seed`: a string or any number.
    pub const STATE: u32 = 1;
    /// `RANDOM_STATE_SCHEMA`'s `state.seed`: a string or a finite number.
    pub const SCHEMA: u32 = 2;
}

/// Whose `items` `checkItems` checks.
pub mod items_of {
    /// `Random.pick`: a non-empty array.
    pub const PICK: u32 = 0;
    /// `Random.shuffle`: an array of at most `core::check::MAX_SHUFFLE_ITEMS`.
    pub const SHUFFLE: u32 = 1;
}

/// Option lists (`SIGIL_OPTION_NAMES`, `BACKOFF_OPTION_NAMES` in `js/engine/boundary.ts`).
pub mod surface {
    /// Sigil's options (SigilError).
    pub const SIGIL: u32 = 0;
    /// `createBackoff`'s options (TypeError).
    pub const BACKOFF: u32 = 1;
}

/// The `key_len` of a `delay` call that is Sigil's `sigil` delay of a JavaScript source
/// (its options in the input slots, its draw context the call's).
pub const SIGIL_DELAY: u32 = u32::MAX;

/// Code units of the static text buffer: shorter text is written without a call.
pub const TEXT_CAPACITY: usize = 256;

/// Doubles in the policy area: a header and up to `MAX_STEPS` steps.
pub const REGISTER_LEN: usize = rec::HEADER + crate::core::policy::MAX_STEPS;

/// Every shared number with its name in `js/engine/boundary.ts` (the generator's input).
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
    ("SLOT_INPUT", slot::INPUT as f64),
    ("SEED_OF_CREATE", seed_of::CREATE as f64), ("SEED_OF_STATE", seed_of::STATE as f64),
    ("SEED_OF_SCHEMA", seed_of::SCHEMA as f64), ("ITEMS_OF_PICK", items_of::PICK as f64),
    ("ITEMS_OF_SHUFFLE", items_of::SHUFFLE as f64),
    ("SURFACE_SIGIL", surface::SIGIL as f64), ("SURFACE_BACKOFF", surface::BACKOFF as f64),
    ("SIGIL_DELAY", SIGIL_DELAY as f64),
    ("TEXT_CAPACITY", TEXT_CAPACITY as f64), ("REGISTER_LEN", REGISTER_LEN as f64),
    ("SIGIL_MAX_ATTEMPTS", crate::core::SIGIL_MAX_ATTEMPTS as f64),
    ("SIGIL_BASE_DELAY_MS", crate::core::SIGIL_BASE_DELAY_MS),
    ("SIGIL_MAX_DELAY_MS", crate::core::SIGIL_MAX_DELAY_MS),
    ("MAX_STEPS", crate::core::policy::MAX_STEPS as f64),
];

/// The option names in an "one of a, b, c" wording, in its order.
#[cfg(all(test, not(target_arch = "wasm32")))]
fn names_of(wording: crate::core::wording::T) -> Vec<&'static str> {
    let list = crate::core::wording::text(wording);
    list.strip_prefix("one of ").unwrap_or(list).split(", ").collect()
}

/// The text of `js/engine/boundary.ts`: every [`TABLE`] entry, the growth and jitter
/// names, every wording of an error by id (`BACKOFF_WORDING`, `OTHER_WORDING`, `SIGIL_WORDING`, from `core::wording`), each field table's indexes (`BACKOFF_BASE`, …), names
/// (`BACKOFF_FIELDS`) and where its options are among them, as TypeScript constants.
#[cfg(not(target_arch = "wasm32"))]
pub fn typescript() -> String {
    // Numbers first, lists after: esbuild inlines an imported constant only when it is
    // declared before the module's first statement that is not a literal constant, and the
    // JS reads these indexes on every compile and delay.
    let mut out = String::from(
        "// Generated from src/boundary.rs; do not edit. The Rust test `boundary::tests::generated_file_is_current`\n\
         // fails when this file and that module disagree; `BOUNDARY_WRITE=1 cargo test -q --lib boundary::` rewrites it.\n\
         // The numbers both sides of the wasm boundary share (all before the first list, so that bundlers inline them).\n",
    );
    let mut lists = String::new();
    for (name, value) in TABLE {
        out.push_str(&format!("export const {name} = {value};\n"));
    }
    let list = |names: &[&str]| names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ");
    for (prefix, table) in [("BACKOFF", BACKOFF_FIELDS), ("SIGIL", SIGIL_FIELDS)] {
        out.push_str(&format!("// The fields of {prefix} calls: index = input slot pair and blamed value.\n"));
        for (i, f) in table.iter().enumerate() {
            out.push_str(&format!("export const {prefix}_{} = {i};\n", f.id));
        }
        let first = table.iter().position(|f| f.option).unwrap_or(0);
        let end = first + table.iter().filter(|f| f.option).count();
        out.push_str(&format!(
            "/** `{prefix}_FIELDS.slice({first}, {end})`: the option names, in the order messages list them. */\n"
        ));
        out.push_str(&format!(
            "export const {prefix}_OPTIONS_FROM = {first};\nexport const {prefix}_OPTIONS_TO = {end};\n"
        ));
        let names: Vec<&str> = table.iter().map(|f| f.name).collect();
        lists.push_str(&format!("/** The names of the fields of {prefix} calls, by index. */\n"));
        lists.push_str(&format!("export const {prefix}_FIELDS = [{}] as const;\n", list(&names)));
    }
    out.push_str(&lists);
    // Sigil's option names by a `switch` (V8 compares the key with each case by identity: both
    // are internalized strings); createBackoff's by their place in BACKOFF_FIELDS, which its
    // bundle ships anyway (strict equality too, the same comparisons); and the options read by
    // name into an array literal, each read an inline cache of its own.
    let from = BACKOFF_FIELDS.iter().position(|f| f.option).unwrap_or(0);
    let to = from + BACKOFF_FIELDS.iter().filter(|f| f.option).count();
    out.push_str("/** Whether `key` is the name of a `createBackoff` option. */\n");
    let at = if from == 0 {
        "BACKOFF_FIELDS.indexOf(key as never)".to_string()
    } else {
        format!("(BACKOFF_FIELDS.indexOf(key as never) - {from})")
    };
    out.push_str(&format!(
        "export function isBackoffOption(key: string): boolean {{\n  return {at} >>> 0 < {};\n}}\n",
        to - from
    ));
    out.push_str("/** Whether `key` is the name of a Sigil's option. */\n");
    out.push_str("export function isSigilOption(key: string): boolean {\n  switch (key) {\n");
    for f in SIGIL_FIELDS.iter().filter(|f| f.option) {
        out.push_str(&format!("    case \"{}\":\n", f.name));
    }
    out.push_str("      return true;\n  }\n  return false;\n}\n");
    out.push_str(
        "/**\n * The values of a `createBackoff` call's fields (`BACKOFF_*`), in field order: every option of\n \
         * `options` read by its name (a property read, so an inherited option or a getter of a class\n \
         * counts), in that order, and `name` in the field that is not an option.\n */\n",
    );
    let values: Vec<String> = BACKOFF_FIELDS
        .iter()
        .map(|f| if f.option { format!("options.{}", f.name) } else { "name".to_string() })
        .collect();
    out.push_str(&format!(
        "export function readBackoffOptions(options: Record<string, unknown>, name: string | undefined): \
         [{}] {{\n  return [{}];\n}}\n",
        vec!["unknown"; values.len()].join(", "),
        values.join(", ")
    ));
    out.push_str(&format!("export const GROWTH_NAMES = [{}] as const;\n", list(&GROWTH_NAMES)));
    out.push_str(&format!("export const JITTER_NAMES = [{}] as const;\n", list(&JITTER_NAMES)));
    // The option names and expected wordings of errors by the id a wasm check records, in two
    // arrays with holes: the ones a Backoff call can record (all that `/backoff` ships), and the
    // others. The native API's own wordings (no wasm check records them) are left empty:
    // JavaScript never shows them.
    let native_only = [crate::core::wording::T::JitterNeedsSource as usize];
    let backoff = crate::core::wording::BACKOFF.map(|t| t as usize);
    let ids = 0..crate::core::wording::EDGES.len() - 1;
    let text = |i: usize| format!("{:?}", if native_only.contains(&i) { "" } else { crate::core::wording::text_at(i) });
    let last = backoff.iter().copied().max().unwrap_or(0);
    let own = (0..=last).map(|i| if backoff.contains(&i) { text(i) } else { String::new() });
    let others = ids.map(|i| if backoff.contains(&i) { String::new() } else { text(i) });
    out.push_str("/** The wordings of errors a Backoff call can record, by the id a wasm check records (`core::wording::BACKOFF`; a hole elsewhere). */\n");
    out.push_str(&format!(
        "export const BACKOFF_WORDING: readonly (string | undefined)[] = [{}];\n",
        own.collect::<Vec<_>>().join(",")
    ));
    out.push_str("/** The other wordings of errors, by the id a wasm check records (a hole at each of `BACKOFF_WORDING`'s). */\n");
    out.push_str(&format!(
        "export const OTHER_WORDING: readonly (string | undefined)[] = [{}];\n",
        others.collect::<Vec<_>>().join(",")
    ));
    out.push_str(
        "/** The wordings a Sigil call can record, at their ids (`core::wording::SIGIL`; a hole elsewhere). */\n",
    );
    // An array with holes, not an object keyed by id: an application bundle gzips it smaller.
    let sigil = crate::core::wording::SIGIL;
    let last = sigil.iter().map(|&t| t as usize).max().unwrap_or(0);
    let sigil = (0..=last).map(|i| match sigil.iter().find(|&&t| t as usize == i) {
        Some(&t) => format!("{:?}", crate::core::wording::text(t)),
        None => String::new(),
    });
    out.push_str(&format!(
        "export const SIGIL_WORDING: readonly (string | undefined)[] = [{}];\n",
        sigil.collect::<Vec<_>>().join(",")
    ));
    // The grammars JavaScript reads itself (duration text, `Retry-After`), from the Rust parsers' tables.
    let text = |b: &[u8]| format!("{:?}", String::from_utf8_lossy(b));
    let units =
        crate::core::duration::UNITS.iter().map(|(short, long, ms)| format!("[{}, {}, {ms}]", text(short), text(long)));
    out.push_str("/** Duration units: short name, long name (singular; the plural adds `s`), milliseconds. */\n");
    out.push_str(&format!("export const DURATION_UNITS = [{}] as const;\n", units.collect::<Vec<_>>().join(", ")));
    use crate::core::http_date as date;
    let short_days = date::SHORT_DAYS.iter().map(|d| text(&d[..]));
    out.push_str("/** HTTP-date day names (IMF-fixdate, asctime), Monday first. */\n");
    out.push_str(&format!(
        "export const HTTP_SHORT_DAYS = [{}] as const;\n",
        short_days.collect::<Vec<_>>().join(", ")
    ));
    out.push_str("/** HTTP-date day names of RFC 850 dates, Monday first. */\n");
    out.push_str(&format!("export const HTTP_LONG_DAYS = [{}] as const;\n", list(&date::LONG_DAYS)));
    out.push_str("/** HTTP-date month names, January first, three letters each. */\n");
    out.push_str(&format!("export const HTTP_MONTHS = {};\n", text(date::MONTHS)));
    let layouts = date::LAYOUTS.iter().map(|l| text(l));
    out.push_str("/** The HTTP-date layouts as templates (see the Rust parser, `core::http_date`). */\n");
    out.push_str(&format!("export const HTTP_LAYOUTS = [{}] as const;\n", layouts.collect::<Vec<_>>().join(", ")));
    out
}

/// Checks a file the crate generates (`path` under the crate root) against `generated`, or
/// rewrites it first when the environment variable `write` is set; on a difference the
/// failure names the file, what generates it and the command `write=1 cargo test -q --lib
/// <module>::` that regenerates it.
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(crate) fn check_generated(path: &str, generated: &str, write: &str, source: &str, module: &str) {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os(write).is_some() {
        std::fs::write(&full, generated).unwrap();
    }
    let committed = std::fs::read_to_string(&full).unwrap_or_default();
    assert!(
        committed == generated,
        "{path} differs from what {source}: regenerate it with `{write}=1 cargo test -q --lib {module}::` and commit it"
    );
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod vectors;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::core::curve::{Growth, Jitter};
    use crate::core::wording::T;

    /// Set to rewrite `js/engine/boundary.ts` instead of checking it.
    const WRITE: &str = "BOUNDARY_WRITE";

    #[test]
    fn generated_file_is_current() {
        check_generated("js/engine/boundary.ts", &typescript(), WRITE, "src/boundary.rs generates", "boundary");
    }

    #[test]
    fn wordings_left_out_of_javascript_are_recorded_by_no_wasm_check() {
        // `JitterNeedsSource` is empty in js/engine/boundary.ts: only the native API (src/api.rs) may name it.
        let dir = format!("{}/src/bindings", env!("CARGO_MANIFEST_DIR"));
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let source = std::fs::read_to_string(&path).unwrap();
            assert!(!source.contains("JitterNeedsSource"), "{} records a wording JavaScript lacks", path.display());
        }
        assert!(!typescript().contains(crate::core::wording::text(crate::core::wording::T::JitterNeedsSource)));
    }

    #[test]
    fn every_number_is_declared_before_the_first_list() {
        // A bundler inlines only the constants above the first statement that is not one.
        let number = |l: &str| l.split(" = ").nth(1).is_some_and(|v| v.trim_end_matches(';').parse::<f64>().is_ok());
        let text = typescript();
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("export const ")).collect();
        let first_list = lines.iter().position(|l| !number(l)).unwrap();
        let late = lines[first_list..].iter().find(|l| number(l));
        assert!(late.is_none(), "a number after the first list: {late:?}");
    }

    #[test]
    fn option_lists_name_the_option_fields_in_their_order() {
        for (wording, table) in [(T::BackoffNames, BACKOFF_FIELDS), (T::SigilNames, SIGIL_FIELDS)] {
            let options: Vec<&str> = table.iter().filter(|f| f.option).map(|f| f.name).collect();
            assert_eq!(names_of(wording), options, "{wording:?}");
            // The options are one run of the table (js/engine/errors.ts slices them out).
            let first = table.iter().position(|f| f.option).unwrap_or(0);
            assert!(table[first..first + options.len()].iter().all(|f| f.option), "{wording:?}");
        }
    }

    #[test]
    fn field_indexes_follow_the_tables() {
        use crate::core::options::field;
        let core = [
            field::BASE,
            field::GROWTH,
            field::FACTOR,
            field::MAX,
            field::CAP,
            field::STEPS,
            field::FREE,
            field::JITTER,
            field::RANDOM,
            field::SEED,
            field::ATTEMPTS,
            field::NAME,
        ];
        for (i, f) in BACKOFF_FIELDS.iter().enumerate() {
            // The core blames its options by these places.
            assert_eq!(core[i] as usize, i, "{}", f.id);
            let index = [
                arg::BASE,
                arg::GROWTH,
                arg::FACTOR,
                arg::MAX,
                arg::CAP,
                arg::STEPS,
                arg::FREE,
                arg::JITTER,
                arg::RANDOM,
                arg::SEED,
                arg::ATTEMPTS,
                arg::NAME,
            ][i];
            assert_eq!(index as usize, i, "{}", f.id);
        }
        assert_eq!(arg::COUNT, BACKOFF_FIELDS.len());
        assert_eq!(sigil_arg::COUNT, SIGIL_FIELDS.len());
        assert_eq!(SIGIL_FIELDS[sigil_arg::DRAW as usize].via, via::NONE);
        assert_eq!(SIGIL_FIELDS[sigil_arg::NAME as usize].name, "name");
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
