// Size of what one runtime loads for the whole package (wasm + the JS of one
// runtime tree; the browser tree carries the wasm inlined as a string in
// wasm-inline.js, counted once), measured by scripts/size.mjs on the built pkg/.
//
// - The budget (20 KB gzip per tree, BUDGET_GZIP_BYTES, issue 6) is enforced:
//   a tree over it fails `npm test`. bench/README.md ("Size") has the history of
//   how the package got under it and what each part weighs.
// - The wasm must stay free of std's panic/formatting machinery and of an
//   allocator: their telltale strings in the data segment would mean a change
//   brought them back (they cost ~10 KB gzip, half the budget).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUDGET_GZIP_BYTES, TREES, measure } from "../../scripts/size.mjs";

const pkgDir = fileURLToPath(new URL("../../pkg", import.meta.url));
const { wasmText } = await import(new URL("../../pkg/dist/browser/wasm-inline.js", import.meta.url).href);

const m = measure();

test("every tree loads the wasm exactly once", () => {
  for (const tree of TREES) {
    const files = m.trees[tree].whole.files;
    const wasm = files.filter((f) => f.endsWith(".wasm"));
    if (tree === "browser") {
      assert.deepEqual(wasm, [], "the browser tree must not fetch the .wasm file");
      assert.ok(files.includes("dist/browser/wasm-inline.js"), "the browser tree inlines the wasm");
      assert.deepEqual(Buffer.from(Array.from(wasmText, (c) => c.charCodeAt(0))), readFileSync(join(pkgDir, "dist", "backoff_wasm_bg.wasm")), "wasm-inline.js holds the wasm bytes");
      assert.ok(readFileSync(join(pkgDir, "dist", "browser", "wasm-inline.js")).every((b) => b < 0x80), "wasm-inline.js is ASCII (any declared charset reads it alike)");
    } else {
      assert.deepEqual(wasm, ["dist/backoff_wasm_bg.wasm"], `${tree} loads the wasm file`);
    }
    for (const [sub, e] of Object.entries(m.trees[tree].entries)) {
      assert.ok(e.total.gzip > 0 && e.total.gzip <= m.trees[tree].whole.total.gzip, `${tree} ${sub}`);
    }
  }
});

for (const tree of TREES) {
  test(`${tree}: whole package within the ${BUDGET_GZIP_BYTES} B gzip budget`, () => {
    const got = m.trees[tree].whole.total.gzip;
    assert.ok(got <= BUDGET_GZIP_BYTES, `${tree} whole package is ${got} B gzip, budget ${BUDGET_GZIP_BYTES} B`);
  });
}

test("the wasm carries no panic, formatting or allocator machinery", () => {
  const data = readFileSync(join(pkgDir, "dist", "backoff_wasm_bg.wasm")).toString("latin1");
  for (const telltale of ["panicked at", "capacity overflow", "called `Option::unwrap()`", "dlmalloc", "library/core/src", "library/std/src"]) {
    assert.ok(!data.includes(telltale), `the shipped wasm contains ${JSON.stringify(telltale)}`);
  }
});
