// An uncaught error thrown by the package: Node prints the source line it came from
// before the message. The runtime trees are built with short lines (scripts/assemble.mjs,
// `lineLimit`), so that line is a line, not a whole minified chunk (it was ~7.8 KB of
// output for one bad option before, up to ~20 KB for the retry runtime).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("../../pkg/", import.meta.url));

const CASES = [
  ["esm", `import { createBackoff } from ${JSON.stringify(pkg + "dist/esm/backoff.js")}; createBackoff({ base: -1 });`, "--input-type=module"],
  ["cjs", `require(${JSON.stringify(pkg + "dist/cjs/backoff.js")}).createBackoff({ base: -1 });`, "--input-type=commonjs"],
  ["esm retry", `import { sleep } from ${JSON.stringify(pkg + "dist/esm/retry.js")}; await sleep(-5);`, "--input-type=module"],
];

for (const [name, code, type] of CASES) {
  test(`${name}: an uncaught package error prints a short source line, then the message`, () => {
    const r = spawnSync(process.execPath, [type, "-e", code], { encoding: "utf8" });
    assert.equal(r.status, 1);
    const beforeMessage = r.stderr.slice(0, r.stderr.indexOf("RangeError: "));
    assert.ok(beforeMessage.length > 0, r.stderr);
    const longest = Math.max(...beforeMessage.split("\n").map((l) => l.length));
    assert.ok(longest <= 400, `a printed line of ${longest} characters:\n${r.stderr.slice(0, 600)}`);
    assert.match(r.stderr, /RangeError: /);
  });
}
