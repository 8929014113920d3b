/**
 * Duration text (`"5 seconds"`, `"250ms"`, `"42"`) to milliseconds, read in JavaScript.
 *
 * The grammar of the Rust crate's `core::duration` (which its native `parse_duration`
 * keeps), with the same answers: a test replays vectors the Rust parser writes
 * (tests/js/duration-vectors.json, checked by `cargo test` against the Rust parser).
 * After `String.prototype.trim`: `<amount>` alone (ms), `<amount><short unit>` or
 * `<amount> <long unit>` (exactly one space; a long unit may take a plural `s`), where
 * `<amount> = -?(0|[1-9][0-9]*)`, read as `Number` reads it (rounded once; very long
 * amounts are `Infinity`). Lower case only; days and weeks are fixed 24 h and 7 d.
 * @internal
 * @module
 */

/** Milliseconds per short unit. */
const SHORT: ReadonlyMap<string, number> = /* @__PURE__ */ new Map([["ms", 1], ["s", 1_000], ["m", 60_000], ["h", 3_600_000], ["d", 86_400_000], ["w", 604_800_000]]);
/** Milliseconds per long unit, singular and plural. */
const LONG: ReadonlyMap<string, number> = /* @__PURE__ */ new Map([
  ["millisecond", 1], ["milliseconds", 1], ["second", 1_000], ["seconds", 1_000], ["minute", 60_000],
  ["minutes", 60_000], ["hour", 3_600_000], ["hours", 3_600_000], ["day", 86_400_000], ["days", 86_400_000],
  ["week", 604_800_000], ["weeks", 604_800_000],
]);

/** Milliseconds of duration text, or `NaN` when it is not a duration. @internal */
export function parseDurationText(text: string): number {
  const s = text.trim();
  const n = s.length;
  const start = s.charCodeAt(0) === 0x2d ? 1 : 0; // "-"
  let i = start;
  let v = 0;
  for (; i < n; i++) {
    const d = s.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) break;
    v = v * 10 + d; // exact up to 15 digits
  }
  const digits = i - start;
  if (digits === 0 || (digits > 1 && s.charCodeAt(start) === 0x30)) return NaN;
  // Longer amounts: `Number` reads the digits with one rounding (the sum above may round more).
  if (digits > 15) v = Number(s.slice(start, i));
  const amount = start === 1 ? -v : v;
  if (i === n) return amount;
  const ms = s.charCodeAt(i) === 0x20 ? LONG.get(s.slice(i + 1)) : SHORT.get(s.slice(i));
  return ms === undefined ? NaN : amount * ms;
}
