// Test helper: a real redis-server on a free port of 127.0.0.1 in a temporary directory,
// without persistence, started and stopped by the test that asks for it.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const hasRedis = spawnSync("redis-server", ["--version"]).status === 0;
export const missingRedis = hasRedis
  ? undefined
  : "redis-server is not installed (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis)";

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts redis-server (on `port`, or a free one); resolves once it accepts connections with
 * `{ port, stop(signal?), restart() }`. `stop` resolves when the process has exited.
 */
export async function startRedis(port) {
  port ??= await freePort();
  const dir = mkdtempSync(join(tmpdir(), "budget-redis-"));
  let child;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${log}`)), 10_000);
      child.stdout.on("data", (d) => {
        log += d;
        if (log.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}):\n${log}`));
      });
    });
  };
  const stop = (signal = "SIGTERM") => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });
  await start();
  return {
    port,
    stop,
    restart: start,
    async close() {
      await stop("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
