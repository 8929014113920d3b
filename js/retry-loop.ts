/**
 * The retry loop behind `retry` and `fetchWithRetry`: attempt → classify (success,
 * failure, deferral, stop) → decide → wait.
 * @module
 */
import { AbortError, RetryError, type RetryStopReason } from "./retry-errors.js";
import type { RetryBudget } from "./budget.js";
import { asError, isNetworkError, pRetryDelay, unwrap, type FailedAttemptContext, type PRetry } from "./p-retry.js";
import { isObject, type Plan } from "./retry-options.js";
import { prop, serverWaitMs } from "./server-delay.js";
import { wait } from "./sleep.js";
import type { RetryContext } from "./retry.js";

/** How `fetchWithRetry` lets the shared loop see responses as failures. */
export interface Hooks {
  /** What the callbacks see for a failure. */
  view(error: unknown): unknown;
  /** Releases what a failure holds once it is not returned (a response body). */
  discard(error: unknown): void;
}

function isAbortError(e: unknown): boolean {
  return prop(e, "name") === "AbortError";
}

/**
 * `x instanceof cls` for a value an operation threw: `false` when asking throws (a revoked
 * Proxy, a Proxy whose traps throw), so such a value is retried and reported as it is.
 */
export function isInstance(x: unknown, cls: abstract new (...args: never[]) => unknown): boolean {
  try {
    return x instanceof cls;
  } catch {
    return false;
  }
}

/** Whether a value has a callable `then` (a budget's answer may be a promise); `false` when asking throws. */
function isThenable(x: unknown): x is PromiseLike<unknown> {
  return (isObject(x) || typeof x === "function") && typeof prop(x, "then") === "function";
}

/**
 * A call's deposit into its budget, before the first attempt. A store may answer with a
 * promise: it is not awaited (the first attempt does not wait for the store), and its
 * rejection is caught so it never becomes an unhandled rejection.
 */
function deposit(budget: RetryBudget | undefined): void {
  const r: unknown = budget?.deposit();
  if (isThenable(r)) Promise.resolve(r).catch(() => undefined);
}

/** A budget's answer to one retry; awaited only when the store answers with a promise. */
function withdraw(budget: RetryBudget): boolean | Promise<boolean> {
  const r: unknown = budget.tryWithdraw();
  return isThenable(r) ? Promise.resolve(r).then(Boolean) : Boolean(r);
}

/**
 * The attempt loop of `retry` with this package's own options, and of `fetchWithRetry`.
 * `start`/`t0`: when the call started (`Date.now()`, `performance.now()`); `elapsedMs`,
 * `{ afterMs }` and `maxRetryTime` count from there, setup included.
 */
export async function run<T>(
  fn: (ctx: RetryContext) => T | PromiseLike<T>, p: Plan, hooks?: Hooks, start = Date.now(), t0 = performance.now(),
): Promise<T> {
  const { signal } = p;
  const deadline = p.afterMs !== undefined ? start + p.afterMs : p.deadline;
  const errors: unknown[] = [];
  let made = 0;
  let failures = 0;
  let deferrals = 0;
  /** The RetryError for `reason` (a failure it carries is not discarded: `fetchWithRetry` may return it). */
  const stop = (reason: RetryStopReason, cause: unknown) =>
    new RetryError(reason, made, Date.now() - start, hooks ? hooks.view(cause) : cause, hooks ? errors.map(hooks.view) : errors);
  deposit(p.budget);
  for (;;) {
    if (signal?.aborted) throw stop("aborted", signal.reason);
    let error: unknown;
    try {
      made++;
      return await fn({ attempt: made, signal });
    } catch (e) {
      error = e;
    }
    errors.push(error);
    if (signal?.aborted) {
      hooks?.discard(error);
      throw stop("aborted", signal.reason);
    }
    // This package's AbortError stops at once (p-retry's contract); so does an error named
    // AbortError (fetch aborted by a signal of the caller's own) unless shouldRetry decides.
    if (isInstance(error, AbortError)) throw stop("not-retryable", unwrap(error as AbortError));
    const seen = hooks ? hooks.view(error) : error;
    const server = serverWaitMs(seen);
    const deferral = server !== undefined && p.maxDeferrals > 0;
    let reason: RetryStopReason | undefined;
    let delay = 0;
    try {
      // The one gate every path that sends again passes: a request that may go out only once stops here.
      if (!p.sendAgain) {
        failures++;
        reason = "attempts";
      } else if (deferral) {
        // Fail fast: a server wait longer than maxDeferralMs is not waited in place.
        if (++deferrals > p.maxDeferrals || server > p.maxDeferralMs) reason = "deferrals";
      } else if (++failures >= p.attempts) {
        reason = "attempts";
      } else if (!p.shouldRetry && isAbortError(error)) {
        reason = "aborted";
      }
      if (!reason && p.shouldRetry && !(await p.shouldRetry(seen, made))) reason = "not-retryable";
      if (!reason) {
        delay = deferral ? Math.min(server, p.maxRetryAfter) : p.delay(failures);
        if (server !== undefined && !deferral) delay = Math.max(Math.min(server, p.maxRetryAfter), delay);
        const left = p.maxRetryTime - (performance.now() - t0);
        if (left > 0) delay = Math.min(delay, left);
        else reason = "deadline";
      }
      const retriesLeft = p.sendAgain ? p.attempts - failures : 0;
      if (p.onFailedAttempt) {
        await p.onFailedAttempt(Object.freeze({
          error: seen as Error, attemptNumber: made, retriesLeft, retriesConsumed: failures - 1, retryDelay: reason ? 0 : delay,
        }));
      }
      // Fail fast: no wait that would end past the deadline.
      if (!reason && deadline !== undefined && Date.now() + delay > deadline) reason = "deadline";
      if (!reason && !deferral && p.budget) {
        const paid = withdraw(p.budget);
        if (!(typeof paid === "boolean" ? paid : await paid)) reason = "budget";
      }
      if (reason) throw stop(reason, error);
      if (p.onRetry) {
        await p.onRetry({ error: seen, attempt: made, delayMs: delay, delay, elapsedMs: Date.now() - start, retriesLeft, deferral });
      }
    } catch (e) {
      if (!(isInstance(e, RetryError) && (e as RetryError).cause === seen)) hooks?.discard(error);
      throw e;
    }
    hooks?.discard(error);
    try {
      await wait(delay, signal, p.unref);
    } catch {
      throw stop("aborted", signal?.reason);
    }
  }
}

/** p-retry's attempt loop (p-retry 9.0.0's order of checks, callbacks and draws). */
export async function pRun<T>(fn: (ctx: RetryContext) => T | PromiseLike<T>, o: PRetry): Promise<T> {
  const { signal } = o;
  const stop = () => {
    if (signal?.aborted) throw signal.reason;
  };
  stop();
  const start = performance.now();
  const left = () => o.maxRetryTime - (performance.now() - start);
  let consumed = 0;
  for (let attempt = 1; ; attempt++) {
    let thrown: unknown;
    try {
      stop();
      const value = await fn({ attempt, signal });
      stop();
      return value;
    } catch (e) {
      thrown = e;
    }
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
    if (ms > 0) await wait(ms, signal, o.unref);
    consumed++;
  }
}
