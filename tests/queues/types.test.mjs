// The shipped declarations of backoff-wasm/queues against BullMQ's own types (the devDependency):
// bullmqBackoff(policy) is a WorkerOptions settings.backoffStrategy, and a job is a BullJobLike,
// checked by `tsc --strict --noEmit`. (Cloudflare's Message is checked structurally in
// tests/consumers/typescript.test.mjs: @cloudflare/workers-types is not installed.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDir } from "../scratch-dir.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));

test("bullmqBackoff's type fits BullMQ's WorkerOptions", { timeout: 120_000 }, () => {
  const dir = scratchDir("queues-types");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, "check.ts"), `
import type { Job, WorkerOptions, BackoffStrategy } from "bullmq";
import { bullmqBackoff, type BullJobLike } from "../../../pkg/dist/types/queues.js";
import { Backoff } from "../../../pkg/dist/types/policy.js";
const strategy = bullmqBackoff(Backoff.exponential("500ms").jitter(0.5));
const settings: WorkerOptions["settings"] = { backoffStrategy: strategy };
const direct: BackoffStrategy = strategy;
declare const job: Job;
const like: BullJobLike = job;
export const used = [settings, direct, like];
`);
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: "preserve", moduleResolution: "bundler", target: "es2022", lib: ["es2022", "dom"], types: ["node"], skipLibCheck: true },
      files: ["check.ts"],
    }));
    const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
