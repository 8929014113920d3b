// A page under a strict Content Security Policy (`script-src 'self'`: no 'wasm-unsafe-eval')
// in the three browser engines (headless Chromium through Playwright; Firefox ESR through
// geckodriver and WebKitGTK's MiniBrowser through WebKitWebDriver: tests/hosts/webdriver.mjs),
// bundled by Vite and by esbuild (code splitting) with no change to the app: compiling the
// wasm is refused, the JavaScript build's chunk is fetched, and the page computes the README's
// seeded schedule and runs fetchWithRetry against this server (503, then 200) with the same
// numbers as without the CSP, where the wasm runs. The server's log shows that chunk fetched
// only under the CSP. When that chunk cannot load either (the server refuses it), the app
// catches the package's own error, which names 'wasm-unsafe-eval'. Firefox also runs the page
// with WebAssembly switched off (no WebAssembly global, as under JIT-less settings).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { CHROMIUM, project, run } from "../consumers/scratch.mjs";
import { inBrowser, missingFor } from "./webdriver.mjs";

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

/** What every page computes: the README's schedule, a seeded policy's delays (its own, pinned per run), the 200 after one retry. */
const WANT = { schedule: [803, 1697, 4533, 7588, 18352], status: 200, body: "ok", retries: 1 };
/** The seeded policy's delays: createBackoff({ base: 5, jitter: 0.5, seed: "page", maxAttempts: 4 }).schedule(). */
const { createBackoff } = await import(new URL("../../pkg/dist/esm/index.js", import.meta.url).href);
const DELAYS = createBackoff({ base: 5, jitter: 0.5, seed: "page", maxAttempts: 4 }).schedule();
const SERVED = [["open", {}], ["strict", { csp: STRICT }], ["refused", { csp: STRICT, refuse: /wasm-js/ }]];

/** Serves `dist` the ways of {@link SERVED} at once; `visit(urls)` returns each page's probe; returns the probes and the JavaScript build's requests per way. */
async function served(dist, visit) {
  const servers = [];
  try {
    for (const [, options] of SERVED) servers.push(await serve(dist, options));
    const probes = await visit(servers.map((s) => s.url));
    return Object.fromEntries(SERVED.map(([label], i) => [label, { probe: probes[i], js: servers[i].requests.filter((p) => p.includes("wasm-js")) }]));
  } finally {
    for (const s of servers) await s.close();
  }
}

/** The assertions shared by every browser: same numbers with and without the CSP, the chunk fetched only under it, the package's error where it is refused. */
function check(runs, where) {
  assert.deepEqual(runs.open.probe, { ...WANT, delays: DELAYS }, `${where}: with WebAssembly`);
  assert.deepEqual(runs.strict.probe, { ...WANT, delays: DELAYS }, `${where}: under script-src 'self'`);
  assert.equal(runs.open.js.length, 0, `${where}: no JavaScript build fetched where WebAssembly runs`);
  assert.equal(runs.strict.js.length, 1, `${where}: the JavaScript build fetched once under the CSP: ${runs.strict.js}`);
  assert.match(runs.refused.probe.error ?? "", /^backoff-wasm: WebAssembly refused \(.*\), JavaScript build not loaded \(.*\); allow 'wasm-unsafe-eval' in script-src$/s, where);
}

for (const [name, build] of Object.entries(apps)) {
  let dist;
  const built = () => (dist ??= build());

  test(`${name}: under script-src 'self' the page gives the numbers it gives without a CSP, and fetches the JavaScript build only there (Chromium)`, async () => {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch(CHROMIUM);
    try {
      const errors = [];
      const runs = await served(built(), async (urls) => {
        const out = [];
        for (const url of urls) {
          const r = await visit(browser, url);
          errors.push(...(url === urls[2] ? [] : r.errors));
          out.push(r.probe);
        }
        return out;
      });
      check(runs, "Chromium");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });

  for (const engine of ["firefox", "webkit"]) {
    const missing = missingFor(engine);
    const skip = missing.length && process.env.CI !== "true" ? `missing ${missing.join(", ")} (scripts/setup.sh --for test installs them)` : false;
    test(`${name}: under script-src 'self' the page gives the numbers it gives without a CSP, and fetches the JavaScript build only there (${engine})`, { skip }, async () => {
      const runs = await served(built(), async (urls) => (await inBrowser(engine, urls)).map((r) => JSON.parse(r.probe)));
      check(runs, engine);
    });
  }

  const noWasm = missingFor("firefox");
  test(`${name}: Firefox with WebAssembly switched off runs the page on the JavaScript build, with the same numbers`, {
    skip: noWasm.length && process.env.CI !== "true" ? `missing ${noWasm.join(", ")}` : false,
  }, async () => {
    const runs = await served(built(), async (urls) => (await inBrowser("firefox", urls.slice(0, 1), { wasm: false })).map((r) => JSON.parse(r.probe)));
    assert.deepEqual(runs.open.probe, { ...WANT, delays: DELAYS });
    assert.equal(runs.open.js.length, 1, "the JavaScript build fetched once");
  });
}
