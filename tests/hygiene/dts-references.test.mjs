// The shipped declarations are what an editor shows on hover: their docstrings may point
// only at what a user has, the package and its published docs (links), never at the
// repository's contract (docs/API.md, its sections, "the contract"), its source tree,
// its tests or its issue tracker. Reads every .d.ts under pkg/dist/types (build first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const DIR = fileURLToPath(new URL("../../pkg/dist/types/", import.meta.url));

/** What a user of the package cannot open, as it reads in a docstring. */
const FORBIDDEN = [
  [/\bAPI\.md\b/, "the contract file"],
  [/\bcontract(?:'s)?\b/i, "the contract"],
  [/\bsections? \d/i, "a section of the contract"],
  [/(?<![\w@/.-])(?:src|tests|bench|fuzz|scripts|examples)\/[\w./-]+/, "a repository path"],
  [/(?<![\w@/.-])docs\/[\w./-]+/, "a repository document"],
  [/\b[\w-]+\.rs\b/, "a Rust source file"],
  [/\bissues? #?\d+|(?<![\w&])#\d+\b/i, "an issue"],
];

/** Every .d.ts under `dir`, relative paths. */
function declarations(dir, prefix = "") {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? declarations(join(dir, e.name), `${prefix}${e.name}/`)
      : e.name.endsWith(".d.ts") ? [`${prefix}${e.name}`] : []);
}

test("the shipped .d.ts cite nothing a user of the package cannot open (contract, sections, repository paths, issues)", () => {
  const files = declarations(DIR);
  assert.ok(files.includes("index.d.ts") && files.includes("esm/index.d.ts"), "pkg/dist/types holds both declaration trees");
  const found = [];
  for (const f of files) {
    readFileSync(join(DIR, f), "utf8").split("\n").forEach((line, i) => {
      const text = line.replace(/https?:\/\/\S+/g, ""); // links to published pages are fine
      for (const [re, what] of FORBIDDEN) if (re.test(text)) found.push(`${f}:${i + 1}: ${what}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});

test("the reference check catches each kind of citation", () => {
  const lines = [
    "(docs/API.md section 2)", "the contract's rule", "(contract section 10)", "see section 4", "in src/bindings/backoff.rs",
    "tests/retry/p-retry.test.mjs", "docs/ARCHITECTURE.md", "sigil.rs", "issue 25", "(#25)",
  ];
  for (const line of lines) assert.ok(FORBIDDEN.some(([re]) => re.test(line)), line);
  const fine = ["`@sdxc/backoff`'s options", "RFC 9110 §10.2.3", 'private "#private";', "`backoff-wasm/retry`", "Standard Schema v1"];
  for (const line of fine) assert.ok(!FORBIDDEN.some(([re]) => re.test(line)), line);
});

test("every {@link} of the shipped .d.ts names something those declarations have (no internal of the source)", () => {
  const found = [];
  for (const f of declarations(DIR)) {
    const text = readFileSync(join(DIR, f), "utf8");
    for (const [, name] of text.matchAll(/\{@link\s+([\w$]+)[^}]*\}/g)) {
      const declared = new RegExp(
        `\\b(?:class|interface|type|function|const|let|enum|namespace)\\s+${name}\\b` + // a declaration
        `|(?:import|export)[^;]*\\b${name}\\b[^;]*from` + // an import or a re-export
        `|^\\s*(?:(?:readonly|static|get|set)\\s+)*${name}\\??[(:<]`, "m"); // a member
      if (!declared.test(text)) found.push(`${f}: {@link ${name}}`);
    }
  }
  assert.deepEqual(found, []);
});
