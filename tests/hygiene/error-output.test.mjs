// An uncaught error thrown by the package: Node prints the source line it came from
// before the message. The runtime trees are built with short lines (scripts/assemble.mjs,
// `lineLimit`), so that line is a line, not a whole minified chunk.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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

// `lineLimit` splits long string literals with a backslash and a newline; a bundler that
// wraps CommonJS modules indents every line (Rollup's commonjs plugin), and the indent
// then lands inside the string. scripts/assemble.mjs (`unsplitStrings`) takes them out.
test("no runtime file continues a string literal on the next line", () => {
  for (const tree of ["esm", "cjs", "workerd"]) {
    const dir = pkg + `dist/${tree}/`;
    for (const f of readdirSync(dir).filter((f) => f.endsWith(".js"))) {
      const split = /(?<!\\)(?:\\\\)*\\\n/.exec(readFileSync(dir + f, "utf8"));
      assert.equal(split, null, `dist/${tree}/${f} has a string continued on the next line`);
    }
  }
});
