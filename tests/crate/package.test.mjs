// The crate as `cargo package` packs it is complete: unpacked on its own, away from the
// repository, its `cargo test` passes (the unit tests, among them the checks of js/engine/boundary.ts
// and of the duration and HTTP-date vectors, which the package therefore carries, and the doc tests).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const { version } = readFileSync(join(root, "Cargo.toml"), "utf8").match(/^version = "(?<version>[^"]+)"/m).groups;
const name = `backoff-wasm-${version}`;

function run(cmd, args, cwd, env = process.env) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env, maxBuffer: 64 << 20 });
  assert.equal(r.error?.code, undefined, `${cmd} is not on PATH`);
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")} failed:\n${`${r.stdout}\n${r.stderr}`.slice(-3000)}`);
  return `${r.stdout}\n${r.stderr}`;
}

test("cargo package: the packed crate carries the files its tests check (js/engine/boundary.ts, the duration and HTTP-date vectors), and its own cargo test passes when unpacked alone", { timeout: 1_800_000 }, () => {
  const target = join(root, "target");
  const unpacked = join(target, "package-check", "unpacked");
  // --allow-dirty: the check runs on the working tree as it is (uncommitted edits included).
  const listed = run("cargo", ["package", "--list", "--allow-dirty"], root).split("\n").map((l) => l.trim());
  // The files src/'s tests compare with what the crate generates; nothing else of js/ or tests/.
  const checked = ["js/engine/boundary.ts", "tests/js/duration-vectors.json", "tests/retry/http-date-vectors.json"];
  for (const f of checked) assert.ok(listed.includes(f), `cargo package --list lacks ${f}: ${listed.join(", ")}`);
  assert.deepEqual(listed.filter((f) => /^(js|tests)\//.test(f)), checked);
  // Packing alone (no verify build): what `npm test` built before this file already includes
  // `cargo package`'s own build of the packed crate.
  run("cargo", ["package", "--allow-dirty", "--no-verify"], root);
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(unpacked, { recursive: true });
  // -m: the files get the time of extraction, not the archive's, so that cargo rebuilds the crate
  // in the kept target directory (with the archive's times it could take an older build as current).
  run("tar", ["xzmf", join(target, "package", `${name}.crate`), "-C", unpacked], root);
  const crate = join(unpacked, name);
  // No workspace above it. Built in the repository's target directory, outside the unpacked tree:
  // the dev-dependencies the repository's own `cargo test` built are reused, and the unpacked
  // crate, another source path, is a package of its own there, compiled from the packed files.
  const out = run("cargo", ["test", "-q", "--locked"], crate, { ...process.env, CARGO_TARGET_DIR: target });
  assert.match(out, /test result: ok\. [1-9]\d* passed; 0 failed/);
  assert.doesNotMatch(out, /test result: FAILED/);
});
