// Cloudflare Workers (workerd): compiling wasm from bytes is forbidden there, so
// the module arrives precompiled through a .wasm import (Wrangler's CompiledWasm rule).
import wasmModule from "../backoff_wasm_bg.wasm";
import { instantiate } from "./instantiate.js";

/** The instance's exports (its start function has run). */
export const wasmExports = instantiate(wasmModule);
