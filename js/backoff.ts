/**
 * `backoff-wasm/backoff` and `backoff-wasm/policy`: `createBackoff` of
 * `@sdxc/backoff` (API.md section 2) and the fluent `Backoff` policy value
 * (section 5) — one class. Options are validated once, in wasm, into plain
 * numbers; a policy owns no wasm memory, and `delay()` is a few numeric wasm calls.
 * @module
 */
import * as wasm from "./wasm.js";
import { duration, FUNCTION, keyedUnit, keyPrefix, num, slots, tag } from "./abi.js";
import { BACKOFF_OPTIONS, fail, invalid, knownKeys, RANGE, TYPE } from "./errors.js";
import { isSeeded, STREAM, systemRandom, type Random } from "./streams.js";
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
}

/** A growing curve. */
export interface BackoffCurveOptions extends BackoffSharedOptions {
  /** The first wait. */
  base: DurationInput;
  /** `"exponential"` (default): `base * factor^(n-1)`; `"linear"`: `base * n`; `"constant"`: `base`. */
  growth?: "exponential" | "linear" | "constant";
  /** Exponential multiplier, finite and >= 1 (default 2); only with exponential growth. */
  factor?: number;
  /** Ceiling of each wait before jitter, >= base; unbounded when omitted. */
  max?: DurationInput;
  steps?: never;
}

/** A fixed list of waits; the last repeats. */
export interface BackoffStepsOptions extends BackoffSharedOptions {
  /** A non-empty list of waits. */
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
  /** Present when capped. */
  max?: number;
  free: number;
  jitter: Jitter;
  seed?: string;
  maxAttempts?: number;
  steps?: never;
}

/** What `toJSON()` returns for a steps policy. */
export interface BackoffStepsJSON {
  steps: number[];
  free: number;
  jitter: Jitter;
  seed?: string;
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

/** The validated numbers of a policy (from `compileCurve`, `compileStep` and `compileShared`). */
interface Compiled {
  growth: number;
  base: number;
  factor: number;
  cap: number;
  steps: number[] | undefined;
  free: number;
  jitter: number;
  fraction: number;
  attempts: number | undefined;
  key: [number, number, number, number] | undefined;
}

const GROWTH = ["exponential", "linear", "constant"] as const;
/** Shared by every copy of the package (ESM and CommonJS): a policy's options. */
const OPTIONS: unique symbol = Symbol.for("backoff-wasm.Backoff.options") as never;
const JITTER_NAMES: Record<number, "full" | "equal" | "decorrelated"> = { 3: "full", 4: "equal", 5: "decorrelated" };
/** Jitter kinds by code: `JITTER_KINDS.indexOf(name) + 3` is the `Jitter` code of a name. */
const JITTER_KINDS = ["full", "equal", "decorrelated"] as const;
const JITTER_DECORRELATED = 5;
/** Draw sources; 1–3 are `randomKind` codes (function, float(), next()). */
const SOURCE_DEFAULT = 0;
const SOURCE_FUNCTION = 1;
const SOURCE_FLOAT = 2;
const SOURCE_NEXT = 3;
const SOURCE_SEEDED = 4;
const SOURCE_KEYED = 5;
let defaultRandom: Random | undefined;

type RandomOption = NonNullable<BackoffSharedOptions["random"]>;

/**
 * A retry policy: how long to wait before each retry. Immutable; every fluent
 * method returns a new policy. Built by `createBackoff(options)`,
 * `Backoff.fixed/linear/exponential(...)` or `Backoff.from(x)`.
 *
 * `Backoff.exponential("2 seconds").cap("5 minutes")` waits 2 s, 4 s, 8 s, …,
 * 4 min 16 s, then 5 min for ever.
 */
export class Backoff implements Iterable<number> {
  readonly #options: Readonly<Record<string, unknown>>;
  readonly #p: Compiled;
  readonly #random: RandomOption | undefined;
  readonly #source: number;

  /** Use `createBackoff` or the static factories. @throws TypeError when `options` is not an object. */
  private constructor(options: Record<string, unknown>, fluent: boolean) {
    if (options === null || typeof options !== "object") throw invalid(TYPE, "options", "an object", options);
    const p = compile(options, fluent);
    const random = options.random as RandomOption | undefined;
    let source = SOURCE_DEFAULT;
    if (p.key !== undefined) source = SOURCE_KEYED;
    else if (random !== undefined) source = isSeeded(random) ? SOURCE_SEEDED : randomKind(random);
    this.#options = Object.freeze({ ...options });
    this.#p = p;
    this.#random = random;
    this.#source = source;
  }

  /** @internal */
  static create(options: BackoffOptions, fluent = false): Backoff {
    let copy: Record<string, unknown>;
    try {
      copy = { ...(options as object) };
    } catch {
      // A revoked Proxy, or one whose traps throw: the package's own error, not the engine's.
      throw invalid(TYPE, "options", "an object whose keys can be listed", options);
    }
    return new Backoff(copy, fluent);
  }

  /** The same wait every time. @throws RangeError/TypeError for a bad interval. */
  static fixed(interval: DurationInput): Backoff {
    return new Backoff({ base: interval, growth: "constant" }, true);
  }

  /** Waits `interval`, `2 × interval`, `3 × interval`, … @throws RangeError/TypeError for a bad interval. */
  static linear(interval: DurationInput): Backoff {
    return new Backoff({ base: interval, growth: "linear" }, true);
  }

  /**
   * Waits `interval × factor^(n-1)`: `interval`, `interval × factor`, …
   * @param factor finite and >= 1, default 2.
   * @throws RangeError for a bad interval or factor.
   */
  static exponential(interval: DurationInput, factor = 2): Backoff {
    return new Backoff({ base: interval, factor }, true);
  }

  /**
   * A policy from what callers may pass where a policy is expected: a `Backoff`
   * passes through; a number or duration text means `Backoff.fixed(x)`.
   * @throws TypeError for anything else; RangeError for a bad duration.
   */
  static from(x: Backoff | DurationInput): Backoff {
    if (x instanceof Backoff) return x;
    // A policy from another copy of this package (the CommonJS build next to the ESM
    // one): rebuilt from its options, its random source included.
    const foreign = typeof x === "object" && x !== null ? (x as Record<symbol, unknown>)[OPTIONS] : undefined;
    if (typeof foreign === "function") return new Backoff({ ...(foreign.call(x) as Record<string, unknown>) }, true);
    if (typeof x === "number" || typeof x === "string") return Backoff.fixed(x);
    throw invalid(TYPE, "policy", "a Backoff, a number of ms or duration text", x);
  }

  /** The options this policy was built from, for `Backoff.from` in another copy of the package. @internal */
  [OPTIONS](): Readonly<Record<string, unknown>> {
    return this.#options;
  }

  #with(key: string, value: unknown, bound: string): Backoff {
    // `undefined` would silently drop an earlier bound (e.g. `.cap(config.typo)`).
    if (value === undefined) throw invalid(TYPE, bound, "given (undefined would silently remove the bound)", value);
    return new Backoff({ ...this.#options, [key]: value }, true);
  }

  /** Attempts in TOTAL, the first included (`retries + 1`). @throws RangeError unless an integer >= 1. */
  maxAttempts(n: number): Backoff {
    return this.#with("maxAttempts", n, "maxAttempts");
  }

  /** No single wait (before jitter) above `max`. @throws RangeError when below the interval. */
  cap(max: DurationInput): Backoff {
    return this.#with("max", max, "cap");
  }

  /** Spread each wait by ± `f` of itself (`[0, 1]`), or `"full"`, `"equal"`, `"decorrelated"`; see {@link Jitter}. @throws RangeError outside `[0, 1]`, TypeError for an unknown kind. */
  jitter(f: Jitter): Backoff {
    return this.#with("jitter", f, "jitter");
  }

  /** The first `n` attempts wait 0 (a non-negative safe integer). @throws RangeError otherwise. */
  free(n: number): Backoff {
    return this.#with("free", n, "free");
  }

  /** The source of jitter draws (see `BackoffSharedOptions.random`). @throws TypeError for anything else. */
  random(r: RandomOption): Backoff {
    return this.#with("random", r, "random");
  }

  /**
   * Keyed jitter from `seed` (see `BackoffSharedOptions.seed`): `delay(n)` becomes a pure
   * function of (seed, n). @throws TypeError for a seed that is not a string or number, or
   * when the policy has a `random`.
   */
  seed(seed: string | number): Backoff {
    return this.#with("seed", seed, "seed");
  }

  /** The max-attempts bound (attempts in total), or `undefined` when uncapped. */
  get attempts(): number | undefined {
    return this.#p.attempts;
  }

  /**
   * The wait in ms before retry `attempt` (1 = after the first failure).
   * `attempt - free < 1` (or `NaN`) gives 0 with no draw; otherwise the
   * pre-jitter delay, then one draw when jittered. Never throws for a number;
   * an uncapped exponential curve may reach `Infinity`.
   * @throws RangeError only when a user-supplied `random` returns a draw outside its range.
   */
  delay(attempt: number): number {
    const p = this.#p;
    if (p.jitter === JITTER_DECORRELATED) {
      const n = wasm.countedAttempt(attempt, p.free);
      return n === 0 ? 0 : this.#decorrelated(n);
    }
    const d = this.#nominal(attempt);
    if (d < 0) return 0;
    if (p.jitter === 0 || !wasm.jitterDraws(p.jitter, p.fraction, d)) return d;
    switch (this.#source) {
      case SOURCE_SEEDED:
        (this.#random as unknown as { [STREAM](): void })[STREAM]();
        return wasm.streamJitter(p.jitter, p.fraction, d);
      case SOURCE_KEYED:
        return fromUnit(p, d, keyedUnit(p.key as number[], attempt));
      case SOURCE_DEFAULT:
        return fromUnit(p, d, (defaultRandom ??= systemRandom()).next());
      case SOURCE_NEXT:
        return fromUnit(p, d, (this.#random as Random).next());
      case SOURCE_FUNCTION:
        return fromUnit(p, d, (this.#random as () => number)());
      default: {
        wasm.jitterRange(p.jitter, p.fraction, d);
        const s = slots();
        const lo = s[0] as number;
        const hi = s[1] as number;
        const x = (this.#random as Pick<Random, "float">).float(lo, hi);
        const v = wasm.floatDraw(lo, hi, num(x));
        if (v !== v) fail([x]);
        return wasm.jitterFinish(p.jitter, p.fraction, d, v);
      }
    }
  }

  /** The pre-jitter delay for `attempt`, or -1 for a free attempt. */
  #nominal(attempt: number): number {
    const p = this.#p;
    if (p.steps === undefined) return wasm.curveDelay(p.growth, p.base, p.factor, p.cap, p.free, attempt);
    const i = wasm.stepIndex(p.steps.length, p.free, attempt);
    return i < 0 ? -1 : (p.steps[i] as number);
  }

  /**
   * The exact range of `delay(attempt)`, computed from the jitter kind (no draw is taken):
   * `nominal` is the pre-jitter delay (`undefined` for decorrelated jitter, which has none),
   * and every jittered result is an integer in `[min, max]` (`min === max === nominal`
   * without jitter; all 0 for a free attempt).
   */
  bounds(attempt: number): { nominal: number | undefined; min: number; max: number } {
    const p = this.#p;
    if (p.jitter === JITTER_DECORRELATED) {
      const n = wasm.countedAttempt(attempt, p.free);
      if (n === 0) return { nominal: 0, min: 0, max: 0 };
      wasm.jitterBand(p.jitter, p.fraction, 0, p.base, p.cap, n);
      const s = slots();
      return { nominal: undefined, min: s[0] as number, max: s[1] as number };
    }
    const d = this.#nominal(attempt);
    if (d < 0) return { nominal: 0, min: 0, max: 0 };
    if (p.jitter === 0 || !wasm.jitterDraws(p.jitter, p.fraction, d)) return { nominal: d, min: d, max: d };
    wasm.jitterBand(p.jitter, p.fraction, d, p.base, p.cap, 0);
    const s = slots();
    return { nominal: d, min: s[0] as number, max: s[1] as number };
  }

  #decorrelated(n: number): number {
    const p = this.#p;
    switch (this.#source) {
      case SOURCE_SEEDED:
        (this.#random as unknown as { [STREAM](): void })[STREAM]();
        return wasm.streamDecorrelated(p.base, p.cap, n);
      case SOURCE_KEYED: {
        const k = p.key as number[];
        return wasm.keyedDecorrelated(k[0]!, k[1]!, k[2]!, k[3]!, p.base, p.cap, n);
      }
      case SOURCE_DEFAULT:
        return jsDecorrelated((defaultRandom ??= systemRandom()), SOURCE_NEXT, p.base, p.cap, n);
      default:
        return jsDecorrelated(this.#random, this.#source, p.base, p.cap, n);
    }
  }

  /**
   * `now + delay(attempt)`: the time (ms since the epoch, like `Date.now()`) of retry `attempt`.
   * @param now default `Date.now()`.
   * @throws TypeError when `now` is not a number; RangeError when it is not finite.
   */
  at(attempt: number, now: number = Date.now()): number {
    if (typeof now !== "number") throw invalid(TYPE, "now", "a finite number of ms since the epoch", now);
    if (!Number.isFinite(now)) throw invalid(RANGE, "now", "a finite number of ms since the epoch", now);
    return now + this.delay(attempt);
  }

  /**
   * The `attempts - 1` waits, retries 1 … attempts - 1 (drawing in order when jittered).
   * @throws RangeError when the policy has no `maxAttempts` (its schedule would be endless), or
   *   more than 1 000 001 of them (iterate the policy instead of materialising millions of waits).
   */
  schedule(): number[] {
    const n = this.#bounded("schedule()");
    const out: number[] = [];
    for (let retry = 1; retry < n; retry++) out.push(this.delay(retry));
    return out;
  }

  /** The sum of `schedule()`, ms. @throws RangeError as `schedule()`. */
  totalMs(): number {
    let total = 0;
    for (const d of this.schedule()) total += d;
    return total;
  }

  #bounded(what: string): number {
    const n = this.#p.attempts;
    if (n === undefined) {
      throw invalid(RANGE, "maxAttempts", `set (e.g. .maxAttempts(5)) before ${what}: without it the schedule is endless`, n);
    }
    if (wasm.checkScheduleAttempts(n) !== 0) fail([n]);
    return n;
  }

  /** The waits in order: `attempts - 1` of them, or endless when uncapped. */
  *[Symbol.iterator](): Iterator<number> {
    const n = this.#p.attempts ?? Number.POSITIVE_INFINITY;
    for (let retry = 1; retry < n; retry++) yield this.delay(retry);
  }

  /** Plain options (ms numbers) that rebuild this policy with `createBackoff`; `random` is left out. */
  toJSON(): BackoffJSON {
    const p = this.#p;
    const jitter = JITTER_NAMES[p.jitter] ?? p.fraction;
    let out: BackoffJSON;
    if (p.steps) {
      out = { steps: [...p.steps], free: p.free, jitter };
    } else {
      const curve: BackoffCurveJSON = { growth: GROWTH[p.growth] as BackoffCurveJSON["growth"], base: p.base, free: p.free, jitter };
      if (p.growth === 0) curve.factor = p.factor;
      if (p.cap !== Number.POSITIVE_INFINITY) curve.max = p.cap;
      out = curve;
    }
    if (p.attempts !== undefined) out.maxAttempts = p.attempts;
    const seed = this.#options.seed;
    if (seed !== undefined) out.seed = String(seed);
    return out;
  }
}

/**
 * The jittered delay from a raw draw `r` of a bare function or `next()` source
 * (or a keyed draw): all-number wasm call; a draw outside `[0, 1]` or not a
 * number throws the RangeError naming `random`.
 */
function fromUnit(p: Compiled, d: number, r: unknown): number {
  const x = wasm.jitterUnit(p.jitter, p.fraction, d, num(r));
  if (x !== x) fail([r]);
  return x;
}

/**
 * Decorrelated jitter for counted attempt `n`, drawing from a JavaScript source
 * (`kind`: function, `float()` or `next()`) one draw per step; the recurrence
 * is wasm's (`decorrelatedSteps` … `decorrelatedFinish`). A draw out of range
 * throws the RangeError naming `random`; an exception of the source passes through.
 */
function jsDecorrelated(src: unknown, kind: number, base: number, cap: number, n: number): number {
  const steps = wasm.decorrelatedSteps(n);
  let sleep = base;
  for (let i = 0; i < steps; i++) {
    const hi = wasm.decorrelatedHigh(sleep);
    let x: number;
    if (kind === SOURCE_FLOAT) {
      const v = (src as Pick<Random, "float">).float(base, hi);
      x = wasm.floatDraw(base, hi, num(v));
      if (x !== x) fail([v]);
    } else {
      const r = kind === SOURCE_NEXT ? (src as Pick<Random, "next">).next() : (src as () => unknown)();
      x = wasm.unitDraw(base, hi, num(r));
      if (x !== x) fail([r]);
    }
    sleep = wasm.decorrelatedNext(x, cap);
  }
  return wasm.decorrelatedFinish(sleep);
}

/**
 * Classifies a `random` option (1 a function, 2 with `float(min, max)`, 3 with
 * `next()`); TypeError otherwise. `next` is read only when `float` is not a function.
 */
function randomKind(random: unknown): number {
  const t = tag(random);
  let floatTag = 0;
  let nextTag = 0;
  if (typeof random === "object" && random !== null) {
    floatTag = tag((random as { float?: unknown }).float);
    if (floatTag !== FUNCTION) nextTag = tag((random as { next?: unknown }).next);
  }
  const kind = wasm.randomKind(t, floatTag, nextTag);
  if (kind === 0) fail([random]);
  return kind;
}

/**
 * Validates options (a plain copy) once, in wasm (API.md section 2), in the
 * original order: option names, the shape (`compileCurve`; for steps the
 * length, then each step), then `free`, `jitter`, `seed`, `maxAttempts`
 * (`compileShared`). Strings cross as codes (growth, jitter kinds) or parse
 * results (durations).
 */
function compile(o: Record<string, unknown>, fluent: boolean): Compiled {
  knownKeys(o, BACKOFF_OPTIONS);
  const { base, steps, growth, factor, max } = o;
  // Values in the order of the `arg` indexes of src/bindings/backoff.rs.
  const values = [base, steps, growth, factor, max, o.free, o.jitter, o.seed, o.maxAttempts];
  const code = (list: readonly string[], v: unknown, offset: number) =>
    typeof v === "string" && list.includes(v) ? list.indexOf(v) + offset : -1;
  if (
    wasm.compileCurve(fluent, tag(base), duration(base), tag(steps), tag(growth), code(GROWTH, growth, 0),
      tag(factor), num(factor), tag(max), duration(max)) !== 0
  ) fail(values);
  let s = slots();
  const growthCode = s[0] as number;
  const p: Compiled = {
    growth: growthCode, base: s[1] as number, factor: s[2] as number, cap: s[3] as number,
    steps: undefined, free: 0, jitter: 0, fraction: 0, attempts: undefined, key: undefined,
  };
  if (growthCode === -1) {
    const list = steps as unknown[];
    if (wasm.compileSteps(num(list.length)) !== 0) fail(values);
    const len = slots()[0] as number;
    const ms: number[] = [];
    for (let i = 0; i < len; i++) {
      const v = list[i];
      if (wasm.compileStep(tag(v), duration(v), i) !== 0) fail([v]);
      ms.push(slots()[0] as number);
    }
    p.steps = ms;
  }
  const { free, jitter, seed, random, maxAttempts } = o;
  const jitterX = typeof jitter === "string" ? code(JITTER_KINDS, jitter, 3) : num(jitter);
  if (
    wasm.compileShared(fluent, growthCode === -1, p.cap, tag(free), num(free), tag(jitter), jitterX, tag(seed), tag(random),
      tag(maxAttempts), num(maxAttempts)) !== 0
  ) fail(values);
  s = slots();
  p.free = s[0] as number;
  p.jitter = s[1] as number;
  p.fraction = s[2] as number;
  p.attempts = Number.isNaN(s[3]) ? undefined : s[3];
  if (s[4] === 1) p.key = keyPrefix(seed);
  return p;
}

/**
 * A policy from `@sdxc/backoff` options (API.md section 2), validated once.
 * `createBackoff({ base: "1 second" })` waits 1000, 2000, 4000, …;
 * `createBackoff({ free: 1, steps: [10, 20] })` waits 0, 10, 20, 20, …
 * @throws RangeError for a negative or unparseable duration, `factor` < 1,
 *   `max` < `base`, jitter outside `[0, 1]`, empty `steps`, a bad `free` or
 *   `maxAttempts`; TypeError for a wrong type, an unknown option or growth,
 *   `steps` together with curve options, or a `random` that is not a source.
 */
export function createBackoff(options: BackoffOptions): Backoff {
  if (options === null || typeof options !== "object") throw invalid(TYPE, "options", "an object", options);
  return Backoff.create(options);
}
