// `node --import ./tests/hosts/http-fetch.mjs`: a `globalThis.fetch` on node:http, for
// `node --jitless`, where Node's own fetch cannot run (undici parses HTTP/1 with llhttp compiled
// to WebAssembly: the call rejects with "fetch failed", and on Node 20 and 22 its first call also
// throws "WebAssembly is not defined" outside the promise). Request, Response, Headers and web
// streams are plain JavaScript there and work, so this fetch builds them as Node's does: the
// request (input and init read by `new Request`), its body sent once, the response's body a
// web stream of the socket (cancelling it destroys the socket), a network error as
// `TypeError("fetch failed")` with the cause, an aborted signal as its reason. No redirects are
// followed (the tests' servers send none) and only http: URLs are fetched.
import http from "node:http";
import { Readable } from "node:stream";

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

globalThis.fetch = async function fetch(input, init) {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (url.protocol !== "http:") throw new TypeError(`fetch failed: only http: URLs here, received ${url.protocol}`);
  request.signal.throwIfAborted();
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  return new Promise((resolve, reject) => {
    const headers = {};
    for (const [name, value] of request.headers) headers[name] = value;
    const req = http.request(url, { method: request.method, headers, signal: request.signal }, (res) => {
      const out = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
      const empty = NULL_BODY.has(res.statusCode) || request.method === "HEAD";
      if (empty) res.resume();
      resolve(new Response(empty ? null : Readable.toWeb(res), { status: res.statusCode, statusText: res.statusMessage, headers: out }));
    });
    req.on("error", (e) => reject(request.signal.aborted ? request.signal.reason : new TypeError("fetch failed", { cause: e })));
    req.end(body);
  });
};
