// A native Rust program that depends on the crate by path (examples/native-service) gets the
// crate alone, without wasm-bindgen or any other dependency, and the npm package's numbers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { createBackoff, createRandom } from "../../pkg/dist/esm/index.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const service = join(root, "examples", "native-service");
const env = { ...process.env, CARGO_TARGET_DIR: join(root, "target", "native-service") };

function cargo(...args) {
  const r = spawnSync("cargo", args, { cwd: service, encoding: "utf8", env });
  assert.equal(r.status, 0, `cargo ${args.join(" ")} failed (cargo must be on PATH): ${r.error ?? r.stderr}`);
  return r.stdout;
}

test("a native dependent's dependency tree is the crate alone: no wasm-bindgen, no other crate", () => {
  const tree = cargo("tree", "-e", "normal,build", "--prefix", "none", "--format", "{p}");
  const names = tree.trim().split("\n").map((line) => line.split(" ")[0]);
  assert.deepEqual(names, ["native-service", "backoff-wasm"]);
});

test("a native dependent prints the npm package's waits for the same options, bit for bit", () => {
  const printed = new Map(cargo("run", "-q").trim().split("\n").map((line) => {
    const [name, ...waits] = line.split(" ");
    return [name, waits.map(Number)];
  }));
  const delays = (policy, n) => Array.from({ length: n }, (_, i) => policy.delay(i + 1));
  const expected = new Map([
    ["plain", delays(createBackoff({ base: "1 second", max: 60_000 }), 10)],
    ["keyed", delays(createBackoff({ base: 100, factor: 1.5, cap: 5000, jitter: 0.25, seed: "job-7" }), 12)],
    ["streamed", createBackoff({ base: 250, growth: "linear", jitter: "full", random: createRandom("42"), maxAttempts: 8 }).schedule()],
    ["stepped", delays(createBackoff({ steps: [100, 500, 2000], free: 1, jitter: "equal", seed: "steps" }), 6)],
    ["decorrelated", delays(createBackoff({ base: 100, max: 10_000, jitter: "decorrelated", seed: "d" }), 10)],
  ]);
  assert.deepEqual([...printed.keys()], [...expected.keys()]);
  for (const [name, waits] of expected) assert.deepEqual(printed.get(name), waits, name);
  // Pinned too, so that both sides cannot drift together.
  assert.deepEqual(printed.get("plain"), [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000]);
  assert.deepEqual(printed.get("streamed"), [223, 415, 709, 179, 986, 1302, 1329]);
});
