// Differential test (Node only): the library against an independent plain-JS
// model written from API.md (tests/js/cases/model.mjs: seed hash, sfc32, the
// Random helpers, Sigil's curve and subtract-only jitter, createBackoff's
// curves and ± / full jitter) plus a regular-expression model of section 4's
// duration grammar. Inputs come from a fixed-seed xorshift generator of this
// file, so every run checks the same ~2000 seeds and option sets per group.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as lib from "../../pkg/dist/esm/index.js";
import { backoffDelay, modelRandom, seedWords, sigilDelay, sfc32, xorshift32 } from "./cases/model.mjs";

const N = 2000;
const TWO32 = 4294967296;

/** xorshift32 (Marsaglia 2003) with a fixed seed: the input generator, unrelated to sfc32. */
function inputs(seed) {
  const u32 = xorshift32(seed);
  const unit = () => u32() / TWO32;
  const int = (lo, hi) => lo + Math.floor(unit() * (hi - lo + 1));
  const pick = (xs) => xs[int(0, xs.length - 1)];
  return { u32, unit, int, pick };
}

/** A seed: text of mixed code units (ASCII, BMP, lone surrogates) or a number of any magnitude. */
function randomSeed(g) {
  switch (g.int(0, 5)) {
    case 0:
      return g.int(-1e6, 1e6);
    case 1:
      return g.pick([1e21, 1e-7, -0, 0.1, 2 ** 53, NaN, Infinity, -Infinity, 123.456, 5e-324, 1.7976931348623157e308]) * (g.unit() < 0.5 ? 1 : g.int(1, 9));
    case 2:
      return g.unit() * 10 ** g.int(-30, 30);
    default: {
      const len = g.int(0, 16);
      let s = "";
      for (let i = 0; i < len; i++) {
        const kind = g.int(0, 9);
        const code = kind < 6 ? g.int(32, 126) : kind < 8 ? g.int(0, 0xffff) : g.int(0xd800, 0xdfff);
        s += String.fromCharCode(code);
      }
      return s;
    }
  }
}

/** Fails with the first few mismatches, after counting the comparisons. */
function checker(t, what) {
  const bad = [];
  let count = 0;
  return {
    same(actual, expected, context) {
      count++;
      if (!Object.is(actual, expected) && !(Array.isArray(actual) && JSON.stringify(actual) === JSON.stringify(expected))) {
        if (bad.length < 5) bad.push(`${context}: library ${JSON.stringify(actual)} ≠ model ${JSON.stringify(expected)}`);
      }
    },
    done() {
      t.diagnostic(`${what}: ${count} comparisons`);
      assert.deepEqual(bad, [], `${what}: mismatches`);
    },
  };
}

test("model reproduces the spec's own vectors (sanity of the model)", () => {
  const raw = (seed) => {
    const g = sfc32(seedWords(seed));
    return Array.from({ length: 6 }, () => Math.floor(g.next() * TWO32));
  };
  assert.deepEqual(raw(42), [3833195492, 3563769608, 4061610985, 767254976, 3389111029, 3727552234]);
  assert.deepEqual(raw("signup-suite"), [1665886051, 3924901832, 1861224746, 2455819951, 2930940383, 493917030]);
  assert.deepEqual(raw(""), [3075608207, 1941113166, 1250698130, 1973185690, 24547140, 1714710821]);
  const r = modelRandom(42);
  assert.deepEqual(Array.from({ length: 8 }, () => r.int(0, 999)), [892, 829, 945, 178, 789, 867, 759, 526]);
  assert.equal(sigilDelay(4, { jitter: 0.25, random: () => 1 }), 6000);
  assert.equal(backoffDelay({ free: 1, steps: [10, 20] }, 4), 20);
});

test(`seed hash, sfc32 and the Random helpers over ${N} seeds`, (t) => {
  const g = inputs(0x5eed);
  const c = checker(t, "random");
  for (let i = 0; i < N; i++) {
    const seed = randomSeed(g);
    const ctx = `seed ${JSON.stringify(String(seed))}`;
    const r = lib.createRandom(seed);
    const m = modelRandom(seed);
    c.same(r.seed, seed, `${ctx} .seed (kept as given)`);
    c.same(r.state().words, m.words(), `${ctx} initial words`);
    for (let k = 0; k < 8; k++) c.same(r.next(), m.next(), `${ctx} next #${k}`);
    const lo = g.int(-1e6, 1e6);
    const hi = lo + g.pick([0, 1, 2, 9, 999, g.int(0, 2 ** 31), g.int(0, 2 ** 52)]);
    for (let k = 0; k < 4; k++) c.same(r.int(lo, hi), m.int(lo, hi), `${ctx} int(${lo}, ${hi})`);
    const fa = (g.unit() - 0.5) * 10 ** g.int(0, 6);
    const fb = fa + g.unit() * 10 ** g.int(0, 6);
    c.same(r.float(fa, fb), m.float(fa, fb), `${ctx} float(${fa}, ${fb})`);
    c.same(r.float(), m.float(), `${ctx} float()`);
    const chance = g.unit();
    c.same(r.bool(chance), m.bool(chance), `${ctx} bool(${chance})`);
    c.same(r.bool(), m.bool(), `${ctx} bool()`);
    const items = Array.from({ length: g.int(1, 20) }, (_, j) => j);
    c.same(r.pick(items), m.pick(items), `${ctx} pick`);
    c.same(r.shuffle(items), m.shuffle(items), `${ctx} shuffle`);
    c.same(r.state().words, m.words(), `${ctx} words after helpers`);
    const label = g.unit() < 0.5 ? g.int(-99, 99) : String(randomSeed(g));
    const d = r.derive(label);
    const md = modelRandom(`${String(seed)} ${label}`);
    c.same(d.next(), md.next(), `${ctx} derive(${JSON.stringify(label)})`);
    // JSON keeps a string or a finite number seed; NaN and ±Infinity become null there, so those restore from the object.
    const snapshot = typeof seed === "number" && !Number.isFinite(seed) ? r.state() : JSON.parse(JSON.stringify(r.state()));
    const back = lib.restoreRandom(snapshot);
    c.same(back.next(), m.next(), `${ctx} restored stream`);
    c.same(lib.seededRandom(seed)(), modelRandom(seed).next(), `${ctx} seededRandom`);
  }
  c.done();
});

test(`Sigil nextDelayMs/retrySchedule over ${N} option sets`, (t) => {
  const g = inputs(0x51611);
  const c = checker(t, "sigil");
  for (let i = 0; i < N; i++) {
    const o = {};
    if (g.unit() < 0.7) o.baseDelayMs = g.pick([0, 1, 100, 1000, g.int(0, 1e6), g.unit() * 5000, 10 ** g.int(0, 12)]);
    if (g.unit() < 0.6) o.maxDelayMs = g.pick([0, 250, 3600000, Infinity, g.int(0, 1e9), g.unit() * 1e7]);
    if (g.unit() < 0.7) o.jitter = g.pick([0, 1, 0.25, 0.5, g.unit(), 1 - g.unit()]) || 0;
    const seed = randomSeed(g);
    const attempts = [1, 2, 3, g.int(1, 40), g.int(1, 1100), g.pick([31, 32, 33, 40, 1000, 1024, 1025, 2 ** 53 - 1])];
    const lr = lib.seededRandom(seed);
    const mr = modelRandom(seed);
    for (const a of attempts) {
      c.same(lib.nextDelayMs(a, { ...o, random: lr }), sigilDelay(a, { ...o, random: () => mr.next() }), `${JSON.stringify(o)} attempt ${a}`);
    }
    const n = g.int(1, 12);
    const sr = modelRandom(`${seed}#`);
    const want = [];
    for (let a = 1; a < n; a++) want.push(sigilDelay(a, { ...o, random: () => sr.next() }));
    c.same(lib.retrySchedule({ ...o, maxAttempts: n, random: lib.seededRandom(`${seed}#`) }), want, `${JSON.stringify(o)} retrySchedule(${n})`);
  }
  c.done();
});

test(`createBackoff and the fluent policy over ${N} option sets`, (t) => {
  const g = inputs(0xbac0ff);
  const c = checker(t, "backoff");
  for (let i = 0; i < N; i++) {
    const o = {};
    if (g.unit() < 0.2) {
      o.steps = Array.from({ length: g.int(1, 6) }, () => g.pick([0, g.int(0, 1e6), g.unit() * 1000]));
    } else {
      o.base = g.pick([0, 1, 100, 1000, g.int(0, 1e6), g.unit() * 1000]);
      o.growth = g.pick(["exponential", "linear", "constant", undefined]);
      if (o.growth === undefined) delete o.growth;
      if ((o.growth ?? "exponential") === "exponential" && g.unit() < 0.7) o.factor = g.pick([1, 2, 3, 1.5, 1 + g.unit() * 4, 1 + g.unit() / 100]);
      if (g.unit() < 0.6) o.max = o.base + g.pick([0, g.int(0, 1e7), g.unit() * 1e5]);
    }
    if (g.unit() < 0.4) o.free = g.int(0, 4);
    const jitter = g.pick([undefined, 0, 1, 0.2, 0.5, g.unit(), "full", "full"]);
    if (jitter !== undefined) o.jitter = jitter;
    // The fluent hard cap (truncated band), on a third of the option sets.
    if (g.unit() < 0.3) o.cap = (o.base ?? 0) + g.pick([0, g.int(0, 1e6), g.unit() * 1e4]);
    const seed = randomSeed(g);
    const ctx = JSON.stringify(o);
    const model = { ...o, random: modelRandom(seed) };
    // One value built by createBackoff, one by the fluent API (sharing no stream).
    const lr0 = lib.createRandom(seed);
    const b = lib.createBackoff({ ...o, random: lr0 });
    const attempts = Array.from({ length: 30 }, (_, k) => k + 1).concat([g.int(0, 60), g.int(-3, 0)]);
    for (const a of attempts) c.same(b.delay(a), backoffDelay(model, a), `${ctx} delay(${a})`);
    // Exactly one draw per jittered call: both streams are at the same place.
    c.same(lr0.next(), model.random.next(), `${ctx}: one draw per call`);
    // Different random shapes give the same values: { next }, bare function, { float }.
    const m2 = { ...o, random: modelRandom(`${seed}!`) };
    const lr = lib.createRandom(`${seed}!`);
    const shape = g.int(0, 2);
    const random = shape === 0 ? { next: () => lr.next() } : shape === 1 ? () => lr.next() : { float: (x, y) => lr.float(x, y) };
    const b2 = lib.createBackoff({ ...o, random });
    for (let a = 1; a <= 12; a++) c.same(b2.delay(a), backoffDelay(m2, a), `${ctx} shape ${shape} delay(${a})`);
    c.same(lr.next(), m2.random.next(), `${ctx} shape ${shape}: one draw per call`);
    // Pre-jitter curve at large attempts (no jitter, so Infinity is legal).
    const plain = { ...o };
    delete plain.jitter;
    const p = lib.createBackoff(plain);
    for (const a of [g.int(30, 2000), g.int(1000, 1100), 2 ** 53]) c.same(p.delay(a), backoffDelay(plain, a), `${JSON.stringify(plain)} delay(${a})`);
  }
  c.done();
});

test(`the streams stay in step: a shared seeded stream across many delays (${N / 4} runs)`, (t) => {
  const g = inputs(0x57e9);
  const c = checker(t, "stream");
  for (let i = 0; i < N / 4; i++) {
    const seed = randomSeed(g);
    const jitter = g.pick([0.1, 0.5, 1, "full"]);
    const lr = lib.createRandom(seed);
    const mr = modelRandom(seed);
    const b = lib.Backoff.exponential(g.int(1, 5000), g.pick([1, 2, 3])).cap(g.int(5000, 1e6)).jitter(jitter).free(g.int(0, 2)).random(lr);
    const o = { ...b.toJSON(), random: mr };
    for (let a = 1; a <= 20; a++) {
      c.same(b.delay(a), backoffDelay(o, a), `${JSON.stringify(b)} delay(${a})`);
      if (a % 5 === 0) c.same(lr.int(0, 9), mr.int(0, 9), "interleaved user draw");
    }
  }
  c.done();
});

/** Section 4 as a regular expression over JavaScript's own trim(). */
function modelDuration(text) {
  const m = /^(-?(?:0|[1-9][0-9]*))(?: (milliseconds?|seconds?|minutes?|hours?|days?|weeks?)|(ms|s|m|h|d|w))?$/.exec(text.trim());
  if (!m) return NaN;
  const LONG = { millisecond: 1, second: 1000, minute: 60000, hour: 3600000, day: 86400000, week: 604800000 };
  const SHORT = { ms: 1, s: 1000, m: 60000, h: 3600000, d: 86400000, w: 604800000 };
  const unit = m[2] ? LONG[m[2].replace(/s$/, "")] : m[3] ? SHORT[m[3]] : 1;
  return Number(m[1]) * unit;
}

test(`duration text over ${N * 5} generated strings`, (t) => {
  const g = inputs(0xd0a);
  const c = checker(t, "duration");
  const spaces = [" ", "\t", "\n", "\u00A0", "\uFEFF", "\u2028", "\u3000", "\u0085", "\u180E", "\u200B", ""];
  const units = ["", "ms", "s", "m", "h", "d", "w", " ms", " s", "  seconds", " second", " seconds", " minute", " minutes", " hour", " hours", " day", " days", " week", " weeks", " millisecond", " milliseconds", " month", " years", "S", " Seconds", " toString", " __proto__", " constructor", "sec", " min", "mo", "y", "\u00A0seconds"];
  const amounts = () => g.pick(["0", "-0", "1", "-1", "05", "00", "+5", "1.5", "1e3", "0x1f", "1_0", "", "-", String(g.int(0, 1e6)), String(-g.int(1, 1e6)), String(g.int(1, 9)) + "0".repeat(g.int(0, 25)), "\uD800", "٣"]);
  for (let i = 0; i < N * 5; i++) {
    const text = g.pick(spaces) + amounts() + g.pick(units) + (g.unit() < 0.1 ? g.pick([" 5s", "x", "\uDC00"]) : "") + g.pick(spaces);
    const want = modelDuration(text);
    const r = lib.parseDuration(text);
    c.same(r.status, Number.isNaN(want) ? "failure" : "success", `parse(${JSON.stringify(text)}) status`);
    if (r.status === "success") c.same(r.data, want, `parse(${JSON.stringify(text)}) data`);
    else c.same(r.error.text, text, `parse(${JSON.stringify(text)}) error.text`);
    c.same(lib.toMs(text), want, `toMs(${JSON.stringify(text)})`);
  }
  c.done();
});
