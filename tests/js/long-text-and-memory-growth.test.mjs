// Text of any length (durations, seeds, Retry-After values) gets the answers short text
// gets; results, errors, and policies and streams made earlier stay right after the wasm
// memory grew; an attempt given as text is the number wasm converts it to, for every
// export. (Everything crosses to the wasm as numbers: js/engine/abi.ts, src/bindings.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { wasmMemoryBytes as __wasmMemoryBytes } from "../wasm-memory.mjs"; // before the package: it watches its instance
import * as m from "../../pkg/dist/esm/index.js";

test("long text: durations, seeds and Retry-After values of any length", () => {
  assert.deepEqual(m.parseDuration("9".repeat(100_000)), { status: "success", data: Infinity });
  assert.deepEqual(m.parseDuration(" ".repeat(50_000) + "5s" + "\u3000".repeat(50_000)), { status: "success", data: 5000 });
  assert.equal(m.parseDuration("x".repeat(100_000)).status, "failure");
  assert.equal(m.retryAfterMs("9".repeat(100_000), 0), Infinity);
  assert.equal(m.retryAfterMs("Sun, 06 Nov 1994 08:49:37 GMT" + " ".repeat(100_000), 784111777000), 0);
  const long = "seed ".repeat(40_000);
  const a = m.createRandom(long);
  const b = m.createRandom(long);
  assert.equal(a.next(), b.next());
  assert.notEqual(m.createRandom(long + "x").next(), m.createRandom(long).next());
  // a long text followed by a short one: the short one is read from the static buffer
  assert.deepEqual(m.parseDuration("7 minutes"), { status: "success", data: 420_000 });
});

test("after memory grew, results and errors are still read right", () => {
  const before = __wasmMemoryBytes();
  m.createRandom("1".repeat(before)); // a seed of more code units than the memory had bytes: it must grow
  assert.ok(__wasmMemoryBytes() > before);
  assert.deepEqual(m.Backoff.exponential("1 second").cap("5 seconds").jitter("equal").bounds(3), { nominal: 4000, min: 2000, max: 4000 });
  assert.throws(() => m.createBackoff({ base: 100, factor: 0.5 }), {
    name: "RangeError",
    message: "factor must be a finite number >= 1; received 0.5",
  });
  assert.throws(() => m.nextDelayMs(0), { name: "SigilError", code: "invalid_argument", message: "attempt must be an integer >= 1; received 0" });
  assert.deepEqual(m.retrySchedule(), [1000, 2000, 4000, 8000, 16000, 32000, 64000]);
});

test("policies and streams made before memory grew keep their numbers after it (views of a detached buffer are re-made)", () => {
  const reference = () => {
    const seeded = m.createBackoff({ base: 100, max: 60_000, jitter: 0.25, random: m.createRandom("grow") });
    const keyed = m.Backoff.exponential(100).cap(1000).jitter(0.3).seed("k");
    const steps = m.createBackoff({ steps: [10, "20ms", 30], jitter: "full", seed: 2 });
    return [seeded, keyed, steps];
  };
  const draws = (policies) => {
    const out = [];
    for (let n = 1; n <= 12; n++) for (const p of policies) out.push(p.delay(n), p.bounds(n).max);
    return out;
  };
  const expected = draws(reference());
  const before = reference();
  before.forEach((p) => p.delay(0)); // each one used once before the growth
  const bytes = __wasmMemoryBytes();
  m.createRandom("2".repeat(bytes)); // a seed of more code units than the memory had bytes: it must grow
  assert.ok(__wasmMemoryBytes() > bytes);
  assert.deepEqual(draws(before), expected);
  assert.deepEqual(draws(reference()), expected);
  assert.deepEqual(m.parseDuration("5 minutes"), { status: "success", data: 300_000 });
  assert.throws(() => m.createBackoff({ base: "5 minutes", jitter: 2 }), {
    name: "RangeError",
    message: 'jitter must be a number in [0, 1], "full", "equal" or "decorrelated"; received 2',
  });
});

test("an attempt given as text is the number wasm converts it to, keyed draws included", () => {
  const p = m.Backoff.exponential(100).cap(1000).jitter(0.3).seed(1);
  assert.equal(p.delay("9".repeat(400)), p.delay(Infinity));
  assert.equal(p.delay("2.5"), p.delay(2.5));
  assert.equal(p.delay(" 3 "), p.delay(3));
});
