// Cloudflare Workers (workerd): compiling wasm from bytes is forbidden there, so
// the module arrives precompiled through a .wasm import (Wrangler's CompiledWasm rule).
import module from "../backoff_wasm_bg.wasm";
import { initSync } from "./backoff_wasm.js";

const instance = initSync({ module });

export * from "./backoff_wasm.js";

/** @internal Bytes of the wasm linear memory, for the leak tests; not part of the public API or its types. */
export const __wasmMemoryBytes = () => instance.memory.buffer.byteLength;
