// A page under a strict Content Security Policy (`script-src 'self'`: no 'wasm-unsafe-eval')
// in headless Chromium, bundled by Vite and by esbuild (code splitting) with no change to the
// app: compiling the wasm is refused, the JavaScript build's chunk is fetched, and the page
// computes the README's seeded schedule and runs fetchWithRetry against this server (503,
// then 200) with the same numbers as without the CSP. The network log shows that chunk
// fetched only under the CSP. When that chunk cannot load either (the server refuses it),
// the app catches the package's own error, which names 'wasm-unsafe-eval'.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { CHROMIUM, project, run } from "../consumers/scratch.mjs";

const STRICT = "script-src 'self'";
/** The Vite of the consumer tests (tests/consumers/vite-page.test.mjs). */
const VERSIONS = { vite: "8.4.0" };

const MAIN = `
let probe;
try {
  const { createBackoff } = await import("backoff-wasm");
  const { fetchWithRetry } = await import("backoff-wasm/retry");
  const schedule = createBackoff({ base: "1 second", max: "1 minute", jitter: 0.2, seed: "suite", maxAttempts: 6 }).schedule();
  const attempts = [];
  const policy = createBackoff({ base: 5, jitter: 0.5, seed: "page", maxAttempts: 4 });
  const res = await fetchWithRetry("/api", undefined, { policy, onRetry: (e) => attempts.push(e.attempt ?? e.attemptNumber ?? 0) });
  probe = { schedule, delays: policy.schedule(), status: res.status, body: await res.text(), retries: attempts.length };
} catch (e) {
  probe = { error: e.message };
}
window.__probe = JSON.stringify(probe);
window.__done = true;
`;
const HTML = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="./src/main.js"></script></head><body></body></html>
`;

/** Serves `root` with `csp` (when given) on every response; answers /api 503 on every first request of a page, then 200. */
async function serve(root, { csp, refuse } = {}) {
  const requests = [];
  let api = 0;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    requests.push(path);
    const headers = csp ? { "content-security-policy": csp } : {};
    if (path === "/api") {
      api++;
      res.writeHead(api % 2 === 1 ? 503 : 200, { ...headers, "content-type": "text/plain" }).end(api % 2 === 1 ? "busy" : "ok");
      return;
    }
    const file = normalize(join(root, path === "/" ? "index.html" : path));
    if ((refuse && refuse.test(path)) || !file.startsWith(normalize(root)) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, headers).end("not found");
      return;
    }
    const type = { ".html": "text/html", ".js": "text/javascript" }[extname(file)] ?? "application/octet-stream";
    res.writeHead(200, { ...headers, "content-type": type }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`, requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** Loads `url` in headless Chromium; returns the page's probe (parsed) and its page errors. */
async function visit(browser, url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => window.__done === true, null, { timeout: 60_000 });
  const probe = JSON.parse(await page.evaluate(() => window.__probe));
  await page.close();
  return { probe, errors };
}

const apps = {
  vite: () => {
    const { dir } = project("csp-vite", { dependencies: VERSIONS, files: { "index.html": HTML, "src/main.js": MAIN } });
    run(join(dir, "node_modules", ".bin", "vite"), ["build", "--logLevel", "warn", "--base", "./"], { cwd: dir });
    return join(dir, "dist");
  },
  esbuild: () => {
    const { dir } = project("csp-esbuild", { files: { "index.html": HTML, "src/main.js": MAIN } });
    const esbuild = new URL("../../node_modules/.bin/esbuild", import.meta.url).pathname;
    run(esbuild, ["src/main.js", "--bundle", "--splitting", "--format=esm", "--minify", "--outdir=dist/src", "--log-level=warning"], { cwd: dir });
    run("cp", ["index.html", "dist/index.html"], { cwd: dir });
    return join(dir, "dist");
  },
};

for (const [name, build] of Object.entries(apps)) {
  test(`${name}: under script-src 'self' the page gives the numbers it gives without a CSP, and fetches the JavaScript build only there`, async () => {
    const dist = build();
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch(CHROMIUM);
    try {
      const runs = {};
      for (const [label, options] of [["open", {}], ["strict", { csp: STRICT }], ["refused", { csp: STRICT, refuse: /wasm-js/ }]]) {
        const server = await serve(dist, options);
        try {
          runs[label] = { ...(await visit(browser, server.url)), js: server.requests.filter((p) => p.includes("wasm-js")) };
        } finally {
          await server.close();
        }
      }
      const want = { schedule: [803, 1697, 4533, 7588, 18352], delays: runs.open.probe.delays, status: 200, body: "ok", retries: 1 };
      assert.deepEqual(runs.open.probe, want);
      assert.equal(runs.open.probe.delays.length, 3);
      assert.deepEqual(runs.strict.probe, want);
      assert.deepEqual(runs.open.errors, []);
      assert.deepEqual(runs.strict.errors, []);
      assert.equal(runs.open.js.length, 0, "no JavaScript build fetched where WebAssembly runs");
      assert.equal(runs.strict.js.length, 1, `the JavaScript build fetched once under the CSP: ${runs.strict.js}`);
      assert.match(runs.refused.probe.error ?? "", /^backoff-wasm: WebAssembly refused \(.*\), JavaScript build not loaded \(.*\); allow 'wasm-unsafe-eval' in script-src$/);
    } finally {
      await browser.close();
    }
  });
}
