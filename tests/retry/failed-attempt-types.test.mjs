// FailedAttemptContext.error is typed as what each function passes, checked by tsc (strict,
// nodenext) against the built package: with fetchWithRetry, onFailedAttempt's error is the
// network error or the Response of a retryable status (it may have no `message`); with
// backoff-wasm/p-retry it is an Error, as p-retry types it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tscScratch } from "../tsc-scratch.mjs";

test("tsc: fetchWithRetry's onFailedAttempt error is Error | Response; backoff-wasm/p-retry's is Error", () => {
  const out = tscScratch("failed-attempt-types", { "a.mts": [
    'import { fetchWithRetry, type FailedAttemptContext } from "backoff-wasm/retry";',
    'import pRetry from "backoff-wasm/p-retry";',
    "await fetchWithRetry(\"http://127.0.0.1:9/\", undefined, {",
    "  onFailedAttempt: ({ error }) => {",
    "    // @ts-expect-error a retryable status passes the Response, which has no message",
    "    void error.message;",
    "    const status: number | undefined = error instanceof Response ? error.status : undefined;",
    "    const message: string | undefined = error instanceof Error ? error.message : undefined;",
    "    void [status, message];",
    "  },",
    "});",
    "await pRetry(() => 1, { retries: 1, onFailedAttempt: ({ error }) => void error.message });",
    "const context: FailedAttemptContext = { error: new Error(\"e\"), attemptNumber: 1, retriesLeft: 0, retriesConsumed: 0, retryDelay: 0 };",
    "void context;",
  ] });
  assert.equal(out, "");
});
