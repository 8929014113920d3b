// One reader of the options object for every runtime function (retry, fetchWithRetry, sleep,
// createRetryBudget, retryMessage): the same errors, in the same words, for options that are not an object
// (an array included), that cannot be read, or that hold a key the function does not take.
import { test } from "node:test";
import assert from "node:assert/strict";
import { retry, fetchWithRetry, sleep, createRetryBudget, RetryError } from "../../pkg/dist/esm/retry.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";
import { retryMessage } from "../../pkg/dist/esm/queues.js";

const message = () => ({ id: "m", attempts: 1, calls: 0, retry() { this.calls++; }, ack() { this.calls++; } });
const KEYS = {
  retry: "signal, retries, shouldRetry, onRetry, maxRetryAfter, deadline, budget, attemptTimeout",
  fetchWithRetry: "signal, retries, shouldRetry, onRetry, maxRetryAfter, deadline, budget, attemptTimeout, policy, retryNonIdempotent, methods, statusCodes, maxDeferrals, maxDeferralMs, idempotencyKey, onFailedAttempt, maxRetryTime, unref",
  sleep: "signal",
  createRetryBudget: "ratio, minPerSecond, windowMs, store, onStoreError, storeTimeoutMs",
  retryMessage: "retryAfter, onExhausted",
};
// Each function called with `options`; a rejection or a synchronous throw (retryMessage is synchronous) as the error.
const CALLS = {
  retry: (o) => retry(() => "never", 1, o),
  fetchWithRetry: (o) => fetchWithRetry("http://127.0.0.1:9/never", undefined, o),
  sleep: (o) => sleep(1, o),
  createRetryBudget: (o) => createRetryBudget(o),
  retryMessage: (o) => retryMessage(message(), 1, o),
};
async function errorOf(call) {
  try {
    await call();
  } catch (e) {
    return e;
  }
  assert.fail("expected an error");
}

function revoked() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

for (const [name, call] of Object.entries(CALLS)) {
  test(`${name}: options that are not an object, an array, unreadable options and an unknown key get the one wording`, async () => {
    for (const [options, received] of [["x", '"x"'], [5, "5"], [null, "null"], [[], "an array"], [["signal"], "an array"]]) {
      const e = await errorOf(() => call(options));
      assert.ok(e instanceof TypeError, String(received));
      assert.equal(e.message, `options must be an object; received ${received}`);
    }
    const r = await errorOf(() => call(revoked()));
    assert.ok(r instanceof TypeError);
    assert.match(r.message, /^options must be an object whose keys can be listed; received an object$/);
    const g = await errorOf(() => call({ get [KEYS[name].split(", ")[0]]() { throw new Error("getter"); } }));
    assert.ok(g instanceof TypeError);
    assert.equal(g.cause?.message, "getter");
    const u = await errorOf(() => call({ colour: 1 }));
    assert.ok(u instanceof TypeError);
    assert.equal(u.message, `option must be one of ${KEYS[name]}; received "colour"`);
  });
}

test("retry and fetchWithRetry say where a p-retry or createBackoff key belongs (backoff-wasm/p-retry, or the policy that waits as p-retry would); sleep and retryMessage just list their own", async () => {
  const retryKeys = 'option must be one of signal, retries, shouldRetry, onRetry, maxRetryAfter, deadline, budget, attemptTimeout';
  const pRetry = "backoff-wasm/p-retry is p-retry (its default export pRetry takes them with p-retry's meaning)";
  assert.equal((await errorOf(() => CALLS.retry({ minTimeout: 5 }))).message,
    `${retryKeys} (minTimeout is p-retry's: ${pRetry}; with retry the waits are a policy, here Backoff.exponential(5).maxAttempts(11): retry(fn, Backoff.exponential(5).maxAttempts(11))); received "minTimeout"`);
  assert.equal((await errorOf(() => CALLS.retry({ retries: 1, minTimeout: 5 }))).message,
    `${retryKeys} (minTimeout is p-retry's: ${pRetry}; with retry the waits are a policy, here Backoff.exponential(5): retry(fn, Backoff.exponential(5), { retries })); received "minTimeout"`);
  assert.equal((await errorOf(() => CALLS.fetchWithRetry({ retries: 2, minTimeout: 1, factor: 1 }))).message,
    `option must be one of ${KEYS.fetchWithRetry} (minTimeout, factor are p-retry's: ${pRetry}; with fetchWithRetry the waits are a policy, here Backoff.fixed(1): fetchWithRetry(input, init, { policy: Backoff.fixed(1), retries })); received "minTimeout"`);
  for (const key of ["retries", "minTimeout", "jitter"]) {
    assert.equal((await errorOf(() => CALLS.sleep({ [key]: 1 }))).message, `option must be one of signal; received "${key}"`);
    assert.equal((await errorOf(() => CALLS.retryMessage({ [key]: 1 }))).message, `option must be one of retryAfter, onExhausted; received "${key}"`);
  }
  assert.equal((await errorOf(() => CALLS.fetchWithRetry({ jitter: 1 }))).message, `option must be one of ${KEYS.fetchWithRetry} (jitter is a createBackoff option: give it in the policy); received "jitter"`);
});

test("retry with attemptTimeout: p-retry's keys beside it are refused before any attempt (the advice keeps attemptTimeout); every key of retry's own is taken with it", async () => {
  const retryKeys = `option must be one of ${KEYS.retry}`;
  const pRetry = "backoff-wasm/p-retry is p-retry (its default export pRetry takes them with p-retry's meaning)";
  const policy = Backoff.fixed(1).maxAttempts(3);
  let calls = 0;
  const fn = () => { calls++; return "ran"; };
  for (const [key, value] of [["minTimeout", 5], ["maxRetryTime", 1000], ["onFailedAttempt", () => {}], ["unref", true], ["factor", 3], ["randomize", true]]) {
    const e = await errorOf(() => retry(fn, policy, { attemptTimeout: 50, [key]: value }));
    assert.equal(e.constructor, TypeError, key);
    assert.ok(e.message.startsWith(`${retryKeys} (${key} is p-retry's: ${pRetry}; with retry the waits are a policy, here `), e.message);
    assert.ok(e.message.endsWith(`, { attemptTimeout })); received "${key}"`), e.message);
  }
  assert.equal((await errorOf(() => retry(fn, policy, { attemptTimeout: 50, minTimeout: 5 }))).message,
    `${retryKeys} (minTimeout is p-retry's: ${pRetry}; with retry the waits are a policy, here Backoff.exponential(5).maxAttempts(11): retry(fn, Backoff.exponential(5).maxAttempts(11), { attemptTimeout })); received "minTimeout"`);
  // p-retry's options in the policy's place, attemptTimeout among them: it goes in the options.
  assert.equal((await errorOf(() => retry(fn, { retries: 3, minTimeout: 10, attemptTimeout: 50 }))).message,
    `policy must be a Backoff, a duration (ms or duration text) or createBackoff options, not p-retry's options: retries, minTimeout are p-retry's: ${pRetry}; with retry the waits are a policy, here Backoff.exponential(10).maxAttempts(4): retry(fn, Backoff.exponential(10).maxAttempts(4), { attemptTimeout }); received an object`);
  assert.equal(calls, 0);
  // Every own option with attemptTimeout: the first attempt times out, the second answers.
  const seen = [];
  const budget = createRetryBudget({ ratio: 1, minPerSecond: 0 });
  const value = await retry(({ attempt, signal }) => {
    if (attempt === 2) return "second";
    return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
  }, Backoff.fixed(1), {
    attemptTimeout: "30ms", signal: new AbortController().signal, retries: 2, shouldRetry: (e) => e.name === "TimeoutError",
    onRetry: ({ error, attempt, delayMs, retriesLeft }) => seen.push([error.name, attempt, delayMs, retriesLeft]),
    maxRetryAfter: "1 second", deadline: { afterMs: 60_000 }, budget,
  });
  assert.equal(value, "second");
  assert.deepEqual(seen, [["TimeoutError", 1, 1, 2]]);
  assert.equal(budget.balance, 0);
  // And fetchWithRetry's keys that retry does not take are refused beside attemptTimeout too.
  const e = await errorOf(() => retry(fn, policy, { attemptTimeout: 50, idempotencyKey: true }));
  assert.ok(e instanceof TypeError && !(e instanceof RetryError));
  assert.equal(e.message, `${retryKeys}; received "idempotencyKey"`);
  assert.equal(calls, 0);
});

test("retryMessage with rejected options calls neither retry nor ack", () => {
  for (const options of [[], { colour: 1 }]) {
    const m = message();
    assert.throws(() => retryMessage(m, 1, options), TypeError);
    assert.equal(m.calls, 0);
  }
});
