// js/ is layered as docs/ARCHITECTURE.md draws it (engine, policy, runtime, then queues and
// tools): no module imports itself back, directly or through others (type-only imports
// count), and no layer imports a layer above it. dependency-cruiser checks the graph with the
// rules of .dependency-cruiser.cjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

test("js/ has no import cycle and no layer imports a higher one", () => {
  const r = spawnSync(process.execPath, [cli, "--config", ".dependency-cruiser.cjs", "--output-type", "json", "js"], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
  assert.ok(r.stdout, `dependency-cruiser printed nothing: ${r.stderr}`);
  const { summary } = JSON.parse(r.stdout);
  const found = summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name ?? c).join(" -> ")})` : ""}`);
  assert.deepEqual(found, []);
  // The graph is the package's: every layer's modules were read.
  assert.ok(summary.totalCruised >= 40, `only ${summary.totalCruised} modules cruised`);
});
