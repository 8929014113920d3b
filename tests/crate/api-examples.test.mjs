// Every public item of the native Rust API has a doc comment with an example (which
// `cargo test --doc` runs): each `pub fn`, `pub struct` and `pub enum` of src/api.rs, the
// `Jitter` enum (src/core/curve.rs, re-exported) and the crate's own docs (src/lib.rs).
// Items marked #[doc(hidden)] are not part of the API and are left out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** `[name, doc comment]` of each public item in `file` (optionally only the names given). */
function publicItems(file, only) {
  const lines = readFileSync(root + file, "utf8").split("\n");
  const items = [];
  lines.forEach((line, i) => {
    const m = /^\s*pub (?:fn|struct|enum) (\w+)/.exec(line);
    if (!m || (only && !only.includes(m[1]))) return;
    const doc = [];
    let hidden = false;
    for (let j = i - 1; j >= 0 && /^\s*(\/\/\/|#\[)/.test(lines[j]); j--) {
      if (/#\[doc\(hidden\)\]/.test(lines[j])) hidden = true;
      if (/^\s*\/\/\//.test(lines[j])) doc.unshift(lines[j]);
    }
    if (!hidden) items.push([m[1], doc.join("\n")]);
  });
  return items;
}

test("every public item of the Rust API has a doc comment with an example", () => {
  const items = [...publicItems("src/api.rs"), ...publicItems("src/core/curve.rs", ["Jitter"])];
  const names = items.map(([name]) => name);
  for (const name of ["Error", "Random", "new", "next", "Builder", "Backoff", "exponential", "delay", "waits", "build", "Jitter", "parse_duration"]) {
    assert.ok(names.includes(name), `${name} not found: the check reads the wrong lines`);
  }
  const without = items.filter(([, doc]) => !/\/\/\/ ```/.test(doc)).map(([name]) => name);
  assert.deepEqual(without, [], "public items without an example in their docs");
  assert.match(readFileSync(root + "src/lib.rs", "utf8"), /^\/\/! ```$/m, "the crate docs have an example");
});
