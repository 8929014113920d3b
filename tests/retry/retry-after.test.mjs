// retryAfterMs: RFC 9110 §10.2.3 delay-seconds and the three HTTP-date formats
// of §5.6.7; every bad form gives undefined.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { retryAfterMs } from "../../pkg/dist/esm/retry.js";

const cjs = createRequire(import.meta.url)("../../pkg/dist/cjs/retry.js");

// Sun, 29 Nov 2026 00:00:00 GMT
const NOW = Date.UTC(2026, 10, 29);

test("delay-seconds: digits only, × 1000", () => {
  assert.equal(retryAfterMs("0", NOW), 0);
  assert.equal(retryAfterMs("2", NOW), 2000);
  assert.equal(retryAfterMs("120", NOW), 120_000);
  assert.equal(retryAfterMs("007", NOW), 7000);
  assert.equal(retryAfterMs(" 120\t", NOW), 120_000); // optional whitespace around a field value
  assert.equal(retryAfterMs("2026", NOW), 2_026_000); // seconds, never a year
  assert.equal(retryAfterMs("1764374490", NOW), 1_764_374_490_000); // seconds, never a timestamp
  assert.equal(retryAfterMs("9".repeat(400), NOW), Infinity);
});

test("IMF-fixdate, RFC 850 and asctime give the same instant", () => {
  const at = Date.UTC(2026, 10, 29, 0, 1, 30); // Sun, 29 Nov 2026 00:01:30 GMT
  assert.equal(new Date(at).toUTCString(), "Sun, 29 Nov 2026 00:01:30 GMT");
  for (const value of ["Sun, 29 Nov 2026 00:01:30 GMT", "Sunday, 29-Nov-26 00:01:30 GMT", "Sun Nov 29 00:01:30 2026"]) {
    assert.equal(retryAfterMs(value, NOW), 90_000, value);
    assert.equal(retryAfterMs(value, NOW + 30_000), 60_000, value);
  }
  // asctime with a one-digit day, space-padded
  assert.equal(retryAfterMs("Tue Dec  1 00:00:00 2026", NOW), 2 * 86_400_000);
});

test("asctime has no zone and is GMT (Date.parse reads it as local time)", () => {
  assert.equal(retryAfterMs("Sun Nov 29 01:00:00 2026", NOW), 3_600_000);
});

test("a date in the past gives 0", () => {
  assert.equal(retryAfterMs("Sun, 06 Nov 1994 08:49:37 GMT", NOW), 0);
  assert.equal(retryAfterMs("Sunday, 06-Nov-94 08:49:37 GMT", NOW), 0);
  assert.equal(retryAfterMs("Sun Nov  6 08:49:37 1994", NOW), 0);
  assert.equal(retryAfterMs("Mon, 01 Jan 1900 00:00:00 GMT", NOW), 0); // before 1970: still a date
  assert.equal(retryAfterMs("Sun, 29 Nov 2026 00:00:00 GMT", NOW + 1), 0);
});

test("RFC 850 two-digit years: within 50 years of now (RFC 9110 §5.6.7)", () => {
  // 2070-01-01 (a Wednesday) is 43 years ahead of 2026: kept in the future.
  assert.equal(retryAfterMs("Wednesday, 01-Jan-70 00:00:00 GMT", NOW), Date.UTC(2070, 0, 1) - NOW);
  // 2077 would be 51 years ahead: read as 1977, in the past.
  assert.equal(retryAfterMs("Saturday, 01-Jan-77 00:00:00 GMT", NOW), 0);
  // Seen from 1990, "70" is 1970.
  assert.equal(retryAfterMs("Thursday, 01-Jan-70 00:00:10 GMT", Date.UTC(1970, 0, 1)), 10_000);
});

test("a valid but wrong day name is tolerated; an unknown one is not", () => {
  assert.equal(retryAfterMs("Mon, 29 Nov 2026 00:00:05 GMT", NOW), 5000);
  assert.equal(retryAfterMs("Fry, 29 Nov 2026 00:00:05 GMT", NOW), undefined);
});

test("every bad form gives undefined, never NaN", () => {
  for (const bad of [
    "", "   ", "-3", "+3", "1.5", "-1.5", "1e3", "0x10", "Infinity", "NaN", "soon", "120 seconds", "120, 120", "١٢٠",
    "Sun, 29 Nov 2026 00:01:30 UTC", "Sun, 29 Nov 2026 00:01:30 +0000", "sun, 29 nov 2026 00:01:30 gmt",
    "Sun, 29 Nov 26 00:01:30 GMT", "Sun, 29 Nov 2026 00:01 GMT", "Sun, 31 Nov 2026 00:01:30 GMT",
    "Sun, 29 Nov 2026 24:00:00 GMT", "Sun, 29 Nov 2026 00:00:60 GMT", "Sun,  29 Nov 2026 00:01:30 GMT",
    "Sunday, 29-Nov-2026 00:01:30 GMT", "Sunday, 29 Nov 26 00:01:30 GMT", "Sun Nov 29 00:01:30 26",
    "Sun Nov 29 00:01:30 2026 GMT", "2026-11-29T00:01:30Z", "Sün, 29 Nov 2026 00:01:30 GMT",
  ]) {
    assert.equal(retryAfterMs(bad, NOW), undefined, JSON.stringify(bad));
  }
});

test("reads Headers, a Response, a header record, anything with headers", () => {
  assert.equal(retryAfterMs(new Headers({ "Retry-After": "3" }), NOW), 3000);
  assert.equal(retryAfterMs(new Response("", { status: 503, headers: { "retry-after": "4" } }), NOW), 4000);
  assert.equal(retryAfterMs({ "retry-after": "5", "content-type": "text/plain" }, NOW), 5000); // IncomingHttpHeaders
  assert.equal(retryAfterMs({ "Retry-After": 6 }, NOW), 6000);
  assert.equal(retryAfterMs({ statusCode: 429, headers: { "retry-after": "7" } }, NOW), 7000); // IncomingMessage
  assert.equal(retryAfterMs({ headers: new Headers({ "retry-after": "Sun, 29 Nov 2026 00:00:08 GMT" }) }, NOW), 8000);
});

test("a missing header gives undefined", () => {
  assert.equal(retryAfterMs(undefined, NOW), undefined);
  assert.equal(retryAfterMs(null, NOW), undefined);
  assert.equal(retryAfterMs(new Headers(), NOW), undefined);
  assert.equal(retryAfterMs(new Response("", { status: 429 }), NOW), undefined);
  assert.equal(retryAfterMs({}, NOW), undefined);
  assert.equal(retryAfterMs({ headers: undefined }, NOW), undefined);
  // Two fields are a list, which Retry-After is not.
  const h = new Headers();
  h.append("retry-after", "1");
  h.append("retry-after", "2");
  assert.equal(retryAfterMs(h, NOW), undefined);
});

test("now defaults to Date.now()", () => {
  const inAnHour = new Date(Date.now() + 3_600_000 + 1000).toUTCString();
  const ms = retryAfterMs(inAnHour);
  assert.ok(ms > 3_599_000 && ms <= 3_601_000, String(ms));
});

test("bad arguments throw, naming the argument and the value", () => {
  assert.throws(() => retryAfterMs(120, NOW), {
    name: "TypeError",
    message: "input must be a header value (string), Headers, a Response or an object with headers; received 120",
  });
  assert.throws(() => retryAfterMs("1", "now"), { name: "TypeError", message: 'now must be a number of ms since the epoch; received "now"' });
  assert.throws(() => retryAfterMs("1", NaN), { name: "RangeError", message: "now must be a finite number of ms since the epoch; received NaN" });
});

test("a revoked Proxy or a throwing getter/get(): the package's TypeError, the engine's error as cause (ESM and CommonJS)", () => {
  const message = "input must be headers, a Response or an object with headers that can be read; received an object";
  const boom = new Error("boom");
  const { proxy, revoke } = Proxy.revocable({ headers: { "retry-after": "1" } }, {});
  revoke();
  const inputs = [
    proxy,
    { get headers() { throw boom; } },
    { headers: { get() { throw boom; } } },
    { get() { throw boom; } },
    { headers: new Proxy({}, { ownKeys() { throw boom; } }) },
    new Proxy({}, { has() { throw boom; } }),
  ];
  for (const [name, fn] of [["esm", retryAfterMs], ["cjs", cjs.retryAfterMs]]) {
    for (const input of inputs) {
      assert.throws(() => fn(input, NOW), (e) => {
        assert.ok(e instanceof TypeError, `${name}: ${e}`);
        assert.equal(e.message, message);
        assert.ok(e.cause instanceof Error, "cause kept");
        return true;
      }, name);
    }
  }
  // A well-formed input still reads as before.
  assert.equal(retryAfterMs({ headers: { "Retry-After": "3" } }, NOW), 3000);
  assert.equal(cjs.retryAfterMs({ headers: { "Retry-After": "3" } }, NOW), 3000);
});

test("a header list is read at most two values deep: a Proxy claiming 2e9 values gives undefined at once", () => {
  const N = Date.UTC(1994, 10, 6, 8, 49, 30);
  // What a real list gives is unchanged: one value, or a date split at its comma; three or more never parse.
  assert.equal(retryAfterMs({ "retry-after": ["120"] }, N), 120_000);
  assert.equal(retryAfterMs({ "retry-after": ["Sun", "06 Nov 1994 08:49:37 GMT"] }, N), 7000);
  assert.equal(retryAfterMs({ "retry-after": ["1", "2"] }, N), undefined);
  assert.equal(retryAfterMs({ "retry-after": ["Sun", "06 Nov 1994", "08:49:37 GMT"] }, N), undefined);
  assert.equal(retryAfterMs({ "retry-after": [] }, N), undefined);
  let reads = 0;
  const huge = new Proxy([], { get: (o, k) => (k === "length" ? 2e9 : (reads++, "1")) });
  for (const fn of [retryAfterMs, cjs.retryAfterMs]) assert.equal(fn({ "retry-after": huge }, N), undefined);
  assert.equal(reads, 0, "no item was read");
});
