/**
 * The rate-limit fields `serverDelayMs` reads after `Retry-After`: the IETF
 * `RateLimit` structured field (draft-ietf-httpapi-ratelimit-headers; an
 * RFC 9651 list, `"name";r=<remaining>;t=<seconds>`), `RateLimit-Reset` (older
 * drafts: delay-seconds) and `X-RateLimit-Reset` (epoch seconds, or seconds
 * below 10⁹). Seconds are read by the wasm delay-seconds parser of `Retry-After`;
 * this file only cuts the structured field into its members and parameters
 * (kept out of the wasm, which every entry point loads: it cost 800 B gzip there).
 * @module
 */
import { retryAfterValueMs } from "./abi.js";

/** `X-RateLimit-Reset` values at or above this many seconds are a time since the epoch. */
const EPOCH_SECONDS_FROM = 1e9;

/** delay-seconds (`1*DIGIT`, optional whitespace around) as ms, through the wasm parser; else `undefined`. */
function seconds(v: string): number | undefined {
  return /^[ \t]*\d+[ \t]*$/.test(v) ? retryAfterValueMs(v, 0) : undefined;
}

/** A bare item of RFC 9651 §3.3: a string, a byte sequence, or a token / number / boolean. */
const ITEM = "\"(?:[^\"\\\\\\x00-\\x1f\\x7f]|\\\\[\"\\\\])*\"|:[A-Za-z0-9+/=]*:|[!#$%&'*+\\-.0-9A-Z^_\\x60a-z|~:/?]+";
/** A parameter: `;key` or `;key=<bare item>` (the key in group 1, the value in group 2). */
const PARAM_TEXT = ";[ ]*([a-z*][a-z0-9_\\-.*]*)(?:=(" + ITEM + "))?";

/**
 * The longest `t` (× 1000) among the members of a `RateLimit` field whose `r`
 * is 0; `undefined` when no member is at `r=0` with a `t`, or when the field is
 * not a valid list (RFC 9651: a field that does not parse is ignored whole). `r`
 * and `t` must be non-negative sf-integers (at most 15 digits).
 */
function rateLimit(v: string): number | undefined {
  // Built per call: no module-level side effect, so entry points that never call this shake it out.
  // One list member: a bare item and its parameters (group 1), then the end or a comma (group 2).
  const MEMBER = new RegExp("[ \\t]*(?:" + ITEM + ")((?:" + PARAM_TEXT.replace(/\((?!\?)/g, "(?:") + ")*)[ \\t]*(,|$)", "y");
  const PARAM = new RegExp(PARAM_TEXT, "g");
  let best: number | undefined;
  for (;;) {
    const at = MEMBER.lastIndex;
    const m = MEMBER.exec(v);
    if (!m || (m[2] === "" && MEMBER.lastIndex !== v.length) || (m[2] === "," && MEMBER.lastIndex === v.length)) return undefined;
    let r: string | undefined;
    let t: string | undefined;
    for (const [, key, value] of (m[1] as string).matchAll(PARAM)) {
      if (key === "r") r = value;
      if (key === "t") t = value;
    }
    const ok = (x: string | undefined) => x === undefined || /^\d{1,15}$/.test(x);
    if (!ok(r) || !ok(t)) return undefined;
    if (r !== undefined && +r === 0 && t !== undefined) best = Math.max(best ?? 0, +t * 1000);
    if (m[2] === "" || MEMBER.lastIndex === at) return best;
  }
}

/**
 * The wait a rate-limit field value asks for at `now` (ms since the epoch):
 * `field` 0 = `RateLimit`, 1 = `RateLimit-Reset`, 2 = `X-RateLimit-Reset`;
 * `undefined` when malformed or when no wait is asked.
 * @internal
 */
export function rateLimitWaitMs(value: string, field: number, now: number): number | undefined {
  if (field === 0) return rateLimit(value);
  const ms = seconds(value);
  if (ms === undefined || field === 1 || ms < EPOCH_SECONDS_FROM * 1000) return ms;
  return Math.max(ms - now, 0);
}
