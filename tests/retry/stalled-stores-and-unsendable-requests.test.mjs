// A budget store that answers with a promise (late, never, or by failing) met by each way a
// call stops (an abort, the deadline, maxRetryTime), and a Request input that cannot be sent:
// each as a user meets it, against a real local server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { listen } from "./server.mjs";
import { retry, fetchWithRetry, RetryError } from "../../pkg/dist/esm/retry.js";

let server;
let base;
const hits = new Map();
const bodies = new Map();
before(async () => {
  server = await listen((req, res) => {
    const url = new URL(req.url, "http://x");
    const id = url.pathname;
    hits.set(id, (hits.get(id) ?? 0) + 1);
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      bodies.set(id, [...(bodies.get(id) ?? []), Buffer.concat(chunks).toString()]);
      const ra = url.searchParams.get("retryAfter");
      res.writeHead(503, ra === null ? {} : { "retry-after": ra }).end(`busy #${hits.get(id)}`);
    });
  });
  base = server.url;
});
after(() => server.close());

/** A budget whose store never answers a withdrawal; counts the withdrawals asked for. */
function silentBudget() {
  const b = { withdrawals: 0, deposit() {}, tryWithdraw() { b.withdrawals++; return new Promise(() => {}); } };
  return b;
}
/** A budget whose store answers `answer` after `ms`. */
function slowBudget(ms, answer) {
  return { deposit() {}, tryWithdraw: () => new Promise((r) => setTimeout(() => r(answer), ms)) };
}
const failing = () => { throw new Error("down"); };
/** Whether `p` is still pending after `ms`. */
async function pendingAfter(p, ms) {
  let settled = false;
  p.then(() => { settled = true; }, () => { settled = true; });
  await new Promise((r) => setTimeout(r, ms));
  return !settled;
}

test("a budget that never answers: an abort during the withdrawal rejects with RetryError aborted (retry and fetchWithRetry)", async () => {
  const c = new AbortController();
  const budget = silentBudget();
  const r = retry(failing, 1, { retries: 3, budget, signal: c.signal });
  const f = fetchWithRetry(`${base}/abort`, undefined, { policy: 1, retries: 3, budget, signal: c.signal });
  // Both calls reach the store (the first fetch of a process may take a while).
  for (let i = 0; i < 500 && budget.withdrawals < 2; i++) await new Promise((res) => setTimeout(res, 10));
  assert.equal(budget.withdrawals, 2, "both calls wait for the store");
  const reason = new Error("user left");
  c.abort(reason);
  for (const p of [r, f]) {
    const e = await p.catch((x) => x);
    assert.ok(e instanceof RetryError);
    assert.equal(e.reason, "aborted");
    assert.equal(e.cause, reason);
    assert.equal(e.attempts, 1);
  }
  assert.equal(hits.get("/abort"), 1);
});

test("a budget that never answers: the deadline ends the withdrawal (retry: RetryError deadline; fetchWithRetry: the last Response)", async () => {
  const e = await retry(failing, 1, { retries: 3, budget: silentBudget(), deadline: { afterMs: 80 } }).catch((x) => x);
  assert.ok(e instanceof RetryError);
  assert.equal(e.reason, "deadline");
  assert.equal(e.cause.message, "down");
  const res = await fetchWithRetry(`${base}/deadline`, undefined, { policy: 1, retries: 3, budget: silentBudget(), deadline: Date.now() + 150 });
  assert.equal(res.status, 503);
  assert.equal(await res.text(), "busy #1");
  assert.equal(hits.get("/deadline"), 1);
});

test("a budget that never answers: maxRetryTime in fetchWithRetry ends the withdrawal too", async () => {
  const res = await fetchWithRetry(`${base}/max-retry-time`, undefined, { policy: 1, retries: 3, maxRetryTime: 120, budget: silentBudget() });
  assert.equal(res.status, 503);
  assert.equal(hits.get("/max-retry-time"), 1);
});

test("a budget that never answers, with neither an abort nor a deadline: the call waits for the store", async () => {
  assert.equal(await pendingAfter(retry(failing, 1, { retries: 3, budget: silentBudget() }), 100), true);
});

test("a budget that grants a retry so late that the wait would end past the deadline: stopped then, no wait begun", async (t) => {
  // Mock time: before the withdrawal the 100 ms wait fits in the 150 ms; once the store answers
  // (80 ms later) it does not.
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_800_000_000_000 });
  let asked = 0;
  const budget = { deposit() {}, tryWithdraw: () => (asked++, new Promise((r) => setTimeout(() => r(true), 80))) };
  let e;
  const p = retry(failing, 100, { retries: 3, budget, deadline: { afterMs: 150 } }).then(() => assert.fail("resolved"), (x) => (e = x));
  while (asked === 0) await new Promise((r) => setImmediate(r));
  t.mock.timers.tick(80);
  // Settled once the answer's promise jobs have run: no timer (a wait) is begun.
  await new Promise((r) => setImmediate(r));
  assert.ok(e instanceof RetryError, "settled without a wait");
  await p;
  assert.equal(e.reason, "deadline");
  assert.equal(e.attempts, 1);
  assert.equal(asked, 1);
  assert.equal(e.elapsedMs, 80, "stopped when the store answered, not after a wait");
});

test("a budget whose store answers with promises: granted retries go on, a refusal stops with reason budget", async () => {
  let calls = 0;
  const ok = await retry(() => (++calls < 3 ? failing() : "done"), 1, { retries: 3, budget: slowBudget(5, true) });
  assert.equal(ok, "done");
  const e = await retry(failing, 1, { retries: 3, budget: slowBudget(5, false) }).catch((x) => x);
  assert.equal(e.reason, "budget");
});

test("a budget store that fails grants no retry: reason budget with the attempt's error (fetchWithRetry: its Response), never the store's error; a failing deposit is ignored", async () => {
  const down = () => { throw new Error("store down"); };
  const stores = {
    "tryWithdraw throws": { deposit() {}, tryWithdraw: down },
    "tryWithdraw rejects": { deposit() {}, tryWithdraw: () => Promise.reject(new Error("store down")) },
  };
  for (const [kind, budget] of Object.entries(stores)) {
    const e = await retry(failing, 1, { retries: 3, budget }).catch((x) => x);
    assert.ok(e instanceof RetryError, kind);
    assert.equal(e.reason, "budget", kind);
    assert.equal(e.attempts, 1);
    assert.equal(e.cause.message, "down");
    const path = `/store-${kind.replace(" ", "-")}`;
    const res = await fetchWithRetry(`${base}${path}`, undefined, { policy: 1, retries: 3, budget });
    assert.equal(res.status, 503, kind);
    assert.equal(await res.text(), "busy #1");
  }
  let calls = 0;
  const value = await retry(() => (++calls < 2 ? failing() : "done"), 1, { retries: 3, budget: { deposit: down, tryWithdraw: () => true } });
  assert.equal(value, "done");
  const res = await fetchWithRetry(`${base}/deposit-throws`, undefined, { policy: 1, retries: 1, budget: { deposit: down, tryWithdraw: () => true } });
  assert.equal(await res.text(), "busy #2");
});

for (const [kind, make] of [
  ["used", async (url) => { const q = new Request(url, { method: "POST", body: "abc" }); await q.text(); return q; }],
  ["locked", async (url) => { const q = new Request(url, { method: "PUT", body: "abc" }); q.body.getReader(); return q; }],
]) {
  test(`a Request input whose body is ${kind}: fetch's own TypeError as a plain fetch gives it, nothing sent`, async () => {
    const plain = await fetch(await make(`${base}/plain`)).catch((x) => x);
    assert.ok(plain instanceof TypeError);
    const e = await fetchWithRetry(await make(`${base}/${kind}`), undefined, { policy: 1, retries: 2 }).catch((x) => x);
    assert.ok(!(e instanceof RetryError), String(e));
    assert.ok(e instanceof TypeError);
    assert.equal(e.message, plain.message);
    assert.equal(hits.get(`/${kind}`), undefined);
  });
}

test("a Request input with a body and init.body null: the Request's own body is sent (as fetch does), once, on a failure and on a deferral", async () => {
  for (const [path, query] of [["/null-body-failure", ""], ["/null-body-deferral", "?retryAfter=0"]]) {
    const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("own body")); c.close(); } });
    const request = new Request(`${base}${path}${query}`, { method: "PUT", body: stream, duplex: "half" });
    const res = await fetchWithRetry(request, { body: null }, { policy: 1, retries: 2 });
    assert.equal(res.status, 503);
    assert.equal(await res.text(), "busy #1");
    assert.deepEqual(bodies.get(path), ["own body"]);
  }
});

test("a used Request input whose body init replaces: sent as fetch would send it, again on every attempt, with init's body", async () => {
  const request = new Request(`${base}/replaced`, { method: "PUT", body: "first" });
  await request.text();
  const res = await fetchWithRetry(request, { body: "replacement" }, { policy: 1, retries: 2 });
  assert.equal(res.status, 503);
  assert.equal(await res.text(), "busy #3");
  assert.deepEqual(bodies.get("/replaced"), ["replacement", "replacement", "replacement"]);
});

test("a store's withdrawal that loses the race with an abort is still charged by the store, not refunded (as docs/guides/fleet-budgets.md says)", async () => {
  const { createRetryBudget } = await import("../../pkg/dist/esm/retry.js");
  // A store of one bucket (no expiry within the test): the units of the window, and its steps.
  let units = 0;
  const steps = [];
  let answer;
  const store = {
    deposit(n) {
      steps.push(`deposit ${n}`);
      units += n;
      return Promise.resolve();
    },
    withdraw(n, rule) {
      steps.push(`withdraw ${n}`);
      return new Promise((resolve) => {
        answer = () => {
          const charged = rule.reserve + units >= n;
          if (charged) units -= n;
          resolve({ charged, balance: rule.reserve + units });
        };
      });
    },
  };
  // ratio 1/2: a call deposits 1 unit, a retry costs 2; reserve 1 retry per second × 10 s = 20 units.
  const budget = createRetryBudget({ ratio: 0.5, minPerSecond: 1, store });
  const controller = new AbortController();
  const p = retry(() => Promise.reject(new Error("down")), 0, { retries: 1, budget, signal: controller.signal });
  while (answer === undefined) await new Promise((r) => setImmediate(r));
  controller.abort(new Error("user gave up"));
  await assert.rejects(p, (e) => e instanceof RetryError && e.reason === "aborted" && e.message !== "" && e.cause.message === "user gave up");
  // The store answers after the call gave up: it takes the retry's 2 units, and nothing gives them back.
  answer();
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(steps, ["deposit 1", "withdraw 2"]);
  assert.equal(units, -1);
  assert.equal(budget.balance, 9); // floor((20 + 1 - 2) / 2)
});
