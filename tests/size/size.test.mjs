// Size of the built package, measured by scripts/size.mjs on pkg/ (`npm run size`
// prints the same numbers), with the budgets it defines:
// - the packed tarball within its budget, with no source maps carrying sources and no
//   duplicate declaration trees, and no file of the ESM and Workers trees past gzip's 32 KB
//   window (npm puts each beside its twin, which gzip then stores for a few bytes);
// - per entry point, an application bundle (esbuild for the browser) within its budget;
// - per runtime tree, what a runtime loads for every entry point;
// - per function (FUNCTION_BUNDLES: p-retry's replacement, retry with a Backoff,
//   fetchWithRetry, the Backoff policy alone), a browser bundle within its budget, measured
//   in the same run as the peers whose size is a goal (ky), and `--modules` naming its inputs;
// - splitting: importing one entry point does not load the chart, the CLI helpers or
//   the retry runtime (ESM and Workers trees; the node tree is one bundle of code);
// - the wasm stays free of std's panic/formatting machinery and of an allocator (their
//   telltale strings would mean a change brought them in).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { FUNCTION_BUNDLES, TREES, budgets, bundleInputs, closure, measure } from "../../scripts/size.mjs";

const pkgDir = fileURLToPath(new URL("../../pkg", import.meta.url));
const wasmFile = readFileSync(join(pkgDir, "dist", "backoff_wasm_bg.wasm"));
const m = measure();

for (const [label, got, budget] of budgets(m)) {
  test(`${label}: ${got} within ${budget}`, () => {
    assert.ok(got <= budget, `${label} is ${got}, budget ${budget} (npm run size)`);
  });
}

test("each function bundle of ours has a budget, at its goal once the goal is met, and a goal measured in the same run", () => {
  const ours = m.functions.filter((f) => f.budget !== undefined);
  assert.deepEqual(ours.map((f) => f.label), [
    'import pRetry from "backoff-wasm/p-retry"',
    'import { retry, Backoff } from "backoff-wasm"',
    'import { fetchWithRetry } from "backoff-wasm/retry"',
    'import { Backoff } from "backoff-wasm/policy"',
  ]);
  const row = (label) => m.functions.find((f) => f.label === label);
  assert.equal(row('import pRetry from "backoff-wasm/p-retry"').goal, 2_600);
  assert.equal(row('import { retry, Backoff } from "backoff-wasm"').goal, 8_500);
  const fetchRow = row('import { fetchWithRetry } from "backoff-wasm/retry"');
  assert.equal(fetchRow.goalOf, "ky");
  assert.equal(fetchRow.goal, row("ky").gzip, "fetchWithRetry's goal is ky's size in this run");
  for (const f of ours) {
    if (f.goal !== undefined && f.gzip <= f.goal) assert.equal(f.budget, f.goal, `${f.label} meets its goal: its budget is the goal`);
    const listed = budgets(m).find(([label]) => label.startsWith(f.label));
    assert.deepEqual(listed, [`${f.label} (esbuild, browser), gzip`, f.gzip, f.budget, f.goal], `${f.label} is among the budgets`);
  }
  assert.ok(FUNCTION_BUNDLES.every((b) => b.budget === undefined || b.budget % 100 === 0 || b.budget === b.goal), "a budget not at its goal is a size rounded up to 100 B");
});

test("--modules names the inputs of one function bundle, largest first, the inlined wasm among them", () => {
  const label = 'import { retry, Backoff } from "backoff-wasm"';
  const inputs = bundleInputs(label);
  const raw = m.functions.find((f) => f.label === label).raw;
  assert.ok(inputs.length > 3);
  assert.ok(inputs.every((x, i) => i === 0 || inputs[i - 1].bytes >= x.bytes), "largest first");
  assert.ok(inputs.reduce((t, x) => t + x.bytes, 0) <= raw, "the inputs' bytes fit in the bundle");
  const wasm = inputs.find((x) => x.path === "pkg/dist/esm/wasm-inline.js");
  assert.ok(wasm && wasm.bytes > 5_000, "the inlined wasm is an input");
  assert.deepEqual(wasm.exports, ["wasmText"]);
  assert.ok(inputs.some((x) => x.exports.includes("retry")) && inputs.some((x) => x.exports.includes("Backoff")), "the chunks are known by their exports");
  const script = fileURLToPath(new URL("../../scripts/size.mjs", import.meta.url));
  const r = spawnSync(process.execPath, [script, "--modules", "fetchWithRetry"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^largest inputs of import \{ fetchWithRetry \} from "backoff-wasm\/retry" \(esbuild metafile: minified bytes in the bundle; bundle \d+ B raw, \d+ B gzip\):\n/);
  assert.match(r.stdout, /\n +\d+ +\d+\.\d % +pkg\/dist\/esm\/wasm-inline\.js +\[wasmText\]\n/);
  const bad = spawnSync(process.execPath, [script, "--modules", "no such bundle"], { encoding: "utf8" });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^size: --modules "no such bundle" is in no label of ours: /);
});

test("every file of the ESM and Workers trees fits gzip's window beside its twin (under 31 KB)", () => {
  for (const tree of ["esm", "workerd"]) {
    for (const f of readdirSync(join(pkgDir, "dist", tree))) {
      const size = statSync(join(pkgDir, "dist", tree, f)).size;
      assert.ok(size <= 31_000, `dist/${tree}/${f} is ${size} B: past gzip's 32 KB window its twin in the tarball is stored whole again (split the chunk)`);
    }
  }
});

test("every tree loads the wasm exactly once, each in its own way (/duration none in the ESM trees, /p-retry none in any)", async () => {
  // The node tree's lib.js ends with the wasm as base64, returned by a function.
  const base64 = /function __backoffWasmBase64\(\)\{return"([A-Za-z0-9+/=]+)"\}\n$/.exec(readFileSync(join(pkgDir, "dist", "node", "lib.js"), "utf8"));
  assert.ok(base64, "dist/node/lib.js ends with the wasm as base64");
  assert.deepEqual(Buffer.from(base64[1], "base64"), wasmFile, "dist/node/lib.js holds the wasm bytes");
  const { wasmText } = await import(new URL("../../pkg/dist/esm/wasm-inline.js", import.meta.url).href);
  // The spelling of scripts/assemble.mjs (`wasmLiteral`), decoded here on its own terms:
  // a prefix, then each byte XOR the key (the second character, the byte 0 spelled).
  const [prefix, ...rest] = Array.from(wasmText, (c) => c.charCodeAt(0));
  assert.ok(prefix < 0x80, "the prefix (the first character) is ASCII");
  const decoded = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === prefix) {
      assert.ok(rest[i + 1] < 0x80, "a prefix is followed by 7 bits");
      decoded.push(rest[++i] | 0x80);
    } else {
      assert.ok(rest[i] < 0x80 || rest[i] === (prefix | 0x80), "only the prefix's own value is above 0x7F");
      decoded.push(rest[i] & 0x7f);
    }
  }
  const key = decoded[0];
  assert.deepEqual(Buffer.from(decoded.map((b) => b ^ key)), wasmFile, "wasm-inline.js holds the wasm bytes, each XOR the key");
  assert.ok(readFileSync(join(pkgDir, "dist", "esm", "wasm-inline.js")).every((b) => b < 0x80), "wasm-inline.js is ASCII");
  const cjs = readFileSync(join(pkgDir, "dist", "cjs", "index.js"), "latin1");
  assert.ok(cjs.includes("function __backoffWasmText(){return \""), "the CommonJS bundle carries the wasm inline");
  for (const tree of TREES) {
    for (const [sub, e] of Object.entries(m.trees[tree].entries)) {
      const wasm = e.files.filter((f) => f.endsWith(".wasm") || f.endsWith("wasm-inline.js") || f === "dist/node/lib.js" || f === "dist/cjs/index.js");
      // `/duration` reads its text in JavaScript and `/p-retry` computes p-retry's formula: their
      // files hold no wasm (in the CommonJS tree the wasm is in index.js, which they do not load).
      const want = sub === "./duration" || sub === "./p-retry" ? [] : { esm: ["dist/esm/wasm-inline.js"], node: ["dist/node/lib.js"], cjs: ["dist/cjs/index.js"], workerd: ["dist/backoff_wasm_bg.wasm"] }[tree];
      assert.deepEqual(wasm, want, `${tree} ${sub}`);
      // The JavaScript build: imported statically by the node tree's loader (no top-level await
      // there), on the fallback path only elsewhere (not in what a runtime with wasm loads).
      const jsBuild = e.files.filter((f) => f.endsWith("wasm-js.js"));
      assert.deepEqual(jsBuild, tree === "node" && want.length ? ["dist/esm/wasm-js.js"] : [], `${tree} ${sub} and the JavaScript build`);
      if (sub === "./p-retry") assert.deepEqual(e.files.filter((f) => f.endsWith("index.js")), [], `${tree} ${sub} loads index.js`);
    }
  }
});

test("importing one entry point loads no chart, CLI helpers or retry runtime (ESM and Workers trees)", () => {
  // Telltales of each part, as they appear in the shipped code (names are kept).
  const parts = { chart: ["scheduleSvg"], cli: ["parseArgs", "formatElapsed", "columnUnit"], retry: ["fetchWithRetry", "retryAfterMs"] };
  // /queues builds on /retry's retryAfterMs and queueRetryDelaySeconds.
  const allowed = { "./chart": ["chart"], "./retry": ["retry"], "./queues": ["retry"], ".": ["chart", "retry"] };
  for (const tree of ["esm", "workerd"]) {
    for (const [sub, e] of Object.entries(m.trees[tree].entries)) {
      const text = e.files.filter((f) => f.endsWith(".js")).map((f) => readFileSync(join(pkgDir, f), "utf8")).join("\n");
      for (const [part, telltales] of Object.entries(parts)) {
        if ((allowed[sub] ?? []).includes(part)) continue;
        for (const telltale of telltales) assert.ok(!text.includes(telltale), `${tree} ${sub} loads the ${part} code (${telltale})`);
      }
    }
  }
  // The command is a chunked entry of the ESM tree, not a copy of everything.
  const cli = closure(join(pkgDir, "dist", "esm", "cli.js"));
  assert.ok(cli.some((f) => f.endsWith("wasm-inline.js")), "the command shares the ESM tree's chunks");
});

test("the tarball: no source maps with sources, declarations only under dist/types, only the package's files", () => {
  const files = m.tarball.files.map(([p]) => p);
  assert.deepEqual(files.filter((f) => f.endsWith(".map")), [], "source maps (the TypeScript sources are not shipped)");
  assert.deepEqual(files.filter((f) => f.endsWith(".d.ts") && !f.startsWith("dist/types/")), [], "declarations outside dist/types");
  assert.deepEqual(files.filter((f) => !/^(dist\/|bin\/|README\.md$|LICENSE$|package\.json$)/.test(f)), []);
  // No two shipped files are byte for byte the same (beyond the tiny package.json markers),
  // but for twins: dist/types/esm holds the same files as dist/types, read as ESM, and a file
  // of dist/workerd that loads no wasm (the chunks without the loader) is its dist/esm
  // namesake (npm packs each next to its twin, which gzip stores nearly free).
  const seen = new Map();
  for (const f of files) {
    const text = readFileSync(join(pkgDir, f));
    if (text.length < 64) continue;
    if (f.startsWith("dist/types/esm/")) {
      assert.ok(text.equals(readFileSync(join(pkgDir, f.replace("dist/types/esm/", "dist/types/")))), `${f} is its CommonJS twin`);
      continue;
    }
    const esmTwin = join(pkgDir, f.replace(/^dist\/workerd\//, "dist/esm/"));
    if (/^dist\/workerd\//.test(f) && existsSync(esmTwin) && text.equals(readFileSync(esmTwin))) {
      assert.ok(!/backoff_wasm_bg|wasm-inline/.test(text.toString("utf8")), `${f} loads the wasm, yet is its dist/esm twin`);
      continue;
    }
    const h = createHash("sha256").update(text).digest("hex");
    assert.ok(!seen.has(h), `${f} duplicates ${seen.get(h)}`);
    seen.set(h, f);
  }
});

test("the package describes itself: repository, homepage, bugs; the README links nothing a user cannot open", () => {
  const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  assert.match(manifest.repository.url, /^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
  assert.match(manifest.homepage, /^https:\/\//);
  assert.match(manifest.bugs.url, /^https:\/\/.*\/issues$/);
  const readme = readFileSync(join(pkgDir, "README.md"), "utf8");
  const links = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((x) => x[1]);
  assert.deepEqual(links.filter((l) => !/^(https?:\/\/|#)/.test(l)), [], "relative links in the shipped README");
  for (const path of ["spec/API.md", "../shared", "`tests/consumers/", "`bench/README.md`"]) {
    assert.ok(!readme.includes(path), `the shipped README mentions ${path}`);
  }
});

test("the wasm carries no panic, formatting or allocator machinery", () => {
  const data = wasmFile.toString("latin1");
  for (const telltale of ["panicked at", "capacity overflow", "called `Option::unwrap()`", "dlmalloc", "library/core/src", "library/std/src"]) {
    assert.ok(!data.includes(telltale), `the shipped wasm contains ${JSON.stringify(telltale)}`);
  }
});
