// One process of a fleet sharing a retry budget through redis-server (spawned by
// fleet.test.mjs and bench/fleet-budget.mjs). argv[2] is JSON:
//   { port, key, client: "ioredis" | "node-redis", budget: createRetryBudget options,
//     url, runMs (or null: until the parent says "stop"), retries, concurrency (loops of calls, default 1) }
// Once connected it sends "ready" on the IPC channel, then every 25 ms { progress: { retries,
// charged, late } } (counts); from the parent's "go" for runMs it calls retry() back to back on `fn` = a GET of `url` that throws
// unless the answer is 2xx, with no wait between attempts. It prints one JSON line:
//   { calls, attempts, retries, charged: [epoch ms of each withdrawal the store charged],
//     late: [the same, for those charged after storeTimeoutMs, too late to count],
//     storeErrors: [{ at, message }], unhandled: [messages], reasons: { reason: count } }
import { retry, createRetryBudget, redisBudgetStore } from "../../pkg/dist/esm/retry.js";

const cfg = JSON.parse(process.argv[2]);
const unhandled = [];
process.on("unhandledRejection", (e) => unhandled.push(String(e?.stack ?? e)));

let client;
if (cfg.client === "node-redis") {
  const { createClient } = await import("redis");
  client = createClient({ url: `redis://127.0.0.1:${cfg.port}`, disableOfflineQueue: true });
  client.on("error", () => {}); // reconnects on its own; the budget reports store failures
  await client.connect();
} else {
  const { Redis } = await import("ioredis");
  // Commands fail at once while disconnected, and are not sent again after a reconnect.
  client = new Redis({ port: cfg.port, host: "127.0.0.1", enableOfflineQueue: false, autoResendUnfulfilledCommands: false, lazyConnect: true });
  client.on("error", () => {});
  await client.connect();
}

const store = redisBudgetStore(client, { key: cfg.key });
const charged = [];
const late = [];
const timeoutMs = cfg.budget.storeTimeoutMs ?? 1000;
// The same store, counting the withdrawals it charged (the fleet's shared retries); one
// charged after the budget stopped waiting for it (storeTimeoutMs) is `late`.
const counting = {
  deposit: (units, rule) => store.deposit(units, rule),
  withdraw: async (units, rule) => {
    const t0 = Date.now();
    const w = await store.withdraw(units, rule);
    if (w.charged) (Date.now() - t0 < timeoutMs ? charged : late).push(Date.now());
    return w;
  },
};
const storeErrors = [];
const budget = createRetryBudget({
  ...cfg.budget,
  store: counting,
  onStoreError: (e) => storeErrors.push({ at: Date.now(), message: String(e?.message ?? e) }),
});

let calls = 0;
let attempts = 0;
const reasons = {};
const fn = async () => {
  attempts++;
  const res = await fetch(cfg.url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`status ${res.status}`);
};
let stopped = false;
const go = new Promise((resolve) => process.on("message", (m) => (m === "go" ? resolve() : (stopped = true))));
process.send("ready");
await go;
const progress = setInterval(() => process.send({ progress: { retries: attempts - calls, charged: charged.length, late: late.length } }), 25);
const end = cfg.runMs === null ? Infinity : Date.now() + cfg.runMs;
const loop = async () => {
  while (Date.now() < end && !stopped) {
    calls++;
    try {
      await retry(fn, 0, { retries: cfg.retries ?? 1000, budget });
      reasons.ok = (reasons.ok ?? 0) + 1;
    } catch (e) {
      reasons[e.reason] = (reasons[e.reason] ?? 0) + 1;
    }
  }
};
await Promise.all(Array.from({ length: cfg.concurrency ?? 1 }, loop));
// Deposits are not awaited by retry(): let the last ones land before the connection closes.
await new Promise((resolve) => setTimeout(resolve, 50));
clearInterval(progress);
process.stdout.write(`${JSON.stringify({ calls, attempts, retries: attempts - calls, charged, late, storeErrors, unhandled, reasons })}\n`);
if (cfg.client === "node-redis") client.destroy();
else client.disconnect();
process.disconnect();
