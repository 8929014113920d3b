// RANDOM_STATE_SCHEMA through a real Standard Schema consumer: `@remix-run/data-schema`'s
// `parseSafe` (the consumer @sdxc/random's own tests use), in a scratch project with the
// packed tarball installed, from ESM `import` and from CommonJS `require`. Each verdict is
// also compared with the same shape built from data-schema's own primitives
// (`object({ seed: string | number, words: tuple of four u32 })`, as @sdxc/random builds it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { project, run } from "./scratch.mjs";

const VERSIONS = { "@remix-run/data-schema": "0.3.0" };

/** The probe body: `random` is backoff-wasm/random, `root` the index, `ds` data-schema. */
const BODY = String.raw`
const TWO32 = 2 ** 32;
const { RANDOM_STATE_SCHEMA, createRandom, restoreRandom } = random;
const { parseSafe } = ds;
const word = ds.number().refine((x) => Number.isInteger(x) && x >= 0 && x < TWO32, "u32");
const upstreamShape = ds.object({ seed: ds.union([ds.string(), ds.number()]), words: ds.tuple([word, word, word, word]) });

const stream = createRandom("stored");
stream.next();
const stored = JSON.stringify(stream.state());
const numeric = createRandom(7);
numeric.next();
const good = {
  "string seed, after JSON": JSON.parse(stored),
  "number seed, after JSON": JSON.parse(JSON.stringify(numeric.state())),
  "number seed, in memory": numeric.state(),
  "extreme words": { seed: 0, words: [0, 0, TWO32 - 1, 1] },
};
const w = [1, 2, 3, 4];
const bad = {
  "missing seed": { words: w },
  "wrong seed type": { seed: true, words: w },
  "null seed": { seed: null, words: w },
  "3 words": { seed: "x", words: [1, 2, 3] },
  "5 words": { seed: "x", words: [1, 2, 3, 4, 5] },
  "negative word": { seed: "x", words: [1, 2, 3, -4] },
  "fractional word": { seed: "x", words: [1, 2, 3, 4.5] },
  "word >= 2^32": { seed: "x", words: [1, 2, 3, TWO32] },
  "not an object": "stored",
  "null": null,
  "an array": [7, w],
  "words not an array": { seed: "x", words: { 0: 1, 1: 2, 2: 3, 3: 4, length: 4 } },
  "missing words": { seed: "x" },
};
const out = { good: {}, bad: {}, agrees: {} };
for (const [name, value] of Object.entries(good)) {
  const r = parseSafe(RANDOM_STATE_SCHEMA, value);
  out.good[name] = r.success ? [r.value, restoreRandom(r.value).next() === restoreRandom(value).next()] : r.issues;
  out.agrees[name] = r.success === parseSafe(upstreamShape, value).success;
}
for (const [name, value] of Object.entries(bad)) {
  const r = parseSafe(RANDOM_STATE_SCHEMA, value);
  let thrown;
  try {
    restoreRandom(value);
  } catch (e) {
    thrown = e.name;
  }
  out.bad[name] = r.success ? "accepted" : [r.issues.map((i) => [i.message, i.path]), thrown];
  out.agrees[name] = r.success === parseSafe(upstreamShape, value).success;
}
out.resumes = (() => {
  const r = parseSafe(RANDOM_STATE_SCHEMA, JSON.parse(stored));
  return r.success && restoreRandom(r.value).next() === stream.next();
})();
out.standard = [RANDOM_STATE_SCHEMA["~standard"].version, RANDOM_STATE_SCHEMA["~standard"].vendor];
out.sameObject = root.RANDOM_STATE_SCHEMA === RANDOM_STATE_SCHEMA;
out.seed = [createRandom(7).seed, createRandom(7).state().seed, createRandom("7").seed];
console.log(JSON.stringify(out));
`;

const consumer = () =>
  project("standard-schema", {
    dependencies: VERSIONS,
    files: {
      "esm.mjs": `import * as random from "backoff-wasm/random";\nimport * as root from "backoff-wasm";\nimport * as ds from "@remix-run/data-schema";\n${BODY}`,
      // data-schema is ES-module only: CommonJS loads it with import(); backoff-wasm by require.
      "cjs.cjs": `"use strict";\nconst random = require("backoff-wasm/random");\nconst root = require("backoff-wasm");\nimport("@remix-run/data-schema").then((ds) => {\n${BODY}\n});\n`,
    },
  });

const issue = (message, path) => [message, path];
const W = (i, v) => issue(`state.words[${i}] must be an unsigned 32-bit integer; received ${v}`, ["words", i]);

for (const file of ["esm.mjs", "cjs.cjs"]) {
  test(`@remix-run/data-schema parseSafe takes RANDOM_STATE_SCHEMA (${file === "esm.mjs" ? "ESM import" : "CommonJS require"})`, () => {
    const { dir } = consumer();
    const r = run(process.execPath, [file], { cwd: dir });
    assert.equal(r.stderr, "");
    const out = JSON.parse(r.stdout);
    const stream = JSON.parse(r.stdout).good["string seed, after JSON"][0];
    assert.equal(stream.seed, "stored");
    assert.deepEqual(out.good["number seed, after JSON"][0].seed, 7);
    for (const [name, [value, resumes]] of Object.entries(out.good)) {
      assert.ok(value && Array.isArray(value.words) && value.words.length === 4, name);
      assert.equal(resumes, true, name);
    }
    assert.deepEqual(out.good["extreme words"], [{ seed: 0, words: [0, 0, 4294967295, 1] }, true]);
    assert.deepEqual(out.bad, {
      "missing seed": [[issue("state.seed must be a string or a finite number; received undefined", ["seed"])], "TypeError"],
      "wrong seed type": [[issue("state.seed must be a string or a finite number; received true", ["seed"])], "TypeError"],
      "null seed": [[issue("state.seed must be a string or a finite number; received null", ["seed"])], "TypeError"],
      "3 words": [[issue("state.words.length must be 4; received 3", ["words"])], "RangeError"],
      "5 words": [[issue("state.words.length must be 4; received 5", ["words"])], "RangeError"],
      "negative word": [[W(3, -4)], "RangeError"],
      "fractional word": [[W(3, 4.5)], "RangeError"],
      "word >= 2^32": [[W(3, 4294967296)], "RangeError"],
      "not an object": [[issue('state must be an object { seed, words }; received "stored"', [])], "TypeError"],
      "null": [[issue("state must be an object { seed, words }; received null", [])], "TypeError"],
      // restoreRandom reads .seed and .words of any object, as upstream's does; the schema, as upstream's, wants a plain object.
      "an array": [[issue("state must be an object { seed, words }; received an array", [])], "TypeError"],
      "words not an array": [[issue("state.words must be an array of four unsigned 32-bit integers; received an object", ["words"])], "TypeError"],
      "missing words": [[issue("state.words must be an array of four unsigned 32-bit integers; received undefined", ["words"])], "TypeError"],
    });
    for (const [name, same] of Object.entries(out.agrees)) assert.equal(same, true, `${name}: same verdict as data-schema's own object/union/tuple`);
    assert.equal(out.resumes, true);
    assert.deepEqual(out.standard, [1, "backoff-wasm"]);
    assert.equal(out.sameObject, true);
    assert.deepEqual(out.seed, [7, 7, "7"]);
  });
}
