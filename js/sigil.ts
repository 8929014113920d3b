/**
 * `backoff-wasm/sigil`: the retry policy of `@sigil/core` (API.md section 1),
 * computed by the shared curve engine (exponential, factor 2, ceiling,
 * subtract-only jitter).
 * @module
 */
import * as wasm from "./wasm.js";
import { keyedUnit, keyPrefix, num, slots, tag } from "./abi.js";
import { createRandom, type Seed } from "./streams.js";
import { SigilError, fail, knownKeys, SIGIL_OPTIONS, type SigilErrorCode } from "./errors.js";

export { SigilError, type SigilErrorCode };

wasm.sigilConstants();
const [maxAttempts, baseDelayMs, maxDelayMs] = slots() as unknown as [number, number, number];

/** Attempts in total, the first delivery included: 8. */
export const MAX_ATTEMPTS: number = maxAttempts;
/** The wait after the first failure, ms: 1000. */
export const BASE_DELAY_MS: number = baseDelayMs;
/** The ceiling of any single wait, ms: 3 600 000 (one hour). */
export const MAX_DELAY_MS: number = maxDelayMs;

/** Options of `nextDelayMs`. */
export interface BackoffOptions {
  /** The wait after the first failure, ms (default 1000); a non-negative number. */
  baseDelayMs?: number;
  /** The ceiling of any single wait, ms (default 3 600 000); a non-negative number, `Infinity` allowed. */
  maxDelayMs?: number;
  /**
   * Fraction in `(0, 1]` by which a wait may be shortened: `Math.round(capped * (1 - jitter * random()))`.
   * Absent or 0: the exact value and no draw.
   */
  jitter?: number;
  /** Source of the one draw in `[0, 1]`; default `Math.random`, looked up at each call. */
  random?: () => number;
  /**
   * Keyed jitter (an extension of this package): the draw for retry `attempt` is
   * `createRandom(String(seed) + " " + attempt).next()`, so the wait is a pure function of
   * (seed, attempt) — recomputable after a restart. Cannot be combined with `random` (TypeError).
   */
  seed?: string | number;
}

/** Options of `retrySchedule` and `totalRetryWindowMs`. */
export interface RetryScheduleOptions extends BackoffOptions {
  /** Attempts in total, the first included (default 8): an integer >= 1. */
  maxAttempts?: number;
}

/**
 * The wait before retry number `attempt` (1 = the wait after the first failure), in ms:
 * `min(baseDelayMs * 2^(attempt-1), maxDelayMs)`, then, with `jitter`,
 * `Math.round(capped * (1 - jitter * random()))` (one draw).
 *
 * `nextDelayMs(1)` is 1000, `nextDelayMs(40)` is 3 600 000;
 * `nextDelayMs(4, { jitter: 0.25, random: () => 1 })` is 6000.
 * @throws SigilError (`code: "invalid_argument"`) when `attempt` is not an
 *   integer >= 1, an option is out of range or of the wrong type, an option
 *   name is unknown, or a draw is not a number in `[0, 1]`. An exception thrown
 *   by `random` itself passes through unchanged. TypeError when both `seed` and `random` are given.
 */
export function nextDelayMs(attempt: number, options?: BackoffOptions): number {
  const fallback = Math.random;
  check(ATTEMPT, attempt);
  return delays(sigilOptions(options, false), attempt, 1, fallback)[0] as number;
}

/**
 * The waits before retries 1 … `maxAttempts - 1`, drawing in order.
 * Default: `[1000, 2000, 4000, 8000, 16000, 32000, 64000]`; `{ maxAttempts: 1 }` gives `[]`.
 * @throws SigilError as `nextDelayMs`, and when `maxAttempts` is not an integer from 1 to
 *   1 000 001 (a bigger schedule would exhaust memory; the original hangs or crashes there).
 */
export function retrySchedule(options?: RetryScheduleOptions): number[] {
  // Options are read and validated once; `Math.random` is looked up now.
  const fallback = Math.random;
  const o = sigilOptions(options, true);
  // n <= 1 000 001 (checked), so the loop is bounded by a count, not a float.
  return o.attempts < 2 ? [] : delays(o, 1, o.attempts - 1, fallback);
}

/**
 * The sum of `retrySchedule(options)`, ms: how long after the first failure the
 * last attempt happens. Default 127 000.
 * @throws SigilError as `retrySchedule`.
 */
export function totalRetryWindowMs(options?: RetryScheduleOptions): number {
  let total = 0;
  for (const d of retrySchedule(options)) total += d;
  return total;
}

/** Values `sigilCheck` validates (src/bindings/sigil.rs, `SIGIL_*`). */
const ATTEMPT = 0;
const OPTIONS = 1;
const BASE = 2;
const MAX = 3;
const JITTER = 4;
const RANDOM = 5;
const SEED = 6;
const ATTEMPTS = 7;
/** Sigil's subtract-only jitter (`Jitter::Subtract`). */
const SUBTRACT = 1;

/** Validated Sigil options. */
interface Sigil {
  base: number;
  max: number;
  jitter: number;
  random: (() => unknown) | undefined;
  /** The keyed-draw prefix when `seed` is given. */
  key: [number, number, number, number] | undefined;
  /** `maxAttempts` (default 8; 1 when not a schedule). */
  attempts: number;
}

/** Checks one value in wasm (SigilError); returns the value to use (its default when `undefined`). */
function check(id: number, v: unknown): number {
  if (wasm.sigilCheck(id, tag(v), num(v)) !== 0) fail([v]);
  return slots()[0] as number;
}

/** Reads and validates Sigil options, each right before its check; `undefined` means all defaults. */
function sigilOptions(options: unknown, schedule: boolean): Sigil {
  check(OPTIONS, options);
  const o = options as Record<string, unknown> | undefined;
  if (o !== undefined) knownKeys(o, SIGIL_OPTIONS);
  const base = check(BASE, o?.baseDelayMs);
  const max = check(MAX, o?.maxDelayMs);
  const jitter = check(JITTER, o?.jitter);
  const random = o?.random;
  check(RANDOM, random);
  const seed = o?.seed;
  if (wasm.sigilCheck(SEED, tag(seed), tag(random)) !== 0) fail([seed]);
  const attempts = schedule ? check(ATTEMPTS, o?.maxAttempts) : 1;
  const key = seed === undefined ? undefined : keyPrefix(seed);
  return { base, max, jitter, random: random as (() => unknown) | undefined, key, attempts };
}

/**
 * The delays of `count` retries from `first` on, drawing in order: a keyed draw
 * when `seed` is set, else one call of `random` (or `fallback`) per jittered
 * retry; a draw that is not a number in `[0, 1]` is a SigilError naming `random`.
 */
function delays(o: Sigil, first: number, count: number, fallback: () => unknown): number[] {
  const out: number[] = [];
  const draws = wasm.jitterDraws(SUBTRACT, o.jitter, 0);
  const random = o.random ?? fallback;
  for (let i = 0; i < count; i++) {
    const attempt = first + i;
    let raw: unknown = 0;
    let r = 0;
    if (draws) {
      if (o.key !== undefined) r = keyedUnit(o.key, attempt);
      else r = num((raw = random()));
    }
    const d = wasm.sigilDelay(o.base, o.max, o.jitter, attempt, r);
    if (d !== d) fail([raw]);
    out.push(d);
  }
  return out;
}

/**
 * A `random` function for Sigil options whose draws in `[0, 1)` equal
 * `createRandom(seed).next()`, draw for draw.
 * @throws TypeError when `seed` is neither a string nor a number.
 */
export function seededRandom(seed: Seed): () => number {
  const stream = createRandom(seed);
  return () => stream.next();
}
