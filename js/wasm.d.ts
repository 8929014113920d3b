// Types of the runtime-specific loader (`./wasm.js`, js/loaders/): every loader
// instantiates the wasm synchronously (js/loaders/instantiate.js) and exports the
// instance's exports, which take and return numbers only (js/abi.ts calls them).
import type { InitOutput } from "./backoff_wasm.js";

/** The instance's exports. */
export declare const wasmExports: InitOutput;
