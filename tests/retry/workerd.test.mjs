// The retry-in-place Worker of docs/guides/queues.md ("Retrying in place, then handing the wait to Queues"), run as written under workerd
// (Miniflare) against a local server. Skipped when `miniflare` (a devDependency that
// brings the workerd binary) cannot be imported, except with CI=true, where that fails.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { listen } from "./server.mjs";
import { workerdModules } from "../workerd-modules.mjs";
import { Miniflare } from "../miniflare.mjs";
import { scratchDir } from "../scratch-dir.mjs";


const root = fileURLToPath(new URL("../../", import.meta.url));

test("docs/guides/queues.md retry-in-place Worker under workerd: acks, in-place retries, delaySeconds", { skip: !Miniflare && process.env.CI !== "true" && "miniflare is not installed (CI=true fails instead)" }, async () => {
  assert.ok(Miniflare, "miniflare (workerd) cannot be imported: run npm ci");
  const docs = readFileSync(`${root}docs/guides/queues.md`, "utf8");
  const worker = [...docs.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((code) => code.includes("queueRetryDelaySeconds(redelivery"));
  assert.ok(worker, "the Worker example is in docs/guides/queues.md");
  const dir = scratchDir("workerd-retry");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(`${root}pkg/dist`, `${dir}/dist`, { recursive: true });
  writeFileSync(
    `${dir}/worker.mjs`,
    worker.replace('"backoff-wasm/retry"', '"./dist/workerd/retry.js"').replace('"backoff-wasm/policy"', '"./dist/workerd/policy.js"'),
  );

  const hits = [];
  const server = await listen((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    hits.push(url.searchParams.get("id"));
    const ra = url.searchParams.get("ra");
    res.writeHead(Number(url.searchParams.get("code")), ra ? { "retry-after": ra } : {});
    res.end("x");
  });
  const base = server.url;
  const mf = new Miniflare({
    ...workerdModules(dir),
    queueProducers: { WEBHOOKS: "webhooks" },
    queueConsumers: { webhooks: { maxRetries: 10 } },
  });
  try {
    const w = await mf.getWorker();
    const message = (id, query, attempts) => ({ id, timestamp: new Date(), body: { url: `${base}/?id=${id}&${query}`, order: { id } }, attempts });
    const result = await w.queue("webhooks", [
      message("ok", "code=200", 1),
      message("gone", "code=404", 1),
      message("busy", "code=503&ra=120", 1), // the server asks more than maxDeferralMs: Queues waits it, no in-place attempt
      message("far", "code=429&ra=999999", 2), // clamped to Queues' 43 200 s
    ]);
    assert.equal(result.outcome, "ok");
    assert.deepEqual(result.explicitAcks.sort(), ["gone", "ok"]);
    assert.deepEqual(result.retryMessages, [{ msgId: "busy", delaySeconds: 120 }, { msgId: "far", delaySeconds: 43_200 }]);
    assert.deepEqual(hits.sort(), ["busy", "far", "gone", "ok"]);
  } finally {
    await mf.dispose();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
