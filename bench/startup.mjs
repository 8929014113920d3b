// `node bench/startup.mjs [runs]`: what importing backoff-wasm/retry and running one retry
// costs at start-up, beside importing p-retry and running one call, each over a bare `node`
// that runs an empty module. Both packages are measured as a user gets them: pkg/ and p-retry
// (with its dependencies, from this repository's node_modules) are packed with `npm pack`
// and unpacked side by side into build/startup-bench/node_modules, and each run imports its
// package by name from there, so Node resolves the package's `exports` (the `node`
// condition) and loads the files the tarball ships. Every run is a new Node process; the
// three kinds are interleaved run by run, so a change in the machine's load reaches all of
// them alike. Each process reports its own CPU time (user + system, process.cpuUsage(), from
// the process's start) when it is done; the figures are medians, and a kind's cost is its
// median minus the bare one's. The goal: backoff-wasm/retry costs at most 2× what p-retry
// costs.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const scratch = join(root, "build", "startup-bench");
const GOAL = 2;

/** Runs `cmd` with `args` in `cwd`; returns its stdout, or throws with its stderr. */
function sh(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.error ?? r.stderr}`);
  return r.stdout;
}

/** Packs the package folder `dir` with npm and unpacks it as node_modules/`name` of the scratch folder. */
function install(dir, name) {
  const [{ filename }] = JSON.parse(sh("npm", ["pack", "--json", "--pack-destination", scratch, dir], root));
  const to = join(scratch, "node_modules", name);
  mkdirSync(to, { recursive: true });
  sh("tar", ["-xzf", join(scratch, filename), "-C", to, "--strip-components=1"], root);
  rmSync(join(scratch, filename));
}

/** Installs the package `name` from this repository's node_modules, and its dependencies. */
function installFromNodeModules(name, done = new Set()) {
  if (done.has(name)) return;
  done.add(name);
  const dir = join(root, "node_modules", name);
  install(dir, name);
  const deps = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).dependencies ?? {};
  for (const dep of Object.keys(deps)) installFromNodeModules(dep, done);
}

rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
install(join(root, "pkg"), "backoff-wasm");
installFromNodeModules("p-retry");

const report = "const u = process.cpuUsage(); console.log(u.user + u.system);";
const KINDS = {
  "bare node": `${report}`,
  "backoff-wasm/retry": `import { retry } from "backoff-wasm/retry"; await retry(() => 1, 0, { retries: 1 }); ${report}`,
  "p-retry": `import pRetry from "p-retry"; await pRetry(() => 1, { retries: 1 }); ${report}`,
};
const runs = Number(process.argv[2] ?? 40);
const times = Object.fromEntries(Object.keys(KINDS).map((k) => [k, []]));
for (let i = 0; i < runs; i++) {
  for (const [kind, code] of Object.entries(KINDS)) {
    times[kind].push(Number(sh(process.execPath, ["--input-type=module", "-e", code], scratch).trim()) / 1000);
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const bare = median(times["bare node"]);
console.log(`Node ${process.version}, ${runs} runs of each, interleaved, packages packed into build/startup-bench; CPU time per process (user + system), median`);
for (const kind of Object.keys(KINDS)) {
  const m = median(times[kind]);
  console.log(`  ${kind.padEnd(20)} ${m.toFixed(1).padStart(6)} ms${kind === "bare node" ? "" : `   +${(m - bare).toFixed(1)} ms over bare node`}`);
}
const ratio = (median(times["backoff-wasm/retry"]) - bare) / (median(times["p-retry"]) - bare);
console.log(`backoff-wasm/retry costs ${ratio.toFixed(2)}× p-retry's start-up (goal: at most ${GOAL}×, ${ratio <= GOAL ? "met" : "not met"})`);
