// `npm run size`: what each runtime tree of the built package (pkg/) loads,
// in raw, gzip (level 9) and brotli (quality 11) bytes.
//
// For every entry point of pkg/package.json `exports` and every runtime tree
// (esm, cjs, browser, workerd) it follows the relative imports/requires of the
// shipped JS from the entry file and adds the wasm the tree's loader reads
// (dist/backoff_wasm_bg.wasm for esm, cjs and workerd; the browser tree carries
// the wasm inlined as a string in wasm-inline.js, which is counted once, as JS).
// Each file is compressed on its own and the sizes are summed (what a runtime
// fetching the files one by one transfers; a bundle compresses a little better).
//
// "Whole package" is the union of the files of every entry point of a tree:
// the budget (BUDGET_GZIP_BYTES) applies to it. Exit code 1 when a tree is
// over budget. `--json` prints the measurement as JSON.
import { readFileSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { buildSync } from "esbuild";

/** Budget for everything one runtime loads (wasm + JS of one tree), gzip bytes: 20 KB. */
export const BUDGET_GZIP_BYTES = 20 * 1000;
/** The runtime trees under pkg/dist. */
export const TREES = ["esm", "cjs", "browser", "workerd"];

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Raw, gzip -9 and brotli q11 sizes of a buffer, in bytes. */
export function sizes(buf) {
  return {
    raw: buf.length,
    gzip: gzipSync(buf, { level: 9 }).length,
    brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](\.{1,2}\/[^"']+)["']|new URL\(\s*["'](\.{1,2}\/[^"']+)["']|__dirname,\s*["'](\.\.)["'],\s*["']([^"']+)["']\)/g;

/** Files (absolute paths) loaded when `entry` is imported: JS graph + wasm. */
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
      const spec = m[1] ?? m[2] ?? (m[3] ? `${m[3]}/${m[4]}` : undefined);
      if (!spec) continue;
      const target = resolve(dirname(file), spec);
      if (existsSync(target)) todo.push(target);
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
    const base = target.workerd.replace("./dist/workerd/", "");
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
  const perFile = Object.fromEntries([...cache].map(([f, s]) => [relative(pkgDir, f), s]));
  // What an application bundle gets from one entry point: `export * from` it, bundled
  // and minified by esbuild for the browser (unused code of the package shaken out;
  // the wasm, inlined, is always whole).
  const appBundle = {};
  for (const e of entries) {
    const out = buildSync({
      stdin: { contents: `export * from ${JSON.stringify(e.files.browser)};`, resolveDir: pkgDir },
      bundle: true, minify: true, write: false, format: "esm", platform: "browser", logLevel: "silent",
    });
    appBundle[e.subpath] = sizes(Buffer.from(out.outputFiles[0].contents));
  }
  return { budgetGzipBytes: BUDGET_GZIP_BYTES, trees, perFile, appBundle };
}

function table(m) {
  const n = (x) => String(x).padStart(7);
  const row = (label, s) => `${label.padEnd(30)} ${n(s.js.raw)} ${n(s.js.gzip)} ${n(s.js.brotli)}   ${n(s.wasm.raw)} ${n(s.wasm.gzip)} ${n(s.wasm.brotli)}   ${n(s.total.raw)} ${n(s.total.gzip)} ${n(s.total.brotli)}`;
  const lines = [];
  lines.push(`${"".padEnd(30)} ${"JS".padStart(23)}   ${"wasm".padStart(23)}   ${"total".padStart(23)}`);
  lines.push(`${"tree / entry".padEnd(30)} ${["raw", "gzip", "brotli"].map(n).join(" ")}   ${["raw", "gzip", "brotli"].map(n).join(" ")}   ${["raw", "gzip", "brotli"].map(n).join(" ")}`);
  for (const [tree, t] of Object.entries(m.trees)) {
    for (const [sub, s] of Object.entries(t.entries)) lines.push(row(`${tree} ${sub}`, s));
    lines.push(row(`${tree} WHOLE PACKAGE`, t.whole));
    lines.push("");
  }
  lines.push("application bundle of one entry point (esbuild --bundle --minify, browser tree, tree-shaken; wasm inlined):");
  for (const [sub, s] of Object.entries(m.appBundle)) lines.push(`  ${sub.padEnd(36)} ${n(s.raw)} ${n(s.gzip)} ${n(s.brotli)}`);
  lines.push("");
  lines.push("per file (bytes raw / gzip / brotli):");
  for (const [f, s] of Object.entries(m.perFile)) lines.push(`  ${f.padEnd(36)} ${n(s.raw)} ${n(s.gzip)} ${n(s.brotli)}`);
  return lines.join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const m = measure();
  if (process.argv.includes("--json")) console.log(JSON.stringify(m, null, 2));
  else console.log(table(m));
  let over = false;
  for (const [tree, t] of Object.entries(m.trees)) {
    const ok = t.whole.total.gzip <= m.budgetGzipBytes;
    over ||= !ok;
    console.error(`${ok ? "ok  " : "OVER"} ${tree}: whole package ${t.whole.total.gzip} B gzip (budget ${m.budgetGzipBytes} B)`);
  }
  process.exitCode = over ? 1 : 0;
}
