// Assembles pkg/ (what `npm pack ./pkg` publishes) from pkg-template/, the
// wasm-bindgen output in build/bindgen and the compiled wrappers in build/js.
//
// One .wasm file serves every runtime; the wrappers are copied into one tree per
// runtime, which differ only in ./wasm.js, the loader:
//   dist/esm      Node/Bun `import`        (reads the .wasm with fs, synchronously)
//   dist/cjs      Node `require`           (same, CommonJS; transformed by esbuild)
//   dist/browser  browsers, bundlers, Deno (wasm inlined as base64, compiled synchronously;
//                 Deno gets it through the "deno" condition, so importing needs no --allow-read)
//   dist/workerd  Cloudflare Workers       (imports the .wasm as a precompiled module)
//   dist/types    .d.ts for every entry point (tsc output, with docs); a copy
//                 in dist/cjs types `require` (read there as CommonJS)
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { transformSync } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const at = (...p) => join(root, ...p);
const pkg = at("pkg");
const bindgen = at("build", "bindgen");
const compiled = at("build", "js");

rmSync(pkg, { recursive: true, force: true });
mkdirSync(join(pkg, "dist", "types"), { recursive: true });
cpSync(at("pkg-template"), pkg, { recursive: true });

const wasmBytes = readFileSync(join(bindgen, "backoff_wasm_bg.wasm"));
writeFileSync(join(pkg, "dist", "backoff_wasm_bg.wasm"), wasmBytes);

// Shipped JS is minified (names kept, so classes and functions still read right
// in stack traces and consoles); the .d.ts files keep every doc comment.
const minify = (src, format = "esm") =>
  transformSync(src, { format, target: format === "cjs" ? "node20" : "es2022", loader: "js", minifySyntax: true, minifyIdentifiers: true, keepNames: true }).code;
const glue = minify(readFileSync(join(bindgen, "backoff_wasm.js"), "utf8"));
const modules = readdirSync(compiled).filter((f) => f.endsWith(".js"));

function tree(name, loader, extra = {}) {
  const dir = join(pkg, "dist", name);
  mkdirSync(dir, { recursive: true });
  // The CLI (node:util, node:fs) ships only in the Node trees.
  for (const f of modules) if (f !== "cli.js" || name === "esm") writeFileSync(join(dir, f), minify(readFileSync(join(compiled, f), "utf8")));
  writeFileSync(join(dir, "backoff_wasm.js"), glue);
  writeFileSync(join(dir, "wasm.js"), readFileSync(at("js", "loaders", loader)));
  for (const [f, text] of Object.entries(extra)) writeFileSync(join(dir, f), text);
  return dir;
}

tree("esm", "node.js");
tree("browser", "browser.js", { "wasm-inline.js": `export const wasmBase64 = "${wasmBytes.toString("base64")}";\n` });
tree("workerd", "workerd.js");

// CommonJS: the same modules transformed, with the CommonJS loader.
const cjs = join(pkg, "dist", "cjs");
mkdirSync(cjs, { recursive: true });
writeFileSync(join(cjs, "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
for (const f of [...modules, "backoff_wasm.js"]) {
  const src = f === "backoff_wasm.js" ? glue : readFileSync(join(compiled, f), "utf8");
  writeFileSync(join(cjs, f), minify(src, "cjs"));
}
writeFileSync(join(cjs, "wasm.js"), readFileSync(at("js", "loaders", "cjs.js")));

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

// Version from Cargo.toml, so the crate and the package never disagree.
const version = /^version = "([^"]+)"/m.exec(readFileSync(at("Cargo.toml"), "utf8"))[1];
const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
manifest.version = version;
writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
console.error(`[build] pkg/ ready: backoff-wasm@${version}, wasm ${wasmBytes.length} bytes`);
