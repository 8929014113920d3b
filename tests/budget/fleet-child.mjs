// One process of a fleet sharing a retry budget through redis-server (spawned by
// fleet.test.mjs). argv[2] is JSON:
//   { port, key, client: "ioredis" | "node-redis", budget: createRetryBudget options,
//     url, retries (per call, default 1000), concurrency (loops of calls, default 1),
//     calls (how many calls in all, or null: no limit), untilBudget (a loop ends once a call
//     of it is stopped by the budget) }
// Once connected it sends "ready" on the IPC channel, then { progress: { retries, charged,
// late } } (counts) whenever they change; from the parent's "go" it calls retry() back to back
// on `fn` = a GET of `url` that throws unless the answer is 2xx, with no wait between attempts,
// until `calls` are made, every loop met the budget (`untilBudget`) or the parent says "stop".
// Then it awaits budget.flush() (every deposit has landed in Redis) and prints one JSON line:
//   { calls, attempts, retries, charged: [epoch ms of each withdrawal the store charged],
//     late: [the same, for those charged after storeTimeoutMs, too late to count],
//     storeErrors: [{ at, name, message }], unhandled: [messages], reasons: { reason: count } }
// and closes its connection at once (no QUIT: what flush() promised has landed already).
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
let attempts = 0;
let calls = 0;
let sent = "";
const report = () => {
  const progress = { retries: attempts - calls, charged: charged.length, late: late.length };
  const text = JSON.stringify(progress);
  if (text !== sent && process.connected) {
    sent = text;
    process.send({ progress });
  }
};
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
  onStoreError: (e) => storeErrors.push({ at: Date.now(), name: e?.name, message: String(e?.message ?? e) }),
});

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
const progress = setInterval(report, 25);
const limit = cfg.calls ?? Infinity;
const loop = async () => {
  while (!stopped && calls < limit) {
    calls++;
    let reason = "ok";
    try {
      await retry(fn, 0, { retries: cfg.retries ?? 1000, budget });
    } catch (e) {
      reason = e.reason;
    }
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    if (cfg.untilBudget && reason === "budget") return;
  }
};
await Promise.all(Array.from({ length: cfg.concurrency ?? 1 }, loop));
// Deposits are not awaited by retry(): they land before the connection closes.
await budget.flush();
clearInterval(progress);
report();
process.stdout.write(`${JSON.stringify({ calls, attempts, retries: attempts - calls, charged, late, storeErrors, unhandled, reasons })}\n`);
if (cfg.client === "node-redis") client.destroy();
else client.disconnect();
process.disconnect();
