// One answer on every runtime: thousands of random createBackoff configurations ×
// attempts (0-12, one in the thousands, one up to 2^53, 2^53 and 2^60) × seeds (keyed, or a
// seeded stream), computed natively by the Rust API (examples/vectors.rs, `cargo run`) and
// through the wasm build under Node: the numbers must be identical, bit for bit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createBackoff, createRandom } from "../../pkg/dist/esm/index.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const CONFIGURATIONS = 3000;
/**
 * Exponential factors whose powers are inexact (3, 1.5, 1.1, 2.7) included: the power is
 * computed in Rust (core::pow) by both builds, with no host call, so every factor must agree.
 */
const ALL_FACTORS = true;

test(`native Rust and wasm give the same delays over ${CONFIGURATIONS} configurations`, () => {
  const r = spawnSync("cargo", ["run", "-q", "--example", "vectors", "--", String(CONFIGURATIONS), ...(ALL_FACTORS ? ["all-factors"] : [])], {
    cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.status, 0, `cargo run --example vectors failed (cargo must be on PATH): ${r.error ?? r.stderr}`);
  const vectors = JSON.parse(r.stdout);
  assert.equal(vectors.length, CONFIGURATIONS);
  let compared = 0;
  const mismatches = [];
  for (const v of vectors) {
    const source = v.source === "seed" ? { seed: v.seed } : v.source === "stream" ? { random: createRandom(v.seed) } : {};
    const p = createBackoff({ ...v.options, ...source });
    v.attempts.forEach((a, i) => {
      const got = p.delay(a);
      const want = v.delays[i] === null ? Infinity : v.delays[i];
      compared++;
      if (!Object.is(got, want) && mismatches.length < 10) mismatches.push(`${JSON.stringify(v.options)} ${v.source} delay(${a}): wasm ${got}, native ${want}`);
    });
  }
  assert.deepEqual(mismatches, []);
  assert.ok(compared >= CONFIGURATIONS * 17, `${compared} delays compared`);
});
