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
import { REGISTER_LEN, SLOT_COUNT, SLOT_INPUT, TEXT_CAPACITY } from "./boundary.js";

export { num, tag } from "./tags.js";
export { duration, durationMs } from "./duration-text.js";
/** The tags of a function and of an array (`Array.isArray`), re-exported so that esbuild inlines them (js/engine/errors.ts, `RANGE`). @internal */
export { TAG_FUNCTION as FUNCTION, TAG_ARRAY as ARRAY } from "./boundary.js";

/** An export as called here: a boolean argument crosses as 0 or 1 (JavaScript → i32). @internal */
type Raw<F> = F extends (...args: infer A) => infer R ? (...args: { [I in keyof A]: number | boolean }) => R : F;

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
let view = new Float64Array(memory.buffer, SLOTS, SLOT_COUNT);

/**
 * The result slots (a view re-made if memory grew: the old buffer is then detached, and a
 * view of a detached buffer has length 0 — a check much cheaper than reading `memory.buffer`).
 */
export function slots(): Float64Array {
  if (view.length === 0) view = new Float64Array(memory.buffer, SLOTS, SLOT_COUNT);
  return view;
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
  if (units.length === 0) units = new Uint16Array(memory.buffer);
  const base = at >>> 1; // the buffer is 2-byte aligned
  for (let i = 0; i < len; i++) units[base + i] = s.charCodeAt(i);
  return len;
}

let units = new Uint16Array(memory.buffer);


// ------------------------------------------------------------------ the policy register

let register: Float64Array | undefined;
/** The record whose copy is in the register now (`undefined`: unknown). */
let loaded: readonly number[] | undefined;
/** Counts the register's changes of content (a load, a compile, a call that replaced it). */
let epoch = 0;

/**
 * How many times the register's content changed so far: equal before and after a call
 * when nothing (a caller's `random` that used this package, say) replaced it meanwhile.
 */
export function registerEpoch(): number {
  return epoch;
}

/** The policy register (a view re-made if memory grew: see {@link slots}). */
export function reg(): Float64Array {
  // Made on first use (an entry point that never compiles a policy does not ask wasm for it).
  if (register === undefined || register.length === 0) {
    register = new Float64Array(memory.buffer, wasm.register() >>> 0, REGISTER_LEN);
  }
  return register;
}

/**
 * Puts a compiled policy `rec` into the register unless it is already there (no wasm call).
 * An element loop: `Float64Array#set` from an array is a builtin call, slower for a header of 16.
 */
export function load(rec: readonly number[]): void {
  if (loaded !== rec) {
    const r = reg();
    for (let i = 0; i < rec.length; i++) r[i] = rec[i] as number;
    loaded = rec;
    epoch++;
  }
}

/**
 * The compiled policy `compile*` just wrote: the register's first `len` doubles, now loaded.
 * A plain array of numbers, not a typed array: a `Float64Array` per policy (its own
 * backing store) costs more to allocate and collect than the rest of `createBackoff()`.
 */
export function compiled(len: number): number[] {
  const r = reg();
  const rec: number[] = new Array(len); // filled at once: cheaper than growing it by push
  for (let i = 0; i < len; i++) rec[i] = r[i] as number;
  loaded = rec;
  epoch++;
  return rec;
}

let stream: Uint32Array | undefined;

/**
 * The loaded seeded stream's four state words in wasm memory (`streamState`), read and
 * written in place to save and load a stream (a view re-made if memory grew: see {@link slots}).
 */
export function streamWords(): Uint32Array {
  if (stream === undefined || stream.length === 0) stream = new Uint32Array(memory.buffer, wasm.streamState() >>> 0, 4);
  return stream;
}

/**
 * Tells the register's tracking that a call replaced (or is about to replace) its content:
 * Sigil's call, or a compile, which writes the register in steps and may fail between them.
 */
export function replaced(): void {
  loaded = undefined;
  epoch++;
}

