// The runtime layer's smaller promises, each as the README states it: whatever `fn`
// throws (a revoked Proxy, a Proxy whose traps throw) is retried and reported unchanged;
// fetch's own argument errors come back as they are for every kind of body; an abort
// rejects with RetryError "aborted" (signal.reason as cause) in fetchWithRetry too, even
// when the last answer was a Response; a deferral waits the server's value alone, a
// failure the larger of it and the policy's wait; budgets whose store answers with promises.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { listen } from "./server.mjs";
import { Readable } from "node:stream";
import pRetry from "p-retry";
import { retry, fetchWithRetry, RetryError } from "../../pkg/dist/esm/retry.js";
import mirror from "../../pkg/dist/esm/p-retry.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";

let server;
let base;
const hits = new Map();
before(async () => {
  server = await listen((req, res) => {
    const url = new URL(req.url, "http://x");
    const id = url.searchParams.get("id");
    hits.set(id, (hits.get(id) ?? 0) + 1);
    req.resume();
    req.on("end", () => {
      const wait = url.searchParams.get("retryAfter");
      if (hits.get(id) === 1 || url.searchParams.has("always")) {
        res.writeHead(503, wait === null ? {} : { "retry-after": wait }).end(`busy #${hits.get(id)}`);
      } else {
        res.writeHead(200).end(`ok #${hits.get(id)}`);
      }
    });
  });
  base = server.url;
});
after(() => server.close());

function throwers() {
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const boom = () => { throw new Error("trap"); };
  const trapping = new Proxy({}, { get: boom, getPrototypeOf: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom });
  const trappingError = new Proxy(new TypeError("fetch failed"), { get: boom });
  return [["a revoked Proxy", revoked], ["a Proxy whose traps throw", trapping], ["a Proxy of a TypeError whose get throws", trappingError]];
}

for (const [kind, value] of throwers()) {
  test(`retry, own options: ${kind} thrown by fn is retried and reported unchanged`, async () => {
    let calls = 0;
    const e = await retry(() => { calls++; throw value; }, 1, { retries: 2 }).catch((x) => x);
    assert.equal(calls, 3);
    assert.ok(e instanceof RetryError);
    assert.equal(e.reason, "attempts");
    assert.equal(e.cause, value);
    assert.equal(e.errors.length, 3);
    assert.ok(e.errors.every((x) => x === value));
  });

  // backoff-wasm/p-retry is p-retry here too: whatever p-retry does with such a value
  // (p-retry calls it unsupported), the mirror does, call for call.
  test(`backoff-wasm/p-retry: ${kind} thrown by fn ends as with p-retry itself`, async () => {
    const outcome = async (run) => {
      let calls = 0;
      // Boxed: resolving a promise with the Proxy itself would read its `then`.
      const r = await run(() => { calls++; throw value; }, { retries: 2, minTimeout: 1 }).then(() => ["resolved"], (x) => [x === value ? "the value" : `${x?.constructor?.name}: ${x?.message}`]);
      return [...r, calls];
    };
    assert.deepEqual(await outcome(mirror), await outcome(pRetry));
  });
}

test("a GET with a one-shot body rejects with fetch's own TypeError, as with a text body; nothing is sent", async () => {
  const bodies = {
    text: () => "x",
    ReadableStream: () => new ReadableStream({ start(c) { c.enqueue(new Uint8Array([1])); c.close(); } }),
    "async iterable": () => (async function* () { yield new Uint8Array([1]); })(),
    "Node Readable": () => Readable.from([Buffer.from("x")]),
  };
  for (const [kind, make] of Object.entries(bodies)) {
    const id = `get-${kind}`;
    const plain = await fetch(`${base}/?id=${id}`, { method: "GET", body: make(), duplex: "half" }).catch((e) => e);
    const e = await fetchWithRetry(`${base}/?id=${id}`, { method: "GET", body: make(), duplex: "half" }, { policy: 1, retries: 2 }).catch((x) => x);
    assert.equal(e.constructor, TypeError, kind);
    assert.equal(e.message, plain.message, kind);
    assert.ok(!(e instanceof RetryError), kind);
    assert.equal(hits.get(id), undefined, kind);
  }
});

test("abort in fetchWithRetry: RetryError reason aborted with signal.reason as cause, not the last Response", async () => {
  const controller = new AbortController();
  const reason = new Error("user left");
  const e = await fetchWithRetry(`${base}/?id=abort&always`, undefined, {
    policy: Backoff.fixed(1000).maxAttempts(3), signal: controller.signal, onRetry: () => controller.abort(reason),
  }).catch((x) => x);
  assert.ok(e instanceof RetryError);
  assert.equal(e.reason, "aborted");
  assert.equal(e.cause, reason);
  assert.equal(e.attempts, 1);
  assert.equal(hits.get("abort"), 1);
});

test("abort in retry: RetryError aborted (cause signal.reason); in backoff-wasm/p-retry: signal.reason itself", async () => {
  const reason = new Error("stop");
  const own = new AbortController();
  const e1 = await retry(() => { throw new Error("x"); }, 1000, { retries: 3, signal: own.signal, onRetry: () => own.abort(reason) }).catch((x) => x);
  assert.ok(e1 instanceof RetryError);
  assert.equal(e1.reason, "aborted");
  assert.equal(e1.cause, reason);
  const p = new AbortController();
  const e2 = await mirror(() => { throw new Error("x"); }, { retries: 3, minTimeout: 1000, signal: p.signal, onFailedAttempt: () => p.abort(reason) }).catch((x) => x);
  assert.equal(e2, reason);
});

test("a deadline stop on a retryable status resolves with that Response (any reason but an abort)", async () => {
  const res = await fetchWithRetry(`${base}/?id=deadline&always`, undefined, { policy: Backoff.fixed(5000).maxAttempts(3), deadline: { afterMs: 100 } });
  assert.equal(res.status, 503);
  assert.equal(await res.text(), "busy #1");
});

test("Retry-After: a deferral waits the server's value alone (clamped); with maxDeferrals: 0 the larger of it and the policy's wait", async () => {
  const delays = [];
  const onRetry = (e) => delays.push([e.deferral, e.delayMs]);
  // Server 1 s, clamped to 30 ms; the policy's 50 ms is not taken for a deferral.
  let res = await fetchWithRetry(`${base}/?id=ra1&retryAfter=1`, undefined, { policy: Backoff.fixed(50).maxAttempts(3), maxRetryAfter: 30, onRetry });
  assert.equal(await res.text(), "ok #2");
  res = await fetchWithRetry(`${base}/?id=ra2&retryAfter=1`, undefined, { policy: Backoff.fixed(50).maxAttempts(3), maxRetryAfter: 30, maxDeferrals: 0, onRetry });
  assert.equal(await res.text(), "ok #2");
  res = await fetchWithRetry(`${base}/?id=ra3&retryAfter=1`, undefined, { policy: Backoff.fixed(5).maxAttempts(3), maxRetryAfter: 30, maxDeferrals: 0, onRetry });
  assert.equal(await res.text(), "ok #2");
  assert.deepEqual(delays, [[true, 30], [false, 50], [false, 30]]);
});

test("a budget whose store answers with promises: a rejected deposit is never unhandled, a withdrawal's promise is awaited", async () => {
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(e);
  process.on("unhandledRejection", onUnhandled);
  try {
    let withdrawals = 0;
    const budget = {
      deposit: () => Promise.reject(new Error("store down")),
      tryWithdraw: () => Promise.resolve(++withdrawals < 2),
      balance: 0,
    };
    const e = await retry(() => { throw new Error("x"); }, 1, { retries: 5, budget }).catch((x) => x);
    assert.ok(e instanceof RetryError);
    assert.equal(e.reason, "budget");
    assert.equal(e.attempts, 2);
    assert.equal(withdrawals, 2);
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
});
