// attemptTimeout: each attempt of retry and fetchWithRetry gets its own signal, aborted with a
// TimeoutError when its time is up; a timed-out attempt is a failure like any other, retried
// only when the policy and the send decision allow, never past the deadline or the caller's
// abort. Against a local HTTP server that holds the attempts it is told to (by their number,
// never answered) and answers the others at once. No assertion depends on how fast the machine
// is: only a held attempt (or an operation that never settles) can time out, and an attempt
// meant to finish has a bound of seconds (ANSWERED) or an hour. Attempts are counted on the
// client's side (sentAttempts): one that times out may be aborted before it reaches the server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { listen, sentAttempts } from "./server.mjs";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { retry, fetchWithRetry, RetryError, createRetryBudget } from "../../pkg/dist/esm/retry.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";

let server;
let base;
/** id → [{ attempt, method, body, key }] in the order the requests reached the server */
const log = new Map();
before(async () => {
  // /hang?id=…&held=1,2&attempt=N (attempt: added by sentAttempts): the attempts listed in held
  // are held unanswered (held=all: every one), the others get 200 at once.
  server = await listen((req, res) => {
    const url = new URL(req.url, "http://x");
    const id = url.searchParams.get("id");
    const attempt = Number(url.searchParams.get("attempt"));
    const held = url.searchParams.get("held") ?? "";
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const hits = log.get(id) ?? [];
      hits.push({ attempt, method: req.method, body: Buffer.concat(chunks).toString(), key: req.headers["idempotency-key"] });
      log.set(id, hits);
      if (held === "all" || held.split(",").map(Number).includes(attempt)) return; // never answered: the client's timeout must end it
      res.writeHead(200, { "content-type": "text/plain", connection: "close" }).end(`200 #${attempt}`);
    });
  });
  base = server.url;
});
after(() => server.close());

let ids = 0;
/** [id, URL] of a fresh id whose attempts in `held` ("1", "1,2" or "all") are held. */
const url = (held) => {
  const id = `t${++ids}`;
  return [id, `${base}/hang?id=${id}&held=${held}`];
};
/** The requests of `id` the server answered (those not held), in the order they reached it. */
const answered = (id, held) => (log.get(id) ?? []).filter((h) => !held.split(",").map(Number).includes(h.attempt));
/**
 * attemptTimeout for a call one of whose attempts must be answered in time: a bound on a local
 * request answered at once, never a measure (a held attempt takes this long to time out).
 */
const ANSWERED = 2000;
const isTimeout = (e) => e instanceof DOMException && e.name === "TimeoutError";
const policy = () => Backoff.fixed(1).maxAttempts(3);

test("fetchWithRetry: a GET whose first attempt hangs times out and is sent again; the second answers", async () => {
  const [id, u] = url("1");
  const seen = [];
  const sent = [];
  const res = await sentAttempts(sent, () =>
    fetchWithRetry(u, undefined, { policy: policy(), attemptTimeout: ANSWERED, onRetry: ({ error, attempt }) => seen.push([attempt, isTimeout(error)]) }));
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "200 #2");
  assert.deepEqual(seen, [[1, true]]);
  assert.deepEqual(sent.map((s) => s.method), ["GET", "GET"]);
  assert.deepEqual(answered(id, "1").map((h) => [h.attempt, h.method]), [[2, "GET"]]);
});

test("fetchWithRetry: attemptTimeout takes duration text; every attempt timing out is RetryError attempts with the TimeoutError as cause", async () => {
  const [, u] = url("all");
  const sent = [];
  const err = await sentAttempts(sent, () => fetchWithRetry(u, undefined, { policy: policy(), attemptTimeout: "40ms" })).then(() => assert.fail("resolved"), (e) => e);
  assert.ok(err instanceof RetryError);
  assert.equal(err.reason, "attempts");
  assert.equal(err.attempts, 3);
  assert.ok(isTimeout(err.cause), String(err.cause));
  assert.equal(err.cause.message, "attempt 3 timed out after 40 ms (attemptTimeout)");
  assert.equal(err.errors.length, 3);
  assert.ok(err.errors.every(isTimeout));
  assert.deepEqual(err.errors.map((e) => e.message), [1, 2, 3].map((n) => `attempt ${n} timed out after 40 ms (attemptTimeout)`));
  assert.equal(sent.length, 3);
});

test("fetchWithRetry: a POST that times out is not sent again; the caller gets RetryError whose cause is the TimeoutError", async () => {
  const [, u] = url("all");
  const sent = [];
  const err = await sentAttempts(sent, () => fetchWithRetry(u, { method: "POST", body: "order" }, { policy: policy(), attemptTimeout: 40 }))
    .then(() => assert.fail("resolved"), (e) => e);
  assert.ok(err instanceof RetryError);
  assert.equal(err.reason, "attempts");
  assert.equal(err.attempts, 1);
  assert.ok(isTimeout(err.cause));
  assert.equal(err.cause.message, "attempt 1 timed out after 40 ms (attemptTimeout)");
  assert.deepEqual(err.errors, [err.cause]);
  assert.deepEqual(sent, [{ method: "POST", body: "order", key: undefined }]);
});

test("fetchWithRetry: a PUT with a one-shot body (a stream) that times out goes out once", async () => {
  const [, u] = url("all");
  const body = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("stream")); c.close(); } });
  const sent = [];
  const err = await sentAttempts(sent, () => fetchWithRetry(u, { method: "PUT", body, duplex: "half" }, { policy: policy(), attemptTimeout: 40, idempotencyKey: "k-1" }))
    .then(() => assert.fail("resolved"), (e) => e);
  assert.equal(err.reason, "attempts");
  assert.equal(err.attempts, 1);
  assert.ok(isTimeout(err.cause));
  assert.equal(err.cause.message, "attempt 1 timed out after 40 ms (attemptTimeout)");
  assert.equal(sent.length, 1);
  assert.deepEqual([sent[0].method, sent[0].body === body, sent[0].key], ["PUT", true, "k-1"]);
});

test("fetchWithRetry: a POST with an idempotency key that times out is sent again, with the same key and body", async () => {
  const [id, u] = url("1");
  const sent = [];
  const res = await sentAttempts(sent, () => fetchWithRetry(u, { method: "POST", body: "order" }, { policy: policy(), attemptTimeout: ANSWERED, idempotencyKey: true }));
  assert.equal(await res.text(), "200 #2");
  assert.deepEqual(sent.map((s) => [s.method, s.body]), [["POST", "order"], ["POST", "order"]]);
  const key = sent[0].key;
  assert.match(key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(sent[1].key, key);
  // What went over the wire: the second attempt, with the same body and key.
  assert.deepEqual(answered(id, "1"), [{ attempt: 2, method: "POST", body: "order", key }]);
});

test("fetchWithRetry: the caller's signal still aborts an attempt that has a timeout: RetryError aborted, its reason the cause, no retry", async () => {
  const [id, u] = url("all");
  const controller = new AbortController();
  const reason = new Error("caller stops");
  const sent = [];
  const err = await sentAttempts(sent, async () => {
    const call = fetchWithRetry(u, { signal: controller.signal }, { policy: policy(), attemptTimeout: "1 hour" });
    // Abort once the server holds the request.
    while (!log.get(id)) await new Promise((r) => setTimeout(r, 5));
    controller.abort(reason);
    return call;
  }).then(() => assert.fail("resolved"), (e) => e);
  assert.equal(err.reason, "aborted");
  assert.equal(err.cause, reason);
  assert.equal(sent.length, 1);
  assert.deepEqual(log.get(id).map((h) => h.attempt), [1]);
});

test("fetchWithRetry: no retry past the deadline after a timeout: reason deadline, the TimeoutError as cause", async () => {
  const [, u] = url("all");
  // The wait after the timed-out attempt (1 hour) cannot fit a deadline of 1 minute: no second attempt.
  const sent = [];
  const err = await sentAttempts(sent, () =>
    fetchWithRetry(u, undefined, { policy: Backoff.fixed("1 hour").maxAttempts(3), attemptTimeout: 40, deadline: { afterMs: 60_000 } }))
    .then(() => assert.fail("resolved"), (e) => e);
  assert.equal(err.reason, "deadline");
  assert.equal(err.attempts, 1);
  assert.ok(isTimeout(err.cause));
  assert.equal(err.cause.message, "attempt 1 timed out after 40 ms (attemptTimeout)");
  assert.equal(sent.length, 1);
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
  const [id, u] = url("1");
  const [n, budget] = countedBudget();
  const sent = [];
  const res = await sentAttempts(sent, () => fetchWithRetry(u, undefined, { policy: policy(), attemptTimeout: ANSWERED, budget }));
  assert.equal(await res.text(), "200 #2");
  assert.deepEqual(n, { deposits: 1, withdrawals: 1, granted: 1 });
  assert.equal(budget.balance, 0);
  assert.equal(sent.length, 2);
  assert.deepEqual(answered(id, "1").map((h) => h.attempt), [2]);

  const [, postUrl] = url("all");
  const [m, postBudget] = countedBudget();
  const postSent = [];
  const err = await sentAttempts(postSent, () => fetchWithRetry(postUrl, { method: "POST", body: "order" }, { policy: policy(), attemptTimeout: 40, budget: postBudget }))
    .then(() => assert.fail("resolved"), (e) => e);
  assert.ok(err instanceof RetryError);
  assert.equal(err.reason, "attempts");
  assert.equal(err.attempts, 1);
  assert.ok(isTimeout(err.cause));
  assert.deepEqual(m, { deposits: 1, withdrawals: 0, granted: 0 });
  assert.equal(postBudget.balance, 1, "the call's deposit is still there: no retry was paid");
  assert.deepEqual(postSent, [{ method: "POST", body: "order", key: undefined }]);
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
  assert.equal(reasons[0].message, "attempt 1 timed out after 30 ms (attemptTimeout)");
});

test("retry: an attempt that ignores its signal still fails when its time is up; every attempt timing out is RetryError with the TimeoutError", async () => {
  let calls = 0;
  const err = await retry(() => { calls++; return new Promise(() => {}); }, policy(), { attemptTimeout: 30 }).then(() => assert.fail("resolved"), (e) => e);
  assert.ok(err instanceof RetryError);
  assert.equal(err.reason, "attempts");
  assert.equal(calls, 3);
  assert.ok(isTimeout(err.cause));
  assert.equal(err.cause.message, "attempt 3 timed out after 30 ms (attemptTimeout)");
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
    // Each URL's attempts numbered for the server, which holds them by number.
    const fetchOf = globalThis.fetch;
    const made = new Map();
    globalThis.fetch = (input, init) => {
      made.set(input, (made.get(input) ?? 0) + 1);
      return fetchOf(input + "&attempt=" + made.get(input), init);
    };
    const p = Backoff.fixed(1).maxAttempts(3);
    const out = [];
    out.push((await fetchWithRetry(base + "/hang?id=child-ok&held=none", undefined, { policy: p, attemptTimeout: "1 hour" })).status);
    out.push((await fetchWithRetry(base + "/hang?id=child-once&held=1", undefined, { policy: p, attemptTimeout: ${ANSWERED} })).status);
    out.push(await retry(({ attempt }) => { if (attempt === 1) throw new Error("once"); return "ok"; }, p, { attemptTimeout: "1 hour" }));
    out.push(await retry(({ attempt }) => attempt === 1 ? new Promise(() => {}) : "late", p, { attemptTimeout: 30 }));
    out.push(await fetchWithRetry(base + "/hang?id=child-post&held=all", { method: "POST", body: "x" }, { policy: p, attemptTimeout: 30 }).catch((e) => e.cause.name));
    out.push(made.get(base + "/hang?id=child-once&held=1"));
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
  assert.deepEqual(JSON.parse(stdout), [200, 200, "ok", "late", "TimeoutError", 2, 0]);
});
