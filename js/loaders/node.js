// Node ESM (also Bun): the wasm file is read and compiled synchronously,
// so importing the package needs no top-level await.
import { readFileSync } from "node:fs";
import { initSync } from "./backoff_wasm.js";

const instance = initSync({ module: new WebAssembly.Module(readFileSync(new URL("../backoff_wasm_bg.wasm", import.meta.url))) });

export * from "./backoff_wasm.js";

/** @internal Bytes of the wasm linear memory, for the leak tests; not part of the public API or its types. */
export const __wasmMemoryBytes = () => instance.memory.buffer.byteLength;
