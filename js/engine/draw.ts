/**
 * The one path by which a JavaScript `random` enters the engine (internal).
 *
 * A policy whose draws come from JavaScript (a bare `() => number`, an
 * object's `next()` or `float(min, max)`) selects its source with {@link use}
 * before its one wasm call; Rust's composition then calls {@link draw} (a wasm
 * import, `host_draw` in src/bindings/backoff.rs) for each draw it needs, in
 * order, and checks the result. Whatever the source throws is caught here and
 * rethrown by the wrapper after the call ({@link rethrow}): no JavaScript
 * exception unwinds through wasm frames.
 * @internal
 * @module
 */

import { SOURCE_FLOAT as FLOAT, SOURCE_NEXT as NEXT } from "./boundary.js";

let source: unknown;
/** The value the last draw returned (for the error message when it is out of range). */
let raw: unknown;
let threw = false;
let thrown: unknown;

/** Selects the source of the draws of the next wasm call. */
export function use(s: unknown): void {
  source = s;
}

/**
 * One draw of the selected source (called from wasm): `float(lo, hi)`,
 * `next()` or `source()`, as a number (NaN for a non-number or a throw).
 */
export function draw(kind: number, lo: number, hi: number): number {
  const s = source;
  try {
    const v =
      kind === FLOAT ? (s as { float(a: number, b: number): unknown }).float(lo, hi)
      : kind === NEXT ? (s as { next(): unknown }).next()
      : (s as () => unknown)();
    raw = v;
    return typeof v === "number" ? v : NaN;
  } catch (e) {
    threw = true;
    thrown = e;
    return NaN;
  } finally {
    source = s; // a nested call made by the source itself must not change this call's source
  }
}

/**
 * After a wasm call answered NaN: rethrows what the source threw, if it did;
 * otherwise returns the value of the last draw (to name in the error).
 */
export function rethrow(): unknown {
  if (threw) {
    const e = thrown;
    threw = false;
    thrown = undefined;
    throw e;
  }
  return raw;
}
