/**
 * `backoff-wasm/retry`: the runtime layer — run an operation again after the
 * waits of a policy (`retry`), `fetch` that retries what is safe to retry
 * (`fetchWithRetry`), the `Retry-After` field (`retryAfterMs`, parsed in wasm),
 * a `sleep` that is right for any length, and the delay for Cloudflare Queues'
 * `message.retry({ delaySeconds })` (`queueRetryDelaySeconds`).
 *
 * Everything takes a policy as `Backoff | number | DurationString`; a plain
 * duration means `Backoff.fixed(x)` (see `Backoff.from`). All times are ms.
 * @module
 */
import { retryAfterValueMs } from "./abi.js";
import { Backoff, createBackoff, type BackoffOptions } from "./backoff.js";
import { toMs, type DurationInput } from "./duration.js";
import { BACKOFF_OPTIONS, invalid, isOptionName, numberOption, optionNames, RANGE, readable, readOptions, TYPE } from "./errors.js";
import { AbortError, RetryError, type RetryStopReason } from "./retry-errors.js";
import type { RetryBudget } from "./budget.js";
import { rateLimitWaitMs } from "./server-delay.js";
import {
  asError, fnOf, isNetworkError, retriesOf, MAX_TIMER_MS, P_RETRY_KEYS, pRetryDelay, pRetryOptions, signalOf, unwrap,
  type AbortSignalLike, type FailedAttemptContext, type PRetry, type PRetryOptions,
} from "./p-retry.js";

export { AbortError, RetryError, type RetryStopReason } from "./retry-errors.js";
export { createRetryBudget, type RetryBudget, type RetryBudgetOptions } from "./budget.js";
export type { AbortSignalLike, FailedAttemptContext, PRetryOptions } from "./p-retry.js";

/** What every function here accepts as a policy: a `Backoff`, or a fixed wait (ms or duration text). */
export type RetryPolicy = Backoff | DurationInput;

/**
 * The second argument of `retry`: a {@link RetryPolicy}, `createBackoff`
 * options, or p-retry-style options ({@link PRetryOptions}, which then carry
 * every option: no third argument).
 */
export type RetryPolicyInput = RetryPolicy | BackoffOptions | PRetryOptions;

/** The global scope of the program using this package. */
type Host = typeof globalThis;

/** The first parameter of the runtime's `fetch` (a URL, URL text or `Request`). */
export type FetchInput = Host extends { fetch: (input: infer I, ...rest: never[]) => unknown } ? I : string;
/** The second parameter of the runtime's `fetch` (`RequestInit`). */
export type FetchInit = Host extends { fetch: (input: never, init?: infer I) => unknown } ? NonNullable<I> : object;
/** What the runtime's `fetch` resolves to (`Response`). */
export type FetchResponse = Host extends { fetch: (...args: never[]) => Promise<infer R> } ? R : unknown;

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
  /** A budget shared with other calls ({@link createRetryBudget}); empty stops with reason `"budget"`. */
  budget?: RetryBudget;
}

/**
 * Options of `fetchWithRetry`: every `retry` option, these, and p-retry's
 * `factor`, `minTimeout`, `maxTimeout`, `randomize` (the waits, p-retry's
 * formula; not with `policy`), `onFailedAttempt`, `maxRetryTime` and `unref`
 * with p-retry's meaning. `shouldRetry` keeps this package's form `(error, attempt)`.
 */
export interface FetchRetryOptions extends RetryOptions, Omit<PRetryOptions, "retries" | "shouldRetry" | "signal"> {
  /**
   * The waits: a `Backoff`, a duration, or `createBackoff` options. Default
   * `Backoff.exponential("1 second").cap("30 seconds").jitter("full").maxAttempts(4)`
   * (without `.maxAttempts(4)` when `retries` is given).
   */
  policy?: RetryPolicy | BackoffOptions;
  /** Also retry methods that are not idempotent (POST, PATCH, …). Default `false`. Not with `methods`. */
  retryNonIdempotent?: boolean;
  /** The methods that are retried (any case). Default GET, HEAD, OPTIONS, PUT, DELETE (idempotent, RFC 9110 §9.2.2). */
  methods?: readonly string[];
  /** The statuses that are retried. Default 408, 425, 429, 500, 502, 503, 504. */
  statusCodes?: readonly number[];
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
 * What `retryAfterMs` reads: the field value itself (`null`/`undefined` for a
 * missing header), a `Headers` (anything with `get(name)`), a plain header
 * record, or anything with `headers` (a `Response`, Node's `IncomingMessage`, …).
 */
export type RetryAfterInput =
  | string
  | null
  | undefined
  | { get(name: string): string | null | undefined }
  | { readonly headers: unknown }
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

/** Options of `sleep`. */
export interface SleepOptions {
  /** Aborting rejects the sleep at once with `signal.reason` and clears the timer. */
  signal?: AbortSignalLike;
}

/** Default `maxDeferrals` of `fetchWithRetry`. */
const DEFAULT_MAX_DEFERRALS = 3;
/** Default `maxRetryAfter`: one hour. */
const DEFAULT_MAX_RETRY_AFTER_MS = 3_600_000;
/** Cloudflare Queues: `delaySeconds` is at most 43 200 (12 hours). */
const QUEUES_MAX_DELAY_SECONDS = 43_200;
/**
 * Statuses `fetchWithRetry` retries: 408 Request Timeout, 425 Too Early,
 * 429 Too Many Requests, 500, 502, 503, 504 (RFC 9110 §15, RFC 8470, RFC 6585).
 */
const RETRYABLE_STATUSES: readonly number[] = [408, 425, 429, 500, 502, 503, 504];
/** Methods retried without `retryNonIdempotent` (idempotent per RFC 9110 §9.2.2). */
const IDEMPOTENT_METHODS: readonly string[] = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"];
/** Statuses whose `Retry-After` is honoured (RFC 9110 §10.2.3, RFC 6585 §4). */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

const RETRY_KEYS = ["signal", "retries", "shouldRetry", "onRetry", "maxRetryAfter", "deadline", "budget"];
/** p-retry's keys `fetchWithRetry` takes besides `retry`'s own. */
const FETCH_P_KEYS = ["factor", "minTimeout", "maxTimeout", "randomize", "onFailedAttempt", "maxRetryTime", "unref"];
const FETCH_KEYS = /* @__PURE__ */ RETRY_KEYS.concat(
  ["policy", "retryNonIdempotent", "methods", "statusCodes", "maxDeferrals", "maxDeferralMs"], FETCH_P_KEYS,
);

/** The validated form of the options of the loop behind `retry` (own options) and `fetchWithRetry`. */
interface Plan {
  /** The wait after failed attempt `n`. */
  delay: (n: number) => number;
  attempts: number;
  signal: AbortSignal | undefined;
  shouldRetry: RetryOptions["shouldRetry"];
  onRetry: RetryOptions["onRetry"];
  onFailedAttempt: PRetry["onFailedAttempt"];
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

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null;
}

const isBackoffKey = (k: string) => isOptionName(BACKOFF_OPTIONS, k);

/** Where a key that is not an option of `known` belongs, in the caller's words. */
function hint(k: string): string {
  if (P_RETRY_KEYS.includes(k)) return ` (${k} is a p-retry option: give p-retry options as the second argument, retry(fn, { ${k} }))`;
  if (isBackoffKey(k)) return ` (${k} is a createBackoff option: give it in the policy)`;
  return "";
}

/**
 * The options, each read once ({@link readOptions}): rejects a non-object and any key outside
 * `known` (a typo must not pass silently), saying where a misplaced key belongs.
 */
function optionsObject(options: unknown, known: readonly string[]): Record<string, unknown> {
  if (options === undefined) return {};
  if (!isObject(options)) throw invalid(TYPE, "options", "an object", options);
  const o = readOptions(options);
  // An array is an object too, but never options: its index keys would only be reported as
  // unknown options. (Asked after readOptions, which reports a revoked Proxy, on which isArray throws.)
  if (Array.isArray(options)) throw invalid(TYPE, "options", "an object", options);
  for (const key in o) {
    if (!known.includes(key)) throw invalid(TYPE, "option", `one of ${known.join(", ")}${known.includes("policy") ? "" : hint(key)}`, key);
  }
  return o;
}

/** A plain object (options), not a `Backoff` or another class instance. */
function isPlain(x: object): boolean {
  try {
    const p = Object.getPrototypeOf(x);
    return p === Object.prototype || p === null;
  } catch {
    return false;
  }
}

const POLICY_KINDS = "a Backoff, a duration (ms or duration text)";

/**
 * A policy slot: a `Backoff`, a duration (fixed), `createBackoff` options, or —
 * where `pRetry` — p-retry options (returned as the record). `name` is the
 * caller's word for the slot.
 */
function policyOf(x: unknown, name: string, pRetry: boolean): Backoff | Record<string, unknown> {
  const expected = pRetry ? `${POLICY_KINDS}, createBackoff options or p-retry options` : `${POLICY_KINDS} or createBackoff options`;
  if (typeof x === "number" || typeof x === "string") {
    try {
      return Backoff.fixed(x as DurationInput);
    } catch (e) {
      throw invalid(e instanceof RangeError ? RANGE : TYPE, name, `${expected}; a duration must be non-negative and finite (ms, or text such as "5 seconds")`, x);
    }
  }
  if (!isObject(x)) throw invalid(TYPE, name, expected, x);
  // A revoked Proxy: the package's TypeError with the engine's error as cause (isPlain swallows it).
  readable(name, `${expected} that can be read`, x, () => Object.getPrototypeOf(x));
  if (!isPlain(x)) {
    try {
      return Backoff.from(x as unknown as Backoff);
    } catch {
      throw invalid(TYPE, name, expected, x);
    }
  }
  const rec = readOptions(x, name);
  let backoffKey: string | undefined;
  let pKey: string | undefined;
  for (const k in rec) {
    const b = isBackoffKey(k);
    const p = pRetry && P_RETRY_KEYS.includes(k);
    if (b && !p) backoffKey ??= k;
    else if (p && !b) pKey ??= k;
    else if (!b && !p) {
      throw invalid(TYPE, `${name} key`, RETRY_KEYS.includes(k)
        ? `an option of the policy, not ${k}: ${k} goes in the options (the third argument)`
        : `one of createBackoff's options (${optionNames(BACKOFF_OPTIONS)})${pRetry ? ` or p-retry's (${P_RETRY_KEYS.join(", ")})` : ""}`, k);
    }
  }
  if (backoffKey !== undefined && pKey !== undefined) {
    throw invalid(TYPE, name, `createBackoff options or p-retry options, not both (${backoffKey} is createBackoff's, ${pKey} is p-retry's)`, x);
  }
  return pRetry && backoffKey === undefined ? rec : createBackoff(x as unknown as BackoffOptions);
}

/** The default policy: see `retry`. */
let defaultPolicy: Backoff | undefined;
function policyDefault(bounded: boolean): Backoff {
  defaultPolicy ??= Backoff.exponential("1 second").cap("30 seconds").jitter("full");
  return bounded ? defaultPolicy.maxAttempts(4) : defaultPolicy;
}

/** Validates every own option once and settles the attempt budget. */
function plan(policy: Backoff, o: Record<string, unknown>): Plan {
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
    const r = isObject(d) ? readOptions(d, "deadline") : undefined;
    if (!r || Object.keys(r).join() !== "afterMs") throw invalid(TYPE, "deadline", "ms since the epoch or { afterMs }", d);
    afterMs = ceiling("deadline.afterMs", r.afterMs, 0);
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
  return {
    delay: (n) => policy.delay(n), attempts, signal, shouldRetry, onRetry, maxRetryAfter,
    onFailedAttempt: undefined, maxRetryTime: Infinity, unref: false,
    deadline, afterMs, budget, maxDeferrals: 0, maxDeferralMs: Infinity, sendAgain: true,
  };
}

/** A non-negative duration option (ms or duration text; `Infinity` allowed), `fallback` when not given. */
function ceiling(name: string, x: unknown, fallback: number): number {
  if (x === undefined) return fallback;
  if (typeof x !== "number" && typeof x !== "string") throw invalid(TYPE, name, "a duration (ms or duration text)", x);
  const ms = toMs(x as DurationInput);
  if (!(ms >= 0)) throw invalid(RANGE, name, "a non-negative duration (ms or duration text)", x);
  return ms;
}

/** Reads one property of an unknown value without letting a throwing getter escape. */
function prop(x: unknown, key: string): unknown {
  try {
    return isObject(x) || typeof x === "function" ? (x as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A field value from headers: a `Headers` (or anything with `get(name)`), or a
 * plain record such as Node's `IncomingHttpHeaders` (name matched
 * case-insensitively; an array value is joined as a field list).
 */
function headerValue(headers: unknown, name: string): string | undefined {
  try {
    return readHeaderValue(headers, name);
  } catch {
    return undefined;
  }
}

/** {@link headerValue}, throwing what reading the headers throws (a revoked Proxy, a throwing getter). */
function readHeaderValue(headers: unknown, name: string): string | undefined {
  if (!isObject(headers)) return undefined;
  let v: unknown;
  if (typeof headers.get === "function") {
    v = (headers.get as (name: string) => unknown).call(headers, name);
  } else {
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === name) v = headers[key];
    }
  }
  if (typeof v === "number") return String(v);
  if (Array.isArray(v)) {
    // A field list: at most two values can join into one field value this package reads (an
    // HTTP-date has one comma), so a longer one is `undefined` without reading further (a Proxy may claim 2e9).
    const n: unknown = v.length;
    return n === 1 || n === 2 ? [v[0], v[1]].slice(0, n).join(", ") : undefined;
  }
  return typeof v === "string" ? v : undefined;
}

/** The headers of what `serverDelayMs`/`retryAfterMs` read: a response-like value's `headers`, else the value. */
const headersOf = (x: object) => ("headers" in x ? prop(x, "headers") : x);

/** The rate-limit fields after `Retry-After`, in `serverDelayMs`'s order (their index is `rateLimitWaitMs`'s field). */
const RATE_LIMIT_FIELDS = ["ratelimit", "ratelimit-reset", "x-ratelimit-reset"];

/** `serverDelayMs` on validated arguments. */
function serverDelay(headers: unknown, now: number): number | undefined {
  const ra = headerValue(headers, "retry-after");
  const ms = ra === undefined ? undefined : retryAfterValueMs(ra, now);
  if (ms !== undefined) return ms;
  for (let kind = 0; kind < 3; kind++) {
    const v = headerValue(headers, RATE_LIMIT_FIELDS[kind] as string);
    const w = v === undefined ? undefined : rateLimitWaitMs(v, kind, now);
    if (w !== undefined) return w;
  }
  return undefined;
}

/**
 * The wait a server asks for, in ms, read from response headers in this order
 * (the first that gives a wait wins):
 *
 * 1. `Retry-After` (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date in any of
 *    the three forms minus `now`; `0` means "retry now" (see `retryAfterMs`);
 * 2. `RateLimit`, the IETF structured field (draft-ietf-httpapi-ratelimit-headers,
 *    RFC 9651 list): the longest `t` (seconds) among the items whose `r`
 *    (remaining) is 0, e.g. `"default";r=0;t=2` → 2000; a field that does not
 *    parse is ignored as a whole;
 * 3. `RateLimit-Reset` (older drafts): delay-seconds;
 * 4. `X-RateLimit-Reset`: epoch seconds when ≥ 10⁹ (the wait until then, 0 when
 *    past), else seconds.
 *
 * Seconds and dates are parsed in wasm (the parser of `retryAfterMs`); the
 * `RateLimit` list is cut into members and parameters in JS (js/server-delay.ts).
 *
 * @param headers a `Headers` (anything with `get(name)`), a plain header record
 *   (Node's `IncomingHttpHeaders`), or anything with `headers` (a `Response`).
 * @param now the current time, ms since the epoch; default `Date.now()`.
 * @returns ms, or `undefined` when no field asks for a wait.
 * @throws TypeError when `headers` is not an object, or reading it throws (a revoked Proxy,
 *   a throwing getter or `get`; the engine's error is the `cause`), or `now` is not a number;
 *   RangeError when `now` is not finite.
 * @example
 * serverDelayMs(new Headers({ ratelimit: '"default";r=0;t=2' })) // 2000
 */
export function serverDelayMs(headers: RetryAfterInput, now: number = Date.now()): number | undefined {
  checkNow(now);
  if (!isObject(headers)) throw invalid(TYPE, "headers", "Headers, a header record or a Response", headers);
  const source = readable("headers", "Headers, a header record or a Response that can be read", headers, () => {
    const s = "headers" in headers ? headers.headers : headers;
    // Every field read once up front: unreadable headers are an error, not "no server wait".
    for (const name of ["retry-after", ...RATE_LIMIT_FIELDS]) readHeaderValue(s, name);
    return s;
  });
  return serverDelay(source, now);
}

function checkNow(now: unknown): void {
  if (typeof now !== "number") throw invalid(TYPE, "now", "a number of ms since the epoch", now);
  if (!Number.isFinite(now)) throw invalid(RANGE, "now", "a finite number of ms since the epoch", now);
}

/** The response-like value an error carries: the value itself (status + headers), or its `response`. */
function responseOf(x: unknown): unknown {
  const looksLikeResponse = (r: unknown) =>
    isObject(r) && prop(r, "headers") !== undefined && (prop(r, "status") !== undefined || prop(r, "statusCode") !== undefined);
  if (looksLikeResponse(x)) return x;
  const r = prop(x, "response");
  return looksLikeResponse(r) ? r : undefined;
}

/** The wait a 429/503 response carried by `x` asks for (any form of `serverDelayMs`), ms, or `undefined`. */
function serverWaitMs(x: unknown): number | undefined {
  const r = responseOf(x);
  if (r === undefined) return undefined;
  const status = prop(r, "status") ?? prop(r, "statusCode");
  if (typeof status !== "number" || !RETRY_AFTER_STATUSES.has(status)) return undefined;
  return serverDelay(prop(r, "headers"), Date.now());
}

/** How `fetchWithRetry` lets the shared loop see responses as failures. */
interface Hooks {
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
function isInstance(x: unknown, cls: abstract new (...args: never[]) => unknown): boolean {
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
async function run<T>(
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
async function pRun<T>(fn: (ctx: RetryContext) => T | PromiseLike<T>, o: PRetry): Promise<T> {
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

/**
 * Calls `fn({ attempt, signal })` until it resolves, waiting between attempts,
 * and resolves with its value. The second argument says how:
 *
 * - omitted: the default policy,
 *   `Backoff.exponential("1 second").cap("30 seconds").jitter("full").maxAttempts(4)`
 *   (4 attempts, waits drawn in [0, 1 s], [0, 2 s], [0, 4 s]; without
 *   `.maxAttempts(4)` when `options.retries` is given);
 * - a `Backoff`, a duration (a fixed wait: ms or duration text), or
 *   `createBackoff` options: waits `policy.delay(n)` after the n-th failure,
 *   with the options of the third argument ({@link RetryOptions});
 * - p-retry-style options ({@link PRetryOptions}: `retries`, `factor`,
 *   `minTimeout`, `maxTimeout`, `randomize`, `onFailedAttempt`, `shouldRetry`,
 *   `signal`, `maxRetryTime`, `unref`): p-retry 9's behaviour and numbers
 *   exactly (defaults `retries: 10`, `factor: 2`, `minTimeout: 1000`; a
 *   `TypeError` that is not a network error is not retried; a thrown non-Error
 *   becomes a `TypeError`); no third argument then.
 *
 * With the policy forms, the budget comes from exactly one place:
 * `options.retries` (attempts AFTER the first) or the policy's
 * `.maxAttempts(n)` (attempts in total): `retries: 2` equals `.maxAttempts(3)`.
 * A call that gives up rejects with {@link RetryError} (`reason`: attempts,
 * deadline, budget, aborted, not-retryable; `cause` the last error); an error
 * thrown by `shouldRetry` or `onRetry` rejects as is.
 *
 * Server waits: when the thrown value is itself a response (it has `headers`
 * and `status`/`statusCode`) or carries one as `error.response` (as fetch
 * wrappers and HTTP clients such as axios do), and its status is 429 or 503
 * with a wait `serverDelayMs` reads, the wait is `max(min(server,
 * maxRetryAfter), policy delay)`. A value `fn` resolves with is never a failure here.
 *
 * Throwing `new AbortError(error)` from `fn` stops at once with `error` (any
 * form). With the policy forms, an error named `AbortError` (what `fetch`
 * throws when a signal of the caller's own aborts it) also stops at once unless
 * `shouldRetry` is given and decides; a `TimeoutError` is retried.
 *
 * @param fn the operation; may return a value or a promise.
 * @param policy see above; `undefined` for the default.
 * @param options see {@link RetryOptions} (not with p-retry-style options).
 * @returns what `fn` resolved with.
 * @throws (rejects; never throws synchronously) TypeError when `fn` is not a
 *   function, an argument has the wrong type or cannot be read (a revoked Proxy, a throwing
 *   getter; the engine's error is the `cause`), a key is unknown or misplaced
 *   (the message says where it belongs), shapes are mixed, or both `retries`
 *   and `.maxAttempts()` are set; RangeError for a bad value, or when neither
 *   sets a budget for a policy without one (use `retries: Infinity` to retry for
 *   ever on purpose); with the policy forms, RetryError when the loop gives up
 *   (reason "aborted" with `cause` = `signal.reason` when aborted); with p-retry's
 *   options, as p-retry: `signal.reason`, or the last error of `fn`.
 * @example
 * const data = await retry(({ signal }) => load(signal), Backoff.exponential("200ms").maxAttempts(5));
 * const same = await retry(() => load(), { retries: 5, minTimeout: 200 }); // p-retry's options
 */
export function retry<T>(fn: (ctx: RetryContext) => T | PromiseLike<T>, options: PRetryOptions): Promise<T>;
/**
 * Calls `fn({ attempt, signal })` until it resolves, waiting `policy.delay(n)`
 * (ms) after the n-th failure, and resolves with its value (the policy form of
 * `retry`; the p-retry-options form is the other overload).
 *
 * @param fn the operation; may return a value or a promise.
 * @param policy a `Backoff`, a duration (a fixed wait: ms or duration text) or
 *   `createBackoff` options; omitted: the default
 *   `Backoff.exponential("1 second").cap("30 seconds").jitter("full").maxAttempts(4)`.
 * @param options {@link RetryOptions}: `retries` (attempts after the first; not
 *   with a policy's `.maxAttempts()`), `signal`, `shouldRetry`, `onRetry`,
 *   `maxRetryAfter`, `deadline`, `budget`.
 * @returns what `fn` resolved with.
 * @throws (rejects; never throws synchronously) TypeError/RangeError for bad
 *   arguments (naming the option and the value; TypeError with the engine's error as `cause`
 *   for one that cannot be read); RetryError when the loop gives
 *   up (`reason` attempts, deadline, budget, aborted, not-retryable; `cause`
 *   the last error); an error thrown by `shouldRetry` or `onRetry` as is.
 * @example
 * const data = await retry(({ signal }) => load(signal), Backoff.exponential("200ms").maxAttempts(5));
 */
export function retry<T>(
  fn: (ctx: RetryContext) => T | PromiseLike<T>,
  policy?: RetryPolicy | BackoffOptions,
  options?: RetryOptions,
): Promise<T>;
export async function retry<T>(
  fn: (ctx: RetryContext) => T | PromiseLike<T>,
  policy?: RetryPolicyInput,
  options?: RetryOptions,
): Promise<T> {
  if (typeof fn !== "function") throw invalid(TYPE, "fn", "a function", fn);
  const pol = policy === undefined ? undefined : policyOf(policy, "policy", true);
  if (pol === undefined || pol instanceof Backoff) {
    const o = optionsObject(options, RETRY_KEYS);
    return run(fn, plan(pol ?? policyDefault(o.retries === undefined), o));
  }
  if (options !== undefined) {
    throw invalid(TYPE, "options", "left out when the second argument is p-retry-style options (put signal and the callbacks there too)", options);
  }
  return pRun(fn, pRetryOptions(pol, 10, TYPE));
}

/** A response whose status is retryable, thrown through the shared loop. */
class RetryableResponse {
  constructor(readonly response: Response) {}
}

const FETCH_HOOKS: Hooks = {
  view: (e) => (e instanceof RetryableResponse ? e.response : e),
  discard: (e) => {
    if (!(e instanceof RetryableResponse)) return;
    try {
      e.response.body?.cancel().catch(() => undefined);
    } catch {
      // A body already used or locked: nothing to release.
    }
  },
};

/** One signal that aborts when either does. */
function eitherSignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (!a || !b || a === b) return a ?? b;
  const any = (AbortSignal as unknown as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  if (typeof any === "function") return any.call(AbortSignal, [a, b]);
  const c = new AbortController();
  for (const s of [a, b]) {
    if (s.aborted) c.abort(s.reason);
    else s.addEventListener("abort", () => c.abort(s.reason), { once: true });
  }
  return c.signal;
}

/** Bodies `fetch` can send again whole: absent, text, bytes, `Blob`/`File`, `FormData`, `URLSearchParams`. */
const REREADABLE = /^\[object (ArrayBuffer|SharedArrayBuffer|Blob|File|FormData|URLSearchParams)\]$/;
function rereadable(body: unknown): boolean {
  return body == null || typeof body === "string" || ArrayBuffer.isView(body) || REREADABLE.test(Object.prototype.toString.call(body));
}

/**
 * The one decision of `fetchWithRetry`: may this request go out again? Only when its method
 * is retried (`methods`, or any method with `retryNonIdempotent`) and its body can be sent
 * again whole (`body` is `init.body`, else the `Request`'s own, which is a stream). Asked once
 * per call; the loop asks the answer before every path that sends again.
 */
function mayResend(method: string, body: unknown, anyMethod: boolean, methods: readonly string[]): boolean {
  return (anyMethod || methods.includes(method)) && rereadable(body);
}

/** A list option of `fetchWithRetry` (`methods`, `statusCodes`), each item checked by `ok`. */
function listOf<T>(name: string, x: unknown, fallback: readonly T[], expected: string, ok: (v: unknown) => boolean): readonly T[] {
  if (x === undefined) return fallback;
  if (!Array.isArray(x)) throw invalid(TYPE, name, `an array of ${expected}`, x);
  x.forEach((v, i) => {
    if (!ok(v)) throw invalid(TYPE, `${name}[${i}]`, expected, v);
  });
  return x;
}

/**
 * `fetch(input, init)` with retries. Retried: network errors (any rejection of
 * `fetch` other than an abort; fetch's own argument errors — an invalid URL,
 * method or header — reject at once with fetch's error) and the statuses of `statusCodes` (default 408,
 * 425, 429, 500, 502, 503, 504) — only for the methods of `methods` (default the
 * idempotent GET, HEAD, OPTIONS, PUT, DELETE; `retryNonIdempotent: true` for
 * all) — and only when the request body can be sent again.
 *
 * One-shot bodies: a body that sending consumes — a `ReadableStream`, an async
 * iterable, a Node `Readable`, any object that is not text, bytes, `Blob`,
 * `FormData` or `URLSearchParams` — and the body of a `Request` (a stream by the
 * Fetch standard; nothing tells one built from text from one built from a
 * stream) go out ONCE: that request is not retried, the caller gets the first
 * response or error. To retry such a request, pass a re-readable body in
 * `init`, or call `retry` with a function that builds a fresh request each
 * attempt. Re-readable bodies go out whole on every attempt. A `Request`
 * without a body is cloned for each attempt.
 *
 * The final `Response` is returned: a non-retryable status (404, …) at once,
 * not thrown; when the loop stops on a retryable status (attempts, deadline,
 * budget, deferrals, a veto), that last one. The bodies of the responses it
 * discards are cancelled. A 429/503 with a server wait (`serverDelayMs`) is a
 * deferral: waited (at most `maxRetryAfter`) without spending an attempt, up
 * to `maxDeferrals`; a wait over `maxDeferralMs` stops at once.
 *
 * The signal (`options.signal`, else `init.signal`, else the Request's; both
 * combined when two are given) is passed to every `fetch` and stops the waits.
 * `shouldRetry(error, attempt)`, `onFailedAttempt` and `onRetry` see the
 * `Response` for a retryable status and the error for a network error;
 * `shouldRetry` can only veto a retry the rules above allow.
 *
 * @param input a URL, URL text or `Request`, as for `fetch`.
 * @param init as for `fetch`.
 * @param options see {@link FetchRetryOptions}.
 * @throws (rejects; never throws synchronously) as `retry` for bad options
 *   (also options, `init` or `input` that cannot be read);
 *   TypeError when `globalThis.fetch` is missing; RetryError when the loop gives
 *   up on a network error (`cause`) or is aborted (reason "aborted").
 */
export async function fetchWithRetry(
  input: FetchInput,
  init?: FetchInit,
  options?: FetchRetryOptions,
): Promise<FetchResponse> {
  // The call's clock starts here: the first Request built below can take tens of ms (Node loads its fetch then).
  const start = Date.now();
  const t0 = performance.now();
  const o = optionsObject(options, FETCH_KEYS);
  if (init !== undefined && !isObject(init)) throw invalid(TYPE, "init", "an object", init);
  // Retry options in the RequestInit slot would be ignored by fetch: say so.
  const readInit = <T>(read: () => T) => readable("init", "an object that can be read", init, read);
  const misplaced = init === undefined ? undefined : readInit(() => FETCH_KEYS.find((key) => key !== "signal" && Object.prototype.hasOwnProperty.call(init, key)));
  if (misplaced !== undefined) {
    throw invalid(TYPE, `init.${misplaced}`, "passed in the third argument (fetchWithRetry(input, init, { " + misplaced + " }))", readInit(() => (init as Record<string, unknown>)[misplaced]));
  }
  if (o.retryNonIdempotent !== undefined && typeof o.retryNonIdempotent !== "boolean") {
    throw invalid(TYPE, "retryNonIdempotent", "a boolean", o.retryNonIdempotent);
  }
  if (o.retryNonIdempotent !== undefined && o.methods !== undefined) {
    throw invalid(TYPE, "retryNonIdempotent", "left out when methods is given (methods lists every retried method)", o.retryNonIdempotent);
  }
  const methods = listOf<string>("methods", o.methods, IDEMPOTENT_METHODS, "method names (text)", (v) => typeof v === "string").map((m) => m.toUpperCase());
  const statuses = listOf<number>("statusCodes", o.statusCodes, RETRYABLE_STATUSES, "HTTP statuses (integers 100-599)", (v) => Number.isInteger(v) && (v as number) >= 100 && (v as number) <= 599);
  const waitKey = ["factor", "minTimeout", "maxTimeout", "randomize"].find((k) => o[k] !== undefined);
  if (waitKey !== undefined && o.policy !== undefined) {
    throw invalid(TYPE, waitKey, "left out when policy is given (both describe the waits; keep one)", o[waitKey]);
  }
  const pr = pRetryOptions(o, 0);
  const policy = o.policy !== undefined
    ? (policyOf(o.policy, "policy", false) as Backoff)
    : policyDefault(o.retries === undefined && waitKey === undefined);
  const p = plan(policy, waitKey === undefined || o.retries !== undefined ? o : { ...o, retries: 10 });
  if (waitKey !== undefined) p.delay = (n) => pRetryDelay(n - 1, pr);
  p.onFailedAttempt = pr.onFailedAttempt;
  p.maxRetryTime = pr.maxRetryTime;
  p.unref = pr.unref;
  p.maxDeferrals = retriesOf(o.maxDeferrals, DEFAULT_MAX_DEFERRALS, "maxDeferrals");
  p.maxDeferralMs = ceiling("maxDeferralMs", o.maxDeferralMs, Infinity);
  const doFetch = globalThis.fetch;
  if (typeof doFetch !== "function") throw invalid(TYPE, "globalThis.fetch", "a function (this runtime has no fetch)", doFetch);

  // A revoked Proxy or a throwing getter: the package's TypeError naming the argument, the engine's error as `cause`.
  const request = readable("input", "a URL, URL text or a Request that can be read", input, () =>
    typeof Request !== "undefined" && input instanceof Request ? input : undefined);
  // One read of init (a copy of its own enumerable options), used below and for every attempt:
  // a throwing getter or a revoked Proxy is the package's TypeError naming init, with the cause.
  const given = init;
  init = init === undefined ? undefined : readInit(() => ({ ...given }) as FetchInit);
  const [method, body, initSignal] = readInit(() => [
    String(init?.method ?? request?.method ?? "GET").toUpperCase(),
    init?.body !== undefined ? init.body : request?.body,
    init?.signal ?? request?.signal ?? undefined,
  ] as const);
  p.sendAgain = mayResend(method, body, o.retryNonIdempotent === true, methods);
  if (!p.sendAgain) p.attempts = 1;
  // fetch's own argument errors (an invalid URL, method or header, a body a GET cannot have)
  // are not network errors: every attempt would fail alike. Building
  // the Request fetch builds finds them once, and they reject at once, as a plain fetch does.
  // A one-shot body is stood in for by empty text (building would lock it: it is only there
  // so that a body on a GET is the same error); a Request input's URL stands for it.
  if (typeof Request === "function") {
    new Request(request ? request.url : (input as string | URL), { ...init, method, body: rereadable(body) ? (body as BodyInit | null) : "" });
  }

  p.signal = eitherSignal(p.signal, initSignal as AbortSignal | undefined);
  let last: Response | undefined;
  const attempt = async ({ signal }: RetryContext): Promise<Response> => {
    const res = await doFetch(request && p.sendAgain ? request.clone() : input, signal ? { ...init, signal } : init);
    if (statuses.includes(res.status)) throw new RetryableResponse((last = res));
    return res;
  };
  try {
    return await run(attempt, p, FETCH_HOOKS, start, t0);
  } catch (e) {
    // Stopped on a retryable status (attempts, deadline, budget, deferrals, shouldRetry): that Response.
    if (isInstance(e, RetryError) && (e as RetryError).reason !== "aborted" && last !== undefined && (e as RetryError).cause === last) return last;
    throw e;
  }
}

/**
 * The wait a `Retry-After` field asks for, in ms (RFC 9110 §10.2.3): the
 * delay-seconds form (`^[0-9]+$`, × 1000) or an HTTP-date in any of the three
 * formats of RFC 9110 §5.6.7 — IMF-fixdate, obsolete RFC 850, asctime (GMT) —
 * minus `now`; a date in the past gives 0. Parsed in wasm (the `httpdate`
 * crate, wrapped: an RFC 850 two-digit year is read within 50 years of `now`,
 * years before 1970 are dates in the past, a wrong day name is tolerated).
 *
 * `undefined` for anything else — a missing header, empty text, `-3`, `1.5`,
 * `1e3`, garbage — never `NaN`, and never a year read from a number. A
 * delay-seconds of hundreds of digits gives `Infinity`.
 *
 * @param input the field value (string; `null`/`undefined` for a missing
 *   header), a `Headers` (anything with `get(name)`), a plain header record
 *   (e.g. Node's `IncomingHttpHeaders`), or anything with `headers` (a
 *   `Response`, Node's `IncomingMessage`, an axios response).
 * @param now the current time, ms since the epoch; default `Date.now()`.
 * @throws TypeError when `input` is none of these, or reading it throws (a
 *   revoked Proxy, a throwing getter or `get`; the engine's error is the
 *   `cause`), or `now` is not a number; RangeError when `now` is not finite.
 * @example
 * retryAfterMs("120")                                  // 120000
 * retryAfterMs("Sun, 06 Nov 1994 08:49:37 GMT", 784111775000) // 2000
 * retryAfterMs(response)                               // from response.headers
 */
export function retryAfterMs(input: RetryAfterInput, now: number = Date.now()): number | undefined {
  checkNow(now);
  let value: string | undefined;
  if (input === undefined || input === null) return undefined;
  if (typeof input === "string") value = input;
  else if (isObject(input)) {
    value = readable("input", "headers, a Response or an object with headers that can be read", input, () =>
      readHeaderValue("headers" in input ? input.headers : input, "retry-after"));
  } else throw invalid(TYPE, "input", "a header value (string), Headers, a Response or an object with headers", input);
  return value === undefined ? undefined : retryAfterValueMs(value, now);
}

/**
 * Resolves after `ms` milliseconds. Right for any length: `setTimeout` caps at
 * 2^31 − 1 ms (and fires at once above it in Node and browsers), so longer
 * waits are chained timers; `Infinity` waits until aborted (keeping a timer
 * armed, as any pending sleep does).
 *
 * @param ms the wait, a non-negative number (fractions as `setTimeout` takes them) or `Infinity`.
 * @param options `signal`: aborting rejects at once with `signal.reason` and
 *   clears the timer; an already-aborted signal rejects without arming one.
 * @throws (rejects; never throws synchronously) TypeError when `ms` is not a
 *   number, `options` not an object (or one that cannot be read: a revoked Proxy, a throwing
 *   getter; the engine's error is the `cause`) or `signal` not an AbortSignal; RangeError
 *   for a negative or `NaN` `ms`.
 */
export async function sleep(ms: number, options?: SleepOptions): Promise<void> {
  numberOption("ms", ms, "a non-negative number of ms", (v) => v >= 0);
  return wait(ms, signalOf("signal", optionsObject(options, ["signal"]).signal));
}

/** The timer behind `sleep` and the retry loops (validated arguments); `unref` lets Node exit during the wait. */
function wait(ms: number, signal: AbortSignal | undefined, unref?: boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let remaining = ms;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const done = () => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    const arm = () => {
      const chunk = Math.min(remaining, MAX_TIMER_MS);
      remaining -= chunk; // Infinity stays Infinity: re-armed for ever
      timer = setTimeout(remaining > 0 ? arm : done, chunk);
      if (unref) (timer as { unref?: () => void }).unref?.();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    arm();
  });
}

/**
 * Whole seconds for Cloudflare Queues' `message.retry({ delaySeconds })`:
 * `ceil(policy.delay(attempts) / 1000)`, clamped to Queues' ceiling of
 * 43 200 s (12 hours). `attempts` is the message's `attempts` count (1 on the
 * first delivery), so the delay is the one before its next attempt. The
 * policy's own `.maxAttempts()` is not consulted: Queues' `max_retries` bounds
 * deliveries.
 *
 * @param policy a `Backoff`, or a fixed wait (ms or duration text).
 * @param attempts a safe integer >= 1 (`message.attempts`).
 * @returns an integer in `[0, 43200]`.
 * @throws TypeError/RangeError for a bad policy or `attempts`.
 * @example
 * message.retry({ delaySeconds: queueRetryDelaySeconds(policy, message.attempts) });
 */
export function queueRetryDelaySeconds(policy: RetryPolicy, attempts: number): number {
  const p = Backoff.from(policy);
  numberOption("attempts", attempts, "an integer >= 1 (message.attempts)", (v) => Number.isInteger(v) && v >= 1);
  const seconds = Math.ceil(p.delay(attempts) / 1000);
  return Math.min(Math.max(seconds, 0), QUEUES_MAX_DELAY_SECONDS);
}
