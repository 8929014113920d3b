//! The wasm boundary: every export takes and returns numbers (`f64`, `u32`,
//! `bool`) only, so the module needs no JS-value glue, no allocator and no
//! panic machinery.
//!
//! "JS marshals, Rust decides": the JS wrappers read option objects, classify
//! each value with a type tag ([`tag`]), map known strings to codes, and write
//! text (durations, seeds, `Retry-After` values, option names) as UTF-16 code
//! units into one scratch buffer ([`text_buffer`]). Rust validates with
//! `core::check` and the precedence rules, and answers through a status code
//! (0 = valid) or a number, plus static result slots ([`slots`]) that the JS
//! reads through a `Float64Array` over wasm memory.
//!
//! Errors: a failed check records its error class, option name and expected
//! text as ids of `core::wording` (the one place each wording lives; js/engine/boundary.ts
//! holds the same table, generated from it, as `WORDING`) and which of the values
//! the call was given is to blame; the JS wrapper (`js/engine/errors.ts`, `fail`) builds `<option> must be <expected>; received <value>`.
//! A check names its error with one constant (`spec`: class, value index and
//! the two wording ids), and option values are read by two shared readers
//! (`number`, `duration_option`) that run the `core::check` function the
//! expected wording belongs to (`holds`) and answer NaN when they fail.
//!
//! Nothing here may panic or allocate on any input: every index is checked
//! (`get`), no `Vec`/`String`/`format!`, no `RefCell`. The one import is the
//! draw of a JavaScript `random` source (`backoff::host_draw`, js/engine/draw.ts),
//! which catches whatever the source throws and hands it back to the wrapper
//! after the call: no JS exception unwinds through wasm frames. Powers are
//! computed in Rust (`core::pow`), with no host call.

mod backoff;
mod random;
mod sigil;
mod text;

pub use backoff::*;
pub use random::*;
pub use sigil::*;
pub use text::*;

use core::cell::UnsafeCell;

use wasm_bindgen::prelude::*;

use crate::core::wording::T;

/// A `static` the single wasm thread mutates (wasm32-unknown-unknown without
/// atomics has one thread, and no export runs JS code while it holds a reference).
pub(crate) struct Static<T>(UnsafeCell<T>);

// SAFETY: wasm32-unknown-unknown without atomics has one thread.
unsafe impl<T> Sync for Static<T> {}

impl<T> Static<T> {
    pub(crate) const fn new(v: T) -> Self {
        Static(UnsafeCell::new(v))
    }

    /// Runs `f` with the value; `f` must not re-enter (nothing here calls JS).
    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        // SAFETY: one thread, and `with` is never nested for the same static.
        f(unsafe { &mut *self.0.get() })
    }
}

// ------------------------------------------------------------------ shared numbers

pub use crate::boundary::{arg, kind, rec, sigil_arg, slot, source, tags};
use tags::*;

/// Whether a tag is an object that is not a function (arrays included).
pub(crate) fn is_object(tag: u32) -> bool {
    tag == OBJECT || tag == ARRAY
}

// ------------------------------------------------------------------ result slots

/// Number of `f64` result slots.
pub const SLOT_COUNT: usize = slot::COUNT;
pub use slot::{ERR_ARG, ERR_EXPECTED, ERR_INDEX, ERR_KIND, ERR_NUMBERS, ERR_OPTION};

static SLOTS: Static<[f64; SLOT_COUNT]> = Static::new([0.0; SLOT_COUNT]);

/// Address of the result slots: `SLOT_COUNT` doubles. Slots 0..8 hold results,
/// `ERR_*` the last error (read them right after the call that wrote them),
/// and from `slot::INPUT` on the fields the wrapper writes before a call.
#[wasm_bindgen]
pub fn slots() -> u32 {
    SLOTS.0.get() as u32
}

/// Writes results into slots `0..values.len()`.
#[inline(always)]
pub(crate) fn put(values: &[f64]) {
    SLOTS.with(|s| s.iter_mut().zip(values).for_each(|(slot, v)| *slot = *v));
}

/// Result slot `i` (for the wasm tests).
pub fn slot(i: usize) -> f64 {
    SLOTS.with(|s| s.get(i).copied().unwrap_or(f64::NAN))
}

/// The tag and number the wrapper wrote for field `field` of the call's table
/// (`boundary::BACKOFF_FIELDS`, `boundary::SIGIL_FIELDS`): input slots
/// `slot::INPUT + 2 * field` and the next.
#[inline(always)]
pub(crate) fn input(field: u32) -> (u32, f64) {
    let at = slot::INPUT + 2 * field as usize;
    SLOTS.with(|s| (s.get(at).copied().unwrap_or(0.0) as u32, s.get(at + 1).copied().unwrap_or(f64::NAN)))
}

/// Writes field `field`'s tag and number into the input slots, as the JS
/// wrapper does (for the wasm tests).
pub fn put_input(field: u32, tag: u32, x: f64) {
    let at = slot::INPUT + 2 * field as usize;
    SLOTS.with(|s| {
        if let Some(pair) = s.get_mut(at..at + 2) {
            pair.copy_from_slice(&[f64::from(tag), x]);
        }
    });
}

// ------------------------------------------------------------------ errors

use crate::core::curve::{Growth, Jitter};
pub use crate::core::options::Kind;
pub(crate) use crate::core::options::spec;
use crate::core::options::{self, Invalid, Opt, Source};

/// Records [`kind::KEY_TEXT`] as the error class: the wrapper writes
/// JavaScript's `String(attempt)` into the text buffer and calls `delay` again.
pub(crate) fn key_text() {
    SLOTS.with(|s| {
        if let Some(k) = s.get_mut(ERR_KIND) {
            *k = f64::from(kind::KEY_TEXT);
        }
    });
}

/// An error has been recorded in the slots.
#[derive(Debug)]
pub struct Failed;

/// A check's result: the value, or [`Failed`] with the error recorded.
pub type Checked<T> = Result<T, Failed>;

/// Records the error `spec` (class in its low two bits, unless `kind` overrides it).
#[inline(never)]
fn record(spec: u32, index: f64, a: f64, b: f64) -> Failed {
    SLOTS.with(|s| {
        let at = s.iter_mut().skip(ERR_KIND);
        let values = [
            f64::from(spec & 3),
            f64::from(spec >> 6 & 0x7f),
            f64::from(spec >> 13 & 0x7f),
            f64::from(spec >> 2 & 0xf),
            index,
            a,
            b,
        ];
        at.zip(values).for_each(|(slot, v)| *slot = v);
    });
    Failed
}

/// Records `<option> must be <expected>; received <value #arg>` ([`spec`]).
#[inline(never)]
pub(crate) fn fail(spec: u32) -> Failed {
    record(spec, -1.0, 0.0, 0.0)
}

/// [`fail`] for element `index` of a list option (`steps[3]`).
#[inline(never)]
pub(crate) fn fail_at(spec: u32, index: f64) -> Failed {
    record(spec, index, 0.0, 0.0)
}

/// [`fail`] with two numbers for the `{}` placeholders of the expected wording.
#[inline(never)]
pub(crate) fn fail_with(spec: u32, numbers: [f64; 2]) -> Failed {
    let [a, b] = numbers;
    record(spec, -1.0, a, b)
}

/// A failed `core::options` check, recorded where it fails.
impl From<Invalid> for Failed {
    #[inline(always)]
    fn from(e: Invalid) -> Failed {
        // `index` is a constant at all but the checks of list elements: one call of one argument.
        if e.index < 0.0 { fail(e.spec) } else { fail_at(e.spec, e.index) }
    }
}

// ------------------------------------------------------------------ tagged values to Rust values

/// A value that crosses as its number (`via::NUMBER`): a number, else of another type.
#[inline(always)]
pub(crate) fn number_of(tag: u32, x: f64) -> Opt<f64> {
    match tag {
        UNDEFINED => Opt::Absent,
        NUMBER => Opt::Is(x),
        _ => Opt::Wrong,
    }
}

/// A duration (`via::DURATION`): a number, or text as the ms it reads as (NaN when it is
/// none, and for text that reads as `Infinity`, which only a number may be: no bound).
#[inline(always)]
pub(crate) fn duration_of(tag: u32, x: f64) -> Opt<f64> {
    match tag {
        UNDEFINED => Opt::Absent,
        NUMBER => Opt::Is(x),
        STRING => Opt::Is(if x == f64::INFINITY { f64::NAN } else { x }),
        _ => Opt::Wrong,
    }
}

/// `createBackoff`'s options as the wrapper wrote them into the input slots (fields
/// [`arg`], each a tag and the number of its `via`), as Rust values: each converted where
/// a check reads it, the one conversion.
pub(crate) struct InputOptions;

fn t(f: u32) -> u32 {
    input(f).0
}

fn x(f: u32) -> f64 {
    input(f).1
}

impl options::Given for InputOptions {
    fn unknown(&self) -> bool {
        t(arg::NAME) != UNDEFINED
    }
    fn base(&self) -> Opt<f64> {
        duration_of(t(arg::BASE), x(arg::BASE))
    }
    fn growth(&self) -> Opt<Growth> {
        match (t(arg::GROWTH), x(arg::GROWTH)) {
            (UNDEFINED, _) => Opt::Absent,
            (STRING, g) if g >= 0.0 => Growth::from_code(g as u32).map_or(Opt::Wrong, Opt::Is),
            _ => Opt::Wrong,
        }
    }
    fn factor(&self) -> Opt<f64> {
        number_of(t(arg::FACTOR), x(arg::FACTOR))
    }
    fn max(&self) -> Opt<f64> {
        duration_of(t(arg::MAX), x(arg::MAX))
    }
    fn cap(&self) -> Opt<f64> {
        duration_of(t(arg::CAP), x(arg::CAP))
    }
    fn steps(&self) -> Opt<()> {
        match t(arg::STEPS) {
            UNDEFINED => Opt::Absent,
            ARRAY => Opt::Is(()),
            _ => Opt::Wrong,
        }
    }
    fn free(&self) -> Opt<f64> {
        number_of(t(arg::FREE), x(arg::FREE))
    }
    fn jitter(&self) -> Opt<Jitter> {
        match (t(arg::JITTER), x(arg::JITTER)) {
            (UNDEFINED, _) => Opt::Absent,
            (NUMBER, f) => Opt::Is(Jitter::Spread(f)),
            (STRING, code) if code >= f64::from(crate::boundary::jitter::FULL) => {
                Jitter::from_code(code as u32, 0.0).map_or(Opt::Wrong, Opt::Is)
            }
            _ => Opt::Wrong,
        }
    }
    fn seed(&self) -> Opt<()> {
        match t(arg::SEED) {
            UNDEFINED => Opt::Absent,
            STRING | NUMBER => Opt::Is(()),
            _ => Opt::Wrong,
        }
    }
    fn random(&self) -> Opt<Source> {
        match (t(arg::RANDOM), x(arg::RANDOM)) {
            (UNDEFINED, _) => Opt::Absent,
            (_, -1.0) => Opt::Is(Source::Seeded),
            (FUNCTION, _) => Opt::Is(Source::Function),
            (OBJECT | ARRAY, tags) => {
                // The tag of its `float` times 16 plus the tag of its `next` (`via::SOURCE`).
                let tags = if tags > 0.0 { tags as u32 } else { 0 };
                if tags >> 4 == FUNCTION {
                    Opt::Is(Source::Float)
                } else if tags & 15 == FUNCTION {
                    Opt::Is(Source::Next)
                } else {
                    Opt::Wrong
                }
            }
            _ => Opt::Wrong,
        }
    }
    fn attempts(&self) -> Opt<f64> {
        number_of(t(arg::ATTEMPTS), x(arg::ATTEMPTS))
    }
}

/// The draw source code of the compiled policy ([`source`]) for a [`Source`].
pub(crate) fn source_code(s: Source) -> u32 {
    if s == Source::System { source::NEXT } else { s as u32 }
}

const _: () = assert!(
    Source::Function as u32 == source::FUNCTION
        && Source::Float as u32 == source::FLOAT
        && Source::Next as u32 == source::NEXT
        && Source::Seeded as u32 == source::SEEDED
        && Source::Keyed as u32 == source::KEYED
);

/// `core::options::number` of a tagged value with its error recorded: the number, or
/// NaN (no check passes NaN).
#[inline(never)]
pub(crate) fn number(tag: u32, x: f64, spec: u32) -> f64 {
    options::number::<Failed>(number_of(tag, x), spec).unwrap_or(f64::NAN)
}

/// The result of [`number`] as a [`Checked`] (NaN: failed).
#[inline(always)]
pub(crate) fn ok(x: f64) -> Checked<f64> {
    if x.is_nan() { Err(Failed) } else { Ok(x) }
}

/// 0 for success, 1 when an error was recorded.
pub(crate) fn status(r: Checked<()>) -> u32 {
    u32::from(r.is_err())
}

/// The TypeError for `seed` together with `random` (value `arg`).
pub(crate) fn seed_and_random(arg: u32) -> Failed {
    Failed::from(options::seed_and_random(arg))
}
