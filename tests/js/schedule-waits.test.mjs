// `schedule()` computes its waits in wasm several at a time; every wait must be the one
// `delay(n)` gives for the same policy and the same draws, in the same order, whatever the
// source, and a source that runs other policies (or fails) mid-schedule must not change them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBackoff } from "../../pkg/dist/esm/backoff.js";
import { Backoff } from "../../pkg/dist/esm/policy.js";
import { createRandom } from "../../pkg/dist/esm/random.js";

/** The waits `delay(1) … delay(attempts - 1)` of a fresh copy of the policy `make` builds. */
const oneByOne = (make, attempts) => {
  const p = make();
  return Array.from({ length: attempts - 1 }, (_, i) => p.delay(i + 1));
};

test("schedule() of a seeded stream draws the waits delay(n) draws, in order, across batches of 8", () => {
  for (const attempts of [1, 2, 8, 9, 10, 17, 40]) {
    const make = () => createBackoff({ base: 100, max: 60_000, jitter: 0.3, random: createRandom("w"), maxAttempts: attempts });
    assert.deepEqual(make().schedule(), oneByOne(make, attempts), `maxAttempts ${attempts}`);
  }
  // The stream goes on after a schedule exactly as after the same delays.
  const a = createRandom("cont");
  const b = createRandom("cont");
  createBackoff({ base: 10, jitter: "full", random: a, maxAttempts: 12 }).schedule();
  const p = createBackoff({ base: 10, jitter: "full", random: b, maxAttempts: 12 });
  for (let n = 1; n < 12; n++) p.delay(n);
  assert.equal(a.next(), b.next());
});

test("schedule() of keyed, plain, stepped and decorrelated policies equals their delays", () => {
  const makers = [
    () => createBackoff({ base: 1000, max: 3_600_000, jitter: 0.25, seed: "k", maxAttempts: 30 }),
    () => createBackoff({ base: 1000, max: 3_600_000, maxAttempts: 30 }),
    () => createBackoff({ steps: [5, 10, 20], free: 2, jitter: "equal", seed: 3, maxAttempts: 30 }),
    () => Backoff.exponential(50).cap("1m").jitter("decorrelated").seed("d").maxAttempts(30),
    () => Backoff.linear(7).cap(100).jitter("decorrelated").random(createRandom("dc")).maxAttempts(30),
  ];
  for (const make of makers) assert.deepEqual(make().schedule(), oneByOne(make, 30), JSON.stringify(make().toJSON()));
  assert.deepEqual(makers[1]().schedule().slice(0, 4), [1000, 2000, 4000, 8000]);
});

test("schedule() with a JavaScript source asks it once per wait, in order, as delay(n) asks", () => {
  const asked = [];
  const float = (lo, hi) => { asked.push([lo, hi]); return lo; };
  const p = createBackoff({ base: 100, jitter: 0.5, random: { float }, maxAttempts: 11 });
  const waits = p.schedule();
  assert.deepEqual(waits, [50, 100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600]);
  // ± 0.5: each wait is the nominal one times a draw in [0.5, 1.5].
  assert.deepEqual(asked, waits.map(() => [0.5, 1.5]));
});

test("a random that builds and runs other policies mid-schedule leaves the schedule's waits as they were", () => {
  const plain = () => 0.25;
  const make = (random) => createBackoff({ base: 300, max: 1e6, jitter: "full", random, maxAttempts: 14 });
  const expected = make(plain).schedule();
  const other = createBackoff({ base: 999, max: 1e9, jitter: "full", seed: "o" });
  const seeded = createBackoff({ base: 11, jitter: 0.5, random: createRandom("x"), maxAttempts: 20 });
  const reentrant = () => {
    other.delay(7);
    createBackoff({ steps: [1, 2, 3], jitter: 0.2, seed: 9 });
    seeded.schedule();
    return 0.25;
  };
  assert.deepEqual(make(reentrant).schedule(), expected);
  assert.equal(expected[0], 75);
});

test("a draw that fails mid-schedule throws as delay(n) does, after the waits before it", () => {
  let calls = 0;
  const p = createBackoff({ base: 10, jitter: 0.1, random: () => (++calls === 4 ? 2 : 0.5), maxAttempts: 9 });
  assert.throws(() => p.schedule(), { name: "RangeError", message: /^random must be/ });
  assert.equal(calls, 4, "no draw after the failing one");
  const boom = new Error("boom");
  let n = 0;
  const q = createBackoff({ base: 10, jitter: 0.1, random: { next: () => { if (++n === 3) throw boom; return 0.5; } }, maxAttempts: 9 });
  assert.throws(() => q.schedule(), (e) => e === boom);
  assert.equal(n, 3);
});
