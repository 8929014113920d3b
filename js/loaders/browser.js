// Browsers, bundlers and Deno: the wasm bytes are inlined (base64) and compiled
// synchronously, so no bundler plugin, asset URL or top-level await is needed.
import { initSync } from "./backoff_wasm.js";
import { wasmBase64 } from "./wasm-inline.js";

const text = atob(wasmBase64);
const bytes = new Uint8Array(text.length);
for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
const instance = initSync({ module: new WebAssembly.Module(bytes) });

export * from "./backoff_wasm.js";

/** @internal Bytes of the wasm linear memory, for the leak tests; not part of the public API or its types. */
export const __wasmMemoryBytes = () => instance.memory.buffer.byteLength;
