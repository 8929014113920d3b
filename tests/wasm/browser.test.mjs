// The wasm-bindgen tests of src/bindings (tests/wasm_browser.rs) pass in headless Chromium, in
// headless Firefox (Debian's firefox-esr through geckodriver) and in WebKit (WebKitGTK's
// MiniBrowser through WebKitWebDriver, on Xvfb), each run once here through scripts/test-wasm.sh (the same body runs in Node once, through
// `wasm-pack test --node`: tests/crate/wasm-pack.test.mjs). The run leaves nothing in
// $TMPDIR: ChromeDriver's Chromium writes a profile and a singleton-socket directory there
// and is stopped without removing them, so the script gives its runs a private TMPDIR.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { missingFor } from "../hosts/webdriver.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));

for (const [name, mode] of [["headless Chromium", "browser"], ["headless Firefox", "firefox"], ["WebKit", "webkit"]]) {
  const missing = mode === "browser" ? [] : missingFor(mode);
  const skip = missing.length && process.env.CI !== "true" ? `missing ${missing.join(", ")} (scripts/setup.sh --for test installs them)` : false;
  test(`the wasm-bindgen tests pass in ${name}, and the run leaves TMPDIR as it found it`, { timeout: 600_000, skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), "backoff-wasm-tmpdir-"));
    try {
      const r = spawnSync("bash", ["scripts/test-wasm.sh", mode], { cwd: root, encoding: "utf8", env: { ...process.env, TMPDIR: dir } });
      assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`.slice(-3000));
      const result = `${r.stdout}\n${r.stderr}`.match(/test result: ok\. (\d+) passed; 0 failed; 0 ignored/);
      assert.ok(result && Number(result[1]) >= 9, `${r.stdout}\n${r.stderr}`.slice(-3000));
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
