// The `schedule` command, run as a user runs it (node pkg/bin/backoff-wasm.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../../pkg/bin/backoff-wasm.js", import.meta.url));
const run = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });

test("schedule with no options prints Sigil's default table and window", () => {
  const r = run("schedule");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(
    r.stdout,
    [
      "retry   delay   elapsed",
      "    1   1 s     1 s",
      "    2   2 s     3 s",
      "    3   4 s     7 s",
      "    4   8 s     15 s",
      "    5   16 s    31 s",
      "    6   32 s    1 min 3 s",
      "    7   64 s    2 min 7 s",
      "",
      "total window: 2 min 7 s (127000 ms)",
      "total wait bounds: 2 min 7 s – 2 min 7 s (127000 – 127000 ms)",
      "",
    ].join("\n"),
  );
});

test("--format json prints machine-readable rows", () => {
  const r = run("schedule", "--format", "json", "--attempts", "3");
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    retries: [
      { retry: 1, delayMs: 1000, elapsedMs: 1000 },
      { retry: 2, delayMs: 2000, elapsedMs: 3000 },
    ],
    totalMs: 3000,
    totalBounds: { min: 3000, max: 3000 },
  });
});

test("--format csv, steps, free attempts and a seeded jitter", () => {
  const r = run("schedule", "--format", "csv", "--steps", "10,20ms", "--free", "1", "--attempts", "5");
  assert.equal(r.stdout, "retry,delay_ms,elapsed_ms\n1,0,0\n2,10,10\n3,20,30\n4,20,50\n");
  const a = run("schedule", "--format", "json", "--jitter", "0.2", "--seed", "cli");
  const b = run("schedule", "--format", "json", "--jitter", "0.2", "--seed", "cli");
  assert.equal(a.stdout, b.stdout);
});

test("bad options: one line naming the option, exit code 2", () => {
  for (const [args, flag] of [
    [["schedule", "--attempts", "0"], "--attempts"],
    [["schedule", "--attempts", "abc"], "--attempts"],
    [["schedule", "--factor", "0.5"], "--factor"],
    [["schedule", "--base", "5 minuts"], "--base"],
    [["schedule", "--jitter", "2"], "--jitter"],
    [["schedule", "--format", "xml"], "--format"],
    [["schedule", "--growth", "cubic"], "--growth"],
    [["schedule", "--bogus"], "--bogus"],
  ]) {
    const r = run(...args);
    assert.equal(r.status, 2, args.join(" "));
    assert.equal(r.stdout, "");
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.ok(r.stderr.includes(flag), `${args.join(" ")}: ${r.stderr}`);
  }
});

test("--help documents every option", () => {
  const r = run("--help");
  assert.equal(r.status, 0);
  for (const flag of ["--base", "--max", "--factor", "--growth", "--steps", "--attempts", "--free", "--jitter", "--seed", "--format"]) {
    assert.ok(r.stdout.includes(flag), flag);
  }
});
