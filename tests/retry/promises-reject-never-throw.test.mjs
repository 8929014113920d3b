// docs/API.md section 7: every promise-returning function of
// /retry reports every bad argument by REJECTING with the documented class and
// message; none throws synchronously (so `.catch()` chains and
// `assert.rejects(promise)` see it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { sleep, retry, fetchWithRetry } from "../../pkg/dist/esm/retry.js";

/** Calls `f`, failing on a synchronous throw; returns what it returned (must be a promise). */
function call(label, f) {
  let p;
  try {
    p = f();
  } catch (e) {
    assert.fail(`${label} threw synchronously: ${e}`);
  }
  assert.ok(p instanceof Promise, `${label} returned a promise`);
  return p;
}

const revoked = (() => {
  const r = Proxy.revocable({}, {});
  r.revoke();
  return r.proxy;
})();
const op = () => "ok";

const cases = [
  ["sleep(-1)", () => sleep(-1), RangeError, "ms must be a non-negative number of ms; received -1"],
  ["sleep(NaN)", () => sleep(NaN), RangeError, "ms must be a non-negative number of ms; received NaN"],
  ["sleep()", () => sleep(), TypeError, "ms must be a non-negative number of ms; received undefined"],
  ["sleep(1n)", () => sleep(1n), TypeError, "ms must be a non-negative number of ms; received a bigint"],
  ["sleep(1, null)", () => sleep(1, null), TypeError, "options must be an object; received null"],
  ["sleep(1, [])", () => sleep(1, []), TypeError, "options must be an object; received an array"],
  ["retry(fn, 1, [])", () => retry(op, 1, []), TypeError, "options must be an object; received an array"],
  ["fetchWithRetry(url, {}, [])", () => fetchWithRetry("http://127.0.0.1:9/", {}, []), TypeError, "options must be an object; received an array"],
  ["sleep(1, { signal: {} })", () => sleep(1, { signal: {} }), TypeError, "signal must be an AbortSignal; received an object"],
  ["sleep(1, revoked proxy)", () => sleep(1, revoked), TypeError, /^options must be an object whose keys can be listed; received /],
  ["retry(null)", () => retry(null, 1, { retries: 1 }), TypeError, "fn must be a function; received null"],
  ["retry(fn, null)", () => retry(op, null), TypeError, undefined],
  ["retry(fn, -5)", () => retry(op, -5, { retries: 1 }), RangeError, undefined],
  ["retry(fn, 'soon')", () => retry(op, "soon", { retries: 1 }), RangeError, undefined],
  ["retry(fn, 1, { retries: -1 })", () => retry(op, 1, { retries: -1 }), RangeError, "retries must be a non-negative integer or Infinity; received -1"],
  ["retry(fn, 1, { signal: 1 })", () => retry(op, 1, { retries: 1, signal: 1 }), TypeError, "signal must be an AbortSignal; received 1"],
  ["retry(fn, 1, 'x')", () => retry(op, 1, "x"), TypeError, 'options must be an object; received "x"'],
  ["retry(fn, 1, revoked)", () => retry(op, 1, revoked), TypeError, undefined],
  ["fetchWithRetry(url, 5)", () => fetchWithRetry("http://127.0.0.1:9/", 5), TypeError, "init must be an object; received 5"],
  ["fetchWithRetry(url, {}, 5)", () => fetchWithRetry("http://127.0.0.1:9/", {}, 5), TypeError, "options must be an object; received 5"],
  ["fetchWithRetry policy null", () => fetchWithRetry("http://127.0.0.1:9/", {}, { policy: null }), TypeError, undefined],
  ["fetchWithRetry retries 1.5", () => fetchWithRetry("http://127.0.0.1:9/", {}, { retries: 1.5 }), RangeError, undefined],
  ["fetchWithRetry retryNonIdempotent 1", () => fetchWithRetry("http://127.0.0.1:9/", {}, { retryNonIdempotent: 1 }), TypeError, "retryNonIdempotent must be a boolean; received 1"],
];

for (const [label, f, cls, message] of cases) {
  test(`${label} rejects with ${cls.name}, no synchronous throw`, async () => {
    await assert.rejects(call(label, f), (e) => {
      assert.ok(e instanceof cls, `${label}: ${e}`);
      if (message instanceof RegExp) assert.match(e.message, message);
      else if (message !== undefined) assert.equal(e.message, message);
      return true;
    });
  });
}
