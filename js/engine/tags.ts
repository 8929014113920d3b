/**
 * The type tags of JavaScript values (internal to the package): what crosses the wasm
 * boundary beside a value's number (js/engine/abi.ts), and what names a received value in an
 * error message (js/engine/errors.ts). No wasm here, so a module that only shapes messages
 * (the `/duration` entry point's) does not load it.
 * @internal
 * @module
 */
import {
  TAG_ARRAY, TAG_BIGINT, TAG_BOOLEAN, TAG_FUNCTION, TAG_NULL, TAG_NUMBER, TAG_OBJECT, TAG_STRING, TAG_SYMBOL,
  TAG_UNDEFINED,
} from "./boundary.js";

/** `Array.isArray(v)`, `false` for a revoked Proxy (which throws there). */
function isArray(v: unknown): boolean {
  try {
    return Array.isArray(v);
  } catch {
    return false;
  }
}

/** The type tag of a JavaScript value. */
export function tag(v: unknown): number {
  switch (typeof v) {
    case "undefined": return TAG_UNDEFINED;
    case "number": return TAG_NUMBER;
    case "string": return TAG_STRING;
    case "boolean": return TAG_BOOLEAN;
    case "function": return TAG_FUNCTION;
    case "symbol": return TAG_SYMBOL;
    case "bigint": return TAG_BIGINT;
  }
  if (v === null) return TAG_NULL;
  return isArray(v) ? TAG_ARRAY : TAG_OBJECT;
}

/** The number that travels with a tag: the value itself, or `NaN` for a non-number. */
export function num(v: unknown): number {
  return typeof v === "number" ? v : NaN;
}
