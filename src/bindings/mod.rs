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
//! text (static ASCII strings, the one place each wording lives) and which of
//! the values the call was given is to blame; the JS wrapper
//! (`js/errors.ts`, `fail`) builds `<option> must be <expected>; received <value>`.
//!
//! Nothing here may panic or allocate on any input: every index is checked
//! (`get`), no `Vec`/`String`/`format!`, no `RefCell`. The one import is the
//! draw of a JavaScript `random` source (`backoff::host_draw`, js/draw.ts),
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

use crate::core::check;

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
/// `ERR_*` the last error. Read them right after the call that wrote them.
#[wasm_bindgen]
pub fn slots() -> u32 {
    SLOTS.0.get() as u32
}

/// Writes results into slots `0..values.len()`.
#[inline(never)]
pub(crate) fn put(values: &[f64]) {
    SLOTS.with(|s| s.iter_mut().zip(values).for_each(|(slot, v)| *slot = *v));
}

/// Result slot `i` (for the wasm tests).
pub fn slot(i: usize) -> f64 {
    SLOTS.with(|s| s.get(i).copied().unwrap_or(f64::NAN))
}

// ------------------------------------------------------------------ errors

/// Error classes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `RangeError`: a value of the right type out of range.
    Range = kind::RANGE as isize,
    /// `TypeError`: a value of the wrong type, or options that exclude each other.
    Type = kind::TYPE as isize,
    /// `SigilError` (`code: "invalid_argument"`): any bad Sigil input.
    Sigil = kind::SIGIL as isize,
}

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

#[inline(never)]
fn record(kind: Kind, option: &'static str, expected: &'static str, arg: u32, index: f64, numbers: [f64; 2]) -> Failed {
    let [a, b] = numbers;
    SLOTS.with(|s| {
        let at = s.iter_mut().skip(ERR_KIND);
        let values = [
            kind as u32 as f64,
            option.as_ptr() as u32 as f64,
            option.len() as f64,
            expected.as_ptr() as u32 as f64,
            expected.len() as f64,
            f64::from(arg),
            index,
            a,
            b,
        ];
        at.zip(values).for_each(|(slot, v)| *slot = v);
    });
    Failed
}

/// Records `<option> must be <expected>; received <value #arg>`.
#[inline(never)]
pub(crate) fn fail(kind: Kind, option: &'static str, expected: &'static str, arg: u32) -> Failed {
    record(kind, option, expected, arg, -1.0, [0.0; 2])
}

/// [`fail`] for element `index` of a list option (`steps[3]`).
#[inline(never)]
pub(crate) fn fail_at(kind: Kind, option: &'static str, expected: &'static str, arg: u32, index: f64) -> Failed {
    record(kind, option, expected, arg, index, [0.0; 2])
}

/// [`fail`] with two numbers for the `{}` placeholders of `expected`.
#[inline(never)]
pub(crate) fn fail_with(
    kind: Kind,
    option: &'static str,
    expected: &'static str,
    arg: u32,
    numbers: [f64; 2],
) -> Failed {
    record(kind, option, expected, arg, -1.0, numbers)
}

/// 0 for success, 1 when an error was recorded.
pub(crate) fn status(r: Checked<()>) -> u32 {
    u32::from(r.is_err())
}

/// A number, checked by `f`; a non-number is a TypeError (SigilError for
/// Sigil) with what `f` expects.
#[inline(never)]
pub(crate) fn number(
    tag: u32,
    x: f64,
    option: &'static str,
    kind: Kind,
    f: fn(f64) -> Result<f64, check::Expected>,
    arg: u32,
) -> Checked<f64> {
    if tag != NUMBER {
        let expected = f(f64::NAN).err().unwrap_or("a number");
        let k = if kind == Kind::Sigil { Kind::Sigil } else { Kind::Type };
        return Err(fail(k, option, expected, arg));
    }
    f(x).map_err(|e| fail(kind, option, e, arg))
}

/// A `DurationInput` option as ms, validated by `f`: for a string `x` is its
/// parse result (`NaN` when it is not a duration), for a number the number;
/// any other type is a TypeError, a bad value a RangeError.
#[inline(never)]
pub(crate) fn duration_option(
    tag: u32,
    x: f64,
    option: &'static str,
    f: fn(f64) -> Result<f64, check::Expected>,
    arg: u32,
    index: f64,
) -> Checked<f64> {
    if tag != STRING && tag != NUMBER {
        let expected = f(f64::NAN).err().unwrap_or("a duration");
        return Err(fail_at(Kind::Type, option, expected, arg, index));
    }
    f(x).map_err(|e| fail_at(Kind::Range, option, e, arg, index))
}

/// `seed` must be a string or a number (`String(seed)` is hashed).
pub(crate) const SEED_EXPECTED: &str = "a string or a number";

/// The TypeError for `seed` together with `random`.
pub(crate) fn seed_and_random(arg: u32) -> Failed {
    fail(
        Kind::Type,
        "seed",
        "left out when random is given: seed makes each draw a pure function of (seed, attempt), random is a stream; keep one",
        arg,
    )
}
