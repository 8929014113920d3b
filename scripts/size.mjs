// `npm run size`: what the built package (pkg/) weighs, four ways, each with a budget
// that `tests/size/size.test.mjs` enforces in `npm test` (exit code 1 here when one is over):
//
// 1. The packed tarball (`npm pack`): TARBALL_BUDGET_BYTES.
// 2. Per entry point and runtime tree (esm, cjs, workerd): the files a runtime loads
//    when it imports that entry point — the entry file, the chunks it imports, and
//    the wasm (inlined in wasm-inline.js for esm, at the end of lib.js for node and of
//    index.js for cjs,
//    dist/backoff_wasm_bg.wasm for workerd) — in raw, gzip (level 9) and brotli
//    (quality 11) bytes, each file compressed on its own and summed.
// 3. An application bundle of one entry point: `export * from` it, bundled and
//    minified by esbuild for the browser (what a web app ships; the wasm is always
//    whole): APP_BUNDLE_BUDGET_GZIP per entry point.
// 4. What an app ships for one function (FUNCTION_BUNDLES), bundled the same way in the
//    same run as its peers (p-retry, cockatiel, ky): each of ours with a budget, its goal
//    printed beside it.
// `--json` prints the measurement as JSON. `--modules [label]` prints, for one function
// bundle of ours (the first whose label contains `label`; `{ retry, Backoff }` when none is
// given), its largest inputs as esbuild's metafile counts them (minified bytes in the
// bundle) and what each exports, so one sees what the bytes are.
import { readFileSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { buildSync } from "esbuild";

/** The runtime trees under pkg/dist. */
export const TREES = ["esm", "node", "cjs", "workerd"];
/**
 * Budget of the packed tarball, bytes. It holds the JavaScript build and the node tree (one
 * bundle of the code with the wasm as base64, which has no twin to share bytes with). npm orders a tarball's files by
 * extension and name, so each ESM file sits beside its Workers twin; gzip shares their bytes
 * only while a file is under its 32 KB window, so no chunk of those trees may grow past ~31 KB.
 */
export const TARBALL_BUDGET_BYTES = 161_800;
/**
 * Budgets of an application bundle (esbuild, browser, minified) per entry point, gzip
 * bytes, so growth fails `npm test`: what the entry point reached when its budget was set,
 * rounded up to 100 B (bench/README.md, "Size", has today's numbers). An entry point with a goal
 * (`GOALS_GZIP`) gets its goal as its budget once it meets it; until then its budget stays
 * where it was and the goal is printed beside it.
 */
export const APP_BUNDLE_BUDGET_GZIP = {
  // The index carries every entry point's names, /p-retry's `pRetry` and `makeRetriable` included.
  // Each entry point that loads the wasm carries the fallback to the JavaScript build (~150 B:
  // the dynamic import and the package's error where neither loads; the build is a chunk apart).
  ".": 28_300, "./sigil": 7_700, "./backoff": 9_700, "./random": 8_100, "./duration": 1_200,
  "./policy": 9_700, "./chart": 12_900, "./retry": 21_200,
  // The policy plus the queue helpers and the retry functions they build on.
  "./queues": 11_700,
  // At its goal, not at today's size: p-retry alone, no wasm (p-retry's own bundle: FUNCTION_BUNDLES).
  "./p-retry": 2_600,
};
/**
 * Size goals (gzip bytes), printed beside the measurements (and beside the budget of an
 * application bundle that has one); a goal fails nothing itself: the shipped wasm (which has
 * no budget of its own: every application bundle, tree and the tarball carry it whole), and
 * the application bundles of `/sigil` and of `import { createBackoff } from "backoff-wasm"`
 * (`/backoff`).
 */
export const GOALS_GZIP = { wasm: 4_700, "./sigil": 7_700, "./backoff": 9_700 };
/** Budget of an entry point that has no line above (a new one), gzip bytes. */
export const APP_BUNDLE_BUDGET_DEFAULT = 12_000;
/**
 * What one runtime loads for every entry point of its tree (JS + wasm, each file
 * gzipped on its own), gzip bytes: their size when the budget was set, rounded up to 100 B (with /p-retry: the wasm-free
 * base.js of the node and CommonJS trees, and its chunks in the ESM trees; the node tree with the JavaScript build,
 * which it imports statically, and the wasm as base64 at the end of its lib.js).
 */
export const TREE_BUDGET_GZIP = { esm: 40_300, node: 44_100, cjs: 35_400, workerd: 39_900 };

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * What a browser app ships for one function, bundled beside its peers in the same run
 * (esbuild, browser, minified; gzip bytes), each row labelled by the import it stands for:
 * `backoff-wasm/p-retry` beside p-retry itself, `retry` with a `Backoff` policy and
 * `fetchWithRetry` beside cockatiel's retry policy and ky (a fetch client with retries), and
 * the `Backoff` policy alone (with the wasm it loads: what every row that uses a policy
 * carries at least). `code` gets the files of the package's entry points by subpath. `goal`
 * is the size aimed at: bytes, or the label of the peer it must not outgrow (its size in the
 * same run). `budget` (gzip bytes, ours only) fails `npm test` when outgrown: the goal once it
 * is met, else the size the bundle had when its budget was set, rounded up to 100 B
 * (bench/README.md has today's sizes beside the goals). The peers have neither.
 */
export const FUNCTION_BUNDLES = [
  {
    label: 'import pRetry from "backoff-wasm/p-retry"',
    code: (f) => `import pRetry from ${f("./p-retry")}; export const run = (fn) => pRetry(fn, { retries: 3 });`,
    goal: 2_600,
    budget: 2_600,
  },
  {
    label: 'import { retry, Backoff } from "backoff-wasm"',
    code: (f) => `import { retry, Backoff } from ${f(".")}; export const run = (fn) => retry(fn, Backoff.exponential(100).cap(5000).jitter("full").maxAttempts(4));`,
    goal: 8_500,
    budget: 15_700,
  },
  {
    label: 'import { fetchWithRetry } from "backoff-wasm/retry"',
    code: (f) => `import { fetchWithRetry } from ${f("./retry")}; export const get = (url) => fetchWithRetry(url);`,
    goal: "ky",
    budget: 17_700,
  },
  {
    label: 'import { Backoff } from "backoff-wasm/policy"',
    code: (f) => `import { Backoff } from ${f("./policy")}; export const policy = Backoff.exponential(100).cap(5000).jitter("full").maxAttempts(4);`,
    budget: 9_700,
  },
  { label: "p-retry", code: () => `import pRetry from "p-retry"; export const run = (fn) => pRetry(fn, { retries: 3 });` },
  { label: "cockatiel retry policy", code: () => `import { retry, handleAll, ExponentialBackoff } from "cockatiel"; export const run = (fn) => retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() }).execute(fn);` },
  { label: "ky", code: () => `import ky from "ky"; export const get = (url) => ky.get(url, { retry: 3 });` },
];

/** Raw, gzip -9 and brotli q11 sizes of a buffer, in bytes. */
export function sizes(buf) {
  return {
    raw: buf.length,
    gzip: gzipSync(buf, { level: 9 }).length,
    brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const IMPORT_RE = /(\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;

/**
 * The JavaScript build (the wasm translated by wasm2js), which the ESM and CommonJS trees
 * load only where WebAssembly is missing or refused (a dynamic import, a `require` on that
 * path): not in what a runtime with WebAssembly loads, nor in an application bundle (esbuild
 * keeps its dynamic import external here, as a bundler that splits code puts it in a chunk of
 * its own); measured on its own line. The node tree imports it statically: there it counts.
 */
export const JS_BUILD = "dist/esm/wasm-js.js";
const JS_BUILD_IMPORT = "./wasm-js.js";

/** Files (absolute paths) loaded when `entry` is imported where WebAssembly runs: JS graph + wasm (static imports of the JavaScript build included). */
export function closure(entry) {
  const seen = new Set();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith(".js")) continue;
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(IMPORT_RE)) {
      const target = resolve(dirname(file), m[2]);
      const onlyWhereRefused = target.endsWith(`/${JS_BUILD}`) && !m[1].startsWith("from");
      if (existsSync(target) && !onlyWhereRefused) todo.push(target);
    }
  }
  return [...seen].sort();
}

/** Entry subpaths of the package's `exports` (".", "./sigil", …) with their file per tree. */
export function entryPoints(pkgDir) {
  const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  const out = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target !== "object" || !target.workerd) continue;
    const base = (target.workerd.default ?? target.workerd).replace("./dist/workerd/", "");
    out.push({ subpath, files: Object.fromEntries(TREES.map((t) => [t, join(pkgDir, "dist", t, base)])) });
  }
  return out;
}

/**
 * Measures pkg/: per tree and entry point the JS and wasm bytes, and per tree
 * the whole package. Throws when pkg/ is missing (build first).
 */
export function measure(pkgDir = join(root, "pkg")) {
  if (!existsSync(join(pkgDir, "package.json"))) throw new Error(`no built package in ${pkgDir}: run npm run build`);
  const cache = new Map();
  const sized = (f) => {
    if (!cache.has(f)) cache.set(f, sizes(readFileSync(f)));
    return cache.get(f);
  };
  const sum = (files, pred) => {
    const t = { raw: 0, gzip: 0, brotli: 0 };
    for (const f of files.filter(pred)) for (const k of Object.keys(t)) t[k] += sized(f)[k];
    return t;
  };
  const isWasm = (f) => f.endsWith(".wasm");
  const entries = entryPoints(pkgDir);
  const trees = {};
  for (const tree of TREES) {
    const all = new Set();
    const perEntry = {};
    for (const e of entries) {
      const files = closure(e.files[tree]);
      files.forEach((f) => all.add(f));
      perEntry[e.subpath] = {
        files: files.map((f) => relative(pkgDir, f)),
        js: sum(files, (f) => !isWasm(f)),
        wasm: sum(files, isWasm),
        total: sum(files, () => true),
      };
    }
    const files = [...all].sort();
    trees[tree] = {
      entries: perEntry,
      whole: {
        files: files.map((f) => relative(pkgDir, f)),
        js: sum(files, (f) => !isWasm(f)),
        wasm: sum(files, isWasm),
        total: sum(files, () => true),
      },
    };
  }
  const jsBuild = sizes(readFileSync(join(pkgDir, JS_BUILD)));
  const perFile = Object.fromEntries([...cache].map(([f, s]) => [relative(pkgDir, f), s]));
  // What an application bundle gets from one entry point: `export * from` it, bundled
  // and minified by esbuild for the browser (unused code of the package shaken out;
  // the wasm, inlined, is always whole).
  const appBundle = {};
  for (const e of entries) {
    const out = buildSync({
      stdin: { contents: `export * from ${JSON.stringify(e.files.esm)};`, resolveDir: pkgDir },
      bundle: true, minify: true, write: false, format: "esm", platform: "browser", logLevel: "silent", external: [JS_BUILD_IMPORT],
    });
    appBundle[e.subpath] = sizes(Buffer.from(out.outputFiles[0].contents));
  }
  const measured = FUNCTION_BUNDLES.map(({ label, goal, budget }) => ({ label, goal, budget, ...sizes(functionBundle(label, entries).bytes) }));
  // A goal named by a peer is that peer's size in this run.
  const functions = measured.map((f) => ({ ...f, goalOf: typeof f.goal === "string" ? f.goal : undefined, goal: typeof f.goal === "string" ? measured.find((p) => p.label === f.goal).gzip : f.goal }));
  return { trees, perFile, appBundle, functions, jsBuild, tarball: tarball(pkgDir) };
}

/**
 * The function bundle of FUNCTION_BUNDLES labelled `label` (esbuild, browser, minified, the
 * JavaScript build's chunk left out): `{ bytes, metafile }`. `entries`: `entryPoints(pkgDir)`.
 */
export function functionBundle(label, entries = entryPoints(join(root, "pkg"))) {
  const { code } = FUNCTION_BUNDLES.find((b) => b.label === label);
  const file = (subpath) => JSON.stringify(entries.find((e) => e.subpath === subpath).files.esm);
  const out = buildSync({
    stdin: { contents: code(file), resolveDir: root },
    bundle: true, minify: true, write: false, format: "esm", platform: "browser", logLevel: "silent", external: [JS_BUILD_IMPORT], metafile: true,
  });
  return { bytes: Buffer.from(out.outputFiles[0].contents), metafile: out.metafile };
}

/**
 * The inputs of one function bundle, largest first: `[{ path, bytes, exports }]`, `path`
 * relative to the repository, `bytes` what esbuild's metafile counts of it in the minified
 * bundle, `exports` the names the file exports (a chunk of the package is known by them).
 * Their bytes sum to at most the bundle's raw size.
 */
export function bundleInputs(label, entries) {
  const { metafile } = functionBundle(label, entries);
  const [output] = Object.values(metafile.outputs);
  return Object.entries(output.inputs)
    .map(([path, input]) => {
      const abs = resolve(root, path);
      const text = existsSync(abs) && abs.endsWith(".js") ? readFileSync(abs, "utf8") : "";
      const listed = [...text.matchAll(/\bexport\s*\{([^}]*)\}/g)].flatMap((m) => m[1].split(",").map((x) => x.trim().split(/\s+as\s+/).pop()));
      const declared = [...text.matchAll(/\bexport\s+(?:const|let|var|function|class)\s+([\w$]+)/g)].map((m) => m[1]);
      const names = [...listed, ...declared].filter(Boolean);
      return { path: relative(root, abs), bytes: input.bytesInOutput, exports: names };
    })
    .sort((a, b) => b.bytes - a.bytes);
}

/** The packed tarball of `pkgDir`: `{ size, unpackedSize, entryCount, files }` as `npm pack --dry-run` reports it. */
export function tarball(pkgDir = join(root, "pkg")) {
  const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: pkgDir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`npm pack --dry-run failed in ${pkgDir}: ${r.stderr}`);
  const [info] = JSON.parse(r.stdout);
  return { size: info.size, unpackedSize: info.unpackedSize, entryCount: info.entryCount, files: info.files.map((f) => [f.path, f.size]) };
}

/** Every budget of the measurement `m`: `[label, measured, budget, goal]` (goal: bytes or undefined). */
export function budgets(m) {
  const out = [["packed tarball, bytes", m.tarball.size, TARBALL_BUDGET_BYTES, undefined]];
  for (const [sub, s] of Object.entries(m.appBundle)) {
    out.push([`app bundle of ${sub} (esbuild, browser), gzip`, s.gzip, APP_BUNDLE_BUDGET_GZIP[sub] ?? APP_BUNDLE_BUDGET_DEFAULT, GOALS_GZIP[sub]]);
  }
  for (const [tree, t] of Object.entries(m.trees)) {
    out.push([`${tree} tree, every entry point loaded, gzip`, t.whole.total.gzip, TREE_BUDGET_GZIP[tree], undefined]);
  }
  for (const f of m.functions.filter((x) => x.budget !== undefined)) {
    out.push([`${f.label} (esbuild, browser), gzip`, f.gzip, f.budget, f.goal]);
  }
  return out;
}

function table(m) {
  const n = (x) => String(x).padStart(7);
  const row = (label, s) => `${label.padEnd(30)} ${n(s.js.raw)} ${n(s.js.gzip)} ${n(s.js.brotli)}   ${n(s.wasm.raw)} ${n(s.wasm.gzip)} ${n(s.wasm.brotli)}   ${n(s.total.raw)} ${n(s.total.gzip)} ${n(s.total.brotli)}`;
  const lines = [];
  lines.push(`${"".padEnd(30)} ${"JS".padStart(23)}   ${"wasm".padStart(23)}   ${"total".padStart(23)}`);
  lines.push(`${"tree / entry".padEnd(30)} ${["raw", "gzip", "brotli"].map(n).join(" ")}   ${["raw", "gzip", "brotli"].map(n).join(" ")}   ${["raw", "gzip", "brotli"].map(n).join(" ")}`);
  for (const [tree, t] of Object.entries(m.trees)) {
    for (const [sub, s] of Object.entries(t.entries)) lines.push(row(`${tree} ${sub}`, s));
    lines.push(row(`${tree} every entry point`, t.whole));
    lines.push("");
  }
  lines.push(`the JavaScript build, loaded only where WebAssembly is refused (${JS_BUILD}): ${m.jsBuild.raw} / ${m.jsBuild.gzip} / ${m.jsBuild.brotli} B raw / gzip / brotli`);
  lines.push(`packed tarball: ${m.tarball.size} B (${m.tarball.entryCount} files, ${m.tarball.unpackedSize} B unpacked)`);
  lines.push("");
  lines.push("application bundle of one entry point (esbuild --bundle --minify --platform=browser; wasm inlined; the JavaScript build's chunk left out):");
  for (const [sub, s] of Object.entries(m.appBundle)) lines.push(`  ${sub.padEnd(36)} ${n(s.raw)} ${n(s.gzip)} ${n(s.brotli)}`);
  lines.push("");
  lines.push("what an app ships for one function, beside its peers (same esbuild run; raw / gzip / brotli, budget and goal gzip):");
  for (const f of m.functions) {
    const budget = f.budget === undefined ? "" : `budget ${f.budget}`;
    const goal = f.goal ? `goal ${f.goal}${f.goalOf ? ` (${f.goalOf}'s)` : ""}${f.gzip <= f.goal ? "" : ` (over by ${f.gzip - f.goal})`}` : "";
    lines.push(`  ${f.label.padEnd(52)} ${n(f.raw)} ${n(f.gzip)} ${n(f.brotli)}   ${[budget, goal].filter(Boolean).join(", ")}`);
  }
  lines.push("");
  lines.push("per file (bytes raw / gzip / brotli):");
  for (const [f, s] of Object.entries(m.perFile)) lines.push(`  ${f.padEnd(36)} ${n(s.raw)} ${n(s.gzip)} ${n(s.brotli)}`);
  return lines.join("\n");
}

/** `--modules [label]`: the largest inputs of one function bundle, as lines of text. */
function modulesTable(wanted) {
  const bundle = FUNCTION_BUNDLES.find((b) => b.budget !== undefined && b.label.includes(wanted));
  if (!bundle) return undefined;
  const { bytes } = functionBundle(bundle.label);
  const inputs = bundleInputs(bundle.label);
  const lines = [`largest inputs of ${bundle.label} (esbuild metafile: minified bytes in the bundle; bundle ${bytes.length} B raw, ${sizes(bytes).gzip} B gzip):`];
  for (const i of inputs.slice(0, 15)) {
    const share = `${((100 * i.bytes) / bytes.length).toFixed(1)} %`.padStart(7);
    const names = i.exports.length > 8 ? `${i.exports.slice(0, 8).join(", ")}, … (${i.exports.length})` : i.exports.join(", ");
    lines.push(`  ${String(i.bytes).padStart(7)} ${share}  ${i.path}${names ? `  [${names}]` : ""}`);
  }
  if (inputs.length > 15) lines.push(`  … ${inputs.length - 15} more inputs, ${inputs.slice(15).reduce((t, i) => t + i.bytes, 0)} B`);
  return lines.join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv.includes("--modules")) {
  const next = process.argv[process.argv.indexOf("--modules") + 1];
  const wanted = next && !next.startsWith("--") ? next : "{ retry, Backoff }";
  const text = modulesTable(wanted);
  if (text) console.log(text);
  else {
    const labels = FUNCTION_BUNDLES.filter((b) => b.budget !== undefined).map((b) => b.label);
    console.error(`size: --modules ${JSON.stringify(wanted)} is in no label of ours: ${labels.join(" | ")}`);
    process.exitCode = 2;
  }
} else if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const m = measure();
  if (process.argv.includes("--json")) console.log(JSON.stringify(m, null, 2));
  else console.log(table(m));
  let over = false;
  for (const [label, got, budget, goal] of budgets(m)) {
    over ||= got > budget;
    const beside = goal === undefined ? "" : `; goal ${goal}, ${got <= goal ? "goal met" : "goal not met"}`;
    console.error(`${got <= budget ? "ok  " : "OVER"} ${label}: ${got} (budget ${budget}${beside})`);
  }
  const wasm = Object.entries(m.perFile).find(([f]) => f.endsWith(".wasm"))?.[1];
  const goals = [["wasm, gzip", wasm?.gzip, GOALS_GZIP.wasm]];
  for (const sub of ["./sigil", "./backoff"]) goals.push([`app bundle of ${sub}, gzip`, m.appBundle[sub]?.gzip, GOALS_GZIP[sub]]);
  for (const f of m.functions.filter((x) => x.goal)) goals.push([`${f.label}, gzip`, f.gzip, f.goal]);
  for (const [label, got, goal] of goals) {
    console.error(`goal ${got !== undefined && got <= goal ? "met    " : "not met"} ${label}: ${got} (goal ${goal})`);
  }
  process.exitCode = over ? 1 : 0;
}
