// ESM for Node and what builds for it (the `node` condition: Node's and Bun's `import`, Deno,
// esbuild/Rollup/webpack bundling for Node, Vite's server build): the ESM tree's loader
// without top-level await, so a bundler may also write the app as CommonJS (esbuild
// `--platform=node --format=cjs`) and `require` of the tree works where Node loads ES modules
// synchronously. The wasm text and the JavaScript build are the ESM tree's own files
// (../esm/wasm-inline.js, ../esm/wasm-js.js: one copy of each in the package), and both are
// imported statically: where WebAssembly is missing (`node --jitless`) the JavaScript build
// is there without a wait. Where WebAssembly runs, the JavaScript build is read and parsed
// but never run (its module only declares `instantiate`); a Node bundle carries it, which a
// server can afford and a page's bundle (the `default` condition) does not.
import { inlineModule, instantiate, instantiateJs } from "./instantiate.js";
import { wasmText } from "../esm/wasm-inline.js";
import * as jsBuild from "../esm/wasm-js.js";

/** The wasm's exports, or the JavaScript build's where compiling or instantiating the wasm throws. */
function load() {
  try {
    return instantiate(inlineModule(wasmText));
  } catch {
    return instantiateJs(jsBuild);
  }
}

/** The instance's exports (its start function has run), or the JavaScript build's. */
export const wasmExports = load();
