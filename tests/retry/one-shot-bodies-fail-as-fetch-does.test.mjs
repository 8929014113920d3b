// fetch's own argument errors about a one-shot body (a stream without `duplex: "half"`, a
// body on a GET) come back from fetchWithRetry as they are, as a plain fetch gives them:
// nothing is sent and the caller's body is neither locked nor read.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { listen } from "./server.mjs";
import { Readable } from "node:stream";
import { fetchWithRetry, RetryError } from "../../pkg/dist/esm/retry.js";

let server;
let base;
const seen = [];
before(async () => {
  server = await listen((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method, body: Buffer.concat(chunks).toString() });
      res.writeHead(200).end("ok");
    });
  });
  base = server.url;
});
after(() => server.close());

const bytes = (text) => new TextEncoder().encode(text);
/** A one-shot body of each kind, with what tells whether it was touched and what it still holds. */
const KINDS = {
  ReadableStream: () => {
    const body = new ReadableStream({ start(c) { c.enqueue(bytes("stream-data")); c.close(); } });
    return { body, untouched: () => !body.locked, rest: async () => new Response(body).text() };
  },
  "async iterable": () => {
    let pulled = 0;
    const body = { async *[Symbol.asyncIterator]() { pulled++; yield bytes("iter-data"); } };
    return { body, untouched: () => pulled === 0, rest: async () => { let s = ""; for await (const c of body) s += new TextDecoder().decode(c); return s; } };
  },
  "Node Readable": () => {
    const body = Readable.from([Buffer.from("readable-data")]);
    return { body, untouched: () => !body.readableDidRead && body.readableFlowing === null, rest: async () => { let s = ""; for await (const c of body) s += c; return s; } };
  },
};

async function errorOf(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  return undefined;
}

for (const [kind, make] of Object.entries(KINDS)) {
  for (const method of ["PUT", "POST", "GET"]) {
    test(`${method} with ${kind === "async iterable" ? "an" : "a"} ${kind} body and no duplex: fetch's own TypeError as a plain fetch gives it, nothing sent, the body untouched`, async () => {
      const plain = await errorOf(fetch(`${base}/plain`, { method, body: make().body }));
      assert.ok(plain instanceof TypeError, "a plain fetch rejects");
      const before = seen.length;
      const b = make();
      const e = await errorOf(fetchWithRetry(`${base}/x`, { method, body: b.body }, { retries: 2, policy: 1 }));
      assert.ok(!(e instanceof RetryError), `not a RetryError: ${e}`);
      assert.ok(e instanceof TypeError);
      assert.equal(e.message, plain.message);
      assert.equal(seen.length, before, "nothing sent");
      assert.ok(b.untouched(), "the caller's body is neither locked nor read");
      assert.equal(await b.rest(), { ReadableStream: "stream-data", "async iterable": "iter-data", "Node Readable": "readable-data" }[kind]);
    });
  }

  test(`PUT with ${kind === "async iterable" ? "an" : "a"} ${kind} body and duplex "half": sent once, whole`, async () => {
    const before = seen.length;
    const res = await fetchWithRetry(`${base}/x`, { method: "PUT", body: make().body, duplex: "half" });
    assert.equal(res.status, 200);
    assert.deepEqual(seen.slice(before), [{ method: "PUT", body: { ReadableStream: "stream-data", "async iterable": "iter-data", "Node Readable": "readable-data" }[kind] }]);
  });
}

test("a Request input built with a stream body and duplex needs no duplex in init: sent once, whole", async () => {
  const before = seen.length;
  const request = new Request(`${base}/x`, { method: "PUT", body: KINDS.ReadableStream().body, duplex: "half" });
  assert.equal((await fetchWithRetry(request)).status, 200);
  assert.equal((await fetchWithRetry(new Request(`${base}/x`, { method: "PUT", body: KINDS.ReadableStream().body, duplex: "half" }), { headers: { "x-a": "1" } })).status, 200);
  assert.deepEqual(seen.slice(before), [{ method: "PUT", body: "stream-data" }, { method: "PUT", body: "stream-data" }]);
});
