// The sizes the exactness guide states are the package's: the tarball npm packs from pkg/ and
// the shipped wasm, each within 5 % of the figure written (a tarball varies by a few KB between
// identical builds; a figure off by more is out of date). The app bundles' figures are held by
// their budgets (tests/size/size.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tarball } from "../consumers/scratch.mjs";

const guide = readFileSync(join(ROOT, "docs", "guides", "exactness.md"), "utf8").replace(/\s+/g, " ");
const bytes = (text) => Number(text.replace(/ /g, ""));
const near = (stated, actual, what) =>
  assert.ok(Math.abs(stated - actual) <= actual * 0.05, `${what}: the guide says ${stated} bytes, npm pack / pkg/ has ${actual}`);

test("the tarball size the exactness guide states is within 5 % of the packed tarball's", () => {
  const m = guide.match(/the tarball \(`npm pack`\) is about \d+ KB \((\d{1,3}(?: \d{3})*) bytes/);
  assert.ok(m, "docs/guides/exactness.md states the tarball's size in bytes");
  near(bytes(m[1]), tarball().size, "tarball");
});

test("the wasm size the exactness guide states is within 5 % of the shipped .wasm file's", () => {
  const m = guide.match(/inlined wasm \((\d{1,3}(?: \d{3})*) B raw/);
  assert.ok(m, "docs/guides/exactness.md states the wasm's raw size");
  near(bytes(m[1]), statSync(join(ROOT, "pkg", "dist", "backoff_wasm_bg.wasm")).size, "wasm");
});
