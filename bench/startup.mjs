// `node bench/startup.mjs [runs]`: what importing backoff-wasm/retry and running one retry
// costs at start-up, beside importing p-retry and running one call, each over a bare `node`
// that runs an empty module. Every run is a new Node process; the three kinds are interleaved
// run by run, so a change in the machine's load reaches all of them alike. Each process
// reports its own CPU time (user + system, process.cpuUsage(), from the process's start) when
// it is done; the figures are medians, and a kind's cost is its median minus the bare one's.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const report = "const u = process.cpuUsage(); console.log(u.user + u.system);";
const KINDS = {
  "bare node": `${report}`,
  "backoff-wasm/retry": `import { retry } from "./pkg/dist/esm/retry.js"; await retry(() => 1, 0, { retries: 1 }); ${report}`,
  "p-retry": `import pRetry from "p-retry"; await pRetry(() => 1, { retries: 1 }); ${report}`,
};
const runs = Number(process.argv[2] ?? 40);
const times = Object.fromEntries(Object.keys(KINDS).map((k) => [k, []]));
for (let i = 0; i < runs; i++) {
  for (const [kind, code] of Object.entries(KINDS)) {
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: root, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${kind}: ${r.stderr}`);
    times[kind].push(Number(r.stdout.trim()) / 1000);
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const bare = median(times["bare node"]);
console.log(`Node ${process.version}, ${runs} runs of each, interleaved; CPU time per process (user + system), median`);
for (const kind of Object.keys(KINDS)) {
  const m = median(times[kind]);
  console.log(`  ${kind.padEnd(20)} ${m.toFixed(1).padStart(6)} ms${kind === "bare node" ? "" : `   +${(m - bare).toFixed(1)} ms over bare node`}`);
}
const ours = median(times["backoff-wasm/retry"]) - bare;
const theirs = median(times["p-retry"]) - bare;
console.log(`backoff-wasm/retry costs ${(ours / theirs).toFixed(2)}× p-retry's start-up (goal: at most 2×)`);
