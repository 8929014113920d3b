// fetchWithRetry() against a real HTTP server on 127.0.0.1 (tests/retry/server.mjs).
// Real timers; waits are kept tiny with a tiny policy and a small maxRetryAfter,
// and asserted exactly through onRetry (no timed assertions).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { fetchWithRetry } from "../../pkg/dist/esm/retry.js";
import * as main from "../../pkg/dist/esm/index.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";
import { startServer } from "./server.mjs";

let server;
before(async () => {
  server = await startServer();
});
after(() => server.close());

let ids = 0;
const fresh = () => `t${++ids}`;

test("503 (Retry-After: 2), 429 (HTTP-date), 200: reaches the 200 after the server's waits", async () => {
  const id = fresh();
  const events = [];
  const res = await fetchWithRetry(`${server.url}/flaky?id=${id}`, undefined, {
    policy: Backoff.fixed(1).maxAttempts(5),
    maxRetryAfter: 40, // Retry-After 2 s and the date two hours ahead are both clamped to 40 ms
    onRetry: ({ error, attempt, delay }) => events.push([attempt, error.status, delay]),
  });
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "ok");
  assert.deepEqual(events, [[1, 503, 40], [2, 429, 40]]);
  assert.equal(server.hits(id).length, 3);
});

test("the server's waits unclamped: Retry-After: 2 is 2000 ms, a date two hours ahead is the one-hour default ceiling", async () => {
  for (const [path, expected] of [["flaky", 2000], ["retry-after", 3_600_000]]) {
    const id = fresh();
    const controller = new AbortController();
    const delays = [];
    const value = path === "retry-after" ? `&value=${encodeURIComponent(new Date(Date.now() + 7_200_000).toUTCString())}` : "";
    const outcome = fetchWithRetry(`${server.url}/${path}?id=${id}${value}`, { signal: controller.signal }, {
      policy: Backoff.fixed(1).maxAttempts(3),
      onRetry: ({ delay }) => {
        delays.push(delay);
        queueMicrotask(() => controller.abort(new Error("seen")));
      },
    });
    await assert.rejects(outcome, (e) => e.reason === "aborted" && e.cause.message === "seen");
    assert.deepEqual(delays, [expected]);
    assert.equal(server.hits(id).length, 1);
  }
});

test("a POST is not retried: the 503 is returned after one request", async () => {
  const id = fresh();
  let retried = 0;
  const res = await fetchWithRetry(`${server.url}/status?code=503&id=${id}`, { method: "POST", body: "x" }, {
    policy: Backoff.fixed(1).maxAttempts(4),
    onRetry: () => retried++,
  });
  assert.equal(res.status, 503);
  assert.equal(await res.text(), "status 503");
  assert.equal(retried, 0);
  assert.deepEqual(server.hits(id).map((h) => h.method), ["POST"]);
});

test("retryNonIdempotent: true retries a POST (a string body is sent again)", async () => {
  const id = fresh();
  const res = await fetchWithRetry(`${server.url}/status?code=503&id=${id}`, { method: "post", body: "x" }, {
    policy: 1,
    retries: 2,
    retryNonIdempotent: true,
  });
  assert.equal(res.status, 503);
  assert.deepEqual(server.hits(id).map((h) => h.method), ["POST", "POST", "POST"]);
});

test("idempotent methods are retried; a Request's body goes out once, a bodiless Request is cloned per attempt", async () => {
  for (const method of ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]) {
    const id = fresh();
    const res = await fetchWithRetry(`${server.url}/status?code=502&id=${id}`, { method, body: method === "PUT" ? "p" : undefined }, {
      policy: Backoff.fixed(1).maxAttempts(3),
    });
    assert.equal(res.status, 502, method);
    assert.equal(server.hits(id).length, 3, method);
  }
  const id = fresh();
  const request = new Request(`${server.url}/status?code=504&id=${id}`, { method: "PUT", body: "payload" });
  const res = await fetchWithRetry(request, undefined, { policy: 1, retries: 2 });
  assert.equal(res.status, 504);
  // A Request's body is a stream (Fetch standard): one-shot, so one request.
  assert.equal(server.hits(id).length, 1);
  const id2 = fresh();
  const get = new Request(`${server.url}/status?code=504&id=${id2}`);
  assert.equal((await fetchWithRetry(get, undefined, { policy: 1, retries: 2 })).status, 504);
  assert.equal(server.hits(id2).length, 3);
  assert.equal(get.bodyUsed, false);
});

test("every retryable status is retried; on exhaustion the last Response is returned", async () => {
  for (const code of [408, 425, 429, 500, 502, 503, 504]) {
    const id = fresh();
    const res = await fetchWithRetry(`${server.url}/status?code=${code}&id=${id}`, undefined, { policy: 1, retries: 1 });
    assert.equal(res.status, code);
    assert.equal(await res.text(), `status ${code}`);
    assert.equal(server.hits(id).length, 2, String(code));
  }
});

test("a non-retryable status is returned at once, not thrown", async () => {
  for (const code of [200, 201, 204, 301, 400, 401, 403, 404, 409, 422, 501, 505]) {
    const id = fresh();
    const res = await fetchWithRetry(`${server.url}/status?code=${code}&id=${id}`, { redirect: "manual" }, { policy: 1, retries: 3 });
    assert.equal(res.status, code);
    assert.equal(server.hits(id).length, 1, String(code));
  }
});

test("the bodies of discarded responses are cancelled; the returned one is untouched", async (t) => {
  const seen = [];
  const real = globalThis.fetch;
  t.after(() => {
    globalThis.fetch = real;
  });
  globalThis.fetch = async (...args) => {
    const res = await real(...args);
    seen.push(res);
    return res;
  };
  const id = fresh();
  const res = await fetchWithRetry(`${server.url}/status?code=503&id=${id}`, undefined, { policy: 1, retries: 2 });
  assert.equal(seen.length, 3);
  assert.deepEqual(seen.map((r) => r.bodyUsed), [true, true, false]);
  assert.equal(seen[2], res);
  assert.equal(await res.text(), "status 503");
});

test("network errors are retried; on exhaustion the last one is rethrown", async () => {
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
  const errors = [];
  const outcome = fetchWithRetry(`http://127.0.0.1:${port}/`, undefined, {
    policy: Backoff.fixed(1).maxAttempts(3),
    onRetry: ({ error }) => errors.push(error),
  });
  const stopped = await outcome.catch((e) => e);
  assert.equal(errors.length, 2);
  assert.equal(stopped.reason, "attempts");
  const last = stopped.cause;
  assert.ok(last instanceof TypeError, String(last));
  assert.deepEqual(stopped.errors, [errors[0], errors[1], last]);
  assert.notEqual(last, errors[0]);
  assert.notEqual(last, errors[1]);
});

test("shouldRetry sees the Response and can veto; the vetoed Response is returned", async () => {
  const id = fresh();
  const asked = [];
  const res = await fetchWithRetry(`${server.url}/status?code=503&id=${id}`, undefined, {
    policy: 1,
    retries: 5,
    shouldRetry: (r, attempt) => (asked.push([r.status, attempt]), attempt < 2),
  });
  assert.equal(res.status, 503);
  assert.equal(await res.text(), "status 503");
  assert.deepEqual(asked, [[503, 1], [503, 2]]);
  assert.equal(server.hits(id).length, 2);
});

test("an aborted signal (options or init) stops before any request", async () => {
  for (const [init, options] of [
    [{ signal: AbortSignal.abort("no") }, { policy: 1, retries: 1 }],
    [undefined, { policy: 1, retries: 1, signal: AbortSignal.abort("no") }],
  ]) {
    const id = fresh();
    await assert.rejects(fetchWithRetry(`${server.url}/status?code=200&id=${id}`, init, options), (e) => e.reason === "aborted" && e.cause === "no");
    assert.equal(server.hits(id).length, 0);
  }
});

test("the default policy: exponential 1 s, cap 30 s, full jitter, 4 attempts", async () => {
  const id = fresh();
  const delays = [];
  const controller = new AbortController();
  const outcome = fetchWithRetry(`${server.url}/status?code=500&id=${id}`, undefined, {
    signal: controller.signal,
    onRetry: ({ delay }) => {
      delays.push(delay);
      controller.abort("done");
    },
  });
  await assert.rejects(outcome, (e) => e.reason === "aborted" && e.cause === "done");
  assert.equal(delays.length, 1);
  assert.ok(Number.isInteger(delays[0]) && delays[0] >= 0 && delays[0] <= 1000, String(delays[0]));
  // retries replaces the default .maxAttempts(4) instead of clashing with it
  const id2 = fresh();
  const res = await fetchWithRetry(`${server.url}/status?code=500&id=${id2}`, undefined, { retries: 0 });
  assert.equal(res.status, 500);
  assert.equal(server.hits(id2).length, 1);
});

test("bad options reject before any request, naming the option", async () => {
  const id = fresh();
  const url = `${server.url}/status?code=200&id=${id}`;
  await assert.rejects(fetchWithRetry(url, undefined, { polcy: 1 }), {
    name: "TypeError",
    message: 'option must be one of signal, retries, shouldRetry, onRetry, maxRetryAfter, deadline, budget, attemptTimeout, policy, retryNonIdempotent, methods, statusCodes, maxDeferrals, maxDeferralMs, idempotencyKey, onFailedAttempt, maxRetryTime, unref; received "polcy"',
  });
  await assert.rejects(fetchWithRetry(url, undefined, { retryNonIdempotent: "yes" }), {
    name: "TypeError",
    message: 'retryNonIdempotent must be a boolean; received "yes"',
  });
  await assert.rejects(fetchWithRetry(url, undefined, { policy: Backoff.fixed(1).maxAttempts(2), retries: 1 }), { name: "TypeError" });
  await assert.rejects(fetchWithRetry(url, undefined, { policy: 5 }), { name: "RangeError" });
  await assert.rejects(fetchWithRetry(url, "GET"), { name: "TypeError", message: 'init must be an object; received "GET"' });
  assert.equal(server.hits(id).length, 0);
});

test("exported by the main entry and by the CommonJS build", () => {
  for (const name of ["retry", "fetchWithRetry", "retryAfterMs", "sleep", "queueRetryDelaySeconds"]) {
    assert.equal(typeof main[name], "function", name);
  }
  const require = createRequire(import.meta.url);
  const cjs = require("../../pkg/dist/cjs/retry.js");
  assert.equal(cjs.retryAfterMs("Sun, 06 Nov 1994 08:49:37 GMT", 784111775000), 2000);
  assert.equal(cjs.queueRetryDelaySeconds("90 seconds", 1), 90);
});
