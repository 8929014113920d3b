// Each call answers for the options it is given: options given again, changed between calls,
// or given as fresh objects with equal values (Sigil's nextDelayMs, fluent chains, duration
// text) get every answer and every error that a first call with those options gets, and
// Sigil's option names are checked on every call, whatever the keys' order, inheritance or a
// Proxy that changes its keys.
import { test } from "node:test";
import assert from "node:assert/strict";
import { nextDelayMs, retrySchedule, totalRetryWindowMs, seededRandom, SigilError } from "../../pkg/dist/esm/sigil.js";
import { Backoff } from "../../pkg/dist/esm/policy.js";
import { createBackoff } from "../../pkg/dist/esm/backoff.js";
import { createRandom } from "../../pkg/dist/esm/random.js";

const round = (attempt, jitter, r) => Math.round(Math.min(1000 * 2 ** (attempt - 1), 3600000) * (1 - jitter * r));

test("nextDelayMs: one options object changed between calls answers for its new values", () => {
  const o = { jitter: 0.5, random: () => 0.5 };
  assert.equal(nextDelayMs(3, o), 3000);
  assert.equal(nextDelayMs(3, o), 3000);
  o.jitter = 0.25;
  assert.equal(nextDelayMs(3, o), 3500);
  o.random = () => 1;
  assert.equal(nextDelayMs(3, o), 3000);
  o.baseDelayMs = 10;
  assert.equal(nextDelayMs(3, o), 30);
  o.maxDelayMs = 20;
  assert.equal(nextDelayMs(3, o), 15);
  delete o.random;
  o.seed = "k";
  const keyed = nextDelayMs(3, o);
  assert.equal(keyed, Math.round(20 * (1 - 0.25 * createRandom("k 3").next())));
  o.seed = "other";
  assert.equal(nextDelayMs(3, o), Math.round(20 * (1 - 0.25 * createRandom("other 3").next())));
});

test("nextDelayMs: fresh objects with the same values draw from their own random each call", () => {
  const a = seededRandom("s");
  const b = createRandom("s");
  for (let n = 1; n <= 20; n++) assert.equal(nextDelayMs(n, { jitter: 0.2, random: a }), round(n, 0.2, b.next()), `attempt ${n}`);
  const draws = [0.1, 0.9, 0.5];
  let i = 0;
  const random = () => draws[i++];
  assert.deepEqual([1, 1, 1].map((n) => nextDelayMs(n, { jitter: 1, random })), [900, 100, 500]);
});

test("nextDelayMs: after a call that compiled, a bad attempt, an unknown name or a bad draw is still a SigilError", () => {
  const o = { jitter: 0.2, seed: "x" };
  assert.equal(typeof nextDelayMs(2, o), "number");
  for (const attempt of [0, 1.5, -1, Infinity, NaN, "2"]) {
    assert.throws(() => nextDelayMs(attempt, o), (e) => e instanceof SigilError && /^attempt must be an integer >= 1; received /.test(e.message), String(attempt));
  }
  o.jiter = 0.3;
  assert.throws(() => nextDelayMs(2, o), (e) => e instanceof SigilError && /^an option name must be one of baseDelayMs, maxDelayMs, jitter, random, seed, maxAttempts; received "jiter"$/.test(e.message));
  const r = { jitter: 0.2, random: () => 0.5 };
  assert.equal(nextDelayMs(1, r), 900);
  let draw = 0.5;
  r.random = () => draw;
  assert.equal(nextDelayMs(1, r), 900);
  draw = 2;
  assert.throws(() => nextDelayMs(1, r), (e) => e instanceof SigilError && /^random must be a function returning numbers in \[0, 1\]; received 2$/.test(e.message));
});

test("fluent chains and durations parsed again give the policies createBackoff gives", () => {
  for (const [cap, ms] of [["2s", 2000], ["3s", 3000], ["2s", 2000], ["1 minute", 60000]]) {
    const p = Backoff.exponential("1s").cap(cap).jitter(0.25).seed("f").maxAttempts(9);
    assert.deepEqual(p.toJSON(), createBackoff({ base: 1000, cap: ms, jitter: 0.25, seed: "f", maxAttempts: 9 }).toJSON());
    assert.deepEqual(p.schedule(), createBackoff({ base: "1s", cap: ms, jitter: 0.25, seed: "f", maxAttempts: 9 }).schedule());
  }
  assert.throws(() => Backoff.exponential("1s").cap("2 sekunden"), { name: "RangeError", message: /^cap must be a non-negative finite duration .*; received "2 sekunden"$/ });
  assert.throws(() => createBackoff({ base: "1s", bsae: 1 }), { name: "TypeError", message: /^an option name must be one of base, growth, factor, max, cap, steps, free, jitter, random, seed, maxAttempts; received "bsae"$/ });
});

test("totalBounds() is the sum of bounds(n) over the schedule, for every jitter kind", () => {
  for (const jitter of [0, 0.3, 1, "full", "equal", "decorrelated"]) {
    const p = createBackoff({ base: 100, max: 5000, cap: 4000, free: 1, jitter, seed: "t", maxAttempts: 12 });
    let min = 0;
    let max = 0;
    for (let n = 1; n < 12; n++) {
      const b = p.bounds(n);
      min += b.min;
      max += b.max;
    }
    assert.deepEqual(p.totalBounds(), { min, max }, String(jitter));
  }
  assert.deepEqual(createBackoff({ steps: [10, "20ms", 30], maxAttempts: 6 }).totalBounds(), { min: 120, max: 120 });
});

test("nextDelayMs: the option names are checked on every call, whatever the keys' order, inheritance or a Proxy", () => {
  const unknown = (name) => (e) => e instanceof SigilError && e.message === `an option name must be one of baseDelayMs, maxDelayMs, jitter, random, seed, maxAttempts; received "${name}"`;
  const o = { jitter: 0.5, random: () => 0.5 };
  assert.equal(nextDelayMs(3, o), 3000);
  assert.equal(nextDelayMs(3, { random: () => 0.5, jitter: 0.5 }), 3000);
  assert.equal(nextDelayMs(3, o), 3000);
  o.extra = 1;
  assert.throws(() => nextDelayMs(3, o), unknown("extra"));
  delete o.extra;
  assert.equal(nextDelayMs(3, o), 3000);
  // An inherited key is not an own key: no error, as Object.keys has it; an own one is.
  const inherits = Object.create({ bogus: 1 });
  inherits.jitter = 0.5;
  inherits.random = () => 0.5;
  assert.equal(nextDelayMs(3, inherits), 3000);
  assert.equal(nextDelayMs(3, inherits), 3000);
  inherits.other = 2;
  assert.throws(() => nextDelayMs(3, inherits), unknown("other"));
  // A Proxy's keys and values are read on every call.
  let keys = ["jitter"];
  const target = { jitter: 0.5, random: () => 0.5, typo: 1 };
  const proxy = new Proxy(target, { ownKeys: () => keys, getOwnPropertyDescriptor: (t, k) => ({ value: t[k], enumerable: true, configurable: true }) });
  assert.equal(nextDelayMs(3, proxy), 3000);
  assert.equal(nextDelayMs(3, proxy), 3000);
  keys = ["jitter", "typo"];
  assert.throws(() => nextDelayMs(3, proxy), unknown("typo"));
  keys = ["jitter"];
  target.jitter = 0.25;
  assert.equal(nextDelayMs(3, proxy), 3500);
});

test("nextDelayMs: a Proxy whose keys change while they are read leaves no unknown name accepted later", () => {
  const unknown = (e) => e instanceof SigilError && e.message === 'an option name must be one of baseDelayMs, maxDelayMs, jitter, random, seed, maxAttempts; received "bogus"';
  // Its keys alternate on each listing: "bogus", then "baseDelayMs", then "bogus" again.
  let listed = 0;
  const proxy = new Proxy({}, {
    ownKeys: () => (listed++ % 2 === 0 ? ["bogus"] : ["baseDelayMs"]),
    getOwnPropertyDescriptor: () => ({ value: 7, enumerable: true, configurable: true }),
    get: (_, k) => (k === "baseDelayMs" ? 7 : undefined),
  });
  try {
    nextDelayMs(2, proxy);
  } catch (e) {
    assert.ok(unknown(e));
  }
  // A plain object with the unknown name is refused, whatever the Proxy answered before.
  assert.throws(() => nextDelayMs(2, { bogus: 7 }), unknown);
  assert.throws(() => nextDelayMs(2, { bogus: 7 }), unknown);
  assert.equal(nextDelayMs(2, { baseDelayMs: 7 }), 14);
});

test("Sigil without options answers for what Object.prototype carries at each call, before and after", () => {
  // Fresh answers first, so the no-options answers are the ones a later call could reuse.
  assert.equal(nextDelayMs(1), 1000);
  assert.equal(nextDelayMs(4), 8000);
  assert.deepEqual(retrySchedule(), [1000, 2000, 4000, 8000, 16000, 32000, 64000]);
  Object.prototype.baseDelayMs = 1;
  try {
    assert.equal(nextDelayMs(1), 1);
    assert.equal(nextDelayMs(4), 8);
    assert.equal(nextDelayMs(5), 16);
    assert.deepEqual(retrySchedule(), [1, 2, 4, 8, 16, 32, 64]);
    assert.equal(totalRetryWindowMs(), 127);
  } finally {
    delete Object.prototype.baseDelayMs;
  }
  assert.equal(nextDelayMs(1), 1000);
  assert.equal(nextDelayMs(5), 16000);
  assert.deepEqual(retrySchedule(), [1000, 2000, 4000, 8000, 16000, 32000, 64000]);
  assert.equal(totalRetryWindowMs(), 127000);
  Object.prototype.jitter = 1;
  Object.prototype.random = () => 1;
  try {
    assert.equal(nextDelayMs(3), 0);
    assert.equal(nextDelayMs(6), 0);
  } finally {
    delete Object.prototype.jitter;
    delete Object.prototype.random;
  }
  assert.equal(nextDelayMs(3), 4000);
  assert.equal(nextDelayMs(6), 32000);
});
