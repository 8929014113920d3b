// docs/guides/queues.md "A webhook sender on BullMQ", run as written on a real redis-server that this test
// starts (free port, temporary directory) and stops. Sender processes run the guide's
// startSender(); a local receiver fails each webhook twice, then takes it.
//
// Phase 1: two senders (A, B) on one queue, two jobs: the receiver holds the first attempts
// until two are in flight, so A and B each take one. With as many senders as jobs a sender is
// always free, so the gaps the receiver sees are BullMQ's delays: they must follow the policy.
// Phase 2: a third job; its first attempt fails on one sender, then both stop and a new
// process (C) takes the job's later attempts. Every failure's wait (job.delay, reported by
// the process that computed it) is policy.seed(job.id).delay(attemptsMade), and the
// strategy of A, B and C gives the same table of waits for the same jobs and attempts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Backoff } from "../../pkg/dist/esm/policy.js";
import { bullmqBackoff } from "../../pkg/dist/esm/queues.js";
import { startRedis } from "../budget/redis-server.mjs";
import { scratchDir } from "../scratch-dir.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const hasRedis = spawnSync("redis-server", ["--version"]).status === 0;
const missing = hasRedis
  ? undefined
  : "redis-server is not installed (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis)";
// With CI=true nothing is skipped: a missing engine fails the test.
const skip = missing && process.env.CI !== "true" ? missing : false;

/** The guide's policy (asserted to be the one in the module's text). */
const policy = Backoff.exponential("500ms").cap("1 minute").jitter(0.5).maxAttempts(8);
const expected = bullmqBackoff(policy);
const wait = (id, n) => expected(n, "custom", undefined, { id });
/** The wait BullMQ gets for a job of the guide's queue: keyed by its name and the job's id. */
const waitIn = (id, n) => expected(n, "custom", undefined, { id, queueName: "webhooks" });


const SENDER = `
import { connection, startSender } from "./webhooks.js";
const worker = startSender();
const send = (m) => process.send({ pid: process.pid, ...m });
worker.on("active", (job) => send({ kind: "active", id: job.id, attemptsMade: job.attemptsMade }));
worker.on("failed", (job) => send({ kind: "failed", id: job.id, attemptsMade: job.attemptsMade, delay: job.delay }));
worker.on("completed", (job) => send({ kind: "completed", id: job.id, attemptsMade: job.attemptsMade }));
worker.on("error", (e) => send({ kind: "error", message: String(e) }));
process.on("message", async (m) => {
  if (m.kind === "table") {
    // This process's strategy (the one the guide gave the Worker), asked directly.
    const strategy = worker.opts.settings.backoffStrategy;
    send({ kind: "table", table: m.ids.map((id) => m.attempts.map((n) => strategy(n, "custom", undefined, { id }))) });
  } else if (m.kind === "stop") {
    await worker.close();
    await connection.quit();
    process.exit(0);
  }
});
await worker.waitUntilReady();
send({ kind: "ready" });
`;

test("docs/guides/queues.md BullMQ webhook sender on redis-server: gaps follow the policy; every sender computes the same keyed waits", { skip, timeout: 90_000 }, async () => {
  assert.equal(missing, undefined, missing);
  const docs = readFileSync(`${root}docs/guides/queues.md`, "utf8");
  const section = docs.slice(docs.indexOf("## A webhook sender on BullMQ"));
  const module = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((c) => c.includes("bullmqBackoff(policy)"));
  assert.ok(module, "docs/guides/queues.md has the BullMQ example");
  assert.match(module, /const policy = Backoff\.exponential\("500ms"\)\.cap\("1 minute"\)\.jitter\(0\.5\)\.maxAttempts\(8\);/);
  // Under tests/ so that bullmq and ioredis resolve from the repository's node_modules.
  const dir = scratchDir("queues-bullmq");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const dist = (name) => JSON.stringify(pathToFileURL(join(root, "pkg", "dist", "esm", `${name}.js`)).href);
  writeFileSync(join(dir, "webhooks.js"), module.replace('"backoff-wasm/queues"', dist("queues")).replace('"backoff-wasm/policy"', dist("policy")));
  writeFileSync(join(dir, "sender.mjs"), SENDER);

  // The receiver. Deliveries per webhook-id (the job id): [{ arrived, answered }].
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const deliveries = {};
  let held = []; // first attempts held until two are in flight (phase 1) or the test releases them (phase 2)
  let holdUntil = 2;
  const waiters = [];
  const changed = () => waiters.splice(0).forEach((f) => f());
  const until = async (what, cond, ms = 30_000) => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  const answer = (res, entry, status) => {
    res.writeHead(status);
    res.end();
    entry.answered = now();
    changed();
  };
  const server = createServer(async (req, res) => {
    const arrived = now();
    let body = "";
    for await (const chunk of req) body += chunk;
    const id = req.headers["webhook-id"];
    const list = (deliveries[id] ??= []);
    const entry = { arrived, event: JSON.parse(body) };
    list.push(entry);
    if (list.length === 1) {
      held.push(() => answer(res, entry, 503));
      if (held.length >= holdUntil) held.splice(0).forEach((f) => f());
      changed();
    } else answer(res, entry, list.length === 2 ? 500 : 200);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/hook`;

  const redis = await startRedis();
  process.env.REDIS_URL = `redis://127.0.0.1:${redis.port}`;
  const events = [];
  const senders = new Map(); // name -> child
  const spawnSender = async (name) => {
    const child = spawn(process.execPath, [join(dir, "sender.mjs")], {
      cwd: dir, env: { ...process.env }, stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child.on("message", (m) => {
      events.push({ name, ...m });
      changed();
    });
    senders.set(name, child);
    await until(`${name} ready`, () => events.some((e) => e.name === name && e.kind === "ready"));
    return child;
  };
  const stopSender = async (name) => {
    const child = senders.get(name);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.send({ kind: "stop" });
    await exited;
    senders.delete(name);
  };
  const table = async (name, ids, attempts) => {
    const before = events.length;
    senders.get(name).send({ kind: "table", ids, attempts });
    await until(`${name} table`, () => events.slice(before).some((e) => e.name === name && e.kind === "table"));
    return events.slice(before).find((e) => e.name === name && e.kind === "table").table;
  };

  const { webhookQueue, connection } = await import(pathToFileURL(join(dir, "webhooks.js")).href);
  const queue = webhookQueue();
  const started = performance.now();
  const report = [];
  try {
    // Phase 1: A and B, two jobs.
    await spawnSender("A");
    await spawnSender("B");
    const j1 = await queue.add("webhook", { url, event: { order: 1 } });
    const j2 = await queue.add("webhook", { url, event: { order: 2 } });
    const done = (id) => events.some((e) => e.kind === "completed" && e.id === id);
    await until("jobs 1 and 2", () => done(j1.id) && done(j2.id));
    const firstTakers = [j1.id, j2.id].map((id) => events.find((e) => e.kind === "active" && e.id === id && e.attemptsMade === 0).name);
    assert.deepEqual(firstTakers.sort(), ["A", "B"]);
    for (const id of [j1.id, j2.id]) {
      const d = deliveries[id];
      assert.equal(d.length, 3);
      assert.deepEqual(d.map((x) => x.event), Array(3).fill(d[0].event));
      for (const n of [1, 2]) {
        const gap = d[n].arrived - d[n - 1].answered;
        report.push(`job ${id} retry ${n}: waited ${Math.round(gap)} ms for the policy's ${waitIn(id, n)} ms`);
        // BullMQ's timers add a little; it never runs a delayed job early.
        assert.ok(gap >= waitIn(id, n) - 5 && gap <= waitIn(id, n) + 1000, `job ${id} retry ${n}: gap ${gap} ms for ${waitIn(id, n)} ms`);
      }
    }
    const ids = ["1", "2", "3", "4", "b7e1"];
    const attempts = [1, 2, 3, 4, 5, 6, 7, 8];
    const want = ids.map((id) => attempts.map((n) => wait(id, n)));
    assert.deepEqual(want.map((row) => row.at(-1)), Array(ids.length).fill(-1)); // maxAttempts(8) is spent
    assert.deepEqual(await table("A", ids, attempts), want);
    assert.deepEqual(await table("B", ids, attempts), want);

    // Phase 2: job 3 fails once on whichever sender takes it; then both stop, C takes over.
    holdUntil = Infinity;
    const j3 = await queue.add("webhook", { url, event: { order: 3 } });
    await until("job 3's first attempt", () => held.length === 1);
    const taker = events.find((e) => e.kind === "active" && e.id === j3.id).name;
    await stopSender(taker === "A" ? "B" : "A");
    held.splice(0).forEach((f) => f());
    await until("job 3's first failure", () => events.some((e) => e.kind === "failed" && e.id === j3.id));
    await stopSender(taker);
    await spawnSender("C");
    await until("job 3", () => done(j3.id));
    assert.deepEqual(await table("C", ids, attempts), want);
    assert.deepEqual(
      events.filter((e) => e.id === j3.id && e.kind !== "active").map(({ name, kind, attemptsMade }) => [name, kind, attemptsMade]),
      [[taker, "failed", 1], ["C", "failed", 2], ["C", "completed", 3]],
    );
    assert.equal(deliveries[j3.id].length, 3);
    report.push(`job ${j3.id}: retry 1 computed by ${taker} (then stopped), retry 2 by C (started after)`);

    // Every failure's wait, whichever process computed it, is the keyed wait of the policy.
    const failures = events.filter((e) => e.kind === "failed");
    assert.equal(failures.length, 6);
    for (const f of failures) assert.equal(f.delay, waitIn(f.id, f.attemptsMade), `${f.name}: job ${f.id} attempt ${f.attemptsMade}`);
    assert.deepEqual(events.filter((e) => e.kind === "error"), []);
    for (const name of [...senders.keys()]) await stopSender(name);
  } finally {
    for (const child of senders.values()) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill();
      await exited;
    }
    await queue.close();
    await connection.quit();
    await redis.close();
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  report.push(`total ${Math.round(performance.now() - started)} ms`);
  console.log(report.join("\n"));
});

test("BullMQ on redis-server: job 1 of two queues gets different waits, each keyed by its queue's name and id", { skip, timeout: 60_000 }, async () => {
  assert.equal(missing, undefined, missing);
  const { Queue, Worker } = await import("bullmq");
  const { Redis } = await import("ioredis");
  const redis = await startRedis();
  const connection = new Redis({ port: redis.port, host: "127.0.0.1", maxRetriesPerRequest: null });
  const strategy = bullmqBackoff(Backoff.exponential(200).cap(1000).jitter(0.5).maxAttempts(3));
  const queues = [];
  const workers = [];
  try {
    const failed = await Promise.all(["emails", "webhooks"].map(async (name) => {
      const queue = new Queue(name, { connection });
      queues.push(queue);
      // Each job fails once; the failure's job.delay is what the strategy gave BullMQ.
      const worker = new Worker(name, async (job) => {
        if (job.attemptsMade === 0) throw new Error("once");
      }, { connection, settings: { backoffStrategy: strategy } });
      workers.push(worker);
      const first = new Promise((resolve) => worker.once("failed", (job) => resolve({ id: job.id, queueName: job.queueName, delay: job.delay })));
      const done = new Promise((resolve) => worker.once("completed", resolve));
      await queue.add("job", {}, { attempts: 3, backoff: { type: "custom" } });
      const f = await first;
      await done;
      return f;
    }));
    assert.deepEqual(failed.map((f) => [f.queueName, f.id]), [["emails", "1"], ["webhooks", "1"]]);
    const policy = Backoff.exponential(200).cap(1000).jitter(0.5).maxAttempts(3);
    assert.deepEqual(failed.map((f) => f.delay), [policy.seed("emails:1").delay(1), policy.seed("webhooks:1").delay(1)].map(Math.ceil));
    assert.notEqual(failed[0].delay, failed[1].delay);
  } finally {
    for (const w of workers) await w.close();
    for (const q of queues) await q.close();
    await connection.quit();
    await redis.close();
  }
});
