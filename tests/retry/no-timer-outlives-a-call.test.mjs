// No timer or abort listener outlives a call, however it ends: resolved, exhausted,
// aborted during a wait or a deferral, stopped by a deadline, a budget, an AbortError,
// in retry, fetchWithRetry and backoff-wasm/p-retry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { retry, fetchWithRetry, createRetryBudget, AbortError, sleep } from "../../pkg/dist/esm/retry.js";
import pRetry from "../../pkg/dist/esm/p-retry.js";
import { listen } from "./server.mjs";

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

test("after every kind of ending: no timer armed, no abort listener left", async () => {
  const server = await listen((req, res) => {
    res.writeHead(503, { "retry-after": "3600" });
    res.end("busy");
  });
  const url = `${server.url}/`;
  const before = timers();
  const controller = new AbortController();
  const { signal } = controller;
  const fail = () => { throw new Error("x"); };
  const scenarios = [
    () => retry(() => "ok", 10, { retries: 3, signal }),
    () => retry(fail, 1, { retries: 2, signal }),
    () => retry(fail, 1, { retries: 2, signal, shouldRetry: () => false }),
    () => retry(fail, "1 hour", { retries: 2, signal, deadline: { afterMs: 1000 } }),
    () => retry(fail, 1, { retries: 5, signal, budget: createRetryBudget({ ratio: 0, minPerSecond: 0, windowMs: 1000 }) }),
    () => pRetry(() => { throw new AbortError("no"); }, { retries: 3, signal, minTimeout: 1 }),
    () => pRetry(fail, { retries: 2, signal, minTimeout: 1 }),
    () => fetchWithRetry(url, undefined, { signal, maxDeferralMs: 10 }),
    () => fetchWithRetry(url, undefined, { signal, retries: 1, maxDeferrals: 0, maxRetryAfter: 1, policy: 1 }),
  ];
  for (const s of scenarios) {
    // A returned Response is the caller's: fetch keeps its listener until the body is done.
    await s().then((r) => r?.body?.cancel(), () => undefined);
    await new Promise((r) => setImmediate(r));
    // fetch itself (undici) keeps a listener on a signal it was given until GC, even for a
    // plain fetch(url, { signal }): only calls without fetch are checked for listeners.
    if (!String(s).includes("fetchWithRetry")) assert.equal(getEventListeners(signal, "abort").length, 0, String(s));
  }
  // Aborted during a long wait, a deferral, p-retry's wait, a sleep.
  for (const make of [
    (sig) => retry(fail, "1 hour", { retries: 2, signal: sig }),
    (sig) => fetchWithRetry(url, undefined, { signal: sig }),
    (sig) => pRetry(fail, { retries: 2, signal: sig, minTimeout: 3_600_000 }),
    (sig) => sleep(3_600_000, { signal: sig }),
  ]) {
    const c = new AbortController();
    const p = make(c.signal).catch(() => undefined);
    setTimeout(() => c.abort(new Error("stop")), 20);
    await p;
    if (!String(make).includes("fetchWithRetry")) assert.equal(getEventListeners(c.signal, "abort").length, 0, String(make));
  }
  await new Promise((r) => setImmediate(r));
  assert.equal(timers(), before);
  await server.close();
});
