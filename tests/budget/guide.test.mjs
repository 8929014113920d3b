// docs/guides/fleet-budgets.md: its examples run as written (the package's import mapped to the
// built pkg/): the two Node ones against a real redis-server started here, the Worker in
// workerd (Miniflare) with the guide's wrangler.toml binding and UPSTREAM_URL, a local server
// that fails twice, then answers. (tests/docs/guides.test.mjs leaves these blocks to this file.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { freePort, missingRedis, startRedis } from "./redis-server.mjs";
import { workerdModules } from "../workerd-modules.mjs";
import { blocks } from "../docs/blocks.mjs";
import { Miniflare } from "../miniflare.mjs";
import { scratchDir } from "../scratch-dir.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const missing = missingRedis ?? (Miniflare ? undefined : "miniflare cannot be imported; run npm ci");
// With CI=true nothing is skipped: a missing engine fails the test.
const skip = missing && process.env.CI !== "true" ? missing : false;

const GUIDE = "docs/guides/fleet-budgets.md";
const guide = blocks(readFileSync(`${root}${GUIDE}`, "utf8"));
/** The guide's block whose first line names `file`. */
const block = (file) => {
  const b = guide.find((x) => x.lang === "js" && x.code.startsWith(`// ${file}`));
  assert.ok(b, `${GUIDE} has the block ${file}`);
  return b.code;
};
const scratch = (name) => {
  const dir = scratchDir(name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
};

test(`${GUIDE}: the Node examples (ioredis, node-redis) run as written and print what they say`, { skip, timeout: 60_000 }, async () => {
  assert.equal(missing, undefined, missing);
  const dir = scratch("budget-guide");
  const redis = await startRedis();
  try {
    for (const [file, out] of [["fleet.mjs", "charged 3 48\n"], ["fleet-node-redis.mjs", "budget 51\n"]]) {
      writeFileSync(`${dir}/${file}`, block(file).replace('"backoff-wasm/retry"', JSON.stringify(`${root}pkg/dist/esm/retry.js`)));
      const r = spawnSync(process.execPath, [`${dir}/${file}`], {
        cwd: root, env: { ...process.env, REDIS_URL: `redis://127.0.0.1:${redis.port}` }, encoding: "utf8", timeout: 30_000,
      });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, out, file);
      assert.equal(r.stderr, "", file);
    }
  } finally {
    await redis.close();
  }
});

// node-redis's connect() never settles while nothing listens (it reconnects for ever), so each
// example must bound its own connect; a run that outlives the bound is killed and fails here.
for (const [file, client, out] of [["fleet.mjs", "ioredis", "charged 3 48\n"], ["fleet-node-redis.mjs", "node-redis", "budget 51\n"]]) {
  test(`${GUIDE}: the ${client} example with no Redis listening connects within its bound, falls back to the process's own budget, says so once and exits`, { skip, timeout: 60_000 }, async () => {
    assert.equal(missing, undefined, missing);
    const dir = scratch(`budget-guide-down-${client}`);
    const port = await freePort(); // nothing listens there
    writeFileSync(`${dir}/${file}`, block(file).replace('"backoff-wasm/retry"', JSON.stringify(`${root}pkg/dist/esm/retry.js`)));
    const r = spawnSync(process.execPath, [`${dir}/${file}`], {
      cwd: root, env: { ...process.env, REDIS_URL: `redis://127.0.0.1:${port}` }, encoding: "utf8", timeout: 50_000,
    });
    assert.equal(r.signal, null, `killed (it hung): ${r.stderr}`);
    assert.equal(r.status, 0, r.stderr);
    // The local budget's reserve is the fleet's (50): what the example prints with Redis up.
    assert.equal(r.stdout, out);
    const warnings = r.stderr.trim().split("\n");
    assert.equal(warnings.length, 1, r.stderr);
    assert.match(warnings[0], /^retry budget: Redis failed; this process's own budget decides /);
  });
}

test(`${GUIDE}: the Worker runs in workerd with the guide's Durable Object binding; a 503 twice is retried through the object's budget`, { skip, timeout: 60_000 }, async () => {
  assert.equal(missing, undefined, missing);
  const toml = guide.find((b) => b.lang === "toml")?.code ?? "";
  assert.match(toml, /name = "RETRY_BUDGET"\nclass_name = "RetryBudgetObject"/);
  assert.match(toml, /new_sqlite_classes = \["RetryBudgetObject"\]/);
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    res.writeHead(hits <= 2 ? 503 : 200);
    res.end(hits <= 2 ? "down" : "charged");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const dir = scratch("budget-guide-worker");
  cpSync(`${root}pkg/dist`, `${dir}/dist`, { recursive: true });
  writeFileSync(`${dir}/worker.mjs`, block("src/worker.js").replaceAll('"backoff-wasm/retry"', '"./dist/workerd/retry.js"'));
  const mf = new Miniflare({
    ...workerdModules(dir), durableObjects: { RETRY_BUDGET: "RetryBudgetObject" },
    bindings: { UPSTREAM_URL: `http://127.0.0.1:${server.address().port}/charge` },
  });
  try {
    const res = await mf.dispatchFetch("http://worker/");
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "charged");
    assert.equal(hits, 3);
  } finally {
    await mf.dispose();
    await new Promise((r) => server.close(r));
  }
});
