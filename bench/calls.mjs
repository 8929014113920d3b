// Wasm export calls per operation (issue 18): imports the package after the test helper
// that counts the calls its wasm instance's exports receive, runs each case 1000 times
// and prints JSON { case: calls per operation }. Spawned by bench/run.mjs.
import { wasmCalls } from "../tests/wasm-calls.mjs";

const m = await import("../pkg/dist/esm/index.js");
const { Backoff, createBackoff, createRandom, nextDelayMs, retrySchedule } = m;
let state = 7;
const js = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296);
nextDelayMs(1, {}); // the option names are read from wasm once per process, on first use
const cases = {
  "delay(n), plain": createBackoff({ base: 1000, max: 3600000 }),
  "delay(n), fluent cap": Backoff.exponential(1000).cap("1 hour"),
  "delay(n), seeded stream": createBackoff({ base: 1000, max: 3600000, jitter: 0.25, random: createRandom("b") }),
  "delay(n), keyed seed": createBackoff({ base: 1000, max: 3600000, jitter: 0.25, seed: "k" }),
  "delay(n), JS function": createBackoff({ base: 1000, jitter: 0.25, random: js }),
  "delay(n), JS next()": createBackoff({ base: 1000, jitter: 0.25, random: { next: js } }),
  "delay(n), JS float()": createBackoff({ base: 1000, jitter: 0.25, random: { float: (a, b) => a + js() * (b - a) } }),
  "delay(n), decorrelated keyed": Backoff.exponential(100).cap(30000).jitter("decorrelated").seed(1),
  "delay(n), steps": createBackoff({ steps: [10, 20, 30], jitter: "full", seed: 2 }),
};
const out = {};
for (const [name, p] of Object.entries(cases)) {
  p.delay(1);
  out[name] = wasmCalls(() => { for (let a = 1; a <= 1000; a++) p.delay(a); }).total / 1000;
}
out["delay(n), two seeded policies alternating"] = (() => {
  const a = createBackoff({ base: 1000, jitter: 0.25, random: createRandom("a") });
  const b = createBackoff({ base: 500, jitter: 0.25, random: createRandom("b") });
  return wasmCalls(() => { for (let n = 1; n <= 500; n++) { a.delay(n); b.delay(n); } }).total / 1000;
})();
out["sigil nextDelayMs(n)"] = wasmCalls(() => { for (let a = 1; a <= 1000; a++) nextDelayMs((a & 7) + 1); }).total / 1000;
out["sigil nextDelayMs(n), seededRandom"] = (() => {
  const random = m.seededRandom("s");
  return wasmCalls(() => { for (let a = 1; a <= 1000; a++) nextDelayMs((a & 7) + 1, { jitter: 0.5, random }); }).total / 1000;
})();
out["sigil retrySchedule() (8 attempts)"] = wasmCalls(() => { for (let a = 1; a <= 1000; a++) retrySchedule(); }).total / 1000;
out["createBackoff()"] = wasmCalls(() => { for (let a = 1; a <= 1000; a++) createBackoff({ base: 1000, max: 3600000, jitter: 0.25 }); }).total / 1000;
console.log(JSON.stringify(out));
