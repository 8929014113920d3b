// retry and fetchWithRetry read each option once, when the call starts, as p-retry 9 does
// (one copy of its options object): a getter runs once, a Proxy sees one listing of the keys
// and one `get` per key, whichever form the options take (createBackoff options as the policy,
// the package's own options, a nested `deadline`; backoff-wasm/p-retry's options as p-retry
// reads them) and however many attempts follow.
import { test } from "node:test";
import assert from "node:assert/strict";
import { listen } from "./server.mjs";
import pRetry from "p-retry";
import { retry, fetchWithRetry } from "../../pkg/dist/esm/retry.js";
import mirror from "../../pkg/dist/esm/p-retry.js";

/**
 * `values` behind a Proxy that counts its traps: `reads.get[key]`, `reads.descriptor[key]`,
 * `reads.ownKeys`, `reads.prototype`.
 */
function counted(values) {
  const reads = { get: {}, descriptor: {}, ownKeys: 0, prototype: 0 };
  const bump = (map, key) => { map[String(key)] = (map[String(key)] ?? 0) + 1; };
  const proxy = new Proxy(values, {
    get: (t, k, r) => (bump(reads.get, k), Reflect.get(t, k, r)),
    getOwnPropertyDescriptor: (t, k) => (bump(reads.descriptor, k), Reflect.getOwnPropertyDescriptor(t, k)),
    ownKeys: (t) => (reads.ownKeys++, Reflect.ownKeys(t)),
    getPrototypeOf: (t) => (reads.prototype++, Reflect.getPrototypeOf(t)),
  });
  return { proxy, reads };
}

/** An options object whose every key is an own enumerable getter counting its runs in `runs`. */
function getters(values) {
  const runs = {};
  const o = {};
  for (const [k, v] of Object.entries(values)) {
    runs[k] = 0;
    Object.defineProperty(o, k, { enumerable: true, get: () => (runs[k]++, v) });
  }
  return { o, runs };
}

const ones = (keys) => Object.fromEntries(keys.map((k) => [k, 1]));
/** Every key read exactly once, `keys` among them (options read by name: a known option not given is asked for too). */
const readOnce = (got, keys) => {
  for (const [k, n] of Object.entries(got)) assert.equal(n, 1, k);
  for (const k of keys) assert.equal(got[k], 1, k);
};
/** Fails `n` times, then resolves "done". */
const failing = (n) => { let calls = 0; return () => { if (++calls <= n) throw new Error(`failure ${calls}`); return "done"; }; };

test("p-retry options: each key is read once by backoff-wasm/p-retry, as by p-retry itself, across three attempts", async () => {
  const values = { retries: 3, factor: 1, minTimeout: 0, randomize: false, onFailedAttempt: () => {}, shouldRetry: () => true };
  const ours = counted({ ...values });
  const theirs = counted({ ...values });
  assert.equal(await mirror(failing(2), ours.proxy), "done");
  assert.equal(await pRetry(failing(2), theirs.proxy), "done");
  assert.deepEqual(ours.reads.get, ones(Object.keys(values)));
  assert.deepEqual(ours.reads.get, theirs.reads.get);
  assert.equal(ours.reads.ownKeys, 1);
  assert.equal(ours.reads.ownKeys, theirs.reads.ownKeys);
  assert.deepEqual(ours.reads.descriptor, ones(Object.keys(values)));
  assert.equal(ours.reads.prototype, theirs.reads.prototype);

  const g = getters(values);
  assert.equal(await mirror(failing(2), g.o), "done");
  assert.deepEqual(g.runs, ones(Object.keys(values)));
});

test("createBackoff options as retry's policy: each key is read once (the policy is built from that one read)", async () => {
  const values = { base: 0, factor: 2, max: 10, maxAttempts: 3 };
  const { proxy, reads } = counted({ ...values });
  assert.equal(await retry(failing(2), proxy), "done");
  assert.deepEqual(reads.get, ones(Object.keys(values)));
  assert.equal(reads.ownKeys, 1);
  assert.equal(reads.prototype, 1);
  const g = getters(values);
  assert.equal(await retry(failing(2), g.o), "done");
  assert.deepEqual(g.runs, ones(Object.keys(values)));
  // The values read are the ones used: maxAttempts 3 stops after the third failure.
  const stopped = await retry(failing(5), getters(values).o).catch((e) => e);
  assert.equal(stopped.reason, "attempts");
  assert.equal(stopped.attempts, 3);
});

test("retry's own options, and a deadline's afterMs, are read once each", async () => {
  const after = getters({ afterMs: 60_000 });
  const values = { retries: 2, shouldRetry: () => true, onRetry: () => {}, maxRetryAfter: 1000, deadline: after.o };
  const { proxy, reads } = counted({ ...values });
  assert.equal(await retry(failing(2), 0, proxy), "done");
  readOnce(reads.get, Object.keys(values));
  assert.equal(reads.ownKeys, 1);
  assert.deepEqual(after.runs, { afterMs: 1 });
  const g = getters({ ...values, deadline: { afterMs: 60_000 } });
  assert.equal(await retry(failing(2), 0, g.o), "done");
  assert.deepEqual(g.runs, ones(Object.keys(values)));
});

test("fetchWithRetry's options, createBackoff options as its policy included, are read once each over three attempts", async (t) => {
  let hits = 0;
  const server = await listen((req, res) => res.writeHead(++hits < 3 ? 503 : 200).end(String(hits)));
  t.after(() => server.close());
  const policy = counted({ base: 0, maxAttempts: 4 });
  const values = { policy: policy.proxy, statusCodes: [503], methods: ["GET"], maxDeferrals: 1, onRetry: () => {} };
  const { proxy, reads } = counted({ ...values });
  const res = await fetchWithRetry(`${server.url}/`, undefined, proxy);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "3");
  readOnce(reads.get, Object.keys(values));
  assert.equal(reads.ownKeys, 1);
  assert.deepEqual(policy.reads.get, { base: 1, maxAttempts: 1 });
  assert.equal(policy.reads.ownKeys, 1);
  assert.equal(policy.reads.prototype, 1);
});

test("createBackoff options in a class instance or inheriting from defaults are retry's and fetchWithRetry's policy, read by name as createBackoff reads them", async (t) => {
  let runs = 0;
  class Options {
    get base() { runs++; return 0; }
    get maxAttempts() { runs++; return 3; }
  }
  const instance = new Options();
  const stopped = await retry(failing(5), instance).catch((e) => e);
  assert.equal(stopped.reason, "attempts");
  assert.equal(stopped.attempts, 3);
  assert.equal(runs, 2);
  const inherited = Object.create({ base: 0, maxAttempts: 2 });
  const once = await retry(failing(5), inherited).catch((e) => e);
  assert.equal(once.attempts, 2);
  // An inherited typo is createBackoff's unknown-option error, not a silent default.
  const typo = await retry(failing(1), Object.create({ bsae: 0 })).catch((e) => e);
  assert.ok(typo instanceof TypeError);
  assert.match(typo.message, /received "bsae"$/);
  // An object that only inherits from a policy is still refused (it has no options of its own).
  const fake = await retry(failing(1), Object.create((await import("../../pkg/dist/esm/backoff.js")).createBackoff({ base: 0 }))).catch((e) => e);
  assert.ok(fake instanceof TypeError);
  assert.match(fake.message, /^policy must be a Backoff/);

  let hits = 0;
  const server = await listen((req, res) => res.writeHead(503).end(String(++hits)));
  t.after(() => server.close());
  const res = await fetchWithRetry(`${server.url}/`, undefined, { policy: new Options() });
  assert.equal(res.status, 503);
  assert.equal(hits, 3);
});

test("retry's and fetchWithRetry's own options are read by name: a class's getter and an inherited option count, once", async () => {
  let runs = 0;
  class Own { get retries() { runs++; return 1; } }
  let calls = 0;
  const fn = () => { calls++; throw new Error("x"); };
  const e = await retry(fn, 0, new Own()).catch((x) => x);
  assert.equal(e.reason, "attempts");
  assert.equal(e.attempts, 2);
  assert.equal(runs, 1);
  calls = 0;
  const f = await retry(fn, 0, Object.create({ retries: 2 })).catch((x) => x);
  assert.equal(f.attempts, 3);
  assert.equal(calls, 3);
});

test("an enumerable property added to Object.prototype is no option of retry's, nor of backoff-wasm/p-retry's (whose copy ignores it)", async () => {
  Object.prototype.addedByALibrary = 1;
  let results;
  try {
    results = await Promise.all([
      retry(() => "a", { base: 0, maxAttempts: 2 }),
      retry(() => "b", 0, { retries: 1 }),
      mirror(() => "c", { retries: 1, minTimeout: 0 }),
    ]);
  } finally {
    delete Object.prototype.addedByALibrary;
  }
  assert.deepEqual(results, ["a", "b", "c"]);
});
