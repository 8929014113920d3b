// What `retry` does with an AbortError or a TimeoutError thrown by the operation.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as esm from "../../pkg/dist/esm/index.js";

test("an AbortError from fn is not retried unless shouldRetry says so; a TimeoutError is", async () => {
  let calls = 0;
  const abort = () => { calls++; throw new DOMException("stopped", "AbortError"); };
  // Our own options stop with RetryError (contract section 10): the AbortError is its cause.
  await assert.rejects(esm.retry(abort, 0, { retries: 3 }), (e) => e.reason === "aborted" && e.cause.name === "AbortError");
  assert.equal(calls, 1);
  calls = 0;
  await assert.rejects(esm.retry(abort, 0, { retries: 3, shouldRetry: () => true }), (e) => e.reason === "attempts" && e.cause.name === "AbortError");
  assert.equal(calls, 4);
  calls = 0;
  await assert.rejects(esm.retry(() => { calls++; throw new DOMException("slow", "TimeoutError"); }, 0, { retries: 2 }), (e) => e.reason === "attempts" && e.cause.name === "TimeoutError");
  assert.equal(calls, 3);
  // backoff-wasm/p-retry: p-retry 9 retries an error merely named AbortError (only its own
  // AbortError class stops), so the mirror does too.
  const { default: pRetry } = await import("../../pkg/dist/esm/p-retry.js");
  calls = 0;
  await assert.rejects(pRetry(abort, { retries: 2, minTimeout: 0 }), (e) => e.name === "AbortError" && e.message === "stopped");
  assert.equal(calls, 3);
});
