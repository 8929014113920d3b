// Every regular expression of js/ is linted for super-linear backtracking and super-linear
// moves (eslint-plugin-regexp, configured in eslint.config.mjs), and a RegExp built from text
// at run time is refused, so no reader of what a server or a user sends can be stalled by a
// crafted value. The same configuration is shown to catch the shapes it exists for.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";

const root = fileURLToPath(new URL("../../", import.meta.url));
const eslint = new ESLint({ cwd: root });

const problems = (results) => results.flatMap((r) => r.messages.map((m) => `${r.filePath.slice(root.length)}:${m.line} ${m.ruleId}: ${m.message}`));

test("no regular expression in js/ can backtrack or move super-linearly", async () => {
  const results = await eslint.lintFiles(["js"]);
  assert.ok(results.length > 30, `${results.length} files linted`);
  assert.deepEqual(problems(results), []);
});

test("the lint refuses the shapes that stall a parser", async () => {
  const cases = {
    "const trim = (v) => v.replace(/^[ \\t]+|[ \\t]+$/g, '');": "regexp/no-super-linear-move",
    "const nested = /^(?:[a:]+|:a:)*\"$/;": "regexp/no-super-linear-backtracking",
    "const twice = /^[ \\t]*\\d*[ \\t]*\\d+x$/;": "regexp/no-super-linear-backtracking",
    "const built = new RegExp('[a-z]+' + 'x');": "no-restricted-syntax",
  };
  for (const [code, rule] of Object.entries(cases)) {
    const [result] = await eslint.lintText(code, { filePath: `${root}js/lint-sample.ts` });
    assert.ok(result.messages.some((m) => m.ruleId === rule), `${code}: ${JSON.stringify(result.messages.map((m) => m.ruleId))}`);
  }
});
