// Assembles pkg/ (what `npm pack ./pkg` publishes) from pkg-template/, the
// wasm-bindgen output in build/bindgen and the compiled wrappers in build/js.
//
// Four JS trees that differ only in how the wasm arrives (js/engine/loaders/):
//   dist/esm      every ESM runtime but workerd and Node: browsers and their bundlers.
//                 The wasm bytes are inlined (wasm-inline.js) and compiled synchronously;
//                 where that is refused, the JavaScript build (wasm-js.js) is imported
//                 dynamically, awaited at the top level on that path only.
//   dist/node     the `node` condition (Node and Bun `import`, Deno, bundling for Node):
//                 no top-level await; one small file per entry point re-exporting from
//                 lib.js, one bundle of all the code with the wasm bytes at its end as
//                 base64, or, for the entry points that load no wasm, from base.js; the
//                 JavaScript build is dist/esm's wasm-js.js, imported statically.
//   dist/cjs      `require`: one CommonJS module (index.js, wasm inlined at its end)
//                 and one small file per other entry point re-exporting from it.
//   dist/workerd  Cloudflare Workers: imports dist/backoff_wasm_bg.wasm as a
//                 precompiled module (workerd refuses to compile bytes).
//   dist/types    the declarations (tsc, with docs), read as CommonJS, for `require`;
//                 dist/types/esm the same files read as ESM, for the ESM trees.
// The esm and workerd trees are built by esbuild with code splitting: each entry point is a
// small file importing shared chunks, so importing `backoff-wasm/sigil` loads
// neither the chart, nor the CLI helpers, nor the retry runtime, while every
// class exists once per tree (instanceof holds across entry points). The
// command (dist/esm/cli.js) is one more entry point of the ESM tree. The node tree
// loads few files instead (`nodeTree`): in Node each file costs more start-up than the
// code it would leave out.
// Whitespace and syntax are minified, identifiers are not, so every function and
// class keeps its name without esbuild's `keepNames` wrappers (which add a call per function and
// class to every application bundle and block tree shaking). No source maps: with
// the names kept, a stack trace reads as the source does, and maps that embed
// js/**/*.ts would be most of the tarball.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createHash } from "node:crypto";
import { buildSync, transformSync } from "esbuild";
import { gzipSync } from "node:zlib";
import { jsBuild } from "./js-build.mjs";

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

/** Unsigned LEB128 of `n`. */
const leb = (n) => {
  const out = [];
  do {
    const b = n & 0x7f;
    n >>>= 7;
    out.push(n ? b | 0x80 : b);
  } while (n);
  return out;
};
/** The unsigned LEB128 at `at` in `buf`: [value, offset after it]. */
const readLeb = (buf, at) => {
  let n = 0;
  for (let shift = 0; ; shift += 7) {
    const b = buf[at++];
    n |= (b & 0x7f) << shift;
    if (b < 0x80) return [n >>> 0, at];
  }
};

/**
 * The wasm with short names for what crosses to JavaScript, and the map from each
 * exported name to its short one. Exports: every function and the table get one or
 * two letters (`compileCurve` → `a`, …, in export order; `memory` keeps its name);
 * wasm-bindgen's globals that its glue never reads (`__abort_handler`,
 * `__instance_terminated`) are not exported. Imports: the module
 * `./backoff_wasm_bg.js` becomes `w`, js/engine/draw.ts's draw `draw` and the externref
 * table set-up `table` (js/engine/loaders/instantiate.js provides them by these names).
 * Every application bundle carries these names twice, in the wasm and in the JS that
 * calls it (`wasm.compileCurve(…)`, rewritten by `shortCalls`), so short names shrink both. wasm-bindgen's own tests
 * (tests/wasm_*.rs) run the module with its names.
 */
function shortWasm(bytes, glueCode) {
  const names = new Map();
  const short = (i) => (i < 26 ? "" : String.fromCharCode(97 + Math.floor(i / 26) - 1)) + String.fromCharCode(97 + (i % 26));
  const str = (at) => {
    const [len, s] = readLeb(bytes, at);
    return [Buffer.from(bytes.subarray(s, s + len)).toString("utf8"), s + len];
  };
  const name = (text) => [...leb(Buffer.byteLength(text)), ...Buffer.from(text)];
  const limits = (at) => {
    const flags = bytes[at];
    let [, p] = readLeb(bytes, at + 1);
    if (flags & 1) [, p] = readLeb(bytes, p);
    return p;
  };
  const out = [...bytes.subarray(0, 8)];
  for (let at = 8; at < bytes.length;) {
    const id = bytes[at];
    const [size, body] = readLeb(bytes, at + 1);
    let content = [...bytes.subarray(body, body + size)];
    if (id === 2 || id === 7) {
      let [count, p] = readLeb(bytes, body);
      const entries = [];
      for (let i = 0; i < count; i++) {
        if (id === 2) {
          const [module, a] = str(p);
          const [field, b] = str(a);
          const kind = bytes[b];
          const end = kind === 0 ? readLeb(bytes, b + 1)[1] : kind === 1 ? limits(b + 2) : kind === 2 ? limits(b + 1) : b + 3;
          const to = IMPORT_NAMES.find(([re]) => re.test(field));
          if (module !== "./backoff_wasm_bg.js" || !to) throw new Error(`assemble: unexpected wasm import ${module} ${field}`);
          entries.push([...name("w"), ...name(to[1]), ...bytes.subarray(b, end)]);
          p = end;
        } else {
          const [field, b] = str(p);
          const kind = bytes[b];
          const [, end] = readLeb(bytes, b + 1);
          p = end;
          if (kind === 3 && !glueCode.includes(field)) continue;
          let to = field;
          if (field !== "memory") names.set(field, (to = short(names.size)));
          entries.push([...name(to), ...bytes.subarray(b, end)]);
        }
      }
      content = [...leb(entries.length), ...entries.flat()];
    }
    out.push(id, ...leb(content.length), ...content);
    at = body + size;
  }
  return { bytes: Buffer.from(out), names };
}

/**
 * The loaders instantiate the wasm with js/engine/loaders/instantiate.js instead of the glue's
 * `__wbg_get_imports`/`__wbg_finalize_init`: fails when the glue's externref-table set-up
 * (the `table` import) or its start call is not the one instantiate.js repeats.
 */
function checkGlue(code) {
  const squash = (t) => t.replace(/\s+/g, "");
  const table = /table: function\(\) \{([^}]*)\}/.exec(code)?.[1];
  const ours = /function table\(\) \{([^}]*)\}/.exec(readFileSync(at("js", "engine", "loaders", "instantiate.js"), "utf8"))?.[1];
  const want = squash(ours ?? "x").replace("constt=", "consttable=").replaceAll("t.set(", "table.set(");
  if (!table || squash(table) !== want || !code.includes("wasm.__wbindgen_start();")) {
    throw new Error("assemble: wasm-bindgen's glue sets up its externref table or starts differently from js/engine/loaders/instantiate.js");
  }
}

/** The wasm's imports as `shortWasm` names them: [pattern of wasm-bindgen's name, short name]. */
const IMPORT_NAMES = [[/^__wbg_draw_[0-9a-f]+$/, "draw"], [/^__wbindgen_init_externref_table$/, "table"]];

/** wasm-bindgen's glue with the import object's keys of `shortWasm` (each must be found once; for `checkGlue`). */
function shortGlue(code) {
  const keys = [...code.matchAll(/^ {8}([\w$]+): function\(/gm)].map((m) => m[1]);
  let out = code;
  for (const [re, to] of IMPORT_NAMES) {
    const found = keys.filter((k) => re.test(k));
    if (found.length !== 1) throw new Error(`assemble: the glue's import object has ${found.length} keys like ${re}`);
    out = out.replace(`${found[0]}: function(`, `${to}: function(`);
  }
  if (keys.length !== IMPORT_NAMES.length || !out.includes(`"./backoff_wasm_bg.js": import0`)) {
    throw new Error(`assemble: the glue's imports are not the ones shortWasm renames: ${keys}`);
  }
  return out.replace(`"./backoff_wasm_bg.js": import0`, `w: import0`);
}

const { bytes: wasmBytes, names: exportNames } = shortWasm(
  readFileSync(join(bindgen, "backoff_wasm_bg.wasm")), readFileSync(join(bindgen, "backoff_wasm.js"), "utf8"));
if (exportNames.size === 0) throw new Error("assemble: the wasm exports no function to rename");

/**
 * The calls of `code` into the wasm's exports (`wasm.compileCurve(…)` in the wrappers and
 * in wasm-bindgen's glue) with the short names of `shortWasm`.
 */
function shortCalls(code) {
  return code.replace(/\bwasm\.([A-Za-z_$][\w$]*)\b/g, (all, name) => (exportNames.has(name) ? `wasm.${exportNames.get(name)}` : all));
}

writeFileSync(join(pkg, "dist", "backoff_wasm_bg.wasm"), wasmBytes);
/**
 * The JavaScript build: the translation of these same bytes (scripts/js-build.mjs), as the
 * ES module dist/esm/wasm-js.js, minified (its one export, `instantiate`, keeps its name). The
 * ESM tree imports it where WebAssembly is refused and the CommonJS tree requires it there
 * (React Native's Hermes included); build/js-build keeps the translation as wasm2js
 * wrote it (tests/js/javascript-build.test.mjs runs it beside the wasm).
 */
const jsEngine = `export ${jsBuild(wasmBytes)}`;
mkdirSync(at("build", "js-build"), { recursive: true });
writeFileSync(at("build", "js-build", "backoff_wasm.js"), jsEngine);
const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
// Version from Cargo.toml, so the crate and the package never disagree.
manifest.version = /^version = "([^"]+)"/m.exec(readFileSync(at("Cargo.toml"), "utf8"))[1];

/**
 * Entry points: "." → "index", "./sigil" → "sigil" (the file name of the entry in every
 * tree), in the template's order. Each one's conditions are written here, one shape
 * for all (so a template entry only needs its subpath): workerd first (Wrangler also
 * matches "import"/"default"), then react-native (the CommonJS tree: no top-level await,
 * which Metro cannot transform, and the JavaScript build where Hermes has no WebAssembly;
 * a Metro that does not match "require" would otherwise take the ESM tree), then require,
 * then node (the node tree: ESM without top-level await, for Node's `import` and bundlers
 * building for Node, which may write CommonJS; after require, so `require` keeps the
 * CommonJS tree on every Node), then default; each names its own `types`, declarations in
 * the module format of the JavaScript it describes: dist/types (its package.json says
 * "commonjs") for react-native and `require`, dist/types/esm ("module") for workerd, node
 * and default. One `types` for every condition would make TypeScript read the ESM
 * build as CommonJS under node16/nodenext (a default import type-checks, then Node
 * refuses it).
 */
const entries = Object.keys(manifest.exports)
  .filter((k) => k !== "./package.json")
  .map((k) => (k === "." ? "index" : k.replace(/^\.\//, "")));
/**
 * The source of each entry point (and of the command, `cli`): its path under js/ (and
 * build/js) without the extension. js/index.ts sits at the top; the others live in the
 * folder of their layer. The published file keeps the entry's name (dist/esm/sigil.js,
 * dist/types/sigil.d.ts).
 */
const SOURCES = {
  index: "index", sigil: "policy/sigil", backoff: "policy/backoff", random: "policy/random",
  duration: "policy/duration", policy: "policy/policy", chart: "tools/chart", retry: "runtime/retry",
  queues: "queues/queues", "p-retry": "p-retry/p-retry", cli: "tools/cli",
};
for (const e of [...entries, "cli"]) if (!SOURCES[e]) throw new Error(`assemble: no source listed for the entry point ${e}`);
manifest.exports = Object.fromEntries([
  ...entries.map((e) => [e === "index" ? "." : `./${e}`, {
    workerd: { types: `./dist/types/esm/${e}.d.ts`, default: `./dist/workerd/${e}.js` },
    "react-native": { types: `./dist/types/${e}.d.ts`, default: `./dist/cjs/${e}.js` },
    require: { types: `./dist/types/${e}.d.ts`, default: `./dist/cjs/${e}.js` },
    node: { types: `./dist/types/esm/${e}.d.ts`, default: `./dist/node/${e}.js` },
    default: { types: `./dist/types/esm/${e}.d.ts`, default: `./dist/esm/${e}.js` },
  }]),
  ["./package.json", "./package.json"],
]);
// TypeScript's `node10` resolution (the default of `module: commonjs`) does not read
// `exports`: `typesVersions` points each subpath at its declarations there (the
// CommonJS ones: node10 is how TypeScript resolves for CommonJS output), and
// `types` the main entry's.
manifest.types = "./dist/types/index.d.ts";
manifest.typesVersions = { "*": Object.fromEntries(entries.filter((e) => e !== "index").map((e) => [e, [`./dist/types/${e}.d.ts`]])) };

/**
 * esbuild options of every runtime tree: whitespace and syntax minified, names kept (stack
 * traces stay readable). `lineLimit` keeps lines short: Node prints the source line of an
 * uncaught error, which on a one-line chunk would be most of the chunk before the message
 * (application bundles re-minify and do not see the line breaks). A property whose name ends
 * in `_` is internal to one build of the code (a draw context, the views over wasm memory:
 * no such object reaches a caller or another copy of the package) and gets a short name
 * (`mangleProps`), which an application's minifier would otherwise keep whole.
 */
const minified = {
  bundle: true, minifyWhitespace: true, minifySyntax: true, legalComments: "none", lineLimit: 160, mangleProps: /_$/,
  sourcemap: false, logLevel: "warning",
  define: { __BACKOFF_WASM_VERSION__: JSON.stringify(manifest.version) },
};
const banner = `/* backoff-wasm ${manifest.version}, MIT */`;

/**
 * Checks wasm-bindgen's glue against what the package uses instead of it. The wrappers call
 * the wasm's exports directly (js/engine/abi.ts) and the loaders instantiate with
 * js/engine/loaders/instantiate.js, so no part of the glue (`initSync` with its argument checks
 * and warnings, a wrapper per export, its import object) reaches a runtime tree or an
 * application bundle. The glue must import exactly what
 * `shortWasm` renames and set up its externref table as instantiate.js does.
 */
function glue() {
  checkGlue(shortGlue(readFileSync(join(bindgen, "backoff_wasm.js"), "utf8")));
}

/** A staging copy of the wrappers with `loader` as engine/wasm.js. */
function staged(name, loader) {
  const dir = join(stage, name);
  cpSync(compiled, dir, { recursive: true });
  cpSync(at("js", "engine", "loaders", loader), join(dir, "engine", "wasm.js"));
  cpSync(at("js", "engine", "loaders", "instantiate.js"), join(dir, "engine", "instantiate.js"));
  for (const f of readdirSync(dir, { recursive: true }).filter((f) => f.endsWith(".js"))) {
    writeFileSync(join(dir, f), shortCalls(readFileSync(join(dir, f), "utf8")));
  }
  return dir;
}

/**
 * The wasm bytes as the text of a JS string literal, one or two characters per byte,
 * pure ASCII (it reads the same under any charset a page or server declares): each
 * byte XOR a key below 0x80; a result below 0x80 as itself, one at or above 0x80 as
 * a prefix character followed by its low 7 bits, and the prefix's own value as the
 * one character at or above 0x80 (`\\xNN`; the prefix is picked among the rarest).
 * The text's first character is the prefix; the second is the key (every wasm module
 * starts with the byte 0, `\\0asm`). Only `"`, `\\`, LF and CR are escaped. The
 * loaders (js/engine/loaders/inline.js, cjs.js) decode it. Each byte keeps one fixed
 * spelling, so gzip still finds the wasm's repeats.
 *
 * The key and prefix: an application bundle carries esbuild's reprint of this literal
 * (a template literal in which `\\0`, `` \\` `` and 0x7F, the wasm's `i32`, take 2–4
 * characters), gzipped together with the package's JS, so the build ranks every key
 * with its two rarest prefixes by the gzip of the literal's reprint, writes the best
 * 16 into `dir`/wasm-inline.js, bundles `dir`/index.js as an application would
 * (esbuild, browser, minified: `npm run size`'s app bundle of the index) and keeps the
 * pair whose bundle gzips smallest.
 */
function wasmLiteral(bytes, dir) {
  const escapes = { 0x22: '\\"', 0x5c: "\\\\", 0x0a: "\\n", 0x0d: "\\r" };
  const one = (c) => escapes[c] ?? (c < 0x80 ? String.fromCharCode(c) : `\\x${c.toString(16)}`);
  const spell = (key, prefix) => {
    const p = one(prefix);
    let text = p;
    for (const byte of bytes) {
      const b = byte ^ key;
      text += b >= 0x80 ? p + one(b & 0x7f) : one(b === prefix ? b | 0x80 : b);
    }
    return text;
  };
  const count = new Array(256).fill(0);
  for (const byte of bytes) count[byte]++;
  const reprint = (text) => buildSync({
    stdin: { contents: `export const w = "${text}";` }, minify: true, write: false, format: "esm", logLevel: "silent",
  }).outputFiles[0].contents;
  const ranked = [];
  for (let key = 0; key < 0x80; key++) {
    const rare = [...Array(0x80).keys()].sort((a, b) => count[a ^ key] - count[b ^ key] || a - b).slice(0, 2);
    for (const prefix of rare) {
      const text = spell(key, prefix);
      ranked.push({ text, literal: gzipSync(reprint(text), { level: 9 }).length });
    }
  }
  ranked.sort((a, b) => a.literal - b.literal);
  let best;
  for (const { text } of ranked.slice(0, 16)) {
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
 * with a `__name()` call per function and class in every app bundle.)
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
 * `code` without the line continuations (a backslash and a newline) that `lineLimit` puts
 * inside long string literals: a bundler that wraps CommonJS modules indents every line
 * (Rollup's commonjs plugin inserts a tab), which then lands inside the string (`typeof v`
 * against "\tundefined": every option read as an object). In minified code (no comments)
 * only a string or template literal can hold one. Each continuation becomes the end of the
 * literal, a `+` and a new line that opens it again (`"ab\⏎cd"` → `"ab"+⏎"cd"`), so the line
 * stays short (Node prints the source line of an uncaught error); the delimiter is the one
 * for which esbuild, folding the concatenation, makes of the file exactly what it makes of
 * the file with the continuation simply removed (the same strings, the same code). Where no
 * delimiter does (a tagged template), the continuation is removed and the line joined. An
 * even run of backslashes before a newline is escaped backslashes, not a continuation.
 */
function unsplitStrings(code) {
  const continuation = /(?<!\\)((?:\\\\)*)\\\n/g;
  const found = [...code.matchAll(continuation)].map((m) => ({ at: m.index, backslashes: m[1], length: m[0].length }));
  if (found.length === 0) return code;
  const folded = (c) => {
    try {
      return transformSync(c, { loader: "js", minifySyntax: true, minifyWhitespace: true, logLevel: "silent" }).code;
    } catch {
      return undefined;
    }
  };
  /** The code with continuation `i` written as `split[i]` ("" removes it). */
  const render = (split) => {
    let out = "";
    let from = 0;
    found.forEach((f, i) => {
      out += code.slice(from, f.at) + f.backslashes + split[i];
      from = f.at + f.length;
    });
    return out + code.slice(from);
  };
  const split = found.map(() => "");
  const want = folded(render(split));
  if (want === undefined) return render(split);
  // A first guess, checked once for the whole file: the quote that is open at the end of the
  // line, read naively from its start (or the previous line's, when that one was continued).
  const guess = found.map((f, i) => {
    const start = code.lastIndexOf("\n", f.at - 1) + 1;
    let open = i > 0 && found[i - 1].at + found[i - 1].length === start ? "prev" : "";
    if (open === "prev") return open;
    for (let j = start; j < f.at; j++) {
      const c = code[j];
      if (c === "\\") j++;
      else if (open === "" && (c === '"' || c === "'" || c === "`")) open = c;
      else if (c === open) open = "";
    }
    return open;
  });
  guess.forEach((g, i) => {
    guess[i] = g === "prev" ? guess[i - 1] : g;
    split[i] = guess[i] ? `${guess[i]}+\n${guess[i]}` : "";
  });
  if (guess.every(Boolean) && folded(render(split)) === want) return render(split);
  split.fill("");
  for (let i = 0; i < found.length; i++) {
    for (const q of ['"', "'", "`"]) {
      split[i] = `${q}+\n${q}`;
      if (folded(render(split)) === want) break;
      split[i] = "";
    }
  }
  return render(split);
}

/**
 * Every entry point of the tree in `dir` that loads `module` (the loader's external import
 * of the inlined wasm text) imports it first. An application's bundler lays modules out in
 * the order they are imported, and esbuild lists a chunk's imports of other chunks before
 * its external ones, so without this the chunks the loader imports (the error classes and
 * duration text, which need no wasm and are all that `/duration` loads) came before the wasm
 * text in an application bundle, which then gzips larger (`npm run size`; bench/README.md).
 * The module has no imports and no effect but its one constant, so importing it first
 * changes nothing else.
 */
function importFirst(dir, module) {
  const files = readdirSync(dir).filter((f) => f.endsWith(".js"));
  const code = Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f), "utf8")]));
  const loads = (f, seen = new Set()) => {
    if (seen.has(f)) return false;
    seen.add(f);
    return [...code[f].matchAll(/(?:from|import)\s*"\.\/([\w.-]+)"/g)].some(([, m]) => `./${m}` === module || (m in code && loads(m, seen)));
  };
  let found = false;
  for (const f of files.filter((f) => !f.startsWith("chunk-") && loads(f))) {
    if (!code[f].startsWith(`${banner}\n`)) throw new Error(`assemble: ${f} does not start with the banner`);
    writeFileSync(join(dir, f), `${banner}\nimport"${module}";${code[f].slice(banner.length + 1)}`);
    found = true;
  }
  if (!found) throw new Error(`assemble: no entry point of ${dir} loads ${module}`);
}

/**
 * An ESM tree: every entry point (plus `extra` ones) built together with code
 * splitting; chunks sit beside the entries, so the loader's external imports
 * (./wasm-inline.js, ../backoff_wasm_bg.wasm) resolve from any of them. The entry points
 * that load the module `first` import it first ({@link importFirst}).
 */
function esmTree(name, loader, { external = [], extra = [], first } = {}) {
  const dir = staged(name, loader);
  const out = join(pkg, "dist", name);
  const built = buildSync({
    ...minified, entryPoints: [...entries, ...extra].map((e) => ({ in: join(dir, `${SOURCES[e]}.js`), out: e })),
    outdir: out, format: "esm", splitting: true, chunkNames: "chunk-[hash]",
    platform: "neutral", target: "es2022", external: ["node:*", ...external], banner: { js: banner }, mangleCache: esmMangled,
  });
  Object.assign(esmMangled, built.mangleCache);
  for (const f of readdirSync(out).filter((f) => f.endsWith(".js"))) {
    writeFileSync(join(out, f), unsplitStrings(readFileSync(join(out, f), "utf8")));
  }
  if (first) importFirst(out, first);
  classNames(out);
  canonicalChunkNames(out);
  return out;
}

/**
 * The short names `mangleProps` gave the internal properties of the trees {@link esmTree} built so
 * far, given to the next one: a property has the same short name in the esm and workerd trees, so
 * a chunk with the same code in both is the same text (and has the same name,
 * {@link canonicalChunkNames}).
 */
const esmMangled = {};

/**
 * Entry points that load no wasm: the node and CommonJS trees' files of them re-export from
 * base.js, which holds no wasm, instead of from the tree's main bundle (dist/node/lib.js,
 * dist/cjs/index.js).
 */
const WASM_FREE = ["duration", "p-retry"];

/**
 * Bundles the main entry of the staged tree `dir` (as `main`) and a staged entry exporting the
 * names of the {@link WASM_FREE} entry points, with code splitting, into `out`: `main`.js and
 * base.js, esbuild's chunk of the code they share, which holds all the wasm-free entry points
 * need and imports nothing. Returns the map from each name of the main entry that a wasm-free
 * entry point exports to base.js's name of the same binding.
 */
function splitWasmFree(names, dir, out, main, options) {
  const wasmFree = new Map();
  for (const e of WASM_FREE) for (const [n, k] of names[e]) wasmFree.set(k, `export { ${n} as ${k} } from "./${SOURCES[e]}.js";`);
  writeFileSync(join(dir, "wasm-free.js"), `${[...wasmFree.values()].join("\n")}\n`);
  buildSync({
    ...minified, entryPoints: [{ in: join(dir, "index.js"), out: main }, { in: join(dir, "wasm-free.js"), out: "wasm-free" }],
    outdir: out, format: "esm", splitting: true, chunkNames: "base", banner: { js: banner }, ...options,
  });
  const built = readdirSync(out).sort();
  const want = ["base.js", `${main}.js`, "wasm-free.js"].sort();
  if (built.join() !== want.join()) throw new Error(`assemble: the bundle in ${out} is not ${main}.js and one chunk, base.js: ${built}`);
  // esbuild's wasm-free entry: `import{a,b as c,…}from"./base.js";export{a as A,c as B,…};`,
  // read as the map from each name of the main entry to base.js's name of the same binding.
  const parsed = /^import\{([\w$, ]*)\}from"\.\/base\.js";export\{([\w$, ]*)\};$/
    .exec(readFileSync(join(out, "wasm-free.js"), "utf8").slice(banner.length).replace(/\n/g, "").trim());
  if (!parsed) throw new Error(`assemble: esbuild's wasm-free entry in ${out} is not one import from base.js and one export`);
  const local = new Map(clause(parsed[1]).map(([inBase, as]) => [as ?? inBase, inBase]));
  const inBase = new Map(clause(parsed[2]).map(([l, as]) => [as ?? l, local.get(l)]));
  if ([...wasmFree.keys()].some((k) => !inBase.get(k))) throw new Error(`assemble: base.js in ${out} lacks a name of a wasm-free entry point`);
  rmSync(join(out, "wasm-free.js"));
  for (const f of [`${main}.js`, "base.js"]) writeFileSync(join(out, f), unsplitStrings(readFileSync(join(out, f), "utf8")));
  return inBase;
}

/** The pairs of an import or export clause's text (`a,b as c`): `[["a"], ["b", "c"]]`. */
function clause(text) {
  return text.split(",").map((p) => p.trim()).filter(Boolean).map((p) => p.split(/\s+as\s+/));
}

/**
 * The node tree: every entry point is one small file re-exporting its names, under the names of
 * the main entry (`names`, {@link namesInIndex}), from one bundle of all the code, lib.js (the
 * main entry bundled with the node loader), at whose end the wasm bytes follow as base64 in the
 * hoisted function `__backoffWasmBase64` that the loader calls. Where Node imports the package,
 * each file is a module to resolve, read, parse and link, so `/retry` loads its entry file,
 * lib.js, base.js and the JavaScript build (../esm/wasm-js.js) instead of a file per shared
 * chunk, and decodes base64 (`Buffer.from`, native) instead of the ESM tree's spelling (a loop
 * in JavaScript). The code that the entry points of {@link WASM_FREE} load is split out of
 * lib.js into base.js (esbuild's chunk shared by lib.js and a staged entry exporting those
 * names), which lib.js imports: those entry points load base.js alone, no wasm, and every class
 * exists once in the tree (instanceof holds across entry points).
 */
function nodeTree(names) {
  const dir = staged("node", "node.js");
  const out = join(pkg, "dist", "node");
  const inBase = splitWasmFree(names, dir, out, "lib", { platform: "neutral", target: "es2022", external: ["node:*", "../esm/wasm-js.js"] });
  classNames(out);
  const lib = readFileSync(join(out, "lib.js"), "utf8");
  writeFileSync(join(out, "lib.js"), `${lib}function __backoffWasmBase64(){return"${wasmBytes.toString("base64")}"}\n`);
  for (const e of entries) {
    const from = WASM_FREE.includes(e) ? "base" : "lib";
    const list = names[e].map(([n, k]) => {
      const there = from === "base" ? inBase.get(k) : k;
      return there === n ? n : `${there} as ${n}`;
    });
    writeFileSync(join(out, `${e}.js`), `${banner}\nexport{${list.join(",")}}from"./${from}.js";\n`);
  }
}

/**
 * Renames every chunk of a tree after a hash of its code with the names of other chunks
 * left out, so a chunk whose code is the same in the esm and workerd trees (all but the
 * loader's) has the same name in both. npm packs files ordered by name, so such twins sit
 * next to each other in the tarball and the second one costs almost nothing after gzip;
 * with esbuild's own names (hashes that also cover the loader) where twins landed was
 * luck. The hash leaves out the chunk's closing export list too: a chunk that exports one
 * name more in one tree (the esm chart chunk also serves the CLI) keeps its twin's name.
 */
function canonicalChunkNames(dir) {
  const CHUNK = /chunk-[A-Z0-9]+\.js/g;
  const files = readdirSync(dir).filter((f) => f.endsWith(".js"));
  const rename = new Map();
  for (const f of files.filter((f) => /^chunk-[A-Z0-9]+\.js$/.test(f))) {
    const code = withoutExportList(readFileSync(join(dir, f), "utf8").replace(CHUNK, "chunk.js"));
    const name = `chunk-${createHash("sha256").update(code).digest("hex").slice(0, 8).toUpperCase()}.js`;
    if ([...rename.values()].includes(name)) throw new Error(`assemble: two chunks of ${dir} would both be ${name}`);
    rename.set(f, name);
  }
  const out = files.map((f) => [rename.get(f) ?? f, readFileSync(join(dir, f), "utf8").replace(CHUNK, (c) => rename.get(c) ?? c)]);
  for (const f of files) rmSync(join(dir, f));
  for (const [f, code] of out) writeFileSync(join(dir, f), code);
}

/** `code` without its closing `export{…};` statement, if it ends with one. */
function withoutExportList(code) {
  const at = code.lastIndexOf("export{");
  return at >= 0 && /^export\{[^}]*\};?\s*$/.test(code.slice(at)) ? code.slice(0, at) : code;
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
 * The CommonJS tree: index.js is the main entry bundled with the CommonJS loader and base.js
 * the code the {@link WASM_FREE} entry points load ({@link splitWasmFree}), both as ESM whose
 * only module syntax is index.js's opening import from base.js and each one's closing
 * `export{a as B,…};`. The export becomes `module.exports={B:a,…};` (smaller than esbuild's
 * CommonJS output, which adds a live-binding getter per export) and the import a destructuring
 * `require("./base.js")` (every binding it reads is one base.js never assigns again, checked,
 * so the copy is the binding); the wasm text follows index.js's code as the hoisted function
 * the loader calls. Each other entry point re-exports its names from index.js, the wasm-free
 * ones from base.js: `require("backoff-wasm/p-retry")` loads no wasm, and a name is the same
 * value from every entry point (`AbortError` of `/p-retry` is the index's).
 */
function cjsTree(names) {
  const dir = staged("cjs", "cjs.js");
  const out = join(pkg, "dist", "cjs");
  const inBase = splitWasmFree(names, dir, out, "index", { platform: "neutral", target: "node20", external: ["node:*"] });
  classNames(out);
  const base = esmParts(join(out, "base.js"), false);
  writeFileSync(join(out, "base.js"), `"use strict";${base.banner}${base.body}module.exports={${base.exports.map(([l, n]) => `${n}:${l}`).join(",")}};\n`);
  const index = esmParts(join(out, "index.js"), true);
  const baseLocal = new Map(base.exports.map(([l, n]) => [n, l]));
  for (const [n] of index.imports) {
    if (!baseLocal.has(n)) throw new Error(`assemble: dist/cjs/index.js imports ${n}, which base.js does not export`);
    if (!neverReassigned(base.body, baseLocal.get(n))) throw new Error(`assemble: base.js of the CommonJS tree assigns ${n} again: a require would copy a stale value`);
  }
  const required = `const{${index.imports.map(([n, l]) => (n === l ? n : `${n}:${l}`)).join(",")}}=require("./base.js");`;
  writeFileSync(join(out, "index.js"), `"use strict";${index.banner}${required}${index.body}` +
    `module.exports={${index.exports.map(([l, n]) => `${n}:${l}`).join(",")}};\n` +
    `function __backoffWasmText(){return "${wasmText}"}\n` +
    `function __backoffJsBuild(){return require("../esm/wasm-js.js")}\n`);
  for (const e of entries.filter((e) => e !== "index")) {
    const free = WASM_FREE.includes(e);
    const from = free ? "base" : "index";
    const lines = names[e].map(([n, k]) => `exports.${n} = m.${free ? inBase.get(k) : k};`);
    // A default export: marked `__esModule`, so TypeScript's and bundlers' interop read it as `default`.
    if (names[e].some(([n]) => n === "default")) lines.push(`Object.defineProperty(exports, "__esModule", { value: true });`);
    writeFileSync(join(out, `${e}.js`), `"use strict";\nconst m = require("./${from}.js");\n${lines.join("\n")}\n`);
  }
  writeFileSync(join(out, "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
}

/**
 * The parts of a bundle of the CommonJS tree (ESM, as esbuild wrote it): the banner, the
 * opening `import{…}from"./base.js";` when `importsBase` (as `[name in base.js, local]`
 * pairs), the code, and the closing export (as `[local, exported]` pairs).
 * @throws Error when the file has any other import or export.
 */
function esmParts(file, importsBase) {
  const code = readFileSync(file, "utf8");
  if (!code.startsWith(`${banner}\n`)) throw new Error(`assemble: ${file} does not start with the banner`);
  let rest = code.slice(banner.length + 1);
  let imports = [];
  if (importsBase) {
    const i = /^import\{([\w$,\s]*)\}from"\.\/base\.js";/.exec(rest);
    if (!i) throw new Error(`assemble: ${file} does not open with one import from base.js`);
    imports = clause(i[1]).map(([n, l]) => [n, l ?? n]);
    rest = rest.slice(i[0].length);
  }
  const m = /export\s*\{([\w$\s,]+)\};\n$/.exec(rest);
  const body = m ? rest.slice(0, m.index) : "";
  if (!m || /(^|[;}])(import|export)\b/.test(body.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""'))) {
    throw new Error(`assemble: ${file} is not an ESM bundle with ${importsBase ? "one import from base.js and " : ""}one closing export`);
  }
  return { banner: `${banner}\n`, imports, body, exports: clause(m[1]).map(([l, n]) => [l, n ?? l]) };
}

/**
 * Whether minified `code` never assigns its top-level binding `name` after declaring it: a
 * function or class declaration that nothing assigns, or a `var` with an initializer (a class
 * expression's included), the one assignment there is (a `var name;` set later, as a lazily made value is, fails).
 */
function neverReassigned(code, name) {
  const n = name.replace(/\$/g, "\\$");
  const writes = code.match(new RegExp(`(?<![\\w$.])${n}(?:=(?![=>])|\\+\\+|--|(?:[-+*/%&|^]|\\*\\*|<<|>>>?|&&|\\|\\||\\?\\?)=)`, "g"))?.length ?? 0;
  if (new RegExp(`(?:^|[;}\\n])(?:async )?(?:function\\*?|class) ${n}(?![\\w$])`).test(code)) return writes === 0;
  const bare = new RegExp(`(?:\\b(?:var|let) |,)${n}(?=[;,])`).test(code);
  return writes === 1 && !bare;
}

glue();
const esm = esmTree("esm", "inline.js", { external: ["./wasm-inline.js", "./wasm-js.js"], extra: ["cli"], first: "./wasm-inline.js" });
const wasmText = wasmLiteral(wasmBytes, esm);
writeFileSync(join(esm, "wasm-inline.js"), `export const wasmText = "${wasmText}";\n`, "utf8");
writeFileSync(join(esm, "wasm-js.js"), `${banner}\n${buildSync({
  stdin: { contents: jsEngine }, minify: true, write: false, format: "esm", target: "es2020", legalComments: "none", logLevel: "warning",
}).outputFiles[0].text}`);
const names = await namesInIndex(esm);
nodeTree(names);
esmTree("workerd", "workerd.js", { external: ["*.wasm"] });
cjsTree(names);

// Types: tsc's declarations of the entry points and of every file they import
// (plus the glue's, when a public declaration refers to it), twice: in dist/types,
// whose package.json says "commonjs", for `require`; in dist/types/esm, whose
// package.json says "module", for ESM consumers. A `require` from a `.cts` file
// (node16/nodenext) cannot load ESM declarations (TS1479), and an ESM `import` read
// through CommonJS declarations gets CommonJS interop types (a default import that
// type-checks, then fails in Node), so each format has its own copy. The copies share
// extension and file name, so npm packs each next to its twin (by extension, then
// name), where gzip finds the repeat; `.d.mts` twins would be packed apart from the `.d.ts`
// and cost their whole size.
// tsc declares a class with ES private fields as `#private;`, which TypeScript rejects in a
// declaration file when the consumer targets ES5 (TS18028, TypeScript's default target,
// without skipLibCheck). A `private` member keeps the class nominal as `#private` did and
// reads under every target. The declarations sit in one folder, each under its file's
// name (file names are unique across js/'s folders): the imports between them are
// rewritten from the source folders' paths (`../engine/abi.js`) to `./abi.js`.
const types = join(pkg, "dist", "types");
const compiledPaths = new Map(readdirSync(compiled, { recursive: true }).filter((f) => f.endsWith(".d.ts"))
  .map((f) => [f.split("/").pop().slice(0, -".d.ts".length), f.slice(0, -".d.ts".length)]));
if (compiledPaths.size !== readdirSync(compiled, { recursive: true }).filter((f) => f.endsWith(".d.ts")).length) {
  throw new Error("assemble: two files of js/ share a name, so their declarations cannot share dist/types");
}
mkdirSync(join(types, "esm"), { recursive: true });
const declarations = new Map();
const declare = (name) => {
  if (declarations.has(name)) return;
  const file = name === "backoff_wasm" ? join(bindgen, "backoff_wasm.d.ts")
    : name === "wasm" ? at("js", "engine", "wasm.d.ts") : join(compiled, `${compiledPaths.get(name)}.d.ts`);
  const text = readFileSync(file, "utf8").replace(/^(\s*)#private;$/gm, '$1private "#private";')
    .replace(/(["'])\.\.?\/(?:[\w.-]+\/)*([\w.-]+)\.js\1/g, "$1./$2.js$1");
  declarations.set(name, text);
  for (const [, dep] of text.matchAll(/["']\.\/([\w.-]+)\.js["']/g)) declare(dep);
};
entries.forEach(declare);
for (const [name, text] of declarations) {
  writeFileSync(join(types, `${name}.d.ts`), text);
  writeFileSync(join(types, "esm", `${name}.d.ts`), text);
}
writeFileSync(join(types, "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
writeFileSync(join(types, "esm", "package.json"), JSON.stringify({ type: "module" }) + "\n");

// The command.
mkdirSync(join(pkg, "bin"), { recursive: true });
cpSync(at("js", "tools", "bin.js"), join(pkg, "bin", "backoff-wasm.js"));
chmodSync(join(pkg, "bin", "backoff-wasm.js"), 0o755);

// The package README: the user-facing part of the repository README (between the
// package-readme markers), without the repository's images.
const readme = readFileSync(at("README.md"), "utf8");
const body = readme.split("<!-- package-readme:start -->")[1].split("<!-- package-readme:end -->")[0];
writeFileSync(join(pkg, "README.md"), "# backoff-wasm\n\n" + body.split("\n").filter((l) => !l.startsWith("![")).join("\n").trim() + "\n");

cpSync(at("LICENSE"), join(pkg, "LICENSE"));

writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
console.error(`[build] pkg/ ready: backoff-wasm@${manifest.version}, wasm ${wasmBytes.length} bytes`);
