/**
 * The numbers-only boundary to wasm (internal to the package).
 *
 * Every wasm export takes and returns numbers. JavaScript values cross as a
 * type tag ({@link tag}) plus a number; text (seeds, the key text of a keyed
 * draw) is written as UTF-16 code units into wasm's text
 * buffer ({@link text}); results that are more than one number come back in
 * result slots read through {@link slots}. Rust validates and decides; this
 * module only marshals. See src/bindings/mod.rs.
 * @internal
 * @module
 */
import { wasmExports } from "./wasm.js";
import type { InitOutput } from "./backoff_wasm.js";
import { tag } from "./tags.js";
import { MAX_STEPS, REC_HEADER, REC_STEPS, REGISTER_LEN, SLOT_COUNT, SLOT_INPUT, TAG_NUMBER, TEXT_CAPACITY } from "./boundary.js";

export { num, tag } from "./tags.js";
export { duration, durationMs } from "./duration-text.js";
/** The tags of a function and of an array (`Array.isArray`), re-exported so that esbuild inlines them (js/engine/errors.ts, `RANGE`). @internal */
export { TAG_FUNCTION as FUNCTION, TAG_ARRAY as ARRAY } from "./boundary.js";

/** An export as called here: a boolean argument crosses as 0 or 1 (JavaScript → i32); a JavaScript value (a call's draw context) as itself. @internal */
type Raw<F> = F extends (...args: infer A) => infer R ? (...args: { [I in keyof A]: A[I] extends number ? number | boolean : A[I] }) => R : F;

/**
 * The instance's exports (the loader instantiated the wasm), called directly:
 * wasm-bindgen's wrapper functions are not used (each costs an application bundle its
 * code and only adds `>>> 0` to an i32 result: here every such result is a 0/1 status,
 * a word stored into a `Uint32Array`, or an address, which takes `>>> 0` where it is read).
 * @internal
 */
export const wasm: { readonly [K in keyof InitOutput]: Raw<InitOutput[K]> } = wasmExports as never;
const memory: WebAssembly.Memory = wasm.memory;

const SLOTS = wasm.slots() >>> 0;
const AREA = wasm.policyArea() >>> 0;
const STREAM = wasm.streamState() >>> 0;

/**
 * The views over wasm memory a call's inputs and results are read and written through
 * (internal names end in `_`: the package's build shortens them, scripts/assemble.mjs).
 */
interface Views {
  /** The result and input slots. */
  readonly slots_: Float64Array;
  /** All of memory as UTF-16 code units (for the text buffer). */
  readonly units_: Uint16Array;
  /** The policy area. */
  readonly area_: Float64Array;
  /** The stream area's four words. */
  readonly stream_: Uint32Array;
}

function viewsOf(b: ArrayBuffer): Views {
  return {
    slots_: new Float64Array(b, SLOTS, SLOT_COUNT),
    units_: new Uint16Array(b),
    area_: new Float64Array(b, AREA, REGISTER_LEN),
    stream_: new Uint32Array(b, STREAM, 4),
  };
}

/**
 * The views, re-made together when memory grew: the old buffer is then detached, and a view
 * of a detached buffer has length 0 — a check much cheaper than reading `memory.buffer`.
 */
let views = viewsOf(memory.buffer);

function current(): Views {
  if (views.slots_.length === 0) views = viewsOf(memory.buffer);
  return views;
}

/** The result slots (a view re-made if memory grew). */
export function slots(): Float64Array {
  return current().slots_;
}

/**
 * Writes field `field` of a call's table (`BACKOFF_*`, `SIGIL_*` of js/engine/boundary.ts, generated
 * from src/boundary.rs) into the input slots of `s` (a {@link slots} view taken after the last
 * call that may grow memory): the type tag of the value `v`, and the number `x` its table says it crosses as.
 */
export function put(s: Float64Array, field: number, v: unknown, x: number): void {
  s[SLOT_INPUT + 2 * field] = tag(v);
  s[SLOT_INPUT + 2 * field + 1] = x;
}

/** {@link put} with the tag `t` of the value already known (the caller's `typeof` told it). */
export function putTag(s: Float64Array, field: number, t: number, x: number): void {
  s[SLOT_INPUT + 2 * field] = t;
  s[SLOT_INPUT + 2 * field + 1] = x;
}

/**
 * {@link put} of a field its table says crosses as a number: the tag and the number when `v`
 * is a number (one `typeof`, no {@link tag} call), else `v`'s tag and `NaN`.
 */
export function putNumber(s: Float64Array, field: number, v: unknown): void {
  const at = SLOT_INPUT + 2 * field;
  if (typeof v === "number") {
    s[at] = TAG_NUMBER;
    s[at + 1] = v;
  } else {
    s[at] = tag(v);
    s[at + 1] = NaN;
  }
}

/** Its address: short text is written there without a call. */
const TEXT_AT = wasm.textBuffer(0) >>> 0;

/**
 * Writes the UTF-16 code units of `s` (lone surrogates included) into wasm's
 * text buffer for the next call that takes text; returns their count. Text of
 * up to 256 code units costs no wasm call.
 * @throws RangeError when wasm memory cannot grow to hold the text.
 */
export function text(s: string): number {
  const len = s.length;
  const at = len <= TEXT_CAPACITY ? TEXT_AT : wasm.textBuffer(len) >>> 0;
  if (at === 0) throw new RangeError(`text of ${len} UTF-16 code units does not fit in wasm memory`);
  // One view over all of memory, re-made only when memory grew (no view allocated per call).
  const units = current().units_;
  const base = at >>> 1; // the buffer is 2-byte aligned
  for (let i = 0; i < len; i++) units[base + i] = s.charCodeAt(i);
  return len;
}



// ------------------------------------------------------------------ a call's inputs

/**
 * The policy area (a view re-made if memory grew): where a call that runs a compiled policy
 * reads it, written by {@link writeRecord} right before, and where a compile answers one.
 */
function policyArea(): Float64Array {
  return current().area_;
}

/**
 * Writes a compiled policy `rec` into the policy area for the next call, which reads it. Every
 * call that runs a policy is given its record this way: nothing a call left there is trusted.
 * An element loop: `Float64Array#set` from an array is a builtin call, slower for a header of 16.
 */
export function writeRecord(rec: readonly number[]): void {
  const r = policyArea();
  for (let i = 0; i < rec.length; i++) r[i] = rec[i] as number;
}

/**
 * The compiled policy a compile just answered: the policy area's first `REC_HEADER` doubles and
 * its steps. A plain array of numbers, not a typed array: a `Float64Array` per policy (its own
 * backing store) costs more to allocate and collect than the rest of `createBackoff()`.
 */
export function readRecord(): number[] {
  const r = policyArea();
  const len = REC_HEADER + (r[REC_STEPS] as number);
  const rec: number[] = new Array(len); // filled at once: cheaper than growing it by push
  for (let i = 0; i < len; i++) rec[i] = r[i] as number;
  return rec;
}

/**
 * The steps a compile reads (a view made per call, over memory as it is now, its address asked
 * here so that a bundle that compiles no steps, Sigil's, has neither): step `i` as its type tag
 * at `2 * i` and its number at `2 * i + 1`.
 */
export function stepInput(): Float64Array {
  return new Float64Array(current().slots_.buffer, wasm.stepInput() >>> 0, 2 * MAX_STEPS);
}

/**
 * The stream area's four state words in wasm memory (`streamState`): a call that draws from a
 * seeded stream reads them, written right before, and answers the stream after its draws there
 * (a view re-made if memory grew: see {@link slots}).
 */
export function streamWords(): Uint32Array {
  return current().stream_;
}
