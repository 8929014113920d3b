// Assembles pkg/ (what `npm pack ./pkg` publishes) from pkg-template/, the
// wasm-bindgen output in build/bindgen and the compiled wrappers in build/js.
//
// Three JS trees that differ only in how the wasm arrives (js/loaders/):
//   dist/esm      every ESM runtime but workerd: Node and Bun `import`, browsers,
//                 bundlers, Deno. The wasm bytes are inlined (wasm-inline.js) and
//                 compiled synchronously: no file path, so bundling for Node works too.
//   dist/cjs      `require`: one CommonJS module (index.js, wasm inlined at its end)
//                 and one small file per other entry point re-exporting from it.
//   dist/workerd  Cloudflare Workers: imports dist/backoff_wasm_bg.wasm as a
//                 precompiled module (workerd refuses to compile bytes).
//   dist/types    the declarations (tsc, with docs), one copy for every tree.
// The ESM trees are built by esbuild with code splitting: each entry point is a
// small file importing shared chunks, so importing `backoff-wasm/sigil` loads
// neither the chart, nor the CLI helpers, nor the retry runtime, while every
// class exists once per tree (instanceof holds across entry points). The
// command (dist/esm/cli.js) is one more entry point of the ESM tree.
// Whitespace and syntax are minified, identifiers are not, so every function and
// class keeps its name without esbuild's `keepNames` wrappers (which cost ~1.2 KB
// gzip in every application bundle and block tree shaking). No source maps: with
// the names kept, a stack trace reads as the source does, and maps that embed
// js/*.ts were 70 % of the tarball.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createHash } from "node:crypto";
import { buildSync } from "esbuild";
import { gzipSync } from "node:zlib";

const root = new URL("..", import.meta.url).pathname;
const at = (...p) => join(root, ...p);
const pkg = at("pkg");
const bindgen = at("build", "bindgen");
const compiled = at("build", "js");
const stage = at("build", "stage");

rmSync(pkg, { recursive: true, force: true });
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(pkg, "dist", "types"), { recursive: true });
cpSync(at("pkg-template"), pkg, { recursive: true });

const wasmBytes = readFileSync(join(bindgen, "backoff_wasm_bg.wasm"));
writeFileSync(join(pkg, "dist", "backoff_wasm_bg.wasm"), wasmBytes);
const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
// Version from Cargo.toml, so the crate and the package never disagree.
manifest.version = /^version = "([^"]+)"/m.exec(readFileSync(at("Cargo.toml"), "utf8"))[1];

/**
 * Entry points: "." → "index", "./sigil" → "sigil" (the file name of the entry in every
 * tree), in the template's order. Each one's conditions are written here, one shape
 * for all (so a template entry only needs its subpath): types, then workerd (it must
 * come before the others: Wrangler also matches "import"/"default"), require, default.
 */
const entries = Object.keys(manifest.exports)
  .filter((k) => k !== "./package.json")
  .map((k) => (k === "." ? "index" : k.replace(/^\.\//, "")));
manifest.exports = Object.fromEntries([
  ...entries.map((e) => [e === "index" ? "." : `./${e}`, {
    types: `./dist/types/${e}.d.ts`, workerd: `./dist/workerd/${e}.js`, require: `./dist/cjs/${e}.js`, default: `./dist/esm/${e}.js`,
  }]),
  ["./package.json", "./package.json"],
]);

const minified = {
  bundle: true, minifyWhitespace: true, minifySyntax: true, legalComments: "none",
  sourcemap: false, logLevel: "warning",
  define: { __BACKOFF_WASM_VERSION__: JSON.stringify(manifest.version) },
};
const banner = `/* backoff-wasm ${manifest.version}, MIT */`;

/**
 * wasm-bindgen's glue with its two instantiation steps also exported, as `imports` (the
 * import object) and `finalize` (records the instance, runs its start function, returns its
 * exports): the loaders instantiate with them, and the wrappers call the exports directly
 * (js/abi.ts), so neither `initSync` (with its argument checks and warnings) nor the export
 * wrappers reach an application bundle (~0.9 KB minified per entry point, `npm run size`).
 */
function glue() {
  const code = readFileSync(join(bindgen, "backoff_wasm.js"), "utf8");
  for (const f of ["__wbg_get_imports", "__wbg_finalize_init"]) {
    if (!code.includes(`function ${f}(`)) throw new Error(`assemble: wasm-bindgen's glue has no ${f} (js/loaders/ need it)`);
  }
  return `${code}\nexport { __wbg_get_imports as imports, __wbg_finalize_init as finalize };\n`;
}

/** A staging copy of the wrappers with `loader` as ./wasm.js. */
function staged(name, loader) {
  const dir = join(stage, name);
  cpSync(compiled, dir, { recursive: true });
  writeFileSync(join(dir, "backoff_wasm.js"), glue());
  cpSync(at("js", "loaders", loader), join(dir, "wasm.js"));
  return dir;
}

/**
 * The wasm bytes as the text of a JS string literal, one character per byte: each
 * byte XOR a key below 0x80, the result below 0x80 as itself (only `"`, `\\`, LF and
 * CR escaped), the rest (~10 %) as `\\xNN`, so the file is pure ASCII and reads the
 * same under any charset a page or server declares. Every wasm module starts with
 * the byte 0 (`\\0asm`), so the text's first character is the key, and the loaders
 * (js/loaders/inline.js, cjs.js) decode with `charCodeAt(i) ^ charCodeAt(0)`.
 * Each byte keeps one fixed spelling, so gzip still finds the wasm's repeats.
 *
 * The key: an application bundle carries esbuild's reprint of this literal (a template
 * literal in which `\\0`, `` \\` `` and 0x7F, the wasm's `i32`, take 2–4 characters),
 * gzipped together with the package's JS, so the build writes the text with every key
 * into `dir`/wasm-inline.js, bundles `dir`/index.js as an application would (esbuild,
 * browser, minified: `npm run size`'s app bundle of the index) and keeps the key whose
 * bundle gzips smallest. Measured on the 17 072 B wasm, app bundles (gzip) with the
 * bytes as themselves (key 0) → with the key picked (68): index 24 459 → 24 327,
 * `/sigil` 12 798 → 12 513, `/duration` 11 228 → 10 908; the key that is best for
 * the index was best for every entry point tried. Picking by the gzip of the literal's
 * reprint alone chose 49 (index 24 418). Base64: `/duration` 13 481 on the 17 506 B
 * wasm; a frequency-sorted permutation (frequent bytes one character, a 256-entry
 * table to decode) 54 B less than the best key before its table.
 */
function wasmLiteral(bytes, dir) {
  const spell = (key) => {
    const escapes = { 0x22: '\\"', 0x5c: "\\\\", 0x0a: "\\n", 0x0d: "\\r" };
    let text = "";
    for (const byte of bytes) {
      const b = byte ^ key;
      text += escapes[b] ?? (b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16)}`);
    }
    return text;
  };
  let best;
  for (let key = 0; key < 0x80; key++) {
    const text = spell(key);
    writeFileSync(join(dir, "wasm-inline.js"), `export const wasmText = "${text}";\n`, "utf8");
    const app = buildSync({
      stdin: { contents: `export * from ${JSON.stringify(join(dir, "index.js"))};`, resolveDir: dir },
      bundle: true, minify: true, write: false, format: "esm", platform: "browser", logLevel: "silent",
    }).outputFiles[0].contents;
    const size = gzipSync(app, { level: 9 }).length;
    if (!best || size < best.size) best = { text, size };
  }
  return best.text;
}

/**
 * Class names as written. Bundling turns `class SigilError { … SigilError … }` (a
 * class that names itself inside) into `var SigilError=class _SigilError{…}`, whose
 * `name` is "_SigilError" (Node then prints errors as `_SigilError [SigilError]`).
 * The inner binding gets the outer name back: inside the class it shadows a variable
 * holding the same class, so nothing else changes. (esbuild's `keepNames` would do it
 * with a `__name()` call per function and class: ~1.2 KB gzip more in every app
 * bundle, measured with `npm run size`.)
 */
function classNames(dir) {
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".js"))) {
    let code = readFileSync(join(dir, f), "utf8");
    for (const [, name] of code.matchAll(/(?:\bvar |,)([A-Za-z$][\w$]*)=class _\1\b/g)) {
      code = code.replace(new RegExp(`(?<![\\w$.])_${name.replace(/\$/g, "\\$")}(?![\\w$])`, "g"), name);
    }
    writeFileSync(join(dir, f), code);
  }
}

/**
 * An ESM tree: every entry point (plus `extra` ones) built together with code
 * splitting; chunks sit beside the entries, so the loader's external imports
 * (./wasm-inline.js, ../backoff_wasm_bg.wasm) resolve from any of them.
 */
function esmTree(name, loader, { external = [], extra = [] } = {}) {
  const dir = staged(name, loader);
  const out = join(pkg, "dist", name);
  buildSync({
    ...minified, entryPoints: [...entries, ...extra].map((e) => ({ in: join(dir, `${e}.js`), out: e })),
    outdir: out, format: "esm", splitting: true, chunkNames: "chunk-[hash]",
    platform: "neutral", target: "es2022", external: ["node:*", ...external], banner: { js: banner },
  });
  classNames(out);
  canonicalChunkNames(out);
  return out;
}

/**
 * Renames every chunk of a tree after a hash of its code with the names of other chunks
 * left out, so a chunk whose code is the same in the esm and workerd trees (all but the
 * loader's) has the same name in both. npm packs files ordered by name, so such twins sit
 * next to each other in the tarball and the second one costs almost nothing after gzip;
 * with esbuild's own names (hashes that also cover the loader) where twins landed was
 * luck: 111–122 KB for the same code.
 */
function canonicalChunkNames(dir) {
  const CHUNK = /chunk-[A-Z0-9]+\.js/g;
  const files = readdirSync(dir).filter((f) => f.endsWith(".js"));
  const rename = new Map();
  for (const f of files.filter((f) => /^chunk-[A-Z0-9]+\.js$/.test(f))) {
    const code = readFileSync(join(dir, f), "utf8").replace(CHUNK, "chunk.js");
    const name = `chunk-${createHash("sha256").update(code).digest("hex").slice(0, 8).toUpperCase()}.js`;
    if ([...rename.values()].includes(name)) throw new Error(`assemble: two chunks of ${dir} would both be ${name}`);
    rename.set(f, name);
  }
  const out = files.map((f) => [rename.get(f) ?? f, readFileSync(join(dir, f), "utf8").replace(CHUNK, (c) => rename.get(c) ?? c)]);
  for (const f of files) rmSync(join(dir, f));
  for (const [f, code] of out) writeFileSync(join(dir, f), code);
}

/**
 * Every other entry point's names as names of the main entry (`.`, index.js), which
 * exports them all: `[name, nameInIndex]` pairs (`/duration`'s `parse` is the
 * index's `parseDuration`), found by importing the built ESM entry points and
 * matching the values themselves.
 */
async function namesInIndex(dir) {
  const mods = {};
  for (const e of entries) mods[e] = await import(pathToFileURL(join(dir, `${e}.js`)).href);
  const index = Object.entries(mods.index);
  return Object.fromEntries(entries.map((e) => [e, Object.entries(mods[e]).map(([n, v]) => {
    if (mods.index[n] === v && n in mods.index) return [n, n];
    const same = index.find(([, w]) => (typeof v === "function" || typeof v === "object") && w === v);
    if (!same) throw new Error(`assemble: ${e} exports ${n}, which index.js does not export`);
    return [n, same[0]];
  })]));
}

/**
 * The CommonJS tree: index.js is the main entry bundled with the CommonJS loader
 * as ESM whose only module syntax is its closing `export{a as B,…};`, turned into
 * `module.exports={B:a,…};` (smaller than esbuild's CommonJS output, whose
 * live-binding getters cost ~0.5 KB gzip); the wasm text follows as the hoisted
 * function the loader calls. Each other entry point re-exports its names.
 */
function cjsTree(names) {
  const dir = staged("cjs", "cjs.js");
  const out = join(pkg, "dist", "cjs");
  const file = join(out, "index.js");
  buildSync({
    ...minified, entryPoints: [join(dir, "index.js")], outfile: file, format: "esm",
    platform: "neutral", target: "node20", external: ["node:*"], banner: { js: banner },
  });
  classNames(out);
  const code = readFileSync(file, "utf8");
  const m = /export\s*\{([\w$\s,]+)\};\n((?:\/\/# sourceMappingURL=[^\n]+\n)?)$/.exec(code);
  const body = m ? code.slice(0, m.index) : "";
  if (!m || /(^|[;}])(import|export)\b/.test(body.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""'))) {
    throw new Error(`assemble: ${file} is not an ESM bundle with one closing export`);
  }
  const pairs = m[1].split(",").map((p) => p.trim()).filter(Boolean).map((p) => p.split(" as "))
    .map(([local, name]) => `${name ?? local}:${local}`);
  writeFileSync(file, `"use strict";${body}module.exports={${pairs.join(",")}};\n` +
    `function __backoffWasmText(){return "${wasmText}"}\n${m[2]}`);
  for (const e of entries.filter((e) => e !== "index")) {
    const text = `"use strict";\nconst m = require("./index.js");\n${names[e].map(([n, k]) => `exports.${n} = m.${k};`).join("\n")}\n`;
    writeFileSync(join(out, `${e}.js`), text);
  }
  writeFileSync(join(out, "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
}

const esm = esmTree("esm", "inline.js", { external: ["./wasm-inline.js"], extra: ["cli"] });
const wasmText = wasmLiteral(wasmBytes, esm);
writeFileSync(join(esm, "wasm-inline.js"), `export const wasmText = "${wasmText}";\n`, "utf8");
esmTree("workerd", "workerd.js", { external: ["*.wasm"] });
cjsTree(await namesInIndex(esm));

// Types: tsc's declarations (plus the glue's, internal, when referenced), one
// copy for ESM and CommonJS consumers. dist/types/package.json says "commonjs":
// TypeScript then reads them as CommonJS declarations, which a `require`
// (`.cts`, node16/nodenext) may load and an ESM `import` may too (named
// imports from CommonJS); as ESM declarations a `.cts` consumer would fail
// with TS1479 ("the referenced file is an ECMAScript module").
for (const f of readdirSync(compiled).filter((f) => f.endsWith(".d.ts"))) {
  cpSync(join(compiled, f), join(pkg, "dist", "types", f));
}
// The glue's declarations (18 KB raw) ship only while a public declaration refers to them.
const types = join(pkg, "dist", "types");
if (readdirSync(types).some((f) => /from "\.\/(wasm|backoff_wasm)\.js"/.test(readFileSync(join(types, f), "utf8")))) {
  cpSync(join(bindgen, "backoff_wasm.d.ts"), join(types, "backoff_wasm.d.ts"));
  cpSync(at("js", "wasm.d.ts"), join(types, "wasm.d.ts"));
}
writeFileSync(join(pkg, "dist", "types", "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");

// The command.
mkdirSync(join(pkg, "bin"), { recursive: true });
cpSync(at("js", "bin.js"), join(pkg, "bin", "backoff-wasm.js"));
chmodSync(join(pkg, "bin", "backoff-wasm.js"), 0o755);

// The package README: the user-facing part of the repository README (between the
// package-readme markers), without the repository's images.
const readme = readFileSync(at("README.md"), "utf8");
const body = readme.split("<!-- package-readme:start -->")[1].split("<!-- package-readme:end -->")[0];
writeFileSync(join(pkg, "README.md"), "# backoff-wasm\n\n" + body.split("\n").filter((l) => !l.startsWith("![")).join("\n").trim() + "\n");

cpSync(at("LICENSE"), join(pkg, "LICENSE"));

writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
console.error(`[build] pkg/ ready: backoff-wasm@${manifest.version}, wasm ${wasmBytes.length} bytes`);
