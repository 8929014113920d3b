// Keyed jitter (a pure function of seed and attempt, surviving restarts)
// and the equal and decorrelated jitter kinds. Expected values are computed here
// from createRandom, independently of the jitter code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { Backoff, createBackoff, createRandom, nextDelayMs, retrySchedule } from "../../pkg/dist/esm/index.js";

const keyed = (seed, n) => createRandom(`${seed} ${n}`).next();
const entry = new URL("../../pkg/dist/esm/index.js", import.meta.url).href;

test("keyed draws: sigil nextDelayMs and retrySchedule with a seed", () => {
  for (const attempt of [1, 2, 4, 7, 31, 1000]) {
    const capped = Math.min(1000 * 2 ** (attempt - 1), 3_600_000);
    assert.equal(nextDelayMs(attempt, { jitter: 0.3, seed: "delivery-1" }), Math.round(capped * (1 - 0.3 * keyed("delivery-1", attempt))));
  }
  const schedule = retrySchedule({ jitter: 0.5, seed: 42 });
  assert.deepEqual(schedule, [1, 2, 3, 4, 5, 6, 7].map((n) => Math.round(1000 * 2 ** (n - 1) * (1 - 0.5 * keyed("42", n)))));
  assert.deepEqual(retrySchedule({ jitter: 0.5, seed: "42" }), schedule, "42 and \"42\" are one seed");
});

test("keyed draws: createBackoff ± / full / equal, and fluent .seed()", () => {
  const f = 0.2;
  const b = createBackoff({ base: 1000, jitter: f, seed: "job-7" });
  for (const n of [1, 3, 10]) {
    const d = 1000 * 2 ** (n - 1);
    const lo = 1 - f;
    assert.equal(b.delay(n), Math.round(d * (lo + keyed("job-7", n) * (1 + f - lo))));
  }
  const full = Backoff.exponential("1 second").jitter("full").seed("s");
  assert.equal(full.delay(4), Math.round(0 + keyed("s", 4) * 8000));
  const equal = Backoff.exponential("1 second").jitter("equal").seed("s");
  assert.equal(equal.delay(4), Math.round(8000 / 2 + keyed("s", 4) * 8000 / 2));
  // huge attempts: keyed on JavaScript's String(n), whose digits above 2^54 are
  // not the exact value (String(2 ** 60) is "1152921504606847000")
  const flat = createBackoff({ base: 1000, growth: "constant", jitter: "full", seed: "s" });
  for (const n of [2 ** 53 + 2, 2 ** 54 - 2, 2 ** 54, 2 ** 60, 123456789012345680000, 1e20 + 2 ** 17]) {
    assert.equal(flat.delay(n), Math.round(keyed("s", n) * 1000), String(n));
  }
  // keyed on the attempt number as passed to delay(), free attempts included
  const free = createBackoff({ base: 100, free: 2, jitter: "full", seed: "f" });
  assert.equal(free.delay(2), 0);
  assert.equal(free.delay(3), Math.round(keyed("f", 3) * 100));
});

test("a seeded delay(n) is the same in any order and in a fresh process (restart)", () => {
  const make = () => createBackoff({ base: "1 second", max: "1 hour", jitter: 0.25, seed: "restart" });
  const order = [5, 1, 5, 3];
  const here = order.map((n) => make().delay(n));
  const p = make();
  assert.deepEqual(order.map((n) => p.delay(n)), here, "one policy, any order");
  assert.equal(here[0], here[2]);
  const decor = Backoff.exponential(100).cap("30 seconds").jitter("decorrelated").seed("restart");
  const hereDecor = order.map((n) => decor.delay(n));
  const script = `
    const m = await import(${JSON.stringify(entry)});
    const p = m.createBackoff({ base: "1 second", max: "1 hour", jitter: 0.25, seed: "restart" });
    const d = m.Backoff.exponential(100).cap("30 seconds").jitter("decorrelated").seed("restart");
    console.log(JSON.stringify([[5, 1, 5, 3].map((n) => p.delay(n)), [5, 1, 5, 3].map((n) => d.delay(n))]));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [here, hereDecor]);
});

test("equal jitter stays in [d/2, d] over 10 000 seeds; full in [0, d]; ± in [d(1-f), d(1+f)]", () => {
  for (let i = 0; i < 10_000; i++) {
    const d = 1000 * 2 ** (i % 6);
    const n = (i % 6) + 1;
    const e = createBackoff({ base: 1000, jitter: "equal", seed: i }).delay(n);
    assert.ok(e >= d / 2 && e <= d && Number.isInteger(e), `equal ${i}: ${e}`);
    const full = createBackoff({ base: 1000, jitter: "full", seed: i }).delay(n);
    assert.ok(full >= 0 && full <= d && Number.isInteger(full), `full ${i}: ${full}`);
    const pm = createBackoff({ base: 1000, jitter: 0.5, seed: i }).delay(n);
    assert.ok(pm >= d / 2 && pm <= d * 1.5 && Number.isInteger(pm), `± ${i}: ${pm}`);
  }
});

test("decorrelated: the AWS recurrence, computed independently, and its range over 10 000 seeds", () => {
  const base = 100;
  const cap = 30_000;
  const model = (seed, n) => {
    let sleep = base;
    for (let k = 1; k <= n; k++) sleep = Math.min(cap, base + keyed(seed, k) * (3 * sleep - base));
    return Math.round(sleep);
  };
  const policy = (seed) => createBackoff({ base, max: cap, jitter: "decorrelated", seed });
  for (const n of [1, 2, 3, 10, 50]) assert.equal(policy("aws").delay(n), model("aws", n), `n=${n}`);
  for (let i = 0; i < 10_000; i++) {
    const n = (i % 12) + 1;
    const v = policy(i).delay(n);
    assert.ok(v >= base && v <= Math.min(cap, base * 3 ** n) && Number.isInteger(v), `seed ${i} n ${n}: ${v}`);
  }
  // with a stream: one draw per step, in order
  const draws = [];
  const r = createRandom("stream");
  const twin = createRandom("stream");
  const viaStream = createBackoff({ base, max: cap, jitter: "decorrelated", random: { next: () => { const x = r.next(); draws.push(x); return x; } } });
  let sleep = base;
  for (let k = 1; k <= 4; k++) sleep = Math.min(cap, base + twin.next() * (3 * sleep - base));
  assert.equal(viaStream.delay(4), Math.round(sleep));
  assert.equal(draws.length, 4);
});

test("keyed draws with free attempts: decorrelated keys its steps, the other kinds their attempts", () => {
  const decorrelated = (free) => createBackoff({ base: 100, max: 1000, jitter: "decorrelated", seed: "x", free });
  for (let k = 1; k <= 6; k++) assert.equal(decorrelated(2).delay(k + 2), decorrelated(0).delay(k), `step ${k}`);
  assert.equal(decorrelated(2).delay(3), 181);
  // ± jitter: the draw of attempt 3 is keyed by "x 3", free attempts or not.
  const plus = createBackoff({ base: 1000, jitter: 0.5, seed: "x", free: 2 });
  const u = createRandom("x 3").next();
  assert.equal(plus.delay(3), 1054);
  assert.equal(plus.delay(3), createBackoff({ base: 1000, jitter: 0.5, random: () => u, free: 2 }).delay(3));
});

test("decorrelated at attempts 1, 2, 1000 and 2^53 - 1 returns and stays within [base, cap]", () => {
  for (const random of [undefined, createRandom("big")]) {
    const p = createBackoff({ base: 250, max: "1 minute", jitter: "decorrelated", ...(random ? { random } : { seed: "big" }) });
    for (const n of [1, 2, 1000, 2 ** 53 - 1, Infinity]) {
      const v = p.delay(n);
      assert.ok(v >= 250 && v <= 60_000 && Number.isInteger(v), `${n}: ${v}`);
    }
  }
  // a keyed decorrelated delay for a huge attempt is still a pure function
  const p = createBackoff({ base: 250, max: "1 minute", jitter: "decorrelated", seed: "big" });
  assert.equal(p.delay(2 ** 53 - 1), p.delay(2 ** 53 - 1));
});

test("bad combinations throw the named error", () => {
  assert.throws(() => createBackoff({ base: 1, seed: 1, random: Math.random }), { name: "TypeError", message: /^seed .*random/ });
  assert.throws(() => nextDelayMs(1, { jitter: 0.1, seed: 1, random: Math.random }), { name: "TypeError", message: /^seed / });
  assert.throws(() => Backoff.exponential(1).random(createRandom(1)).seed("x"), TypeError);
  assert.throws(() => createBackoff({ base: 1, seed: {} }), { name: "TypeError", message: /seed must be a string or a number; received an object/ });
  assert.throws(() => nextDelayMs(1, { seed: null }), { name: "SigilError", code: "invalid_argument" });
  assert.throws(() => createBackoff({ base: 100, jitter: "decorrelated" }), { name: "RangeError", message: /^max .*cap/ });
  assert.throws(() => Backoff.exponential(100).jitter("decorrelated"), { name: "RangeError", message: /^cap / });
  assert.throws(() => createBackoff({ steps: [1, 2], jitter: "decorrelated" }), { name: "TypeError", message: /^jitter / });
  assert.throws(() => createBackoff({ base: 1, jitter: "half" }), { name: "TypeError", message: /decorrelated/ });
});

test("toJSON keeps the seed and the jitter kind, and rebuilds the same policy", () => {
  const p = Backoff.exponential("1 second").cap("1 minute").jitter("decorrelated").seed(7).maxAttempts(6);
  const json = p.toJSON();
  assert.deepEqual(json, { growth: "exponential", base: 1000, factor: 2, cap: 60000, free: 0, jitter: "decorrelated", seed: 7, maxAttempts: 6 });
  assert.deepEqual(createBackoff(json).schedule(), p.schedule());
});

test("toJSON keeps a keyed seed as given, through JSON too (NaN and infinities as their text)", () => {
  for (const [seed, want] of [[7, 7], ["7", "7"], [-0, -0], [1e21, 1e21], [NaN, "NaN"], [Infinity, "Infinity"]]) {
    const p = createBackoff({ base: 1000, max: "1 minute", jitter: 0.5, seed, maxAttempts: 6 });
    assert.equal(Object.is(p.toJSON().seed, want), true, `seed ${String(seed)}: toJSON().seed is ${String(p.toJSON().seed)}`);
    assert.deepEqual(createBackoff(JSON.parse(JSON.stringify(p))).schedule(), p.schedule(), `seed ${String(seed)} after JSON`);
  }
});
