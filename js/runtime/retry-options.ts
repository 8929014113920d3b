/**
 * The options of `retry` and `fetchWithRetry` (read by js/engine/options.ts): their types,
 * where a misplaced key belongs (`hint`), the policy slot (`policyOf`), and `plan`, the
 * validated form the retry loop runs on.
 * @module
 */
import { Backoff, createBackoff, type BackoffOptions } from "../policy/backoff.js";
import { toMs, type DurationInput } from "../policy/duration.js";
import { BACKOFF_OPTIONS, invalid, isOptionName, numberOption, optionNames, RANGE, readable, TYPE } from "../engine/errors.js";
import type { RetryBudget } from "./budget.js";
import { fnOf, isObject, readOptions, signalOf, type AbortSignalLike } from "../engine/options.js";

/** What every function here accepts as a policy: a `Backoff`, or a fixed wait (ms or duration text). */
export type RetryPolicy = Backoff | DurationInput;

/** What `retry` passes to the operation on each attempt. */
export interface RetryContext {
  /** This attempt's number: 1 for the first call, 2 for the first retry, … */
  attempt: number;
  /** The `signal` option (`undefined` when none was given); pass it on to abortable work. */
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
   * A budget shared with other calls (`createRetryBudget()`); empty stops with reason `"budget"`.
   * A store that answers `tryWithdraw()` with a promise is waited for, but no longer than the
   * call may run: an abort of `signal` rejects with `RetryError` reason `"aborted"`, and the
   * `deadline` (or `maxRetryTime`) stops with reason `"deadline"` (`fetchWithRetry`: the last
   * `Response`). A promise that never settles holds a call that has neither for ever. A store
   * that fails — `tryWithdraw()` throws or its promise rejects — grants no retry: the call stops
   * with reason `"budget"` (`fetchWithRetry`: the last `Response`), never with the store's error;
   * a `deposit()` that throws or rejects is ignored.
   */
  budget?: RetryBudget;
}

/**
 * What `onFailedAttempt` and p-retry's `shouldRetry` receive (frozen), as p-retry gives it.
 * `E` is what the failure can be: an `Error` for `retry`; for `fetchWithRetry`, an `Error`
 * (a network error) or the `Response` of a retryable status.
 */
export interface FailedAttemptContext<E = Error> {
  /** The failure (with `retry`, a thrown non-`Error` is wrapped in a `TypeError`, as p-retry does). */
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

/** The keys p-retry takes. @internal */
export const P_RETRY_KEYS = [
  "retries", "factor", "minTimeout", "maxTimeout", "randomize", "onFailedAttempt", "shouldRetry", "signal", "maxRetryTime", "unref",
];

/** Default `maxDeferrals` of `fetchWithRetry`. */
export const DEFAULT_MAX_DEFERRALS = 3;
/** Default `maxRetryAfter`: one hour. */
const DEFAULT_MAX_RETRY_AFTER_MS = 3_600_000;

/** `retry`'s own options (its third argument). */
export const RETRY_KEYS: readonly string[] = ["signal", "retries", "shouldRetry", "onRetry", "maxRetryAfter", "deadline", "budget"];
/** p-retry's keys `fetchWithRetry` takes besides `retry`'s own. */
const FETCH_P_KEYS = ["factor", "minTimeout", "maxTimeout", "randomize", "onFailedAttempt", "maxRetryTime", "unref"];
export const FETCH_KEYS = /* @__PURE__ */ RETRY_KEYS.concat(
  ["policy", "retryNonIdempotent", "methods", "statusCodes", "maxDeferrals", "maxDeferralMs"], FETCH_P_KEYS,
);

/** The validated form of the options of the loop behind `retry` (own options) and `fetchWithRetry`. */
export interface Plan {
  /** The wait after failed attempt `n`. */
  delay: (n: number) => number;
  attempts: number;
  signal: AbortSignal | undefined;
  shouldRetry: RetryOptions["shouldRetry"];
  onRetry: RetryOptions["onRetry"];
  onFailedAttempt: ((context: FailedAttemptContext) => unknown) | undefined;
  maxRetryAfter: number;
  maxRetryTime: number;
  unref: boolean;
  /** Epoch ms, or `afterMs` from the start. */
  deadline: number | undefined;
  afterMs: number | undefined;
  budget: RetryBudget | undefined;
  /** Deferrals allowed (0: a server wait is folded into the policy's wait, as `retry` does). */
  maxDeferrals: number;
  /**
   * May the operation run again? `false` for a request that must go out once (see
   * `mayResend`): then every path that would send again — a retry after a failure, a
   * deferral — stops after the first attempt instead.
   */
  sendAgain: boolean;
  maxDeferralMs: number;
}

/**
 * The own enumerable properties of the options object `x` as a plain record, each key listed
 * once and read once (one [[Get]]: a getter runs once, a Proxy sees one `get`), as p-retry
 * copies its options: keys that cannot be listed are `<name> must be an object whose keys can
 * be listed`, a value that cannot be read `<name> must be an object that can be read`, the
 * engine's error as the `cause`. An own `__proto__` key stays a key.
 */
function ownOptions(x: object, name = "options"): Record<string, unknown> {
  const listed = readable(name, "an object whose keys can be listed", x, () => Object.keys(x));
  // A record without a prototype: an enumerable property someone added to Object.prototype is
  // not an option of every call (p-retry's copy ignores it too).
  return readable(name, "an object that can be read", x, () => {
    const o: Record<string, unknown> = Object.create(null);
    for (const k of listed) o[k] = (x as Record<string, unknown>)[k];
    return o;
  });
}

const isBackoffKey = (k: string) => isOptionName(BACKOFF_OPTIONS, k);

/** Where a key that is not one of `retry`'s own options belongs, in the caller's words. @internal */
export function hint(k: string): string {
  if (P_RETRY_KEYS.includes(k)) return ` (${k} is a p-retry option: give p-retry options as the second argument, retry(fn, { ${k} }))`;
  if (isBackoffKey(k)) return ` (${k} is a createBackoff option: give it in the policy)`;
  return "";
}

/** The key of a policy's options method (every copy of the package shares it). */
const POLICY_OPTIONS = Symbol.for("backoff-wasm.Backoff.options");

const POLICY_KINDS = "a Backoff, a duration (ms or duration text)";

/**
 * The rest of the advice for `retry`'s own option among the keys of `rec` (its second
 * argument): the options follow a policy (p-retry-style options take none), so the advice is
 * a call that works, with `undefined` (the default policy) or `policy` (the keys of `rec` that
 * are not own options, as createBackoff options or a policy written for p-retry's waits)
 * before them.
 */
function ownOptionAdvice(rec: Record<string, unknown>): string {
  const keys = Object.keys(rec);
  const own = keys.filter((x) => RETRY_KEYS.includes(x));
  return `: retry(fn, ${own.length < keys.length ? "policy" : "undefined"}, { ${own.join(", ")} })`;
}

/**
 * A policy slot: a `Backoff`, a duration (fixed), `createBackoff` options, or —
 * where `pRetry` — p-retry options (returned as the record). `name` is the
 * caller's word for the slot.
 */
export function policyOf(x: unknown, name: string, pRetry: boolean): Backoff | Record<string, unknown> {
  const expected = pRetry ? `${POLICY_KINDS}, createBackoff options or p-retry options` : `${POLICY_KINDS} or createBackoff options`;
  if (typeof x === "number" || typeof x === "string") {
    try {
      return Backoff.fixed(x as DurationInput);
    } catch (e) {
      throw invalid(e instanceof RangeError ? RANGE : TYPE, name, `${expected}; a duration must be non-negative and finite (ms, or text such as "5 seconds")`, x);
    }
  }
  if (!isObject(x)) throw invalid(TYPE, name, expected, x);
  // Asked once. A revoked Proxy: the package's TypeError with the engine's error as cause.
  const proto = readable(name, `${expected} that can be read`, x, () => Object.getPrototypeOf(x));
  // Not plain options: a policy (this copy's or another copy's: both have the options
  // method), or createBackoff options in a class instance or inheriting from defaults, read
  // by name as createBackoff reads them (its getters and inherited options count).
  if (proto !== Object.prototype && proto !== null) {
    if (!readable(name, `${expected} that can be read`, x, () => POLICY_OPTIONS in x)) return createBackoff(x as unknown as BackoffOptions);
    try {
      return Backoff.from(x as unknown as Backoff);
    } catch {
      throw invalid(TYPE, name, expected, x);
    }
  }
  const rec = ownOptions(x, name);
  let backoffKey: string | undefined;
  let pKey: string | undefined;
  for (const k in rec) {
    const b = isBackoffKey(k);
    const p = pRetry && P_RETRY_KEYS.includes(k);
    if (b && !p) backoffKey ??= k;
    else if (p && !b) pKey ??= k;
    else if (!b && !p) {
      throw invalid(TYPE, `${name} key`, RETRY_KEYS.includes(k)
        ? `an option of the policy, not ${k}: ${k} goes in the options (the third argument)${pRetry ? ownOptionAdvice(rec) : ""}`
        : `one of createBackoff's options (${optionNames(BACKOFF_OPTIONS)})${pRetry ? ` or p-retry's (${P_RETRY_KEYS.join(", ")})` : ""}`, k);
    }
  }
  if (backoffKey !== undefined && pKey !== undefined) {
    throw invalid(TYPE, name, `createBackoff options or p-retry options, not both (${backoffKey} is createBackoff's, ${pKey} is p-retry's)`, x);
  }
  // The record read above, not `x` again: every option is read once.
  return pRetry && backoffKey === undefined ? rec : createBackoff(rec as unknown as BackoffOptions);
}

let defaultPolicy: Backoff | undefined;
/** The default policy, `.maxAttempts(4)` when `bounded`: see `retry`. @internal */
export function policyDefault(bounded: boolean): Backoff {
  defaultPolicy ??= Backoff.exponential("1 second").cap("30 seconds").jitter("full");
  return bounded ? defaultPolicy.maxAttempts(4) : defaultPolicy;
}

/**
 * The parts of a {@link Plan} that only `fetchWithRetry` decides (its p-retry options, its
 * deferrals, its send decision, the signal combined with `init`'s).
 */
export type PlanParts = Partial<Pick<Plan, "delay" | "onFailedAttempt" | "maxRetryTime" | "unref" | "maxDeferrals" | "maxDeferralMs" | "sendAgain" | "signal">>;

/**
 * Validates every own option once and settles the attempt budget; returns the maker of the
 * one {@link Plan} of the call, which takes the parts a caller decides later (`fetchWithRetry`:
 * {@link PlanParts}; a request that may not go out again gets one attempt). `retry` calls it
 * with none.
 */
export function plan(policy: Backoff, o: Record<string, unknown>): (parts?: PlanParts) => Plan {
  const signal = signalOf("signal", o.signal);
  const shouldRetry = fnOf<RetryOptions["shouldRetry"]>("shouldRetry", o.shouldRetry);
  const onRetry = fnOf<RetryOptions["onRetry"]>("onRetry", o.onRetry);

  const maxRetryAfter = ceiling("maxRetryAfter", o.maxRetryAfter, DEFAULT_MAX_RETRY_AFTER_MS);
  let deadline: number | undefined;
  let afterMs: number | undefined;
  const d = o.deadline;
  if (typeof d === "number") {
    if (Number.isNaN(d)) throw invalid(RANGE, "deadline", "ms since the epoch or { afterMs }", d);
    deadline = d;
  } else if (d !== undefined) {
    const r = isObject(d) ? readOptions(d, ["afterMs"], "deadline") : undefined;
    if (r?.afterMs === undefined) throw invalid(TYPE, "deadline", "ms since the epoch or { afterMs }", d);
    afterMs = ceiling("deadline.afterMs", r!.afterMs, 0);
  }
  const budget = o.budget as RetryBudget | undefined;
  if (budget !== undefined) {
    const ok = readable("budget", "a retry budget (createRetryBudget()) that can be read", budget, () =>
      isObject(budget) && typeof budget.deposit === "function" && typeof budget.tryWithdraw === "function");
    if (!ok) throw invalid(TYPE, "budget", "a retry budget (createRetryBudget())", budget);
  }

  const retries = o.retries === undefined ? undefined : numberOption("retries", o.retries, "a non-negative integer or Infinity", (v) => v === Infinity || (Number.isSafeInteger(v) && v >= 0));
  const bound = policy.attempts;
  let attempts: number;
  if (retries !== undefined && bound !== undefined) {
    throw invalid(
      TYPE,
      "retries",
      `left out when the policy sets .maxAttempts(${bound}): the two count differently (retries counts the ` +
        `attempts after the first, maxAttempts counts them all, so retries: ${bound - 1} equals .maxAttempts(${bound})); ` +
        "keep one of them: drop retries, or build the policy without .maxAttempts()",
      retries,
    );
  } else if (retries !== undefined) {
    attempts = retries + 1;
  } else if (bound !== undefined) {
    attempts = bound;
  } else {
    throw invalid(
      RANGE,
      "retries",
      "given (a non-negative integer, or Infinity on purpose) when the policy has no .maxAttempts(n): " +
        "an uncapped policy would retry for ever",
      retries,
    );
  }
  return (parts = {}) => ({
    delay: (n) => policy.delay(n), signal, shouldRetry, onRetry, maxRetryAfter,
    onFailedAttempt: undefined, maxRetryTime: Infinity, unref: false,
    deadline, afterMs, budget, maxDeferrals: 0, maxDeferralMs: Infinity, sendAgain: true,
    ...parts,
    attempts: parts.sendAgain === false ? 1 : attempts,
  });
}

/** A non-negative duration option (ms or duration text; `Infinity` allowed), `fallback` when not given. */
export function ceiling(name: string, x: unknown, fallback: number): number {
  if (x === undefined) return fallback;
  if (typeof x !== "number" && typeof x !== "string") throw invalid(TYPE, name, "a duration (ms or duration text)", x);
  const ms = toMs(x as DurationInput);
  if (!(ms >= 0)) throw invalid(RANGE, name, "a non-negative duration (ms or duration text)", x);
  return ms;
}

/**
 * A list option of `fetchWithRetry` (`methods`, `statusCodes`), read once into a copy (a hole
 * reads as `undefined`): a TypeError when it is not an array or cannot be read (a revoked
 * Proxy, a throwing getter; the engine's error as the `cause`); an item for which `check`
 * answers an error kind (TYPE for its type, RANGE for a number out of range) is that error,
 * naming the item (`statusCodes[0]`) and its value.
 */
export function listOf<T>(name: string, x: unknown, fallback: readonly T[], expected: string, check: (v: unknown) => number | undefined): readonly T[] {
  if (x === undefined) return fallback;
  const what = `an array of ${expected}`;
  const items = readable(name, what, x, () => Array.isArray(x) && Array.from(x as unknown[]));
  if (!items) throw invalid(TYPE, name, what, x);
  items.forEach((v, i) => {
    const kind = check(v);
    if (kind !== undefined) throw invalid(kind, `${name}[${i}]`, expected, v);
  });
  return items as T[];
}
