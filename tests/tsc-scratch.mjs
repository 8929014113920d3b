// tsc (strict, nodenext) over a few files in a scratch project that depends on the built
// package: what the type tests of tests/retry and tests/budget check their snippets with. Not a
// test file itself.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDir } from "./scratch-dir.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * tsc's output ("" when everything type-checks) for `files` (file name → lines) in
 * tests/.scratch/`name` (tagged: tests/scratch-dir.mjs), whose node_modules links `backoff-wasm` to pkg/ and each
 * `[name, path in the repository]` of `links`; `types` and `lib` are the tsconfig's.
 */
export function tscScratch(name, files, { links = [["@types", "node_modules/@types"]], types = ["node"], lib } = {}) {
  const dir = scratchDir(name);
  rmSync(dir, { recursive: true, force: true });
  for (const [link, target] of [["backoff-wasm", "pkg"], ...links]) {
    const at = join(dir, "node_modules", link);
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(join(ROOT, target), at);
  }
  for (const [file, lines] of Object.entries(files)) writeFileSync(join(dir, file), [...lines, ""].join("\n"));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", noEmit: true, types, target: "es2022", lib },
    files: Object.keys(files),
  }));
  try {
    execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { encoding: "utf8" });
    return "";
  } catch (e) {
    return `${e.stdout}${e.stderr}`;
  }
}
