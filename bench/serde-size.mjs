// What passing createBackoff-like options through serde would cost: builds the one
// tiny export of bench/serde-size/ four ways (plain numbers, as backoff-wasm does;
// serde-wasm-bindgen; tsify's Ts<T> with its `js` and its default `json` feature)
// exactly as scripts/build.sh builds the package's wasm (the crate's release profile,
// the repository's wasm32 rustflags, wasm-bindgen --target web, npm binaryen's
// wasm-opt -Oz with build.sh's flags), checks that every variant gives the same
// delays and the same errors, and prints the sizes (gzip -9).
//
//   node bench/serde-size.mjs          (first run downloads the crates; target/serde-size)
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { transformSync } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "target", "serde-size");
const VARIANTS = [
  { feature: "plain", label: "plain numbers (backoff-wasm's way)", wrapper: "plain.js" },
  { feature: "serde-wasm-bindgen", label: "serde-wasm-bindgen 0.6.5" },
  { feature: "tsify-js", label: "tsify 0.5.8 `Ts<T>`, feature js" },
  { feature: "tsify-json", label: "tsify 0.5.8 `Ts<T>`, default feature json" },
];

// The wasm32 cargo and rustc scripts/setup.sh chose, when it ran; else the ones on PATH.
const env = { ...process.env, CARGO_TARGET_DIR: target };
const tc = join(root, ".toolchain.env");
if (existsSync(tc)) {
  for (const line of readFileSync(tc, "utf8").split("\n")) {
    const m = /^(WASM_RUSTC|WASM_CARGO)=(.*)$/.exec(line);
    if (m) env[m[1]] = m[2];
  }
}
if (env.WASM_RUSTC) env.RUSTC = env.WASM_RUSTC;
env.PATH = `${join(process.env.HOME ?? "", ".cargo", "bin")}:${env.PATH}`;
const cargo = env.WASM_CARGO ?? "cargo";
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] });

// Options and attempts each variant answers: the range
// errors come from the shared policy, so an error is compared by its message's first word.
const CASES = [
  [{ base: 100 }, 3],
  [{ base: 100, max: 1000, factor: 3, jitter: 0.5, seed: 7, maxAttempts: 5 }, 4],
  [{ base: 100, jitter: "full", seed: 42 }, 2],
  [{ base: 100, jitter: "equal", seed: 42 }, 2],
  [{ base: 100, max: 5000, jitter: "decorrelated", seed: 42 }, 5],
  [{ base: 100, maxAttempts: 2 }, 3],
  [{ base: 100, factor: 0.5 }, 1],
];

const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
const rows = [];
for (const v of VARIANTS) {
  console.error(`[serde-size] ${v.feature}: cargo, wasm-bindgen, wasm-opt`);
  // From the repository root, so cargo reads its .cargo/config.toml (the wasm32 rustflags).
  run(cargo, ["build", "-q", "--release", "--locked", "--lib", "--target", "wasm32-unknown-unknown",
    "--manifest-path", "bench/serde-size/Cargo.toml", "--no-default-features", "--features", v.feature]);
  const out = join(target, "out", v.feature);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const raw = join(out, "cargo.wasm");
  copyFileSync(join(target, "wasm32-unknown-unknown", "release", "serde_size.wasm"), raw);
  run("wasm-bindgen", ["--target", "web", "--omit-default-module-path", "--out-dir", out, "--out-name", "serde_size", raw]);
  const wasm = join(out, "serde_size_bg.wasm");
  run(join(root, "node_modules", ".bin", "wasm-opt"), ["-Oz", "--converge", "--enable-reference-types",
    "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-multivalue",
    "--strip-debug", "--strip-producers", "--strip-target-features", wasm, "-o", wasm]);
  if (v.wrapper) copyFileSync(join(root, "bench", "serde-size", v.wrapper), join(out, v.wrapper));
  writeFileSync(join(out, "package.json"), '{ "type": "module" }\n');

  // The JS a user loads: the glue, and for plain the wrapper too; as emitted, and minified
  // by esbuild (what an application bundle holds).
  const js = [readFileSync(join(out, "serde_size.js"), "utf8"), v.wrapper ? readFileSync(join(out, v.wrapper), "utf8") : ""];
  const jsRaw = js.reduce((n, s) => n + Buffer.byteLength(s), 0);
  const jsGz = js.reduce((n, s) => n + (s ? gz(Buffer.from(s)) : 0), 0);
  const jsMinGz = js.reduce((n, s) => n + (s ? gz(Buffer.from(transformSync(s, { minify: true, format: "esm" }).code)) : 0), 0);
  const wasmBytes = readFileSync(wasm);
  const dts = readFileSync(join(out, "serde_size.d.ts"), "utf8");

  // Same answers from every variant (the delay, the stop, the errors).
  const glue = await import(pathToFileURL(join(out, "serde_size.js")).href);
  glue.initSync({ module: wasmBytes });
  const api = v.wrapper ? await import(pathToFileURL(join(out, v.wrapper)).href) : glue;
  const answers = [];
  for (const [options, attempt] of CASES) {
    try {
      answers.push(api.delay(options, attempt));
    } catch (e) {
      answers.push(`throws: ${e instanceof Error ? e.message.split(" ")[0] : e}`);
    }
  }
  rows.push({ v, wasm: wasmBytes.length, wasmGz: gz(wasmBytes), jsRaw, jsGz, jsMinGz, answers, typed: /interface BackoffOptions/.test(dts) });
}


const base = rows[0];
const answers = JSON.stringify(base.answers);
for (const r of rows) {
  if (r.v.feature.startsWith("plain")) continue;
  if (JSON.stringify(r.answers) !== answers) throw new Error(`${r.v.feature} answers ${JSON.stringify(r.answers)}, plain ${answers}`);
}
const kb = (n) => n.toLocaleString("en-US").replace(/,/g, " ");
const delta = (n, b) => (n === b ? "" : ` (+${kb(n - b)})`);
console.log(`| variant | wasm raw | wasm gzip | JS raw | JS gzip | JS min+gzip | total gzip (wasm + min JS) | TS types of the options |`);
console.log(`|---|---:|---:|---:|---:|---:|---:|---|`);
for (const r of rows) {
  const total = r.wasmGz + r.jsMinGz;
  console.log(`| ${r.v.label} | ${kb(r.wasm)} | ${kb(r.wasmGz)} | ${kb(r.jsRaw)} | ${kb(r.jsGz)} | ${kb(r.jsMinGz)} | ${kb(total)}${delta(total, base.wasmGz + base.jsMinGz)} | ${r.typed ? "generated" : r.v.wrapper ? "none here (hand-written in the package)" : "none (`any`)"} |`);
}
console.log(`\nEvery variant answered ${answers}`);
