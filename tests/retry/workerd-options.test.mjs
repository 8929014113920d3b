// fetchWithRetry under workerd (Miniflare): p-retry-style options, a one-shot
// stream body sent once, a re-readable body sent whole on each attempt, against a
// local server recording the bytes of every attempt. Fails under CI=true when
// miniflare is missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { listen } from "./server.mjs";
import { workerdModules } from "../workerd-modules.mjs";
import { Miniflare } from "../miniflare.mjs";
import { scratchDir } from "../scratch-dir.mjs";

if (!Miniflare && process.env.CI === "true") throw new Error("miniflare is required under CI");

const root = fileURLToPath(new URL("../../", import.meta.url));

const WORKER = `
import { fetchWithRetry, serverDelayMs, createRetryBudget } from "./dist/workerd/retry.js";
export default {
  async fetch(request) {
    const base = new URL(request.url).searchParams.get("base");
    const failed = [];
    const a = await fetchWithRetry(base + "/?id=p", undefined, {
      retries: 2, policy: 1,
      onFailedAttempt: ({ attemptNumber, retriesLeft, retryDelay }) => failed.push([attemptNumber, retriesLeft, retryDelay]),
    });
    const body = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("stream")); c.close(); } });
    const b = await fetchWithRetry(base + "/?id=stream", { method: "PUT", body }, { retries: 3, policy: 1 });
    const c = await fetchWithRetry(base + "/?id=text", { method: "PUT", body: "text body" }, { retries: 3, policy: 1 });
    const deferrals = [];
    const d = await fetchWithRetry(base + "/?id=deferral", undefined, {
      policy: 1, retries: 0, maxRetryAfter: 20,
      onRetry: ({ error, deferral, delayMs }) => deferrals.push([serverDelayMs(error), deferral, delayMs]),
    });
    const e = await fetchWithRetry(base + "/?id=deadline", undefined, { policy: "1 minute", retries: 3, deadline: { afterMs: 1000 } });
    // No reserve, ratio 1 over a minute: the call's first attempt pays its one retry.
    const budget = createRetryBudget({ ratio: 1, minPerSecond: 0, windowMs: "60 seconds" });
    const f = await fetchWithRetry(base + "/?id=p", undefined, { policy: 1, retries: 5, budget });
    return Response.json({ a: a.status, failed, b: b.status, c: c.status, d: d.status, deferrals, e: e.status, f: f.status });
  },
};
`;

test("workerd: p-retry-style options; a stream body goes out once, a text body on every attempt; deferral, deadline, budget", { skip: !Miniflare && process.env.CI !== "true" && "miniflare is not installed (CI=true fails instead)" }, async () => {
  const dir = scratchDir("workerd-options");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(`${root}pkg/dist`, `${dir}/dist`, { recursive: true });
  writeFileSync(`${dir}/worker.mjs`, WORKER);
  const log = new Map();
  const server = await listen((req, res) => {
    const id = new URL(req.url, "http://x").searchParams.get("id");
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const hits = log.get(id) ?? [];
      hits.push(Buffer.concat(chunks).toString());
      log.set(id, hits);
      if (id === "deferral" && hits.length === 1) res.writeHead(429, { "x-ratelimit-reset": "2" });
      else res.writeHead(id === "p" || id === "deadline" || hits.length === 1 ? 503 : 200);
      res.end("x");
    });
  });
  const base = server.url;
  const mf = new Miniflare({
    ...workerdModules(dir),
  });
  try {
    const res = await mf.dispatchFetch(`http://worker/?base=${encodeURIComponent(base)}`);
    assert.deepEqual(await res.json(), {
      a: 503, failed: [[1, 2, 1], [2, 1, 1], [3, 0, 0]], b: 503, c: 200, d: 200, deferrals: [[2000, true, 20]], e: 503, f: 503,
    });
    assert.deepEqual(log.get("p"), ["", "", "", "", ""]); // 3, then 2 under a budget of one retry
    assert.equal(log.get("deferral").length, 2);
    assert.equal(log.get("deadline").length, 1);
    assert.deepEqual(log.get("stream"), ["stream"]);
    assert.deepEqual(log.get("text"), ["text body", "text body"]);
  } finally {
    await mf.dispose();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
