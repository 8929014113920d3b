// Hosts without WebAssembly: `node --jitless` has no WebAssembly global (JIT-less hosts such as
// iOS Lockdown Mode refuse it the same way), so the package runs on its JavaScript build. On
// every Node of the matrix (this one, and 22, 24 and 26 from scripts/node-matrix.mjs):
// - the README's example, from the packed tarball installed into a scratch project, prints
//   the same schedule with `import` and with `require`;
// - the numeric test files (the cross-runtime vectors against native Rust, the shared cases
//   of /backoff, /sigil, /random, /duration and /policy, retry in p-retry's form) pass under
//   --jitless as they pass with WebAssembly;
// - fetchWithRetry and retry against a server on 127.0.0.1 and the queue helpers give the
//   same numbers under --jitless as with WebAssembly (and Node's own fetch), on Node 24 and
//   later with a fetch on node:http (tests/hosts/http-fetch.mjs): Node's own fetch parses HTTP
//   with llhttp compiled to WebAssembly (undici) and rejects with "fetch failed" there. On
//   Node 20 and 22 loading undici at all (fetch, Request, Response) ends a --jitless process
//   with an uncaught "WebAssembly is not defined": that is checked as the README says it.
// The numeric files run on every Node at once (one child process each); the rest runs Node by Node.
// A Node of the matrix that is not installed fails under CI=true and is reported otherwise.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
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

/**
 * fetchWithRetry (a seeded policy; 503, 502, 429 with Retry-After: 0, then 200; a PUT with a
 * body), retry and the queue helpers: what the app prints, with the waits each call took.
 */
const HTTP_APP = `import http from "node:http";
const { createBackoff, retry, fetchWithRetry, retryAfterMs } = await import("backoff-wasm");
const { retryMessage, bullmqBackoff } = await import("backoff-wasm/queues");
const answers = { "/a": [503, 502, 429, 200], "/b": [503, 200] };
const seen = {};
const server = http.createServer((req, res) => {
  const n = (seen[req.url] = (seen[req.url] ?? 0) + 1);
  const status = answers[req.url][Math.min(n, answers[req.url].length) - 1];
  res.writeHead(status, status === 429 ? { "retry-after": "0" } : {}).end(status === 200 ? "ok " + req.url : "busy");
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = "http://127.0.0.1:" + server.address().port;
const policy = (seed) => createBackoff({ base: 5, max: 40, jitter: 0.5, seed, maxAttempts: 5 });
const waits = [];
const a = await fetchWithRetry(url + "/a", undefined, { policy: policy("jitless a"), onRetry: (e) => waits.push(["a", e.attempt, e.delayMs]) });
const b = await fetchWithRetry(url + "/b", { method: "PUT", body: "x" }, { policy: policy("jitless b"), onRetry: (e) => waits.push(["b", e.attempt, e.delayMs]) });
let calls = 0;
const r = await retry(() => { if (++calls < 4) throw new Error("fail " + calls); return calls; }, policy("jitless r"), { onRetry: (e) => waits.push(["r", e.attempt, e.delayMs]) });
const message = (id, attempts) => ({ id, attempts, retry() {}, ack() {} });
const jittered = createBackoff({ base: "10 seconds", max: "1 hour", jitter: 0.5 });
server.close();
console.log(JSON.stringify({
  a: [a.status, await a.text()], b: [b.status, await b.text()], r, seen, waits,
  retryAfter: retryAfterMs(new Response("", { status: 503, headers: { "retry-after": "120" } })),
  queues: [1, 2, 3, 4].map((n) => retryMessage(message("m", n), jittered)),
  bullmq: [1, 2, 3].map((n) => bullmqBackoff(jittered)(n, "t", new Error("x"), { id: "7", queueName: "q" })),
}));
`;
const HTTP_FETCH = fileURLToPath(new URL("./http-fetch.mjs", import.meta.url));

/** The environment of a `node --jitless` child run with the binary `bin` (its PATH finds the same Node). */
function jitlessEnv(bin, extra = {}) {
  const env = { ...process.env, PATH: `${dirname(bin)}:${process.env.PATH}`, ...extra };
  delete env.NODE_TEST_CONTEXT; // the child runs its own tests and reports them as TAP here
  return env;
}

/** Runs `node --jitless ...args` with the binary `bin`; returns the result. */
function jitless(bin, args, cwd) {
  return spawnSync(bin, ["--jitless", ...args], { cwd, encoding: "utf8", maxBuffer: 64 << 20, env: jitlessEnv(bin) });
}

/**
 * Starts `node --jitless ...args` with the binary `bin` and `extra` environment variables;
 * resolves (never rejects) with `{ status, stdout, stderr }` once it has exited (`status` is null and
 * `stderr` says why when it could not start).
 */
function jitlessAsync(bin, args, cwd, extra) {
  return new Promise((resolve) => {
    const child = spawn(bin, ["--jitless", ...args], { cwd, env: jitlessEnv(bin, extra), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("error", (e) => resolve({ status: null, stdout, stderr: `${stderr}${e}` }));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

let numericRuns;
/**
 * The numeric files under --jitless on `bin`: the first call starts them on every installed Node
 * of the matrix at once (each child with its own TEST_SCRATCH_TAG, tests/scratch-dir.mjs), and
 * each call resolves with its Node's result.
 */
function numericRun(bin) {
  numericRuns ??= new Map(nodes.filter(([, b]) => b).map(([label, b]) => {
    const tag = [process.env.TEST_SCRATCH_TAG, `jitless-${label.replaceAll(" ", "-").toLowerCase()}`].filter(Boolean).join("-");
    return [b, jitlessAsync(b, ["--test", "--test-concurrency=1", "--test-reporter=tap", ...NUMERIC_FILES], root, { TEST_SCRATCH_TAG: tag })];
  }));
  return numericRuns.get(bin);
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

  test(`${label} --jitless: the numeric test files pass on the JavaScript build`, { skip: missing }, async () => {
    assert.ok(bin, `${label} is not installed (scripts/setup.sh --for test installs it; CI=true fails here)`);
    const r = await numericRun(bin);
    const fails = r.stdout.split("\n").filter((l) => /^\s*not ok /.test(l));
    assert.equal(r.status, 0, `${fails.slice(0, 10).join("\n")}\n${r.stderr.slice(-2000)}`);
    const passed = Number(/^# pass (\d+)$/m.exec(r.stdout)?.[1]);
    assert.ok(passed > 100, `${passed} tests passed`);
  });
}

for (const [label, bin] of nodes) {
  const missing = !bin && (process.env.CI === "true" ? false : `not installed (scripts/setup.sh --for test installs it)`);
  test(`${label} --jitless: fetchWithRetry and retry against a local server and the queue helpers give the numbers they give with WebAssembly`, { skip: missing }, () => {
    assert.ok(bin, `${label} is not installed (scripts/setup.sh --for test installs it; CI=true fails here)`);
    const { dir } = project("jitless-http");
    writeFileSync(join(dir, "app.mjs"), HTTP_APP);
    const major = Number(spawnSync(bin, ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).stdout);
    if (major < 24) {
      // Node 20 and 22: undici, once loaded, compiles llhttp and ends the process (README, Compatibility).
      const r = jitless(bin, ["-e", `new Response("x"); setTimeout(() => console.log("still running"), 500);`], dir);
      assert.notEqual(r.status, 0, r.stdout);
      assert.match(r.stderr, /ReferenceError: WebAssembly is not defined[\s\S]*undici/);
      return;
    }
    const withWasm = spawnSync(bin, ["app.mjs"], { cwd: dir, encoding: "utf8" });
    assert.equal(withWasm.status, 0, withWasm.stderr);
    const own = jitless(bin, ["-e", `const s = require("node:http").createServer((q, r) => r.end()).listen(0, "127.0.0.1", () =>
      fetch("http://127.0.0.1:" + s.address().port).catch((e) => console.log(e.message, /WebAssembly/.test(e.cause?.message))).finally(() => s.close()));`], dir);
    assert.equal(own.stdout.trim(), "fetch failed true", "Node's own fetch under --jitless");
    const r = jitless(bin, ["--import", HTTP_FETCH, "app.mjs"], dir);
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout);
    assert.deepEqual(got, JSON.parse(withWasm.stdout));
    assert.deepEqual([got.a, got.b, got.r, got.seen], [[200, "ok /a"], [200, "ok /b"], 4, { "/a": 4, "/b": 2 }]);
    assert.equal(got.waits.length, 7);
  });
}
