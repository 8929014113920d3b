// CommonJS (`require`): the wasm bytes are inlined in this same file, so a bundler
// that bundles the CommonJS build (webpack, esbuild, Rollup's commonjs plugin)
// needs no file beside it. scripts/assemble.mjs appends the function
// `__backoffWasmText`, which returns them as a string of one character per byte
// (each byte XOR a key, the first character: scripts/assemble.mjs, `wasmLiteral`);
// a function declaration is hoisted, so it is callable here although it comes
// last in the file (after all the mapped code, so the source map stays exact).
import { finalize, imports } from "./backoff_wasm.js";

// eslint-disable-next-line no-undef
const text = __backoffWasmText();
const bytes = new Uint8Array(text.length);
for (let i = 0; i < bytes.length; i++) bytes[i] = text.charCodeAt(i) ^ text.charCodeAt(0);
const wasmModule = new WebAssembly.Module(bytes);

/** The instance's exports (wasm-bindgen's glue records the instance and runs its start). */
export const wasmExports = finalize(new WebAssembly.Instance(wasmModule, imports()), wasmModule);
