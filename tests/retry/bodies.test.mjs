// One-shot bodies go out once (that request is not retried), re-readable
// bodies go out whole on every attempt; a Request's own
// method and body count. A real local HTTP server answers 503 to the first
// request of each id and 200 after, and records the bytes of every attempt.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { listen } from "./server.mjs";
import { Readable } from "node:stream";
import { fetchWithRetry } from "../../pkg/dist/esm/retry.js";

let server;
let base;
const log = new Map(); // id → [{ method, bytes }]
before(async () => {
  server = await listen((req, res) => {
    const id = new URL(req.url, "http://x").searchParams.get("id");
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const hits = log.get(id) ?? [];
      hits.push({ method: req.method, bytes: Buffer.concat(chunks).toString("latin1") });
      log.set(id, hits);
      res.writeHead(hits.length === 1 ? 503 : 200, { "content-type": "text/plain" });
      res.end(hits.length === 1 ? "busy" : "ok");
    });
  });
  base = server.url;
});
after(() => server.close());

const opts = { policy: 1, retries: 3 };
let n = 0;
const url = () => `${base}/?id=${++n}`;
const idOf = (u) => new URL(u).searchParams.get("id");

const rereadable = [
  ["string", () => "hello body", "hello body"],
  ["ArrayBuffer", () => new TextEncoder().encode("bytes!").buffer, "bytes!"],
  ["Uint8Array", () => new TextEncoder().encode("view"), "view"],
  ["DataView", () => new DataView(new TextEncoder().encode("dv").buffer), "dv"],
  ["Blob", () => new Blob(["blob ", "parts"]), "blob parts"],
  ["URLSearchParams", () => new URLSearchParams({ a: "1", b: "two" }), "a=1&b=two"],
];

for (const [kind, make, expected] of rereadable) {
  test(`re-readable body (${kind}) goes out whole on every attempt`, async () => {
    const u = url();
    const res = await fetchWithRetry(u, { method: "PUT", body: make() }, opts);
    assert.equal(res.status, 200);
    assert.deepEqual(log.get(idOf(u)), [{ method: "PUT", bytes: expected }, { method: "PUT", bytes: expected }]);
  });
}

test("re-readable body (FormData) goes out whole on every attempt", async () => {
  const u = url();
  const form = new FormData();
  form.set("field", "value");
  const res = await fetchWithRetry(u, { method: "PUT", body: form }, opts);
  assert.equal(res.status, 200);
  const hits = log.get(idOf(u));
  assert.equal(hits.length, 2);
  for (const h of hits) assert.match(h.bytes, /name="field"\r\n\r\nvalue\r\n/);
});

const oneShot = [
  ["ReadableStream", () => new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("str")); c.enqueue(new TextEncoder().encode("eam")); c.close(); } })],
  ["async iterable", () => (async function* () { yield new TextEncoder().encode("async "); yield new TextEncoder().encode("gen"); })()],
  ["Node Readable", () => Readable.from([Buffer.from("node "), Buffer.from("readable")])],
];
const oneShotBytes = { ReadableStream: "stream", "async iterable": "async gen", "Node Readable": "node readable" };

for (const [kind, make] of oneShot) {
  test(`one-shot body (${kind}) goes out once; the 503 is what the caller gets`, async () => {
    const u = url();
    const events = [];
    const res = await fetchWithRetry(u, { method: "PUT", duplex: "half", body: make() }, { ...opts, onRetry: (e) => events.push(e) });
    assert.equal(res.status, 503);
    assert.equal(await res.text(), "busy");
    assert.deepEqual(log.get(idOf(u)), [{ method: "PUT", bytes: oneShotBytes[kind] }]);
    assert.deepEqual(events, []);
  });
}

test("a POST Request without init: one request on a 503", async () => {
  const u = url();
  const res = await fetchWithRetry(new Request(u, { method: "POST", body: "order" }), undefined, { policy: 1, retries: 3, retryNonIdempotent: false });
  assert.equal(res.status, 503);
  assert.deepEqual(log.get(idOf(u)), [{ method: "POST", bytes: "order" }]);
  const bare = url();
  assert.equal((await fetchWithRetry(new Request(bare, { method: "POST" }), undefined, opts)).status, 503);
  assert.equal(log.get(idOf(bare)).length, 1);
});

test("a Request whose method init overrides follows init", async () => {
  const u = url();
  const res = await fetchWithRetry(new Request(u, { method: "POST" }), { method: "GET" }, opts);
  assert.equal(res.status, 200);
  assert.deepEqual(log.get(idOf(u)).map((h) => h.method), ["GET", "GET"]);
  const v = url();
  assert.equal((await fetchWithRetry(new Request(v), { method: "POST" }, opts)).status, 503);
  assert.deepEqual(log.get(idOf(v)).map((h) => h.method), ["POST"]);
  // init's re-readable body replaces the Request's: sent whole on each attempt.
  const w = url();
  assert.equal((await fetchWithRetry(new Request(w, { method: "PUT", body: "old" }), { body: "new" }, opts)).status, 200);
  assert.deepEqual(log.get(idOf(w)), [{ method: "PUT", bytes: "new" }, { method: "PUT", bytes: "new" }]);
});

test("a Request with a stream body is never re-sent, whatever the options", async () => {
  const u = url();
  const body = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("once")); c.close(); } });
  const res = await fetchWithRetry(new Request(u, { method: "PUT", body, duplex: "half" }), undefined, { ...opts, retryNonIdempotent: true });
  assert.equal(res.status, 503);
  assert.deepEqual(log.get(idOf(u)), [{ method: "PUT", bytes: "once" }]);
});
