// Shared machinery of the consumer tests (tests/consumers/*.test.mjs): the
// package is packed ONCE per content of pkg/ (`npm pack ./pkg`) and installed
// from that tarball into scratch consumer projects under tests/.scratch/,
// exactly as a user gets it. A project is reinstalled only when its
// package.json changes, and its package.json names the tarball by the hash of
// pkg/, so a rebuild that changes nothing reuses everything. Projects no test used
// in a run are removed at its end (scripts/test.sh).
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import {
  existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync,
} from "node:fs";
import { dirname, extname, join, normalize, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDir } from "../scratch-dir.mjs";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Where scratch projects (see scratchDir: one per TEST_SCRATCH_TAG) and tarballs live (gitignored). */
export const SCRATCH = join(ROOT, "tests", ".scratch");
const PKG = join(ROOT, "pkg");

/** Every file under `dir` (relative paths, sorted, `/`-separated). */
function listFiles(dir, base = dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(p, base));
    else out.push(relative(base, p).split(sep).join("/"));
  }
  return out.sort();
}

/** sha256 (16 hex digits) of pkg/'s file names, modes and contents. */
function hashPkg() {
  if (!existsSync(join(PKG, "package.json"))) throw new Error("pkg/ is not built: run `npm run build` first");
  const h = createHash("sha256");
  for (const f of listFiles(PKG)) {
    const p = join(PKG, f);
    h.update(`${f}\0${statSync(p).mode & 0o111 ? "x" : "-"}\0`);
    h.update(readFileSync(p));
    h.update("\0");
  }
  return h.digest("hex").slice(0, 16);
}

/**
 * Runs a command and returns its result; throws with the command's output when
 * it exits non-zero (or cannot start).
 * @param {string} cmd @param {string[]} args @param {import("node:child_process").SpawnSyncOptions} [options]
 */
export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20, ...options });
  if (r.error || r.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(" ")} (in ${options.cwd ?? process.cwd()}) failed: ` +
        `${r.error ?? `exit ${r.status}`}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`,
    );
  }
  return r;
}

let packed;

/** Whether `entry` of tests/.scratch/pack is the `.tmp-<pid>-<time>` folder of a live process other than this one. */
function packingElsewhere(entry) {
  const pid = Number(/^\.tmp-(\d+)-/.exec(entry)?.[1]);
  if (!pid || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/**
 * The tarball of the current pkg/: `{ file, hash, name, version, size, unpackedSize, entryCount }`
 * (`size` is the .tgz size in bytes, as `npm pack` reports it). Packed at most
 * once per content of pkg/, shared by every test file and every run.
 */
export function tarball() {
  if (packed) return packed;
  const hash = hashPkg();
  const dir = join(SCRATCH, "pack", hash);
  const metaFile = join(dir, "meta.json");
  if (!existsSync(metaFile)) {
    const tmp = join(SCRATCH, "pack", `.tmp-${process.pid}-${Date.now()}`);
    mkdirSync(tmp, { recursive: true });
    const r = run("npm", ["pack", PKG, "--json", "--pack-destination", tmp], { cwd: ROOT });
    const [info] = JSON.parse(r.stdout);
    writeFileSync(join(tmp, "meta.json"), JSON.stringify({
      filename: info.filename, name: info.name, version: info.version,
      size: info.size, unpackedSize: info.unpackedSize, entryCount: info.entryCount,
    }, null, 2));
    try {
      renameSync(tmp, dir);
      // Older tarballs are stale now; projects naming them are reinstalled. A folder another
      // process is still packing into (another Node running the tests at the same time) stays.
      for (const old of readdirSync(join(SCRATCH, "pack"))) {
        if (old !== hash && !packingElsewhere(old)) rmSync(join(SCRATCH, "pack", old), { recursive: true, force: true });
      }
    } catch {
      rmSync(tmp, { recursive: true, force: true }); // another process packed the same content first
    }
  }
  const meta = JSON.parse(readFileSync(metaFile, "utf8"));
  packed = { ...meta, hash, file: join(dir, meta.filename) };
  return packed;
}

/**
 * A scratch consumer project `tests/.scratch/<name>` (`<name>-<tag>` under TEST_SCRATCH_TAG) with `backoff-wasm`
 * installed from the tarball plus the given pinned dependencies. `npm install`
 * runs only when the project's package.json changed (new tarball or new
 * dependencies). `files` (relative path → text) are (re)written every time.
 * @returns {{ dir: string, installed: boolean }} `installed`: whether npm install ran now.
 */
export function project(name, { dependencies = {}, type = "module", files = {} } = {}) {
  const tgz = tarball();
  const dir = scratchDir(name);
  mkdirSync(dir, { recursive: true });
  const manifest = JSON.stringify({
    name: `consumer-${name}`,
    private: true,
    type,
    dependencies: { "backoff-wasm": `file:${relative(dir, tgz.file).split(sep).join("/")}`, ...dependencies },
  }, null, 2) + "\n";
  const manifestFile = join(dir, "package.json");
  const ready = join(dir, "node_modules", ".consumer-installed");
  let installed = false;
  if (!existsSync(ready) || !existsSync(manifestFile) || readFileSync(manifestFile, "utf8") !== manifest
      || readFileSync(ready, "utf8") !== manifest) {
    writeFileSync(manifestFile, manifest);
    rmSync(join(dir, "node_modules", "backoff-wasm"), { recursive: true, force: true });
    run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir });
    writeFileSync(ready, manifest);
    installed = true;
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  // Marks the project as used by this run: scripts/test.sh removes projects that no
  // test asked for (a renamed or deleted test leaves none behind).
  writeFileSync(join(dir, ".used"), "");
  return { dir, installed };
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".css": "text/css",
};

/**
 * Serves the files under `root` on 127.0.0.1 (a random free port) with
 * node:http. `close()` stops it.
 * @returns {Promise<{ url: string, close: () => Promise<void>, requests: string[] }>}
 */
export async function serveStatic(root) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    requests.push(path);
    const file = normalize(join(root, path.endsWith("/") ? `${path}index.html` : path));
    if (!file.startsWith(normalize(root)) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** Chromium's launch options for this machine (never downloads a browser). */
export const CHROMIUM = {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
  ],
};

/**
 * Opens each URL in one headless Chromium and returns what the page put in
 * `window.__probe` (waits for `window.__done`). Page errors and console
 * errors are returned too, so a failure says why.
 * @param {string[]} urls
 * @returns {Promise<Array<{ url: string, result: unknown, errors: string[] }>>}
 */
export async function inChromium(urls) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch(CHROMIUM);
  try {
    const out = [];
    for (const url of urls) {
      const page = await browser.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
      page.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
      page.on("requestfailed", (r) => errors.push(`requestfailed: ${r.url()}`));
      await page.goto(url);
      try {
        await page.waitForFunction(() => window.__done === true, null, { timeout: 20000 });
      } catch (e) {
        throw new Error(`${url} never finished: ${e.message}\n${errors.join("\n")}`);
      }
      const result = await page.evaluate(() => window.__probe);
      out.push({ url, result, errors });
      await page.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}
