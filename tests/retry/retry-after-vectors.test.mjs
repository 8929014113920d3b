// `retryAfterMs` of a header value gives, for every row of tests/retry/http-date-vectors.json,
// the answer the Rust crate's `Retry-After` parser (`core::http_date`) gives: the file is
// what `cargo test` checks against that parser (`javascript_vectors_are_current`), so the
// JavaScript reader and the native one cannot drift apart.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { retryAfterMs } from "../../pkg/dist/esm/retry.js";

const rows = JSON.parse(readFileSync(new URL("./http-date-vectors.json", import.meta.url), "utf8"));

test("the vectors cover dates, delay-seconds and refusals", () => {
  assert.ok(rows.length > 3000, `${rows.length} rows`);
  assert.ok(rows.filter((r) => r[2] === null).length > 1000);
  assert.ok(rows.filter((r) => typeof r[2] === "number" && r[2] > 0).length > 500);
  assert.ok(rows.some((r) => r[2] === "Infinity"));
});

test("retryAfterMs answers every vector as the Rust parser does", () => {
  const wrong = [];
  for (const [value, now, answer] of rows) {
    const want = answer === null ? undefined : answer === "Infinity" ? Infinity : answer;
    const got = retryAfterMs(value, now);
    if (!Object.is(got, want)) wrong.push({ value, now, want, got });
  }
  assert.deepEqual(wrong.slice(0, 10), []);
});
