// Contract section 7: fetchWithRetry retries network errors and retryable statuses.
// A rejection that fetch gives for its own arguments (an invalid URL, method or
// header value, a body a GET cannot have) is not a
// network error: every attempt fails the same way, so it rejects at once with
// fetch's own error — no retry, no wait, no RetryError — as a plain fetch does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fetchWithRetry, RetryError } from "../../pkg/dist/esm/retry.js";
import { listen } from "./server.mjs";

test("fetch's own argument errors reject at once with fetch's error, not retried", async (t) => {
  let hits = 0;
  const server = await listen((req, res) => {
    hits++;
    res.writeHead(503).end();
  });
  t.after(() => server.close());
  const url = `${server.url}/`;
  const cases = [
    ["an invalid URL", "not a url", undefined, TypeError],
    ["an unclosed IPv6 URL", "http://[::1", undefined, TypeError],
    ["an invalid method", url, { method: "GE T" }, TypeError],
    ["a header value outside Latin-1", url, { headers: { "x-a": "\u0100" } }, TypeError],
    ["a GET with a body", url, { body: "x" }, TypeError],
  ];
  for (const [label, input, init, cls] of cases) {
    let retries = 0;
    const plain = await fetch(input, init).then(() => undefined, (e) => e);
    assert.ok(plain instanceof cls, `${label}: plain fetch rejects`);
    const e = await fetchWithRetry(input, init, { policy: 1, retries: 3, onRetry: () => { retries++; } }).then(() => undefined, (x) => x);
    assert.ok(!(e instanceof RetryError), `${label}: not a RetryError (${e?.message})`);
    assert.ok(e instanceof cls, `${label}: ${e?.constructor?.name}`);
    assert.equal(e.message, plain.message, label);
    assert.equal(retries, 0, `${label}: no retry`);
  }
  // An init that cannot be read is this package's rule (as for every function of ours): the
  // TypeError naming init, the getter's error as cause, read once, no attempt made.
  let reads = 0;
  const counted = Object.defineProperty({}, "headers", { enumerable: true, get() { reads++; throw new Error("headers getter"); } });
  const e = await fetchWithRetry(url, counted, { policy: 1, retries: 3 }).then(() => undefined, (x) => x);
  assert.ok(e instanceof TypeError && !(e instanceof RetryError), String(e));
  assert.match(e.message, /^init must be an object that can be read; received /);
  assert.equal(e.cause?.message, "headers getter");
  assert.equal(reads, 1);
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const r = await fetchWithRetry(url, revoked.proxy, { policy: 1 }).then(() => undefined, (x) => x);
  assert.ok(r instanceof TypeError && r.cause instanceof TypeError && /^init must be /.test(r.message), String(r));
  assert.equal(hits, 0, "no request reached the server");
  // A real network error is still retried.
  let retries = 0;
  const down = await fetchWithRetry("http://127.0.0.1:1/", undefined, { policy: 1, retries: 2, onRetry: () => { retries++; } }).then(() => undefined, (x) => x);
  assert.ok(down instanceof RetryError && down.reason === "attempts", down?.message);
  assert.equal(retries, 2);
});

test("elapsedMs counts from the call, the argument check included (Node builds its first Request slowly)", async (t) => {
  // Building a process's first Request takes a while, and elapsedMs counts it. A clock that
  // the Request constructor advances by 500 ms.
  let clock = 1_000_000;
  t.mock.method(Date, "now", () => clock);
  const Real = globalThis.Request;
  globalThis.Request = class extends Real {
    constructor(...args) {
      super(...args);
      clock += 500;
    }
  };
  t.after(() => { globalThis.Request = Real; });
  const server = await listen((req, res) => res.writeHead(503).end());
  t.after(() => server.close());
  const e = await fetchWithRetry(`${server.url}/`, undefined, { policy: 0, retries: 0 })
    .then((r) => r.status, (e) => e);
  // The retryable status is handed back as the Response; ask again with a network error instead.
  assert.equal(e, 503);
  const err = await fetchWithRetry("http://127.0.0.1:9/", undefined, { policy: 0, retries: 0 }).catch((x) => x);
  assert.ok(err instanceof RetryError, String(err));
  assert.equal(err.reason, "attempts");
  assert.equal(err.elapsedMs, 500);
});

test("fetchWithRetry names what a policy may be (no p-retry options there)", async () => {
  const e = await fetchWithRetry("http://127.0.0.1:9/", {}, { policy: true }).then(() => undefined, (x) => x);
  assert.ok(e instanceof TypeError);
  assert.equal(e.message, "policy must be a Backoff, a duration (ms or duration text) or createBackoff options; received true");
});
