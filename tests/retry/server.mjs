// Local HTTP servers for the retry tests (127.0.0.1, a free port): `listen(handler)`, the one
// way every test here starts one; `sentAttempts(sent, call)`, which numbers the attempts a call
// sends and records them on the client's side; and `startServer()`, scripted failures by path,
// a request log per `id`, and the built browser tree of pkg/ for the page the Chromium test
// loads. Not a test file itself.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join, normalize } from "node:path";

const pkgRoot = fileURLToPath(new URL("../../pkg/", import.meta.url));
const TYPES = { ".js": "text/javascript", ".html": "text/html", ".wasm": "application/wasm" };

/**
 * An HTTP server on a free port of 127.0.0.1 whose requests `handler(req, res)` answers (or
 * holds). Resolves, once it listens, to `{ url, close() }`: `url` is its origin
 * (`http://127.0.0.1:<port>`, no trailing slash); `close()` ends every connection, held
 * requests included, and resolves once the server has stopped.
 */
export async function listen(handler) {
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs `call()` with `globalThis.fetch` (which `fetchWithRetry` reads when it is called)
 * replaced by one that records each request it is given in `sent`, as
 * `{ method, body, key }` (`body`: the `init.body` given, as it is; `key`: the
 * Idempotency-Key header or `undefined`), and sends it with `&attempt=N` added to its URL,
 * N its place in `sent` (from 1). A test server can then hold or answer each attempt by its
 * number, whatever order the requests reach it in, and whether or not an aborted one
 * reached it at all. The input is URL text with a query, or a `Request` whose URL has one.
 * Resolves or rejects as `call()` does; the original `fetch` is back once it has settled.
 */
export async function sentAttempts(sent, call) {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const request = input instanceof Request ? input : undefined;
    sent.push({
      method: String(init?.method ?? request?.method ?? "GET").toUpperCase(),
      body: init?.body,
      key: new Headers(init?.headers ?? request?.headers).get("idempotency-key") ?? undefined,
    });
    const url = `${request ? request.url : input}&attempt=${sent.length}`;
    return original(request ? new Request(url, request) : url, init);
  };
  try {
    return await call();
  } finally {
    globalThis.fetch = original;
  }
}

/** Starts the server; resolves to `{ url, hits(id), close() }`. */
export async function startServer() {
  const log = new Map();
  const { url, close } = await listen(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const cors = { "access-control-allow-origin": "*", "access-control-expose-headers": "Retry-After, RateLimit, RateLimit-Reset, X-RateLimit-Reset" };
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>retry test</title>");
      return;
    }
    if (url.pathname.startsWith("/dist/")) {
      const file = normalize(join(pkgRoot, url.pathname));
      if (!file.startsWith(pkgRoot)) return void res.writeHead(403).end();
      try {
        const body = await readFile(file);
        res.writeHead(200, { "content-type": TYPES[file.slice(file.lastIndexOf("."))] ?? "application/octet-stream" });
        res.end(body);
      } catch {
        res.writeHead(404).end();
      }
      return;
    }
    if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) { // a CORS preflight
      res.writeHead(204, { ...cors, "access-control-allow-methods": "*", "access-control-allow-headers": "*" });
      res.end();
      return;
    }
    const id = url.searchParams.get("id") ?? "";
    const hits = log.get(id) ?? [];
    hits.push({ method: req.method, path: url.pathname });
    log.set(id, hits);
    const n = hits.length;
    const send = (status, headers = {}, body = "") => {
      res.writeHead(status, { ...cors, "content-type": "text/plain", ...headers });
      res.end(body);
    };
    switch (url.pathname) {
      case "/flaky": // 503 + Retry-After: 2, then 429 + an HTTP-date two hours ahead, then 200
        if (n === 1) return send(503, { "retry-after": "2" }, "busy");
        if (n === 2) return send(429, { "retry-after": new Date(Date.now() + 7_200_000).toUTCString() }, "slow down");
        return send(200, {}, "ok");
      case "/deferral": // 429 with RateLimit (r=0, t=1), then 200
        if (n === 1) return send(429, { ratelimit: '"default";r=0;t=1' }, "limited");
        return send(200, {}, "ok");
      case "/status": // always the status asked for
        return send(Number(url.searchParams.get("code")), {}, `status ${url.searchParams.get("code")}`);
      case "/retry-after": // 503 with the Retry-After value asked for
        return send(503, { "retry-after": url.searchParams.get("value") ?? "" }, "busy");
      default:
        return send(404, {}, "no such path");
    }
  });
  return { url, hits: (id) => log.get(id) ?? [], close };
}
