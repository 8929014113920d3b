// backoff-wasm/p-retry's one extension, `budget`: a call deposits once before its first
// attempt; each retry that shouldRetry allowed is paid from the budget, and one the budget
// refuses (or a store that throws, rejects, or does not answer within maxRetryTime) ends the
// call as spent retries do, rethrowing the last error; an abort while a store answers rejects
// with the signal's reason. Also: importing only backoff-wasm/p-retry loads no WebAssembly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { buildSync } from "esbuild";
import pRetry from "../../pkg/dist/esm/p-retry.js";
import { createRetryBudget } from "../../pkg/dist/esm/retry.js";
import { instrumented } from "./p-retry-clock.mjs";

const require = createRequire(import.meta.url);

/** A budget that answers withdrawals from `answers` (values, or functions returning the answer) and logs. */
function scripted(answers, log) {
  let i = 0;
  return {
    deposit() { log.push("deposit"); },
    tryWithdraw() {
      const a = answers[Math.min(i++, answers.length - 1)];
      log.push("withdraw");
      return typeof a === "function" ? a() : a;
    },
    get balance() { return 0; },
  };
}

/** Runs `pRetry` of an operation failing with errors e1, e2, … on the fake clock; returns [outcome, log]. */
async function run(options, answers, extra = {}) {
  let outcome;
  const log = await instrumented([0], async (log, env) => {
    let n = 0;
    try {
      outcome = await pRetry(() => {
        log.push(`attempt ${++n}`);
        if (extra.succeedAt === n) return "ok";
        throw new Error(`e${n}`);
      }, { minTimeout: 10, ...options, budget: scripted(answers, log), ...extra.options?.(env) });
    } catch (e) {
      outcome = e;
    }
  });
  return [outcome, log.filter((e) => typeof e === "string" || e[0] === "wait" || e[0] === "clear")];
}

test("a refused retry rethrows the last error, as spent retries do; granted ones wait as p-retry waits", async () => {
  const [e, log] = await run({ retries: 5 }, [true, true, false]);
  assert.equal(e.message, "e3");
  assert.deepEqual(log, ["deposit", "attempt 1", "withdraw", ["wait", 10], "attempt 2", "withdraw", ["wait", 20], "attempt 3", "withdraw"]);
  const [ok, log2] = await run({ retries: 5 }, [true], { succeedAt: 2 });
  assert.equal(ok, "ok");
  assert.deepEqual(log2, ["deposit", "attempt 1", "withdraw", ["wait", 10], "attempt 2"]);
});

test("no withdrawal where p-retry would not retry: retries spent, shouldRetry false, a TypeError, an AbortError", async () => {
  const [e, log] = await run({ retries: 1 }, [true]);
  assert.equal(e.message, "e2");
  assert.deepEqual(log.filter((x) => x === "withdraw").length, 1);
  const [e2, log2] = await run({ retries: 3, shouldRetry: () => false }, [true]);
  assert.equal(e2.message, "e1");
  assert.ok(!log2.includes("withdraw"));
});

test("a failure that consumes no retry still pays: it is a retry the downstream sees", async () => {
  const [e, log] = await run({ retries: 1, shouldConsumeRetry: () => false }, [true, false]);
  assert.equal(e.message, "e2");
  assert.deepEqual(log, ["deposit", "attempt 1", "withdraw", "attempt 2", "withdraw"]);
});

test("a store that throws or rejects refuses; a promise is awaited; the wait after a late answer is cut to maxRetryTime", async () => {
  const [e1] = await run({ retries: 3 }, [() => { throw new Error("store down"); }]);
  assert.equal(e1.message, "e1");
  const [e2] = await run({ retries: 3 }, [() => Promise.reject(new Error("store down"))]);
  assert.equal(e2.message, "e1");
  const [ok, log] = await run({ retries: 3 }, [() => Promise.resolve(true)], { succeedAt: 2 });
  assert.equal(ok, "ok");
  assert.deepEqual(log, ["deposit", "attempt 1", "withdraw", ["wait", 10], "attempt 2"]);
  // The store answers after 95 of the 100 ms maxRetryTime leaves: the wait of 10 is cut to 5.
  const [ok2, log2] = await run({ retries: 3, maxRetryTime: 100 }, [], {
    succeedAt: 2,
    options: (env) => ({ budget: { deposit() {}, tryWithdraw: () => new Promise((r) => setImmediate(() => { env.advance(95); r(true); })) } }),
  });
  assert.equal(ok2, "ok");
  assert.deepEqual(log2.filter((x) => x[0] === "wait"), [["wait", 100], ["wait", 5]]);
});

test("a store that never answers: maxRetryTime ends the call with the last error; an abort rejects with its reason", async () => {
  const silent = { deposit() {}, tryWithdraw: () => new Promise(() => {}) };
  const [e, log] = await run({ retries: 3, maxRetryTime: 1000 }, [], { options: () => ({ budget: silent }) });
  assert.equal(e.message, "e1");
  // The timer that bounds the store's answer: what maxRetryTime leaves.
  assert.deepEqual(log, ["attempt 1", ["wait", 1000]]);
  const c = new AbortController();
  const reason = new Error("cancelled");
  const [e2, log2] = await run({ retries: 3, signal: c.signal }, [], {
    options: (env) => {
      env.onWait = () => {};
      return { budget: { deposit() {}, tryWithdraw: () => { queueMicrotask(() => c.abort(reason)); return new Promise(() => {}); } } };
    },
  });
  assert.equal(e2, reason);
  assert.deepEqual(log2, ["attempt 1"]);
});

test("the deposit: once per call before the first attempt, none for an aborted call; one that fails costs nothing", async () => {
  const log = [];
  const budget = scripted([true], log);
  await assert.rejects(pRetry(() => "x", { budget, signal: AbortSignal.abort(new Error("early")) }), { message: "early" });
  assert.deepEqual(log, []);
  assert.equal(await pRetry(() => "x", { budget }), "x");
  assert.deepEqual(log, ["deposit"]);
  const failing = { deposit() { throw new Error("no"); }, tryWithdraw: () => true };
  assert.equal(await pRetry(() => "y", { budget: failing }), "y");
  const rejecting = { deposit: () => Promise.reject(new Error("no")), tryWithdraw: () => true };
  assert.equal(await pRetry(() => "z", { budget: rejecting }), "z");
});

test("with createRetryBudget: an empty budget ends the call with the last error", async () => {
  // No minimum, ratio 1: each call's deposit pays for one retry.
  const budget = createRetryBudget({ ratio: 1, minPerSecond: 0 });
  let n = 0;
  assert.equal(await pRetry(() => (++n === 1 ? Promise.reject(new Error("once")) : "second"), { budget, minTimeout: 0 }), "second");
  n = 0;
  await assert.rejects(pRetry(() => { throw new Error(`f${++n}`); }, { budget, minTimeout: 0, retries: 5 }), { message: "f2" });
  assert.equal(n, 2);
});

test("importing only backoff-wasm/p-retry loads no WebAssembly (ESM app bundle, CommonJS require)", () => {
  // The package's ESM entry point, as the package's exports resolve `backoff-wasm/p-retry` for a browser bundle.
  const entry = JSON.stringify(new URL("../../pkg/dist/esm/p-retry.js", import.meta.url).pathname);
  const app = buildSync({
    stdin: { contents: `import pRetry from ${entry}; export const run = (fn) => pRetry(fn, { retries: 3 });`, resolveDir: new URL("../../pkg", import.meta.url).pathname },
    bundle: true, minify: true, write: false, format: "esm", platform: "browser", logLevel: "silent",
  }).outputFiles[0].text;
  assert.ok(!/WebAssembly|wasmText|__backoffWasmText/.test(app), "the bundle carries the wasm");
  const before = new Set(Object.keys(require.cache));
  const cjs = require("../../pkg/dist/cjs/p-retry.js");
  const loaded = Object.keys(require.cache).filter((f) => !before.has(f));
  assert.deepEqual(loaded.map((f) => f.replace(/.*\/pkg\//, "")), ["dist/cjs/p-retry.js"]);
  assert.equal(typeof cjs.default, "function");
  assert.equal(typeof cjs.makeRetriable, "function");
});
