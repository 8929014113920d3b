// Every policy is computed in one wasm register. A policy's waits must not change because of
// what another call did there meanwhile: a compile whose options fail a later check (after
// the curve was written), or a caller's `random` that computes another policy mid-draw.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBackoff } from "../../pkg/dist/esm/backoff.js";
import { Backoff } from "../../pkg/dist/esm/policy.js";
import { nextDelayMs } from "../../pkg/dist/esm/sigil.js";
import { retry } from "../../pkg/dist/esm/retry.js";

const half = () => 0.5;
const throwsRange = (f) => assert.throws(f, RangeError);

test("a createBackoff call that fails after its curve was checked leaves a loaded policy's waits as they were", () => {
  const policy = createBackoff({ base: 100, max: 1e6, jitter: "full", random: half });
  assert.equal(policy.delay(3), 200);
  throwsRange(() => createBackoff({ base: 77_777, factor: 3, jitter: 7 }));
  assert.equal(policy.delay(3), 200);
  throwsRange(() => createBackoff({ base: 55_555, factor: 3, maxAttempts: -1 }));
  assert.deepEqual(policy.bounds(3), { min: 0, nominal: 400, max: 400 });
  assert.equal(policy.delay(3), 200);
});

test("a fluent step or a retry call rejected for its options leaves a loaded policy's waits as they were", async () => {
  const policy = Backoff.exponential(100).jitter("full").seed("k");
  const fresh = Backoff.exponential(100).jitter("full").seed("k");
  const before = [1, 2, 3, 4, 5].map((n) => fresh.delay(n));
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => policy.delay(n)), before);
  throwsRange(() => Backoff.exponential(40_000, 3).maxAttempts(0.5));
  await assert.rejects(retry(() => 1, { base: 90_000, factor: 4, jitter: "nope" }), TypeError);
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => policy.delay(n)), before);
});

test("Sigil's nextDelayMs gives the same wait for the same options after a failed compile", () => {
  const options = { baseDelayMs: 100, jitter: 0.5, random: half };
  assert.equal(nextDelayMs(3, options), 300);
  throwsRange(() => createBackoff({ base: 55_555, factor: 3, maxAttempts: -1 }));
  assert.equal(nextDelayMs(3, options), 300);
});

test("Sigil's nextDelayMs: a random that computes another policy mid-draw does not change the next calls' waits", () => {
  let reenter = true;
  const other = createBackoff({ base: 999, max: 1e9, jitter: "full", seed: "o" });
  const random = () => {
    if (reenter) {
      nextDelayMs(3, { baseDelayMs: 7777, maxDelayMs: 50_000 });
      other.delay(7);
      createBackoff({ base: 31, factor: 3, cap: 77_777, jitter: 0.3, seed: 1 });
    }
    return 0.5;
  };
  const options = { baseDelayMs: 100, jitter: 0.5, random };
  // 200 × (1 − 0.5 × 0.5) + … : the same as options with a plain `random` returning 0.5.
  const expected = nextDelayMs(2, { baseDelayMs: 100, jitter: 0.5, random: () => 0.5 });
  assert.equal(expected, 150);
  assert.equal(nextDelayMs(2, options), expected);
  reenter = false;
  assert.equal(nextDelayMs(2, options), expected);
  assert.equal(nextDelayMs(2, options), expected);
});
