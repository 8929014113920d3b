// Two promises of the runtime that a slow budget store and a deferral could bend: the wait
// after a store's late answer is still cut to what maxRetryTime leaves, and a deferral
// (429/503 with a server wait) spends no retry in what onFailedAttempt reports (p-retry's
// counts never below 0 or above `retries`), and onRetry's count is the attempts still allowed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRetryBudget, fetchWithRetry } from "../../pkg/dist/esm/retry.js";
import { listen } from "./server.mjs";

async function serve(answer) {
  let n = 0;
  const arrivals = [];
  const server = await listen((req, res) => {
    arrivals.push(performance.now());
    req.resume();
    req.on("end", () => {
      const [status, headers = {}] = answer(n++);
      res.writeHead(status, headers).end(String(status));
    });
  });
  return { url: `${server.url}/`, arrivals, close: server.close };
}

test("a store that answers a withdrawal late: the next attempt still begins within maxRetryTime", async () => {
  const s = await serve(() => [503]);
  await fetch(s.url).then((r) => r.text()); // Node's first fetch builds its client; not part of the call
  s.arrivals.length = 0;
  // The time the store took to answer, on the clock maxRetryTime is counted by.
  let took;
  const slow = () => {
    const asked = performance.now();
    return new Promise((r) => setTimeout(() => r({ charged: true, balance: 9 }), 1000)).finally(() => (took = performance.now() - asked));
  };
  const budget = createRetryBudget({ store: { deposit: async () => {}, withdraw: slow } });
  const waits = [];
  const res = await fetchWithRetry(s.url, undefined, { budget, policy: 5000, retries: 5, maxRetryTime: 2000, onRetry: ({ delayMs }) => waits.push(delayMs) });
  await s.close();
  assert.equal(res.status, 503);
  assert.equal(s.arrivals.length, 2, "one retry: the wait after the store's answer is cut to what is left");
  assert.equal(waits.length, 1);
  // The call began before the store was asked and the wait was cut after it answered, so what
  // maxRetryTime left was at most 2 000 ms less the store's time (a wait cut before the store
  // answered would be about 2 000 ms).
  assert.ok(waits[0] <= 2000 - took, `waited ${waits[0]} ms after a store that took ${took} ms`);
});

test("a deferral spends no retry: onFailedAttempt's retriesLeft/retriesConsumed stay p-retry's counts, onRetry counts attempts still allowed", async () => {
  const s = await serve((i) => (i === 0 ? [429, { "retry-after": "0" }] : i === 1 ? [503] : [200]));
  const seen = [];
  const res = await fetchWithRetry(s.url, undefined, {
    retries: 2, policy: 1,
    onFailedAttempt: (c) => seen.push(["failed", c.attemptNumber, c.retriesLeft, c.retriesConsumed]),
    onRetry: (e) => seen.push(["retry", e.attempt, e.retriesLeft, e.deferral]),
  });
  await s.close();
  assert.equal(res.status, 200);
  assert.deepEqual(seen, [
    // p-retry's context: retries left and consumed, which a deferral does not change.
    // onRetry's retriesLeft: the attempts the budget still allows (3 before any failure).
    ["failed", 1, 2, 0], ["retry", 1, 3, true],
    ["failed", 2, 2, 0], ["retry", 2, 2, false],
  ]);
});
