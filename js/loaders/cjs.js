// Node CommonJS: the wasm file is read and compiled synchronously. Written as an
// ES module, this loader is bundled into dist/cjs/backoff-wasm.js as CommonJS,
// where `__dirname` is the directory of that file.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { initSync } from "./backoff_wasm.js";

const instance = initSync({ module: new WebAssembly.Module(readFileSync(join(__dirname, "..", "backoff_wasm_bg.wasm"))) });

export * from "./backoff_wasm.js";

/** @internal Bytes of the wasm linear memory, for the leak tests; not part of the public API or its types. */
export const __wasmMemoryBytes = () => instance.memory.buffer.byteLength;
