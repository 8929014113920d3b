// Policies built from equal options answer as one built alone, whatever was built before them:
// 0 and -0, NaN and string seeds, equal values under other options, options that failed, a
// fluent chain beside createBackoff, thousands of distinct policies in two orders (a sample of
// them also built alone in a fresh process), steps and streams the caller changes afterwards,
// seeds and duration texts of one length.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createBackoff, Backoff } from "../../pkg/dist/esm/backoff.js";
import { Backoff as PolicyBackoff } from "../../pkg/dist/esm/policy.js";
import { createRandom } from "../../pkg/dist/esm/random.js";

const sign = (x) => (Object.is(x, -0) ? "-0" : String(x));

test("0 and -0 are different options: a -0 base after a 0 base (and the reverse) keeps its sign", () => {
  const waits = [];
  for (const base of [0, -0, 0, -0]) waits.push(sign(createBackoff({ base }).delay(2)));
  for (const max of [-0, 0, -0]) waits.push(sign(createBackoff({ base: 0, max }).delay(3)));
  assert.deepEqual(waits, ["0", "-0", "0", "-0", "-0", "0", "-0"]);
});

test("a NaN or string seed gives the same keyed waits each time it is used", () => {
  const a = createBackoff({ base: 1000, jitter: 0.5, seed: NaN, maxAttempts: 6 }).schedule();
  const b = createBackoff({ base: 1000, jitter: 0.5, seed: NaN, maxAttempts: 6 }).schedule();
  assert.deepEqual(a, b);
  assert.deepEqual(createBackoff({ base: 1000, jitter: 0.5, seed: "NaN", maxAttempts: 6 }).schedule(), a);
  // A number seed and its text draw the same (String(seed)); they stay two policies' own options.
  const n = createBackoff({ base: 100, jitter: 1, seed: 7 });
  const t = createBackoff({ base: 100, jitter: 1, seed: "7" });
  assert.deepEqual([n.delay(3), n.toJSON().seed], [t.delay(3), 7]);
  assert.equal(t.toJSON().seed, "7");
});

test("options that failed are checked again, and the error names the value of this call", () => {
  for (let i = 0; i < 3; i++) {
    assert.throws(() => createBackoff({ base: 100, max: 50 + i }), { name: "RangeError", message: `max must be a duration >= base; received ${50 + i}` });
    assert.throws(() => Backoff.exponential(100).cap(10), { name: "RangeError", message: "cap must be a duration >= base; received 10" });
  }
  assert.deepEqual(createBackoff({ base: 100, max: 150 }).maxAttempts(4).schedule(), [100, 150, 150]);
});

test("a fluent chain and createBackoff with the same options give the same waits, in either order", () => {
  const fluent = PolicyBackoff.exponential(250).cap("2s").jitter(0.25).seed("k").maxAttempts(8);
  const plain = createBackoff({ base: 250, factor: 2, cap: 2000, jitter: 0.25, seed: "k", maxAttempts: 8 });
  assert.deepEqual(fluent.schedule(), plain.schedule());
  assert.deepEqual(fluent.toJSON(), plain.toJSON());
  assert.deepEqual(plain.schedule(), [266, 511, 1091, 1707, 1963, 1981, 1854]);
});

test("the same values under other options are other policies: max is not cap, free is not maxAttempts", () => {
  // Each pair has equal values in other fields, one after the other.
  const asMax = createBackoff({ base: 1000, max: 1500, jitter: 0.5, seed: "m" });
  const asCap = createBackoff({ base: 1000, cap: 1500, jitter: 0.5, seed: "m" });
  assert.deepEqual(asMax.toJSON(), { growth: "exponential", base: 1000, factor: 2, max: 1500, free: 0, jitter: 0.5, seed: "m" });
  assert.deepEqual(asCap.toJSON(), { growth: "exponential", base: 1000, factor: 2, cap: 1500, free: 0, jitter: 0.5, seed: "m" });
  assert.equal([1, 2, 3, 4].some((n) => asMax.delay(n) > 1500), true);
  assert.equal([1, 2, 3, 4].every((n) => asCap.delay(n) <= 1500), true);
  const free = createBackoff({ base: 10, free: 3 });
  const attempts = createBackoff({ base: 10, maxAttempts: 3 });
  assert.deepEqual([free.attempts, free.delay(1), free.delay(4)], [undefined, 0, 10]);
  assert.deepEqual([attempts.attempts, attempts.delay(1), attempts.delay(4)], [3, 10, 80]);
});

test("each option is read once, by its name, inherited ones and class getters too; an unknown key is not read", () => {
  const reads = [];
  const watched = (target) => new Proxy(target, { get(t, k, r) { reads.push(k); return Reflect.get(t, k, r); } });
  const names = ["base", "growth", "factor", "max", "cap", "steps", "free", "jitter", "random", "seed", "maxAttempts"];
  assert.equal(createBackoff(watched({ jitter: 0.5, base: 10, seed: "s" })).delay(2), 16);
  assert.deepEqual(reads.splice(0), names);
  assert.throws(() => createBackoff(watched({ max: 50, bogus: 1, base: 10 })), { name: "TypeError", message: /an option name must be one of .*; received "bogus"/ });
  assert.deepEqual(reads.splice(0), names);
  // An option a prototype gives counts, as a property read finds it.
  assert.deepEqual(createBackoff(Object.create({ base: 5 })).toJSON(), { growth: "exponential", base: 5, factor: 2, free: 0, jitter: 0 });
  class Config { base = 100; get max() { return 150; } }
  assert.equal(createBackoff(new Config()).delay(5), 150);
  // An inherited enumerable key that is no option name is an unknown option, as an own one.
  assert.throws(() => createBackoff(Object.create({ bse: 100 })), { name: "TypeError", message: /an option name must be one of .*; received "bse"/ });
  let got = 0;
  assert.equal(createBackoff({ get base() { got++; return 7; }, max: 100 }).delay(1), 7);
  assert.equal(got, 1);
});

test("thousands of distinct policies, built twice in different orders, each answer as when built alone", () => {
  const optionsOf = (i) => ({ base: 10 + (i % 97), max: 1000 + (i % 13) * 7, jitter: (i % 5) / 8, seed: `s${i % 11}`, free: i % 3, maxAttempts: 3 + (i % 4) });
  const first = [];
  for (let i = 0; i < 3000; i++) first.push(createBackoff(optionsOf(i)).schedule());
  const second = [];
  for (let i = 2999; i >= 0; i--) second[i] = createBackoff(optionsOf(i)).schedule();
  assert.deepEqual(second, first);
  // The same answers in a process that builds each of a sample alone.
  const sample = [0, 1, 96, 97, 500, 1499, 2999];
  const script = `import { createBackoff } from ${JSON.stringify(new URL("../../pkg/dist/esm/backoff.js", import.meta.url).href)};
const optionsOf = ${optionsOf.toString()};
console.log(JSON.stringify(${JSON.stringify(sample)}.map((i) => createBackoff(optionsOf(i)).schedule())));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), sample.map((i) => first[i]));
});

test("policies with steps or a random stream are their own: changing the caller's list or stream changes nothing", () => {
  const steps = [10, 20];
  const a = createBackoff({ steps, maxAttempts: 4 });
  steps[0] = 999;
  const b = createBackoff({ steps, maxAttempts: 4 });
  assert.deepEqual([a.schedule(), b.schedule()], [[10, 20, 20], [999, 20, 20]]);
  const r1 = createBackoff({ base: 100, jitter: 1, random: createRandom("x"), maxAttempts: 4 }).schedule();
  const r2 = createBackoff({ base: 100, jitter: 1, random: createRandom("x"), maxAttempts: 4 }).schedule();
  assert.deepEqual(r1, r2);
});

test("seeds and duration texts of one length: each policy answers as when built alone", () => {
  const seeds = Array.from({ length: 8 }, (_, i) => `tenant-${i}`);
  const alone = seeds.map((seed) => createBackoff({ base: 100, jitter: 0.5, seed }).delay(3));
  for (let round = 0; round < 3; round++) {
    assert.deepEqual(seeds.map((seed) => createBackoff({ base: 100, jitter: 0.5, seed }).delay(3)), alone);
  }
  assert.deepEqual(["1s", "2s", "3s", "8s"].map((base) => createBackoff({ base }).delay(2)), [2000, 4000, 6000, 16000]);
});
