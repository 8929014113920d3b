/**
 * `backoff-wasm/retry`: the runtime layer — run an operation again after the
 * waits of a policy (`retry`), `fetch` that retries what is safe to retry
 * (`fetchWithRetry`), the `Retry-After` field (`retryAfterMs`),
 * a `sleep` that is right for any length, and the delay for Cloudflare Queues'
 * `message.retry({ delaySeconds })` (`queueRetryDelaySeconds`).
 *
 * Everything takes a policy as `Backoff | number | DurationString`; a plain
 * duration means `Backoff.fixed(x)` (see `Backoff.from`). All times are ms.
 * @module
 */
import type { BackoffOptions } from "../policy/backoff.js";
import { invalid, TYPE } from "../engine/errors.js";
import { optionsObject, plan, policyDefault, policyOf, RETRY_KEYS, type RetryContext, type RetryOptions, type RetryPolicy } from "./retry-options.js";
import { loop, planRules } from "./retry-loop.js";

export {
  fetchWithRetry, type FetchInit, type FetchInput, type FetchRequest, type FetchResponse, type FetchRetryOptions,
} from "./fetch-retry.js";
export type { FailedAttemptContext, RetryContext, RetryEvent, RetryOptions, RetryPolicy } from "./retry-options.js";
export type { AbortSignalLike } from "./retry-options.js";
export { retryAfterMs, serverDelayMs, type RetryAfterInput } from "./server-delay.js";
export { sleep, type SleepOptions } from "./sleep.js";
export { queueRetryDelaySeconds } from "./queue-seconds.js";
export { AbortError, RetryError, type RetryStopReason } from "./retry-errors.js";
export {
  createRetryBudget, type RetryBudget, type RetryBudgetOptions, type RetryBudgetStore, type RetryBudgetRule, type RetryBudgetWithdrawal,
} from "./budget.js";
export { redisBudgetStore, type RedisClientLike, type RedisBudgetStoreOptions } from "./budget-redis.js";
export {
  RetryBudgetObject, durableObjectBudgetStore, type DurableObjectNamespaceLike, type DurableObjectBudgetStoreOptions, type ResponseLikeBudget,
} from "./budget-durable.js";


/** The second argument of `retry`: a {@link RetryPolicy} or `createBackoff` options. */
export type RetryPolicyInput = RetryPolicy | BackoffOptions;

/**
 * Calls `fn({ attempt, signal })` until it resolves, waiting `policy.delay(n)` (ms) after
 * the n-th failure, and resolves with its value. For p-retry's API (`pRetry(input,
 * { retries, minTimeout, … })`, p-retry's numbers and errors), use `backoff-wasm/p-retry`:
 * p-retry's options here are a TypeError that names it and the policy that waits as p-retry
 * would (`{ retries: 5, minTimeout: 100 }` is `Backoff.exponential(100).maxAttempts(6)`).
 *
 * The attempt budget comes from exactly one place: `options.retries` (attempts AFTER the
 * first) or the policy's `.maxAttempts(n)` (attempts in total): `retries: 2` equals
 * `.maxAttempts(3)`. A call that gives up rejects with {@link RetryError} (`reason`:
 * attempts, deadline, budget, aborted, not-retryable; `cause` the last error); an error
 * thrown by `shouldRetry` or `onRetry` rejects as is.
 *
 * Server waits: when the thrown value is itself a response (it has `headers`
 * and `status`/`statusCode`) or carries one as `error.response` (as fetch
 * wrappers and HTTP clients such as axios do), and its status is 429 or 503
 * with a wait `serverDelayMs` reads, the wait is `max(min(server,
 * maxRetryAfter), policy delay)`. A value `fn` resolves with is never a failure here.
 *
 * Throwing `new AbortError(error)` from `fn` stops at once (`RetryError` reason
 * "not-retryable", `cause` the error). An error named `AbortError` (what `fetch` throws when
 * a signal of the caller's own aborts it) also stops at once unless `shouldRetry` is given
 * and decides; a `TimeoutError` is retried.
 *
 * @param fn the operation; may return a value or a promise.
 * @param policy a `Backoff`, a duration (a fixed wait: ms or duration text) or
 *   `createBackoff` options (read as `createBackoff` reads them: a class instance's
 *   getters and options inherited from a defaults object count); omitted: the default
 *   `Backoff.exponential("1 second").cap("30 seconds").jitter("full").maxAttempts(4)`
 *   (4 attempts, waits drawn in [0, 1 s], [0, 2 s], [0, 4 s]; without `.maxAttempts(4)`
 *   when `options.retries` is given).
 * @param options {@link RetryOptions}: `retries` (attempts after the first; not
 *   with a policy's `.maxAttempts()`), `signal`, `shouldRetry`, `onRetry`,
 *   `maxRetryAfter`, `deadline`, `budget`, `attemptTimeout`.
 * @returns what `fn` resolved with.
 * @throws (rejects; never throws synchronously) TypeError when `fn` is not a function, an
 *   argument has the wrong type or cannot be read (a revoked Proxy, a throwing getter; the
 *   engine's error is the `cause`), a key is unknown or misplaced (the message says where it
 *   belongs: p-retry's options in `backoff-wasm/p-retry`), or both `retries` and
 *   `.maxAttempts()` are set; RangeError for a bad value, or when neither sets a budget for a
 *   policy without one (use `retries: Infinity` to retry for ever on purpose); RetryError
 *   when the loop gives up (reason "aborted" with `cause` = `signal.reason` when aborted).
 * @example
 * const data = await retry(({ signal }) => load(signal), Backoff.exponential("200ms").maxAttempts(5));
 */
export async function retry<T>(
  fn: (ctx: RetryContext) => T | PromiseLike<T>,
  policy?: RetryPolicyInput,
  options?: RetryOptions,
): Promise<T> {
  if (typeof fn !== "function") throw invalid(TYPE, "fn", "a function", fn);
  const pol = policy === undefined ? undefined : policyOf(policy, "policy");
  const o = optionsObject(options, RETRY_KEYS);
  return loop(fn, planRules(plan(pol ?? policyDefault(o.retries === undefined), o)()));
}
