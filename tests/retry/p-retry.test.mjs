// Issue 17 items 2 and 3: retry(fn, policy?, options?) takes p-retry-style options with
// p-retry's meaning and numbers. Differential test against p-retry itself (devDependency,
// 9.0.0): for generated options and operation scripts, with the same Math.random draws and a
// fake clock (setTimeout recorded, performance.now advanced by each wait), the sequence of
// waits, the calls of onFailedAttempt / shouldRetry and the outcome are equal.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import fc from "fast-check";
import pRetry, { AbortError as PAbortError } from "p-retry";
import { retry, AbortError } from "../../pkg/dist/esm/retry.js";

const require = createRequire(import.meta.url);

/** Runs `body` with Math.random, setTimeout and performance.now replaced; returns its log. */
async function instrumented(draws, body) {
  const log = [];
  const real = { random: Math.random, setTimeout: globalThis.setTimeout, now: performance.now };
  let clock = 0;
  let i = 0;
  Math.random = () => {
    const r = draws[i++ % draws.length];
    log.push(["draw", r]);
    return r;
  };
  globalThis.setTimeout = (cb, ms) => {
    log.push(["wait", ms]);
    clock += ms;
    setImmediate(cb);
    return { unref() {}, ref() {} };
  };
  Object.defineProperty(performance, "now", { value: () => clock, configurable: true, writable: true });
  try {
    await body(log);
  } finally {
    Math.random = real.random;
    globalThis.setTimeout = real.setTimeout;
    delete performance.now;
    if (performance.now !== real.now) Object.defineProperty(performance, "now", { value: real.now, configurable: true, writable: true });
  }
  return log;
}

/** One attempt's outcome in a script: ok, an Error, a plain TypeError, a network TypeError, a non-Error, an AbortError. */
const outcome = fc.constantFrom("ok", "error", "type", "network", "string", "abort");

function makeThrow(kind, n, Abort) {
  switch (kind) {
    case "error": return new Error(`failure ${n}`);
    case "type": return new TypeError(`bad input ${n}`);
    case "network": return new TypeError("fetch failed");
    case "string": return `plain ${n}`;
    case "abort": return new Abort(new Error(`stop ${n}`));
  }
  throw new Error("unreachable");
}

const maybe = (arb) => fc.option(arb, { nil: undefined });
const optionsArb = fc.record({
  retries: maybe(fc.integer({ min: 0, max: 6 })),
  factor: maybe(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.double({ min: 0, max: 3, noNaN: true }))),
  minTimeout: maybe(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3000 }), fc.double({ min: 0, max: 50, noNaN: true }))),
  maxTimeout: maybe(fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 5000 }), fc.double({ min: 0, max: 10, noNaN: true }))),
  randomize: maybe(fc.boolean()),
  maxRetryTime: maybe(fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 20000 }))),
  unref: maybe(fc.boolean()),
}, { requiredKeys: [] });

const caseArb = fc.record({
  options: optionsArb,
  script: fc.array(outcome, { minLength: 1, maxLength: 14 }),
  draws: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 8 }),
  shouldRetry: maybe(fc.array(fc.boolean(), { minLength: 1, maxLength: 8 })),
  failedAttemptThrowsAt: maybe(fc.integer({ min: 1, max: 8 })),
  hooksAsync: fc.boolean(),
});

/** Runs one case through `run` (ours or p-retry's) and returns the log. */
function runCase(c, ours) {
  return instrumented(c.draws, async (log) => {
    const Abort = ours ? AbortError : PAbortError;
    const op = (n) => {
      log.push(["call", n]);
      const kind = c.script[Math.min(n, c.script.length) - 1];
      if (kind === "ok") return `value ${n}`;
      throw makeThrow(kind, n, Abort);
    };
    const seen = (ctx) => [ctx.attemptNumber, ctx.retriesLeft, ctx.retriesConsumed, ctx.retryDelay, ctx.error.name, ctx.error.message, Object.isFrozen(ctx)];
    const options = { ...c.options };
    for (const k of Object.keys(options)) if (options[k] === undefined) delete options[k];
    options.onFailedAttempt = (ctx) => {
      log.push(["onFailedAttempt", ...seen(ctx)]);
      if (ctx.attemptNumber === c.failedAttemptThrowsAt) throw new Error("hook says stop");
      return c.hooksAsync ? Promise.resolve() : undefined;
    };
    if (c.shouldRetry) {
      options.shouldRetry = (ctx) => {
        log.push(["shouldRetry", ...seen(ctx)]);
        const answer = c.shouldRetry[(ctx.attemptNumber - 1) % c.shouldRetry.length];
        return c.hooksAsync ? Promise.resolve(answer) : answer;
      };
    }
    try {
      const value = ours ? await retry(({ attempt }) => op(attempt), options) : await pRetry(op, options);
      log.push(["resolved", value]);
    } catch (e) {
      log.push(["rejected", e?.name, e?.message, e instanceof AbortError || e instanceof PAbortError]);
    }
  });
}

test("differential: the same waits, draws, hooks and outcome as p-retry 9 (fast-check, 400 cases)", async () => {
  await fc.assert(
    fc.asyncProperty(caseArb, async (c) => {
      const theirs = await runCase(c, false);
      const ours = await runCase(c, true);
      assert.deepEqual(ours, theirs);
    }),
    { numRuns: 400 },
  );
});

test("differential: the defaults (10 retries, 1 s doubling) and a capped randomized case, spelled out", async () => {
  const failing = { options: {}, script: ["error"], draws: [0.5], shouldRetry: undefined, failedAttemptThrowsAt: undefined, hooksAsync: false };
  const log = await runCase(failing, true);
  assert.deepEqual(log.filter((e) => e[0] === "wait").map((e) => e[1]), [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000]);
  assert.deepEqual(log, await runCase(failing, false));
  const capped = { ...failing, options: { retries: 4, minTimeout: 100, factor: 3, maxTimeout: 1000, randomize: true }, draws: [0.25, 0.75] };
  const l2 = await runCase(capped, true);
  // round((1 + r) * 100 * 3^(n-1)), capped at 1000: 125, 525, 1000, 1000
  assert.deepEqual(l2.filter((e) => e[0] === "wait").map((e) => e[1]), [125, 525, 1000, 1000]);
  assert.deepEqual(l2, await runCase(capped, false));
});

test("AbortError: stops at once with the wrapped error; instanceof across the ESM and CommonJS copies", async () => {
  const cjs = require("../../pkg/dist/cjs/retry.js");
  const inner = new Error("gone for good");
  let calls = 0;
  await assert.rejects(retry(() => { calls++; throw new cjs.AbortError(inner); }, { retries: 5, minTimeout: 1 }), (e) => e === inner);
  assert.equal(calls, 1);
  // With this package's own options: RetryError "not-retryable", the wrapped error as cause.
  await assert.rejects(retry(() => { throw new AbortError(inner); }, 1, { retries: 5 }), (e) => e.reason === "not-retryable" && e.cause === inner && e.attempts === 1);
  assert.ok(new cjs.AbortError("x") instanceof AbortError);
  assert.ok(new AbortError("x") instanceof cjs.AbortError);
  assert.ok(!(new Error("x") instanceof AbortError));
  const text = new AbortError("just text");
  assert.deepEqual([text.name, text.message, text.originalError.message], ["AbortError", "just text", "just text"]);
});

test("the policy slot: omitted, a duration, createBackoff options, p-retry options; mixed or unknown keys say where they belong", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  let calls = 0;
  const once = () => (++calls === 1 ? Promise.reject(new Error("first")) : "second");
  // The default policy: 4 attempts, full jitter under 1 s, 2 s, 4 s.
  const p = retry(once);
  await new Promise((r) => setImmediate(r));
  t.mock.timers.tick(1000);
  assert.equal(await p, "second");
  calls = 0;
  const q = retry(once, { base: 10, max: 20, maxAttempts: 2 });
  await new Promise((r) => setImmediate(r));
  t.mock.timers.tick(10);
  assert.equal(await q, "second");
  t.mock.timers.reset();
  const fn = () => "ok";
  const bad = [
    [() => retry(fn, "1 sec"), RangeError, 'policy must be a Backoff, a duration (ms or duration text), createBackoff options or p-retry options; a duration must be non-negative and finite (ms, or text such as "5 seconds"); received "1 sec"'],
    [() => retry(fn, { retries: 3, base: 100 }), TypeError, "policy must be createBackoff options or p-retry options, not both (base is createBackoff's, retries is p-retry's); received an object"],
    [() => retry(fn, { retries: 3, minTimout: 5 }), TypeError, 'policy key must be one of createBackoff\'s options (base, growth, factor, max, cap, steps, free, jitter, random, seed, maxAttempts) or p-retry\'s (retries, factor, minTimeout, maxTimeout, randomize, onFailedAttempt, shouldRetry, signal, maxRetryTime, unref); received "minTimout"'],
    [() => retry(fn, { retries: 3, onRetry() {} }), TypeError, 'policy key must be an option of the policy, not onRetry: onRetry goes in the options (the third argument): retry(fn, undefined, { retries, onRetry }); received "onRetry"'],
    [() => retry(fn, 10, { retries: 1, minTimeout: 5 }), TypeError, 'option must be one of signal, retries, shouldRetry, onRetry, maxRetryAfter, deadline, budget, attemptTimeout (minTimeout is a p-retry option: give p-retry options as the second argument, retry(fn, { minTimeout })); received "minTimeout"'],
    [() => retry(fn, 10, { retries: 1, jitter: "full" }), TypeError, 'option must be one of signal, retries, shouldRetry, onRetry, maxRetryAfter, deadline, budget, attemptTimeout (jitter is a createBackoff option: give it in the policy); received "jitter"'],
    [() => retry(fn, { retries: 2 }, { signal: AbortSignal.abort() }), TypeError, "options must be left out when the second argument is p-retry-style options (put signal and the callbacks there too); received an object"],
    [() => retry(fn, { retries: -1 }), TypeError, "retries must be a non-negative integer or Infinity; received -1"],
    [() => retry(fn, { factor: -1 }), TypeError, "factor must be a number >= 0, finite; received -1"],
    [() => retry(fn, { minTimeout: Infinity }), TypeError, "minTimeout must be a number >= 0, finite; received Infinity"],
    [() => retry(fn, { maxTimeout: "1s" }), TypeError, 'maxTimeout must be a number >= 0 or Infinity; received "1s"'],
    [() => retry(fn, { randomize: 1 }), TypeError, "randomize must be a boolean; received 1"],
    [() => retry(fn, { onFailedAttempt: "log" }), TypeError, 'onFailedAttempt must be a function; received "log"'],
    [() => retry(fn, { signal: {} }), TypeError, "signal must be an AbortSignal; received an object"],
    [() => retry(fn, { unref: "yes" }), TypeError, 'unref must be a boolean; received "yes"'],
  ];
  for (const [f, cls, message] of bad) {
    let promise;
    assert.doesNotThrow(() => (promise = f()));
    await assert.rejects(promise, (e) => e instanceof cls && e.message === message);
  }
});

test("retry's own options given in the second argument: the message's advice is a call that works", async () => {
  const { createRetryBudget } = await import("../../pkg/dist/esm/retry.js");
  const budget = createRetryBudget();
  let calls = 0;
  const twice = () => (++calls === 1 ? Promise.reject(new Error("first")) : "second");
  const cases = [
    // Only own options: the default policy in the second argument.
    [{ retries: 1, budget }, 'policy key must be an option of the policy, not budget: budget goes in the options (the third argument): retry(fn, undefined, { retries, budget }); received "budget"',
      () => retry(twice, undefined, { retries: 1, budget })],
    // Keys that are not own options stay in a policy (found before the p-retry check of mixed keys).
    [{ retries: 1, base: 0, deadline: { afterMs: 60_000 } }, 'policy key must be an option of the policy, not deadline: deadline goes in the options (the third argument): retry(fn, policy, { retries, deadline }); received "deadline"',
      () => retry(twice, { base: 0 }, { retries: 1, deadline: { afterMs: 60_000 } })],
    [{ base: 0, maxAttempts: 2, budget }, 'policy key must be an option of the policy, not budget: budget goes in the options (the third argument): retry(fn, policy, { budget }); received "budget"',
      () => retry(twice, { base: 0, maxAttempts: 2 }, { budget })],
    // p-retry's wait keys have no place in the third argument: the waits become a policy to write
    // (docs/guides/migrating.md: Backoff.exponential(minTimeout, factor).cap(maxTimeout)).
    [{ retries: 1, minTimeout: 0, shouldRetry: () => true, budget }, 'policy key must be an option of the policy, not budget: budget goes in the options (the third argument): retry(fn, policy, { retries, shouldRetry, budget }); received "budget"',
      async () => retry(twice, (await import("../../pkg/dist/esm/index.js")).Backoff.exponential(0, 2), { retries: 1, shouldRetry: () => true, budget })],
  ];
  for (const [second, message, advised] of cases) {
    await assert.rejects(retry(twice, second), (e) => e instanceof TypeError && e.message === message);
    calls = 0;
    assert.equal(await advised(), "second");
    assert.equal(calls, 2);
  }
  // The old advice's call, the own option as a third argument after p-retry-style options, is
  // refused: the message says to put signal and the callbacks in the p-retry-style options, and
  // for an own option there (onRetry, budget) the message above gives the call that works.
  await assert.rejects(retry(twice, { retries: 1 }, { budget }), {
    name: "TypeError",
    message: "options must be left out when the second argument is p-retry-style options (put signal and the callbacks there too); received an object",
  });
});

test("p-retry's signal: an aborted signal never calls fn; abort during a wait rejects with the reason and clears the timer", async () => {
  let calls = 0;
  await assert.rejects(retry(() => calls++, { signal: AbortSignal.abort(new Error("early")) }), { message: "early" });
  assert.equal(calls, 0);
  const c = new AbortController();
  const started = Date.now();
  const p = retry(() => { calls++; throw new Error("x"); }, { signal: c.signal, minTimeout: 60_000 });
  setTimeout(() => c.abort(new Error("late")), 10);
  await assert.rejects(p, { message: "late" });
  assert.equal(calls, 1);
  assert.ok(Date.now() - started < 30_000);
});

test("docs/guides/migrating.md p-retry example runs as written and prints what it says", async () => {
  const { readFileSync, writeFileSync, mkdirSync, rmSync } = await import("node:fs");
  const { execFileSync } = await import("node:child_process");
  const root = new URL("../../", import.meta.url);
  const docs = readFileSync(new URL("docs/guides/migrating.md", root), "utf8");
  const code = [...docs.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((c) => c.includes("coming-from-p-retry.mjs"));
  assert.ok(code);
  const dir = new URL("tests/.scratch/p-retry-readme/", root);
  mkdirSync(dir, { recursive: true });
  const file = new URL("example.mjs", dir);
  writeFileSync(file, code.replace('"backoff-wasm/retry"', JSON.stringify(new URL("pkg/dist/esm/retry.js", root).href)));
  try {
    const out = execFileSync(process.execPath, [file.pathname], { encoding: "utf8" });
    assert.equal(out, "attempt 1 failed (flaky); 5 left; next in 10 ms\nok after 2 2\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("p-retry-style options out of range: the same error class as p-retry's own (TypeError)", async () => {
  const fn = () => "ok";
  const cases = [{ retries: -1 }, { retries: 1.5 }, { retries: NaN }, { factor: -1 }, { maxTimeout: -1 }, { minTimeout: Infinity },
    { minTimeout: -5 }, { maxRetryTime: -1 }];
  for (const o of cases) {
    const theirs = await pRetry(fn, o).then(() => undefined, (e) => e);
    const ours = await retry(fn, o).then(() => undefined, (e) => e);
    assert.ok(theirs instanceof TypeError, `p-retry rejects ${JSON.stringify(o)} with a TypeError (${theirs})`);
    assert.equal(ours?.constructor, theirs.constructor, `${JSON.stringify(o)}: ours ${ours}`);
  }
});
