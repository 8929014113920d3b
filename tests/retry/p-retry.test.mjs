// backoff-wasm/p-retry against p-retry 9.0.0 itself (devDependency), differentially: for
// generated options and operation scripts, with the same Math.random draws, a fake clock
// (setTimeout recorded and fired on the next turn, performance.now advanced by each wait and
// by each attempt's own time) and the same aborts, the calls of the operation, of
// shouldConsumeRetry / onFailedAttempt / shouldRetry (with every field of their frozen
// context), the waits, the draws, the unref calls and the outcome (which value, or which
// error with its class and message) are equal. Also: every validation error's class and
// message, AbortError built from every kind of value, and makeRetriable's this and arguments.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import fc from "fast-check";
import { instrumented } from "./p-retry-clock.mjs";
import realRetry, { makeRetriable as realMakeRetriable, AbortError as RealAbortError } from "p-retry";
import mirrorRetry, { makeRetriable as mirrorMakeRetriable, AbortError as MirrorAbortError } from "../../pkg/dist/esm/p-retry.js";
import { pathToFileURL } from "node:url";
import { scratchDir } from "../scratch-dir.mjs";

const require = createRequire(import.meta.url);
const REAL = { pRetry: realRetry, makeRetriable: realMakeRetriable, AbortError: RealAbortError };
const MIRROR = { pRetry: mirrorRetry, makeRetriable: mirrorMakeRetriable, AbortError: MirrorAbortError };

/** Every kind of failure an attempt can have, and success. */
const OUTCOMES = [
  "ok", "error", "type", "fetch failed", "Failed to fetch", "Failed to fetch (example.com)", "Load failed", "Load failed (x)",
  "Load failed stacked", "error sending request for url (https://x/)", "terminated", "network error", "range",
  "string", "number", "null", "undefined", "object", "abort error", "abort text", "abort nested", "abort empty",
];

/** The value attempt `n` throws for `kind` (AbortErrors of the implementation under test). */
function makeThrow(kind, n, Abort) {
  const network = (m, stack) => {
    const e = new TypeError(m);
    if (!stack) e.stack = undefined;
    return e;
  };
  switch (kind) {
    case "error": return new Error(`failure ${n}`);
    case "type": return new TypeError(`bad input ${n}`);
    case "range": return new RangeError(`out of range ${n}`);
    case "Load failed": case "Load failed (x)": return network(kind, false);
    case "Load failed stacked": return network("Load failed", true);
    case "string": return `plain ${n}`;
    case "number": return n;
    case "null": return null;
    case "undefined": return undefined;
    case "object": return { toString: () => `object ${n}` };
    case "abort error": return new Abort(new Error(`stop ${n}`));
    case "abort text": return new Abort(`stop ${n}`);
    case "abort nested": return new Abort(new Abort(new Error(`deep ${n}`)));
    case "abort empty": return new Abort();
    default: return network(kind, true);
  }
}

/** A readable name for an outcome: the value a script made, or the class and message of an error. */
function describe(x, known) {
  if (known.has(x)) return known.get(x);
  if (x instanceof Error) return `${x.constructor.name}/${x.name}: ${x.message}`;
  return `value ${String(x)}`;
}

const maybe = (arb) => fc.option(arb, { nil: undefined });
const optionsArb = fc.record({
  retries: maybe(fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constant(Number.POSITIVE_INFINITY), fc.constant(null))),
  factor: maybe(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.double({ min: 0, max: 3, noNaN: true }))),
  minTimeout: maybe(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3000 }), fc.double({ min: 0, max: 50, noNaN: true }))),
  maxTimeout: maybe(fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 10, noNaN: true }))),
  randomize: maybe(fc.boolean()),
  maxRetryTime: maybe(fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 20000 }))),
  unref: maybe(fc.boolean()),
}, { requiredKeys: [] });

const caseArb = fc.record({
  options: optionsArb,
  script: fc.array(fc.constantFrom(...OUTCOMES), { minLength: 1, maxLength: 14 }),
  /** Ms each attempt takes on the fake clock. */
  cost: fc.constantFrom(0, 0, 10, 700),
  draws: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 8 }),
  shouldRetry: maybe(fc.array(fc.constantFrom(true, false, undefined, 0, "yes"), { minLength: 1, maxLength: 8 })),
  shouldConsumeRetry: maybe(fc.array(fc.constantFrom(true, false, undefined, null, 0), { minLength: 1, maxLength: 8 })),
  failedAttemptThrowsAt: maybe(fc.integer({ min: 1, max: 8 })),
  shouldRetryThrowsAt: maybe(fc.integer({ min: 1, max: 8 })),
  /** Where the signal aborts: in attempt n, in a callback at attempt n, when the n-th wait is set. */
  abort: maybe(fc.record({
    where: fc.constantFrom("before", "attempt", "shouldConsumeRetry", "onFailedAttempt", "shouldRetry", "wait"),
    at: fc.integer({ min: 1, max: 5 }),
    reason: fc.constantFrom("error", "text", "default", "abortError"),
  })),
  hooksAsync: fc.boolean(),
  viaMakeRetriable: fc.boolean(),
});

/** Runs one case with implementation `impl` and returns the log. */
function runCase(c, impl) {
  return instrumented(c.draws, async (log, env) => {
    const known = new Map();
    const controller = c.abort ? new AbortController() : undefined;
    const reasonOf = () => {
      const r = c.abort.reason;
      const value = r === "error" ? new Error("cancelled") : r === "text" ? "cancelled as text" : r === "abortError" ? new impl.AbortError("cancel wrapper") : undefined;
      if (value !== undefined) known.set(value, "the abort reason");
      return value;
    };
    const abortAt = (where, n) => {
      if (controller && !controller.signal.aborted && c.abort.where === where && c.abort.at === n) controller.abort(reasonOf());
    };
    // Right after the n-th timer is set and the abort listener added.
    if (c.abort?.where === "wait") env.onWait = (n) => queueMicrotask(() => abortAt("wait", n));
    const op = function (n, ...rest) {
      log.push(["call", n, this?.name, rest]);
      env.advance(c.cost);
      abortAt("attempt", n);
      const kind = c.script[Math.min(n, c.script.length) - 1];
      if (kind === "ok") return c.hooksAsync ? Promise.resolve(`value ${n}`) : `value ${n}`;
      const thrown = makeThrow(kind, n, impl.AbortError);
      if (thrown !== null && (typeof thrown === "object" || typeof thrown === "function")) known.set(thrown, `thrown by attempt ${n}`);
      if (thrown instanceof impl.AbortError && thrown.originalError) {
        known.set(thrown.originalError, `wrapped by attempt ${n}`);
        if (thrown.originalError.originalError) known.set(thrown.originalError.originalError, `deeply wrapped by attempt ${n}`);
      }
      if (c.hooksAsync) return Promise.reject(thrown);
      throw thrown;
    };
    const seen = (name, ctx) => {
      log.push([name, ctx.attemptNumber, ctx.retriesLeft, ctx.retriesConsumed, ctx.retryDelay, describe(ctx.error, known), Object.isFrozen(ctx), Object.keys(ctx)]);
      abortAt(name, ctx.attemptNumber);
    };
    const answer = (list, ctx) => {
      const a = list[(ctx.attemptNumber - 1) % list.length];
      return c.hooksAsync ? Promise.resolve(a) : a;
    };
    const options = { ...c.options };
    for (const k of Object.keys(options)) if (options[k] === undefined) delete options[k];
    if (controller) options.signal = controller.signal;
    options.onFailedAttempt = (ctx) => {
      seen("onFailedAttempt", ctx);
      if (ctx.attemptNumber === c.failedAttemptThrowsAt) {
        const e = new Error("onFailedAttempt says stop");
        known.set(e, "onFailedAttempt's error");
        if (c.hooksAsync) return Promise.reject(e);
        throw e;
      }
      return c.hooksAsync ? Promise.resolve() : undefined;
    };
    if (c.shouldRetry || c.shouldRetryThrowsAt) {
      options.shouldRetry = (ctx) => {
        seen("shouldRetry", ctx);
        if (ctx.attemptNumber === c.shouldRetryThrowsAt) {
          const e = new Error("shouldRetry says stop");
          known.set(e, "shouldRetry's error");
          throw e;
        }
        return answer(c.shouldRetry ?? [true], ctx);
      };
    }
    if (c.shouldConsumeRetry) {
      options.shouldConsumeRetry = (ctx) => {
        seen("shouldConsumeRetry", ctx);
        return answer(c.shouldConsumeRetry, ctx);
      };
    }
    if (c.abort?.where === "before") controller.abort(reasonOf());
    // Endless runs are cut by the script: past its end the last outcome repeats, so a case
    // that never stops is one whose last outcome is a retried failure with Infinity retries
    // and no consumption: bounded here by the attempt count.
    let guard = 0;
    const input = c.viaMakeRetriable ? undefined : (n) => {
      if (++guard > 40) throw new impl.AbortError(new Error("guard"));
      return op.call(undefined, n);
    };
    try {
      let value;
      if (c.viaMakeRetriable) {
        const target = { name: "target", run(...args) {
          if (++guard > 40) throw new impl.AbortError(new Error("guard"));
          return op.call(this, guard, ...args);
        } };
        target.run = impl.makeRetriable(target.run, options);
        value = await target.run("a", 2);
      } else {
        value = await impl.pRetry(input, options);
      }
      log.push(["resolved", value]);
    } catch (e) {
      log.push(["rejected", describe(e, known), e instanceof REAL.AbortError || e instanceof MIRROR.AbortError]);
    }
  });
}

test("differential: calls, callbacks and their contexts, waits, draws, unref, aborts and outcome as p-retry 9 (fast-check, 600 cases)", async () => {
  await fc.assert(
    fc.asyncProperty(caseArb, async (c) => {
      const theirs = await runCase(c, REAL);
      const ours = await runCase(c, MIRROR);
      assert.deepEqual(ours, theirs);
    }),
    { numRuns: 600 },
  );
});

test("differential: the defaults (10 retries, 1 s doubling), a capped randomized case and shouldConsumeRetry, spelled out", async () => {
  const base = {
    options: {}, script: ["error"], cost: 0, draws: [0.5], shouldRetry: undefined, shouldConsumeRetry: undefined,
    failedAttemptThrowsAt: undefined, shouldRetryThrowsAt: undefined, abort: undefined, hooksAsync: false, viaMakeRetriable: false,
  };
  const waits = (log) => log.filter((e) => e[0] === "wait").map((e) => e[1]);
  const log = await runCase(base, MIRROR);
  assert.deepEqual(waits(log), [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000]);
  assert.deepEqual(log.at(-1), ["rejected", "thrown by attempt 11", false]);
  assert.deepEqual(log, await runCase(base, REAL));
  const capped = { ...base, options: { retries: 4, minTimeout: 100, factor: 3, maxTimeout: 1000, randomize: true }, draws: [0.25, 0.75] };
  const l2 = await runCase(capped, MIRROR);
  // round((1 + r) * 100 * 3^(n-1)), capped at 1000: 125, 525, 1000, 1000
  assert.deepEqual(waits(l2), [125, 525, 1000, 1000]);
  assert.deepEqual(l2, await runCase(capped, REAL));
  // Failures that consume no retry: no wait, no growth, retriesLeft unchanged.
  const free = { ...base, options: { retries: 2, minTimeout: 10 }, script: ["error", "error", "error", "error", "ok"], shouldConsumeRetry: [false, true, false, true] };
  const l3 = await runCase(free, MIRROR);
  assert.deepEqual(waits(l3), [10, 20]);
  assert.deepEqual(l3.filter((e) => e[0] === "onFailedAttempt").map((e) => e.slice(1, 5)), [[1, 2, 0, 0], [2, 2, 0, 10], [3, 1, 1, 0], [4, 1, 1, 20]]);
  assert.deepEqual(l3.at(-1), ["resolved", "value 5"]);
  assert.deepEqual(l3, await runCase(free, REAL));
});

/** The class and message an implementation rejects (or resolves) with for `options`. */
async function settled(impl, options) {
  try {
    await impl.pRetry(() => "ok", options);
    return "resolved";
  } catch (e) {
    return `${e.constructor.name}: ${e.message}`;
  }
}

const ANY = [undefined, null, 0, 1, -1, 1.5, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, "3", true, {}, () => true];

test("validation: the same class and message as p-retry for every option and kind of value, in p-retry's order of checks", async () => {
  const signals = [AbortSignal.timeout(60_000), { aborted: false }, { throwIfAborted() {}, addEventListener() {}, removeEventListener() {} }, "signal"];
  const arb = fc.record({
    retries: fc.constantFrom(...ANY), factor: fc.constantFrom(...ANY), minTimeout: fc.constantFrom(...ANY), maxTimeout: fc.constantFrom(...ANY),
    maxRetryTime: fc.constantFrom(...ANY), randomize: fc.constantFrom(...ANY), unref: fc.constantFrom(...ANY),
    onFailedAttempt: fc.constantFrom(...ANY), shouldRetry: fc.constantFrom(...ANY), shouldConsumeRetry: fc.constantFrom(...ANY),
    signal: fc.constantFrom(...signals), forever: fc.constantFrom(true, false, undefined),
  }, { requiredKeys: [] });
  await fc.assert(fc.asyncProperty(arb, async (o) => {
    assert.equal(await settled(MIRROR, o), await settled(REAL, o));
  }), { numRuns: 1500 });
  // Each message once, spelled out.
  const messages = [
    [{ retries: -1 }, "TypeError: Expected `retries` to be a non-negative number."],
    [{ retries: Number.NaN }, "TypeError: Expected `retries` to be a valid number or Infinity, got NaN."],
    [{ retries: 1.5 }, "TypeError: Expected `retries` to be a non-negative integer or Infinity."],
    [{ retries: "3" }, "TypeError: Expected `retries` to be a number or Infinity."],
    [{ forever: true }, "Error: The `forever` option is no longer supported. For many use-cases, you can set `retries: Infinity` instead."],
    [{ factor: -1 }, "TypeError: Expected `factor` to be \u2265 0."],
    [{ minTimeout: Number.POSITIVE_INFINITY }, "TypeError: Expected `minTimeout` to be a finite number."],
    [{ maxTimeout: "1s" }, "TypeError: Expected `maxTimeout` to be a number or Infinity."],
    [{ maxRetryTime: Number.NaN }, "TypeError: Expected `maxRetryTime` to be a number or Infinity."],
    [{ randomize: 1 }, "TypeError: Expected `randomize` to be a boolean."],
    [{ unref: "yes" }, "TypeError: Expected `unref` to be a boolean."],
    [{ onFailedAttempt: "log" }, "TypeError: Expected `onFailedAttempt` to be a function."],
    [{ shouldConsumeRetry: 1 }, "TypeError: Expected `shouldConsumeRetry` to be a function."],
    [{ signal: {} }, "TypeError: Expected `signal` to be an AbortSignal."],
  ];
  for (const [o, message] of messages) {
    assert.equal(await settled(MIRROR, o), message);
    assert.equal(await settled(REAL, o), message);
  }
  // Rejections, never synchronous throws; options copied once (own enumerable keys only).
  assert.doesNotThrow(() => MIRROR.pRetry(() => 1, { retries: -1 }).catch(() => {}));
  let reads = 0;
  const counted = { get retries() { reads++; return 0; } };
  assert.equal(await MIRROR.pRetry(() => "x", counted), "x");
  assert.equal(reads, 1);
  assert.equal(await settled(MIRROR, Object.create({ retries: -1 })), "resolved");
  assert.equal(await settled(REAL, Object.create({ retries: -1 })), "resolved");
});

test("budget: p-retry ignores it; the mirror validates it after p-retry's own checks", async () => {
  for (const budget of [1, "b", {}, { deposit() {} }, { tryWithdraw() {} }]) {
    assert.equal(await settled(REAL, { budget }), "resolved");
    assert.match(await settled(MIRROR, { budget }), /^TypeError: Expected `budget` to be a retry budget with deposit\(\) and tryWithdraw\(\) \(createRetryBudget\(\) of backoff-wasm\/retry\), got (number|string|object)\.$/);
  }
  assert.equal(await settled(MIRROR, { budget: null }), "resolved");
  assert.equal(await settled(MIRROR, { budget: {}, retries: -1 }), "TypeError: Expected `retries` to be a non-negative number.");
});

test("AbortError: built from text, an Error, nothing or any value, the same fields, keys and classes as p-retry's", () => {
  const inner = new TypeError("inner");
  for (const arg of ["fixture", "", inner, undefined, 42, null, { toString: () => "obj" }]) {
    const view = (A) => {
      const e = new A(arg);
      return {
        name: e.name, message: e.message, keys: Object.keys(e), isError: e instanceof Error, same: e.originalError === arg,
        original: [e.originalError.constructor.name, e.originalError.message], toString: String(e),
      };
    };
    assert.deepEqual(view(MIRROR.AbortError), view(REAL.AbortError), `new AbortError(${String(arg)})`);
  }
  // One class in every copy of the package: ESM and CommonJS, /p-retry and /retry.
  const cjs = require("../../pkg/dist/cjs/p-retry.js");
  assert.ok(new cjs.AbortError("x") instanceof MIRROR.AbortError);
  assert.ok(new MIRROR.AbortError("x") instanceof cjs.AbortError);
  assert.ok(!(new Error("x") instanceof MIRROR.AbortError));
});

test("makeRetriable: the wrapper's this and arguments reach the function on every attempt, options are copied per call", async () => {
  for (const impl of [REAL, MIRROR]) {
    const seen = [];
    const target = {
      value: 2, calls: 0,
      add(n, m) {
        seen.push([this === target, n, m]);
        if (++this.calls < 3) throw new Error("fail");
        return this.value + n + m;
      },
    };
    target.add = impl.makeRetriable(target.add, { retries: 5, minTimeout: 0 });
    assert.equal(await target.add(3, 4), 9);
    assert.deepEqual(seen, [[true, 3, 4], [true, 3, 4], [true, 3, 4]]);
  }
});

test("docs/guides/migrating.md: the p-retry example runs as written, its import line the only change, and prints what it says", async () => {
  const { readFileSync, writeFileSync, mkdirSync, rmSync } = await import("node:fs");
  const { execFileSync } = await import("node:child_process");
  const root = new URL("../../", import.meta.url);
  const docs = readFileSync(new URL("docs/guides/migrating.md", root), "utf8");
  const code = [...docs.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((c) => c.includes("coming-from-p-retry.mjs"));
  assert.ok(code);
  const dir = pathToFileURL(`${scratchDir("p-retry-guide")}/`);
  mkdirSync(dir, { recursive: true });
  const expected = "attempt 1 failed (flaky); 5 left; next in 10 ms\nok after 2 2\n";
  try {
    for (const [name, from] of [["ours.mjs", new URL("pkg/dist/esm/p-retry.js", root).href], ["theirs.mjs", "p-retry"]]) {
      const file = new URL(name, dir);
      const source = code.replace('"backoff-wasm/p-retry"', JSON.stringify(from));
      assert.notEqual(source, code);
      writeFileSync(file, source);
      assert.equal(execFileSync(process.execPath, [file.pathname], { encoding: "utf8", cwd: root.pathname }), expected, name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
