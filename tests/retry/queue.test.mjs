// queueRetryDelaySeconds(): whole seconds for Cloudflare Queues' message.retry({ delaySeconds }).
import { test } from "node:test";
import assert from "node:assert/strict";
import { queueRetryDelaySeconds } from "../../pkg/dist/esm/retry.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";

test("ceil(policy.delay(attempts) / 1000) for the message's attempts count", () => {
  const policy = Backoff.exponential("1 second");
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => queueRetryDelaySeconds(policy, n)), [1, 2, 4, 8, 16]);
  assert.equal(queueRetryDelaySeconds(Backoff.exponential(1500), 1), 2);
  assert.equal(queueRetryDelaySeconds(Backoff.exponential(1500), 2), 3);
  assert.equal(queueRetryDelaySeconds(1, 1), 1);
  assert.equal(queueRetryDelaySeconds(0, 1), 0);
  assert.equal(queueRetryDelaySeconds("30 seconds", 7), 30);
  assert.equal(queueRetryDelaySeconds(Backoff.fixed("1 minute").free(2), 2), 0);
});

test("clamped to 43 200 s (12 hours), Queues' ceiling", () => {
  const policy = Backoff.exponential("1 second");
  assert.equal(queueRetryDelaySeconds(policy, 16), 32_768);
  assert.equal(queueRetryDelaySeconds(policy, 17), 43_200);
  assert.equal(queueRetryDelaySeconds(policy, 5000), 43_200); // Infinity
  assert.equal(queueRetryDelaySeconds("12 hours", 1), 43_200);
  assert.equal(queueRetryDelaySeconds(43_200_001, 1), 43_200);
  assert.equal(queueRetryDelaySeconds("1 day", 1), 43_200);
});

test("the policy's maxAttempts does not limit it (Queues' max_retries does)", () => {
  assert.equal(queueRetryDelaySeconds(Backoff.exponential("1 second").maxAttempts(2), 4), 8);
});

test("a jittered policy draws once", () => {
  let draws = 0;
  const policy = Backoff.fixed(10_000).jitter(0.5).random(() => (draws++, 0.999));
  assert.equal(queueRetryDelaySeconds(policy, 3), 15);
  assert.equal(draws, 1);
});

test("bad arguments throw, naming the argument and the value", () => {
  assert.throws(() => queueRetryDelaySeconds(1000, 0), { name: "RangeError", message: "attempts must be an integer >= 1 (message.attempts); received 0" });
  assert.throws(() => queueRetryDelaySeconds(1000, 1.5), { name: "RangeError", message: "attempts must be an integer >= 1 (message.attempts); received 1.5" });
  assert.throws(() => queueRetryDelaySeconds(1000, NaN), { name: "RangeError", message: "attempts must be an integer >= 1 (message.attempts); received NaN" });
  assert.throws(() => queueRetryDelaySeconds(1000, "1"), { name: "TypeError", message: 'attempts must be an integer >= 1 (message.attempts); received "1"' });
  // Any integer >= 1, as the message says (2^53 and beyond were refused with that message).
  assert.equal(queueRetryDelaySeconds(1000, 2 ** 53), 1);
  assert.equal(queueRetryDelaySeconds(Backoff.exponential(1000).cap("1 hour"), 1e300), 3600);
  assert.throws(() => queueRetryDelaySeconds(1000, Infinity), { name: "RangeError", message: "attempts must be an integer >= 1 (message.attempts); received Infinity" });
  assert.throws(() => queueRetryDelaySeconds(null, 1), { name: "TypeError", message: "policy must be a Backoff, a number of ms or duration text; received null" });
  assert.throws(() => queueRetryDelaySeconds("soon", 1), { name: "RangeError" });
});
