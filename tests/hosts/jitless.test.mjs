// Hosts without WebAssembly: `node --jitless` has no WebAssembly global (JIT-less hosts such as
// iOS Lockdown Mode refuse it the same way), so the package runs on its JavaScript build. On
// every Node of the matrix (this one, and 22, 24 and 26 from scripts/node-matrix.mjs):
// - the README's example, from the packed tarball installed into a scratch project, prints
//   the same schedule with `import` and with `require`;
// - the numeric test files (the cross-runtime vectors against native Rust, the shared cases
//   of /backoff, /sigil, /random, /duration and /policy, retry in p-retry's form) pass under
//   --jitless as they pass with WebAssembly. Node's own fetch, Request and Response (undici)
//   compile WebAssembly (its HTTP parser, llhttp) and throw "WebAssembly is not defined"
//   under --jitless, so the files that build a Response or call fetch cannot run there.
// A Node of the matrix that is not installed fails under CI=true and is reported otherwise.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { MAJORS, nodeBinary } from "../../scripts/node-matrix.mjs";
import { project } from "../consumers/scratch.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const README_SCHEDULE = "[ 803, 1697, 4533, 7588, 18352 ]";
const OPTIONS = `{ base: "1 second", max: "1 minute", jitter: 0.2, seed: "suite", maxAttempts: 6 }`;
const NUMERIC_FILES = [
  "tests/js/cross-runtime.test.mjs", "tests/js/backoff.test.mjs", "tests/js/sigil.test.mjs", "tests/js/random.test.mjs",
  "tests/js/duration.test.mjs", "tests/js/policy.test.mjs", "tests/retry/p-retry.test.mjs",
];

const nodes = [["this Node", process.execPath], ...MAJORS.map((m) => [`Node ${m}`, nodeBinary(m)])];

/** Runs `node --jitless ...args` with the binary `bin`; returns the result (the child's PATH finds the same Node). */
function jitless(bin, args, cwd) {
  const env = { ...process.env, PATH: `${dirname(bin)}:${process.env.PATH}` };
  delete env.NODE_TEST_CONTEXT; // the child runs its own tests and reports them as TAP here
  return spawnSync(bin, ["--jitless", ...args], { cwd, encoding: "utf8", maxBuffer: 64 << 20, env });
}

for (const [label, bin] of nodes) {
  const missing = !bin && (process.env.CI === "true" ? false : `not installed (scripts/setup.sh --for test installs it)`);
  test(`${label} --jitless: no WebAssembly, and the README's example prints ${README_SCHEDULE} from the tarball (import and require)`, { skip: missing }, () => {
    assert.ok(bin, `${label} is not installed (scripts/setup.sh --for test installs it; CI=true fails here)`);
    const { dir } = project("jitless");
    const probe = jitless(bin, ["-p", "typeof WebAssembly"], dir);
    assert.equal(probe.stdout.trim(), "undefined");
    const esm = jitless(bin, ["-e", `import("backoff-wasm").then(m => console.log(m.createBackoff(${OPTIONS}).schedule()))`], dir);
    assert.equal(esm.stdout.trim(), README_SCHEDULE, esm.stderr);
    const cjs = jitless(bin, ["-e", `console.log(require("backoff-wasm").createBackoff(${OPTIONS}).schedule())`], dir);
    assert.equal(cjs.stdout.trim(), README_SCHEDULE, cjs.stderr);
  });

  test(`${label} --jitless: the numeric test files pass on the JavaScript build`, { skip: missing }, () => {
    assert.ok(bin, `${label} is not installed (scripts/setup.sh --for test installs it; CI=true fails here)`);
    const r = jitless(bin, ["--test", "--test-concurrency=1", "--test-reporter=tap", ...NUMERIC_FILES], root);
    const fails = r.stdout.split("\n").filter((l) => /^\s*not ok /.test(l));
    assert.equal(r.status, 0, `${fails.slice(0, 10).join("\n")}\n${r.stderr.slice(-2000)}`);
    const passed = Number(/^# pass (\d+)$/m.exec(r.stdout)?.[1]);
    assert.ok(passed > 100, `${passed} tests passed`);
  });
}
