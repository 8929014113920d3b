// ESM everywhere but Cloudflare Workers (Node and Bun `import`, browsers, bundlers,
// Deno): the wasm bytes are inlined in ./wasm-inline.js (a string of one character
// per byte, U+0000–U+00FF, written as ASCII; each byte XOR a key, which is the first
// character since a wasm module starts with the byte 0: scripts/assemble.mjs,
// `wasmLiteral`) and compiled synchronously. No file
// path, asset URL, bundler plugin or top-level await is needed, so the package
// also works when an application bundles it (esbuild, Rollup, webpack, Vite; for
// Node as well as for browsers).
import { finalize, imports } from "./backoff_wasm.js";
import { wasmText } from "./wasm-inline.js";

const bytes = new Uint8Array(wasmText.length);
for (let i = 0; i < bytes.length; i++) bytes[i] = wasmText.charCodeAt(i) ^ wasmText.charCodeAt(0);
const wasmModule = new WebAssembly.Module(bytes);

/** The instance's exports (wasm-bindgen's glue records the instance and runs its start). */
export const wasmExports = finalize(new WebAssembly.Instance(wasmModule, imports()), wasmModule);
