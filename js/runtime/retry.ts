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
import type { Backoff, BackoffOptions } from "../policy/backoff.js";
import type { DurationInput } from "../policy/duration.js";
import { invalid, TYPE } from "../engine/errors.js";
import type { RetryBudget } from "./budget.js";
import { optionsObject, plan, policyDefault, policyOf, RETRY_KEYS } from "./retry-options.js";
import { loop, planRules } from "./retry-loop.js";

export { fetchWithRetry } from "./fetch-retry.js";
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

/** What every function here accepts as a policy: a `Backoff`, or a fixed wait (ms or duration text). */
export type RetryPolicy = Backoff | DurationInput;

/** The second argument of `retry`: a {@link RetryPolicy} or `createBackoff` options. */
export type RetryPolicyInput = RetryPolicy | BackoffOptions;

/** The global scope of the program using this package. */
type Host = typeof globalThis;

/**
 * The runtime's `AbortSignal` (DOM, Node, Workers). In a program whose types declare
 * none (no DOM lib, no `@types/node`), the members this package uses.
 */
export type AbortSignalLike = Host extends { AbortSignal: { prototype: infer S } }
  ? S
  : {
      readonly aborted: boolean;
      readonly reason: unknown;
      addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
      removeEventListener(type: "abort", listener: () => void): void;
    };

/**
 * What `fetchWithRetry`'s `onFailedAttempt` receives (frozen), p-retry's context: `E` is the
 * failure, a network `Error` or the `Response` of a retryable status.
 */
export interface FailedAttemptContext<E = Error> {
  /** The failure. */
  readonly error: E;
  /** The attempt that failed, 1-based. */
  readonly attemptNumber: number;
  /** Retries still allowed after this failure (`retries - retriesConsumed`). */
  readonly retriesLeft: number;
  /** Retries taken so far. */
  readonly retriesConsumed: number;
  /** The wait before the next attempt, ms (0 when none follows). */
  readonly retryDelay: number;
}

/** The first parameter of the runtime's `fetch` (a URL, URL text or `Request`). */
export type FetchInput = Host extends { fetch: (input: infer I, ...rest: never[]) => unknown } ? I : string;
/** The second parameter of the runtime's `fetch` (`RequestInit`). */
export type FetchInit = Host extends { fetch: (input: never, init?: infer I) => unknown } ? NonNullable<I> : object;
/** The runtime's `Request` (what `idempotencyKey` as a function is given). */
export type FetchRequest = Host extends { Request: { prototype: infer R } } ? R : unknown;
/** What the runtime's `fetch` resolves to (`Response`). */
export type FetchResponse = Host extends { fetch: (...args: never[]) => Promise<infer R> } ? R : unknown;

/** What `retry` passes to the operation on each attempt. */
export interface RetryContext {
  /** This attempt's number: 1 for the first call, 2 for the first retry, … */
  attempt: number;
  /**
   * Pass it on to abortable work. Without `attemptTimeout`: the `signal` option
   * (`undefined` when none was given). With `attemptTimeout`: this attempt's own signal,
   * aborted with a `DOMException` named `TimeoutError` when the attempt's time is up, or
   * with the `signal` option's reason when that one aborts first.
   */
  signal: AbortSignalLike | undefined;
}

/** What `onRetry` receives, once per retry, before the wait. */
export interface RetryEvent {
  /** Why the attempt failed: the thrown value (for `fetchWithRetry`, the `Response` when its status was retryable). */
  error: unknown;
  /** The attempt that failed (1-based); the next one is `attempt + 1`. */
  attempt: number;
  /** The wait before the next attempt, ms (after the server's wait was taken into account). */
  delayMs: number;
  /** Same as `delayMs` (the name of earlier versions). */
  delay: number;
  /** Ms since the call started. */
  elapsedMs: number;
  /** Retries the attempt budget still allows, this one included (p-retry's `retriesLeft`); a deferral spends none. */
  retriesLeft: number;
  /** `true` when this wait is a deferral: a 429/503 with a server wait in `fetchWithRetry`, not counted as an attempt. */
  deferral: boolean;
}

/** Options of `retry` (all optional, validated once when `retry` starts). */
export interface RetryOptions {
  /**
   * Stops retrying: aborting during a wait rejects at once with `RetryError`
   * reason `"aborted"` (`signal.reason` is its `cause`) and clears the timer; an
   * already-aborted signal never calls the operation; a failure seen after the
   * abort rejects the same way. It is also passed to the operation, which should
   * honour it while it runs.
   */
  signal?: AbortSignalLike;
  /**
   * How many FURTHER attempts may follow the first: a non-negative integer, or
   * `Infinity` to retry for ever on purpose. `retries: 2` is 3 attempts in
   * total, the same budget as the policy's `.maxAttempts(3)`. Give the budget in
   * exactly one place: this option, or the policy's `.maxAttempts(n)`.
   */
  retries?: number;
  /**
   * Decides whether a failure is worth another attempt (sync or async); a falsy
   * answer rethrows the error at once. `attempt` is the attempt that failed.
   * Not called once the budget is spent. An error it throws is thrown by `retry`.
   */
  shouldRetry?: (error: unknown, attempt: number) => boolean | PromiseLike<boolean>;
  /** Called before each wait (awaited when it returns a promise); an error it throws is thrown by `retry`. */
  onRetry?: (event: RetryEvent) => void | PromiseLike<void>;
  /**
   * Ceiling on a wait the server asks for with `Retry-After` (ms or duration
   * text, non-negative; `Infinity` allowed). Default one hour.
   */
  maxRetryAfter?: DurationInput;
  /**
   * Fail fast: before any wait, if the wait would end past this time, stop at
   * once with `RetryError` reason `"deadline"` (no sleep that cannot lead to an
   * attempt). Ms since the epoch, or `{ afterMs }` (ms or duration text) from the start of the call.
   */
  deadline?: number | { afterMs: DurationInput };
  /**
   * A budget shared with other calls ({@link createRetryBudget}); empty stops with reason `"budget"`.
   * A store that answers `tryWithdraw()` with a promise is waited for, but no longer than the
   * call may run: an abort of `signal` rejects with `RetryError` reason `"aborted"`, and the
   * `deadline` (or `maxRetryTime`) stops with reason `"deadline"` (`fetchWithRetry`: the last
   * `Response`). A promise that never settles holds a call that has neither for ever. A store
   * that fails — `tryWithdraw()` throws or its promise rejects — grants no retry: the call stops
   * with reason `"budget"` (`fetchWithRetry`: the last `Response`), never with the store's error;
   * a `deposit()` that throws or rejects is ignored.
   */
  budget?: RetryBudget;
  /**
   * The longest one attempt may take (ms or duration text, positive; `Infinity`: no limit).
   * Each attempt then gets its own signal (`ctx.signal`; for `fetchWithRetry`, the signal
   * `fetch` is given, which the `signal` option also aborts), aborted with a `DOMException`
   * named `TimeoutError` when the time is up. The attempt fails at that moment, even when the
   * operation ignores its signal (its later outcome is then ignored): a failure like any
   * other, retried when the policy (and, for `fetchWithRetry`, whether the request may be
   * sent again) allows, never past the `deadline` or after an abort of `signal`; a call that
   * stops after it rejects with `RetryError` whose `cause` is the `TimeoutError`. The
   * attempt's timer is cleared as soon as the attempt settles. For `fetchWithRetry` the time
   * runs until the response's headers arrive; reading its body is not timed.
   * A value that is not a duration is a TypeError, a duration that is not positive a RangeError.
   */
  attemptTimeout?: DurationInput;
}

/**
 * Options of `fetchWithRetry`: every `retry` option and these. The waits come from `policy`
 * only: p-retry's `factor`, `minTimeout`, `maxTimeout`, `randomize` are a TypeError that
 * names the policy waiting as p-retry would (`backoff-wasm/p-retry` is p-retry itself).
 * `shouldRetry` keeps this package's form `(error, attempt)`.
 */
export interface FetchRetryOptions extends RetryOptions {
  /**
   * Called after every failed attempt (awaited), the last one included, with p-retry's
   * context; a throw rejects with it. Its `error` is the network error, or the `Response`
   * when the failure is a retryable status.
   */
  onFailedAttempt?: (context: FailedAttemptContext<Error | FetchResponse>) => unknown;
  /**
   * Ms from the start of the call after which no attempt begins (`performance.now()`); the
   * last wait is cut to fit, as p-retry's option of that name. Default `Infinity`.
   */
  maxRetryTime?: number;
  /** Let Node exit while a wait is pending (`timer.unref()`). Default `false`. */
  unref?: boolean;
  /**
   * The waits: a `Backoff`, a duration, or `createBackoff` options. Default
   * `Backoff.exponential("1 second").cap("30 seconds").jitter("full").maxAttempts(4)`
   * (without `.maxAttempts(4)` when `retries` is given).
   */
  policy?: RetryPolicy | BackoffOptions;
  /**
   * Also retry methods that are not idempotent (POST, PATCH, …). Default `false`. Not with
   * `methods`. A request with an idempotency key (`idempotencyKey`) is retried without it.
   */
  retryNonIdempotent?: boolean;
  /**
   * The methods that are retried (any case; method names as HTTP writes them, RFC 9110
   * tokens such as `"PATCH"`, read once: a hole, empty text or a name with a space or
   * other separator is a TypeError). Default GET, HEAD, OPTIONS, PUT, DELETE
   * (idempotent, RFC 9110 §9.2.2).
   */
  methods?: readonly string[];
  /**
   * The statuses that are retried, integers 100 to 599 (read once). Default 408, 425, 429,
   * 500, 502, 503, 504. An item that is not a number (a hole included) is a TypeError, a
   * number outside that range (or not an integer) a RangeError, both naming the item
   * (`statusCodes[0]`) and its value.
   */
  statusCodes?: readonly number[];
  /**
   * An `Idempotency-Key` for the request, the same on every attempt: `true` (a random UUID,
   * `crypto.randomUUID()`, made once per call), the key as text (visible ASCII characters,
   * spaces only between them; sent as it is), or a function of the request returning one
   * (or a promise of one), called once per call with a `Request` built from `input` and
   * `init` (its body is there when it can be read again; a one-shot body is left out). A
   * request with a key may be sent again whatever its method, when its body can be read
   * again: a POST or PATCH with a text body is retried. A one-shot body still goes out once.
   * A request whose own headers carry `Idempotency-Key` already is treated the same way
   * (its key is sent as it is; this option is then a TypeError). Rejects with a TypeError
   * naming the option and the value for another value or what the function returns that is
   * no key; an error the function throws rejects as is.
   */
  idempotencyKey?: true | string | ((request: FetchRequest) => string | PromiseLike<string>);
  /** Deferrals (server-ordered waits) allowed per call, a non-negative integer or `Infinity`. Default 3. */
  maxDeferrals?: number;
  /**
   * The longest server wait taken as a deferral (ms or duration text): a longer
   * one stops the call at once (reason `"deferrals"`; the `Response` is
   * returned, so a Worker can hand the wait to Queues). Default `Infinity`; the
   * wait itself is at most `maxRetryAfter`.
   */
  maxDeferralMs?: DurationInput;
}



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
  return loop(fn, planRules(plan(pol ?? policyDefault(o.retries === undefined), o)));
}
