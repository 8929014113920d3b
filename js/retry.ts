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
import { Backoff } from "./backoff.js";
import { toMs, type DurationInput } from "./duration.js";
import { invalid, RANGE, TYPE } from "./errors.js";

/** What every function here accepts as a policy: a `Backoff`, or a fixed wait (ms or duration text). */
export type RetryPolicy = Backoff | DurationInput;

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
  /** The wait before the next attempt, ms (after `Retry-After` was taken into account). */
  delay: number;
}

/** Options of `retry` (all optional, validated once when `retry` starts). */
export interface RetryOptions {
  /**
   * Stops retrying: aborting during a wait rejects at once with `signal.reason`
   * and clears the timer; an already-aborted signal never calls the operation;
   * a failure seen after the abort rejects with `signal.reason` too. It is also
   * passed to the operation, which should honour it while it runs.
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
}

/** Options of `fetchWithRetry`: every `retry` option, plus these. */
export interface FetchRetryOptions extends RetryOptions {
  /**
   * The waits. Default `Backoff.exponential("1 second").cap("30 seconds").jitter("full").maxAttempts(4)`
   * (without `.maxAttempts(4)` when `retries` is given).
   */
  policy?: RetryPolicy;
  /** Also retry methods that are not idempotent (POST, PATCH, …). Default `false`. */
  retryNonIdempotent?: boolean;
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

/**
 * The longest delay `setTimeout` honours: 2^31 − 1 ms (about 24.8 days). A
 * longer one fires at once in browsers and after 1 ms in Node (HTML
 * "timer initialisation steps"; Node's TimeoutOverflowWarning).
 */
const MAX_TIMER_MS = 2_147_483_647;
/** Default `maxRetryAfter`: one hour. */
const DEFAULT_MAX_RETRY_AFTER_MS = 3_600_000;
/** Cloudflare Queues: `delaySeconds` is at most 43 200 (12 hours). */
const QUEUES_MAX_DELAY_SECONDS = 43_200;
/**
 * Statuses `fetchWithRetry` retries: 408 Request Timeout, 425 Too Early,
 * 429 Too Many Requests, 500, 502, 503, 504 (RFC 9110 §15, RFC 8470, RFC 6585).
 */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 425, 429, 500, 502, 503, 504]);
/** Methods retried without `retryNonIdempotent` (idempotent per RFC 9110 §9.2.2). */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
/** Statuses whose `Retry-After` is honoured (RFC 9110 §10.2.3, RFC 6585 §4). */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

const RETRY_KEYS = ["signal", "retries", "shouldRetry", "onRetry", "maxRetryAfter"] as const;
const FETCH_KEYS = [...RETRY_KEYS, "policy", "retryNonIdempotent"] as const;

/** The validated form of the options. */
interface Plan {
  policy: Backoff;
  attempts: number;
  signal: AbortSignal | undefined;
  shouldRetry: RetryOptions["shouldRetry"];
  onRetry: RetryOptions["onRetry"];
  maxRetryAfter: number;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null;
}

function isSignal(x: unknown): x is AbortSignal {
  return isObject(x) && typeof x.aborted === "boolean" && typeof x.addEventListener === "function";
}

/** Rejects a non-object and any key outside `known` (a typo must not pass silently). */
function optionsObject(options: unknown, known: readonly string[]): Record<string, unknown> {
  if (options === undefined) return {};
  if (!isObject(options) || typeof options === "function") throw invalid(TYPE, "options", "an object", options);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw invalid(TYPE, "option", `one of ${known.join(", ")}`, key);
  }
  return options;
}

function signalOption(x: unknown): AbortSignal | undefined {
  if (x === undefined) return undefined;
  if (!isSignal(x)) throw invalid(TYPE, "signal", "an AbortSignal", x);
  return x;
}

function functionOption<F>(name: string, x: unknown): F | undefined {
  if (x === undefined) return undefined;
  if (typeof x !== "function") throw invalid(TYPE, name, "a function", x);
  return x as F;
}

/** Validates every `retry` option once and settles the attempt budget. */
function plan(policy: Backoff, o: Record<string, unknown>): Plan {
  const signal = signalOption(o.signal);
  const shouldRetry = functionOption<RetryOptions["shouldRetry"]>("shouldRetry", o.shouldRetry);
  const onRetry = functionOption<RetryOptions["onRetry"]>("onRetry", o.onRetry);

  let maxRetryAfter = DEFAULT_MAX_RETRY_AFTER_MS;
  if (o.maxRetryAfter !== undefined) {
    const x = o.maxRetryAfter;
    if (typeof x !== "number" && typeof x !== "string") {
      throw invalid(TYPE, "maxRetryAfter", "a duration (ms or duration text)", x);
    }
    maxRetryAfter = toMs(x as DurationInput);
    if (!(maxRetryAfter >= 0)) throw invalid(RANGE, "maxRetryAfter", "a non-negative duration (ms or duration text)", x);
  }

  const retries = o.retries;
  if (retries !== undefined) {
    if (typeof retries !== "number") throw invalid(TYPE, "retries", "a non-negative integer or Infinity", retries);
    if (!(retries === Number.POSITIVE_INFINITY || (Number.isSafeInteger(retries) && retries >= 0))) {
      throw invalid(RANGE, "retries", "a non-negative integer or Infinity", retries);
    }
  }
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
  return { policy, attempts, signal, shouldRetry, onRetry, maxRetryAfter };
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
 * The Retry-After field value from headers: a `Headers` (or anything with
 * `get(name)`), or a plain record such as Node's `IncomingHttpHeaders` (name
 * matched case-insensitively; an array value is joined as a field list).
 */
function headerValue(headers: unknown): string | undefined {
  try {
    return readHeaderValue(headers);
  } catch {
    return undefined;
  }
}

/** {@link headerValue}, throwing what reading the headers throws (a revoked Proxy, a throwing getter). */
function readHeaderValue(headers: unknown): string | undefined {
  if (!isObject(headers)) return undefined;
  let v: unknown;
  if (typeof headers.get === "function") {
    v = (headers.get as (name: string) => unknown).call(headers, "retry-after");
  } else {
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === "retry-after") v = headers[key];
    }
  }
  if (typeof v === "number") return String(v);
  if (Array.isArray(v)) {
    // A field list: at most two values can join into one Retry-After (an HTTP-date has one
    // comma), so a longer one is `undefined` without reading further (a Proxy may claim 2e9).
    const n: unknown = v.length;
    return n === 1 || n === 2 ? [v[0], v[1]].slice(0, n).join(", ") : undefined;
  }
  return typeof v === "string" ? v : undefined;
}

/** The response-like value an error carries: the value itself (status + headers), or its `response`. */
function responseOf(x: unknown): unknown {
  const looksLikeResponse = (r: unknown) =>
    isObject(r) && prop(r, "headers") !== undefined && (prop(r, "status") !== undefined || prop(r, "statusCode") !== undefined);
  if (looksLikeResponse(x)) return x;
  const r = prop(x, "response");
  return looksLikeResponse(r) ? r : undefined;
}

/** The wait a 429/503 response carried by `x` asks for, ms, or `undefined`. */
function serverWaitMs(x: unknown): number | undefined {
  const r = responseOf(x);
  if (r === undefined) return undefined;
  const status = prop(r, "status") ?? prop(r, "statusCode");
  if (typeof status !== "number" || !RETRY_AFTER_STATUSES.has(status)) return undefined;
  const v = headerValue(prop(r, "headers"));
  return v === undefined ? undefined : retryAfterValueMs(v, Date.now());
}

/** How `fetchWithRetry` lets the shared loop see responses as failures. */
interface Hooks {
  /** What the callbacks see for a failure. */
  view(error: unknown): unknown;
  /** Releases what a failure holds once it is not returned (a response body). */
  discard(error: unknown): void;
}

function isAbortError(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { name?: unknown }).name === "AbortError";
}

/** The attempt loop shared by `retry` and `fetchWithRetry`. */
async function run<T>(fn: (ctx: RetryContext) => T | PromiseLike<T>, p: Plan, hooks?: Hooks): Promise<T> {
  const { signal } = p;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw signal.reason;
    let error: unknown;
    try {
      return await fn({ attempt, signal });
    } catch (e) {
      error = e;
    }
    if (signal?.aborted) {
      hooks?.discard(error);
      throw signal.reason;
    }
    if (attempt >= p.attempts) throw error;
    // An AbortError (fetch aborted by a signal of the caller's own) means "stop", as
    // in p-retry; a TimeoutError (AbortSignal.timeout per attempt) is retried.
    if (!p.shouldRetry && isAbortError(error)) throw error;
    const seen = hooks ? hooks.view(error) : error;
    let delay: number;
    try {
      if (p.shouldRetry && !(await p.shouldRetry(seen, attempt))) throw error;
      delay = p.policy.delay(attempt);
      const server = serverWaitMs(seen);
      if (server !== undefined) delay = Math.max(Math.min(server, p.maxRetryAfter), delay);
      if (p.onRetry) await p.onRetry({ error: seen, attempt, delay });
    } catch (e) {
      if (e !== error) hooks?.discard(error);
      throw e;
    }
    hooks?.discard(error);
    await sleep(delay, { signal });
  }
}

/**
 * Calls `fn({ attempt, signal })` until it resolves, waiting `policy.delay(n)`
 * after the n-th failure, and resolves with its value. On exhaustion of the
 * attempt budget the last error is rethrown unchanged.
 *
 * The budget comes from exactly one place: `options.retries` (attempts AFTER the
 * first) or the policy's `.maxAttempts(n)` (attempts in total): `retries: 2`
 * equals `.maxAttempts(3)`.
 *
 * `Retry-After`: when the thrown value is itself a response (it has `headers`
 * and `status`/`statusCode`) or carries one as `error.response` (as fetch
 * wrappers and HTTP clients such as axios do), and its status is 429 or 503
 * with a valid `Retry-After`, the wait is `max(min(server, maxRetryAfter),
 * policy delay)`. A value `fn` resolves with is never a failure here, whatever
 * it holds (`fetchWithRetry` is the one that treats statuses as failures).
 *
 * An error named `AbortError` (what `fetch` throws when a signal of the caller's
 * own aborts it) is rethrown at once, as p-retry does, unless `shouldRetry` is
 * given and decides; a `TimeoutError` (`AbortSignal.timeout`) is retried.
 *
 * @param fn the operation; may return a value or a promise.
 * @param policy a `Backoff`, or a fixed wait (ms or duration text).
 * @param options see {@link RetryOptions}.
 * @returns what `fn` resolved with.
 * @throws (rejects) TypeError when `fn` is not a function, a policy or option has
 *   the wrong type or an unknown option is given, or both `retries` and
 *   `.maxAttempts()` are set; RangeError for a bad value, or when neither sets a
 *   budget (use `retries: Infinity` to retry for ever on purpose); `signal.reason`
 *   when aborted; otherwise the last error of `fn`.
 * @example
 * const data = await retry(({ signal }) => load(signal), Backoff.exponential("200ms").maxAttempts(5));
 */
export async function retry<T>(
  fn: (ctx: RetryContext) => T | PromiseLike<T>,
  policy: RetryPolicy,
  options?: RetryOptions,
): Promise<T> {
  if (typeof fn !== "function") throw invalid(TYPE, "fn", "a function", fn);
  const p = plan(Backoff.from(policy), optionsObject(options, RETRY_KEYS));
  return run(fn, p);
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

let defaultPolicy: Backoff | undefined;
function fetchPolicy(bounded: boolean): Backoff {
  defaultPolicy ??= Backoff.exponential("1 second").cap("30 seconds").jitter("full");
  return bounded ? defaultPolicy.maxAttempts(4) : defaultPolicy;
}

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

/**
 * `fetch(input, init)` with retries. Retried: network errors (any rejection of
 * `fetch` other than an abort) and the statuses 408, 425, 429, 500, 502, 503,
 * 504 — only for idempotent methods (GET, HEAD, OPTIONS, PUT, DELETE) unless
 * `retryNonIdempotent: true`, and never when `init.body` is a stream (it
 * cannot be sent twice). A `Request` input is cloned for each attempt.
 *
 * The final `Response` is returned: a non-retryable status (404, …) at once,
 * not thrown; when the budget runs out on retryable statuses, the last one.
 * The bodies of the responses it discards are cancelled. A 429/503 with
 * `Retry-After` waits `max(min(server, maxRetryAfter), policy delay)`.
 *
 * The signal (`options.signal`, else `init.signal`, else the Request's; both
 * combined when two are given) is passed to every `fetch` and stops the waits.
 * `shouldRetry` and `onRetry` see the `Response` for a retryable status and
 * the error for a network error; `shouldRetry` can only veto a retry the
 * rules above allow.
 *
 * @param input a URL, URL text or `Request`, as for `fetch`.
 * @param init as for `fetch`.
 * @param options `policy` (default `Backoff.exponential("1 second").cap("30 seconds").jitter("full").maxAttempts(4)`),
 *   `retryNonIdempotent`, and every {@link RetryOptions} option.
 * @throws (rejects) as `retry` for bad options; TypeError when `globalThis.fetch`
 *   is missing; `signal.reason` when aborted; the last network error on exhaustion.
 */
export async function fetchWithRetry(
  input: FetchInput,
  init?: FetchInit,
  options?: FetchRetryOptions,
): Promise<FetchResponse> {
  const o = optionsObject(options, FETCH_KEYS);
  if (o.retryNonIdempotent !== undefined && typeof o.retryNonIdempotent !== "boolean") {
    throw invalid(TYPE, "retryNonIdempotent", "a boolean", o.retryNonIdempotent);
  }
  if (init !== undefined && (typeof init !== "object" || init === null)) throw invalid(TYPE, "init", "an object", init);
  // Retry options in the RequestInit slot would be ignored by fetch: say so.
  for (const key of FETCH_KEYS) {
    if (init !== undefined && key !== "signal" && Object.prototype.hasOwnProperty.call(init, key)) {
      throw invalid(TYPE, `init.${key}`, "passed in the third argument (fetchWithRetry(input, init, { " + key + " }))", (init as Record<string, unknown>)[key]);
    }
  }
  const policy = o.policy !== undefined ? Backoff.from(o.policy as RetryPolicy) : fetchPolicy(o.retries === undefined);
  const p = plan(policy, o);
  const doFetch = globalThis.fetch;
  if (typeof doFetch !== "function") throw invalid(TYPE, "globalThis.fetch", "a function (this runtime has no fetch)", doFetch);

  const request = typeof Request !== "undefined" && input instanceof Request ? input : undefined;
  const method = String(init?.method ?? request?.method ?? "GET").toUpperCase();
  const body = init?.body as unknown;
  const streamed = isObject(body) && typeof body.getReader === "function";
  if ((!IDEMPOTENT_METHODS.has(method) && o.retryNonIdempotent !== true) || streamed) p.attempts = 1;

  p.signal = eitherSignal(p.signal, init?.signal ?? request?.signal ?? undefined);
  const attempt = async ({ signal }: RetryContext): Promise<Response> => {
    const res = await doFetch(request ? request.clone() : input, signal ? { ...init, signal } : init);
    if (RETRYABLE_STATUSES.has(res.status)) throw new RetryableResponse(res);
    return res;
  };
  try {
    return await run(attempt, p, FETCH_HOOKS);
  } catch (e) {
    if (e instanceof RetryableResponse) return e.response;
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
  if (typeof now !== "number") throw invalid(TYPE, "now", "a number of ms since the epoch", now);
  if (!Number.isFinite(now)) throw invalid(RANGE, "now", "a finite number of ms since the epoch", now);
  let value: string | undefined;
  if (input === undefined || input === null) return undefined;
  if (typeof input === "string") value = input;
  else if (isObject(input)) {
    try {
      value = readHeaderValue("headers" in input ? input.headers : input);
    } catch (e) {
      throw invalid(TYPE, "input", "headers, a Response or an object with headers that can be read", input, e);
    }
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
 * @throws TypeError when `ms` is not a number or `signal` not an AbortSignal;
 *   RangeError for a negative or `NaN` `ms`. (Thrown synchronously: these are
 *   programming errors, not outcomes of the wait.)
 */
export function sleep(ms: number, options?: SleepOptions): Promise<void> {
  if (typeof ms !== "number") throw invalid(TYPE, "ms", "a non-negative number of ms", ms);
  if (!(ms >= 0)) throw invalid(RANGE, "ms", "a non-negative number of ms", ms);
  const signal = signalOption(optionsObject(options, ["signal"]).signal);
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
  if (typeof attempts !== "number") throw invalid(TYPE, "attempts", "an integer >= 1 (message.attempts)", attempts);
  if (!Number.isSafeInteger(attempts) || attempts < 1) {
    throw invalid(RANGE, "attempts", "an integer >= 1 (message.attempts)", attempts);
  }
  const seconds = Math.ceil(p.delay(attempts) / 1000);
  return Math.min(Math.max(seconds, 0), QUEUES_MAX_DELAY_SECONDS);
}
