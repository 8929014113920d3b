// A random stream's draws are own functions that work taken off it, as @sdxc/random builds
// them: `const { next, int } = createRandom(42)`, `Array.from({ length: 3 }, rng.next)`,
// `{ ...rng }`, a detached `next` passed where a draw function is taken.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as esm from "../../pkg/dist/esm/index.js";

const cjs = createRequire(import.meta.url)("../../pkg/dist/cjs/index.js");

test("a seeded stream's own enumerable properties are upstream's, in upstream's order", () => {
  for (const m of [esm, cjs]) {
    const rng = m.createRandom(42);
    assert.deepEqual(Object.keys(rng), ["next", "int", "float", "bool", "pick", "shuffle", "seed", "derive", "state"]);
    assert.deepEqual(Object.keys(m.restoreRandom(rng.state())), Object.keys(rng));
    assert.deepEqual(Object.keys(rng.derive("x")), Object.keys(rng));
    assert.deepEqual(Object.keys(m.systemRandom()), ["next", "int", "float", "bool", "pick", "shuffle"]);
    assert.equal(JSON.stringify(m.createRandom("z")), '{"seed":"z"}');
  }
});

test("draws taken off a seeded stream are the stream's draws, in order", () => {
  for (const m of [esm, cjs]) {
    const { next, int, float, bool, pick, shuffle, derive, state, seed } = m.createRandom(42);
    const twin = m.createRandom(42);
    // The first raw words of createRandom(42), as @sdxc/random's: 3833195492, 3563769608.
    assert.equal(Math.floor(next() * 2 ** 32), 3833195492);
    twin.next();
    assert.equal(Math.floor(next() * 2 ** 32), 3563769608);
    twin.next();
    assert.equal(int(1, 6), twin.int(1, 6));
    assert.equal(float(10, 20), twin.float(10, 20));
    assert.equal(bool(0.5), twin.bool(0.5));
    assert.equal(pick(["a", "b", "c"]), twin.pick(["a", "b", "c"]));
    assert.deepEqual(shuffle([1, 2, 3, 4, 5]), twin.shuffle([1, 2, 3, 4, 5]));
    assert.deepEqual(state(), twin.state());
    assert.equal(seed, 42);
    assert.equal(derive("a").next(), twin.derive("a").next());
    // Errors are the same as through the stream.
    assert.throws(() => int(2, 1), RangeError);
    assert.throws(() => derive({}), { name: "TypeError", message: /label/ });
  }
});

test("a detached next maps, and feeds Sigil and a policy as a draw function with the stream's numbers", () => {
  for (const m of [esm, cjs]) {
    const rng = m.createRandom(1);
    const twin = m.createRandom(1);
    assert.deepEqual(Array.from({ length: 3 }, rng.next), [twin.next(), twin.next(), twin.next()]);
    assert.deepEqual(
      m.retrySchedule({ jitter: 0.5, random: m.createRandom(42).next }),
      m.retrySchedule({ jitter: 0.5, random: m.seededRandom(42) }),
    );
    const viaFunction = m.createBackoff({ base: 1000, jitter: 0.25, random: m.createRandom("p").next, maxAttempts: 6 });
    const viaStream = m.createBackoff({ base: 1000, jitter: 0.25, random: m.createRandom("p"), maxAttempts: 6 });
    assert.deepEqual(viaFunction.schedule(), viaStream.schedule());
  }
});

test("a spread copy of a stream draws from the stream's state", () => {
  for (const m of [esm, cjs]) {
    const rng = m.createRandom("s");
    const copy = { ...rng };
    const twin = m.createRandom("s");
    assert.equal(copy.next(), twin.next());
    assert.equal(rng.next(), twin.next(), "the copy and the stream share one state");
    const policy = m.createBackoff({ base: 1000, jitter: 0.25, random: { ...m.createRandom("q") }, maxAttempts: 5 });
    const same = m.createBackoff({ base: 1000, jitter: 0.25, random: m.createRandom("q"), maxAttempts: 5 });
    assert.deepEqual(policy.schedule(), same.schedule());
  }
});

test("draws taken off systemRandom() stay in [0, 1) and in their ranges", () => {
  for (const m of [esm, cjs]) {
    const { next, int, float } = m.systemRandom();
    for (let i = 0; i < 200; i++) {
      const r = next();
      assert.ok(r >= 0 && r < 1, String(r));
      const k = int(3, 5);
      assert.ok(Number.isInteger(k) && k >= 3 && k <= 5, String(k));
      const f = float(2, 4);
      assert.ok(f >= 2 && f < 4, String(f));
    }
  }
});
