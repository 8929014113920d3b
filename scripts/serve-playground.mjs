#!/usr/bin/env node
// A tiny static file server for the playground (examples/playground/): it serves the
// repository root, so the page can import the built browser bundle at
// ../../pkg/dist/esm/index.js. No dependencies (node:http only).
//
//   npm run playground              # http://127.0.0.1:8080/examples/playground/
//   PORT=0 npm run playground       # any free port
//   node scripts/serve-playground.mjs 9000
import { createServer } from "node:http";
import { existsSync, statSync, createReadStream } from "node:fs";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file lives in scripts/). */
export const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));

/** Content types by extension; anything else is served as application/octet-stream. */
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".wasm": "application/wasm",
  ".md": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

/**
 * A static file server rooted at `root` (GET and HEAD only; a directory serves its
 * index.html; paths escaping `root` are refused with 403; missing files 404).
 * Responses carry `Cache-Control: no-store` so a rebuilt pkg/ is picked up on reload.
 * @param {string} [root] directory to serve, default the repository root.
 * @returns {import("node:http").Server} not yet listening.
 */
export function createStaticServer(root = ROOT) {
  const base = resolve(root);
  return createServer((req, res) => {
    const send = (status, text) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : text);
    };
    if (req.method !== "GET" && req.method !== "HEAD") return send(405, "method not allowed\n");
    let path;
    try {
      path = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    } catch {
      return send(400, "bad request\n");
    }
    if (path.includes("\0")) return send(400, "bad request\n");
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) return send(403, "forbidden\n");
    if (existsSync(file) && statSync(file).isDirectory()) {
      if (!path.endsWith("/")) {
        res.writeHead(301, { location: path + "/" });
        return res.end();
      }
      file = join(file, "index.html");
    }
    if (!existsSync(file) || !statSync(file).isFile()) return send(404, `not found: ${path}\n`);
    res.writeHead(200, {
      "content-type": TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      "content-length": statSync(file).size,
      "cache-control": "no-store",
    });
    if (req.method === "HEAD") return res.end();
    createReadStream(file).pipe(res);
  });
}

/**
 * Serves the repository root on 127.0.0.1 and resolves with the playground's URL.
 * @param {number} [port] 0 picks a free port.
 * @returns {Promise<{ server: import("node:http").Server, url: string }>}
 */
export function servePlayground(port = 8080) {
  const server = createStaticServer();
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => {
      const { port: actual } = /** @type {import("node:net").AddressInfo} */ (server.address());
      ok({ server, url: `http://127.0.0.1:${actual}/examples/playground/` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const raw = process.argv[2] ?? process.env.PORT ?? "8080";
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve-playground: the port must be an integer from 0 to 65535; received ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  if (!existsSync(join(ROOT, "pkg", "dist", "esm", "index.js"))) {
    console.error("serve-playground: pkg/dist/esm/index.js is missing; run `npm run build` first.");
    process.exit(1);
  }
  servePlayground(port).then(
    ({ url }) => console.log(`backoff-wasm playground: ${url}\n(serving ${ROOT}; Ctrl-C to stop)`),
    (e) => {
      console.error(`serve-playground: cannot listen on 127.0.0.1:${port}: ${e.message}`);
      process.exit(1);
    },
  );
}
