/**
 * The numbers-only boundary to wasm (internal to the package).
 *
 * Every wasm export takes and returns numbers. JavaScript values cross as a
 * type tag ({@link tag}) plus a number; text (durations, seeds, option names,
 * `Retry-After` values) is written as UTF-16 code units into wasm's text
 * buffer ({@link text}); results that are more than one number come back in
 * result slots read through {@link slots}. Rust validates and decides; this
 * module only marshals. See src/bindings/mod.rs.
 * @internal
 * @module
 */
import * as wasm from "./wasm.js";

/**
 * The instance's exports: every loader has already initialised the glue, so
 * `initSync` returns them without compiling anything.
 */
const memory: WebAssembly.Memory = wasm.initSync({ module: undefined as never }).memory;

// Type tags, as `src/bindings/mod.rs` (`tags`) defines them.
/** Tag of `undefined`. */
export const UNDEFINED = 0;
/** Tag of a number. */
export const NUMBER = 1;
/** Tag of a string. */
export const STRING = 2;
const BOOLEAN = 3;
const NULL = 4;
/** Tag of a function. */
export const FUNCTION = 5;
/** Tag of an array (`Array.isArray`). */
export const ARRAY = 6;
const OBJECT = 7;
const SYMBOL = 8;
const BIGINT = 9;

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
    case "undefined": return UNDEFINED;
    case "number": return NUMBER;
    case "string": return STRING;
    case "boolean": return BOOLEAN;
    case "function": return FUNCTION;
    case "symbol": return SYMBOL;
    case "bigint": return BIGINT;
  }
  if (v === null) return NULL;
  return isArray(v) ? ARRAY : OBJECT;
}

/** The number that travels with a tag: the value itself, or `NaN` for a non-number. */
export function num(v: unknown): number {
  return typeof v === "number" ? v : Number.NaN;
}

const SLOT_COUNT = 24;
const SLOTS = wasm.slots();
let view = new Float64Array(memory.buffer, SLOTS, SLOT_COUNT);

/** The result slots (a view re-made if memory grew: the old buffer is then detached). */
export function slots(): Float64Array {
  if (view.buffer !== memory.buffer) view = new Float64Array(memory.buffer, SLOTS, SLOT_COUNT);
  return view;
}

/**
 * Writes the UTF-16 code units of `s` (lone surrogates included) into wasm's
 * text buffer for the next call that takes text; returns their count.
 * @throws RangeError when wasm memory cannot grow to hold the text.
 */
export function text(s: string): number {
  const len = s.length;
  const at = wasm.textBuffer(len);
  if (at === 0) throw new RangeError(`text of ${len} UTF-16 code units does not fit in wasm memory`);
  // One view over all of memory, re-made only when memory grew (no view allocated per call).
  if (units.buffer !== memory.buffer) units = new Uint16Array(memory.buffer);
  const base = at >>> 1; // the buffer is 2-byte aligned
  for (let i = 0; i < len; i++) units[base + i] = s.charCodeAt(i);
  return len;
}

let units = new Uint16Array(memory.buffer);

/** ASCII text at `ptr` in wasm memory (the static strings of error messages). */
export function ascii(ptr: number, len: number): string {
  return String.fromCharCode(...new Uint8Array(memory.buffer, ptr, len));
}

/** Milliseconds of duration text, or `NaN` when it is not a duration. */
export function durationMs(s: string): number {
  return wasm.parseDuration(text(s));
}

/** A `DurationInput` option's number: a string's parse result, a number itself, else `NaN`. */
export function duration(v: unknown): number {
  return typeof v === "string" ? durationMs(v) : num(v);
}

/** The four words of the unfinished hash of `"<String(seed)> "`, for keyed draws. */
export function keyPrefix(seed: unknown): [number, number, number, number] {
  wasm.keyPrefix(text(String(seed)));
  const s = slots();
  return [s[0] as number, s[1] as number, s[2] as number, s[3] as number];
}

/** The keyed draw for `key`: the first draw of `"<seed> <String(key)>"`. */
export function keyedUnit(k: readonly number[], key: number): number {
  const [a, b, c, d] = k as [number, number, number, number];
  const r = wasm.keyedDraw(a, b, c, d, key);
  // NaN: a key Rust cannot write as JavaScript does (not an integer below 2^54).
  // `+key`: the number wasm saw (an attempt passed as text is converted, as by any export).
  return r === r ? r : wasm.keyedDrawText(a, b, c, d, text(String(+key)));
}

/** The wait a `Retry-After` field value asks for at `now`, ms, or `undefined`. */
export function retryAfterValueMs(value: string, now: number): number | undefined {
  const ms = wasm.retryAfterValueMs(text(value), now);
  return ms === ms ? ms : undefined;
}
