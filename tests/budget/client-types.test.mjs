// The store functions' types accept the real objects as their own packages type them, checked
// by tsc (strict, nodenext) against the built package: redisBudgetStore's `client` takes
// ioredis's Redis and Cluster and node-redis's createClient(); durableObjectBudgetStore's
// `namespace` takes @cloudflare/workers-types' DurableObjectNamespace<RetryBudgetObject>.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tscScratch } from "../tsc-scratch.mjs";

test("tsc accepts ioredis Redis and Cluster and a node-redis client as redisBudgetStore's client", () => {
  const links = [["ioredis", "node_modules/ioredis"], ["redis", "node_modules/redis"], ["@redis", "node_modules/@redis"], ["@types", "node_modules/@types"]];
  const out = tscScratch("redis-client-types", { "a.mts": [
    'import { redisBudgetStore } from "backoff-wasm/retry";',
    'import { Redis, Cluster } from "ioredis";',
    'import { createClient } from "redis";',
    'redisBudgetStore(new Redis({ lazyConnect: true }), { key: "k" });',
    'redisBudgetStore(new Cluster([], { lazyConnect: true }), { key: "k" });',
    'redisBudgetStore(createClient(), { key: "k" });',
  ] }, { links });
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
  const out = tscScratch("do-namespace-global", { "a.mts": [
    'import { createRetryBudget, durableObjectBudgetStore, RetryBudgetObject } from "backoff-wasm/retry";',
    ...DO_LINES,
  ] }, { links: WORKERS_TYPES, types: ["@cloudflare/workers-types"], lib: ["es2022"] });
  assert.equal(out, "");
});

test("tsc accepts DurableObjectNamespace<RetryBudgetObject> imported from @cloudflare/workers-types as durableObjectBudgetStore's namespace", () => {
  const out = tscScratch("do-namespace-import", { "a.mts": [
    'import type { DurableObjectNamespace, Request } from "@cloudflare/workers-types";',
    'import { createRetryBudget, durableObjectBudgetStore, RetryBudgetObject } from "backoff-wasm/retry";',
    ...DO_LINES,
  ] }, { links: WORKERS_TYPES, types: [] });
  assert.equal(out, "");
});
