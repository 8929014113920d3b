// Limits that keep a process alive: a materialised schedule is at most a million
// waits (the originals hang or crash the process there); iteration is unbounded.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Backoff, nextDelayMs, retrySchedule, totalRetryWindowMs, scheduleSvg } from "../../pkg/dist/esm/index.js";

test("retrySchedule/totalRetryWindowMs refuse more than 1 000 001 attempts with a SigilError", () => {
  for (const maxAttempts of [1_000_002, 1e9, 2 ** 53]) {
    assert.throws(() => retrySchedule({ maxAttempts }), { name: "SigilError", code: "invalid_argument", message: /^maxAttempts must be an integer from 1 to 1000001/ });
    assert.throws(() => totalRetryWindowMs({ maxAttempts }), { name: "SigilError" });
  }
  assert.equal(retrySchedule({ maxAttempts: 1_000_001, maxDelayMs: 1 }).length, 1_000_000);
});

test("schedule()/totalMs() refuse more than 1 000 001 attempts; iteration and delay() do not", () => {
  const huge = Backoff.exponential(100).cap("1 minute").maxAttempts(2 ** 53);
  assert.equal(huge.attempts, 2 ** 53);
  assert.throws(() => huge.schedule(), { name: "RangeError", message: /^maxAttempts must be an integer from 1 to 1000001 .*; received 9007199254740992$/ });
  assert.throws(() => huge.totalMs(), RangeError);
  const first = [];
  for (const d of huge) {
    first.push(d);
    if (first.length === 3) break;
  }
  assert.deepEqual(first, [100, 200, 400]);
  assert.equal(huge.delay(2 ** 53 - 1), 60_000);
});

test("scheduleSvg of astronomically long waits draws a bounded number of ticks", () => {
  const svg = scheduleSvg(Backoff.fixed(1e308).maxAttempts(3));
  assert.ok(svg.length < 20_000 && !/NaN|Infinity/.test(svg));
});

test("nextDelayMs at attempts where attempt + 1 === attempt (2^53 and beyond) returns the ceiling at once", () => {
  for (const attempt of [2 ** 53, 2 ** 53 + 2, 1e300, Number.MAX_VALUE]) {
    assert.equal(nextDelayMs(attempt), 3_600_000, String(attempt));
    assert.equal(nextDelayMs(attempt, { jitter: 0.5, random: () => 1 }), 1_800_000, String(attempt));
  }
});
