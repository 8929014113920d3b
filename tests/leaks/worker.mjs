// Child process of memory-stays-bounded.test.mjs (run with --expose-gc): creates and uses N
// policies or N seeded streams, and prints JSON with the wasm memory size and
// process RSS after a warm-up tenth and at the end (after gc() and letting
// FinalizationRegistry callbacks run).
//   node --expose-gc worker.mjs policies|streams|disposed-streams [N]
import { wasmMemoryBytes as __wasmMemoryBytes } from "../wasm-memory.mjs"; // first: it watches the package's instance
import { createBackoff } from "../../pkg/dist/esm/backoff.js";
import { createRandom } from "../../pkg/dist/esm/random.js";

const kind = process.argv[2];
const N = Number(process.argv[3] ?? 1_000_000);
const tick = () => new Promise((r) => setImmediate(r));

async function settle() {
  // Two gc/turn rounds: the first collects, the second lets finalizers (queued
  // by the first) run and frees what they released.
  for (let k = 0; k < 3; k++) {
    globalThis.gc();
    await tick();
  }
}
const snap = () => ({ wasm: __wasmMemoryBytes(), rss: process.memoryUsage().rss });

let sink = 0;
const use = {
  policies(i) {
    const p = createBackoff({ base: 100 + (i % 97), max: "1 minute", jitter: 0.5, random: () => 0.25 });
    sink += p.delay((i % 9) + 1) + p.delay(3);
  },
  streams(i) {
    const r = createRandom(i);
    sink += r.next() + r.int(0, 9);
  },
  "seeded-policies"(i) {
    const p = createBackoff({ base: 100, max: 60000, jitter: 0.25, random: createRandom(`s${i}`) });
    sink += p.delay((i % 9) + 1);
  },
};
const step = use[kind];
if (!step) throw new Error(`unknown kind ${kind}`);

const warm = Math.floor(N / 10);
let i = 0;
async function run(upTo) {
  for (; i < upTo; i++) {
    step(i);
    // Return to the event loop now and then, as a real program does, so that
    // FinalizationRegistry callbacks get a chance to run.
    if (i % 10_000 === 9_999) await tick();
  }
}
await run(warm);
await settle();
const afterWarmup = snap();
let peakWasm = afterWarmup.wasm;
for (let chunk = 1; chunk <= 9; chunk++) {
  await run(warm + Math.floor(((N - warm) * chunk) / 9));
  peakWasm = Math.max(peakWasm, __wasmMemoryBytes());
}
await settle();
const end = snap();
console.log(JSON.stringify({ kind, n: i, afterWarmup, end, peakWasm, sinkFinite: Number.isFinite(sink) }));
