// Leak tests: 1 000 000 policies and 1 000 000 seeded streams are created and
// used in a child process (node --expose-gc, tests/leaks/worker.mjs); the wasm
// linear memory (which never shrinks, so any leak shows up as growth) and the
// process RSS must stay bounded. A seeded stream owns no wasm memory (its
// state lives in its JS object), and a policy is plain numbers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const worker = fileURLToPath(new URL("./worker.mjs", import.meta.url));
const MiB = 1024 * 1024;
/** One wasm page: the most the linear memory may grow after the warm-up. */
const WASM_GROWTH_MAX = 64 * 1024;
/** Absolute ceiling of the wasm memory (it starts at ~1.1 MiB). */
const WASM_MAX = 4 * MiB;
/** RSS may grow this much after the warm-up (JS heap sizing, not leaks: 1M leaked 16-byte states would be 16+ MiB of wasm). */
const RSS_GROWTH_MAX = 96 * MiB;
const RSS_MAX = 384 * MiB;

function run(kind, n) {
  const out = execFileSync(process.execPath, ["--expose-gc", "--max-old-space-size=256", worker, kind, String(n)], {
    encoding: "utf8",
    timeout: 300_000,
  });
  return JSON.parse(out.trim().split("\n").pop());
}

function assertBounded(r, n) {
  assert.equal(r.n, n);
  assert.ok(r.sinkFinite);
  const note = JSON.stringify(r);
  assert.ok(r.peakWasm - r.afterWarmup.wasm <= WASM_GROWTH_MAX, `wasm memory grew: ${note}`);
  assert.ok(r.end.wasm - r.afterWarmup.wasm <= WASM_GROWTH_MAX, `wasm memory grew: ${note}`);
  assert.ok(r.peakWasm <= WASM_MAX, `wasm memory above ${WASM_MAX}: ${note}`);
  assert.ok(r.end.rss - r.afterWarmup.rss <= RSS_GROWTH_MAX, `RSS grew: ${note}`);
  assert.ok(r.end.rss <= RSS_MAX, `RSS above ${RSS_MAX}: ${note}`);
}

test("1 000 000 policies (created, two delays each) keep wasm memory and RSS bounded", () => {
  assertBounded(run("policies", 1_000_000), 1_000_000);
});

test("1 000 000 seeded streams (created, drawn from) keep wasm memory and RSS bounded", () => {
  assertBounded(run("streams", 1_000_000), 1_000_000);
});

test("200 000 policies each with its own seeded stream keep wasm memory and RSS bounded", () => {
  assertBounded(run("seeded-policies", 200_000), 200_000);
});
