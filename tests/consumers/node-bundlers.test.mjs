// Bundling the package FOR NODE, with no plugin or option about it on the consumer
// side, against the packed tarball: esbuild (--bundle --platform=node, ESM and
// CommonJS output), Rollup (@rollup/plugin-node-resolve, plus plugin-commonjs for
// `require`) and webpack (target "node"), each for an app that `import`s the
// package and one that `require`s it. Every bundle is copied alone into an empty
// directory and run there with node, and with `node --jitless` (no WebAssembly: the
// JavaScript build must travel in the bundle too): it must print the pinned values, so it
// may not read a file beside the package (the wasm travels inside the JavaScript).
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { project, run } from "./scratch.mjs";

/** Pinned bundler versions. */
export const VERSIONS = {
  esbuild: "0.28.2",
  rollup: "4.68.8",
  "@rollup/plugin-node-resolve": "16.0.3",
  "@rollup/plugin-commonjs": "29.0.3",
  webpack: "5.113.0",
};

const BODY = `const out = {
  delays: [1, 2, 3, 4].map((n) => createBackoff({ base: 1000, max: 5000 }).delay(n)),
  schedule: retrySchedule({ maxAttempts: 4 }),
  seeded: createBackoff({ base: 100, jitter: 0.5, random: createRandom(42) }).delay(2),
  error: (() => { try { nextDelayMs(0); } catch (e) { return [e instanceof SigilError, e.code]; } })(),
};
console.log(JSON.stringify(out));
`;
const IMPORTING = `import { createBackoff, createRandom } from "backoff-wasm";
import { retrySchedule, nextDelayMs, SigilError } from "backoff-wasm/sigil";
${BODY}`;
const REQUIRING = `const { createBackoff, createRandom } = require("backoff-wasm");
const { retrySchedule, nextDelayMs, SigilError } = require("backoff-wasm/sigil");
${BODY}`;

const ROLLUP = (input, format, file) => `import { nodeResolve } from "@rollup/plugin-node-resolve";
import commonjs from "@rollup/plugin-commonjs";
export default {
  input: ${JSON.stringify(input)},
  output: { file: ${JSON.stringify(file)}, format: ${JSON.stringify(format)}, inlineDynamicImports: true },
  plugins: [nodeResolve({ exportConditions: ["node"] }), commonjs()],
};
`;
const WEBPACK = (entry, dir, filename, module) => `const path = require("node:path");
module.exports = {
  mode: "production", target: "node", entry: ${JSON.stringify(entry)},
  output: { path: path.resolve(__dirname, ${JSON.stringify(dir)}), filename: ${JSON.stringify(filename)}${module ? `, module: true, chunkFormat: "module", library: { type: "module" }` : ""} },
  ${module ? "experiments: { outputModule: true }," : ""}
};
`;

const consumer = () =>
  project("node-bundlers", {
    dependencies: VERSIONS,
    files: {
      "src/app.mjs": IMPORTING,
      "src/app.cjs": REQUIRING,
      "rollup.esm.config.mjs": ROLLUP("src/app.mjs", "es", "out/rollup/app.mjs"),
      "rollup.cjs.config.mjs": ROLLUP("src/app.cjs", "cjs", "out/rollup/app.cjs"),
      "webpack.esm.config.cjs": WEBPACK("./src/app.mjs", "out/webpack-esm", "app.mjs", true),
      "webpack.cjs.config.cjs": WEBPACK("./src/app.cjs", "out/webpack-cjs", "app.cjs", false),
    },
  });

/** What every bundle prints (pinned: docs/API.md sections 1–3). */
const WANT = {
  delays: [1000, 2000, 4000, 5000],
  schedule: [1000, 2000, 4000],
  seeded: JSON.parse(run(process.execPath, ["--input-type=module", "-e", `
    const { createBackoff, createRandom } = await import(${JSON.stringify(new URL("../../pkg/dist/esm/index.js", import.meta.url).href)});
    console.log(createBackoff({ base: 100, jitter: 0.5, random: createRandom(42) }).delay(2));`]).stdout),
  error: [true, "invalid_argument"],
};

/** Runs `file` with node (and `flags`) from an empty directory of its own. */
function runAlone(file, flags = []) {
  const dir = mkdtempSync(join(tmpdir(), "backoff-wasm-bundle-"));
  try {
    cpSync(file, join(dir, basename(file)));
    return JSON.parse(run(process.execPath, [...flags, basename(file)], { cwd: dir }).stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cases = {
  "esbuild --bundle --platform=node --format=esm (import)": (dir) => {
    run(join(dir, "node_modules", ".bin", "esbuild"), ["src/app.mjs", "--bundle", "--platform=node", "--format=esm", "--outfile=out/esbuild/app.mjs", "--log-level=warning"], { cwd: dir });
    return join(dir, "out/esbuild/app.mjs");
  },
  "esbuild --bundle --platform=node --format=cjs (import)": (dir) => {
    run(join(dir, "node_modules", ".bin", "esbuild"), ["src/app.mjs", "--bundle", "--platform=node", "--format=cjs", "--outfile=out/esbuild/app-from-esm.cjs", "--log-level=warning"], { cwd: dir });
    return join(dir, "out/esbuild/app-from-esm.cjs");
  },
  "esbuild --bundle --platform=node --format=cjs (require)": (dir) => {
    run(join(dir, "node_modules", ".bin", "esbuild"), ["src/app.cjs", "--bundle", "--platform=node", "--format=cjs", "--outfile=out/esbuild/app.cjs", "--log-level=warning"], { cwd: dir });
    return join(dir, "out/esbuild/app.cjs");
  },
  "Rollup + node-resolve, ES output (import)": (dir) => {
    run(join(dir, "node_modules", ".bin", "rollup"), ["-c", "rollup.esm.config.mjs", "--silent"], { cwd: dir });
    return join(dir, "out/rollup/app.mjs");
  },
  "Rollup + node-resolve + commonjs, CommonJS output (require)": (dir) => {
    run(join(dir, "node_modules", ".bin", "rollup"), ["-c", "rollup.cjs.config.mjs", "--silent"], { cwd: dir });
    return join(dir, "out/rollup/app.cjs");
  },
  "webpack target node, ES module output (import)": (dir) => {
    run(process.execPath, ["-e", `require("webpack")(require("./webpack.esm.config.cjs"), (e, s) => { if (e || s.hasErrors()) { console.error(e ?? s.toString("errors-only")); process.exit(1); } })`], { cwd: dir });
    return join(dir, "out/webpack-esm/app.mjs");
  },
  "webpack target node, CommonJS output (require)": (dir) => {
    run(process.execPath, ["-e", `require("webpack")(require("./webpack.cjs.config.cjs"), (e, s) => { if (e || s.hasErrors()) { console.error(e ?? s.toString("errors-only")); process.exit(1); } })`], { cwd: dir });
    return join(dir, "out/webpack-cjs/app.cjs");
  },
};

for (const [name, build] of Object.entries(cases)) {
  test(`${name}: the bundle runs alone in an empty directory, with and without WebAssembly`, () => {
    const { dir } = consumer();
    mkdirSync(join(dir, "out"), { recursive: true });
    const file = build(dir);
    assert.deepEqual(runAlone(file), WANT);
    assert.deepEqual(runAlone(file, ["--jitless"]), WANT, "under node --jitless");
  });
}
