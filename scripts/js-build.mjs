// The JavaScript build of the engine: the shipped wasm (pkg/dist/backoff_wasm_bg.wasm, after
// scripts/assemble.mjs gave its exports short names) translated by binaryen's wasm2js. It is
// the same compiled Rust, not a second engine: two steps make the module translatable, and
// two make the translation behave as a WebAssembly.Instance does for the code that uses it.
//
// 1. The variant: wasm-bindgen's externref table (where a call keeps the JavaScript value it
//    was given, a draw's context, while it runs) is no longer the module's own: wasm2js
//    translates no table that is not of functions. Each `table.get`, `table.set` and
//    `table.fill` of it becomes a call of an import of the module `t` (`get`, `set`, `fill`,
//    same operands, same result); any other use of a table fails this step.
// 2. binaryen's pass `llvm-nontrapping-fptoint-lowering` writes each non-trapping float-to-int
//    conversion (`i32/i64.trunc_sat_f64_*`, which Rust emits for `as`) as the comparisons
//    and trapping conversion of the same result; then `wasm2js -Oz` translates the module to
//    one function `instantiate(imports)` (its `--emscripten` form: no module syntax, no
//    state outside the function) that returns the exports, memory included.
// 3. The table: an array of the wasm table's size, filled with null as a new externref table
//    is, given to the translation as the imports of `t` (an index outside it throws, as the
//    wasm traps) and exported under the wasm table's name with the `get`/`set`/`length` of a
//    WebAssembly.Table, so js/engine/loaders/instantiate.js sets it up as it does the wasm's.
// 4. wasm2js grows memory by copying it into a larger ArrayBuffer and leaves the old one as it
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

/** The features the variant keeps: those wasm2js translates. */
const FEATURES = ["MutableGlobals", "SignExt", "BulkMemory", "ReferenceTypes"];

/**
 * The wasm with its externref table made the imports of `t` and its non-trapping conversions
 * lowered (steps 1 and 2), and the table's export name and size (step 3).
 */
export function translatableWasm(bytes) {
  const m = binaryen.readBinary(bytes);
  let text;
  try {
    m.setFeatures(binaryen.Features.All);
    text = m.emitText();
  } finally {
    m.dispose();
  }
  const tables = [...text.matchAll(/^ \(table \$(\S+) (\d+) externref\)$/gm)];
  const exports = [...text.matchAll(/^ \(export "([^"]+)" \(table \$(\S+)\)\)$/gm)];
  if (tables.length !== 1 || exports.length !== 1 || exports[0][2] !== tables[0][1] || /^ \((table|elem) /m.test(text.replace(tables[0][0], "").replace(exports[0][0], ""))) {
    throw new Error("js-build: the wasm does not have one exported externref table and nothing else of tables");
  }
  const name = `$${tables[0][1]}`;
  let variant = text.replace(tables[0][0] + "\n", "").replace(exports[0][0] + "\n", "")
    .replaceAll(`(table.get ${name}\n`, "(call $t.get\n")
    .replaceAll(`(table.set ${name}\n`, "(call $t.set\n")
    .replaceAll(`(table.fill ${name}\n`, "(call $t.fill\n");
  if (/\b(table\.[a-z]+|call_indirect|elem\.drop|ref\.func)\b/.test(variant)) {
    throw new Error("js-build: a function of the wasm uses its table other than by table.get, table.set and table.fill");
  }
  const imports = [
    ' (import "t" "get" (func $t.get (param i32) (result externref)))',
    ' (import "t" "set" (func $t.set (param i32 externref)))',
    ' (import "t" "fill" (func $t.fill (param i32 externref i32)))',
  ];
  const firstImport = variant.indexOf("\n (import ");
  if (firstImport < 0) throw new Error("js-build: the wasm imports nothing");
  variant = `${variant.slice(0, firstImport + 1)}${imports.join("\n")}\n${variant.slice(firstImport + 1)}`;
  const v = binaryen.parseText(variant);
  try {
    v.setFeatures(binaryen.Features.All);
    v.runPasses(["llvm-nontrapping-fptoint-lowering"]);
    v.setFeatures(FEATURES.reduce((f, k) => f | binaryen.Features[k], binaryen.Features.MVP));
    if (!v.validate()) throw new Error("js-build: the variant of the wasm does not validate without the features wasm2js lacks");
    return { bytes: v.emitBinary(), table: { name: exports[0][1], size: Number(tables[0][2]) } };
  } finally {
    v.dispose();
  }
}

/** The wasm grow of wasm2js's output, as it must read for step 4 to apply. */
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
    const { bytes: variant, table } = translatableWasm(bytes);
    writeFileSync(input, variant);
    const features = FEATURES.map((f) => `--enable-${f.replace(/[A-Z]/g, (c, i) => (i ? "-" : "") + c.toLowerCase())}`);
    const r = spawnSync(join(root, "node_modules", ".bin", "wasm2js"), [input, ...features, "-Oz", "--emscripten", "-o", output], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`js-build: wasm2js failed: ${r.error ?? r.stderr}`);
    let code = readFileSync(output, "utf8");
    if (!code.startsWith("function instantiate(info) {") || code.split(GROW).length !== 2 || code.split(SWAP).length !== 2 ||
      code.split(RUN).length !== 2) {
      throw new Error("js-build: wasm2js's output no longer has the shape steps 3 and 4 patch (function instantiate, one memory grow)");
    }
    code = code
      .replace(GROW, "  if ((oldPages < newPages) && (newPages < 65536) && canDetach(buffer)) {\n")
      .replace(SWAP, "   detach(buffer);\n   buffer = newBuffer;\n")
      .replace(RUN, `  var exports = asmFunc({ w: info.w, t: table });\n  exports[${JSON.stringify(table.name)}] = table;\n  return exports;\n`)
      .replace("function instantiate(info) {\n", `function instantiate(info) {\n${DETACH}${TABLE(table.size)}`);
    return code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The last line of wasm2js's `instantiate`: the call that makes the exports (step 3). */
const RUN = "  return asmFunc(info);\n";

/** The externref table of `size` slots, as imports of `t` and as the exported table (step 3). */
const TABLE = (size) => `  var slots = [];
  for (var s = 0; s < ${size}; s++) slots.push(null);
  function slot(i, n) {
    i = i >>> 0;
    if (i + n > slots.length) throw new RangeError("table index is out of bounds");
    return i;
  }
  var table = {
    get length() {
      return slots.length;
    },
    get: function (i) {
      return slots[slot(i, 1)];
    },
    set: function (i, v) {
      slots[slot(i, 1)] = v;
    },
    fill: function (i, v, n) {
      n = n >>> 0;
      for (var k = slot(i, n); n > 0; n--) slots[k++] = v;
    }
  };
`;

/** Detaching an ArrayBuffer where the host can (step 4). */
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
