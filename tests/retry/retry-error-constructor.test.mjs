// RetryError's declared constructor is the one it has at run time: (reason, attempts, elapsedMs,
// cause, errors), checked by tsc (strict, nodenext) against the built package, so a test that
// builds one to stand for a stop gets an error with those fields, not Error's (message) form,
// which would give reason "boom" and a message with "undefined attempts in NaN ms".
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RetryError } from "../../pkg/dist/esm/retry.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

test("tsc: new RetryError takes (reason, attempts, elapsedMs, cause, errors), and refuses Error's (message) form", () => {
  const dir = join(ROOT, "tests", ".scratch", "retry-error-constructor");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  for (const [name, target] of [["backoff-wasm", "pkg"], ["@types", "node_modules/@types"]]) symlinkSync(join(ROOT, target), join(dir, "node_modules", name));
  for (const [file, from] of [["a.mts", "backoff-wasm/retry"], ["b.cts", "backoff-wasm"]]) {
    writeFileSync(join(dir, file), [
      `import { RetryError } from "${from}";`,
      "const cause = new Error(\"down\");",
      "const stop: RetryError = new RetryError(\"attempts\", 3, 120, cause, [cause, cause, cause]);",
      "const reason: \"attempts\" | \"deadline\" | \"budget\" | \"aborted\" | \"not-retryable\" | \"deferrals\" = stop.reason;",
      "void reason;",
      "// @ts-expect-error a message alone is not a RetryError's arguments",
      "void new RetryError(\"boom\");",
      "// @ts-expect-error nor is a reason outside RetryStopReason",
      "void new RetryError(\"timeout\", 1, 0, cause, []);",
      "",
    ].join("\n"));
  }
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", noEmit: true, types: ["node"], target: "es2022" },
    files: ["a.mts", "b.cts"],
  }));
  let out = "";
  try {
    execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
  } catch (e) {
    out = `${e.stdout}${e.stderr}`;
  }
  assert.equal(out, "");
});

test("new RetryError(reason, attempts, elapsedMs, cause, errors) carries them, with the loop's message", () => {
  const cause = new Error("down");
  const e = new RetryError("attempts", 3, 120, cause, [cause, cause, cause]);
  assert.ok(e instanceof RetryError && e instanceof Error);
  assert.deepEqual([e.name, e.reason, e.attempts, e.elapsedMs, e.cause, e.errors.length], ["RetryError", "attempts", 3, 120, cause, 3]);
  assert.equal(e.message, "retry stopped (attempts) after 3 attempts in 120 ms: down");
});
