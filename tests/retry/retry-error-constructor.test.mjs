// RetryError's declared constructor is the one it has at run time: (reason, attempts, elapsedMs,
// cause, errors), checked by tsc (strict, nodenext) against the built package, so a test that
// builds one to stand for a stop gets an error with those fields, not Error's (message) form,
// which would give reason "boom" and a message with "undefined attempts in NaN ms".
import { test } from "node:test";
import assert from "node:assert/strict";
import { tscScratch } from "../tsc-scratch.mjs";
import { RetryError } from "../../pkg/dist/esm/retry.js";

test("tsc: new RetryError takes (reason, attempts, elapsedMs, cause, errors), and refuses Error's (message) form", () => {
  const lines = (from) => [
    `import { RetryError } from "${from}";`,
    "const cause = new Error(\"down\");",
    "const stop: RetryError = new RetryError(\"attempts\", 3, 120, cause, [cause, cause, cause]);",
    "const reason: \"attempts\" | \"deadline\" | \"budget\" | \"aborted\" | \"not-retryable\" | \"deferrals\" = stop.reason;",
    "void reason;",
    "// @ts-expect-error a message alone is not a RetryError's arguments",
    "void new RetryError(\"boom\");",
    "// @ts-expect-error nor is a reason outside RetryStopReason",
    "void new RetryError(\"timeout\", 1, 0, cause, []);",
  ];
  const out = tscScratch("retry-error-constructor", { "a.mts": lines("backoff-wasm/retry"), "b.cts": lines("backoff-wasm") });
  assert.equal(out, "");
});

test("new RetryError(reason, attempts, elapsedMs, cause, errors) carries them, with the loop's message", () => {
  const cause = new Error("down");
  const e = new RetryError("attempts", 3, 120, cause, [cause, cause, cause]);
  assert.ok(e instanceof RetryError && e instanceof Error);
  assert.deepEqual([e.name, e.reason, e.attempts, e.elapsedMs, e.cause, e.errors.length], ["RetryError", "attempts", 3, 120, cause, 3]);
  assert.equal(e.message, "retry stopped (attempts) after 3 attempts in 120 ms: down");
});
