// The JavaScript build as shipped (pkg/dist/esm/wasm-js.js: the wasm translated by wasm2js,
// scripts/js-build.mjs, then minified) answers every call exactly as the wasm does: the
// package runs on the wasm while each call into it is made on the JavaScript build too, from
// the same memory and with the same draws, and the two must return the same number
// (Object.is: -0 and NaN too) and leave the same bytes in all of memory.
// The calls are those of the cross-runtime vectors (thousands of createBackoff
// configurations × attempts × seeds, tests/js/cross-runtime.test.mjs) and of the shared
// case files (tests/js/cases: /backoff, /sigil, /random, /duration, /policy).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { collect } from "./cases/harness.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const JS_BUILD = new URL("../../pkg/dist/esm/wasm-js.js", import.meta.url);
if (!existsSync(JS_BUILD)) throw new Error("pkg/dist/esm/wasm-js.js is missing: run `npm run build`");
const { instantiate: instantiateJs } = await import(JS_BUILD.href);

let calls = 0;
const mismatches = [];

const draws = [];
let replay = -1;
let depth = 0;
let inDraw = false;
let realMemory;
const memoryOf = (m) => new Uint8Array(m.buffer).slice();

/** The loader's imports with each draw of the wasm recorded, for the JavaScript build to replay. */
function recording(imports) {
  const hostDraw = imports.w.draw;
  return {
    ...imports,
    w: {
      ...imports.w,
      draw: (...args) => {
        // A JavaScript source may call the package itself (createRandom's stream does): its
        // effect on memory is what the JavaScript build finds when its draw returns.
        if (inDraw) return hostDraw(...args); // a draw of a call made by the source: part of its effect
        const before = memoryOf(realMemory);
        inDraw = true;
        let v;
        try {
          v = hostDraw(...args);
        } finally {
          inDraw = false;
        }
        draws.push([args, v, before, memoryOf(realMemory)]);
        return v;
      },
    },
  };
}

/** The name of the externref table among `exports`, and the table. */
const tableOf = (exports) => Object.entries(exports).find(([, v]) => v instanceof WebAssembly.Table);
let tables;

/** Where the two externref tables differ (each call leaves its slots as it found them), or "". */
function tablesDiffer() {
  const [real, js] = tables;
  if (real.length !== js.length) return `the tables have ${real.length} and ${js.length} slots`;
  for (let i = 0; i < real.length; i++) if (!Object.is(real.get(i), js.get(i))) return `the tables differ at ${i}`;
  return "";
}

/** Every export of `wasm` made on the JavaScript build too, compared call by call. */
function twin(wasm) {
  const [tableName, realTable] = tableOf(wasm);
  const js = instantiateJs({
    w: {
      draw: (...args) => {
        const [want, v, before, after] = draws[replay++] ?? [];
        if (!want || want.some((a, i) => !Object.is(a, args[i]))) mismatches.push(`draw ${args}: the wasm drew ${want}`);
        else {
          // Only the bytes the source changed: the rest is the call's own state, which the
          // final comparison checks.
          const mem = new Uint8Array(js.memory.buffer);
          for (let i = 0; i < after.length; i++) if (after[i] !== before[i]) mem[i] = after[i];
        }
        return v;
      },
      // The start function's set-up of the table: the JavaScript build's as the wasm's.
      table() {
        for (let i = 0; i < realTable.length; i++) js[tableName].set(i, realTable.get(i));
      },
    },
  });
  tables = [realTable, js[tableName]];
  const out = {};
  for (const [name, f] of Object.entries(wasm)) {
    if (typeof f !== "function") {
      // The memory and the externref table.
      out[name] = f;
      continue;
    }
    if (!(name in js)) {
      mismatches.push(`the JavaScript build has no export ${name}`);
      out[name] = f;
      continue;
    }
    out[name] = (...args) => {
      if (depth > 0) return f(...args);
      const before = new Uint8Array(wasm.memory.buffer).slice();
      draws.length = 0;
      depth++;
      let got;
      try {
        got = f(...args);
      } finally {
        depth--;
      }
      replay = 0;
      const mem = new Uint8Array(js.memory.buffer);
      if (mem.length < before.length) mismatches.push(`${name}: the JavaScript build's memory is smaller`);
      mem.set(before);
      const want = js[name](...args);
      calls++;
      if (!Object.is(got, want)) mismatches.push(`${name}(${args}): wasm ${got}, JavaScript ${want}`);
      else if (replay !== draws.length) mismatches.push(`${name}(${args}): ${draws.length} draws, JavaScript ${replay}`);
      else if (Buffer.compare(new Uint8Array(wasm.memory.buffer), new Uint8Array(js.memory.buffer)) !== 0) {
        const a = new Uint8Array(wasm.memory.buffer), b = new Uint8Array(js.memory.buffer);
        let i = 0;
        while (a[i] === b[i]) i++;
        mismatches.push(`${name}(${args}): the memories differ after the call, first at ${i}`);
      }
      return got;
    };
  }
  return out;
}

// The loader instantiates with `new WebAssembly.Instance(module, imports)` (js/loaders/instantiate.js).
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  const real = new Instance(module, recording(imports));
  realMemory = real.exports.memory;
  return { exports: twin(real.exports) };
};
const lib = await import("../../pkg/dist/esm/index.js");
const entries = {};
for (const name of ["sigil", "backoff", "random", "duration", "policy"]) entries[name] = await import(`../../pkg/dist/esm/${name}.js`);
WebAssembly.Instance = Instance;

test("the JavaScript build gives the wasm's answer to every call of the cross-runtime vectors", () => {
  const r = spawnSync("cargo", ["run", "-q", "--example", "vectors", "--", "600", "all-factors"], {
    cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.status, 0, `cargo run --example vectors failed: ${r.error ?? r.stderr}`);
  const start = calls;
  for (const v of JSON.parse(r.stdout)) {
    const source = v.source === "seed" ? { seed: v.seed } : v.source === "stream" ? { random: lib.createRandom(v.seed) } : {};
    const p = lib.createBackoff({ ...v.options, ...source });
    v.attempts.forEach((a, i) => {
      const want = v.delays[i] === null ? Infinity : v.delays[i];
      assert.ok(Object.is(p.delay(a), want), `${JSON.stringify(v.options)} delay(${a})`);
    });
  }
  assert.deepEqual(mismatches.slice(0, 10), []);
  assert.equal(tablesDiffer(), "");
  assert.ok(calls - start > 10_000, `${calls - start} calls compared`);
});

const caseFiles = ["backoff", "sigil", "random", "duration", "policy"];
for (const file of caseFiles) {
  const { default: cases } = await import(`./cases/${file}.mjs`);
  test(`the JavaScript build gives the wasm's answer to every call of the ${file} cases`, async () => {
    const start = calls;
    mismatches.length = 0;
    for (const c of collect(cases, lib, entries, file)) {
      const seen = mismatches.length;
      try {
        await c.fn();
      } catch (e) {
        // A case's own failure is reported by its own test file; here only the twins count.
        if (!(e?.name === "AssertionFailure")) throw e;
      }
      if (mismatches.length > seen) mismatches.push(`in the case ${c.name}`);
    }
    assert.deepEqual(mismatches.slice(0, 10), []);
    assert.equal(tablesDiffer(), "");
    assert.ok(calls > start || file === "duration", `${calls - start} calls compared`);
  });
}
