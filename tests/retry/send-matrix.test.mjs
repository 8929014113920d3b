// Whether fetchWithRetry sends a request again is one rule, the rule table of the README and docs/guides/fetch.md
// (method × body × input × idempotency key), and it holds for every path that sends again:
// a retry after a failure and a deferral (a 429/503 with a server wait) alike. The matrix
// crosses methods × bodies × server answers × option sets (with and without an idempotency
// key: the option, or the request's own Idempotency-Key field) against a real local
// HTTP server; each cell's expected requests, bytes and outcome are computed from
// the rule table below (encoded once), never copied from a run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { listen } from "./server.mjs";
import { Readable } from "node:stream";
import { fetchWithRetry, createRetryBudget, RetryError } from "../../pkg/dist/esm/retry.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";

// ---- The rule table (README "Which requests fetchWithRetry sends again"; docs/guides/fetch.md) ----
/** Methods sent again without `retryNonIdempotent` (the default of `methods`). */
const IDEMPOTENT = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"];
/** Bodies fetch can send again whole. Every other body is one-shot, and so is any body a Request carries. */
const REREADABLE = new Set(["none", "string", "bytes", "Blob", "FormData", "URLSearchParams"]);
/**
 * May this request go out again? Asked once per call; every path that sends again obeys it.
 * An idempotency key (the option, or the request's own field) makes any method retried.
 */
function mayResend({ method, body, input }, options, model) {
  const methodOk = options?.retryNonIdempotent === true || model.key !== undefined || IDEMPOTENT.includes(method);
  const bodyOk = input === "Request" ? body === "none" : REREADABLE.has(body);
  return methodOk && bodyOk;
}

// ---- Bodies: how each is made (fresh per request) and the bytes the server must see ----
const enc = (s) => new TextEncoder().encode(s);
const BODIES = {
  none: [() => undefined, ""],
  string: [() => "text-data", "text-data"],
  bytes: [() => enc("bytes-data"), "bytes-data"],
  Blob: [() => new Blob(["blob-", "data"]), "blob-data"],
  FormData: [() => { const f = new FormData(); f.set("field", "form-data"); return f; }, /name="field"\r\n\r\nform-data\r\n/],
  URLSearchParams: [() => new URLSearchParams({ a: "1", b: "two" }), "a=1&b=two"],
  ReadableStream: [() => new ReadableStream({ start(c) { c.enqueue(enc("stream-")); c.enqueue(enc("data")); c.close(); } }), "stream-data"],
  "async iterable": [() => (async function* () { yield enc("iter-"); yield enc("data"); })(), "iter-data"],
  "Node Readable": [() => Readable.from([Buffer.from("node-"), Buffer.from("data")]), "node-data"],
};

// ---- Methods: the method and whether it travels in init or in a Request input ----
const METHODS = [
  ["GET", "init"], ["PUT", "init"], ["POST", "init"], ["PATCH", "init"], ["DELETE", "init"], ["POST", "Request"],
];

// ---- Server answers: what request n of a cell gets ----
const PAST_DATE = "Thu, 01 Jan 2026 00:00:00 GMT";
/** `{ status, headers, wait }` (wait: the server wait the answer asks for, ms) or `"reset"`. */
const ANSWERS = {
  "503 → 200": (n) => (n === 1 ? { status: 503 } : { status: 200 }),
  "503 + Retry-After: 0 → 200": (n) => (n === 1 ? { status: 503, headers: { "retry-after": "0" }, wait: 0 } : { status: 200 }),
  "429 + Retry-After (a past date) → 200": (n) => (n === 1 ? { status: 429, headers: { "retry-after": PAST_DATE }, wait: 0 } : { status: 200 }),
  '429 + RateLimit "x";r=0;t=0 → 200': (n) => (n === 1 ? { status: 429, headers: { ratelimit: '"x";r=0;t=0' }, wait: 0 } : { status: 200 }),
  "500 forever": () => ({ status: 500 }),
  "connection reset → 200": (n) => (n === 1 ? "reset" : { status: 200 }),
};
const DEFERRAL_ANSWERS = Object.keys(ANSWERS).filter((a) => ANSWERS[a](1).wait !== undefined);

// ---- Option sets: built fresh per cell; `model` is what the rule table needs to know ----
/** 4 attempts, 1 ms waits: the default policy's bound with tiny waits. */
const TINY = () => Backoff.fixed(1).maxAttempts(4);
const OPTION_SETS = {
  // No options at all: the default policy (seconds of jittered waits), so only with the deferral answers.
  "no options": { only: DEFERRAL_ANSWERS, make: () => [undefined, {}] },
  default: { make: () => [{ policy: TINY() }, {}] },
  "retryNonIdempotent: true": { make: () => [{ policy: TINY(), retryNonIdempotent: true }, {}] },
  "maxDeferrals: 0": { make: () => [{ policy: TINY(), maxDeferrals: 0 }, { maxDeferrals: 0 }] },
  // One retry in the budget (ratio 1: a call deposits exactly one retry; no reserve).
  "a nearly empty budget": { make: () => [{ policy: TINY(), budget: createRetryBudget({ ratio: 1, minPerSecond: 0 }) }, { budgetRetries: 1 }] },
  // A policy wait (5 s) that cannot fit a 2 s deadline: a failure stops; a 0 ms server wait fits.
  "a deadline": { make: () => [{ policy: Backoff.fixed(5000).maxAttempts(4), deadline: { afterMs: 2000 } }, { policyMs: 5000, deadlineMs: 2000 }] },
  // An idempotency key: a random UUID made once per call, on every attempt.
  "idempotencyKey: true": { make: () => [{ policy: TINY(), idempotencyKey: true }, { key: "uuid" }] },
  // The request's own Idempotency-Key field (init.headers, or the Request's headers): sent as it is.
  "an Idempotency-Key field of the request's own": { make: () => [{ policy: TINY() }, { key: "own", header: "order-7" }] },
  // The signal aborts in onRetry, so the wait that follows is cut short.
  "an abort during the wait": {
    make: () => {
      const controller = new AbortController();
      const reason = new Error("stop now");
      return [{ policy: TINY(), signal: controller.signal, onRetry: () => controller.abort(reason) }, { abortReason: reason }];
    },
  },
};

/**
 * The outcome the rule table gives for a cell: the number of requests the server
 * sees and what the caller gets (`{ status, text }` of a Response, or an error).
 */
function expected(cell, options, model) {
  if ((cell.method === "GET") && cell.body !== "none") return { requests: 0, error: "fetch's own" };
  const resend = mayResend(cell, options, model);
  const answer = ANSWERS[cell.answer];
  const attempts = 4;
  const maxDeferrals = model.maxDeferrals ?? 3;
  let failures = 0;
  let deferrals = 0;
  let budget = model.budgetRetries ?? Infinity;
  for (let n = 1; ; n++) {
    const a = answer(n);
    if (a !== "reset" && a.status === 200) return { requests: n, status: 200, text: `200 #${n}` };
    const stop = (reason) => (a === "reset" ? { requests: n, error: "RetryError", reason, cause: "network" } : { requests: n, status: a.status, text: `${a.status} #${n}` });
    if (!resend) return stop("attempts");
    const deferral = a !== "reset" && a.wait !== undefined && maxDeferrals > 0;
    if (deferral) {
      if (++deferrals > maxDeferrals) return stop("deferrals");
    } else if (++failures >= attempts) return stop("attempts");
    const wait = deferral ? a.wait : Math.max(a === "reset" ? 0 : (a.wait ?? 0), model.policyMs ?? 1);
    if (model.deadlineMs !== undefined && wait > model.deadlineMs) return stop("deadline");
    if (!deferral && budget-- <= 0) return stop("budget");
    if (model.abortReason) return { requests: n, error: "RetryError", reason: "aborted", cause: model.abortReason };
  }
}

// ---- The server ----
let server;
let base;
const log = new Map(); // cell id → [{ method, bytes }]
before(async () => {
  server = await listen((req, res) => {
    const url = new URL(req.url, "http://x");
    const id = url.searchParams.get("id");
    const answer = ANSWERS[url.searchParams.get("answer")];
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const hits = log.get(id) ?? [];
      hits.push({ method: req.method, bytes: Buffer.concat(chunks).toString("latin1"), key: req.headers["idempotency-key"] });
      log.set(id, hits);
      const a = answer(hits.length);
      if (a === "reset") return void req.socket.destroy();
      res.writeHead(a.status, { "content-type": "text/plain", ...a.headers });
      res.end(`${a.status} #${hits.length}`);
    });
  });
  base = server.url;
  // Node loads its fetch on first use (tens of ms, and its own timers): not inside a cell.
  await (await fetch(`${base}/?id=warm-up&answer=500%20forever`)).text();
});
after(() => server.close());

const unhandled = [];
process.on("unhandledRejection", (e) => unhandled.push(e));

let ids = 0;
let cellCount = 0;
/** Runs one cell; resolves to what the server saw and what the caller got, in the model's shape. */
async function run(cell, options, model) {
  const id = String(++ids);
  const url = `${base}/?id=${id}&answer=${encodeURIComponent(cell.answer)}`;
  const [makeBody] = BODIES[cell.body];
  const body = makeBody();
  const withBody = body === undefined ? {} : { body, duplex: "half" };
  if (model.header !== undefined) withBody.headers = { "Idempotency-Key": model.header };
  let input = url;
  let init = { method: cell.method, ...withBody };
  if (cell.input === "Request") {
    input = new Request(url, { method: cell.method, ...withBody });
    init = undefined;
  }
  let timer;
  const guard = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error("cell over 5 s")), 5000); });
  let got;
  try {
    const res = await Promise.race([fetchWithRetry(input, init, options), guard]);
    got = { status: res.status, text: await res.text() };
  } catch (e) {
    if (e?.message === "cell over 5 s") throw e;
    if (e instanceof RetryError) {
      got = { error: "RetryError", reason: e.reason, attempts: e.attempts, cause: e.cause };
    } else {
      got = { error: "other", thrown: e };
    }
  } finally {
    clearTimeout(timer);
  }
  return { hits: log.get(id) ?? [], got };
}

/** What a plain fetch rejects with for this method and body (nothing is sent). */
async function plainFetchError(cell) {
  const body = BODIES[cell.body][0]();
  return fetch(`${base}/?id=plain&answer=${encodeURIComponent(cell.answer)}`, { method: cell.method, body, duplex: "half" }).then(
    () => assert.fail("a plain fetch sent it"),
    (e) => e,
  );
}

/** Every mismatch between a cell's run and the rule table, as text (empty when the cell is right). */
async function check(cell, options, model) {
  const want = expected(cell, options, model);
  const { hits, got } = await run(cell, options, model);
  const wrong = [];
  if (hits.length !== want.requests) wrong.push(`server saw ${hits.length} requests, the rule says ${want.requests}`);
  const bytes = BODIES[cell.body][1];
  hits.forEach((h, i) => {
    if (h.method !== cell.method) wrong.push(`request ${i + 1} was ${h.method}`);
    const ok = typeof bytes === "string" ? h.bytes === bytes : bytes.test(h.bytes);
    if (!ok) wrong.push(`request ${i + 1} carried ${JSON.stringify(h.bytes)}`);
    // The key: none without one; the request's own as it is; one UUID for every attempt of the call.
    const key = model.key === "own" ? model.header : model.key === "uuid" ? hits[0].key : undefined;
    if (h.key !== key) wrong.push(`request ${i + 1} carried Idempotency-Key ${h.key}, the rule says ${key}`);
  });
  if (model.key === "uuid" && hits.length && !/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(hits[0].key)) {
    wrong.push(`the key ${hits[0].key} is no random UUID`);
  }
  if (want.error === "fetch's own") {
    const plain = await plainFetchError(cell);
    if (got.error !== "other" || got.thrown?.constructor !== plain.constructor || got.thrown?.message !== plain.message) {
      wrong.push(`caller got ${describe(got)}, a plain fetch rejects with ${plain.name}: ${plain.message}`);
    }
  } else if (want.error === "RetryError") {
    const causeOk = want.cause === "network" ? got.cause instanceof TypeError && got.cause.message === "fetch failed" : got.cause === want.cause;
    if (got.error !== "RetryError" || got.reason !== want.reason || got.attempts !== want.requests || !causeOk) {
      wrong.push(`caller got ${describe(got)}, the rule says RetryError ${want.reason} after ${want.requests}`);
    }
  } else if (got.status !== want.status || got.text !== want.text) {
    wrong.push(`caller got ${describe(got)}, the rule says ${want.status} "${want.text}"`);
  }
  return wrong;
}

function describe(got) {
  if (got.error === "RetryError") return `RetryError ${got.reason} after ${got.attempts} (cause ${got.cause?.message ?? got.cause})`;
  if (got.error === "other") return `${got.thrown?.name}: ${got.thrown?.message}`;
  return `${got.status} "${got.text}"`;
}

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

for (const [method, input] of METHODS) {
  for (const body of Object.keys(BODIES)) {
    const label = input === "Request" ? `a Request carrying ${method}` : method;
    test(`${label} with body ${body}: every server answer × option set is sent as often as the rule table says`, async () => {
      const timersBefore = timers();
      // The cells of one method and body run side by side (each has its own id on the server).
      const cells = Object.entries(OPTION_SETS).flatMap(([setName, set]) =>
        (set.only ?? Object.keys(ANSWERS)).map(async (answer) => {
          const [options, model] = set.make();
          cellCount++;
          return (await check({ method, input, body, answer }, options, model)).map((w) => `[${answer} | ${setName}] ${w}`);
        }));
      const wrong = (await Promise.all(cells)).flat();
      await new Promise((r) => setImmediate(r));
      if (timers() > timersBefore) wrong.push("a timer outlived the calls");
      assert.deepEqual(wrong, []);
    });
  }
}

test("every cell ran (6 methods × 9 bodies × 51 answer-and-option pairs) and none left an unhandled rejection", async () => {
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(cellCount, 6 * 9 * (8 * 6 + 3));
  assert.deepEqual(unhandled, []);
});

// ---- Bodies that go out once: 503 + Retry-After: 0 twice, then 200; Backoff.fixed(10).maxAttempts(3) ----
let rowServer;
let rowBase;
const rowLog = new Map();
before(async () => {
  rowServer = await listen((req, res) => {
    const id = new URL(req.url, "http://x").searchParams.get("id");
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const hits = rowLog.get(id) ?? [];
      hits.push(Buffer.concat(chunks).toString("latin1"));
      rowLog.set(id, hits);
      if (hits.length <= 2) res.writeHead(503, { "retry-after": "0" }).end("busy");
      else res.writeHead(200).end("ok");
    });
  });
  rowBase = rowServer.url;
});
after(() => rowServer.close());
const rowPolicy = () => ({ policy: Backoff.fixed(10).maxAttempts(3) });

test('a POST with body "hello" and two 503 + Retry-After: 0 goes out once; the caller gets that 503', async () => {
  const res = await fetchWithRetry(`${rowBase}/?id=post`, { method: "POST", body: "hello" }, rowPolicy());
  assert.equal(res.status, 503);
  assert.equal(await res.text(), "busy");
  assert.deepEqual(rowLog.get("post"), ["hello"]);
});

test("a PUT with an async-iterable body and two 503 + Retry-After: 0 goes out once, whole; the caller gets that 503", async () => {
  const body = (async function* () { yield enc("iter-data"); })();
  const res = await fetchWithRetry(`${rowBase}/?id=iter`, { method: "PUT", body, duplex: "half" }, rowPolicy());
  assert.equal(res.status, 503);
  assert.equal(await res.text(), "busy");
  assert.deepEqual(rowLog.get("iter"), ["iter-data"]);
});

for (const [kind, make] of [
  ["ReadableStream", BODIES.ReadableStream[0]],
  ["Node Readable", BODIES["Node Readable"][0]],
]) {
  test(`a PUT with a ${kind} body and two 503 + Retry-After: 0 goes out once; the caller gets that 503, not an error`, async () => {
    const id = kind.replace(" ", "-");
    const res = await fetchWithRetry(`${rowBase}/?id=${id}`, { method: "PUT", body: make(), duplex: "half" }, rowPolicy());
    assert.equal(res.status, 503);
    assert.equal(await res.text(), "busy");
    assert.equal(rowLog.get(id).length, 1);
  });
}

test("a server that always answers 503 + Retry-After: 0 gets a POST once, with the default maxDeferrals", async () => {
  let n = 0;
  const s = await listen((req, res) => {
    n++;
    res.writeHead(503, { "retry-after": "0" }).end("busy");
  });
  try {
    const res = await fetchWithRetry(`${s.url}/`, { method: "POST", body: "x" });
    assert.equal(res.status, 503);
    await res.body?.cancel();
    assert.equal(n, 1);
  } finally {
    await s.close();
  }
});
