// COMMON rules: every public item has a docstring, and the .d.ts carries it. An
// editor shows the JSDoc of the overload it resolves, so every overload of an
// exported function needs its own (retry's policy form had none). Checks the
// shipped declarations in pkg/dist/types (run scripts/build.sh first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

const DIR = new URL("../../pkg/dist/types/", import.meta.url);

test("every exported function (each overload), class and interface of the shipped .d.ts has a JSDoc block", () => {
  const missing = [];
  const files = readdirSync(DIR).filter((f) => f.endsWith(".d.ts"));
  assert.ok(files.length > 5, "pkg/dist/types holds the declarations");
  for (const file of files) {
    const lines = readFileSync(new URL(file, DIR), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (!/^export (declare )?(function|class|abstract class|interface) /.test(line)) return;
      let j = i - 1;
      while (j >= 0 && lines[j].trim() === "") j--;
      if (!(j >= 0 && lines[j].trim().endsWith("*/"))) missing.push(`${file}:${i + 1}: ${line.slice(0, 90)}`);
    });
  }
  assert.deepEqual(missing, []);
});
