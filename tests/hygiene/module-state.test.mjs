// The engine keeps no state between wasm calls (docs/API.md section 13): each call is handed
// what it needs and returns its result. What may stay at module level in js/ is a handful of
// lazily made values that never change a result (the views over wasm memory, a default
// source, a memo of a pure answer): at most ten module-level `let`s in all, and none of the
// bookkeeping a policy register kept across calls, or a cache of records, would need.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("../../js/", import.meta.url).pathname;

/** Every source file under js/ (TypeScript and JavaScript, declarations left out). */
function sources(dir = root) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (/\.(?:ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

test("js/ has at most ten module-level lets", () => {
  const lets = [];
  for (const file of sources()) {
    for (const [i, line] of readFileSync(file, "utf8").split("\n").entries()) {
      if (/^(?:export )?let /.test(line)) lets.push(`${file.slice(root.length)}:${i + 1}: ${line}`);
    }
  }
  assert.ok(lets.length <= 10, `${lets.length} module-level lets:\n${lets.join("\n")}`);
});

test("js/ keeps no policy register, record cache or last-values cache", () => {
  const bookkeeping = ["\nlet loaded", "\nlet epoch", "registerEpoch", "replaced()", "namesSeen", "lastRec", "cachedRecords", "loadStream", "keysListed", "wasm.register("];
  const found = [];
  for (const file of sources()) {
    const text = readFileSync(file, "utf8");
    for (const name of bookkeeping) if (text.includes(name)) found.push(`${file.slice(root.length)}: ${name}`);
  }
  assert.deepEqual(found, []);
});
