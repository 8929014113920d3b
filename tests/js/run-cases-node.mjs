// Node adapter of the shared case files (tests/js/cases/*.mjs): each case
// becomes one node:test test, run against the ESM build in pkg/dist/esm/.
// The same case files run in headless Chromium via browser.test.mjs.
import { test } from "node:test";
import { createRequire } from "node:module";
import { collect } from "./cases/harness.mjs";

const esm = "../../pkg/dist/esm/";
const require = createRequire(import.meta.url);

/**
 * The module namespaces the cases receive: `lib` (the ESM index) and the
 * per-entry ones, plus `cjs` (the CommonJS index) for cross-build `instanceof`.
 */
export async function nodeEntries() {
  const lib = await import(`${esm}index.js`);
  const entries = {};
  for (const name of ["sigil", "backoff", "random", "duration", "policy"]) entries[name] = await import(`${esm}${name}.js`);
  entries.cjs = require("../../pkg/dist/cjs/index.js");
  // Not a case parameter of the ESM run: lets the CommonJS run check instanceof against the ESM classes.
  Object.defineProperty(entries, "esmIndex", { value: lib, enumerable: false });
  return { lib, entries };
}

/** Registers every case of `caseModule` (a case file's default export) as a node:test test. */
export async function runCasesInNode(prefix, caseModule) {
  const { lib, entries } = await nodeEntries();
  for (const c of collect(caseModule, lib, entries, prefix)) test(c.name, () => c.fn());
}
