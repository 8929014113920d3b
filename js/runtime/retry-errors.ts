/**
 * The error classes of `backoff-wasm/retry`: `AbortError` (p-retry's "stop
 * retrying now", also `backoff-wasm/p-retry`'s) and `RetryError` (why a call of `retry` or
 * `fetchWithRetry` stopped). `instanceof` works across every copy of the package (ESM and
 * CommonJS): membership is a `Symbol.for` brand, as for the other error classes.
 * @module
 */

import { brand, has, invalid, TYPE } from "../engine/errors.js";

// Pure (no module-level side effect), so that an entry point that does not use these
// classes (/queues loads this chunk) loses them to tree-shaking.
const ABORT_BRAND = /* @__PURE__ */ Symbol.for("backoff-wasm.AbortError");
const RETRY_BRAND = /* @__PURE__ */ Symbol.for("backoff-wasm.RetryError");

/**
 * Thrown by the operation to stop retrying at once, as p-retry's `AbortError` (p-retry 9.0.0,
 * the same class in `backoff-wasm/p-retry` and `backoff-wasm/retry`): the retry loop rejects
 * with `originalError` (unwrapped through nested `AbortError`s), not with the `AbortError`
 * itself, and calls no further callback.
 */
export class AbortError extends Error {
  /** Always `"AbortError"`. */
  declare readonly name: "AbortError";
  /** The error the loop rejects with: the `Error` given, else `new Error(message)`. */
  declare readonly originalError: Error;

  /**
   * @param message why to stop: the `Error` to reject with, or its message (any other value
   *   is made text as `new Error(message)` makes it).
   */
  constructor(message?: string | Error) {
    super(typeof message === "string" ? message : undefined);
    (this as { name: string }).name = "AbortError";
    if (message instanceof Error) {
      this.originalError = message;
      this.message = message.message;
    } else {
      this.originalError = new Error(message);
      this.message = this.originalError.message;
      // The stack starts at the caller's throw, not in this constructor (V8 only).
      (Error as { captureStackTrace?: (e: object, f: unknown) => void }).captureStackTrace?.(this.originalError, AbortError);
    }
    brand(this, ABORT_BRAND);
  }

  /** Brand check: errors from any copy of the package match; subclasses check the prototype chain. */
  static [Symbol.hasInstance](x: unknown): boolean {
    return has(AbortError, this, ABORT_BRAND, x) || Function.prototype[Symbol.hasInstance].call(this, x);
  }
}

/** The error an `AbortError` stands for, nested wrappers unwrapped (a wrapper of no `Error` is its own cause). @internal */
export function unwrap(e: Error): Error {
  while (e instanceof AbortError && e.originalError instanceof Error) e = e.originalError;
  return e;
}

/**
 * `x instanceof cls` for a value an operation threw: `false` when asking throws (a revoked
 * Proxy, a Proxy whose traps throw), so such a value is retried and reported as it is. @internal
 */
export function isInstance(x: unknown, cls: abstract new (...args: never[]) => unknown): boolean {
  try {
    return x instanceof cls;
  } catch {
    return false;
  }
}

/** Why a retry loop stopped (see {@link RetryError}). */
export type RetryStopReason = "attempts" | "deadline" | "budget" | "aborted" | "not-retryable" | "deferrals";

/** Every {@link RetryStopReason}, in the order the messages list them. */
const REASONS: readonly string[] = ["attempts", "deadline", "budget", "aborted", "not-retryable", "deferrals"];

/**
 * Why a call of `retry`/`fetchWithRetry` with this package's own options gave
 * up: `reason` — `"attempts"` (the attempt budget is
 * spent), `"deadline"` (the next wait would end past `deadline`), `"budget"`
 * (the shared retry budget is empty), `"aborted"` (the signal fired; `cause` is
 * `signal.reason`), `"not-retryable"` (`shouldRetry` said no), `"deferrals"`
 * (more server-ordered waits than `maxDeferrals`). `backoff-wasm/p-retry` never
 * produces it: it rethrows the last error, as p-retry does.
 */
export class RetryError extends Error {
  /** Always `"RetryError"`. */
  override readonly name = "RetryError";
  /** Why the loop stopped. */
  readonly reason: RetryStopReason;
  /** Attempts made (calls of the operation, or requests sent). */
  readonly attempts: number;
  /** Ms from the start of the call to the stop. */
  readonly elapsedMs: number;
  /** The last attempt's error (`signal.reason` for `"aborted"`). */
  override readonly cause: unknown;
  /** Every failed attempt's error, in order. */
  readonly errors: readonly unknown[];

  /**
   * What the retry loops build when they stop; a test can build one to stand for such a stop
   * (a stubbed call that rejects as `retry` would). The message is
   * `retry stopped (<reason>) after <attempts> attempts in <elapsedMs> ms: <cause's message>`.
   * @param reason why the loop stopped.
   * @param attempts attempts made.
   * @param elapsedMs ms from the start of the call to the stop.
   * @param cause the last attempt's error (`signal.reason` for `"aborted"`).
   * @param errors every failed attempt's error, in order.
   * @throws TypeError naming the first bad argument: a `reason` that is no
   *   {@link RetryStopReason}, `attempts` that is not a non-negative safe integer, `elapsedMs`
   *   that is not a finite number (a clock set back may make it negative), `errors` that is not
   *   an array. `cause` may be any value.
   */
  constructor(reason: RetryStopReason, attempts: number, elapsedMs: number, cause: unknown, errors: readonly unknown[]) {
    if (!REASONS.includes(reason)) throw invalid(TYPE, "reason", '"attempts", "deadline", "budget", "aborted", "not-retryable" or "deferrals"', reason);
    if (!(Number.isSafeInteger(attempts) && attempts >= 0)) throw invalid(TYPE, "attempts", "a non-negative safe integer", attempts);
    if (!Number.isFinite(elapsedMs)) throw invalid(TYPE, "elapsedMs", "a finite number of ms", elapsedMs);
    if (!Array.isArray(errors)) throw invalid(TYPE, "errors", "an array of the failed attempts' errors", errors);
    let last: string;
    try {
      last = cause instanceof Error ? cause.message : String(cause);
    } catch {
      last = "an unprintable value";
    }
    super(`retry stopped (${reason}) after ${attempts} attempt${attempts === 1 ? "" : "s"} in ${Math.round(elapsedMs)} ms: ${last}`);
    this.reason = reason;
    this.attempts = attempts;
    this.elapsedMs = elapsedMs;
    this.cause = cause;
    this.errors = errors;
    brand(this, RETRY_BRAND);
  }

  /** Brand check: errors from any copy of the package match; subclasses check the prototype chain. */
  static [Symbol.hasInstance](x: unknown): boolean {
    return has(RetryError, this, RETRY_BRAND, x);
  }
}
