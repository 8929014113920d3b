// Instructions per operation of benchmark loops, counted by valgrind's callgrind: the
// difference between a run of N operations and a run of none, both after the same warm-up,
// divided by N (`node --single-threaded`, so no background compile or GC thread is counted;
// fixed hash and random seeds, so two runs of one build count the same).
// Steadier than time on a shared machine; not part of `npm test` (needs valgrind).
//
//   node bench/instructions.mjs [createBackoff|fluent|sigilRandom|sigilSeed|seeded|keyed] [N]
//
// The worker mode (`--run <case> <n>`) is what valgrind runs.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const [mode, ...rest] = process.argv.slice(2);
const CASES = ["createBackoff", "fluent", "sigilRandom", "sigilSeed", "seeded", "keyed"];

if (mode === "--run") {
  const [which, nText] = rest;
  const { createBackoff } = await import("../pkg/dist/esm/backoff.js");
  const { Backoff } = await import("../pkg/dist/esm/policy.js");
  const { nextDelayMs, seededRandom } = await import("../pkg/dist/esm/sigil.js");
  const { createRandom } = await import("../pkg/dist/esm/random.js");
  const seeded = createBackoff({ base: 1000, max: 3600000, jitter: 0.25, random: createRandom("s") });
  const keyed = createBackoff({ base: 1000, max: 3600000, jitter: 0.25, seed: "k" });
  const withRandom = { jitter: 0.2, random: seededRandom("s") };
  const withSeed = { jitter: 0.2, seed: "s" };
  const one = {
    fluent: (i) => Backoff.exponential(1000 + (i & 7)).cap("2s").jitter(0.25).attempts ?? 1,
    createBackoff: (i) => createBackoff({ base: 1000 + (i & 7), max: 3600000, jitter: 0.25 }).attempts ?? 1,
    sigilRandom: (i) => nextDelayMs((i & 7) + 1, withRandom),
    sigilSeed: (i) => nextDelayMs((i & 7) + 1, withSeed),
    seeded: (i) => seeded.delay((i & 7) + 1),
    keyed: (i) => keyed.delay((i & 7) + 1),
  }[which];
  let s = 0;
  for (let i = 0; i < 100_000; i++) s += one(i);
  for (let i = 0, n = Number(nText); i < n; i++) s += one(i);
  if (s === 0.5) console.log(s);
} else {
  const n = Number(rest[0] ?? 100_000);
  const self = fileURLToPath(import.meta.url);
  const count = (k, ops) => {
    const r = spawnSync("valgrind", ["--tool=callgrind", "--smc-check=all", "--callgrind-out-file=/dev/null",
      process.execPath, "--single-threaded", "--hash-seed=1", "--random-seed=1", self, "--run", k, String(ops)], { encoding: "utf8" });
    const m = /Collected : (\d+)/.exec(r.stderr ?? "");
    if (!m) throw new Error(`valgrind did not run: ${r.error?.message ?? r.stderr}`);
    return Number(m[1]);
  };
  for (const k of mode ? [mode] : CASES) {
    if (!CASES.includes(k)) throw new Error(`unknown case ${k}; one of ${CASES.join(", ")}`);
    console.log(`${k}: ${Math.round((count(k, n) - count(k, 0)) / n)} instructions per operation`);
  }
}
