// React Native's Hermes has no WebAssembly: resolved through the `react-native` condition, the
// package runs on its JavaScript build there. A real Hermes (the npm package hermes-engine-cli,
// 0.12: its Linux `hermes`) runs an app bundled as Metro would give it: esbuild resolves
// `backoff-wasm` with the react-native condition into one script, and Babel's preset-env lowers
// what this Hermes lacks (classes, private fields, async functions: React Native's Babel
// preset does the same), with regenerator-runtime and `globalThis` as React Native provides
// them. The app prints the README's seeded schedule.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { transformSync } from "@babel/core";

const root = fileURLToPath(new URL("../../", import.meta.url));
const HERMES = join(root, "node_modules", "hermes-engine-cli", "linux64-bin", "hermes");

const APP = `const { createBackoff } = require("backoff-wasm");
print(typeof WebAssembly, JSON.stringify(createBackoff({ base: "1 second", max: "1 minute", jitter: 0.2, seed: "suite", maxAttempts: 6 }).schedule()));
`;

test("Hermes: the react-native build computes the README's seeded schedule without WebAssembly", { skip: process.platform !== "linux" && process.env.CI !== "true" && "hermes-engine-cli ships this test's binary for Linux" }, () => {
  assert.ok(existsSync(HERMES), `${HERMES} is missing (npm ci installs hermes-engine-cli)`);
  const bundled = buildSync({
    stdin: { contents: APP, resolveDir: root }, bundle: true, write: false, format: "iife", platform: "neutral",
    conditions: ["react-native"], mainFields: ["main"], alias: { "backoff-wasm": join(root, "pkg") }, target: "es2016", logLevel: "error",
  }).outputFiles[0].text;
  assert.match(bundled, /wasm-js|function instantiate\(/, "the bundle carries the JavaScript build");
  const lowered = transformSync(bundled, {
    babelrc: false, configFile: false, compact: false, sourceType: "script",
    presets: [[join(root, "node_modules", "@babel", "preset-env"), { targets: { ie: "11" }, modules: false, exclude: ["transform-typeof-symbol"] }]],
  }).code;
  const runtime = readFileSync(join(root, "node_modules", "regenerator-runtime", "runtime.js"), "utf8");
  const dir = mkdtempSync(join(tmpdir(), "backoff-hermes-"));
  try {
    const file = join(dir, "app.js");
    writeFileSync(file, `var globalThis = this;\n${runtime}\n${lowered}`);
    const r = spawnSync(HERMES, ["-w", file], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), "undefined [803,1697,4533,7588,18352]");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
