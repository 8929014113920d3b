// A seeded stream is one sequence, whoever draws from it: a curve policy (whose delay hands
// the stream's words to wasm as arguments), a stepped policy (whose delay hands them over in
// the stream area), the stream's own `next()`, in any order. Each draw advances it by exactly
// one step, and each answer is the one a fresh stream restored to the same state gives. A
// proxy of a stream, or an object inheriting from one, is an ordinary source whose draws call
// the stream's own functions: the same waits and the same stream as the stream itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBackoff } from "../../pkg/dist/esm/backoff.js";
import { createRandom, restoreRandom } from "../../pkg/dist/esm/random.js";

const SHAPES = {
  curve: { base: 100, max: 10_000, jitter: 0.25 },
  full: { base: 50, factor: 3, max: 60_000, jitter: "full" },
  steps: { steps: [100, 200, 400, 800], jitter: 0.5 },
};
const ORDER = ["curve", "steps", "next", "full", "curve", "next", "steps", "curve", "full"];

test("curve, stepped and direct draws from one seeded stream advance it once per draw, in any order", () => {
  const shared = createRandom("shared stream");
  const twin = createRandom("shared stream");
  const policies = Object.fromEntries(Object.entries(SHAPES).map(([k, o]) => [k, createBackoff({ ...o, random: shared })]));
  for (let i = 0; i < 120; i++) {
    const which = ORDER[i % ORDER.length];
    const attempt = 1 + (i % 7);
    const before = shared.state();
    const alone = which === "next" ? restoreRandom(before).next() : createBackoff({ ...SHAPES[which], random: restoreRandom(before) }).delay(attempt);
    const got = which === "next" ? shared.next() : policies[which].delay(attempt);
    assert.equal(got, alone, `call ${i}: ${which} delay(${attempt})`);
    twin.next();
    assert.deepEqual(shared.state(), twin.state(), `call ${i}: ${which} advanced the stream by one draw`);
  }
});

test("a proxy of a seeded stream, or an object inheriting from one, draws through the stream's own functions: the same waits, the same stream", () => {
  for (const which of ["curve", "full", "steps"]) {
    const stream = createRandom(7);
    const twin = createRandom(7);
    const proxied = createBackoff({ ...SHAPES[which], random: new Proxy(stream, {}) });
    const heir = createBackoff({ ...SHAPES[which], random: Object.create(stream) });
    const direct = createBackoff({ ...SHAPES[which], random: twin });
    for (let attempt = 1; attempt <= 6; attempt++) {
      assert.equal(proxied.delay(attempt), direct.delay(attempt), `${which}: proxy, delay(${attempt})`);
      assert.equal(heir.delay(attempt), direct.delay(attempt), `${which}: heir, delay(${attempt})`);
    }
    assert.deepEqual(stream.state(), twin.state(), which);
  }
});
