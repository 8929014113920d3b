// attemptTimeout: each attempt of retry and fetchWithRetry gets its own signal, aborted with a
// TimeoutError when its time is up; a timed-out attempt is a failure like any other, retried
// only when the policy and the send decision allow, never past the deadline or the caller's
// abort. Against a local HTTP server that hangs (it never answers the requests it is told to
// hold); no assertion depends on how fast the machine is: the timeouts either fire (a request
// that is never answered) or must not matter (a timeout of an hour).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { listen } from "./server.mjs";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { retry, fetchWithRetry, RetryError, createRetryBudget } from "../../pkg/dist/esm/retry.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";

let server;
let base;
/** id → [{ method, body, key, aborted }] */
const log = new Map();
before(async () => {
  // /hang?id=…&n=K: the first K requests of an id are held unanswered (K = Infinity: all), later ones get 200.
  server = await listen((req, res) => {
    const url = new URL(req.url, "http://x");
    const id = url.searchParams.get("id");
    const hold = Number(url.searchParams.get("n") ?? Infinity);
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const hits = log.get(id) ?? [];
      const hit = { method: req.method, body: Buffer.concat(chunks).toString(), key: req.headers["idempotency-key"] };
      hits.push(hit);
      log.set(id, hits);
      if (hits.length <= hold) return; // never answered: the client's timeout must end it
      res.writeHead(200, { "content-type": "text/plain", connection: "close" }).end(`200 #${hits.length}`);
    });
  });
  base = server.url;
});
after(() => server.close());

let ids = 0;
const url = (hold) => {
  const id = `t${++ids}`;
  return [id, `${base}/hang?id=${id}${hold === Infinity ? "" : `&n=${hold}`}`];
};
const isTimeout = (e) => e instanceof DOMException && e.name === "TimeoutError";
const policy = () => Backoff.fixed(1).maxAttempts(3);

test("fetchWithRetry: a GET whose first attempt hangs times out and is sent again; the second answers", async () => {
  const [id, u] = url(1);
  const seen = [];
  const res = await fetchWithRetry(u, undefined, { policy: policy(), attemptTimeout: 50, onRetry: ({ error, attempt }) => seen.push([attempt, isTimeout(error)]) });
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "200 #2");
  assert.deepEqual(seen, [[1, true]]);
  assert.equal(log.get(id).length, 2);
});

test("fetchWithRetry: attemptTimeout takes duration text; every attempt timing out is RetryError attempts with the TimeoutError as cause", async () => {
  const [id, u] = url(Infinity);
  const err = await fetchWithRetry(u, undefined, { policy: policy(), attemptTimeout: "40ms" }).then(() => assert.fail("resolved"), (e) => e);
  assert.ok(err instanceof RetryError);
  assert.equal(err.reason, "attempts");
  assert.equal(err.attempts, 3);
  assert.ok(isTimeout(err.cause), String(err.cause));
  assert.equal(err.errors.length, 3);
  assert.ok(err.errors.every(isTimeout));
  assert.equal(log.get(id).length, 3);
});

test("fetchWithRetry: a POST that times out is not sent again; the caller gets RetryError whose cause is the TimeoutError", async () => {
  const [id, u] = url(1);
  const err = await fetchWithRetry(u, { method: "POST", body: "order" }, { policy: policy(), attemptTimeout: 40 }).then(() => assert.fail("resolved"), (e) => e);
  assert.ok(err instanceof RetryError);
  assert.equal(err.reason, "attempts");
  assert.equal(err.attempts, 1);
  assert.ok(isTimeout(err.cause));
  assert.deepEqual(log.get(id).map((h) => [h.method, h.body]), [["POST", "order"]]);
});

test("fetchWithRetry: a PUT with a one-shot body (a stream) that times out goes out once", async () => {
  const [id, u] = url(1);
  const body = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("stream")); c.close(); } });
  const err = await fetchWithRetry(u, { method: "PUT", body, duplex: "half" }, { policy: policy(), attemptTimeout: 40, idempotencyKey: "k-1" })
    .then(() => assert.fail("resolved"), (e) => e);
  assert.equal(err.reason, "attempts");
  assert.ok(isTimeout(err.cause));
  assert.deepEqual(log.get(id).map((h) => [h.method, h.body, h.key]), [["PUT", "stream", "k-1"]]);
});

test("fetchWithRetry: a POST with an idempotency key that times out is sent again, with the same key and body", async () => {
  const [id, u] = url(1);
  const res = await fetchWithRetry(u, { method: "POST", body: "order" }, { policy: policy(), attemptTimeout: 40, idempotencyKey: true });
  assert.equal(await res.text(), "200 #2");
  const hits = log.get(id);
  assert.deepEqual(hits.map((h) => [h.method, h.body]), [["POST", "order"], ["POST", "order"]]);
  assert.match(hits[0].key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(hits[1].key, hits[0].key);
});

test("fetchWithRetry: the caller's signal still aborts an attempt that has a timeout: RetryError aborted, its reason the cause, no retry", async () => {
  const [id, u] = url(Infinity);
  const controller = new AbortController();
  const reason = new Error("caller stops");
  const call = fetchWithRetry(u, { signal: controller.signal }, { policy: policy(), attemptTimeout: "1 hour" });
  // Abort once the server holds the request.
  while (!log.get(id)) await new Promise((r) => setTimeout(r, 5));
  controller.abort(reason);
  const err = await call.then(() => assert.fail("resolved"), (e) => e);
  assert.equal(err.reason, "aborted");
  assert.equal(err.cause, reason);
  assert.equal(log.get(id).length, 1);
});

test("fetchWithRetry: no retry past the deadline after a timeout: reason deadline, the TimeoutError as cause", async () => {
  const [id, u] = url(Infinity);
  // The wait after the timed-out attempt (1 hour) cannot fit a deadline of 1 minute: no second attempt.
  const err = await fetchWithRetry(u, undefined, { policy: Backoff.fixed("1 hour").maxAttempts(3), attemptTimeout: 40, deadline: { afterMs: 60_000 } })
    .then(() => assert.fail("resolved"), (e) => e);
  assert.equal(err.reason, "deadline");
  assert.ok(isTimeout(err.cause));
  assert.equal(log.get(id).length, 1);
});

/** A budget of `createRetryBudget` (ratio 1, no reserve: each call pays one retry) whose steps are counted. */
function countedBudget() {
  const budget = createRetryBudget({ ratio: 1, minPerSecond: 0, windowMs: "60 seconds" });
  const n = { deposits: 0, withdrawals: 0, granted: 0 };
  return [n, {
    deposit() { n.deposits++; return budget.deposit(); },
    tryWithdraw() { n.withdrawals++; const ok = budget.tryWithdraw(); if (ok) n.granted++; return ok; },
    get balance() { return budget.balance; },
  }];
}

test("budgets: a timed-out attempt withdraws from the budget as a thrown failure does; an empty budget stops it with reason budget and the TimeoutError", async () => {
  const outcome = async (attemptFails) => {
    const [n, budget] = countedBudget();
    budget.deposit(); // one more retry paid: two in all with the call's own deposit
    const err = await retry(attemptFails, Backoff.fixed(1).maxAttempts(10), { attemptTimeout: 30, budget }).then(() => assert.fail("resolved"), (e) => e);
    return { n, err, balance: budget.balance };
  };
  const timedOut = await outcome(() => new Promise(() => {}));
  const thrown = await outcome(({ attempt }) => { throw new Error(`failure ${attempt}`); });
  for (const { n, err, balance } of [timedOut, thrown]) {
    assert.ok(err instanceof RetryError);
    assert.equal(err.reason, "budget");
    assert.equal(err.attempts, 3);
    assert.equal(err.errors.length, 3);
    assert.equal(err.cause, err.errors[2]);
    // Two deposits, three withdrawals: two granted, the third refused.
    assert.deepEqual(n, { deposits: 2, withdrawals: 3, granted: 2 });
    assert.equal(balance, 0);
  }
  assert.ok(timedOut.err.errors.every(isTimeout));
  assert.equal(timedOut.err.cause.message, "attempt 3 timed out after 30 ms (attemptTimeout)");
});

test("budgets: a GET whose attempt timed out withdraws for its retry; a POST that times out (it may not be sent again) withdraws nothing", async () => {
  // Long enough that the request has reached the server before its attempt times out (one aborted
  // before it is written would never be seen there): a bound, never a measure.
  const timeout = 1000;
  const [id, u] = url(1);
  const [n, budget] = countedBudget();
  const res = await fetchWithRetry(u, undefined, { policy: policy(), attemptTimeout: timeout, budget });
  assert.equal(await res.text(), "200 #2");
  assert.deepEqual(n, { deposits: 1, withdrawals: 1, granted: 1 });
  assert.equal(budget.balance, 0);
  assert.equal(log.get(id).length, 2);

  const [postId, postUrl] = url(1);
  const [m, postBudget] = countedBudget();
  const err = await fetchWithRetry(postUrl, { method: "POST", body: "order" }, { policy: policy(), attemptTimeout: timeout, budget: postBudget })
    .then(() => assert.fail("resolved"), (e) => e);
  assert.ok(err instanceof RetryError);
  assert.equal(err.reason, "attempts");
  assert.equal(err.attempts, 1);
  assert.ok(isTimeout(err.cause));
  assert.deepEqual(m, { deposits: 1, withdrawals: 0, granted: 0 });
  assert.equal(postBudget.balance, 1, "the call's deposit is still there: no retry was paid");
  assert.deepEqual(log.get(postId).map((h) => [h.method, h.body]), [["POST", "order"]]);
});

test("retry: ctx.signal is the attempt's own signal, aborted with a TimeoutError when its time is up", async () => {
  const reasons = [];
  const value = await retry(({ attempt, signal }) => {
    if (attempt === 2) return "second";
    return new Promise((_, reject) => signal.addEventListener("abort", () => {
      reasons.push(signal.reason);
      reject(signal.reason);
    }));
  }, policy(), { attemptTimeout: 30 });
  assert.equal(value, "second");
  assert.equal(reasons.length, 1);
  assert.ok(isTimeout(reasons[0]));
});

test("retry: an attempt that ignores its signal still fails when its time is up; every attempt timing out is RetryError with the TimeoutError", async () => {
  let calls = 0;
  const err = await retry(() => { calls++; return new Promise(() => {}); }, policy(), { attemptTimeout: 30 }).then(() => assert.fail("resolved"), (e) => e);
  assert.ok(err instanceof RetryError);
  assert.equal(err.reason, "attempts");
  assert.equal(calls, 3);
  assert.ok(isTimeout(err.cause));
});

test("retry: with attemptTimeout, the caller's abort reaches ctx.signal with the caller's reason, and ends the call", async () => {
  const controller = new AbortController();
  const reason = new Error("stop");
  let seen;
  const call = retry(({ signal }) => new Promise((_, reject) => {
    signal.addEventListener("abort", () => { seen = signal.reason; reject(signal.reason); });
    queueMicrotask(() => controller.abort(reason));
  }), policy(), { attemptTimeout: "1 hour", signal: controller.signal });
  const err = await call.then(() => assert.fail("resolved"), (e) => e);
  assert.equal(err.reason, "aborted");
  assert.equal(err.cause, reason);
  assert.equal(seen, reason);
});

test("retry: without attemptTimeout, ctx.signal is the caller's signal as before", async () => {
  const controller = new AbortController();
  assert.equal(await retry(({ signal }) => signal, policy(), { signal: controller.signal }), controller.signal);
  assert.equal(await retry(({ signal }) => signal, policy()), undefined);
});

test("bad attemptTimeout values reject (never throw) with an error naming the option and the value", async () => {
  const expected = 'attemptTimeout must be a positive duration (ms or duration text such as "10 seconds"; Infinity for none); received ';
  const cases = [
    [0, RangeError, "0"], [-5, RangeError, "-5"], [NaN, RangeError, "NaN"], ["soon", RangeError, '"soon"'], ["0s", RangeError, '"0s"'],
    [true, TypeError, "true"], [{}, TypeError, "an object"], [null, TypeError, "null"],
  ];
  for (const [value, kind, shown] of cases) {
    for (const call of [() => retry(() => 1, policy(), { attemptTimeout: value }), () => fetchWithRetry(`${base}/x`, undefined, { attemptTimeout: value })]) {
      let p;
      assert.doesNotThrow(() => { p = call(); });
      await assert.rejects(p, (e) => e.constructor === kind && e.message === expected + shown, String(value));
    }
  }
});

test("attemptTimeout: Infinity is no limit: ctx.signal is the caller's", async () => {
  const controller = new AbortController();
  assert.equal(await retry(({ signal }) => signal, policy(), { attemptTimeout: Infinity, signal: controller.signal }), controller.signal);
});

test("no timer is left and no process held open: a child process exits by itself after calls with an hour-long attemptTimeout", { timeout: 120_000 }, async () => {
  const lib = new URL("../../pkg/dist/esm/retry.js", import.meta.url).href;
  const pol = new URL("../../pkg/dist/esm/backoff.js", import.meta.url).href;
  const program = `
    import { retry, fetchWithRetry } from ${JSON.stringify(lib)};
    import { Backoff } from ${JSON.stringify(pol)};
    const base = ${JSON.stringify(base)};
    const p = Backoff.fixed(1).maxAttempts(3);
    const out = [];
    out.push((await fetchWithRetry(base + "/hang?id=child-ok&n=0", undefined, { policy: p, attemptTimeout: "1 hour" })).status);
    out.push((await fetchWithRetry(base + "/hang?id=child-once&n=1", undefined, { policy: p, attemptTimeout: 50 })).status);
    out.push(await retry(({ attempt }) => { if (attempt === 1) throw new Error("once"); return "ok"; }, p, { attemptTimeout: "1 hour" }));
    out.push(await retry(({ attempt }) => attempt === 1 ? new Promise(() => {}) : "late", p, { attemptTimeout: 30 }));
    out.push(await fetchWithRetry(base + "/hang?id=child-post", { method: "POST", body: "x" }, { policy: p, attemptTimeout: 30 }).catch((e) => e.cause.name));
    out.push(process.getActiveResourcesInfo().filter((r) => r === "Timeout").length);
    console.log(JSON.stringify(out));
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", program], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  // The assertion is that it exits on its own (an armed hour-long timer would hold it far past this test's timeout).
  const code = await new Promise((r) => child.on("exit", r));
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), [200, 200, "ok", "late", "TimeoutError", 0]);
});
