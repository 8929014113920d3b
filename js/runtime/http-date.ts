/**
 * `Retry-After` (RFC 9110 §10.2.3): `HTTP-date / delay-seconds`, read in JavaScript.
 *
 * The same grammar and answers as the Rust crate's `core::http_date` (which the native
 * API keeps): a test replays vectors the Rust parser writes (tests/retry/http-date-vectors.json,
 * checked by `cargo test` against the Rust parser) through this one. It lives here rather
 * than in the wasm because only the retry runtime reads the field, while every entry point
 * loads the wasm (docs/ARCHITECTURE.md, "Where JavaScript still decides").
 *
 * The three HTTP-date layouts, byte for byte: IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`,
 * asctime `Sun Nov  6 08:49:37 1994` (GMT), RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`
 * (the two-digit year is the one in `[now − 49, now + 50]` years, RFC 9110 §5.6.7).
 * Names are case-sensitive, only the zone `GMT`, exact spacing, second 60 refused, a day
 * that does not exist refused, a valid day name that is not the date's accepted, any
 * four-digit year (before 1970 too) accepted.
 * @internal
 * @module
 */

import { HTTP_LAYOUTS as LAYOUTS, HTTP_LONG_DAYS as LONG_DAYS, HTTP_MONTHS as MONTHS, HTTP_SHORT_DAYS as SHORT_DAYS } from "../engine/boundary.js";

// The names and layouts are the Rust parser's tables, generated into js/engine/boundary.ts. A layout is a
// template: `w` a short day name, `l` a long one, `m` a month name, `0`–`5` one digit of field 0 day,
// 2 year, 3 hour, 4 minute, 5 second (most significant first; field 1 is the month), `_` SP or a digit
// of the day, any other character itself.

/** Days in 400 Gregorian years. */
const CYCLE_DAYS = 146_097;

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  return era * CYCLE_DAYS + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** Days in `month` (1–12) of `year`. */
function monthDays(year: number, month: number): number {
  if (month === 2) return year % (year % 100 === 0 ? 400 : 4) === 0 ? 29 : 28;
  return 30 + ((month ^ (month >> 3)) & 1);
}

/** The year ending in `yy` within `[nowYear - 49, nowYear + 50]`. */
function rfc850Year(yy: number, nowYear: number): number {
  const y = nowYear - (((nowYear % 100) + 100) % 100) + yy;
  return y > nowYear + 50 ? y - 100 : y <= nowYear - 50 ? y + 100 : y;
}

/** `s` matched against one of the layouts as ms since the epoch, or `undefined`. */
function layoutMs(s: string, layout: string, now: number): number | undefined {
  // Day, month, year, hour, minute, second.
  const field = [0, 0, 0, 0, 0, 0];
  let at = 0;
  for (const c of layout) {
    if (at >= s.length) return undefined;
    const u = s[at] as string;
    if (c === "w" || c === "l") {
      const name = (c === "w" ? SHORT_DAYS : LONG_DAYS).find((d) => s.startsWith(d, at));
      if (name === undefined) return undefined;
      at += name.length;
    } else if (c === "m") {
      let i = 0;
      while (i < 12 && !s.startsWith(MONTHS.slice(3 * i, 3 * i + 3), at)) i++;
      if (i === 12) return undefined;
      field[1] = i + 1;
      at += 3;
    } else if (c === "_" || (c >= "0" && c <= "5")) {
      const d = c === "_" && u === " " ? 0 : u >= "0" && u <= "9" ? u.charCodeAt(0) - 48 : -1;
      if (d < 0) return undefined;
      const i = c === "_" ? 0 : c.charCodeAt(0) - 48;
      field[i] = (field[i] as number) * 10 + d;
      at++;
    } else if (u === c) {
      at++;
    } else {
      return undefined;
    }
  }
  if (at !== s.length) return undefined;
  let [day, month, year, hour, minute, second] = field as [number, number, number, number, number, number];
  if (layout[0] === "l") {
    if (Math.abs(now) > 8.64e15) return undefined;
    year = rfc850Year(year, new Date(now).getUTCFullYear());
    if (year < 0 || year > 9999) return undefined;
  }
  if (day < 1 || day > monthDays(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  return (daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second) * 1_000;
}

/** Whether a code unit is optional whitespace: SP or HTAB (RFC 9110 §5.6.3). */
function isOws(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * `value` without the optional whitespace (SP, HTAB) around it: one pass from each end, so time
 * linear in the length whatever the value holds.
 * @internal
 */
export function trimOws(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isOws(value.charCodeAt(start))) start++;
  while (end > start && isOws(value.charCodeAt(end - 1))) end--;
  return value.slice(start, end);
}

/**
 * delay-seconds (`1*DIGIT`, RFC 9110 §10.2.3) with optional whitespace around it, in ms
 * (`Number` of the digits × 1000, so a very long one is `Infinity`); `undefined` for anything
 * else. One pass over the value.
 * @internal
 */
export function delaySecondsMs(value: string): number | undefined {
  const v = trimOws(value);
  if (v.length === 0) return undefined;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  return Number(v) * 1000;
}

/**
 * The wait a `Retry-After` field value asks for at `now` (ms since the epoch), in ms:
 * delay-seconds × 1000 (`Number` of the digits, so a very long one is `Infinity`), or an
 * HTTP-date minus `now` (0 when it is past); `undefined` for anything else (empty text, a
 * sign, a decimal point, another layout) or a non-finite `now`. SP and HTAB around the
 * value are ignored. Time linear in the value's length: no regular expression, each layout
 * read once from the start.
 * @internal
 */
export function retryAfterValueMs(value: string, now: number): number | undefined {
  if (!Number.isFinite(now)) return undefined;
  const seconds = delaySecondsMs(value);
  if (seconds !== undefined) return seconds;
  const v = trimOws(value);
  for (const layout of LAYOUTS) {
    const t = layoutMs(v, layout, now);
    if (t !== undefined) return Math.max(t - now, 0);
  }
  return undefined;
}
