// Cloudflare Workers (workerd): compiling wasm from bytes is forbidden there, so
// the module arrives precompiled through a .wasm import (Wrangler's CompiledWasm rule).
import module from "../backoff_wasm_bg.wasm";
import { initSync } from "./backoff_wasm.js";

initSync({ module });

export * from "./backoff_wasm.js";
