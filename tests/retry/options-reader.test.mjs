// One reader of the options object for every runtime function (retry, fetchWithRetry, sleep,
// createRetryBudget, retryMessage): the same errors, in the same words, for options that are not an object
// (an array included), that cannot be read, or that hold a key the function does not take.
import { test } from "node:test";
import assert from "node:assert/strict";
import { retry, fetchWithRetry, sleep, createRetryBudget } from "../../pkg/dist/esm/retry.js";
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
    const g = await errorOf(() => call({ get signal() { throw new Error("getter"); } }));
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

test("retryMessage with rejected options calls neither retry nor ack", () => {
  for (const options of [[], { colour: 1 }]) {
    const m = message();
    assert.throws(() => retryMessage(m, 1, options), TypeError);
    assert.equal(m.calls, 0);
  }
});
