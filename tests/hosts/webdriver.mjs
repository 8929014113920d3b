// Firefox and WebKit for the page tests, through their WebDriver servers (W3C WebDriver over
// HTTP on 127.0.0.1, spoken here with fetch): Debian's firefox-esr through geckodriver
// (crates.io, in ~/.cargo/bin), and WebKitGTK's MiniBrowser through Debian's WebKitWebDriver
// (webkit2gtk-driver) on a virtual X display (Xvfb: MiniBrowser has no headless mode).
// scripts/setup.sh --for test installs them. Each browser is started and stopped here.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

const GECKODRIVER = join(process.env.CARGO_HOME ?? join(homedir(), ".cargo"), "bin", "geckodriver");
const MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/**
 * The browsers: each with the files it needs (all must exist), the driver's command for a
 * port, and the capabilities of a new session. Firefox runs headless; `wasm: false` starts
 * it with WebAssembly switched off (its `javascript.options.wasm` preference), as a host that
 * refuses WebAssembly.
 */
export const BROWSERS = {
  firefox: {
    needs: ["/usr/bin/firefox-esr", GECKODRIVER],
    install: "apt-get install firefox-esr; cargo install --locked geckodriver",
    driver: (port) => [GECKODRIVER, ["--port", String(port), "--host", "127.0.0.1"]],
    capabilities: ({ wasm = true } = {}) => ({
      browserName: "firefox",
      "moz:firefoxOptions": {
        binary: "/usr/bin/firefox-esr",
        args: ["-headless"],
        prefs: {
          "javascript.options.wasm": wasm,
          "app.update.enabled": false,
          "browser.shell.checkDefaultBrowser": false,
          "datareporting.policy.dataSubmissionEnabled": false,
          "network.captive-portal-service.enabled": false,
          "network.connectivity-service.enabled": false,
        },
      },
    }),
  },
  webkit: {
    needs: ["/usr/bin/WebKitWebDriver", MINIBROWSER, "/usr/bin/Xvfb"],
    install: "apt-get install webkit2gtk-driver xvfb",
    driver: (port) => ["/usr/bin/WebKitWebDriver", [`--port=${port}`, "--host=127.0.0.1"]],
    display: true,
    capabilities: () => ({
      browserName: "MiniBrowser",
      "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
    }),
  },
};

/** The files `name` needs that are missing (empty when it can run here). */
export function missingFor(name) {
  return BROWSERS[name].needs.filter((f) => !existsSync(f));
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts `command args` with `env`; returns the child and a function that stops it. */
function start(command, args, env) {
  const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => { stderr = (stderr + d).slice(-4000); });
  const stop = () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
  return { child, stop, stderr: () => stderr };
}

/** A WebDriver command: `method path` with `body`; returns `value`, or throws WebDriver's error. */
async function command(base, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const out = await res.json();
  if (!res.ok || out.value?.error) throw new Error(`WebDriver ${method} ${path}: ${out.value?.error}: ${out.value?.message}`);
  return out.value;
}

/**
 * Opens each of `urls` in browser `name` (options for its capabilities) in one session and
 * waits for the page's `window.__done`; returns `{ url, probe }` per page, `probe` being
 * `window.__probe`.
 */
export async function inBrowser(name, urls, options = {}) {
  const b = BROWSERS[name];
  const missing = missingFor(name);
  if (missing.length) throw new Error(`${name}: missing ${missing.join(", ")} (${b.install}; scripts/setup.sh --for test installs them)`);
  const stops = [];
  const env = { ...process.env };
  const home = mkdtempSync(join(tmpdir(), `backoff-wasm-${name}-`));
  env.HOME = home; // the browser's profile, caches and settings stay in a folder of its own
  try {
    if (b.display) {
      const display = 90 + Math.floor(Math.random() * 400);
      const x = start("/usr/bin/Xvfb", [`:${display}`, "-screen", "0", "1280x800x24", "-nolisten", "tcp"], env);
      stops.push(x.stop);
      env.DISPLAY = `:${display}`;
      await sleep(500);
      if (x.child.exitCode !== null) throw new Error(`Xvfb :${display} exited: ${x.stderr()}`);
    }
    const port = await freePort();
    const [cmd, args] = b.driver(port);
    const driver = start(cmd, args, env);
    stops.push(driver.stop);
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        await command(base, "GET", "/status");
        break;
      } catch (e) {
        if (i > 100 || driver.child.exitCode !== null) throw new Error(`${cmd} did not start: ${e.message}\n${driver.stderr()}`);
        await sleep(100);
      }
    }
    const session = await command(base, "POST", "/session", { capabilities: { alwaysMatch: b.capabilities(options) } });
    const s = `/session/${session.sessionId}`;
    try {
      const out = [];
      for (const url of urls) {
        await command(base, "POST", `${s}/url`, { url });
        let probe;
        for (let waited = 0; ; waited += 100) {
          const done = await command(base, "POST", `${s}/execute/sync`, { script: "return window.__done === true ? String(window.__probe) : null;", args: [] });
          if (done !== null) {
            probe = done;
            break;
          }
          if (waited > 60_000) throw new Error(`${name}: ${url} never finished`);
          await sleep(100);
        }
        out.push({ url, probe });
      }
      return out;
    } finally {
      await command(base, "DELETE", s).catch(() => {});
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    rmSync(home, { recursive: true, force: true });
  }
}
