// createBackoff names the first bad option whether or not `base` is given (docs/API.md
// section 2): without `base` (and without `steps`) every other option is checked first, in
// the same order, with the same class and words as beside a `base`; only options that are
// all good give the TypeError for the missing `base`. `retry` and `fetchWithRetry`, which
// take createBackoff options as their policy, reject with that same error. Each tree a Node
// user can load (ESM, the one-bundle node tree, CommonJS) gives the same errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as esm from "../../pkg/dist/esm/index.js";
import * as node from "../../pkg/dist/node/index.js";

const require = createRequire(import.meta.url);
const cjs = require("../../pkg/dist/cjs/index.js");

const DURATION = 'a non-negative finite duration (ms, or text such as "5 seconds")';
const RANDOM = "a Random (with float(min, max) or next()) or a function returning draws in [0, 1]";
const MISSING_BASE = ["TypeError", "base must be given (or steps instead); received undefined"];

// Options without `base`, and the error each gets: [options, class, message].
const BAD = [
  [{ maxAttempts: -1 }, "RangeError", "maxAttempts must be an integer >= 1; received -1"],
  [{ maxAttempts: 0 }, "RangeError", "maxAttempts must be an integer >= 1; received 0"],
  [{ maxAttempts: 2.5 }, "RangeError", "maxAttempts must be an integer >= 1; received 2.5"],
  [{ maxAttempts: "3" }, "TypeError", 'maxAttempts must be an integer >= 1; received "3"'],
  [{ free: -1 }, "RangeError", "free must be a non-negative safe integer; received -1"],
  [{ free: 1.5 }, "RangeError", "free must be a non-negative safe integer; received 1.5"],
  [{ free: 2 ** 53 }, "RangeError", "free must be a non-negative safe integer; received 9007199254740992"],
  [{ free: "x" }, "TypeError", 'free must be a non-negative safe integer; received "x"'],
  [{ jitter: 2 }, "RangeError", 'jitter must be a number in [0, 1], "full", "equal" or "decorrelated"; received 2'],
  [{ jitter: "half" }, "TypeError", 'jitter must be a number in [0, 1], "full", "equal" or "decorrelated"; received "half"'],
  [{ seed: {} }, "TypeError", "seed must be a string or a number; received an object"],
  [{ random: 5 }, "TypeError", `random must be ${RANDOM}; received 5`],
  [{ growth: "x" }, "TypeError", 'growth must be "exponential", "linear" or "constant"; received "x"'],
  [{ factor: 0.5 }, "RangeError", "factor must be a finite number >= 1; received 0.5"],
  [{ growth: "linear", factor: 3 }, "TypeError", 'factor must be left out unless growth is "exponential"; received 3'],
  [{ max: -1 }, "RangeError", `max must be ${DURATION}; received -1`],
  [{ max: "soon" }, "RangeError", `max must be ${DURATION}; received "soon"`],
  [{ cap: -1 }, "RangeError", `cap must be ${DURATION}; received -1`],
  [{ jitter: "decorrelated" }, "RangeError", 'max must be set for "decorrelated" jitter (it needs a cap); received undefined'],
  // The first bad option in the order of the checks, as beside a base.
  [{ free: -1, maxAttempts: -1 }, "RangeError", "free must be a non-negative safe integer; received -1"],
  [{ maxAttempts: -1, random: 5 }, "RangeError", "maxAttempts must be an integer >= 1; received -1"],
];

for (const [name, lib] of [["ESM", esm], ["Node (one bundle)", node], ["CommonJS", cjs]]) {
  test(`createBackoff without base names each bad option with its class and words (${name})`, () => {
    for (const [options, cls, message] of BAD) {
      assert.throws(() => lib.createBackoff(options), { name: cls, message }, JSON.stringify(options));
    }
  });
}

test("each bad option gets the same error beside a base, and beside steps where steps allow it", () => {
  for (const [options, cls, message] of BAD) {
    assert.throws(() => esm.createBackoff({ base: 100, ...options }), { name: cls, message }, `base and ${JSON.stringify(options)}`);
    if (!("growth" in options || "factor" in options || "max" in options || options.jitter === "decorrelated")) {
      assert.throws(() => esm.createBackoff({ steps: [10], ...options }), { name: cls, message }, `steps and ${JSON.stringify(options)}`);
    }
  }
});

test("options that are all good, without base, give the TypeError for the missing base", () => {
  for (const options of [{}, { maxAttempts: 3 }, { free: 2 }, { max: 50 }, { cap: "5 seconds" }, { max: 50, growth: "linear" }, { jitter: "decorrelated", max: 1000 }, { maxAttempts: 3, free: 2, jitter: 0.5, seed: "k", growth: "constant", cap: 10 }]) {
    assert.throws(() => esm.createBackoff(options), { name: MISSING_BASE[0], message: MISSING_BASE[1] }, JSON.stringify(options));
  }
});

test("retry and fetchWithRetry reject with createBackoff's error for a bad option without base, calling nothing", async () => {
  let calls = 0;
  const fn = () => calls++;
  const realFetch = globalThis.fetch;
  globalThis.fetch = async () => {
    calls++;
    return new Response("never");
  };
  try {
    for (const [options, cls, message] of [...BAD, [{}, ...MISSING_BASE]]) {
      const label = JSON.stringify(options);
      await assert.rejects(esm.retry(fn, options), { name: cls, message }, `retry, ${label}`);
      await assert.rejects(esm.retry(fn, options, { retries: 1 }), { name: cls, message }, `retry with retries, ${label}`);
      await assert.rejects(esm.fetchWithRetry("http://127.0.0.1:9/never", undefined, { policy: options }), { name: cls, message }, `fetchWithRetry, ${label}`);
    }
  } finally {
    globalThis.fetch = realFetch;
  }
  assert.equal(calls, 0, "neither fn nor fetch was called");
});
