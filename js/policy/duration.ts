/**
 * `backoff-wasm/duration`: duration text of `@sdxc/duration`, read in
 * JavaScript with the same answers as the Rust crate's `parse_duration`.
 * @module
 */
import { durationMs } from "../engine/duration-text.js";
import { InvalidDurationError, invalid, TYPE } from "../engine/errors.js";

export { InvalidDurationError };

/** Long unit names: milliseconds … weeks (days and weeks are fixed 24 h and 7 d). */
export type DurationUnit =
  | "millisecond" | "milliseconds" | "second" | "seconds" | "minute" | "minutes"
  | "hour" | "hours" | "day" | "days" | "week" | "weeks";

/** Short unit names. */
export type DurationUnitShort = "ms" | "s" | "m" | "h" | "d" | "w";

/**
 * Duration text, typed as `@sdxc/duration` types it: `"<amount> <long unit>"`
 * (exactly one space) or `"<amount><short unit>"`, the amount a whole number
 * (`${bigint}`: `"5 minutes"`, `"250ms"`, `"-30s"`). So `"1.5h"`, `"5e3s"`, `"05s"`,
 * `"+5s"`, `"5 m"`, `"5 minuts"` and `` `${count} minutes` `` built from a
 * `number` do not compile (compute such a wait in ms instead), and neither does
 * a bare amount (`"250"`): `parse`, which takes any text, also accepts that
 * (as ms), as the original does.
 */
export type DurationString = `${bigint} ${DurationUnit}` | `${bigint}${DurationUnitShort}`;

/** Milliseconds as a number, or duration text. */
export type DurationInput = number | DurationString;

/** The result of `parse`: never thrown, always returned. */
export type ParseResult =
  | { status: "success"; data: number }
  | { status: "failure"; error: InvalidDurationError };

/**
 * Parses duration text (trimmed as `String.prototype.trim` trims) into ms.
 * `parse("5 minutes")` → `{ status: "success", data: 300000 }`;
 * `parse("5 minuts")` → `{ status: "failure", error }` with `error.text === "5 minuts"`.
 * Never throws; a non-string input is a failure.
 */
export function parse(text: string): ParseResult {
  const ms = typeof text === "string" ? durationMs(text) : NaN;
  return Number.isNaN(ms)
    ? { status: "failure", error: new InvalidDurationError(text) }
    : { status: "success", data: ms };
}

/**
 * Milliseconds of a `DurationInput`: a number passes through unchanged; text is
 * parsed, and text that is not a duration gives `NaN` (as the original does).
 * @throws TypeError when `input` is neither a number nor a string.
 */
export function toMs(input: DurationInput): number {
  if (typeof input === "number") return input;
  if (typeof input === "string") return durationMs(input);
  throw invalid(TYPE, "input", "a number or duration text", input);
}

/**
 * Whole seconds of a `DurationInput`: `Math.round(toMs(input) / 1000)`.
 * @throws TypeError as `toMs`.
 */
export function toSeconds(input: DurationInput): number {
  return Math.round(toMs(input) / 1000);
}
