// Node consumers of the packed tarball: ESM `import`, CommonJS `require`, both
// in one process, and the `backoff-wasm` command through npx.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { project, run } from "./scratch.mjs";
import { expected, probeCommonJS, probeModule, seededFrom } from "./probe.mjs";

const DUAL = String.raw`
// One process, both module systems.
import { createRequire } from "node:module";
import * as esm from "backoff-wasm";
import { nextDelayMs as esmNextDelay } from "backoff-wasm/sigil";
const require = createRequire(import.meta.url);
const cjs = require("backoff-wasm");
const cjsSigil = require("backoff-wasm/sigil");
const cjsDuration = require("backoff-wasm/duration");

function thrown(f) { try { f(); } catch (e) { return e; } throw new Error("did not throw"); }
const fromCjs = thrown(() => cjsSigil.nextDelayMs(1.5));
const fromEsm = thrown(() => esmNextDelay(-1));
const cjsParse = cjsDuration.parse("soon").error;
const esmParse = esm.parseDuration("soon").error;
const cross = esm.createBackoff({ base: 1000, jitter: 0.2, random: cjs.createRandom("worker") }).maxAttempts(6).schedule();
const crossBack = cjs.createBackoff({ base: 1000, jitter: 0.2, random: esm.createRandom("worker") }).maxAttempts(6).schedule();

console.log(JSON.stringify({
  distinctCopies: esm.createBackoff !== cjs.createBackoff,
  resolved: [import.meta.resolve("backoff-wasm"), require.resolve("backoff-wasm")].map((p) => p.replace(/^.*node_modules\//, "")),
  sameValues: JSON.stringify(esm.retrySchedule()) === JSON.stringify(cjs.retrySchedule()),
  cjsErrorIsEsmSigil: fromCjs instanceof esm.SigilError,
  esmErrorIsCjsSigil: fromEsm instanceof cjs.SigilError,
  codes: [fromCjs.code, fromEsm.code],
  messages: [fromCjs.message, fromEsm.message],
  durationErrors: [cjsParse instanceof esm.InvalidDurationError, esmParse instanceof cjs.InvalidDurationError],
  plainErrorIsNotSigil: new Error("x") instanceof esm.SigilError || new Error("x") instanceof cjs.SigilError,
  cross,
  crossBack,
}));
`;

// Every entry point's exports, loaded with `load` (`require` or `import()`), against the root's:
// each is the value of the same name there (or of the root's name for it: /p-retry's default is
// pRetry, /duration's parse is parseDuration); /p-retry's AbortError across the two, both ways.
const sameValues = (load) => `
const subpaths = ["sigil", "backoff", "random", "duration", "policy", "chart", "retry", "p-retry", "queues"];
const root = ${load('"backoff-wasm"')};
const differ = [];
for (const s of subpaths) {
  const entry = ${load("`backoff-wasm/${s}`")};
  for (const [name, value] of Object.entries(entry)) {
    if (name === "__esModule") continue;
    const own = name === "default" ? root.pRetry : name in root ? root[name] : Object.values(root).find((v) => v === value);
    if (own !== value) differ.push(s + " " + name);
  }
}
const pRetry = ${load('"backoff-wasm/p-retry"')};
console.log(JSON.stringify({
  differ,
  abortError: pRetry.AbortError === root.AbortError,
  makeRetriable: pRetry.makeRetriable === root.makeRetriable,
  pRetry: pRetry.default === root.pRetry,
  instanceof: [new pRetry.AbortError("x") instanceof root.AbortError, new root.AbortError("x") instanceof pRetry.AbortError],
}));
`;

const consumer = () =>
  project("node", {
    files: {
      "probe.js": probeModule(),
      "probe.cjs": probeCommonJS(),
      "esm.mjs": `import probe from "./probe.js";\nconsole.log(JSON.stringify(probe()));\n`,
      "cjs.cjs": `"use strict";\nconsole.log(JSON.stringify(require("./probe.cjs")()));\n`,
      "dual.mjs": DUAL,
      "same-values.cjs": `"use strict";${sameValues((m) => `require(${m})`)}`,
      "same-values.mjs": sameValues((m) => `await import(${m})`),
    },
  });

/** The expected probe result, with the seeded schedules computed by the installed package in this process. */
async function want(dir) {
  const mod = await import(pathToFileURL(join(dir, "node_modules", "backoff-wasm", "dist", "esm", "index.js")).href);
  return expected(seededFrom(mod));
}

test("Node ESM consumer: every entry point by `import`", async () => {
  const { dir } = consumer();
  const r = run(process.execPath, ["esm.mjs"], { cwd: dir });
  assert.deepEqual(JSON.parse(r.stdout), await want(dir));
  assert.equal(r.stderr, "");
});

test("Node CommonJS consumer: every entry point by `require`", async () => {
  const { dir } = consumer();
  const r = run(process.execPath, ["cjs.cjs"], { cwd: dir });
  assert.deepEqual(JSON.parse(r.stdout), await want(dir));
  assert.equal(r.stderr, "");
});

test("`require` and `import` in one process: both load, errors are instanceof across them", async () => {
  const { dir } = consumer();
  const r = run(process.execPath, ["dual.mjs"], { cwd: dir });
  const out = JSON.parse(r.stdout);
  const { seededSchedule } = seededFrom(await import(pathToFileURL(join(dir, "node_modules", "backoff-wasm", "dist", "esm", "index.js")).href));
  assert.deepEqual(out, {
    distinctCopies: true,
    // `import` takes the node condition (ESM without top-level await), `require` the CommonJS tree.
    resolved: ["backoff-wasm/dist/node/index.js", "backoff-wasm/dist/cjs/index.js"],
    sameValues: true,
    cjsErrorIsEsmSigil: true,
    esmErrorIsCjsSigil: true,
    codes: ["invalid_argument", "invalid_argument"],
    messages: ["attempt must be an integer >= 1; received 1.5", "attempt must be an integer >= 1; received -1"],
    durationErrors: [true, true],
    plainErrorIsNotSigil: false,
    // A seeded stream of the other copy is an ordinary `Random` there: same draws, same waits.
    cross: seededSchedule,
    crossBack: seededSchedule,
  });
});

test("every entry point exports the root's own values, by `require` and by `import`: /p-retry's AbortError is the root's", () => {
  const { dir } = consumer();
  const want = { differ: [], abortError: true, makeRetriable: true, pRetry: true, instanceof: [true, true] };
  for (const file of ["same-values.cjs", "same-values.mjs"]) {
    const r = run(process.execPath, [file], { cwd: dir });
    assert.deepEqual(JSON.parse(r.stdout), want, file);
    assert.equal(r.stderr, "");
  }
});

test("`npx backoff-wasm schedule` in the consumer prints Sigil's default table", () => {
  const { dir } = consumer();
  const r = run("npx", ["--no", "backoff-wasm", "schedule"], { cwd: dir });
  assert.equal(
    r.stdout,
    [
      "retry   delay   elapsed",
      "    1   1 s     1 s",
      "    2   2 s     3 s",
      "    3   4 s     7 s",
      "    4   8 s     15 s",
      "    5   16 s    31 s",
      "    6   32 s    1 min 3 s",
      "    7   64 s    2 min 7 s",
      "",
      "total window: 2 min 7 s (127000 ms)",
      "total wait bounds: the total window on every run (no jitter)",
      "",
    ].join("\n"),
  );
  const json = run("npx", ["--no", "backoff-wasm", "schedule", "--format", "json", "--attempts", "3"], { cwd: dir });
  assert.deepEqual(JSON.parse(json.stdout).totalMs, 3000);
});

test("the installed package: no runtime dependencies, every exports target and declaration exists", async () => {
  const { dir } = consumer();
  const { existsSync, readFileSync } = await import("node:fs");
  const installed = join(dir, "node_modules", "backoff-wasm");
  const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
  assert.equal(manifest.dependencies, undefined);
  assert.equal(manifest.peerDependencies, undefined);
  assert.equal(manifest.optionalDependencies, undefined);
  const targets = [];
  const walk = (x) => (typeof x === "string" ? targets.push(x) : Object.values(x).forEach(walk));
  walk(manifest.exports);
  assert.deepEqual(targets.filter((t) => !existsSync(join(installed, t))), []);
  const subpaths = Object.keys(manifest.exports).filter((k) => k !== "./package.json");
  assert.deepEqual(subpaths, [".", "./sigil", "./backoff", "./random", "./duration", "./policy", "./chart", "./retry", "./p-retry", "./queues"]);
  for (const s of subpaths) {
    // Declarations in each condition's module format: CommonJS for `require`, ESM otherwise.
    const name = s === "." ? "index" : s.slice(2);
    assert.equal(manifest.exports[s].require.types, `./dist/types/${name}.d.ts`, s);
    assert.equal(manifest.exports[s].default.types, `./dist/types/esm/${name}.d.ts`, s);
    assert.equal(manifest.exports[s].node.types, `./dist/types/esm/${name}.d.ts`, s);
    assert.equal(manifest.exports[s].workerd.types, `./dist/types/esm/${name}.d.ts`, s);
  }
});
