/**
 * `fetchWithRetry`: requests, bodies, idempotency keys and statuses, and the one decision
 * whether a request may go out again (`mayResend`); the retry loop does the rest.
 * @module
 */
import { invalid, numberOption, RANGE, readable, TYPE } from "../engine/errors.js";
import { fnOf, isObject } from "../engine/options.js";
import { isInstance, RetryError } from "./retry-errors.js";
import {
  boolOf, ceiling, DEFAULT_MAX_DEFERRALS, listOf, optionsObject, plan, policyDefault, policyOf, retriesOf, RETRY_KEYS, type Plan,
} from "./retry-options.js";
import { loop, planRules, type Hooks } from "./retry-loop.js";
import type { BackoffOptions } from "../policy/backoff.js";
import type { DurationInput } from "../policy/duration.js";
import type { FailedAttemptContext, RetryContext, RetryOptions, RetryPolicy } from "./retry-options.js";

/** The global scope of the program using this package. */
type Host = typeof globalThis;

/** The first parameter of the runtime's `fetch` (a URL, URL text or `Request`). */
export type FetchInput = Host extends { fetch: (input: infer I, ...rest: never[]) => unknown } ? I : string;
/** The second parameter of the runtime's `fetch` (`RequestInit`). */
export type FetchInit = Host extends { fetch: (input: never, init?: infer I) => unknown } ? NonNullable<I> : object;
/** The runtime's `Request` (what `idempotencyKey` as a function is given). */
export type FetchRequest = Host extends { Request: { prototype: infer R } } ? R : unknown;
/** What the runtime's `fetch` resolves to (`Response`). */
export type FetchResponse = Host extends { fetch: (...args: never[]) => Promise<infer R> } ? R : unknown;

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

/** `fetchWithRetry`'s own options besides `retry`'s. */
const FETCH_OWN_KEYS: readonly string[] = [
  "policy", "retryNonIdempotent", "methods", "statusCodes", "maxDeferrals", "maxDeferralMs", "idempotencyKey", "onFailedAttempt", "maxRetryTime", "unref",
];

/**
 * Statuses `fetchWithRetry` retries: 408 Request Timeout, 425 Too Early,
 * 429 Too Many Requests, 500, 502, 503, 504 (RFC 9110 §15, RFC 8470, RFC 6585).
 */
const RETRYABLE_STATUSES: readonly number[] = [408, 425, 429, 500, 502, 503, 504];
/** Methods retried without `retryNonIdempotent` (idempotent per RFC 9110 §9.2.2). */
const IDEMPOTENT_METHODS: readonly string[] = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"];

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

/**
 * The members `fetch` reads from its `init` by name (a WebIDL dictionary: own or inherited,
 * a getter included): the Fetch standard's `RequestInit` and the extensions Node (`dispatcher`)
 * and Workers (`cf`) read the same way.
 */
const INIT_MEMBERS: readonly string[] = [
  "body", "cache", "credentials", "headers", "integrity", "keepalive", "method", "mode", "priority", "redirect", "referrer", "referrerPolicy",
  "signal", "window", "duplex", "dispatcher", "cf",
];

/**
 * `init` as a plain record, each member read once: its own enumerable keys (the members and
 * any extra key a custom `fetch` may take, passed on as they are), then every member of
 * {@link INIT_MEMBERS} it does not own, read by name as `fetch` reads it (a `Request` or a
 * class instance passed as `init` keeps its method, headers, body and signal), left out
 * when `undefined`.
 */
function initRecord(init: object): Record<string, unknown> {
  const r: Record<string, unknown> = { ...init };
  for (const k of INIT_MEMBERS) {
    const v = k in r ? undefined : (init as Record<string, unknown>)[k];
    if (v !== undefined) r[k] = v;
  }
  return r;
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

/** Bodies `fetch` can send again whole: absent, text, bytes, `Blob`/`File`, `FormData`, `URLSearchParams`. */
const REREADABLE = /^\[object (ArrayBuffer|SharedArrayBuffer|Blob|File|FormData|URLSearchParams)\]$/;
function rereadable(body: unknown): boolean {
  return body == null || typeof body === "string" || ArrayBuffer.isView(body) || REREADABLE.test(Object.prototype.toString.call(body));
}

/**
 * An empty body of the kind of the one-shot `body`, for fetch's checks of a body without
 * touching the caller's: a new `ReadableStream` for a stream, an empty async iterable for an
 * async iterable (a Node `Readable` is one), empty text for anything else (fetch sends it as text).
 */
function emptyOfKind(body: unknown): unknown {
  if (typeof ReadableStream === "function" && Object.prototype.toString.call(body) === "[object ReadableStream]") return new ReadableStream();
  try {
    if (isObject(body) && typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function") {
      return { async *[Symbol.asyncIterator]() {} };
    }
  } catch {
    // A body whose members cannot be read: fetch's own attempt reports it.
  }
  return "";
}

/**
 * The one decision of `fetchWithRetry`: may this request go out again? Only when its method
 * is retried (`methods`, or any method with `retryNonIdempotent`) or it carries an
 * idempotency key (`keyed`: the `idempotencyKey` option, or an `Idempotency-Key` field of its
 * own headers; the server recognises a copy and does not act twice), and its body can be sent
 * again whole (`body` is `init.body`, else the `Request`'s own, which is a stream). Asked once
 * per call; the loop asks the answer before every path that sends again.
 */
function mayResend(method: string, body: unknown, anyMethod: boolean, methods: readonly string[], keyed: boolean): boolean {
  return (anyMethod || keyed || methods.includes(method)) && rereadable(body);
}

/** The field that marks a request as safe to send again (the IETF httpapi draft's name). */
const KEY_FIELD = "Idempotency-Key";
const KEY_TEXT = "a key: text of visible ASCII characters (spaces only between them)";

/**
 * Whether `s` can go out as the value of a field unchanged: one or more characters from
 * U+0020 to U+007E, not starting or ending with a space (fetch would trim it, and the
 * server would see another key).
 */
function isKeyText(s: unknown): s is string {
  if (typeof s !== "string" || s.length === 0 || s.charCodeAt(0) === 32 || s.charCodeAt(s.length - 1) === 32) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c > 126) return false;
  }
  return true;
}

/**
 * The `idempotencyKey` option checked (no function called yet): `true`, key text, or a function.
 * TypeError naming the option and the value for anything else, and for `true` where
 * `crypto.randomUUID` is missing (a browser page not served over https).
 */
function keyOption(x: unknown): true | string | ((request: Request) => unknown) {
  if (x === true) {
    if (typeof (globalThis.crypto as { randomUUID?: unknown } | undefined)?.randomUUID !== "function") {
      throw invalid(TYPE, "idempotencyKey", "a key or a function returning one where crypto.randomUUID() is missing (a page not served over https)", x);
    }
    return x;
  }
  if (typeof x === "function") return x as (request: Request) => unknown;
  if (isKeyText(x)) return x;
  throw invalid(TYPE, "idempotencyKey", `true (a random UUID), ${KEY_TEXT}, or a function of the request returning one`, x);
}

/**
 * `fetch(input, init)` with retries. Retried: network errors (any rejection of
 * `fetch` other than an abort; fetch's own argument errors — an invalid URL,
 * method or header — reject at once with fetch's error), attempts that time out
 * (`attemptTimeout`) and the statuses of `statusCodes` (default 408,
 * 425, 429, 500, 502, 503, 504) — only for the methods of `methods` (default the
 * idempotent GET, HEAD, OPTIONS, PUT, DELETE; `retryNonIdempotent: true` for
 * all) or a request with an idempotency key (`idempotencyKey`, or an
 * `Idempotency-Key` field of its own headers), and only when the request body can be sent again.
 *
 * One-shot bodies: a body that sending consumes — a `ReadableStream`, an async
 * iterable, a Node `Readable`, any object that is not text, bytes, `Blob`,
 * `FormData` or `URLSearchParams` — and the body of a `Request` (a stream by the
 * Fetch standard; nothing tells one built from text from one built from a
 * stream) go out ONCE, and so does a request whose method is not retried: such a
 * request is neither retried nor deferred (whether a request may go out again is
 * decided once per call, and every path that would send it again obeys that), and
 * the caller gets the first response as the server sent it, or, for a network
 * error, `RetryError` reason "attempts" with that error as `cause`. A GET or HEAD
 * with any body, and a stream or async-iterable body without `duplex: "half"` where
 * the runtime's fetch asks for it, reject at once with fetch's own TypeError, as a
 * plain `fetch` does: nothing sent, the caller's body neither locked nor read.
 * To retry a one-shot body, pass a re-readable body in
 * `init`, or call `retry` with a function that builds a fresh request each
 * attempt. Re-readable bodies go out whole on every attempt. A `Request`
 * without a body is cloned for each attempt.
 *
 * The final `Response` is returned: a non-retryable status (404, …) at once,
 * not thrown; when the loop stops on a retryable status (attempts, deadline,
 * budget, deferrals, a veto), that last one. The bodies of the responses it
 * discards are cancelled. A 429/503 with a server wait (`serverDelayMs`) is a
 * deferral: waited — the server's wait alone, at most `maxRetryAfter` — without
 * spending an attempt, up to `maxDeferrals`; a wait over `maxDeferralMs` stops at
 * once. With `maxDeferrals: 0` it is a failure like any other, and waits
 * `max(min(server, maxRetryAfter), policy delay)`. An aborted call rejects with
 * `RetryError` reason "aborted" (`cause`: `signal.reason`), never with a `Response`.
 *
 * The signal (`options.signal`, else `init.signal`, else the Request's; both
 * combined when two are given) is passed to every `fetch` and stops the waits;
 * with `attemptTimeout`, each `fetch` is given a signal of its own that it also
 * aborts, and that aborts with a `TimeoutError` when the attempt's time is up (a POST
 * without a key, or a one-shot body, is then not sent again: `RetryError` reason
 * "attempts" with the `TimeoutError` as `cause`).
 * `shouldRetry(error, attempt)`, `onFailedAttempt` and `onRetry` see the
 * `Response` for a retryable status and the error for a network error;
 * `shouldRetry` can only veto a retry the rules above allow.
 *
 * @param input a URL, URL text or `Request`, as for `fetch`.
 * @param init as for `fetch`, and read as `fetch` reads it, once: each of its members by name
 *   (own or inherited: a `Request` or a class instance with getters passed here keeps its
 *   method, headers, body and signal), its other own keys passed on to `fetch` as they are.
 *   A `Request`'s body is a stream, so a `Request` passed here goes out once.
 * @param options see {@link FetchRetryOptions}.
 * @throws (rejects; never throws synchronously) as `retry` for bad options
 *   (also options, `init` or `input` that cannot be read);
 *   TypeError when `globalThis.fetch` is missing, for a bad `idempotencyKey` or one it
 *   returns that is no key (naming the option and the value); an error thrown by
 *   `idempotencyKey` as is; RetryError when the loop gives
 *   up on a network error or a timeout (`cause`) or is aborted (reason "aborted").
 */
export async function fetchWithRetry(
  input: FetchInput,
  init?: FetchInit,
  options?: FetchRetryOptions,
): Promise<FetchResponse> {
  // The call's clock starts here: the first Request built below can take tens of ms (Node loads its fetch then).
  const start = Date.now();
  const t0 = performance.now();
  // fetchWithRetry's options: retry's own and its own.
  const FETCH_KEYS = RETRY_KEYS.concat(FETCH_OWN_KEYS);
  const o = optionsObject(options, FETCH_KEYS);
  if (init !== undefined && !isObject(init)) throw invalid(TYPE, "init", "an object", init);
  const given = init;
  const readInit = <T>(read: () => T) => readable("init", "an object that can be read", given, read);
  // One read of init, used below and for every attempt (see initRecord): a throwing getter or
  // a revoked Proxy is the package's TypeError naming init, with the cause.
  const rec = given && readInit(() => initRecord(given));
  init = rec as FetchInit | undefined;
  // Retry options in the RequestInit slot would be ignored by fetch: say so.
  const misplaced = rec && FETCH_KEYS.find((key) => key !== "signal" && key in rec);
  if (misplaced !== undefined) {
    throw invalid(TYPE, `init.${misplaced}`, "passed in the third argument (fetchWithRetry(input, init, { " + misplaced + " }))", rec![misplaced]);
  }
  if (o.retryNonIdempotent !== undefined && typeof o.retryNonIdempotent !== "boolean") {
    throw invalid(TYPE, "retryNonIdempotent", "a boolean", o.retryNonIdempotent);
  }
  if (o.retryNonIdempotent !== undefined && o.methods !== undefined) {
    throw invalid(TYPE, "retryNonIdempotent", "left out when methods is given (methods lists every retried method)", o.retryNonIdempotent);
  }
  const methods = listOf<string>("methods", o.methods, IDEMPOTENT_METHODS, "method names (text)", (v) => (typeof v === "string" && /^[!#$%&'*+.^`|~\w-]+$/.test(v) ? undefined : TYPE)).map((m) => m.toUpperCase());
  const statuses = listOf<number>("statusCodes", o.statusCodes, RETRYABLE_STATUSES, "HTTP statuses (integers 100-599)", (v) =>
    typeof v !== "number" ? TYPE : Number.isInteger(v) && v >= 100 && v <= 599 ? undefined : RANGE);
  const onFailedAttempt = fnOf<Plan["onFailedAttempt"]>("onFailedAttempt", o.onFailedAttempt);
  const maxRetryTime = numberOption("maxRetryTime", o.maxRetryTime ?? undefined, "a number >= 0 or Infinity", (v) => v >= 0, Infinity);
  const unref = boolOf("unref", o.unref);
  const policy = o.policy !== undefined ? policyOf(o.policy, "policy", FETCH_KEYS) : policyDefault(o.retries === undefined);
  const planWith = plan(policy, o);
  const maxDeferrals = retriesOf(o.maxDeferrals, DEFAULT_MAX_DEFERRALS, "maxDeferrals");
  const maxDeferralMs = ceiling("maxDeferralMs", o.maxDeferralMs, Infinity);
  const keyGiven = o.idempotencyKey === undefined ? undefined : keyOption(o.idempotencyKey);
  const doFetch = globalThis.fetch;
  if (typeof doFetch !== "function") throw invalid(TYPE, "globalThis.fetch", "a function (this runtime has no fetch)", doFetch);

  // A revoked Proxy or a throwing getter: the package's TypeError naming the argument, the engine's error as `cause`.
  // Its text is read here too: a symbol has none (fetch would throw the engine's error).
  const request = readable("input", "a URL, URL text or a Request that can be read", input, () =>
    typeof Request !== "undefined" && input instanceof Request ? input : void `${input as string}`);
  const [method, body, initSignal] = readInit(() => [
    String(init?.method ?? request?.method ?? "GET").toUpperCase(),
    // A null init.body leaves a Request's own body in place (the Fetch standard): that one is sent.
    init?.body != null ? init.body : request?.body ?? init?.body,
    init?.signal ?? request?.signal ?? undefined,
    // Headers that cannot be read (a revoked Proxy): this TypeError naming init, not fetch's engine error.
    Object.keys(init?.headers ?? 0),
  ] as const);
  // The Request input's own body goes out (init.body, when given, replaces it and leaves it untouched).
  const ownBody = request !== undefined && init?.body == null;
  const sentWith = (h: unknown) => readInit(() => new Headers(h as HeadersInit | undefined));
  // fetch's own argument errors (an invalid URL, method or header, a body a GET cannot have)
  // are not network errors: every attempt would fail alike. Building
  // the Request fetch builds finds them once, and they reject at once, as a plain fetch does.
  // A one-shot body of init is stood in for by an empty body of its kind (building would
  // lock or pull the caller's), so that fetch's checks of a body are the same errors: one on
  // a GET, a stream without `duplex: "half"`. A Request input's own body passed those checks
  // when it was built; empty text stands for it, and its URL for the input.
  if (typeof Request === "function") {
    // A Request input whose own body goes out but was used or is locked cannot be sent at all:
    // building a Request from it is fetch's own TypeError (only then: from a usable one it
    // would take the body).
    if (request && ownBody && (request.bodyUsed || request.body?.locked)) new Request(request);
    const standIn = rereadable(body) ? body : init?.body != null ? emptyOfKind(body) : "";
    new Request(request ? request.url : (input as string | URL), { ...init, method, body: standIn as BodyInit | null });
  }

  // The headers that go out: init.headers replaces a Request's own (as in fetch).
  const headers = sentWith(init?.headers ?? request?.headers);
  let key: string | undefined;
  if (keyGiven !== undefined) {
    if (headers.has(KEY_FIELD)) {
      throw invalid(TYPE, "idempotencyKey", `left out when the request's headers carry ${KEY_FIELD} already (that key is sent, and counts the same)`, o.idempotencyKey);
    }
    if (keyGiven === true) key = crypto.randomUUID();
    else if (typeof keyGiven === "string") key = keyGiven;
    else {
      // The request as fetch would build it, with its body when the body can be read again
      // (a one-shot body is left out: reading it would use it up).
      const seen = new Request(request ? request.url : (input as string | URL), {
        ...init, method, headers, body: (rereadable(body) && !ownBody ? body : null) as BodyInit | null, signal: undefined,
      });
      const made: unknown = await keyGiven(seen);
      if (!isKeyText(made)) throw invalid(TYPE, "idempotencyKey(request)", `${KEY_TEXT}, returned by the function`, made);
      key = made;
    }
    headers.set(KEY_FIELD, key);
    init = { ...init, headers } as FetchInit;
  }
  const sendAgain = mayResend(method, body, o.retryNonIdempotent === true, methods, headers.has(KEY_FIELD));

  // The call's one plan: the own options validated above, and what fetchWithRetry decided.
  const p = planWith({
    onFailedAttempt, maxRetryTime, unref, maxDeferrals, maxDeferralMs, sendAgain,
    joinSignal: (signal) => eitherSignal(signal, initSignal as AbortSignal | undefined),
  });
  let last: Response | undefined;
  const attempt = async ({ signal }: RetryContext): Promise<Response> => {
    const res = await doFetch(request && ownBody && p.sendAgain ? request.clone() : input, signal ? { ...init, signal } : init);
    if (statuses.includes(res.status)) throw new RetryableResponse((last = res));
    return res;
  };
  try {
    return await loop(attempt, planRules(p, FETCH_HOOKS, start, t0));
  } catch (e) {
    // Stopped on a retryable status (attempts, deadline, budget, deferrals, shouldRetry): that Response.
    if (isInstance(e, RetryError) && (e as RetryError).reason !== "aborted" && last !== undefined && (e as RetryError).cause === last) return last;
    throw e;
  }
}

