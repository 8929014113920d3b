// sleep(): right for any length (timers cap at 2^31 - 1 ms), abortable; fake timers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sleep } from "../../pkg/dist/esm/retry.js";

const MAX_TIMER = 2 ** 31 - 1;
const flush = () => new Promise((resolve) => setImmediate(resolve));

function watch(promise) {
  const state = { settled: false, value: undefined, error: undefined };
  promise.then(
    (v) => Object.assign(state, { settled: true, value: v }),
    (e) => Object.assign(state, { settled: true, error: e }),
  );
  return state;
}

test("the fake timers fire an over-long setTimeout at once, as Node does (the bug sleep avoids)", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  let fired = false;
  setTimeout(() => (fired = true), 2 ** 31 + 5000);
  t.mock.timers.tick(1);
  assert.equal(fired, true);
});

test("sleep(2 ** 31 + 5000) is not fired early, and fires on time", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const s = watch(sleep(2 ** 31 + 5000));
  t.mock.timers.tick(1);
  await flush();
  assert.equal(s.settled, false);
  t.mock.timers.tick(MAX_TIMER - 1); // the first chunk ends here
  await flush();
  assert.equal(s.settled, false);
  t.mock.timers.tick(5000); // 1 ms short of the end
  await flush();
  assert.equal(s.settled, false);
  t.mock.timers.tick(1);
  await flush();
  assert.deepEqual(s, { settled: true, value: undefined, error: undefined });
});

test("short sleeps: exact, including 0", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const a = watch(sleep(250));
  const b = watch(sleep(0));
  await flush();
  assert.equal(b.settled, false); // still a timer, never synchronous
  t.mock.timers.tick(0);
  await flush();
  assert.equal(b.settled, true);
  t.mock.timers.tick(249);
  await flush();
  assert.equal(a.settled, false);
  t.mock.timers.tick(1);
  await flush();
  assert.equal(a.settled, true);
});

test("sleep(Infinity) waits until aborted, then rejects with the reason", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const controller = new AbortController();
  const s = watch(sleep(Infinity, { signal: controller.signal }));
  for (let i = 0; i < 5; i++) {
    t.mock.timers.tick(MAX_TIMER);
    await flush();
    assert.equal(s.settled, false);
  }
  const reason = new Error("enough");
  controller.abort(reason);
  await flush();
  assert.equal(s.error, reason);
});

test("abort rejects at once with signal.reason; an aborted signal rejects without waiting", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const controller = new AbortController();
  const s = watch(sleep(10_000, { signal: controller.signal }));
  t.mock.timers.tick(5000);
  controller.abort(); // default reason: an AbortError DOMException
  await flush();
  assert.equal(s.error, controller.signal.reason);
  assert.equal(s.error.name, "AbortError");
  await assert.rejects(sleep(10, { signal: AbortSignal.abort("gone") }), (e) => e === "gone");
});

test("an abort after the sleep ended changes nothing", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const controller = new AbortController();
  const s = watch(sleep(10, { signal: controller.signal }));
  t.mock.timers.tick(10);
  await flush();
  controller.abort();
  await flush();
  assert.deepEqual(s, { settled: true, value: undefined, error: undefined });
});

test("bad arguments reject (never a synchronous throw), naming the argument and the value", async () => {
  await assert.rejects(sleep(-1), { name: "RangeError", message: "ms must be a non-negative number of ms; received -1" });
  await assert.rejects(sleep(NaN), { name: "RangeError", message: "ms must be a non-negative number of ms; received NaN" });
  await assert.rejects(sleep(-Infinity), { name: "RangeError", message: "ms must be a non-negative number of ms; received -Infinity" });
  await assert.rejects(sleep("5"), { name: "TypeError", message: 'ms must be a non-negative number of ms; received "5"' });
  await assert.rejects(sleep(5, { signal: "x" }), { name: "TypeError", message: 'signal must be an AbortSignal; received "x"' });
  await assert.rejects(sleep(5, { sginal: undefined }), { name: "TypeError", message: 'option must be one of signal; received "sginal"' });
});
