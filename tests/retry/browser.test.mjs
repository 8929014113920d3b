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
    }).then(() => "resolved", (e) => e.message);
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
    delays: [2000], aborted: "left the page", post: 503, asctime: 2000,
    revoked: "TypeError: input must be headers, a Response or an object with headers that can be read; received an object (cause: true)",
  });
  assert.equal(api.hits("browser-abort").length, 1);
  assert.deepEqual(api.hits("browser-post").map((h) => h.method), ["POST"]);
});
