// durableObjectBudgetStore + RetryBudgetObject in workerd (Miniflare): one Worker exports the
// Durable Object class, three other Workers (three isolates, each with its own budget object
// at module scope) reach it by binding, and their invocations share one budget. Every call is
// retry() on a fetch of a local HTTP server. One caller's namespace can be switched to
// "never answers", to see the fallback to the isolate's own budget and the way back. Invocations
// that return while their deposits are on the way pass budget.flush() to ctx.waitUntil.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { workerdModules } from "../workerd-modules.mjs";
import { Miniflare, missing } from "../miniflare.mjs";
import { scratchDir } from "../scratch-dir.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
// With CI=true nothing is skipped: a missing engine fails the test.
const skip = missing && process.env.CI !== "true" ? missing : false;

const HOST = `export { RetryBudgetObject } from "./dist/workerd/retry.js";
export default { fetch: () => new Response("the retry budget's Durable Object lives here") };
`;

const CALLER = `import { retry, createRetryBudget, durableObjectBudgetStore } from "./dist/workerd/retry.js";
const budgets = new Map();
const errors = [];
// Budget name -> how many flushes passed to ctx.waitUntil have settled.
const flushed = new Map();
let down = false;
// The binding, but each stub's fetch never answers while "down".
const flaky = (ns) => ({
  idFromName: (name) => ns.idFromName(name),
  get: (id) => {
    const stub = ns.get(id);
    return { fetch: (...args) => (down ? new Promise(() => {}) : stub.fetch(...args)) };
  },
});
export default {
  async fetch(request, env, ctx) {
    const q = new URL(request.url).searchParams;
    if (q.has("down")) {
      down = q.get("down") === "1";
      return new Response("ok");
    }
    const name = q.get("name");
    if (q.has("flushed")) return new Response(String(flushed.get(name) ?? 0));
    const options = JSON.parse(q.get("budget"));
    let budget = budgets.get(name);
    if (!budget) {
      budget = createRetryBudget({
        ...options, storeTimeoutMs: 5000, store: durableObjectBudgetStore(flaky(env.RETRY_BUDGET), { name }),
        onStoreError: (e) => errors.push(e.name + ": " + e.message),
      });
      budgets.set(name, budget);
    }
    let calls = 0;
    let attempts = 0;
    const fn = async () => {
      attempts++;
      const res = await fetch(q.get("url"));
      await res.arrayBuffer();
      if (!res.ok) throw new Error("status " + res.status);
    };
    const call = () => {
      calls++;
      return retry(fn, 0, { retries: 1000, budget }).catch(() => {});
    };
    if (q.has("parallel")) await Promise.all(Array.from({ length: Number(q.get("calls")) }, call));
    else for (let i = 0; i < Number(q.get("calls")); i++) await call();
    if (q.has("flush")) ctx.waitUntil(budget.flush().then(() => flushed.set(name, (flushed.get(name) ?? 0) + 1)));
    return Response.json({ calls, attempts, retries: attempts - calls, errors });
  },
};
`;

test("workerd: three Workers (isolates) share one RetryBudgetObject; the rule holds fleet-wide; a store that stops answering falls back to the isolate's budget and comes back", { skip, timeout: 120_000 }, async () => {
  assert.equal(missing, undefined, missing);
  const dir = scratchDir("budget-workerd");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(`${root}pkg/dist`, `${dir}/dist`, { recursive: true });
  writeFileSync(`${dir}/host.mjs`, HOST);
  writeFileSync(`${dir}/caller.mjs`, CALLER);

  const server = createServer((req, res) => {
    res.writeHead(req.url === "/ok" ? 200 : 503);
    res.end("x");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const callers = ["a", "b", "c"];
  const mf = new Miniflare({
    workers: [
      { name: "host", ...workerdModules(dir, "host.mjs"), durableObjects: { RETRY_BUDGET: "RetryBudgetObject" } },
      ...callers.map((name) => ({
        name, ...workerdModules(dir, "caller.mjs"), durableObjects: { RETRY_BUDGET: { className: "RetryBudgetObject", scriptName: "host" } },
      })),
    ],
  });
  try {
    const workers = Object.fromEntries(await Promise.all(callers.map(async (n) => [n, await mf.getWorker(n)])));
    const run = async (w, name, budget, path, calls, more = {}) => {
      const q = new URLSearchParams({ name, budget: JSON.stringify(budget), url: `${base}${path}`, calls: String(calls), ...more });
      const res = await workers[w].fetch(`http://worker/?${q}`);
      assert.equal(res.status, 200);
      return res.json();
    };

    // Windows of a minute or so and a store timeout of 5 s: bounds that the steps of each part
    // fit in however slow the machine is (only (c) waits for the timeout, on purpose).
    // (a) ratio 0, minPerSecond 1, 50 s: six invocations (two per isolate, at once) retry 50 times in all.
    const a = { ratio: 0, minPerSecond: 1, windowMs: "50 seconds" };
    const runsA = await Promise.all(["a", "a", "b", "b", "c", "c"].map((w) => run(w, "fleet-a", a, "/fail", 20)));
    assert.equal(runsA.reduce((s, r) => s + r.retries, 0), 50, JSON.stringify(runsA)); // three isolate budgets would allow 150
    for (const r of runsA) assert.deepEqual(r.errors, []);

    // (b) ratio 0.1, minPerSecond 0: calls that succeed in a and b fund the retries of c's failing calls.
    const b = { ratio: 0.1, minPerSecond: 0, windowMs: "60 seconds" };
    const funders = await Promise.all([run("a", "fleet-b", b, "/ok", 150), run("b", "fleet-b", b, "/ok", 150)]);
    const failing = await run("c", "fleet-b", b, "/fail", 50);
    const calls = funders[0].calls + funders[1].calls + failing.calls;
    assert.ok(failing.retries * 10 <= calls, `retries ${failing.retries} ≤ 0.1 × ${calls} calls`);
    assert.ok(failing.retries >= 0.9 * 0.1 * calls, `retries ${failing.retries} ≥ 90 % of 0.1 × ${calls} calls`);

    // (c) the store stops answering for isolate a: after 5 s a goes on with its own budget
    // (its reserve: 50 retries), says so once; b still shares the object's budget (50).
    await workers.a.fetch("http://worker/?down=1");
    const c = { ratio: 0, minPerSecond: 1, windowMs: "50 seconds" };
    const local = await run("a", "fleet-c", c, "/fail", 5);
    assert.equal(local.retries, 50);
    assert.equal(local.errors.length, 1);
    assert.equal(local.errors[0], "TimeoutError: the retry budget store did not answer within 5000 ms");
    // Back: a's next check finds the object answering; its own budget is spent, so every retry
    // it makes now is the object's, and the object's budget is then gone for b too.
    // A check sent while down (its request has ended) stops counting after the timeout.
    await workers.a.fetch("http://worker/?down=0");
    await new Promise((r) => setTimeout(r, 5300));
    const back = await run("a", "fleet-c", c, "/fail", 5);
    assert.equal(back.retries, 50);
    assert.equal(back.errors.length, 1);
    const other = await run("b", "fleet-c", c, "/fail", 5);
    assert.equal(other.retries, 0);

    // (d) invocations whose calls all start at once and succeed, then return at once: their
    // deposits are still on the way (one sent, the rest added up behind it). With
    // ctx.waitUntil(budget.flush()) they all land: 100 calls in a and b, then one failing call
    // in c pay 101 units, 10 retries of 10 units each.
    const d = { ratio: 0.1, minPerSecond: 0, windowMs: "60 seconds" };
    for (const w of ["a", "b"]) {
      const r = await run(w, "fleet-d", d, "/ok", 50, { parallel: "1", flush: "1" });
      assert.deepEqual([r.calls, r.retries, r.errors.length], [50, 0, w === "a" ? 1 : 0]); // a's is (c)'s
    }
    // Each isolate says when the flush its invocation left to ctx.waitUntil has settled.
    for (const w of ["a", "b"]) {
      while ((await (await workers[w].fetch("http://worker/?flushed=1&name=fleet-d")).text()) !== "1");
    }
    const funded = await run("c", "fleet-d", d, "/fail", 1);
    assert.deepEqual([funded.calls, funded.retries], [1, 10]);
  } finally {
    await mf.dispose();
    await new Promise((r) => server.close(r));
  }
});
