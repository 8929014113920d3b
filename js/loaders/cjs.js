// Node CommonJS: the wasm file is read and compiled synchronously. This loader is
// bundled into dist/cjs/index.js, a CommonJS module: `module`, `require` and
// `__dirname` (the directory of that file) are that module's. `module.require`
// rather than `require`, so that the bundler leaves the call alone.
import { initSync } from "./backoff_wasm.js";

const { readFileSync } = module.require("node:fs");
const { join } = module.require("node:path");
initSync({ module: new WebAssembly.Module(readFileSync(join(__dirname, "..", "backoff_wasm_bg.wasm"))) });

export * from "./backoff_wasm.js";
