// A -0 base (or a -0 ceiling over a zero base) gives -0, as the originals' Math.min(base * m, max)
// does (@sigil/core's nextDelayMs, @sdxc/backoff's curves): the sign is what Object.is and
// 1 / x see. Free attempts and full jitter give +0 there, and here. Expected values are those the
// originals' source computes for the same inputs.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as sigil from "../../pkg/dist/esm/sigil.js";
import { createBackoff } from "../../pkg/dist/esm/backoff.js";

const show = (v) => (Array.isArray(v) ? v.map(show) : Object.is(v, -0) ? "-0" : String(v));
const stub = (x) => ({ next: () => x, float: (a = 0, b = 1) => a + x * (b - a) });

test("Sigil: a -0 baseDelayMs, or a -0 maxDelayMs over a zero base, waits -0", () => {
  assert.deepEqual(show([
    sigil.nextDelayMs(3, { baseDelayMs: -0 }),
    sigil.nextDelayMs(3, { baseDelayMs: 0, maxDelayMs: -0 }),
    sigil.nextDelayMs(3, { baseDelayMs: 0 }),
    sigil.nextDelayMs(2, { baseDelayMs: -0, jitter: 0.5, random: () => 0.3 }),
    sigil.nextDelayMs(2, { baseDelayMs: -0, jitter: 1, random: () => 1 }),
    sigil.nextDelayMs(40, { baseDelayMs: -0, maxDelayMs: Infinity }),
  ]), ["-0", "-0", "0", "-0", "-0", "-0"]);
  assert.deepEqual(show(sigil.retrySchedule({ baseDelayMs: -0, maxAttempts: 3 })), ["-0", "-0"]);
});

test("createBackoff: a -0 base, or a -0 max over a zero base, waits -0 on every growth", () => {
  assert.deepEqual(show([1, 2, 3].map(createBackoff({ base: -0 }).delay)), ["-0", "-0", "-0"]);
  assert.deepEqual(show([
    createBackoff({ base: "-0s", growth: "linear" }).delay(2),
    createBackoff({ base: -0, growth: "constant" }).delay(2),
    createBackoff({ base: 0, max: -0 }).delay(2),
    createBackoff({ base: 0 }).delay(2),
    createBackoff({ base: -0, free: 1 }).delay(1),
    createBackoff({ base: -0, jitter: 0.2, random: stub(0.5) }).delay(2),
    createBackoff({ base: -0, jitter: "full", random: stub(0.5) }).delay(2),
    createBackoff({ base: -0 }).at(2, 0),
  ]), ["-0", "-0", "-0", "0", "0", "-0", "0", "0"]);
});

test("Sigil: a zero base or ceiling after the same call with -0 (and the reverse) waits with its own sign", () => {
  // nextDelayMs remembers the policy of its last call for the same option values: 0 and -0
  // are different values there, as they give different waits.
  assert.deepEqual(show([
    sigil.nextDelayMs(1, { baseDelayMs: -0 }),
    sigil.nextDelayMs(1, { baseDelayMs: 0 }),
    sigil.nextDelayMs(1, { baseDelayMs: -0 }),
    sigil.nextDelayMs(2, { baseDelayMs: 0, maxDelayMs: 0 }),
    sigil.nextDelayMs(2, { baseDelayMs: 0, maxDelayMs: -0 }),
    sigil.nextDelayMs(2, { baseDelayMs: 0, maxDelayMs: 0 }),
    sigil.nextDelayMs(3, { baseDelayMs: -0, jitter: 0.5, random: Math.random }),
    sigil.nextDelayMs(3, { baseDelayMs: 0, jitter: 0.5, random: Math.random }),
  ]), ["-0", "0", "-0", "0", "-0", "0", "-0", "0"]);
  // A NaN base is an error on every call (no remembered policy answers for it).
  for (let i = 0; i < 2; i++) assert.throws(() => sigil.nextDelayMs(1, { baseDelayMs: NaN }), { name: "SigilError" });
});
