// InvalidDurationError's own enumerable keys are @sdxc/duration's, in its order: `text` (a
// declared field), then `name` (set in the constructor). So `Object.keys`, `{ ...error }` and
// `JSON.stringify(error)` (what a structured logger writes) show what they show for the original.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as esm from "../../pkg/dist/esm/index.js";
import * as duration from "../../pkg/dist/esm/duration.js";

const cjs = createRequire(import.meta.url)("../../pkg/dist/cjs/index.js");

test("an InvalidDurationError's own keys are text, then name", () => {
  for (const [parse, Err] of [[duration.parse, duration.InvalidDurationError], [esm.parseDuration, esm.InvalidDurationError], [cjs.parseDuration, cjs.InvalidDurationError]]) {
    const r = parse(" 5 minuts");
    assert.equal(r.status, "failure");
    assert.deepEqual(Object.keys(r.error), ["text", "name"]);
    assert.equal(JSON.stringify(r.error), '{"text":" 5 minuts","name":"InvalidDurationError"}');
    assert.deepEqual({ ...r.error }, { text: " 5 minuts", name: "InvalidDurationError" });
    assert.equal(r.error.message, 'Invalid duration: " 5 minuts"');
    assert.equal(String(r.error), 'InvalidDurationError: Invalid duration: " 5 minuts"');
    assert.ok(r.error instanceof Err);
    const made = new Err("x");
    assert.deepEqual(Object.keys(made), ["text", "name"]);
    assert.equal(made.name, "InvalidDurationError");
  }
});
