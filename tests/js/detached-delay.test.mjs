// `delay` and `at` of a policy work taken off it, as @sdxc/backoff's closures do:
// `const { delay, at } = createBackoff(o)`, `[1, 2, 3].map(policy.delay)`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as esm from "../../pkg/dist/esm/index.js";

const cjs = createRequire(import.meta.url)("../../pkg/dist/cjs/index.js");

test("delay and at taken off a createBackoff policy give the policy's waits", () => {
  for (const m of [esm, cjs]) {
    const policy = m.createBackoff({ base: 100, max: 1000 });
    const { delay, at } = policy;
    assert.deepEqual([1, 2, 3, 4, 5].map(delay), [100, 200, 400, 800, 1000]);
    assert.deepEqual([1, 2, 3].map(policy.delay), [100, 200, 400]);
    assert.equal(delay(0), 0);
    assert.equal(at(2, 5000), 5200);
    const before = Date.now();
    const t = at(1);
    assert.ok(t >= before + 100 && t <= Date.now() + 100, `at(1) = ${t}`);
    assert.throws(() => at(1, "now"), { name: "TypeError", message: 'now must be a number of ms since the epoch; received "now"' });
    assert.equal(policy.delay, delay, "the same function on every read");
  }
});

test("delay and at taken off fluent policies draw as the policy does", () => {
  for (const m of [esm, cjs]) {
    const make = () => m.Backoff.exponential(50).cap("1s").jitter(0.5).random(m.createRandom("d"));
    const detached = make().delay;
    const bound = make();
    assert.deepEqual([1, 2, 3, 4, 5, 6].map(detached), [1, 2, 3, 4, 5, 6].map((n) => bound.delay(n)));
    const keyed = m.Backoff.linear(10).jitter("full").seed("k");
    const { at } = keyed;
    assert.equal(at(3, 1000), 1000 + keyed.delay(3));
    // Each policy's own functions: another policy's are not these.
    assert.notEqual(keyed.delay, m.Backoff.linear(10).jitter("full").seed("k").delay);
    assert.deepEqual([1, 2, 3].map(m.Backoff.fixed(7).delay), [7, 7, 7]);
  }
});
