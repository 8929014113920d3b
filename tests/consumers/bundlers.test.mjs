// The same page built by bundlers with no plugin and no configuration on the
// consumer side: esbuild (platform browser) and Vite (`vite build`, and the
// `vite` dev server, whose dependency pre-bundling rewrites packages), each
// loaded in headless Chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inChromium, project, run, serveStatic } from "./scratch.mjs";
import { expected, PAGE_MAIN, probeModule, probePage, seededFrom } from "./probe.mjs";

/** Pinned bundler versions (Vite 8 needs Node ^20.19 or >= 22.12). */
export const VERSIONS = { esbuild: "0.28.2", vite: "8.4.0" };

const consumer = () =>
  project("bundlers", {
    dependencies: VERSIONS,
    files: {
      "src/probe.js": probeModule(),
      "src/main.js": PAGE_MAIN,
      // Vite's entry: index.html at the project root.
      "index.html": probePage({ moduleSrc: "/src/main.js" }),
      "out-esbuild/index.html": probePage({ moduleSrc: "./main.js" }),
    },
  });

async function want(dir) {
  const mod = await import(pathToFileURL(join(dir, "node_modules", "backoff-wasm", "dist", "esm", "index.js")).href);
  return expected(seededFrom(mod));
}

/** Loads `page` under a static server of `root` in Chromium and checks the probe. */
async function check(root, page, dir) {
  const server = await serveStatic(root);
  try {
    const [{ result, errors }] = await inChromium([`${server.url}/${page}`]);
    assert.deepEqual(errors, []);
    assert.deepEqual(result, await want(dir));
  } finally {
    await server.close();
  }
}

test("esbuild --bundle --platform=browser: the bundle runs in Chromium", async () => {
  const { dir } = consumer();
  run(join(dir, "node_modules", ".bin", "esbuild"),
    ["src/main.js", "--bundle", "--platform=browser", "--format=esm", "--log-level=warning", "--outfile=out-esbuild/main.js"],
    { cwd: dir });
  const bundle = readFileSync(join(dir, "out-esbuild", "main.js"), "utf8");
  assert.ok(!bundle.includes("node:fs"), "the browser condition must keep Node's loader out");
  await check(join(dir, "out-esbuild"), "index.html", dir);
});

test("vite build (no config): the built page runs in Chromium", async () => {
  const { dir } = consumer();
  const r = run(join(dir, "node_modules", ".bin", "vite"), ["build", "--logLevel", "warn"], { cwd: dir });
  assert.doesNotMatch(r.stderr + r.stdout, /warn|error/i);
  const assets = readdirSync(join(dir, "dist", "assets"));
  assert.deepEqual(assets.filter((f) => !f.endsWith(".js")), [], "no separate .wasm asset");
  await check(join(dir, "dist"), "index.html", dir);
});

test("vite dev server (no config, dependency pre-bundling): the page runs in Chromium", async () => {
  const { dir } = consumer();
  const cacheDir = join(dir, "node_modules", ".vite");
  const child = spawn(join(dir, "node_modules", ".bin", "vite"),
    ["--host", "127.0.0.1", "--port", "0", "--strictPort", "--force", "--clearScreen", "false"],
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`vite did not start:\n${output}`)), 60000);
      const onData = (chunk) => {
        output += chunk;
        const m = /Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ""));
        if (m) { clearTimeout(timer); resolve(m[1]); }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`vite exited ${code}:\n${output}`)); });
    });
    const [{ result, errors }] = await inChromium([url]);
    assert.deepEqual(errors, [], output);
    assert.deepEqual(result, await want(dir));
    assert.ok(existsSync(join(cacheDir, "deps")), "vite pre-bundled the dependency");
    assert.doesNotMatch(output.replace(/\x1b\[[0-9;]*m/g, ""), /error/i);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  }
});
