// Types of the runtime-specific loader (`./wasm.js`): every loader initialises
// the wasm-bindgen glue synchronously and re-exports it. Its exports take and
// return numbers only; `initSync`, called again, returns the instance's exports
// without compiling anything (js/abi.ts reads `memory` through it).
export * from "./backoff_wasm.js";
