// The JavaScript build of the engine: the shipped wasm (pkg/dist/backoff_wasm_bg.wasm, after
// scripts/assemble.mjs gave its exports short names) translated by binaryen's wasm2js. It is
// the same compiled Rust, not a second engine: two steps make the module translatable, and a
// third makes its memory behave as a WebAssembly.Memory does for the code that reads it.
//
// 1. The variant: wasm-bindgen's externref table (exported as `y`, set up by the start
//    function's `table` import) is removed; no function of the module reads or writes it
//    (this step fails when one does), and wasm2js translates no table that is not of functions.
// 2. binaryen's pass `llvm-nontrapping-fptoint-lowering` writes each non-trapping float-to-int
//    conversion (`i32/i64.trunc_sat_f64_*`, which Rust emits for `as`) as the comparisons
//    and trapping conversion of the same result; then `wasm2js -Oz` translates the module to
//    one function `instantiate(imports)` (its `--emscripten` form: no module syntax, no
//    state outside the function) that returns the exports, memory included.
// 3. wasm2js grows memory by copying it into a larger ArrayBuffer and leaves the old one as it
//    was; a WebAssembly.Memory detaches the old buffer, and js/abi.ts re-makes a view when
//    its length is 0. The translation's grow detaches the old buffer too (structuredClone with
//    transfer, or ArrayBuffer#transfer), and fails as a full memory does (returns -1) where
//    the host can detach none, so a view is never left on memory the engine no longer uses.
//
// Usage as a script: node scripts/js-build.mjs in.wasm out.js (writes the ESM form).
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { tmpdir } from "node:os";
import binaryen from "binaryen";

const root = new URL("..", import.meta.url).pathname;

/** The wasm with its externref table removed and its non-trapping conversions lowered (steps 1 and 2). */
export function translatableWasm(bytes) {
  const m = binaryen.readBinary(bytes);
  try {
    m.setFeatures(binaryen.Features.All);
    const text = m.emitText();
    if (/\b(table\.(get|set|grow|size|fill|copy|init)|call_indirect|elem\.drop)\b/.test(text)) {
      throw new Error("js-build: a function of the wasm uses its table; the JavaScript build cannot remove it");
    }
    for (let i = m.getNumExports() - 1; i >= 0; i--) {
      const e = binaryen.getExportInfo(m.getExportByIndex(i));
      if (e.kind === binaryen.ExternalTable) m.removeExport(e.name);
    }
    for (let i = m.getNumTables() - 1; i >= 0; i--) m.removeTable(binaryen.getTableInfo(m.getTableByIndex(i)).name);
    m.runPasses(["llvm-nontrapping-fptoint-lowering"]);
    m.setFeatures(binaryen.Features.MVP | binaryen.Features.MutableGlobals | binaryen.Features.SignExt | binaryen.Features.BulkMemory);
    if (!m.validate()) throw new Error("js-build: the variant of the wasm does not validate without the features wasm2js lacks");
    return m.emitBinary();
  } finally {
    m.dispose();
  }
}

/** The wasm grow of wasm2js's output, as it must read for step 3 to apply. */
const GROW = "  if ((oldPages < newPages) && (newPages < 65536)) {\n";
const SWAP = "   buffer = newBuffer;\n";

/**
 * The source of `function instantiate(imports)` (no module syntax): the translation of `bytes`
 * (the shipped wasm), which returns the same exports a WebAssembly.Instance of it has.
 */
export function jsBuild(bytes) {
  const dir = mkdtempSync(join(tmpdir(), "backoff-js-build-"));
  try {
    const input = join(dir, "variant.wasm");
    const output = join(dir, "engine.js");
    writeFileSync(input, translatableWasm(bytes));
    const r = spawnSync(join(root, "node_modules", ".bin", "wasm2js"), [input, "-Oz", "--emscripten", "-o", output], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`js-build: wasm2js failed: ${r.error ?? r.stderr}`);
    let code = readFileSync(output, "utf8");
    if (!code.startsWith("function instantiate(info) {") || code.split(GROW).length !== 2 || code.split(SWAP).length !== 2) {
      throw new Error("js-build: wasm2js's output no longer has the shape step 3 patches (function instantiate, one memory grow)");
    }
    code = code
      .replace(GROW, "  if ((oldPages < newPages) && (newPages < 65536) && canDetach(buffer)) {\n")
      .replace(SWAP, "   detach(buffer);\n   buffer = newBuffer;\n")
      .replace("function instantiate(info) {\n", `function instantiate(info) {\n${DETACH}`);
    return code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Detaching an ArrayBuffer where the host can (step 3). */
const DETACH = `  function canDetach(b) {
    return typeof structuredClone == "function" || typeof b.transfer == "function";
  }
  function detach(b) {
    if (typeof b.transfer == "function") b.transfer();
    else structuredClone(b, { transfer: [b] });
  }
`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, output] = process.argv.slice(2);
  writeFileSync(output, `export ${jsBuild(readFileSync(input))}`);
}
