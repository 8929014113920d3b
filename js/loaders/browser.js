// Browsers, bundlers and Deno: the wasm bytes are inlined (a string of one
// character per byte, U+0000–U+00FF, in ./wasm-inline.js, an ASCII file) and
// compiled synchronously, so no bundler plugin, asset URL or top-level await is needed.
import { initSync } from "./backoff_wasm.js";
import { wasmText } from "./wasm-inline.js";

const bytes = new Uint8Array(wasmText.length);
for (let i = 0; i < bytes.length; i++) bytes[i] = wasmText.charCodeAt(i);
initSync({ module: new WebAssembly.Module(bytes) });

export * from "./backoff_wasm.js";
