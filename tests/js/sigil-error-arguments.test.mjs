// SigilError is constructed as @sigil/core's is: `new SigilError(code, message)` (both
// required, so `length` 2), and its own keys are the original's, in its order: `code` (a
// declared field), then `name` (set in the constructor), so `Object.keys`, `JSON.stringify`
// and a logger that spreads the error show what they show for the original.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import * as esm from "../../pkg/dist/esm/index.js";
import * as sigil from "../../pkg/dist/esm/sigil.js";

const cjs = createRequire(import.meta.url)("../../pkg/dist/cjs/index.js");

test("new SigilError(code, message) takes the code first, as @sigil/core's constructor does", () => {
  for (const m of [esm, cjs, sigil]) {
    const e = new m.SigilError("invalid_argument", "boom");
    assert.equal(e.code, "invalid_argument");
    assert.equal(e.message, "boom");
    assert.equal(e.name, "SigilError");
    assert.equal(String(e), "SigilError: boom");
    assert.ok(e instanceof Error);
    assert.ok(e instanceof esm.SigilError && e instanceof cjs.SigilError);
    assert.equal(m.SigilError.length, 2);
    // Another of the original's codes is kept as given.
    assert.equal(new m.SigilError("signature_mismatch", "no match").code, "signature_mismatch");
  }
});

test("a SigilError's own enumerable keys are code, then name, as the original's", () => {
  const made = new esm.SigilError("invalid_argument", "boom");
  assert.deepEqual(Object.keys(made), ["code", "name"]);
  assert.equal(JSON.stringify(made), '{"code":"invalid_argument","name":"SigilError"}');
  for (const m of [esm, cjs]) {
    let thrown;
    try {
      m.nextDelayMs(0);
    } catch (err) {
      thrown = err;
    }
    assert.ok(thrown instanceof m.SigilError);
    assert.deepEqual(Object.keys(thrown), ["code", "name"]);
    assert.deepEqual({ ...thrown }, { code: "invalid_argument", name: "SigilError" });
    assert.equal(thrown.message, "attempt must be an integer >= 1; received 0");
  }
});

// Sigil's errors take their option and expected texts from SIGIL_WORDING as they are: no
// list element is named (`steps[3]`) and no `{}` placeholder is filled, so none may have one.
test("every wording a Sigil error can show is whole text, with no {} placeholder", () => {
  const source = readFileSync(new URL("../../js/engine/boundary.ts", import.meta.url), "utf8");
  const literal = /^export const SIGIL_WORDING\b[^=]*= (\[.*\]);$/m.exec(source)?.[1];
  assert.ok(literal, "SIGIL_WORDING is in js/engine/boundary.ts");
  const wording = Function(`return (${literal});`)();
  assert.ok(Object.keys(wording).length > 10);
  for (const [id, text] of Object.entries(wording)) assert.ok(typeof text === "string" && !text.includes("{}"), `${id}: ${text}`);
  assert.throws(() => sigil.nextDelayMs(1, { jitter: 2 }), { name: "SigilError", message: "jitter must be 0 (no jitter) or a number in (0, 1]; received 2" });
});
