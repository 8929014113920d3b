// A fleet of Node processes sharing one retry budget through a real redis-server (started
// and stopped here), each calling retry() back to back against a local HTTP server. Every
// process is a fresh `node tests/budget/fleet-child.mjs` importing the built package (pkg/).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
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

/** Every fleet process's reports: "change" after each one, and after a process exits. */
const events = new EventEmitter();

/**
 * Resolves once `ok()` holds, checked after each report of a fleet process; rejects when a
 * process exits first (the test's own timeout ends a run that never gets there).
 */
function until(ok) {
  return new Promise((resolve, reject) => {
    const check = (exited) => {
      if (ok()) resolve();
      else if (exited) reject(new Error(`a fleet process exited before ${ok}`));
      else return;
      events.off("change", check);
    };
    events.on("change", check);
    check(false);
  });
}

/**
 * Starts one fleet process; resolves, once it is connected and waiting, with
 * `{ go(), stop(), progress, done }`: `go()` starts its run, `stop()` ends it, `progress` is
 * its latest { retries, charged, late }, `done` resolves with its report.
 */
function startChild(cfg) {
  return new Promise((ready, reject) => {
    const p = spawn(process.execPath, [child, JSON.stringify(cfg)], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
    let out = "";
    let err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    const handle = {
      go: () => p.send("go"),
      stop: () => p.connected && p.send("stop"),
      progress: { retries: 0, charged: 0, late: 0 },
    };
    handle.done = new Promise((resolve, fail) => {
      p.once("exit", (code, signal) => {
        events.emit("change", true);
        if (code !== 0) {
          const e = new Error(`fleet process exited ${code ?? signal}:\n${err}`);
          reject(e);
          return fail(e);
        }
        resolve(JSON.parse(out.trim().split("\n").at(-1)));
      });
    });
    handle.done.catch(() => {});
    p.on("message", (m) => {
      if (m === "ready") return ready(handle);
      handle.progress = m.progress;
      events.emit("change", false);
    });
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

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// No assertion here depends on how fast the machine is: processes run until the budget stops
// them or a given number of calls is made, phases follow the processes' reports, and the
// windows (50 and 60 s) and store timeouts (10 and 30 s) are far longer than any run.

test("four processes, one budget in Redis (ratio 0, minPerSecond 1, 60 s window): the fleet retries exactly 60 times, where four local budgets would allow 240", { skip, timeout: 120_000 }, async (t) => {
  assert.equal(missingRedis, undefined, missingRedis);
  const redis = await startRedis();
  const server = await startServer();
  try {
    // A slow answer on a loaded machine is not a store failure here (the killed-server test is).
    const budget = { ratio: 0, minPerSecond: 1, windowMs: "60 seconds", storeTimeoutMs: 30_000 };
    const runs = await runFleet([0, 1, 2, 3].map((i) => ({
      port: redis.port, key: "budget:a", client: i % 2 ? "node-redis" : "ioredis", budget, url: `${server.base}/fail`, untilBudget: true, concurrency: 4,
    })));
    const retries = sum(runs.map((r) => r.retries));
    t.diagnostic(`fleet: ${sum(runs.map((r) => r.calls))} calls, ${retries} retries`);
    assert.equal(retries, 60, JSON.stringify(runs.map((r) => ({ ...r, charged: r.charged.length }))));
    // Every retry was a withdrawal the store charged; no store error, no unhandled rejection.
    assert.equal(sum(runs.map((r) => r.charged.length)), 60);
    for (const r of runs) {
      assert.deepEqual(r.storeErrors, []);
      assert.deepEqual(r.unhandled, []);
      assert.deepEqual(r.late, []);
      assert.equal(r.reasons.budget, r.calls);
    }
    assert.equal(server.hits["/fail"], sum(runs.map((r) => r.attempts)));
  } finally {
    await server.close();
    await redis.close();
  }
});

test("three processes that make 500 successful calls each, flush and exit fund a fourth started after them with the full ratio: 150 retries at ratio 0.1", { skip, timeout: 120_000 }, async (t) => {
  assert.equal(missingRedis, undefined, missingRedis);
  const redis = await startRedis();
  const server = await startServer();
  try {
    const budget = { ratio: 0.1, minPerSecond: 0, windowMs: "60 seconds", storeTimeoutMs: 30_000 };
    const ok = (i) => ({ port: redis.port, key: "budget:b", client: i % 2 ? "node-redis" : "ioredis", budget, url: `${server.base}/ok`, calls: 500, concurrency: 8 });
    const funders = await runFleet([ok(0), ok(1), ok(2)]);
    for (const r of funders) {
      assert.deepEqual([r.calls, r.retries, r.reasons], [500, 0, { ok: 500 }]);
      assert.deepEqual(r.storeErrors, []);
      assert.deepEqual(r.unhandled, []);
    }
    // Every funder has exited: what it deposited is in Redis or nowhere. The fourth makes one
    // call that always fails: 1 500 calls before it and its own pay 1 501 units, 150 retries of 10.
    const [f] = await runFleet([{ port: redis.port, key: "budget:b", client: "ioredis", budget, url: `${server.base}/fail`, calls: 1 }]);
    t.diagnostic(`funders: 3 × 500 calls; the failing call retried ${f.retries} times`);
    assert.deepEqual([f.calls, f.retries, f.charged.length, f.reasons], [1, 150, 150, { budget: 1 }]);
    assert.deepEqual(f.storeErrors, []);
    assert.deepEqual(f.unhandled, []);
  } finally {
    await server.close();
    await redis.close();
  }
});

test("redis-server killed mid-run: no hang, no unhandled rejection, each process's local budget (50), onStoreError once (the connection error; a step left unanswered by the kill times out later, in the same outage), the shared budget again after the restart", { skip, timeout: 120_000 }, async (t) => {
  assert.equal(missingRedis, undefined, missingRedis);
  const redis = await startRedis();
  const server = await startServer();
  try {
    // A 50 s window (reserve 1 × 50 = 50 retries): nothing expires during the test. A step the
    // kill leaves unanswered (ioredis drops commands in flight and sends them nowhere) times out
    // after 10 s, most often after the restart: still the same outage.
    const budget = { ratio: 0, minPerSecond: 1, windowMs: "50 seconds", storeTimeoutMs: 10_000 };
    let killedAt;
    let restartedAt;
    let chargedBefore;
    const runs = await runFleet([0, 1, 2].map((i) => ({
      port: redis.port, key: "budget:c", client: i % 2 ? "node-redis" : "ioredis", budget, url: `${server.base}/fail`, concurrency: 4,
    })), async (children) => {
      const total = (f) => sum(children.map((c) => f(c.progress)));
      // The phases follow the fleet's progress, not the clock (the machine may be slow).
      await until(() => total((p) => p.charged) >= 50);
      killedAt = Date.now();
      await redis.stop("SIGKILL");
      chargedBefore = total((p) => p.charged + p.late);
      await until(() => children.every(({ progress: p }) => p.retries - p.charged - p.late >= 50));
      restartedAt = Date.now();
      await redis.restart();
      await until(() => total((p) => p.charged + p.late) - chargedBefore >= 50);
    });
    t.diagnostic(`store errors: ${JSON.stringify(runs.map((r) => r.storeErrors))}`);
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
    const before = charged.filter((x) => x < restartedAt).length;
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
