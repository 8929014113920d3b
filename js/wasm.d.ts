// Types of the runtime-specific loader (`./wasm.js`): every loader initialises
// the wasm-bindgen glue synchronously and re-exports it.
export * from "./backoff_wasm.js";
