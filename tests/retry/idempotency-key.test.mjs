// idempotencyKey: every attempt of a fetchWithRetry call carries the same Idempotency-Key, and a
// POST or PATCH with a re-readable body may then be sent again; a request whose own headers carry
// the field counts the same; one-shot bodies still go out once. Against a local HTTP server that
// records each request's method, body and key (the send matrix crosses the key with every method,
// body and answer: tests/retry/send-matrix.test.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { listen, sentAttempts } from "./server.mjs";
import { fetchWithRetry, RetryError } from "../../pkg/dist/esm/retry.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";

let server;
let base;
const log = new Map();
before(async () => {
  // /seq?id=…&codes=503,200: request n of an id gets the n-th status (the last one repeats);
  // a status 0 is no answer at all (the request is held until the client gives up on it).
  // With &attempt=n (added by sentAttempts), n is that number, not the order of arrival.
  server = await listen((req, res) => {
    const url = new URL(req.url, "http://x");
    const id = url.searchParams.get("id");
    const codes = (url.searchParams.get("codes") ?? "200").split(",").map(Number);
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const hits = log.get(id) ?? [];
      const attempt = url.searchParams.get("attempt");
      hits.push({ method: req.method, body: Buffer.concat(chunks).toString(), key: req.headers["idempotency-key"], ...(attempt && { attempt: Number(attempt) }) });
      log.set(id, hits);
      const n = attempt ? Number(attempt) : hits.length;
      const status = codes[Math.min(n, codes.length) - 1];
      if (status === 0) return;
      res.writeHead(status, { "content-type": "text/plain" }).end(`${status} #${n}`);
    });
  });
  base = server.url;
});
after(() => server.close());

let ids = 0;
const at = (codes = "503,503,200") => {
  const id = `k${++ids}`;
  return [id, `${base}/seq?id=${id}&codes=${codes}`];
};
const policy = () => ({ policy: Backoff.fixed(1).maxAttempts(4) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("a POST with a string key: every attempt carries that key and the whole body, and the 200 ends it", async () => {
  const [id, url] = at();
  const res = await fetchWithRetry(url, { method: "POST", body: "pay 10" }, { ...policy(), idempotencyKey: "order-42" });
  assert.equal(await res.text(), "200 #3");
  assert.deepEqual(log.get(id), [1, 2, 3].map(() => ({ method: "POST", body: "pay 10", key: "order-42" })));
});

test("idempotencyKey: true makes one random UUID per call, the same on each attempt, another for the next call", async () => {
  const [id1, url1] = at();
  const [id2, url2] = at();
  await fetchWithRetry(url1, { method: "PATCH", body: new URLSearchParams({ a: "1" }) }, { ...policy(), idempotencyKey: true });
  await fetchWithRetry(url2, { method: "POST", body: "x" }, { ...policy(), idempotencyKey: true });
  const [k1, k2] = [log.get(id1), log.get(id2)].map((hits) => {
    assert.equal(hits.length, 3);
    assert.equal(new Set(hits.map((h) => h.key)).size, 1);
    return hits[0].key;
  });
  assert.match(k1, UUID);
  assert.match(k2, UUID);
  assert.notEqual(k1, k2);
  assert.deepEqual(log.get(id1).map((h) => [h.method, h.body]), [1, 2, 3].map(() => ["PATCH", "a=1"]));
});

test("a function key is called once per call with the request (method, URL, headers, a re-readable body) and may be async", async () => {
  const [id, url] = at();
  const seen = [];
  await fetchWithRetry(url, { method: "POST", body: "pay 10", headers: { "x-tenant": "t1" } }, {
    ...policy(),
    idempotencyKey: async (request) => {
      seen.push([request instanceof Request, request.method, request.url, request.headers.get("x-tenant"), await request.text()]);
      return `tenant-t1:${seen.length}`;
    },
  });
  assert.deepEqual(seen, [[true, "POST", url, "t1", "pay 10"]]);
  assert.deepEqual(log.get(id).map((h) => h.key), ["tenant-t1:1", "tenant-t1:1", "tenant-t1:1"]);
});

test("a one-shot body still goes out once with a key (the function sees no body: reading it would use it up)", async () => {
  const [id, url] = at();
  let bodySeen;
  const body = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("stream")); c.close(); } });
  const res = await fetchWithRetry(url, { method: "POST", body, duplex: "half" }, {
    ...policy(),
    idempotencyKey: (request) => { bodySeen = request.body; return "s-1"; },
  });
  assert.equal(res.status, 503);
  assert.equal(await res.text(), "503 #1");
  assert.equal(bodySeen, null);
  assert.deepEqual(log.get(id), [{ method: "POST", body: "stream", key: "s-1" }]);
});

test("a POST whose own init.headers carry Idempotency-Key is sent again, with that key as it is", async () => {
  const [id, url] = at();
  await fetchWithRetry(url, { method: "POST", body: "x", headers: [["Idempotency-Key", "mine-1"]] }, policy());
  assert.deepEqual(log.get(id).map((h) => h.key), ["mine-1", "mine-1", "mine-1"]);
});

test("a Request input carrying Idempotency-Key: sent again when it has no body, once when it has one (a stream)", async () => {
  const [id1, url1] = at();
  await fetchWithRetry(new Request(url1, { method: "POST", headers: { "idempotency-key": "req-1" } }), undefined, policy());
  assert.deepEqual(log.get(id1).map((h) => [h.method, h.key]), [1, 2, 3].map(() => ["POST", "req-1"]));
  const [id2, url2] = at();
  const res = await fetchWithRetry(new Request(url2, { method: "POST", body: "b", headers: { "idempotency-key": "req-2" } }), undefined, policy());
  assert.equal(res.status, 503);
  await res.body?.cancel();
  assert.deepEqual(log.get(id2), [{ method: "POST", body: "b", key: "req-2" }]);
});

test("init.headers replace a Request's own: a key only the Request carried does not go out, and the POST goes once", async () => {
  const [id, url] = at();
  const res = await fetchWithRetry(new Request(url, { method: "POST", headers: { "idempotency-key": "dropped" } }), { headers: { "x-a": "1" } }, policy());
  assert.equal(res.status, 503);
  await res.body?.cancel();
  assert.deepEqual(log.get(id), [{ method: "POST", body: "", key: undefined }]);
});

test("without a key a POST goes out once, as before", async () => {
  const [id, url] = at();
  const res = await fetchWithRetry(url, { method: "POST", body: "x" }, policy());
  assert.equal(res.status, 503);
  await res.body?.cancel();
  assert.equal(log.get(id).length, 1);
});

test("a network error on a keyed POST is retried too; the key goes out on each attempt", async () => {
  const hits = [];
  const flaky = await listen((req, res) => {
    hits.push(req.headers["idempotency-key"]);
    if (hits.length === 1) return void req.socket.destroy();
    req.resume();
    res.writeHead(200).end("ok");
  });
  try {
    const res = await fetchWithRetry(`${flaky.url}/`, { method: "POST", body: "x" }, { ...policy(), idempotencyKey: "net-1" });
    assert.equal(await res.text(), "ok");
    assert.deepEqual(hits, ["net-1", "net-1"]);
  } finally {
    await flaky.close();
  }
});

const isTimeout = (e) => e instanceof DOMException && e.name === "TimeoutError";
// The attempts below are counted on the client's side (sentAttempts): the first is held and
// times out, and may be aborted before it reaches the server. The second is answered at once;
// ANSWERED bounds it (never a measure) and is how long the held first one takes to time out.
const ANSWERED = 2000;

test("attemptTimeout: a keyed POST whose attempts time out is sent again with the same key (a function key asked once; a Request's own key as it is)", async () => {
  const [id1, url1] = at("0,200");
  let asked = 0;
  const sent1 = [];
  const res = await sentAttempts(sent1, () =>
    fetchWithRetry(url1, { method: "POST", body: "pay 10" }, { ...policy(), attemptTimeout: ANSWERED, idempotencyKey: () => `fn-${++asked}` }));
  assert.equal(await res.text(), "200 #2");
  assert.equal(asked, 1);
  assert.deepEqual(sent1, [1, 2].map(() => ({ method: "POST", body: "pay 10", key: "fn-1" })));
  // What went over the wire for the answered attempt: the same body and key.
  assert.deepEqual(log.get(id1).filter((h) => h.attempt === 2), [{ method: "POST", body: "pay 10", key: "fn-1", attempt: 2 }]);
  const [id2, url2] = at("0,200");
  const sent2 = [];
  const res2 = await sentAttempts(sent2, () =>
    fetchWithRetry(new Request(url2, { method: "POST", headers: { "Idempotency-Key": "req-t" } }), undefined, { ...policy(), attemptTimeout: ANSWERED }));
  assert.equal(await res2.text(), "200 #2");
  assert.deepEqual(sent2.map((s) => [s.method, s.key]), [["POST", "req-t"], ["POST", "req-t"]]);
  assert.deepEqual(log.get(id2).filter((h) => h.attempt === 2), [{ method: "POST", body: "", key: "req-t", attempt: 2 }]);
});

test("attemptTimeout: without a key a POST that times out goes out once; RetryError attempts, its cause and only error the TimeoutError", async () => {
  const [, url] = at("0");
  const timeout = 40;
  const sent = [];
  const err = await sentAttempts(sent, () => fetchWithRetry(url, { method: "POST", body: "pay 10" }, { ...policy(), attemptTimeout: timeout }))
    .then(() => assert.fail("resolved"), (e) => e);
  assert.ok(err instanceof RetryError);
  assert.equal(err.reason, "attempts");
  assert.equal(err.attempts, 1);
  assert.ok(isTimeout(err.cause), String(err.cause));
  assert.equal(err.cause.message, `attempt 1 timed out after ${timeout} ms (attemptTimeout)`);
  assert.deepEqual(err.errors, [err.cause]);
  assert.deepEqual(sent, [{ method: "POST", body: "pay 10", key: undefined }]);
});

test("bad idempotencyKey values reject (never throw) with a TypeError naming the option and the value; nothing is sent", async () => {
  const [id, url] = at();
  const expected = "idempotencyKey must be true (a random UUID), a key: text of visible ASCII characters (spaces only between them), " +
    "or a function of the request returning one; received ";
  const returned = "idempotencyKey(request) must be a key: text of visible ASCII characters (spaces only between them), returned by the function; received ";
  const cases = [
    [false, expected + "false"], ["", expected + '""'], [" pad", expected + '" pad"'], ["a\r\nb", expected + '"a\\r\\nb"'],
    ["clé", expected + '"clé"'], [42, expected + "42"], [null, expected + "null"], [{}, expected + "an object"],
    [() => 7, returned + "7"], [async () => "", returned + '""'], [() => undefined, returned + "undefined"],
  ];
  for (const [value, message] of cases) {
    let p;
    assert.doesNotThrow(() => { p = fetchWithRetry(url, { method: "POST", body: "x" }, { idempotencyKey: value }); });
    await assert.rejects(p, (e) => e.constructor === TypeError && e.message === message, String(value));
  }
  const thrown = new Error("no key today");
  await assert.rejects(fetchWithRetry(url, undefined, { idempotencyKey: () => { throw thrown; } }), (e) => e === thrown);
  await assert.rejects(fetchWithRetry(url, { headers: { "Idempotency-Key": "a" } }, { idempotencyKey: "b" }), (e) => e.constructor === TypeError &&
    e.message === 'idempotencyKey must be left out when the request\'s headers carry Idempotency-Key already (that key is sent, and counts the same); received "b"');
  await assert.rejects(fetchWithRetry(url, { idempotencyKey: true }), (e) => e.constructor === TypeError && /^init\.idempotencyKey must be passed in the third argument/.test(e.message));
  assert.equal(log.get(id), undefined);
});

test("RetryError keeps its meaning: a keyed request whose attempts all fail on the network stops with reason attempts", async () => {
  const closed = "http://127.0.0.1:9/";
  await assert.rejects(fetchWithRetry(closed, { method: "POST", body: "x" }, { policy: Backoff.fixed(1).maxAttempts(2), idempotencyKey: "z" }),
    (e) => e instanceof RetryError && e.reason === "attempts" && e.attempts === 2);
});
