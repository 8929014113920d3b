// The shared contract cases (tests/js/cases/*.mjs, API.md sections 1–5) run in
// headless Chromium against the browser build, pkg/dist/esm/index.js.
//
// A node:http server on 127.0.0.1 (random port) serves only pkg/dist/esm/
// and tests/js/cases/; playwright-core drives the system Chromium
// (/usr/bin/chromium, no browser download). Each case is reported as its own
// node:test subtest with the page's failure message. The page must run exactly
// the cases that the Node runner collects (same names, same order).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CASE_FILES, collect } from "./cases/harness.mjs";
import { nodeEntries } from "./run-cases-node.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SERVED = ["pkg/dist/esm/", "tests/js/cases/"];
const CHROMIUM = "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".html": "text/html", ".wasm": "application/wasm", ".json": "application/json" };

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>backoff-wasm contract cases</title>
<script type="module">
  try {
    const lib = await import("/pkg/dist/esm/index.js");
    const { CASE_FILES, collect, runAll } = await import("/tests/js/cases/harness.mjs");
    const entries = {};
    for (const name of ["sigil", "backoff", "random", "duration", "policy"]) {
      entries[name] = await import("/pkg/dist/esm/" + name + ".js");
    }
    const modules = [];
    for (const [prefix, file] of CASE_FILES) {
      modules.push([prefix, (await import(new URL(file, location.origin + "/tests/js/cases/").href)).default]);
    }
    window.__runCases = async () => {
      const cases = [];
      for (const [prefix, mod] of modules) cases.push(...collect(mod, lib, entries, prefix));
      return runAll(cases);
    };
    window.__ready = "ok";
  } catch (e) {
    window.__ready = "error: " + (e && e.stack || e);
  }
</script>`;

/** Serves the page and the whitelisted directories; everything else is 404. */
function serve(requests) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    requests.push(url.pathname);
    if (url.pathname === "/favicon.ico") {
      res.writeHead(204);
      res.end();
      return;
    }
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(PAGE);
      return;
    }
    const rel = path.posix.normalize(decodeURIComponent(url.pathname)).replace(/^\/+/, "");
    const file = path.join(ROOT, rel);
    if (!SERVED.some((dir) => rel.startsWith(dir)) || !file.startsWith(ROOT) || !existsSync(file)) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

test("contract cases in headless Chromium (pkg/dist/esm)", { timeout: 300_000 }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (scripts/setup.sh installs Debian's chromium)`);
  assert.ok(existsSync(path.join(ROOT, "pkg/dist/esm/index.js")), "build the package first (scripts/build.sh)");

  // The case list the Node runner registers, to check the page ran exactly these.
  const { lib, entries } = await nodeEntries();
  const expected = [];
  for (const [prefix, file] of CASE_FILES) {
    const mod = (await import(new URL(`./cases/${file.slice(2)}`, import.meta.url))).default;
    expected.push(...collect(mod, lib, entries, prefix).map((c) => c.name));
  }

  const requests = [];
  const server = await serve(requests);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
    page.on("response", (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`); });
    const { port } = server.address();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => window.__ready !== undefined, null, { timeout: 60_000 });
    const ready = await page.evaluate(() => window.__ready);
    assert.equal(ready, "ok", `page failed to load the cases: ${ready}\n${problems.join("\n")}`);
    const ua = await page.evaluate(() => navigator.userAgent);
    const results = await page.evaluate(() => window.__runCases());

    t.diagnostic(`${ua}; ${results.length} cases; ${results.filter((r) => r.ok).length} passed`);
    for (const r of results) {
      await t.test(r.name, () => {
        if (!r.ok) throw new Error(r.message);
      });
    }
    assert.ok(requests.includes("/pkg/dist/esm/index.js"), "the page loaded the ESM build");
    assert.ok(!requests.some((p) => p.endsWith(".wasm") || p.startsWith("/pkg/dist/cjs/")), "no .wasm file, no CommonJS build");
    assert.deepEqual(results.map((r) => r.name), expected, "the page ran the same cases as Node");
    assert.deepEqual(problems, [], "no page errors, console errors or failed requests");
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
