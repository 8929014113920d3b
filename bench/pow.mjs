// Powers (issue 18, API contract section 9 "Powers"): what the engine's own
// power costs per delay, and which numbers each runtime's Math.pow gives.
//
//   node bench/pow.mjs [pkg-dir ...]     ns per delay() for exponential curves,
//                                        for each built package given (default pkg/)
//   node bench/pow.mjs --agreement       pairs (factor, attempt) where this Node's
//                                        Math.pow differs from the package's power
//
// The agreement mode is meant to be run under several Node versions (the same
// pairs every run: a fixed-seed xorshift generator). Numbers only: nothing here asserts
// a speed.
import { Bench } from "tinybench";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { xorshift32 } from "../tests/js/cases/model.mjs";

const args = process.argv.slice(2);

/** xorshift32 (tests/js/cases/model.mjs) with a fixed seed: the pairs of the agreement mode. */
function generator(seed) {
  const u32 = xorshift32(seed);
  return { unit: () => u32() / 4294967296, int: (lo, hi) => lo + (u32() % (hi - lo + 1)) };
}

/** Factors as configured in practice: short decimals, random doubles in [1, 4), integers. */
function* pairs(count) {
  const g = generator(0x9e3779b9);
  for (let i = 0; i < count; i++) {
    const kind = i % 3;
    const factor = kind === 0 ? g.int(101, 400) / 100 : kind === 1 ? 1 + 3 * g.unit() : g.int(2, 10);
    yield [factor, g.int(0, 63)];
  }
}

async function load(dir) {
  return import(pathToFileURL(resolve(dir, "dist/esm/backoff.js")).href);
}

if (args[0] === "--agreement") {
  const { createBackoff } = await load(args[1] ?? "pkg");
  const count = Number(process.env.POW_PAIRS ?? 300000);
  let differ = 0;
  let nonInteger = 0;
  let nonIntegerDiffer = 0;
  const examples = [];
  const cache = new Map();
  for (const [factor, n] of pairs(count)) {
    let b = cache.get(factor);
    if (!b) cache.set(factor, (b = createBackoff({ base: 1, factor })));
    const ours = b.delay(n + 1);
    const host = Math.pow(factor, n);
    const same = Object.is(ours, host);
    if (!Number.isInteger(factor)) {
      nonInteger++;
      if (!same) nonIntegerDiffer++;
    }
    if (!same) {
      differ++;
      if (examples.length < 3) examples.push(`${factor}^${n}: ours ${ours}, Math.pow ${host}`);
    }
  }
  const pct = (a, b) => ((100 * a) / b).toFixed(3);
  console.log(`Node ${process.version}: ${count} pairs, Math.pow differs from ours in ${differ} (${pct(differ, count)} %); ` +
    `non-integer factors: ${nonIntegerDiffer} of ${nonInteger} (${pct(nonIntegerDiffer, nonInteger)} %)`);
  for (const e of examples) console.log(`  e.g. ${e}`);
} else {
  const dirs = args.length ? args : ["pkg"];
  const TIME = Number(process.env.BENCH_TIME_MS ?? 400);
  const BATCH = 1000;
  const bench = new Bench({ time: TIME, warmupTime: 100 });
  let sink = 0;
  for (const dir of dirs) {
    const { createBackoff } = await load(dir);
    const cases = {
      "factor 2, attempts 1..8": [createBackoff({ base: 1000, max: 3600000 }), (i) => (i & 7) + 1],
      "factor 1.1, attempts 1..32": [createBackoff({ base: 1000, factor: 1.1 }), (i) => (i & 31) + 1],
      "factor 1.5, attempts 1..1024": [createBackoff({ base: 1, factor: 1.5 }), (i) => (i & 1023) + 1],
      "factor 1.1, attempt 2.5 (fractional)": [createBackoff({ base: 1000, factor: 1.1 }), () => 2.5],
    };
    for (const [name, [b, attempt]] of Object.entries(cases)) {
      bench.add(`${dir}: ${name}`, () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += b.delay(attempt(i));
        sink += s;
      });
    }
  }
  await bench.run();
  for (const task of bench.tasks) {
    const ns = (task.result.latency.p50 * 1e6) / BATCH;
    console.log(`${task.name.padEnd(64)} ${ns.toFixed(1).padStart(7)} ns per delay`);
  }
  if (sink === 42) console.log("");
}
