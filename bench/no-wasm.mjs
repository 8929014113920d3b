// `node --import ./bench/no-wasm.mjs bench/run.mjs`: the benchmark with no WebAssembly global, as
// under `node --jitless` but with the JIT on, so the package runs on its JavaScript build
// (dist/esm/wasm-js.js) beside hand-written JavaScript compiled the same way.
delete globalThis.WebAssembly;
