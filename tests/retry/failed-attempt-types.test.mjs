// FailedAttemptContext.error is typed as what each function passes, checked by tsc (strict,
// nodenext) against the built package: with fetchWithRetry, onFailedAttempt's error is the
// network error or the Response of a retryable status (it may have no `message`); with
// retry's p-retry-style options it is an Error, as p-retry types it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

test("tsc: fetchWithRetry's onFailedAttempt error is Error | Response; retry's p-retry-style one is Error", () => {
  const dir = join(ROOT, "tests", ".scratch", "failed-attempt-types");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  for (const [name, target] of [["backoff-wasm", "pkg"], ["@types", "node_modules/@types"]]) symlinkSync(join(ROOT, target), join(dir, "node_modules", name));
  writeFileSync(join(dir, "a.mts"), [
    'import { fetchWithRetry, retry, type FailedAttemptContext } from "backoff-wasm/retry";',
    "await fetchWithRetry(\"http://127.0.0.1:9/\", undefined, {",
    "  onFailedAttempt: ({ error }) => {",
    "    // @ts-expect-error a retryable status passes the Response, which has no message",
    "    void error.message;",
    "    const status: number | undefined = error instanceof Response ? error.status : undefined;",
    "    const message: string | undefined = error instanceof Error ? error.message : undefined;",
    "    void [status, message];",
    "  },",
    "});",
    "await retry(() => 1, { retries: 1, onFailedAttempt: ({ error }) => void error.message });",
    "const context: FailedAttemptContext = { error: new Error(\"e\"), attemptNumber: 1, retriesLeft: 0, retriesConsumed: 0, retryDelay: 0 };",
    "void context;",
    "",
  ].join("\n"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", noEmit: true, types: ["node"], target: "es2022" },
    files: ["a.mts"],
  }));
  let out = "";
  try {
    execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
  } catch (e) {
    out = `${e.stdout}${e.stderr}`;
  }
  assert.equal(out, "");
});
