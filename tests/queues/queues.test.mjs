// backoff-wasm/queues without an engine: exact seconds and ms, keying, the options, errors.
// (The engines themselves: workerd.test.mjs and bullmq.test.mjs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { retryMessage, bullmqBackoff } from "../../pkg/dist/esm/queues.js";
import * as root from "../../pkg/dist/esm/index.js";
import { Backoff, createBackoff } from "../../pkg/dist/esm/backoff.js";
import { createRandom } from "../../pkg/dist/esm/random.js";

const require = createRequire(import.meta.url);

/** A stand-in for a Queues message that records what was asked of it. */
function message(id, attempts) {
  const calls = [];
  return { id, attempts, timestamp: new Date(0), body: null, calls, retry: (o) => calls.push(["retry", o]), ack: () => calls.push(["ack"]) };
}

test("every entry point exports the same functions", () => {
  assert.equal(root.retryMessage, retryMessage);
  assert.equal(root.bullmqBackoff, bullmqBackoff);
  const cjs = require("../../pkg/dist/cjs/queues.js");
  assert.deepEqual(Object.keys(cjs).sort(), ["bullmqBackoff", "retryMessage"]);
  const m = message("m", 3);
  assert.equal(cjs.retryMessage(m, Backoff.exponential("1 second")), 4); // a policy of the ESM copy
  assert.deepEqual(m.calls, [["retry", { delaySeconds: 4 }]]);
});

test("retryMessage: ceil(delay(message.attempts) / 1000), at most 43 200, returned and passed to retry", () => {
  const p = Backoff.exponential("1 second");
  for (const [attempts, s] of [[1, 1], [2, 2], [3, 4], [10, 512], [16, 32768], [17, 43200], [2000, 43200]]) {
    const m = message("x", attempts);
    assert.equal(retryMessage(m, p), s, `attempts ${attempts}`);
    assert.deepEqual(m.calls, [["retry", { delaySeconds: s }]]);
  }
  const m = message("x", 2);
  assert.equal(retryMessage(m, 1500), 2); // a plain duration is a fixed policy
  assert.equal(retryMessage(m, "250ms"), 1); // rounded up: never earlier than the policy
  assert.equal(retryMessage(m, Backoff.fixed(0)), 0);
  assert.equal(retryMessage(message("x", 2), Backoff.fixed("10s").free(2)), 0); // a free attempt
  assert.equal(retryMessage(message("x", 3), Backoff.fixed("10s").free(2)), 10);
});

test("retryMessage keys a jittered policy by message.id: policy.seed(message.id).delay(message.attempts)", () => {
  const p = Backoff.exponential("10 seconds").cap("1 hour").jitter(0.5);
  const ids = ["a", "b", "c", "0f3c9d2e41b7a58c", "message-5"];
  const got = ids.map((id) => [1, 2, 3, 4].map((n) => retryMessage(message(id, n), p)));
  assert.deepEqual(got, ids.map((id) => [1, 2, 3, 4].map((n) => Math.ceil(p.seed(id).delay(n) / 1000))));
  // The same in any order and on any copy: a pure function of (id, attempts).
  assert.deepEqual([4, 3, 2, 1].map((n) => retryMessage(message("a", n), p)), [...got[0]].reverse());
  // Pinned values (createRandom("a 1"), …): they change only if the keyed draw changes.
  assert.deepEqual([1, 2, 3, 4].map((n) => p.seed("a").delay(n)), [7912, 10852, 45108, 95132]);
  assert.deepEqual(got[0], [8, 11, 46, 96]);
  assert.equal(p.seed("a").delay(1), Math.round(10_000 * (0.5 + createRandom("a 1").next())));
  // Different messages spread apart.
  assert.ok(new Set(got.map((g) => g[3])).size > 1);
  // Every jitter kind, decorrelated included.
  for (const kind of ["full", "equal", "decorrelated", 0.1]) {
    const q = Backoff.exponential("1 second").cap("1 hour").jitter(kind);
    assert.equal(retryMessage(message("k", 5), q), Math.ceil(q.seed("k").delay(5) / 1000), String(kind));
  }
  // A numeric id keys too.
  assert.equal(retryMessage(message(42, 2), p), Math.ceil(p.seed(42).delay(2) / 1000));
});

test("retryMessage leaves a policy's own seed or random alone, and needs no id without jitter", () => {
  const seeded = Backoff.exponential("10 seconds").jitter(0.5).seed("fleet");
  assert.equal(retryMessage(message("a", 3), seeded), Math.ceil(seeded.delay(3) / 1000));
  assert.equal(retryMessage(message("b", 3), seeded), Math.ceil(seeded.delay(3) / 1000));
  const draws = [];
  const random = () => (draws.push(1), 0.25);
  const own = createBackoff({ base: 10_000, jitter: 0.5, random });
  assert.equal(retryMessage(message("a", 1), own), 8); // round(10000 * (0.5 + 0.25)) / 1000 = 7.5 → 8
  assert.equal(draws.length, 1);
  const plain = Backoff.exponential("1 second");
  assert.equal(retryMessage({ attempts: 2, retry() {}, ack() {} }, plain), 2);
  assert.equal(retryMessage({ attempts: 2, retry() {}, ack() {} }, plain.jitter(0)), 2);
});

test("retryMessage: retryAfter is a floor in whole seconds, within 43 200", () => {
  const p = Backoff.exponential("1 second");
  const now = Date.now();
  const cases = [
    ["120", 120], ["0", 1], [null, 1], [undefined, 1], ["soon", 1], [new Headers({ "retry-after": "30" }), 30],
    [new Response("x", { status: 503, headers: { "retry-after": "7" } }), 7], [new Response("x", { status: 503 }), 1],
    [{ "retry-after": "9" }, 9], ["999999", 43200], [new Date(now + 61_500).toUTCString(), [61, 62]],
  ];
  for (const [retryAfter, s] of cases) {
    const m = message("x", 1);
    const got = retryMessage(m, p, { retryAfter });
    if (Array.isArray(s)) assert.ok(s.includes(got), `${retryAfter} → ${got}`);
    else assert.equal(got, s, String(retryAfter));
    assert.deepEqual(m.calls, [["retry", { delaySeconds: got }]]);
  }
  assert.equal(retryMessage(message("x", 8), p, { retryAfter: "5" }), 128); // the policy's wait is longer
});

test("retryMessage: a Retry-After too long for a number (hundreds of digits, read as Infinity) is the 43 200 s ceiling, not an error", () => {
  const p = Backoff.exponential("1 second");
  const huge = "9".repeat(400);
  for (const retryAfter of [huge, new Headers({ "retry-after": huge }), new Response("x", { status: 503, headers: { "retry-after": huge } }), { "retry-after": huge }]) {
    const m = message("x", 1);
    assert.equal(retryMessage(m, p, { retryAfter }), 43200);
    assert.deepEqual(m.calls, [["retry", { delaySeconds: 43200 }]]);
  }
  // Jittered and keyed by the id: the floor still wins.
  const m = message("k", 2);
  assert.equal(retryMessage(m, p.jitter(0.5), { retryAfter: huge }), 43200);
  assert.deepEqual(m.calls, [["retry", { delaySeconds: 43200 }]]);
});

test("retryMessage onExhausted: retry (default) or ack once message.attempts reaches maxAttempts", () => {
  const p = Backoff.exponential("1 second").maxAttempts(3);
  for (const [attempts, retry, ack] of [[1, 1, 1], [2, 2, 2], [3, 4, undefined], [4, 8, undefined]]) {
    const a = message("x", attempts);
    assert.equal(retryMessage(a, p), retry);
    assert.equal(retryMessage(a, p, { onExhausted: "retry" }), retry);
    const b = message("x", attempts);
    assert.equal(retryMessage(b, p, { onExhausted: "ack" }), ack);
    assert.deepEqual(b.calls, ack === undefined ? [["ack"]] : [["retry", { delaySeconds: ack }]]);
  }
  // Without maxAttempts the policy is never spent.
  const m = message("x", 1000);
  assert.equal(retryMessage(m, Backoff.fixed("1s"), { onExhausted: "ack" }), 1);
});

test("retryMessage: bad arguments throw the package's errors, naming what was wrong, and call nothing", () => {
  const p = Backoff.exponential("1 second").jitter(0.5);
  const cases = [
    [() => retryMessage(undefined, p), TypeError, "message must be a Queues message (with retry and ack methods); received undefined"],
    [() => retryMessage({ attempts: 1, ack() {} }, p), TypeError, "message must be a Queues message (with retry and ack methods); received an object"],
    [() => retryMessage(message("x", 0), p), RangeError, "message.attempts must be an integer >= 1; received 0"],
    [() => retryMessage(message("x", 1.5), p), RangeError, "message.attempts must be an integer >= 1; received 1.5"],
    [() => retryMessage(message("x", "2"), p), TypeError, 'message.attempts must be an integer >= 1; received "2"'],
    [() => retryMessage(message(undefined, 1), p), TypeError, "message.id must be a string or number (the key of the policy's jitter); received undefined"],
    [() => retryMessage(message("x", 1), {}), TypeError, "policy must be a Backoff, a number of ms or duration text; received an object"],
    [() => retryMessage(message("x", 1), -5), RangeError, /-5/],
    [() => retryMessage(message("x", 1), p, "ack"), TypeError, 'options must be an object; received "ack"'],
    [() => retryMessage(message("x", 1), p, { onExhausted: "drop" }), TypeError, 'onExhausted must be "retry" or "ack"; received "drop"'],
    [() => retryMessage(message("x", 1), p, { retryAfterMs: 5 }), TypeError, 'option must be one of retryAfter, onExhausted; received "retryAfterMs"'],
    [() => retryMessage(message("x", 1), p, { retryAfter: 5 }), TypeError, "retryAfter must be a Retry-After value, Headers or a Response; received 5"],
  ];
  for (const [fn, cls, text] of cases) {
    assert.throws(fn, (e) => e instanceof cls && (typeof text === "string" ? e.message === text : text.test(e.message)), String(text));
  }
});

test("bullmqBackoff: policy.delay(attemptsMade) in whole ms, keyed by job.id; -1 once maxAttempts is spent", () => {
  const plain = bullmqBackoff(Backoff.exponential("500ms").cap("1 minute"));
  assert.deepEqual([1, 2, 3, 4, 8, 9, 50].map((n) => plain(n, "custom", new Error("x"), { id: "1" })), [500, 1000, 2000, 4000, 60000, 60000, 60000]);
  assert.equal(plain(1), 500); // no job needed without jitter
  assert.equal(bullmqBackoff(1.25)(1), 2); // rounded up
  assert.equal(bullmqBackoff("2s")(7, "webhook"), 2000); // any custom type
  assert.equal(bullmqBackoff(Backoff.fixed("1s").free(1))(1), 0); // a free attempt: retried at once
  assert.equal(bullmqBackoff(Backoff.exponential(1, 10))(400), -1); // an endless wait: no retry

  const policy = Backoff.exponential("500ms").cap("1 minute").jitter(0.5).maxAttempts(4);
  const strategy = bullmqBackoff(policy);
  for (const id of ["1", "2", "job-77", "x".repeat(300)]) {
    assert.deepEqual([1, 2, 3].map((n) => strategy(n, "custom", undefined, { id })), [1, 2, 3].map((n) => policy.seed(id).delay(n)));
    if (id === "1") assert.deepEqual([1, 2, 3].map((n) => strategy(n, "custom", undefined, { id })), [708, 989, 2799]);
    assert.equal(strategy(4, "custom", undefined, { id }), -1);
    assert.equal(strategy(5, "custom", undefined, { id }), -1);
  }
  // Two strategies (two workers) from two equal policies agree.
  const other = bullmqBackoff(Backoff.exponential(500).cap(60_000).jitter(0.5).maxAttempts(4));
  assert.deepEqual([1, 2, 3].map((n) => other(n, "custom", undefined, { id: "9" })), [1, 2, 3].map((n) => strategy(n, "custom", undefined, { id: "9" })));
  // A policy's own seed is kept.
  const seeded = Backoff.fixed(1000).jitter(0.5).seed("s");
  assert.equal(bullmqBackoff(seeded)(2, "custom", undefined, { id: "1" }), seeded.delay(2));
  assert.equal(bullmqBackoff(seeded)(2, "custom", undefined, { id: "1", queueName: "a" }), seeded.delay(2));
});

test("bullmqBackoff keys by queue name and id: job 1 of two queues waits differently, each as policy.seed(`${queueName}:${id}`)", () => {
  const policy = Backoff.exponential("500ms").cap("1 minute").jitter(0.5).maxAttempts(4);
  const strategy = bullmqBackoff(policy);
  const waits = (job) => [1, 2, 3].map((n) => strategy(n, "custom", undefined, job));
  const emails = waits({ id: "1", queueName: "emails" });
  const webhooks = waits({ id: "1", queueName: "webhooks" });
  assert.deepEqual(emails, [1, 2, 3].map((n) => policy.seed("emails:1").delay(n)));
  assert.deepEqual(webhooks, [1, 2, 3].map((n) => policy.seed("webhooks:1").delay(n)));
  assert.notDeepEqual(emails, webhooks);
  assert.deepEqual(waits({ id: 1, queueName: "emails" }), emails); // a number id as its text
  assert.throws(() => strategy(1, "custom", undefined, { id: "1", queueName: 7 }), { name: "TypeError", message: "job.queueName must be a string; received 7" });
  assert.throws(() => strategy(1, "custom", undefined, { queueName: "emails" }), { name: "TypeError", message: "job.id must be a string or number (the key of the policy's jitter); received undefined" });
});

test("a -0 wait (a -0 base) is 0 ms for BullMQ and 0 s for Queues, never -0", async () => {
  const { queueRetryDelaySeconds } = await import("../../pkg/dist/esm/retry.js");
  const sign = (x) => (Object.is(x, -0) ? "-0" : String(x));
  const policies = [
    createBackoff({ base: -0 }),
    createBackoff({ base: 0, max: -0 }),
    createBackoff({ base: -0, growth: "constant", maxAttempts: 5 }),
    createBackoff({ base: -0, jitter: 0.2 }), // keyed by the job's or message's id
  ];
  // The policies themselves wait -0, as the originals do.
  assert.deepEqual(policies.map((p) => sign(p.seed("1").delay(2))), ["-0", "-0", "-0", "-0"]);
  assert.deepEqual(policies.map((p) => sign(bullmqBackoff(p)(2, "custom", undefined, { id: "1" }))), ["0", "0", "0", "0"]);
  assert.deepEqual(policies.map((p) => sign(queueRetryDelaySeconds(p, 2))), ["0", "0", "0", "0"]);
  for (const p of policies) {
    const m = message("1", 2);
    assert.equal(sign(retryMessage(m, p)), "0");
    assert.equal(sign(m.calls[0][1].delaySeconds), "0");
    const floored = message("1", 2);
    assert.equal(sign(retryMessage(floored, p, { retryAfter: "0" })), "0");
    assert.equal(sign(floored.calls[0][1].delaySeconds), "0");
  }
});

test("bullmqBackoff: bad arguments throw the package's errors", () => {
  assert.throws(() => bullmqBackoff({ base: 1 }), { name: "TypeError", message: "policy must be a Backoff, a number of ms or duration text; received an object" });
  assert.throws(() => bullmqBackoff(undefined), TypeError);
  const s = bullmqBackoff(Backoff.fixed(1000).jitter(0.5));
  assert.throws(() => s(0, "custom", undefined, { id: "1" }), { name: "RangeError", message: "attemptsMade must be an integer >= 1; received 0" });
  assert.throws(() => s(NaN, "custom", undefined, { id: "1" }), { name: "RangeError", message: "attemptsMade must be an integer >= 1; received NaN" });
  assert.throws(() => s("1", "custom", undefined, { id: "1" }), { name: "TypeError", message: 'attemptsMade must be an integer >= 1; received "1"' });
  assert.throws(() => s(1, "custom", undefined, {}), { name: "TypeError", message: "job.id must be a string or number (the key of the policy's jitter); received undefined" });
  assert.throws(() => s(1), { name: "TypeError", message: "job.id must be a string or number (the key of the policy's jitter); received undefined" });
  // Any integer >= 1, as the message says: attempts beyond 2^53 get the policy's wait (keyed by job.id).
  const keyed = Backoff.exponential(1000).cap("1 minute").jitter(0.5).seed("s");
  assert.equal(bullmqBackoff(Backoff.fixed(1000))(2 ** 53, "custom", undefined, { id: "1" }), 1000);
  const far = bullmqBackoff(keyed)(1e300, "custom", undefined, { id: "7" });
  assert.ok(far >= 30_000 && far <= 60_000, String(far));
  assert.equal(bullmqBackoff(keyed)(1e300, "custom", undefined, { id: "7" }), far);
  assert.throws(() => s(Infinity, "custom", undefined, { id: "1" }), { name: "RangeError", message: "attemptsMade must be an integer >= 1; received Infinity" });
});
