// Jest as a consumer's test runner: the Jest section of docs/guides/testing.md, run as it
// stands. Its suite files (the ```js file=jest/… blocks) are written into a scratch CommonJS
// project (tests/consumers/scratch.mjs: `backoff-wasm` installed from the packed tarball,
// Jest and jest-environment-jsdom at the versions of the repository's devDependencies) and
// run with the real Jest CLI, its JSON report read back:
//   1. the CommonJS files: the default `node` environment, the `jsdom` environment (no
//      customExportConditions) and fake timers driving `retry`, `fetchWithRetry` and `sleep`;
//   2. with NODE_OPTIONS=--experimental-vm-modules, the ESM file beside them;
//   3. control: without the flag the ESM file fails to load, with the error the guide quotes.
// 2 and 3 run again on Node 24 and 26 (scripts/node-matrix.mjs binaries).
// The pinned numbers of the guide are first read from the installed package in plain Node
// (require and import), so the guide's literals are the package's own answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, project } from "./scratch.mjs";
import { blocks } from "../docs/blocks.mjs";
import { nodeBinary } from "../../scripts/node-matrix.mjs";

const GUIDE = "docs/guides/testing.md";
const dev = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies;
const pin = (name) => dev[name].replace(/^\^/, "");
const VERSIONS = { jest: pin("jest"), "jest-environment-jsdom": pin("jest-environment-jsdom") };

/** createBackoff({ base: 1000, jitter: 0.25, seed: "job-1" }).delay(n) for n = 1..5. */
const DELAYS = [1096, 1648, 4064, 7022, 15276];
/** retrySchedule({ jitter: 0.25, random: seededRandom("job-1") }). */
const SCHEDULE = [859, 1549, 3723, 7874, 15767, 28634, 53537];

/** The guide's Jest suite files: path in the project (test/…) → text. */
function guideSuites() {
  const text = readFileSync(join(ROOT, GUIDE), "utf8");
  const files = Object.fromEntries(blocks(text).filter((b) => b.file?.startsWith("jest/"))
    .map((b) => [`test/${b.file.slice("jest/".length)}`, b.code]));
  assert.deepEqual(Object.keys(files).sort(),
    ["test/dom.test.js", "test/esm.test.mjs", "test/seeded.test.js", "test/timers.test.js"], `${GUIDE}: the Jest blocks`);
  return files;
}

const jestProject = () => project("jest", { type: "commonjs", dependencies: VERSIONS, files: guideSuites() });

/** The environment of every run: this process's, less the node:test runner's channel and NODE_OPTIONS (each run sets its own). */
function env(extra = {}) {
  const out = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NODE_TEST_CONTEXT" && k !== "NODE_OPTIONS"));
  return { ...out, NO_COLOR: "1", FORCE_COLOR: "0", ...extra };
}

/**
 * Runs the project's Jest CLI (`jest --ci --runInBand --json`, then `args`); returns the exit
 * status, the output and the parsed JSON report (null when none was written).
 */
function jest(dir, args, extraEnv, node = process.execPath) {
  const report = join(dir, "report.json");
  rmSync(report, { force: true });
  const cli = join(dir, "node_modules", "jest", "bin", "jest.js");
  const r = spawnSync(node,
    [cli, "--ci", "--runInBand", `--cacheDirectory=${join(dir, ".jest-cache")}`, "--json", `--outputFile=${report}`, ...args],
    { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20, env: env({ PATH: `${dirname(node)}:${process.env.PATH}`, ...extraEnv }) });
  const output = `--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
  return { status: r.status, output, report: existsSync(report) ? JSON.parse(readFileSync(report, "utf8")) : null };
}

/** Every test of a report as "file > full name: status", sorted. */
const outcomes = (report) => report.testResults
  .flatMap((f) => f.assertionResults.map((t) => `${f.name.split("/").pop()} > ${t.fullName}: ${t.status}`)).sort();

const CJS_TESTS = [
  "dom.test.js > jsdom: the CommonJS build, the same numbers: passed",
  "seeded.test.js > Jest's require takes the CommonJS build: passed",
  "seeded.test.js > a Sigil schedule with seededRandom is pinned: passed",
  "seeded.test.js > keyed jitter: delay(n) is a pure function of (seed, n): passed",
  "timers.test.js > fetchWithRetry with a mocked fetch: Retry-After waits in fake time: passed",
  "timers.test.js > sleep resolves when fake time reaches it, also past 2^31 - 1 ms: passed",
  "timers.test.js > each wait ends exactly at its delay; the last failure rejects with RetryError: passed",
  "timers.test.js > retry waits delay(1), delay(2), delay(3) in fake time: passed",
  "timers.test.js > the synchronous jest.advanceTimersByTime does not reach the next attempt: passed",
];
const ESM_TESTS = [
  "esm.test.mjs > ESM: the import takes the ESM build: passed",
  "esm.test.mjs > ESM: keyed jitter and a seeded Sigil schedule: passed",
  "esm.test.mjs > ESM: retry under fake timers: passed",
];

/** Asserts a passing run of exactly `expected` tests, none skipped. */
function assertPassed({ status, output, report }, expected) {
  assert.equal(status, 0, output);
  assert.ok(report, `no JSON report\n${output}`);
  assert.deepEqual(outcomes(report), [...expected].sort(), output);
  assert.deepEqual([report.numTotalTests, report.numPassedTests, report.numPendingTests, report.numTodoTests, report.success],
    [expected.length, expected.length, 0, 0, true], output);
}

test("the guide's pinned numbers are the installed package's answers in plain Node (require and import)", () => {
  const { dir } = jestProject();
  const cjs = `const { createBackoff } = require("backoff-wasm/backoff");
const { retrySchedule, seededRandom } = require("backoff-wasm/sigil");
const p = createBackoff({ base: 1000, jitter: 0.25, seed: "job-1" });
console.log(JSON.stringify([[1, 2, 3, 4, 5].map((n) => p.delay(n)), retrySchedule({ jitter: 0.25, random: seededRandom("job-1") })]));`;
  const esm = `import { createBackoff } from "backoff-wasm/backoff";
import { retrySchedule, seededRandom } from "backoff-wasm/sigil";
const p = createBackoff({ base: 1000, jitter: 0.25, seed: "job-1" });
console.log(JSON.stringify([[1, 2, 3, 4, 5].map((n) => p.delay(n)), retrySchedule({ jitter: 0.25, random: seededRandom("job-1") })]));`;
  for (const [flag, code] of [["--input-type=commonjs", cjs], ["--input-type=module", esm]]) {
    const r = spawnSync(process.execPath, [flag, "-e", code], { cwd: dir, encoding: "utf8", env: env() });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [DELAYS, SCHEDULE], flag);
  }
  // The guide pins exactly these, in every Jest file.
  const suites = guideSuites();
  for (const file of ["test/seeded.test.js", "test/esm.test.mjs"]) {
    assert.ok(suites[file].includes(JSON.stringify(DELAYS).replaceAll(",", ", ")), `${file} pins delay(1..5)`);
  }
  for (const file of ["test/seeded.test.js", "test/dom.test.js", "test/esm.test.mjs"]) {
    assert.ok(suites[file].includes(JSON.stringify(SCHEDULE).replaceAll(",", ", ")), `${file} pins the Sigil schedule`);
  }
});

test(`Jest ${VERSIONS.jest}: the guide's CommonJS suites pass (node and jsdom environments, fake timers driving retry)`, () => {
  const { dir } = jestProject();
  // The CommonJS files only: without the flag the .mjs file cannot load (the control below).
  const run = jest(dir, ["\\.test\\.js$"]);
  assertPassed(run, CJS_TESTS);
  const dom = run.report.testResults.find((f) => f.name.endsWith("dom.test.js"));
  assert.equal(dom.status, "passed");
});

test(`Jest ${VERSIONS.jest} with NODE_OPTIONS=--experimental-vm-modules: the ESM suite passes beside the CommonJS ones`, () => {
  const { dir } = jestProject();
  assertPassed(jest(dir, [], { NODE_OPTIONS: "--experimental-vm-modules" }), [...CJS_TESTS, ...ESM_TESTS]);
});

/** The control: the ESM file alone, without the flag, fails to load with the error the guide quotes. */
function assertEsmNeedsFlag(dir, node) {
  const { status, output, report } = jest(dir, ["esm\\.test\\.mjs$"], {}, node);
  assert.equal(status, 1, output);
  assert.ok(report, `no JSON report\n${output}`);
  assert.deepEqual([report.numTotalTests, report.numFailedTestSuites, report.numRuntimeErrorTestSuites, report.success],
    [0, 1, 1, false], output);
  const message = `Must use import to load ES Module: ${join(dir, "test", "esm.test.mjs")}`;
  assert.ok(report.testResults[0].message.includes(message), output);
  assert.match(output, /Test suite failed to run/);
  const guide = readFileSync(join(ROOT, GUIDE), "utf8");
  assert.ok(guide.includes("`Must use import to load ES Module: …/test/esm.test.mjs`"), `${GUIDE} quotes the error`);
}

test("control: without --experimental-vm-modules Jest fails to load the ESM file, with the error the guide quotes", () => {
  assertEsmNeedsFlag(jestProject().dir);
});

// The same on the newer Nodes of the matrix (scripts/node-matrix.mjs). Without one of them the
// test is skipped, except with CI=true, where it runs and fails.
for (const major of [24, 26]) {
  const node = nodeBinary(major);
  const skip = !node && process.env.CI !== "true" && `Node ${major} is not installed (scripts/setup.sh --for test)`;
  test(`Jest ${VERSIONS.jest} on Node ${major}: every suite passes with the flag; without it the ESM file fails to load`, { skip }, () => {
    assert.ok(node, `Node ${major} is not installed: run scripts/setup.sh --for test`);
    const { dir } = jestProject();
    const run = jest(dir, [], { NODE_OPTIONS: "--experimental-vm-modules" }, node);
    assertPassed(run, [...CJS_TESTS, ...ESM_TESTS]);
    assertEsmNeedsFlag(dir, node);
  });
}
