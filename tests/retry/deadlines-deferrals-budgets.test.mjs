// A deadline that fails fast, RetryError's
// reasons, server-ordered waits (serverDelayMs, deferrals in fetchWithRetry), a retry
// budget shared by many calls, onRetry awaited before the wait. Real HTTP server for the
// header forms; node:test's mock timers where wall time would be long.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { listen } from "./server.mjs";
import { retry, fetchWithRetry, serverDelayMs, createRetryBudget, RetryError, sleep } from "../../pkg/dist/esm/retry.js";
import * as main from "../../pkg/dist/esm/index.js";
import { Backoff } from "../../pkg/dist/esm/backoff.js";
import { pathToFileURL } from "node:url";
import { scratchDir } from "../scratch-dir.mjs";

const flush = () => new Promise((resolve) => setImmediate(resolve));
/** 2027-01-15T08:00:00Z, a whole second. */
const NOW = Date.UTC(2027, 0, 15, 8, 0, 0);

test("serverDelayMs: every form, in order, exact", () => {
  const h = (o) => new Headers(o);
  assert.equal(serverDelayMs(h({ "retry-after": "7" }), NOW), 7000);
  assert.equal(serverDelayMs(h({ "retry-after": "0" }), NOW), 0);
  assert.equal(serverDelayMs(h({ "retry-after": "Fri, 15 Jan 2027 08:00:05 GMT" }), NOW), 5000);
  assert.equal(serverDelayMs(h({ "retry-after": "Friday, 15-Jan-27 08:00:06 GMT" }), NOW), 6000);
  assert.equal(serverDelayMs(h({ "retry-after": "Fri Jan 15 08:00:09 2027" }), NOW), 9000);
  assert.equal(serverDelayMs(h({ "retry-after": "Fri, 15 Jan 2027 07:00:00 GMT" }), NOW), 0); // past
  assert.equal(serverDelayMs(h({ ratelimit: '"default";r=0;t=2' }), NOW), 2000);
  assert.equal(serverDelayMs(h({ ratelimit: '"default";r=3;t=2' }), NOW), undefined); // requests remain: no wait
  assert.equal(serverDelayMs(h({ ratelimit: '"a";r=1;t=9, "b";r=0;t=4, "c";r=0;t=3' }), NOW), 4000);
  assert.equal(serverDelayMs(h({ ratelimit: '"default";r=0;t=1.5' }), NOW), undefined); // not an sf-integer
  // RFC 9651 lists: other parameters skipped (a byte sequence, a bare flag); a field that does not parse is ignored whole.
  assert.equal(serverDelayMs(h({ ratelimit: '"a";r=0;t=3;pk=:cHsdsRa894==:, b;q=100;w=60;flag' }), NOW), 3000);
  assert.equal(serverDelayMs(h({ ratelimit: ' "a";r=0; t=0 ' }), NOW), 0);
  for (const bad of ['"a" ;r=0;t=1', '"a";r=0;t=1,', '"a;r=0;t=1', '"a";r=0;t=-1', '"a";r=0;t=1234567890123456', '"a";r=0;t=1 x', '"a";r=0;t=1,,"b"']) {
    assert.equal(serverDelayMs(h({ ratelimit: bad }), NOW), undefined, bad);
  }
  assert.equal(serverDelayMs(h({ ratelimit: '"a";r=0' }), NOW), undefined);
  assert.equal(serverDelayMs(h({ "ratelimit-reset": "12" }), NOW), 12_000);
  assert.equal(serverDelayMs(h({ "x-ratelimit-reset": String(NOW / 1000 + 30) }), NOW), 30_000); // epoch seconds
  assert.equal(serverDelayMs(h({ "x-ratelimit-reset": "45" }), NOW), 45_000); // below 1e9: seconds
  assert.equal(serverDelayMs(h({ "x-ratelimit-reset": String(NOW / 1000 - 30) }), NOW), 0);
  assert.equal(serverDelayMs(h({}), NOW), undefined);
  // Order: Retry-After, RateLimit, RateLimit-Reset, X-RateLimit-Reset; a malformed one is skipped.
  const all = { "retry-after": "1", ratelimit: '"d";r=0;t=2', "ratelimit-reset": "3", "x-ratelimit-reset": "4" };
  assert.equal(serverDelayMs(h(all), NOW), 1000);
  assert.equal(serverDelayMs(h({ ...all, "retry-after": "soon" }), NOW), 2000);
  assert.equal(serverDelayMs(h({ ...all, "retry-after": "soon", ratelimit: "?" }), NOW), 3000);
  assert.equal(serverDelayMs({ "X-RateLimit-Reset": "4", "RateLimit-Reset": "x" }, NOW), 4000); // a plain record, any case
  assert.equal(serverDelayMs(new Response("", { headers: { ratelimit: '"d";r=0;t=8' } }), NOW), 8000);
  assert.equal(main.serverDelayMs, serverDelayMs);
  assert.throws(() => serverDelayMs("7", NOW), { name: "TypeError", message: 'headers must be Headers, a header record or a Response; received "7"' });
  assert.throws(() => serverDelayMs({}, NaN), { name: "RangeError", message: "now must be a finite number of ms since the epoch; received NaN" });
});

let server;
let base;
const arrivals = new Map();
const FORMS = {
  seconds: () => ({ "retry-after": "1" }),
  zero: () => ({ "retry-after": "0" }),
  imf: () => ({ "retry-after": new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000).toUTCString() }),
  rfc850: () => {
    const d = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000);
    const days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
    const [, dd, mon, yyyy, time] = d.toUTCString().split(" ");
    return { "retry-after": `${days[d.getUTCDay()]}, ${dd}-${mon}-${yyyy.slice(2)} ${time} GMT` };
  },
  asctime: () => {
    const d = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000);
    const [wd, dd, mon, yyyy, time] = d.toUTCString().replace(",", "").split(" ");
    return { "retry-after": `${wd} ${mon} ${String(Number(dd)).padStart(2, " ")} ${time} ${yyyy}` };
  },
  ratelimit: () => ({ ratelimit: '"default";r=0;t=2', "ratelimit-policy": '"default";q=100;w=60' }),
  "ratelimit-reset": () => ({ "ratelimit-reset": "3" }),
  "x-ratelimit-reset": () => ({ "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 4) }),
};
before(async () => {
  server = await listen((req, res) => {
    const url = new URL(req.url, "http://x");
    const id = url.searchParams.get("id");
    const form = url.searchParams.get("form");
    const times = arrivals.get(id) ?? [];
    times.push(Date.now());
    arrivals.set(id, times);
    const fails = Number(url.searchParams.get("fails") ?? 1);
    if (times.length <= fails) {
      // A form of FORMS, or &retry-after=… sent as it is.
      const headers = FORMS[form]?.() ?? (url.searchParams.has("retry-after") ? { "retry-after": url.searchParams.get("retry-after") } : {});
      res.writeHead(Number(url.searchParams.get("code") ?? 429), headers);
      res.end(JSON.stringify(headers));
    } else {
      res.writeHead(200);
      res.end("ok");
    }
  });
  base = server.url;
});
after(() => server.close());

test("a real server sends each header form: each is a deferral, waited as asked (clamped to maxRetryAfter), not an attempt", async () => {
  const expectedSeen = { seconds: 1000, zero: 0, imf: 2000, rfc850: 2000, asctime: 2000, ratelimit: 2000, "ratelimit-reset": 3000, "x-ratelimit-reset": 4000 };
  for (const form of Object.keys(FORMS)) {
    const id = `form-${form}`;
    const events = [];
    // retries: 0, yet the 429 is retried: a deferral does not spend the attempt budget.
    const res = await fetchWithRetry(`${base}/?id=${id}&form=${form}`, undefined, {
      policy: 1, retries: 0, maxRetryAfter: 40,
      onRetry: async ({ error, attempt, delayMs, retriesLeft, deferral }) => {
        const sent = JSON.parse(await error.clone().text());
        // What the server asked, read with the time the header was written for (whole seconds).
        const at = form === "x-ratelimit-reset" ? (Number(sent["x-ratelimit-reset"]) - 4) * 1000
          : form === "seconds" || form === "zero" || form === "ratelimit" || form === "ratelimit-reset" ? NOW
          : Date.parse(form === "imf" ? sent["retry-after"] : new Headers(sent).get("retry-after").replace(/^(\w+), (\d+)-(\w+)-(\d+)/, "$1, $2 $3 20$4")) - 2000;
        events.push({ asked: serverDelayMs(error.headers, at), attempt, delayMs, retriesLeft, deferral });
      },
    });
    assert.equal(res.status, 200, form);
    assert.equal(await res.text(), "ok");
    const asked = expectedSeen[form];
    assert.deepEqual(events, [{ asked, attempt: 1, delayMs: Math.min(asked, 40), retriesLeft: 1, deferral: true }], form);
    const [first, second] = arrivals.get(id);
    assert.equal(arrivals.get(id).length, 2);
    assert.ok(second - first >= Math.min(asked, 40) - 1, `${form}: ${second - first} ms between arrivals`);
  }
});

test("deferrals are counted apart: maxDeferrals, and a wait over maxDeferralMs stops at once with that Response", async () => {
  const ok = await fetchWithRetry(`${base}/?id=d1&form=zero&fails=3`, undefined, { policy: 1, retries: 0 });
  assert.equal(ok.status, 200);
  assert.equal(arrivals.get("d1").length, 4); // 3 deferrals (the default maxDeferrals), then 200
  const stopped = await fetchWithRetry(`${base}/?id=d2&form=zero&fails=9`, undefined, { policy: 1, retries: 5, maxDeferrals: 2 });
  assert.equal(stopped.status, 429);
  assert.equal(arrivals.get("d2").length, 3);
  const events = [];
  const far = await fetchWithRetry(`${base}/?id=d3&form=ratelimit-reset&fails=9`, undefined, { policy: 1, retries: 5, maxDeferralMs: "2 seconds", onRetry: (e) => events.push(e) });
  assert.equal(far.status, 429); // asked 3 s > 2 s: handed back at once, no wait
  assert.equal(arrivals.get("d3").length, 1);
  assert.deepEqual(events, []);
  // retry() keeps folding a server wait into the attempt budget (no deferrals there).
  const e = await retry(() => { throw Object.assign(new Error("busy"), { response: new Response("", { status: 503, headers: { "retry-after": "0" } }) }); }, 1, { retries: 1 }).catch((x) => x);
  assert.deepEqual([e.reason, e.attempts], ["attempts", 2]);
});

// The deferral asked for is an hour: that the call ends at all shows it was not waited out
// (the test's own timeout is a bound, for a failure only).
test("abort during a deferral: RetryError aborted at once, the timer cleared, one request", { timeout: 120_000 }, async () => {
  const controller = new AbortController();
  // The hour's timer: armed once, and cleared (other timers, of fetch or this test, are shorter).
  const [setTimer, clearTimer] = [globalThis.setTimeout, globalThis.clearTimeout];
  const hourly = new Set();
  let armed = 0;
  globalThis.setTimeout = (fn, ms, ...args) => {
    const timer = setTimer(fn, ms, ...args);
    if (ms >= 3_000_000) (armed++, hourly.add(timer));
    return timer;
  };
  globalThis.clearTimeout = (timer) => (hourly.delete(timer), clearTimer(timer));
  const p = fetchWithRetry(`${base}/?id=abort-deferral&retry-after=3600&code=503`, undefined, {
    signal: controller.signal, maxRetryAfter: "1 hour",
    onRetry: ({ deferral, delayMs }) => {
      assert.deepEqual([deferral, delayMs], [true, 3_600_000]);
      setTimeout(() => controller.abort(new Error("user left")), 5);
    },
  });
  const e = await p.catch((x) => x).finally(() => Object.assign(globalThis, { setTimeout: setTimer, clearTimeout: clearTimer }));
  assert.ok(e instanceof RetryError);
  assert.deepEqual([e.reason, e.cause.message, e.attempts, e.errors.length, e.errors[0].status], ["aborted", "user left", 1, 1, 503]);
  assert.deepEqual([armed, hourly.size], [1, 0], "the hour's timer was armed once and is cleared");
  assert.equal(arrivals.get("abort-deferral").length, 1);
});

test("deadline: a wait that would end past it is not slept; reason deadline (measured: no timer armed)", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: NOW });
  const armed = [];
  const real = globalThis.setTimeout;
  globalThis.setTimeout = (cb, ms) => (armed.push(ms), real(cb, ms));
  try {
    let calls = 0;
    const outcome = retry(() => { calls++; throw new Error(`fail ${calls}`); }, "10 seconds", { retries: 5, deadline: NOW + 5000 }).catch((x) => x);
    await flush();
    const e = await outcome; // settled with no tick: nothing slept
    assert.deepEqual([e.name, e.reason, e.attempts, e.elapsedMs, e.cause.message, calls], ["RetryError", "deadline", 1, 0, "fail 1", 1]);
    assert.deepEqual(armed, []);
    // { afterMs }: waits of 100 fit twice in 250 ms; the third would end at 300: stop at 200.
    const times = [];
    const p2 = retry(() => { times.push(Date.now() - NOW); throw new Error("x"); }, 100, { retries: 10, deadline: { afterMs: 250 } }).catch((x) => x);
    await flush();
    t.mock.timers.tick(100);
    await flush();
    t.mock.timers.tick(100);
    await flush();
    const e2 = await p2;
    assert.deepEqual([e2.reason, e2.attempts, e2.elapsedMs, times], ["deadline", 3, 200, [0, 100, 200]]);
    assert.deepEqual(armed, [100, 100]);
  } finally {
    globalThis.setTimeout = real;
  }
});

test("deadline: an attempt still running when it passes is not ended; its value is the call's, its failure stops the call", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: NOW });
  const controller = new AbortController();
  let finish;
  let seen;
  const p = retry(({ signal }) => ((seen = signal), new Promise((resolve) => (finish = resolve))), 100, {
    retries: 3, deadline: { afterMs: 50 }, signal: controller.signal,
  });
  await flush();
  t.mock.timers.tick(1000);
  await flush();
  assert.equal(seen.aborted, false, "the attempt's signal is not aborted by the deadline");
  finish("late");
  assert.equal(await p, "late");
  // A failure that comes after the deadline: no wait, reason deadline, that failure the cause.
  let fail;
  const q = retry(({ attempt }) => {
    if (attempt === 1) throw new Error("first");
    return new Promise((_, reject) => (fail = reject));
  }, 100, { retries: 3, deadline: { afterMs: 150 } }).catch((x) => x);
  await flush();
  t.mock.timers.tick(100);
  await flush();
  t.mock.timers.tick(1000);
  await flush();
  fail(new Error("second"));
  const e = await q;
  assert.deepEqual([e.reason, e.attempts, e.elapsedMs, e.cause.message], ["deadline", 2, 1100, "second"]);
});

test("deadline in fetchWithRetry: the last Response at once; a past deadline still makes the first attempt", async () => {
  // The wait (an hour) cannot fit the deadline: no timer is armed for it.
  const setTimer = globalThis.setTimeout;
  const long = [];
  globalThis.setTimeout = (fn, ms, ...args) => ((ms >= 3_000_000 && long.push(ms)), setTimer(fn, ms, ...args));
  const res = await fetchWithRetry(`${base}/?id=dl&fails=9&code=500`, undefined, { policy: "1 hour", retries: 3, deadline: { afterMs: "1 second" } })
    .finally(() => (globalThis.setTimeout = setTimer));
  assert.equal(res.status, 500);
  assert.equal(arrivals.get("dl").length, 1);
  assert.deepEqual(long, []);
  const e = await retry(() => { throw new Error("late"); }, 0, { retries: 2, deadline: 0 }).catch((x) => x);
  assert.deepEqual([e.reason, e.attempts], ["deadline", 1]); // 1970: even a 0 ms wait ends past it
});

test("1000 concurrent failing calls through one budget (ratio 0.1, minPerSecond 10, 1 s window): 110 retries, the rest stop with reason budget", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: NOW });
  const budget = createRetryBudget({ ratio: 0.1, minPerSecond: 10, windowMs: "1 second" });
  assert.equal(budget.balance, 10); // the reserve: 10 per second × 1 s
  let calls = 0;
  const outcomes = Array.from({ length: 1000 }, () =>
    retry(() => { calls++; throw new Error("down"); }, 0, { retries: 3, budget }).catch((e) => e.reason));
  for (let i = 0; i < 10; i++) {
    t.mock.timers.tick(0);
    await flush();
  }
  const reasons = await Promise.all(outcomes);
  // Bound: 0.1 × 1000 first attempts + 10 × 1 s reserve = 110 retries.
  assert.equal(calls - 1000, 110);
  assert.deepEqual([...new Set(reasons)], ["budget"]);
  assert.equal(reasons.length, 1000);
  assert.equal(budget.balance, 0);
  // Deposits expire with the window; the reserve does not.
  t.mock.timers.tick(1000);
  assert.equal(budget.balance, 10);
  for (let i = 0; i < 20; i++) budget.deposit();
  assert.equal(budget.balance, 12);
  t.mock.timers.tick(1000);
  assert.equal(budget.balance, 10);
  assert.equal(createRetryBudget().balance, 100); // Finagle's defaults: 10/s over 10 s, 20 %
  assert.throws(() => createRetryBudget({ ratio: -1 }), { name: "RangeError", message: "ratio must be a number in [0, 1000]; received -1" });
  assert.throws(() => createRetryBudget({ windowMs: 500 }), { name: "RangeError", message: "windowMs must be a duration from 1 s to 60 s; received 500" });
  assert.throws(() => createRetryBudget([]), { name: "TypeError", message: "options must be an object; received an array" });
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  assert.throws(() => createRetryBudget(revoked.proxy), { name: "TypeError", message: /^options must be an object whose keys can be listed; received / });
  assert.throws(() => createRetryBudget({ ratoi: 1 }), { name: "TypeError", message: 'option must be one of ratio, minPerSecond, windowMs, store, onStoreError, storeTimeoutMs; received "ratoi"' });
});

test("onRetry is awaited before the wait and sees the wait; a throw stops the call with that error", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: NOW });
  const times = [];
  const events = [];
  const p = retry(() => { times.push(Date.now() - NOW); throw new Error(`f${times.length}`); }, Backoff.fixed(100).maxAttempts(3), {
    onRetry: async (e) => {
      events.push({ ...e, error: e.error.message });
      await sleep(500); // slow: the wait starts after it
    },
  }).catch((x) => x);
  for (let i = 0; i < 6; i++) {
    await flush();
    t.mock.timers.tick(i % 2 === 0 ? 500 : 100);
  }
  const e = await p;
  assert.deepEqual(times, [0, 600, 1200]);
  assert.deepEqual(events, [
    { error: "f1", attempt: 1, delayMs: 100, delay: 100, elapsedMs: 0, retriesLeft: 2, deferral: false },
    { error: "f2", attempt: 2, delayMs: 100, delay: 100, elapsedMs: 600, retriesLeft: 1, deferral: false },
  ]);
  assert.deepEqual([e.reason, e.attempts, e.errors.map((x) => x.message)], ["attempts", 3, ["f1", "f2", "f3"]]);
  const boom = new Error("hook says no");
  let calls = 0;
  await assert.rejects(retry(() => { calls++; throw new Error("x"); }, 0, { retries: 5, onRetry: () => { throw boom; } }), (x) => x === boom);
  assert.equal(calls, 1);
});

test("RetryError: reasons not-retryable and instanceof across copies; bad deadline/budget options reject", async () => {
  const e = await retry(() => { throw new Error("no"); }, 0, { retries: 3, shouldRetry: () => false }).catch((x) => x);
  assert.deepEqual([e.reason, e.attempts, e.cause.message], ["not-retryable", 1, "no"]);
  const { createRequire } = await import("node:module");
  const cjs = createRequire(import.meta.url)("../../pkg/dist/cjs/retry.js");
  assert.ok(e instanceof cjs.RetryError);
  assert.ok(!(new Error("x") instanceof RetryError));
  for (const [options, cls, message] of [
    [{ retries: 1, deadline: "soon" }, TypeError, 'deadline must be ms since the epoch or { afterMs }; received "soon"'],
    [{ retries: 1, deadline: { after: 5 } }, TypeError, 'deadline option must be one of afterMs; received "after"'],
    [{ retries: 1, deadline: { afterMs: -5 } }, RangeError, "deadline.afterMs must be a non-negative duration (ms or duration text); received -5"],
    [{ retries: 1, deadline: NaN }, RangeError, "deadline must be ms since the epoch or { afterMs }; received NaN"],
    [{ retries: 1, budget: {} }, TypeError, "budget must be a retry budget (createRetryBudget()); received an object"],
  ]) {
    await assert.rejects(retry(() => 1, 0, options), (x) => x instanceof cls && x.message === message);
  }
  await assert.rejects(fetchWithRetry(base, undefined, { maxDeferrals: -1 }), { name: "RangeError", message: "maxDeferrals must be a non-negative integer or Infinity; received -1" });
  await assert.rejects(fetchWithRetry(base, undefined, { maxDeferralMs: "x" }), { name: "RangeError" });
});

test("docs/guides/fetch.md 'Deadlines, server-ordered waits, …' example runs as written and prints what it says", async () => {
  const { readFileSync, writeFileSync, mkdirSync, rmSync } = await import("node:fs");
  const { execFileSync } = await import("node:child_process");
  const root = new URL("../../", import.meta.url);
  const docs = readFileSync(new URL("docs/guides/fetch.md", root), "utf8");
  const code = [...docs.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).find((c) => c.includes("beyond.mjs"));
  assert.ok(code);
  const dir = pathToFileURL(`${scratchDir("beyond-readme")}/`);
  mkdirSync(dir, { recursive: true });
  const file = new URL("example.mjs", dir);
  writeFileSync(file, code
    .replace('"backoff-wasm/retry"', JSON.stringify(new URL("pkg/dist/esm/retry.js", root).href))
    .replace('"backoff-wasm/policy"', JSON.stringify(new URL("pkg/dist/esm/policy.js", root).href)));
  try {
    const out = execFileSync(process.execPath, [file.pathname], { encoding: "utf8" });
    assert.equal(out, [
      "true deadline 1 true", "2000", "30000", "50",
      "attempt 1 failed (flaky); next in 20 ms; 3 left; deferral false",
      "attempt 2 failed (flaky); next in 20 ms; 2 left; deferral false", "",
    ].join("\n"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
