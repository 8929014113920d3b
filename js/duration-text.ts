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

/** Milliseconds per unit, by short and by long name. */
const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000,
  millisecond: 1, second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000,
};

/** The grammar after trimming: amount (1), short unit (2), long unit (3). */
const DURATION = /^(-?(?:0|[1-9][0-9]*))(?:(ms|s|m|h|d|w)| (millisecond|second|minute|hour|day|week)s?)?$/;

/** Milliseconds of duration text, or `NaN` when it is not a duration. @internal */
export function parseDurationText(s: string): number {
  const m = DURATION.exec(s.trim());
  if (m === null) return NaN;
  const unit = m[2] ?? m[3];
  return Number(m[1]) * (unit === undefined ? 1 : (UNIT_MS[unit] as number));
}
