// Cloudflare Workers (workerd): compiling wasm from bytes is forbidden there, so
// the module arrives precompiled through a .wasm import (Wrangler's CompiledWasm rule).
import wasmModule from "../backoff_wasm_bg.wasm";
import { finalize, imports } from "./backoff_wasm.js";

/** The instance's exports (wasm-bindgen's glue records the instance and runs its start). */
export const wasmExports = finalize(new WebAssembly.Instance(wasmModule, imports()), wasmModule);
