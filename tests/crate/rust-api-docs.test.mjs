// Every public item of the native Rust API has a doc comment with an example (which
// `cargo test --doc` runs): each `pub fn`, `pub struct` and `pub enum` of src/api.rs, the
// `Jitter` enum (src/core/curve.rs, re-exported) and the crate's own docs (src/lib.rs).
// Items marked #[doc(hidden)] are not part of the API and are left out; the generated docs
// show the API alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
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
  for (const name of ["Error", "Random", "new", "next", "Builder", "Backoff", "exponential", "delay", "waits", "build", "Jitter", "parse_duration", "retry_after_ms"]) {
    assert.ok(names.includes(name), `${name} not found: the check reads the wrong lines`);
  }
  const without = items.filter(([, doc]) => !/\/\/\/ ```/.test(doc)).map(([name]) => name);
  assert.deepEqual(without, [], "public items without an example in their docs");
  assert.match(readFileSync(root + "src/lib.rs", "utf8"), /^\/\/! ```$/m, "the crate docs have an example");
});

test("the documented API is the builder, the policy, the jitter kinds, the stream, the parsers and the error: no internals", () => {
  const dir = join(root, "target", "api-doc");
  const r = spawnSync("cargo", ["doc", "-q", "--no-deps", "--lib"], { cwd: root, encoding: "utf8", env: { ...process.env, CARGO_TARGET_DIR: dir } });
  assert.equal(r.status, 0, `cargo doc failed (cargo must be on PATH): ${r.error ?? r.stderr}`);
  const docs = join(dir, "doc", "backoff_wasm");
  const sidebar = readFileSync(join(docs, "sidebar-items.js"), "utf8");
  assert.deepEqual(JSON.parse(sidebar.slice(sidebar.indexOf("{"), sidebar.lastIndexOf("}") + 1)),
    { enum: ["Jitter"], fn: ["parse_duration", "retry_after_ms"], struct: ["Backoff", "Builder", "Error", "Random"] });
  // Jitter's codes and draw arithmetic belong to the engine and the wasm boundary.
  const jitter = readFileSync(join(docs, "enum.Jitter.html"), "utf8");
  for (const hidden of ["code", "from_code", "fraction", "draws", "draw_range", "finish"]) {
    assert.ok(!jitter.includes(`id="method.${hidden}"`), `Jitter::${hidden} is documented`);
  }
  assert.ok(jitter.includes('id="variant.Decorrelated"'));
});
