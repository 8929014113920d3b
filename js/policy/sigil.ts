/**
 * `backoff-wasm/sigil`: the retry policy of `@sigil/core`,
 * compiled into the same policy as every other surface (exponential, factor 2,
 * ceiling, subtract-only jitter): `nextDelayMs` is ONE wasm call (`sigil` in
 * src/bindings/sigil.rs validates the options and answers the delay);
 * `retrySchedule` validates once, then one `delay` call per retry.
 * @module
 */
import { wasm } from "../engine/abi.js";
import { putNumber, putTag, readRecord, slots, tag, text, writeRecord } from "../engine/abi.js";
import { putStream, seedWords, streamNext, takeStream, type Seed, type Words } from "./streams.js";
import { SigilError, unknownSigilKey, useSigilError, type SigilErrorCode } from "../engine/errors.js";
import { failed, failSigil, keyedAgain } from "../engine/wasm-errors.js";
import { drawsFrom } from "../engine/draw.js";
import {
  ERR_ARG, ERR_KIND, KIND_KEY_TEXT, REC_HEADER, SIGIL_ATTEMPT, SIGIL_ATTEMPTS, SIGIL_BASE, SIGIL_BASE_DELAY_MS, SIGIL_DELAY, SIGIL_DRAW,
  SIGIL_JITTER, SIGIL_MAX, SIGIL_MAX_ATTEMPTS, SIGIL_MAX_DELAY_MS, SIGIL_NAME, SIGIL_OPTIONS as SIGIL_OPTIONS_FIELD,
  SIGIL_RANDOM, SIGIL_SEED, REC_SOURCE, SOURCE_KEYED, TAG_FUNCTION, TAG_STRING, TAG_UNDEFINED,
} from "../engine/boundary.js";

export { SigilError, type SigilErrorCode };

useSigilError((message) => new SigilError("invalid_argument", message));

/** Attempts in total, the first delivery included: 8 (typed as the literal, as the original declares it). */
export const MAX_ATTEMPTS: 8 = SIGIL_MAX_ATTEMPTS;
/** The wait after the first failure, ms: 1000 (typed as the literal, as the original declares it). */
export const BASE_DELAY_MS: 1000 = SIGIL_BASE_DELAY_MS;
/** The ceiling of any single wait, ms: 3 600 000 (one hour; typed as the literal, as the original declares it). */
export const MAX_DELAY_MS: 3600000 = SIGIL_MAX_DELAY_MS;

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
// A default of `undefined` (the same value as an omitted argument) makes `length` count only
// the required parameters, as the original's `options = {}` does: nextDelayMs.length is 1,
// retrySchedule.length and totalRetryWindowMs.length 0.
export function nextDelayMs(attempt: number, options: BackoffOptions | undefined = undefined): number {
  const pure = options === undefined && defaultIsPure();
  if (pure && typeof attempt === "number" && (DEFAULT_DELAYS[attempt] as number) >= 0) {
    return DEFAULT_DELAYS[attempt] as number;
  }
  const d = sigil(false, attempt, options, Math.random);
  if (pure && attempt >>> 0 === attempt && attempt < DEFAULT_DELAYS.length) DEFAULT_DELAYS[attempt] = d;
  return d;
}

/**
 * The waits of Sigil's default policy (no options: no jitter, so a pure function of the
 * attempt) that Rust computed so far, by attempt (`NaN` where not asked yet): a repeated
 * `nextDelayMs(n)` is a read of them, with no wasm call. Only valid attempts are stored, and
 * they are read and stored only while `defaultIsPure()`.
 */
const DEFAULT_DELAYS = new Float64Array(64).fill(NaN);

/**
 * The waits before retries 1 … `maxAttempts - 1`, drawing in order.
 * Default: `[1000, 2000, 4000, 8000, 16000, 32000, 64000]`; `{ maxAttempts: 1 }` gives `[]`.
 * @throws SigilError as `nextDelayMs`, and when `maxAttempts` is not an integer from 1 to
 *   1 000 001 (a bigger schedule would exhaust memory; the original hangs or crashes there).
 */
export function retrySchedule(options: RetryScheduleOptions | undefined = undefined): number[] {
  if (options === undefined && defaultIsPure()) return (defaultSchedule ??= schedule(undefined)).slice();
  return schedule(options);
}

/** Sigil's default schedule as Rust computed it on first use (no jitter: the same every time). */
let defaultSchedule: number[] | undefined;

/**
 * Whether the default policy is the pure one the memos above hold: with no options, the
 * options are read from a plain object, so an option name inherited from
 * `Object.prototype` is read as Sigil reads it; while one is there, the default is neither
 * computed from nor stored into the memos.
 */
function defaultIsPure(): boolean {
  const o = NO_OPTIONS;
  return o.baseDelayMs === undefined && o.maxDelayMs === undefined && o.jitter === undefined &&
    o.random === undefined && o.seed === undefined && o.maxAttempts === undefined;
}

/** `retrySchedule`'s work: validate once, then one wasm call per retry. */
function schedule(options: RetryScheduleOptions | undefined): number[] {
  // Options are read and validated once; `Math.random` is looked up now.
  const read: Read = [];
  const n = sigil(true, undefined, options, Math.random, read);
  // Sigil's compiled policy (no steps), handed to each wait's call with the source read once.
  const rec = readRecord();
  const random = read[0];
  const stream = read[1] as Words | undefined;
  // n <= 1 000 001 (checked), so the loop is bounded by a count, not a float.
  const out: number[] = [];
  const own = stream !== undefined || rec[REC_SOURCE] === SOURCE_KEYED;
  for (let retry = 1; retry < n; retry++) {
    const from = own ? undefined : drawsFrom(random);
    writeRecord(rec);
    if (stream !== undefined) putStream(stream);
    const d = wasm.delay(retry, 0, from);
    if (stream !== undefined) takeStream(stream);
    out.push(d === d ? d : failed(retry, from, (a) => keyedAgain(rec, a), failSigil));
  }
  return out;
}

/**
 * The sum of `retrySchedule(options)`, ms: how long after the first failure the
 * last attempt happens. Default 127 000.
 * @throws SigilError as `retrySchedule`.
 */
export function totalRetryWindowMs(options: RetryScheduleOptions | undefined = undefined): number {
  let total = 0;
  for (const d of retrySchedule(options)) total += d;
  return total;
}

/** Read in place of options that are not an object (no object is allocated per call; never written). */
const NO_OPTIONS: Record<string, unknown> = {};

/** What a schedule's `sigil` call read, in this order: the draw source and a `seededRandom`'s stream. */
type Read = unknown[];

/**
 * Reads the options (only when `options` is an object) and answers with the one `sigil` call:
 * validation in the original order, then the delay of retry `attempt` (or, for a schedule, the
 * number of attempts, with Sigil's compiled policy in the policy area and the source read into
 * `read`). Each value is written into the input slots by name (`put`, the fields `SIGIL_*` of
 * src/boundary.rs), and an error blames one of them by name (`SIGIL_FIELDS`).
 */
function sigil(schedule: boolean, attempt: unknown, options: unknown, fallback: () => number, read?: Read): number {
  let name: string | undefined;
  let o: Record<string, unknown> = NO_OPTIONS;
  const object = typeof options === "object" && options !== null;
  if (object) {
    name = unknownSigilKey(options);
    o = options as Record<string, unknown>;
  }
  const { baseDelayMs: base, maxDelayMs: max, jitter, random, seed } = o;
  const attempts = schedule ? o.maxAttempts : undefined;
  // A `seededRandom` function's draws are taken in wasm; any other function is called.
  const stream = streamOf(random);
  const source = random ?? fallback;
  read?.push(source, stream);
  const seedLen = typeof seed === "string" || typeof seed === "number" ? text(String(seed)) : 0;
  const s = slots();
  putNumber(s, SIGIL_ATTEMPT, attempt);
  putTag(s, SIGIL_OPTIONS_FIELD, tag(options), NaN);
  putTag(s, SIGIL_NAME, name === undefined ? TAG_UNDEFINED : TAG_STRING, NaN);
  putNumber(s, SIGIL_BASE, base);
  putNumber(s, SIGIL_MAX, max);
  putNumber(s, SIGIL_JITTER, jitter);
  putTag(s, SIGIL_RANDOM, typeof random === "function" ? TAG_FUNCTION : tag(random), stream !== undefined ? 1 : 0);
  putTag(s, SIGIL_SEED, seed === undefined ? TAG_UNDEFINED : tag(seed), seedLen);
  putNumber(s, SIGIL_ATTEMPTS, attempts);
  // A `seededRandom`'s stream and keyed draws (a `seed`) are drawn in wasm: no JavaScript source to
  // hand over, so the call that takes none (with `seed` and `random` both given it fails before a
  // draw), as for a schedule, which draws nothing; a delay drawing from a JavaScript source is the
  // `delay` export's Sigil call, which takes the draw context.
  const from = stream === undefined && seed === undefined ? drawsFrom(source) : undefined;
  if (stream !== undefined) putStream(stream);
  const d = from === undefined || schedule ? wasm.sigilOwn(schedule) : wasm.delay(0, SIGIL_DELAY, from);
  if (stream !== undefined) takeStream(stream);
  if (d === d) return d;
  // A draw out of range (or the source threw, or a keyed draw needs the attempt's text):
  // the options passed, so it is the delay's failure; else an option's.
  const e = slots();
  if (e[ERR_KIND] === KIND_KEY_TEXT || e[ERR_ARG] === SIGIL_DRAW) {
    // The same call for a schedule answers Sigil's compiled policy (keyed draws: no source).
    return failed(attempt as number, from, (a) => (wasm.sigilOwn(true), keyedAgain(readRecord(), a)), failSigil);
  }
  const values: InFieldOrder = [undefined, attempt, options, base, max, jitter, random, seed, attempts, name];
  return failSigil(values);
}

/**
 * The values of a Sigil call's fields listed in their table's order (`SIGIL_DRAW` … `SIGIL_NAME`
 * of js/engine/boundary.ts), which {@link failSigil} picks the blamed value from by index: a list
 * of values when the fields are numbered 0 to 9 in the order `sigil` lists them, else `never`
 * (a type error there).
 */
type InFieldOrder = [
  typeof SIGIL_DRAW, typeof SIGIL_ATTEMPT, typeof SIGIL_OPTIONS_FIELD, typeof SIGIL_BASE, typeof SIGIL_MAX,
  typeof SIGIL_JITTER, typeof SIGIL_RANDOM, typeof SIGIL_SEED, typeof SIGIL_ATTEMPTS, typeof SIGIL_NAME,
] extends [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] ? unknown[] : never;

/**
 * A `random` function for Sigil options whose draws in `[0, 1)` equal
 * `createRandom(seed).next()`, draw for draw.
 * @throws TypeError when `seed` is neither a string nor a number.
 */
export function seededRandom(seed: Seed): () => number {
  const stream = seedWords(seed, failSigil);
  const random = () => streamNext(stream);
  // Sigil's own functions recognise it and draw from the stream inside wasm (one call per delay).
  STREAMS.set(random, stream);
  return random;
}

/**
 * The stream behind each function `seededRandom` made, keyed by that very function: a `Proxy`
 * of one, a function whose prototype is one or a copy is another object, absent here, and is
 * called as any other `random`.
 */
const STREAMS = /* @__PURE__ */ new WeakMap<object, Words>();

/** The stream of `random` when it is a function `seededRandom` made, else `undefined`. */
function streamOf(random: unknown): Words | undefined {
  return typeof random === "function" ? STREAMS.get(random) : undefined;
}
