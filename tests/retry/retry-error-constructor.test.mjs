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

test("new RetryError with a bad argument is a TypeError naming it, the first one in order", () => {
  const cause = new Error("down");
  const cases = [
    [[], 'reason must be "attempts", "deadline", "budget", "aborted", "not-retryable" or "deferrals"; received undefined'],
    [["boom"], 'reason must be "attempts", "deadline", "budget", "aborted", "not-retryable" or "deferrals"; received "boom"'],
    [["attempts", undefined, 0, cause, []], "attempts must be a non-negative safe integer; received undefined"],
    [["attempts", 1.5, 0, cause, []], "attempts must be a non-negative safe integer; received 1.5"],
    [["attempts", -1, 0, cause, []], "attempts must be a non-negative safe integer; received -1"],
    [["attempts", "3", 0, cause, []], 'attempts must be a non-negative safe integer; received "3"'],
    [["attempts", 3, NaN, cause, []], "elapsedMs must be a finite number of ms; received NaN"],
    [["attempts", 3, undefined, cause, []], "elapsedMs must be a finite number of ms; received undefined"],
    [["attempts", 3, Infinity, cause, []], "elapsedMs must be a finite number of ms; received Infinity"],
    [["attempts", 3, 120, cause], "errors must be an array of the failed attempts' errors; received undefined"],
    [["attempts", 3, 120, cause, "down"], "errors must be an array of the failed attempts' errors; received \"down\""],
  ];
  for (const [args, message] of cases) {
    assert.throws(() => new RetryError(...args), (e) => e.constructor === TypeError && e.message === message, message);
  }
});

test("new RetryError takes any cause, no attempt at all, and a negative elapsedMs (a clock set back)", () => {
  const e = new RetryError("aborted", 0, -5, undefined, []);
  assert.deepEqual([e.reason, e.attempts, e.elapsedMs, e.cause, e.errors], ["aborted", 0, -5, undefined, []]);
  assert.equal(e.message, "retry stopped (aborted) after 0 attempts in -5 ms: undefined");
});
