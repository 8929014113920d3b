// fetchWithRetry's statusCodes: an item of the wrong type is a TypeError, a number that is
// not an HTTP status (an integer 100-599) a RangeError, as for every other out-of-range
// value; both name the item and the value, and reject before any request goes out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fetchWithRetry } from "../../pkg/dist/esm/retry.js";

test("statusCodes: a number outside 100-599 (or not an integer) is a RangeError, another type a TypeError, naming the item", async () => {
  let sent = 0;
  const real = globalThis.fetch;
  globalThis.fetch = async () => {
    sent++;
    return new Response("");
  };
  try {
    const cases = [
      [[99], RangeError, "statusCodes[0] must be HTTP statuses (integers 100-599); received 99"],
      [[503, 600], RangeError, "statusCodes[1] must be HTTP statuses (integers 100-599); received 600"],
      [[502.5], RangeError, "statusCodes[0] must be HTTP statuses (integers 100-599); received 502.5"],
      [[NaN], RangeError, "statusCodes[0] must be HTTP statuses (integers 100-599); received NaN"],
      [[-Infinity], RangeError, "statusCodes[0] must be HTTP statuses (integers 100-599); received -Infinity"],
      [["503"], TypeError, 'statusCodes[0] must be HTTP statuses (integers 100-599); received "503"'],
      [[null], TypeError, "statusCodes[0] must be HTTP statuses (integers 100-599); received null"],
      [503, TypeError, "statusCodes must be an array of HTTP statuses (integers 100-599); received 503"],
    ];
    for (const [statusCodes, cls, message] of cases) {
      let p;
      assert.doesNotThrow(() => (p = fetchWithRetry("http://127.0.0.1:9/", undefined, { statusCodes })));
      await assert.rejects(p, (e) => e.constructor === cls && e.message === message);
    }
    // The ends of the range are statuses.
    const r = await fetchWithRetry("http://127.0.0.1:9/", undefined, { statusCodes: [100, 599] });
    assert.equal(r.status, 200);
    assert.equal(sent, 1);
  } finally {
    globalThis.fetch = real;
  }
});
