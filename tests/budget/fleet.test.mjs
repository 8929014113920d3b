// A fleet of Node processes sharing one retry budget through a real redis-server (started
// and stopped here), each calling retry() back to back against a local HTTP server. Every
// process is a fresh `node tests/budget/fleet-child.mjs` importing the built package (pkg/).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { missingRedis, startRedis } from "./redis-server.mjs";

const child = fileURLToPath(new URL("./fleet-child.mjs", import.meta.url));
// With CI=true nothing is skipped: a missing engine fails the test.
const skip = missingRedis && process.env.CI !== "true" ? missingRedis : false;

/** A local HTTP server: /fail answers 503, /ok answers 200. */
async function startServer() {
  const hits = { "/fail": 0, "/ok": 0 };
  const server = createServer((req, res) => {
    hits[req.url] = (hits[req.url] ?? 0) + 1;
    res.writeHead(req.url === "/ok" ? 200 : 503);
    res.end("x");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${server.address().port}`, hits, close: () => new Promise((r) => server.close(r)) };
}

/**
 * Starts one fleet process; resolves, once it is connected and waiting, with
 * `{ go(), stop(), progress, done }`: `go()` starts its run, `stop()` ends it, `progress` is its
 * latest { retries, charged, late }, `done` resolves with its report and how long it ran (ms).
 */
function startChild(cfg) {
  return new Promise((ready, reject) => {
    const p = spawn(process.execPath, [child, JSON.stringify(cfg)], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
    let out = "";
    let err = "";
    let t0;
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    const handle = {
      go: () => ((t0 = Date.now()), p.send("go")),
      stop: () => p.connected && p.send("stop"),
      progress: { retries: 0, charged: 0, late: 0 },
    };
    handle.done = new Promise((resolve, fail) => {
      const timer = setTimeout(() => p.kill("SIGKILL"), (cfg.runMs ?? 30_000) + 60_000);
      p.once("exit", (code, signal) => {
        clearTimeout(timer);
        if (code !== 0) {
          const e = new Error(`fleet process exited ${code ?? signal}:\n${err}`);
          reject(e);
          return fail(e);
        }
        resolve({ ...JSON.parse(out.trim().split("\n").at(-1)), ranMs: Date.now() - t0 });
      });
    });
    handle.done.catch(() => {});
    p.on("message", (m) => (m === "ready" ? ready(handle) : (handle.progress = m.progress)));
  });
}

/** Starts every process of `cfgs`, lets them all go at once; with `during`, stops them once `during(children)` is over. Resolves with their reports. */
async function runFleet(cfgs, during) {
  const children = await Promise.all(cfgs.map(startChild));
  for (const c of children) c.go();
  if (during) {
    try {
      await during(children);
    } finally {
      for (const c of children) c.stop();
    }
  }
  return Promise.all(children.map((c) => c.done));
}

/** Resolves once `ok()` holds (checked every 25 ms); rejects after `ms`. */
async function until(ok, ms, what) {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

test("four processes, one budget in Redis (ratio 0, minPerSecond 5, 10 s window): the fleet retries at most 50 times, at least 45", { skip, timeout: 60_000 }, async (t) => {
  assert.equal(missingRedis, undefined, missingRedis);
  const redis = await startRedis();
  const server = await startServer();
  try {
    // A slow answer on a loaded machine is not a store failure here (the killed-server test is).
    const budget = { ratio: 0, minPerSecond: 5, windowMs: "10 seconds", storeTimeoutMs: 10_000 };
    const runs = await runFleet([0, 1, 2, 3].map((i) => ({
      port: redis.port, key: "budget:a", client: i % 2 ? "node-redis" : "ioredis", budget, url: `${server.base}/fail`, runMs: 2000, concurrency: 4,
    })));
    const retries = sum(runs.map((r) => r.retries));
    t.diagnostic(`fleet: ${sum(runs.map((r) => r.calls))} calls, ${retries} retries`);
    assert.ok(retries <= 50 && retries >= 45, `fleet retries ${retries} (four local budgets would allow 200): ${JSON.stringify(runs.map(r => ({...r, charged: r.charged.length})))}`);
    // Every retry was a withdrawal the store charged; no store error, no unhandled rejection.
    assert.equal(sum(runs.map((r) => r.charged.length)), retries);
    for (const r of runs) {
      assert.deepEqual(r.storeErrors, []);
      assert.deepEqual(r.unhandled, []);
      assert.ok(r.calls >= 1);
      assert.equal(r.reasons.budget, r.calls);
    }
    assert.equal(server.hits["/fail"], sum(runs.map((r) => r.attempts)));
  } finally {
    await server.close();
    await redis.close();
  }
});

test("ratio 0.1, minPerSecond 0: three processes whose calls succeed fund a fourth whose calls fail; its retries are at most 0.1 × the fleet's calls, at least 90 % of that", { skip, timeout: 60_000 }, async (t) => {
  assert.equal(missingRedis, undefined, missingRedis);
  const redis = await startRedis();
  const server = await startServer();
  try {
    const budget = { ratio: 0.1, minPerSecond: 0, windowMs: "10 seconds", storeTimeoutMs: 10_000 };
    const ok = (i) => ({ port: redis.port, key: "budget:b", client: i % 2 ? "node-redis" : "ioredis", budget, url: `${server.base}/ok`, runMs: 2000, concurrency: 8 });
    // The failing process goes on 1.5 s after the others, to spend what their last calls earned.
    const failing = { port: redis.port, key: "budget:b", client: "ioredis", budget, url: `${server.base}/fail`, runMs: 3500, concurrency: 4 };
    const [a, b, c, f] = await runFleet([ok(0), ok(1), ok(2), failing]);
    const calls = a.calls + b.calls + c.calls + f.calls;
    t.diagnostic(`fleet: ${calls} calls (${f.calls} failing), ${f.retries} retries`);
    assert.equal(a.retries + b.retries + c.retries, 0);
    assert.ok(f.retries * 10 <= calls, `retries ${f.retries} ≤ 0.1 × ${calls} calls`);
    assert.ok(f.retries >= 0.9 * 0.1 * calls, `retries ${f.retries} ≥ 90 % of 0.1 × ${calls} calls`);
    assert.equal(f.charged.length, f.retries);
    for (const r of [a, b, c, f]) {
      assert.deepEqual(r.storeErrors, []);
      assert.deepEqual(r.unhandled, []);
    }
  } finally {
    await server.close();
    await redis.close();
  }
});

test("redis-server killed mid-run: no hang, no unhandled rejection, each process's local budget (50), onStoreError once, the shared budget again after the restart", { skip, timeout: 120_000 }, async () => {
  assert.equal(missingRedis, undefined, missingRedis);
  const redis = await startRedis();
  const server = await startServer();
  try {
    // A 50 s window (reserve 1 × 50 = 50 retries): nothing expires during the test.
    const budget = { ratio: 0, minPerSecond: 1, windowMs: "50 seconds" };
    let killedAt;
    let restartedAt;
    let chargedBefore;
    const runs = await runFleet([0, 1, 2].map((i) => ({
      port: redis.port, key: "budget:c", client: i % 2 ? "node-redis" : "ioredis", budget, url: `${server.base}/fail`, runMs: null, concurrency: 4,
    })), async (children) => {
      const total = (f) => sum(children.map((c) => f(c.progress)));
      // The phases follow the fleet's progress, not the clock (the machine may be slow).
      await until(() => total((p) => p.charged) >= 50, 20_000, "the shared budget to be spent");
      await new Promise((r) => setTimeout(r, 100));
      killedAt = Date.now();
      await redis.stop("SIGKILL");
      chargedBefore = children.map((c) => c.progress.charged + c.progress.late);
      await until(() => children.every((c) => c.progress.retries - c.progress.charged - c.progress.late >= 50), 20_000, "each local budget to be spent");
      await new Promise((r) => setTimeout(r, 300));
      restartedAt = Date.now();
      await redis.restart();
      await until(() => total((p) => p.charged + p.late) - sum(chargedBefore) >= 50, 20_000, "the new shared budget to be spent");
      await new Promise((r) => setTimeout(r, 300));
    });
    for (const r of runs) {
      assert.deepEqual(r.unhandled, []);
      // One report per outage, after the kill and before the restart.
      assert.equal(r.storeErrors.length, 1, JSON.stringify(r.storeErrors));
      assert.ok(r.storeErrors[0].at >= killedAt && r.storeErrors[0].at < restartedAt);
      // What the store did not charge, the process's own budget paid: exactly its reserve.
      assert.equal(r.retries - r.charged.length - r.late.length, 50, `local retries of a process (${JSON.stringify(r)})`);
    }
    const charged = runs.flatMap((r) => [...r.charged, ...r.late]);
    // Charged by the first server (before it died) or by the second one.
    const before = charged.filter((t) => t < restartedAt).length;
    const after = charged.length - before;
    assert.equal(before, 50, "shared retries before the kill");
    // The restarted server starts empty: the fleet shares a fresh budget of 50 (a withdrawal
    // charged after its timeout is lost to the fleet, never paid twice).
    assert.equal(after, 50, "shared retries after the restart");
    assert.deepEqual(runs.flatMap((r) => r.late), []);
  } finally {
    await server.close();
    await redis.close();
  }
});
