// Browsers, bundlers and Deno: the wasm bytes are inlined (hex text) and compiled
// synchronously, so no bundler plugin, asset URL or top-level await is needed.
// Hex rather than base64: two characters per byte keep the bytes aligned, so gzip
// still finds the wasm's repeats (about 8 % over the .wasm's own gzip size; base64: 30 %).
import { initSync } from "./backoff_wasm.js";
import { wasmHex } from "./wasm-inline.js";

const bytes = new Uint8Array(wasmHex.length >> 1);
for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(wasmHex.substr(i * 2, 2), 16);
const instance = initSync({ module: new WebAssembly.Module(bytes) });

export * from "./backoff_wasm.js";

/** @internal Bytes of the wasm linear memory, for the leak tests; not part of the public API or its types. */
export const __wasmMemoryBytes = () => instance.memory.buffer.byteLength;
