// `node bench/fleet-budget.mjs`: what a shared retry budget costs a retry() call, against
// the same call with a budget of the process (createRetryBudget without a store) and with no
// budget, in one process, on a loopback redis-server this script starts (free port, no
// persistence) and stops. Needs `npm run build` (it imports pkg/) and redis-server.
//
// Cases, each the time per retry() call (median of ROUNDS rounds of CALLS sequential calls):
//   success      fn succeeds at once: one deposit, no withdrawal
//   one retry    fn fails once, then succeeds (policy 0: no wait): one deposit, one withdrawal
// for: no budget, local budget, Redis store through ioredis and through node-redis, directly
// on loopback and through a TCP proxy that delays each direction by DELAY_MS (so a round
// trip shows). Reference: one EVALSHA round trip of the store's script (store.withdraw
// awaited alone) on the same connection, and a deposit with a withdrawal pipelined behind
// it (what one retry sends), awaited together. "added" columns: the time over the local budget's.
// A retry's wait is policy 0, i.e. one setTimeout(0) in every row alike.
//
// Environment: CALLS (default 2000), ROUNDS (default 7), DELAY_MS (default 2).
import { createServer, connect } from "node:net";
import { Redis } from "ioredis";
import { createClient } from "redis";
import { retry, createRetryBudget, redisBudgetStore } from "../pkg/dist/esm/retry.js";
import { startRedis, freePort } from "../tests/budget/redis-server.mjs";

const CALLS = Number(process.env.CALLS ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const DELAY_MS = Number(process.env.DELAY_MS ?? 2);

/** A TCP proxy to 127.0.0.1:`target` that delivers each chunk `delayMs` late, in order. */
async function delayingProxy(target, delayMs) {
  const port = await freePort();
  const server = createServer((down) => {
    const up = connect(target, "127.0.0.1");
    down.setNoDelay(true);
    up.setNoDelay(true);
    const later = (to) => (chunk) => setTimeout(() => to.write(chunk), delayMs);
    down.on("data", later(up));
    up.on("data", later(down));
    const end = () => { down.destroy(); up.destroy(); };
    down.on("close", end);
    up.on("close", end);
    down.on("error", end);
    up.on("error", end);
  });
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  return { port, close: () => new Promise((r) => server.close(r)) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median µs per call of `once()` awaited CALLS times in a row. */
async function timeCalls(once, calls = CALLS) {
  for (let i = 0; i < Math.min(200, calls); i++) await once(); // warm-up
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await once();
    rounds.push(((performance.now() - t0) * 1000) / calls);
  }
  return median(rounds);
}

const success = (budget) => () => retry(() => 1, 0, budget ? { retries: 1, budget } : { retries: 1 });
const oneRetry = (budget) => {
  let k = 0;
  const fn = () => {
    if (k++ % 2 === 0) throw new Error("once");
    return 1;
  };
  return () => retry(fn, 0, budget ? { retries: 1, budget } : { retries: 1 });
};
/** A budget that never runs out during the run: the reserve of 10⁶ retries per second over 60 s. */
const roomy = (store) => createRetryBudget({ ratio: 1, minPerSecond: 1_000_000, windowMs: "60 seconds", ...(store ? { store } : {}) });

const redis = await startRedis();
const proxy = await delayingProxy(redis.port, DELAY_MS);
const rows = [];
const row = (what, successUs, retryUs, rttUs, pairUs) => {
  rows.push({ what, successUs, retryUs, rttUs, pairUs });
  console.error(`${what}: success ${successUs.toFixed(1)} µs, one retry ${retryUs.toFixed(1)} µs, round trip ${rttUs?.toFixed(1)}`);
};
try {
  row("no budget", await timeCalls(success(undefined)), await timeCalls(oneRetry(undefined)));
  row("local budget", await timeCalls(success(roomy())), await timeCalls(oneRetry(roomy())));
  for (const [where, port, calls] of [["loopback", redis.port, CALLS], [`+${DELAY_MS} ms each way`, proxy.port, Math.max(50, Math.floor(CALLS / 20))]]) {
    const io = new Redis({ port, host: "127.0.0.1", lazyConnect: true });
    await io.connect();
    const nr = createClient({ url: `redis://127.0.0.1:${port}` });
    await nr.connect();
    try {
      for (const [name, client] of [["ioredis", io], ["node-redis", nr]]) {
        const store = redisBudgetStore(client, { key: `bench:${name}:${port}` });
        const rule = { windowMs: 60_000, reserve: 1e12 };
        await store.withdraw(1, rule); // loads the script
        const rtt = await timeCalls(() => store.withdraw(1, rule), calls);
        // What one retry sends: the call's deposit, then (pipelined behind it) the withdrawal.
        const pair = await timeCalls(() => {
          void store.deposit(1, rule);
          return store.withdraw(1, rule);
        }, calls);
        const s = await timeCalls(success(roomy(store)), calls);
        const r = await timeCalls(oneRetry(roomy(store)), calls);
        row(`Redis store, ${name}, ${where}`, s, r, rtt, pair);
        // Let the deposits sent without waiting land before the next case.
        await store.withdraw(1, rule);
      }
    } finally {
      io.disconnect();
      nr.destroy();
    }
  }
} finally {
  await proxy.close();
  await redis.close();
}

console.log(`\nretry() per call, µs (median of ${ROUNDS} rounds; ${CALLS} calls per round on loopback, ${Math.max(50, Math.floor(CALLS / 20))} through the proxy), Node ${process.version}`);
// "added": time over the local budget's in the same run; "round trip": one store.withdraw alone.
const local = rows.find((r) => r.what === "local budget");
const f = (x) => x.toFixed(1);
console.log("| budget | first attempt succeeds | added | one retry | added | round trip: withdrawal alone | deposit + withdrawal |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  const store = r.rttUs !== undefined;
  console.log(`| ${r.what} | ${f(r.successUs)} | ${store ? f(r.successUs - local.successUs) : ""} | ${f(r.retryUs)} | ${store ? f(r.retryUs - local.retryUs) : ""} | ${store ? f(r.rttUs) : ""} | ${store ? f(r.pairUs) : ""} |`);
}
