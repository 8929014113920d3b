// ESM everywhere but Cloudflare Workers (Node and Bun `import`, browsers, bundlers,
// Deno): the wasm bytes are inlined in ./wasm-inline.js (an ASCII string: its first
// character is a prefix, the rest the bytes XOR a key, each below 0x80 as itself and
// each at or above as the prefix and its low 7 bits; the prefix's own value is the
// character prefix + 0x80; the key is the second character, since a wasm module
// starts with the byte 0: scripts/assemble.mjs, `wasmLiteral`) and compiled synchronously. No file
// path, asset URL, bundler plugin or top-level await is needed where WebAssembly runs, so the
// package also works when an application bundles it (esbuild, Rollup, webpack, Vite; for
// Node as well as for browsers).
//
// Where WebAssembly is missing (`node --jitless`, JIT-less hosts) or compiling it is refused
// (a Content-Security-Policy whose script-src lacks 'wasm-unsafe-eval'), the JavaScript build
// (./wasm-js.js, the same wasm translated by wasm2js) is imported instead. It is a dynamic
// import, awaited at the top level only on that path, so a bundler puts it in a chunk of its
// own that is fetched only where it is used. Where it cannot load either, importing the
// package rejects with the package's own error, which names the fix.
import { inlineModule, instantiate, instantiateJs, unloadable } from "./instantiate.js";
import { wasmText } from "./wasm-inline.js";

/** The wasm's exports (`{ exports_ }`), or what compiling or instantiating it threw (`{ refused_ }`; names ending in `_` are shortened by the build). */
function fromWasm() {
  try {
    return { exports_: instantiate(inlineModule(wasmText)) };
  } catch (refused) {
    return { refused_: refused };
  }
}
const wasm = fromWasm();

/** The instance's exports (its start function has run), or the JavaScript build's (awaited on that path only). */
export const wasmExports = wasm.exports_ ?? instantiateJs(await import("./wasm-js.js").catch((failed) => unloadable(wasm.refused_, failed)));
