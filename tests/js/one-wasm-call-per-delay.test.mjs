// Every kind of policy (createBackoff, fluent, Sigil; every source of draws) costs at most one
// wasm call per delay and draws as it does alone, and a policy without jitter answers a repeated
// delay(n) with no call. Also: a fluent cap that holds after jitter, steps bounded and owned,
// a revoked or throwing `random`, decorrelated bounds above 2^53, `totalBounds()`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { wasmCalls } from "../wasm-calls.mjs"; // before the package: it counts its instance's calls
import * as m from "../../pkg/dist/esm/index.js";

const { Backoff, createBackoff, createRandom, nextDelayMs, retrySchedule, totalRetryWindowMs } = m;
const bin = fileURLToPath(new URL("../../pkg/bin/backoff-wasm.js", import.meta.url));

/** A JavaScript source of draws in [0, 1) that makes no wasm call (mulberry32). */
function jsRandom(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, float: (lo, hi) => lo + next() * (hi - lo) };
}

/** Wasm calls per `delay()` over 1000 delays (attempts 1..1000). */
function perDelay(policy) {
  policy.delay(1); // a first delay, outside the count
  const { total, by } = wasmCalls(() => {
    for (let a = 1; a <= 1000; a++) policy.delay(a);
  });
  return [total / 1000, by];
}

test("at most one wasm call per delay() for every policy kind", () => {
  const r = jsRandom(7);
  const kinds = {
    plain: createBackoff({ base: 100, max: 60_000 }),
    fluent: Backoff.exponential(100).cap("1 minute"),
    "seeded stream": createBackoff({ base: 100, max: 60_000, jitter: 0.25, random: createRandom(1) }),
    "keyed seed": createBackoff({ base: 100, max: 60_000, jitter: 0.25, seed: "k" }),
    "bare function": createBackoff({ base: 100, jitter: "full", random: () => r.next() }),
    "next()": createBackoff({ base: 100, jitter: "equal", random: { next: () => r.next() } }),
    "float()": createBackoff({ base: 100, jitter: 0.5, random: { float: (a, b) => r.float(a, b) } }),
    "default (system)": createBackoff({ base: 100, jitter: 0.5 }),
    "decorrelated, keyed": Backoff.exponential(100).cap(5000).jitter("decorrelated").seed(1),
    "decorrelated, stream": Backoff.exponential(100).cap(5000).jitter("decorrelated").random(createRandom(2)),
    "decorrelated, function": Backoff.exponential(100).cap(5000).jitter("decorrelated").random(() => r.next()),
    steps: createBackoff({ steps: [10, 20, "1s"], jitter: 0.1, seed: 3 }),
  };
  for (const [kind, p] of Object.entries(kinds)) {
    const [calls, by] = perDelay(p);
    assert.ok(calls <= 1, `${kind}: ${calls} wasm calls per delay (${JSON.stringify(by)})`);
  }
});

test("policies with different seeded streams, alternating: still one wasm call per delay, the same draws", () => {
  const make = () => [
    createBackoff({ base: 100, max: 60_000, jitter: 0.25, random: createRandom("a") }),
    Backoff.exponential(100).cap(5000).jitter("decorrelated").random(createRandom("b")),
    createBackoff({ steps: [10, 20, 30], jitter: "full", random: createRandom("c") }),
  ];
  // each policy alone: all its delays in a row
  const alone = make().map((p) => Array.from({ length: 50 }, (_, i) => p.delay(i + 1)));
  const policies = make();
  const got = policies.map(() => []);
  const { total, by } = wasmCalls(() => {
    for (let i = 0; i < 50; i++) policies.forEach((p, k) => got[k].push(p.delay(i + 1)));
  });
  assert.deepEqual(got, alone);
  assert.ok(total <= 150, `${total / 150} wasm calls per delay (${JSON.stringify(by)})`);
  // a stream drawn between a policy's delays keeps its sequence (each call is handed its own stream's state)
  const once = createRandom("s");
  const plain = Array.from({ length: 50 }, () => once.next());
  const interleaved = createRandom("s");
  const drawn = [];
  for (let i = 0; i < 50; i++) {
    drawn.push(interleaved.next());
    policies[0].delay(i + 1);
  }
  assert.deepEqual(drawn, plain);
  assert.deepEqual(interleaved.state(), once.state());
});

test("Sigil: one wasm call per nextDelayMs, one per retry of a schedule (validated once)", () => {
  retrySchedule({}); // a first call, outside the count
  const cases = [undefined, { jitter: 0.25 }, { jitter: 0.5, random: () => 0.5 }, { jitter: 0.5, seed: "s" },
    { jitter: 0.5, random: m.seededRandom(9) }, { baseDelayMs: 10, maxDelayMs: 1000 }];
  for (const o of cases) {
    const { total } = wasmCalls(() => {
      for (let a = 1; a <= 1000; a++) nextDelayMs(a, o);
    });
    assert.ok(total <= 1000, `nextDelayMs(n, ${JSON.stringify(o)}): ${total / 1000} calls per delay`);
    const s = wasmCalls(() => retrySchedule({ ...o, maxAttempts: 8 }));
    assert.ok(s.total <= 8, `retrySchedule(8): ${JSON.stringify(s.by)}`);
  }
  assert.equal(totalRetryWindowMs(), 127000);
});

test("a throwing or bad random passes through the one path with the package's errors", () => {
  const boom = new Error("boom");
  assert.throws(() => createBackoff({ base: 1, jitter: 1, random: () => { throw boom; } }).delay(1), (e) => e === boom);
  assert.throws(() => nextDelayMs(1, { jitter: 1, random: () => { throw boom; } }), (e) => e === boom);
  assert.throws(() => createBackoff({ base: 1, jitter: 1, random: () => 2 }).delay(1), {
    name: "RangeError", message: "random must be a source of draws in [0, 1]; received 2",
  });
  assert.throws(() => createBackoff({ base: 10, jitter: 1, random: { float: () => "x" } }).delay(1), {
    name: "RangeError", message: 'random must be a source whose float(0, 2) stays in that range; received "x"',
  });
  assert.throws(() => nextDelayMs(1, { jitter: 1, random: () => -1 }), { name: "SigilError", message: /^random .*received -1$/ });
  // after a failure the next call is clean
  assert.equal(createBackoff({ base: 1000, jitter: 0.5, random: () => 1 }).delay(1), 1500);
  // a source that calls another policy while drawing keeps its own draws
  const inner = createBackoff({ steps: [7], jitter: 1, random: () => 0 });
  const outer = Backoff.exponential(100).cap(10_000).jitter("decorrelated").random(() => (inner.delay(1), 1));
  assert.equal(outer.delay(3), 2700);
});

test("the fluent cap holds after jitter, with a truncated band, for every kind and source", () => {
  // at most 30 s, and the waits at the cap spread below it
  const p = Backoff.exponential("1 second").cap("30 seconds").jitter(0.25);
  let atCap = 0;
  let max = 0;
  let min = Infinity;
  for (let s = 0; s < 5000; s++) {
    const v = p.seed(s).delay(8); // 128 s capped to 30 s: band [22.5 s, 30 s]
    max = Math.max(max, v);
    min = Math.min(min, v);
    if (v === 30_000) atCap++;
  }
  assert.ok(max <= 30_000 && min >= 22_500, `[${min}, ${max}]`);
  assert.ok(atCap < 10, `${atCap} waits piled up at exactly the cap`);
  assert.equal(p.random(() => 1).delay(6), 30_000);
  assert.equal(p.random(() => 0.5).delay(6), 26_250);
  assert.equal(p.random(() => 1).delay(5), 20_000, "a band below the cap is untouched");
  assert.deepEqual(p.bounds(6), { nominal: 30_000, min: 22_500, max: 30_000 });
  const src = { calls: [], float(a, b) { src.calls.push([a, b]); return b; } };
  assert.equal(p.random(src).delay(6), 30_000);
  assert.deepEqual(src.calls, [[0.75, 1]], "float() is asked for the truncated band");
  // every jitter kind and source stays at or below the cap
  const r = createRandom("cap");
  const sources = [{ seed: "k" }, { random: createRandom("s") }, { random: () => r.next() }, { random: { next: () => r.next() } },
    { random: { float: (a, b) => r.float(a, b) } }, { random: () => 1 }, { random: { float: (a, b) => b } }];
  for (const jitter of [0.25, 1, "full", "equal", "decorrelated"]) {
    for (const s of sources) {
      for (const cap of [1000, 2500.5, 30_000]) {
        const q = createBackoff({ base: 100, factor: 3, cap, jitter, ...s });
        for (let a = 1; a <= 30; a++) {
          const v = q.delay(a);
          assert.ok(v <= cap && v >= 0 && Number.isInteger(v), `${jitter} ${JSON.stringify(q)} delay(${a}) = ${v}`);
        }
      }
    }
  }
  // createBackoff({ max }) keeps @sdxc's ceiling before jitter exactly
  assert.equal(createBackoff({ base: 1000, max: 30_000, jitter: 0.25, random: () => 1 }).delay(6), 37_500);
  // both on one policy, and toJSON round-trips both
  const both = createBackoff({ base: 1000, max: 20_000 }).cap(22_000).jitter(0.25);
  assert.deepEqual(both.toJSON(), { growth: "exponential", base: 1000, factor: 2, max: 20_000, cap: 22_000, free: 0, jitter: 0.25 });
  assert.equal(both.random(() => 1).delay(10), 22_000);
  assert.equal(both.random(() => 0).delay(10), 15_000);
  assert.deepEqual(createBackoff(both.toJSON()).toJSON(), both.toJSON());
  assert.throws(() => Backoff.exponential(1000).cap(999), { name: "RangeError", message: /^cap must be a duration >= base; received 999$/ });
});

test("steps are bounded at 1000, and a huge length fails at once", () => {
  const proxy = new Proxy([], { get: (t, k) => (k === "length" ? 2e9 : 5) });
  const t0 = process.hrtime.bigint();
  assert.throws(() => createBackoff({ steps: proxy }), {
    name: "RangeError", message: "steps must be a non-empty array of at most 1000 durations; received an array",
  });
  assert.ok(process.hrtime.bigint() - t0 < 1_000_000_000n, "answered at once");
  assert.equal(createBackoff({ steps: Array(1000).fill(5) }).delay(1000), 5);
  assert.throws(() => createBackoff({ steps: Array(1001).fill(5) }), RangeError);
});

test("a policy owns a copy of what it was built from, through every derivation", () => {
  const arr = [10, 20];
  const p = createBackoff({ steps: arr });
  arr[0] = 999;
  assert.equal(p.delay(1), 10);
  assert.equal(p.jitter(0).delay(1), 10);
  assert.equal(p.free(1).delay(2), 10);
  assert.equal(p.maxAttempts(3).jitter(0.5).random(() => 0.5).delay(1), 10);
  assert.deepEqual(p.toJSON().steps, [10, 20]);
  arr.length = 0;
  assert.deepEqual(p.cap(15).maxAttempts(3).schedule(), [10, 15]);
});

test("a revoked Proxy or a throwing getter as random gets the package's error", () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const expected = { name: "TypeError", message: /^random must be a Random \(with float\(min, max\) or next\(\)\) or a function returning draws in \[0, 1\]; received an object$/ };
  assert.throws(() => createBackoff({ base: 1, random: proxy }), expected);
  assert.throws(() => createBackoff({ base: 1, random: { get float() { throw new Error("getter"); } } }), expected);
  assert.throws(() => Backoff.fixed(1).random(proxy), expected);
});

test("decorrelated jitter with a cap above 2^53 ms: delay(n) and bounds(n) agree", () => {
  for (const cap of [2 ** 53 + 2, 1e20, 1e300]) {
    for (const s of [{ seed: "big" }, { random: createRandom("big") }, { random: () => 1 }, { random: { float: (a, b) => b } }]) {
      const p = createBackoff({ base: 3, max: cap, jitter: "decorrelated", ...s });
      for (let n = 1; n <= 80; n++) {
        const { min, max } = p.bounds(n);
        const v = p.delay(n);
        assert.ok(min <= v && v <= max, `cap ${cap} ${JSON.stringify(s)} n ${n}: ${v} not in [${min}, ${max}]`);
      }
    }
  }
});

test("totalBounds() is { min, max } of the whole schedule's total wait", () => {
  assert.deepEqual(Backoff.exponential(1000).maxAttempts(8).totalBounds(), { min: 127_000, max: 127_000 });
  assert.deepEqual(Backoff.exponential(1000).maxAttempts(4).jitter(0.5).totalBounds(), { min: 3500, max: 10_500 });
  // 1, 2, 4, 8, 16, 30 (32 capped), 30 s, each ± 25 % truncated at the cap
  assert.deepEqual(Backoff.exponential("1 second").cap("30 seconds").jitter(0.25).maxAttempts(8).totalBounds(),
    { min: 750 + 1500 + 3000 + 6000 + 12_000 + 22_500 + 22_500, max: 1250 + 2500 + 5000 + 10_000 + 20_000 + 30_000 + 30_000 });
  assert.deepEqual(createBackoff({ steps: [10, 20], free: 1, maxAttempts: 5 }).totalBounds(), { min: 50, max: 50 });
  assert.throws(() => Backoff.exponential(1000).totalBounds(), { name: "RangeError", message: /^maxAttempts must be set .* before totalBounds\(\)/ });
  const r = spawnSync(process.execPath, [bin, "schedule", "--base", "1s", "--attempts", "4", "--jitter", "0.5"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /\ntotal wait bounds: 3\.5 s – 10\.5 s \(3500 – 10500 ms\)\n/);
});

test("a policy without jitter answers a repeated delay(n) from the waits Rust computed, with no wasm call", () => {
  const fresh = () => createBackoff({ base: 1000, factor: 1.1, max: "1 hour", free: 1 });
  const p = fresh();
  const odd = [0, -0, 1, 2, 5, 63, 64, 65, 1.5, -1, NaN, Infinity, -Infinity, 2 ** 32, 2 ** 53];
  const first = odd.map((a) => p.delay(a));
  // The same answers from a policy that never remembered anything (each asked once).
  assert.deepEqual(first, odd.map((a) => fresh().delay(a)));
  assert.deepEqual(odd.map((a) => p.delay(a)), first, "remembered answers are the computed ones");
  assert.equal(first[1], 0);
  assert.equal(first[2], 0, "a free attempt");
  assert.equal(first[3], 1000);
  const filled = wasmCalls(() => {
    for (let a = 0; a < 64; a++) p.delay(a);
  });
  assert.equal(filled.total, 64 - 5, "attempts asked for the first time ask wasm (0, 1, 2, 5 and 63 were asked above)");
  const again = wasmCalls(() => {
    for (let a = 0; a < 64; a++) p.delay(a);
  });
  assert.equal(again.total, 0, `repeated delays of attempts 0..63: ${JSON.stringify(again.by)}`);
  const beyond = wasmCalls(() => p.delay(64));
  assert.equal(beyond.total, 1, "attempts past the remembered range still ask wasm");
  // Jittered policies draw every time: no remembered waits.
  const j = createBackoff({ base: 1000, jitter: 0.5, seed: "memo" });
  j.delay(3);
  assert.equal(wasmCalls(() => j.delay(3)).total, 1);
  // Sigil's default policy likewise; invalid attempts keep throwing.
  nextDelayMs(4);
  assert.equal(wasmCalls(() => nextDelayMs(4)).total, 0);
  assert.equal(nextDelayMs(4), 8000);
  for (const a of [0, -0, 1.5, NaN, -1]) assert.throws(() => nextDelayMs(a), { name: "SigilError", code: "invalid_argument" });
});
