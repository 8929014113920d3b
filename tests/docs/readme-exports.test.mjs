// The README's first table (one row per import, with its exports) is what a user reads
// first: it must list exactly the entry points of pkg/package.json and, per entry point,
// exactly the names the built package exports (pkg/dist/esm).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const root = new URL("../../", import.meta.url);
const readme = readFileSync(new URL("README.md", root), "utf8");
const manifest = JSON.parse(readFileSync(new URL("pkg/package.json", root), "utf8"));

/** The rows of the table under `| import | which one do I want | exports |`: Map of subpath ("." for the root) → cell text. */
function tableRows() {
  const lines = readme.split("\n");
  const start = lines.findIndex((l) => /^\| import \| which one do I want \| exports \|$/.test(l));
  assert.ok(start >= 0, "README.md has the table `| import | which one do I want | exports |`");
  const rows = new Map();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [, imp, , exportsCell] = line.match(/^\| `([^`]+)` \| (.*?) \| (.*) \|$/) ?? [];
    assert.ok(imp, `a table row reads | \`import\` | which one do I want | exports |: ${line}`);
    rows.set(imp === "backoff-wasm" ? "." : `./${imp.replace(/^backoff-wasm\//, "")}`, exportsCell);
  }
  return rows;
}

const names = (cell) => [...cell.matchAll(/`(\w+)`/g)].map((x) => x[1]);

test("README's exports table has one row per entry point of pkg/package.json", () => {
  const subpaths = Object.keys(manifest.exports).filter((k) => k !== "./package.json");
  assert.deepEqual([...tableRows().keys()].sort(), subpaths.sort());
});

test("each row of README's exports table names exactly what that entry point exports", async () => {
  for (const [subpath, cell] of tableRows()) {
    if (subpath === ".") continue; // "every name above" (checked below)
    const file = subpath.slice(2);
    const mod = await import(new URL(`pkg/dist/esm/${file}.js`, root).href);
    // `Backoff` (the class createBackoff returns) is prose after the name; only code spans before any "(" count.
    const listed = names(cell.replace(/\(.*?\)/g, ""));
    assert.deepEqual([...new Set(listed)].sort(), Object.keys(mod).sort(), `README row for backoff-wasm${subpath.slice(1)}`);
  }
});

test("the root entry point exports every name of the other rows (duration's parse as parseDuration, p-retry's default as pRetry)", async () => {
  const rows = tableRows();
  const all = new Set();
  for (const [subpath, cell] of rows) {
    if (subpath === ".") continue;
    for (const n of names(cell.replace(/\(.*?\)/g, ""))) {
      if (subpath === "./duration" && n === "parse") all.add("parseDuration");
      else if (subpath === "./p-retry" && n === "default") all.add("pRetry");
      else all.add(n);
    }
  }
  const root_ = await import(new URL("pkg/dist/esm/index.js", root).href);
  assert.deepEqual(Object.keys(root_).sort(), [...all].sort());
});
