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

test("decorrelated jitter: a whole schedule is at most 1 001 attempts (wait n replays min(n, 1000) draws); totalBounds() draws nothing and keeps the million", () => {
  const p = Backoff.exponential(100).cap(30_000).jitter("decorrelated").seed("s");
  const message = "maxAttempts must be an integer from 1 to 1001 for a whole decorrelated schedule (iterate the policy for longer ones); received 1002";
  assert.throws(() => p.maxAttempts(1002).schedule(), { name: "RangeError", message });
  assert.throws(() => p.maxAttempts(1002).totalMs(), { name: "RangeError", message });
  assert.throws(() => p.maxAttempts(1_000_002).totalBounds(), { name: "RangeError", message: /^maxAttempts must be an integer from 1 to 1000001 for a whole schedule/ });
  const thousand = p.maxAttempts(1001);
  const waits = thousand.schedule();
  assert.equal(waits.length, 1000);
  assert.deepEqual(waits, Array.from({ length: 1000 }, (_, i) => p.delay(i + 1)), "the schedule is delay(1) … delay(1000)");
  // Bounds of wait n: [base, min(cap, base·3^n)] — 300, 900, 2700, 8100, 24300, then the cap.
  assert.deepEqual(p.maxAttempts(7).totalBounds(), { min: 600, max: 36_300 + 30_000 });
  assert.deepEqual(p.maxAttempts(1_000_001).totalBounds(), { min: 100 * 1_000_000, max: 36_300 + 30_000 * 999_995 });
  // The other jitters keep the million.
  assert.equal(Backoff.exponential(100).cap(30_000).jitter(0.5).seed("s").maxAttempts(1_000_001).schedule().length, 1_000_000);
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
