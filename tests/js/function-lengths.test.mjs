// The exported functions and classes count their parameters (`length`) as the originals'
// do: only those before the first optional one. @sigil/core's nextDelayMs(attempt, options = {})
// has length 1 and retrySchedule/totalRetryWindowMs(options = {}) 0; SigilError(code, message) 2;
// @sdxc/random's createRandom(seed) and restoreRandom(state) 1, systemRandom() and systemSeed() 0;
// @sdxc/duration's parse(text), toMs(input), toSeconds(input), InvalidDurationError(text) 1;
// @sdxc/backoff's createBackoff(options) 1, the policy's delay(attempt) 1 and at(attempt, now) 2.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as sigil from "../../pkg/dist/esm/sigil.js";
import * as random from "../../pkg/dist/esm/random.js";
import * as duration from "../../pkg/dist/esm/duration.js";
import * as backoff from "../../pkg/dist/esm/backoff.js";

const cjs = createRequire(import.meta.url)("../../pkg/dist/cjs/sigil.js");

test("/sigil functions have the original's lengths", () => {
  for (const m of [sigil, cjs]) {
    assert.equal(m.nextDelayMs.length, 1);
    assert.equal(m.retrySchedule.length, 0);
    assert.equal(m.totalRetryWindowMs.length, 0);
    assert.equal(m.SigilError.length, 2);
  }
  // The defaults change nothing: an omitted and an undefined options argument are the defaults.
  assert.equal(sigil.nextDelayMs(3), 4000);
  assert.equal(sigil.nextDelayMs(3, undefined), 4000);
  assert.deepEqual(sigil.retrySchedule(undefined), [1000, 2000, 4000, 8000, 16000, 32000, 64000]);
  assert.equal(sigil.totalRetryWindowMs(undefined), 127000);
});

test("/random, /duration and /backoff functions have the originals' lengths", () => {
  assert.deepEqual([random.createRandom.length, random.restoreRandom.length, random.systemRandom.length, random.systemSeed.length], [1, 1, 0, 0]);
  assert.deepEqual([duration.parse.length, duration.toMs.length, duration.toSeconds.length, duration.InvalidDurationError.length], [1, 1, 1, 1]);
  assert.equal(backoff.createBackoff.length, 1);
  assert.equal(backoff.createBackoff({ base: 1 }).delay.length, 1);
});

test("a policy's at(attempt, now) has length 2, as @sdxc/backoff's, and now still defaults to Date.now()", () => {
  const policy = backoff.createBackoff({ base: 1000 });
  assert.equal(policy.at.length, 2);
  assert.equal(backoff.Backoff.fixed(5).at.length, 2);
  assert.equal(policy.at(3, 1700000000000), 1700000004000);
  const before = Date.now();
  const at = policy.at(1);
  assert.ok(at >= before + 1000 && at <= Date.now() + 1000);
  assert.ok(policy.at(1, undefined) >= before + 1000);
  assert.throws(() => policy.at(1, "5"), TypeError);
});
