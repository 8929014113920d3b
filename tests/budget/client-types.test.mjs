// redisBudgetStore's `client` type accepts the real clients as their own packages type them:
// ioredis's Redis and Cluster and node-redis's createClient(), checked by tsc (strict,
// nodenext) against the built package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

test("tsc accepts ioredis Redis and Cluster and a node-redis client as redisBudgetStore's client", () => {
  const dir = join(ROOT, "tests", ".scratch", "redis-client-types");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  for (const [name, target] of [["backoff-wasm", "pkg"], ["ioredis", "node_modules/ioredis"], ["redis", "node_modules/redis"],
    ["@redis", "node_modules/@redis"], ["@types", "node_modules/@types"]]) {
    symlinkSync(join(ROOT, target), join(dir, "node_modules", name));
  }
  writeFileSync(join(dir, "a.mts"), [
    'import { redisBudgetStore } from "backoff-wasm/retry";',
    'import { Redis, Cluster } from "ioredis";',
    'import { createClient } from "redis";',
    'redisBudgetStore(new Redis({ lazyConnect: true }), { key: "k" });',
    'redisBudgetStore(new Cluster([], { lazyConnect: true }), { key: "k" });',
    'redisBudgetStore(createClient(), { key: "k" });',
    "",
  ].join("\n"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", noEmit: true, types: ["node"], target: "es2022" },
    files: ["a.mts"],
  }));
  let out = "";
  try {
    execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
  } catch (e) {
    out = `${e.stdout}${e.stderr}`;
  }
  assert.equal(out, "");
});
