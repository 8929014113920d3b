// Regenerates the charts under docs/ with the built package (npm run docs).
// tests/js/chart.test.mjs checks that the committed files equal this output.
import { writeFileSync } from "node:fs";
import { docsCharts } from "../tests/js/docs-charts.mjs";

for (const [file, svg] of Object.entries(await docsCharts())) {
  writeFileSync(new URL(`../docs/${file}`, import.meta.url), svg);
  console.error(`wrote docs/${file}`);
}
