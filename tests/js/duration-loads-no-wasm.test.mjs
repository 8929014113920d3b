// `backoff-wasm/duration` reads duration text in JavaScript, so importing it loads no wasm:
// in a Node process whose WebAssembly compiles and instantiates nothing (each entry throws),
// the ESM entry point imports and answers; the files it loads in the ESM, node and workerd trees
// hold no wasm, and workerd runs a Worker given only those files (no .wasm module); an
// application bundle of it carries neither the wasm's text nor a WebAssembly call. In the same
// process `/backoff`, which needs the engine, calls the stub and runs on the JavaScript build,
// so the stub does stop wasm.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import { closure } from "../../scripts/size.mjs";
import { workerdModules } from "../workerd-modules.mjs";
import { Miniflare } from "../miniflare.mjs";
import { scratchDir } from "../scratch-dir.mjs";


const root = fileURLToPath(new URL("../../", import.meta.url));
const pkg = `${root}pkg/`;
const dist = `${pkg}dist/`;

/** Replaces every way to compile or instantiate wasm with a function that throws (and is counted in `wasmCalls`). */
const STUB = `
globalThis.wasmCalls = [];
for (const k of ["Module", "Instance", "compile", "compileStreaming", "instantiate", "instantiateStreaming", "validate"]) {
  WebAssembly[k] = function () { wasmCalls.push(k); throw new Error("WebAssembly." + k + " was called"); };
}`;

/** Runs `body` (an ES module's code, after the stub) in a child Node; returns its stdout, or throws with its stderr. */
function run(body) {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", STUB + body], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

test("the ESM /duration imports, parses and converts with WebAssembly stubbed to throw", () => {
  const out = run(`
const d = await import(${JSON.stringify(pathToFileURL(`${dist}esm/duration.js`).href)});
const bad = d.parse(" 5 minuts");
let thrown;
try { d.toMs(true); } catch (e) { thrown = e; }
console.log(JSON.stringify([
  d.parse("5 minutes"), d.parse("250ms"), bad.status, bad.error.message, String(bad.error), JSON.stringify(bad.error),
  bad.error instanceof d.InvalidDurationError, new d.InvalidDurationError("x").text,
  d.toMs("2h"), d.toMs(-7), String(d.toMs("5 m")), d.toSeconds("1500ms"), d.toSeconds(2499),
  thrown.constructor.name, thrown.message, wasmCalls,
]));
`);
  assert.deepEqual(JSON.parse(out), [
    { status: "success", data: 300000 }, { status: "success", data: 250 }, "failure", 'Invalid duration: " 5 minuts"',
    'InvalidDurationError: Invalid duration: " 5 minuts"', '{"text":" 5 minuts","name":"InvalidDurationError"}',
    true, "x",
    7200000, -7, "NaN", 2, 2,
    "TypeError", "input must be a number or duration text; received true", [],
  ]);
});

test("under the same stub /backoff compiles the wasm, is refused and runs on the JavaScript build", () => {
  const out = run(`
const b = await import(${JSON.stringify(pathToFileURL(`${dist}esm/backoff.js`).href)});
console.log(JSON.stringify([wasmCalls, b.createBackoff({ base: 1000, jitter: 0.2, seed: "test" }).delay(3)]));
`);
  assert.deepEqual(JSON.parse(out), [["Module"], 4648]);
});

test("the files /duration loads in the ESM, node and workerd trees hold no wasm", () => {
  for (const tree of ["esm", "node", "workerd"]) {
    const files = closure(`${dist}${tree}/duration.js`);
    assert.ok(files.length > 1, `${tree}: ${files}`);
    for (const f of files) {
      assert.ok(!f.endsWith(".wasm") && !f.endsWith("wasm-inline.js"), `${tree}/duration.js loads ${f}`);
      assert.equal(/WebAssembly|backoff_wasm_bg|wasm-inline/.test(readFileSync(f, "utf8")), false, `${tree}/duration.js loads ${f}, which loads wasm`);
    }
  }
});

test("an application bundle of /duration carries no wasm", () => {
  const bundle = (entry) => buildSync({
    stdin: { contents: `export * from ${JSON.stringify(`${dist}esm/${entry}.js`)};`, resolveDir: dist },
    bundle: true, minify: true, write: false, format: "esm", platform: "browser", logLevel: "silent",
  }).outputFiles[0].text;
  // The inlined wasm text has at least one character per byte of the wasm.
  const wasmBytes = readFileSync(`${dist}backoff_wasm_bg.wasm`).length;
  const app = bundle("duration");
  assert.equal(app.includes("WebAssembly"), false, "the /duration bundle calls WebAssembly");
  assert.ok(app.length < wasmBytes, `the /duration bundle has ${app.length} characters, the wasm ${wasmBytes} bytes`);
  // The checks see the wasm where it is: /backoff's bundle has it.
  const withWasm = bundle("backoff");
  assert.equal(withWasm.includes("WebAssembly"), true);
  assert.ok(withWasm.length > wasmBytes);
});

test("workerd runs /duration from its files alone, no wasm module beside them", { skip: !Miniflare && process.env.CI !== "true" && "miniflare is not installed (CI=true fails instead)" }, async () => {
  assert.ok(Miniflare, "miniflare (workerd) cannot be imported: run npm ci");
  const dir = scratchDir("workerd-duration");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let mf;
  try {
    // Its JavaScript files only: were a .wasm import among them, the Worker would not load.
    for (const f of closure(`${dist}workerd/duration.js`).filter((f) => f.endsWith(".js"))) cpSync(f, `${dir}/${relative(pkg, f)}`);
    writeFileSync(`${dir}/worker.mjs`, `import { parse, toMs, toSeconds, InvalidDurationError } from "./dist/workerd/duration.js";
export default {
  fetch() {
    const bad = parse("5 minuts");
    return Response.json([parse("5 minutes"), toMs("250ms"), toSeconds("2h"), bad.error.message, bad.error instanceof InvalidDurationError]);
  },
};
`);
    mf = new Miniflare(workerdModules(dir));
    const res = await mf.dispatchFetch("http://localhost/");
    assert.deepEqual(await res.json(), [{ status: "success", data: 300000 }, 250, 7200, 'Invalid duration: "5 minuts"', true]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await mf?.dispose();
  }
});
