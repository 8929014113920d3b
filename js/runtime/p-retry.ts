/**
 * p-retry-style options for `retry(fn, options)` and `fetchWithRetry`: their
 * validation, p-retry's delay formula and the rules it gives the retry loop (behaviour and
 * numbers of p-retry 9.0.0, sindresorhus/p-retry; differential test in
 * tests/retry/p-retry.test.mjs).
 * @module
 */
import { invalid, numberOption, RANGE, TYPE } from "../engine/errors.js";
import { fnOf, signalOf, type AbortSignalLike } from "../engine/options.js";
import { MAX_TIMER_MS } from "./sleep.js";
import type { FailedAttemptContext } from "./retry-options.js";

export type { FailedAttemptContext };
import { AbortError, isInstance, unwrap } from "./retry-errors.js";
import type { Rules } from "./retry-loop.js";

type Signal = AbortSignal;


/**
 * p-retry's options (p-retry 9.0.0), with p-retry's defaults and formula: the
 * wait before retry `n` (1-based) is
 * `min(round(r * minTimeout * factor^(n-1)), ceil(maxTimeout), 2^31 - 1)` where
 * `r` is `1 + Math.random()` with `randomize`, else 1 (0 when `minTimeout` is 0).
 */
export interface PRetryOptions {
  /** Retries after the first attempt: a non-negative integer or `Infinity`. Default 10. */
  retries?: number;
  /** Growth per retry, a finite number >= 0 (0 means 1). Default 2. */
  factor?: number;
  /** The first wait, ms, finite >= 0. Default 1000. */
  minTimeout?: number;
  /** Ceiling of each wait, ms, >= 0 or `Infinity` (the default). */
  maxTimeout?: number;
  /** Multiply each wait by a draw of `1 + Math.random()`. Default `false`. */
  randomize?: boolean;
  /** Called after every failed attempt (awaited), the last one included; a throw rejects with it. */
  onFailedAttempt?: (context: FailedAttemptContext) => unknown;
  /** Decides on another attempt after `onFailedAttempt` (awaited); falsy rethrows the error. */
  shouldRetry?: (context: FailedAttemptContext) => unknown;
  /** Aborting rejects at once with `signal.reason`. */
  signal?: AbortSignalLike;
  /** Ms from the start after which no attempt begins; the last wait is cut to fit. Default `Infinity`. */
  maxRetryTime?: number;
  /** Let Node exit while a wait is pending (`timer.unref()`). */
  unref?: boolean;
}

/** Validated p-retry options. @internal */
export interface PRetry {
  retries: number;
  factor: number;
  minTimeout: number;
  maxTimeout: number;
  randomize: boolean;
  onFailedAttempt: ((c: FailedAttemptContext) => unknown) | undefined;
  shouldRetry: ((c: FailedAttemptContext) => unknown) | undefined;
  signal: Signal | undefined;
  maxRetryTime: number;
  unref: boolean;
}



function boolOf(name: string, x: unknown): boolean {
  if (x == null) return false;
  if (typeof x !== "boolean") throw invalid(TYPE, name, "a boolean", x);
  return x;
}

/**
 * A number option of p-retry: >= 0, finite unless `infinite`; `fallback` when `undefined`/`null`.
 * A value out of range is a `range` error: TypeError in `retry(fn, pRetryOptions)`, as p-retry
 * throws, RangeError in this package's own options.
 */
function numberOf(name: string, x: unknown, fallback: number, infinite: boolean, range: typeof RANGE | typeof TYPE): number {
  return numberOption(name, x ?? undefined, `a number >= 0${infinite ? " or Infinity" : ", finite"}`, (v) => v >= 0 && (infinite || v < Infinity), fallback, range);
}

/**
 * `retries`: a non-negative integer or `Infinity` (p-retry also takes integers past 2^53).
 * Out of range: a `range` error (RangeError by default; p-retry's own form throws TypeError). @internal
 */
export function retriesOf(x: unknown, fallback: number, name = "retries", range: typeof RANGE | typeof TYPE = RANGE): number {
  return numberOption(name, x ?? undefined, "a non-negative integer or Infinity", (v) => v >= 0 && (v === Infinity || Number.isInteger(v)), fallback, range);
}

/**
 * Validates p-retry options (already checked for unknown keys), p-retry's defaults filled in.
 * `range`: the class of an out-of-range number — TypeError for `retry(fn, pRetryOptions)`,
 * as p-retry 9 throws it; RangeError where they sit among this package's own options
 * (`fetchWithRetry`). @internal
 */
export function pRetryOptions(o: Record<string, unknown>, retries = 10, range: typeof RANGE | typeof TYPE = RANGE): PRetry {
  return {
    retries: retriesOf(o.retries, retries, "retries", range),
    factor: numberOf("factor", o.factor, 2, false, range) || 1,
    minTimeout: numberOf("minTimeout", o.minTimeout, 1000, false, range),
    maxTimeout: numberOf("maxTimeout", o.maxTimeout, Infinity, true, range),
    randomize: boolOf("randomize", o.randomize),
    onFailedAttempt: fnOf("onFailedAttempt", o.onFailedAttempt),
    shouldRetry: fnOf("shouldRetry", o.shouldRetry),
    signal: signalOf("signal", o.signal),
    maxRetryTime: numberOf("maxRetryTime", o.maxRetryTime, Infinity, true, range),
    unref: boolOf("unref", o.unref),
  };
}

/** p-retry's wait before retry `consumed + 1` (draws `Math.random` once when `randomize`). @internal */
export function pRetryDelay(consumed: number, o: PRetry): number {
  if (o.minTimeout === 0) return 0;
  const r = o.randomize ? Math.random() + 1 : 1;
  return Math.min(Math.round(r * o.minTimeout * o.factor ** consumed), Math.ceil(o.maxTimeout), MAX_TIMER_MS);
}

/** Messages of a network failure of `fetch` in each runtime (the facts collected by `is-network-error`). */
const NETWORK = new Set([
  "network error", "NetworkError when attempting to fetch resource.", "The Internet connection appears to be offline.",
  "Network request failed", "fetch failed", "terminated", " A network error occurred.", "Network connection lost", "Failed to fetch",
]);

/** A `TypeError` that a failed network request raises (retried by p-retry; other TypeErrors are not). @internal */
export function isNetworkError(e: Error): boolean {
  try {
    return networkMessage(e);
  } catch {
    return false; // a Proxy whose traps throw: not a network error
  }
}

function networkMessage(e: Error): boolean {
  const m = e.message;
  if (e.name !== "TypeError" || typeof m !== "string" || Object.prototype.toString.call(e) !== "[object Error]") return false;
  if (m === "Load failed" || /^Load failed \(.*\)$/s.test(m)) return e.stack === undefined || "__sentry_captured__" in e;
  return NETWORK.has(m) || m.startsWith("error sending request for url") || /^Failed to fetch \(.*\)$/s.test(m);
}

/**
 * p-retry's view of a thrown value: an `Error` as is, anything else wrapped in a `TypeError`.
 * A value that cannot be asked (a revoked Proxy, a Proxy whose traps throw) stays as it is:
 * it is retried and rethrown unchanged. @internal
 */
export function asError(x: unknown): Error {
  try {
    if (x instanceof Error) return x;
  } catch {
    return x as Error;
  }
  let s: string;
  try {
    s = String(x);
  } catch {
    try {
      s = Object.prototype.toString.call(x);
    } catch {
      return x as Error;
    }
  }
  return new TypeError(`Non-error was thrown: "${s}". You should only throw errors.`);
}


/**
 * The rules of `retry(fn, pRetryOptions)` for the retry loop: p-retry 9.0.0's order of
 * checks, callbacks and `Math.random` draws; a stop rejects with the last error, or with
 * `signal.reason` when aborted. An already-aborted signal throws here, before any attempt. @internal
 */
export function pRetryRules(o: PRetry): Rules {
  const { signal } = o;
  const stop = () => {
    if (signal?.aborted) throw signal.reason;
  };
  stop();
  const start = performance.now();
  const left = () => o.maxRetryTime - (performance.now() - start);
  let consumed = 0;
  return {
    signal,
    unref: o.unref,
    before: stop,
    settled: stop,
    aborted: () => signal?.reason,
    async failed(thrown, attempt) {
      const error = asError(thrown);
      stop();
      if (isInstance(error, AbortError)) throw unwrap(error);
      const retriesLeft = o.retries - consumed;
      const retriable = !isInstance(error, TypeError) || isNetworkError(error);
      const delay = retriable && left() > 0 && retriesLeft > 0 ? pRetryDelay(consumed, o) : 0;
      const context: FailedAttemptContext = Object.freeze({ error, attemptNumber: attempt, retriesLeft, retriesConsumed: consumed, retryDelay: delay });
      await o.onFailedAttempt?.(context);
      stop();
      if (!retriable || left() <= 0 || retriesLeft <= 0) throw error;
      const go = o.shouldRetry ? await o.shouldRetry(context) : true;
      stop();
      if (!go) throw error;
      const remaining = left();
      if (remaining <= 0) throw error;
      const ms = Math.min(delay, remaining);
      consumed++;
      return ms > 0 ? ms : undefined;
    },
  };
}
