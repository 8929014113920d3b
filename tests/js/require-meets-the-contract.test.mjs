// The shared contract cases (cases/*.mjs) once more in Node, against the
// CommonJS build (require("backoff-wasm") → pkg/dist/cjs/), so that the
// `require` entry satisfies API.md sections 1–5 exactly as the ESM one does.
import { test } from "node:test";
import { createRequire } from "node:module";
import { CASE_FILES, collect } from "./cases/harness.mjs";
import { nodeEntries } from "./run-cases-node.mjs";

const require = createRequire(import.meta.url);
const lib = require("../../pkg/dist/cjs/index.js");
const entries = { cjs: (await nodeEntries()).entries.esmIndex };
for (const name of ["sigil", "backoff", "random", "duration", "policy"]) entries[name] = require(`../../pkg/dist/cjs/${name}.js`);

for (const [prefix, file] of CASE_FILES) {
  const mod = (await import(new URL(`./cases/${file.slice(2)}`, import.meta.url))).default;
  for (const c of collect(mod, lib, entries, `cjs ${prefix}`)) test(c.name, () => c.fn());
}
