// CommonJS (`require`): the wasm bytes are inlined in this same file, so a bundler
// that bundles the CommonJS build (webpack, esbuild, Rollup's commonjs plugin)
// needs no file beside it. scripts/assemble.mjs appends the function
// `__backoffWasmText`, which returns them as the ASCII string of ../esm/wasm-inline.js
// (a prefix character, then the bytes XOR a key: scripts/assemble.mjs, `wasmLiteral`);
// a function declaration is hoisted, so it is callable here although it comes
// last in the file (after all the mapped code, so the source map stays exact).
//
// Where WebAssembly is missing or refused, `__backoffJsBuild` (appended the same way)
// requires the JavaScript build, ../esm/wasm-js.js (an ES module without top-level await,
// which `require` loads from Node 20.19 and 22.12 on, and which bundlers take as any module):
// the one copy the ESM tree imports too, read only on that path.
import { inlineModule, instantiate, instantiateJs, unloadable } from "./instantiate.js";

/** The wasm's exports, or the JavaScript build's where compiling or instantiating the wasm throws. */
function load() {
  try {
    // eslint-disable-next-line no-undef
    return instantiate(inlineModule(__backoffWasmText()));
  } catch (refused) {
    let build;
    try {
      // eslint-disable-next-line no-undef
      build = __backoffJsBuild();
    } catch (failed) {
      unloadable(refused, failed);
    }
    return instantiateJs(build);
  }
}

/** The instance's exports (its start function has run), or the JavaScript build's. */
export const wasmExports = load();
