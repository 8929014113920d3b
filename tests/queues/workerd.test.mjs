// docs/guides/queues.md "A Queues consumer", run as written in workerd (Miniflare) with its wrangler.toml's
// queues (producer, consumer with max_retries = 3 and a dead-letter queue), against a local
// webhook receiver. A thin wrapper around the guide's Worker records what each delivery saw
// (message.id, message.attempts) and what it asked Queues for (retry delaySeconds, ack); the
// receiver timestamps every delivery, so the gaps the engine applied are measured.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createServer } from "node:http";
import { Backoff } from "../../pkg/dist/esm/policy.js";
import { workerdModules } from "../workerd-modules.mjs";
import { Miniflare, missing } from "../miniflare.mjs";
import { scratchDir } from "../scratch-dir.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
// With CI=true nothing is skipped: a missing engine fails the test.
const skip = missing && process.env.CI !== "true" ? missing : false;

/** The guide's policy (asserted to be the one in the Worker's text). */
const redelivery = Backoff.exponential("1 second").cap("1 hour").jitter(0.2);
const seconds = (id, attempts) => Math.ceil(redelivery.seed(id).delay(attempts) / 1000);

/** The code block of docs/guides/queues.md under `heading` that contains `marker`. */
function readmeCode(heading, marker) {
  const docs = readFileSync(`${root}docs/guides/queues.md`, "utf8");
  const section = docs.slice(docs.indexOf(heading));
  const code = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((c) => c.includes(marker));
  assert.ok(code, `docs/guides/queues.md has the code of ${heading}`);
  return code;
}

const HARNESS = `
import worker from "./worker.mjs";
// Delegates every call to the real message; records what the guide's Worker did with it.
export default {
  fetch: (request, env, ctx) => worker.fetch(request, env, ctx),
  async queue(batch, env, ctx) {
    const seen = [];
    const messages = batch.messages.map((m) => ({
      get id() { return m.id; },
      get attempts() { return m.attempts; },
      get body() { return m.body; },
      get timestamp() { return m.timestamp; },
      retry(options) { seen.push({ queue: batch.queue, id: m.id, attempts: m.attempts, retry: options }); m.retry(options); },
      ack() { seen.push({ queue: batch.queue, id: m.id, attempts: m.attempts, ack: true }); m.ack(); },
    }));
    await worker.queue({ queue: batch.queue, messages, ackAll: () => batch.ackAll(), retryAll: (o) => batch.retryAll(o) }, env, ctx);
    await fetch(env.RECORD_URL, { method: "POST", body: JSON.stringify(seen) });
  },
};
`;

test("docs/guides/queues.md Queues consumer in workerd: redeliveries, message.attempts, the delays Queues applies, the dead-letter queue", { skip, timeout: 60_000 }, async () => {
  assert.equal(missing, undefined, missing);
  const worker = readmeCode("## A Queues consumer", "retryMessage(message");
  assert.match(worker, /const redelivery = Backoff\.exponential\("1 second"\)\.cap\("1 hour"\)\.jitter\(0\.2\);/);
  const dir = scratchDir("queues-workerd");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(`${root}pkg/dist`, `${dir}/dist`, { recursive: true });
  writeFileSync(`${dir}/worker.mjs`, worker
    .replace('"backoff-wasm/queues"', '"./dist/workerd/queues.js"')
    .replace('"backoff-wasm/policy"', '"./dist/workerd/policy.js"'));
  writeFileSync(`${dir}/harness.mjs`, HARNESS);

  // The receiver: /flaky fails twice then takes it; /busy answers 503 + Retry-After: 3 once;
  // /down always fails. /alert is the dead-letter consumer's ALERT_URL, /record the wrapper's.
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const deliveries = {}; // path -> [{ id, arrived, answered }]
  const records = [];
  const alerts = [];
  let done;
  const finished = new Promise((resolve) => (done = resolve));
  const check = () => {
    if (deliveries["/flaky"]?.length === 3 && deliveries["/busy"]?.length === 2 && alerts.length === 1) done();
  };
  const server = createServer(async (req, res) => {
    const arrived = now();
    let body = "";
    for await (const chunk of req) body += chunk;
    const path = req.url;
    if (path === "/record") records.push(...JSON.parse(body));
    else if (path === "/alert") alerts.push({ ...JSON.parse(body), arrived });
    else {
      const list = (deliveries[path] ??= []);
      const n = list.length + 1;
      const entry = { id: req.headers["webhook-id"], event: JSON.parse(body), arrived };
      list.push(entry);
      if (path === "/flaky") res.writeHead(n <= 2 ? 503 : 200);
      else if (path === "/busy") res.writeHead(n === 1 ? 503 : 200, n === 1 ? { "retry-after": "3" } : {});
      else res.writeHead(500);
      entry.answered = now();
    }
    if (!res.headersSent) res.writeHead(200);
    res.end("x");
    check();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;

  // The guide's wrangler.toml, as Miniflare options.
  const mf = new Miniflare({
    ...workerdModules(dir, "harness.mjs"),
    bindings: { ALERT_URL: `${base}/alert`, RECORD_URL: `${base}/record` },
    queueProducers: { WEBHOOKS: "webhooks" },
    queueConsumers: {
      webhooks: { maxBatchTimeout: 0, maxRetries: 3, deadLetterQueue: "webhooks-dead" },
      "webhooks-dead": { maxBatchTimeout: 0 },
    },
  });
  const started = performance.now();
  try {
    for (const name of ["flaky", "busy", "down"]) {
      const res = await mf.dispatchFetch("http://worker/", { method: "POST", body: JSON.stringify({ url: `${base}/${name}`, event: { order: name } }) });
      assert.equal(res.status, 202);
      await res.text();
    }
    let timer;
    await Promise.race([finished, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), 45_000)))])
      .finally(() => clearTimeout(timer));
    await new Promise((resolve) => setTimeout(resolve, 300)); // the last records
  } finally {
    await mf.dispose();
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const byId = (id) => records.filter((r) => r.id === id && r.queue === "webhooks").sort((a, b) => a.attempts - b.attempts);
  const report = [];
  /** The gap before each redelivery: from the receiver's answer to the next arrival. */
  const gaps = (list) => list.slice(1).map((d, i) => d.arrived - list[i].answered);
  const within = (name, gap, s) => {
    report.push(`${name}: waited ${Math.round(gap)} ms for delaySeconds ${s}`);
    // The engine's timer and the dispatch add a little (less than the next whole second); it never fires early.
    assert.ok(gap >= s * 1000 - 50 && gap <= s * 1000 + 900, `${name}: gap ${gap} ms for ${s} s`);
  };

  // /flaky: fails twice, the third delivery is acked; every delivery carries the same id.
  const flaky = deliveries["/flaky"];
  const id = flaky[0].id;
  assert.deepEqual(flaky.map((d) => d.id), [id, id, id]);
  assert.deepEqual(flaky.map((d) => d.event), [{ order: "flaky" }, { order: "flaky" }, { order: "flaky" }]);
  assert.deepEqual(byId(id), [
    { queue: "webhooks", id, attempts: 1, retry: { delaySeconds: seconds(id, 1) } },
    { queue: "webhooks", id, attempts: 2, retry: { delaySeconds: seconds(id, 2) } },
    { queue: "webhooks", id, attempts: 3, ack: true },
  ]);
  gaps(flaky).forEach((g, i) => within(`flaky retry ${i + 1}`, g, seconds(id, i + 1)));

  // /busy: the server's Retry-After: 3 is a floor above the policy's 1-2 s.
  const busy = deliveries["/busy"];
  const busyId = busy[0].id;
  assert.ok(seconds(busyId, 1) < 3);
  assert.deepEqual(byId(busyId), [
    { queue: "webhooks", id: busyId, attempts: 1, retry: { delaySeconds: 3 } },
    { queue: "webhooks", id: busyId, attempts: 2, ack: true },
  ]);
  within("busy retry 1 (Retry-After: 3)", gaps(busy)[0], 3);

  // /down: 1 + max_retries = 4 deliveries, each retried with the policy's wait; then the
  // dead-letter queue (same id, same body), whose consumer alerts once and acks.
  const down = deliveries["/down"];
  const downId = down[0].id;
  assert.equal(down.length, 4);
  assert.deepEqual(byId(downId), [1, 2, 3, 4].map((attempts) => ({
    queue: "webhooks", id: downId, attempts, retry: { delaySeconds: seconds(downId, attempts) },
  })));
  gaps(down).forEach((g, i) => within(`down retry ${i + 1}`, g, seconds(downId, i + 1)));
  assert.deepEqual(alerts.map(({ arrived, ...a }) => a), [{ id: downId, webhook: { url: `${base}/down`, event: { order: "down" } } }]);
  assert.deepEqual(records.filter((r) => r.queue === "webhooks-dead"), [{ queue: "webhooks-dead", id: downId, attempts: 1, ack: true }]);
  // The 4th retry's delaySeconds is not waited: Queues dead-letters the message at once.
  assert.ok(alerts[0].arrived - down[3].answered < 1000, `dead-lettered ${Math.round(alerts[0].arrived - down[3].answered)} ms after the last failure`);

  report.push(`total ${Math.round(performance.now() - started)} ms`);
  console.log(report.join("\n"));
});

test("retryMessage onExhausted: \"ack\" in workerd: acked once the policy's maxAttempts is spent, never dead-lettered", { skip, timeout: 60_000 }, async () => {
  assert.equal(missing, undefined, missing);
  const dir = scratchDir("queues-workerd-ack");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(`${root}pkg/dist`, `${dir}/dist`, { recursive: true });
  writeFileSync(`${dir}/worker.mjs`, `
import { retryMessage } from "./dist/workerd/queues.js";
import { Backoff } from "./dist/workerd/policy.js";
const policy = Backoff.fixed("1 second").maxAttempts(2);
export default {
  async queue(batch, env) {
    for (const message of batch.messages) {
      const seconds = retryMessage(message, policy, { onExhausted: "ack" });
      await fetch(env.RECORD_URL, { method: "POST", body: JSON.stringify({ queue: batch.queue, id: message.id, attempts: message.attempts, seconds: seconds ?? "acked" }) });
    }
  },
};
`);
  const records = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    records.push(JSON.parse(body));
    res.end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const mf = new Miniflare({
    ...workerdModules(dir),
    bindings: { RECORD_URL: `http://127.0.0.1:${server.address().port}/` },
    queueProducers: { JOBS: "jobs" },
    queueConsumers: { jobs: { maxBatchTimeout: 0, maxRetries: 5, deadLetterQueue: "jobs-dead" }, "jobs-dead": { maxBatchTimeout: 0 } },
  });
  try {
    await (await mf.getQueueProducer("JOBS")).send({ n: 1 });
    // Two deliveries 1 s apart, then 2.5 s in which nothing may arrive (Queues would redeliver after 1 s).
    const end = Date.now() + 15_000;
    while (records.length < 2 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 2500));
  } finally {
    await mf.dispose();
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const id = records[0]?.id;
  assert.deepEqual(records, [{ queue: "jobs", id, attempts: 1, seconds: 1 }, { queue: "jobs", id, attempts: 2, seconds: "acked" }]);
});
