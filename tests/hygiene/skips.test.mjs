// The project's rule: a test that cannot run must FAIL when CI=true, never skip silently.
// Every node:test `skip:` option in tests/**/*.test.mjs must therefore be off under CI=true:
// its expression (or the const it names) reads process.env.CI.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, relative } from "node:path";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Every tests/**\/*.test.mjs outside node_modules and the scratch projects. */
function testFiles(dir = join(root, "tests")) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === ".scratch") continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...testFiles(p));
    else if (e.name.endsWith(".test.mjs")) out.push(p);
  }
  return out;
}

test("every skip: condition of a test is off under CI=true", () => {
  const offenders = [];
  for (const file of testFiles().filter((f) => f !== fileURLToPath(import.meta.url))) {
    const text = readFileSync(file, "utf8");
    // `{ skip: expr }` and the shorthand `{ skip, … }` (a const named skip).
    for (const m of text.matchAll(/\{[^{}]*?\bskip(?:: ([^,}]+)|\s*(?=[,}]))/g)) {
      let expr = (m[1] ?? "skip").trim();
      if (/^[A-Za-z_$][\w$]*$/.test(expr)) {
        const def = text.match(new RegExp(`(?:const|let) ${expr} = ([^;]+);`));
        if (!def) {
          offenders.push(`${relative(root, file)}: skip: ${expr} (no const ${expr} in the file)`);
          continue;
        }
        expr = def[1];
      }
      if (!expr.includes("process.env.CI")) offenders.push(`${relative(root, file)}: skip: ${(m[1] ?? "skip").trim()}`);
    }
  }
  assert.deepEqual(offenders, []);
});
