// The API reference is generated from the code and builds without a warning: TypeDoc
// over the shipped declarations (scripts/reference.mjs, typedoc.json; warnings are
// errors), whose pages must equal the committed docs/reference/ (`npm run docs`
// regenerates them) and document every export of every entry point; and rustdoc for
// the crate with RUSTDOCFLAGS="-D warnings".
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { rustReference, specifiers, typescriptReference } from "../../scripts/reference.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const COMMITTED = join(ROOT, "docs", "reference");

/** The page of an entry point: "backoff-wasm/sigil" → backoff-wasm.sigil.md. */
const page = (specifier) => `${specifier.replace(/\//g, ".")}.md`;

let fresh;
/** A fresh TypeDoc run into a temporary directory: { dir, files } (run once per file). */
async function generate() {
  if (fresh) return fresh;
  const dir = mkdtempSync(join(tmpdir(), "reference-"));
  await typescriptReference(dir);
  fresh = { dir, files: readdirSync(dir).sort() };
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return fresh;
}

test("TypeDoc builds the reference with no warning, and docs/reference/ is that output (npm run docs)", async () => {
  const { dir, files } = await generate();
  assert.deepEqual(files, ["README.md", ...specifiers().map(page)].sort());
  assert.deepEqual(existsSync(COMMITTED) ? readdirSync(COMMITTED).sort() : [], files, "docs/reference/ holds the pages: run `npm run docs`");
  for (const f of files) {
    assert.equal(readFileSync(join(COMMITTED, f), "utf8"), readFileSync(join(dir, f), "utf8"), `docs/reference/${f} is stale: run \`npm run docs\``);
  }
});

test("the reference documents every export of every entry point on that entry point's page", async () => {
  const { dir } = await generate();
  const index = readFileSync(join(dir, "README.md"), "utf8");
  for (const specifier of specifiers()) {
    assert.ok(index.includes(`[${specifier}](${page(specifier)})`), `the index links ${specifier}`);
    const text = readFileSync(join(dir, page(specifier)), "utf8");
    assert.match(text, new RegExp(`^# ${specifier.replace(/\//g, "\\/")}$`, "m"));
    const file = specifier === "backoff-wasm" ? "index" : specifier.slice("backoff-wasm/".length);
    const mod = await import(join(ROOT, "pkg", "dist", "esm", `${file}.js`));
    // A section per export: "### name", "### name()" for functions; Markdown escapes `_` as `\_`.
    const headings = new Set([...text.matchAll(/^#{2,4} (.+?)(?:\(\))?$/gm)].map((m) => m[1].replace(/\\_/g, "_")));
    const missing = Object.keys(mod).filter((name) => !headings.has(name));
    assert.deepEqual(missing, [], `${specifier}: exports without a section`);
  }
});

test("rustdoc documents the crate with RUSTDOCFLAGS=\"-D warnings\"", { timeout: 600_000 }, () => {
  const index = rustReference();
  assert.ok(existsSync(index), index);
  assert.match(readFileSync(index, "utf8"), /<title>backoff_wasm - Rust<\/title>/);
});
