// The ESM and CommonJS copies of the package in one process: a policy built by one works
// in the other, and the error classes match errors of either copy.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as esm from "../../pkg/dist/esm/index.js";

const require = createRequire(import.meta.url);
const cjs = require("../../pkg/dist/cjs/index.js");

test("a policy built by the CommonJS copy works in the ESM copy (and back), random source included", () => {
  const fromCjs = cjs.createBackoff({ base: 1000, jitter: 0.2, random: cjs.createRandom("x") }).maxAttempts(4);
  const twin = esm.createBackoff({ base: 1000, jitter: 0.2, random: esm.createRandom("x") }).maxAttempts(4);
  const adopted = esm.Backoff.from(fromCjs);
  assert.ok(adopted instanceof esm.Backoff);
  assert.deepEqual(adopted.schedule(), twin.schedule());
  assert.equal(esm.queueRetryDelaySeconds(cjs.Backoff.fixed("90 seconds"), 1), 90);
  assert.match(esm.scheduleSvg(cjs.Backoff.exponential(100).maxAttempts(3)), /^<svg/);
  assert.deepEqual(cjs.Backoff.from(esm.Backoff.linear(5).maxAttempts(4)).schedule(), [5, 10, 15]);
});

test("instanceof: the error classes match errors of any copy by brand, a subclass by its prototype chain", () => {
  class A extends esm.SigilError {}
  class B extends esm.SigilError {}
  class D extends esm.InvalidDurationError {}
  let thrown;
  try {
    esm.nextDelayMs(0);
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof esm.SigilError && thrown instanceof cjs.SigilError);
  assert.equal(thrown instanceof A, false);
  assert.equal(new A("a") instanceof B, false);
  assert.ok(new A("a") instanceof A && new A("a") instanceof esm.SigilError && new A("a") instanceof cjs.SigilError);
  const failure = esm.parseDuration("nope").error;
  assert.ok(failure instanceof esm.InvalidDurationError && failure instanceof cjs.InvalidDurationError);
  assert.equal(failure instanceof D, false);
  assert.ok(new D("x") instanceof D);
});
