// The shipped README (pkg/README.md, what npm shows) names only what the package has:
// every import specifier `backoff-wasm/…` is an entry point of the exports map (or a
// file of the tarball), every `dist/…` / `bin/…` path and `.wasm` file is in the packed
// tarball, every condition it names in prose is a key of the exports map, and every
// build it names ("the ESM build", "the `workerd` build") is one of the package's trees.
// Generic over the README's wording: it reads whatever the README says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { run, tarball, ROOT } from "../consumers/scratch.mjs";

const readme = readFileSync(join(ROOT, "pkg", "README.md"), "utf8");
const manifest = JSON.parse(readFileSync(join(ROOT, "pkg", "package.json"), "utf8"));

/** The tarball's files, package-relative ("dist/esm/index.js", …). */
const files = run("tar", ["-tzf", tarball().file]).stdout.split("\n").filter(Boolean).map((f) => f.replace(/^package\//, ""));
const dirs = new Set(files.flatMap((f) => f.split("/").slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join("/"))));

/** Every key of the exports map at any depth: the conditions (and subpaths). */
const conditions = new Set();
(function walk(x) {
  if (x && typeof x === "object") for (const [k, v] of Object.entries(x)) { if (!k.startsWith(".")) conditions.add(k); walk(v); }
})(manifest.exports);

/** The README without links' targets (URLs are checked by the link check, not here). */
const text = readme.replace(/https?:\/\/[^\s)>\]]+/g, "URL");
/** Prose only: fenced code blocks left out (their configs may name other packages' conditions). */
const prose = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ""));

/** Where in the README `index` falls, as "line N", for messages. */
const lineOf = (src, index) => `line ${src.slice(0, index).split("\n").length}`;
/** A negation right before a match ("no `browser` condition") names what is absent. */
const negated = (src, index) => /\b(?:no|not|without|never)\s+(?:a |an |the )?$/i.test(src.slice(Math.max(0, index - 16), index));

test("every backoff-wasm/… specifier in the README is an entry point of the exports map or a file of the tarball", () => {
  const subpaths = new Set(Object.keys(manifest.exports));
  const wrong = [];
  for (const m of text.matchAll(/(?<![\w@/-])backoff-wasm\/([\w./-]*[\w])/g)) {
    const rest = m[1];
    const ok = subpaths.has(`./${rest}`) || files.includes(rest) || dirs.has(rest);
    if (!ok) wrong.push(`${lineOf(text, m.index)}: backoff-wasm/${rest}`);
  }
  assert.deepEqual(wrong, []);
});

test("every dist/… or bin/… path and every .wasm file the README names is in the packed tarball", () => {
  const wrong = [];
  for (const m of text.matchAll(/(?<![\w/.-])((?:dist|bin)(?:\/[\w.-]+)*\/?)/g)) {
    const path = m[1].replace(/\/$/, "").replace(/\.$/, "");
    if (path === "dist" || path === "bin" ? !dirs.has(path) : !files.includes(path) && !dirs.has(path)) wrong.push(`${lineOf(text, m.index)}: ${m[1]}`);
  }
  for (const m of text.matchAll(/`([\w.-]+\.wasm)`/g)) {
    if (!files.some((f) => f.endsWith(`/${m[1]}`) || f === m[1])) wrong.push(`${lineOf(text, m.index)}: ${m[1]}`);
  }
  assert.deepEqual(wrong, []);
});

test("every condition the README names in prose is a key of the exports map", () => {
  const wrong = [];
  const named = [
    ...prose.matchAll(/`"?([\w-]+)"?` (?:export )?conditions?\b/g),
    ...prose.matchAll(/\bconditions? `"?([\w-]+)"?`/g),
    ...prose.matchAll(/\bconditions? \(`"?([\w-]+)"?`/g),
  ];
  for (const m of named) {
    if (!conditions.has(m[1]) && !negated(prose, m.index)) wrong.push(`${lineOf(prose, m.index)}: condition ${m[1]}`);
  }
  assert.deepEqual(wrong, []);
});

test("every build the README names is one of the package's trees", () => {
  // Trees: dist/<name>/ holding an entry point; a condition names the tree its target is in,
  // and ESM / CommonJS name the trees whose package scope says so.
  const trees = new Map();
  for (const [cond, v] of Object.entries(manifest.exports["."])) {
    const target = typeof v === "string" ? v : v.default;
    const tree = /^\.\/dist\/([\w-]+)\//.exec(target)?.[1];
    if (tree) trees.set(cond, tree).set(tree, tree);
  }
  const scope = (tree) => (files.includes(`dist/${tree}/package.json`)
    ? JSON.parse(readFileSync(join(ROOT, "pkg", "dist", tree, "package.json"), "utf8")).type : manifest.type) ?? "commonjs";
  for (const tree of new Set(trees.values())) trees.set(scope(tree) === "module" ? "esm" : "commonjs", tree);
  const FORMATS = { esm: "esm", "es module": "esm", commonjs: "commonjs", cjs: "commonjs" };
  const RUNTIMES = "browser|browsers|node|deno|bun|worker|workers|workerd|edge|umd|iife|esm|es module|commonjs|cjs|wasm";
  const wrong = [];
  const named = [
    ...prose.matchAll(/`"?([\w-]+)"?` builds?\b/g),
    ...prose.matchAll(new RegExp(`\\b(${RUNTIMES}) builds?\\b`, "gi")),
  ];
  for (const m of named) {
    const name = m[1].toLowerCase();
    if (!trees.has(FORMATS[name] ?? name) && !negated(prose, m.index)) wrong.push(`${lineOf(prose, m.index)}: the ${m[1]} build`);
  }
  assert.deepEqual(wrong, []);
});

test("the conditions the README lists for the exports map, in its order, are each entry point's conditions", () => {
  // "… `exports` map has three conditions, in this order: `a` (…); `b` (…); and `c`, …"
  const m = prose.match(/`exports` map has (\w+) conditions, in this order: ([^]*?)\. Each names/);
  assert.ok(m, "the README says how many conditions the exports map has, in order");
  const listed = [...m[2].matchAll(/(?:^|; (?:and )?)`([\w-]+)`/g)].map((x) => x[1]);
  const words = { one: 1, two: 2, three: 3, four: 4, five: 5 };
  assert.equal(words[m[1]], listed.length, `"${m[1]} conditions" names ${listed.length}: ${listed}`);
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === "string") continue; // ./package.json
    assert.deepEqual(Object.keys(target), listed, `the conditions of ${subpath}`);
    for (const c of listed) assert.deepEqual(Object.keys(target[c]), ["types", "default"], `${subpath} ${c}: types before its file`);
  }
});
