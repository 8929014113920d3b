// A Vite app page (no config) that SHOWS seeded delays, checked by what a
// person sees: the page's rendered text in headless Chromium must carry the
// pinned numbers, the same literals as the Vitest consumer suite
// (tests/consumers/vitest-consumer.suite.js). bundlers.test.mjs already runs
// the full probe through `vite build` and the dev server, but compares the
// seeded schedules with values computed in Node at test time; this pins them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { inChromium, project, run, serveStatic } from "./scratch.mjs";

/** Same Vite as bundlers.test.mjs. */
export const VERSIONS = { vite: "8.4.0" };

const MAIN = `import { createBackoff } from "backoff-wasm/backoff";
import { createRandom } from "backoff-wasm/random";
import { retrySchedule, seededRandom } from "backoff-wasm/sigil";

const rows = [
  ['delay(3) with createRandom("test")', createBackoff({ base: 1000, jitter: 0.2, random: createRandom("test") }).delay(3)],
  ['Sigil schedule with seededRandom("delivery-1")', retrySchedule({ jitter: 0.2, random: seededRandom("delivery-1") }).join(", ")],
  ['keyed delay(3) with seed "test"', createBackoff({ base: 1000, jitter: 0.2, seed: "test" }).delay(3)],
];
const out = document.getElementById("out");
out.textContent = rows.map(([label, value]) => label + ": " + value).join("\\n");
window.__probe = out.innerText;
window.__done = true;
`;

const HTML = `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>seeded delays</title>
<link rel="icon" href="data:,">
<script type="module" src="/src/main.js"></script>
</head>
<body><h1>Seeded retry delays (ms)</h1><pre id="out"></pre></body>
</html>
`;

const PINNED_TEXT = [
  'delay(3) with createRandom("test"): 4429',
  'Sigil schedule with seededRandom("delivery-1"): 927, 1795, 3522, 7701, 15690, 30895, 61860',
  'keyed delay(3) with seed "test": 4648',
].join("\n");

test("vite build (no config): the page shows the pinned seeded delays", async () => {
  const { dir } = project("vite-page", { dependencies: VERSIONS, files: { "index.html": HTML, "src/main.js": MAIN } });
  run(join(dir, "node_modules", ".bin", "vite"), ["build", "--logLevel", "warn"], { cwd: dir });
  const server = await serveStatic(join(dir, "dist"));
  try {
    const [{ result, errors }] = await inChromium([`${server.url}/index.html`]);
    assert.deepEqual(errors, []);
    assert.equal(result, PINNED_TEXT);
  } finally {
    await server.close();
  }
});
