// p-retry's own test file passes against backoff-wasm/p-retry with nothing changed but the
// import. The registry package of p-retry ships no test file, and p-retry's is not ours to
// commit, so:
// - when one is found locally — test.js in the installed p-retry package, or the file named by
//   the environment variable P_RETRY_TEST_FILE (for example p-retry's test.js of version 7.0.0,
//   54 tests, which p-retry 9.0.0 passes) — it runs unchanged with ava in a scratch folder whose
//   index.js re-exports the built mirror (the file imports './index.js');
// - in every run, the cases that file exercises, written here, run against the mirror and
//   against p-retry 9.0.0 itself with the same expectations, on a fake clock (no timed assertion).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import realRetry, { makeRetriable as realMakeRetriable, AbortError as RealAbortError } from "p-retry";
import mirrorRetry, { makeRetriable as mirrorMakeRetriable, AbortError as MirrorAbortError } from "../../pkg/dist/esm/p-retry.js";
import { closure } from "../../scripts/size.mjs";
import { instrumented } from "./p-retry-clock.mjs";
import { scratchDir as taggedScratchDir } from "../scratch-dir.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const IMPLS = [
  ["p-retry 9.0.0", { pRetry: realRetry, makeRetriable: realMakeRetriable, AbortError: RealAbortError }],
  ["backoff-wasm/p-retry", { pRetry: mirrorRetry, makeRetriable: mirrorMakeRetriable, AbortError: MirrorAbortError }],
];

/** p-retry's own test file, when one is available here (never downloaded). */
function upstreamTestFile() {
  const shipped = join(root, "node_modules", "p-retry", "test.js");
  if (existsSync(shipped)) return shipped;
  const named = process.env.P_RETRY_TEST_FILE;
  if (named) {
    assert.ok(existsSync(named), `P_RETRY_TEST_FILE names a missing file: ${named}`);
    return named;
  }
  return undefined;
}

/**
 * A scratch folder for the upstream file. Its stack-trace test looks for the words foo1, foo2
 * and main in the lines of a stack, file paths included, so the folder (and the copy of the
 * mirror it imports) must sit on a path without them: tests/.scratch when the checkout's path
 * has none, else the system's temporary folder (with node_modules linked for ava, delay, execa).
 */
function scratchDir() {
  const inTree = taggedScratchDir("p-retry-upstream");
  const dir = /main|foo[12]/.test(inTree) ? join(tmpdir(), `p-retry-upstream-${process.pid}`) : inTree;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (dir !== inTree) symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

test("p-retry's own test file (when available here) passes unchanged against the mirror; else its cases below stand for it", async (t) => {
  const file = upstreamTestFile();
  if (!file) {
    t.diagnostic("p-retry's test file is not installed here (the registry package ships none): its cases run below");
    return;
  }
  const dir = scratchDir();
  try {
    // The built mirror, copied with the chunks it imports, so no path in a stack names the checkout.
    const entry = join(root, "pkg", "dist", "esm", "p-retry.js");
    for (const f of closure(entry)) {
      const to = join(dir, "mirror", relative(dirname(entry), f));
      mkdirSync(dirname(to), { recursive: true });
      cpSync(f, to);
    }
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", ava: { timeout: "2m", files: ["test.js"] } }));
    writeFileSync(join(dir, "index.js"), 'export { default, makeRetriable, AbortError } from "./mirror/p-retry.js";\n');
    writeFileSync(join(dir, "test.js"), readFileSync(file));
    const ava = join(root, "node_modules", "ava", "entrypoints", "cli.mjs");
    const r = spawnSync(process.execPath, [ava, "--serial", "--tap"], { cwd: dir, encoding: "utf8", env: { ...process.env, CI: "true" }, timeout: 600_000 });
    const planned = (readFileSync(file, "utf8").match(/^test(?:\.serial)?\(/gm) ?? []).length;
    assert.equal(r.status, 0, `ava failed:\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^# pass ${planned}$`, "m"), r.stdout);
    assert.match(r.stdout, /^# fail 0$/m, r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const fixture = Symbol("fixture");

/** `test` once per implementation; `body(impl, clock)` runs on the fake clock (see p-retry-clock.mjs). */
function cases(name, body, draws = [0]) {
  for (const [label, impl] of IMPLS) {
    test(`${label}: ${name}`, async () => {
      await instrumented(draws, (log, env) => body(impl, { log, env, waits: () => log.filter((e) => e[0] === "wait").map((e) => e[1]) }));
    });
  }
}

/** What `promise` rejects with (fails when it resolves). */
async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail("expected a rejection");
}

cases("input receives the attempt's number; the call resolves with the first success", async ({ pRetry }) => {
  const seen = [];
  const error = new Error("fixture");
  const value = await pRetry(async (n) => {
    seen.push(n);
    return n === 3 ? fixture : Promise.reject(error);
  });
  assert.equal(value, fixture);
  assert.deepEqual(seen, [1, 2, 3]);
});

cases("retries: Infinity retries until an AbortError", async ({ pRetry, AbortError }) => {
  let calls = 0;
  const e = await rejection(pRetry(() => {
    if (++calls === 15) throw new AbortError("stop");
    throw new Error("again");
  }, { retries: Number.POSITIVE_INFINITY, minTimeout: 0 }));
  assert.equal(calls, 15);
  assert.deepEqual([e.constructor, e.message], [Error, "stop"]);
});

cases("a thrown or rejected non-Error becomes a TypeError naming it", async ({ pRetry }) => {
  for (const [input, text] of [[() => { throw "foo"; }, "foo"], [() => Promise.reject("string rejection"), "string rejection"], [() => { throw 42; }, "42"]]) {
    const e = await rejection(pRetry(input, { retries: 1, minTimeout: 0 }));
    assert.ok(e instanceof TypeError);
    assert.equal(e.message, `Non-error was thrown: "${text}". You should only throw errors.`);
  }
  // A value whose String() throws: Object.prototype.toString's text.
  const e = await rejection(pRetry(() => { throw Object.create(null); }, { retries: 0 }));
  assert.equal(e.message, 'Non-error was thrown: "[object Object]". You should only throw errors.');
});

cases("a TypeError is not retried and shouldRetry is not asked, unless it is a network error", async ({ pRetry }) => {
  const typeError = new TypeError("type-error-fixture");
  let calls = 0;
  let asked = 0;
  assert.equal(await rejection(pRetry(() => { calls++; throw typeError; }, { shouldRetry: () => ++asked })), typeError);
  assert.deepEqual([calls, asked], [1, 0]);
  for (const message of ["Failed to fetch", "fetch failed", "Failed to fetch (example.com)", "terminated", "error sending request for url (x)"]) {
    let n = 0;
    assert.equal(await pRetry(() => (++n === 3 ? fixture : Promise.reject(new TypeError(message)))), fixture);
    assert.equal(n, 3, message);
  }
  // Safari's "Load failed" is a network error only without a stack.
  const load = (stack) => {
    const e = new TypeError("Load failed");
    if (!stack) e.stack = undefined;
    return e;
  };
  let n = 0;
  assert.equal(await pRetry(() => (++n === 2 ? fixture : Promise.reject(load(false)))), fixture);
  n = 0;
  await rejection(pRetry(() => { n++; throw load(true); }));
  assert.equal(n, 1);
});

cases("maxRetryTime: the last error is rethrown as it was once the time is up; 0 allows one attempt", async ({ pRetry }, { env }) => {
  const original = new Error("original error");
  let calls = 0;
  assert.equal(await rejection(pRetry(() => { calls++; env.advance(150); throw original; }, { maxRetryTime: 100, minTimeout: 0 })), original);
  assert.equal(calls, 1);
  calls = 0;
  await rejection(pRetry(() => { calls++; throw new Error("x"); }, { maxRetryTime: 0 }));
  assert.equal(calls, 1);
});

cases("maxRetryTime counts the attempts, the callbacks and the waits, and cuts the last wait", async ({ pRetry }, { env, waits }) => {
  let calls = 0;
  await rejection(pRetry(() => { calls++; env.advance(400); throw new Error("test"); }, { retries: 10, minTimeout: 100, maxRetryTime: 1000 }));
  // 400 attempt, 100 wait, 400 attempt, then 100 left: the wait of 200 is cut to 100, then 400 more.
  assert.deepEqual(waits(), [100, 100]);
  assert.equal(calls, 3);
  calls = 0;
  const e = await rejection(pRetry(() => { calls++; throw new Error("fail"); }, { maxRetryTime: 200, minTimeout: 0, onFailedAttempt: () => env.advance(300) }));
  assert.deepEqual([e.message, calls], ["fail", 1]);
  calls = 0;
  await rejection(pRetry(() => { calls++; throw new Error("test"); }, { retries: 10, maxRetryTime: 1000, minTimeout: 0, async shouldRetry() { env.advance(100); return true; } }));
  assert.equal(calls, 10);
});

cases("AbortError from text or from an error: originalError is a plain Error with that message", ({ AbortError }) => {
  for (const arg of ["fixture", new Error("fixture")]) {
    const { originalError } = new AbortError(arg);
    assert.deepEqual([originalError.constructor.name, originalError.message], ["Error", "fixture"]);
  }
});

cases("an AbortError stops at once with the error it wraps; no callback sees it", async ({ pRetry, AbortError }) => {
  const error = new Error("fixture");
  let calls = 0;
  let asked = 0;
  assert.equal(await rejection(pRetry((n) => { calls++; throw n === 3 ? new AbortError(error) : error; }, { minTimeout: 0 })), error);
  assert.equal(calls, 3);
  const e = await rejection(pRetry(() => { throw new AbortError("stop"); }, { shouldRetry: () => ++asked, onFailedAttempt: () => ++asked }));
  assert.deepEqual([e.message, asked], ["stop", 0]);
});

cases("signal: aborting rejects with its reason, during an attempt or a wait (the timer cleared); an aborted signal calls nothing", async ({ pRetry }, { log, env }) => {
  const reason = new Error("fixture");
  let calls = 0;
  let c = new AbortController();
  assert.equal(await rejection(pRetry((n) => { calls++; if (n === 3) { c.abort(reason); return undefined; } throw new Error("x"); }, { signal: c.signal, minTimeout: 1 })), reason);
  assert.equal(calls, 3);
  c = new AbortController();
  // Right after the timer is set and the abort listener added.
  env.onWait = () => queueMicrotask(() => c.abort(reason));
  const before = log.length;
  assert.equal(await rejection(pRetry(() => { throw new Error("retry"); }, { signal: c.signal, retries: 5, minTimeout: 500 })), reason);
  assert.deepEqual(log.slice(before).filter((e) => e[0] !== "draw").map((e) => e[0]), ["wait", "clear"]);
  env.onWait = () => {};
  calls = 0;
  assert.equal(await rejection(pRetry(() => { calls++; }, { signal: AbortSignal.abort(reason) })), reason);
  assert.equal(calls, 0);
  const plain = await rejection(pRetry(() => { calls++; }, { signal: AbortSignal.abort() }));
  assert.deepEqual([plain.name, calls], ["AbortError", 0]);
});

cases("shouldRetry decides (sync or async), after onFailedAttempt; a throw from it rejects with that error", async ({ pRetry }) => {
  const retryable = new Error("should-retry");
  const final = new Error("custom-error");
  let calls = 0;
  assert.equal(await rejection(pRetry(() => { throw ++calls < 3 ? retryable : final; }, { async shouldRetry({ error }) { return error === retryable; }, retries: 10 })), final);
  assert.equal(calls, 3);
  const order = [];
  await rejection(pRetry(() => { throw new Error("order"); }, { onFailedAttempt: () => void order.push("onFailedAttempt"), shouldRetry: () => order.push("shouldRetry") && false }));
  assert.deepEqual(order, ["onFailedAttempt", "shouldRetry"]);
  const thrown = new Error("shouldRetry failure");
  assert.equal(await rejection(pRetry(() => { throw new Error("operation failed"); }, { shouldRetry() { throw thrown; } })), thrown);
});

cases("shouldConsumeRetry: asked first with the wait a consumed retry would have; false means no wait and no retry spent", async ({ pRetry }, { waits }) => {
  const seen = [];
  let calls = 0;
  const value = await pRetry(() => (++calls === 5 ? "done" : Promise.reject(new Error(`f${calls}`))), {
    retries: 2, minTimeout: 10,
    shouldConsumeRetry: (ctx) => { seen.push(["consume?", ctx.attemptNumber, ctx.retriesLeft, ctx.retryDelay]); return ctx.attemptNumber % 2 === 0 ? undefined : false; },
    onFailedAttempt: (ctx) => void seen.push(["failed", ctx.attemptNumber, ctx.retriesLeft, ctx.retriesConsumed, ctx.retryDelay]),
  });
  assert.equal(value, "done");
  assert.deepEqual(waits(), [10, 20]);
  assert.deepEqual(seen, [
    ["consume?", 1, 2, 10], ["failed", 1, 2, 0, 0], ["consume?", 2, 2, 10], ["failed", 2, 2, 0, 10],
    ["consume?", 3, 1, 20], ["failed", 3, 1, 1, 0], ["consume?", 4, 1, 20], ["failed", 4, 1, 1, 20],
  ]);
});

cases("onFailedAttempt: every failure, the last included, with the error, attempt and retries left; frozen; awaited; a throw rejects", async ({ pRetry }) => {
  const error = new Error("fixture");
  const seen = [];
  await pRetry((n) => (n === 3 ? fixture : Promise.reject(error)), { retries: 5, onFailedAttempt: ({ error: e, attemptNumber, retriesLeft }) => void seen.push([e === error, attemptNumber, retriesLeft]) });
  assert.deepEqual(seen, [[true, 1, 5], [true, 2, 4]]);
  let count = 0;
  assert.equal(await rejection(pRetry(() => { throw error; }, { onFailedAttempt: () => void count++, shouldRetry: () => false, retries: 5 })), error);
  assert.equal(count, 1);
  count = 0;
  await rejection(pRetry(() => { throw error; }, { retries: 0, onFailedAttempt: () => void count++ }));
  assert.equal(count, 1);
  // Awaited: the next attempt starts after the promise it returned settles.
  const order = [];
  let called = false;
  await pRetry(() => { order.push("attempt"); if (called) return fixture; called = true; throw error; }, {
    minTimeout: 0, onFailedAttempt: () => new Promise((r) => setImmediate(() => { order.push("onFailedAttempt settled"); r(); })),
  });
  assert.deepEqual(order, ["attempt", "onFailedAttempt settled", "attempt"]);
  const thrown = new Error("thrown from onFailedAttempt");
  assert.equal(await rejection(pRetry(() => Promise.reject(error), { onFailedAttempt: () => { throw thrown; } })), thrown);
  const frozen = await rejection(pRetry(() => { throw new Error("fail"); }, { onFailedAttempt(ctx) { Object.defineProperty(ctx, "foo", { value: "bar" }); } }));
  assert.ok(frozen instanceof TypeError);
});

cases("callbacks given as undefined mean the defaults", async ({ pRetry }) => {
  const error = new Error("x");
  assert.equal(await rejection(pRetry(() => { throw error; }, { onFailedAttempt: undefined, retries: 1, minTimeout: 0 })), error);
  assert.equal(await rejection(pRetry(() => { throw error; }, { shouldRetry: undefined, retries: 1, minTimeout: 0 })), error);
});

cases("the waits: minTimeout × factor^(n−1), capped by maxTimeout; factor 0 is 1", async ({ pRetry }, { log, waits }) => {
  const fail = () => { throw new Error("test"); };
  const run = async (o) => {
    const from = waits().length;
    await rejection(pRetry(fail, o));
    return waits().slice(from);
  };
  assert.deepEqual(await run({ retries: 3, factor: 2, minTimeout: 100, maxTimeout: Number.POSITIVE_INFINITY, randomize: false }), [100, 200, 400]);
  assert.deepEqual(await run({ retries: 3, factor: 0.5, minTimeout: 100, randomize: false }), [100, 50, 25]);
  assert.deepEqual(await run({ retries: 2, factor: 0.1, minTimeout: 100, randomize: false }), [100, 10]);
  assert.deepEqual(await run({ retries: 3, minTimeout: 100, factor: 3, maxTimeout: 150, randomize: false }), [100, 150, 150]);
  assert.deepEqual(await run({ retries: 1, minTimeout: 200, maxTimeout: 50, factor: 1 }), [50]);
  assert.deepEqual(await run({ retries: 2, minTimeout: 100, factor: 0, randomize: false }), [100, 100]);
  assert.ok(log.every((e) => e[0] !== "draw"));
});

cases("randomize: each wait times 1 + Math.random(), one draw per wait", async ({ pRetry }, { waits }) => {
  await rejection(pRetry(() => { throw new Error("test"); }, { retries: 3, minTimeout: 100, factor: 1, randomize: true }));
  assert.deepEqual(waits(), [100, 200, 150]);
}, [0, 1, 0.5]);

cases("retries: the messages of a bad value; 0 means one attempt; validation errors reject", async ({ pRetry }) => {
  const message = async (o) => { const e = await rejection(pRetry(async () => {}, o)); assert.ok(e instanceof TypeError); return e.message; };
  assert.equal(await message({ retries: -1 }), "Expected `retries` to be a non-negative number.");
  assert.equal(await message({ retries: "3" }), "Expected `retries` to be a number or Infinity.");
  assert.equal(await message({ retries: Number.NaN }), "Expected `retries` to be a valid number or Infinity, got NaN.");
  for (const o of [{ factor: -1 }, { minTimeout: -1 }, { maxTimeout: -1 }, { maxRetryTime: -1 }]) {
    assert.equal(await message(o), `Expected \`${Object.keys(o)[0]}\` to be \u2265 0.`);
  }
  let calls = 0;
  await rejection(pRetry(() => { calls++; throw new Error("test"); }, { retries: 0 }));
  assert.equal(calls, 1);
  const e = await rejection(pRetry(async () => {}, { forever: true }));
  assert.match(e.message, /no longer supported/);
});

cases("a synchronous input is retried; a null result is a success", async ({ pRetry }) => {
  let calls = 0;
  await rejection(pRetry(() => { calls++; throw new Error("test"); }, { retries: 2, minTimeout: 0 }));
  assert.equal(calls, 3);
  calls = 0;
  assert.equal(await pRetry(() => { calls++; return null; }, { retries: 2 }), null);
  assert.equal(calls, 1);
});

cases("unref: the wait's timer is unref'd; a timer without unref is fine", async ({ pRetry }, { log, env }) => {
  await rejection(pRetry(() => { throw new Error("test"); }, { retries: 2, minTimeout: 50, unref: true }));
  assert.deepEqual(log.filter((e) => e[0] === "unref").length, 2);
  env.numberHandles = true;
  await rejection(pRetry(() => { throw new Error("fail"); }, { retries: 1, minTimeout: 10, unref: true }));
});

cases("the rejection's stack shows the caller's async frames", async ({ pRetry }) => {
  async function innerCaller() {
    return await pRetry(async () => { throw new Error("inner failed"); }, { retries: 1, minTimeout: 0 });
  }
  async function outerCaller() {
    return await innerCaller();
  }
  const e = await rejection(outerCaller());
  const lines = e.stack.split("\n");
  const at = (name) => lines.findIndex((l) => l.includes(` ${name} `) || l.includes(` ${name}(`) || l.endsWith(` ${name}`));
  assert.match(lines[0], /Error: inner failed/);
  assert.ok(at("innerCaller") > 0 && at("outerCaller") > at("innerCaller"), e.stack);
});

cases("makeRetriable: retries the function with the wrapper's this and arguments", async ({ makeRetriable }) => {
  let count = 0;
  const add = makeRetriable(async (a, b) => { if (++count < 3) throw new Error("fail"); return a + b; }, { retries: 5, minTimeout: 0 });
  assert.deepEqual([await add(2, 3), count], [5, 3]);
  let last;
  const failing = makeRetriable((...args) => { last = args; throw new Error("fail"); }, { retries: 1, minTimeout: 0 });
  await rejection(failing("foo", 42));
  assert.deepEqual(last, ["foo", 42]);
  const object = { value: 2, calls: 0, async add(n) { if (++this.calls < 2) throw new Error("fail"); return this.value + n; } };
  object.add = makeRetriable(object.add, { retries: 5, minTimeout: 0 });
  assert.deepEqual([await object.add(3), object.calls], [5, 2]);
});

cases("retriesLeft is Infinity with retries: Infinity", async ({ pRetry }) => {
  let left;
  await rejection(pRetry(() => { throw new Error("fail"); }, { retries: Number.POSITIVE_INFINITY, minTimeout: 0, onFailedAttempt({ retriesLeft }) { left = retriesLeft; throw new Error("stop"); } }));
  assert.equal(left, Number.POSITIVE_INFINITY);
});
