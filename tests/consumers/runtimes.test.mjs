// Bun and Deno as consumers of the packed tarball. Both runtimes come from npm
// (the `bun` and `deno` packages carry their binaries in per-platform optional
// dependencies; their postinstall only links them, no download), installed
// into one scratch project next to `backoff-wasm`. Each runs the cross-runtime
// probe over every entry point and a few pinned seeded values, and reports the
// file it resolved, which shows the export condition it took:
//   Bun  `import` → the `node` condition → dist/node (ESM, wasm inlined, no top-level await),
//   Bun  `require` → dist/cjs,
//   Deno (bare specifiers and `npm:` specifiers, local node_modules) → the
//        `node` condition → dist/node (wasm inlined), so a Deno program
//        needs no --allow-read to import the package. It runs here with NO
//        permission flags at all.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { project, run } from "./scratch.mjs";
import { expected, probeCommonJS, probeModule, seededFrom } from "./probe.mjs";

/** Pinned runtime versions (the npm packages' own versions). */
export const VERSIONS = { bun: "1.4.5", deno: "2.9.6" };

/**
 * The probe's two seeded jitter schedules, pinned (API.md sections 2–3; checked
 * against an independent plain-JS sfc32 + seed hash): `createBackoff({ base:
 * 1000, jitter: 0.2, random: createRandom("worker") }).maxAttempts(6).schedule()`
 * and the `"full"` jitter schedule seeded with 7.
 */
const SEEDED = { seededSchedule: [872, 1850, 4310, 6574, 16897], fullJitter: [579, 284, 1308] };

/** The same pinned values as the Vitest consumer suite (tests/consumers/vitest-consumer.suite.js). */
const PINNED = { delay3: 4429, sigil: [927, 1795, 3522, 7701, 15690, 30895, 61860], keyed: 4648 };

const PINNED_ESM = (spec) => `import { createBackoff, createRandom, retrySchedule, seededRandom } from "${spec}";
export default function pinned() {
  return {
    delay3: createBackoff({ base: 1000, jitter: 0.2, random: createRandom("test") }).delay(3),
    sigil: retrySchedule({ jitter: 0.2, random: seededRandom("delivery-1") }),
    keyed: createBackoff({ base: 1000, jitter: 0.2, seed: "test" }).delay(3),
  };
}
`;

/** main: prints { probe, pinned, resolved } as one JSON line. */
const MAIN = (probeFile, pinnedFile, spec) => `import probe from "./${probeFile}";
import pinned from "./${pinnedFile}";
console.log(JSON.stringify({
  probe: probe(),
  pinned: pinned(),
  resolved: import.meta.resolve("${spec}").replace(/^.*node_modules\\//, ""),
}));
`;

/** Deno type-checks against the package's .d.ts (the "types" condition); the
 * expect-error line fails the check if the types were missing (any). */
const CHECK_TS = `import { createBackoff, type Backoff } from "backoff-wasm";
import { nextDelayMs, SigilError } from "backoff-wasm/sigil";
import { createRandom, type SeededRandom } from "backoff-wasm/random";
import { parse } from "backoff-wasm/duration";
import { Backoff as Policy } from "backoff-wasm/policy";
import { retryAfterMs } from "backoff-wasm/retry";

const policy: Backoff = createBackoff({ base: "1 second", jitter: 0.2, random: createRandom("test") });
const fluent: Policy = Policy.exponential("2 seconds").cap("5 minutes");
const stream: SeededRandom = createRandom(42);
const wait: number = nextDelayMs(3);
const parsed = parse("5 minutes");
const ms: number = parsed.status === "success" ? parsed.data : -1;
const after: number | undefined = retryAfterMs("120");
// @ts-expect-error delay() returns a number
const wrong: string = policy.delay(2);
console.log(policy.delay(1), fluent.delay(1), stream.seed, wait, ms, after, wrong, new SigilError("invalid_argument", "x").code);
`;

const consumer = () =>
  project("runtimes", {
    dependencies: VERSIONS,
    files: {
      "probe.js": probeModule(),
      "probe-npm.js": probeModule((_, bare) => `npm:${bare}`),
      "probe.cjs": probeCommonJS(),
      "pinned.js": PINNED_ESM("backoff-wasm"),
      "pinned-npm.js": PINNED_ESM("npm:backoff-wasm"),
      "main.js": MAIN("probe.js", "pinned.js", "backoff-wasm"),
      "main-npm.js": MAIN("probe-npm.js", "pinned-npm.js", "npm:backoff-wasm"),
      "check.ts": CHECK_TS,
      "main.cjs": `"use strict";
const { createBackoff, createRandom, retrySchedule, seededRandom } = require("backoff-wasm");
console.log(JSON.stringify({
  probe: require("./probe.cjs")(),
  pinned: {
    delay3: createBackoff({ base: 1000, jitter: 0.2, random: createRandom("test") }).delay(3),
    sigil: retrySchedule({ jitter: 0.2, random: seededRandom("delivery-1") }),
    keyed: createBackoff({ base: 1000, jitter: 0.2, seed: "test" }).delay(3),
  },
  resolved: require.resolve("backoff-wasm").replace(/^.*node_modules\\//, ""),
}));
`,
    },
  });

/** Runs a runtime binary from the project's node_modules/.bin; returns its one JSON line. */
function runIn(dir, bin, args) {
  const env = { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1", BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" };
  const r = run(join(dir, "node_modules", ".bin", bin), args, { cwd: dir, env });
  const lines = r.stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1]);
}

test("the pinned seeded schedules agree with the package in Node", async () => {
  const { dir } = consumer();
  const mod = await import(pathToFileURL(join(dir, "node_modules", "backoff-wasm", "dist", "esm", "index.js")).href);
  assert.deepEqual(seededFrom(mod), SEEDED);
});

test(`Bun ${VERSIONS.bun}: every entry point by import (dist/node)`, () => {
  const { dir } = consumer();
  assert.equal(run(join(dir, "node_modules", ".bin", "bun"), ["--version"], { cwd: dir }).stdout.trim(), VERSIONS.bun);
  const out = runIn(dir, "bun", ["main.js"]);
  assert.equal(out.resolved, "backoff-wasm/dist/node/index.js");
  assert.deepEqual(out.pinned, PINNED);
  assert.deepEqual(out.probe, expected(SEEDED));
});

test(`Bun ${VERSIONS.bun}: every entry point by require (dist/cjs)`, () => {
  const { dir } = consumer();
  const out = runIn(dir, "bun", ["main.cjs"]);
  assert.equal(out.resolved, "backoff-wasm/dist/cjs/index.js");
  assert.deepEqual(out.pinned, PINNED);
  assert.deepEqual(out.probe, expected(SEEDED));
});

test(`Deno ${VERSIONS.deno}: bare specifiers from package.json + node_modules, no permission flags (node condition, dist/node)`, () => {
  const { dir } = consumer();
  assert.match(run(join(dir, "node_modules", ".bin", "deno"), ["--version"], { cwd: dir }).stdout, new RegExp(`^deno ${VERSIONS.deno.replace(/\./g, "\\.")} `));
  const out = runIn(dir, "deno", ["run", "--no-prompt", "main.js"]);
  assert.equal(out.resolved, "backoff-wasm/dist/node/index.js");
  assert.deepEqual(out.pinned, PINNED);
  assert.deepEqual(out.probe, expected(SEEDED));
});

test(`Deno ${VERSIONS.deno}: npm: specifiers with --node-modules-dir=manual (offline: the local install is used)`, () => {
  const { dir } = consumer();
  const out = runIn(dir, "deno", ["run", "--no-prompt", "--node-modules-dir=manual", "main-npm.js"]);
  assert.equal(out.resolved, "backoff-wasm/dist/node/index.js");
  assert.deepEqual(out.pinned, PINNED);
  assert.deepEqual(out.probe, expected(SEEDED));
});

test(`Deno ${VERSIONS.deno}: deno check type-checks every entry point against the package's .d.ts`, () => {
  const { dir } = consumer();
  run(join(dir, "node_modules", ".bin", "deno"), ["check", "--quiet", "check.ts"], {
    cwd: dir, env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
  });
});
