// Node ESM (also Bun): the wasm file is read and compiled synchronously,
// so importing the package needs no top-level await.
import { readFileSync } from "node:fs";
import { initSync } from "./backoff_wasm.js";

initSync({ module: new WebAssembly.Module(readFileSync(new URL("../backoff_wasm_bg.wasm", import.meta.url))) });

export * from "./backoff_wasm.js";
