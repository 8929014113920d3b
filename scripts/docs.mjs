// Regenerates what docs/ holds that the code draws or documents (npm run docs; build
// first, it reads pkg/):
//   - the charts under docs/ (tests/js/chart.test.mjs checks the committed files equal this output);
//   - the API reference of the package, docs/reference/ (TypeDoc over the shipped
//     declarations; tests/docs/reference.test.mjs checks the committed pages equal a fresh run);
//   - rustdoc for the crate, into target/doc (not committed; checked for warnings by the same test).
// Any TypeDoc or rustdoc warning fails the run.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { docsCharts } from "../tests/js/docs-charts.mjs";
import { rustReference, typescriptReference } from "./reference.mjs";

for (const [file, svg] of Object.entries(await docsCharts())) {
  writeFileSync(new URL(`../docs/${file}`, import.meta.url), svg);
  console.error(`wrote docs/${file}`);
}

const reference = new URL("../docs/reference/", import.meta.url);
rmSync(reference, { recursive: true, force: true });
mkdirSync(reference, { recursive: true });
await typescriptReference(reference.pathname);
console.error(`wrote docs/reference/ (${readdirSync(reference).length} pages)`);

console.error(`wrote ${rustReference()}`);
