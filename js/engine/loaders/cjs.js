// CommonJS (`require`): the wasm bytes are inlined in this same file, so a bundler
// that bundles the CommonJS build (webpack, esbuild, Rollup's commonjs plugin)
// needs no file beside it. scripts/assemble.mjs appends the function
// `__backoffWasmText`, which returns them as the ASCII string of ../esm/wasm-inline.js
// (a prefix character, then the bytes XOR a key: scripts/assemble.mjs, `wasmLiteral`);
// a function declaration is hoisted, so it is callable here although it comes
// last in the file (after all the mapped code, so the source map stays exact).
import { inlineModule, instantiate } from "./instantiate.js";

// eslint-disable-next-line no-undef
const text = __backoffWasmText();
const wasmModule = inlineModule(text);

/** The instance's exports (its start function has run). */
export const wasmExports = instantiate(wasmModule);
