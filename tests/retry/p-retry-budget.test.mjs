// backoff-wasm/p-retry's one extension, `budget`: a call deposits once before its first
// attempt; each retry that shouldRetry allowed is paid from the budget, and one the budget
// refuses (or a store that throws, rejects, or does not answer within maxRetryTime) ends the
// call as spent retries do, rethrowing the last error; an abort while a store answers rejects
// with the signal's reason. Also: importing only backoff-wasm/p-retry loads no WebAssembly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { buildSync } from "esbuild";
import realRetry from "p-retry";
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

/** `budget` with its steps logged: "deposit", and "paid" or "refused" for each withdrawal (awaited when a promise). */
function logged(budget, steps) {
  return {
    deposit() { steps.push("deposit"); return budget.deposit(); },
    tryWithdraw() {
      const answer = budget.tryWithdraw();
      const note = (ok) => { steps.push(ok ? "paid" : "refused"); return ok; };
      return typeof answer?.then === "function" ? answer.then(note) : note(answer);
    },
    get balance() { return budget.balance; },
  };
}

/** Runs `run(options)` with an operation whose attempts all fail; returns [rejection, thrown errors, onFailedAttempt contexts]. */
async function failing(run, options) {
  const thrown = [];
  const contexts = [];
  const e = await run((n) => { const x = new Error(`f${n}`); thrown.push(x); throw x; }, {
    minTimeout: 0, ...options,
    onFailedAttempt: ({ error, attemptNumber, retriesLeft, retriesConsumed, retryDelay }) => {
      contexts.push([error.message, attemptNumber, retriesLeft, retriesConsumed, retryDelay]);
    },
  }).then(() => assert.fail("resolved"), (x) => x);
  return [e, thrown, contexts];
}

test("with createRetryBudget: every call deposits (a success too), every retry withdraws once; the refused one rejects as p-retry 9.0.0 rejects when shouldRetry says no", async () => {
  const steps = [];
  // ratio 0.5, no reserve: two calls pay for one retry.
  const budget = logged(createRetryBudget({ ratio: 0.5, minPerSecond: 0, windowMs: "60 seconds" }), steps);
  for (let i = 0; i < 8; i++) assert.equal(await pRetry((n) => `ok ${n}`, { budget }), "ok 1");
  assert.equal(budget.balance, 4);
  let n = 0;
  assert.equal(await pRetry(() => (++n < 3 ? Promise.reject(new Error(`t${n}`)) : "third"), { budget, minTimeout: 0 }), "third");
  assert.deepEqual(steps.splice(0), [...Array(8).fill("deposit"), "deposit", "paid", "paid"]);
  // 9 deposits (4.5 retries) less 2 paid: 2 left, and this call's deposit makes 3.
  const [e, thrown, contexts] = await failing(pRetry, { retries: 100, budget });
  assert.deepEqual(steps, ["deposit", "paid", "paid", "paid", "refused"]);
  assert.equal(e, thrown[3], "the last attempt's own error, not a RetryError");
  assert.equal(thrown.length, 4);
  assert.equal(budget.balance, 0);
  // p-retry itself, ended after the same attempt by shouldRetry: the same rejection, the same contexts.
  const [real, realThrown, realContexts] = await failing(realRetry, { retries: 100, shouldRetry: ({ attemptNumber }) => attemptNumber < 4 });
  assert.equal(real, realThrown[3]);
  assert.deepEqual(contexts, realContexts);
  assert.deepEqual(contexts.at(-1), ["f4", 4, 97, 3, 0]);
});

test("with a budget in a store: p units per call, q per retry (ratio 0.7 = 7/10); the fleet's units are exact after flush()", async () => {
  const store = {
    units: 0,
    rules: new Set(),
    async deposit(units, rule) { store.rules.add(JSON.stringify(rule)); store.units += units; },
    async withdraw(units, rule) {
      store.rules.add(JSON.stringify(rule));
      const charged = rule.reserve + store.units >= units;
      if (charged) store.units -= units;
      return { charged, balance: rule.reserve + store.units };
    },
  };
  const steps = [];
  const shared = createRetryBudget({ ratio: 0.7, minPerSecond: 0, windowMs: "60 seconds", store });
  const budget = logged(shared, steps);
  for (let i = 0; i < 10; i++) await pRetry(() => "ok", { budget });
  const [e, thrown] = await failing(pRetry, { retries: 100, budget });
  // 11 deposits of 7 units pay for 7 retries of 10 units; the 8th is refused.
  assert.deepEqual(steps, [...Array(11).fill("deposit"), ...Array(7).fill("paid"), "refused"]);
  assert.equal(e, thrown[7]);
  assert.equal(e.message, "f8");
  await shared.flush();
  assert.equal(store.units, 7);
  assert.deepEqual([...store.rules], ['{"windowMs":60000,"reserve":0}']);
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
  // Its entry file and the wasm-free code it shares with the root's index.js, not index.js.
  assert.deepEqual(loaded.map((f) => f.replace(/.*\/pkg\//, "")).sort(), ["dist/cjs/base.js", "dist/cjs/p-retry.js"]);
  for (const f of loaded) assert.ok(!/WebAssembly|wasmText|__backoffWasm/.test(readFileSync(f, "utf8")), `${f} carries the wasm`);
  assert.equal(typeof cjs.default, "function");
  assert.equal(typeof cjs.makeRetriable, "function");
});
