/**
 * Duration text (`"5 seconds"`, `"250ms"`, `"42"`) to milliseconds, read in JavaScript.
 *
 * The grammar of the Rust crate's `core::duration` (which its native `parse_duration`
 * keeps), with the same answers: a test replays vectors the Rust parser writes
 * (tests/js/duration-vectors.json, checked by `cargo test` against the Rust parser).
 * After `String.prototype.trim`: `<amount>` alone (ms), `<amount><short unit>` or
 * `<amount> <long unit>` (exactly one space; a long unit may take a plural `s`), where
 * `<amount> = -?(0|[1-9][0-9]*)`, read as `Number` reads it (rounded once; very long
 * amounts are `Infinity`). Lower case only; days and weeks are fixed 24 h and 7 d. No wasm
 * here: an application that imports only `/duration` loads none.
 * @internal
 * @module
 */

import { DURATION_UNITS } from "./boundary.js";

/**
 * Milliseconds per unit name (the Rust parser's unit table, generated into js/engine/boundary.ts): a
 * short name, or a long one that may end in one plural `s` (no singular long name ends in `s`).
 */
function unitMs(unit: string, long: boolean): number | undefined {
  const name = long && unit.endsWith("s") ? unit.slice(0, -1) : unit;
  for (const [short, singular, ms] of DURATION_UNITS) if (name === (long ? singular : short)) return ms;
  return undefined;
}

/** Milliseconds of duration text, or `NaN` when it is not a duration. @internal */
export function durationMs(text: string): number {
  const s = text.trim();
  const start = s.charCodeAt(0) === 0x2d ? 1 : 0; // "-"
  let i = start;
  // A digit: its code XOR "0" is below 10 (past the end, NaN ^ 0x30 is 0x30).
  while ((s.charCodeAt(i) ^ 0x30) < 10) i++;
  const digits = i - start;
  if (digits === 0 || (digits > 1 && s.charCodeAt(start) === 0x30)) return NaN;
  // `Number` reads the amount, its sign included, with one rounding (exact up to 15 digits).
  const amount = Number(s.slice(0, i));
  if (i === s.length) return amount;
  const ms = s.charCodeAt(i) === 0x20 ? unitMs(s.slice(i + 1), true) : unitMs(s.slice(i), false);
  return ms === undefined ? NaN : amount * ms;
}

/** A `DurationInput` option's number: a string's parse result, a number itself, else `NaN`. @internal */
export function duration(v: unknown): number {
  return typeof v === "string" ? durationMs(v) : typeof v === "number" ? v : NaN;
}
