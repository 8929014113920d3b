"use strict";
// Node CommonJS: the wasm file is read and compiled synchronously.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const glue = require("./backoff_wasm.js");

glue.initSync({ module: new WebAssembly.Module(readFileSync(join(__dirname, "..", "backoff_wasm_bg.wasm"))) });

module.exports = glue;
