// fetchWithRetry in headless Chromium (playwright-core, /usr/bin/chromium):
// a page served by one local server imports pkg/dist/esm/retry.js and
// fetches from a second local server (another origin, so CORS applies and the
// server must expose Retry-After).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { startServer } from "./server.mjs";

const CHROMIUM = "/usr/bin/chromium";
// Without Chromium the tests are skipped, except with CI=true, where they run and fail.
const SKIP = !existsSync(CHROMIUM) && process.env.CI !== "true" && "no /usr/bin/chromium (CI=true fails instead)";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let site;
let api;
let browser;
let page;
before(async () => {
  site = await startServer();
  api = await startServer();
  if (SKIP) return;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  page = await browser.newPage();
  await page.goto(`${site.url}/`);
});
after(async () => {
  await browser?.close();
  await site.close();
  await api.close();
});

test("in Chromium: 503 (Retry-After: 2), 429 (HTTP-date), 200 across origins", { skip: SKIP }, async () => {
  const result = await page.evaluate(async (url) => {
    const { fetchWithRetry } = await import("/dist/esm/retry.js");
    const { Backoff } = await import("/dist/esm/backoff.js");
    const events = [];
    const res = await fetchWithRetry(url, undefined, {
      policy: Backoff.fixed(1).maxAttempts(5),
      maxRetryAfter: "40ms",
      onRetry: ({ error, attempt, delay }) => events.push([attempt, error.status, delay]),
    });
    return { status: res.status, text: await res.text(), events, origin: location.origin };
  }, `${api.url}/flaky?id=browser`);
  assert.notEqual(result.origin, api.url);
  assert.deepEqual(result, { status: 200, text: "ok", events: [[1, 503, 40], [2, 429, 40]], origin: site.url });
  assert.equal(api.hits("browser").length, 3);
});

test("in Chromium: the unclamped server wait, a POST not retried, abort during a wait", { skip: SKIP }, async () => {
  const result = await page.evaluate(async (base) => {
    const { fetchWithRetry, retryAfterMs } = await import("/dist/esm/retry.js");
    const controller = new AbortController();
    const delays = [];
    const aborted = await fetchWithRetry(`${base}/flaky?id=browser-abort`, { signal: controller.signal }, {
      policy: 1,
      retries: 3,
      onRetry: ({ delay }) => {
        delays.push(delay);
        setTimeout(() => controller.abort(new Error("left the page")), 0);
      },
    }).then(() => "resolved", (e) => `${e.reason}: ${e.cause.message}`);
    const post = await fetchWithRetry(`${base}/status?code=503&id=browser-post`, { method: "POST", body: "x" }, { policy: 1, retries: 3 });
    return {
      delays,
      aborted,
      post: post.status,
      asctime: retryAfterMs("Sun Nov  6 08:49:39 1994", Date.UTC(1994, 10, 6, 8, 49, 37)),
      revoked: (() => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        try {
          return `returned ${retryAfterMs(proxy)}`;
        } catch (e) {
          return `${e.name}: ${e.message} (cause: ${e.cause instanceof Error})`;
        }
      })(),
    };
  }, api.url);
  assert.deepEqual(result, {
    delays: [2000], aborted: "aborted: left the page", post: 503, asctime: 2000,
    revoked: "TypeError: input must be headers, a Response or an object with headers that can be read; received an object (cause: true)",
  });
  assert.equal(api.hits("browser-abort").length, 1);
  assert.deepEqual(api.hits("browser-post").map((h) => h.method), ["POST"]);
});

test("in Chromium: fetchWithRetry's onFailedAttempt, a one-shot stream body sent once, /retry's AbortError stopping backoff-wasm/p-retry", { skip: SKIP }, async () => {
  const result = await page.evaluate(async (base) => {
    const { fetchWithRetry, AbortError } = await import("/dist/esm/retry.js");
    const failed = [];
    const res = await fetchWithRetry(`${base}/status?code=503&id=browser-p`, undefined, {
      retries: 2, policy: 1,
      onFailedAttempt: ({ error, attemptNumber, retriesLeft, retryDelay }) => failed.push([attemptNumber, error.status, retriesLeft, retryDelay]),
    });
    let calls = 0;
    const realFetch = globalThis.fetch;
    globalThis.fetch = (...args) => (calls++, realFetch(...args));
    const body = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("once")); c.close(); } });
    const stream = await fetchWithRetry(`${base}/status?code=503&id=browser-stream`, { method: "PUT", body, duplex: "half" }, { retries: 3, policy: 1 })
      .then((r) => r.status, (e) => `${e.name} ${e.reason} ${e.cause?.name}`);
    globalThis.fetch = realFetch;
    const { default: pRetry } = await import("/dist/esm/p-retry.js");
    const stopped = await pRetry(() => { throw new AbortError("stop"); }, { retries: 5 }).catch((e) => e.message);
    return { status: res.status, failed, streamCalls: calls, stream, stopped };
  }, api.url);
  // Chromium refuses a streamed upload over HTTP/1.1 (a TypeError): either way, one fetch only.
  assert.deepEqual({ ...result, stream: undefined }, { status: 503, failed: [[1, 503, 2, 1], [2, 503, 1, 1], [3, 503, 0, 0]], streamCalls: 1, stream: undefined, stopped: "stop" });
  assert.ok([503, "RetryError attempts TypeError"].includes(result.stream), String(result.stream));
  assert.equal(api.hits("browser-p").length, 3);
  assert.ok(api.hits("browser-stream").length <= 1);
});

test("in Chromium: a RateLimit deferral (exposed by CORS) spends no attempt; a deadline fails fast; a shared budget", { skip: SKIP }, async () => {
  const result = await page.evaluate(async (base) => {
    const { fetchWithRetry, serverDelayMs, createRetryBudget } = await import("/dist/esm/retry.js");
    const events = [];
    const res = await fetchWithRetry(`${base}/deferral?id=browser-deferral`, undefined, {
      policy: 1, retries: 0, maxRetryAfter: 30,
      onRetry: ({ error, deferral, delayMs, retriesLeft }) => events.push([error.status, serverDelayMs(error), deferral, delayMs, retriesLeft]),
    });
    // The wait (an hour) cannot fit the deadline: no timer is armed for it.
    const setTimer = globalThis.setTimeout;
    const long = [];
    globalThis.setTimeout = (fn, ms, ...args) => ((ms >= 3_000_000 && long.push(ms)), setTimer(fn, ms, ...args));
    const late = await fetchWithRetry(`${base}/status?code=503&id=browser-deadline`, undefined, { policy: "1 hour", retries: 3, deadline: { afterMs: "1 second" } })
      .finally(() => (globalThis.setTimeout = setTimer));
    const fast = long.length === 0;
    // No reserve, ratio 0.5 over a minute: the two calls' first attempts pay one retry between them.
    const budget = createRetryBudget({ ratio: 0.5, minPerSecond: 0, windowMs: "60 seconds" });
    const a = await fetchWithRetry(`${base}/status?code=500&id=browser-budget-a`, undefined, { policy: 1, retries: 3, budget });
    const b = await fetchWithRetry(`${base}/status?code=500&id=browser-budget-b`, undefined, { policy: 1, retries: 3, budget });
    return { status: res.status, events, late: late.status, fast, budgeted: [a.status, b.status] };
  }, api.url);
  assert.deepEqual(result, { status: 200, events: [[429, 1000, true, 30, 1]], late: 503, fast: true, budgeted: [500, 500] });
  assert.equal(api.hits("browser-deferral").length, 2);
  assert.equal(api.hits("browser-deadline").length, 1);
  // One retry in the whole budget (0.5 × 2 calls, no reserve): 2 + 1 requests.
  assert.equal(api.hits("browser-budget-a").length + api.hits("browser-budget-b").length, 3);
});
