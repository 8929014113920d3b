// The packed tarball as the packaging linters see it: @arethetypeswrong/cli finds the
// types of every entry point under node10, node16 (from CommonJS and from ESM) and
// bundler resolution, each in the module format of the JavaScript it describes; publint
// reports nothing, suggestions included; and the `sideEffects` field is true to what
// loading the package does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { buildSync } from "esbuild";
import { project, tarball, ROOT } from "./scratch.mjs";

/** TypeScript's ModuleKind numbers, as attw reports them. */
const COMMONJS = 1;
const ESNEXT = 99;

const manifest = () => JSON.parse(readFileSync(join(ROOT, "pkg", "package.json"), "utf8"));
const subpaths = () => Object.keys(manifest().exports).filter((k) => k !== "./package.json");

let analysed;
/** attw's JSON analysis of the tarball (exit status and parsed output), run once per file. */
function attw() {
  if (analysed) return analysed;
  const bin = join(ROOT, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js");
  const r = spawnSync(process.execPath, [bin, tarball().file, "--format", "json"], { encoding: "utf8", maxBuffer: 64 << 20 });
  assert.ok(r.stdout.trim().startsWith("{"), `attw printed no JSON: ${r.stdout}\n${r.stderr}`);
  analysed = { status: r.status, ...JSON.parse(r.stdout) };
  return analysed;
}

test("attw: no problem on any entry point of the tarball (node10, node16 CJS and ESM, bundler)", () => {
  const { status, analysis } = attw();
  const problems = analysis.problems.map((p) => `${p.kind} ${p.entrypoint ?? ""} ${p.resolutionKind ?? ""} ${p.fileName ?? p.typesFileName ?? ""}`);
  assert.deepEqual(problems, []);
  assert.equal(status, 0);
  assert.deepEqual(Object.keys(analysis.entrypoints).filter((e) => e !== "./package.json"), subpaths());
});

test("attw: every entry point's types are read in the module format of the JavaScript they describe", () => {
  const { analysis } = attw();
  const kinds = analysis.programInfo.node16.moduleKinds;
  const kindOf = (file) => kinds[file]?.detectedKind;
  for (const sub of subpaths()) {
    const r = analysis.entrypoints[sub].resolutions;
    assert.deepEqual(Object.keys(r).sort(), ["bundler", "node10", "node16-cjs", "node16-esm"], sub);
    for (const [mode, { resolution }] of Object.entries(r)) {
      assert.ok(resolution?.isTypeScript && /\.d\.ts$/.test(resolution.fileName), `${sub} ${mode}: ${resolution?.fileName}`);
    }
    const entry = sub === "." ? "index" : sub.slice(2);
    const at = (p) => `/node_modules/backoff-wasm/${p}`;
    assert.equal(r["node16-esm"].resolution.fileName, at(`dist/types/esm/${entry}.d.ts`), sub);
    // Node's `import` takes the node condition (the ESM tree without top-level await).
    assert.equal(r["node16-esm"].implementationResolution.fileName, at(`dist/node/${entry}.js`), sub);
    assert.equal(kindOf(r["node16-esm"].resolution.fileName), ESNEXT, `${sub}: ESM types for import`);
    assert.equal(r["node16-cjs"].resolution.fileName, at(`dist/types/${entry}.d.ts`), sub);
    assert.equal(r["node16-cjs"].implementationResolution.fileName, at(`dist/cjs/${entry}.js`), sub);
    assert.equal(kindOf(r["node16-cjs"].resolution.fileName), COMMONJS, `${sub}: CommonJS types for require`);
    assert.equal(r.bundler.resolution.fileName, at(`dist/types/esm/${entry}.d.ts`), sub);
    assert.equal(r.node10.resolution.fileName, at(`dist/types/${entry}.d.ts`), sub);
  }
});

test("publint: nothing to report on the tarball, suggestions included", async () => {
  const bytes = readFileSync(tarball().file);
  const { messages, pkg } = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    level: "suggestion",
    strict: true,
  });
  assert.equal(pkg.name, "backoff-wasm");
  assert.deepEqual(messages.map((m) => `${m.type} ${m.code}: ${formatMessage(m, pkg, { color: false })}`), []);
});

test("sideEffects names only the command: loading any entry point adds no global and prints nothing", () => {
  assert.deepEqual(manifest().sideEffects, ["./bin/backoff-wasm.js"]);
  const { dir } = project("package-lint", {
    files: {
      "load.mjs": `
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const keys = () => Reflect.ownKeys(globalThis).map(String).sort();
const before = keys();
const loaded = [];
for (const sub of ${JSON.stringify(subpaths())}) {
  const name = sub === "." ? "backoff-wasm" : "backoff-wasm" + sub.slice(1);
  loaded.push(Object.keys(await import(name)).length, Object.keys(require(name)).length);
}
const after = keys();
console.log(JSON.stringify({ added: after.filter((k) => !before.includes(k)), removed: before.filter((k) => !after.includes(k)), empty: loaded.filter((n) => n === 0).length }));
`,
    },
  });
  const r = spawnSync(process.execPath, ["load.mjs"], { cwd: dir, encoding: "utf8", timeout: 60000 });
  assert.equal(r.stderr, "");
  assert.equal(r.status, 0);
  assert.deepEqual(JSON.parse(r.stdout), { added: [], removed: [], empty: 0 });
});

test("sideEffects: a bundle that imports an entry point without using it keeps none of the package", () => {
  const { dir } = project("package-lint");
  for (const sub of subpaths()) {
    const name = sub === "." ? "backoff-wasm" : `backoff-wasm${sub.slice(1)}`;
    const out = buildSync({
      stdin: { contents: `import * as unused from "${name}";\nexport const kept = 1;\n`, resolveDir: dir, loader: "js" },
      bundle: true, format: "esm", platform: "browser", write: false, logLevel: "silent", minify: true,
    });
    assert.equal(out.outputFiles[0].text, "var o=1;export{o as kept};\n", sub);
  }
});
