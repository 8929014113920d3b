// fetchWithRetry reads its init as fetch reads a RequestInit: member by member, by name, so
// an init whose members are getters on a prototype (a Request passed as init, a class
// instance) sends its method, headers, body and signal, once read, on every attempt. A body
// that arrives that way follows the one send decision as any other: a Request's body is a
// stream, so such a request goes out once, whatever the server answers (a 503, a
// Retry-After, a deferral) and whatever the options allow. A member that cannot be read
// rejects with the package's TypeError naming init. Against a real local HTTP server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { listen } from "./server.mjs";
import { fetchWithRetry, RetryError } from "../../pkg/dist/esm/retry.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";

// ---- The server: request n of an id gets `answer`'s n-th reply; every request is logged ----
const ANSWERS = {
  200: () => ({ status: 200 }),
  "503 → 200": (n) => (n === 1 ? { status: 503 } : { status: 200 }),
  "503 + Retry-After: 0 → 200": (n) => (n === 1 ? { status: 503, headers: { "retry-after": "0" } } : { status: 200 }),
  '429 + RateLimit "x";r=0;t=0 → 200': (n) => (n === 1 ? { status: 429, headers: { ratelimit: '"x";r=0;t=0' } } : { status: 200 }),
  "503 forever": () => ({ status: 503 }),
};
let server;
let base;
const log = new Map();
before(async () => {
  server = await listen((req, res) => {
    const url = new URL(req.url, "http://x");
    const id = url.searchParams.get("id");
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const hits = log.get(id) ?? [];
      hits.push({ method: req.method, body: Buffer.concat(chunks).toString(), type: req.headers["content-type"], tag: req.headers["x-tag"] });
      log.set(id, hits);
      const a = ANSWERS[url.searchParams.get("answer") ?? "200"](hits.length);
      res.writeHead(a.status, { "content-type": "text/plain", ...a.headers });
      res.end(`${a.status} #${hits.length}`);
    });
  });
  base = server.url;
});
after(() => server.close());
let ids = 0;
/** A fresh URL for `answer`, and the log of what the server saw there. */
function endpoint(answer = "200") {
  const id = String(++ids);
  return { url: `${base}/?id=${id}&answer=${encodeURIComponent(answer)}`, hits: () => log.get(id) ?? [] };
}
const enc = (s) => new TextEncoder().encode(s);
const stream = (text) => new ReadableStream({ start(c) { c.enqueue(enc(text)); c.close(); } });
/** 4 attempts, 1 ms waits. */
const tiny = () => ({ policy: Backoff.fixed(1).maxAttempts(4) });

/** An init whose members are getters on its class's prototype, each counting its reads in `reads`. */
function classInit(members) {
  const reads = {};
  class Init {}
  for (const [k, v] of Object.entries(members)) {
    reads[k] = 0;
    Object.defineProperty(Init.prototype, k, { get: () => (reads[k]++, typeof v === "function" ? v() : v) });
  }
  return { init: new Init(), reads };
}

test("a Request passed as init sends what fetch(url, request) sends: its method, headers and body", async () => {
  const make = (url) => new Request(url, { method: "POST", body: "order", headers: { "x-tag": "a1" } });
  const plain = endpoint();
  const ours = endpoint();
  await (await fetch(plain.url, make(plain.url))).text();
  const res = await fetchWithRetry(ours.url, make(ours.url));
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "200 #1");
  assert.deepEqual(plain.hits(), [{ method: "POST", body: "order", type: "text/plain;charset=UTF-8", tag: "a1" }]);
  assert.deepEqual(ours.hits(), plain.hits());
});

test("a Request as input, and as init, and fetch itself send the same request (the input form unchanged)", async () => {
  const make = (url) => new Request(url, { method: "PUT", body: "same", headers: { "x-tag": "b2" } });
  const asInput = endpoint();
  const asInit = endpoint();
  await (await fetchWithRetry(make(asInput.url))).text();
  await (await fetchWithRetry(asInit.url, make(asInit.url))).text();
  const want = [{ method: "PUT", body: "same", type: "text/plain;charset=UTF-8", tag: "b2" }];
  assert.deepEqual(asInput.hits(), want);
  assert.deepEqual(asInit.hits(), want);
});

test("a class instance with prototype getters: every member is read once and sent on every attempt", async () => {
  const e = endpoint("503 → 200");
  const { init, reads } = classInit({ method: "PUT", body: "text-data", headers: { "x-tag": "c3" } });
  const res = await fetchWithRetry(e.url, init, tiny());
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "200 #2");
  const sent = { method: "PUT", body: "text-data", type: "text/plain;charset=UTF-8", tag: "c3" };
  assert.deepEqual(e.hits(), [sent, sent]);
  assert.deepEqual(reads, { method: 1, body: 1, headers: 1 });
});

test("a class instance's text body is deferred and sent again whole after a Retry-After, as a plain init's", async () => {
  for (const answer of ["503 + Retry-After: 0 → 200", '429 + RateLimit "x";r=0;t=0 → 200']) {
    const e = endpoint(answer);
    const deferrals = [];
    const { init } = classInit({ method: "DELETE", body: "again" });
    const res = await fetchWithRetry(e.url, init, { ...tiny(), onRetry: (ev) => deferrals.push(ev.deferral) });
    assert.equal(res.status, 200, answer);
    assert.deepEqual(e.hits().map((h) => [h.method, h.body]), [["DELETE", "again"], ["DELETE", "again"]], answer);
    assert.deepEqual(deferrals, [true], answer);
  }
});

// ---- The send decision, for bodies that arrive through an init read by name ----
const INITS = {
  "a Request (POST, ReadableStream body) as init": (url) => new Request(url, { method: "POST", body: stream("stream-data"), duplex: "half" }),
  "a Request (PUT, text body: a Request's body is a stream) as init": (url) => new Request(url, { method: "PUT", body: "stream-data" }),
  "a class instance (POST, ReadableStream body getter)": () => classInit({ method: "POST", body: () => stream("stream-data"), duplex: "half" }).init,
  "a class instance (PUT, ReadableStream body getter)": () => classInit({ method: "PUT", body: () => stream("stream-data"), duplex: "half" }).init,
};
const OPTIONS = {
  default: () => tiny(),
  "retryNonIdempotent: true": () => ({ ...tiny(), retryNonIdempotent: true }),
  "maxDeferrals: 0": () => ({ ...tiny(), retryNonIdempotent: true, maxDeferrals: 0 }),
  // No limit but a 2 s deadline (a build that sent again would stop there, not run for ever).
  "maxDeferrals: Infinity, retries: Infinity": () => ({ policy: 1, retries: Infinity, retryNonIdempotent: true, maxDeferrals: Infinity, deadline: { afterMs: 2000 } }),
};
const ONCE_ANSWERS = ["503 → 200", "503 + Retry-After: 0 → 200", '429 + RateLimit "x";r=0;t=0 → 200', "503 forever"];

for (const [label, make] of Object.entries(INITS)) {
  test(`${label}: goes out once, whole, after a 503, a Retry-After or a deferral, under every option set`, async () => {
    const wrong = [];
    for (const answer of ONCE_ANSWERS) {
      for (const [setName, options] of Object.entries(OPTIONS)) {
        const e = endpoint(answer);
        const init = make(e.url);
        let retries = 0;
        const res = await fetchWithRetry(e.url, init, { ...options(), onRetry: () => { retries++; } });
        const status = ANSWERS[answer](1).status;
        const text = await res.text();
        const hits = e.hits();
        const where = `[${answer} | ${setName}]`;
        if (res.status !== status || text !== `${status} #1`) wrong.push(`${where} caller got ${res.status} "${text}"`);
        if (hits.length !== 1) wrong.push(`${where} server saw ${hits.length} requests`);
        if (hits[0]?.body !== "stream-data") wrong.push(`${where} body ${JSON.stringify(hits[0]?.body)}`);
        if (retries !== 0) wrong.push(`${where} onRetry ran ${retries} times`);
      }
    }
    assert.deepEqual(wrong, []);
  });
}

test("a Request as init that fails on the network is not sent again: RetryError attempts 1, fetch's error as cause", async () => {
  const e = await fetchWithRetry("http://127.0.0.1:1/", new Request("http://127.0.0.1:1/", { method: "PUT", body: "x" }), { ...tiny(), retryNonIdempotent: true })
    .then(() => undefined, (x) => x);
  assert.ok(e instanceof RetryError, String(e));
  assert.equal(e.reason, "attempts");
  assert.equal(e.attempts, 1);
  assert.ok(e.cause instanceof TypeError);
  assert.equal(e.cause.message, "fetch failed");
});

test("a Request as init with a GET and no body is retried as a plain GET", async () => {
  const e = endpoint("503 → 200");
  const res = await fetchWithRetry(e.url, new Request(e.url, { headers: { "x-tag": "g" } }), tiny());
  assert.equal(res.status, 200);
  assert.deepEqual(e.hits().map((h) => [h.method, h.body, h.tag]), [["GET", "", "g"], ["GET", "", "g"]]);
});

test("the signal of a Request as init stops the call: RetryError aborted, its reason as cause", async () => {
  const e = endpoint("503 forever");
  const controller = new AbortController();
  const reason = new Error("caller left");
  const init = new Request(e.url, { signal: controller.signal });
  const err = await fetchWithRetry(e.url, init, { policy: Backoff.fixed(60_000).maxAttempts(4), onRetry: () => controller.abort(reason) })
    .then(() => undefined, (x) => x);
  assert.ok(err instanceof RetryError, String(err));
  assert.equal(err.reason, "aborted");
  assert.equal(err.cause, reason);
  assert.equal(e.hits().length, 1);
});

test("an init member that cannot be read rejects (never throws) with the TypeError naming init, nothing sent", async () => {
  const e = endpoint();
  const failure = new Error("body getter");
  class Broken { get method() { return "POST"; } get body() { throw failure; } }
  const trap = new Error("get trap");
  const proxy = new Proxy({}, { get: (t, k) => { if (k === "headers") throw trap; return Reflect.get(t, k); } });
  for (const [init, cause] of [[new Broken(), failure], [proxy, trap]]) {
    let p;
    assert.doesNotThrow(() => { p = fetchWithRetry(e.url, init, tiny()); });
    const err = await p.then(() => undefined, (x) => x);
    assert.ok(err instanceof TypeError && !(err instanceof RetryError), String(err));
    assert.equal(err.message, "init must be an object that can be read; received an object");
    assert.equal(err.cause, cause);
  }
  assert.equal(e.hits().length, 0);
});

test("a custom fetch gets a plain init: the members read by name, extra own keys as given, on every attempt", async (t) => {
  const seen = [];
  const real = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    seen.push({ proto: Object.getPrototypeOf(init) === Object.prototype, init });
    return new Response("busy", { status: seen.length === 1 ? 503 : 200 });
  };
  t.after(() => { globalThis.fetch = real; });
  const dispatcher = { name: "pool" };
  const { init, reads } = classInit({ method: "PUT", body: "b", dispatcher });
  init.custom = "kept";
  const res = await fetchWithRetry("http://127.0.0.1:9/x", init, tiny());
  assert.equal(res.status, 200);
  assert.equal(seen.length, 2);
  for (const s of seen) {
    assert.equal(s.proto, true);
    assert.deepEqual(Object.keys(s.init).sort(), ["body", "custom", "dispatcher", "method"]);
    assert.equal(s.init.method, "PUT");
    assert.equal(s.init.body, "b");
    assert.equal(s.init.dispatcher, dispatcher);
    assert.equal(s.init.custom, "kept");
  }
  assert.deepEqual(reads, { method: 1, body: 1, dispatcher: 1 });
  // A plain init's own keys reach the custom fetch as they were given, no member added.
  seen.length = 0;
  await fetchWithRetry("http://127.0.0.1:9/x", { method: "PUT", body: "b", extra: 1 }, tiny());
  assert.deepEqual(Object.keys(seen[0].init), ["method", "body", "extra"]);
});
