// ESM everywhere but Cloudflare Workers (Node and Bun `import`, browsers, bundlers,
// Deno): the wasm bytes are inlined in ./wasm-inline.js (an ASCII string: its first
// character is a prefix, the rest the bytes XOR a key, each below 0x80 as itself and
// each at or above as the prefix and its low 7 bits; the prefix's own value is the
// character prefix + 0x80; the key is the second character, since a wasm module
// starts with the byte 0: scripts/assemble.mjs, `wasmLiteral`) and compiled synchronously. No file
// path, asset URL, bundler plugin or top-level await is needed, so the package
// also works when an application bundles it (esbuild, Rollup, webpack, Vite; for
// Node as well as for browsers).
import { inlineModule, instantiate } from "./instantiate.js";
import { wasmText } from "./wasm-inline.js";

const wasmModule = inlineModule(wasmText);

/** The instance's exports (its start function has run). */
export const wasmExports = instantiate(wasmModule);
