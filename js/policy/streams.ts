/**
 * The random streams behind `backoff-wasm/random` (which re-exports the public
 * names): seeded and system streams, mirroring `@sdxc/random`.
 * The generator runs in wasm; each stream's state (four words) is owned by its JS object. Seeded streams are sfc32 seeded by a
 * cyrb128-style hash of `String(seed)`'s UTF-16 code units; the generator runs
 * in wasm.
 * @module
 */
import { wasm } from "../engine/abi.js";
import { ARRAY, num, streamWords, tag, text } from "../engine/abi.js";
import { invalid, readable, TYPE } from "../engine/errors.js";
import { fail, failure, type Fail } from "../engine/wasm-errors.js";
import { ITEMS_OF_PICK, ITEMS_OF_SHUFFLE, SEED_OF_CREATE, SEED_OF_SCHEMA, SEED_OF_STATE } from "../engine/boundary.js";

/**
 * A seed: a string, or a number standing for `String(number)` (`42` and `"42"`
 * are one stream). A stream keeps its seed as given (`createRandom(7).seed === 7`).
 */
export type Seed = string | number;

/** The resumable state of a seeded stream: plain JSON. */
export interface RandomState {
  /**
   * The stream's seed, as given to `createRandom` (a string or a number); a `NaN` or infinite
   * number as its text (`"NaN"`, `"Infinity"`, `"-Infinity"`), which JSON keeps (it would write
   * the number as `null`) and which draws the same stream (the hash reads `String(seed)`).
   */
  seed: Seed;
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
  /**
   * `next() < chance` (default 0.5): 1 or more is always `true`, 0 or less always `false`
   * (one draw is taken either way, as upstream takes it).
   * @throws TypeError when `chance` is not a number, or is `NaN`.
   */
  bool(chance?: number): boolean;
  /**
   * One item, uniformly: `items[int(0, length - 1)]` (a hole reads `undefined`, as in the original).
   * @throws TypeError when `items` is not an array (`Array.isArray`; an array-like
   *   such as `{ length: 3 }` is not one) or cannot be read (a revoked Proxy, a
   *   throwing getter; the engine's error is the `cause`); RangeError on an empty
   *   list or a `length` that is not an integer from 1 to 2^32 − 1 (a Proxy's).
   */
  pick<T>(items: readonly T[]): T;
  /**
   * A shuffled copy (Fisher–Yates from the last index down to 1, swapping
   * with `int(0, i)`); the input is untouched, a hole is copied as `undefined`.
   * @throws TypeError as `pick`; RangeError for a `length` above 2^24
   *   (16 777 216 items, the most one call copies).
   */
  shuffle<T>(items: readonly T[]): T[];
}

/** A deterministic stream: same seed, same draws, in every runtime. */
export interface SeededRandom extends Random {
  /** The seed as given to `createRandom` (`createRandom(7).seed === 7`); the hash reads `String(seed)`. */
  readonly seed: Seed;
  /** An independent stream seeded with `` `${seed} ${label}` `` (whatever was drawn so far). @throws TypeError when `label` is neither a string nor a number. */
  derive(label: string | number): SeededRandom;
  /**
   * The state to resume from with `restoreRandom`: plain JSON, which `JSON.stringify` and
   * `JSON.parse` give back whole (a `NaN` or infinite number seed is written as its text).
   */
  state(): RandomState;
}

const TWO_TO_32 = 4294967296;

/**
 * The draws every stream has, as `@sdxc/random` builds them: own enumerable functions of the
 * stream (`next`, `int`, `float`, `bool`, `pick`, `shuffle`, in that order), not prototype
 * methods, so a draw taken off its stream (`const { next, int } = createRandom(42)`,
 * `Array.from({ length: 3 }, rng.next)`) or a spread copy (`{ ...rng }`) draws from the stream.
 */
abstract class RandomBase implements Random {
  /** The stream's raw draw (set by the constructor, first of the own properties). */
  readonly next: () => number;

  readonly int = (min: number, max: number): number => {
    if (wasm.checkBounds(true, tag(min), num(min), tag(max), num(max)) !== 0) fail([min, max]);
    return wasm.between(true, min, max, this.next());
  };

  readonly float = (min = 0, max = 1): number => {
    if (wasm.checkBounds(false, tag(min), num(min), tag(max), num(max)) !== 0) fail([min, max]);
    return wasm.between(false, min, max, this.next());
  };

  readonly bool = (chance = 0.5): boolean => {
    if (typeof chance !== "number" || Number.isNaN(chance)) {
      throw invalid(TYPE, "chance", "a number to compare next() with (not NaN)", chance);
    }
    return this.next() < chance;
  };

  readonly pick = <T>(items: readonly T[]): T => {
    const i = this.int(0, itemCount(items, ITEMS_OF_PICK) - 1);
    return read(items, () => items[i] as T);
  };

  readonly shuffle = <T>(items: readonly T[]): T[] => {
    const n = itemCount(items, ITEMS_OF_SHUFFLE);
    const out: T[] = [];
    read(items, () => {
      for (let i = 0; i < n; i++) out.push(items[i] as T);
    });
    for (let i = n - 1; i > 0; i--) {
      const j = this.int(0, i);
      const t = out[i] as T;
      out[i] = out[j] as T;
      out[j] = t;
    }
    return out;
  };

  /** @param next the stream's raw draw in `[0, 1)`. */
  constructor(next: () => number) {
    this.next = next;
  }
}

/**
 * `get()` of a caller's `items`, or the package's TypeError when reading
 * throws (a revoked Proxy, a throwing getter; the engine's error is the cause).
 */
function read<T>(items: unknown, get: () => T): T {
  return readable("items", "an array whose length and items can be read", items, get);
}

/** The checked `length` of `pick`'s (`ITEMS_OF_PICK`) or `shuffle`'s (`ITEMS_OF_SHUFFLE`) `items` (src/bindings/random.rs, `checkItems`). */
function itemCount(items: unknown, of: number): number {
  // A revoked Proxy: Array.isArray throws, which tag() reads as "an object"; read() keeps the cause.
  if (typeof items === "object" && items !== null) read(items, () => Array.isArray(items));
  const t = tag(items);
  const length = t === ARRAY ? read(items, () => (items as unknown[]).length) : undefined;
  if (wasm.checkItems(of, t, num(length)) !== 0) fail([items, length]);
  return length as number;
}

/**
 * The class below, once one of its objects exists (set by its constructor): until then no
 * object can be one, and an entry point that never makes one (`/backoff` only checks whether
 * a `random` is a seeded stream) does not ship the class.
 */
let seededClass: typeof Seeded | undefined;

/**
 * The state of a seeded stream: its four sfc32 words (JS-owned memory: a stream holds no wasm
 * memory, so there is nothing to free and nothing can leak). What a `SeededRandom` carries,
 * and all that Sigil's `seededRandom` needs (no `int`, `pick`, … helpers). A call that draws
 * from it is handed its words ({@link putStream}) and answers them after its draws
 * ({@link takeStream}).
 * @internal
 */
export type Words = Uint32Array;

/** The next draw in `[0, 1)` of the stream whose state is `words` (advanced). @internal */
export function streamNext(words: Words): number {
  putStream(words);
  const r = wasm.streamNext();
  takeStream(words);
  return r;
}

class Seeded extends RandomBase implements SeededRandom {
  readonly seed: Seed;
  readonly #state: Words;

  constructor(seed: Seed, state: Words) {
    super(() => streamNext(state));
    this.seed = seed;
    this.#state = state;
    seededClass = Seeded;
  }

  /** The words of the seeded stream `s`. */
  static words(s: Seeded): Words {
    return s.#state;
  }

  /**
   * Whether `x` was made by this class (it carries the words), not merely inherits from such
   * an object (`Object.create(stream)`), wraps one (a `Proxy`) or copies its functions (`{ ...stream }`):
   * those are ordinary sources, whose draws (the stream's own functions) reach the same words.
   */
  static is(x: unknown): boolean {
    return typeof x === "object" && x !== null && #state in x;
  }

  readonly derive = (label: string | number): SeededRandom => {
    if (typeof label !== "string" && typeof label !== "number") throw invalid(TYPE, "label", "a string or a number", label);
    return createRandom(`${this.seed} ${label}`);
  };

  // A NaN or infinite number seed as its text, so that the state survives JSON (draws read
  // `String(seed)`, the same text).
  readonly state = (): RandomState => {
    const seed = this.seed;
    return { seed: typeof seed === "string" || Number.isFinite(seed) ? seed : String(seed), words: Array.from(this.#state) as RandomState["words"] };
  };
}

/**
 * Whether `x` is a seeded stream of this copy of the package (its draws stay in wasm): made by
 * `createRandom`/`restoreRandom`/`derive` itself, not an object whose prototype is one. @internal
 */
export function isSeeded(x: unknown): x is SeededRandom {
  return seededClass !== undefined && seededClass.is(x);
}

/** The words of `stream`, a seeded stream ({@link isSeeded}). @internal */
export function wordsOf(stream: SeededRandom): Words {
  return (seededClass as typeof Seeded).words(stream as Seeded);
}

/** Writes `words` into the stream area for the next call that draws from them (in wasm memory: no call). @internal */
export function putStream(words: Words): void {
  const at = streamWords();
  for (let i = 0; i < 4; i++) at[i] = words[i] as number;
}

/** Takes the words the last call answered in the stream area as `words`' state. @internal */
export function takeStream(words: Words): void {
  const at = streamWords();
  for (let i = 0; i < 4; i++) words[i] = at[i] as number;
}

/**
 * The words of a new seeded stream (`createRandom`'s, and those of Sigil's `seededRandom`), a bad
 * seed's error thrown by `fail` (`fail`, or Sigil's own `failSigil`).
 * @throws TypeError when `seed` is neither a string nor a number.
 * @internal
 */
export function seedWords(seed: Seed, fail: Fail): Words {
  if (wasm.checkSeed(SEED_OF_CREATE, tag(seed), num(seed)) !== 0) fail([seed]);
  wasm.streamSeed(text(String(seed)));
  return Uint32Array.from(streamWords());
}

/**
 * `createRandom(seed).int(min, max)` for bounds known to be valid (the chart's id), without
 * a `SeededRandom` (so the chart does not ship the `Random` helpers). @internal
 */
export function seededInt(seed: Seed, min: number, max: number): number {
  return wasm.between(true, min, max, streamNext(seedWords(seed, fail)));
}

/**
 * A seeded stream. `seed` is a string or a number (`String(seed)` is hashed,
 * so `42` and `"42"` give one stream; `1e21` is `"1e+21"`); the stream keeps
 * `seed` as given (`createRandom(7).seed === 7`, and `state().seed` too, but for a `NaN` or
 * infinite number, which `state()` writes as its text so that JSON keeps it).
 *
 * `createRandom(42)`: raw words `floor(next() * 2^32)` are 3833195492,
 * 3563769608, …, as `@sdxc/random`'s.
 * @throws TypeError when `seed` is neither a string nor a number.
 */
export function createRandom(seed: Seed): SeededRandom {
  return new Seeded(seed, seedWords(seed, fail));
}

/**
 * Reads and checks a stored state (src/bindings/random.rs: `checkSeed`,
 * `checkWords`, `checkWord`) for `restoreRandom` (`schema` false) and
 * `RANDOM_STATE_SCHEMA` (true: a plain object and a finite number seed, as
 * upstream's schema). Returns every problem as `[error, path]`, in order
 * (seed, words, each word), and a fresh `{ seed, words }` when there is none.
 */
function readState(value: unknown, schema: boolean): [problems: [Error, (string | number)[]][], state: RandomState] {
  const problems: [Error, (string | number)[]][] = [];
  const EXPECTED = "an object { seed, words }";
  let seed: unknown;
  let words: unknown;
  let length: unknown;
  const w: unknown[] = [];
  if (value === null || typeof value !== "object" || (schema && tag(value) === ARRAY)) {
    problems.push([invalid(TYPE, "state", EXPECTED, value), []]);
  } else {
    // Every read first: a revoked Proxy or a throwing getter fails here, with the package's error.
    try {
      ({ seed, words } = value as Record<string, unknown>);
      // Array.isArray throws on a revoked Proxy (which tag() reads as a plain object).
      if (typeof words === "object" && words !== null && Array.isArray(words)) {
        length = (words as unknown[]).length;
        for (let i = 0; i < 4; i++) w.push((words as unknown[])[i]);
      }
    } catch (e) {
      problems.push([invalid(TYPE, "state", `${EXPECTED} that can be read`, value, e), []]);
    }
  }
  if (problems.length === 0) {
    if (wasm.checkSeed(schema ? SEED_OF_SCHEMA : SEED_OF_STATE, tag(seed), num(seed)) !== 0) problems.push([failure([seed]), ["seed"]]);
    if (wasm.checkWords(tag(words), num(length)) !== 0) problems.push([failure([words, length]), ["words"]]);
    else w.forEach((x, i) => wasm.checkWord(i, tag(x), num(x)) !== 0 && problems.push([failure([x]), ["words", i]]));
  }
  return [problems, { seed: seed as Seed, words: w as RandomState["words"] }];
}

/**
 * Resumes a stream from `state()` exactly where it was; accepts every snapshot
 * `state()` writes, before or after a JSON round trip (`seed` a string or a
 * number, as upstream's). The stream's `seed` is the state's: a stream seeded with `NaN`
 * or an infinite number resumes with its text (`"NaN"`), as `state()` writes it, and draws
 * the same numbers.
 * @throws TypeError when `state` is not an object (or cannot be read: a revoked
 *   Proxy, a throwing getter), `seed` is neither a string nor a number or
 *   `words` is not an array; RangeError when `words` does not hold exactly four
 *   unsigned 32-bit integers. The message names the field and the value.
 */
export function restoreRandom(state: RandomState): SeededRandom {
  const [problems, s] = readState(state, false);
  if (problems[0]) throw problems[0][0];
  return new Seeded(s.seed, Uint32Array.from(s.words));
}

/** One problem `RANDOM_STATE_SCHEMA` reports: its message and where it is (`["words", 3]`). */
export interface RandomStateIssue {
  /** What is wrong, e.g. `state.words[3] must be an unsigned 32-bit integer; received -1`. */
  readonly message: string;
  /** Where: `[]` (the value itself), `["seed"]`, `["words"]` or `["words", i]`. */
  readonly path: ReadonlyArray<string | number>;
}

/** What `RANDOM_STATE_SCHEMA`'s `validate` returns: `{ value }` or `{ issues }` (Standard Schema v1). */
export type RandomStateResult =
  | { readonly value: RandomState; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<RandomStateIssue> };

/**
 * A [Standard Schema](https://standardschema.dev) v1 validator (the
 * `StandardSchemaV1<unknown, RandomState>` shape, written out here so the
 * package has no dependency, not even a type-only one).
 */
export interface RandomStateSchema {
  /** The Standard Schema v1 properties. */
  readonly "~standard": {
    /** Standard Schema version: 1. */
    readonly version: 1;
    /** `"backoff-wasm"`. */
    readonly vendor: "backoff-wasm";
    /** Validates synchronously: `{ value }` (a fresh `{ seed, words }`) or `{ issues: [{ message, path }] }`. */
    readonly validate: (value: unknown) => RandomStateResult;
    /** Types only (absent at run time): input `unknown`, output `RandomState`. */
    readonly types?: { readonly input: unknown; readonly output: RandomState } | undefined;
  };
}

/**
 * Validates a stored snapshot before `restoreRandom` (as `@sdxc/random`'s
 * schema): a plain object `{ seed: string | finite number, words: [4 × integer
 * in [0, 2^32)] }`. Any Standard Schema v1 consumer takes it, e.g.
 * `parseSafe(RANDOM_STATE_SCHEMA, JSON.parse(stored))` of `@remix-run/data-schema`.
 * Every problem is reported (missing or wrong-type seed, not four words,
 * a negative, fractional or ≥ 2^32 word), with a path (`["words", 3]`) and the
 * message `restoreRandom` would throw; never throws itself.
 */
export const RANDOM_STATE_SCHEMA: RandomStateSchema = {
  "~standard": {
    version: 1,
    vendor: "backoff-wasm",
    validate(value: unknown): RandomStateResult {
      const [problems, state] = readState(value, true);
      return problems[0] ? { issues: problems.map(([e, path]) => ({ message: e.message, path })) } : { value: state };
    },
  },
};

/** Draws in `[0, 1)` from `crypto.getRandomValues`, 64 words fetched at a time (never `Math.random`). */
function systemDraws(): () => number {
  const buf = new Uint32Array(64);
  let at = 64;
  return () => {
    if (at === buf.length) {
      globalThis.crypto.getRandomValues(buf);
      at = 0;
    }
    return (buf[at++] as number) / TWO_TO_32;
  };
}

class System extends RandomBase {
  constructor() {
    super(systemDraws());
  }
}

/**
 * The source of a policy given no `random`: the draws of `systemRandom()`, of which a
 * policy only calls `next()` (so an entry point without `systemRandom` does not ship the
 * `Random` helpers). @internal
 */
export function systemSource(): { next(): number } {
  return { next: systemDraws() };
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
