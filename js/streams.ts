/**
 * The random streams behind `backoff-wasm/random` (which re-exports the public
 * names): seeded and system streams, mirroring `@sdxc/random` (API.md section 3).
 * The generator runs in wasm; each stream's state (four words) is owned by its JS object. Seeded streams are sfc32 seeded by a
 * cyrb128-style hash of `String(seed)`'s UTF-16 code units; the generator runs
 * in wasm.
 * @module
 */
import * as wasm from "./wasm.js";
import { ARRAY, num, tag, text } from "./abi.js";
import { fail, invalid, RANGE, TYPE } from "./errors.js";

/** A seed: a string, or a number standing for `String(number)` (`42` and `"42"` are one stream). */
export type Seed = string | number;

/** The resumable state of a seeded stream: plain JSON. */
export interface RandomState {
  /** `String(seed)` of the stream's seed. */
  seed: string;
  /** The four sfc32 state words, each an unsigned 32-bit integer. */
  words: [number, number, number, number];
}

/** A source of uniform draws and the usual helpers built on them. */
export interface Random {
  /** A uniform draw in `[0, 1)`. */
  next(): number;
  /**
   * An integer in `[min, max]`, both ends included: `min + floor(next() * (max - min + 1))`.
   * @throws RangeError when a bound is not a safe integer or `max < min` (no draw is taken).
   */
  int(min: number, max: number): number;
  /**
   * A number in `[min, max)`: `min + next() * (max - min)`.
   * @throws RangeError for a bound that is not a finite number.
   */
  float(min?: number, max?: number): number;
  /** `next() < chance` (default 0.5). @throws TypeError when `chance` is not a number. */
  bool(chance?: number): boolean;
  /** One item, uniformly: `items[int(0, length - 1)]`. @throws RangeError on an empty list. */
  pick<T>(items: readonly T[]): T;
  /**
   * A shuffled copy (Fisher–Yates from the last index down to 1, swapping
   * with `int(0, i)`); the input is untouched.
   */
  shuffle<T>(items: readonly T[]): T[];
}

/** A deterministic stream: same seed, same draws, in every runtime. */
export interface SeededRandom extends Random {
  /** `String(seed)`. */
  readonly seed: string;
  /** An independent stream seeded with `` `${seed} ${label}` `` (whatever was drawn so far). @throws TypeError when `label` is neither a string nor a number. */
  derive(label: string | number): SeededRandom;
  /** The state to resume from with `restoreRandom` (plain JSON). */
  state(): RandomState;
}

const TWO_TO_32 = 4294967296;

abstract class RandomBase implements Random {
  abstract next(): number;

  int(min: number, max: number): number {
    if (wasm.checkIntBounds(tag(min), num(min), tag(max), num(max)) !== 0) fail([min, max]);
    return wasm.intBetween(min, max, this.next());
  }

  float(min = 0, max = 1): number {
    if (wasm.checkFloatBounds(tag(min), num(min), tag(max), num(max)) !== 0) fail([min, max]);
    return wasm.floatBetween(min, max, this.next());
  }

  bool(chance = 0.5): boolean {
    if (typeof chance !== "number" || Number.isNaN(chance)) {
      throw invalid(TYPE, "chance", "a number in [0, 1]", chance);
    }
    return this.next() < chance;
  }

  pick<T>(items: readonly T[]): T {
    const list = arrayLike(items, "items");
    if (list.length === 0) throw invalid(RANGE, "items", "a non-empty array", items);
    return list[this.int(0, list.length - 1)] as T;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = Array.from(arrayLike(items, "items"));
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const t = out[i] as T;
      out[i] = out[j] as T;
      out[j] = t;
    }
    return out;
  }
}

function arrayLike<T>(items: readonly T[], option: string): readonly T[] {
  if (items === null || typeof items !== "object" || typeof (items as { length?: unknown }).length !== "number") {
    throw invalid(TYPE, option, "an array", items);
  }
  return items;
}

/**
 * Key of a seeded stream's method that loads its state into wasm, for the
 * policy's one `delay` call (which then draws from it in wasm). @internal
 */
export const STREAM: unique symbol = Symbol("backoff-wasm.stream");

/**
 * The stream whose state is loaded in wasm (`streamSeed`/`streamLoad`); its
 * `#words` are stale until it is saved. Every other stream's state lives in
 * its own `#words` (JS-owned memory: a stream holds no wasm memory, so there
 * is nothing to free and nothing can leak).
 */
let loaded: Seeded | undefined;

class Seeded extends RandomBase implements SeededRandom {
  readonly seed: string;
  readonly #words: Uint32Array;

  /** @param words the state, or `undefined` when this stream was just loaded by `streamSeed`. */
  constructor(seed: string, words: Uint32Array | undefined) {
    super();
    this.seed = seed;
    this.#words = words ?? new Uint32Array(4);
    if (words === undefined) loaded = this;
  }

  /** Copies the wasm state of the loaded stream back into its own words. */
  static save(): void {
    if (loaded === undefined) return;
    const w = loaded.#words;
    for (let i = 0; i < 4; i++) w[i] = wasm.streamWord(i);
    loaded = undefined;
  }

  /** Makes this the loaded stream (a no-op when it already is). */
  [STREAM](): void {
    if (loaded === this) return;
    Seeded.save();
    const w = this.#words;
    wasm.streamLoad(w[0] as number, w[1] as number, w[2] as number, w[3] as number);
    loaded = this;
  }

  next(): number {
    this[STREAM]();
    return wasm.streamNext();
  }

  derive(label: string | number): SeededRandom {
    if (typeof label !== "string" && typeof label !== "number") throw invalid(TYPE, "label", "a string or a number", label);
    return createRandom(`${this.seed} ${label}`);
  }

  state(): RandomState {
    this[STREAM]();
    Seeded.save();
    const [a, b, c, d] = this.#words;
    return { seed: this.seed, words: [a as number, b as number, c as number, d as number] };
  }
}

/** Whether `x` is a seeded stream of this copy of the package (its draws stay in wasm). @internal */
export function isSeeded(x: unknown): x is SeededRandom & { [STREAM](): void } {
  return x instanceof Seeded;
}

/**
 * A seeded stream. `seed` is a string or a number (`String(seed)` is hashed,
 * so `42` and `"42"` give one stream; `1e21` is `"1e+21"`).
 *
 * `createRandom(42)`: raw words `floor(next() * 2^32)` are 3833195492,
 * 3563769608, … (API.md section 3).
 * @throws TypeError when `seed` is neither a string nor a number.
 */
export function createRandom(seed: Seed): SeededRandom {
  if (wasm.checkSeed(tag(seed)) !== 0) fail([seed]);
  const s = String(seed);
  const len = text(s);
  Seeded.save();
  wasm.streamSeed(len);
  return new Seeded(s, undefined);
}

/**
 * Resumes a stream from `state()` exactly where it was.
 * @throws TypeError when `state` is not an object, `seed` is not a string or
 *   `words` is not an array; RangeError when `words` does not hold exactly
 *   four unsigned 32-bit integers.
 */
export function restoreRandom(state: RandomState): SeededRandom {
  if (state === null || typeof state !== "object") throw invalid(TYPE, "state", "an object { seed, words }", state);
  const { seed, words } = state;
  if (typeof seed !== "string") throw invalid(TYPE, "state.seed", "a string", seed);
  const isArray = tag(words) === ARRAY;
  if (wasm.checkWords(tag(words), isArray ? num((words as unknown[]).length) : Number.NaN) !== 0) fail([words]);
  const w = new Uint32Array(4);
  for (let i = 0; i < 4; i++) {
    const x = (words as unknown[])[i];
    if (wasm.checkWord(i, tag(x), num(x)) !== 0) fail([x]);
    w[i] = x as number;
  }
  return new Seeded(seed, w);
}

class System extends RandomBase {
  #buf = new Uint32Array(64);
  #at = 64;

  next(): number {
    if (this.#at === this.#buf.length) {
      globalThis.crypto.getRandomValues(this.#buf);
      this.#at = 0;
    }
    return (this.#buf[this.#at++] as number) / TWO_TO_32;
  }
}

/**
 * A stream backed by `crypto.getRandomValues` (64 words fetched at a time;
 * never `Math.random`). It has no seed and no state.
 */
export function systemRandom(): Random {
  return new System();
}

/** A fresh unsigned 32-bit seed from `crypto.getRandomValues`. */
export function systemSeed(): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0] as number;
}
