/**
 * The one path by which a JavaScript `random` enters the engine (internal).
 *
 * A call of a policy whose draws come from JavaScript (a bare `() => number`, an object's
 * `next()` or `float(min, max)`) is given a context of its own ({@link drawsFrom}) as an
 * argument; Rust's composition calls {@link draw} (a wasm import, `host_draw` in
 * src/bindings/backoff.rs) with it for each draw it needs, in order, and checks the result.
 * Whatever the source throws is caught into the context and rethrown by the wrapper after
 * the call ({@link rethrow}): no JavaScript exception unwinds through wasm frames. A source
 * that calls the package from its draw makes calls with contexts of their own.
 * @internal
 * @module
 */

import { SOURCE_FLOAT as FLOAT, SOURCE_NEXT as NEXT } from "./boundary.js";

/**
 * One call's JavaScript source and what its draws left: the last value returned, or what was
 * thrown (internal names end in `_`: the package's build shortens them, scripts/assemble.mjs). @internal
 */
export interface Draws {
  readonly source_: unknown;
  raw_: unknown;
  threw_: boolean;
  thrown_: unknown;
}

/** A context for one call drawing from `source`. @internal */
export function drawsFrom(source: unknown): Draws {
  return { source_: source, raw_: undefined, threw_: false, thrown_: undefined };
}

/**
 * One draw of the call's source (called from wasm): `float(lo, hi)`, `next()` or `source()`,
 * as a number (NaN for a non-number or a throw, kept in `from`).
 */
export function draw(from: Draws, kind: number, lo: number, hi: number): number {
  const s = from.source_;
  try {
    const v =
      kind === FLOAT ? (s as { float(a: number, b: number): unknown }).float(lo, hi)
      : kind === NEXT ? (s as { next(): unknown }).next()
      : (s as () => unknown)();
    from.raw_ = v;
    return typeof v === "number" ? v : NaN;
  } catch (e) {
    from.threw_ = true;
    from.thrown_ = e;
    return NaN;
  }
}

/**
 * After a wasm call answered NaN: rethrows what the call's source threw, if it did;
 * otherwise returns the value its last draw returned (to name in the error).
 */
export function rethrow(from: Draws | undefined): unknown {
  if (from === undefined) return undefined;
  if (from.threw_) throw from.thrown_;
  return from.raw_;
}
