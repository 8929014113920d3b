/**
 * The retry loop behind `retry` and `fetchWithRetry`: attempt → classify (success,
 * failure, deferral, stop) → decide → wait.
 * @module
 */
import { AbortError, isInstance, RetryError, unwrap, type RetryStopReason } from "./retry-errors.js";
import type { RetryBudget } from "./budget.js";
import { isObject } from "../engine/options.js";
import type { Plan, RetryContext } from "./retry-options.js";
import { prop, serverWaitMs } from "./server-delay.js";
import { MAX_TIMER_MS, wait } from "./sleep.js";

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
  try {
    const r: unknown = budget?.deposit();
    if (isThenable(r)) Promise.resolve(r).catch(() => undefined);
  } catch {
    // A store that fails to take the deposit costs the call nothing, as a rejected deposit.
  }
}

/**
 * A budget's answer to one retry; awaited only when the store answers with a promise. A store
 * that fails to answer (throws, or its promise rejects) grants nothing: the call stops with
 * reason "budget" as for a refusal, and keeps what the attempt gave (fetchWithRetry: its Response).
 */
function withdraw(budget: RetryBudget): boolean | Promise<boolean> {
  let r: unknown;
  try {
    r = budget.tryWithdraw();
  } catch {
    return false;
  }
  return isThenable(r) ? Promise.resolve(r).then(Boolean, () => false) : Boolean(r);
}

/**
 * A store's answer to a withdrawal, or the stop that comes first: `"aborted"` when `signal`
 * aborts, `"deadline"` at epoch ms `end` (a store that never answers holds the call until one
 * of them, and for ever without either).
 */
function answerOrStop(paid: Promise<boolean>, signal: AbortSignal | undefined, end: number, unref: boolean): Promise<boolean | RetryStopReason> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (then: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      then();
    };
    const onAbort = () => settle(() => resolve("aborted"));
    const arm = () => {
      const left = end - Date.now();
      if (left <= 0) return settle(() => resolve("deadline"));
      // Re-armed in chunks: a timer longer than 2^31 - 1 ms would fire at once.
      timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
      if (unref) (timer as { unref?: () => void }).unref?.();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    if (end !== Infinity) arm();
    paid.then((ok) => settle(() => resolve(ok)), (e: unknown) => settle(() => reject(e)));
  });
}

/**
 * What one call's loop asks at each step; the two forms of options (this package's,
 * p-retry's) differ here, in the order of their checks and callbacks and in what a stop
 * rejects with, not in the loop. @internal
 */
export interface Rules {
  /** Passed to the operation and to every wait. */
  signal: AbortSignal | undefined;
  /** Let Node exit during a wait. */
  unref: boolean;
  /**
   * Ms each attempt may take (`undefined`: no limit): the operation then gets a signal of
   * its own, aborted with a `TimeoutError` when the time is up (see {@link timedAttempt}).
   */
  attemptTimeout?: number;
  /** Before attempt `attempt` (1 for the first): throws to stop before it is made. */
  before(attempt: number): void;
  /** After the operation resolved: throws to reject instead (p-retry: an abort seen then). */
  settled(): void;
  /**
   * A failed attempt: classifies it (failure, deferral, stop) and decides. Resolves to the
   * wait before the next attempt in ms (`undefined`: the next attempt follows at once),
   * or throws what the call rejects with.
   */
  failed(thrown: unknown, attempt: number): number | undefined | Promise<number | undefined>;
  /** What the call rejects with when the signal aborts a wait. */
  aborted(): unknown;
}

/**
 * One attempt under a time limit: the operation gets a signal of its own, aborted with a
 * `DOMException` named `TimeoutError` after `ms`, or with `outer`'s reason when `outer` (the
 * caller's signal) aborts first. The attempt fails with that reason the moment its signal
 * aborts, whether or not the operation honours the signal (its later outcome is ignored).
 * The timer (re-armed in chunks: a timer longer than 2^31 - 1 ms would fire at once) and the
 * listener on `outer` are removed as soon as the attempt settles, either way.
 */
function timedAttempt<T>(
  fn: (ctx: RetryContext) => T | PromiseLike<T>, attempt: number, outer: AbortSignal | undefined, ms: number, unref: boolean,
): Promise<T> {
  const own = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuter);
    };
    const end = (reason: unknown) => {
      if (settled) return;
      settle();
      reject(reason);
      own.abort(reason);
    };
    const onOuter = () => end(outer!.reason);
    const due = Date.now() + ms;
    const arm = () => {
      const left = due - Date.now();
      if (left <= 0) return end(new DOMException(`attempt ${attempt} timed out after ${ms} ms (attemptTimeout)`, "TimeoutError"));
      timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
      if (unref) (timer as { unref?: () => void }).unref?.();
    };
    outer?.addEventListener("abort", onOuter, { once: true });
    arm();
    let result: T | PromiseLike<T>;
    try {
      result = fn({ attempt, signal: own.signal });
    } catch (e) {
      if (!settled) {
        settle();
        reject(e);
      }
      return;
    }
    Promise.resolve(result).then(
      (v) => {
        if (settled) return;
        settle();
        resolve(v);
      },
      (e: unknown) => {
        if (settled) return;
        settle();
        reject(e);
      },
    );
  });
}

/** The one retry loop: attempt, then on a failure ask the rules for the wait, wait, and go again. @internal */
export async function loop<T>(fn: (ctx: RetryContext) => T | PromiseLike<T>, rules: Rules): Promise<T> {
  const { signal } = rules;
  for (let attempt = 1; ; attempt++) {
    rules.before(attempt);
    let thrown: unknown;
    try {
      const limit = rules.attemptTimeout;
      const value = await (limit === undefined ? fn({ attempt, signal }) : timedAttempt(fn, attempt, signal, limit, rules.unref));
      rules.settled();
      return value;
    } catch (e) {
      thrown = e;
    }
    const delay = await rules.failed(thrown, attempt);
    if (delay === undefined) continue;
    try {
      await wait(delay, signal, rules.unref);
    } catch {
      throw rules.aborted();
    }
  }
}

/**
 * The rules of `retry` with this package's own options, and of `fetchWithRetry` (a
 * {@link Plan}). `start`/`t0`: when the call started (`Date.now()`, `performance.now()`);
 * `elapsedMs`, `{ afterMs }` and `maxRetryTime` count from there, setup included. @internal
 */
export function planRules(p: Plan, hooks?: Hooks, start = Date.now(), t0 = performance.now()): Rules {
  const { signal } = p;
  const deadline = p.afterMs !== undefined ? start + p.afterMs : p.deadline;
  const errors: unknown[] = [];
  let made = 0;
  let failures = 0;
  let deferrals = 0;
  /** The RetryError for `reason` (a failure it carries is not discarded: `fetchWithRetry` may return it). */
  const stop = (reason: RetryStopReason, cause: unknown) =>
    new RetryError(reason, made, Date.now() - start, hooks ? hooks.view(cause) : cause, hooks ? errors.map(hooks.view) : errors);
  // First attempts deposit: a call whose signal is aborted already makes none, so funds no retry.
  if (!signal?.aborted) deposit(p.budget);
  return {
    signal,
    unref: p.unref,
    attemptTimeout: p.attemptTimeout,
    before(attempt) {
      if (signal?.aborted) throw stop("aborted", signal.reason);
      made = attempt;
    },
    settled() {},
    aborted: () => stop("aborted", signal?.reason),
    async failed(error) {
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
        // onRetry's count: the attempts the budget still allows (a deferral spends none).
        const retriesLeft = p.sendAgain ? p.attempts - failures : 0;
        if (p.onFailedAttempt) {
          // p-retry's context counts retries: a failure counted itself in `failures`; a
          // deferral is no failure, so it leaves the previous failures' counts as they are.
          const spent = deferral ? failures + 1 : failures;
          await p.onFailedAttempt(Object.freeze({
            error: seen as Error, attemptNumber: made, retriesLeft: p.sendAgain ? p.attempts - spent : 0, retriesConsumed: spent - 1,
            retryDelay: reason ? 0 : delay,
          }));
        }
        // Fail fast: no wait that would end past the deadline.
        if (!reason && deadline !== undefined && Date.now() + delay > deadline) reason = "deadline";
        if (!reason && !deferral && p.budget) {
          const paid = withdraw(p.budget);
          if (typeof paid === "boolean") {
            if (!paid) reason = "budget";
          } else {
            // A store's promise is waited for no longer than the call may run: an abort or the
            // deadline (or maxRetryTime) ends the wait for it, and a wait that would now end past
            // the deadline is not begun.
            const end = Math.min(deadline ?? Infinity, Date.now() + p.maxRetryTime - (performance.now() - t0));
            const answer = await answerOrStop(paid, signal, end, p.unref);
            if (answer === "aborted") {
              throw stop("aborted", signal?.reason);
            }
            if (typeof answer === "string") reason = answer;
            else if (!answer) reason = "budget";
            else {
              // The store's answer took time: the wait is cut again to what maxRetryTime leaves.
              const left = p.maxRetryTime - (performance.now() - t0);
              if (left > 0) delay = Math.min(delay, left);
              else reason = "deadline";
              if (!reason && deadline !== undefined && Date.now() + delay > deadline) reason = "deadline";
            }
          }
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
      return delay;
    },
  };
}
