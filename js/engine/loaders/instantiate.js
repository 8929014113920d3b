// The wasm instance with its two imports, shared by the loaders (./wasm.js). The module
// imports exactly these (scripts/assemble.mjs, `shortWasm`, fails the build otherwise):
// js/engine/draw.ts's `draw` (a JavaScript random source's draw), and wasm-bindgen's set-up of
// its externref table (the slots it reserves for undefined, null, true and false), which
// the module's start function calls. wasm-bindgen's glue (build/bindgen/backoff_wasm.js)
// does the same with more code (~0.1 KB more per application bundle: wrapper functions,
// `__proto__: null` import objects, variables nothing reads); `checkGlue` in
// scripts/assemble.mjs fails the build when its table set-up is no longer this one.
import { draw } from "./draw.js";

/**
 * The wasm module from its inline spelling (scripts/assemble.mjs, `wasmLiteral`): the first
 * character is a prefix, the second carries the key (a wasm starts with the byte 0); each
 * byte below 0x80 is one character, each at or above is the prefix and its low 7 bits; every
 * byte is XOR the key. Compiled synchronously (no top-level await for the caller).
 */
export function inlineModule(text) {
  const prefix = text.charCodeAt(0);
  const key = text.charCodeAt(1) & 0x7f;
  const bytes = new Uint8Array(text.length);
  let n = 0;
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes[n++] = (c === prefix ? text.charCodeAt(++i) | 0x80 : c & 0x7f) ^ key;
  }
  return new WebAssembly.Module(bytes.subarray(0, n));
}

/** Instantiates the wasm `module`, runs its start function and returns its exports. */
export function instantiate(module) {
  return started((imports) => new WebAssembly.Instance(module, imports).exports);
}

/**
 * The exports of the JavaScript build (the wasm translated by wasm2js, scripts/js-build.mjs),
 * `build` being its module, after its start function ran: the same exports as an instance of
 * the wasm, memory and externref table included.
 */
export function instantiateJs(build) {
  return started(build.instantiate);
}

/** The exports `make` returns for the imports, after the start function set up the externref table. */
function started(make) {
  const wasm = make({ w: { draw, table } });
  function table() {
    const t = wasm.__wbindgen_externrefs;
    t.set(0, undefined);
    t.set(1024, undefined);
    t.set(1025, null);
    t.set(1026, true);
    t.set(1027, false);
  }
  wasm.__wbindgen_start();
  return wasm;
}

/**
 * Throws the package's error for a host where neither build loads: `refused` is what
 * compiling the wasm threw, `failed` what loading the JavaScript build threw (its cause).
 */
export function unloadable(refused, failed) {
  throw new Error(`backoff-wasm: WebAssembly refused (${refused}), JavaScript build not loaded (${failed}); allow 'wasm-unsafe-eval' in script-src`, { cause: failed });
}
