// The shared contract cases (cases/*.mjs) once more in Node, against the tree Node resolves
// for `import "backoff-wasm"` (the `node` condition: pkg/dist/node/, entry files over one
// bundle of the code with the wasm as base64), so that what a Node user loads by package
// name satisfies API.md sections 1–5 exactly as the ESM and CommonJS builds do: the same
// numbers, draw order, errors and messages.
import { test } from "node:test";
import { createRequire } from "node:module";
import { CASE_FILES, collect } from "./cases/harness.mjs";

const require = createRequire(import.meta.url);
const tree = "../../pkg/dist/node/";
const lib = await import(`${tree}index.js`);
const entries = { cjs: require("../../pkg/dist/cjs/index.js") };
for (const name of ["sigil", "backoff", "random", "duration", "policy"]) entries[name] = await import(`${tree}${name}.js`);

for (const [prefix, file] of CASE_FILES) {
  const mod = (await import(new URL(`./cases/${file.slice(2)}`, import.meta.url))).default;
  for (const c of collect(mod, lib, entries, `node tree ${prefix}`)) test(c.name, () => c.fn());
}
