// Every example of the shipped README and of docs/guides/*.md runs, as a user would run it:
// the packed tarball is installed into one scratch project (tests/consumers/scratch.mjs) with
// the tools the guides name (Vitest, esbuild, Wrangler, Miniflare, OpenTelemetry: the versions
// of the repository's devDependencies), and each guide's blocks are written into a directory
// of it and run there (tests/docs/blocks.mjs says which block runs how). Blocks that call a
// server get API_URL, a local one started here:
//   /ok          200 {"ok":true}
//   /flaky/KEY   503 twice per KEY, then 200 {"ok":true,"attempt":3}
//   /busy/KEY    429 with Retry-After: 1 once per KEY, then 200 {"ok":true,"attempt":2}
//   /down        503 always
//   /hang/KEY    the first request per KEY is never answered, then 200 {"ok":true,"attempt":2}
// A ```js block that is not marked is one another test runs (EXTERNAL below): this file checks
// that the test exists and reads that guide.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { CHROMIUM, ROOT, project } from "../consumers/scratch.mjs";
import { blocks, shippedReadme } from "./blocks.mjs";

const dev = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies;
const pin = (name) => dev[name].replace(/^\^/, "");
const TOOLS = ["esbuild", "miniflare", "wrangler", "@opentelemetry/api", "@opentelemetry/sdk-trace-base"];

/** Blocks run by another test: a text the block contains → the test file that runs it. */
const EXTERNAL = {
  "beyond.mjs": "tests/retry/deadlines-deferrals-budgets.test.mjs",
  "coming-from-p-retry.mjs": "tests/retry/p-retry.test.mjs",
  "queueRetryDelaySeconds(redelivery": "tests/retry/workerd.test.mjs",
  "retryMessage(message, redelivery": "tests/queues/workerd.test.mjs",
  "bullmqBackoff(policy)": "tests/queues/bullmq.test.mjs",
  "retry-budget:": "tests/budget/guide.test.mjs",
};

const GUIDES = join(ROOT, "docs", "guides");
const docs = [
  { name: "README", file: "README.md", text: shippedReadme(ROOT) },
  ...readdirSync(GUIDES).filter((f) => f.endsWith(".md")).sort()
    .map((f) => ({ name: f.slice(0, -3), file: `docs/guides/${f}`, text: readFileSync(join(GUIDES, f), "utf8") })),
];

let api;
let server;
before(async () => {
  const counts = new Map();
  server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    const n = (counts.get(path) ?? 0) + 1;
    counts.set(path, n);
    const json = (status, body, headers = {}) => res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
    req.resume();
    if (path === "/ok") json(200, { ok: true });
    else if (path.startsWith("/flaky/")) n <= 2 ? json(503, { ok: false }) : json(200, { ok: true, attempt: n });
    else if (path.startsWith("/busy/")) n === 1 ? json(429, { ok: false }, { "retry-after": "1" }) : json(200, { ok: true, attempt: n });
    else if (path === "/down") json(503, { ok: false });
    else if (path.startsWith("/hang/")) { if (n > 1) json(200, { ok: true, attempt: n }); } // the first is left unanswered
    else json(404, { ok: false });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${server.address().port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

/**
 * The scratch project every guide runs in (installed once per tarball). Vitest 4.1.12 is the
 * version tests/consumers/vitest.test.mjs pins (the last line that runs on Node 20).
 */
function guidesProject() {
  const dependencies = { vitest: "4.1.12", ...Object.fromEntries(TOOLS.map((t) => [t, pin(t)])) };
  return project("docs-guides", { dependencies }).dir;
}

/** The environment of every run: this process's, less the node:test runner's own channel. */
const env = () => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NODE_TEST_CONTEXT")),
  API_URL: api,
  PATH: `${join(guidesProject(), "node_modules", ".bin")}:${process.env.PATH}`,
  WRANGLER_SEND_METRICS: "false",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
});

/**
 * Runs a command without blocking this process (the API server answers from it); rejects
 * with the command's output when it exits non-zero.
 */
function exec(cmd, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out)
      : reject(new Error(`${cmd} ${args.join(" ")} (in ${options.cwd}) exited ${code}\n${out}`))));
  });
}

/** A port nothing listens on now (for wrangler dev and its inspector). */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Runs the Worker of `dir` (its wrangler.toml and src/worker.js) as its reader would: `wrangler
 * dev`, Wrangler's own bundling and local workerd runtime, with only UPSTREAM_URL set from the
 * command line (`--var`, over the file's [vars]) to the local server; then GET / from it.
 */
async function runWorker(dir, where) {
  const [port, inspector] = [await freePort(), await freePort()];
  const wrangler = join(guidesProject(), "node_modules", ".bin", "wrangler");
  const args = ["dev", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector), "--var", `UPSTREAM_URL:${api}/flaky/${where}`];
  // Its own process group: wrangler runs workerd and esbuild below it, all stopped together.
  const child = spawn(wrangler, args, { cwd: dir, env: env(), detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const exited = new Promise((resolve) => child.on("exit", resolve));
  try {
    await new Promise((resolve, reject) => {
      const seen = (d) => {
        out += d;
        if (/Ready on http/.test(out)) resolve();
      };
      child.stdout.on("data", seen);
      child.stderr.on("data", seen);
      exited.then((code) => reject(new Error(`wrangler dev exited ${code} before it was ready (in ${dir})\n${out}`)));
    });
    const res = await fetch(`http://127.0.0.1:${port}/`);
    assert.equal(res.status, 200, `${where}: the Worker's answer\n${out}`);
    assert.deepEqual(await res.json(), { ok: true, attempt: 3 }, `${where}: the third attempt's response`);
  } finally {
    if (child.exitCode === null) process.kill(-child.pid, "SIGTERM");
    await exited;
  }
}

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".json": "application/json" };

/**
 * Opens `page` (a path under the scratch project) in headless Chromium, served with the
 * project's files and /api/settings (a PUT: 503 once, then 200 echoing the body it got);
 * clicks `click` if given and waits until the page's rendered text (`innerText`: not its
 * scripts) contains `expect`.
 * @returns {Promise<string[]>} the bodies /api/settings received
 */
async function inChromium(page, click, expect) {
  const root = guidesProject();
  const puts = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/api/settings") {
      let body = "";
      for await (const chunk of req) body += chunk;
      puts.push(`${req.method} ${body}`);
      res.writeHead(puts.length === 1 ? 503 : 200, { "content-type": "application/json" }).end(body);
      return;
    }
    const file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[file.slice(file.lastIndexOf("."))] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch(CHROMIUM);
  try {
    const tab = await browser.newPage();
    const errors = [];
    tab.on("pageerror", (e) => errors.push(e.message));
    await tab.goto(`http://127.0.0.1:${server.address().port}/${page}`);
    if (click) await tab.click(click);
    await tab.waitForFunction((text) => document.body.innerText.includes(text), expect, { timeout: 20_000 })
      .catch((e) => { throw new Error(`${page}: ${JSON.stringify(expect)} never shown (${errors.join("; ") || e.message})`); });
    assert.deepEqual(errors, []);
    return puts;
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
}

for (const doc of docs) {
  test(`${doc.file}: every example runs`, { timeout: 300_000 }, async () => {
    const list = blocks(doc.text);
    const dir = join(guidesProject(), "guides", doc.name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const b of list.filter((x) => x.file)) {
      mkdirSync(dirname(join(dir, b.file)), { recursive: true });
      writeFileSync(join(dir, b.file), b.code);
    }
    for (const b of list) {
      const where = `${doc.file}:${b.line}`;
      if (b.lang === "sh" && b.run) {
        for (const line of b.code.split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()).filter(Boolean)) {
          const install = line.match(/^npm install (.+)$/);
          if (install) {
            // The project has these installed (backoff-wasm from the tarball).
            for (const name of install[1].split(/\s+/).filter((a) => !a.startsWith("-"))) {
              assert.ok(existsSync(join(guidesProject(), "node_modules", name.replace(/@[^@/]+$/, ""), "package.json")), `${where}: ${name} is installed`);
            }
            continue;
          }
          await exec("bash", ["-c", line], { cwd: dir, env: env() });
        }
      } else if (b.lang === "js" && b.run === "node") {
        // `run file=app.cjs` runs the file it wrote (a CommonJS example); else a .mjs of its own.
        const file = join(dir, b.file ?? `block-${b.line}.mjs`);
        writeFileSync(file, b.code);
        await exec(process.execPath, [file], { cwd: dir, env: env() });
      } else if (b.lang === "js" && b.run === "vitest") {
        const file = `block-${b.line}.test.js`;
        writeFileSync(join(dir, file), b.code);
        await exec(join(guidesProject(), "node_modules", ".bin", "vitest"), ["run", file], { cwd: dir, env: env() });
      } else if (b.lang === "js" && b.run === "worker") {
        // The Worker runs from the wrangler.toml its document gives, as written: what
        // `wrangler dev` needs (main, a compatibility_date, the UPSTREAM_URL variable) is there.
        const toml = list.find((x) => x.file === "wrangler.toml");
        assert.ok(toml, `${where}: a Worker example comes with its wrangler.toml (a toml file=wrangler.toml block)`);
        assert.match(toml.code, /^main = "src\/worker\.js"$/m, `${where}: wrangler.toml names src/worker.js as main`);
        assert.match(toml.code, /^compatibility_date = "\d{4}-\d{2}-\d{2}"$/m, `${where}: wrangler.toml has a compatibility_date`);
        const vars = (toml.code.split(/^\[vars\]$/m)[1] ?? "").split(/^\[/m)[0];
        assert.match(vars, /^UPSTREAM_URL = "https:\/\/[^"]+"$/m, `${where}: wrangler.toml sets UPSTREAM_URL under [vars]`);
        const wdir = join(dir, `worker-${b.line}`);
        mkdirSync(join(wdir, "src"), { recursive: true });
        writeFileSync(join(wdir, "wrangler.toml"), toml.code);
        writeFileSync(join(wdir, "src", "worker.js"), b.code);
        await runWorker(wdir, `${doc.name}-${b.line}`);
      } else if (b.lang === "js" && b.check) {
        const file = join(dir, `check-${b.line}.mjs`);
        writeFileSync(file, b.code);
        await exec(process.execPath, ["--check", file], { cwd: dir });
      } else if (b.lang === "js" && !b.file && !b.run) {
        const marker = Object.keys(EXTERNAL).find((m) => b.code.includes(m));
        assert.ok(marker, `${where}: a js block that nothing runs (mark it run, run=vitest, run=worker, file= or check)`);
        const runner = readFileSync(join(ROOT, EXTERNAL[marker]), "utf8");
        assert.ok(runner.includes(doc.file), `${EXTERNAL[marker]} reads ${doc.file}`);
      } else if (b.lang === "html" && b.run === "chromium") {
        assert.ok(b.expect, `${where}: run=chromium needs expect=TEXT`);
        writeFileSync(join(dir, `page-${b.line}.html`), b.code);
        const puts = await inChromium(`guides/${doc.name}/page-${b.line}.html`, b.click, b.expect);
        // A page that saves: its PUT met the 503, was sent again with the same body, and the 200 ended it.
        if (puts.length) assert.deepEqual([puts.length, new Set(puts).size], [2, 1], `${where}: the PUTs /api/settings received: ${puts}`);
      } else if (b.lang === "rust" && b.run) {
        // A program of its own on the crate (a path dependency), built in the repository's
        // target directory with its Cargo.lock, so nothing is downloaded or built twice.
        const crate = join(dir, `rust-${b.line}`);
        mkdirSync(join(crate, "src"), { recursive: true });
        writeFileSync(join(crate, "Cargo.toml"), `[package]\nname = "guide-example"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n` +
          `[dependencies]\nbackoff-wasm = { path = ${JSON.stringify(ROOT)} }\n\n[workspace]\n`);
        writeFileSync(join(crate, "Cargo.lock"), readFileSync(join(ROOT, "Cargo.lock")));
        writeFileSync(join(crate, "src", "main.rs"), b.code);
        await exec("cargo", ["run", "--offline", "-q"], { cwd: crate, env: { ...env(), CARGO_TARGET_DIR: join(ROOT, "target", "guides") } });
      } else if (b.run) {
        assert.fail(`${where}: run is for js, sh and rust blocks (this one is ${b.lang})`);
      }
    }
  });
}

test("the shipped README: every js and sh block runs here", () => {
  const list = blocks(shippedReadme(ROOT)).filter((b) => b.lang === "js" || b.lang === "sh");
  assert.ok(list.length >= 4);
  for (const b of list) assert.ok(b.run, `README.md block at line ${b.line} (of the shipped part) is marked run`);
});

test("the shipped README is at most 200 lines", () => {
  const shipped = readFileSync(join(ROOT, "pkg", "README.md"), "utf8");
  assert.ok(shipped.split("\n").length <= 200, `pkg/README.md has ${shipped.split("\n").length} lines`);
});

test("the shipped README links every guide of docs/guides/", () => {
  const readme = shippedReadme(ROOT);
  for (const doc of docs.filter((d) => d.name !== "README")) {
    assert.ok(readme.includes(`(https://github.com/backoff-wasm/backoff-wasm/blob/main/${doc.file})`), `README.md links ${doc.file}`);
  }
});
