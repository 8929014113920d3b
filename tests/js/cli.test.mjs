// The `schedule` command, run as a user runs it (node pkg/bin/backoff-wasm.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createBackoff } from "../../pkg/dist/esm/backoff.js";

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
      "total wait bounds: the total window on every run (no jitter)",
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

test("--jitter with a word that is no kind names the kinds it accepts, not only numbers", () => {
  const r = run("schedule", "--jitter", "half");
  assert.equal(r.status, 2);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, 'backoff-wasm: --jitter: jitter must be a number in [0, 1], "full", "equal" or "decorrelated"; received "half"\n');
});

test("--max none with decorrelated jitter says which two options conflict, not 'received undefined'", () => {
  const r = run("schedule", "--max", "none", "--jitter", "decorrelated");
  assert.equal(r.status, 2);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, "backoff-wasm: --max none cannot be combined with --jitter decorrelated, which needs a cap\n");
});

test("a number too large for a double (1e400) is a usage error naming the flag and quoting the text, not Infinity", () => {
  for (const [flag, text, expected] of [
    ["--factor", "1e400", 'backoff-wasm: --factor must be a finite number (at most 1.7976931348623157e308); received "1e400"\n'],
    ["--base", "1e400", 'backoff-wasm: --base must be a finite number (at most 1.7976931348623157e308); received "1e400"\n'],
    ["--max", "2e308", 'backoff-wasm: --max must be a finite number (at most 1.7976931348623157e308); received "2e308"\n'],
    ["--steps", "10,1e400", 'backoff-wasm: --steps must be a finite number (at most 1.7976931348623157e308); received "1e400"\n'],
    ["--jitter", "1e400", 'backoff-wasm: --jitter must be a finite number (at most 1.7976931348623157e308); received "1e400"\n'],
  ]) {
    const r = run("schedule", `${flag}=${text}`);
    assert.equal(r.status, 2, `${flag} ${text}`);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, expected);
  }
});

test("a count (--attempts, --free) is plain decimal digits: anything else, or 2^53 and above, is a usage error quoting the text", () => {
  const digits = (flag, text) => `backoff-wasm: ${flag} must be a whole number in plain decimal digits; received ${JSON.stringify(text)}\n`;
  const below = (flag, text) => `backoff-wasm: ${flag} must be a whole number below 2^53 (9007199254740992); received ${JSON.stringify(text)}\n`;
  for (const flag of ["--attempts", "--free"]) {
    for (const text of [" 3", "3 ", "1e3", "3.0", "+3", "-1", "0x10", "1_000", "", "1e400", "1e-400", "\u0663"]) {
      const r = run("schedule", `${flag}=${text}`);
      assert.equal(r.status, 2, `${flag} ${JSON.stringify(text)}`);
      assert.equal(r.stdout, "");
      assert.equal(r.stderr, digits(flag, text));
    }
    for (const text of ["9007199254740992", "1".repeat(400)]) {
      const r = run("schedule", `${flag}=${text}`);
      assert.equal(r.status, 2, `${flag} ${text}`);
      assert.equal(r.stderr, below(flag, text));
    }
  }
  // Digits, leading zeros included, are the count; its range is the option's to check.
  const csv = (...args) => run("schedule", "--format", "csv", ...args);
  assert.equal(csv("--attempts", "003", "--free", "01").stdout, "retry,delay_ms,elapsed_ms\n1,0,0\n2,1000,1000\n");
  const zero = run("schedule", "--attempts", "0");
  assert.equal(zero.stderr, "backoff-wasm: --attempts: maxAttempts must be an integer >= 1; received 0\n");
});

test("a number that is not zero but too small for a double (1e-400, 1e-320) is a usage error quoting the text, not 0", () => {
  const tooSmall = (flag, text) =>
    `backoff-wasm: ${flag} must be 0 or at least 2.2250738585072014e-308 in size (a smaller number is too small to represent); received ${JSON.stringify(text)}\n`;
  // Each case: the flag, its text, and the text quoted when it is not the whole (an item of --steps).
  for (const [flag, text, quoted] of [
    ["--jitter", "1e-400"],
    ["--jitter", "1e-320"],
    ["--jitter", "0.000001e-303"],
    ["--factor", "1e-400"],
    ["--base", "1e-400"],
    ["--base", "-1e-400"],
    ["--max", "5E-324"],
    ["--steps", "10,1e-400", "1e-400"],
  ]) {
    const r = run("schedule", `${flag}=${text}`);
    assert.equal(r.status, 2, `${flag} ${text}`);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, tooSmall(flag, quoted ?? text));
  }
  // Zero written any way is 0, and the smallest full-precision double is itself.
  for (const zero of ["0", "0.0", "0e-400", "-0", ".0e5"]) {
    const r = run("schedule", `--jitter=${zero}`, "--attempts", "2");
    assert.equal(r.status, 0, `${zero}: ${r.stderr}`);
    assert.equal(r.stdout.split("\n").at(-2), "total wait bounds: the total window on every run (no jitter)", zero);
  }
  const r = run("schedule", "--jitter", "2.2250738585072014e-308", "--attempts", "2", "--format", "csv");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "retry,delay_ms,elapsed_ms\n1,1000,1000\n");
});

test("a jittered schedule whose draws cannot move a wait says so, not that it has no jitter", () => {
  for (const args of [
    ["--base", "0", "--jitter", "0.5", "--attempts", "3"],
    ["--max", "none", "--jitter", "full", "--attempts", "1100"],
    ["--max", "none", "--jitter", "0.5", "--seed", "1", "--attempts", "1200"],
  ]) {
    for (const chart of [[], ["--chart"]]) {
      const r = run("schedule", ...args, ...chart);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout.split("\n").at(-2), "total wait bounds: the total window on every run (the jitter draws cannot move it)", args.join(" "));
    }
  }
  const plain = run("schedule", "--base", "0", "--attempts", "3", "--chart");
  assert.equal(plain.stdout.split("\n").at(-2), "total wait bounds: the total window on every run (no jitter)");
});

test("--base, --max and --steps take what createBackoff takes: ms with a fraction or an exponent, and duration text", () => {
  const csv = (...args) => {
    const r = run("schedule", "--format", "csv", ...args);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  assert.equal(csv("--base", "1.5", "--attempts", "4"), "retry,delay_ms,elapsed_ms\n1,1.5,1.5\n2,3,4.5\n3,6,10.5\n");
  assert.equal(csv("--base", "0.25", "--max", "0.75", "--attempts", "4"), "retry,delay_ms,elapsed_ms\n1,0.25,0.25\n2,0.5,0.75\n3,0.75,1.5\n");
  assert.equal(csv("--base", ".5", "--max", "1.5e3", "--factor", "1e3", "--attempts", "4"), "retry,delay_ms,elapsed_ms\n1,0.5,0.5\n2,500,500.5\n3,1500,2000.5\n");
  assert.equal(csv("--steps", "1.5, 2.25,1e1", "--attempts", "5"), "retry,delay_ms,elapsed_ms\n1,1.5,1.5\n2,2.25,3.75\n3,10,13.75\n4,10,23.75\n");
  assert.equal(csv("--base", "750ms", "--max", "1 second", "--attempts", "3"), "retry,delay_ms,elapsed_ms\n1,750,750\n2,1000,1750\n");
  // A policy of the same options waits the same.
  const json = run("schedule", "--format", "json", "--base", "1.5", "--jitter", "0.2", "--seed", "s", "--attempts", "4");
  assert.equal(json.status, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout).retries.map((r) => r.delayMs), [1, 2, 3].map(
    (n) => createBackoff({ base: 1.5, max: 3_600_000, jitter: 0.2, seed: "s", maxAttempts: 4 }).delay(n)));
});

test("--help documents every option", () => {
  const r = run("--help");
  assert.equal(r.status, 0);
  for (const flag of ["--base", "--max", "--factor", "--growth", "--steps", "--attempts", "--free", "--jitter", "--seed", "--format", "--chart", "--svg", "--version"]) {
    assert.ok(r.stdout.includes(flag), flag);
  }
});

test("--help fits an 80-column terminal", () => {
  const r = run("--help");
  assert.equal(r.status, 0);
  const wide = r.stdout.split("\n").filter((line) => [...line].length > 80);
  assert.deepEqual(wide, []);
});

test("one unit style per column: every delay in one unit, every elapsed time as a clock reading", () => {
  const table = (args) => {
    const r = run("schedule", ...args);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  // Fractional waits: seconds to the millisecond, never "1081 ms" next to "1.622 s".
  assert.equal(table(["--base", "1081", "--factor", "1.5", "--attempts", "6"]), [
    "retry   delay     elapsed",
    "    1   1.081 s   1.081 s",
    "    2   1.622 s   2.703 s",
    "    3   2.432 s   5.135 s",
    "    4   3.648 s   8.783 s",
    "    5   5.473 s   14.256 s",
    "",
    "total window: 14.256 s (14255.6875 ms)",
    "total wait bounds: the total window on every run (no jitter)",
    "",
  ].join("\n"));
  // A sub-second first wait puts the whole column in ms (30 s is 30000 ms, not "30 s").
  const ms = table(["--base", "250", "--max", "30s", "--attempts", "10"]).split("\n");
  assert.deepEqual(ms.slice(1, 10).map((l) => l.trim().split(/\s{3,}/)[1]),
    ["250 ms", "500 ms", "1000 ms", "2000 ms", "4000 ms", "8000 ms", "16000 ms", "30000 ms", "30000 ms"]);
  assert.equal(ms[9].trim().split(/\s{3,}/)[2], "1 min 31.75 s");
  // Free attempts wait 0 in the column's unit.
  assert.match(table(["--free", "2", "--attempts", "4"]), /^ {4}1 {3}0 s {5}0 s$/m);
  // Elapsed times beyond 2^53 days: days only (a double has no hours or minutes left there).
  assert.equal(table(["--max", "none", "--factor", "1e300", "--attempts", "4"]), [
    "retry   delay      elapsed",
    "    1   1 s        1 s",
    "    2   1e+300 s   1.1574074074074073e+295 d",
    "    3   Infinity   Infinity",
    "",
    "total window: Infinity (Infinity ms)",
    "total wait bounds: the total window on every run (no jitter)",
    "",
  ].join("\n"));
  assert.match(table(["--max", "none", "--attempts", "80"]), /^total window: 6996098493140215000 d \(6\.044629098073146e\+26 ms\)$/m);
  // A column of zeros only has no shortest non-zero wait to pick a unit: it stays in ms (not "0 d").
  for (const args of [["--base", "0", "--attempts", "3"], ["--steps", "0", "--jitter", "full", "--attempts", "3"]]) {
    const zeros = table(args).split("\n");
    assert.deepEqual(zeros.slice(0, 3), ["retry   delay   elapsed", "    1   0 ms    0 s", "    2   0 ms    0 s"], args.join(" "));
  }
});

test("an elapsed time a hair below a whole minute reads as that minute, never \"60 s\"", () => {
  // 9867 ms × 1.25^n: the eleventh retry ends at 419 999.992 ms, which is 7 min to the millisecond.
  const r = run("schedule", "--base", "9867", "--factor", "1.25", "--attempts", "12");
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split("\n");
  assert.equal(lines[11], "   11   91.894 s   7 min");
  assert.equal(lines[13], "total window: 7 min (419999.9921865463 ms)");
  assert.doesNotMatch(r.stdout, /\b60 s\b/);
  // The same in the chart's total line.
  const chart = run("schedule", "--base", "9867", "--factor", "1.25", "--attempts", "12", "--chart");
  assert.equal(chart.status, 0, chart.stderr);
  assert.match(chart.stdout, /^total window: 7 min \(419999\.9921865463 ms\)$/m);
});

test("an elapsed time beyond 2^53 ms splits into the exact days, hours, minutes and seconds of that number", () => {
  // 1e23 ms is the double 99 999 999 999 999 991 611 392: 1 157 407 407 407 407 d 7 h 26 min 51.392 s.
  const r = run("schedule", "--base", "100000000000000000000000", "--max", "none", "--attempts", "2");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.split("\n")[1], "    1   1157407407407407.2 d   1157407407407407 d 7 h 26 min 51.392 s");
});

test("--svg with more retries than the chart draws names --svg and --attempts, writes nothing and prints no table", async () => {
  const { mkdtempSync, existsSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "backoff-wasm-cli-"));
  try {
    const file = join(dir, "schedule.svg");
    const r = run("schedule", "--attempts", "300", "--svg", file);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "backoff-wasm: --svg draws at most 200 retries (--attempts 201); received --attempts 300\n");
    assert.equal(existsSync(file), false);
    // The longest schedule it draws is written, and the table printed.
    const ok = run("schedule", "--attempts", "201", "--svg", file);
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(ok.stderr, `wrote ${file}\n`);
    assert.match(ok.stdout, /^ {2}200 /m);
    assert.equal(existsSync(file), true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--svg of a single attempt (--attempts 1: no retries) names --svg and --attempts and writes nothing, instead of a chart with a retry the schedule does not have", async () => {
  const { mkdtempSync, existsSync, readFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "backoff-wasm-cli-"));
  try {
    const file = join(dir, "schedule.svg");
    const r = run("schedule", "--attempts", "1", "--svg", file);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "backoff-wasm: --svg draws the retries, and --attempts 1 has none (--attempts 2 or more)\n");
    assert.equal(existsSync(file), false);
    // Without --svg a single attempt is a table that says so.
    const table = run("schedule", "--attempts", "1");
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /^\(no retries: a single attempt\)$/m);
    // Two attempts: one retry, drawn.
    const one = run("schedule", "--attempts", "2", "--svg", file);
    assert.equal(one.status, 0, one.stderr);
    assert.equal(readFileSync(file, "utf8").match(/<title>retry \d+: [^<]*<\/title>/g).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--svg - writes the SVG to standard output in place of the table, and no file named -", async () => {
  const { mkdtempSync, readdirSync, readFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "backoff-wasm-cli-"));
  try {
    const inDir = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd: dir });
    const r = inDir("schedule", "--attempts", "4", "--jitter", "0.5", "--seed", "s", "--svg", "-");
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    assert.deepEqual(readdirSync(dir), []);
    // The same SVG that --svg FILE writes, followed by one newline.
    const file = inDir("schedule", "--attempts", "4", "--jitter", "0.5", "--seed", "s", "--svg", "chart.svg");
    assert.equal(file.status, 0, file.stderr);
    assert.equal(r.stdout, `${readFileSync(join(dir, "chart.svg"), "utf8")}\n`);
    assert.ok(r.stdout.startsWith("<svg "));
    // A file named "-" is still one path away.
    assert.equal(inDir("schedule", "--attempts", "2", "--svg", "./-").status, 0);
    assert.deepEqual(readdirSync(dir).sort(), ["-", "chart.svg"]);
    // Standard output holds the SVG alone: --chart and --format are usage errors.
    for (const [args, with_] of [[["--chart"], "--chart"], [["--format", "json"], "--format json"], [["--format", "table"], "--format table"]]) {
      const bad = inDir("schedule", "--svg", "-", ...args);
      assert.equal(bad.status, 2, args.join(" "));
      assert.equal(bad.stdout, "");
      assert.equal(bad.stderr, `backoff-wasm: --svg - writes the SVG to standard output in place of the table; it cannot be combined with ${with_}\n`);
    }
    // The chart's own limits still name --svg and --attempts.
    const one = inDir("schedule", "--attempts", "1", "--svg", "-");
    assert.equal(one.status, 2);
    assert.equal(one.stdout, "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Runs `cmd args` to its end without blocking the event loop; resolves with `{ status, stdout, stderr }`.
 * `onStdout(child)`, when given, is called with the child once it is started (to read or close its stdout).
 */
function runAsync(cmd, args, onStdout) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    let stderr = "";
    if (onStdout) onStdout(child);
    else child.stdout.on("data", (d) => out.push(d));
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("error", (e) => resolve({ status: null, stdout: "", stderr: `${stderr}${e}` }));
    child.on("close", (status) => resolve({ status, stdout: Buffer.concat(out).toString("utf8"), stderr }));
  });
}

test("the longest schedule the CLI accepts (--attempts 1000001) prints as a table and as a chart", async () => {
  // A million rows: more than a function call takes as arguments (Math.min(...rows) overflowed the stack).
  // The two commands run side by side (separate processes).
  const runs = [[], ["--jitter", "full", "--seed", "s", "--chart"]];
  const results = await Promise.all(runs.map((extra) => runAsync(process.execPath, [bin, "schedule", "--attempts", "1000001", ...extra])));
  runs.forEach((extra, i) => {
    const r = results[i];
    assert.equal(r.status, 0, `${extra.join(" ")}: ${r.stderr}`);
    assert.match(r.stdout, /^ *1000000 /m, extra.join(" "));
    assert.match(r.stdout, /^total window: /m, extra.join(" "));
  });
});

test("a reader that stops early (`| head`) ends the command quietly; an unwritable stdout is one line", async () => {
  // as `head -1` does: read, then close the pipe
  const head = runAsync(process.execPath, [bin, "schedule", "--attempts", "1000001"], (child) => child.stdout.once("data", () => child.stdout.destroy()));
  const full = process.platform === "linux"
    ? runAsync("sh", ["-c", `"${process.execPath}" "${bin}" schedule --attempts 1000001 > /dev/full`])
    : undefined;
  const early = await head;
  assert.equal(early.stderr, "", "no EPIPE stack trace");
  assert.equal(early.status, 0);
  if (full) {
    const r = await full;
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^backoff-wasm: cannot write the output: .*ENOSPC.*\n$/);
  }
});

test("an unknown option or command points at --help", () => {
  for (const args of [["schedule", "--bogus"], ["schedul"]]) {
    const r = run(...args);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^backoff-wasm: .*\(backoff-wasm schedule --help lists the options\)\n$/, r.stderr);
  }
});
