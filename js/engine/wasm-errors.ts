/**
 * The errors a wasm check recorded (internal to the package): read from the result slots
 * (src/bindings/mod.rs writes them) and thrown as the package's errors (js/engine/errors.ts).
 * @internal
 * @module
 */
import { wasm } from "./abi.js";
import { slots, text, writeRecord } from "./abi.js";
import { rethrow, type Draws } from "./draw.js";
import { invalid } from "./errors.js";
import { ERR_ARG, ERR_EXPECTED, ERR_INDEX, ERR_KIND, ERR_NUMBERS, ERR_OPTION, KIND_KEY_TEXT, BACKOFF_WORDING, OTHER_WORDING, SIGIL_WORDING } from "./boundary.js";

/** Throws the error a wasm check recorded, the blamed value taken from `values` ({@link fail}, {@link failSigil}). @internal */
export type Fail = (values: readonly unknown[]) => never;

/**
 * Throws the error a wasm check recorded (src/bindings/mod.rs): its class,
 * option name (with an index, `steps[3]`) and expected text, with the value
 * to blame taken from `values` (the values the call was given, in its order;
 * for a call that reads fields, their values in its table's order).
 * @internal
 */
export function fail(values: readonly unknown[]): never {
  throw failure(values);
}

/**
 * {@link fail} for a call of `createBackoff` or `Backoff`, its texts from `BACKOFF_WORDING`
 * (which holds every id such a call can record), so that `/backoff` ships only those. @internal
 */
export function failBackoff(values: readonly unknown[]): never {
  throw recorded(backoffText, values);
}

/**
 * {@link fail} for a call of `backoff-wasm/sigil`, its texts from `SIGIL_WORDING` (the entry
 * point ships only those): a Sigil check names no list element and none of its wordings
 * has `{}` placeholders, so the option and the expected text are the wordings as they are.
 * @internal
 */
export function failSigil(values: readonly unknown[]): never {
  const s = slots();
  throw invalid(s[ERR_KIND] as number, SIGIL_WORDING[s[ERR_OPTION] as number] as string, SIGIL_WORDING[s[ERR_EXPECTED] as number] as string, values[s[ERR_ARG] as number]);
}

/** The error a wasm check recorded, as {@link fail} throws it (returned, not thrown). @internal */
export function failure(values: readonly unknown[]): Error {
  return recorded(anyText, values);
}

/** Wording `id` of a Backoff call's check. */
function backoffText(id: number): string {
  return BACKOFF_WORDING[id] as string;
}

/** Wording `id` of any check. */
function anyText(id: number): string {
  return (BACKOFF_WORDING[id] ?? OTHER_WORDING[id]) as string;
}

/** The error a wasm check recorded, its texts by id from `text`. */
function recorded(text: (id: number) => string, values: readonly unknown[]): Error {
  const s = slots();
  const at = (i: number) => s[i] as number;
  const index = at(ERR_INDEX);
  const option = text(at(ERR_OPTION)) + (index >= 0 ? `[${index}]` : "");
  const numbers = [at(ERR_NUMBERS), at(ERR_NUMBERS + 1)];
  const expected = text(at(ERR_EXPECTED)).replace(/\{\}/g, () => String(numbers.shift()));
  return invalid(at(ERR_KIND), option, expected, values[at(ERR_ARG)]);
}

/**
 * After a call that runs a policy answered NaN: rethrows what its JavaScript source threw
 * (`from`); for a keyed draw whose attempt only JavaScript can write (`String(attempt)`, not
 * an integer below 2^54) answers `again(attempt)`, which calls with that text; otherwise
 * throws the error Rust recorded, naming the value the source returned (thrown by `fail`:
 * {@link fail}, or {@link failSigil} for a Sigil call).
 * @internal
 */
export function failed(attempt: number, from: Draws | undefined, again: (attempt: number) => number, fail: Fail): number {
  const raw = rethrow(from);
  if (slots()[ERR_KIND] === KIND_KEY_TEXT) {
    const d = again(attempt);
    if (d === d) return d;
  }
  return fail([raw]);
}

/**
 * The delay of `attempt` under the compiled policy `rec` with the key text `String(attempt)`
 * (keyed draws: no stream, no JavaScript source). @internal
 */
export function keyedAgain(rec: readonly number[], attempt: number): number {
  const len = text(String(+attempt));
  writeRecord(rec);
  return wasm.delay(attempt, len, undefined);
}
