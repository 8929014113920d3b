/**
 * The options of `retry` and `fetchWithRetry` (read by js/engine/options.ts): where a
 * misplaced key belongs (`optionHint`), the policy slot (`policyOf`), and `plan`, the
 * validated form the retry loop runs on.
 * @module
 */
import { Backoff, createBackoff, type BackoffOptions } from "../policy/backoff.js";
import { toMs, type DurationInput } from "../policy/duration.js";
import { invalid, numberOption, RANGE, readable, TYPE } from "../engine/errors.js";
import { BACKOFF_FIELDS, BACKOFF_OPTIONS_FROM, BACKOFF_OPTIONS_TO, isBackoffOption } from "../engine/boundary.js";
import type { RetryBudget } from "./budget.js";
import { fnOf, isObject, readOptions, signalOf } from "../engine/options.js";

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

/** What every function here accepts as a policy: a `Backoff`, or a fixed wait (ms or duration text). */
export type RetryPolicy = Backoff | DurationInput;

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

/** Default `maxDeferrals` of `fetchWithRetry`. @internal */
export const DEFAULT_MAX_DEFERRALS = 3;
/** Default `maxRetryAfter`: one hour. */
const DEFAULT_MAX_RETRY_AFTER_MS = 3_600_000;

/** `retry`'s own options (its third argument). @internal */
export const RETRY_KEYS: readonly string[] = ["signal", "retries", "shouldRetry", "onRetry", "maxRetryAfter", "deadline", "budget", "attemptTimeout"];
/** p-retry's options, which mean what they mean in p-retry only in `backoff-wasm/p-retry`. */
const P_RETRY_KEYS = [
  "retries", "factor", "minTimeout", "maxTimeout", "randomize", "onFailedAttempt", "shouldRetry", "shouldConsumeRetry", "signal", "maxRetryTime", "unref",
];

/** The validated form of the options of the loop behind `retry` (own options) and `fetchWithRetry`. @internal */
export interface Plan {
  /** The wait after failed attempt `n`. */
  delay: (n: number) => number;
  attempts: number;
  signal: AbortSignal | undefined;
  shouldRetry: RetryOptions["shouldRetry"];
  onRetry: RetryOptions["onRetry"];
  onFailedAttempt: ((context: FailedAttemptContext<unknown>) => unknown) | undefined;
  maxRetryAfter: number;
  maxRetryTime: number;
  unref: boolean;
  /** Epoch ms, or `afterMs` from the start. */
  deadline: number | undefined;
  afterMs: number | undefined;
  budget: RetryBudget | undefined;
  /** Ms each attempt may take before its signal aborts with a `TimeoutError` (`undefined`: no limit). */
  attemptTimeout: number | undefined;
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
 * The own enumerable properties of createBackoff options given as a plain object in a policy
 * slot, as a plain record, each key listed once and read once (one [[Get]]: a getter runs
 * once, a Proxy sees one `get`): keys that cannot be listed are `<name> must be an object
 * whose keys can be listed`, a value that cannot be read `<name> must be an object that can be
 * read`, the engine's error as the `cause`. An own `__proto__` key stays a key.
 */
function ownOptions(x: object, name: string): Record<string, unknown> {
  const listed = readable(name, "an object whose keys can be listed", x, () => Object.keys(x));
  // A record without a prototype: an enumerable property someone added to Object.prototype is
  // not an option of every call.
  return readable(name, "an object that can be read", x, () => {
    const o: Record<string, unknown> = Object.create(null);
    for (const k of listed) o[k] = (x as Record<string, unknown>)[k];
    return o;
  });
}

/** Whether `k` is a `createBackoff` option (the boundary table's test, which needs no other surface's names). */
const isBackoffKey = (k: string) => isBackoffOption(k);

/**
 * The policy that waits as p-retry would with the options of `rec` (p-retry's defaults for
 * the others): `Backoff.exponential(minTimeout, factor)` (or `Backoff.fixed`), capped at
 * `maxTimeout`, with `.maxAttempts(retries + 1)` when `attempts` (a finite `retries`).
 */
function pRetryPolicy(rec: Record<string, unknown>, attempts: boolean): string {
  const n = (k: string, fallback: number) => (typeof rec[k] === "number" ? (rec[k] as number) : fallback);
  const min = n("minTimeout", 1000);
  const factor = n("factor", 2) || 1;
  const max = Math.ceil(n("maxTimeout", Infinity));
  const retries = n("retries", 10);
  let policy = min === 0 || factor === 1 ? `Backoff.fixed(${Math.min(min, max)})` : `Backoff.exponential(${min}${factor === 2 ? "" : `, ${factor}`})`;
  if (max < Infinity && min !== 0 && factor !== 1) policy += `.cap(${max})`;
  if (attempts && Number.isFinite(retries)) policy += `.maxAttempts(${retries + 1})`;
  return policy;
}

/**
 * The advice for p-retry's options given to `retry` (`known` is {@link RETRY_KEYS}) or
 * `fetchWithRetry` (`known` is its options), the keys of `rec` where they were found (`slot`:
 * the policy's place, where `retries` belongs to the policy): `backoff-wasm/p-retry` takes
 * them with p-retry's meaning; here the waits are the policy that waits as p-retry would, and
 * the call that works with it.
 */
function pRetryAdvice(rec: Record<string, unknown>, known: readonly string[], slot: boolean): string {
  const fetch = known !== RETRY_KEYS;
  const keys = Object.keys(rec);
  const shown = keys.filter((k) => P_RETRY_KEYS.includes(k) && (slot || !known.includes(k)));
  const policy = pRetryPolicy(rec, slot || !("retries" in rec));
  // The options that keep their place: retry's own (and fetchWithRetry's), p-retry's callbacks aside.
  const kept = keys.filter((k) => known.includes(k) && !["shouldRetry", "onFailedAttempt"].includes(k) && !(slot && k === "retries"));
  const call = fetch
    ? `fetchWithRetry(input, init, { policy: ${policy}${kept.map((k) => `, ${k}`).join("")} })`
    : `retry(fn, ${policy}${kept.length ? `, { ${kept.join(", ")} }` : ""})`;
  return `${shown.join(", ")} ${shown.length > 1 ? "are" : "is"} p-retry's: backoff-wasm/p-retry is p-retry (its default export pRetry takes them with p-retry's meaning); ` +
    `with ${fetch ? "fetchWithRetry" : "retry"} the waits are a policy, here ${policy}: ${call}`;
}

/**
 * Where a key that is not an option of `known` ({@link RETRY_KEYS}, or `fetchWithRetry`'s)
 * belongs, in the caller's words: the `hint` of the options reader for `retry` and
 * `fetchWithRetry`. `keys` are the own enumerable keys of the options `x`; for a p-retry key,
 * the advice reads the p-retry options and own options among them (the call fails anyway),
 * a value that cannot be read counting as not given.
 * @internal
 */
export function optionHint(k: string, known: readonly string[], keys: readonly string[], x: Record<string, unknown>): string {
  if (P_RETRY_KEYS.includes(k)) {
    const own: Record<string, unknown> = {};
    for (const key of keys) {
      if (!P_RETRY_KEYS.includes(key) && !known.includes(key)) continue;
      try {
        own[key] = x[key];
      } catch {
        own[key] = undefined;
      }
    }
    return ` (${pRetryAdvice(own, known, false)})`;
  }
  if (isBackoffKey(k)) return ` (${k} is a createBackoff option: give it in the policy)`;
  return "";
}

/**
 * The options object of `retry` (`known` is {@link RETRY_KEYS}) or `fetchWithRetry`
 * (its options), read by the package's one reader (js/engine/options.ts: each known
 * option by name, once; an own unknown key is a TypeError
 * `option must be one of <known>; received "<key>"`, followed by where a p-retry or
 * createBackoff key belongs: {@link optionHint}).
 * @internal
 */
export function optionsObject(options: unknown, known: readonly string[]): Record<string, unknown> {
  return readOptions(options, known, "options", (key, keys, x) => optionHint(key, known, keys, x));
}

/** The key of a policy's options method (every copy of the package shares it). */
const POLICY_OPTIONS = Symbol.for("backoff-wasm.Backoff.options");

const POLICY_KINDS = "a Backoff, a duration (ms or duration text)";

/**
 * The rest of the advice for `retry`'s own options among the keys of `rec` (its second
 * argument): the options follow a policy, so the advice is a call that works, with
 * `undefined` (the default policy) or `policy` (the keys of `rec` that are not own options)
 * before them.
 */
function ownOptionAdvice(rec: Record<string, unknown>): string {
  const keys = Object.keys(rec);
  const own = keys.filter((x) => RETRY_KEYS.includes(x));
  return `: retry(fn, ${own.length < keys.length ? "policy" : "undefined"}, { ${own.join(", ")} })`;
}

/**
 * A policy slot (`retry`'s second argument; `fetchWithRetry`'s `policy` when `known` is its
 * options rather than {@link RETRY_KEYS}): a `Backoff`, a duration (fixed) or `createBackoff`
 * options. `name` is the caller's word for the slot. p-retry's options there are a TypeError that names `backoff-wasm/p-retry` and the
 * policy that waits as p-retry would; `retry`'s own options there, one that says they go in
 * the options.
 * @internal
 */
export function policyOf(x: unknown, name: string, known = RETRY_KEYS): Backoff {
  const fetch = known !== RETRY_KEYS;
  const expected = `${POLICY_KINDS} or createBackoff options`;
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
  const keys = Object.keys(rec);
  const backoff = keys.some(isBackoffKey);
  // p-retry's options: one only p-retry has, or — with no createBackoff key — any of them.
  const pKeys = keys.filter((k) => P_RETRY_KEYS.includes(k) && !isBackoffKey(k));
  if (pKeys.some((k) => !RETRY_KEYS.includes(k)) || (!backoff && pKeys.length)) {
    throw invalid(TYPE, name, `${expected}, not p-retry's options: ${pRetryAdvice(rec, known, true)}`, x);
  }
  for (const k of keys) {
    if (isBackoffKey(k)) continue;
    throw invalid(TYPE, `${name} key`, RETRY_KEYS.includes(k)
      ? `an option of the policy, not ${k}: ${k} goes in the options (the third argument)${fetch ? "" : ownOptionAdvice(rec)}`
      : `one of createBackoff's options (${BACKOFF_FIELDS.slice(BACKOFF_OPTIONS_FROM, BACKOFF_OPTIONS_TO).join(", ")})`, k);
  }
  // The record read above, not `x` again: every option is read once.
  return createBackoff(rec as unknown as BackoffOptions);
}

let defaultPolicy: Backoff | undefined;
/** The default policy, `.maxAttempts(4)` when `bounded`: see `retry`. @internal */
export function policyDefault(bounded: boolean): Backoff {
  defaultPolicy ??= Backoff.exponential("1 second").cap("30 seconds").jitter("full");
  return bounded ? defaultPolicy.maxAttempts(4) : defaultPolicy;
}

/**
 * The parts of a {@link Plan} that only `fetchWithRetry` decides (its own options, its
 * deferrals, its send decision), and `joinSignal`, which makes the call's signal from the
 * `signal` option (`fetchWithRetry`: combined with `init`'s). @internal
 */
export type PlanParts = Partial<Pick<Plan, "onFailedAttempt" | "maxRetryTime" | "unref" | "maxDeferrals" | "maxDeferralMs" | "sendAgain">> & {
  joinSignal?: (signal: AbortSignal | undefined) => AbortSignal | undefined;
};

/**
 * Validates every own option once and settles the attempt budget; returns the maker of the
 * one {@link Plan} of the call, which takes the parts a caller decides later (`fetchWithRetry`:
 * {@link PlanParts}; a request that may not go out again gets one attempt). `retry` calls it
 * with none. @internal
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
    if (!isObject(d)) throw invalid(TYPE, "deadline", "ms since the epoch or { afterMs }", d);
    const r = readOptions(d, ["afterMs"], "deadline");
    if (r.afterMs === undefined) throw invalid(TYPE, "deadline", "ms since the epoch or { afterMs }", d);
    afterMs = ceiling("deadline.afterMs", r.afterMs, 0);
  }
  const attemptTimeout = o.attemptTimeout === undefined ? undefined : positiveDuration("attemptTimeout", o.attemptTimeout);
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
  return ({ joinSignal, ...parts } = {}) => ({
    delay: (n) => policy.delay(n), shouldRetry, onRetry, maxRetryAfter,
    onFailedAttempt: undefined, maxRetryTime: Infinity, unref: false,
    deadline, afterMs, budget, attemptTimeout, maxDeferrals: 0, maxDeferralMs: Infinity, sendAgain: true,
    ...parts,
    signal: joinSignal ? joinSignal(signal) : signal,
    attempts: parts.sendAgain === false ? 1 : attempts,
  });
}

/** A non-negative duration option (ms or duration text; `Infinity` allowed), `fallback` when not given. @internal */
export function ceiling(name: string, x: unknown, fallback: number): number {
  if (x === undefined) return fallback;
  if (typeof x !== "number" && typeof x !== "string") throw invalid(TYPE, name, "a duration (ms or duration text)", x);
  const ms = toMs(x as DurationInput);
  if (!(ms >= 0)) throw invalid(RANGE, name, "a non-negative duration (ms or duration text)", x);
  return ms;
}

/**
 * A duration option that must be positive (ms or duration text): TypeError for another type,
 * RangeError for 0, a negative, NaN or unreadable text; `Infinity` is no limit (`undefined`).
 */
function positiveDuration(name: string, x: unknown): number | undefined {
  const expected = "a positive duration (ms or duration text such as \"10 seconds\"; Infinity for none)";
  if (typeof x !== "number" && typeof x !== "string") throw invalid(TYPE, name, expected, x);
  const ms = toMs(x as DurationInput);
  if (!(ms > 0)) throw invalid(RANGE, name, expected, x);
  return ms === Infinity ? undefined : ms;
}

/**
 * A list option of `fetchWithRetry` (`methods`, `statusCodes`), read once into a copy (a hole
 * reads as `undefined`): a TypeError when it is not an array or cannot be read (a revoked
 * Proxy, a throwing getter; the engine's error as the `cause`); an item for which `check`
 * answers an error kind (TYPE for its type, RANGE for a number out of range) is that error,
 * naming the item (`statusCodes[0]`) and its value.
 * @internal
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

/** The boolean option named `name`, `false` when not given. @internal */
export function boolOf(name: string, x: unknown): boolean {
  if (x == null) return false;
  if (typeof x !== "boolean") throw invalid(TYPE, name, "a boolean", x);
  return x;
}

/**
 * A count option (`retries`, `maxDeferrals`): a non-negative integer or `Infinity`, `fallback`
 * when not given; RangeError out of range. @internal
 */
export function retriesOf(x: unknown, fallback: number, name = "retries"): number {
  return numberOption(name, x ?? undefined, "a non-negative integer or Infinity", (v) => v >= 0 && (v === Infinity || Number.isInteger(v)), fallback);
}
