/**
 * `backoff-wasm/p-retry`: p-retry 9.0.0 (sindresorhus/p-retry), exactly — `pRetry` (the
 * default export), `makeRetriable`, `AbortError` and p-retry's types: the same options,
 * defaults, validation errors and messages, delay formula, `Math.random` draws, order of
 * callbacks and abort checks. One extension, `budget` (a retry budget of
 * `backoff-wasm/retry`'s `createRetryBudget`), which p-retry code never meets. Plain
 * JavaScript: importing it loads no WebAssembly (the CommonJS build is a file of its own).
 * @module
 */
import { AbortError } from "../runtime/retry-errors.js";
import type { RetryBudget } from "../runtime/budget.js";

export { AbortError };

/** The global scope of the program using this package. */
type Host = typeof globalThis;

/**
 * The runtime's `AbortSignal` (DOM, Node, Workers). In a program whose types declare none
 * (no DOM lib, no `@types/node`), the members `pRetry` uses.
 */
export type AbortSignalLike = Host extends { AbortSignal: { prototype: infer S } }
  ? S
  : {
      readonly reason: unknown;
      throwIfAborted(): void;
      addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
      removeEventListener(type: "abort", listener: () => void): void;
    };

/** What `onFailedAttempt`, `shouldRetry` and `shouldConsumeRetry` receive (frozen). */
export type RetryContext = {
  /** The failure; a thrown value that is no `Error` is wrapped in a `TypeError`. */
  readonly error: Error;
  /** The attempt that failed, 1-based. */
  readonly attemptNumber: number;
  /** `retries` minus the retries consumed so far (`Infinity` with `retries: Infinity`). */
  readonly retriesLeft: number;
  /** Retries consumed so far (a failure for which `shouldConsumeRetry` answered `false` consumes none). */
  readonly retriesConsumed: number;
  /**
   * The wait before the next attempt, ms, from `minTimeout`, `factor`, `maxTimeout` and
   * `randomize` (it may be cut to what `maxRetryTime` leaves). `0` when the checks made before
   * this callback already rule out a retry, or when the failure consumes no retry; for
   * `shouldConsumeRetry`, the wait a consumed retry would have.
   */
  readonly retryDelay: number;
};

/** Options of `pRetry` and `makeRetriable` (p-retry 9.0.0's, plus `budget`). */
export type Options = {
  /**
   * Called after every failure but an `AbortError` or an abort (awaited), after
   * `shouldConsumeRetry` and before `shouldRetry`, the last failure included. A throw
   * rejects the call with it.
   */
  readonly onFailedAttempt?: ((context: RetryContext) => void | Promise<void>) | undefined;
  /**
   * Called when a retry is still possible (awaited), after `onFailedAttempt`: a falsy answer
   * rejects with the failure. Not called for an `AbortError`, an abort, a `TypeError` that is
   * no network error, or once `retries` or `maxRetryTime` is spent. A throw rejects with it.
   */
  readonly shouldRetry?: ((context: RetryContext) => boolean | Promise<boolean>) | undefined;
  /**
   * Whether this failure consumes a retry of `retries` (awaited), called first: `false` means
   * the next attempt follows at once and the waits do not grow; `undefined` counts as `true`.
   * `maxRetryTime` still applies. A throw rejects with it.
   */
  readonly shouldConsumeRetry?: ((context: RetryContext) => boolean | void | Promise<boolean | void>) | undefined;
  /** Retries after the first attempt: a non-negative integer or `Infinity`. Default 10. */
  readonly retries?: number | undefined;
  /** Growth of the wait per retry, a finite number >= 0 (0 counts as 1). Default 2. */
  readonly factor?: number | undefined;
  /** The first wait, ms, a finite number >= 0 (0: no wait at all). Default 1000. */
  readonly minTimeout?: number | undefined;
  /** Ceiling of each wait, ms, a number >= 0 or `Infinity` (rounded up). Default `Infinity`. */
  readonly maxTimeout?: number | undefined;
  /** Multiply each wait by `1 + Math.random()` (one draw per wait). Default `false`. */
  readonly randomize?: boolean | undefined;
  /**
   * Ms from the start (`performance.now()`) after which no retry is scheduled; the last wait
   * is cut to fit. Default `Infinity`.
   */
  readonly maxRetryTime?: number | undefined;
  /**
   * Aborting it rejects the call with `signal.reason` at the next check (before and after each
   * attempt and callback) and ends a wait at once; an already-aborted signal calls nothing.
   */
  readonly signal?: AbortSignalLike | undefined;
  /** Let Node exit while a wait is pending (`timer.unref()`). Default `false`. */
  readonly unref?: boolean | undefined;
  /**
   * This package's extension: a retry budget shared with other calls (`createRetryBudget()` of
   * `backoff-wasm/retry`). Each call deposits before its first attempt; each retry, after
   * `shouldRetry` allowed it, is paid from the budget, and one it refuses ends the call as spent
   * `retries` do: the failure is rethrown. A store's answer that is a promise is awaited no
   * longer than `maxRetryTime` leaves (when that is under 2^31 − 1 ms) and ends at an abort; a
   * store that throws or rejects refuses.
   */
  readonly budget?: RetryBudget | undefined;
};

/** The options after defaults (a copy of the caller's own enumerable keys, as p-retry takes them). */
type Settled = {
  retries: number;
  factor: number;
  minTimeout: number;
  maxTimeout: number;
  maxRetryTime: number;
  randomize: boolean;
  unref?: boolean | null;
  onFailedAttempt: (context: RetryContext) => unknown;
  shouldRetry: (context: RetryContext) => unknown;
  shouldConsumeRetry: (context: RetryContext) => unknown;
  signal?: AbortSignal | null;
  budget?: RetryBudget | null;
  forever?: unknown;
};

/** The longest wait a timer can hold, 2^31 − 1 ms (a longer one fires at once). */
const MAX_WAIT = 2_147_483_647;

const mustBe = (name: string, what: string) => new TypeError(`Expected \`${name}\` to be ${what}.`);

/** A number option: not NaN, >= 0, finite unless `infinite`. */
function checkNumber(name: string, value: unknown, infinite?: boolean): void {
  if (typeof value !== "number" || value !== value) throw mustBe(name, `a number${infinite ? " or Infinity" : ""}`);
  if (!infinite && !Number.isFinite(value)) throw mustBe(name, "a finite number");
  if (value < 0) throw mustBe(name, "\u2265 0");
}

/** An option of type `type`, `undefined` and `null` meaning not given. */
function checkType(name: string, value: unknown, type: string): void {
  if (value != null && typeof value !== type) throw mustBe(name, `a ${type}`);
}

/**
 * Messages of a failed `fetch` in each runtime (the list of the `is-network-error` package):
 * Chrome, Firefox, Safari 16, cross-fetch, Node's undici (two), Bun, Cloudflare Workers.
 */
const NETWORK_MESSAGES = new Set([
  "network error", "NetworkError when attempting to fetch resource.", "The Internet connection appears to be offline.",
  "Network request failed", "fetch failed", "terminated", " A network error occurred.", "Network connection lost",
]);

/** `text` is `word` alone or `word (…)`. */
const named = (text: string, word: string) => text === word || (text.startsWith(`${word} (`) && text.endsWith(")"));

/** A `TypeError` raised by a failed network request (the rule of `is-network-error` 1.3). */
function isNetworkError(e: Error): boolean {
  if (Object.prototype.toString.call(e) !== "[object Error]" || e.name !== "TypeError" || typeof e.message !== "string") return false;
  const { message, stack } = e;
  // Safari 17+: a generic message and no stack (Sentry adds one and marks the error).
  if (named(message, "Load failed")) return stack === undefined || "__sentry_captured__" in e;
  return message.startsWith("error sending request for url") || named(message, "Failed to fetch") || NETWORK_MESSAGES.has(message);
}

/** The wait before retry `consumed + 1`: `min(round(r × minTimeout × factor^consumed), ceil(maxTimeout), 2^31 − 1)`. */
function delayOf(consumed: number, o: Settled): number {
  if (o.minTimeout === 0) return 0;
  const r = o.randomize ? Math.random() + 1 : 1;
  return Math.min(Math.round(r * o.minTimeout * o.factor ** consumed), Math.ceil(o.maxTimeout), MAX_WAIT);
}

/** What `maxRetryTime` leaves, ms. */
const left = (start: number, max: number) => (Number.isFinite(max) ? max - (performance.now() - start) : max);

/**
 * Waits `ms` (no timer past 2^31 − 1 ms) and resolves `undefined`, or resolves with what
 * `answer` fulfils with first (`false` when it rejects); rejects with `signal.reason` when the
 * signal aborts.
 */
function settle(ms: number, o: Settled, answer?: PromiseLike<unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const { signal } = o;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    // The timer's callback does not read `timer`: a stubbed setTimeout may call it at once.
    const timer = ms <= MAX_WAIT ? setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(undefined);
    }, ms) : undefined;
    if (o.unref) (timer as { unref?: () => void } | undefined)?.unref?.();
    signal?.addEventListener("abort", onAbort, { once: true });
    const end = (value: unknown) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(value);
    };
    answer?.then(end, () => end(false));
  });
}

const isThenable = (x: unknown): x is PromiseLike<unknown> => typeof (x as PromiseLike<unknown> | null)?.then === "function";

/** The call's deposit; a store that throws or rejects costs the call nothing. */
function deposit(budget: RetryBudget): void {
  try {
    const r = budget.deposit();
    if (isThenable(r)) Promise.resolve(r).catch(() => {});
  } catch {
    // A failed deposit funds nothing; the call goes on.
  }
}

/** Whether the budget pays for one retry: a store's promise is raced against the abort and `ms`. */
async function paid(budget: RetryBudget, ms: number, o: Settled): Promise<unknown> {
  let answer: unknown;
  try {
    answer = budget.tryWithdraw();
  } catch {
    return false;
  }
  return isThenable(answer) ? settle(ms, o, answer) : answer;
}

/** A thrown value that is no `Error`, wrapped as p-retry wraps it. */
function nonError(value: unknown): TypeError {
  let text: string;
  try {
    text = String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return new TypeError(`Non-error was thrown: "${text}". You should only throw errors.`);
}

/**
 * One failed attempt: rethrows what ends the call, else waits and resolves whether the
 * failure consumed a retry.
 */
async function failed(thrown: unknown, attemptNumber: number, retriesConsumed: number, start: number, o: Settled): Promise<boolean> {
  const stopIfAborted = () => o.signal?.throwIfAborted();
  const error = thrown instanceof Error ? thrown : nonError(thrown);
  // An abort outranks everything the attempt threw, an AbortError included.
  stopIfAborted();
  if (error instanceof AbortError) {
    let cause: Error = error;
    while (cause instanceof AbortError && cause.originalError instanceof Error) cause = cause.originalError;
    throw cause;
  }
  const retriesLeft = o.retries - retriesConsumed;
  // A TypeError is a bug of the operation, not of what it reached, unless it is a network error.
  const retriable = !(error instanceof TypeError) || isNetworkError(error);
  const timeLeft = left(start, o.maxRetryTime);
  // Drawn only when a retry can follow: no Math.random draw for a wait never taken.
  const delay = retriable && timeLeft > 0 && retriesLeft > 0 ? delayOf(retriesConsumed, o) : 0;
  const context = (retryDelay: number): RetryContext => Object.freeze({ error, attemptNumber, retriesLeft, retriesConsumed, retryDelay });
  const consume = (await o.shouldConsumeRetry(context(delay))) ?? true;
  stopIfAborted();
  const wait = consume ? delay : 0;
  const seen = context(wait);
  await o.onFailedAttempt(seen);
  stopIfAborted();
  const afterCallback = left(start, o.maxRetryTime);
  if (!retriable || afterCallback <= 0 || retriesLeft <= 0) throw error;
  const again = await o.shouldRetry(seen);
  stopIfAborted();
  if (!again) throw error;
  let remaining = left(start, o.maxRetryTime);
  if (remaining <= 0) throw error;
  if (o.budget) {
    // A retry the budget refuses ends the call as spent retries do.
    const granted = await paid(o.budget, remaining, o);
    stopIfAborted();
    remaining = left(start, o.maxRetryTime);
    if (!granted || remaining <= 0) throw error;
  }
  if (!consume) return false;
  const ms = Math.min(wait, remaining);
  if (ms > 0) await settle(ms, o);
  return true;
}

/**
 * Calls `input(attemptNumber)` until it resolves, and resolves with its value (p-retry
 * 9.0.0). A failure is retried after a wait of
 * `min(round(r × minTimeout × factor^(n−1)), ceil(maxTimeout), 2^31 − 1)` ms before retry `n`
 * (`r` is `1 + Math.random()` with `randomize`, else 1) until `retries` are spent,
 * `maxRetryTime` is up, `shouldRetry` says no, or the `budget` refuses; then the call
 * rejects with the last failure. A `TypeError` that is no network error is not retried; a
 * thrown value that is no `Error` becomes a `TypeError` (`Non-error was thrown: "…"`).
 * Throwing `new AbortError(error)` rejects at once with `error`.
 *
 * @param input the operation; receives the attempt's number (1 for the first call).
 * @param options see {@link Options}; its own enumerable keys are copied once, at the call.
 * @returns what `input` resolved with.
 * @throws (rejects) TypeError `Expected \`<option>\` to be …` for a bad option (a `retries`
 *   that is not a non-negative integer or `Infinity`, a negative, NaN or non-number `factor`,
 *   `minTimeout`, `maxTimeout` or `maxRetryTime`, an infinite `factor` or `minTimeout`, a
 *   callback that is no function, a `randomize` or `unref` that is no boolean, a `signal`
 *   that is no AbortSignal, a `budget` that is no retry budget); Error for the removed
 *   `forever` option; `signal.reason` when aborted; else the last failure.
 * @example
 * import pRetry, { AbortError } from "backoff-wasm/p-retry";
 * const body = await pRetry(async () => {
 *   const res = await fetch(url);
 *   if (res.status === 404) throw new AbortError(res.statusText);
 *   return res.json();
 * }, { retries: 5 });
 */
export default async function pRetry<T>(input: (attemptNumber: number) => PromiseLike<T> | T, options: Options = {}): Promise<T> {
  const o = { ...options } as Settled;
  // `??=` before the checks: `null` means not given, as for every option.
  o.retries ??= 10;
  const { retries } = o as { retries: unknown };
  if (typeof retries === "number") {
    if (retries < 0) throw mustBe("retries", "a non-negative number");
    if (retries !== retries) throw new TypeError("Expected `retries` to be a valid number or Infinity, got NaN.");
    if (Number.isFinite(retries) && !Number.isInteger(retries)) throw mustBe("retries", "a non-negative integer or Infinity");
  } else {
    throw mustBe("retries", "a number or Infinity");
  }
  if (Object.hasOwn(o, "forever")) {
    throw new Error("The `forever` option is no longer supported. For many use-cases, you can set `retries: Infinity` instead.");
  }
  o.factor ??= 2;
  o.minTimeout ??= 1000;
  o.maxTimeout ??= Infinity;
  o.maxRetryTime ??= Infinity;
  o.randomize ??= false;
  o.onFailedAttempt ??= () => {};
  o.shouldRetry ??= () => true;
  o.shouldConsumeRetry ??= () => true;
  checkType("onFailedAttempt", o.onFailedAttempt, "function");
  checkType("shouldRetry", o.shouldRetry, "function");
  checkType("shouldConsumeRetry", o.shouldConsumeRetry, "function");
  checkType("randomize", o.randomize, "boolean");
  checkType("unref", o.unref, "boolean");
  const { signal, budget } = o;
  if (signal != null && (typeof signal.throwIfAborted !== "function" || typeof signal.addEventListener !== "function" || typeof signal.removeEventListener !== "function")) {
    throw mustBe("signal", "an AbortSignal");
  }
  checkNumber("factor", o.factor);
  checkNumber("minTimeout", o.minTimeout);
  checkNumber("maxTimeout", o.maxTimeout, true);
  checkNumber("maxRetryTime", o.maxRetryTime, true);
  if (budget != null && (typeof budget.deposit !== "function" || typeof budget.tryWithdraw !== "function")) {
    throw mustBe("budget", `a retry budget with deposit() and tryWithdraw() (createRetryBudget() of backoff-wasm/retry), got ${typeof budget}`);
  }
  // Negative factors were refused above: this is 0, which keeps the wait constant.
  if (o.factor === 0) o.factor = 1;
  signal?.throwIfAborted();
  if (budget) deposit(budget);
  let attemptNumber = 0;
  let retriesConsumed = 0;
  const start = performance.now();
  for (;;) {
    attemptNumber++;
    try {
      signal?.throwIfAborted();
      const result = await input(attemptNumber);
      signal?.throwIfAborted();
      return result;
    } catch (error) {
      if (await failed(error, attemptNumber, retriesConsumed, start, o)) retriesConsumed++;
    }
  }
}

/**
 * Wraps `function_` so that each call of the wrapper is `pRetry` of a call of `function_` with
 * the wrapper's `this` and arguments (p-retry 9.0.0).
 * @param function_ the function to retry.
 * @param options see {@link Options}, copied at each call.
 * @returns the wrapper: it resolves with what `function_` resolved with, or rejects as `pRetry`.
 * @example
 * const getWithRetry = makeRetriable(fetch, { retries: 5 });
 */
export function makeRetriable<Arguments extends readonly unknown[], Result, This = unknown>(
  function_: (this: This, ...arguments_: Arguments) => PromiseLike<Result> | Result,
  options?: Options,
): (this: This, ...arguments_: Arguments) => Promise<Result> {
  return function (this: This, ...arguments_: Arguments) {
    return pRetry(() => function_.apply(this, arguments_ as unknown as Arguments & unknown[]), options);
  };
}
