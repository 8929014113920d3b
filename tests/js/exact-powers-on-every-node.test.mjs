// Powers: an exponential curve's
// factor^(attempt - 1) is computed inside the wasm, so it is the same on every
// runtime.
//   1. the shipped wasm imports no function but wasm-bindgen's table set-up (no host
//      Math.pow);
//   2. on one table of (factor, attempt) pairs, the package's power equals the
//      exact model (BigInt arithmetic, cases/model.mjs exactPow) for every whole attempt;
//   3. every Node of the test matrix (scripts/node-matrix.mjs: 22, 24, 26, installed
//      by `scripts/setup.sh --for test`; a missing one fails with CI=true) and each
//      path in BACKOFF_NODE_BINARIES (colon-separated, optional) gives the same bits
//      as this process on that table, fractional attempts included.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createBackoff } from "../../pkg/dist/esm/backoff.js";
import { exactPow, xorshift32 } from "./cases/model.mjs";
import { MAJORS, nodeBinary } from "../../scripts/node-matrix.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));

/** The table: short decimals, doubles in [1, 4) from a fixed-seed xorshift32, integers, and factors just above 1. */
function table() {
  const u32 = xorshift32(2463534242);
  const unit = () => u32() / 4294967296;
  const factors = [1.1, 1.05, 1.25, 1.5, 1.7, 2, 2.5, 3, 10, 1 + 2 ** -52, 1 + 2 ** -30];
  for (let i = 0; i < 40; i++) factors.push(1 + 3 * unit());
  const attempts = [];
  for (let a = 1; a <= 64; a++) attempts.push(a);
  attempts.push(100, 700, 1025, 2 ** 20, 2 ** 31 + 1, 2 ** 53, Infinity, 1.5, 2.25, 3.75, 10.125);
  return { factors, attempts };
}

/** The package's pre-jitter delays for `base: 1` over the table (a flat array). */
function delays({ factors, attempts }) {
  const out = [];
  for (const factor of factors) {
    const b = createBackoff({ base: 1, factor });
    for (const a of attempts) out.push(b.delay(a));
  }
  return out;
}

const CHILD = `
import { createBackoff } from ${JSON.stringify(new URL("../../pkg/dist/esm/backoff.js", import.meta.url).href)};
const { factors, attempts: text } = JSON.parse(process.argv[1]);
const attempts = text.map(Number);
const out = [];
for (const factor of factors) {
  const b = createBackoff({ base: 1, factor });
  for (const a of attempts) out.push(b.delay(a));
}
process.stdout.write(JSON.stringify(out.map(String)));
`;

test("the wasm makes no host call for powers: its imports are wasm-bindgen's table set-up and the JS random draw", () => {
  const wasm = new WebAssembly.Module(readFileSync(new URL("../../pkg/dist/backoff_wasm_bg.wasm", import.meta.url)));
  // The one other import is js/engine/draw.ts's `draw` (a caller's JavaScript random source,
  // host_draw in src/bindings/backoff.rs); nothing else, Math.pow included, is imported.
  // (scripts/assemble.mjs shortens wasm-bindgen's names: `shortWasm`.)
  assert.deepEqual(
    WebAssembly.Module.imports(wasm).map((i) => `${i.kind} ${i.module}.${i.name}`),
    ["function w.draw", "function w.table"],
  );
});

test("the package's power is the exact model's for every whole attempt", () => {
  const t = table();
  const got = delays(t);
  let i = 0;
  let checked = 0;
  const bad = [];
  for (const factor of t.factors) {
    for (const a of t.attempts) {
      const value = got[i++];
      if (!Number.isInteger(a) && a !== Infinity) continue;
      checked++;
      const want = exactPow(factor, a - 1);
      if (!Object.is(value, want) && bad.length < 5) bad.push(`${factor}^${a - 1}: ${value}, exact ${want}`);
    }
  }
  assert.deepEqual(bad, []);
  assert.ok(checked > 3000);
});

test("every Node of the matrix gives the same powers, bit for bit", (t) => {
  const tab = table();
  const mine = delays(tab).map(String);
  const binaries = [process.execPath, ...(process.env.BACKOFF_NODE_BINARIES ?? "").split(":").filter(Boolean)];
  for (const major of MAJORS) {
    const bin = nodeBinary(major);
    if (bin) binaries.push(bin);
    else if (process.env.CI === "true") assert.fail(`Node ${major} of the test matrix is not installed (scripts/setup.sh --for test)`);
    else t.diagnostic(`Node ${major} not installed (scripts/setup.sh --for test): not compared`);
  }
  for (const node of binaries) {
    const run = spawnSync(node, ["--input-type=module", "-e", CHILD, JSON.stringify({ factors: tab.factors, attempts: tab.attempts.map(String) })], {
      cwd: here,
      encoding: "utf8",
    });
    assert.equal(run.status, 0, `${node}: ${run.stderr}`);
    const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
    assert.deepEqual(JSON.parse(run.stdout), mine, `Node ${version} (${node})`);
    t.diagnostic(`Node ${version}: ${mine.length} powers identical`);
  }
});
