// Assembles pkg/ (what `npm pack ./pkg` publishes) from pkg-template/, the
// wasm-bindgen output in build/bindgen and the compiled wrappers in build/js.
//
// One .wasm file serves every runtime. Each runtime tree holds ONE bundled
// module, backoff-wasm.js (every wrapper, the wasm-bindgen glue and that
// runtime's loader, minified by esbuild, with a source map), and one small file
// per entry point that re-exports its names from it:
//   dist/esm      Node/Bun `import`        (reads the .wasm with fs, synchronously)
//   dist/cjs      Node `require`           (same, CommonJS)
//   dist/browser  browsers, bundlers, Deno (wasm inlined as a string in wasm-inline.js
//                 and compiled synchronously; Deno gets it through the "deno"
//                 condition, so importing needs no --allow-read)
//   dist/workerd  Cloudflare Workers       (imports the .wasm as a precompiled module)
//   dist/types    .d.ts for every entry point (tsc output, with docs); a copy
//                 in dist/cjs types `require` (read there as CommonJS)
// One module per tree rather than one file per wrapper: every entry point then
// shares one copy of the code and one gzip stream (measured by scripts/size.mjs:
// see bench/README.md, "Size"). The command (dist/esm/cli.js) is a bundle of its own.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";

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

/** Entry points: "./sigil" → "sigil" (the file name of the entry in every tree). */
const entries = Object.values(manifest.exports)
  .filter((t) => typeof t === "object" && t.workerd)
  .map((t) => t.workerd.replace("./dist/workerd/", "").replace(/\.js$/, ""));

// Whitespace and syntax are minified, identifiers are not: every function and class
// keeps its own name in stack traces and consoles without esbuild's `keepNames`
// wrappers, which would stop application bundlers from dropping the parts of the
// package an app does not import (measured: see bench/README.md, "Size").
const minified = {
  bundle: true, minify: true, keepNames: true, legalComments: "none",
  sourcemap: "linked", sourcesContent: true, logLevel: "warning",
};
const banner = `/* backoff-wasm ${manifest.version}, MIT */`;

/** A staging copy of the wrappers with `loader` as ./wasm.js. */
function staged(name, loader) {
  const dir = join(stage, name);
  cpSync(compiled, dir, { recursive: true });
  cpSync(join(bindgen, "backoff_wasm.js"), join(dir, "backoff_wasm.js"));
  cpSync(at("js", "loaders", loader), join(dir, "wasm.js"));
  return dir;
}

/**
 * Every other entry point's names as names of the main entry (`.`, index.js), which
 * exports them all: `[name, nameInIndex]` pairs (`/duration`'s `parse` is the
 * index's `parseDuration`), found by importing the staged ESM modules and matching
 * the values themselves.
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
 * Turns the bundle at `file` (ESM whose only module syntax is its closing
 * `export{a as B,…};`, since the CommonJS loader reaches Node through
 * `module.require`) into CommonJS: `module.exports={B:a,…};`. The statement ends
 * the code, so the source map stays exact. Smaller than esbuild's CommonJS
 * output, whose live-binding getters cost ~0.5 KB gzip.
 */
function commonjs(file) {
  const code = readFileSync(file, "utf8");
  const m = /export\{([\w$ ,]+)\};\n(\/\/# sourceMappingURL=[^\n]+\n)$/.exec(code);
  const body = m ? code.slice(0, m.index) : "";
  if (!m || /(^|[;}])(import|export)\b/.test(body.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""'))) {
    throw new Error(`assemble: ${file} is not an ESM bundle with one closing export`);
  }
  const pairs = m[1].split(",").map((p) => p.split(" as ")).map(([local, name]) => `${name ?? local}:${local}`);
  writeFileSync(file, `"use strict";${body}module.exports={${pairs.join(",")}};\n${m[2]}`);
}

/**
 * The tree's one module, index.js (the main entry bundled with the tree's loader),
 * and each other entry point as a file re-exporting its names from it.
 */
function tree(name, loader, names, { format = "esm", external = [] } = {}) {
  const dir = staged(name, loader);
  const out = join(pkg, "dist", name);
  buildSync({
    ...minified, entryPoints: [join(dir, "index.js")], outfile: join(out, "index.js"), format: "esm",
    platform: "neutral", target: format === "cjs" ? "node20" : "es2022",
    external: ["node:*", ...external], banner: { js: banner }, logOverride: { "commonjs-variable-in-esm": "silent" },
  });
  if (format === "cjs") commonjs(join(out, "index.js"));
  for (const e of entries.filter((e) => e !== "index")) {
    const pairs = names[e];
    const text = format === "cjs"
      ? `"use strict";\nconst m = require("./index.js");\n${pairs.map(([n, k]) => `exports.${n} = m.${k};`).join("\n")}\n`
      : `export { ${pairs.map(([n, k]) => (n === k ? n : `${k} as ${n}`)).join(", ")} } from "./index.js";\n`;
    writeFileSync(join(out, `${e}.js`), text);
  }
  return out;
}

/**
 * The wasm bytes as the text of a JS string literal, one character per byte:
 * bytes below 0x80 as themselves (only `"`, `\\`, LF and CR escaped), the rest
 * (~10 %) as `\\xNN`, so the file is pure ASCII and reads the same under any
 * charset a page or server declares. Each byte keeps one fixed spelling, so gzip
 * still finds the wasm's repeats: measured on the 14 994 B wasm, 8 033 B gzip
 * against 7 631 for the .wasm itself, 8 306 as hex, 9 935 as base64 (raw bytes
 * 0x80–0xFF as UTF-8 were 7 958, but a bundle of them served without a charset
 * to a classic script decodes as windows-1252 and breaks). The file is left out
 * of the bundle (esbuild would re-escape it).
 */
function wasmLiteral(bytes) {
  const escapes = { 0x22: '\\"', 0x5c: "\\\\", 0x0a: "\\n", 0x0d: "\\r" };
  let text = "";
  for (const b of bytes) text += escapes[b] ?? (b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16)}`);
  return text;
}

cpSync(join(bindgen, "backoff_wasm_bg.wasm"), join(stage, "backoff_wasm_bg.wasm")); // for the staged Node loader
const names = await namesInIndex(staged("esm", "node.js"));
tree("esm", "node.js", names);
tree("browser", "browser.js", names, { external: ["./wasm-inline.js"] });
writeFileSync(join(pkg, "dist", "browser", "wasm-inline.js"), `export const wasmText = "${wasmLiteral(wasmBytes)}";\n`, "utf8");
tree("workerd", "workerd.js", names, { external: ["*.wasm"] });
const cjs = tree("cjs", "cjs.js", names, { format: "cjs" });
writeFileSync(join(cjs, "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");

// Source map paths: the staged copies stand for js/*.ts (their text is in sourcesContent).
for (const file of ["esm/index.js.map", "browser/index.js.map", "workerd/index.js.map", "cjs/index.js.map"]) {
  const path = join(pkg, "dist", file);
  const map = JSON.parse(readFileSync(path, "utf8"));
  map.sources = map.sources.map((s) => s.replace(/^(\.\.\/)+build\/(js|stage\/\w+)\//, "../../js/"));
  writeFileSync(path, JSON.stringify(map));
}

// The command: Node only (node:util, node:fs), a bundle of its own next to the ESM tree.
buildSync({
  ...minified, entryPoints: [join(stage, "esm", "cli.js")], outfile: join(pkg, "dist", "esm", "cli.js"), format: "esm",
  define: { __BACKOFF_WASM_VERSION__: JSON.stringify(manifest.version) },
  platform: "node", target: "node20", external: ["node:*"], banner: { js: banner },
});

// Types: tsc's declarations plus the glue's (internal, referenced by them).
for (const f of readdirSync(compiled).filter((f) => f.endsWith(".d.ts"))) {
  cpSync(join(compiled, f), join(pkg, "dist", "types", f));
}
cpSync(join(bindgen, "backoff_wasm.d.ts"), join(pkg, "dist", "types", "backoff_wasm.d.ts"));
cpSync(at("js", "wasm.d.ts"), join(pkg, "dist", "types", "wasm.d.ts"));
// The same declarations beside the CommonJS files, for `require` (the exports
// map's nested "types" → "require" condition). dist/cjs/package.json says
// "type": "commonjs", so TypeScript reads them as CommonJS modules; the ESM
// copies in dist/types would make a `.cts` consumer under node16 fail with
// TS1479 ("the referenced file is an ECMAScript module").
for (const f of readdirSync(join(pkg, "dist", "types"))) {
  cpSync(join(pkg, "dist", "types", f), join(cjs, f));
}

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
