// A static page in headless Chromium (playwright-core, /usr/bin/chromium)
// loading the package straight from the consumer's node_modules, served on
// 127.0.0.1 by node:http: once by path, once through an import map, and by path under a
// Content Security Policy (with and without 'wasm-unsafe-eval': without it the JavaScript
// build, dist/esm/wasm-js.js, runs instead, with the same values).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inChromium, project, serveStatic } from "./scratch.mjs";
import { expected, PAGE_MAIN, probeModule, probePage, seededFrom } from "./probe.mjs";

const DIST = "/node_modules/backoff-wasm/dist/esm";
const SUBPATHS = ["sigil", "backoff", "random", "duration", "policy"];
const importMap = {
  imports: {
    "backoff-wasm": `${DIST}/index.js`,
    ...Object.fromEntries(SUBPATHS.map((s) => [`backoff-wasm/${s}`, `${DIST}/${s}.js`])),
  },
};

/** A `<meta>` Content Security Policy (after the page's inline error handler, which it would block). */
const csp = (policy) => `<meta http-equiv="Content-Security-Policy" content="${policy}">`;

test("browser <script type=module>: by path and through an import map, values computed in the page", async () => {
  const { dir } = project("browser", {
    files: {
      "by-path/probe.js": probeModule((subpath) => `${DIST}/${subpath}.js`),
      "by-path/main.js": PAGE_MAIN,
      "by-path/index.html": probePage({ moduleSrc: "./main.js" }),
      // Under a Content Security Policy: compiling the inlined wasm needs 'wasm-unsafe-eval'
      // (README, "Browser"); with script-src 'self' alone the browser refuses it and the page
      // runs on the JavaScript build.
      "csp/probe.js": probeModule((subpath) => `${DIST}/${subpath}.js`),
      "csp/main.js": PAGE_MAIN,
      "csp/index.html": probePage({ head: csp("script-src 'self' 'wasm-unsafe-eval'"), moduleSrc: "./main.js" }),
      "csp-strict/probe.js": probeModule((subpath) => `${DIST}/${subpath}.js`),
      "csp-strict/main.js": PAGE_MAIN,
      "csp-strict/index.html": probePage({ head: csp("script-src 'self'"), moduleSrc: "./main.js" }),
      "import-map/probe.js": probeModule(),
      "import-map/index.html": probePage({
        head: `<script type="importmap">${JSON.stringify(importMap)}</script>`,
        moduleCode: PAGE_MAIN.replace("./probe.js", "/import-map/probe.js"),
      }),
    },
  });
  const mod = await import(pathToFileURL(join(dir, "node_modules", "backoff-wasm", "dist", "esm", "index.js")).href);
  const want = expected(seededFrom(mod));
  const server = await serveStatic(dir);
  try {
    const pages = await inChromium(["by-path", "import-map", "csp"].map((p) => `${server.url}/${p}/index.html`));
    for (const { url, result, errors } of pages) {
      assert.deepEqual(errors, [], url);
      assert.deepEqual(result, want, url);
    }
    // The ESM build inlines the wasm: no .wasm request, no CommonJS build, no JavaScript build.
    assert.ok(server.requests.includes(`${DIST}/index.js`));
    assert.deepEqual(server.requests.filter((r) => r.endsWith(".wasm") || r.includes("/dist/cjs/") || r.includes("wasm-js")), []);
    // Without 'wasm-unsafe-eval' Chromium refuses to compile the wasm (it says so on the
    // console) and the page gets the same values from the JavaScript build.
    const [strict] = await inChromium([`${server.url}/csp-strict/index.html`]);
    assert.deepEqual(strict.result, want, JSON.stringify(strict));
    assert.deepEqual(server.requests.filter((r) => r.includes("wasm-js")), [`${DIST}/wasm-js.js`]);
  } finally {
    await server.close();
  }
});
