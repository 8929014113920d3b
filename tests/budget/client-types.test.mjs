// The store functions' types accept the real objects as their own packages type them, checked
// by tsc (strict, nodenext) against the built package: redisBudgetStore's `client` takes
// ioredis's Redis and Cluster and node-redis's createClient(); durableObjectBudgetStore's
// `namespace` takes @cloudflare/workers-types' DurableObjectNamespace<RetryBudgetObject>.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** tsc's output for `lines` as a.mts in a scratch project `name` with `links` in its node_modules ("" when it type-checks). */
function tsc(name, links, lines, types, lib) {
  const dir = join(ROOT, "tests", ".scratch", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "node_modules", "@cloudflare"), { recursive: true });
  for (const [link, target] of [["backoff-wasm", "pkg"], ...links]) symlinkSync(join(ROOT, target), join(dir, "node_modules", link));
  writeFileSync(join(dir, "a.mts"), [...lines, ""].join("\n"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", noEmit: true, types, target: "es2022", lib },
    files: ["a.mts"],
  }));
  try {
    execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
    return "";
  } catch (e) {
    return `${e.stdout}${e.stderr}`;
  }
}

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

const WORKERS_TYPES = [["@cloudflare/workers-types", "node_modules/@cloudflare/workers-types"]];
const DO_LINES = [
  "declare const env: { RETRY_BUDGET: DurableObjectNamespace<RetryBudgetObject> };",
  'const store = durableObjectBudgetStore(env.RETRY_BUDGET, { name: "payments" });',
  "export const budget = createRetryBudget({ ratio: 0.1, store });",
  // The class is what the Worker exports for the binding: an object of it answers a Request.
  "export default { fetch: (r: Request) => new RetryBudgetObject().fetch(r) };",
];

// As a Worker's tsconfig has it: the runtime's globals from @cloudflare/workers-types, no DOM library.
test("tsc accepts @cloudflare/workers-types' DurableObjectNamespace<RetryBudgetObject> (its global) as durableObjectBudgetStore's namespace", () => {
  const out = tsc("do-namespace-global", WORKERS_TYPES, [
    'import { createRetryBudget, durableObjectBudgetStore, RetryBudgetObject } from "backoff-wasm/retry";',
    ...DO_LINES,
  ], ["@cloudflare/workers-types"], ["es2022"]);
  assert.equal(out, "");
});

test("tsc accepts DurableObjectNamespace<RetryBudgetObject> imported from @cloudflare/workers-types as durableObjectBudgetStore's namespace", () => {
  const out = tsc("do-namespace-import", WORKERS_TYPES, [
    'import type { DurableObjectNamespace, Request } from "@cloudflare/workers-types";',
    'import { createRetryBudget, durableObjectBudgetStore, RetryBudgetObject } from "backoff-wasm/retry";',
    ...DO_LINES,
  ], [], undefined);
  assert.equal(out, "");
});
