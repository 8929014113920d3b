// README "One budget for a whole fleet": the Node example run as written (its import mapped
// to the built package) against a real redis-server started here, and the Workers example
// in workerd (Miniflare) with its wrangler.toml's binding, its fetch pointed at a local server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { missingRedis, startRedis } from "./redis-server.mjs";
import { workerdModules } from "../workerd-modules.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
let Miniflare;
try {
  ({ Miniflare } = await import("miniflare"));
} catch {
  Miniflare = undefined;
}
const missing = missingRedis ?? (Miniflare ? undefined : "miniflare cannot be imported; run npm ci");
// With CI=true nothing is skipped: a missing engine fails the test.
const skip = missing && process.env.CI !== "true" ? missing : false;

/** The code block of README.md under `heading` that contains `marker`. */
function readmeCode(heading, marker) {
  const docs = readFileSync(`${root}README.md`, "utf8");
  const section = docs.slice(docs.indexOf(heading));
  const code = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((c) => c.includes(marker));
  assert.ok(code, `README.md has the code of ${heading}`);
  return code;
}

const HEADING = "### One budget for a whole fleet";

test("README fleet example (Node, Redis) runs as written and prints what it says", { skip, timeout: 60_000 }, async () => {
  assert.equal(missing, undefined, missing);
  const code = readmeCode(HEADING, "redisBudgetStore(redis");
  const dir = `${root}tests/.scratch/budget-readme`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/fleet.mjs`, code.replace('"backoff-wasm/retry"', JSON.stringify(`${root}pkg/dist/esm/retry.js`))
    .replace('"ioredis"', JSON.stringify(`${root}node_modules/ioredis/built/index.js`)));
  const redis = await startRedis();
  try {
    const r = spawnSync(process.execPath, [`${dir}/fleet.mjs`], {
      env: { ...process.env, REDIS_URL: `redis://127.0.0.1:${redis.port}` }, encoding: "utf8", timeout: 30_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "paid 50\n");
    assert.equal(r.stderr, "");
  } finally {
    await redis.close();
  }
});

test("README fleet example (Workers, Durable Object) runs in workerd: the budget reaches the object", { skip, timeout: 60_000 }, async () => {
  assert.equal(missing, undefined, missing);
  const code = readmeCode(HEADING, "durableObjectBudgetStore(env");
  assert.match(code, /name = "RETRY_BUDGET", class_name = "RetryBudgetObject"/);
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    res.writeHead(hits === 1 ? 503 : 200);
    res.end("charged");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const dir = `${root}tests/.scratch/budget-readme-worker`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(`${root}pkg/dist`, `${dir}/dist`, { recursive: true });
  writeFileSync(`${dir}/worker.mjs`, code.replaceAll('"backoff-wasm/retry"', '"./dist/workerd/retry.js"')
    .replace('"https://payments.example/charge"', JSON.stringify(`http://127.0.0.1:${server.address().port}/charge`)));
  const mf = new Miniflare({ ...workerdModules(dir), durableObjects: { RETRY_BUDGET: "RetryBudgetObject" } });
  try {
    const res = await mf.dispatchFetch("http://worker/");
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "charged");
    assert.equal(hits, 2); // the 503 was retried: the object's budget paid for it
  } finally {
    await mf.dispose();
    await new Promise((r) => server.close(r));
  }
});
