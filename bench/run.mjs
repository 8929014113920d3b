// `npm run bench`: throughput of backoff-wasm (the built pkg/, Node ESM tree)
// against a hand-written JS implementation (bench/baseline.mjs) and npm peers,
// in one process, plus cold start (process start → import → first delay()).
//
// Harness: tinybench. Each task body runs BATCH operations so that the timer's
// own cost per sample does not swamp operations of a few nanoseconds;
// ops/s = BATCH / median sample time. Results are checked for equality with the
// baseline before timing (both must compute the same numbers).
//
// Options (environment): BENCH_TIME_MS (per task, default 400), COLD_RUNS
// (process spawns per cold-start case, default 21), BENCH_OUT (JSON path,
// default bench/results/latest.json), BENCH_ONLY (comma-separated parts of case
// names, e.g. `BENCH_ONLY=seeded,createBackoff`: only those throughput cases, no
// cold start and no call counts; the JSON is then written only when BENCH_OUT is set).
import { Bench } from "tinybench";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import os from "node:os";

import { createBackoff } from "../pkg/dist/esm/backoff.js";
import { nextDelayMs, retrySchedule, seededRandom } from "../pkg/dist/esm/sigil.js";
import { Backoff } from "../pkg/dist/esm/policy.js";
import { createRandom } from "../pkg/dist/esm/random.js";
import { parse } from "../pkg/dist/esm/duration.js";
import { handBackoff, handKeyed, handRetrySchedule, handRandom, handParse } from "./baseline.mjs";

const require = createRequire(import.meta.url);
const { ExponentialBackoff, noJitterGenerator } = require("cockatiel");
const { getSanitizedOptions } = require("exponential-backoff/dist/options");
const { DelayFactory } = require("exponential-backoff/dist/delay/delay.factory");
const retry = require("retry");

const here = dirname(fileURLToPath(import.meta.url));
const TIME = Number(process.env.BENCH_TIME_MS ?? 400);
const COLD_RUNS = Number(process.env.COLD_RUNS ?? 21);
const ONLY = (process.env.BENCH_ONLY ?? "").split(",").map((s) => s.trim()).filter(Boolean);
const OUT = process.env.BENCH_OUT ?? (ONLY.length > 0 ? undefined : join(here, "results", "latest.json"));
const BATCH = 1000;

// ------------------------------------------------------------------ cases
// Each group: one operation, several implementations; the first is ours, the
// `baseline` one is the hand-written JS, others are npm peers.
let sink = 0; // results are summed here so no loop is dead code; attempts cycle 1..8

function seededPair() {
  return [createBackoff({ base: 1000, max: 3600000, jitter: 0.25, random: createRandom("b") }),
    handBackoff({ base: 1000, max: 3600000, jitter: 0.25, random: handRandom("b") })];
}

// Each impl returns `run(n)`, which performs n operations in a loop of its own
// (one function literal per impl, so no call site is shared between impls and
// made megamorphic by the harness).
const groups = [
  {
    name: "delay(n), no jitter",
    impls: {
      "backoff-wasm": () => {
        const b = createBackoff({ base: 1000, max: 3600000 });
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += b.delay((i & 7) + 1); return s; };
      },
      baseline: () => {
        const b = handBackoff({ base: 1000, max: 3600000 });
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += b.delay((i & 7) + 1); return s; };
      },
      "exponential-backoff": () => {
        const o = getSanitizedOptions({ startingDelay: 1000, maxDelay: 3600000 });
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += DelayFactory(o, (i & 7) + 1).delay; return s; };
      },
      "cockatiel noJitterGenerator": () => {
        const o = { initialDelay: 1000, maxDelay: 3600000, exponent: 2 };
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += noJitterGenerator(i & 7, o)[0]; return s; };
      },
      "retry createTimeout (p-retry's formula)": () => {
        const o = { minTimeout: 1000, maxTimeout: 3600000, factor: 2, randomize: false };
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += retry.createTimeout(i & 7, o); return s; };
      },
    },
  },
  {
    name: "delay(n), jitter 0.25, seeded stream",
    impls: {
      "backoff-wasm": () => {
        const b = seededPair()[0];
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += b.delay((i & 7) + 1); return s; };
      },
      baseline: () => {
        const b = seededPair()[1];
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += b.delay((i & 7) + 1); return s; };
      },
    },
  },
  {
    name: "delay(n), jitter 0.25, keyed seed",
    impls: {
      "backoff-wasm": () => {
        const b = createBackoff({ base: 1000, max: 3600000, jitter: 0.25, seed: "k" });
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += b.delay((i & 7) + 1); return s; };
      },
      baseline: () => {
        const b = handKeyed({ base: 1000, max: 3600000, jitter: 0.25, seed: "k" });
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += b.delay((i & 7) + 1); return s; };
      },
    },
  },
  {
    name: "delay(n), fluent, no jitter",
    impls: {
      "backoff-wasm": () => {
        const b = Backoff.exponential(1000).cap("1 hour");
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += b.delay((i & 7) + 1); return s; };
      },
      baseline: () => {
        const b = handBackoff({ base: 1000, max: 3600000 });
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += b.delay((i & 7) + 1); return s; };
      },
    },
  },
  {
    name: "sigil nextDelayMs(n)",
    impls: {
      "backoff-wasm": () => (n) => { let s = 0; for (let i = 0; i < n; i++) s += nextDelayMs((i & 7) + 1); return s; },
      baseline: () => (n) => { let s = 0; for (let i = 0; i < n; i++) s += Math.min(1000 * 2 ** (i & 7), 3600000); return s; },
    },
  },
  {
    name: "delay(n), jitter 0.25, JS callback",
    impls: {
      "backoff-wasm": () => {
        const r = handRandom("cb");
        const b = createBackoff({ base: 1000, max: 3600000, jitter: 0.25, random: () => r.next() });
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += b.delay((i & 7) + 1); return s; };
      },
      baseline: () => {
        const r = handRandom("cb");
        const b = handBackoff({ base: 1000, max: 3600000, jitter: 0.25, random: () => r.next() });
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += b.delay((i & 7) + 1); return s; };
      },
    },
  },
  {
    name: "sigil retrySchedule()",
    batch: 100,
    impls: {
      "backoff-wasm": () => (n) => { let s = 0; for (let i = 0; i < n; i++) s += retrySchedule().length; return s; },
      baseline: () => (n) => { let s = 0; for (let i = 0; i < n; i++) s += handRetrySchedule().length; return s; },
      "retry timeouts()": () => (n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += retry.timeouts({ retries: 7, factor: 2, minTimeout: 1000, maxTimeout: 3600000 }).length;
        return s;
      },
      "cockatiel ExponentialBackoff x7": () => {
        const eb = new ExponentialBackoff({ generator: noJitterGenerator, initialDelay: 1000, maxDelay: 3600000 });
        return (n) => {
          let t = 0;
          for (let i = 0; i < n; i++) { let st = eb.next(); for (let k = 0; k < 7; k++) { t += st.duration; st = st.next(); } }
          return t;
        };
      },
    },
  },
  {
    name: "sigil nextDelayMs(n, { jitter, random: seededRandom })",
    impls: {
      "backoff-wasm": () => {
        const o = { jitter: 0.2, random: seededRandom("s") };
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += nextDelayMs((i & 7) + 1, o); return s; };
      },
      baseline: () => {
        const r = handRandom("s");
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += handSigil((i & 7) + 1, 0.2, r.next()); return s; };
      },
    },
  },
  {
    name: "sigil nextDelayMs(n, { jitter, seed })",
    impls: {
      "backoff-wasm": () => {
        const o = { jitter: 0.2, seed: "s" };
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += nextDelayMs((i & 7) + 1, o); return s; };
      },
      baseline: () => (n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += handSigil((i & 7) + 1, 0.2, handRandom(`s ${(i & 7) + 1}`).next());
        return s;
      },
    },
  },
  {
    name: "fluent Backoff.exponential(b).cap(c).jitter(f)",
    batch: 100,
    impls: {
      "backoff-wasm": () => (n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += (KEEP[i & 7] = Backoff.exponential(1000 + (i & 7)).cap("2s").jitter(0.25)) ? 1 : 0;
        return s;
      },
      baseline: () => (n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += (KEEP[i & 7] = handBackoff({ base: 1000 + (i & 7), max: 2000, jitter: 0.25 })) ? 1 : 0;
        return s;
      },
    },
  },
  {
    name: "seeded schedule() of 8",
    batch: 100,
    impls: {
      "backoff-wasm": () => {
        const b = createBackoff({ base: 1000, max: 3600000, jitter: 0.25, random: createRandom("b"), maxAttempts: 8 });
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += b.schedule()[6]; return s; };
      },
      baseline: () => {
        const b = handBackoff({ base: 1000, max: 3600000, jitter: 0.25, random: handRandom("b") });
        return (n) => {
          let s = 0;
          for (let i = 0; i < n; i++) {
            const out = [];
            for (let retry = 1; retry < 8; retry++) out.push(b.delay(retry));
            s += out[6];
          }
          return s;
        };
      },
    },
  },
  {
    name: "createBackoff() construction",
    batch: 100,
    impls: {
      "backoff-wasm": () => (n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += (KEEP[i & 7] = createBackoff({ base: 1000 + (i & 7), max: 3600000, jitter: 0.25 })) ? 1 : 0;
        return s;
      },
      baseline: () => (n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += (KEEP[i & 7] = handBackoff({ base: 1000 + (i & 7), max: 3600000, jitter: 0.25 })) ? 1 : 0;
        return s;
      },
      "cockatiel new ExponentialBackoff": () => (n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += (KEEP[i & 7] = new ExponentialBackoff({ initialDelay: 1000 + (i & 7), maxDelay: 3600000 })) ? 1 : 0;
        return s;
      },
    },
  },
  {
    name: "createBackoff() construction, duration text",
    batch: 100,
    impls: {
      "backoff-wasm": () => (n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += (KEEP[i & 7] = createBackoff({ base: TEXTS[i & 7], max: "1 hour", jitter: 0.25 })) ? 1 : 0;
        return s;
      },
      baseline: () => (n) => {
        let s = 0;
        for (let i = 0; i < n; i++) s += (KEEP[i & 7] = handBackoff({ base: 1000 + (i & 7), max: 3600000, jitter: 0.25 })) ? 1 : 0;
        return s;
      },
    },
  },
  {
    name: "createRandom(seed) + 1000 next()",
    batch: 1,
    impls: {
      "backoff-wasm": () => { let seed = 0; return () => { const r = createRandom(seed++); let t = 0; for (let k = 0; k < 1000; k++) t += r.next(); return t; }; },
      baseline: () => { let seed = 0; return () => { const r = handRandom(seed++); let t = 0; for (let k = 0; k < 1000; k++) t += r.next(); return t; }; },
    },
  },
  {
    name: "duration parse()",
    impls: {
      "backoff-wasm": () => {
        const texts = ["5 minutes", "250ms", "12 hours", "1 week"];
        return (n) => { let s = 0; for (let i = 0; i < n; i++) { const r = parse(texts[i & 3]); s += r.status === "success" ? r.data : 0; } return s; };
      },
      baseline: () => {
        const texts = ["5 minutes", "250ms", "12 hours", "1 week"];
        return (n) => { let s = 0; for (let i = 0; i < n; i++) s += handParse(texts[i & 3]); return s; };
      },
    },
  },
];

/**
 * Where each construction case keeps what it built (the last eight), so that no engine can
 * prove the object unused and skip building it (a hand-written options object that is never
 * read is otherwise not allocated at all, and the ratio measures nothing).
 */
const KEEP = new Array(8).fill(null);

/** Bases as duration text, one per attempt of a batch (`createBackoff` with duration text). */
const TEXTS = ["1s", "1001ms", "1002ms", "1003ms", "1004ms", "1005ms", "1006ms", "1007ms"];

/** Sigil's `nextDelayMs(attempt, { jitter })` with the draw `r`, hand-written. */
function handSigil(attempt, jitter, r) {
  return Math.round(Math.min(1000 * 2 ** (attempt - 1), 3600000) * (1 - jitter * r));
}

// ------------------------------------------------------------------ equality
function equalityChecks() {
  const sigilOptions = { jitter: 0.2, random: seededRandom("e") };
  const sr = handRandom("e");
  for (let n = 1; n <= 40; n++) {
    assert.equal(nextDelayMs(n, sigilOptions), handSigil(n, 0.2, sr.next()), `seeded nextDelayMs(${n})`);
    assert.equal(nextDelayMs(n, { jitter: 0.2, seed: "s" }), handSigil(n, 0.2, handRandom(`s ${n}`).next()), `keyed nextDelayMs(${n})`);
  }
  const fluent = Backoff.exponential(1000).cap("2s").jitter(0.25).seed("f");
  assert.deepEqual(fluent.toJSON(), createBackoff({ base: 1000, cap: 2000, jitter: 0.25, seed: "f" }).toJSON());
  const sched = createBackoff({ base: 1000, max: 3600000, jitter: 0.25, random: createRandom("q"), maxAttempts: 8 });
  const handSched = handBackoff({ base: 1000, max: 3600000, jitter: 0.25, random: handRandom("q") });
  for (let k = 0; k < 3; k++) assert.deepEqual(sched.schedule(), [1, 2, 3, 4, 5, 6, 7].map((n) => handSched.delay(n)), "seeded schedule()");
  const ours = createBackoff({ base: 1000, max: 3600000 });
  const hand = handBackoff({ base: 1000, max: 3600000 });
  const eo = getSanitizedOptions({ startingDelay: 1000, maxDelay: 3600000 });
  for (let n = 1; n <= 40; n++) {
    assert.equal(ours.delay(n), hand.delay(n), `delay(${n})`);
    assert.equal(ours.delay(n), DelayFactory(eo, n).delay, `exponential-backoff delay(${n})`);
    assert.equal(ours.delay(n), noJitterGenerator(n - 1, { initialDelay: 1000, maxDelay: 3600000 })[0]);
  }
  const keyedOurs = createBackoff({ base: 1000, max: 3600000, jitter: 0.25, seed: "k" });
  const keyedHand = handKeyed({ base: 1000, max: 3600000, jitter: 0.25, seed: "k" });
  for (let n = 1; n <= 40; n++) {
    assert.equal(keyedOurs.delay(n), keyedHand.delay(n), `keyed delay(${n})`);
    assert.equal(nextDelayMs(n), Math.min(1000 * 2 ** (n - 1), 3600000), `nextDelayMs(${n})`);
    assert.equal(ours.delay(n), retry.createTimeout(n - 1, { minTimeout: 1000, maxTimeout: 3600000, factor: 2 }), `retry createTimeout(${n - 1})`);
  }
  const [so, sh] = seededPair();
  for (let n = 1; n <= 200; n++) assert.equal(so.delay(n % 12), sh.delay(n % 12), `seeded delay ${n}`);
  assert.deepEqual(retrySchedule(), handRetrySchedule());
  assert.deepEqual(retrySchedule(), retry.timeouts({ retries: 7, factor: 2, minTimeout: 1000, maxTimeout: 3600000 }));
  const r1 = createRandom("x"), r2 = handRandom("x");
  for (let k = 0; k < 1000; k++) assert.equal(r1.next(), r2.next());
  for (const t of ["5 minutes", "250ms", "12 hours", "1 week", "-3s", " 7 days ", "1.5s", "05", "1 Week", "0"]) {
    const r = parse(t);
    assert.equal(r.status === "success" ? r.data : Number.NaN, handParse(t), t);
  }
}

// ------------------------------------------------------------------ throughput
async function throughput() {
  const rows = [];
  for (const g of groups) {
    if (ONLY.length > 0 && !ONLY.some((part) => g.name.includes(part))) continue;
    const batch = g.batch ?? BATCH;
    const bench = new Bench({ time: TIME, warmupTime: Math.min(200, TIME / 2) });
    for (const [impl, make] of Object.entries(g.impls)) {
      const run = make();
      bench.add(impl, () => { sink += run(batch); });
    }
    await bench.run();
    const results = {};
    for (const t of bench.tasks) {
      assert.equal(t.result.state, "completed", `${g.name} / ${t.name}: ${t.result.error ?? t.result.state}`);
      const lat = t.result.latency; // ms per sample (one batch)
      results[t.name] = { opsPerSec: (batch * 1000) / lat.p50, nsPerOp: (lat.p50 * 1e6) / batch, rme: t.result.latency.rme, samples: lat.samplesCount };
    }
    const base = results.baseline.opsPerSec;
    for (const [impl, r] of Object.entries(results)) rows.push({ group: g.name, impl, ...r, vsBaseline: r.opsPerSec / base });
  }
  return rows;
}

// ------------------------------------------------------------------ cold start
function coldStart() {
  const cold = join(here, "cold");
  const cases = {
    "bare node (empty ES module)": "empty.mjs",
    "hand-written baseline: import + first delay()": "baseline.mjs",
    "exponential-backoff: import + first delay": "exponential-backoff.mjs",
    "backoff-wasm/backoff: import + first delay()": "backoff.mjs",
    "backoff-wasm (index): import + first delay()": "index.mjs",
  };
  // Round-robin over the cases (one spawn of each per round), so that a change
  // in machine load hits every case alike; the first round only warms caches.
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let round = 0; round <= COLD_RUNS; round++) {
    for (const [name, file] of Object.entries(cases)) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [join(cold, file)], { stdio: "pipe" });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      assert.equal(r.status, 0, `${name}: ${r.stderr}`);
      if (round > 0) times[name].push(ms);
    }
  }
  const out = {};
  for (const [name, t] of Object.entries(times)) {
    t.sort((x, y) => x - y);
    out[name] = { medianMs: t[t.length >> 1], minMs: t[0], maxMs: t[t.length - 1], runs: t.length };
  }
  const bare = out["bare node (empty ES module)"].medianMs;
  for (const v of Object.values(out)) v.overBareMs = v.medianMs - bare;
  return out;
}

// ------------------------------------------------------------------ wasm calls
function wasmCallCounts() {
  const r = spawnSync(process.execPath, [join(here, "calls.mjs")], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/**
 * The goals of issue 32: time per operation relative to the hand-written JS of the same run
 * (lower is faster; construction against a hand-written options object). `undefined`: no goal.
 */
const GOALS = [
  ["delay(n), plain (exponential, max, no jitter)", "delay(n), no jitter", 0.5],
  ["delay(n), fluent (exponential, cap, no jitter)", "delay(n), fluent, no jitter", 0.5],
  ["Sigil nextDelayMs(n), default policy", "sigil nextDelayMs(n)", 0.5],
  ["± jitter from a seeded stream", "delay(n), jitter 0.25, seeded stream", 1.0],
  ["± jitter from a keyed seed", "delay(n), jitter 0.25, keyed seed", 1.0],
  ["Sigil nextDelayMs(n, { jitter, random: seededRandom })", "sigil nextDelayMs(n, { jitter, random: seededRandom })", 3],
  ["Sigil nextDelayMs(n, { jitter, seed })", "sigil nextDelayMs(n, { jitter, seed })", 3],
  ["createBackoff({ base, max, jitter })", "createBackoff() construction", 40],
  ["createBackoff, duration text", "createBackoff() construction, duration text", 40],
  ["Backoff.exponential(b).cap(c).jitter(f)", "fluent Backoff.exponential(b).cap(c).jitter(f)", 80],
  ["delay(n), ± jitter, JS callback", "delay(n), jitter 0.25, JS callback", undefined],
  ["Sigil retrySchedule() (8 attempts)", "sigil retrySchedule()", undefined],
  ["seeded schedule() of 8", "seeded schedule() of 8", undefined],
  ["createRandom(seed) + 1000 next()", "createRandom(seed) + 1000 next()", undefined],
  ["duration parse()", "duration parse()", undefined],
];

// ------------------------------------------------------------------ main
const fmt = (x, d = 0) => x.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
equalityChecks();
const rows = await throughput();
const cold = ONLY.length > 0 ? {} : coldStart();
const calls = ONLY.length > 0 ? {} : wasmCallCounts();

console.log(`\nbackoff-wasm benchmarks — node ${process.version}, ${os.cpus()[0]?.model ?? "?"} x${os.cpus().length}, ${TIME} ms per task\n`);
console.log(`${"case".padEnd(40)} ${"implementation".padEnd(34)} ${"ops/s".padStart(14)} ${"ns/op".padStart(9)} ${"vs baseline".padStart(12)}`);
let last = "";
for (const r of rows) {
  console.log(`${(r.group === last ? "" : r.group).padEnd(40)} ${r.impl.padEnd(34)} ${fmt(r.opsPerSec).padStart(14)} ${fmt(r.nsPerOp, 1).padStart(9)} ${(fmt(r.vsBaseline, 2) + "x").padStart(12)}`);
  last = r.group;
}
console.log("\ngoals (issue 32): time per operation relative to the hand-written JS in this run");
console.log(`${"case".padEnd(56)} ${"backoff-wasm".padStart(13)} ${"goal".padStart(8)}  met  fastest peer`);
const table = [];
for (const [label, group, goal] of GOALS) {
  const inGroup = rows.filter((r) => r.group === group);
  const ours = inGroup.find((r) => r.impl === "backoff-wasm");
  if (ours === undefined) continue; // left out by BENCH_ONLY
  const peers = inGroup.filter((r) => r.impl !== "backoff-wasm" && r.impl !== "baseline");
  const best = peers.sort((a, b) => a.nsPerOp - b.nsPerOp)[0];
  const ratio = 1 / ours.vsBaseline;
  const met = goal === undefined ? "-" : ratio <= goal ? "yes" : "no";
  table.push({ case: label, timeVsHandJs: ratio, goal, met, nsPerOp: ours.nsPerOp, fastestPeer: best ? { impl: best.impl, timeVsHandJs: 1 / best.vsBaseline } : undefined });
  console.log(`${label.padEnd(56)} ${(fmt(ratio, 2) + "x").padStart(13)} ${(goal === undefined ? "-" : "<= " + goal + "x").padStart(8)}  ${met.padEnd(4)} ${best ? `${best.impl} ${fmt(1 / best.vsBaseline, 2)}x` : ""}`);
}
console.log("\nwasm export calls per operation (bench/calls.mjs, 1000 operations each)");
for (const [name, n] of Object.entries(calls)) console.log(`  ${name.padEnd(44)} ${fmt(n, 2).padStart(6)}`);
console.log(`\ncold start (median of ${COLD_RUNS} spawns)`);
for (const [name, v] of Object.entries(cold)) {
  console.log(`  ${name.padEnd(48)} ${fmt(v.medianMs, 1).padStart(8)} ms  (+${fmt(v.overBareMs, 1)} ms over bare node)`);
}
if (OUT !== undefined) {
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify({
    date: new Date().toISOString(), node: process.version, cpu: os.cpus()[0]?.model, cores: os.cpus().length,
    timePerTaskMs: TIME, batch: BATCH, throughput: rows, goals: table, wasmCalls: calls, coldStart: cold, sink: Number.isFinite(sink),
  }, null, 2) + "\n");
  console.log(`\nsaved ${OUT}`);
}
