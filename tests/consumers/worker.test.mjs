// A Cloudflare Worker run in real workerd through the `miniflare` package.
// The module worker imports `backoff-wasm`; it is bundled the way Wrangler
// bundles: esbuild with conditions workerd/worker/browser, and every .wasm
// import kept external, copied beside the bundle and loaded by workerd as a
// CompiledWasm module (workerd forbids compiling wasm from bytes at run time).
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { project } from "./scratch.mjs";
import { expected, probeModule, seededFrom } from "./probe.mjs";

/** Pinned versions: the last miniflare whose engines allow Node 20 (later ones ask for Node 22). */
export const VERSIONS = { esbuild: "0.28.2", miniflare: "4.20260426.0" };
/**
 * workerd refuses `new WebAssembly.Module(bytes)` inside a request at every
 * compatibility date; during startup it allows it from compatibility dates in
 * 2025-06 on (refused up to 2025-05 by the pinned workerd). The
 * worker must load under both.
 */
const DATES = { old: "2025-01-01", recent: "2026-04-01" };

const WORKER = `import { createBackoff, createRandom } from "backoff-wasm";
import probe from "./probe.js";

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === "/schedule") {
      const policy = createBackoff({ base: 1000, jitter: 0.2, random: createRandom("worker") }).maxAttempts(6);
      return Response.json(policy.schedule());
    }
    try {
      return Response.json(probe());
    } catch (e) {
      return new Response(String(e && e.stack || e), { status: 500 });
    }
  },
};
`;

const consumer = () =>
  project("worker", { dependencies: VERSIONS, files: { "src/worker.js": WORKER, "src/probe.js": probeModule() } });

/**
 * Bundles src/worker.js into `out/` as Wrangler does; `.wasm` imports become
 * external modules beside the bundle. Returns the bundle's path.
 */
async function bundle(dir, conditions, out) {
  const require = createRequire(join(dir, "package.json"));
  const esbuild = require("esbuild");
  const outdir = join(dir, out);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const wasmModules = {
    name: "wasm-modules",
    setup(build) {
      build.onResolve({ filter: /\.wasm$/ }, (args) => {
        const file = resolve(args.resolveDir, args.path);
        copyFileSync(file, join(outdir, basename(file)));
        return { path: `./${basename(file)}`, external: true };
      });
    },
  };
  await esbuild.build({
    absWorkingDir: dir,
    entryPoints: ["src/worker.js"],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions,
    mainFields: ["browser", "module", "main"],
    outfile: join(outdir, "worker.js"),
    plugins: [wasmModules],
    logLevel: "silent",
  });
  return join(outdir, "worker.js");
}

/**
 * Starts workerd on the bundle, fetches each path, stops it. workerd's own
 * output is collected into `log` (and put in the error when it fails).
 */
async function inWorkerd(dir, scriptPath, paths, compatibilityDate, log = []) {
  const require = createRequire(join(dir, "package.json"));
  const { Miniflare } = require("miniflare");
  const mf = new Miniflare({
    modules: true,
    scriptPath,
    modulesRoot: dirname(scriptPath),
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate,
    host: "127.0.0.1",
    handleRuntimeStdio(stdout, stderr) {
      stdout.on("data", (b) => log.push(String(b)));
      stderr.on("data", (b) => log.push(String(b)));
    },
  });
  try {
    await mf.ready;
    const out = [];
    for (const path of paths) {
      const res = await mf.dispatchFetch(`http://localhost${path}`);
      const body = await res.text();
      assert.equal(res.status, 200, body);
      out.push(JSON.parse(body));
    }
    return out;
  } catch (e) {
    e.message += `\n--- workerd\n${log.join("")}`;
    throw e;
  } finally {
    await mf.dispose();
  }
}

async function inNode(dir) {
  return import(pathToFileURL(join(dir, "node_modules", "backoff-wasm", "dist", "esm", "index.js")).href);
}

test("Cloudflare Worker in workerd (miniflare): the workerd loader serves a seeded schedule and every entry point", async () => {
  const { dir } = consumer();
  const script = await bundle(dir, ["workerd", "worker", "browser"], "out-workerd");
  assert.deepEqual(readdirSync(join(dir, "out-workerd")).sort(), ["backoff_wasm_bg.wasm", "worker.js"]);
  const node = await inNode(dir);
  const want = node.createBackoff({ base: 1000, jitter: 0.2, random: node.createRandom("worker") }).maxAttempts(6).schedule();
  for (const date of [DATES.old, DATES.recent]) {
    const [schedule, probed] = await inWorkerd(dir, script, ["/schedule", "/probe"], date);
    assert.equal(schedule.length, 5, date);
    assert.deepEqual(schedule, want, date);
    assert.deepEqual(probed, expected(seededFrom(node)), date);
  }
});

test("workerd at an older compatibility date refuses wasm compiled from bytes: the browser build runs on the JavaScript build, same numbers", async () => {
  const { dir } = consumer();
  const script = await bundle(dir, ["browser"], "out-browser");
  const node = await inNode(dir);
  const want = node.createBackoff({ base: 1000, jitter: 0.2, random: node.createRandom("worker") }).maxAttempts(6).schedule();
  const [schedule] = await inWorkerd(dir, script, ["/schedule"], DATES.old);
  assert.deepEqual(schedule, want);
});
