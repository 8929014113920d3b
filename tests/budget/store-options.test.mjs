// The stores' own options go through the runtime's one reader, and the Durable Object takes
// every rule createRetryBudget accepts (a windowMs with a fraction included), naming what it
// refuses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRetryBudget, durableObjectBudgetStore, redisBudgetStore, RetryBudgetObject } from "../../pkg/dist/esm/retry.js";

function revoked() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
const client = { sendCommand: async () => 1 };
const namespace = (object) => ({ idFromName: (n) => n, get: () => ({ fetch: (url, init) => object.fetch(new Request(url, init)) }) });

test("redisBudgetStore and durableObjectBudgetStore: unreadable, array, missing and unknown options get the one wording", () => {
  for (const [option, make] of [["key", (o) => redisBudgetStore(client, o)], ["name", (o) => durableObjectBudgetStore(namespace(new RetryBudgetObject()), o)]]) {
    assert.throws(() => make(revoked()), (e) => e instanceof TypeError && /^options must be an object whose keys can be listed; received an object$/.test(e.message) && e.cause instanceof TypeError);
    assert.throws(() => make([]), { name: "TypeError", message: "options must be an object; received an array" });
    assert.throws(() => make(undefined), { name: "TypeError", message: "options must be an object; received undefined" });
    assert.throws(() => make({ get [option]() { throw new Error("getter"); } }), (e) => e instanceof TypeError && e.cause?.message === "getter");
  }
  assert.throws(() => durableObjectBudgetStore(namespace(new RetryBudgetObject()), { name: "n", ttl: 1 }),
    { name: "TypeError", message: 'option must be one of name; received "ttl"' });
});

test("a Durable Object store with windowMs 1000.5: the shared budget answers (no fallback)", async () => {
  const errors = [];
  const object = new RetryBudgetObject();
  const budget = createRetryBudget({ ratio: 0, minPerSecond: 2, windowMs: 1000.5, store: durableObjectBudgetStore(namespace(object), { name: "x" }), onStoreError: (e) => errors.push(e) });
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await budget.tryWithdraw());
  assert.deepEqual(answers, [true, true, false]);
  assert.deepEqual(errors, []);
});

test("RetryBudgetObject's 400 names the parameters it refused and the values received", async () => {
  const object = new RetryBudgetObject();
  const res = await object.fetch(new Request("https://budget/?op=w&units=1.5&reserve=2&windowMs=999"));
  assert.equal(res.status, 400);
  assert.equal(await res.text(), 'expected op=d|w, units and reserve (non-negative integers), windowMs (1000 to 60000); received units "1.5", windowMs "999"');
});
