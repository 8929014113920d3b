// Types of the runtime-specific loader (`./wasm.js`, js/engine/loaders/): every loader
// instantiates the wasm synchronously (js/engine/loaders/instantiate.js) and exports the
// instance's exports, which take and return numbers only (js/engine/abi.ts calls them).
import type { InitOutput } from "./backoff_wasm.js";

/** The instance's exports. */
export declare const wasmExports: InitOutput;
