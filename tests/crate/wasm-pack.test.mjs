// wasm-pack works on the crate: `wasm-pack build --target web` gives a module that loads and
// computes, with the same exports as the npm build's module, and `wasm-pack test
// --node` runs the wasm-bindgen tests (tests/wasm_node.rs). The npm build itself runs cargo,
// wasm-bindgen and wasm-opt directly (scripts/build.sh); wasm-pack comes from
// `scripts/setup.sh --for test`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const toolchain = Object.fromEntries(readFileSync(join(root, ".toolchain.env"), "utf8").split("\n")
  .filter((line) => /^[A-Z_]+=/.test(line)).map((line) => line.split(/=(.*)/s).slice(0, 2)));
// The wasm32 compiler setup chose. `wasm-pack test` shares scripts/test-wasm.sh's target
// directory (the same test build); `wasm-pack build` has its own, since its release build
// without the npm build's features would replace scripts/build.sh's in target/wasm.
const env = (dir) => ({ ...process.env, RUSTC: toolchain.WASM_RUSTC, CARGO_TARGET_DIR: join(root, "target", dir) });
const out = join(root, "target", "wasm-pack", "web");

function wasmPack(dir, ...args) {
  const r = spawnSync("wasm-pack", args, { cwd: root, encoding: "utf8", env: env(dir) });
  assert.equal(r.error?.code, undefined, "wasm-pack is not on PATH: run scripts/setup.sh --for test");
  assert.equal(r.status, 0, `wasm-pack ${args.join(" ")} failed:\n${`${r.stdout}\n${r.stderr}`.slice(-3000)}`);
  return `${r.stdout}\n${r.stderr}`;
}

test("wasm-pack build --target web: a module that loads and computes, with the npm build's exports", { timeout: 900_000 }, async () => {
  rmSync(out, { recursive: true, force: true });
  wasmPack("wasm-pack", "build", "--target", "web", "--out-dir", out);
  const bytes = readFileSync(join(out, "backoff_wasm_bg.wasm"));
  const glue = await import(pathToFileURL(join(out, "backoff_wasm.js")).href);
  const wasm = glue.initSync({ module: bytes });
  const text = "5 seconds";
  const at = glue.textBuffer(text.length);
  const units = new Uint16Array(wasm.memory.buffer, at, text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  // The seeded stream of that text: its first draw is the npm package's `createRandom(text).next()`.
  glue.streamSeed(text.length);
  const { createRandom } = await import(pathToFileURL(join(root, "pkg", "dist", "esm", "random.js")).href);
  assert.equal(glue.streamNext(), createRandom(text).next());
  const names = (b) => WebAssembly.Module.exports(new WebAssembly.Module(b)).map((e) => `${e.kind} ${e.name}`).sort();
  // The npm build's module after wasm-bindgen and wasm-opt (scripts/assemble.mjs then shortens the names).
  assert.deepEqual(names(bytes), names(readFileSync(join(root, "build", "bindgen", "backoff_wasm_bg.wasm"))));
  const manifest = JSON.parse(readFileSync(join(out, "package.json"), "utf8"));
  assert.equal(manifest.name, "backoff-wasm");
  assert.deepEqual([manifest.type, manifest.main], ["module", "backoff_wasm.js"]);
});

test("wasm-pack test --node runs the wasm-bindgen tests of tests/wasm_node.rs", { timeout: 900_000 }, () => {
  const log = wasmPack("wasm", "test", "--node", "--", "--test", "wasm_node");
  const result = log.match(/test result: ok\. (\d+) passed; 0 failed; 0 ignored/);
  assert.ok(result, log.slice(-3000));
  assert.ok(Number(result[1]) >= 9, `only ${result[1]} tests ran`);
});
