// Durations beyond 2^53 ms are accepted (docs/API.md section 2: a duration is any
// non-negative finite number; the mirrored original bounds none) and wait exactly what the
// contract's formula gives in doubles, as the original computes it: a double >= 2^53 is an
// integer, so no rounding step may change it and no silent bound may cut it. Each expected
// value is computed here in plain JavaScript from the formula of docs/API.md sections 2
// and 5, not read from the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as esm from "../../pkg/dist/esm/index.js";

const require = createRequire(import.meta.url);
const cjs = require("../../pkg/dist/cjs/index.js");

const BIG = [2 ** 53, 2 ** 53 + 2, 2 ** 60 + 2 ** 8, 1e20, 123456789012345680000, 2 ** 100, 1e300];
const ATTEMPTS = [1, 2, 3, 10, 30, 64, 1025];

/** `min(base · factor^(k−1), max)` (exponential), `min(base · k, max)` (linear), `base` (constant); 0 while k < 1. */
function nominal({ base, growth = "exponential", factor = 2, max = Infinity, free = 0 }, attempt) {
  const k = attempt - free;
  if (!(k >= 1)) return 0;
  if (growth === "constant") return Math.min(base, max);
  if (growth === "linear") return Math.min(base * k, max);
  return Math.min(base * factor ** (k - 1), max);
}

for (const [name, lib] of [["ESM", esm], ["CommonJS", cjs]]) {
  test(`createBackoff curves with base, max and free beyond 2^53 wait the formula's exact doubles (${name})`, () => {
    for (const base of BIG) {
      const curves = [
        { base },
        { base, growth: "linear" },
        { base, growth: "constant" },
        { base, factor: 3 },
        { base, max: base * 2 ** 7 + 2 ** 60 },
        { base, max: 2 * base, free: 2 ** 53 - 1 },
        { base, growth: "linear", max: base * 5 },
      ];
      for (const options of curves) {
        const p = lib.createBackoff(options);
        const attempts = [...ATTEMPTS, ...ATTEMPTS.map((a) => a + (options.free ?? 0))];
        for (const n of attempts) {
          const want = nominal(options, n);
          assert.equal(p.delay(n), want, `${JSON.stringify(options)} delay(${n})`);
          assert.equal(p.at(n, 2 ** 53), 2 ** 53 + want, `${JSON.stringify(options)} at(${n}, 2^53)`);
        }
      }
    }
  });
}

test("base beyond 2^53 reaches Infinity exactly where the doubles overflow, as the original does", () => {
  const base = 1e300;
  const p = esm.createBackoff({ base });
  // 1e300 · 2^27 < 1.8e308 (the largest double); 1e300 · 2^28 overflows.
  assert.equal(p.delay(28), 1e300 * 2 ** 27);
  assert.ok(Number.isFinite(p.delay(28)));
  assert.equal(p.delay(29), Infinity);
  assert.equal(esm.createBackoff({ base, max: Number.MAX_VALUE }).delay(29), Number.MAX_VALUE);
});

test("steps beyond 2^53 are waited as given, the last repeating", () => {
  const steps = [2 ** 53, 2 ** 53 + 2, 1e20, 1e300];
  const p = esm.createBackoff({ steps, free: 1 });
  assert.deepEqual([1, 2, 3, 4, 5, 6, 100].map((n) => p.delay(n)), [0, 2 ** 53, 2 ** 53 + 2, 1e20, 1e300, 1e300, 1e300]);
});

test("the fluent cap beyond 2^53 bounds the curve at exactly the cap", () => {
  for (const base of BIG.slice(0, 5)) {
    for (const cap of [base, base * 2 ** 10 + 2 ** 62, 1e300]) {
      const p = esm.Backoff.exponential(base).cap(cap);
      for (const n of ATTEMPTS) assert.equal(p.delay(n), Math.min(base * 2 ** (n - 1), cap), `${base} cap ${cap} delay(${n})`);
      const linear = esm.Backoff.linear(base).cap(cap);
      for (const n of ATTEMPTS) assert.equal(linear.delay(n), Math.min(base * n, cap), `linear ${base} cap ${cap} delay(${n})`);
      assert.equal(esm.Backoff.fixed(base).cap(cap).delay(7), base);
    }
  }
});

test("jitter on waits beyond 2^53: one draw, the contract's rounding of an integer double", () => {
  // float(min, max) = min + next() · (max − min); fraction f: round(d · float(1 − f, 1 + f)); full: round(float(0, d)).
  const float = (r, min, max) => min + r * (max - min);
  for (const base of BIG) {
    for (const r of [0, 0.25, 0.7, 1]) {
      const random = () => r;
      const spread = esm.createBackoff({ base, jitter: 0.5, random });
      const full = esm.createBackoff({ base, jitter: "full", random });
      for (const n of [1, 4, 20]) {
        const d = base * 2 ** (n - 1);
        assert.equal(spread.delay(n), Math.round(d * float(r, 0.5, 1.5)), `${base} ±0.5 r ${r} delay(${n})`);
        assert.equal(full.delay(n), Math.round(float(r, 0, d)), `${base} full r ${r} delay(${n})`);
      }
    }
  }
});
