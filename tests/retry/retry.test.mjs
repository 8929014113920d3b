// retry(): the schedule of waits (fake timers, exact delays in order), the attempt
// budget, shouldRetry/onRetry, abort, Retry-After carried by errors, validation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { retry, RetryError } from "../../pkg/dist/esm/retry.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";
import { createRandom } from "../../pkg/dist/esm/random.js";

/** Lets every pending promise reaction run (setImmediate is not faked). */
const flush = () => new Promise((resolve) => setImmediate(resolve));

function fakeTime(t, now = 0) {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now });
}

/** An operation that fails `failures` times (recording the time of each call), then resolves "done". */
function flaky(failures, makeError = (attempt) => new Error(`failure ${attempt}`)) {
  const calls = [];
  const fn = (ctx) => {
    calls.push({ at: Date.now(), ...ctx });
    if (ctx.attempt <= failures) throw makeError(ctx.attempt);
    return "done";
  };
  return { fn, calls };
}

/** Asserts that the next attempt comes exactly `ms` after now: not at ms - 1, at ms. */
async function expectWait(t, calls, ms) {
  const before = calls.length;
  if (ms > 0) {
    t.mock.timers.tick(ms - 1);
    await flush();
    assert.equal(calls.length, before, `attempt ${before + 1} came before ${ms} ms`);
  }
  t.mock.timers.tick(ms > 0 ? 1 : 0);
  await flush();
  assert.equal(calls.length, before + 1, `attempt ${before + 1} did not come at ${ms} ms`);
}

test("waits policy.delay(n) after the n-th failure, exactly and in order", async (t) => {
  fakeTime(t);
  const { fn, calls } = flaky(4);
  const events = [];
  const p = retry(fn, Backoff.exponential(100).cap(500).maxAttempts(5), {
    onRetry: ({ attempt, delay, error }) => events.push([attempt, delay, error.message]),
  });
  await flush();
  assert.equal(calls.length, 1);
  for (const ms of [100, 200, 400, 500]) await expectWait(t, calls, ms);
  assert.equal(await p, "done");
  assert.deepEqual(calls.map((c) => [c.attempt, c.at]), [[1, 0], [2, 100], [3, 300], [4, 700], [5, 1200]]);
  assert.deepEqual(events, [[1, 100, "failure 1"], [2, 200, "failure 2"], [3, 400, "failure 3"], [4, 500, "failure 4"]]);
});

test("a jittered policy: the waits are its delays, drawn once each, in order", async (t) => {
  fakeTime(t);
  const twin = Backoff.exponential("1 second").jitter("full").random(createRandom("retry-jitter"));
  const expected = [1, 2, 3].map((n) => twin.delay(n));
  const { fn, calls } = flaky(3);
  const policy = Backoff.exponential("1 second").jitter("full").random(createRandom("retry-jitter"));
  const p = retry(fn, policy, { retries: 3 });
  await flush();
  for (const ms of expected) await expectWait(t, calls, ms);
  assert.equal(await p, "done");
});

test("a plain duration is a fixed policy", async (t) => {
  fakeTime(t);
  const { fn, calls } = flaky(2);
  const p = retry(fn, "250ms", { retries: 2 });
  await flush();
  await expectWait(t, calls, 250);
  await expectWait(t, calls, 250);
  assert.equal(await p, "done");
});

test("retries: 2 means three attempts; on exhaustion a RetryError (reason attempts) carries every error", async (t) => {
  fakeTime(t);
  const errors = [];
  const { fn, calls } = flaky(Infinity, (attempt) => {
    const e = new Error(`failure ${attempt}`);
    errors.push(e);
    return e;
  });
  const p = retry(fn, 10, { retries: 2 });
  const outcome = p.then(() => "resolved", (e) => e);
  await flush();
  await expectWait(t, calls, 10);
  await expectWait(t, calls, 10);
  const e = await outcome;
  assert.ok(e instanceof RetryError);
  assert.deepEqual([e.name, e.reason, e.attempts, e.elapsedMs, e.cause, e.errors], ["RetryError", "attempts", 3, 20, errors[2], errors]);
  assert.equal(e.message, "retry stopped (attempts) after 3 attempts in 20 ms: failure 3");
  assert.equal(calls.length, 3);
  t.mock.timers.tick(1000);
  await flush();
  assert.equal(calls.length, 3);
});

test(".maxAttempts(3) is the same budget as retries: 2", async (t) => {
  fakeTime(t);
  const { fn, calls } = flaky(Infinity);
  const outcome = retry(fn, Backoff.fixed(10).maxAttempts(3)).catch((e) => e);
  await flush();
  await expectWait(t, calls, 10);
  await expectWait(t, calls, 10);
  assert.equal((await outcome).cause.message, "failure 3");
  assert.equal(calls.length, 3);
});

test("retries: 0 and .maxAttempts(1): one attempt, no wait", async () => {
  for (const [policy, options] of [[10, { retries: 0 }], [Backoff.fixed(10).maxAttempts(1), undefined]]) {
    const { fn, calls } = flaky(Infinity);
    await assert.rejects(retry(fn, policy, options), (e) => e.reason === "attempts" && e.cause.message === "failure 1");
    assert.equal(calls.length, 1);
  }
});

test("both retries and .maxAttempts(): TypeError saying they count differently and how to keep one", async () => {
  let called = false;
  await assert.rejects(retry(() => (called = true), Backoff.exponential(100).maxAttempts(3), { retries: 2 }), {
    name: "TypeError",
    message:
      "retries must be left out when the policy sets .maxAttempts(3): the two count differently (retries counts " +
      "the attempts after the first, maxAttempts counts them all, so retries: 2 equals .maxAttempts(3)); keep one " +
      "of them: drop retries, or build the policy without .maxAttempts(); received 2",
  });
  assert.equal(called, false);
});

test("neither: RangeError (an uncapped policy would retry for ever)", async () => {
  let called = false;
  for (const policy of [Backoff.exponential(100), 100, "1 second"]) {
    await assert.rejects(retry(() => (called = true), policy), {
      name: "RangeError",
      message:
        "retries must be given (a non-negative integer, or Infinity on purpose) when the policy has no " +
        ".maxAttempts(n): an uncapped policy would retry for ever; received undefined",
    });
  }
  assert.equal(called, false);
});

test("retries: Infinity retries for ever on purpose", async (t) => {
  fakeTime(t);
  const { fn, calls } = flaky(50);
  const p = retry(fn, 1000, { retries: Infinity });
  await flush();
  for (let i = 0; i < 50; i++) await expectWait(t, calls, 1000);
  assert.equal(await p, "done");
  assert.equal(calls.length, 51);
});

test("shouldRetry false rethrows at once; it sees the error and the failed attempt; async works", async (t) => {
  fakeTime(t);
  const seen = [];
  const { fn, calls } = flaky(Infinity);
  const outcome = retry(fn, 10, {
    retries: 5,
    shouldRetry: async (error, attempt) => {
      seen.push([error.message, attempt]);
      return attempt < 2;
    },
  }).catch((e) => e);
  await flush();
  await expectWait(t, calls, 10);
  assert.deepEqual([(await outcome).reason, (await outcome).cause.message], ["not-retryable", "failure 2"]);
  assert.deepEqual(seen, [["failure 1", 1], ["failure 2", 2]]);
  assert.equal(calls.length, 2);
});

test("shouldRetry is not asked once the budget is spent; its own error is thrown", async () => {
  const asked = [];
  await assert.rejects(
    retry(() => Promise.reject(new Error("x")), 0, { retries: 0, shouldRetry: (e, n) => asked.push(n) }),
    (e) => e.reason === "attempts" && e.cause.message === "x",
  );
  assert.deepEqual(asked, []);
  const boom = new Error("shouldRetry broke");
  await assert.rejects(retry(() => { throw new Error("x"); }, 0, { retries: 3, shouldRetry: () => { throw boom; } }), boom);
});

test("fn gets { attempt, signal }; a resolved value is returned even if it looks like a failure", async () => {
  const controller = new AbortController();
  const seen = [];
  const response = new Response("busy", { status: 503, headers: { "retry-after": "5" } });
  const value = await retry((ctx) => (seen.push(ctx), response), 0, { retries: 3, signal: controller.signal });
  assert.equal(value, response);
  assert.deepEqual(seen, [{ attempt: 1, signal: controller.signal }]);
  assert.deepEqual(await retry((ctx) => ctx, 0, { retries: 0 }), { attempt: 1, signal: undefined });
});

test("an already-aborted signal never calls fn and rejects with RetryError aborted, cause its reason", async () => {
  const reason = new Error("stop");
  let called = false;
  await assert.rejects(retry(() => (called = true), 10, { retries: 3, signal: AbortSignal.abort(reason) }), (e) =>
    e instanceof RetryError && e.reason === "aborted" && e.cause === reason && e.attempts === 0);
  assert.equal(called, false);
});

test("abort during a wait rejects within one tick (RetryError aborted, cause signal.reason), and the timer is cleared", async (t) => {
  fakeTime(t);
  const controller = new AbortController();
  const { fn, calls } = flaky(Infinity);
  let settled;
  retry(fn, "1 hour", { retries: 3, signal: controller.signal }).then(
    () => (settled = "resolved"),
    (e) => (settled = e),
  );
  await flush();
  assert.equal(calls.length, 1);
  t.mock.timers.tick(1000);
  const reason = new Error("user left");
  controller.abort(reason);
  await flush(); // one macrotask turn, no timer advanced
  assert.deepEqual([settled.reason, settled.cause, settled.attempts, settled.elapsedMs], ["aborted", reason, 1, 1000]);
  t.mock.timers.tick(10 * 3_600_000);
  await flush();
  assert.equal(calls.length, 1);
});

test("a failure after the signal aborted rejects (aborted, cause signal.reason), not another attempt", async () => {
  const controller = new AbortController();
  let calls = 0;
  await assert.rejects(
    retry(() => {
      calls++;
      controller.abort("cancelled");
      throw new Error("aborted work");
    }, 0, { retries: 5, signal: controller.signal }),
    (e) => e.reason === "aborted" && e.cause === "cancelled" && e.errors[0].message === "aborted work",
  );
  assert.equal(calls, 1);
});

/** An error as HTTP clients throw it: the response rides on `error.response`. */
function httpError(status, retryAfter) {
  const headers = retryAfter === undefined ? {} : { "retry-after": retryAfter };
  return Object.assign(new Error(`HTTP ${status}`), { response: new Response("", { status, headers }) });
}

test("Retry-After on error.response (429/503): wait max(min(server, maxRetryAfter), policy delay)", async (t) => {
  fakeTime(t, Date.UTC(2026, 10, 29)); // Sun, 29 Nov 2026 00:00:00 GMT
  const script = [
    httpError(503, "3"), // server 3000 > policy 100
    httpError(429, "Sun, 29 Nov 2026 00:00:10 GMT"), // at t=3000: 7000 ms left
    httpError(503, "1"), // server 1000 < policy 5000 (the policy's third wait)
    httpError(503, "86400"), // a day, clamped by maxRetryAfter "1 minute"
    httpError(500, "3"), // not 429/503: Retry-After ignored
    httpError(503, "soon"), // unparseable: the policy delay
  ];
  const calls = [];
  const events = [];
  const policy = Backoff.exponential(100, 50).cap(5000); // 100, 5000, 5000, …
  const p = retry(
    ({ attempt }) => {
      calls.push(attempt);
      if (attempt <= script.length) throw script[attempt - 1];
      return "done";
    },
    policy,
    { retries: 10, maxRetryAfter: "1 minute", onRetry: ({ attempt, delay }) => events.push([attempt, delay]) },
  );
  await flush();
  for (const ms of [3000, 7000, 5000, 60_000, 5000, 5000]) await expectWait(t, calls, ms);
  assert.equal(await p, "done");
  assert.deepEqual(events, [[1, 3000], [2, 7000], [3, 5000], [4, 60_000], [5, 5000], [6, 5000]]);
});

test("Retry-After: a thrown Response, an axios-style plain response, the default one-hour ceiling", async (t) => {
  fakeTime(t);
  const script = [
    new Response("", { status: 503, headers: { "Retry-After": "2" } }),
    Object.assign(new Error("Request failed with status code 429"), { response: { status: 429, headers: { "retry-after": "4" } } }),
    httpError(503, "7200"),
  ];
  const calls = [];
  const p = retry(({ attempt }) => {
    calls.push(attempt);
    if (attempt <= script.length) throw script[attempt - 1];
    return "done";
  }, 1, { retries: 3 });
  await flush();
  for (const ms of [2000, 4000, 3_600_000]) await expectWait(t, calls, ms);
  assert.equal(await p, "done");
});

test("options are validated once, before the first attempt, naming the option and the value", async () => {
  let called = false;
  const fn = () => (called = true);
  const cases = [
    [() => retry("not a function", 10, { retries: 1 }), "TypeError", 'fn must be a function; received "not a function"'],
    [() => retry(fn, {}, { retries: 1 }), "TypeError", "base must be given (or steps instead); received undefined"],
    [() => retry(fn, null), "TypeError", "policy must be a Backoff, a duration (ms or duration text) or createBackoff options; received null"],
    [() => retry(fn, 10, 5), "TypeError", "options must be an object; received 5"],
    [() => retry(fn, 10, { retires: 1 }), "TypeError", 'option must be one of signal, retries, shouldRetry, onRetry, maxRetryAfter, deadline, budget, attemptTimeout; received "retires"'],
    [() => retry(fn, 10, { retries: -1 }), "RangeError", "retries must be a non-negative integer or Infinity; received -1"],
    [() => retry(fn, 10, { retries: 1.5 }), "RangeError", "retries must be a non-negative integer or Infinity; received 1.5"],
    [() => retry(fn, 10, { retries: NaN }), "RangeError", "retries must be a non-negative integer or Infinity; received NaN"],
    [() => retry(fn, 10, { retries: "2" }), "TypeError", 'retries must be a non-negative integer or Infinity; received "2"'],
    [() => retry(fn, 10, { retries: 1, signal: {} }), "TypeError", "signal must be an AbortSignal; received an object"],
    [() => retry(fn, 10, { retries: 1, shouldRetry: true }), "TypeError", "shouldRetry must be a function; received true"],
    [() => retry(fn, 10, { retries: 1, onRetry: "log" }), "TypeError", 'onRetry must be a function; received "log"'],
    [() => retry(fn, 10, { retries: 1, maxRetryAfter: "1 hr" }), "RangeError", 'maxRetryAfter must be a non-negative duration (ms or duration text); received "1 hr"'],
    [() => retry(fn, 10, { retries: 1, maxRetryAfter: -5 }), "RangeError", "maxRetryAfter must be a non-negative duration (ms or duration text); received -5"],
    [() => retry(fn, 10, { retries: 1, maxRetryAfter: null }), "TypeError", "maxRetryAfter must be a duration (ms or duration text); received null"],
  ];
  for (const [call, name, message] of cases) await assert.rejects(call(), { name, message });
  assert.equal(called, false);
});
