/**
 * Server waits: `retryAfterMs` (the `Retry-After` field), `serverDelayMs` (it and
 * the rate-limit fields after it), and the wait a failure carries for the retry loop.
 *
 * The rate-limit fields `serverDelayMs` reads after `Retry-After`: the IETF
 * `RateLimit` structured field (draft-ietf-httpapi-ratelimit-headers; an
 * RFC 9651 list, `"name";r=<remaining>;t=<seconds>`), `RateLimit-Reset` (older
 * drafts: delay-seconds) and `X-RateLimit-Reset` (epoch seconds, or seconds
 * below 10⁹). Seconds are read by the delay-seconds reader of `Retry-After`
 * (js/runtime/http-date.ts); this file cuts the structured field into its members and
 * parameters (kept out of the wasm, which every entry point loads). Every reader here makes one
 * pass over a field value with no regular expression, so a hostile server's value costs time
 * linear in its length.
 * @module
 */
import { delaySecondsMs, retryAfterValueMs } from "./http-date.js";
import { invalid, RANGE, readable, TYPE } from "../engine/errors.js";
import { isObject } from "../engine/options.js";

/** `X-RateLimit-Reset` values at or above this many seconds are a time since the epoch. */
const EPOCH_SECONDS_FROM = 1e9;

/** Whether a code unit may continue an RFC 9651 token (`tchar`, `:` and `/`), or is `?`: the characters of a bare item that is neither a string nor a byte sequence. */
function isTokenChar(c: number): boolean {
  // ALPHA / DIGIT, then !#$%&'*+-.^_`|~ and :/?
  return (c >= 48 && c <= 58) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || "!#$%&'*+-./?^_`|~".includes(String.fromCharCode(c));
}

/** Whether a code unit may stand in a byte sequence's base64 (RFC 9651 §3.3.5). */
function isBase64Char(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47 || c === 61;
}

/** Whether a bare item may end before `v[at]`: at a parameter, whitespace, a comma or the end. */
function endsItem(v: string, at: number): boolean {
  const c = v.charCodeAt(at);
  return at >= v.length || c === 59 || c === 32 || c === 9 || c === 44;
}

/**
 * The index just past the bare item (RFC 9651 §3.3) that starts at `v[at]`, or -1: a string
 * (`"…"`, escapes `\"` and `\\` only, no control characters), a byte sequence (`:base64:`), or a
 * run of token characters (tokens, integers, decimals, booleans). Each character is looked at
 * a bounded number of times, so the time is linear in the item's length.
 */
function itemEnd(v: string, at: number): number {
  const first = v.charCodeAt(at);
  if (first === 34) {
    for (let i = at + 1; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c === 34) return i + 1;
      if (c === 92) {
        const next = v.charCodeAt(i + 1);
        if (next !== 34 && next !== 92) return -1;
        i++;
      } else if (c <= 0x1f || c === 0x7f) return -1;
    }
    return -1;
  }
  let token = at;
  while (token < v.length && isTokenChar(v.charCodeAt(token))) token++;
  if (first === 58) {
    // A byte sequence, or else a run of token characters that starts with `:`: at most one of
    // the two can be followed by what may follow an item.
    let bytes = at + 1;
    while (bytes < v.length && isBase64Char(v.charCodeAt(bytes))) bytes++;
    if (v.charCodeAt(bytes) === 58 && endsItem(v, bytes + 1)) return bytes + 1;
  }
  return token > at ? token : -1;
}

/** Whether a code unit may start (`first`) or continue a parameter key (RFC 9651 §3.1.2). */
function isKeyChar(c: number, first: boolean): boolean {
  return (c >= 97 && c <= 122) || c === 42 || (!first && ((c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46));
}

/** Whether a parameter's value is absent or a non-negative sf-integer of at most 15 digits. */
function isCount(x: string | undefined): boolean {
  if (x === undefined) return true;
  if (x.length < 1 || x.length > 15) return false;
  for (let i = 0; i < x.length; i++) {
    const c = x.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * The longest `t` (× 1000) among the members of a `RateLimit` field whose `r`
 * is 0; `undefined` when no member is at `r=0` with a `t`, or when the field is
 * not a valid list (RFC 9651: a field that does not parse is ignored whole). `r`
 * and `t` must be non-negative sf-integers (at most 15 digits); the last `r` and
 * `t` of a member count. One pass from left to right, no regular expression:
 * time linear in the field's length, whatever a server sends.
 */
function rateLimit(v: string): number | undefined {
  let best: number | undefined;
  let at = 0;
  for (;;) {
    while (isOws(v.charCodeAt(at))) at++;
    const end = itemEnd(v, at);
    if (end < 0 || !endsItem(v, end)) return undefined;
    at = end;
    let r: string | undefined;
    let t: string | undefined;
    while (v.charCodeAt(at) === 59) {
      at++;
      while (v.charCodeAt(at) === 32) at++;
      const key = at;
      if (!isKeyChar(v.charCodeAt(at), true)) return undefined;
      at++;
      while (isKeyChar(v.charCodeAt(at), false)) at++;
      const name = v.slice(key, at);
      let value: string | undefined;
      if (v.charCodeAt(at) === 61) {
        const valueEnd = itemEnd(v, at + 1);
        if (valueEnd < 0 || !endsItem(v, valueEnd)) return undefined;
        value = v.slice(at + 1, valueEnd);
        at = valueEnd;
      }
      if (name === "r") r = value;
      if (name === "t") t = value;
    }
    while (isOws(v.charCodeAt(at))) at++;
    if (!isCount(r) || !isCount(t)) return undefined;
    if (r !== undefined && +r === 0 && t !== undefined) best = Math.max(best ?? 0, +t * 1000);
    if (at >= v.length) return best;
    if (v.charCodeAt(at) !== 44 || at + 1 >= v.length) return undefined;
    at++;
  }
}

/** Whether a code unit is optional whitespace: SP or HTAB (RFC 9110 §5.6.3). */
function isOws(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * The wait a rate-limit field value asks for at `now` (ms since the epoch):
 * `field` 0 = `RateLimit`, 1 = `RateLimit-Reset`, 2 = `X-RateLimit-Reset`;
 * `undefined` when malformed or when no wait is asked.
 */
function rateLimitWaitMs(value: string, field: number, now: number): number | undefined {
  if (field === 0) return rateLimit(value);
  const ms = delaySecondsMs(value);
  if (ms === undefined || field === 1 || ms < EPOCH_SECONDS_FROM * 1000) return ms;
  return Math.max(ms - now, 0);
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

/** Statuses whose `Retry-After` is honoured (RFC 9110 §10.2.3, RFC 6585 §4). */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Reads one property of an unknown value without letting a throwing getter escape. @internal */
export function prop(x: unknown, key: string): unknown {
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
 * `RateLimit` list is cut into members and parameters in JS (js/runtime/server-delay.ts).
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

/** The wait a 429/503 response carried by `x` asks for (any form of `serverDelayMs`), ms, or `undefined`. @internal */
export function serverWaitMs(x: unknown): number | undefined {
  const r = responseOf(x);
  if (r === undefined) return undefined;
  const status = prop(r, "status") ?? prop(r, "statusCode");
  if (typeof status !== "number" || !RETRY_AFTER_STATUSES.has(status)) return undefined;
  return serverDelay(prop(r, "headers"), Date.now());
}

/**
 * The wait a `Retry-After` field asks for, in ms (RFC 9110 §10.2.3): the
 * delay-seconds form (`^[0-9]+$`, × 1000) or an HTTP-date in any of the three
 * formats of RFC 9110 §5.6.7 — IMF-fixdate, obsolete RFC 850, asctime (GMT) —
 * minus `now`; a date in the past gives 0. Read in JavaScript, with the same
 * answers as the Rust crate's parser: an RFC 850 two-digit year is read within
 * 50 years of `now`, years before 1970 are dates in the past, a wrong day name
 * is tolerated.
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
