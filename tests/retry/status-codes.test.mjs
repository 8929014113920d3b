// fetchWithRetry's lists and arguments: a statusCodes item of the wrong type (a hole included)
// is a TypeError, a number that is not an HTTP status (an integer 100-599) a RangeError, as for
// every other out-of-range value; methods' items are non-empty names; a list, an input or
// headers that cannot be read are the package's TypeError. All reject before anything is sent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fetchWithRetry } from "../../pkg/dist/esm/retry.js";

/**
 * Runs `body(calls)` with globalThis.fetch replaced by a stub that pushes each call's method on
 * `calls` and answers an empty Response of status `status(calls.length)`; fetch is restored after.
 */
async function withStubFetch(body, status = () => 200) {
  const real = globalThis.fetch;
  const calls = [];
  globalThis.fetch = async (input, init) => {
    calls.push(init?.method ?? "GET");
    return new Response("", { status: status(calls.length) });
  };
  try {
    await body(calls);
  } finally {
    globalThis.fetch = real;
  }
}

test("statusCodes: a number outside 100-599 (or not an integer) is a RangeError, another type a TypeError, naming the item", async () => {
  await withStubFetch(async (calls) => {
    const cases = [
      [[99], RangeError, "statusCodes[0] must be HTTP statuses (integers 100-599); received 99"],
      [[503, 600], RangeError, "statusCodes[1] must be HTTP statuses (integers 100-599); received 600"],
      [[502.5], RangeError, "statusCodes[0] must be HTTP statuses (integers 100-599); received 502.5"],
      [[NaN], RangeError, "statusCodes[0] must be HTTP statuses (integers 100-599); received NaN"],
      [[-Infinity], RangeError, "statusCodes[0] must be HTTP statuses (integers 100-599); received -Infinity"],
      [["503"], TypeError, 'statusCodes[0] must be HTTP statuses (integers 100-599); received "503"'],
      [[null], TypeError, "statusCodes[0] must be HTTP statuses (integers 100-599); received null"],
      [503, TypeError, "statusCodes must be an array of HTTP statuses (integers 100-599); received 503"],
      // A hole is an item that is not a status, not one to skip.
      [[, 503], TypeError, "statusCodes[0] must be HTTP statuses (integers 100-599); received undefined"],
    ];
    for (const [statusCodes, cls, message] of cases) {
      let p;
      assert.doesNotThrow(() => (p = fetchWithRetry("http://127.0.0.1:9/", undefined, { statusCodes })));
      await assert.rejects(p, (e) => e.constructor === cls && e.message === message);
    }
    // The ends of the range are statuses.
    const r = await fetchWithRetry("http://127.0.0.1:9/", undefined, { statusCodes: [100, 599] });
    assert.equal(r.status, 200);
    assert.equal(calls.length, 1);
  });
});

test("methods: a name that is not an HTTP token (a space, a line break, a comma, a non-ASCII letter) is a TypeError naming the item; any case of a token is accepted", async () => {
  await withStubFetch(async (seen) => {
    for (const [i, name] of [[0, " GET"], [0, "GET\n"], [1, "G ET"], [0, "GET,PUT"], [0, "G\u00c9T"]]) {
      const methods = i === 0 ? [name] : ["PUT", name];
      await assert.rejects(fetchWithRetry("http://127.0.0.1:9/", undefined, { methods }), (e) => e.constructor === TypeError && e.message === `methods[${i}] must be method names (text); received ${JSON.stringify(name)}`);
    }
    assert.deepEqual(seen, []);
    const r = await fetchWithRetry("http://127.0.0.1:9/", { method: "PATCH" }, { methods: ["patch", "M-SEARCH", "X_1!"], policy: 0, retries: 1 });
    assert.equal(r.status, 200);
    assert.deepEqual(seen, ["PATCH", "PATCH"]);
  }, (n) => (n === 1 ? 503 : 200));
});

test("methods: a hole, an empty name or another type is a TypeError naming the item; a list that cannot be read names methods", async () => {
  await withStubFetch(async (calls) => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    const cases = [
      [[, "GET"], "methods[0] must be method names (text); received undefined"],
      [[""], 'methods[0] must be method names (text); received ""'],
      [["GET", 1], "methods[1] must be method names (text); received 1"],
      [proxy, "methods must be an array of method names (text); received an object"],
    ];
    for (const [methods, message] of cases) {
      await assert.rejects(fetchWithRetry("http://127.0.0.1:9/", undefined, { methods }), (e) => e.constructor === TypeError && e.message === message);
    }
    // The list is read once: an item changed afterwards does not change the call.
    const methods = ["GET"];
    const p = fetchWithRetry("http://127.0.0.1:9/", undefined, { methods });
    methods[0] = 7;
    assert.equal((await p).status, 200);
    assert.equal(calls.length, 1);
  });
});

test("an input or init.headers that cannot be read is the package's TypeError naming it, with the engine's error as cause; nothing is sent", async () => {
  await withStubFetch(async (calls) => {
    const headers = Proxy.revocable({}, {});
    headers.revoke();
    await assert.rejects(fetchWithRetry(Symbol("url")), (e) => e.constructor === TypeError && e.cause instanceof TypeError &&
      e.message === "input must be a URL, URL text or a Request that can be read; received a symbol");
    await assert.rejects(fetchWithRetry("http://127.0.0.1:9/", { headers: headers.proxy }), (e) => e.constructor === TypeError && e.cause instanceof TypeError &&
      e.message === "init must be an object that can be read; received an object");
    assert.equal(calls.length, 0);
  });
});
