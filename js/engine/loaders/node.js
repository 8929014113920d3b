// ESM for Node and what builds for it (the `node` condition: Node's and Bun's `import`, Deno,
// esbuild/Rollup/webpack bundling for Node, Vite's server build), bundled into the node tree's
// one file of code (dist/node/lib.js; scripts/assemble.mjs, `nodeTree`). No top-level await,
// so a bundler may also write the app as CommonJS (esbuild `--platform=node --format=cjs`) and
// `require` of the tree works where Node loads ES modules synchronously.
//
// The wasm bytes are in the same file: scripts/assemble.mjs appends the function
// `__backoffWasmBase64`, which returns them as base64 (a function declaration is hoisted,
// so it is callable here although it comes last in the file). Node decodes base64 natively
// (`Buffer.from(text, "base64")`); where there is no `Buffer`, `atob` does it.
//
// The JavaScript build is the ESM tree's own file (../esm/wasm-js.js: one copy in the package),
// imported statically: where WebAssembly is missing (`node --jitless`) it is there without a
// wait. Where WebAssembly runs, it is read and parsed but never run (its module only declares
// `instantiate`); a Node bundle carries it, which a server can afford and a page's bundle (the
// `default` condition) does not.
import { instantiate, instantiateJs } from "./instantiate.js";
import * as jsBuild from "../esm/wasm-js.js";

/** The wasm bytes, decoded from the base64 that `__backoffWasmBase64` returns. */
function wasmBytes() {
  // eslint-disable-next-line no-undef
  const text = __backoffWasmBase64();
  return typeof Buffer === "function" ? Buffer.from(text, "base64") : Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** The wasm's exports, or the JavaScript build's where compiling or instantiating the wasm throws. */
function load() {
  try {
    return instantiate(new WebAssembly.Module(wasmBytes()));
  } catch {
    return instantiateJs(jsBuild);
  }
}

/** The instance's exports (its start function has run), or the JavaScript build's. */
export const wasmExports = load();
