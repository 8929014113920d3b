// scripts/test-wasm.sh leaves nothing in $TMPDIR: ChromeDriver's Chromium writes a profile
// (~13 MB) and a singleton-socket directory there and is stopped without removing them, so
// the script gives its runs a private TMPDIR and removes it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

test("scripts/test-wasm.sh browser leaves its TMPDIR as it found it", { timeout: 600_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "backoff-wasm-tmpdir-"));
  try {
    const r = spawnSync("bash", ["scripts/test-wasm.sh", "browser"], { cwd: root, encoding: "utf8", env: { ...process.env, TMPDIR: dir } });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`.slice(-3000));
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
