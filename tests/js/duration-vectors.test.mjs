// `parseDuration` and `toMs` of duration text give, for every row of
// tests/js/duration-vectors.json, the answer of the Rust crate's duration parser
// (`core::duration`): the file is what `cargo test` checks against that parser
// (`javascript_vectors_are_current`), so the JavaScript reader and the native one
// cannot drift apart. The rows hold JavaScript strings (lone surrogates included).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse, toMs } from "../../pkg/dist/esm/duration.js";

const rows = JSON.parse(readFileSync(new URL("./duration-vectors.json", import.meta.url), "utf8"));
const number = (x) => (x === null ? undefined : x === "-0" ? -0 : x === "Infinity" ? Infinity : x === "-Infinity" ? -Infinity : x);

test("the vectors cover accepted texts, refusals, -0 and infinite amounts", () => {
  assert.ok(rows.length > 3000, `${rows.length} rows`);
  assert.ok(rows.filter((r) => r[1] === null).length > 1500);
  assert.ok(rows.filter((r) => typeof r[1] === "number").length > 500);
  assert.ok(rows.some((r) => r[1] === "-0") && rows.some((r) => r[1] === "Infinity"));
  assert.ok(rows.some((r) => /[\ud800-\udfff]/.test(r[0])));
});

test("toMs answers every vector as the Rust parser does (NaN for a refusal)", () => {
  const wrong = [];
  for (const [text, answer] of rows) {
    const want = answer === null ? NaN : number(answer);
    const got = toMs(text);
    if (!Object.is(got, want)) wrong.push({ text, want, got });
  }
  assert.deepEqual(wrong.slice(0, 10), []);
});

test("parse answers every vector as the Rust parser does", () => {
  const wrong = [];
  for (const [text, answer] of rows) {
    const want = number(answer);
    const r = parse(text);
    const got = r.status === "success" ? r.data : undefined;
    if (!Object.is(got, want) || (r.status === "failure") !== (want === undefined)) wrong.push({ text, want, got });
  }
  assert.deepEqual(wrong.slice(0, 10), []);
});
