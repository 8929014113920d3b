// redisBudgetStore on a real redis-server (started and stopped here), through ioredis and
// node-redis: the exact rule in Redis, the window by the server's clock, expiring keys, a
// server that forgot the script, bad arguments.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Redis } from "ioredis";
import { createClient, createClientPool, createCluster, createSentinel } from "redis";
import { createRetryBudget, redisBudgetStore, retry } from "../../pkg/dist/esm/retry.js";
import { freePort, missingRedis, startRedis } from "./redis-server.mjs";

const connect = (name, port) => clients[name](port);

// With CI=true nothing is skipped: a missing engine fails the test.
const skip = missingRedis && process.env.CI !== "true" ? missingRedis : false;

const clients = {
  ioredis: async (port) => {
    const c = new Redis({ port, host: "127.0.0.1", lazyConnect: true });
    await c.connect();
    return { client: c, close: () => c.disconnect(), raw: (...args) => c.call(...args) };
  },
  "node-redis": async (port) => {
    const c = createClient({ url: `redis://127.0.0.1:${port}` });
    await c.connect();
    return { client: c, close: () => c.destroy(), raw: (...args) => c.sendCommand(args.map(String)) };
  },
  "node-redis pool": async (port) => {
    const c = createClientPool({ url: `redis://127.0.0.1:${port}` });
    await c.connect();
    return { client: c, close: () => c.destroy(), raw: (...args) => c.sendCommand(args.map(String)) };
  },
};

// Every budget here has windows of seconds or more and a store timeout of a minute, unless the
// window's end or the timeout is what a test checks: the steps of a test fit in them however
// slow the machine is (bounds, never measures). A key's time to live is checked against the
// time that has passed since before its first step.
const BOUND = { storeTimeoutMs: "60 seconds" };

for (const [name, connect] of Object.entries(clients)) {
  test(`${name}: 100 calls at ratio 0.7 pay for exactly 70 retries in Redis, plus the reserve; the key expires`, { skip, timeout: 30_000 }, async () => {
    assert.equal(missingRedis, undefined, missingRedis);
    const redis = await startRedis();
    const { client, close, raw } = await connect(redis.port);
    try {
      const errors = [];
      const store = redisBudgetStore(client, { key: `budget:${name}` });
      const budget = createRetryBudget({ ratio: 0.7, minPerSecond: 1, windowMs: "60 seconds", store, onStoreError: (e) => errors.push(e), ...BOUND });
      const t0 = performance.now();
      for (let i = 0; i < 100; i++) await budget.deposit();
      let r = 0;
      while (await budget.tryWithdraw()) r++;
      assert.equal(r, 130); // 0.7 × 100 + 1 × 60 s
      assert.equal(budget.balance, 0);
      assert.deepEqual(errors, []);
      const ttl = Number(await raw("PTTL", `budget:${name}`));
      const passed = performance.now() - t0;
      assert.ok(ttl >= 120_000 - passed - 1 && ttl <= 120_000, `PTTL ${ttl}: two windows, ${passed} ms after the first step`);
      // A second budget on the same key is the same bucket: it is empty too.
      const other = createRetryBudget({ ratio: 0.7, minPerSecond: 1, windowMs: "60 seconds", store: redisBudgetStore(client, { key: `budget:${name}` }), ...BOUND });
      assert.equal(await other.tryWithdraw(), false);
      // The store answers as the contract says: units in, { charged, balance } out.
      const rule = { windowMs: 60_000, reserve: 600 };
      assert.deepEqual(await store.withdraw(10, rule), { charged: false, balance: 0 });
      await store.deposit(25, rule);
      assert.deepEqual(await store.withdraw(10, rule), { charged: true, balance: 15 });
      // A server that forgot the script (SCRIPT FLUSH, or a restart) gets it again.
      await raw("SCRIPT", "FLUSH");
      assert.deepEqual(await store.withdraw(10, rule), { charged: true, balance: 5 });
    } finally {
      await close();
      await redis.close();
    }
  });
}

test("the window is the Redis server's: deposits and withdrawals of a 5 s window expire, the reserve stays", { skip, timeout: 60_000 }, async () => {
  assert.equal(missingRedis, undefined, missingRedis);
  const redis = await startRedis();
  const { client, close, raw } = await clients.ioredis(redis.port);
  try {
    const budget = createRetryBudget({ ratio: 1, minPerSecond: 2, windowMs: "5 seconds", store: redisBudgetStore(client, { key: "budget:w" }), ...BOUND });
    for (let i = 0; i < 5; i++) await budget.deposit();
    let r = 0;
    while (await budget.tryWithdraw()) r++;
    assert.equal(r, 15); // 1 × 5 calls + 2 × 5 s
    // From the last step: a window and the slice it was in (500 ms), and a slice more.
    await new Promise((x) => setTimeout(x, 6000));
    r = 0;
    while (await budget.tryWithdraw()) r++;
    assert.equal(r, 10); // the reserve again; the deposits are gone
    // Only live slices are kept: at most ten fields (slices of 500 ms).
    assert.ok(Number(await raw("HLEN", "budget:w")) <= 10);
  } finally {
    await close();
    await redis.close();
  }
});

test("a burst of 1000 calls that fail at once retries exactly as often with Redis as with the local budget (ratio 0.1: 100 times): a withdrawal does not overtake this process's deposits made before it", { skip, timeout: 60_000 }, async () => {
  assert.equal(missingRedis, undefined, missingRedis);
  const redis = await startRedis();
  try {
    for (const name of ["ioredis", "node-redis"]) {
      const { client, close } = await clients[name](redis.port);
      try {
        for (const pause of ["none", "a timer"]) {
          // fn fails at once, or after a setTimeout of 0: before the first deposit has come back.
          const fn = pause === "none" ? () => { throw new Error("down"); } : () => new Promise((_, reject) => setTimeout(() => reject(new Error("down")), 0));
          const errors = [];
          const budgets = {
            local: createRetryBudget({ ratio: 0.1, minPerSecond: 0, windowMs: "60 seconds" }),
            redis: createRetryBudget({ ratio: 0.1, minPerSecond: 0, windowMs: "60 seconds", store: redisBudgetStore(client, { key: `burst:${name}:${pause}` }), onStoreError: (e) => errors.push(e), ...BOUND }),
          };
          for (const [kind, budget] of Object.entries(budgets)) {
            let retries = 0;
            const calls = Array.from({ length: 1000 }, () => retry(({ attempt }) => { if (attempt > 1) retries++; return fn(); }, 0, { retries: 3, budget }).catch((e) => e.reason));
            assert.deepEqual(new Set(await Promise.all(calls)), new Set(["budget"]), `${name}, ${pause}, ${kind}`);
            assert.equal(retries, 100, `${name}, pause ${pause}, ${kind} budget: retries`);
          }
          assert.deepEqual(errors, []);
        }
      } finally {
        await close();
      }
    }
  } finally {
    await redis.close();
  }
});

test("a window of a fractional number of ms (50 000.25, as createRetryBudget takes it) is kept in Redis: no step fails, the key expires after two windows, to the ms", { skip, timeout: 30_000 }, async () => {
  assert.equal(missingRedis, undefined, missingRedis);
  const redis = await startRedis();
  try {
    for (const [name, connect] of Object.entries(clients)) {
      const { client, close, raw } = await connect(redis.port);
      try {
        const key = `budget:fraction:${name}`;
        const errors = [];
        const budget = createRetryBudget({ ratio: 1, minPerSecond: 2, windowMs: 50_000.25, store: redisBudgetStore(client, { key }), onStoreError: (e) => errors.push(e), ...BOUND });
        const t0 = performance.now();
        for (let i = 0; i < 5; i++) await budget.deposit();
        let r = 0;
        while (await budget.tryWithdraw()) r++;
        assert.equal(r, 105, name); // 1 × 5 calls + 2 × 50 s, all taken from Redis
        assert.deepEqual(errors, [], name);
        const ttl = Number(await raw("PTTL", key));
        const passed = performance.now() - t0;
        assert.ok(ttl >= 100_001 - passed - 1 && ttl <= 100_001, `${name}: PTTL ${ttl}: two windows (100 000.5 ms) to the ms, ${passed} ms after the first step`);
      } finally {
        await close();
      }
    }
  } finally {
    await redis.close();
  }
});

const refusals = {
  "out of memory (CONFIG SET maxmemory 1, noeviction)": {
    refuse: async (raw) => {
      await raw("CONFIG", "SET", "maxmemory-policy", "noeviction");
      await raw("CONFIG", "SET", "maxmemory", "1");
    },
    accept: (raw) => raw("CONFIG", "SET", "maxmemory", "0"),
    error: /^OOM command not allowed/,
  },
  "a read-only replica (REPLICAOF a master that is not there)": {
    refuse: async (raw) => raw("REPLICAOF", "127.0.0.1", String(await freePort())),
    accept: (raw) => raw("REPLICAOF", "NO", "ONE"),
    error: /^READONLY You can't write against a read only replica/,
  },
};

for (const [fault, { refuse, accept, error }] of Object.entries(refusals)) {
  test(`Redis refusing writes, ${fault}: one onStoreError for the whole outage (a check every 250 ms for 3 s finds it still refusing), the shared budget again once Redis takes a write`, { skip, timeout: 60_000 }, async (t) => {
    assert.equal(missingRedis, undefined, missingRedis);
    // Only Date is mocked (the budget spaces its checks by it): Redis and the clients run for real.
    t.mock.timers.enable({ apis: ["Date"], now: 1_800_000_000_000 });
    const redis = await startRedis();
    const admin = await clients.ioredis(redis.port);
    try {
      // ratio 0.5: while failing, a call's deposit (1 unit) is the check that Redis takes
      // writes again; ratio 0: deposits are 0 units, and the check is a deposit of 0, which
      // writes all the same.
      for (const [name, ratio] of [["ioredis", 0.5], ["node-redis", 0.5], ["ioredis", 0], ["node-redis", 0]]) {
        const { client, close, raw } = await connect(name, redis.port);
        const what = `${name}, ratio ${ratio}`;
        try {
          const key = `budget:refused:${name}:${ratio}`;
          const store = redisBudgetStore(client, { key });
          const steps = { deposits: 0, refused: 0, withdrawals: 0 };
          const counting = {
            deposit: (units, rule) => {
              steps.deposits++;
              return Promise.resolve(store.deposit(units, rule)).catch((e) => {
                steps.refused++;
                throw e;
              });
            },
            withdraw: (units, rule) => {
              steps.withdrawals++;
              return Promise.resolve(store.withdraw(units, rule)).catch((e) => {
                steps.refused++;
                throw e;
              });
            },
          };
          const errors = [];
          const budget = createRetryBudget({ ratio, minPerSecond: 1, windowMs: "60 seconds", store: counting, onStoreError: (e) => errors.push(e) });
          const units = async () => (await raw("HVALS", key)).reduce((a, b) => a + Number(b), 0);
          budget.deposit();
          await budget.flush();
          assert.equal(await units(), ratio ? 1 : 0, what);
          await refuse(admin.raw);
          // Twelve rounds 250 ms apart: a call (its deposit) and a retry (a write: Redis has
          // the units), decided locally once Redis failed; one check every round after that.
          for (let i = 0; i < 12; i++) {
            budget.deposit();
            assert.equal(await budget.tryWithdraw(), true);
            await budget.flush();
            t.mock.timers.tick(250);
          }
          assert.equal(errors.length, 1, `${what}: ${errors.map((e) => e.message).join("; ")}`);
          assert.match(errors[0].message, error);
          // Refused: the first round's deposit and retry (ratio 0: its retry only; a deposit of 0
          // is not sent while Redis is used), then the check of each later round.
          assert.equal(steps.refused, ratio ? 13 : 12, `${what}: the first round's steps, then a check every 250 ms`);
          await accept(admin.raw);
          budget.deposit(); // the check: a write Redis takes (ratio 0: the next retry sends it)
          if (!ratio) assert.equal(await budget.tryWithdraw(), true);
          await budget.flush();
          const before = await units();
          const withdrawals = steps.withdrawals;
          assert.equal(await budget.tryWithdraw(), true, `${what}: paid by Redis`);
          assert.equal(steps.withdrawals, withdrawals + 1);
          assert.equal(await units(), before - (ratio ? 2 : 1), `${what}: charged in Redis`);
          assert.equal(errors.length, 1);
        } finally {
          await close();
        }
      }
    } finally {
      await accept(admin.raw).catch(() => {});
      await admin.close();
      await redis.close();
    }
  });
}

test("redisBudgetStore: bad client, bad key, unknown option are TypeErrors naming them", () => {
  assert.throws(() => redisBudgetStore({}, { key: "k" }), { name: "TypeError", message: "client must be an ioredis instance or a node-redis (v4+) client; received an object" });
  assert.throws(() => redisBudgetStore(null, { key: "k" }), { name: "TypeError", message: "client must be an ioredis instance or a node-redis (v4+) client; received null" });
  const c = { sendCommand: async () => [1, 0] };
  assert.throws(() => redisBudgetStore(c, { key: "" }), { name: "TypeError", message: 'key must be a non-empty string; received ""' });
  assert.throws(() => redisBudgetStore(c), { name: "TypeError", message: "options must be an object; received undefined" });
  assert.throws(() => redisBudgetStore(c, { key: "k", ttl: 1 }), { name: "TypeError", message: 'option must be one of key; received "ttl"' });
});

test("redisBudgetStore refuses node-redis's cluster and sentinel clients up front (their sendCommand takes other arguments), naming client and what is supported", () => {
  // Created, never connected: the check reads the client's methods only.
  const cluster = createCluster({ rootNodes: [{ url: "redis://127.0.0.1:1" }] });
  const sentinel = createSentinel({ name: "primary", sentinelRootNodes: [{ host: "127.0.0.1", port: 1 }] });
  const message = "client must be an ioredis instance or a node-redis (v4+) client from createClient() (a cluster or sentinel: use ioredis); received an object";
  assert.throws(() => redisBudgetStore(cluster, { key: "k" }), { name: "TypeError", message });
  assert.throws(() => redisBudgetStore(sentinel, { key: "k" }), { name: "TypeError", message });
  // A client and a pool are taken (their sendCommand(args) is the one the store calls).
  for (const client of [createClient(), createClientPool()]) {
    const store = redisBudgetStore(client, { key: "k" });
    assert.deepEqual([typeof store.deposit, typeof store.withdraw], ["function", "function"]);
  }
});
