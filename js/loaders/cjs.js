"use strict";
// Node CommonJS: the wasm file is read and compiled synchronously.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const glue = require("./backoff_wasm.js");

const instance = glue.initSync({ module: new WebAssembly.Module(readFileSync(join(__dirname, "..", "backoff_wasm_bg.wasm"))) });

// @internal Bytes of the wasm linear memory, for the leak tests; not part of the public API or its types.
Object.defineProperty(glue, "__wasmMemoryBytes", { value: () => instance.memory.buffer.byteLength });

module.exports = glue;
