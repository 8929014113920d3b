// The fenced code blocks of the README and the guides, and what each one's info string
// asks the runner (tests/docs/guides.test.mjs) to do with it:
//   ```js run            written to a .mjs file and run with `node` (node:test files too)
//   ```js run=vitest     written to a .test.js file and run with `vitest run`
//   ```js run=worker     a Worker module, src/worker.js beside the document's ```toml file=wrangler.toml
//                        block: served by `wrangler dev` with UPSTREAM_URL set by --var, asked GET /
//   ```js file=PATH      written to PATH (beside the guide's other blocks) before any run
//   ```js check          configuration text: parsed (`node --check`), not run
//   ```sh run            each line run by bash in the guide's directory
//   ```html run=chromium click=SELECTOR expect=TEXT
//                        a page served beside the installed package (its import map names
//                        /node_modules/…) with /api/settings (a PUT: 503 once, then 200),
//                        opened in headless Chromium; SELECTOR is clicked (optional) and the
//                        page must come to show TEXT (rendered text, not its scripts)
//   ```rust run          src/main.rs of a program with the crate as a path dependency (cargo run)
// A ```js block with none of these must be run by another test (EXTERNAL in the runner).
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The README text that scripts/assemble.mjs ships (between the package-readme markers). */
export function shippedReadme(root) {
  const text = readFileSync(join(root, "README.md"), "utf8");
  const [, rest] = text.split("<!-- package-readme:start -->");
  if (rest === undefined) throw new Error("README.md has no <!-- package-readme:start --> marker");
  const [body] = rest.split("<!-- package-readme:end -->");
  return body;
}

/**
 * The fenced blocks of `markdown`: `{ lang, run, file, check, click, expect, code, line }`
 * (`run` is `"node"`, `"vitest"`, `"worker"`, `"chromium"` or undefined; `line` is 1-based,
 * the fence's own line).
 */
export function blocks(markdown) {
  const out = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^```(\S*)\s*(.*)$/);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l === "```");
    if (end < 0) throw new Error(`an unclosed code fence at line ${i + 1}`);
    const attrs = Object.fromEntries(open[2].split(/\s+/).filter(Boolean).map((a) => {
      const [k, v] = a.split("=");
      return [k, v ?? true];
    }));
    out.push({
      lang: open[1],
      run: attrs.run === true ? "node" : attrs.run,
      click: attrs.click,
      expect: attrs.expect,
      file: attrs.file,
      check: attrs.check === true,
      code: lines.slice(i + 1, end).join("\n") + "\n",
      line: i + 1,
    });
    i = end;
  }
  return out;
}
