/**
 * `backoff-wasm/backoff` and `backoff-wasm/policy`: `createBackoff` of
 * `@sdxc/backoff` and the fluent `Backoff` policy value (`backoff-wasm/policy`)
 * — one class. Options are validated once, in wasm, into a
 * compiled policy: a record of numbers this object carries (a plain array, not
 * wasm memory: nothing to free, no `FinalizationRegistry`, no leak). Each
 * `delay()` is ONE wasm call, `delay` in src/bindings/backoff.rs, which runs
 * the composition of src/core/policy.rs (`Policy::delay_with`) with the draws
 * of the policy's source (a seeded stream and keyed draws inside Rust; a
 * JavaScript `random` through js/engine/draw.ts).
 * @module
 */
import { wasm } from "../engine/abi.js";
import { duration, FUNCTION, num, put, readRecord, slots, stepInput, streamWords, tag, text, writeRecord } from "../engine/abi.js";
import { invalid, RANGE, readable, TYPE } from "../engine/errors.js";
import { failBackoff as fail, failed, keyedAgain } from "../engine/wasm-errors.js";
import {
  BACKOFF_ATTEMPTS, BACKOFF_BASE, ERR_INDEX, BACKOFF_CAP, BACKOFF_FACTOR, BACKOFF_FIELDS, BACKOFF_FREE, BACKOFF_GROWTH,
  BACKOFF_JITTER, BACKOFF_MAX, BACKOFF_NAME, BACKOFF_OPTIONS_FROM, BACKOFF_OPTIONS_TO, BACKOFF_RANDOM, BACKOFF_SEED, BACKOFF_STEPS, GROWTH_NAMES, JITTER_FULL,
  JITTER_NAMES, REC_ATTEMPTS, REC_BASE, REC_CAP, REC_FACTOR, REC_FRACTION, REC_FREE, REC_GROWTH, MAX_STEPS, REC_HEADER,
  isBackoffOption, readBackoffOptions, REC_JITTER, REC_MAX, REC_SOURCE, SOURCE_KEYED, SOURCE_SEEDED, STEPPED, TAG_ARRAY,
} from "../engine/boundary.js";
import { isSeeded, putStream, systemSource, takeStream, wordsOf, type Random, type SeededRandom, type Words } from "./streams.js";
import { drawsFrom, type Draws } from "../engine/draw.js";
import type { DurationInput } from "./duration.js";

/**
 * Jitter: a fraction `f` in `[0, 1]` spreads each wait uniformly over
 * `[d(1-f), d(1+f)]` (`Math.round(d * random.float(1 - f, 1 + f))`); `"full"`
 * picks uniformly in `[0, d]` (`Math.round(random.float(0, d))`); `"equal"`
 * keeps half and randomises half, `[d/2, d]` (`Math.round(d/2 + r * d/2)`,
 * AWS "Exponential Backoff And Jitter"); `"decorrelated"` replaces the growth
 * curve with AWS's decorrelated recurrence `sleep_0 = base`,
 * `sleep_k = min(cap, random.float(base, 3 * sleep_{k-1}))`, in `[base, cap]`
 * (needs a cap; curve policies only; one draw per step, at most the last 1000
 * steps of attempt n are iterated). 0 or absent: no draw, no rounding.
 *
 * Ranges of one jittered wait `d` (before rounding to an integer):
 * `f` → `[d(1-f), d(1+f)]`; `"full"` → `[0, d]`; `"equal"` → `[d/2, d]`;
 * `"decorrelated"` → `[base, min(cap, 3^n base)]`.
 */
export type Jitter = number | "full" | "equal" | "decorrelated";

/** Options every policy shape takes. */
export interface BackoffSharedOptions {
  /** Attempts that wait 0 before the curve starts (a non-negative safe integer, default 0). */
  free?: number;
  /** See {@link Jitter}. */
  jitter?: Jitter;
  /**
   * Source of jitter draws: a `Random` (anything with `float(min, max)`, or with
   * `next()`), or a bare `() => number` in `[0, 1)`. Default `systemRandom()`.
   * A seeded stream from `createRandom` draws inside wasm.
   */
  random?: Pick<Random, "float"> | Pick<Random, "next"> | (() => number);
  /**
   * Keyed jitter: the draw for attempt `n` is `createRandom(String(seed) + " " + n).next()`,
   * so `delay(n)` is a pure function of (seed, n) — the same in any order, in any
   * process, after a restart. Cannot be combined with `random` (TypeError).
   */
  seed?: string | number;
  /**
   * Attempts in TOTAL, the first included (an integer >= 1): bounds `schedule()`,
   * iteration and `retry()`. An extension of this package; the fluent form is `.maxAttempts(n)`.
   */
  maxAttempts?: number;
  /**
   * A hard bound on every wait, jitter included (the fluent `.cap(max)`): a jittered wait
   * whose band crosses it is drawn uniformly from the band truncated at it
   * (± `f`: `[d(1-f), min(d(1+f), cap)]`), so no wait exceeds it. >= base.
   */
  cap?: DurationInput;
}

/** A growing curve. */
export interface BackoffCurveOptions extends BackoffSharedOptions {
  /** The first wait. */
  base: DurationInput;
  /** `"exponential"` (default): `base * factor^(n-1)`; `"linear"`: `base * n`; `"constant"`: `base`. */
  growth?: "exponential" | "linear" | "constant";
  /** Exponential multiplier, finite and >= 1 (default 2); only with exponential growth. */
  factor?: number;
  /** Ceiling of each wait before jitter, >= base; unbounded when omitted (`@sdxc/backoff`'s rule: a jittered wait may exceed it by the jitter fraction). */
  max?: DurationInput;
  steps?: never;
}

/** A fixed list of waits; the last repeats. */
export interface BackoffStepsOptions extends BackoffSharedOptions {
  /** A non-empty list of at most 1000 waits (a longer list, or one claiming a longer `length`, is a RangeError). */
  steps: readonly DurationInput[];
  base?: never;
  growth?: never;
  factor?: never;
  max?: never;
}

/** Options of `createBackoff`. */
export type BackoffOptions = BackoffCurveOptions | BackoffStepsOptions;

/** What `toJSON()` returns for a curve policy. */
export interface BackoffCurveJSON {
  growth: "exponential" | "linear" | "constant";
  base: number;
  /** Present for exponential growth. */
  factor?: number;
  /** Present when a ceiling before jitter is set. */
  max?: number;
  /** Present when a hard bound after jitter is set (`.cap()`). */
  cap?: number;
  free: number;
  jitter: Jitter;
  /** The keyed-jitter seed as given (a NaN or infinite number as its text). */
  seed?: string | number;
  maxAttempts?: number;
  steps?: never;
}

/** What `toJSON()` returns for a steps policy. */
export interface BackoffStepsJSON {
  steps: number[];
  /** Present when a hard bound after jitter is set (`.cap()`). */
  cap?: number;
  free: number;
  jitter: Jitter;
  /** The keyed-jitter seed as given (a NaN or infinite number as its text). */
  seed?: string | number;
  maxAttempts?: number;
  base?: never;
  growth?: never;
  factor?: never;
  max?: never;
}

/**
 * What `toJSON()` returns: plain `createBackoff` options in ms that rebuild the
 * policy (`createBackoff(policy.toJSON())`); `random` is left out.
 */
export type BackoffJSON = BackoffCurveJSON | BackoffStepsJSON;


/** Shared by every copy of the package (ESM and CommonJS): a policy's options. */
const OPTIONS: unique symbol = Symbol.for("backoff-wasm.Backoff.options") as never;
/** Passed by this module's own calls of the constructor: its first argument is a {@link Values} list. */
const OWN = {};
let defaultRandom: { next(): number } | undefined;
/** Attempts `0 … MEMO_LEN - 1` of a policy without jitter are remembered once computed (`#memo`). */
const MEMO_LEN = 64;
/** Waits `schedule()` asks wasm for per call (`waits`): the result slots before the error's. */
const WAITS = 8;

type RandomOption = NonNullable<BackoffSharedOptions["random"]>;

/**
 * A policy's option values by field, in the order of `BACKOFF_FIELDS` (generated from
 * src/boundary.rs): the 11 options, then the first key that is not an option name.
 * `undefined` is an option left out.
 */
type Values = Unknowns<typeof BACKOFF_FIELDS>;
/** A tuple of `unknown` as long as `T`. */
type Unknowns<T extends readonly unknown[]> = { -readonly [K in keyof T]: unknown };

/** Values with every option left out (a literal: one element kind, no holes, no call). */
function blank(): Values {
  return [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined];
}

/**
 * The option values of an options object: each option read once, by its name (an inherited
 * option or a class's getter counts, as for `/sigil`'s options), in the order of
 * `BACKOFF_FIELDS`; the first key listed (`for…in`: enumerable keys, inherited ones too) that
 * is not an option name is kept in the `name` field (wasm raises it in its place among the
 * checks; its value is not read).
 * @throws TypeError when the keys cannot be listed, or a value cannot be read (a revoked
 *   Proxy, a throwing getter: the engine's error is the `cause`), or `options` is not an object.
 */
function valuesOf(options: object): Values {
  if (options === null || typeof options !== "object") throw invalid(TYPE, "options", "an object", options);
  let name: string | undefined;
  try {
    for (const key in options) {
      if (!isBackoffOption(key)) {
        name = key;
        break;
      }
    }
  } catch (e) {
    // A revoked Proxy, or one whose traps throw: the package's own error, not the engine's.
    throw invalid(TYPE, "options", "an object whose keys can be listed", options, e);
  }
  try {
    return readBackoffOptions(options as Record<string, unknown>, name);
  } catch (e) {
    // A getter that throws: named as such, with what it threw as the `cause`.
    throw invalid(TYPE, "options", "an object whose options can be read", options, e);
  }
}

/**
 * A retry policy: how long to wait before each retry. Immutable; every fluent
 * method returns a new policy. Built by `createBackoff(options)`,
 * `Backoff.fixed/linear/exponential(...)` or `Backoff.from(x)`.
 *
 * `Backoff.exponential("2 seconds").cap("5 minutes")` waits 2 s, 4 s, 8 s, …,
 * 4 min 16 s, then 5 min for ever.
 */
export class Backoff implements Iterable<number> {
  /**
   * The options this policy was built from, by field (`BACKOFF_FIELDS` order, the last
   * slot the unknown option name, if any): its own copy, steps as ms numbers. Nothing
   * writes to it after the constructor; fluent steps copy it.
   */
  readonly #values: Values;
  /** The compiled policy (layout `rec` of src/bindings/backoff.rs). */
  readonly #rec: readonly number[];
  /** Where a JavaScript source's draws come from (`undefined` for seeded and keyed draws). */
  readonly #source: unknown;
  /** The words of a seeded stream, handed to each call that draws from them. */
  readonly #stream: Words | undefined;
  /**
   * Whether a `delay()` hands the policy over as arguments (`delayCurve`): a curve (no steps)
   * that draws from no JavaScript source (a seeded stream, keyed draws, or no jitter).
   */
  readonly #curve: boolean;
  /**
   * For a policy without jitter, whose waits are a pure function of the attempt: the waits
   * Rust computed for attempts `0 … MEMO_LEN - 1`, kept as they are first asked for (`NaN`
   * where not asked yet), allocated at the first such `delay()`. A repeated `delay(n)` is
   * then a read of data Rust computed, with no wasm call. Jittered policies (`REC_JITTER`
   * not 0) have none: every delay draws.
   */
  #memo: Float64Array | undefined;
  /** `delay`: the function bound to this policy, made when first read. */
  #fn: ((attempt: number) => number) | undefined;
  /** `attempts` once wasm accepted it for a whole schedule (the record never changes). */
  #scheduled: number | undefined;

  /**
   * Use `createBackoff` or the static factories; `new Backoff(options)` from JavaScript
   * reads `options` as `createBackoff` options.
   * @throws RangeError/TypeError for bad options (the error wasm recorded).
   */
  // This module's own calls pass `values`, a fresh list (the policy keeps it), with `own` its
  // `OWN`; anything else is read as createBackoff options.
  private constructor(values: Values, fluent: boolean, own?: typeof OWN) {
    if (own !== OWN) values = valuesOf(values as unknown as object);
    const rec = compile(values, fluent);
    const kind = rec[REC_SOURCE];
    const random = values[BACKOFF_RANDOM];
    this.#rec = rec;
    const stream = kind === SOURCE_SEEDED ? wordsOf(random as SeededRandom) : undefined;
    this.#stream = stream;
    this.#curve = rec[REC_GROWTH] !== STEPPED && (kind === SOURCE_SEEDED || kind === SOURCE_KEYED || rec[REC_JITTER] === 0);
    this.#source = kind === SOURCE_SEEDED || kind === SOURCE_KEYED ? undefined : (random ?? (defaultRandom ??= systemSource()));
    // `values` is always this policy's own list, and it owns what it was built from: a
    // caller's later `steps[0] = 999` changes nothing.
    if (rec[REC_GROWTH] === STEPPED) values[BACKOFF_STEPS] = rec.slice(REC_HEADER);
    this.#values = values;
  }

  /** @internal */
  static create(options: BackoffOptions): Backoff {
    return new Backoff(valuesOf(options as object), false, OWN);
  }

  /** The same wait every time. @throws RangeError/TypeError for a bad interval. */
  static fixed(interval: DurationInput): Backoff {
    const v = blank();
    v[BACKOFF_BASE] = interval;
    v[BACKOFF_GROWTH] = "constant";
    return new Backoff(v, true, OWN);
  }

  /** Waits `interval`, `2 × interval`, `3 × interval`, … @throws RangeError/TypeError for a bad interval. */
  static linear(interval: DurationInput): Backoff {
    const v = blank();
    v[BACKOFF_BASE] = interval;
    v[BACKOFF_GROWTH] = "linear";
    return new Backoff(v, true, OWN);
  }

  /**
   * Waits `interval × factor^(n-1)`: `interval`, `interval × factor`, …
   * @param factor finite and >= 1, default 2.
   * @throws RangeError for a bad interval or factor.
   */
  static exponential(interval: DurationInput, factor = 2): Backoff {
    const v = blank();
    v[BACKOFF_BASE] = interval;
    v[BACKOFF_FACTOR] = factor;
    return new Backoff(v, true, OWN);
  }

  /**
   * A policy from what callers may pass where a policy is expected: a `Backoff`
   * passes through; a number or duration text means `Backoff.fixed(x)`.
   * @throws TypeError for anything else (also an object that throws when read: a revoked
   *   Proxy, a throwing getter; the engine's error is the `cause`); RangeError for a bad
   *   duration. Both name `policy`, the word every caller of this package uses for it.
   */
  static from(x: Backoff | DurationInput): Backoff {
    const expected = "a Backoff, a number of ms or duration text";
    if (typeof x === "number" || typeof x === "string") {
      try {
        return Backoff.fixed(x);
      } catch (e) {
        throw invalid(e instanceof RangeError ? RANGE : TYPE, "policy", `${expected} (a non-negative finite duration)`, x);
      }
    }
    // A policy from another copy of this package (the CommonJS build next to the ESM
    // one): rebuilt from its options, its random source included.
    let foreign: unknown;
    try {
      // This copy's own policy: it has the private record (an object that only inherits from
      // a policy, or a Proxy of one, has not, and goes the foreign way or is rejected).
      if (typeof x === "object" && x !== null) {
        if (#rec in x) return x as Backoff;
        foreign = (x as Record<symbol, unknown>)[OPTIONS];
      }
    } catch (e) {
      throw invalid(TYPE, "policy", `${expected} that can be read`, x, e);
    }
    if (typeof foreign === "function") {
      let options: object;
      try {
        options = foreign.call(x) as object;
      } catch (e) {
        // An object that only inherits the method (Object.create(policy)), or a Proxy of a
        // policy: it has no options of its own to give.
        throw invalid(TYPE, "policy", expected, x, e);
      }
      return new Backoff(valuesOf(options), true, OWN);
    }
    throw invalid(TYPE, "policy", expected, x);
  }

  /** The options this policy was built from, for `Backoff.from` in another copy of the package. @internal */
  [OPTIONS](): Readonly<Record<string, unknown>> {
    // A frozen object, steps frozen too (the policy's own copy): the key is global, so anyone can call this.
    const v = this.#values;
    const o: Record<string, unknown> = {};
    for (let i = BACKOFF_OPTIONS_FROM; i < BACKOFF_OPTIONS_TO; i++) if (v[i] !== undefined) o[BACKOFF_FIELDS[i]!] = v[i];
    if (Array.isArray(o.steps)) Object.freeze(o.steps);
    return Object.freeze(o);
  }

  /** A policy with option `field` (`BACKOFF_*`, named `key` in messages) set to `value`. */
  #with(field: number, key: string, value: unknown): Backoff {
    // `undefined` would silently drop an earlier bound (e.g. `.cap(config.typo)`).
    if (value === undefined) throw invalid(TYPE, key, `given (undefined would silently drop the policy's ${key})`, value);
    const v = this.#values.slice() as Values;
    v[field] = value;
    return new Backoff(v, true, OWN);
  }

  /** Attempts in TOTAL, the first included (`retries + 1`). @throws RangeError unless an integer >= 1. */
  maxAttempts(n: number): Backoff {
    return this.#with(BACKOFF_ATTEMPTS, "maxAttempts", n);
  }

  /**
   * No single wait above `max`, jitter included: a jittered wait whose band crosses it is
   * drawn uniformly from the band truncated at it (± `f`: `[d(1-f), min(d(1+f), max)]`).
   * (`createBackoff`'s `max` is the ceiling before jitter; a policy may carry both.)
   * @throws RangeError when below the interval.
   */
  cap(max: DurationInput): Backoff {
    return this.#with(BACKOFF_CAP, "cap", max);
  }

  /** Spread each wait by ± `f` of itself (`[0, 1]`), or `"full"`, `"equal"`, `"decorrelated"`; see {@link Jitter}. @throws RangeError outside `[0, 1]`, TypeError for an unknown kind. */
  jitter(f: Jitter): Backoff {
    return this.#with(BACKOFF_JITTER, "jitter", f);
  }

  /** The first `n` attempts wait 0 (a non-negative safe integer). @throws RangeError otherwise. */
  free(n: number): Backoff {
    return this.#with(BACKOFF_FREE, "free", n);
  }

  /**
   * The source of jitter draws (see `BackoffSharedOptions.random`).
   * @throws TypeError for anything else, or when the policy has a `seed` (named from this
   *   call's side: `random must be left out when seed is given …; received a function`).
   */
  random(r: RandomOption): Backoff {
    if (r !== undefined && this.#values[BACKOFF_SEED] !== undefined) {
      throw invalid(TYPE, "random", "left out when seed is given: seed makes each draw a pure function of (seed, attempt), random is a stream; keep one", r);
    }
    return this.#with(BACKOFF_RANDOM, "random", r);
  }

  /**
   * Keyed jitter from `seed` (see `BackoffSharedOptions.seed`): `delay(n)` becomes a pure
   * function of (seed, n). @throws TypeError for a seed that is not a string or number, or
   * when the policy has a `random`.
   */
  seed(seed: string | number): Backoff {
    return this.#with(BACKOFF_SEED, "seed", seed);
  }

  /**
   * A context for one call's draws from this policy's JavaScript source (`undefined` when its
   * draws are seeded or keyed, or it has no jitter).
   */
  #draws(): Draws | undefined {
    return this.#source === undefined || this.#rec[REC_JITTER] === 0 ? undefined : drawsFrom(this.#source);
  }

  /**
   * One `delay` call: a curve drawing from no JavaScript source hands its fields (and the
   * stream's words or the key prefix) over as arguments, taking the stream's words back;
   * any other policy hands over its record, the stream's words and the draw context `from`.
   */
  #call(attempt: number, from: Draws | undefined): number {
    const r = this.#rec;
    if (this.#curve) {
      const w = this.#stream;
      if (w === undefined) {
        return wasm.delayCurve(attempt, r[0] as number, r[1] as number, r[2] as number, r[3] as number, r[4] as number,
          r[5] as number, r[6] as number, r[7] as number, r[8] as number, r[9] as number, r[10] as number, r[11] as number, r[12] as number);
      }
      const d = wasm.delayCurve(attempt, r[0] as number, r[1] as number, r[2] as number, r[3] as number, r[4] as number,
        r[5] as number, r[6] as number, r[7] as number, r[8] as number, w[0] as number, w[1] as number, w[2] as number, w[3] as number);
      const at = streamWords();
      w[0] = at[0] as number;
      w[1] = at[1] as number;
      w[2] = at[2] as number;
      w[3] = at[3] as number;
      return d;
    }
    writeRecord(r);
    const stream = this.#stream;
    if (stream === undefined) return wasm.delay(attempt, 0, from);
    putStream(stream);
    const d = wasm.delay(attempt, 0, undefined);
    takeStream(stream);
    return d;
  }

  /** The max-attempts bound (attempts in total), or `undefined` when uncapped. */
  get attempts(): number | undefined {
    const n = this.#rec[REC_ATTEMPTS] as number;
    return n === n ? n : undefined;
  }

  /**
   * The wait in ms before retry `attempt` (1 = after the first failure).
   * `attempt - free < 1` (or `NaN`) gives 0 with no draw; otherwise the
   * pre-jitter delay, then one draw when jittered. Never throws for a number;
   * an uncapped exponential curve may reach `Infinity`.
   * A function of its own, bound to this policy: `const { delay } = policy` and
   * `[1, 2, 3].map(policy.delay)` work (made on first read, then the same function).
   * @throws RangeError only when a user-supplied `random` returns a draw outside its range;
   *   whatever that `random` throws passes through.
   */
  get delay(): (attempt: number) => number {
    // A jittered policy draws on every call; one without jitter remembers its first waits.
    return (this.#fn ??= this.#rec[REC_JITTER] !== 0
      ? (attempt: number): number => {
        attemptOf(attempt);
        const from = this.#draws();
        const d = this.#call(attempt, from);
        return d === d ? d : failed(attempt, from, (a) => keyedAgain(this.#rec, a), fail);
      }
      : (attempt: number): number => {
        const memo = this.#memo;
        // A wait is >= 0; a slot not filled yet (NaN) or an index outside the memo (undefined) is not.
        if (memo !== undefined && typeof attempt === "number" && (memo[attempt] as number) >= 0) return memo[attempt] as number;
        attemptOf(attempt);
        const d = this.#call(attempt, undefined);
        if (attempt >>> 0 === attempt && attempt < MEMO_LEN) (this.#memo ??= new Float64Array(MEMO_LEN).fill(NaN))[attempt] = d;
        return d;
      });
  }

  /**
   * `now + delay(attempt)`: the time (ms since the epoch, like `Date.now()`) of retry `attempt`.
   * Like `delay`, it never throws on a number: a non-finite `now`
   * gives `now + delay` as the original computes it (`NaN` stays `NaN`).
   * A function bound to this policy, like {@link delay} (`const { at } = policy`; a new one on each read).
   * `now` defaults to `Date.now()`.
   * @throws TypeError when `now` is not a number.
   */
  get at(): (attempt: number, now?: number) => number {
    // No default parameter: `now` counts in `length` (2), as in the original's `at(attempt, now)`.
    return (attempt: number, now?: number) => {
      if (now === undefined) now = Date.now();
      if (typeof now !== "number") throw invalid(TYPE, "now", "a number of ms since the epoch", now);
      return now + this.delay(attempt);
    };
  }

  /**
   * The exact range of `delay(attempt)`, computed by the same composition with the extreme
   * draws (no draw is taken): `nominal` is the pre-jitter delay (`undefined` for decorrelated
   * jitter, which has none), and every result is in `[min, max]` (`min === max === nominal`
   * without jitter; all 0 for a free attempt).
   */
  bounds(attempt: number): { nominal: number | undefined; min: number; max: number } {
    attemptOf(attempt);
    writeRecord(this.#rec);
    wasm.bounds(attempt);
    const s = slots();
    const nominal = s[0] as number;
    return { nominal: nominal === nominal ? nominal : undefined, min: s[1] as number, max: s[2] as number };
  }

  /**
   * `{ min, max }` of the whole schedule's total wait: the sums of `bounds(n)` over
   * retries 1 … attempts - 1 (the longest a caller can wait in all, for alerting).
   * @throws RangeError when the policy has no `maxAttempts` (the schedule is endless).
   */
  totalBounds(): { min: number; max: number } {
    // No draws (the bounds settle at a fixed point in the engine): a million waits at most, whatever the jitter.
    const n = this.#bounded("totalBounds()", false);
    writeRecord(this.#rec);
    wasm.totalBounds(n);
    const s = slots();
    return { min: s[0] as number, max: s[1] as number };
  }

  /**
   * The `attempts - 1` waits, retries 1 … attempts - 1 (drawing in order when jittered).
   * @throws RangeError when the policy has no `maxAttempts` (its schedule would be endless), or
   *   more than 1 000 001 of them (iterate the policy instead of materialising millions of waits),
   *   or more than 1 001 with decorrelated jitter (wait `n` replays `min(n, 1000)` steps of its recurrence).
   */
  schedule(): number[] {
    return this.#waits("schedule()");
  }

  /** `schedule()`, its errors naming `what`, the method called. */
  #waits(what: string): number[] {
    const n = (this.#scheduled ??= this.#bounded(what, true));
    const out: number[] = new Array(n - 1);
    for (let retry = 1; retry < n; ) {
      // One wait per call (`delay`, with the draw context) for a policy drawing from a
      // JavaScript source (whose draw may call the package), up to eight otherwise (`waits`).
      const from = this.#draws();
      writeRecord(this.#rec);
      const stream = this.#stream;
      if (stream !== undefined) putStream(stream);
      const k = from === undefined ? wasm.waits(retry, Math.min(WAITS, n - retry)) : 1;
      const one = from === undefined ? 0 : wasm.delay(retry, 0, from);
      if (stream !== undefined) takeStream(stream);
      const s = slots();
      for (let i = 0; i < k; i++, retry++) {
        const d = from === undefined ? s[i] as number : one;
        // A draw that stopped: the error (or, for a keyed draw, the wait again), as `delay` handles it.
        out[retry - 1] = d === d ? d : failed(retry, from, (a) => keyedAgain(this.#rec, a), fail);
      }
    }
    return out;
  }

  /** The sum of `schedule()`, ms. @throws RangeError as `schedule()` (naming `totalMs()`). */
  totalMs(): number {
    let total = 0;
    for (const d of this.#waits("totalMs()")) total += d;
    return total;
  }

  /** `attempts`, checked for a whole schedule; `draws`: the schedule draws (decorrelated jitter has a lower bound then). */
  #bounded(what: string, draws: boolean): number {
    const n = this.attempts;
    if (n === undefined) {
      throw invalid(RANGE, "maxAttempts", `set (e.g. .maxAttempts(5)) before ${what}: without it the schedule is endless`, n);
    }
    if (wasm.checkScheduleAttempts(n, draws ? this.#rec[REC_JITTER] as number : 0) !== 0) fail([n]);
    return n;
  }

  /** The waits in order: `attempts - 1` of them, or endless when uncapped. */
  *[Symbol.iterator](): Iterator<number> {
    const n = this.attempts ?? Infinity;
    for (let retry = 1; retry < n; retry++) yield this.delay(retry);
  }

  /**
   * Plain options (ms numbers) that rebuild this policy with `createBackoff`; `random` is left
   * out. The ceiling before jitter is `max`, the hard bound after jitter `cap`.
   */
  toJSON(): BackoffJSON {
    const p = this.#rec;
    const code = p[REC_JITTER] as number;
    const jitter = code >= JITTER_FULL ? (JITTER_NAMES[code - JITTER_FULL] as Jitter) : (p[REC_FRACTION] as number);
    let out: BackoffJSON;
    if (p[REC_GROWTH] === STEPPED) {
      out = { steps: p.slice(REC_HEADER), free: p[REC_FREE] as number, jitter };
    } else {
      const growth = GROWTH_NAMES[p[REC_GROWTH] as number] as BackoffCurveJSON["growth"];
      const curve: BackoffCurveJSON = { growth, base: p[REC_BASE] as number, free: p[REC_FREE] as number, jitter };
      if (growth === "exponential") curve.factor = p[REC_FACTOR] as number;
      if (p[REC_MAX] !== Infinity) curve.max = p[REC_MAX] as number;
      out = curve;
    }
    if (p[REC_CAP] !== Infinity) out.cap = p[REC_CAP] as number;
    const attempts = this.attempts;
    if (attempts !== undefined) out.maxAttempts = attempts;
    const seed = this.#values[BACKOFF_SEED];
    // The seed as given (draws read `String(seed)` either way); a NaN or infinite number as its
    // text, which JSON keeps (JSON would turn the number into null) and which draws the same.
    if (seed !== undefined) out.seed = typeof seed === "number" && !Number.isFinite(seed) ? String(seed) : (seed as string | number);
    return out;
  }
}

/**
 * `attempt`, checked for the two types a wasm number parameter cannot take (the engine would
 * throw its own conversion error). @throws TypeError naming `attempt` for a bigint or a symbol.
 */
function attemptOf<T>(attempt: T): T {
  if (typeof attempt === "bigint" || typeof attempt === "symbol") throw invalid(TYPE, "attempt", "a number", attempt);
  return attempt;
}

/**
 * What a `random` option crosses as (`via::SOURCE` of src/boundary.rs): -1 for a seeded stream
 * of this package, else `float`'s tag * 16 + `next`'s tag (`next` read only when `float` is not a
 * function); 0 when it is not an object, or when reading them threw.
 */
function sourceTags(random: unknown): number {
  if (typeof random !== "object" || random === null) return 0;
  try {
    if (isSeeded(random)) return -1;
    const floatTag = tag((random as { float?: unknown }).float);
    return floatTag * 16 + (floatTag === FUNCTION ? 0 : tag((random as { next?: unknown }).next));
  } catch {
    // A revoked Proxy or a throwing getter: not a source (the package's TypeError naming `random`).
    return 0;
  }
}

/**
 * A `steps` array read once, before compiling: `[length, items]`, its length and a plain copy
 * of its first `MAX_STEPS + 1` elements (the length check in wasm sees the true length; no element past
 * the bound is read). Anything else passes unchanged, for compileCurve to reject.
 */
function stepsOf(steps: unknown): unknown {
  if (tag(steps) !== TAG_ARRAY) return steps;
  const list = steps as unknown[];
  // A throwing length or item getter (or a Proxy's trap): the TypeError naming steps, the cause kept.
  return readable("steps", "an array whose items can be read", steps, () => {
    const length = list.length;
    const items = new Array<unknown>(Math.min(length, MAX_STEPS + 1));
    for (let i = 0; i < items.length; i++) items[i] = list[i];
    return [length, items];
  });
}

/** The code of `v` in `list` (its index + `offset`), or -1 when `v` is not one of its strings. */
function code(list: readonly string[], v: unknown, offset: number): number {
  const i = list.indexOf(v as string);
  return i < 0 ? -1 : i + offset;
}

/**
 * Compiles a policy's option values (its own list) once, in wasm, in the original
 * order: an unknown option name, the shape (`compileCurve`; for steps the length, then
 * each step), then `free`, `jitter`, `seed`, `maxAttempts`, `random` (`compileShared`). Each
 * option is written into the input slots by name (`put`, the fields `BACKOFF_*` of
 * src/boundary.rs): its tag and its number (strings as codes — growth, jitter kinds — or
 * parse results — durations). Returns the record.
 */
function compile(v: Values, fluent: boolean): number[] {
  const steps = v[BACKOFF_STEPS];
  const growth = v[BACKOFF_GROWTH];
  const jitter = v[BACKOFF_JITTER];
  const seed = v[BACKOFF_SEED];
  const random = v[BACKOFF_RANDOM];
  // Every value that can run the caller's code (getters of `steps` and of `random`) is read
  // before the compile call, which then reads only what is written here.
  const stepList = steps === undefined ? undefined : stepsOf(steps);
  const sources = random === undefined ? 0 : sourceTags(random);
  const base = v[BACKOFF_BASE];
  const factor = v[BACKOFF_FACTOR];
  const max = v[BACKOFF_MAX];
  const cap = v[BACKOFF_CAP];
  const seedLen = typeof seed === "string" || typeof seed === "number" ? text(String(seed)) : 0;
  let items: unknown[] = [];
  let length: unknown;
  if (tag(steps) === TAG_ARRAY) {
    [length, items] = stepList as [number, unknown[]];
    const at = stepInput();
    const n = Math.min(items.length, MAX_STEPS);
    for (let i = 0; i < n; i++) {
      const x = items[i];
      at[2 * i] = tag(x);
      at[2 * i + 1] = duration(x);
    }
  }
  const s = slots();
  put(s, BACKOFF_NAME, v[BACKOFF_NAME], NaN);
  put(s, BACKOFF_BASE, base, duration(base));
  put(s, BACKOFF_STEPS, steps, num(length));
  put(s, BACKOFF_GROWTH, growth, code(GROWTH_NAMES, growth, 0));
  put(s, BACKOFF_FACTOR, factor, num(factor));
  put(s, BACKOFF_MAX, max, duration(max));
  put(s, BACKOFF_CAP, cap, duration(cap));
  put(s, BACKOFF_FREE, v[BACKOFF_FREE], num(v[BACKOFF_FREE]));
  put(s, BACKOFF_JITTER, jitter, typeof jitter === "string" ? code(JITTER_NAMES, jitter, JITTER_FULL) : num(jitter));
  put(s, BACKOFF_SEED, seed, seedLen);
  put(s, BACKOFF_ATTEMPTS, v[BACKOFF_ATTEMPTS], num(v[BACKOFF_ATTEMPTS]));
  put(s, BACKOFF_RANDOM, random, sources);
  if (wasm.compile(fluent) !== 0) {
    // A step's error names `steps[i]` and blames the step.
    const i = slots()[ERR_INDEX] as number;
    fail(i >= 0 ? [items[i]] : v);
  }
  return readRecord();
}

/**
 * A policy from `@sdxc/backoff` options, validated once.
 * `createBackoff({ base: "1 second" })` waits 1000, 2000, 4000, …;
 * `createBackoff({ free: 1, steps: [10, 20] })` waits 0, 10, 20, 20, …
 * @throws RangeError for a negative or unparseable duration, `factor` < 1,
 *   `max` < `base`, jitter outside `[0, 1]`, empty `steps` (or more than 1000), a bad
 *   `free` or `maxAttempts`; TypeError for a wrong type, an unknown option or growth,
 *   `steps` together with curve options, or a `random` that is not a source; TypeError
 *   with the engine's error as `cause` for options (or a `steps` array) that throw when read;
 *   TypeError for a missing `base` (without `steps`) only when every other option is good
 *   (a bad one is named first, whether or not `base` is given).
 */
export function createBackoff(options: BackoffOptions): Backoff {
  return Backoff.create(options);
}
